"""Small named primitives that generated codecs call.

The fast paths (one- and two-byte varints, fixed runs) are inlined by the
generator; what lives here is the slow path and the error path, so that the
generated code stays short and every error is built in one place.
"""

from __future__ import annotations

import copy
import operator
import struct
import zlib
from typing import Any

from crc32c import crc32c as _crc32c

from logcodec.runtime.errors import DecodeError, EncodeError
from logcodec.runtime.lazy import as_list  # noqa: F401  (generated encoders call `_rt.as_list`)
from logcodec.runtime.limits import MAX_PADDING, Limits, budget
from logcodec.runtime.values import equal_but_derived

# ---------------------------------------------------------------- errors


def short(buf, pos: int, end: int, need: int, path: str) -> DecodeError:
    """A read of `need` bytes at `pos` does not fit before `end`.

    Running off the end of the whole input is `truncated` (more bytes may come:
    a fetch response cut mid-batch); running off the end of an enclosing sized
    field is `invalid_length` (the declared lengths disagree).
    """
    have = max(end - pos, 0)
    if end >= len(buf):
        return DecodeError("truncated", f"needs {need} bytes, {have} left", pos, path)
    return DecodeError("invalid_length", f"needs {need} bytes, {have} left in the enclosing field", pos, path)


def short_run(buf, pos: int, end: int, layout: tuple) -> DecodeError:
    """A run of fixed fields does not fit: name the first field that is cut.

    `layout` is ((field path, offset in the run, size), ...).
    """
    for path, off, size in layout:
        if pos + off + size > end:
            return short(buf, pos + off, end, size, path)
    raise AssertionError("short_run called on a run that fits")


def bad_length(value: int, pos: int, path: str) -> DecodeError:
    return DecodeError("invalid_length", f"length or count {value} is negative", pos, path)


def trailing(buf, used: int, end: int, path: str) -> DecodeError:
    return DecodeError("trailing_bytes", f"{end - used} bytes left over after the content", used, path)


def placed(err: DecodeError, pos: int) -> DecodeError:
    """An error raised where no offset was known (text that is not its encoding): at `pos`,
    where the value being read is."""
    if err.offset is None:
        err.offset = pos
    return err


def invalid(detail: str, pos: int, path: str) -> DecodeError:
    return DecodeError("invalid_value", detail, pos, path)


def in_field(err: DecodeError, start: int, decompressed: bool, open_ended: bool = False) -> DecodeError:
    """Re-anchor an error raised inside a sized field, as it leaves the field.

    A field with a declared size had all its bytes (its extent was checked
    against the input), so running off its end is `invalid_length`, never
    `truncated`; only a field that runs to the end of the input (`open_ended`:
    size-eos there) may really be cut short. Offsets inside decompressed bytes
    mean nothing in the input: the error then points at the start of the stored
    field and keeps the inner offset in its detail.
    """
    if err.kind == "truncated" and (decompressed or not open_ended):
        err.kind = "invalid_length"
        err.detail += " (the enclosing field's declared size is too small)"
    if decompressed:
        err.detail = f"{err.detail} (at offset {err.offset} of the decompressed data)"
        err.offset = start
    return err


# ---------------------------------------------------------------- varints


def uvarint(buf, pos: int, end: int, max_bytes: int, path: str, max_bits: int = 0) -> tuple[int, int]:
    """Unsigned base-128 varint, least significant group first (slow path). With `max_bits`,
    a value that needs more bits (the high bits of a last byte) is invalid too. So is an
    overlong encoding (a last byte of 0 after another, `80 80 80 80 00` for 0): every
    encoder writes the shortest form, and a longer one could not be written back."""
    result = shift = 0
    start = pos
    while True:
        if pos >= end:
            raise short(buf, pos, end, 1, path)
        b = buf[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        if b < 0x80:
            if b == 0 and pos - start > 1:
                raise DecodeError("invalid_value", f"overlong varint: {pos - start} bytes for {result}", start, path)
            if max_bits and result >> max_bits:
                raise DecodeError("invalid_value", f"varint value {result} needs more than {max_bits} bits", start, path)
            return result, pos
        shift += 7
        if pos - start >= max_bytes:
            raise DecodeError("invalid_value", f"varint longer than {max_bytes} bytes", start, path)


def uvarint_bytes(value: int) -> bytes:
    if 0x4000 <= value < 0x200000:  # three bytes (offsets, milliseconds past 16,383): 3x the loop's speed
        return three_byte_varint(value)
    out = bytearray()
    while value >= 0x80:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


#: The encodings of every unsigned varint below 2^14 (one or two bytes), so that
#: encoders take a ready part instead of building one.
VARINT: tuple[bytes, ...] = tuple(uvarint_bytes(x) for x in range(16384))
#: The zigzag varint of every value in [-8192, 8192) (one or two bytes), at that value as an
#: index: the negative values sit at the end, where Python's negative indexes find them
#: (ZIGZAG[-1] is the encoding of -1), so that an encoder takes it without computing the zigzag.
ZIGZAG: tuple[bytes, ...] = tuple(VARINT[(v << 1) ^ (v >> 63)] for v in (*range(8192), *range(-8192, 0)))
#: The value of every zigzag varint's payload below 2^14 (a one- or two-byte varint's 7 or 14
#: bits), at the payload as an index. Decoders running as Python source read it: a tuple read
#: costs the interpreter less than the shifts and the sign (their compiled builds compute).
UNZIGZAG: tuple[int, ...] = tuple((x >> 1) ^ -(x & 1) for x in range(16384))
#: The value of every two-byte zigzag varint, at its first byte (128-255), then its second: None
#: where that second byte ends no two-byte varint (0 would be overlong; 128 and up, more bytes
#: follow). A decoder running as Python source reads one with two indexes and a test, instead of
#: the shifts of its 14 bits and a tuple read: 11 opcodes fewer, 3-9 % of a Kafka record.
UNZIGZAG2: tuple[tuple[int | None, ...] | None, ...] = (None,) * 128 + tuple(
    (None, *(UNZIGZAG[(x & 127) | (y << 7)] for y in range(1, 128)), *(None,) * 128) for x in range(128, 256))
#: Every single byte, as a part.
BYTE: tuple[bytes, ...] = tuple(bytes((x,)) for x in range(256))


def three_byte_varint(value: int) -> bytes:
    """The varint of a value in [2^14, 2^21), its three bytes laid out in one int."""
    return ((value & 0x7F) | ((value & 0x3F80) << 1) | ((value >> 14) << 16) | 0x8080).to_bytes(3, "little")


def zigzag_wide(value: int, bits: int) -> bytes:
    """The zigzag varint of a value past the table (`ZIGZAG`), for a fast encoder (see
    `generator.python.fast_encode`); OverflowError when it does not fit `bits` bits, on which the
    encoder falls back on its checked path, which names the error."""
    zigzag = (value << 1) ^ (value >> (bits - 1))
    if 0x4000 <= zigzag < 0x200000 and bits > 20:  # three bytes, which any width past 20 bits holds
        return three_byte_varint(zigzag)
    if not -(1 << (bits - 1)) <= value < 1 << (bits - 1):
        raise OverflowError(f"{value!r} does not fit {bits} bits")
    return uvarint_bytes(zigzag)


def varint_wide(value: int, bits: int) -> bytes:
    """The unsigned varint of a value past the table (`VARINT`), as `zigzag_wide`."""
    if not 0 <= value < 1 << bits:
        raise OverflowError(f"{value!r} does not fit {bits} bits unsigned")
    return uvarint_bytes(value)


def beyond_table(value: object) -> bytes:
    """A value a fast encoder's table does not hold (a byte out of range): OverflowError, as
    `zigzag_wide`."""
    raise OverflowError(f"{value!r} is not in the table")


def not_bytes(value: object) -> bytes:
    """A bytes field's value a fast encoder does not take, as it is not `bytes` (a bytearray, an
    array whose items are wider than a byte, a str): TypeError, so that the checked encoder
    copies or refuses it (`bytes_value`)."""
    raise TypeError(f"{type(value).__name__} is not bytes")


class TextParts(dict):
    """One text field's parts for a fast encoder, by the text: its length's varint and its
    encoded bytes, joined. A text met for the first time is encoded here (`__missing__`) and
    kept when short, up to `ENTRIES` of them, so that a field whose few values repeat (a Kafka
    header's key) costs one lookup. What cannot be encoded raises as `.encode` does (a
    UnicodeEncodeError, an AttributeError for what is not text), and the encoder's checked
    path says what is wrong."""

    __slots__ = ("encoding", "table", "small", "wide", "bits")
    ENTRIES = 256
    LONGEST = 64  # bytes of a text kept

    def __init__(self, encoding: str, table: tuple, small: int, wide, bits: int) -> None:
        super().__init__()
        self.encoding, self.table, self.small, self.wide, self.bits = encoding, table, small, wide, bits

    def __missing__(self, text: str) -> bytes:
        data = text.encode(self.encoding)
        n = len(data)
        part = (self.table[n] if n < self.small else self.wide(n, self.bits)) + data
        # only exact str: a subclass may compare equal to a text it does not encode as
        if n <= self.LONGEST and len(self) < self.ENTRIES and type(text) is str:
            self[text] = part
        return part


class NumberRuns(dict):
    """The `struct.Struct` of `count` numbers of one format (`">i"`), by count: a counted list of
    numbers is read in one call (`layout.number_run`). A count met for the first time is
    compiled here (`__missing__`) and kept up to `LARGEST`, so that the few counts a frame's lists
    have (a partition's three replicas) cost one lookup, and a long list's one struct is not
    kept."""

    __slots__ = ("code", "order")
    LARGEST = 64

    def __init__(self, code: str) -> None:
        super().__init__()
        self.order, self.code = code[0], code[1:]

    def __missing__(self, count: int) -> struct.Struct:
        run = struct.Struct(f"{self.order}{count}{self.code}")
        if count <= self.LARGEST:
            self[count] = run
        return run


def out_of_range(value, bits: int, path: str, signed: bool = True) -> EncodeError:
    kind = f"{bits}-bit varint" if signed else f"unsigned {bits}-bit varint"
    return EncodeError("invalid_value", f"{value!r} does not fit a {kind}", None, path)


# ---------------------------------------------------------------- terminators and padding
#
# Kaitai's `terminator`, `consume`, `include`, `eos-error` and `pad-right`, with its semantics: a
# multi-byte terminator (a `strz` in UTF-16 or UTF-32) is matched at whole code units only.


def _find_term(data, term: bytes, start: int = 0, end: int | None = None) -> int:
    """The offset of the first whole-unit occurrence of `term` in data[start:end], or -1."""
    end = len(data) if end is None else end
    unit = len(term)
    if unit == 1:
        return data.find(term, start, end)
    at = start
    while at + unit <= end:
        if data[at:at + unit] == term:
            return at
        at += unit
    return -1


def read_term(buf, pos: int, end: int, term: bytes, include: bool, consume: bool, eos_error: bool,
              path: str) -> tuple[bytes, int]:
    """Bytes from `pos` up to the terminator; returns them and the position after (the
    terminator consumed or not). Without a terminator before `end`: an error, or with
    `eos_error` false, the rest (whole units only, as Kaitai reads them)."""
    at = _find_term(buf, term, pos, end)
    if at < 0:
        if eos_error:
            err = short(buf, end, end, len(term), path)
            err.detail = f"no terminator {term.hex()} before the end ({err.detail})"
            err.offset = pos
            raise err
        stop = end - (end - pos) % len(term)
        return bytes(buf[pos:stop]), stop
    stop = at + len(term)
    return bytes(buf[pos:stop if include else at]), (stop if consume else at)


def cut(data: bytes, pad: int | None, term: bytes | None, include: bool) -> bytes:
    """A sized field's value: padding stripped from the right, then cut at the terminator."""
    if pad is not None:
        data = data.rstrip(BYTE[pad])
    if term is not None:
        at = _find_term(data, term)
        if at >= 0:
            data = data[:at + len(term) if include else at]
    return data


def fill(data: bytes, size: int | None, pad: int | None, term: bytes | None, include: bool, path: str,
         tail: bytes | None = None) -> bytes:
    """The bytes of a sized field holding `data`: its terminator (unless included) when there is
    room, then padding (the pad byte, else the terminator's, else zeros) up to `size`. Refuses a
    value that decoding would not give back. `tail`: what followed the value when it was read
    (a user's schema keeps it), written back when it still fits and still ends the value there."""
    if term is not None and not include and _find_term(data, term) >= 0:
        raise EncodeError("invalid_value", f"holds its terminator {term.hex()}, where decoding would stop", None, path)
    if pad is not None and data.endswith(BYTE[pad]) and term is None:
        raise EncodeError("invalid_value", f"ends with the pad byte {pad:#04x}, which decoding strips", None, path)
    if tail is not None and (size is None or len(data) + len(tail) == size):
        ends_there = (tail.startswith(term) if term is not None and not include
                      else include or (pad is not None and tail == BYTE[pad] * len(tail)))
        if ends_there:
            return data + tail
    if size is None:  # size-eos: the value, then its terminator
        return data + term if term is not None and not include else data
    if len(data) > size:
        raise EncodeError("invalid_length", f"{len(data)} bytes do not fit in {size}", None, path)
    if size - len(data) > MAX_PADDING:
        raise EncodeError("limit_exceeded", f"its size {size} would pad its {len(data)} bytes with "
                          f"{size - len(data)} more, above the {MAX_PADDING} an encoder pads", None, path)
    if term is not None and not include and len(data) < size:
        data += term[:size - len(data)]
    filler = pad if pad is not None else (term[0] if term is not None else 0)
    return data + BYTE[filler] * (size - len(data))


def terminated(data: bytes, term: bytes, include: bool, consume: bool, path: str) -> bytes:
    """What a field read up to a terminator writes: the value and, when the decoder consumes
    a terminator it does not include, the terminator (a field that leaves it for the next one
    writes only the value)."""
    at = _find_term(data, term)
    if include:
        if at >= 0 and at + len(term) != len(data):
            raise EncodeError("invalid_value", f"holds its terminator {term.hex()} before its end", None, path)
        return data
    if at >= 0:
        raise EncodeError("invalid_value", f"holds its terminator {term.hex()}, where decoding would stop", None, path)
    return data + term if consume else data


# ---------------------------------------------------------------- values


def enum_value(enum_cls, value: int):
    """The enum member for `value`, or the plain int when the enum has none (as Kaitai does)."""
    return enum_cls._value2member_map_.get(value, value)


def check_bits(value, bits: int, path: str) -> int:
    """`value` as the unsigned integer of a bit field of `bits` bits: an int, a bool, an enum
    member or any integer type (`__index__`); a float or a string is refused, as the encoders
    of whole-byte integers refuse them, rather than cut to an int that decodes otherwise."""
    try:
        value = operator.index(value)
    except TypeError:
        raise EncodeError("invalid_value", f"{type(value).__name__} is not an integer", None, path) from None
    if not 0 <= value < (1 << bits):
        raise EncodeError("invalid_value", f"{value} does not fit in {bits} bits", None, path)
    return value


def bytes_value(value, path: str) -> bytes:
    """What a bytes field's value that is not `bytes` holds (the encoders' check): a bytes-like
    object's bytes (a bytearray, a memoryview, an array), copied, so that its length counts
    bytes, not items; anything else (a str, a list of ints) is refused, naming the field."""
    try:
        return bytes(memoryview(value))
    except TypeError:
        raise EncodeError("invalid_value", f"{type(value).__name__} is not bytes", None, path) from None


def missing(path: str) -> EncodeError:
    """A field the encoder cannot derive is None."""
    return EncodeError("invalid_value", "is required (None given)", None, path)


def size_disagrees(path: str, declared, actual: int, length: str = "", sized: str = "") -> EncodeError:
    """A sized field encodes to another size than its `size` expression gives. When that
    expression reads a length field with `-lc-size-of` (next to what it measures) or
    `-lc-derived` (elsewhere in the value), that field is computed when left None; `length`
    names a length field the schema does not derive, which the value must carry, of the field
    `sized`."""
    hint = ""
    if length:
        hint = (f" (`{length}`): set `{length}` to {actual}, or declare `-lc-size-of: {sized}` on `{length}` in the "
                "schema, and the encoder computes it when left None")
    return EncodeError("invalid_length", f"encodes to {actual} bytes, but its declared size is {declared}{hint}",
                       None, path)


#: How a caller clears a decoded value's derived fields, said by the errors of a derived field that
#: disagrees with the value (the command line says its own way instead: `encode --derive`).
STRIP_DERIVED_HINT = "logcodec.strip_derived clears every derived field of a decoded value"


def contents_differ(given, contents: bytes, path: str) -> EncodeError:
    """A `contents` field given other bytes than the schema fixes (left None, it is written)."""
    return EncodeError("invalid_value", f"is {given!r} but the schema fixes it to {contents!r}; leave it None to "
                       "write that", None, path)


def mismatch(path: str, given, actual) -> EncodeError:
    return EncodeError("invalid_length", f"is {given} but the value needs {actual}; leave it None to compute it "
                       f"({STRIP_DERIVED_HINT})", None, path)


def stale_checksum(path: str, given: int, actual: int) -> EncodeError:
    """A carried checksum that the bytes do not give: after a change of the value, or where the
    bytes are another encoder's (a compressor's output differs between libraries)."""
    return EncodeError("checksum_mismatch", f"is {given:#010x} but the bytes give {actual:#010x}; leave it None to "
                       f"compute it ({STRIP_DERIVED_HINT})", None, path)


def copy_value(value):
    """A deep copy of part of a value, for an encoder that fills in derived lengths kept away
    from what they measure without changing the caller's value."""
    return copy.deepcopy(value)


def field_of(value, name: str, at: int):
    """Field `name` of a list's element an encoder was given: a value object, or its tuple form
    (the fields but the derived ones, in order), where the field is item `at`."""
    return value[at] if isinstance(value, tuple) else getattr(value, name)


#: A keyed view's keyword of `__init__` (`-lc-keyed`) not given: the entries are left as given.
NOT_GIVEN = object()


def put_keyed(entries, entry, key: int, name: str, at: int | None):
    """A keyed list (`-lc-keyed`) with `entry` as its one entry of `key` (field `name` of each
    entry, item `at` of a tuple form, `field_of`; None where the entries have no tuple form, so
    none is a tuple): the others kept in their order, `entry` put before the first
    of a greater key (the order Kafka writes tagged fields in); with `entry` None, none of `key`.
    A new list: the view's setter sets it in place of the old (None stays None without an entry)."""
    kept = [e for e in entries or () if field_of(e, name, at) != key]
    if entry is None:
        return kept if entries is not None else None
    place = next((i for i, e in enumerate(kept) if field_of(e, name, at) > key), len(kept))
    kept.insert(place, entry)
    return kept


def at_default(value, default) -> bool:
    """Whether a keyed view's value (`-lc-keyed`) is its default, a value object of a user type:
    derived fields aside, since a decoded one holds its counts and the default leaves them None."""
    return equal_but_derived(value, default)


def wrong_case(value, expected: str, selector: str, path: str) -> EncodeError:
    """A switch's value holds another class than the case its selector chose."""
    held = type(value).__name__
    return EncodeError("invalid_value", f"holds a {held}, but the switch on `{selector}` selects the case of "
                       f"{expected} here: give a {expected}, or set `{selector}` to the case of a {held}", None, path)


def wrap_encode(exc: Exception, path: str) -> EncodeError:
    """Turn a Python error raised on a malformed value into an EncodeError."""
    return EncodeError("invalid_value", f"{type(exc).__name__}: {exc}", None, path)


# ---------------------------------------------------------------- checksums

CHECKSUMS = {
    "crc32c": lambda data: _crc32c(data),
    "crc32": lambda data: zlib.crc32(data),
}
crc32c = _crc32c
crc32 = zlib.crc32
#: A range of more parts than this is joined before its checksum is computed.
JOIN_BEFORE_CHECKSUM = 16


def checksum_of_parts(algorithm, parts: list, first: int) -> int:
    """The checksum (`crc32c`, `crc32`) of the bytes of parts[first:], as if joined. A few parts
    (a batch's header fields and its compressed records) are summed one by one, without a copy
    of what they hold; many small ones are joined first, as a call for each costs more than
    the copy, and stay joined, so that the final join copies them only once more."""
    if len(parts) - first > JOIN_BEFORE_CHECKSUM:
        joined = b"".join(parts[first:])
        parts[first:] = [joined]
        return algorithm(joined)
    value = 0
    for i in range(first, len(parts)):
        value = algorithm(parts[i], value)
    return value


def invalid_encode(detail: str, pos, path: str) -> EncodeError:
    return EncodeError("invalid_value", detail, None, path)


def range_error(exc: Exception, values: tuple, layout: tuple) -> EncodeError:
    """A run of fixed fields could not be packed: name the first value that does not fit.

    `layout` is ((field path, struct format), ...), one entry per value.
    """
    for value, (path, fmt) in zip(values, layout):
        try:
            struct.pack(fmt, value)
        except (struct.error, TypeError) as inner:
            return EncodeError("invalid_value", f"{value!r} does not fit: {inner}", None, path)
    return EncodeError("invalid_value", str(exc), None, layout[0][0] if layout else "")


# ---------------------------------------------------------------- Kaitai's objects, for user schemas
# A user's schema may read `_io`, `_parent` and `_root` as objects (Kaitai's parsers keep them on
# every value); the codecs of this repository's schemas pass plain values instead.


class KStream:
    """Kaitai's `_io`: the stream a value is read from, `buf[start:end]`, and where reading was
    (`pos`, from the stream's start) when it was taken. A compiled build makes its module's
    native copy of this class instead (`_KStream`, templates/helpers.py.j2): what changes here
    changes there."""

    __slots__ = ("buf", "start", "end", "at")

    def __init__(self, buf: bytes, start: int, end: int, at: int) -> None:
        self.buf, self.start, self.end, self.at = buf, start, end, at

    @property
    def pos(self) -> int:
        return self.at - self.start

    @property
    def size(self) -> int:
        return self.end - self.start

    @property
    def eof(self) -> bool:
        return self.at >= self.end

    def __repr__(self) -> str:
        return f"KStream(size={self.size}, pos={self.pos})"


class Node:
    """A value being encoded, as the expressions of its children see it through `_parent` and
    `_root`: the value (`_value`), with the parent and the root it was read under."""

    def __getattr__(self, name: str):
        if name.startswith("__"):  # Python's own look-ups (copy, pickle): not a field
            raise AttributeError(name)
        return getattr(self.__dict__["_value"], name)


def dyn(obj, name: str):
    """A method of an expression whose type is known only at run time (`_parent` of a type
    held by several types): Kaitai's meaning for text, bytes and lists, else the attribute."""
    if isinstance(obj, (bytes, str, list)):
        if name in ("size", "length"):
            return len(obj)
        if name == "first":
            return obj[0]
        if name == "last":
            return obj[-1]
        if name in ("min", "max"):
            return min(obj) if name == "min" else max(obj)
        if name == "reverse" and isinstance(obj, str):
            return obj[::-1]
        if name == "to_i" and isinstance(obj, str):
            return int(obj)
    if name == "to_s" and isinstance(obj, int):
        return str(obj)
    return getattr(obj, name)


def stream_only(what: str, path: str):
    """An encoder met an expression that reads the stream being decoded (`_io`): it cannot know
    it, so the value that depends on it must be given."""
    raise EncodeError("invalid_value", f"{what} depends on the stream it is read from, which an encoder does not "
                      "have", None, path)


def read_back(given, decode, data: bytes, path: str) -> None:
    """An encoder whose schema decides a field by the stream (its presence by `_io.eof`, its size
    by `_io.size`, its case by `_io.pos`) wrote the value as given, deciding by the value; the
    bytes then make a stream that must decide as the value did. `decode(data)` (the module's
    `decode_prefix`) is checked to give the value back; where it does not, EncodeError names the
    first field that differs."""
    try:
        decoded = decode(data)
    except DecodeError as exc:
        raise EncodeError("invalid_value", f"the bytes written decode to no value ({exc}): the stream they make "
                          "decides otherwise than the value", None, path) from None
    where = _first_difference(given, decoded, path)
    if where is not None:
        raise EncodeError("invalid_value", "is written as given, but the stream the bytes make decides it otherwise "
                          "(a decoder reads it by `_io`)", None, where)


def _first_difference(given, decoded, path: str) -> str | None:
    """The path of the first field of `given` that `decoded` does not hold (None: all agree). A
    field given None agrees with anything (left to the encoder: a derived field, a `contents`)."""
    if given is None or given is decoded:
        return None
    if hasattr(given, "__dataclass_fields__"):
        if type(given) is not type(decoded):
            return path
        for name, spec in given.__dataclass_fields__.items():
            if spec.compare:
                found = _first_difference(getattr(given, name), getattr(decoded, name), f"{path}.{name}")
                if found is not None:
                    return found
        return None
    if isinstance(given, (list, tuple)):
        if not isinstance(decoded, (list, tuple)) or len(given) != len(decoded):
            return path
        for i, (a, b) in enumerate(zip(given, decoded)):
            found = _first_difference(a, b, f"{path}[{i}]")
            if found is not None:
                return found
        return None
    if isinstance(given, float) and isinstance(decoded, float) and given != given and decoded != decoded:
        return None  # NaN
    return None if given == decoded else path


# ---------------------------------------------------------------- bits one by one
# A type whose bit fields are repeated or conditional reads them as Kaitai's streams do: whole
# bytes go into a buffer of bits (`bb`, holding `bl` bits) that the next bit field takes from.


def read_bits_be(buf, pos: int, end: int, n: int, bb: int, bl: int, path: str) -> tuple[int, int, int, int]:
    """`n` bits, most significant first; returns (value, pos, bb, bl)."""
    if n > bl:
        need = (n - bl + 7) // 8
        if pos + need > end:
            raise short(buf, pos, end, need, path)
        bb = (bb << (8 * need)) | int.from_bytes(buf[pos:pos + need], "big")
        pos += need
        bl += 8 * need
    bl -= n
    value = bb >> bl
    return value, pos, bb & ((1 << bl) - 1), bl


def read_bits_le(buf, pos: int, end: int, n: int, bb: int, bl: int, path: str) -> tuple[int, int, int, int]:
    """`n` bits, least significant first; returns (value, pos, bb, bl)."""
    if n > bl:
        need = (n - bl + 7) // 8
        if pos + need > end:
            raise short(buf, pos, end, need, path)
        bb |= int.from_bytes(buf[pos:pos + need], "little") << bl
        pos += need
        bl += 8 * need
    value = bb & ((1 << n) - 1)
    return value, pos, bb >> n, bl - n


def write_bits_be(value: int, n: int, bb: int, bl: int) -> tuple[bytes, int, int]:
    """`n` bits of `value` (which fits), most significant first, after the `bl` bits pending in
    `bb`: returns (the whole bytes completed, bb, bl), as Kaitai's `write_bits_int_be`."""
    bb, bl = (bb << n) | value, bl + n
    left = bl % 8
    if bl == left:
        return b"", bb, bl
    return (bb >> left).to_bytes((bl - left) // 8, "big"), bb & ((1 << left) - 1), left


def write_bits_le(value: int, n: int, bb: int, bl: int) -> tuple[bytes, int, int]:
    """`n` bits of `value` (which fits), least significant first, after the `bl` bits pending in
    `bb`: returns (the whole bytes completed, bb, bl), as Kaitai's `write_bits_int_le`."""
    bb, bl = bb | (value << bl), bl + n
    whole = bl // 8
    if not whole:
        return b"", bb, bl
    return (bb & ((1 << (8 * whole)) - 1)).to_bytes(whole, "little"), bb >> (8 * whole), bl - 8 * whole


def bits_tail(bb: int, bl: int, order: str) -> bytes:
    """The byte of the `bl` (1 to 7) bits pending after bits written one by one, completed with
    zero bits (the ones a reader skips): at its top in big-endian bit order, else at its bottom."""
    return bytes([bb << (8 - bl) if order == "be" else bb])


def no_encoder(what: str, path: str):
    """An encoder the generator cannot write for a construct (it never writes bytes that would
    not decode back to the value)."""
    raise EncodeError("invalid_value", f"cannot be encoded: {what}", None, path)


def computed(obj, name: str):
    """An attribute of a value as it is set, or None where it is not (an instance not computed
    yet, which is not computed here), whether its class keeps a `__dict__` or is a compiled
    build's native class."""
    try:
        return object.__getattribute__(obj, name)
    except AttributeError:
        return None


#: What a value's `_lazy` gives for a name that is none of its instances left to compute.
NOT_LAZY = object()


def nothing_lazy(obj, name: str):
    """The `_lazy` of a value being decoded that has no instance a child may compute before the
    value is read (each name not set is then not read yet: `lazy`)."""
    return NOT_LAZY


def lazy(obj, name: str):
    """A name a value of a user's schema has not set: an instance not computed yet is computed
    now by the value's `_lazy`, once (Kaitai's instances are lazy: one that fails, or recurses,
    costs only who reads it, and reading it again raises again); anything else is `not_lazy`'s.
    (A compiled build's classes that have instances run this first part themselves.)"""
    try:  # (as `computed` does, without its call: an instance read while decoding comes here)
        compute = object.__getattribute__(obj, "_lazy")
    except AttributeError:
        compute = None
    if compute is not None:
        try:
            value = compute(obj, name)  # which sets it on the value
        except RecursionError:  # an instance that reads itself, or a type that holds itself
            raise nests_too_deep(obj, name) from None
        if value is not NOT_LAZY:
            return value
    return not_lazy(obj, name, compute is not None)


def nests_too_deep(obj, name: str) -> DecodeError:
    """The error of an instance whose computing recursed past Python's limit."""
    io = computed(obj, "_io")  # where the value starts, when it keeps its stream
    return DecodeError("limit_exceeded", f"instance {name!r} nests too deep", io.at if io is not None else 0, name)


def not_lazy(obj, name: str, computes: bool):
    """A name a value has not set, which its `_lazy` (where it `computes`) does not compute: a
    field, or an instance of a value being decoded, is not read yet (a child read it through
    `_parent` or `_root` too early). An instance of a value built by hand, which has no stream
    to read it from, and a link or param not set, are None."""
    declared = getattr(type(obj), "__dataclass_fields__", {}).get(name)
    if declared is None:
        raise AttributeError(f"{type(obj).__name__!r} object has no attribute {name!r}")
    meta = declared.metadata
    if meta.get("param") or (meta.get("instance") and not computes):
        return None
    io = computed(obj, "_io")  # the offset: where the value being read starts
    raise DecodeError("invalid_value", f"an expression reads {name!r}, which is not read yet",
                      io.at if io is not None else 0, "")


def text(data: bytes, encoding: str) -> str:
    """Kaitai's `bytes.to_s(encoding)` with an encoding known only when it runs: bytes that are
    not that encoding, or an encoding Python does not know, are a DecodeError."""
    try:
        return str(data, encoding)
    except LookupError:
        raise DecodeError("invalid_value", f"unknown encoding {encoding!r}", None, "") from None
    except UnicodeDecodeError as exc:
        raise DecodeError("invalid_value", f"not {encoding}: {exc.reason}", None, "") from None


def with_tail(data: bytes, size: int | None, tail: bytes | None, pad: bool = True) -> bytes:
    """A sized structure of a user's schema that did not read all of its bytes: the bytes it
    left, as they were read, when they still fit; else zeros up to the size (never read), but
    not with `pad` false (its decoder reads to its end: zeros there would be another value; the
    size check that follows refuses it), nor more than MAX_PADDING of them (the size check
    that follows refuses that too, naming the field, before anything that large is built)."""
    if tail is not None and (size is None or len(data) + len(tail) == size):
        return data + tail
    if pad and size is not None and len(data) < size <= len(data) + MAX_PADDING:
        return data + bytes(size - len(data))
    return data


def written_again(wire: Any, content: bytes, processor: Any, *args: Any) -> bytes | None:
    """The bytes a decoded value kept of a processed field as read (`_wire_<field>`), where the
    processor, given this encode's arguments, reads them to exactly `content` (the field's content
    as the encoder writes it now): then they are written back, byte for byte, and the output of
    another encoder (another library's compression) survives a decode and an encode. None where
    there are none, or they no longer give that content (a value changed, another codec): the
    encoder then processes `content` itself. The reading is bounded by `content`'s size, so kept
    bytes that would decompress to more are refused before they are."""
    if wire is None:
        return None
    size = len(content)
    bound = Limits(max_decompressed_size=max(size, 1), max_decompressed_total=max(size, 1))
    try:
        out, start, end = processor.decode(wire, 0, len(wire), budget(bound), *args)
    except (DecodeError, TypeError, ValueError):
        return None
    return wire if end - start == size and out[start:end] == content else None
