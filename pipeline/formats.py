"""What a format of the pipeline is: the protocol every format implements, written down once.

The generic code (the data sources, `sources`; tailing, `stream`; the validation job, `validate`)
knows no format by name. It is given format objects by the registry (`registry.formats`) and
calls only the members declared here. A format is a class that derives from `LogFormat`, or,
for each optional capability it has, from that capability's base, a `LogFormat` with more members:

- `Pushdown`: the filters Spark pushes down (`pushFilters`) prune its reads;
- `Tailing`: `spark.readStream` tails its logs (`stream.LogStreamReader`).

Deriving is how a format says what it implements (`class KafkaFormat(Pushdown[...], Tailing[...])`):
the generic code asks `isinstance(fmt, Tailing)`, never whether a member happens to be there, and
the registry refuses a format class that lacks a member of a base it derives from, or whose member
takes other parameters (`registry.problems`).

Every member is called on the driver unless its documentation says otherwise; a task calls `read`
(and `relocate`, tailing) on the format object that Spark pickled with the data source. The options
and ranges a format makes are its own classes, which the generic code reads only through `Options`
and `plan.Range`; they must pickle, since Spark sends them to the tasks.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator, Mapping
from enum import IntEnum
from pathlib import Path
from typing import Any, ClassVar, Generic, Protocol, TypeVar

import pyarrow as pa
from logcodec.pipeline.plan import FileRange, Range

#: The row kind every format offers: one validation result per entry (`tables.VALIDATION_SCHEMA`),
#: what the validation job reads.
VALIDATION = "validation"


class Options(Protocol):
    """What the generic code reads of a format's parsed options (its own frozen dataclass)."""

    @property
    def path(self) -> str:
        """The load path, as given."""

    @property
    def rows(self) -> str:
        """The `rows` option: one of the format's `row_kinds`."""

    @property
    def split_bytes(self) -> int:
        """The `splitBytes` option: the bytes an input partition should hold."""

    @property
    def failfast(self) -> bool:
        """Whether the `mode` option is `failfast` (the first bad entry raises) rather than permissive."""


O = TypeVar("O", bound=Options)
R = TypeVar("R", bound=Range)
F = TypeVar("F", bound=FileRange)


class Claim(IntEnum):
    """How sure a format is that a file is one of its own (`LogFormat.claim`), weakest first. The
    validation job reads a path with the format that claims its files most (`validate.detect_format`)."""

    READABLE = 0   # its reader takes such a file, though nothing in it says so: the choice when nothing else is claimed
    LAYOUT = 1     # where the file lies fits the format (a digit-named file in a digit-named directory)
    CONTENT = 2    # the file's first bytes frame an entry of the format
    NAME = 3       # the file's name is one that only the format uses


class LogFormat(ABC, Generic[O, R]):
    """A format the pipeline reads: a data source `logcodec.<name>` and what the validation job
    needs to find, check and account for its files. `O` is the format's options class, `R` the
    class of the ranges its plans are made of."""

    #: The format's name: `spark.read.format("logcodec.<name>")`, the validation job's `--format`,
    #: the `format` column of its rows.
    name: ClassVar[str]
    #: What its files are called, as the validation job's table and messages say it: "Kafka logs".
    title: ClassVar[str]
    #: What the validation job looks for, for the message when a path holds none: "Kafka logs (*.log)".
    files: ClassVar[str]
    #: The verdict on a file whose bytes are there but in which no entry ever decodes: "not a Kafka log".
    not_a_log: ClassVar[str]
    #: The values of the `rows` option, the default first; `VALIDATION` among them.
    row_kinds: ClassVar[tuple[str, ...]]
    #: Whether it reads object storage locations (`s3://bucket/prefix`) as well as local paths.
    object_storage: ClassVar[bool] = False

    @abstractmethod
    def parse_options(self, options: Mapping[str, str]) -> O:
        """The options of a read, from Spark's (case-insensitive, all-string) options, `path`
        among them; checked once, on the driver. Raises ValueError naming a bad or unknown option."""

    @abstractmethod
    def schema(self, options: O) -> pa.Schema:
        """The Arrow schema of the rows a read with these options yields (`tables.VALIDATION_SCHEMA`
        for `rows=validation`); the data source declares it to Spark (`tables.spark_schema`)."""

    @abstractmethod
    def plan(self, options: O) -> list[list[R]]:
        """The input partitions of a read: each a list of ranges that one task reads in order,
        found by reading as little as the format allows (headers, indexes, metadata); none when
        nothing is there to read. Raises FileNotFoundError when the path does not exist."""

    @abstractmethod
    def read(self, ranges: list[R], options: O) -> Iterator[pa.RecordBatch]:
        """The rows of one input partition as Arrow batches of exactly `schema(options)`; runs in a
        task. A bad entry is a row with its `error` set, and reading goes on; with `failfast` it
        raises the entry's DecodeError instead. A file that cannot be opened raises
        `errors.UnreadableInput`."""

    @abstractmethod
    def claim(self, file: Path) -> Claim | None:
        """How sure the format is that `file` is one of its files (None: not at all), from its name,
        where it lies and at most its first bytes; the validation job asks it of every file under
        the path it is given, to pick the format (`validate.detect_format`)."""

    @abstractmethod
    def check_path(self, path: Path) -> None:
        """Whether a read of `path` (which exists) can find anything; raises ValueError saying why
        not (a file where the format reads directories, a directory without its files). The
        validation job calls it before Spark starts, so that such a path is a usage error."""

    def check_options(self, options: O) -> None:
        """Whether what the options name beyond the path can be used (a database they point at);
        raises ValueError saying why not. The validation job calls it before Spark starts, so that
        such options are a usage error. By default there is nothing to check."""

    @abstractmethod
    def listed_files(self, options: O) -> Mapping[str, int | Mapping[str, int]]:
        """Every file a read with these options covers, empty ones too, with its size in bytes,
        for the validation job's accounting (`validate.summarize`). A format whose metadata places
        its entries gives instead how the size divides by the metadata alone: {"size", "dead",
        "overlap", "past_end"}."""


class Pushdown(LogFormat[O, R]):
    """A format whose reads the filters Spark pushes down prune."""

    @abstractmethod
    def push(self, options: O, filters: list) -> tuple[O, list]:
        """(The options with what `filters`, PySpark's pushed filters, let a read skip, the filters
        Spark must still apply to the rows read). Pushing never changes the rows: a filter that
        only prunes is returned too (`plan.push_filters`)."""


#: One segment of a tailed partition, in log order: (its id in a stream's offsets, its file, the
#: format's state at its start: what `complete_end` and `stream_ranges` need beyond a position).
Segment = tuple[str, Path, Any]
#: One tailed partition: (topic, partition, its segments in log order).
TailedPartition = tuple[str | None, int | None, list[Segment]]


class Tailing(LogFormat[O, F]):
    """A format whose logs `spark.readStream` tails (`stream.LogStreamReader`); its ranges are
    `plan.FileRange`s. A stream's offset is, per partition, a segment id, a byte position and the
    format's state there (None, or what JSON holds; the offsets keep it under `seq`)."""

    @abstractmethod
    def stream_partitions(self, options: O) -> dict[str, TailedPartition]:
        """{key: partition} of the logs under the path, keyed by their directory under it (`.` for
        the path itself) as a stream's offsets name them."""

    @abstractmethod
    def complete_end(self, path: Path, start: int, state: Any) -> tuple[int, Any]:
        """(Where the complete entries of a segment that may still be written end, reading from
        `start`, an entry's start with the format's `state` there; the state at that end). An entry
        cut short at the end of the file, or zeros after the last one, is left for later."""

    @abstractmethod
    def stream_ranges(self, segment: str, path: Path, start: int, end: int | None, topic: str | None,
                      partition: int | None, state: Any, options: O) -> list[F]:
        """The ranges of a micro-batch in one segment: bytes [start, end) of `path` (end None: to
        the end of the file, a segment no longer written), beginning with `state`, cut like a
        batch read's; none when the file is gone."""

    @abstractmethod
    def relocate(self, r: F) -> F:
        """A range of a segment whose file is no longer at its path (renamed as the log rolled it,
        or as it is being deleted): the same range where the segment is now, or `r` itself; runs
        in a task."""


#: The optional capabilities, each a base a format may derive from.
CAPABILITIES: tuple[type, ...] = (Pushdown, Tailing)
