"""The plan of a TANK read, on the driver: every segment of every partition directory, a large
one cut where the sequence number is known without reading what precedes it: at the entries of
its `.index`, or, without one, at bundle boundaries found from the bundle headers."""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field, replace
from pathlib import Path

from logcodec.pipeline.plan import FileRange, ReadOptions, cut, pack, push_filters
from logcodec.pipeline.tank._files import labels, partition_directories
from logcodec.pipeline.tank._framing import header_points
from logcodec.pipeline.tank._indexes import index_points

from logcodec.tank.containers import segment_files


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


def push(options: ReadOptions, filters) -> tuple[ReadOptions, list]:
    """The read options with the topic and partition filters Spark pushed (handled in full: other
    partition directories are not opened), and the filters Spark must still apply."""
    pushed, rest = push_filters(filters, {"topic": "topic", "partition": "partition"})
    return replace(options, pushed=pushed), rest


def plan(options: ReadOptions) -> list[list[SegmentRange]]:
    """The input partitions of a read: every segment of every partition directory, large ones
    cut at index entries (or, without an index, at bundle boundaries found from headers)."""
    ranges = []
    # Absolute: tasks run elsewhere (an executor's working directory is not the driver's).
    for directory in partition_directories(Path(options.path).absolute()):
        topic, partition = labels(directory, options)
        if not options.pushed.keeps(topic, partition):
            continue
        for segment in segment_files(directory):
            size = segment.path.stat().st_size
            # The validation job checks the indexes, so it does not cut segments where they say.
            trusted = segment.index if options.rows != "validation" else None
            indexed = index_points(segment.index, segment.base_seq_num, size) if segment.index else None
            points = indexed if trusted else None
            if points is None and size > options.split_bytes:
                points = header_points(segment.path, segment.base_seq_num)
            points = points or {0: segment.base_seq_num}
            offsets = sorted(points)
            for start, end in cut(offsets, size, options.split_bytes):
                first = segment.base_seq_num if start == 0 else points[start]
                inside = offsets[bisect.bisect_left(offsets, start):bisect.bisect_right(offsets, end)]
                ranges.append(SegmentRange(str(segment.path), start, end, topic, partition, first,
                                           {offset: points[offset] for offset in inside},
                                           {o: q for o, q in (indexed or {}).items() if start < o < end}))
    return pack(ranges, options.split_bytes)
