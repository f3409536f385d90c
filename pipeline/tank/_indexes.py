"""A TANK segment's `.index` (`tank.segment_index`): the file offset and sequence number of a
bundle about every 4 KB. The planner cuts segments at its entries (`index_points`); the
validation job checks each entry against the log (`index_findings`)."""

from __future__ import annotations

from pathlib import Path

from logcodec.pipeline.tank._framing import bundle_starts

from logcodec._api import codec
from logcodec.runtime.errors import DecodeError

_index = codec("tank.segment_index")


def index_points(index: Path, base_seq_num: int, segment_size: int) -> dict[int, int] | None:
    """{file offset: sequence number} of a segment's index entries; None when the index cannot
    be decoded. Entries that go backwards or point past the log are left out (the validation
    job reports them); the ones kept are still checked against the log by the readers."""
    try:
        entries = _index.decode(index.read_bytes()).entries
    except DecodeError:
        return None
    points: dict[int, int] = {}
    last_offset = last_seq = -1
    for e in entries:
        if last_offset < e.file_offset < segment_size and e.rel_seq_num > last_seq:
            points[e.file_offset] = base_seq_num + e.rel_seq_num
            last_offset, last_seq = e.file_offset, e.rel_seq_num
    return points


def index_findings(log: Path, base_seq_num: int, index: Path) -> list[tuple[int, int, str, int, str]]:
    """Every entry of a segment's index that its log contradicts, as (byte offset of the entry in the
    index file, its size, error kind, byte offset of the bad field, detail): an index that does not
    decode, an entry that does not go forwards, that points past the log or not at the start of a
    bundle, or that names another first sequence number than the bundle's. The log is walked from
    its base by lengths and bundle headers (nothing decompressed); entries pointing past the place
    where its framing breaks cannot be checked (that bundle is quarantined with its own error)."""
    raw = index.read_bytes()
    findings = []
    try:
        entries = _index.decode(raw).entries
    except DecodeError as exc:
        whole = len(raw) // 8 * 8
        findings.append((whole, len(raw) - whole, exc.kind, exc.offset or 0, f"{index.name}: {exc.detail}"))
        entries = _index.decode(raw[:whole]).entries
    starts, framed, size = bundle_starts(log, base_seq_num)
    last_offset = last_rel = -1
    for i, e in enumerate(entries):
        at, seq = 8 * i, base_seq_num + e.rel_seq_num
        where = f"{index.name} entry {i} (sequence number {seq} at {log.name} offset {e.file_offset})"
        if e.file_offset <= last_offset or e.rel_seq_num <= last_rel:
            finding = (at, "does not follow the entry before it (entries ascend by offset and sequence number)")
        elif e.file_offset >= size:
            finding = (at + 4, f"points past the end of the log ({size} bytes)")
        elif e.file_offset >= framed:
            continue  # past the log's broken framing: its bundles cannot be located
        elif e.file_offset not in starts:
            finding = (at + 4, "does not point at the start of a bundle")
        elif starts[e.file_offset] is not None and starts[e.file_offset] != seq:
            finding = (at, f"the bundle there starts at sequence number {starts[e.file_offset]}")
        else:
            last_offset, last_rel = e.file_offset, e.rel_seq_num
            continue
        findings.append((at, 8, "invalid_value", finding[0], f"{where}: {finding[1]}"))
    return findings
