"""Options and read plans shared by the data sources: which bytes of which files each task reads.

A read is planned on the driver and executed by tasks. The plan is a list of input
partitions, each a list of ranges (`Range`): whole small files packed together, or the
pieces of a large file cut at entry boundaries. Planning only walks entry headers (or an
index, or metadata); decoding happens in the tasks. Everything here is plain Python and
pickles, as Spark requires of input partitions. What is particular to a format's plan
(its ranges, how it names topics and partitions) lives in the format's package.
"""

from __future__ import annotations

import fnmatch
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol, TypeVar

#: Default bytes per input partition. Each partition costs Spark about 35 ms, so tens of
#: MB keep that overhead near 1% while a 1 GB file still spreads over every core.
DEFAULT_SPLIT_BYTES = 32 << 20

MODES = ("permissive", "failfast")


@dataclass(frozen=True)
class Pushed:
    """What the filters Spark pushed down (`pushFilters`) let a reader skip: files of other topics
    and partitions, segments and byte ranges that hold no offset in [offset_from, offset_to), batches
    whose records all lie outside [timestamp_from, timestamp_to). None: no bound. Skipping never
    changes results: topic and partition are decided exactly, and offset and timestamp filters go
    back to Spark, which applies them again to the rows that are read."""

    topics: frozenset | None = None
    partitions: frozenset | None = None
    offset_from: int | None = None
    offset_to: int | None = None          # exclusive
    timestamp_from: int | None = None
    timestamp_to: int | None = None       # exclusive

    def keeps(self, topic: str | None, partition: int | None) -> bool:
        """Whether rows of this topic and partition can pass the pushed filters."""
        return ((self.topics is None or topic in self.topics)
                and (self.partitions is None or partition in self.partitions))

    @property
    def by_offset(self) -> bool:
        return self.offset_from is not None or self.offset_to is not None

    @property
    def by_timestamp(self) -> bool:
        return self.timestamp_from is not None or self.timestamp_to is not None

    def offsets_meet(self, first: int | None, last: int | None) -> bool:
        """Whether offsets [first, last] (None: unknown) can meet the pushed offset range."""
        return not ((self.offset_to is not None and first is not None and first >= self.offset_to)
                    or (self.offset_from is not None and last is not None and last < self.offset_from))

    def timestamps_meet(self, least: int | None, most: int | None) -> bool:
        return not ((self.timestamp_to is not None and least is not None and least >= self.timestamp_to)
                    or (self.timestamp_from is not None and most is not None and most < self.timestamp_from))


def push_filters(filters, columns: Mapping[str, str]) -> tuple[Pushed, list]:
    """(what the filters let a reader skip, the filters Spark must still apply). `columns` maps
    the role of a column (topic, partition, offset, timestamp) to its name in the rows read. The
    filters are PySpark's (`pyspark.sql.datasource`, 4.1+), told apart by class name so that this
    module needs no Spark. Topic and partition equality and IN are handled in full (files are kept
    or skipped whole, and every row of a file carries its topic and partition); offset and timestamp
    comparisons only prune, and are returned for Spark to apply; anything else is returned as is."""
    roles = {(name,): role for role, name in columns.items()}
    values: dict = {}
    rest = []
    for f in filters:
        role = roles.get(tuple(getattr(f, "attribute", ()) or ()))
        kind = type(f).__name__
        value = getattr(f, "value", None)
        if role in ("topic", "partition"):
            wanted = {value} if kind == "EqualTo" else set(value) if kind == "In" else None
            if wanted is not None and all(isinstance(v, str if role == "topic" else int) and not isinstance(v, bool)
                                          for v in wanted):
                values[role] = values.get(role, wanted) & wanted
                continue
        elif role in ("offset", "timestamp"):
            bounds = _bounds(kind, value)
            if bounds is not None:
                low, high = values.get(role, (None, None))
                lo, hi = bounds
                values[role] = (lo if low is None else low if lo is None else max(lo, low),
                                hi if high is None else high if hi is None else min(hi, high))
        rest.append(f)
    topics, partitions = values.get("topic"), values.get("partition")
    offsets, timestamps = values.get("offset", (None, None)), values.get("timestamp", (None, None))
    return Pushed(None if topics is None else frozenset(topics), None if partitions is None else frozenset(partitions),
                  *offsets, *timestamps), rest


def _bounds(kind: str, value) -> tuple[int | None, int | None] | None:
    """[from, to) of the integers a comparison keeps; None for what is not a comparison with an integer."""
    if kind == "In":
        if value and all(isinstance(v, int) and not isinstance(v, bool) for v in value):
            return min(value), max(value) + 1
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        return None
    return {"EqualTo": (value, value + 1), "GreaterThan": (value + 1, None), "GreaterThanOrEqual": (value, None),
            "LessThan": (None, value), "LessThanOrEqual": (None, value + 1)}.get(kind)


@dataclass(frozen=True)
class ReadOptions:
    """The options of `spark.read.format(...).option(...)`, checked once on the driver.

    `rows`: one row per `record` (default) or per `batch` / `bundle`.
    `mode`: `permissive` (default) yields everything that decodes and one row with a
    filled `error` column per bad entry; `failfast` raises the first DecodeError.
    `split_bytes` (`splitBytes`): target size of an input partition.
    `glob`: file names to read when the path is a directory (Kafka; default `*.log`).
    `topic`, `partition`: set on every row instead of what the directory names say.
    """

    path: str
    rows: str = "record"
    mode: str = "permissive"
    split_bytes: int = DEFAULT_SPLIT_BYTES
    glob: str = "*.log"
    topic: str | None = None
    partition: int | None = None
    pushed: Pushed = field(default_factory=Pushed)

    @classmethod
    def parse(cls, options: Mapping[str, str], row_kinds: tuple[str, ...]) -> "ReadOptions":
        """From Spark's (case-insensitive, all-string) options; a bad value is a ValueError naming it."""
        opts, rows, mode = common_options(options, ("glob", "topic", "partition"), row_kinds,
                                          "use .load(PATH) with a file or a directory")
        split_bytes = positive_int(opts, "splitbytes", DEFAULT_SPLIT_BYTES)
        partition = opts.get("partition")
        return cls(path=opts["path"], rows=rows, mode=mode, split_bytes=split_bytes,
                   glob=opts.get("glob", "*.log"), topic=opts.get("topic"),
                   partition=None if partition is None else positive_int(opts, "partition", 0, minimum=0,
                                                                         maximum=MAX_PARTITION))

    @property
    def failfast(self) -> bool:
        return self.mode == "failfast"


def common_options(options: Mapping[str, str], more: tuple[str, ...], row_kinds: tuple[str, ...],
                   path_hint: str) -> tuple[dict[str, str], str, str]:
    """What every data source checks of Spark's (case-insensitive, all-string) options: no unknown
    name (the common ones, `path`, `rows`, `mode`, `splitBytes`, and `more`), a path, and `rows`
    and `mode` among their values. Returns (the options by lowercase name, rows, mode); a bad
    one is a ValueError naming it."""
    opts = {k.lower(): v for k, v in options.items()}
    known = {"path", "rows", "mode", "splitbytes", *more}
    unknown = sorted(set(opts) - known)
    if unknown:
        raise ValueError(f"unknown option(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}")
    if not opts.get("path"):
        raise ValueError(f"no path: {path_hint}")
    rows = opts.get("rows", "record").lower()
    if rows not in row_kinds:
        raise ValueError(f"option rows={rows!r}: expected one of {', '.join(row_kinds)}")
    mode = opts.get("mode", "permissive").lower()
    if mode not in MODES:
        raise ValueError(f"option mode={mode!r}: expected one of {', '.join(MODES)}")
    return opts, rows, mode


def positive_int(opts: dict, name: str, default: int, minimum: int = 1, maximum: int | None = None) -> int:
    raw = opts.get(name)
    if raw is None:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ValueError(f"option {name}={raw!r}: expected an integer") from None
    if value < minimum:
        raise ValueError(f"option {name}={raw!r}: expected at least {minimum}")
    if maximum is not None and value > maximum:
        raise ValueError(f"option {name}={raw!r}: expected at most {maximum}")
    return value


class Range(Protocol):
    """What the generic code reads of a range of a plan (a format's own class): how many bytes it
    reads, which is how plans are packed into input partitions (`pack`)."""

    @property
    def size(self) -> int:
        """Bytes the range reads."""


@dataclass(frozen=True)
class FileRange:
    """Bytes [start, end) of one file, beginning and ending at entry boundaries (or the file's end),
    with the topic and partition its rows carry."""

    path: str
    start: int
    end: int
    topic: str | None = None
    partition: int | None = None

    @property
    def size(self) -> int:
        return self.end - self.start


R = TypeVar("R", bound=Range)


def pack(ranges: list[R], split_bytes: int) -> list[list[R]]:
    """Consecutive ranges grouped into input partitions of about `split_bytes` each, in order:
    many small segments share one task, a large one was already cut to size."""
    partitions: list[list[R]] = []
    current: list[R] = []
    size = 0
    for r in ranges:
        if current and size + r.size > split_bytes:
            partitions.append(current)
            current, size = [], 0
        current.append(r)
        size += r.size
    if current:
        partitions.append(current)
    return partitions


def cut(boundaries: list[int], file_size: int, split_bytes: int) -> list[tuple[int, int]]:
    """(start, end) pieces of a file of `file_size` bytes, each at least `split_bytes` long
    (but the last), cut only at `boundaries` (entry starts, ascending)."""
    pieces, start = [], 0
    for b in boundaries:
        if 0 < b < file_size and b - start >= split_bytes:
            pieces.append((start, b))
            start = b
    pieces.append((start, file_size))
    return pieces


def files_under(path: Path, pattern: str) -> list[Path]:
    """`path` itself if it is a file, else every file under it (recursively) whose name matches
    `pattern`, in a stable order (by directory, then name)."""
    if path.is_file():
        return [path]
    if not path.is_dir():
        raise FileNotFoundError(f"no such file or directory: {path}")
    found = []
    for directory, subdirs, names in os.walk(path):
        subdirs.sort()
        found += [Path(directory) / n for n in sorted(names) if fnmatch.fnmatch(n, pattern)]
    return found


#: The largest partition number: Kafka's and TANK's are 32-bit signed, as the `partition` column is.
MAX_PARTITION = (1 << 31) - 1


def partition_number(text: str) -> int | None:
    """The partition number a directory's name is (ASCII digits, at most MAX_PARTITION); None for
    any other name (a number the column cannot hold names no partition)."""
    return int(text) if text.isascii() and text.isdigit() and int(text) <= MAX_PARTITION else None
