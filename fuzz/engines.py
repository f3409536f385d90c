"""Mutation engines: byte, integer, varint, truncation and splice mutations of the golden vectors.

Every engine is ``engine(rng, seed, ctx) -> bytes | None`` (None: does not apply to this seed) and
draws only from the `random.Random` it is given, so a campaign seed reproduces every input. The
engines see a format only through its vectors (the seeds) and its schema facts
(fuzz/knowledge.py): byte order, varint kinds, the root integers whose place is fixed.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from logcodec.runtime.primitives import uvarint_bytes

from fuzz.knowledge import FormatFacts, zigzag

INTERESTING_BYTES = (0x00, 0x01, 0x7F, 0x80, 0xFE, 0xFF)
WIDTHS = (1, 2, 4, 8)
# Values a varint of 32 or 64 bits must be checked against: each 7-bit group boundary, the sign
# boundaries, the largest values of each width and one past them.
VARINT_VALUES = (0, 1, 63, 64, 127, 128, 16383, 16384, (1 << 21) - 1, 1 << 21, (1 << 28) - 1, 1 << 28,
                 (1 << 31) - 1, 1 << 31, (1 << 32) - 1, 1 << 32, (1 << 35) - 1, (1 << 63) - 1, 1 << 63,
                 (1 << 64) - 1, 1 << 64, -1, -2, -64, -65, -(1 << 31), -(1 << 63))


@dataclass(frozen=True)
class Seed:
    format: str
    id: str
    data: bytes
    valid: bool
    #: the root's params the vector is read with, by name (a Kafka response's API); a mutant of the
    #: seed is read with them too
    params: tuple[tuple[str, int], ...] = ()


@dataclass
class Context:
    """What the engines may read: the seeds of the format and the schema's facts."""

    facts: FormatFacts
    seeds: list[Seed]
    extras: dict = field(default_factory=dict)


def boundary_ints(width: int) -> list[int]:
    """0, -1, the extremes of the signed and unsigned ranges of `width` bytes, and their neighbours,
    as unsigned values of that width."""
    bits = width * 8
    mask = (1 << bits) - 1
    values = (0, 1, -1, 2, (1 << (bits - 1)) - 1, 1 << (bits - 1), (1 << (bits - 1)) + 1, mask - 1, mask)
    return sorted({v & mask for v in values})


def _order(ctx: Context, rng: random.Random) -> str:
    # Mostly the schema's byte order; now and then the other one (a length read the wrong way).
    schema_order = "little" if ctx.facts.endian == "le" else "big"
    return schema_order if rng.random() < 0.85 else ("big" if schema_order == "little" else "little")


def bit_flip(rng, seed: Seed, ctx: Context) -> bytes | None:
    if not seed.data:
        return None
    buf = bytearray(seed.data)
    for _ in range(rng.choice((1, 1, 2, 3, 4))):
        buf[rng.randrange(len(buf))] ^= 1 << rng.randrange(8)
    return bytes(buf)


def byte_set(rng, seed: Seed, ctx: Context) -> bytes | None:
    if not seed.data:
        return None
    buf = bytearray(seed.data)
    for _ in range(rng.choice((1, 1, 2, 4))):
        buf[rng.randrange(len(buf))] = rng.choice(INTERESTING_BYTES) if rng.random() < 0.7 else rng.randrange(256)
    return bytes(buf)


def aligned_int(rng, seed: Seed, ctx: Context) -> bytes | None:
    """A boundary integer of width 1/2/4/8 at a position aligned to its width."""
    width = rng.choice(WIDTHS)
    if len(seed.data) < width:
        return None
    pos = rng.randrange(len(seed.data) // width) * width
    return _put_int(seed.data, pos, width, rng.choice(boundary_ints(width)), _order(ctx, rng))


def field_int(rng, seed: Seed, ctx: Context) -> bytes | None:
    """A boundary integer written exactly over one of the root's fixed-place integers (the IR's)."""
    fields = [f for f in ctx.facts.fixed_ints if f.offset + f.width <= len(seed.data)]
    if not fields:
        return None
    f = rng.choice(fields)
    return _put_int(seed.data, f.offset, f.width, rng.choice(boundary_ints(f.width)),
                    "little" if f.endian == "le" else "big")


def unaligned_int(rng, seed: Seed, ctx: Context) -> bytes | None:
    """A boundary integer at any position: most fields of these formats are not aligned."""
    width = rng.choice(WIDTHS)
    if len(seed.data) < width:
        return None
    return _put_int(seed.data, rng.randrange(len(seed.data) - width + 1), width,
                    rng.choice(boundary_ints(width)), _order(ctx, rng))


def _put_int(data: bytes, pos: int, width: int, value: int, order: str) -> bytes:
    return data[:pos] + value.to_bytes(width, order) + data[pos + width:]


def varint_encoding(rng, kind: str) -> bytes:
    """A varint of the kind the schema uses, for a boundary value, sometimes over-long (padded
    with continuation groups of zero bits, which the encoders never write)."""
    value = rng.choice(VARINT_VALUES)
    raw = zigzag(value) if kind == "zigzag_varint" else value & ((1 << 70) - 1)
    enc = bytearray(uvarint_bytes(raw))
    if rng.random() < 0.3:
        extra = rng.randrange(1, 6)
        enc[-1] |= 0x80
        enc += b"\x80" * (extra - 1) + b"\x00"
    return bytes(enc)


def varint(rng, seed: Seed, ctx: Context) -> bytes | None:
    """A boundary varint over 1-3 bytes of the seed, where the schema has varints at all."""
    if not ctx.facts.varints or not seed.data:
        return None
    enc = varint_encoding(rng, rng.choice(sorted(ctx.facts.varints)))
    pos = rng.randrange(len(seed.data))
    return seed.data[:pos] + enc + seed.data[pos + rng.choice((1, 1, 2, 3)):]


def truncate(rng, seed: Seed, ctx: Context) -> bytes | None:
    if not seed.data:
        return None
    cut = rng.randrange(len(seed.data))
    if rng.random() < 0.3:  # cut a piece out of the middle instead of the tail
        return seed.data[:cut] + seed.data[cut + rng.randrange(1, 17):]
    return seed.data[:cut]


def insert_bytes(rng, seed: Seed, ctx: Context) -> bytes | None:
    pos = rng.randrange(len(seed.data) + 1)
    n = rng.choice((1, 2, 4, 8, 16))
    fill = bytes([rng.choice(INTERESTING_BYTES)]) * n if rng.random() < 0.5 else rng.randbytes(n)
    return seed.data[:pos] + fill + seed.data[pos:]


def splice(rng, seed: Seed, ctx: Context) -> bytes | None:
    """The head of this seed and the tail of another seed of the same format."""
    others = [s for s in ctx.seeds if s.id != seed.id and s.data]
    if not others or not seed.data:
        return None
    other = rng.choice(others)
    return seed.data[:rng.randrange(len(seed.data) + 1)] + other.data[rng.randrange(len(other.data)):]


def duplicate(rng, seed: Seed, ctx: Context) -> bytes | None:
    """A piece of the seed repeated in place: repeated elements, lengths that no longer agree."""
    if len(seed.data) < 2:
        return None
    a = rng.randrange(len(seed.data) - 1)
    b = rng.randrange(a + 1, min(len(seed.data), a + 64) + 1)
    return seed.data[:b] + seed.data[a:b] * rng.choice((1, 2, 16)) + seed.data[b:]


BYTE_ENGINES = {
    "bit_flip": bit_flip, "byte_set": byte_set, "aligned_int": aligned_int, "unaligned_int": unaligned_int,
    "field_int": field_int, "varint": varint, "truncate": truncate, "insert": insert_bytes,
    "splice": splice, "duplicate": duplicate,
}


def havoc(rng, seed: Seed, ctx: Context) -> bytes | None:
    """Two to five byte engines stacked on one seed."""
    data = seed.data
    for _ in range(rng.randrange(2, 6)):
        out = BYTE_ENGINES[rng.choice(sorted(BYTE_ENGINES))](rng, Seed(seed.format, seed.id, data, False), ctx)
        data = data if out is None else out
    return data


def mutate_plain(rng: random.Random, data: bytes, ctx: Context) -> bytes:
    """One stacked mutation of bytes that are not a seed (a decompressed payload)."""
    return havoc(rng, Seed(ctx.facts.name, "plain", data, False), ctx) or data
