"""Records as a Kafka client sees them, from decoded record sets, batches and message sets.

The formats store what the wire needs: a v2 batch holds offset and timestamp deltas; a
legacy compressed wrapper holds an inner message set whose magic-1 offsets are relative
and whose timestamps the wrapper may override. `kafka_records` resolves all of it, as the
Java client does, into one flat list.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

from logcodec._api import codec

CREATE_TIME, LOG_APPEND_TIME = 0, 1


@dataclass(frozen=True)
class Record:
    """One record: absolute offset, timestamp and its type (None for magic 0), key, value."""

    offset: int
    timestamp: int | None
    timestamp_type: int | None
    key: bytes | None
    value: bytes | None
    headers: list = field(default_factory=list)  # legacy messages have none


def legacy_records(message_set) -> list[Record]:
    """Every record of a decoded `kafka.message_set`, wrappers opened.

    Inner offsets get the inner set's `inner_offset_base` (wrapper offset − last inner
    offset, when not negative, in magic 1). Inside a magic-1 wrapper with log-append time,
    every inner record takes the wrapper's timestamp, and inner records report the
    wrapper's timestamp type.
    """
    return [record for entry in message_set.entries for record in _legacy_entry_records(entry)]


def _legacy_entry_records(entry) -> list[Record]:
    m = entry.message
    ts_type = int(m.attributes.timestamp_type) if m.magic == 1 else None
    if int(m.attributes.compression) == 0 or m.value is None:
        return [Record(entry.offset, m.timestamp, ts_type, m.key, m.value)]
    inner = m.value
    out = []
    for inner_entry in inner.entries:
        im = inner_entry.message
        timestamp = m.timestamp if ts_type == LOG_APPEND_TIME else im.timestamp
        out.append(Record(inner_entry.offset + inner.inner_offset_base, timestamp, ts_type, im.key, im.value))
    return out


def batch_records(batch) -> list[Record]:
    """The records of a decoded `kafka.record_batch_v2`: absolute offsets; timestamps from the
    base and deltas, or the batch's max timestamp for log-append time (as the Java client).
    Control records keep their typed key and value."""
    offsets, timestamps, ts_type, keys, values, headers = batch_columns(batch)
    return [Record(offset, timestamp, ts_type, key, value, pairs)
            for offset, timestamp, key, value, pairs in zip(offsets, timestamps, keys, values, headers)]


def batch_columns(batch) -> tuple[list[int], list[int], int, list, list, list[list]]:
    """The records of a decoded `kafka.record_batch_v2` as `batch_records` gives them, column by
    column: (offsets, timestamps, the timestamp type, keys, values, headers as (key, value)
    lists), with no object per record (what columnar readers such as the Spark data source need).
    Fastest from a batch decoded with `tuples=True`: its records are tuples (their headers too,
    as that decode gives them), and the columns are their transposition."""
    records = batch.records
    ts_type = int(batch.attributes.timestamp_type)
    try:  # a value object in the list is no iterable: the unpacking refuses it
        columns = dict(zip(_record_form(), zip(*records, strict=True))) if records else None
    except (TypeError, ValueError):
        columns = None
    if columns is not None:
        offset_deltas, timestamp_deltas = columns["offset_delta"], columns["timestamp_delta"]
        keys, values, headers = list(columns["key"]), list(columns["value"]), list(columns["headers"])
    else:
        records = [_record_object(r) for r in records]  # a value built by hand may mix both forms
        offset_deltas, timestamp_deltas = [r.offset_delta for r in records], [r.timestamp_delta for r in records]
        keys, values = [r.key for r in records], [r.value for r in records]
        headers = [[(h.key, h.value) if h.__class__ is not tuple else h for h in r.headers] for r in records]
    base_offset = batch.base_offset
    offsets = [base_offset + d for d in offset_deltas]
    if ts_type == LOG_APPEND_TIME:
        timestamps = [batch.max_timestamp] * len(records)
    else:
        base_timestamp = batch.base_timestamp
        timestamps = [base_timestamp + d for d in timestamp_deltas]
    return offsets, timestamps, ts_type, keys, values, headers


@functools.cache  # read for every batch: the module lookup is not free
def _record_form() -> tuple[str, ...]:
    """The fields of a v2 record's tuple form, in order (the generated module's TUPLE_FORMS)."""
    return codec("kafka.record_batch_v2").TUPLE_FORMS["Record"]


def _record_object(record):
    """A v2 record as its value object, whichever form it came in."""
    if record.__class__ is not tuple:
        return record
    return codec("kafka.record_batch_v2").Record(**dict(zip(_record_form(), record)))


def kafka_records(value) -> list[Record]:
    """Every record of a decoded `kafka.record_set`, `kafka.message_set` or
    `kafka.record_batch_v2` value, in order (a record set's partial last entry has none)."""
    if hasattr(value, "records"):  # a v2 batch
        return batch_records(value)
    if hasattr(value, "partial_entry"):  # a record set: batches and legacy entries
        out = []
        for entry in value.entries:
            if hasattr(entry, "records"):
                out += batch_records(entry)
            else:
                out += _legacy_entry_records(entry)
        return out
    return legacy_records(value)
