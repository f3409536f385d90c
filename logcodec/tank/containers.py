"""Formats that are directories of files, built on the generated codecs.

A TANK partition directory holds segment files named by sequence numbers
(`<first>_<secs>.log` for the active one, `<first>-<last>_<secs>.ilog` for
immutable ones, `<first>.log` in older layouts) and each segment's `.index`.
The file names carry what the files do not: each segment's base sequence number.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from logcodec._api import codec
from logcodec.runtime.errors import DecodeError
from logcodec.runtime.primitives import uvarint_bytes
from logcodec.runtime.values import to_json

_SEGMENT = re.compile(r"^(?P<first>\d+)(?:-(?P<last>\d+))?(?:_(?P<secs>\d+))?\.(?P<ext>log|ilog)$")


@dataclass
class Segment:
    path: Path
    base_seq_num: int
    index: Path | None
    value: object = None  # the decoded segment_log


@dataclass
class Partition:
    segments: list[Segment] = field(default_factory=list)

    def messages(self):
        for segment in self.segments:
            for entry in segment.value.entries:
                yield from entry.bundle.messages


def segment_files(directory: Path) -> list[Segment]:
    """The segment files of a partition directory, in sequence order, with their indexes."""
    found = []
    for path in Path(directory).iterdir():
        m = _SEGMENT.match(path.name)
        if m:
            first = int(m.group("first"))
            index = path.with_name(f"{first}.index")
            found.append(Segment(path, first, index if index.exists() else None))
    return sorted(found, key=lambda s: s.base_seq_num)


def check_index(segment: Segment) -> None:
    """Every index entry points at the start of a bundle whose first sequence number it names."""
    starts, offset = {}, 0
    for entry in segment.value.entries:
        starts[offset] = entry.bundle.messages[0].seq_num if entry.bundle.messages else None
        offset += len(uvarint_bytes(entry.len_bundle)) + entry.len_bundle
    index = codec("tank.segment_index").decode(segment.index.read_bytes())
    for i, e in enumerate(index.entries):
        where = f"{segment.index.name}.entries[{i}]"
        if e.file_offset not in starts:
            raise DecodeError("invalid_value", f"offset {e.file_offset} is not the start of a bundle in "
                              f"{segment.path.name}", i * 8 + 4, where)
        if starts[e.file_offset] != segment.base_seq_num + e.rel_seq_num:
            raise DecodeError("invalid_value", f"names sequence number {segment.base_seq_num + e.rel_seq_num}, the "
                              f"bundle there starts at {starts[e.file_offset]}", i * 8, where)


def read_tank_partition(directory) -> Partition:
    """Decode every segment of a TANK partition directory and check each index against its log."""
    partition = Partition(segment_files(Path(directory)))
    log = codec("tank.segment_log")
    for segment in partition.segments:
        try:
            segment.value = log.decode(segment.path.read_bytes(), base_seq_num=segment.base_seq_num)
        except DecodeError as exc:
            raise exc.within(segment.path.name) from None
        if segment.index is not None:
            check_index(segment)
    return partition


def tank_partition_json(directory) -> list[dict]:
    """The messages of a partition as canonical JSON (64-bit integers as strings, as a bundle's
    are): sequence number, timestamp, key and content. A directory without segment files is an error (a wrong path, not an empty partition)."""
    partition = read_tank_partition(directory)
    if not partition.segments:
        raise ValueError(f"{directory}: no TANK segment files here (<first>_<secs>.log, "
                         "<first>-<last>_<secs>.ilog or <first>.log)")
    fields = ("seq_num", "timestamp", "key", "content")
    return [{name: doc[name] for name in fields} for doc in map(to_json, partition.messages())]


#: Directory formats, for `logcodec decode --format NAME DIR`.
DIRECTORY_FORMATS = {"tank.partition": tank_partition_json}
