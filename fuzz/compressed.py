"""Reach the bytes inside compressed payloads through the project's own encoder.

A generated encoder compresses a payload by calling its family's codec table
(``CodecTable.encode`` / ``ByVersion.encode`` in logcodec/runtime/compression.py, the tables that
the schemas' ``process:`` keys name) with the plain bytes, and then derives every length and
checksum around what the table returned. Intercepting that call gives, without knowing any wire
layout:

* the plain bytes of every compressed payload of a value (``capture``),
* decompress-mutate-recompress: the encoder wraps a mutated plain payload, recompressed, in correct
  lengths and CRCs (``recompress_mutant``),
* amplification inputs: a payload replaced by a much larger one (fuzz/bombs.py).

Alternative framings the decoders accept (raw snappy where xerial is written, zstd without a content
size, LZ4 frames with other flags) are produced by the same libraries the runtime uses.
"""

from __future__ import annotations

import random
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Callable

import lz4.frame
import zstandard

import logcodec
from logcodec.runtime import compression as C

from fuzz.engines import Context, Seed, mutate_plain


@dataclass(frozen=True)
class Call:
    """One compression the encoder asked for."""

    index: int
    table: str
    codec: int
    compress: Callable  # the table's compressor
    plain: bytes


def codec_name(compress: Callable | None) -> str:
    target = getattr(compress, "func", compress)
    return {C.gzip_compress: "gzip", C.snappy_compress: "snappy-xerial", C.snappy_compress_raw: "snappy-raw",
            C.lz4_compress: "lz4-frame", C.zstd_compress: "zstd"}.get(target, "none" if compress is None else "?")


# A hook gets the Call and returns the compressed bytes to use, or None for the table's own output.
Hook = Callable[[Call], "bytes | None"]


@contextmanager
def intercept(hook: Hook):
    """Route every compression (``CodecTable.encode`` with a real codec) made inside the block
    through `hook` (a ByVersion table delegates to a CodecTable, which is where it is seen)."""
    original = C.CodecTable.encode
    counter = [0]

    def encode(self, data, codec):
        entry = self.codecs.get(codec)
        if entry is None:  # unknown, or stored as it is: nothing compressed to reach
            return original(self, data, codec)
        call = Call(counter[0], self.name, codec, entry[1], bytes(data))
        counter[0] += 1
        out = hook(call)
        return original(self, data, codec) if out is None else out

    C.CodecTable.encode = encode
    try:
        yield
    finally:
        C.CodecTable.encode = original


def capture(format_name: str, value, params: dict | None = None) -> tuple[bytes, list[Call]]:
    """Encode `value` (with the root's `params`) and return the bytes and every compression the
    encoder made."""
    calls: list[Call] = []

    def record(call: Call):
        calls.append(call)
        return None

    with intercept(record):
        data = logcodec.encode(format_name, value, **(params or {}))
    return data, calls


def alternative_framings(compress: Callable) -> list[Callable[[bytes], bytes]]:
    """Other encodings of the same codec that the decoders accept, made by the same libraries."""
    name = codec_name(compress)
    if name == "snappy-xerial":
        return [C.snappy_compress, C.snappy_compress_raw]
    if name == "zstd":
        return [C.zstd_compress, zstd_without_size, zstd_checksummed]
    if name == "lz4-frame" and getattr(compress, "func", None) is None:  # not the magic-0 quirk variant
        return [C.lz4_compress, lz4_linked_with_size]
    if name == "gzip":
        return [C.gzip_compress]
    return [compress]


def zstd_without_size(data: bytes) -> bytes:
    return zstandard.ZstdCompressor(level=3, write_content_size=False).compress(data)


def zstd_checksummed(data: bytes) -> bytes:
    return zstandard.ZstdCompressor(level=1, write_checksum=True).compress(data)


def lz4_linked_with_size(data: bytes) -> bytes:
    return lz4.frame.compress(data, block_linked=True, store_size=True, content_checksum=True, block_checksum=True)


class Recompressor:
    """Decompress-mutate-recompress for the seeds whose values hold compressed payloads."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.cache: dict[str, tuple[object, list[Call]] | None] = {}

    def _analyse(self, seed: Seed):
        if seed.id not in self.cache:
            self.cache[seed.id] = None
            try:
                decoded = logcodec.decode(seed.format, seed.data, lazy=False, **dict(seed.params))
                # made anew from its JSON: a decoded value keeps its compressed bytes as read
                # (`_wire_<field>`), which the encoder writes back without compressing
                value = logcodec.strip_derived(logcodec.value_from_json(seed.format, logcodec.to_json(decoded),
                                                                        **dict(seed.params)))
                _, calls = capture(seed.format, value, dict(seed.params))
            except Exception:  # noqa: BLE001 - a seed that does not decode has no payloads to reach
                return None
            self.cache[seed.id] = (value, calls) if calls else None
        return self.cache[seed.id]

    def __call__(self, rng: random.Random, seed: Seed, ctx: Context) -> bytes | None:
        if not seed.valid:
            return None
        found = self._analyse(seed)
        if found is None:
            return None
        value, calls = found
        target = rng.choice(calls)
        plain = mutate_plain(rng, target.plain, self.ctx)
        framing = rng.choice(alternative_framings(target.compress))

        def hook(call: Call):
            # Calls come in the same order on every encode of the same value.
            return framing(plain) if call.index == target.index else None

        try:
            with intercept(hook):
                return logcodec.encode(seed.format, value, **dict(seed.params))
        except logcodec.EncodeError:
            return None
