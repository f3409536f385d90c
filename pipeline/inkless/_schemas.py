"""The tables an Inkless read returns (`rows`: record, batch, validation): the Kafka source's
columns, with the topic id and the metadata that placed each batch."""

from __future__ import annotations

import pyarrow as pa
from logcodec.pipeline.inkless._options import InklessOptions
from logcodec.pipeline.tables import (
    ERROR,
    HEADERS,
    VALIDATION_SCHEMA,
    row_maker,
    run_maker,
)

#: One row per record: the Kafka source's columns, with the topic id and the metadata file.
RECORD_SCHEMA = pa.schema([
    ("topic", pa.string()),             # the seed's topic name; null in the shipped form (ids only)
    ("topic_id", pa.string()),          # 8-4-4-4-12 lowercase hex
    ("partition", pa.int32()),
    ("offset", pa.int64()),             # shipped: absolute, as Inkless serves it; seed: as stored
    ("timestamp", pa.int64()),          # milliseconds since the epoch (a log-append-time row: its append time)
    ("timestamp_type", pa.string()),    # create_time or log_append_time
    ("key", pa.binary()),
    ("value", pa.binary()),
    ("headers", HEADERS),
    ("producer_id", pa.int64()),
    ("producer_epoch", pa.int16()),
    ("base_sequence", pa.int32()),
    ("leader_epoch", pa.int32()),       # as stored (Inkless stores 0)
    ("is_transactional", pa.bool_()),
    ("is_control", pa.bool_()),
    ("codec", pa.string()),
    ("magic", pa.int8()),
    ("file", pa.string()),              # provenance: the object (a path or s3://bucket/key), the byte
    ("batch_offset", pa.int64()),       # offset of the batch in it, and the metadata file that placed it
    ("metadata", pa.string()),
    ("error", ERROR),                   # null, or why the range at batch_offset could not be read
])

#: One row per batch (a coalesced shipped row holds several).
BATCH_SCHEMA = pa.schema([
    ("topic", pa.string()),
    ("topic_id", pa.string()),
    ("partition", pa.int32()),
    ("file", pa.string()),
    ("batch_offset", pa.int64()),       # byte offset of the batch in the object
    ("size", pa.int32()),               # bytes of the batch, offset and length fields included
    ("magic", pa.int8()),
    ("base_offset", pa.int64()),        # as served (shipped: absolute)
    ("last_offset", pa.int64()),
    ("record_count", pa.int32()),
    ("codec", pa.string()),
    ("timestamp_type", pa.string()),
    ("base_timestamp", pa.int64()),
    ("max_timestamp", pa.int64()),      # as served (a log-append-time row: its append time)
    ("producer_id", pa.int64()),
    ("producer_epoch", pa.int16()),
    ("base_sequence", pa.int32()),
    ("leader_epoch", pa.int32()),
    ("is_transactional", pa.bool_()),
    ("is_control", pa.bool_()),
    ("payload_bytes", pa.int64()),      # key, value and header bytes of the records, uncompressed
    ("crc_valid", pa.bool_()),          # the stored CRC against the stored bytes
    ("metadata", pa.string()),
    ("entry", pa.string()),             # the metadata entry: `batches[3]`, `topic_partitions[0].batches[2]`
    ("error", ERROR),
])
record_row = row_maker(RECORD_SCHEMA)
record_run = run_maker(RECORD_SCHEMA)
batch_row = row_maker(BATCH_SCHEMA)


def schema(options: InklessOptions) -> pa.Schema:
    """The table of a read: one row per record, per batch, or per validation result."""
    return {"batch": BATCH_SCHEMA, "validation": VALIDATION_SCHEMA}.get(options.rows, RECORD_SCHEMA)
