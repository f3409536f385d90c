"""Walking a TANK segment by its framing: bundles laid end to end, each after a varint length
(`tank.segment_log`), with a header that says how many messages it holds and, for a sparse
bundle, their sequence numbers (`tank.bundle`'s `HEADER`, read alone). Nothing is decompressed.

A bundle that is not sparse does not store its sequence numbers: they follow from the segment's
base (in its file name) and from how many messages came before, so each walk carries the number
of the next message."""

from __future__ import annotations

import mmap
from pathlib import Path

from logcodec._api import codec
from logcodec.runtime.errors import DecodeError

_bundle = codec("tank.bundle")
_segment = codec("tank.segment_log")  # a segment's framing: each bundle's length and where its bytes lie


def bundle_span(buf, pos: int, end: int, base_seq_num: int | None) -> tuple[int | None, int | None]:
    """(first sequence number, the next bundle's base) of the bundle in buf[pos:end], read from
    its header alone (the codec's `HEADER` part: flags, producer block, count, sparse bounds);
    the messages are not decompressed. A bundle that is not sparse starts at `base_seq_num`
    (None when unknown gives (None, None)). DecodeError when the header is cut short."""
    head = bytes(buf[pos:min(end, pos + _bundle.HEADER_MAX)])  # `buf` may be a whole segment's mmap
    try:
        header, _ = _bundle.decode_part(_bundle.HEADER, head)
    except DecodeError as exc:
        raise DecodeError(exc.kind, exc.detail, pos + (exc.offset or 0), exc.path) from None
    count = header.num_messages
    if not header.is_sparse:
        return (None, None) if base_seq_num is None else (base_seq_num, base_seq_num + count)
    first = header.first_seq_num
    if count == 1:
        return first, first + 1
    return first, first + header.last_seq_num_delta + 2


def header_points(path: Path, base_seq_num: int) -> dict[int, int]:
    """{file offset: first sequence number} of every bundle, from lengths and bundle headers
    alone; the walk stops at the first bundle whose framing or header cannot be read."""
    points: dict[int, int] = {}
    with open(path, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as data:
        pos, end, seq = 0, len(data), base_seq_num
        while pos < end:
            try:
                body, stop = _segment.entry_content(data, pos, end)
                n = stop - body
                if body + n > end:
                    break
                first, following = bundle_span(data, body, body + n, seq)
            except DecodeError:
                break
            if first is None or following is None:  # cannot happen: seq is known
                break
            points[pos] = first
            pos, seq = body + n, following
    return points


def bundle_starts(log: Path, base_seq_num: int) -> tuple[dict[int, int | None], int, int]:
    """({file offset: first sequence number} of every bundle the framing locates (None while the
    numbering is lost after an unreadable header), where the framing ends, the log's size)."""
    starts: dict[int, int | None] = {}
    with open(log, "rb") as f:
        size = f.seek(0, 2)
        if size == 0:
            return starts, 0, 0
        with mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as data:
            pos, seq = 0, base_seq_num
            while pos < size:
                try:
                    body, stop = _segment.entry_content(data, pos, size)
                    n = stop - body
                except DecodeError:
                    break
                if body + n > size:
                    break
                try:
                    first, seq = bundle_span(data, body, body + n, seq)
                except DecodeError:
                    first, seq = None, None
                starts[pos] = first
                pos = body + n
    return starts, pos, size
