"""Finding the next Kafka entry after a broken frame, through the generated codecs.

When a Kafka log's framing breaks (a size that is too small, or that runs past the end of
the file, or bytes overwritten), nothing says where the next entry starts. This module
finds it the way the issue asks: the next byte offset at which the generated entry decoder
of `kafka.record_set` (`record_set_entry`: a legacy message by its CRC-32, or a v2 batch by
its CRC-32C) decodes a whole entry. No field offsets are written here: what a candidate must
look like is asked of the codec once, at import (`_probe`):

- where the entry decoder reads the magic byte that chooses the entry's format (the offset
  of its "magic is cut short" error on empty input), and
- which byte values it accepts there (every value whose entry it does not refuse *at the
  magic byte*: 0 and 1, legacy messages, and 2, record batches).

Scanning every offset with the decoder would cost microseconds per byte. Instead the scan
looks for candidates with C-speed regular expressions: the next byte that is one of the
magic values (a regex character class), and, in a run of zeros, the next non-zero byte
(an all-zero header frames nothing; the probe checks that the codec refuses one). Only
there is the decoder run, with a short circuit: it stops at the first field it refuses, and
a candidate is given at most `max_entry` bytes (default 8 MiB, larger than Kafka's default
`message.max.bytes` of 1 MiB), so that a random size field cannot make it checksum tens of
MB of garbage. A batch larger than that behind a broken frame is counted in the
unreadable range, not lost from the accounting.
"""

from __future__ import annotations

import re

from logcodec.generated.kafka import record_set as _rs

from logcodec.runtime.errors import DecodeError

#: Most bytes a candidate entry may take during a scan (see the module's docstring).
MAX_ENTRY = 8 << 20
#: The type of kafka.record_set whose values are the entries: a legacy message or a v2 batch.
ENTRY = "record_set_entry"


def _probe() -> tuple[int, bytes]:
    """(offset of the magic byte in an entry, the magic values the entry decoder accepts), asked of
    the generated `record_set_entry` decoder."""
    try:
        _rs.decode_part(ENTRY, b"")
    except DecodeError as exc:
        if not exc.path.endswith("magic"):
            raise RuntimeError(f"kafka.record_set no longer reads a magic byte first: {exc}") from None
        at = exc.offset
    else:
        raise RuntimeError("kafka.record_set decoded an entry from no bytes")
    accepted = []
    for value in range(256):
        buf = bytes(at) + bytes([value]) + bytes(96)
        try:
            _rs.decode_part(ENTRY, buf)
        except DecodeError as exc:
            if exc.kind == "invalid_value" and exc.offset == at:
                continue  # refused for its magic byte
            accepted.append(value)
            continue
        raise RuntimeError("kafka.record_set decoded an entry of zeros")
    return at, bytes(accepted)


MAGIC_AT, MAGICS = _probe()
_MAGIC = re.compile(b"[" + b"".join(re.escape(bytes([m])) for m in MAGICS) + b"]")
_NONZERO = re.compile(b"[^\x00]")


def decode_entry_at(data, pos: int, end: int):
    """(the entry the generated `record_set_entry` decoder reads at data[pos:end], the position
    after it); DecodeError as the decoder raises it."""
    return _rs.decode_part(ENTRY, data, pos=pos, end=end)


def entry_at(data, pos: int, end: int, max_entry: int = MAX_ENTRY) -> int | None:
    """The end of the whole entry that the generated decoder reads at data[pos:], checksum
    included; None when it refuses the bytes there."""
    try:
        _, after = _rs.decode_part(ENTRY, data, pos=pos, end=min(end, pos + max_entry))
    except (DecodeError, RecursionError, MemoryError):
        return None
    return after if after > pos else None


def next_entry(data, pos: int, end: int, max_entry: int = MAX_ENTRY) -> int | None:
    """The first offset in [pos, end) where a whole entry decodes (`entry_at`); None when there is none."""
    p = pos
    while p + MAGIC_AT < end:
        # The next offset whose magic byte holds one of the magic values.
        m = _MAGIC.search(data, p + MAGIC_AT, end)
        if m is None:
            return None
        p = m.start() - MAGIC_AT
        if data[p] == 0 and data[p:p + MAGIC_AT + 1].count(0) == MAGIC_AT + 1:
            # An all-zero header: skip to where a header could hold the next non-zero byte.
            z = _NONZERO.search(data, p, end)
            if z is None:
                return None
            p = max(p + 1, z.start() - MAGIC_AT)
            continue
        if entry_at(data, p, end, max_entry) is not None:
            return p
        p += 1
    return None


def all_zero(data, pos: int, end: int) -> bool:
    """Whether data[pos:end] holds only zero bytes."""
    return _NONZERO.search(data, pos, end) is None
