"""The tables a Kafka read returns (`rows`: record, batch, validation) and its options."""

from __future__ import annotations

from collections.abc import Mapping

import pyarrow as pa
from logcodec.pipeline.plan import ReadOptions
from logcodec.pipeline.tables import (
    ERROR,
    HEADERS,
    VALIDATION_SCHEMA,
    row_maker,
    run_maker,
)

ROW_KINDS = ("record", "batch", "validation")

#: One row per record.
RECORD_SCHEMA = pa.schema([
    ("topic", pa.string()),             # from the directory name `<topic>-<partition>`, or the `topic` option
    ("partition", pa.int32()),
    ("offset", pa.int64()),             # absolute, as a consumer sees it
    ("timestamp", pa.int64()),          # milliseconds since the epoch, as stored (null for magic 0)
    ("timestamp_type", pa.string()),    # create_time or log_append_time (null for magic 0)
    ("key", pa.binary()),
    ("value", pa.binary()),
    ("headers", HEADERS),               # empty for legacy messages
    ("producer_id", pa.int64()),        # producer fields: null for legacy messages
    ("producer_epoch", pa.int16()),
    ("base_sequence", pa.int32()),      # the batch's first sequence number
    ("leader_epoch", pa.int32()),       # the batch's partition leader epoch
    ("is_transactional", pa.bool_()),
    ("is_control", pa.bool_()),         # a transaction marker; key and value are the marker's bytes
    ("codec", pa.string()),             # none, gzip, snappy, lz4, zstd
    ("magic", pa.int8()),
    ("file", pa.string()),              # provenance: the file and the byte offset of the batch in it
    ("batch_offset", pa.int64()),
    ("error", ERROR),                   # null, or why the batch at batch_offset could not be read
])


#: One row per batch (a v2 record batch, or a legacy message or compressed wrapper).
BATCH_SCHEMA = pa.schema([
    ("topic", pa.string()),
    ("partition", pa.int32()),
    ("file", pa.string()),
    ("batch_offset", pa.int64()),       # byte offset of the batch in the file
    ("size", pa.int32()),               # bytes in the file, offset and size fields included
    ("magic", pa.int8()),
    ("base_offset", pa.int64()),        # first and last record offsets
    ("last_offset", pa.int64()),
    ("record_count", pa.int32()),
    ("codec", pa.string()),
    ("timestamp_type", pa.string()),
    ("base_timestamp", pa.int64()),     # the first record's timestamp (v2: the batch's base timestamp)
    ("max_timestamp", pa.int64()),
    ("producer_id", pa.int64()),
    ("producer_epoch", pa.int16()),
    ("base_sequence", pa.int32()),
    ("leader_epoch", pa.int32()),
    ("is_transactional", pa.bool_()),
    ("is_control", pa.bool_()),
    ("payload_bytes", pa.int64()),      # key, value and header bytes of the records, uncompressed
    ("crc_valid", pa.bool_()),          # the stored CRC against the bytes, checked apart from decoding
    ("error", ERROR),
])
record_row = row_maker(RECORD_SCHEMA)
record_run = run_maker(RECORD_SCHEMA)
batch_row = row_maker(BATCH_SCHEMA)

TIMESTAMP_TYPES: dict[int | None, str | None] = {0: "create_time", 1: "log_append_time", None: None}


def parse_options(options: Mapping[str, str]) -> ReadOptions:
    """The options of a read (`ReadOptions.parse` with this format's row kinds)."""
    return ReadOptions.parse(options, ROW_KINDS)


def schema(options: ReadOptions) -> pa.Schema:
    """The table of a read: one row per record, per batch, or per validation result."""
    if options.rows == "validation":
        return VALIDATION_SCHEMA
    return BATCH_SCHEMA if options.rows == "batch" else RECORD_SCHEMA
