"""The validation job's rows of an Inkless read (`rows=validation`): each batch re-encoded and
compared with its stored bytes (`roundtrip.compare`), each metadata entry the object contradicts
quarantined as the batch it names, and what concerns no single entry a finding."""

from __future__ import annotations

from collections.abc import Iterator

from logcodec.pipeline.inkless._entries import checked_extents, fail
from logcodec.pipeline.inkless._options import InklessOptions
from logcodec.pipeline.inkless._ranges import INT32_MAX, ObjectRange, error_of
from logcodec.pipeline.kafka import decode_batch, entry_codec, entry_magic
from logcodec.pipeline.roundtrip import compare, without_length_and_crc
from logcodec.pipeline.tables import error_columns, validation_row

from logcodec._api import codec
from logcodec.inkless.document import uuid_text

_rb = codec("kafka.record_batch_v2")


def validation_rows(r: ObjectRange, options: InklessOptions) -> Iterator[tuple]:
    """VALIDATION_SCHEMA rows of one range, for the validation job.

    - A metadata entry whose range the object contradicts (past its end, not whole batches, a bad
      CRC, a record count or offsets its batches disagree with) is one quarantined row: its error
      is the entry's first finding, and any further findings of the same entry are findings
      rows (status null), so that each entry read counts once.
    - Each batch of an entry that checks out is re-encoded and compared with its stored bytes
      (`roundtrip.compare`, before any patching for serving): valid or quarantined.
    - What concerns no single entry's bytes (metadata that does not load or names no object, an
      object without metadata, overlapping ranges, dead bytes, a `files` row or offset order that
      disagrees) is a findings row: `entry` = metadata, status null. It is no batch: the job
      counts it apart, as TANK's index findings.

    With `mode=failfast`, the first problem or finding raises instead (as the other row kinds)."""
    if options.failfast and r.problems:
        fail(r, r.problems[0].error)
    for p in r.problems:
        yield _validation_row(r, p.batch_offset, None, "metadata", None, p.error, p.topic, p.topic_id, p.partition,
                              p.entry)
    for ext, window, findings, found in checked_extents(r, options):
        where = (ext.topic, ext.topic_id, ext.partition, ext.path)
        if findings and options.failfast:
            fail(r, error_of(findings[0]))
        if findings:
            stored = window[ext.start:ext.end] if ext.end <= r.object_size else None
            size = ext.size if ext.size <= INT32_MAX else None
            yield _validation_row(r, ext.start, size, "record_batch", "quarantined", error_of(findings[0]), *where,
                                  codec=entry_codec(stored, entry_magic(stored)))
            for f in findings[1:]:
                yield _validation_row(r, ext.start, size, "metadata", None, error_of(f), *where)
            continue
        for pos, size, batch in found:
            codec_name = _rb.Compression(batch.attributes.compression).name
            outcome = compare(window[pos:pos + size], batch, encode=_rb.encode, decode=decode_batch,
                              compressed=codec_name != "none", base=pos, codec=codec_name,
                              light=without_length_and_crc)
            status, error = ("valid", (None,) * 4) if outcome.error is None else ("quarantined", outcome.error)
            yield _validation_row(r, pos, size, "record_batch", status, error, *where, record_count=len(batch.records),
                                  codec=codec_name, reencode=outcome.reencode)


def _validation_row(r: ObjectRange, offset, size, entry, status, error: tuple, topic, topic_id, partition,
                    metadata_entry, **more) -> tuple:
    return validation_row(format="inkless", topic=topic, partition=partition, file=r.file or r.metadata,
                          offset=offset, size=size, entry=entry, status=status, **error_columns(error),
                          topic_id=None if topic_id is None else uuid_text(topic_id), metadata=r.metadata,
                          metadata_entry=metadata_entry, **more)
