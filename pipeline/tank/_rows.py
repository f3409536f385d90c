"""The rows of a TANK read, in the tasks: one per message or one per bundle (`rows`), and one per
bad bundle or contradicted index entry, whose `error` says why and where; `read` turns them into
Arrow batches."""

from __future__ import annotations

from collections.abc import Iterator

import pyarrow as pa
from logcodec.pipeline.plan import ReadOptions
from logcodec.pipeline.tables import record_batches
from logcodec.pipeline.tank._bundles import bundles
from logcodec.pipeline.tank._planning import SegmentRange
from logcodec.pipeline.tank._schemas import bundle_row, record_row, record_run, schema
from logcodec.pipeline.tank._validation import validation_rows

from logcodec._api import codec

_bundle = codec("tank.bundle")


def read(ranges: list[SegmentRange], options: ReadOptions) -> Iterator[pa.RecordBatch]:
    """The Arrow batches of one input partition."""
    row_source = {"bundle": bundle_rows, "validation": validation_rows}.get(options.rows, record_rows)
    return record_batches((row for r in ranges for row in row_source(r, options.failfast)), schema(options))


def record_rows(r: SegmentRange, failfast: bool = False) -> Iterator[tuple | list]:
    """RECORD_SCHEMA rows of a range (as `tables.record_batches` takes them): every message of every
    bundle, a bundle's messages as columns, one row per bad bundle."""
    for read in bundles(r, failfast):
        if read.kind == "zero_fill":
            continue  # no bundle
        if read.value is None:
            yield record_row(topic=r.topic, partition=r.partition, file=r.path, bundle_offset=read.at, error=read.error)
            continue
        messages = read.value.messages
        yield record_run(len(messages), topic=r.topic, partition=r.partition,
                         seq_num=[m.seq_num for m in messages] if read.numbered else None,
                         timestamp=[m.timestamp for m in messages], key=[m.key for m in messages],
                         value=[m.content for m in messages], codec=_bundle.Codec(read.value.codec).name,
                         file=r.path, bundle_offset=read.at)


def bundle_rows(r: SegmentRange, failfast: bool = False) -> Iterator[tuple]:
    """BUNDLE_SCHEMA rows of a range: one per bundle, decoded or not."""
    for read in bundles(r, failfast):
        if read.kind == "zero_fill":
            continue  # no bundle
        if read.value is None:
            yield bundle_row(topic=r.topic, partition=r.partition, file=r.path, bundle_offset=read.at, size=read.size,
                             error=read.error)
            continue
        messages = read.value.messages
        timestamps = [m.timestamp for m in messages]
        numbered = read.numbered and bool(messages)
        yield bundle_row(topic=r.topic, partition=r.partition, file=r.path, bundle_offset=read.at, size=read.size,
                         first_seq_num=messages[0].seq_num if numbered else None,
                         last_seq_num=messages[-1].seq_num if numbered else None, message_count=len(messages),
                         codec=_bundle.Codec(read.value.codec).name, is_sparse=read.value.is_sparse,
                         first_timestamp=timestamps[0] if timestamps else None,
                         max_timestamp=max(timestamps) if timestamps else None,
                         payload_bytes=sum(len(m.key or b"") + len(m.content) for m in messages))
