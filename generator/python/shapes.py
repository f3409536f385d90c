"""The shapes of generated code that more than one emitter writes: the varint primitives'
decoders and encoders, the codec names and the Python errors an encoder turns into its own."""

from __future__ import annotations

import codecs
from typing import TYPE_CHECKING

from logcodec.runtime.primitives import uvarint_bytes

from ..layout import Primitive, primitive
from ..schema import Field, TypeRef

if TYPE_CHECKING:
    from .code import Lines

#: What Python raises on a value of the wrong shape, which an encoder turns into an EncodeError.
PYTHON_ERRORS = "(TypeError, AttributeError, ValueError, OverflowError, IndexError, _struct.error)"


def codec_name(encoding: str) -> str:
    """The codec's own name for a schema's encoding (`UTF-8` is `utf-8`): mypyc calls the UTF-8,
    ASCII and Latin-1 codecs directly when `.encode`/`.decode` name them so, and CPython does
    not normalise the name on every call. An unknown name stays as written (it fails when used)."""
    try:
        return codecs.lookup(encoding).name
    except LookupError:
        return encoding


def codec_arg(encoding: str) -> str:
    """The argument of `.encode`/`.decode` for a schema's encoding (`codec_name`): none for
    UTF-8, the default, which CPython then takes without reading a name (a short key's
    `.encode()` 30 ns against 60, `.decode()` 83 against 100, `timeit`); mypyc calls the same
    codec either way."""
    name = codec_name(encoding)
    return "" if name == "utf-8" else repr(name)


# ---------------------------------------------------------------- varint primitives


class ZigzagVarint:
    """Protocol Buffers zigzag varint; the type's single param is its width in bits."""

    def __init__(self, prim: Primitive) -> None:
        self.bits, self.max_bytes, self.bias = prim.bits, prim.max_bytes, prim.bias

    def decode(self, out: Lines, target: str, epath: str) -> None:
        # One and two bytes inline. Their zigzag from a table in the module that runs as Python
        # source, computed in the compiled build: the table reads decode a Kafka record 7-12 %
        # faster interpreted and 6-10 % slower compiled (`Lines.build`). The second byte is read
        # once (`y`): 6 % of an interpreted record with four such.
        out.local("x")
        compiled = out.build.compiled
        if compiled:
            one, two = "(x >> 1) ^ -(x & 1)", "((x := (x & 127) | (y << 7)) >> 1) ^ -(x & 1)"
        else:
            unzigzag = out.table("UNZIGZAG")
            one, two = f"{unzigzag}[x]", f"{unzigzag}[(x & 127) | (y << 7)]"
        out(f"if {out.before_end('pos < end')}(x := buf[pos]) < 128:")
        out(f"    {target} = {one}; pos += 1")
        by_bytes = out.pair_table and target.isidentifier()
        if by_bytes:  # the value at both bytes (`UNZIGZAG2`), None where they are no two-byte varint
            out(f"elif {out.before_end('pos + 1 < end')}({target} := {out.table('UNZIGZAG2')}[x][buf[pos + 1]]) is not None:")
        else:
            # (`and y`: a last byte of 0 is overlong, the slow path refuses it; a chained
            # 0 < y < 128 costs the interpreter more)
            out.local("y")
            out(f"elif {out.before_end('pos + 1 < end')}(y := buf[pos + 1]) < 128 and y:")
            out(f"    {target} = {two}")
        out("    pos += 2")
        if self.max_bytes >= 3 and self.bits >= 21 and not compiled:  # three bytes (21 bits) always fit
            # Offsets and milliseconds past 8,191 (a batch of 10,000 records: a third of its
            # varints): inline when interpreted, where the call cost 10 % of such a batch;
            # compiled, the call is cheap and the longer function was 2-4 % slower.
            second = f"({out.local('y')} := buf[pos + 1])" if by_bytes else "y"  # else read by the test above
            out(f"elif {out.before_end('pos + 2 < end')}{second} > 127 and 0 < buf[pos + 2] < 128:")
            out("    x = (x & 127) | ((y & 127) << 7) | (buf[pos + 2] << 14); pos += 3")
            out(f"    {target} = (x >> 1) ^ -(x & 1)")
        out("else:")
        out(f"    x, pos = {out.helper('uvarint')}(buf, pos, end, {self.max_bytes}, {epath!r}, {self.bits})")
        out(f"    {target} = (x >> 1) ^ -(x & 1)")

    def encode(self, out: Lines, value: str, epath: str) -> None:
        """Set `d` to the encoding of `value`."""
        lo, hi = -(1 << (self.bits - 1)), (1 << (self.bits - 1)) - 1
        out.locals(("x", "d"))
        out(f"x = {value}")
        # The common small values from a table (those the width allows), the rest checked and
        # computed: the zigzag of any other value is at least 2^14, past the unsigned table too.
        small = min(8192, 1 << (self.bits - 1))
        out(f"if -{small} <= x < {small}:")
        out(f"    d = {out.table('ZIGZAG')}[x]")
        out("else:")
        out(f"    if not {lo} <= x <= {hi}: raise _rt.out_of_range(x, {self.bits}, {epath!r})")
        out(f"    d = {out.helper('uvarint_bytes')}((x << 1) ^ (x >> {self.bits - 1}))")

    @staticmethod
    def write(out: Lines) -> None:
        """Set `d` to the unsigned varint `x`; values below 2^14 come from a table."""
        out(f"{out.local('d')} = {out.table('VARINT')}[x] if x < 16384 else {out.helper('uvarint_bytes')}(x)")

    wide = property(lambda self: self.bits > 53)


class UnsignedVarint(ZigzagVarint):
    """Unsigned LEB128 varint (no zigzag); the param is the width in bits."""

    def decode(self, out: Lines, target: str, epath: str) -> None:
        out(f"if {out.before_end('pos < end')}({out.local('x')} := buf[pos]) < 128:")
        out(f"    {target} = x; pos += 1")
        out("else:")
        out(f"    {target}, pos = {out.helper('uvarint')}(buf, pos, end, {self.max_bytes}, {epath!r}, {self.bits})")

    def encode(self, out: Lines, value: str, epath: str) -> None:
        out(f"{out.local('x')} = {value}")
        out(f"if not 0 <= x < {1 << self.bits}: raise _rt.out_of_range(x, {self.bits}, {epath!r}, signed=False)")
        self.write(out)


class BiasedVarint(UnsignedVarint):
    """An unsigned varint holding its value plus its bias (1: an encoded 0 is -1); the param is the
    width of the encoded number in bits."""

    def decode(self, out: Lines, target: str, epath: str) -> None:
        out(f"if {out.before_end('pos < end')}({out.local('x')} := buf[pos]) < 128:")
        out(f"    {target} = x - {self.bias}; pos += 1")
        out("else:")
        out(f"    x, pos = {out.helper('uvarint')}(buf, pos, end, {self.max_bytes}, {epath!r}, {self.bits})")
        out(f"    {target} = x - {self.bias}")

    def encode(self, out: Lines, value: str, epath: str) -> None:
        out(f"{out.local('x')} = {value} + {self.bias}")
        out(f"if not 0 <= x < {1 << self.bits}: "
            f"raise _rt.out_of_range(x - {self.bias}, {self.bits}, {epath!r}, signed=False)")
        self.write(out)


PRIMITIVES = {"zigzag_varint": ZigzagVarint, "uvarint": UnsignedVarint, "biased_uvarint": BiasedVarint}


def absent_varint(length: Field) -> bytes | None:
    """The varint a length field writes where what it measures is null (its `-lc-absent`,
    zigzagged where the field is a zigzag varint); None where it has none."""
    if length.absent is None:
        return None
    value = length.absent
    if type(primitive_of(length.type)) is ZigzagVarint:  # an unsigned varint is its subclass
        value = ((value << 1) ^ (value >> 63)) & (2**64 - 1)
    return uvarint_bytes(value)


def primitive_of(ref: TypeRef) -> ZigzagVarint | None:
    """The code of a `-lc-primitive` field's type; None for any other type."""
    prim = primitive(ref)
    return None if prim is None else PRIMITIVES[prim.name](prim)


def int_at(b: str, at: str, size: int, signed: bool, endian: str, off: int = 0) -> str:
    """An integer of `size` bytes (1, 2, 4 or 8) at `b[at + off]`, by shifts of its bytes: what a
    compiled build reads in place of a struct's call. mypyc turns a byte's read and the shifts
    into C, where a `Struct.unpack_from` is a method call and a tuple (four ints of a Metadata
    partition: 82 ns by shifts against 369 ns by a struct, compiled). Eight bytes are two halves,
    each within a machine word, joined once (37 ns against 105 as one shifted sum, 170 by struct)."""
    offsets = [off + k for k in (range(size) if endian == "be" else reversed(range(size)))]  # most significant first
    if size == 8:
        high = _signed(_joined(b, at, offsets[:4]), 4) if signed else _joined(b, at, offsets[:4])
        return f"(({high}) << 32) | ({_joined(b, at, offsets[4:])})"
    value = _joined(b, at, offsets)
    return _signed(value, size) if signed else value


def _joined(b: str, at: str, offsets: list[int]) -> str:
    """The unsigned integer of the bytes at these offsets from `b[at]`, most significant first."""
    def byte(k: int) -> str:
        return f"{b}[{at} + {k}]" if k else f"{b}[{at}]"

    n = len(offsets)
    return " | ".join(f"({byte(k)} << {8 * (n - 1 - i)})" if i < n - 1 else byte(k) for i, k in enumerate(offsets))


def _signed(value: str, size: int) -> str:
    """The two's-complement reading of an unsigned `value` of `size` bytes."""
    top = 1 << (8 * size - 1)
    return f"(({value}) ^ {top:#x}) - {top:#x}" if size > 1 else f"({value} ^ 0x80) - 0x80"
