"""Re-encode a decoded batch or bundle and compare it with the bytes it was read from: the
laws 2 and 3 of ARCHITECTURE.md, checked by the validation job on every entry of real logs.

- Bytes that are not compressed must come back byte for byte (law 2): `identical`, or
  `mismatch` with the first byte that differs.
- Compressed bytes come back identical too: a decoded value keeps the compressed bytes it was
  read from (another producer's zlib, lz4, snappy or zstd writes other, equally valid bytes than
  ours), and the encoder writes them back while they still decompress to what it would compress.
  A compressed entry whose re-encoding differs all the same (the encoder compressed anew) is
  decoded again and its values compared with the first decoding, derived fields (lengths, CRCs)
  aside (law 3): `equivalent`, or `mismatch`.
- `failed`: the encoder refused the value, or wrote bytes that do not decode.

Only `identical` and `equivalent` leave an entry valid; the others quarantine it with the
error kind `reencode_mismatch` or `reencode_failed` (the job's own kinds, next to the
decoders' `logcodec.KINDS`). Nothing here needs Spark.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from logcodec.runtime.errors import LogcodecError
from logcodec.runtime.values import replaced, without_derived

#: The values of the `reencode` column, apart from null (the entry did not decode).
OUTCOMES = ("identical", "equivalent", "mismatch", "failed")
#: The error kinds of entries that decode but do not re-encode to themselves.
REENCODE_KINDS = {"mismatch": "reencode_mismatch", "failed": "reencode_failed"}


class Outcome(NamedTuple):
    reencode: str                 # one of OUTCOMES
    error: tuple | None           # (kind, absolute offset, path, detail) unless identical or equivalent


def compare(original: bytes, value: Any, *, encode: Callable[[Any], bytes], decode: Callable[[bytes], Any],
            compressed: bool, base: int, codec: str = "", light: Callable[[Any], Any] = lambda v: v) -> Outcome:
    """Re-encode `value`, decoded from `original` (which starts at file offset `base`).

    `light(value)` is the value the encoder is given: the decoded value with the derived fields
    cleared that the encoder cannot reproduce after compressing anew (a v2 batch's length and
    CRC); if the encoder refuses it (derived fields of non-canonical bytes, such as the length
    of a record written with non-minimal varints), the value with every derived field cleared
    (`logcodec.strip_derived`, slower). After a compressed round trip, `light` of both
    decodings are compared first (fast), and only if they differ the fully stripped values, so
    that a difference in derived fields alone is no mismatch."""
    try:
        out = encode(light(value))
    except LogcodecError:
        try:  # derived fields that canonical bytes would not have (a length of non-minimal varints)
            out = encode(without_derived(value))
        except LogcodecError as exc:
            return _failed(base, f"the encoder refuses the decoded value: {exc}")
    if out == original:
        return Outcome("identical", None)
    if not compressed:
        at = _first_difference(out, original)
        return Outcome("mismatch", (REENCODE_KINDS["mismatch"], base + at, "", (
            f"re-encoding differs from byte {at} on ({len(out)} bytes re-encoded, {len(original)} read); "
            f"bytes that are not compressed must come back identical")))
    try:
        back = decode(out)
    except LogcodecError as exc:
        return _failed(base, f"the re-encoded bytes do not decode: {exc}")
    if light(back) == light(value) or without_derived(back) == without_derived(value):
        return Outcome("equivalent", None)
    return Outcome("mismatch", (REENCODE_KINDS["mismatch"], base, "", (
        f"re-encoded with {codec or 'its codec'}, the entry decodes to other values")))


def _failed(base: int, detail: str) -> Outcome:
    return Outcome("failed", (REENCODE_KINDS["failed"], base, "", detail))


def _first_difference(a: bytes, b: bytes) -> int:
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return i
    return min(len(a), len(b))


def without_length_and_crc(batch):
    """A v2 record batch with `len_batch` and `crc` cleared: what a compressed batch re-encodes
    from. It keeps the compressed bytes it was read from, which the encoder writes back while they
    still hold its records."""
    return replaced(batch, len_batch=None, crc=None)
