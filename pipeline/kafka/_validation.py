"""The validation job's rows of a Kafka read (`rows=validation`): each entry decoded with every
checksum checked, then re-encoded and compared with its bytes (`roundtrip.compare`)."""

from __future__ import annotations

from collections.abc import Iterator

from logcodec.pipeline.kafka._entries import (
    ENTRY_KINDS,
    decode_batch,
    decoded,
    entry_codec,
    entry_magic,
)
from logcodec.pipeline.plan import FileRange
from logcodec.pipeline.roundtrip import compare, without_length_and_crc
from logcodec.pipeline.tables import error_columns, validation_row

from logcodec._api import codec
from logcodec.kafka.records import legacy_records
from logcodec.runtime.values import without_derived

_rb = codec("kafka.record_batch_v2")
_ms = codec("kafka.message_set")


def validation_rows(r: FileRange, failfast: bool = False) -> Iterator[tuple]:
    """VALIDATION_SCHEMA rows of a range: one per entry, valid when it decodes (every CRC checked
    on the way) and re-encodes to itself (`roundtrip.compare`), quarantined otherwise."""
    for span, value, error in decoded(r, failfast):
        at, entry, size = span.at, span.entry, span.size
        where = {"format": "kafka", "topic": r.topic, "partition": r.partition, "file": r.path, "offset": at,
                 "size": size}
        if span.kind == "zero_fill":
            yield validation_row(**where, entry="zero_fill", error_kind="zero_fill", error_offset=at, error_path="",
                                 detail=f"{size} zero bytes to the end of the file (preallocated, never written)")
            continue
        if span.kind == "unreadable":
            yield validation_row(**where, entry="unreadable", status="quarantined", **error_columns(error))
            continue
        if error is not None:
            magic = entry_magic(entry)
            yield validation_row(**where, entry=ENTRY_KINDS.get(magic), status="quarantined", **error_columns(error),
                                 codec=entry_codec(entry, magic))
            continue
        if isinstance(value, _rb.RecordBatchV2):
            kind, count = "record_batch", len(value.records)
            codec_name = _rb.Compression(value.attributes.compression).name
            outcome = compare(entry, value, encode=_rb.encode, decode=decode_batch, compressed=codec_name != "none",
                              base=at, codec=codec_name, light=without_length_and_crc)
        else:
            kind, count = "legacy_message", len(legacy_records(value))
            codec_name = _ms.Compression(value.entries[0].message.attributes.compression).name
            outcome = compare(entry, value, encode=_ms.encode, decode=_ms.decode, compressed=codec_name != "none",
                              base=at, codec=codec_name, light=without_derived)
        status, error = ("valid", (None,) * 4) if outcome.error is None else ("quarantined", outcome.error)
        yield validation_row(**where, entry=kind, status=status, **error_columns(error), record_count=count,
                             codec=codec_name, reencode=outcome.reencode)
