"""Kafka log segments and record-set files as rows: one per record, or one per batch (or one
validation result per batch, for the validation job); the data source `logcodec.kafka`.

A Kafka log segment (`<topic>-<partition>/<base offset>.log`) and a Fetch response's record set
are the same thing: entries laid end to end, each an int64 offset, an int32 size and that many
bytes, whose magic byte (16 bytes in) says whether it is a legacy message (magic 0 or 1, maybe a
compressed wrapper) or a record batch (magic 2). A bad entry becomes one row whose `error` says
why and where, and reading goes on at the next entry, or, after a broken frame, where the
framing resynchronises.

The modules, one concern each:

- `_schemas`: the tables a read returns and its options;
- `_files`: where logs lie, their topics and partitions, which files are Kafka's;
- `_framing` and `resync`: where the entries of a file lie, and the next one after a broken frame;
- `_entries`: decoding one entry, and its columns (Inkless's batches' too);
- `_planning` and `_indexes`: the plan of a read, pruned by pushed filters and the segment indexes;
- `_rows`: the record and batch rows, as Arrow batches (`read`);
- `_validation`: the validation job's rows;
- `_tailing`: tailing a log directory (`spark.readStream`).

`KafkaFormat` says which of them implement the pipeline's protocol (`logcodec.pipeline.formats`).
"""

from __future__ import annotations

from logcodec.pipeline.formats import Pushdown, Tailing
from logcodec.pipeline.kafka._entries import (
    decode_batch,
    decode_entry,
    entry_codec,
    entry_crc_valid,
    entry_magic,
    payload_bytes,
    v2_batch_columns,
    v2_batch_fields,
    v2_record_columns,
)
from logcodec.pipeline.kafka._files import (
    check_path,
    claim,
    listed_files,
    topic_partition,
)
from logcodec.pipeline.kafka._framing import Span, entries, entry_starts
from logcodec.pipeline.kafka._planning import plan, push, segment_span
from logcodec.pipeline.kafka._rows import (
    batch_record_columns,
    batch_rows,
    read,
    record_rows,
)
from logcodec.pipeline.kafka._schemas import (
    BATCH_SCHEMA,
    RECORD_SCHEMA,
    ROW_KINDS,
    TIMESTAMP_TYPES,
    batch_row,
    parse_options,
    record_row,
    record_run,
    schema,
)
from logcodec.pipeline.kafka._tailing import (
    complete_end,
    relocate,
    segment_id,
    stream_partitions,
    stream_ranges,
)
from logcodec.pipeline.kafka._validation import validation_rows
from logcodec.pipeline.plan import FileRange, ReadOptions


class KafkaFormat(Pushdown[ReadOptions, FileRange], Tailing[ReadOptions, FileRange]):
    """`spark.read.format("logcodec.kafka").load(PATH)`: Kafka log segments and record-set files
    (a file, or a directory searched recursively for `glob`, default `*.log`);
    `spark.readStream.format("logcodec.kafka")` tails them (`stream`)."""

    name = "kafka"
    title = "Kafka logs"
    files = "Kafka logs (*.log)"
    not_a_log = "not a Kafka log"
    row_kinds = ROW_KINDS

    parse_options = staticmethod(parse_options)
    schema = staticmethod(schema)
    plan = staticmethod(plan)
    read = staticmethod(read)
    claim = staticmethod(claim)
    check_path = staticmethod(check_path)
    listed_files = staticmethod(listed_files)
    push = staticmethod(push)
    stream_partitions = staticmethod(stream_partitions)
    complete_end = staticmethod(complete_end)
    stream_ranges = staticmethod(stream_ranges)
    relocate = staticmethod(relocate)


#: The format the registry registers (`logcodec.pipeline.registry`).
FORMAT = KafkaFormat

__all__ = ["FORMAT", "KafkaFormat", "ROW_KINDS", "RECORD_SCHEMA", "BATCH_SCHEMA", "TIMESTAMP_TYPES", "record_row",
           "record_run", "batch_row", "parse_options", "schema", "push", "plan", "segment_span", "topic_partition",
           "claim", "check_path", "listed_files", "entry_starts", "Span", "entries", "decode_batch", "decode_entry", "entry_magic",
           "entry_codec", "entry_crc_valid", "payload_bytes", "v2_record_columns", "v2_batch_fields",
           "v2_batch_columns", "read", "record_rows", "batch_record_columns", "batch_rows", "validation_rows",
           "segment_id", "stream_partitions", "complete_end", "relocate", "stream_ranges"]
