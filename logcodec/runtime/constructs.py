"""What the construct definitions of `logcodec generate` (generated/construct/) and of
`logcodec compile --target construct` use beyond construct 2.10 itself.

Everything here is a small piece of construct's own kind (a `Construct` subclass, or a
function of the context that a `Rebuild`, `Checksum` or `Computed` calls) and names no
format. It needs the `construct` package (the `construct` extra); nothing else in
`logcodec.runtime` imports this module.
"""

from __future__ import annotations

import io
import zlib

import crc32c as _crc32c
from construct import (
    Construct,
    Container,
    EnumIntegerString,
    FixedSized,
    IfThenElse,
    NullTerminated,
    PaddingError,
    Renamed,
    Subconstruct,
    evaluate,
    stream_read_entire,
    stream_write,
)

from logcodec.runtime.limits import DEFAULT_LIMITS, budget


class Processed(Subconstruct):
    """Kaitai's `process:` through a processor of `logcodec.runtime.processors`: parsing reads
    the rest of the stream (wrap it in `FixedSized` for a sized field), undoes the processing
    within `DEFAULT_LIMITS` and parses the subcon from the result; building builds the subcon
    and processes its bytes. `args` is a function of the context giving the processor's
    arguments (`lambda this: [this.codec]`)."""

    def __init__(self, subcon, processor, args=None) -> None:
        super().__init__(subcon)
        self.processor, self.args = processor, args

    def _arguments(self, context) -> list:
        return list(self.args(context)) if self.args is not None else []

    def _parse(self, stream, context, path):
        data = stream_read_entire(stream, path)
        out, start, end = self.processor.decode(data, 0, len(data), budget(DEFAULT_LIMITS), *self._arguments(context))
        return self.subcon._parsereport(io.BytesIO(bytes(memoryview(out)[start:end])), context, path)

    def _build(self, obj, stream, context, path):
        inner = io.BytesIO()
        built = self.subcon._build(obj, inner, context, path)
        data = self.processor.encode(inner.getvalue(), *self._arguments(context))
        stream_write(stream, data, len(data), path)
        return built


class Remembered(Subconstruct):
    """An element of a repeated field whose elements read the ones before them (Kaitai's
    `_parent.items[_index - 1]`): construct's `Array`, `GreedyRange` and `RepeatUntil` keep
    the elements read so far to themselves, so this wrapper keeps them in the holder's context
    under the field's name while parsing. Building needs nothing: the whole list is there."""

    def __init__(self, name: str, subcon) -> None:
        super().__init__(subcon)
        self.field = name

    def _parse(self, stream, context, path):
        if not context.get("_index"):
            context[self.field] = []
        obj = self.subcon._parsereport(stream, context, path)
        context[self.field].append(obj)
        return obj

    def _build(self, obj, stream, context, path):
        return self.subcon._build(obj, stream, context, path)


class Terminated(NullTerminated):
    """construct's `NullTerminated`, built as Kaitai reads it: a value read with its terminator
    (`include`) already ends with it, and a terminator left unread (`consume: false`) is the
    next field's first byte, so neither is written again."""

    def _build(self, obj, stream, context, path):
        built = self.subcon._build(obj, stream, context, path)
        if self.consume and not self.include:
            stream_write(stream, self.term, len(self.term), path)
        return built


class PaddedTo(FixedSized):
    """construct's `FixedSized`, filled up with Kaitai's `pad-right` byte instead of zeros."""

    def __init__(self, length, subcon, pad: bytes) -> None:
        super().__init__(length, subcon)
        self.pad = pad

    def _build(self, obj, stream, context, path):
        length = evaluate(self.length, context)
        inner = io.BytesIO()
        built = self.subcon._build(obj, inner, context, path)
        data = inner.getvalue()
        if not 0 <= len(data) <= length:
            raise PaddingError(f"subcon built {len(data)} bytes where {length} are allowed", path=path)
        stream_write(stream, data + self.pad * (length - len(data)), length, path)
        return built


def _unsized(subcon, present: bool):
    """The construct a field's bytes are built with, without the `FixedSized` of its size (a
    size that reads the length being measured); with `present`, also without its `If`."""
    while isinstance(subcon, Renamed):
        subcon = subcon.subcon
    if present and isinstance(subcon, IfThenElse):
        subcon = subcon.thensubcon
    return subcon.subcon if isinstance(subcon, FixedSized) else subcon


def built_size(this, first: str, last: str | None = None) -> int:
    """How many bytes the fields `first` to `last` (to the end of the structure when None)
    take when built from the value being built: the length a `Rebuild` writes before them."""
    names = list(this._subcons)
    stop = len(names) if last is None else names.index(last) + 1
    scratch, context = io.BytesIO(), Container(this)  # a copy: what is built here is thrown away
    for name in names[names.index(first):stop]:
        if not name.startswith(("_at_", "_patch_")):  # positions and patched checksums are no bytes here
            sub = _unsized(this._subcons[name], present=first == last)
            context[name] = sub._build(context.get(name), scratch, context, "(measuring)")
    return len(scratch.getvalue())


class _Stream(Construct):
    """The stream a structure is read from or written to, as a value of its context (`"_stream" /
    Stream`), where `span` reads. Not `this._io`: a parsed Container given back to `build` carries
    the `_io` it was parsed from, which construct lets stand for the stream being written."""

    def __init__(self) -> None:
        super().__init__()
        self.flagbuildnone = True  # nothing to give when building

    def _parse(self, stream, context, path):
        return stream

    def _build(self, obj, stream, context, path):
        return stream

    def _sizeof(self, context, path):
        return 0


Stream = _Stream()


def span(this, start: int, end: int) -> bytes:
    """The bytes of the structure's stream (`Stream`) between two positions (`Tell`s): what a
    `Checksum` patched in by a `Pointer` covers, when parsing and when building."""
    stream = this["_stream"]
    here = stream.tell()
    stream.seek(start)
    data = stream.read(end - start)
    stream.seek(here)
    return data


def io_size(this) -> int:
    """Kaitai's `_io.size`: the size of the stream the structure is read from."""
    stream = this._io
    here = stream.tell()
    size = stream.seek(0, io.SEEK_END)
    stream.seek(here)
    return size


def io_eof(this) -> bool:
    """Kaitai's `_io.eof`: whether the structure's stream is at its end."""
    return this._io.tell() >= io_size(this)


def crc32c(data: bytes) -> int:
    """CRC-32C (Castagnoli), for `Checksum`."""
    return _crc32c.crc32c(data)


def crc32(data: bytes) -> int:
    """CRC-32 (IEEE), for `Checksum`."""
    return zlib.crc32(data)


def absent_length(this, name: str, absent: int) -> int:
    """The length written for an absent (null) field: the one the value carries when it is
    negative (any negative length means null and is written back as it was), else `absent`."""
    given = this.get(name)
    return given if isinstance(given, int) and given < 0 else absent


def label(member) -> EnumIntegerString:
    """An enum member as construct parses it: its label, which is also its integer."""
    return EnumIntegerString.new(member.value, member.name)


def is_member(value) -> bool:
    """Kaitai's `valid: {in-enum: true}`: construct's `Enum` parsed a member's label."""
    return isinstance(value, EnumIntegerString)


def to_int(value, enum) -> int:
    """An enum field's integer (Kaitai's `.to_i`), whether it is a parsed label, a label
    given to build, or a bare integer."""
    if isinstance(value, str):
        return int(enum[value])
    return int(value)


__all__ = ["Processed", "Remembered", "Stream", "absent_length", "built_size", "crc32", "crc32c", "io_eof", "io_size", "label", "span", "to_int"]
