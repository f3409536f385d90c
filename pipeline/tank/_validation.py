"""The validation job's rows of a TANK read (`rows=validation`): each bundle decoded, then
re-encoded and compared with its bytes (`roundtrip.compare`); and each entry of a segment's
index that the log contradicts, a finding."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from logcodec.pipeline.roundtrip import compare
from logcodec.pipeline.tables import error_columns, validation_row
from logcodec.pipeline.tank._bundles import bundles
from logcodec.pipeline.tank._indexes import index_findings
from logcodec.pipeline.tank._planning import SegmentRange

from logcodec._api import codec
from logcodec.runtime.errors import DecodeError
from logcodec.tank.containers import segment_files

_bundle = codec("tank.bundle")


def validation_rows(r: SegmentRange, failfast: bool = False) -> Iterator[tuple]:
    """VALIDATION_SCHEMA rows of a range: one per bundle, valid when it decodes and re-encodes to
    itself (`roundtrip.compare`), quarantined otherwise; and, from the range that starts a
    segment, one per entry of the segment's index that the log contradicts (`index_findings`): findings, not batches."""
    if r.start == 0:
        yield from _index_rows(r)
    for read in bundles(r, failfast):
        where = {"format": "tank", "topic": r.topic, "partition": r.partition, "file": r.path, "offset": read.at,
                 "size": read.size}
        if read.kind == "zero_fill":
            yield validation_row(**where, entry="zero_fill", error_kind="zero_fill", error_offset=read.at,
                                 error_path="", detail=f"{read.size} zero bytes to the end of the file")
            continue
        if read.kind == "unreadable":
            yield validation_row(**where, entry="unreadable", status="quarantined", **error_columns(read.error))
            continue
        if read.size is None:  # an index entry the range's checkpoints contradict (not with the validation plan)
            kind, offset, _, detail = read.error
            yield validation_row(**where, entry="index", error_kind=kind, error_offset=offset, error_path="index",
                                 detail=detail)
            continue
        codec_name = _codec_name(read.raw)
        if read.value is None:
            yield validation_row(**where, entry="bundle", status="quarantined", **error_columns(read.error),
                                 codec=codec_name)
            continue
        messages = read.value.messages
        base_seq_num = messages[0].seq_num if messages else 0
        outcome = compare(read.raw, read.value, encode=lambda v: _bundle.encode(v, base_seq_num=base_seq_num),
                          decode=lambda d: _bundle.decode(d, base_seq_num=base_seq_num),
                          compressed=codec_name != "none", base=read.at + read.size - len(read.raw), codec=codec_name)
        status, error = ("valid", (None,) * 4) if outcome.error is None else ("quarantined", outcome.error)
        yield validation_row(**where, entry="bundle", status=status, **error_columns(error),
                             record_count=len(messages), codec=codec_name, reencode=outcome.reencode)


def _codec_name(raw: bytes | None) -> str | None:
    """The codec a bundle's header names, read from its bytes (its `HEADER` part)."""
    if not raw:
        return None
    try:
        return _bundle.decode_part(_bundle.HEADER, raw[:_bundle.HEADER_MAX])[0].codec.name
    except (DecodeError, AttributeError):  # a header cut short, or a codec no member names (an int)
        return None


def _index_rows(r: SegmentRange) -> Iterator[tuple]:
    name = Path(r.path).name
    segment = next((s for s in segment_files(Path(r.path).parent) if s.path.name == name), None)
    if segment is None or segment.index is None:
        return
    for at, size, kind, offset, detail in index_findings(segment.path, segment.base_seq_num, segment.index):
        yield validation_row(format="tank", topic=r.topic, partition=r.partition, file=str(segment.index), offset=at,
                             size=size, entry="index", error_kind=kind, error_offset=offset, error_path="index",
                             detail=detail)
