"""Compression codecs, and the codec tables (`CodecTable`, `ByVersion`) that a format package builds
from them for its schemas' `process:` (see `logcodec.processors`).

Each ``*_decompress(data, max_size)`` takes bytes or a memoryview (never copied
unless stated) and returns ``bytes``. Whatever the input, it either returns at most
``max_size`` bytes or raises :class:`DecodeError` with kind ``corrupt_compressed``
(the codec cannot decode it) or ``limit_exceeded`` (the output would be larger than
``max_size``; refused before more than about ``max_size`` bytes are produced).
Transient memory is at most about twice ``max_size`` (output chunks, then joined)
plus a constant per codec.

Each ``*_compress(data)`` is deterministic for a given library version: the same
input always gives the same bytes, so encoded vectors are reproducible.
"""

from __future__ import annotations

import struct
import threading
import zlib
from typing import Any, Callable, Union

import cramjam
import lz4.frame
import zstandard

from logcodec.runtime.errors import DecodeError, EncodeError
from logcodec.runtime.limits import (
    Budget,
    decompression_room,
    explain_decompression_limit,
    spend_decompressed,
)

Bytes = Union[bytes, bytearray, memoryview]

# Output is gathered in steps, so that a small input never makes a library allocate a buffer
# of max_size up front. lz4's decompress_chunk and zstd's stream reader allocate all the output
# they are asked for before decoding into it: they are asked 256 KiB at a time (for a 150 kB
# batch, 1 MiB held 1.2 MB at the peak, 256 KiB 0.41 MB and was as fast: lz4 27 us, where
# 64 KiB took 32 us, a join of three chunks more). zlib grows its output as it goes: gzip's
# steps, of input and output, are 1 MiB.
_OUT_STEP = 1 << 18
_STEP = 1 << 20


def _corrupt(codec: str, detail: object) -> DecodeError:
    return DecodeError("corrupt_compressed", f"{codec}: {detail}")


def too_big(codec: str, max_size: int) -> DecodeError:
    return DecodeError("limit_exceeded", f"{codec}: decompressed size exceeds {max_size} bytes")


# ---------------------------------------------------------------------------- gzip

# Our own 10-byte header: no flags, mtime 0, XFL 0, OS 255 ("unknown"). zlib's gzip
# wrapper would write the build platform's OS code, so bytes would differ by platform.
_GZIP_HEADER = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"
# Level 6 is zlib's default and what the Java client (GZIPOutputStream) and librdkafka
# write by default; kafka-python uses 9, which costs much CPU for a few bytes.
GZIP_LEVEL = 6


def gzip_compress(data: Bytes) -> bytes:
    """One gzip member, deterministic: mtime 0 and fixed level, header written by hand."""
    c = zlib.compressobj(GZIP_LEVEL, zlib.DEFLATED, -zlib.MAX_WBITS)  # raw deflate
    body = c.compress(data) + c.flush()
    return b"".join((_GZIP_HEADER, body, struct.pack("<II", zlib.crc32(data), len(memoryview(data)) & 0xFFFFFFFF)))


def gzip_decompress(data: Bytes, max_size: int) -> bytes:
    """Any gzip header (zlib parses mtime, name, comment, extra and header CRC) and any
    number of concatenated members; anything after a member must be another member
    (no zero padding: no Kafka producer writes it)."""
    view, pos, total, out = memoryview(data), 0, 0, []
    if not view:
        raise _corrupt("gzip", "empty input")
    while pos < len(view):
        d = zlib.decompressobj(16 + zlib.MAX_WBITS)  # gzip wrapper only; zlib checks CRC-32 and ISIZE
        step = 64
        while not d.eof:
            if d.unconsumed_tail:  # input held back when the last call filled its output step
                chunk = d.unconsumed_tail
            elif pos < len(view):
                # Input is fed in doubling steps: at a member's end zlib copies the rest of
                # the chunk into unused_data, so a bounded chunk keeps thousands of tiny
                # members linear instead of quadratic.
                chunk, pos, step = view[pos:pos + step], pos + step, min(step * 2, _STEP)
            else:
                raise _corrupt("gzip", "truncated member")
            try:
                # max_length caps the output of this call: one byte over the budget is
                # enough to know the limit is exceeded, and nothing more is inflated.
                o = d.decompress(chunk, min(max_size - total + 1, _STEP))
            except zlib.error as e:
                raise _corrupt("gzip", e) from None
            total += len(o)
            if total > max_size:
                raise too_big("gzip", max_size)
            out.append(o)
        pos = min(pos, len(view)) - len(d.unused_data)
    return b"".join(out)


# -------------------------------------------------------------------------- snappy

_snappy = cramjam.snappy  # python-snappy >= 0.7 is a thin wrapper over these same functions
# xerial (snappy-java) stream header: marker, "SNAPPY", NUL, int32 BE version 1, int32 BE compat 1.
_XERIAL_MAGIC = b"\x82SNAPPY\x00"
_XERIAL_HEADER = _XERIAL_MAGIC + struct.pack(">ii", 1, 1)
_XERIAL_BLOCK = 32 * 1024  # uncompressed bytes per block, as snappy-java and kafka-python write


def snappy_compress_raw(data: Bytes) -> bytes:
    """Raw snappy block format, no framing (what TANK and librdkafka write)."""
    return bytes(_snappy.compress_raw(data))


def snappy_compress(data: Bytes) -> bytes:
    """xerial framing with 32 KiB blocks, as the Java client and kafka-python write
    (byte-identical to kafka-python's ``snappy_encode``). Empty input gives the bare
    16-byte header."""
    view, parts = memoryview(data), [_XERIAL_HEADER]
    for i in range(0, len(view), _XERIAL_BLOCK):
        block = _snappy.compress_raw(view[i:i + _XERIAL_BLOCK])
        parts += (struct.pack(">i", len(block)), block)
    return b"".join(parts)


def snappy_decompress_raw(data: Bytes, max_size: int) -> bytes:
    """One raw snappy block. Its varint header declares the output length, which is
    checked before anything is allocated (the library allocates exactly that much)."""
    try:
        size = _snappy.decompress_raw_len(data)
        if size > max_size:
            raise too_big("snappy", max_size)
        return bytes(_snappy.decompress_raw(data))  # fails unless output length == size
    except cramjam.DecompressionError as e:
        raise _corrupt("snappy", e) from None


def snappy_decompress(data: Bytes, max_size: int) -> bytes:
    """Raw snappy or xerial framing, told apart by the xerial magic. That is unambiguous:
    after a raw stream's length varint the first tag must be a literal, and 'N' (0x4E)
    would be a copy with nothing yet to copy from."""
    view = memoryview(data)
    if view[:8] != _XERIAL_MAGIC:
        return snappy_decompress_raw(view, max_size)
    if len(view) < 16:
        raise _corrupt("snappy", "truncated xerial header")
    # Version and compat are not checked, as in kafka-python and librdkafka: redpanda
    # is known to write them little-endian.
    pos, total, out = 16, 0, []
    while pos < len(view):
        size = int.from_bytes(view[pos:pos + 4], "big")
        pos += 4
        if pos + size > len(view):
            raise _corrupt("snappy", "truncated xerial block")
        try:
            block = snappy_decompress_raw(view[pos:pos + size], max_size - total)  # remaining budget
        except DecodeError as e:
            if e.kind == "limit_exceeded":  # name the limit, not what was left of it
                raise too_big("snappy", max_size) from None
            raise
        pos += size
        total += len(block)
        out.append(block)
    return b"".join(out)


# ----------------------------------------------------------------------------- lz4

_LZ4_MAGIC = b"\x04\x22\x4d\x18"
_P1, _P2, _P3, _P4, _P5 = 2654435761, 2246822519, 3266489917, 668265263, 374761393


def _xxh32(data: Bytes, seed: int = 0) -> int:
    """XXH32, for the one-byte LZ4 frame header checksum (avoids an xxhash dependency)."""
    m = 0xFFFFFFFF
    rotl = lambda x, r: ((x << r) | (x >> (32 - r))) & m  # noqa: E731
    data = bytes(data)
    i, n = 0, len(data)
    if n >= 16:
        v = [(seed + _P1 + _P2) & m, (seed + _P2) & m, seed & m, (seed - _P1) & m]
        while i + 16 <= n:
            for j in range(4):
                v[j] = rotl((v[j] + int.from_bytes(data[i:i + 4], "little") * _P2) & m, 13) * _P1 & m
                i += 4
        h = rotl(v[0], 1) + rotl(v[1], 7) + rotl(v[2], 12) + rotl(v[3], 18)
    else:
        h = seed + _P5
    h = (h + n) & m
    while i + 4 <= n:
        h = rotl((h + int.from_bytes(data[i:i + 4], "little") * _P3) & m, 17) * _P4 & m
        i += 4
    for b in data[i:]:
        h = rotl((h + b * _P5) & m, 11) * _P1 & m
    h = (h ^ (h >> 15)) * _P2 & m
    h = (h ^ (h >> 13)) * _P3 & m
    return h ^ (h >> 16)


def _lz4_header_len(view: memoryview) -> int:
    """Magic, FLG, BD, optional 8-byte content size, optional 4-byte dictionary id, HC."""
    flg = view[4]
    return 7 + (8 if flg & 0x08 else 0) + (4 if flg & 0x01 else 0)


def _lz4_set_header_checksum(frame: bytearray, broken: bool) -> None:
    """HC is the second byte of XXH32 over the descriptor (FLG to before HC). KAFKA-3160:
    Kafka clients before 0.10 hashed from the magic instead; Java still writes that for
    magic-0 messages."""
    end = _lz4_header_len(memoryview(frame)) - 1
    frame[end] = (_xxh32(frame[0 if broken else 4:end]) >> 8) & 0xFF


def lz4_compress(data: Bytes, broken_header_checksum: bool = False) -> bytes:
    """An LZ4 frame as Java's KafkaLZ4BlockOutputStream writes it: 64 KiB independent
    blocks, no block checksums, no content size, no content checksum (FLG 0x60, BD 0x40),
    incompressible blocks stored raw. Compression level 0 (LZ4 fast), as librdkafka,
    kafka-python and Java for magic 0/1 use; Java 3.8+ uses LZ4 HC for magic 2, which
    every decoder reads the same."""
    frame = lz4.frame.compress(data, compression_level=0, block_size=lz4.frame.BLOCKSIZE_MAX64KB,
                               block_linked=False, block_checksum=False, content_checksum=False,
                               store_size=False)
    if not broken_header_checksum:
        return frame
    frame = bytearray(frame)
    _lz4_set_header_checksum(frame, broken=True)
    return bytes(frame)


def lz4_decompress(data: Bytes, max_size: int, broken_header_checksum: bool = False) -> bytes:
    """LZ4 frames with any flags (linked or independent blocks, block and content
    checksums, content size or not, 64 KiB to 4 MiB blocks), concatenated frames and
    skippable frames. With ``broken_header_checksum`` (Kafka magic 0, KAFKA-3160) the
    header checksum is recomputed before decoding and so not verified, exactly as the
    Java client (which ignores it), librdkafka and kafka-python do; this copies the input."""
    view = memoryview(data)
    if broken_header_checksum and view[:4] == _LZ4_MAGIC and len(view) >= 7 and len(view) >= _lz4_header_len(view):
        fixed = bytearray(view)
        _lz4_set_header_checksum(fixed, broken=False)
        view = memoryview(fixed)
    ctx = lz4.frame.create_decompression_context()
    pos, total, out, frame_start = 0, 0, [], True
    while True:
        # A declared content size over the budget is refused before decoding anything.
        if frame_start and view[pos:pos + 4] == _LZ4_MAGIC and len(view) >= pos + 14 and view[pos + 4] & 0x08:
            if total + int.from_bytes(view[pos + 6:pos + 14], "little") > max_size:
                raise too_big("lz4", max_size)
        step = min(max_size - total + 1, _OUT_STEP)
        try:
            chunk, read, eof = lz4.frame.decompress_chunk(ctx, view[pos:], max_length=step)
        except (RuntimeError, ValueError) as e:
            raise _corrupt("lz4", e) from None
        pos, total, frame_start = pos + read, total + len(chunk), eof
        if total > max_size:
            raise too_big("lz4", max_size)
        out.append(chunk)
        if eof and pos == len(view):
            return b"".join(out)
        # Without eof, decoding stops only when the output step is full (go on, even with
        # no input left: the context holds decoded bytes) or when the input ran out.
        if not eof and (len(chunk) < step and pos == len(view) or not read and not chunk):
            raise _corrupt("lz4", "truncated frame")


# ---------------------------------------------------------------------------- zstd

# Level 3 is zstd's default and what kafka-python, librdkafka and Java write by default.
ZSTD_LEVEL = 3
_ZSTD_MAGIC, _ZSTD_SKIPPABLE = 0xFD2FB528, 0x184D2A50
# One-shot compression writes the content size: it costs 1-8 bytes, kafka-python and
# aiokafka write it too, every decoder accepts it, and it lets a decoder refuse an
# oversized frame, or size its buffer, before decoding.
def zstd_compress(data: Bytes) -> bytes:
    """One zstd frame, level 3, content size in the header, no checksum."""
    # A compressor per call: ZstdCompressor objects must not be shared between threads.
    return zstandard.ZstdCompressor(level=ZSTD_LEVEL, write_content_size=True).compress(data)


def _zstd_window_limit(max_size: int) -> int:
    # zstd's default is 128 MiB (enough for every level, even 22); a power of two
    # >= max_size lets a single-segment frame of up to max_size through.
    return 1 << min(31, max(27, (max_size - 1).bit_length()))


_zstd_local = threading.local()


def _zstd_decompressor(max_size: int) -> zstandard.ZstdDecompressor:
    """This thread's decompressor for the window limit of `max_size`. Making one allocates
    zstd's context, about 15 us (a sixth of decompressing a 150 kB batch); one may serve
    call after call (each starts a new session) but not two threads at once."""
    window = _zstd_window_limit(max_size)
    by_window = getattr(_zstd_local, "by_window", None)
    if by_window is None:
        by_window = _zstd_local.by_window = {}
    dctx = by_window.get(window)
    if dctx is None:
        dctx = by_window[window] = zstandard.ZstdDecompressor(max_window_size=window)
    return dctx


def _zstd_check_frames(view: memoryview, max_size: int) -> int | None:
    """Walk the frame structure (RFC 8878) without decoding. Needed because the stream
    decoder returns what it has for a truncated frame instead of failing; it also refuses
    declared content sizes and windows over the limits before anything is allocated.
    Returns the content size of a lone frame that declares it (what the one-shot decoder
    allocates, and checks), else None."""
    pos, declared, frames, sized = 0, 0, 0, True
    while pos < len(view):
        magic = int.from_bytes(view[pos:pos + 4], "little")
        if magic & 0xFFFFFFF0 == _ZSTD_SKIPPABLE:  # u32 size, then opaque bytes
            pos += 8 + int.from_bytes(view[pos + 4:pos + 8], "little")
            frames += 1
            continue
        if magic != _ZSTD_MAGIC:
            raise _corrupt("zstd", f"no frame magic at {pos}")
        params = zstandard.get_frame_parameters(view[pos:])
        frames += 1
        if params.content_size != zstandard.CONTENTSIZE_UNKNOWN:
            declared += params.content_size
        else:
            sized = False
        if declared > max_size or params.window_size > _zstd_window_limit(max_size):
            raise too_big("zstd", max_size)
        pos += zstandard.frame_header_size(view[pos:])
        last = 0
        while not last:  # 3-byte block headers: last flag, type (1 = RLE: one byte follows), size
            head = int.from_bytes(view[pos:pos + 3], "little")
            last, pos = head & 1, pos + 3 + (1 if (head >> 1) & 3 == 1 else head >> 3)
            if pos > len(view):
                break
        pos += 4 if params.has_checksum else 0
    if pos != len(view):
        raise _corrupt("zstd", "truncated frame")
    return declared if frames == 1 and sized else None


def zstd_decompress(data: Bytes, max_size: int) -> bytes:
    """Concatenated zstd frames, with or without content size, decoded as a stream with
    reads bounded by the remaining budget plus one byte."""
    view, total, out = memoryview(data), 0, []
    try:
        if not view:
            raise _corrupt("zstd", "empty input")
        size = _zstd_check_frames(view, max_size)
        if size is not None:  # one frame of a known size, within the limit: decoded in one call
            return _zstd_decompressor(max_size).decompress(view, max_output_size=size)
        with _zstd_decompressor(max_size).stream_reader(view, read_across_frames=True) as reader:
            while chunk := reader.read(min(max_size - total + 1, _OUT_STEP)):
                total += len(chunk)
                if total > max_size:
                    raise too_big("zstd", max_size)
                out.append(chunk)
    except zstandard.ZstdError as e:
        raise _corrupt("zstd", e) from None
    return b"".join(out)


# ------------------------------------------------------------------- codec tables

Decompress = Callable[[memoryview, int], bytes]
Compress = Callable[[Bytes], bytes]


class CodecTable:
    """A family's compression codecs by id: the processor that generated codecs call.

    ``codecs`` maps each id to ``(decompress, compress)``, or to ``None`` for "stored
    as is". A new family is one ``CodecTable(...)`` line.
    """

    def __init__(self, name: str, codecs: dict[int, tuple[Decompress, Compress] | None]) -> None:
        self.name, self.codecs = name, codecs
        #: The ids whose data is stored as is, which `decode` returns unchanged: a generated
        #: decoder checks them itself and makes no call (an interpreted one, about 0.25 us).
        self.passthrough = frozenset(codec for codec, entry in codecs.items() if entry is None)

    def decode(self, buf: Bytes, start: int, end: int, lim: Budget, codec: int) -> tuple[Any, int, int]:
        """Decompress ``buf[start:end]``; returns ``(buffer, start, end)`` of the result."""
        if codec not in self.codecs:
            raise DecodeError("unknown_codec", f"{self.name} compression codec {codec}", offset=start)
        entry = self.codecs[codec]
        if entry is None:
            return buf, start, end
        try:
            out = entry[0](memoryview(buf)[start:end], decompression_room(lim))
        except DecodeError as e:
            e.offset = start
            if e.kind == "limit_exceeded":
                explain_decompression_limit(lim, e)
            raise
        spend_decompressed(lim, len(out))
        return out, 0, len(out)

    def encode(self, data: Bytes, codec: int) -> Bytes:
        """Compress ``data`` with ``codec`` (id 0 / ``None`` entry: returned unchanged)."""
        if codec not in self.codecs:
            raise EncodeError("unknown_codec", f"{self.name} compression codec {codec}")
        entry = self.codecs[codec]
        return data if entry is None else entry[1](data)


class ByVersion:
    """Codec tables chosen by a format version: ``process: name(version, codec)``."""

    def __init__(self, name: str, tables: dict[int, CodecTable]) -> None:
        self.name, self.tables = name, tables

    def _table(self, version: int, error=DecodeError) -> CodecTable:
        table = self.tables.get(version)
        if table is None:
            raise error("unknown_codec", f"{self.name}: no codecs for version {version}")
        return table

    def decode(self, buf: Bytes, start: int, end: int, lim: Budget, version: int, codec: int) -> tuple[Any, int, int]:
        try:
            return self._table(version).decode(buf, start, end, lim, codec)
        except DecodeError as e:
            e.offset = start if e.offset is None else e.offset
            raise

    def encode(self, data: Bytes, version: int, codec: int) -> Bytes:
        return self._table(version, EncodeError).encode(data, codec)


__all__ = ["CodecTable", "ByVersion",
           "gzip_compress", "gzip_decompress", "snappy_compress", "snappy_compress_raw",
           "snappy_decompress", "snappy_decompress_raw", "lz4_compress", "lz4_decompress",
           "zstd_compress", "zstd_decompress"]
