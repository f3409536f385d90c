"""Where a Kafka log's entries lie: each an int64 offset, an int32 size and that many bytes.

The size framing is what lets a large segment be cut into input partitions without decoding it
(`entry_starts`, from the headers alone), and what lets a reader step over a bad entry and go on
(`entries`). When the framing itself breaks (a size that is too small, or that runs past the end
of the file, or bytes overwritten), reading resynchronises at the next offset where the
generated entry decoder reads a whole entry with its checksum (`resync`).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

from logcodec.pipeline.errors import open_input
from logcodec.pipeline.kafka import resync
from logcodec.pipeline.plan import FileRange
from logcodec.pipeline.tables import error_value

from logcodec._api import codec
from logcodec.runtime.errors import DecodeError

_rs = codec("kafka.record_set")  # a log's entries: their sizes and bounds (`entry_size`, `entry_bounds`)


def entry_starts(path: Path, start: int = 0) -> list[int]:
    """The byte offset of every entry of a file whose framing holds, from the offset and size
    fields alone (nothing is decoded), walking from `start` (an entry's start); the walk stops where
    the framing breaks."""
    # Each header is read by itself (as `entry_bounds` walks a buffer): a map of the file would
    # bring every page it touches into this process's memory, a 256 MiB segment's all of them.
    starts = []
    with open(path, "rb") as f:
        fd, size, pos = f.fileno(), os.fstat(f.fileno()).st_size, start
        while pos < size:
            try:
                n = _rs.entry_size(os.pread(fd, _rs.ENTRY_HEADER, pos))
            except DecodeError:  # a header cut short, or one that declares too few bytes
                break
            if pos + n > size:
                break
            starts.append(pos)
            pos += n
    return starts


class Span(NamedTuple):
    """What a reader found at one place of a range: an entry (whole, or cut short at the end of the
    file), an `unreadable` range of bytes where no entry decodes (after a broken frame, up to where
    the framing resynchronises, `resync.next_entry`), or a `zero_fill` tail (zeros to the end of the
    file, as a preallocated segment keeps after a crash)."""

    at: int                      # file offset
    size: int                    # bytes in the file
    entry: bytes | None          # the entry's bytes (None for unreadable and zero_fill)
    error: tuple | None          # the `error` column (None for a framed entry and zero_fill)
    kind: str = "entry"          # entry, unreadable or zero_fill


def entries(r: FileRange, failfast: bool, max_entry: int = resync.MAX_ENTRY) -> Iterator[Span]:
    """Every entry of the range, by its framing; after a broken frame, the bytes up to the next
    offset where the generated decoder reads a whole entry with its checksum (`resync`) as one
    `unreadable` span, and reading goes on there. Zeros to the end of the file are one `zero_fill`
    span. A last entry that the decoder finds cut short (and nothing decodes after it) is an entry
    with a `truncated` error, as before. Every byte of the range is in exactly one span."""
    with open_input(r.path) as f:
        file_size = os.fstat(f.fileno()).st_size
        f.seek(r.start)
        data = f.read(max(0, min(r.end, file_size) - r.start))  # bytes: the compiled decoders take no mmap
    base, end, pos = r.start, len(data), 0
    while pos < end:
        at = base + pos
        try:
            size = _rs.entry_size(data, pos, end)
        except DecodeError as exc:  # a header cut short, or one that declares too few bytes
            why = (exc.kind, base + exc.offset, exc.detail, exc.path)
        else:
            if pos + size <= end:
                yield Span(at, size, data[pos:pos + size], None)
                pos += size
                continue
            why = ("truncated", at, f"entry of {size} bytes, {end - pos} left in the file", "")
        if base + end == file_size and resync.all_zero(data, pos, end):
            yield Span(at, end - pos, None, None, "zero_fill")
            return
        if failfast:
            raise DecodeError(why[0], f"{r.path}: {why[2]}", why[1], why[3])
        following = resync.next_entry(data, pos + 1, end, max_entry)
        if following is None and _cut_short(data, pos, end):
            yield Span(at, end - pos, data[pos:end], error_value(DecodeError(why[0], why[2], 0, why[3]), why[1]))
            return
        following = end if following is None else following
        detail = (f"{following - pos} bytes where no entry decodes, from a broken frame ({why[2]}) to "
                  + ("the end of the file" if base + following == file_size
                     else "the next entry whose checksum holds"))
        yield Span(at, following - pos, None, ("unreadable", at, "", detail), "unreadable")
        pos = following


def _cut_short(data, pos: int, end: int) -> bool:
    """Whether the generated entry decoder reads data[pos:end] as an entry cut short (a last
    entry the writer did not finish), rather than refusing its bytes."""
    try:
        resync.decode_entry_at(data, pos, end)
    except DecodeError as exc:
        return exc.kind == "truncated"
    return False
