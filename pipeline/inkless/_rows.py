"""The rows of an Inkless read, in the tasks: one per record or one per batch (`rows`), as
Inkless serves them, and one per problem of a range or of its metadata entries.

Records come back as Inkless serves them, exactly as `logcodec.inkless.read_records` returns them:
with shipped metadata, absolute offsets patched in (a coalesced row's batches numbered on from its
`base_offset`) and, for a log-append-time row, the row's append time; the seed's as stored. A
range with a problem gives its error rows and none of its records (single-process
`read_records` refuses it too); the object's other ranges are read."""

from __future__ import annotations

from collections.abc import Iterator

import pyarrow as pa
from logcodec.pipeline.inkless._entries import checked_extents, fail
from logcodec.pipeline.inkless._options import InklessOptions
from logcodec.pipeline.inkless._ranges import INT32_MAX, ObjectRange, error_of
from logcodec.pipeline.inkless._schemas import batch_row, record_row, record_run, schema
from logcodec.pipeline.inkless._validation import validation_rows
from logcodec.pipeline.kafka import (
    entry_crc_valid,
    v2_batch_columns,
    v2_batch_fields,
    v2_record_columns,
)
from logcodec.pipeline.tables import record_batches

from logcodec.inkless.blocks import Extent, served_bytes
from logcodec.inkless.document import uuid_text
from logcodec.kafka.records import delta_columns


def read(ranges: list[ObjectRange], options: InklessOptions) -> Iterator[pa.RecordBatch]:
    """The Arrow batches of one input partition."""
    ranges = each_object(ranges, options)
    if options.rows == "validation":
        rows = (row for r in ranges for row in validation_rows(r, options))
    else:
        rows = (row for r in ranges for row in range_rows(r, options, options.rows == "batch"))
    return record_batches(rows, schema(options))


def each_object(ranges: list[ObjectRange], options: InklessOptions) -> Iterator[ObjectRange]:
    """The ranges of an input partition, a range of the control plane's file ids read as the
    ranges of its objects (`_control_plane.expand`)."""
    for r in ranges:
        if r.file_ids is None:
            yield r
        else:
            from logcodec.pipeline.inkless._control_plane import expand

            yield from expand(r, options)


def range_rows(r: ObjectRange, options: InklessOptions, batch_rows: bool = False) -> Iterator[tuple | list]:
    """The rows (RECORD_SCHEMA, or BATCH_SCHEMA with `batch_rows`) of one range, as
    `tables.record_batches` takes them (a batch's records as columns): its problems, then each
    metadata entry's records or batches, or its error rows."""
    row = batch_row if batch_rows else record_row
    for p in r.problems:
        yield _error_row(row, r, p.error, p.batch_offset, p.topic, p.topic_id, p.partition, p.entry,
                         options.failfast)
    for ext, window, findings, found in checked_extents(r, options, tuples=True):
        if findings:
            stored = window[ext.start:ext.end] if ext.end <= r.object_size else None
            for f in findings:
                yield _error_row(row, r, error_of(f), ext.start, ext.topic, ext.topic_id, ext.partition, ext.path,
                                 options.failfast, size=ext.size, crc_valid=entry_crc_valid(stored))
            continue
        running = None if ext.row is None else ext.row.base_offset
        for pos, size, batch in found:
            stored = window[pos:pos + size]
            served_bytes(stored, batch, running, ext.row)  # patches `batch` as Inkless serves it
            if running is not None:
                running += batch.last_offset_delta + 1
            if batch_rows:
                yield _batch_row(r, ext, pos, size, batch, stored)
            else:
                yield _record_columns(r, ext, pos, batch)


def _record_columns(r: ObjectRange, ext: Extent, pos: int, batch) -> list[list]:
    """RECORD_SCHEMA columns of the records of a batch, as `tables.record_batches` takes them."""
    return record_run(len(batch.records), **v2_record_columns(batch, delta_columns(batch)), topic=ext.topic,
                      topic_id=uuid_text(ext.topic_id), partition=ext.partition, file=r.file, batch_offset=pos,
                      metadata=r.metadata, **v2_batch_fields(batch))


def _batch_row(r: ObjectRange, ext: Extent, pos: int, size: int, batch, stored: bytes) -> tuple:
    return batch_row(topic=ext.topic, topic_id=uuid_text(ext.topic_id), partition=ext.partition, file=r.file,
                     batch_offset=pos, size=size, crc_valid=entry_crc_valid(stored), metadata=r.metadata,
                     entry=ext.path, **v2_batch_columns(batch))


def _error_row(row, r: ObjectRange, error: tuple, batch_offset, topic, topic_id, partition, entry,
               failfast: bool, **more) -> tuple:
    """An error row made by `row` (`record_row` or `batch_row`); `entry` and `more` (size, crc_valid)
    are a batch row's columns only."""
    if failfast:
        fail(r, error)
    if row is batch_row:
        if "size" in more and (more["size"] is None or more["size"] > INT32_MAX):
            more["size"] = None
        more["entry"] = entry
    else:
        more = {}
    return row(topic=topic, topic_id=None if topic_id is None else uuid_text(topic_id), partition=partition,
               file=r.file, batch_offset=batch_offset, metadata=r.metadata, error=error, **more)
