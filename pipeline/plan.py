"""Options and read plans shared by the data sources: which bytes of which files each task reads.

A read is planned on the driver and executed by tasks. The plan is a list of input
partitions, each a list of `FileRange`s: whole small files packed together, or the
pieces of a large file cut at batch or bundle boundaries. Planning only walks entry
headers (Kafka's offset and size, TANK's varint lengths and indexes); decoding
happens in the tasks. Everything here is plain Python and pickles, as Spark requires
of input partitions.
"""

from __future__ import annotations

import fnmatch
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

#: Default bytes per input partition. Each partition costs Spark about 35 ms, so tens of
#: MB keep that overhead near 1% while a 1 GB file still spreads over every core.
DEFAULT_SPLIT_BYTES = 32 << 20

MODES = ("permissive", "failfast")


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

    @classmethod
    def parse(cls, options: Mapping[str, str], row_kinds: tuple[str, ...]) -> "ReadOptions":
        """From Spark's (case-insensitive, all-string) options; a bad value is a ValueError naming it."""
        opts, rows, mode = common_options(options, ("glob", "topic", "partition"), row_kinds,
                                          "use .load(PATH) with a file or a directory")
        split_bytes = _positive_int(opts, "splitbytes", DEFAULT_SPLIT_BYTES)
        partition = opts.get("partition")
        return cls(path=opts["path"], rows=rows, mode=mode, split_bytes=split_bytes,
                   glob=opts.get("glob", "*.log"), topic=opts.get("topic"),
                   partition=None if partition is None else _positive_int(opts, "partition", 0, minimum=0))

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


def _positive_int(opts: dict, name: str, default: int, minimum: int = 1) -> int:
    raw = opts.get(name)
    if raw is None:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ValueError(f"option {name}={raw!r}: expected an integer") from None
    if value < minimum:
        raise ValueError(f"option {name}={raw!r}: expected at least {minimum}")
    return value


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


@dataclass(frozen=True)
class SegmentRange(FileRange):
    """A range of a TANK segment. Its bundles' sequence numbers follow from `first_seq`, the
    number of its first message (the file name's base, or an index entry's). `checkpoints`
    are the index entries inside the range, (file offset, sequence number): the reader checks
    the log against each one and resumes numbering from it after a bad bundle."""

    first_seq: int | None = None
    checkpoints: dict[int, int] = field(default_factory=dict)
    #: Where reading may resume after a bundle whose framing breaks: the index entries inside
    #: the range, (file offset, sequence number), trusted or not (the reader decodes the bundle
    #: there before it resumes).
    resume: dict[int, int] = field(default_factory=dict)


def pack(ranges: list[FileRange], split_bytes: int) -> list[list[FileRange]]:
    """Consecutive ranges grouped into input partitions of about `split_bytes` each, in order:
    many small segments share one task, a large one was already cut to size."""
    partitions: list[list[FileRange]] = []
    current: list[FileRange] = []
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


_TOPIC_PARTITION = re.compile(r"^(?P<topic>.+)-(?P<partition>\d+)$")


def kafka_topic_partition(directory: Path) -> tuple[str | None, int | None]:
    """Topic and partition from a Kafka log directory's name, `<topic>-<partition>`; else (None, None)."""
    m = _TOPIC_PARTITION.match(directory.name)
    return (m.group("topic"), int(m.group("partition"))) if m else (None, None)
