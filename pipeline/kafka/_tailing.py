"""Tailing Kafka logs (`stream.LogStreamReader`): a partition directory's segments in log order,
each named by its base offset, and the end of the complete entries of the one being written.
A Kafka entry carries its own offsets, so a stream keeps no state beyond a byte position."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from logcodec.pipeline.kafka import resync
from logcodec.pipeline.kafka._files import labels
from logcodec.pipeline.kafka._framing import entries, entry_starts
from logcodec.pipeline.plan import FileRange, ReadOptions, cut, files_under

from logcodec._api import codec

_rs = codec("kafka.record_set")


def segment_id(path: Path) -> tuple[str, tuple]:
    """(what a stream's offsets call a segment, its place in its directory): a segment named by its
    base offset (`<base offset>.log`, as Kafka names them) is that number, and segments follow in its
    order; another file is its name, after them."""
    return (path.stem, (0, int(path.stem), "")) if path.stem.isdigit() else (path.name, (1, 0, path.name))


def stream_partitions(options: ReadOptions) -> dict[str, tuple[str | None, int | None, list[tuple[str, Path, None]]]]:
    """{key: (topic, partition, [(segment id, path, None)] in log order)} of the logs under the path:
    one entry per directory (its path under the load path, `.` for the path itself), as a stream's
    offsets name them. (No state: a Kafka entry carries its offsets.)"""
    root = Path(options.path).absolute()
    found: dict[str, tuple] = {}
    files = files_under(root, options.glob)
    for directory in sorted({f.parent for f in files}):
        topic, partition = labels(directory, options)
        segments = sorted((segment_id(f) for f in files if f.parent == directory), key=lambda s: s[1])
        key = "." if directory == root or root.is_file() else directory.relative_to(root).as_posix()
        by_id = {segment_id(f)[0]: f for f in files if f.parent == directory}
        found[key] = (topic, partition, [(name, by_id[name], None) for name, _ in segments])
    return found


def complete_end(path: Path, start: int, state=None) -> tuple[int, None]:
    """(where the entries of a segment that is still being written end, from `start`, an entry's
    start; no state). What follows the last complete entry is not read yet: an entry cut short at
    the end of the file (its bytes still being written), zeros to the end of the file (a
    preallocated segment), and a last entry whose checksum fails there (being written into such
    zeros): the generated decoder must read the last entry whole with its checksum. Bytes where no
    entry decodes, with complete entries after them, are included (a reader reports them as an
    unreadable range); the spans are the reader's own (`entries`)."""
    size = path.stat().st_size
    starts = entry_starts(path, start)
    spans = [(at, following - at, "entry", None) for at, following in zip(starts, starts[1:])]
    framed = start
    if starts:
        framed = starts[-1] + _rs.entry_size(_read(path, starts[-1], _rs.ENTRY_HEADER))
        spans.append((starts[-1], framed - starts[-1], "entry", None))
    if framed < size:
        spans += [(sp.at, sp.size, sp.kind, sp.error) for sp in entries(FileRange(str(path), framed, size), False)]
    while spans and spans[-1][0] + spans[-1][1] == size and spans[-1][2] != "entry" or \
            spans and spans[-1][3] is not None:
        spans.pop()  # zeros, or bytes that do not decode yet, to the end of the file
    if spans:
        at, length, _, _ = spans[-1]
        data = _read(path, at, length)
        if resync.entry_at(data, 0, len(data)) is None:
            spans.pop()  # the last entry's checksum fails: it is being written
    return (spans[-1][0] + spans[-1][1] if spans else start), None


def _read(path: Path, at: int, length: int) -> bytes:
    with open(path, "rb") as f:
        f.seek(at)
        return f.read(length)


def relocate(r: FileRange) -> FileRange:
    """A range of a segment that is no longer at its path: Kafka renames a segment it deletes to
    `<name>.deleted` (and removes it `file.delete.delay.ms` later)."""
    deleted = Path(r.path + ".deleted")
    return replace(r, path=str(deleted)) if deleted.is_file() else r


def stream_ranges(segment: str, path: Path, start: int, end: int | None, topic, partition, state,
                  options: ReadOptions) -> list[FileRange]:
    """The ranges of a stream's micro-batch in one segment: [start, end) (end None: to the end of the
    file, a segment no longer written), cut at entry boundaries into pieces of about `splitBytes`."""
    if not path.is_file():
        return []  # deleted since (retention): nothing to read
    end = path.stat().st_size if end is None else end
    if end <= start:
        return []
    boundaries = [b - start for b in entry_starts(path, start) if start < b < end] \
        if end - start > options.split_bytes else []
    return [FileRange(str(path), a + start, b + start, topic, partition)
            for a, b in cut(boundaries, end - start, options.split_bytes)]
