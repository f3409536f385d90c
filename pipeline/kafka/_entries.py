"""One Kafka entry: decoding it, and what it gives as columns whether or not it decodes.

Each entry is decoded on its own by the generated codecs (`kafka.record_batch_v2` or
`kafka.message_set`, chosen by the magic byte as `kafka.record_set` chooses), and its records are
resolved by `logcodec.kafka.records` as a Kafka client sees them. The columns of a v2 batch are
Inkless's too (an Inkless object holds v2 batches), which is why they are made here, by name.
"""

from __future__ import annotations

from collections.abc import Iterator

from logcodec.pipeline.kafka import resync
from logcodec.pipeline.kafka._framing import entries
from logcodec.pipeline.kafka._schemas import TIMESTAMP_TYPES
from logcodec.pipeline.plan import FileRange
from logcodec.pipeline.tables import Plus, error_value

from logcodec._api import codec
from logcodec.kafka.records import (
    LOG_APPEND_TIME,
    Record,
    batch_records,
    legacy_records,
)
from logcodec.runtime.errors import DecodeError

_rb = codec("kafka.record_batch_v2")
_ms = codec("kafka.message_set")
_rs = codec("kafka.record_set")



def decode_batch(data: bytes):
    """A v2 batch read whole, every record checked and kept (`lazy=False`): the validators' read,
    whose errors must come out of the call."""
    return _rb.decode(data, lazy=False)


#: What an entry is, by its magic byte.
ENTRY_KINDS = {0: "legacy_message", 1: "legacy_message", 2: "record_batch"}


def decode_entry(entry: bytes, tuples: bool = False, columns: bool = False):
    """A decoded entry: a `RecordBatchV2`, or a `MessageSet` holding the one legacy message.
    `tuples`: a batch's records in their tuple form (no object each); `columns`: a batch as its
    header and its records' columns (`decode_columns`: no tuple each either), what record rows
    need."""
    if entry[resync.MAGIC_AT] in (0, 1):  # where kafka.record_set reads the magic that picks the format
        return _ms.decode(entry)
    if columns:
        return _rb.decode_columns(entry, tuples=True)
    return _rb.decode(entry, tuples=tuples, lazy=False)


def decoded(r: FileRange, failfast: bool, tuples: bool = False, columns: bool = False) -> Iterator[tuple]:
    """(span, decoded entry or None, error or None) for each span of the range (`entries`)."""
    for span in entries(r, failfast):
        if span.error is not None or span.entry is None:
            yield span, None, span.error
            continue
        try:
            yield span, decode_entry(span.entry, tuples, columns), None
        except DecodeError as exc:
            if failfast:
                raise _in_file(exc, r.path, span.at) from None
            yield span, None, error_value(exc, span.at)


def _in_file(exc: DecodeError, path: str, base: int) -> DecodeError:
    """The same error with the file named and the offset made absolute, for failfast."""
    return DecodeError(exc.kind, f"{path}: {exc.detail}", base + (exc.offset or 0), exc.path)


def entry_magic(entry: bytes | None) -> int | None:
    if entry is None or len(entry) <= resync.MAGIC_AT:
        return None
    return int.from_bytes(entry[resync.MAGIC_AT:resync.MAGIC_AT + 1], "big", signed=True)  # the magic is an s1


def offset_bounds(value) -> tuple[int | None, int | None]:
    """(first, last) offset of a decoded entry: a v2 batch, or a legacy message (`Entry`)."""
    if isinstance(value, (_rb.RecordBatchV2, _rb.RecordBatchV2Header)):
        return value.base_offset, value.base_offset + value.last_offset_delta
    records = legacy_records(value if isinstance(value, _ms.MessageSet) else _ms.MessageSet(entries=[value]))
    return (records[0].offset, records[-1].offset) if records else (None, None)


def v2_record_columns(header, records: dict) -> dict:
    """The offset, timestamp, key, value and headers columns of the records of a v2 batch, and
    their timestamp type, for a `record_run`, from its header (or whole value) and its records'
    columns (`decode_columns`, `logcodec.kafka.records.delta_columns`): as
    `logcodec.kafka.batch_columns` gives them, but for the offsets and timestamps, whose bases
    Arrow adds (`Plus`), and a control marker's key and value, as bytes."""
    keys, values, headers = records["key"], records["value"], records["headers"]
    ts_type = int(header.attributes.timestamp_type)
    if ts_type == LOG_APPEND_TIME:
        timestamps = header.max_timestamp  # every record's
    else:
        timestamps = Plus(header.base_timestamp, records["timestamp_delta"])
    if header.attributes.is_control:
        keys, values = [_raw(k) for k in keys], [_raw(v) for v in values]
    if not any(headers):
        # No record has headers (as most producers write): the column is one run of an empty
        # list, which Arrow repeats without converting a list per row (a list given here would
        # be taken for the column itself, so the empty value is a tuple).
        headers = ()
    return {"offset": Plus(header.base_offset, records["offset_delta"]), "timestamp": timestamps,
            "timestamp_type": TIMESTAMP_TYPES.get(ts_type), "key": keys, "value": values, "headers": headers}


def v2_batch_fields(value) -> dict:
    """What every record row of a decoded v2 batch repeats, by column name (from its header or
    its whole value)."""
    a = value.attributes
    return {"producer_id": value.producer_id, "producer_epoch": value.producer_epoch,
            "base_sequence": value.base_sequence, "leader_epoch": value.partition_leader_epoch,
            "is_transactional": a.is_transactional, "is_control": a.is_control,
            "codec": _rb.Compression(a.compression).name, "magic": 2}


def v2_batch_columns(value) -> dict:
    """The BATCH_SCHEMA columns a decoded v2 batch fills by itself (Kafka's and Inkless's alike)."""
    return {**v2_batch_fields(value), "base_offset": value.base_offset,
            "last_offset": value.base_offset + value.last_offset_delta, "record_count": len(value.records),
            "timestamp_type": TIMESTAMP_TYPES.get(int(value.attributes.timestamp_type)),
            "base_timestamp": value.base_timestamp, "max_timestamp": value.max_timestamp,
            "payload_bytes": payload_bytes(batch_records(value))}


def payload_bytes(records: list[Record]) -> int:
    total = 0
    for rec in records:
        total += len(_raw(rec.key) or b"") + len(_raw(rec.value) or b"")
        for key, value in rec.headers:
            total += len(key.encode()) + len(value or b"")
    return total


def _raw(part) -> bytes | None:
    """Key or value bytes. A control record's key and value are decoded into typed values;
    encoding them back with the generated encoders gives their bytes."""
    if part is None or isinstance(part, bytes):
        return part
    return _rb.encode_part("control_record_key" if isinstance(part, _rb.ControlRecordKey) else "control_record_value",
                           part)


def entry_codec(entry: bytes | None, magic: int | None) -> str | None:
    """The codec an entry's attributes name, from its bytes (for entries that do not decode): a
    batch's from its header (`decode_part(HEADER, ...)`), a legacy message's from its attributes where the
    schema places them (`OFFSETS`), read alone (`decode_part`) as an outermost message's."""
    if entry is None:
        return None
    try:
        if magic == 2:
            return _rb.decode_part(_rb.HEADER, entry[:_rb.HEADER_MAX])[0].attributes.compression.name
        if magic in (0, 1):
            attributes, _ = _ms.decode_part("attributes", entry, pos=_LEGACY_ATTRIBUTES, depth=0)
            return attributes.compression.name
    except (DecodeError, ValueError, AttributeError):  # a header cut short, a codec no member names
        pass
    return None


#: Where a legacy entry's attributes lie: in its message, after the entry's offset and size.
_LEGACY_ATTRIBUTES = _ms.OFFSETS["entry.message"] + _ms.OFFSETS["message.attributes"]


def entry_crc_valid(entry: bytes | None) -> bool | None:
    """Whether an entry's stored CRC matches its bytes (CRC-32C from the attributes on for magic 2,
    CRC-32 from the magic byte on for magic 0 and 1, as kafka.record_set places them), checked
    without decoding it; None when it cannot be told (an entry cut short, an unknown magic)."""
    if entry is None or entry_magic(entry) not in ENTRY_KINDS:
        return None
    try:
        if _rs.entry_size(entry) != len(entry):
            return None
    except DecodeError:
        return None
    return _rs.checksums_hold(entry)
