"""CRC fix-up: make a mutated input pass every checksum its schema declares.

The decoder is the authority on where a checksum field sits and what it covers: it checks each
`-lc-checksum` field when it reaches it and raises ``checksum_mismatch`` at the field's offset,
naming the field and the stored and computed values. So the fix-up decodes, writes the computed
value into the field (width and byte order from the IR), and decodes again, until no checksum
complains: one pass per checksum met, in order (a record set of several batches, nested legacy
messages).

The covered range is reported too (for the repro notes): it starts at the schema's `from` field,
which the IR says follows the checksum field, and ends where the CRC of the bytes equals the
computed value.

Why the detail text: the generated decoders expose no positions of decoded fields. A small
generated helper, ``checksum_sites(buf) -> [(path, field_offset, range_start, range_end,
algorithm)]``, would make this exact without a decode per checksum; see fuzz/README.md.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import logcodec
from logcodec.runtime.primitives import crc32, crc32c

from fuzz.knowledge import ChecksumField, facts

ALGORITHMS = {"crc32": crc32, "crc32c": crc32c}
# What the generated decoders say in a checksum_mismatch (generator/python/emit.py renders it).
_DETAIL = re.compile(r"stored (0x[0-9a-f]+), computed (0x[0-9a-f]+)")
# The fix-up decodes untrusted bytes in the campaign's own process: small limits keep that cheap
# (every checksum is checked before the bytes it guards are decompressed or walked).
_PROBE_LIMITS = logcodec.Limits(max_decompressed_size=1 << 20, max_decompressed_total=1 << 20,
                                max_elements=20_000, max_nesting=8)
MAX_FIXES = 32


@dataclass(frozen=True)
class Fix:
    path: str
    offset: int
    width: int
    algorithm: str
    stored: int
    computed: int
    range_start: int
    range_end: int | None

    def describe(self) -> str:
        end = "?" if self.range_end is None else self.range_end
        return (f"{self.algorithm} {self.path} at {self.offset}: {self.stored:#010x} -> {self.computed:#010x} "
                f"(covers [{self.range_start}, {end}))")


def probe(format_name: str, data: bytes, params: dict | None = None):
    """The DecodeError of `data` under small limits, or None; any other exception also None
    (the fix-up must not stop the campaign: the worker meets that input again and records it)."""
    try:
        logcodec.decode(format_name, data, limits=_PROBE_LIMITS, lazy=False, **(params or {}))
    except logcodec.DecodeError as err:
        return err
    except Exception:  # noqa: BLE001 - reported when the worker runs the input
        return None
    return None


def fix_checksums(format_name: str, data: bytes, params: dict | None = None) -> tuple[bytes, list[Fix]]:
    """`data` (read with the root's `params`) with every checksum the decoder meets recomputed, and
    what was changed."""
    declared = facts(format_name)
    buf, fixes = bytearray(data), []
    for _ in range(MAX_FIXES):
        err = probe(format_name, bytes(buf), params)
        fix = _fix_for(declared.checksum_named(_leaf(err.path)) if err and err.kind == "checksum_mismatch" else None,
                       err, buf)
        if fix is None:
            break
        buf[fix.offset:fix.offset + fix.width] = _to_bytes(fix.computed, fix.width, fix.algorithm, declared)
        fixes.append(fix)
    return bytes(buf), fixes


def _leaf(path: str) -> str:
    return path.rsplit(".", 1)[-1].split("[", 1)[0]


def _to_bytes(value: int, width: int, algorithm: str, declared) -> bytes:
    site = next(c for c in declared.checksums if c.algorithm == algorithm)
    return value.to_bytes(width, "little" if site.endian == "le" else "big")


def _fix_for(site: ChecksumField | None, err, buf: bytearray) -> Fix | None:
    if site is None or err.offset is None or not 0 <= err.offset <= len(buf) - site.width:
        return None
    match = _DETAIL.search(err.detail)
    if not match:
        return None
    stored, computed = int(match.group(1), 16), int(match.group(2), 16)
    order = "little" if site.endian == "le" else "big"
    # The error must be about bytes of this buffer (not of a decompressed payload inside it).
    if int.from_bytes(buf[err.offset:err.offset + site.width], order) != stored:
        return None
    start = err.offset + site.width if site.from_follows else None
    if start is None:
        return None
    end = covered_end(buf, start, site.algorithm, computed)
    return Fix(err.path, err.offset, site.width, site.algorithm, stored, computed, start, end)


def covered_end(buf, start: int, algorithm: str, crc: int, limit: int = 4096) -> int | None:
    """The end of the range from `start` whose CRC is `crc` (scanned incrementally; None when not
    found within `limit` bytes)."""
    fn = ALGORITHMS[algorithm]
    value, view = 0, memoryview(buf)
    for end in range(start, min(len(buf), start + limit) + 1):
        if end > start:
            value = fn(view[end - 1:end], value)
        if value == crc:
            return end
    return None
