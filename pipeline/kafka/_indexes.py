"""What a Kafka segment's indexes say, for pruning a read by offset and timestamp: the offset
index (`kafka.offset_index`: positions of offsets) and the time index (`kafka.time_index`). An
index may disagree with its log, so a position taken from one is checked by decoding the entry
there (`offsets_at`)."""

from __future__ import annotations

from pathlib import Path

from logcodec.pipeline.kafka import resync
from logcodec.pipeline.kafka._entries import offset_bounds

from logcodec.kafka.indexes import index_entries
from logcodec.runtime.errors import DecodeError


def offset_index(index: Path, base: int, log_size: int) -> list[tuple[int, int]]:
    """(absolute offset, file position) of a Kafka offset index's entries (`kafka.offset_index`),
    while they ascend and point into the log (a preallocated index ends in zeros)."""
    entries: list[tuple[int, int]] = []
    for e in index_entries("kafka.offset_index", index.read_bytes()):
        relative, position = e.relative_offset, e.position
        if entries and (relative <= entries[-1][0] - base or position <= entries[-1][1]):
            break
        if relative < 0 or not 0 <= position < log_size:
            break
        entries.append((base + relative, position))
    return entries


def timeindex_below(timeindex: Path, base: int, timestamp: int) -> int | None:
    """The largest offset up to which every record's timestamp is below `timestamp`, from a Kafka
    time index (`kafka.time_index`: the largest timestamp so far, and the offset where it was
    seen, while both ascend); None without one."""
    if not timeindex.is_file():
        return None
    found, last = None, None
    for e in index_entries("kafka.time_index", timeindex.read_bytes()):
        if last is not None and (e.timestamp <= last[0] or e.relative_offset <= last[1]):
            break
        last = (e.timestamp, e.relative_offset)
        if e.timestamp < timestamp:
            found = base + e.relative_offset
    return found


def offsets_at(path: Path, position: int, window: int = 1 << 20) -> tuple[int | None, int | None]:
    """(first offset, last offset) of the entry the generated decoder reads at `position`; (None,
    None) when none decodes there."""
    with open(path, "rb") as f:
        f.seek(position)
        data = f.read(window)
        try:
            value, _ = resync.decode_entry_at(data, 0, len(data))
        except DecodeError as exc:
            if exc.kind != "truncated":
                return None, None
            data += f.read(resync.MAX_ENTRY)
            try:
                value, _ = resync.decode_entry_at(data, 0, len(data))
            except DecodeError:
                return None, None
    return offset_bounds(value)
