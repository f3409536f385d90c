"""Kaitai's built-in processors (`xor`, `rol`, `ror`, `zlib`) and the adapter of a user's own.

Kaitai's built-in ones, as its runtime defines them: `xor(key)` (a byte, or bytes repeated),
`rol(n)` and `ror(n)` (each byte rotated by n bits), and `zlib` (a zlib stream, decompressed
within the call's budget). A format's codec tables (`CodecTable`, `ByVersion`) are processors too,
defined in its package and found through `logcodec.processors`. Each has
`decode(buf, start, end, budget, *args) -> (buffer, start, end)` and `encode(data, *args)`.
"""

from __future__ import annotations

import importlib
import zlib as _zlib
from typing import Any

from logcodec.runtime.compression import Bytes, ByVersion, CodecTable, too_big
from logcodec.runtime.errors import DecodeError, EncodeError
from logcodec.runtime.limits import (
    Budget,
    decompression_room,
    explain_decompression_limit,
    spend_decompressed,
)


def _key_bytes(key, error) -> bytes:
    if isinstance(key, int):
        if not 0 <= key <= 255:
            raise error("invalid_value", f"xor key {key} is not a byte")
        return bytes((key,))
    key = bytes(key)
    if not key:
        raise error("invalid_value", "xor key is empty")
    return key


class _Xor:
    """`xor(key)`: each byte xor the key's byte at the same place, the key repeated."""

    @staticmethod
    def apply(data: Bytes, key: bytes) -> bytes:
        if len(key) == 1:
            table = bytes(b ^ key[0] for b in range(256))
            return bytes(data).translate(table)
        repeated = (key * (len(data) // len(key) + 1))[:len(data)]
        return (int.from_bytes(data, "big") ^ int.from_bytes(repeated, "big")).to_bytes(len(data), "big")

    def decode(self, buf: Bytes, start: int, end: int, lim: Budget, key) -> tuple[Any, int, int]:
        out = self.apply(memoryview(buf)[start:end], _key_bytes(key, DecodeError))
        return out, 0, len(out)

    def encode(self, data: Bytes, key) -> bytes:
        return self.apply(data, _key_bytes(key, EncodeError))


class _Rotate:
    """`rol(n)` / `ror(n)`: each byte rotated left (right) by n bits."""

    def __init__(self, left: bool) -> None:
        self.left = left

    @staticmethod
    def apply(data: Bytes, left_by: int) -> bytes:
        n = left_by % 8
        table = bytes(((b << n) | (b >> (8 - n))) & 0xFF for b in range(256))
        return bytes(data).translate(table)

    def decode(self, buf: Bytes, start: int, end: int, lim: Budget, amount: int) -> tuple[Any, int, int]:
        out = self.apply(memoryview(buf)[start:end], amount if self.left else -amount)
        return out, 0, len(out)

    def encode(self, data: Bytes, amount: int) -> bytes:
        return self.apply(data, -amount if self.left else amount)  # the opposite rotation


class _Zlib:
    """`zlib`: a zlib stream (RFC 1950), decompressed within the budget; written at level 6, so
    another writer's bytes come back as the same value, maybe not the same bytes."""

    def decode(self, buf: Bytes, start: int, end: int, lim: Budget) -> tuple[Any, int, int]:
        room = decompression_room(lim)
        d = _zlib.decompressobj()
        try:
            out = d.decompress(memoryview(buf)[start:end], room + 1)
        except _zlib.error as exc:
            raise DecodeError("corrupt_compressed", f"zlib: {exc}", start) from None
        if len(out) > room:
            err = too_big("zlib", room)
            err.offset = start
            explain_decompression_limit(lim, err)
            raise err
        if not d.eof:
            raise DecodeError("corrupt_compressed", "zlib: truncated stream", start)
        spend_decompressed(lim, len(out))
        return out, 0, len(out)

    def encode(self, data: Bytes) -> bytes:
        return _zlib.compress(bytes(data), 6)


class UserProcessor:
    """A processor of the user's own, as Kaitai's Python target names it: `process: a.b.my_fx(x)`
    is `a.b.MyFx(x).decode(data) -> bytes` (module `my_fx` for a bare name), with `encode` for
    writing. Its output counts against the decompression budget; anything it raises on decode
    is the input's fault (a DecodeError), and it must be importable when the codec is."""

    def __init__(self, name: str) -> None:
        *package, last = name.split(".")
        module = importlib.import_module(".".join(package) if package else last)
        self.name = name
        self.cls = getattr(module, "".join(part.capitalize() for part in last.split("_")))

    def decode(self, buf: Bytes, start: int, end: int, lim: Budget, *args) -> tuple[Any, int, int]:
        try:
            out = bytes(self.cls(*args).decode(bytes(buf[start:end])))
        except DecodeError:
            raise
        except Exception as exc:  # the user's code refused these bytes
            raise DecodeError("invalid_value", f"processor {self.name}: {type(exc).__name__}: {exc}", start) from None
        if len(out) > decompression_room(lim):
            err = too_big(self.name, decompression_room(lim))
            err.offset = start
            explain_decompression_limit(lim, err)
            raise err
        spend_decompressed(lim, len(out))
        return out, 0, len(out)

    def encode(self, data: Bytes, *args) -> bytes:
        processor = self.cls(*args)
        if not hasattr(processor, "encode"):
            raise EncodeError("invalid_value", f"processor {self.name} has no encode(data)")
        return bytes(processor.encode(bytes(data)))


xor = _Xor()
rol = _Rotate(left=True)
ror = _Rotate(left=False)
zlib = _Zlib()


#: Kaitai's built-in processors, the names a schema's `process:` may always use.
BUILTIN = ("xor", "rol", "ror", "zlib")


def is_processor(value: Any) -> bool:
    """Whether a module's attribute is a processor object a generated codec can call."""
    return isinstance(value, (_Xor, _Rotate, _Zlib, CodecTable, ByVersion))


__all__ = ["BUILTIN", "UserProcessor", "is_processor", "xor", "rol", "ror", "zlib"]
