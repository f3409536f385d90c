"""Tailing TANK partition directories (`stream.LogStreamReader`): a directory's segments in log
order, each named by its base sequence number, which stays when TANK renames the active segment
as it rolls it; and the end of the complete bundles of the one being written. A TANK bundle does
not store its own sequence numbers, so a stream's state is the number of the next message."""

from __future__ import annotations

import mmap
import os
from dataclasses import replace
from pathlib import Path

from logcodec.pipeline.plan import ReadOptions
from logcodec.pipeline.tank._files import labels, partition_directories
from logcodec.pipeline.tank._framing import bundle_span
from logcodec.pipeline.tank._indexes import index_points
from logcodec.pipeline.tank._planning import SegmentRange

from logcodec._api import codec
from logcodec.runtime.errors import DecodeError
from logcodec.tank.containers import segment_files

_segment = codec("tank.segment_log")  # a segment's framing: each bundle's length and where its bytes lie


def stream_partitions(options: ReadOptions) -> dict[str, tuple[str | None, int | None, list[tuple[str, Path, int]]]]:
    """{key: (topic, partition, [(segment id, path, base sequence number)] in log order)} of the
    partition directories under the path, keyed by their path under it (`.` for the path itself), as
    a stream's offsets name them. A segment is named by its base sequence number, which stays when
    TANK renames the active segment (`<first>_<secs>.log`) as it rolls it (`<first>-<last>_<secs>.ilog`)."""
    root = Path(options.path).absolute()
    found = {}
    for directory in partition_directories(root):
        topic, partition = labels(directory, options)
        key = "." if directory == root else directory.relative_to(root).as_posix()
        found[key] = (topic, partition, [(str(s.base_seq_num), s.path, s.base_seq_num)
                                         for s in segment_files(directory)])
    return found


def complete_end(path: Path, start: int, state: int | None) -> tuple[int, int | None]:
    """(where the bundles of a segment that is still being written end, from `start`, a bundle's
    start whose first sequence number is `state`; the sequence number after them, None when unknown).
    The walk reads lengths and bundle headers (`bundle_span`) and stops at a bundle cut short at the
    end of the file (still being written), at zeros, or where the framing breaks: what follows is
    read when the segment grows, or when it is rolled (then to its end, as a batch read does)."""
    seq = state
    with open(path, "rb") as f:
        size = os.fstat(f.fileno()).st_size
        if size <= start:
            return start, seq
        with mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as data:
            pos = start
            while pos < size:
                try:
                    body, stop = _segment.entry_content(data, pos, size)
                    n = stop - body
                except DecodeError:
                    break
                if n == 0 or body + n > size:
                    break
                try:
                    seq = bundle_span(data, body, body + n, seq)[1]
                except DecodeError:
                    seq = None  # a header that does not read: numbering resumes at the next index entry
                pos = body + n
    return pos, seq


def relocate(r: SegmentRange) -> SegmentRange:
    """A range of a segment that is no longer at its path: TANK renames the active segment as it rolls
    it; the segment with the same base sequence number in the directory is the same segment."""
    name = Path(r.path).name
    base = name.split("_")[0].split("-")[0].split(".")[0]
    for segment in segment_files(Path(r.path).parent):
        if str(segment.base_seq_num) == base:
            return replace(r, path=str(segment.path))
    return r


def stream_ranges(segment: str, path: Path, start: int, end: int | None, topic, partition, state: int | None,
                  options: ReadOptions) -> list[SegmentRange]:
    """The range of a stream's micro-batch in one segment: [start, end) (end None: to the end of the
    file, a segment no longer written), numbered from `state` (the sequence number at `start`), with the segment's index entries inside
    it to check against and to resume at (as `plan` gives them)."""
    if not path.is_file():
        return []  # deleted since (retention): nothing to read
    end = path.stat().st_size if end is None else end
    if end <= start:
        return []
    index = path.with_name(f"{segment}.index")
    indexed = index_points(index, int(segment), end) if index.is_file() else None
    trusted = indexed if options.rows != "validation" else None
    return [SegmentRange(str(path), start, end, topic, partition, state,
                         {o: q for o, q in (trusted or {}).items() if start <= o <= end},
                         {o: q for o, q in (indexed or {}).items() if start < o < end})]
