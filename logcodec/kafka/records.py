"""Records as a Kafka client sees them, from decoded record sets, batches and message sets.

The formats store what the wire needs: a v2 batch holds offset and timestamp deltas; a
legacy compressed wrapper holds an inner message set whose magic-1 offsets are relative
and whose timestamps the wrapper may override. `kafka_records` resolves all of it, as the
Java client does, into one flat list.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

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
    headers: tuple = ()  # (key, value) pairs; legacy messages have none


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


def batch_columns(batch) -> tuple[list[int], list[int], int, list, list, list[tuple]]:
    """The records of a decoded `kafka.record_batch_v2` as `batch_records` gives them, column by
    column: (offsets, timestamps, the timestamp type, keys, values, headers as tuples of
    (key, value) pairs), with no object per record. Fastest from a batch decoded with
    `tuples=True`: its records are tuples (their headers too, as that decode gives them), and
    the columns are their transposition."""
    records = delta_columns(batch)
    ts_type = int(batch.attributes.timestamp_type)
    base_offset = batch.base_offset
    offsets = [base_offset + d for d in records["offset_delta"]]
    if ts_type == LOG_APPEND_TIME:
        timestamps = [batch.max_timestamp] * len(offsets)
    else:
        base_timestamp = batch.base_timestamp
        timestamps = [base_timestamp + d for d in records["timestamp_delta"]]
    return offsets, timestamps, ts_type, records["key"], records["value"], records["headers"]


def delta_columns(batch) -> dict[str, list]:
    """The records of a decoded `kafka.record_batch_v2` column by column as the batch stores them:
    one list for each field of a record's tuple form, by name (offset and timestamp deltas,
    keys, values, headers as tuples of (key, value) pairs...), as `record_batch_v2.decode_columns` gives
    them straight from the bytes (the faster way: no tuple per record to transpose)."""
    records, form = batch.records, _record_form()
    try:  # a value object in the list is no iterable: the unpacking refuses it
        columns = list(zip(*records, strict=True)) if records else [()] * len(form)
    except (TypeError, ValueError):
        columns = None
    if columns is None or len(columns) != len(form):
        objects = [_record_object(r) for r in records]  # a value built by hand may mix both forms
        columns = [[getattr(r, name) for r in objects] for name in form]
        headers = columns[form.index("headers")]
        headers[:] = [tuple((h.key, h.value) if h.__class__ is not tuple else h for h in pairs) for pairs in headers]
    return {name: list(column) for name, column in zip(form, columns)}


@functools.cache  # read for every batch: the module lookup is not free
def _record_form() -> tuple[str, ...]:
    """The fields of a v2 record's tuple form, in order (the generated module's TUPLE_FORMS)."""
    return codec("kafka.record_batch_v2").TUPLE_FORMS["Record"]


def _record_object(record):
    """A v2 record as its value object, whichever form it came in."""
    if record.__class__ is not tuple:
        return record
    fields = dict(zip(_record_form(), record))
    fields["headers"] = list(fields["headers"])  # a tuple in the tuple form, a list in the value
    return codec("kafka.record_batch_v2").Record(**fields)


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
