"""The plan of a Kafka read, on the driver: every matching file, large ones cut at entry
boundaries found from the offset and size fields alone; with pushed filters, only the
segments and byte ranges that can hold rows that pass them."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from logcodec.pipeline.kafka._files import labels
from logcodec.pipeline.kafka._framing import entry_starts
from logcodec.pipeline.kafka._indexes import offset_index, offsets_at, timeindex_below
from logcodec.pipeline.plan import (
    FileRange,
    Pushed,
    ReadOptions,
    cut,
    files_under,
    pack,
    push_filters,
)


def push(options: ReadOptions, filters) -> tuple[ReadOptions, list]:
    """The read options with what Spark's pushed filters let the reader skip (`plan.push_filters`),
    and the filters Spark must still apply. Topic and partition filters are handled in full for
    every row kind; offset and timestamp ranges prune record reads only."""
    columns = {"topic": "topic", "partition": "partition"}
    if options.rows == "record":
        columns.update(offset="offset", timestamp="timestamp")
    pushed, rest = push_filters(filters, columns)
    return replace(options, pushed=pushed), rest


def plan(options: ReadOptions) -> list[list[FileRange]]:
    """The input partitions of a read: every matching file, large ones cut at entry boundaries.
    With pushed filters (`push`): files of other topics and partitions are not opened; with an
    offset or timestamp range, segments that cannot hold it are skipped, and a segment's `.index`
    (and `.timeindex`) narrows the bytes read (`segment_span`)."""
    pushed = options.pushed
    ranges = []
    # Absolute: tasks run elsewhere (an executor's working directory is not the driver's).
    files = files_under(Path(options.path).absolute(), options.glob)
    following = _next_bases(files)
    for path in files:
        topic, partition = labels(path.parent, options)
        if not pushed.keeps(topic, partition):
            continue
        size = path.stat().st_size
        span = segment_span(path, size, following.get(path), pushed) if pushed.by_offset or pushed.by_timestamp \
            else (0, size)
        if span is None:
            continue
        start, end = span
        boundaries = [b - start for b in entry_starts(path) if start < b < end] \
            if end - start > options.split_bytes else []
        pieces = [(a + start, b + start) for a, b in cut(boundaries, end - start, options.split_bytes)]
        if pushed.by_offset and len(pieces) > 1:
            pieces = _pieces_in_range(path, pieces, pushed)
        ranges += [FileRange(str(path), a, b, topic, partition) for a, b in pieces]
    return pack(ranges, options.split_bytes)


def _pieces_in_range(path: Path, pieces: list[tuple[int, int]], pushed: Pushed) -> list[tuple[int, int]]:
    """The pieces of a segment (cut at entry boundaries) that can hold offsets of the pushed range.
    Offsets ascend through a segment, so every offset of a piece lies below the first offset of the
    next piece (read by decoding the entry there): a piece is dropped when the next one starts at or
    below the range's start, or when it starts itself at or after the range's end (and so is every
    piece after it)."""
    firsts = [None] + [offsets_at(path, a)[0] for a, _ in pieces[1:]]
    kept = []
    for i, piece in enumerate(pieces):
        if pushed.offset_to is not None and firsts[i] is not None and firsts[i] >= pushed.offset_to:
            break
        following = firsts[i + 1] if i + 1 < len(pieces) else None
        if pushed.offset_from is not None and following is not None and following <= pushed.offset_from:
            continue
        kept.append(piece)
    return kept


def _next_bases(files: list[Path]) -> dict[Path, int]:
    """{segment: the base offset of the next segment in its directory}, for segments named by their
    base offset (`<base offset>.log`, as Kafka names them)."""
    following: dict[Path, int] = {}
    by_directory: dict[Path, list[tuple[int, Path]]] = {}
    for f in files:
        if f.stem.isdigit():
            by_directory.setdefault(f.parent, []).append((int(f.stem), f))
    for segments in by_directory.values():
        segments.sort()
        for (_, f), (base, _) in zip(segments, segments[1:]):
            following[f] = base
    return following


def segment_span(path: Path, size: int, next_base: int | None, pushed) -> tuple[int, int] | None:
    """The bytes [start, end) of a segment that can hold records in the pushed offset and timestamp
    ranges; None when none can. A segment named by its base offset holds offsets from it up to the
    next segment's base. Its `.timeindex` (where present) says up to which offset every timestamp is
    below the range's start; its `.index` (where present) gives a position from which to read and
    one at which to stop. Every position taken from an index is checked by decoding the entry there
    (`offsets_at`): an index that disagrees with its log is not used."""
    if not path.stem.isdigit():
        return 0, size
    base = int(path.stem)
    low, high = pushed.offset_from, pushed.offset_to
    if pushed.timestamp_from is not None:
        below = timeindex_below(path.with_suffix(".timeindex"), base, pushed.timestamp_from)
        if below is not None:
            low = below + 1 if low is None else max(low, below + 1)
    if (high is not None and base >= high) or (low is not None and next_base is not None and next_base <= low):
        return None
    start, end = 0, size
    index = path.with_suffix(".index")
    if (low is not None or high is not None) and index.is_file():
        entries = offset_index(index, base, size)
        if low is not None:
            for offset, position in reversed([e for e in entries if e[0] <= low]):
                first, _ = offsets_at(path, position)
                if first is not None and first <= low:  # entries before it end below `low`
                    start = position
                    break
        if high is not None:
            # The first entry whose batch starts at or after `high` (an entry names its batch's last
            # offset, so the batch of the first entry at or above `high` may still start below it).
            for _, position in [e for e in entries if e[0] >= high][:2]:
                first, _ = offsets_at(path, position)
                if first is not None and first >= high and position > start:
                    end = position
                    break
    return start, end
