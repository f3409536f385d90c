"""The rows of a Kafka read, in the tasks: one per record or one per batch (`rows`), and one per
bad entry, whose `error` says why and where; `read` turns them into Arrow batches."""

from __future__ import annotations

from collections.abc import Iterator

import pyarrow as pa
from logcodec.pipeline.kafka._entries import (
    decoded,
    entry_crc_valid,
    entry_magic,
    offset_bounds,
    payload_bytes,
    v2_batch_columns,
    v2_batch_fields,
    v2_record_columns,
)
from logcodec.pipeline.kafka._schemas import (
    RECORD_SCHEMA,
    TIMESTAMP_TYPES,
    batch_row,
    record_row,
    record_run,
    schema,
)
from logcodec.pipeline.kafka._validation import validation_rows
from logcodec.pipeline.plan import FileRange, Pushed, ReadOptions
from logcodec.pipeline.tables import column_bounds, record_batches

from logcodec._api import codec
from logcodec.kafka.records import legacy_records

_rb = codec("kafka.record_batch_v2")
_ms = codec("kafka.message_set")
_TIMESTAMP = RECORD_SCHEMA.names.index("timestamp")  # pushdown reads it from a row or a column run


def read(ranges: list[FileRange], options: ReadOptions) -> Iterator[pa.RecordBatch]:
    """The Arrow batches of one input partition."""
    if options.rows == "record" and (options.pushed.by_offset or options.pushed.by_timestamp):
        rows = (row for r in ranges for row in record_rows(r, options.failfast, options.pushed))
        return record_batches(rows, schema(options))
    row_source = {"batch": batch_rows, "validation": validation_rows}.get(options.rows, record_rows)
    return record_batches((row for r in ranges for row in row_source(r, options.failfast)), schema(options))


def record_rows(r: FileRange, failfast: bool = False, pushed: Pushed | None = None) -> Iterator[tuple | list]:
    """RECORD_SCHEMA rows of a range (as `tables.record_batches` takes them): every record of every
    entry, one row per bad entry. A v2 batch's records come as columns (`batch_record_columns`)."""
    for span, value, error in decoded(r, failfast, columns=True):
        if span.kind == "zero_fill":
            continue  # no batch: zeros a preallocated segment kept
        v2 = value.__class__ is tuple  # a v2 batch: its header and its records' columns
        if pushed is not None and value is not None:
            first, last = offset_bounds(value[0] if v2 else value)
            if pushed.offset_to is not None and first is not None and first >= pushed.offset_to:
                return  # offsets ascend through a segment: nothing after this batch is in range
            if not pushed.offsets_meet(first, last):
                continue
        if v2:
            columns = batch_record_columns(*value, r, span.at)
            if pushed is not None and pushed.by_timestamp and columns.n and \
                    not pushed.timestamps_meet(*column_bounds(columns[_TIMESTAMP])):
                continue  # no record of the batch is in the timestamp range
            yield columns
        else:
            for row in _other_record_rows(r, span.at, span.entry, value, error):
                stamp = row[_TIMESTAMP]
                if pushed is None or not pushed.by_timestamp or stamp is None or pushed.timestamps_meet(stamp, stamp):
                    yield row


def batch_record_columns(header, records: dict, r: FileRange, at: int) -> list[list]:
    """RECORD_SCHEMA columns of the records of a v2 batch at file offset `at`, from its header (or
    whole value) and its records' columns (`decode_columns`)."""
    return record_run(len(records["value"]), **v2_record_columns(header, records), topic=r.topic,
                      partition=r.partition, file=r.path, batch_offset=at, **v2_batch_fields(header))


def _other_record_rows(r: FileRange, at: int, entry: bytes | None, value, error) -> Iterator[tuple]:
    """RECORD_SCHEMA rows of an entry that is no v2 batch: the row of a bad entry, or the records
    of a legacy message (or compressed wrapper)."""
    if error is not None:
        yield record_row(topic=r.topic, partition=r.partition, magic=entry_magic(entry), file=r.path,
                         batch_offset=at, error=error)
        return
    message = value.entries[0].message
    codec_name = _ms.Compression(message.attributes.compression).name
    for rec in legacy_records(value):
        yield record_row(topic=r.topic, partition=r.partition, offset=rec.offset, timestamp=rec.timestamp,
                         timestamp_type=TIMESTAMP_TYPES.get(rec.timestamp_type), key=rec.key, value=rec.value,
                         headers=[], is_transactional=False, is_control=False, codec=codec_name, magic=message.magic,
                         file=r.path, batch_offset=at)


def batch_rows(r: FileRange, failfast: bool = False) -> Iterator[tuple]:
    """BATCH_SCHEMA rows of a range: one per entry, decoded or not."""
    for span, value, error in decoded(r, failfast, tuples=True):
        if span.kind == "zero_fill":
            continue  # no batch: zeros a preallocated segment kept
        at, entry, size = span.at, span.entry, span.size
        if error is not None:
            yield batch_row(topic=r.topic, partition=r.partition, file=r.path, batch_offset=at, size=size,
                            magic=entry_magic(entry), crc_valid=entry_crc_valid(entry), error=error)
        elif isinstance(value, _rb.RecordBatchV2):
            yield batch_row(topic=r.topic, partition=r.partition, file=r.path, batch_offset=at, size=size,
                            crc_valid=entry_crc_valid(entry), **v2_batch_columns(value))
        else:
            message = value.entries[0].message
            records = legacy_records(value)
            timestamps = [rec.timestamp for rec in records if rec.timestamp is not None]
            yield batch_row(topic=r.topic, partition=r.partition, file=r.path, batch_offset=at, size=size,
                            magic=message.magic, base_offset=records[0].offset if records else None,
                            last_offset=value.entries[0].offset, record_count=len(records),
                            codec=_ms.Compression(message.attributes.compression).name,
                            timestamp_type=TIMESTAMP_TYPES.get(records[0].timestamp_type) if records else None,
                            base_timestamp=records[0].timestamp if records else None,
                            max_timestamp=max(timestamps) if timestamps else None, is_transactional=False,
                            is_control=False, payload_bytes=payload_bytes(records), crc_valid=entry_crc_valid(entry))
