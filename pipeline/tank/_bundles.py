"""Reading a range of a TANK segment, in a task: every bundle decoded, and the log checked
against the index entries the range knows.

Each range knows the index entries inside it and at its end, and checks the log against them: a
disagreement is an extra row with `error.path = "index"` (the index or the log is wrong; the log's
numbering goes on). A range that starts at an index entry can only number from it: if that entry
is wrong, the range's messages are off until a sparse bundle brings its own numbers, and where
the next entry disagrees that is reported too (as is the entry itself, by the range before).
After a bundle that cannot be decoded, numbering resumes from its header when the header can be
read, else from the next index entry; messages read while the number is unknown have a null
`seq_num`."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import NamedTuple

from logcodec.generated.tank.bundle import Bundle
from logcodec.pipeline.errors import open_input
from logcodec.pipeline.tables import error_value
from logcodec.pipeline.tank._framing import bundle_span
from logcodec.pipeline.tank._planning import SegmentRange

from logcodec._api import codec
from logcodec.runtime.errors import DecodeError

_bundle = codec("tank.bundle")
_segment = codec("tank.segment_log")  # a segment's framing: each bundle's length and where its bytes lie


def _refusal(data: bytes) -> DecodeError:
    """The error the generated bundle decoder raises for `data`, which it must refuse."""
    try:
        _bundle.decode(data)
    except DecodeError as exc:
        return exc
    raise RuntimeError("tank.bundle decoded a bundle of no bytes")


#: Why a bundle of length 0 breaks the framing, as the generated decoder says it.
_EMPTY_BUNDLE = _refusal(b"")
#: Bytes past a range's end that hold the next bundle's length and header (at most 5 + 1 + 15 + 5 + 8 + 5).
_PEEK = 40


class BundleRead(NamedTuple):
    """What a reader found at one place of a segment: a bundle (decoded or not), or an index entry
    that the log contradicts (then `size` is None and the error's path is `index`)."""

    at: int                      # file offset of the bundle's length varint
    size: int | None             # bytes in the file, varint included
    value: Bundle | None         # the decoded bundle, or None
    numbered: bool               # whether the messages' sequence numbers are known
    error: tuple | None          # the `error` column
    raw: bytes | None = None     # the bundle's bytes after the length varint (None: broken framing)
    #: bundle; unreadable (bytes from a broken frame to the next index entry whose bundle decodes);
    #: zero_fill (zeros to the end of the file: no bundle)
    kind: str = "bundle"


def bundles(r: SegmentRange, failfast: bool) -> Iterator[BundleRead]:
    """Every bundle of the range in file order, decoded, and every index entry the log contradicts."""
    with open_input(r.path) as f:
        file_size = os.fstat(f.fileno()).st_size
        f.seek(r.start)
        data = f.read(r.size + _PEEK)  # and the next range's first bundle header, to check the index there
    limit = min(r.size, len(data))
    pos, seq = 0, r.first_seq
    at_file_end = r.start + limit == file_size

    def zero_tail(pos: int) -> BundleRead | None:
        """Zeros from `pos` to the end of the file: a zero_fill span, no bundle."""
        if at_file_end and not data[pos:limit].strip(b"\0"):
            return BundleRead(r.start + pos, limit - pos, None, False, None, kind="zero_fill")
        return None

    def resume_after(pos: int) -> tuple[int, int] | None:
        """(position, sequence number) of the first index entry after `pos` whose bundle decodes."""
        for offset in sorted(o for o in r.resume if r.start + pos < o < r.start + limit):
            rel = offset - r.start
            try:
                body, stop = _segment.entry_content(data, rel, limit)
                n = stop - body
                if body + n <= limit:
                    _bundle.decode(data[body:body + n], base_seq_num=r.resume[offset])
                    return rel, r.resume[offset]
            except DecodeError:
                continue
        return None

    def unreadable(pos: int, following: int, why: str) -> BundleRead:
        detail = (f"{following - pos} bytes where no bundle can be located, from a broken frame ({why}) to the "
                  f"next index entry whose bundle decodes")
        return BundleRead(r.start + pos, following - pos, None, False, ("unreadable", r.start + pos, "", detail),
                          kind="unreadable")

    def fail(kind: str, detail: str, at: int, path: str) -> tuple:
        if failfast:
            raise DecodeError(kind, f"{r.path}: {detail}", at, path)
        return error_value(DecodeError(kind, detail, 0, path), at)

    def contradicts_index(at: int, body: int, end: int) -> BundleRead | None:
        """An error row when the index names another first sequence number for the bundle here."""
        try:
            first = bundle_span(data, body, end, seq)[0]
        except DecodeError:
            return None  # the bundle's own error says more
        if first is None or first == r.checkpoints[at]:
            return None
        return BundleRead(at, None, None, False, fail(
            "invalid_value", f"the index names sequence number {r.checkpoints[at]} for the bundle here, the log "
            f"gives {first}", at, "index"))

    while pos < limit:
        at = r.start + pos
        if seq is None and at in r.checkpoints:
            seq = r.checkpoints[at]  # numbering resumes
        try:
            body, stop = _segment.entry_content(data, pos, limit)
            n = stop - body
            broken = None if body + n <= limit else DecodeError(
                "truncated", f"bundle of {n} bytes, {limit - body} left in the file", at, "bundle")
            if n == 0:  # a bundle of no bytes: the decoder refuses it, and nothing says where the next starts
                broken = _EMPTY_BUNDLE
        except DecodeError as exc:
            exc.offset = r.start + (exc.offset or pos)
            broken = exc
        if broken is not None:
            tail = zero_tail(pos)
            if tail is not None:
                yield tail
                return
        if broken is not None:
            found = None if failfast else resume_after(pos)
            if found is not None:
                yield unreadable(pos, found[0], broken.detail)
                pos, seq = found
                continue
            yield BundleRead(at, limit - pos, None, False, fail(broken.kind, broken.detail,
                                                                at if broken is _EMPTY_BUNDLE else broken.offset,
                                                                broken.path))
            return
        disagreement = contradicts_index(at, body, body + n) if at in r.checkpoints else None
        try:
            raw = data[body:body + n]
            value = _bundle.decode(raw, base_seq_num=seq or 0)
        except DecodeError as exc:
            if failfast:
                raise DecodeError(exc.kind, f"{r.path}: {exc.detail}", r.start + body + (exc.offset or 0),
                                  exc.path) from None
            yield BundleRead(at, body + n - pos, None, False, error_value(exc, r.start + body), raw)
            try:
                seq = bundle_span(data, body, body + n, seq)[1]
            except DecodeError:
                seq = None
        else:
            numbered = value.is_sparse or seq is not None
            if numbered and value.messages:
                seq = value.messages[-1].seq_num + 1
            yield BundleRead(at, body + n - pos, value, numbered, None, raw)
        if disagreement is not None:
            yield disagreement
        pos = body + n
    if r.end in r.checkpoints and seq is not None and len(data) > limit:
        try:
            body, stop = _segment.entry_content(data, limit, len(data))
            n = stop - body
        except DecodeError:
            return  # the next range reports it
        disagreement = contradicts_index(r.end, body, min(body + n, len(data)))
        if disagreement is not None:
            yield disagreement
