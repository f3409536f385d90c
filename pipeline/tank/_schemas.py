"""The tables a TANK read returns (`rows`: record, bundle, validation) and its options."""

from __future__ import annotations

from collections.abc import Mapping

import pyarrow as pa
from logcodec.pipeline.plan import ReadOptions
from logcodec.pipeline.tables import ERROR, VALIDATION_SCHEMA, row_maker, run_maker

ROW_KINDS = ("record", "bundle", "validation")

#: One row per message.
RECORD_SCHEMA = pa.schema([
    ("topic", pa.string()),             # the partition directory's parent
    ("partition", pa.int32()),          # the partition directory's name
    ("seq_num", pa.int64()),            # absolute sequence number (null while unknown after a bad bundle)
    ("timestamp", pa.int64()),          # milliseconds since the epoch
    ("key", pa.binary()),
    ("value", pa.binary()),
    ("codec", pa.string()),             # the bundle's: none or snappy
    ("file", pa.string()),              # provenance: the segment file and the byte offset of the bundle's
    ("bundle_offset", pa.int64()),      # length varint in it (what `.index` entries point at)
    ("error", ERROR),                   # null, or why the bundle at bundle_offset could not be read
])

#: One row per bundle.
BUNDLE_SCHEMA = pa.schema([
    ("topic", pa.string()),
    ("partition", pa.int32()),
    ("file", pa.string()),
    ("bundle_offset", pa.int64()),
    ("size", pa.int32()),               # bytes in the file, length varint included
    ("first_seq_num", pa.int64()),
    ("last_seq_num", pa.int64()),
    ("message_count", pa.int32()),
    ("codec", pa.string()),
    ("is_sparse", pa.bool_()),
    ("first_timestamp", pa.int64()),
    ("max_timestamp", pa.int64()),
    ("payload_bytes", pa.int64()),      # key and value bytes, uncompressed
    ("error", ERROR),
])
record_row = row_maker(RECORD_SCHEMA)
record_run = run_maker(RECORD_SCHEMA)
bundle_row = row_maker(BUNDLE_SCHEMA)


def parse_options(options: Mapping[str, str]) -> ReadOptions:
    """The options of a read (`ReadOptions.parse` with this format's row kinds)."""
    return ReadOptions.parse(options, ROW_KINDS)


def schema(options: ReadOptions) -> pa.Schema:
    """The table of a read: one row per message, per bundle, or per validation result."""
    if options.rows == "validation":
        return VALIDATION_SCHEMA
    return BUNDLE_SCHEMA if options.rows == "bundle" else RECORD_SCHEMA
