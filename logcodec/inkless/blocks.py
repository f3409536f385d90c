"""Inkless block tools: build objects and their metadata, read a partition back, check metadata
against an object. Each works with either form of metadata: the seed's (`inkless.block_metadata`
values, see `logcodec.inkless`) and Inkless's shipped rows (`logcodec.inkless.shipped`).

Builder (`BlockBuilder`). Buffers the batches of many partitions, as an Inkless broker does for
one commit interval, and closes a block when the buffered bytes reach a size limit (8 MiB by
default, `inkless.produce.buffer.max.bytes`) or when a time window has passed since the first batch
went in (250 ms, `inkless.produce.commit.interval.ms`). Like Inkless's `Writer`, it checks the size
after adding a whole produce request, which is never split: an object may pass the limit, and a
request bigger than the limit closes the block it lands in (alone, if the block was empty). The
clock is injectable, so tests are deterministic. A closed `Block` holds the object (batches
stable-sorted by topic id and partition, see `logcodec.inkless.topic_id_sort_key`) and its metadata
in both forms.

Offsets. Inkless stores each (produce request, partition) with the offsets the producer wrote
(from 0) and leader epoch 0, assigns absolute offsets when it commits the object, and patches them
in when it serves a fetch: `base_offset` lies outside the CRC. The builder does the same: it never
rewrites batch bytes; the shipped rows carry absolute offsets, assigned per partition from a next
offset (given, else 0) that advances across blocks by `last_offset_delta + 1` per batch, as Inkless's
high watermark does. The seed's metadata has no offsets; its batches are read as stored.

Reader (`read_batch_bytes`, `read_batches`, `read_records`). One partition's batches (their
bytes, decoded, or their records) from an object and its metadata, each range checked as the
validator checks it (the first problem raises). With shipped metadata the batches come back as
Inkless serves them: absolute base offsets (a coalesced row's batches get consecutive ones), and for
a log-append-time row the row's append time as max timestamp, with the timestamp type set and the
CRC computed anew. The bytes are patched, never re-encoded, so a batch compressed by another
library keeps its bytes.

Validator (`validate`). Every problem, not only the first, as `DecodeError` values:

- `invalid_length`: a range that ends past the object; a range that overlaps another; a seed batch
  whose `size` is not the length of the batch there; a shipped row whose range does not hold whole
  batches end to end; a file row whose `size` is not the object's.
- `invalid_value`: a seed `number_of_records` that is not what the batch holds; a shipped row whose
  batches do not exactly fill its offsets [base_offset, last_offset] (each takes
  `last_offset_delta + 1`, as Inkless relocates coalesced runs), whose magic or max timestamp is not
  its batches', whose `file_id` is not the file's; rows of one partition whose offsets overlap or
  whose byte order is not their offset order.
- whatever decoding a range as `kafka.record_batch_v2` raises: `checksum_mismatch` for a bad CRC,
  `corrupt_compressed`, `truncated`, ...
- `trailing_bytes`: dead bytes, bytes of the object that no range covers. In the shipped form they
  are normal after the control plane rejected a batch; `allow_dead_bytes=True` leaves them out.

Each names the byte offset in the object and the metadata entry (`topic_partitions[1].batches[0]`,
`batches[3]`), followed by the field or the decoder's path (`batches[3].record_batch_v2[1].crc`);
dead bytes name `object`. `validate(..., strict=True)` raises the first (by offset) instead.
"""

from __future__ import annotations

import time
import uuid
from collections import defaultdict
from dataclasses import dataclass
from itertools import groupby

from logcodec._api import codec
from logcodec.kafka.records import Record, batch_records
from logcodec.runtime.errors import DecodeError, EncodeError

from .document import (
    MAGIC,
    VERSION,
    document_from_json,
    document_from_yaml,
    document_to_json,
    document_to_yaml,
    metadata_from_document,
    metadata_to_document,
    object_key,
    topic_partition_sort_key,
    uuid_from_either_text,
    uuid_to_base64url,
)
from .shipped import (
    CREATE_TIME,
    LOG_APPEND_TIME,
    MAGIC_V2,
    NO_TIMESTAMP_TYPE,
    BatchRow,
    FileRow,
    ShippedMetadata,
    datetime_from_ms,
    dump_shipped_json,
    load_shipped_json,
)

#: Inkless's defaults: `inkless.produce.buffer.max.bytes` and `inkless.produce.commit.interval.ms`.
DEFAULT_SIZE_LIMIT = 8 * 1024 * 1024
DEFAULT_WINDOW_MS = 250

BATCH_FORMAT = "kafka.record_batch_v2"
METADATA_FORMAT = "inkless.block_metadata"
SEED, SHIPPED = "seed", "shipped"

_S32_MAX = (1 << 31) - 1
_RESERVED_IDS = (bytes(16), bytes(15) + b"\x01")  # Kafka's Uuid.ZERO_UUID and ONE_UUID
_TOPIC_NAME_NAMESPACE = uuid.uuid5(uuid.NAMESPACE_URL, "logcodec:inkless:topic-name")


# ---------------------------------------------------------------- ids

def random_block_id() -> bytes:
    """A random version 4 UUID as Kafka's `Uuid.randomUuid` makes one (Inkless names objects with
    it): never the nil id or the metadata topic's, never one whose base64url text starts with `-`."""
    while True:
        raw = uuid.uuid4().bytes
        if raw not in _RESERVED_IDS and not uuid_to_base64url(raw).startswith("-"):
            return raw


def topic_id_for_name(name: str) -> bytes:
    """The topic id the builder and the CLI give a topic named without one.

    Kafka gives each topic a random id when it is created; for blocks built outside a cluster, a
    version 5 UUID of the name (in a namespace of logcodec's own) lets separate runs, and a later
    `logcodec inkless read --topic NAME`, agree on the id without a table of ids."""
    return uuid.uuid5(_TOPIC_NAME_NAMESPACE, name).bytes


def _topic_id_bytes(topic_id) -> bytes:
    if isinstance(topic_id, str):
        return uuid_from_either_text(topic_id, "topic_id")
    if isinstance(topic_id, uuid.UUID):
        return topic_id.bytes
    if isinstance(topic_id, (bytes, bytearray, memoryview)) and len(topic_id) == 16:
        return bytes(topic_id)
    raise EncodeError("invalid_value", f"a topic id is 16 bytes, a uuid.UUID or its text, not {topic_id!r}", None,
                      "topic_id")


# ---------------------------------------------------------------- batches in a range

def _framed_batches(data: bytes, start: int, end: int, path: str) -> list[tuple[int, int]]:
    """(offset, size) of each batch laid end to end in data[start:end], by their length fields
    (the codec's `entry_size`); `invalid_length` when the range does not hold whole batches."""
    spans, pos = [], start
    while pos < end:
        try:
            size = _batch_size(data, pos, end)
        except DecodeError as exc:  # a header cut by the range's end, or one declaring too few bytes
            raise DecodeError("invalid_length", f"the batch at {pos}: {exc.detail}", exc.offset, path) from None
        if pos + size > end:
            raise DecodeError("invalid_length", f"the batch at {pos} takes {size} bytes, past the end "
                              f"of the range at {end}", pos, path)
        spans.append((pos, size))
        pos += size
    return spans


def _batch_size(data, pos: int, end: int) -> int:
    """The bytes the batch at `pos` declares, from its header's bytes alone (the codec's
    `entry_size`; `data` may be a window of the object); DecodeError with the object's offsets."""
    batches = codec(BATCH_FORMAT)
    try:
        return batches.entry_size(data[pos:min(end, pos + batches.ENTRY_HEADER)])
    except DecodeError as exc:
        raise DecodeError(exc.kind, exc.detail, pos + (exc.offset or 0), exc.path) from None


def _decode_batch(data: bytes, pos: int, size: int, path: str, root: str = "record_batch_v2",
                  tuples: bool = False):
    """The batch in data[pos:pos + size] (its records as tuples with `tuples`); a decoding error is
    moved to the object's offsets and put under `path`, its root renamed `root`
    (`record_batch_v2[1]` for a coalesced row's second)."""
    try:
        return codec(BATCH_FORMAT).decode(data[pos:pos + size], tuples=tuples, lazy=False)
    except DecodeError as exc:
        inner = root + exc.path[len("record_batch_v2"):] if exc.path.startswith("record_batch_v2") else exc.path
        where = f"{path}.{inner}" if path else inner
        raise DecodeError(exc.kind, exc.detail, None if exc.offset is None else pos + exc.offset, where) from None


def _records_batches(records) -> list[tuple[bytes, object]]:
    """(bytes, decoded value) of each batch in `records` (one or more laid end to end, as a
    produce request carries them for a partition); errors name `records` or `record_batch_v2[k]`."""
    if not isinstance(records, (bytes, bytearray, memoryview)):
        raise EncodeError("invalid_value", f"records are bytes, not {type(records).__name__}", None, "records")
    data = bytes(records)
    return [(data[pos:pos + size], _decode_batch(data, pos, size, "", f"record_batch_v2[{k}]"))
            for k, (pos, size) in enumerate(_framed_batches(data, 0, len(data), "records"))]


# ---------------------------------------------------------------- metadata entries, either form

@dataclass(slots=True)
class Extent:
    """One metadata entry: where it says batches lie, and what it says they hold."""

    path: str
    topic_id: bytes
    topic: str | None  # the seed's topic name; the shipped rows name topics by id only
    partition: int
    start: int
    size: int
    record_count: int | None = None  # the seed's number_of_records
    row: BatchRow | None = None  # the shipped row

    @property
    def end(self) -> int:
        return self.start + self.size


def metadata_extents(metadata) -> list[Extent]:
    """Every entry of the metadata (either form), in the metadata's order."""
    if isinstance(metadata, ShippedMetadata):
        return [Extent(f"batches[{i}]", row.topic_id, None, row.partition, row.byte_offset, row.byte_size, row=row)
                for i, row in enumerate(metadata.batches)]
    if not hasattr(metadata, "topic_partitions"):
        raise TypeError(f"metadata is an inkless.block_metadata value or ShippedMetadata, not {type(metadata).__name__}")
    return [Extent(f"topic_partitions[{i}].batches[{j}]", bytes(tp.id), tp.name, tp.partition, b.byte_offset, b.size,
                    record_count=b.number_of_records)
            for i, tp in enumerate(metadata.topic_partitions) for j, b in enumerate(tp.batches)]


def check_extent(data: bytes, ext: Extent, tuples: bool = False) -> tuple[list[DecodeError], list]:
    """The problems of one entry against the object, and (offset, size, decoded value) of each of
    its batches; with `tuples`, their records (and headers) in their tuple form, as
    `decode(..., tuples=True)` gives them (for readers that turn them into columns)."""
    if ext.start < 0 or ext.size < 0:  # rows built in code are not checked as a loaded document is
        field = "byte_offset" if ext.start < 0 else ("byte_size" if ext.row is not None else "size")
        return [DecodeError("invalid_length", f"range of {ext.size} bytes at {ext.start}: neither may be negative",
                            max(ext.start, 0), f"{ext.path}.{field}")], []
    if ext.start + ext.size > len(data):
        return [DecodeError("invalid_length", f"range [{ext.start}, {ext.end}) ends past the end of the object "
                            f"({len(data)} bytes)", ext.start, ext.path)], []
    try:
        return _check_seed_batch(data, ext, tuples) if ext.row is None else _check_row(data, ext, tuples)
    except DecodeError as exc:
        return [exc], []


def _check_seed_batch(data: bytes, ext: Extent, tuples: bool) -> tuple[list[DecodeError], list]:
    """A seed entry is exactly one batch, holding `number_of_records` records."""
    try:
        declared = _batch_size(data, ext.start, len(data))
    except DecodeError as exc:
        raise DecodeError("invalid_length", f"size {ext.size}, but the batch at {ext.start}: {exc.detail}",
                          ext.start, f"{ext.path}.size") from None
    if declared != ext.size:
        raise DecodeError("invalid_length", f"size {ext.size}, but the batch at {ext.start} takes {declared} bytes",
                          ext.start, f"{ext.path}.size")
    batch = _decode_batch(data, ext.start, ext.size, ext.path, tuples=tuples)
    found = [(ext.start, ext.size, batch)]
    if len(batch.records) != ext.record_count:
        return [DecodeError("invalid_value", f"number_of_records {ext.record_count}, but the batch holds "
                            f"{len(batch.records)}", ext.start, f"{ext.path}.number_of_records")], found
    return [], found


def _check_row(data: bytes, ext: Extent, tuples: bool) -> tuple[list[DecodeError], list]:
    """A shipped row is one or more whole batches that fill its offsets exactly."""
    row = ext.row
    if ext.size == 0:
        raise DecodeError("invalid_length", "byte_size 0: the row holds no batch", ext.start, f"{ext.path}.byte_size")
    spans = _framed_batches(data, ext.start, ext.end, ext.path)
    found = [(pos, size, _decode_batch(data, pos, size, ext.path, f"record_batch_v2[{k}]", tuples))
             for k, (pos, size) in enumerate(spans)]
    batches = [batch for _, _, batch in found]
    findings = []
    if row.magic != MAGIC_V2:
        findings.append(DecodeError("invalid_value", f"magic {row.magic}, but its batches have magic {MAGIC_V2}",
                                    ext.start, f"{ext.path}.magic"))
    filled = sum(b.last_offset_delta + 1 for b in batches)
    if row.offset_count != filled:
        findings.append(DecodeError(
            "invalid_value", f"offsets [{row.base_offset}, {row.last_offset}] are {row.offset_count}, but its "
            f"{len(batches)} batch(es) fill {filled} (each takes last_offset_delta + 1)", ext.start,
            f"{ext.path}.last_offset"))
    max_timestamp = max(b.max_timestamp for b in batches)
    if row.batch_max_timestamp != max_timestamp:
        findings.append(DecodeError("invalid_value", f"batch_max_timestamp {row.batch_max_timestamp}, but its "
                                    f"batches' greatest max timestamp is {max_timestamp}", ext.start,
                                    f"{ext.path}.batch_max_timestamp"))
    return findings, found


# ---------------------------------------------------------------- validator

def validate(data, metadata, *, strict: bool = False, allow_dead_bytes: bool = False) -> list[DecodeError]:
    """Every problem of `metadata` (either form) against the object `data`, ordered by byte
    offset (see the module's docstring for what is checked and which kind each problem has).
    An empty list means the metadata describes the object exactly. `strict=True` raises the first
    problem instead; `allow_dead_bytes=True` leaves out bytes that no entry covers."""
    data = bytes(data)
    extents = metadata_extents(metadata)
    findings = []
    if isinstance(metadata, ShippedMetadata):
        findings += object_file_findings(data, metadata) + partition_order_findings(extents)
    for ext in extents:
        findings += check_extent(data, ext)[0]
    findings += overlap_findings(extents)
    if not allow_dead_bytes:
        findings += [DecodeError("trailing_bytes", f"bytes [{start}, {end}) ({end - start}) are covered by no "
                                 "metadata entry (dead bytes)", start, "object")
                     for start, end in uncovered_ranges(len(data), extents)]
    findings.sort(key=lambda f: -1 if f.offset is None else f.offset)
    if strict and findings:
        raise findings[0]
    return findings


def dead_bytes(data, metadata) -> list[tuple[int, int]]:
    """[start, end) of each run of bytes of the object that no metadata entry covers."""
    return uncovered_ranges(len(data), metadata_extents(metadata))


def uncovered_ranges(size: int, extents: list[Extent]) -> list[tuple[int, int]]:
    """[start, end) of each run of an object of `size` bytes that no entry covers (dead bytes)."""
    gaps, pos = [], 0
    for ext in sorted(extents, key=lambda e: e.start):
        start = min(ext.start, size)
        if start > pos:
            gaps.append((pos, start))
        pos = max(pos, min(ext.end, size))
    if pos < size:
        gaps.append((pos, size))
    return gaps


def overlap_findings(extents: list[Extent]) -> list[DecodeError]:
    """An `invalid_length` finding for each entry that starts inside an earlier one."""
    findings, furthest = [], None  # the entry reaching furthest so far
    for ext in sorted(extents, key=lambda e: (e.start, e.end)):
        if furthest is not None and ext.start < furthest.end:
            findings.append(DecodeError("invalid_length", f"range [{ext.start}, {ext.end}) overlaps {furthest.path} "
                                        f"[{furthest.start}, {furthest.end})", ext.start, ext.path))
        if furthest is None or ext.end > furthest.end:
            furthest = ext
    return findings


def object_file_findings(data: bytes, meta: ShippedMetadata) -> list[DecodeError]:
    """Where the shipped `files` row and the batch rows disagree with the object: its size, its file id."""
    findings = []
    if meta.file.size != len(data):
        findings.append(DecodeError("invalid_length", f"size {meta.file.size}, but the object is {len(data)} bytes",
                                    min(meta.file.size, len(data)), "files[0].size"))
    for i, row in enumerate(meta.batches):
        if row.file_id != meta.file.file_id:
            findings.append(DecodeError("invalid_value", f"file_id {row.file_id}, but the object's file is "
                                        f"{meta.file.file_id}", row.byte_offset, f"batches[{i}].file_id"))
    return findings


def partition_order_findings(extents: list[Extent]) -> list[DecodeError]:
    """Within a partition, offsets do not overlap and byte order is offset order."""
    by_partition = defaultdict(list)
    for ext in extents:
        by_partition[(ext.topic_id, ext.partition)].append(ext)
    findings = []
    for group in by_partition.values():
        group.sort(key=lambda e: e.row.base_offset)
        for before, ext in zip(group, group[1:]):
            if ext.row.base_offset <= before.row.last_offset:
                findings.append(DecodeError("invalid_value", f"offsets from {ext.row.base_offset} overlap those of "
                                            f"{before.path} (up to {before.row.last_offset})", ext.start,
                                            f"{ext.path}.base_offset"))
            elif ext.start < before.start:
                findings.append(DecodeError("invalid_value", f"lies before {before.path} in the object but holds later "
                                            "offsets (a partition's batches lie in offset order)", ext.start,
                                            f"{ext.path}.byte_offset"))
    return findings


# ---------------------------------------------------------------- reader

def read_batch_bytes(data, metadata, *, partition: int, topic: str | None = None, topic_id=None,
                     from_offset: int | None = None) -> list[bytes]:
    """The bytes of one partition's batches, in offset order, as a fetch serves them (see
    `read_batches`, which decodes them): for the shipped form, with absolute base offsets patched
    in and, for a log-append-time row, the append time and the CRC it changes."""
    return [raw for raw, _ in _read(data, metadata, partition, topic, topic_id, from_offset)]


def read_batches(data, metadata, *, partition: int, topic: str | None = None, topic_id=None,
                 from_offset: int | None = None) -> list:
    """The decoded batches of one partition, in offset order, from an object and its metadata
    (either form). Name the topic by `topic` (its name: the seed form only) or `topic_id` (16
    bytes, a `uuid.UUID` or either UUID text). With `from_offset`, batches that end before it are
    left out. A problem with one of the partition's ranges raises it as `DecodeError`; a partition
    the metadata does not list has no batches."""
    return [batch for _, batch in _read(data, metadata, partition, topic, topic_id, from_offset)]


def read_records(data, metadata, *, partition: int, topic: str | None = None, topic_id=None,
                 from_offset: int | None = None) -> list[Record]:
    """The records of one partition (as `logcodec.kafka.kafka_records` resolves them: absolute offsets
    and timestamps) from `from_offset` on; see `read_batches`."""
    records = [r for b in read_batches(data, metadata, partition=partition, topic=topic, topic_id=topic_id,
                                       from_offset=from_offset) for r in batch_records(b)]
    return records if from_offset is None else [r for r in records if r.offset >= from_offset]


def _read(data, metadata, partition, topic, topic_id, from_offset) -> list[tuple[bytes, object]]:
    data = bytes(data)
    served = []
    for ext in _partition_extents(metadata, partition, topic, topic_id):
        findings, found = check_extent(data, ext)
        if findings:
            raise findings[0]
        running = None if ext.row is None else ext.row.base_offset
        for pos, size, batch in found:
            served.append((served_bytes(data[pos:pos + size], batch, running, ext.row), batch))
            if running is not None:
                running += batch.last_offset_delta + 1
    if from_offset is not None:
        served = [(raw, b) for raw, b in served if b.base_offset + b.last_offset_delta >= from_offset]
    return served


def _partition_extents(metadata, partition: int, topic, topic_id) -> list[Extent]:
    if (topic is None) == (topic_id is None):
        raise ValueError("name the topic by topic= (its name) or topic_id=, exactly one of them")
    if topic is not None and isinstance(metadata, ShippedMetadata):
        raise ValueError("the shipped form names topics by id only: pass topic_id=")
    wanted = None if topic_id is None else _topic_id_bytes(topic_id)
    chosen = [e for e in metadata_extents(metadata)
              if e.partition == partition and (e.topic == topic if wanted is None else e.topic_id == wanted)]
    if isinstance(metadata, ShippedMetadata):
        chosen.sort(key=lambda e: e.row.base_offset)
    return chosen


def served_bytes(raw: bytes, batch, base_offset: int | None, row: BatchRow | None) -> bytes:
    """A batch as Inkless's fetch path serves a shipped row's batch (the seed's as stored): its
    absolute base offset (outside the CRC) and, for a log-append-time row, the timestamp type bit
    and the row's append time as max timestamp, both under the CRC, which is computed anew. The
    decoded value is patched to match."""
    if base_offset is None:
        return raw
    batches = codec(BATCH_FORMAT)
    header, _ = batches.decode_part(batches.HEADER, raw[:batches.HEADER_MAX])
    header.base_offset = batch.base_offset = base_offset
    if row.timestamp_type == LOG_APPEND_TIME:
        header.attributes.timestamp_type = batch.attributes.timestamp_type = batches.TimestampType.log_append_time
        header.max_timestamp = batch.max_timestamp = row.log_append_timestamp
    head = batches.encode_part(batches.HEADER, header)
    out = batches.checksums_filled(head + raw[len(head):])
    batch.crc = batches.decode_part(batches.HEADER, out[:batches.HEADER_MAX])[0].crc
    return out


# ---------------------------------------------------------------- builder

@dataclass(slots=True)
class BlockEntry:
    """One batch of a closed block: whose it is, where it lies, and what the metadata says of it."""

    topic: str
    topic_id: bytes
    partition: int
    byte_offset: int
    size: int
    record_count: int
    offset_count: int  # last_offset_delta + 1: the offsets the batch takes when committed
    max_timestamp: int
    timestamp_type: int  # the topic's timestamp type, which Inkless records in the row
    magic: int = MAGIC_V2


@dataclass(slots=True)
class Block:
    """A closed block: the object's bytes, its id and key, when it closed (milliseconds since the
    epoch), its batches in the order laid out, and its metadata in both forms."""

    data: bytes
    block_id: bytes
    object_key: str
    closed_at: int
    entries: list[BlockEntry]
    seed_metadata: object  # an inkless.block_metadata value
    shipped_metadata: ShippedMetadata


@dataclass(slots=True)
class _Buffered:
    topic: str
    topic_id: bytes
    partition: int
    data: bytes
    batch: object
    timestamp_type: int


def _wall_clock_ms() -> int:
    return time.time_ns() // 1_000_000


class BlockBuilder:
    """Buffers batches of many partitions and closes blocks at a size limit or a time window.

    `add` (one partition's records) and `add_request` (a produce request: several partitions,
    never split) return the blocks they closed: the open block, when its window had passed before
    the request came, and the block the request filled to the limit. `poll` closes the open block
    once its window has passed (call it from a timer, as Inkless's commit tick does); `flush`
    closes it now. `size_limit=None` or `window_ms=None` turns that trigger off.

    `clock` returns milliseconds since the epoch (the wall clock by default); it times the window
    and stamps each block (`eventTimestamp`, `committed_at`, the rows' append time). `broker` and
    `prefix` go into the metadata and the object key; `topic_ids` maps names to ids (16 bytes, a
    `uuid.UUID` or its text; others get `topic_id_for_name`); `timestamp_types` maps names to a
    topic's timestamp type (`CREATE_TIME` unless said); `next_offsets` maps (topic, partition) to
    the first absolute offset the shipped rows assign; `file_id` and `batch_id` are the first row
    ids; `coalesce` shares one row between adjacent batches of a partition, as Inkless does by
    default; `unsigned_topic_order` lays topics out in byte order (see `topic_id_sort_key`);
    `new_block_id` makes each block's UUID.
    """

    def __init__(self, *, broker: int = 0, prefix: str = "inkless", size_limit: int | None = DEFAULT_SIZE_LIMIT,
                 window_ms: int | None = DEFAULT_WINDOW_MS, clock=_wall_clock_ms, topic_ids=None,
                 timestamp_types=None, next_offsets=None, file_id: int = 1, batch_id: int = 1, coalesce: bool = True,
                 unsigned_topic_order: bool = False, new_block_id=random_block_id) -> None:
        object_key(prefix, bytes(16))  # refuses a prefix Inkless would refuse, now rather than at the first close
        self.broker, self.prefix = broker, prefix
        self.size_limit, self.window_ms = size_limit, window_ms
        self.coalesce, self.unsigned_topic_order = coalesce, unsigned_topic_order
        self._clock, self._new_block_id = clock, new_block_id
        self._topic_ids = {name: _topic_id_bytes(tid) for name, tid in (topic_ids or {}).items()}
        self._names_by_id: dict[bytes, str] = {}
        self._timestamp_types = dict(timestamp_types or {})
        self._next_offsets = dict(next_offsets or {})
        self._file_id, self._batch_id = file_id, batch_id
        self._buffered: list[_Buffered] = []
        self._size = 0
        self._opened_at: int | None = None

    @property
    def buffered_bytes(self) -> int:
        """Bytes of the batches in the open block."""
        return self._size

    @property
    def next_offsets(self) -> dict:
        """(topic, partition) -> the absolute offset the next batch of that partition gets."""
        return dict(self._next_offsets)

    def add(self, topic: str, partition: int, records) -> list[Block]:
        """Buffer one partition's records (one or more v2 batches end to end)."""
        return self.add_request([(topic, partition, records)])

    def add_request(self, entries) -> list[Block]:
        """Buffer a produce request: (topic, partition, records) for each of its partitions. Every
        batch is decoded first (a bad one raises `DecodeError`, and nothing of the request is kept)."""
        closed = self.poll()
        incoming = [b for topic, partition, records in entries for b in self._batches_of(topic, partition, records)]
        if not incoming:
            return closed
        if not self._buffered:
            self._opened_at = self._clock()
        self._buffered += incoming
        self._size += sum(len(b.data) for b in incoming)
        if self.size_limit is not None and self._size >= self.size_limit:
            closed += self.flush()
        return closed

    def poll(self) -> list[Block]:
        """Close the open block if its window has passed."""
        if self._buffered and self.window_ms is not None and self._clock() - self._opened_at >= self.window_ms:
            return self.flush()
        return []

    def flush(self) -> list[Block]:
        """Close the open block now (nothing when it is empty)."""
        if not self._buffered:
            return []
        block = self._close()
        self._buffered, self._size, self._opened_at = [], 0, None
        return [block]

    def _batches_of(self, topic, partition, records) -> list[_Buffered]:
        if not isinstance(topic, str) or not topic:
            raise EncodeError("invalid_value", f"a topic is a non-empty name, not {topic!r}", None, "topic")
        if type(partition) is not int or not 0 <= partition <= _S32_MAX:
            raise EncodeError("invalid_value", f"a partition is an integer in [0, {_S32_MAX}], not {partition!r}",
                              None, "partition")
        timestamp_type = self._timestamp_types.get(topic, CREATE_TIME)
        if timestamp_type not in (NO_TIMESTAMP_TYPE, CREATE_TIME, LOG_APPEND_TIME):
            raise EncodeError("invalid_value", f"timestamp type {timestamp_type!r} of {topic!r} is not -1, 0 or 1",
                              None, "timestamp_types")
        topic_id = self._topic_id(topic)
        return [_Buffered(topic, topic_id, partition, data, batch, timestamp_type)
                for data, batch in _records_batches(records)]

    def _topic_id(self, topic: str) -> bytes:
        topic_id = self._topic_ids.get(topic) or topic_id_for_name(topic)
        other = self._names_by_id.setdefault(topic_id, topic)
        if other != topic:
            raise EncodeError("invalid_value", f"topics {other!r} and {topic!r} have the same id", None, "topic_ids")
        return topic_id

    def _close(self) -> Block:
        ordered = sorted(self._buffered, key=lambda b: topic_partition_sort_key(  # stable: a partition keeps its order
            b.topic_id, b.partition, unsigned=self.unsigned_topic_order))
        entries, pos = [], 0
        for b in ordered:
            entries.append(BlockEntry(b.topic, b.topic_id, b.partition, pos, len(b.data), len(b.batch.records),
                                      b.batch.last_offset_delta + 1, b.batch.max_timestamp, b.timestamp_type))
            pos += len(b.data)
        closed_at, block_id = self._clock(), self._new_block_id()
        key = object_key(self.prefix, block_id)
        data = b"".join(b.data for b in ordered)
        return Block(data, block_id, key, closed_at, entries,
                     seed_block_metadata(entries, block_id=block_id, broker=self.broker, event_timestamp=closed_at,
                                         path=key),
                     self._shipped_metadata(entries, len(data), key, closed_at))

    def _shipped_metadata(self, entries: list[BlockEntry], size: int, key: str, closed_at: int) -> ShippedMetadata:
        rows: list[BatchRow] = []
        for e in entries:
            base = self._next_offsets.get((e.topic, e.partition), 0)
            self._next_offsets[(e.topic, e.partition)] = base + e.offset_count
            last = rows[-1] if rows else None
            if self.coalesce and last is not None and _continues(last, e):
                last.last_offset = base + e.offset_count - 1
                last.byte_size += e.size
                last.batch_max_timestamp = max(last.batch_max_timestamp, e.max_timestamp)
                continue
            rows.append(BatchRow(batch_id=self._batch_id, magic=e.magic, topic_id=e.topic_id, partition=e.partition,
                                 base_offset=base, last_offset=base + e.offset_count - 1, file_id=self._file_id,
                                 byte_offset=e.byte_offset, byte_size=e.size, timestamp_type=e.timestamp_type,
                                 log_append_timestamp=closed_at, batch_max_timestamp=e.max_timestamp))
            self._batch_id += 1
        file = FileRow(file_id=self._file_id, object_key=key, uploader_broker_id=self.broker,
                       committed_at=datetime_from_ms(closed_at), size=size)
        self._file_id += 1
        return ShippedMetadata(file, rows)


def _continues(row: BatchRow, entry: BlockEntry) -> bool:
    """Whether a batch may join a row, as `commit_file_v2` coalesces: same partition, magic and
    timestamp type, and byte-adjacent (so no rejected batch lies between them)."""
    return ((row.topic_id, row.partition, row.magic, row.timestamp_type)
            == (entry.topic_id, entry.partition, entry.magic, entry.timestamp_type)
            and row.byte_offset + row.byte_size == entry.byte_offset)


def seed_block_metadata(entries: list[BlockEntry], *, block_id: bytes, broker: int, event_timestamp: int, path: str):
    """The seed's metadata (an `inkless.block_metadata` value, complete as decoding gives it) of a
    block's entries, grouped by topic partition in the order laid out."""
    m = codec(METADATA_FORMAT)
    partitions = [
        m.TopicPartition(id=topic_id, name=group[0].topic, partition=partition,
                         batches=[m.Batch(byte_offset=e.byte_offset, size=e.size, number_of_records=e.record_count)
                                  for e in group])
        for (topic_id, partition), group in ((k, list(g)) for k, g in groupby(entries, lambda e: (e.topic_id,
                                                                                                 e.partition)))]
    value = m.BlockMetadata(magic=MAGIC, version=VERSION, topic_partitions=partitions,
                            block_header=m.BlockHeader(id=block_id, broker=broker, event_timestamp=event_timestamp,
                                                       path=path))
    return m.decode(m.encode(value))


# ---------------------------------------------------------------- metadata files

#: How metadata is written: the seed's binary encoding, its document as YAML or JSON, or the
#: shipped rows as JSON.
ENCODINGS = ("binary", "yaml", "json")


def metadata_form(metadata) -> str:
    """`shipped` or `seed`: which form a metadata value is in."""
    return SHIPPED if isinstance(metadata, ShippedMetadata) else SEED


def dump_metadata(metadata, encoding: str) -> bytes:
    """The bytes of a metadata file: a seed value as `binary`, `yaml` or `json`; shipped metadata
    as `json` only (its text form)."""
    if encoding not in ENCODINGS:
        raise ValueError(f"encoding is one of {', '.join(ENCODINGS)}, not {encoding!r}")
    if isinstance(metadata, ShippedMetadata):
        if encoding != "json":
            raise ValueError(f"shipped metadata is written as JSON, not {encoding}")
        return dump_shipped_json(metadata).encode()
    if encoding == "binary":
        return codec(METADATA_FORMAT).encode(metadata)
    doc = metadata_to_document(metadata)
    return (document_to_yaml(doc) if encoding == "yaml" else document_to_json(doc)).encode()


def load_metadata(raw: bytes, form: str | None = None):
    """The metadata in a file's bytes, its form and encoding recognised by content: the seed's
    binary encoding starts with "IKBM"; otherwise the text is the shipped rows when it is a JSON
    object, the seed's document when it is a JSON list or YAML. A `form` that is not the one found
    is an error (`invalid_value`), as is anything else that is not metadata."""
    found = bytes_form(raw)
    if form is not None and form != found:
        raise DecodeError("invalid_value", f"the metadata is in the {found} form, not the {form} form", None,
                          "metadata")
    if raw.startswith(MAGIC):
        return codec(METADATA_FORMAT).decode(raw)
    text = raw.decode("utf-8")
    if found == SHIPPED:
        return load_shipped_json(text)
    doc = document_from_json(text) if text.lstrip().startswith("[") else document_from_yaml(text)
    return metadata_from_document(doc)


def bytes_form(raw: bytes) -> str:
    """Which form of metadata a file's bytes hold, by content (see `load_metadata`)."""
    if raw.startswith(MAGIC):
        return SEED
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DecodeError("invalid_value", "neither the seed's binary metadata (magic \"IKBM\") nor UTF-8 text",
                          exc.start, "metadata") from None
    return SHIPPED if text.lstrip().startswith("{") else SEED


__all__ = [
    "DEFAULT_SIZE_LIMIT", "DEFAULT_WINDOW_MS", "SEED", "SHIPPED", "ENCODINGS",
    "BlockBuilder", "Block", "BlockEntry", "seed_block_metadata",
    "read_batch_bytes", "read_batches", "read_records", "validate", "dead_bytes",
    "load_metadata", "dump_metadata", "metadata_form",
    "random_block_id", "topic_id_for_name",
]
