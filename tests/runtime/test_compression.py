"""Compression codecs and codec tables: round trips, third-party producers and
consumers, limits and bombs, and fuzzing (result or DecodeError, nothing else)."""

from __future__ import annotations

import gzip
import itertools
import random
import struct
import time
import zlib

import cramjam
import lz4.frame
import pytest
import snappy
import zstandard
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from aiokafka import codec as ac
from kafka import codec as kc

from logcodec.runtime import compression as c
from logcodec.kafka.codecs import kafka_compression, kafka_v0_compression
from logcodec.runtime.compression import (
    gzip_compress, gzip_decompress, lz4_compress, lz4_decompress, snappy_compress, snappy_compress_raw,
    snappy_decompress, snappy_decompress_raw, zstd_compress, zstd_decompress,
)
from logcodec.tank.codecs import tank_compression
from logcodec.runtime.errors import DecodeError, EncodeError
from logcodec.runtime.limits import DEFAULT_LIMITS, Limits, budget

MiB = 1 << 20
BIG = 1 << 30


def _text(n: int, seed: int = 1) -> bytes:
    """Compressible but not trivial: random words from a small vocabulary."""
    rnd = random.Random(seed)
    words = [bytes(rnd.choices(range(97, 123), k=rnd.randint(2, 9))) for _ in range(300)]
    out = bytearray()
    while len(out) < n:
        out += rnd.choice(words) + b" "
    return bytes(out[:n])


SAMPLES = {
    "empty": b"",
    "one": b"x",
    "text": _text(5000),
    "random": random.Random(2).randbytes(200_000),  # incompressible, spans many blocks
    "mixed": _text(300_000, 3) + bytes(100_000) + random.Random(4).randbytes(70_000),
}
CODECS = {  # name: (compress, decompress)
    "gzip": (gzip_compress, gzip_decompress),
    "snappy": (snappy_compress, snappy_decompress),
    "snappy_raw": (snappy_compress_raw, snappy_decompress_raw),
    "lz4": (lz4_compress, lz4_decompress),
    "lz4_broken_hc": (lambda d: lz4_compress(d, broken_header_checksum=True),
                      lambda d, m: lz4_decompress(d, m, broken_header_checksum=True)),
    "zstd": (zstd_compress, zstd_decompress),
}
DECOMPRESSORS = {name: dec for name, (_, dec) in CODECS.items()}


def _kind(fn, *args) -> str:
    """Run a decompressor that must fail; return the error kind (and drop its traceback)."""
    try:
        fn(*args)
    except DecodeError as e:
        return e.kind
    raise AssertionError("no DecodeError")


# ------------------------------------------------------------------ round trips

@pytest.mark.parametrize("sample", SAMPLES)
@pytest.mark.parametrize("codec", CODECS)
def test_round_trip(codec, sample):
    compress, decompress = CODECS[codec]
    data = SAMPLES[sample]
    packed = compress(data)
    assert isinstance(packed, bytes)
    assert compress(data) == packed  # deterministic
    assert decompress(packed, len(data)) == data  # exactly at the limit
    assert decompress(memoryview(bytearray(b"??" + packed + b"!"))[2:-1], len(data)) == data
    assert compress(memoryview(data)) == compress(bytearray(data)) == packed
    if data:  # one byte less than the output is refused
        assert _kind(decompress, packed, len(data) - 1) == "limit_exceeded"


def test_what_we_write():
    data = SAMPLES["mixed"]
    # gzip: fixed header (no flags, mtime 0, XFL 0, OS unknown), then deflate, CRC-32, ISIZE.
    g = gzip_compress(data)
    assert g[:10] == b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"
    assert g[-8:] == struct.pack("<II", zlib.crc32(data), len(data))
    assert gzip.decompress(g) == data
    # snappy: xerial header, 32 KiB blocks; byte-identical to kafka-python.
    s = snappy_compress(data)
    assert s[:16] == b"\x82SNAPPY\x00\x00\x00\x00\x01\x00\x00\x00\x01"
    assert s == kc.snappy_encode(data)
    assert snappy_compress(b"") == s[:16]
    assert tank_compression.encode(data, 1) == bytes(cramjam.snappy.compress_raw(data)) == snappy.compress(data)
    # lz4: Java's header 04 22 4D 18 | FLG 0x60 BD 0x40 | HC 0x82, 64 KiB blocks, end mark.
    f = lz4_compress(data)
    assert f[:7] == bytes.fromhex("04224d18604082") and f[-4:] == b"\0\0\0\0"
    info = lz4.frame.get_frame_info(f)
    assert (info["block_size"], info["block_linked"], info["block_checksum"], info["content_checksum"],
            info["content_size"]) == (64 * 1024, False, False, False, 0)
    assert _lz4_block_sizes(f) and max(_lz4_block_sizes(f)) <= 64 * 1024
    assert lz4_compress(b"") == bytes.fromhex("04224d18604082") + b"\0\0\0\0"
    # zstd: level 3 with content size, no checksum: byte-identical to kafka-python.
    z = zstd_compress(data)
    params = zstandard.get_frame_parameters(z)
    assert (params.content_size, params.has_checksum) == (len(data), False)
    assert z == kc.zstd_encode(data)


def _lz4_block_sizes(frame: bytes) -> list[int]:
    """Uncompressed-or-compressed payload sizes of a frame without optional header fields."""
    pos, sizes = 7, []
    while (word := int.from_bytes(frame[pos:pos + 4], "little")) != 0:
        sizes.append(word & 0x7FFFFFFF)
        pos += 4 + (word & 0x7FFFFFFF)
    assert pos + 4 == len(frame)
    return sizes


def test_lz4_incompressible_blocks_stored_raw():
    data = SAMPLES["random"]
    f = lz4_compress(data)
    first = int.from_bytes(f[7:11], "little")
    assert first == 0x80000000 | 65536  # high bit: stored uncompressed, as Java does
    assert f[11:11 + 65536] == data[:65536]


# ---------------------------------------------------------- independent producers

@pytest.mark.parametrize("sample", SAMPLES)
def test_kafka_python_producers(sample):
    data = SAMPLES[sample]
    limit = len(data)
    assert gzip_decompress(kc.gzip_encode(data), limit) == data
    assert gzip_decompress(kc.gzip_encode(data, compresslevel=1), limit) == data
    assert lz4_decompress(kc.lz4_encode(data), limit) == data
    assert zstd_decompress(kc.zstd_encode(data), limit) == data
    assert snappy_decompress(kc.snappy_encode(data, xerial_blocksize=4096), limit) == data
    assert snappy_decompress(snappy.compress(data), limit) == data
    assert snappy_decompress(bytes(cramjam.snappy.compress_raw(data)), limit) == data
    assert snappy_decompress_raw(snappy.compress(data), limit) == data
    if data:  # kafka-python writes a bare 16-byte xerial header for b"" and cannot read it back
        assert snappy_decompress(kc.snappy_encode(data), limit) == data


@pytest.mark.parametrize("sample", SAMPLES)
def test_kafka_python_consumers(sample):
    data = SAMPLES[sample]
    assert kc.gzip_decode(gzip_compress(data)) == data
    assert kc.lz4_decode(lz4_compress(data)) == data
    assert kc.zstd_decode(zstd_compress(data)) == data
    assert gzip.decompress(gzip_compress(data)) == data
    if data:
        assert kc.snappy_decode(snappy_compress(data)) == data


@pytest.mark.parametrize("sample", SAMPLES)
def test_aiokafka_both_ways(sample):
    """aiokafka writes lz4 and zstd through cramjam (lz4 HC level 9), gzip through zlib."""
    data = SAMPLES[sample]
    assert gzip_decompress(ac.gzip_encode(data), len(data)) == data
    assert lz4_decompress(ac.lz4_encode(data), len(data)) == data
    assert zstd_decompress(ac.zstd_encode(data), len(data)) == data
    assert ac.gzip_decode(gzip_compress(data)) == data
    assert ac.lz4_decode(lz4_compress(data)) == data
    assert ac.zstd_decode(zstd_compress(data)) == data
    if data:
        assert snappy_decompress(ac.snappy_encode(data), len(data)) == data
        assert ac.snappy_decode(snappy_compress(data)) == data


def test_kafka_python_concatenated_gzip_members():
    a, b = SAMPLES["text"], SAMPLES["mixed"]
    assert gzip_decompress(kc.gzip_encode(a) + kc.gzip_encode(b) + gzip_compress(b""), len(a + b)) == a + b


def _gzip_member(data: bytes, flags: int, mtime: int = 1234567890) -> bytes:
    """A gzip member with optional FHCRC (2), FEXTRA (4), FNAME (8), FCOMMENT (16) fields."""
    head = bytearray(b"\x1f\x8b\x08" + bytes([flags]) + struct.pack("<I", mtime) + b"\x02\x03")
    if flags & 4:
        head += struct.pack("<H", 6) + b"AB\x02\x00hi"
    if flags & 8:
        head += b"records.bin\x00"
    if flags & 16:
        head += b"a comment\x00"
    if flags & 2:
        head += struct.pack("<H", zlib.crc32(head) & 0xFFFF)
    body = zlib.compressobj(9, zlib.DEFLATED, -15)
    return bytes(head) + body.compress(data) + body.flush() + struct.pack("<II", zlib.crc32(data), len(data))


@pytest.mark.parametrize("flags", [0, 2, 4, 8, 16, 2 | 4 | 8 | 16])
def test_gzip_any_header(flags):
    data = SAMPLES["text"]
    member = _gzip_member(data, flags)
    assert gzip.decompress(member) == data  # the member is valid for an independent reader
    assert gzip_decompress(member, len(data)) == data
    if flags & 2:  # header CRC is checked
        bad = bytearray(member)
        bad[-len(member) + 10] ^= 0xFF  # first byte after the fixed header is covered
        assert _kind(gzip_decompress, bytes(bad), len(data)) == "corrupt_compressed"


LZ4_BLOCK_SIZES = [lz4.frame.BLOCKSIZE_DEFAULT, lz4.frame.BLOCKSIZE_MAX64KB, lz4.frame.BLOCKSIZE_MAX256KB,
                   lz4.frame.BLOCKSIZE_MAX1MB, lz4.frame.BLOCKSIZE_MAX4MB]
LZ4_BYTES = {0: 64 << 10, 4: 64 << 10, 5: 256 << 10, 6: 1 << 20, 7: 4 << 20}
LZ4_DATA = {n: _text(n + 7000, 5) for n in set(LZ4_BYTES.values())}  # two blocks: the 2nd can link to the 1st


@pytest.mark.parametrize("block_size", LZ4_BLOCK_SIZES)
@pytest.mark.parametrize("linked,block_checksum,content_checksum,store_size",
                         list(itertools.product([False, True], repeat=4)))
def test_lz4_every_frame_flag(linked, block_checksum, content_checksum, store_size, block_size):
    data = LZ4_DATA[LZ4_BYTES[block_size]]
    opts = dict(block_size=block_size, block_linked=linked, block_checksum=block_checksum,
                content_checksum=content_checksum)
    # The streaming compressor writes exactly the flags asked for.
    comp = lz4.frame.LZ4FrameCompressor(**opts)
    frame = comp.begin(source_size=len(data) if store_size else 0) + comp.compress(data) + comp.flush()
    info = lz4.frame.get_frame_info(frame)
    assert (info["block_size"], info["block_linked"], info["block_checksum"], info["content_checksum"],
            info["content_size"]) == (LZ4_BYTES[block_size], linked, block_checksum, content_checksum,
                                      len(data) if store_size else 0)
    assert lz4_decompress(frame, len(data)) == data
    assert _kind(lz4_decompress, frame, len(data) - 1) == "limit_exceeded"
    # The one-shot compress (what kafka-python calls) may pick other flags; it must decode too.
    one_shot = lz4.frame.compress(data, store_size=store_size, **opts)
    assert lz4_decompress(one_shot, len(data)) == data
    assert lz4_decompress(frame + one_shot, 2 * len(data)) == data + data  # concatenated frames
    if content_checksum or block_checksum:
        bad = bytearray(frame)
        bad[len(frame) // 2] ^= 0x01
        assert _kind(lz4_decompress, bytes(bad), len(data)) == "corrupt_compressed"


def test_lz4_skippable_frame():
    data = SAMPLES["text"]
    skip = struct.pack("<II", 0x184D2A5A, 5) + b"hello"
    assert lz4_decompress(skip + lz4_compress(data) + skip, len(data)) == data


def test_lz4_declared_content_size_refused_up_front():
    comp = lz4.frame.LZ4FrameCompressor()
    header = comp.begin(source_size=BIG)  # header only, no blocks: the refusal needs no data
    assert lz4.frame.get_frame_info(header)["content_size"] == BIG
    assert _kind(lz4_decompress, header + b"\xff" * 100, DEFAULT_LIMITS.max_decompressed_size) == "limit_exceeded"
    assert _kind(lz4_decompress, header, BIG) == "corrupt_compressed"  # within the limit: truncated


def test_xxh32_known_vectors():
    assert c._xxh32(b"") == 0x02CC5D05
    assert c._xxh32(b"abc") == 0x32D153FF
    assert c._xxh32(b"Nobody inspects the spammish repetition") == 0xE2293B2F


@pytest.mark.parametrize("store_size", [False, True])
def test_lz4_kafka_3160_header_checksum(store_size):
    data = SAMPLES["text"]
    good = lz4.frame.compress(data, block_linked=False, store_size=store_size)
    hl = 15 if store_size else 7
    assert good[hl - 1] == (c._xxh32(good[4:hl - 1]) >> 8) & 0xFF  # our XXH32 agrees with lz4's HC
    broken = good[:hl - 1] + bytes([(c._xxh32(good[:hl - 1]) >> 8) & 0xFF]) + good[hl:]
    assert broken != good
    assert _kind(lz4_decompress, broken, len(data)) == "corrupt_compressed"
    assert lz4_decompress(broken, len(data), broken_header_checksum=True) == data
    assert lz4_decompress(good, len(data), broken_header_checksum=True) == data
    ours = lz4_compress(data, broken_header_checksum=True)
    assert ours[:6] == bytes.fromhex("04224d186040") and ours[7:] == lz4_compress(data)[7:]
    assert ours[6] == (c._xxh32(ours[:6]) >> 8) & 0xFF != 0x82


@pytest.mark.parametrize("make", [
    lambda d: zstandard.ZstdCompressor(write_content_size=False).compress(d),
    lambda d: zstandard.ZstdCompressor(write_checksum=True).compress(d),
    lambda d: zstandard.ZstdCompressor(level=19, write_content_size=False).compress(d),
    lambda d: _zstd_stream([d[:1000], d[1000:]]),
], ids=["no_content_size", "checksum", "level19", "streamed"])
def test_zstd_producers(make):
    data = SAMPLES["mixed"]
    frame = make(data)
    assert zstd_decompress(frame, len(data)) == data
    assert _kind(zstd_decompress, frame, len(data) - 1) == "limit_exceeded"
    skip = struct.pack("<II", 0x184D2A50, 3) + b"abc"
    assert zstd_decompress(skip + frame + zstd_compress(b"x") + skip + frame, 2 * len(data) + 1) == data + b"x" + data


def _zstd_stream(chunks) -> bytes:
    """A frame written by a streaming compressor: no content size."""
    obj = zstandard.ZstdCompressor(write_checksum=True).compressobj()
    frame = b"".join(obj.compress(ch) for ch in chunks) + obj.flush()
    assert zstandard.get_frame_parameters(frame).content_size == zstandard.CONTENTSIZE_UNKNOWN
    return frame


# ------------------------------------------------------------------ corruption

FRAMES = {name: comp(SAMPLES["text"]) for name, (comp, _) in CODECS.items()}
FRAMES["zstd_checksum_no_size"] = _zstd_stream([SAMPLES["text"]])
FRAMES["lz4_all_checksums"] = lz4.frame.compress(SAMPLES["text"], block_checksum=True, content_checksum=True)
FRAMES["gzip_kafka_python"] = kc.gzip_encode(SAMPLES["text"])
FRAME_DECODER = {"zstd_checksum_no_size": "zstd", "lz4_all_checksums": "lz4", "gzip_kafka_python": "gzip"}


def _decoder(frame_name: str):
    return DECOMPRESSORS[FRAME_DECODER.get(frame_name, frame_name)]


@pytest.mark.parametrize("name", FRAMES)
def test_every_truncation_is_corrupt(name):
    frame, decompress = FRAMES[name], _decoder(name)
    for cut in range(len(frame)):
        if name == "snappy" and cut == 16:
            continue  # a bare xerial header is a complete stream with no blocks
        assert _kind(decompress, frame[:cut], MiB) == "corrupt_compressed", cut


@pytest.mark.parametrize("tail", [b"\x00", b"garbage", b"\x00" * 8])
@pytest.mark.parametrize("name", FRAMES)
def test_trailing_garbage_is_corrupt(name, tail):
    assert _kind(_decoder(name), FRAMES[name] + tail, MiB) == "corrupt_compressed"


@pytest.mark.parametrize("name", ["gzip", "zstd_checksum_no_size", "lz4_all_checksums"])
def test_checksummed_payload_flip_is_corrupt(name):
    frame = bytearray(FRAMES[name])
    frame[-5] ^= 0x10  # inside the checksum / length trailer or last block
    assert _kind(_decoder(name), bytes(frame), MiB) == "corrupt_compressed"


def test_snappy_xerial_bad_blocks():
    data = SAMPLES["text"]
    good = snappy_compress(data)
    assert _kind(snappy_decompress, good[:16] + b"\x7f\xff\xff\xff" + good[20:], MiB) == "corrupt_compressed"
    assert _kind(snappy_decompress, good[:16] + b"\x00\x00\x00\x00", MiB) == "corrupt_compressed"
    assert _kind(snappy_decompress, good[:12], MiB) == "corrupt_compressed"
    # version and compat are not checked (redpanda writes them little-endian)
    assert snappy_decompress(good[:8] + b"\x01\x00\x00\x00\x01\x00\x00\x00" + good[16:], MiB) == data
    # each block is checked against the budget left by the blocks before it
    three = snappy_compress(bytes(3 * 32768))
    assert snappy_decompress(three, 3 * 32768) == bytes(3 * 32768)
    assert _kind(snappy_decompress, three, 3 * 32768 - 1) == "limit_exceeded"


def test_raw_snappy_declared_size_refused_up_front():
    # varint length 2^30, then garbage: refused from the header alone.
    assert _kind(snappy_decompress, b"\x80\x80\x80\x80\x04" + b"\xff" * 50, 64 * MiB) == "limit_exceeded"
    assert _kind(snappy_decompress, b"\x05abc", 64 * MiB) == "corrupt_compressed"  # says 5, holds 3


def test_empty_input_is_corrupt_for_every_codec():
    for name, decompress in DECOMPRESSORS.items():
        assert _kind(decompress, b"", MiB) == "corrupt_compressed", name


# ------------------------------------------------------------------------ bombs

ZEROS = bytes(MiB)


def _gzip_bomb(mib: int) -> bytes:
    """One gzip member holding mib MiB of zeros. After a full flush deflate output
    never refers back, so the same 1 MiB segment can be repeated."""
    comp = zlib.compressobj(9, zlib.DEFLATED, -15)
    first = comp.compress(ZEROS) + comp.flush(zlib.Z_FULL_FLUSH)
    again = comp.compress(ZEROS) + comp.flush(zlib.Z_FULL_FLUSH)
    crc = 0
    for _ in range(mib):
        crc = zlib.crc32(ZEROS, crc)
    body = first + again * (mib - 1) + comp.flush()
    return c._GZIP_HEADER + body + struct.pack("<II", crc, (mib * MiB) & 0xFFFFFFFF)


def _gzip_members_bomb(mib: int) -> bytes:
    return gzip_compress(ZEROS) * mib


def _snappy_bomb(mib: int) -> bytes:
    block = snappy_compress(bytes(32768))[16:]
    return c._XERIAL_HEADER + block * (mib * 32)


def _snappy_raw_bomb(copies: int) -> bytes:
    """1 literal zero then `copies` 64-byte copies at offset 1: 1 + 64 * copies bytes."""
    n, varint = 1 + 64 * copies, bytearray()
    while n >= 0x80:
        varint.append(n & 0x7F | 0x80)
        n >>= 7
    return bytes(varint) + bytes([n]) + b"\x00\x00" + b"\xfe\x01\x00" * copies


def _lz4_bomb(mib: int, declare: bool = False) -> bytes:
    comp = lz4.frame.LZ4FrameCompressor(block_size=lz4.frame.BLOCKSIZE_MAX4MB, block_linked=True)
    return comp.begin(source_size=mib * MiB if declare else 0) + b"".join(comp.compress(ZEROS) for _ in range(mib)) + comp.flush()


def _zstd_bomb(mib: int, declare: bool = False) -> bytes:
    obj = zstandard.ZstdCompressor().compressobj(size=mib * MiB if declare else -1)
    return b"".join(obj.compress(ZEROS) for _ in range(mib)) + obj.flush()


BOMBS = {  # name: (builder, decompressor)
    "gzip": (_gzip_bomb, gzip_decompress),
    "gzip_members": (_gzip_members_bomb, gzip_decompress),
    "snappy_xerial": (_snappy_bomb, snappy_decompress),
    "lz4": (_lz4_bomb, lz4_decompress),
    "lz4_declared": (lambda m: _lz4_bomb(m, True), lz4_decompress),
    "zstd": (_zstd_bomb, zstd_decompress),
    "zstd_declared": (lambda m: _zstd_bomb(m, True), zstd_decompress),
}


@pytest.mark.parametrize("name", BOMBS)
def test_bomb_builders_are_valid(name):
    """Small versions of the bombs decode to zeros with independent decoders and with ours."""
    build, decompress = BOMBS[name]
    small = build(4)
    independent = {"gzip": gzip.decompress, "snappy": kc.snappy_decode, "lz4": lz4.frame.decompress,
                   "zstd": kc.zstd_decode}[name.split("_")[0]]
    assert independent(small) == bytes(4 * MiB)
    assert decompress(small, 4 * MiB) == bytes(4 * MiB)


def test_raw_snappy_bomb_builder_and_boundary():
    assert bytes(cramjam.snappy.decompress_raw(_snappy_raw_bomb(1000))) == bytes(64001)
    bomb = _snappy_raw_bomb(MiB)  # 64 MiB + 1 byte from 3 MiB
    assert _kind(snappy_decompress, bomb, 64 * MiB) == "limit_exceeded"
    assert tank_compression.decode(bomb, 0, len(bomb), budget(Limits(64 * MiB + 1)), 1)[2] == 64 * MiB + 1


def _status_kib(field: str) -> int:
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith(field + ":"))


def _peak_growth_mib(fn) -> float:
    """Peak resident memory growth while fn runs (Linux: reset VmHWM via clear_refs)."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
    except OSError:
        pytest.skip("cannot reset the peak RSS here")
    base = _status_kib("VmRSS")
    fn()
    return (_status_kib("VmHWM") - base) / 1024


@pytest.fixture(scope="module")
def bombs():
    return {name: build(1024) for name, (build, _) in BOMBS.items()}  # 1 GiB of zeros each


@pytest.mark.parametrize("name", BOMBS)
def test_one_gib_bomb_refused_quickly_and_small(bombs, name):
    decompress, bomb = BOMBS[name][1], bombs[name]
    result = {}

    def run(limit):
        t = time.perf_counter()
        result["kind"] = _kind(decompress, bomb, limit)
        result["seconds"] = time.perf_counter() - t

    # Default limit (64 MiB): output stops one step past the limit; never the whole GiB.
    growth = _peak_growth_mib(lambda: run(DEFAULT_LIMITS.max_decompressed_size))
    assert result["kind"] == "limit_exceeded"
    assert result["seconds"] < 5
    assert growth < 80, growth
    # 1 MiB limit: memory stays near the limit, whatever the bomb.
    growth = _peak_growth_mib(lambda: run(MiB))
    assert result["kind"] == "limit_exceeded"
    assert result["seconds"] < 1
    assert growth < 24, growth
    if name.endswith("declared"):  # refused from the header: no decoding at all
        t = time.perf_counter()
        assert _kind(decompress, bomb, DEFAULT_LIMITS.max_decompressed_size) == "limit_exceeded"
        assert time.perf_counter() - t < 0.05


def test_zstd_huge_window_is_a_limit():
    # A frame header asking for a 2 GiB window (Window_Descriptor exponent 21).
    frame = bytearray(_zstd_stream([b"abc"]))
    assert frame[4] & 0x20 == 0  # not single-segment: a window descriptor follows
    frame[5] = 21 << 3
    assert _kind(zstd_decompress, bytes(frame), 64 * MiB) == "limit_exceeded"


# ---------------------------------------------------------------- codec tables

def test_kafka_table_none_is_zero_copy():
    buf = b"head" + SAMPLES["text"] + b"tail"
    out, start, end = kafka_compression.decode(buf, 4, len(buf) - 4, budget(), 0)
    assert out is buf and (start, end) == (4, len(buf) - 4)
    assert kafka_compression.encode(buf, 0) is buf


@pytest.mark.parametrize("codec", [1, 2, 3, 4])
def test_kafka_table_codecs(codec):
    data = SAMPLES["mixed"]
    packed = kafka_compression.encode(data, codec)
    assert packed == [gzip_compress, snappy_compress, lz4_compress, zstd_compress][codec - 1](data)
    buf = bytearray(b"\x01\x02\x03" + packed + b"\xff")
    out, start, end = kafka_compression.decode(buf, 3, len(buf) - 1, budget(), codec)
    assert bytes(out[start:end]) == data and start == 0 and end == len(data)
    err = pytest.raises(DecodeError, kafka_compression.decode, buf, 3, len(buf) - 2, budget(), codec).value
    assert (err.kind, err.offset) == ("corrupt_compressed", 3)
    err = pytest.raises(DecodeError, kafka_compression.decode, buf, 3, len(buf) - 1, budget(Limits(1000)), codec).value
    assert (err.kind, err.offset) == ("limit_exceeded", 3)


def test_unknown_codecs():
    err = pytest.raises(DecodeError, kafka_compression.decode, b"abcdef", 2, 6, budget(), 5).value
    assert (err.kind, err.offset) == ("unknown_codec", 2)
    assert pytest.raises(EncodeError, kafka_compression.encode, b"x", 7).value.kind == "unknown_codec"
    err = pytest.raises(DecodeError, tank_compression.decode, b"abcdef", 1, 6, budget(), 2).value
    assert (err.kind, err.offset) == ("unknown_codec", 1)
    assert pytest.raises(EncodeError, tank_compression.encode, b"x", 3).value.kind == "unknown_codec"


def test_tank_table_is_raw_snappy():
    data = SAMPLES["mixed"]
    packed = tank_compression.encode(data, 1)
    assert not packed.startswith(b"\x82SNAPPY") and bytes(cramjam.snappy.decompress_raw(packed)) == data
    out, start, end = tank_compression.decode(b"xx" + packed, 2, 2 + len(packed), budget(), 1)
    assert out == data and (start, end) == (0, len(data))
    xerial = snappy_compress(data)  # TANK never writes nor reads xerial framing
    assert pytest.raises(DecodeError, tank_compression.decode, xerial, 0, len(xerial), budget(), 1).value.kind == "corrupt_compressed"


def test_kafka_v0_table_writes_kafka_3160_lz4():
    data = SAMPLES["text"]
    packed = kafka_v0_compression.encode(data, 3)
    assert packed == lz4_compress(data, broken_header_checksum=True)
    assert kafka_v0_compression.decode(packed, 0, len(packed), budget(), 3)[0] == data
    assert pytest.raises(DecodeError, kafka_compression.decode, packed, 0, len(packed), budget(), 3).value.kind == "corrupt_compressed"
    assert kafka_v0_compression.encode(data, 1) == gzip_compress(data)


# ------------------------------------------------------------------------- fuzz

FUZZ_LIMIT = 64 * 1024
MAGICS = [b"", b"\x1f\x8b\x08", b"\x82SNAPPY\x00", b"\x82SNAPPY\x00\x00\x00\x00\x01\x00\x00\x00\x01",
          b"\x04\x22\x4d\x18", b"\x04\x22\x4d\x18\x60\x40\x82", b"\x28\xb5\x2f\xfd", b"\x50\x2a\x4d\x18"]
FUZZ = settings(max_examples=300, deadline=2000, suppress_health_check=[HealthCheck.too_slow])


def _check_outcome(decompress, data: bytes) -> None:
    try:
        out = decompress(data, FUZZ_LIMIT)
    except DecodeError as e:
        assert e.kind in ("corrupt_compressed", "limit_exceeded")
    else:
        assert isinstance(out, bytes) and len(out) <= FUZZ_LIMIT


@FUZZ
@given(st.sampled_from(sorted(DECOMPRESSORS)), st.sampled_from(MAGICS), st.binary(max_size=512))
def test_fuzz_random_bytes(name, magic, tail):
    _check_outcome(DECOMPRESSORS[name], magic + tail)


@st.composite
def mutated_frames(draw):
    name = draw(st.sampled_from(sorted(FRAMES)))
    frame = bytearray(FRAMES[name])
    for _ in range(draw(st.integers(1, 4))):
        op, pos = draw(st.sampled_from(["set", "xor", "cut", "insert"])), draw(st.integers(0, len(frame)))
        byte = draw(st.integers(0, 255))
        if op == "set" and pos < len(frame):
            frame[pos] = byte
        elif op == "xor" and pos < len(frame):
            frame[pos] ^= 1 << (byte % 8)
        elif op == "cut":
            del frame[pos:pos + draw(st.integers(1, 64))]
        else:
            frame[pos:pos] = draw(st.binary(min_size=1, max_size=8))
    return name, bytes(frame)


@FUZZ
@given(mutated_frames())
def test_fuzz_mutated_frames(case):
    name, frame = case
    _check_outcome(_decoder(name), frame)
    # every decoder, not just the matching one, must cope with every codec's frames
    for other in DECOMPRESSORS.values():
        _check_outcome(other, frame)


@FUZZ
@given(st.integers(-2, 6), st.binary(max_size=256), st.integers(0, 8))
def test_fuzz_tables(codec, data, start):
    for table in (kafka_compression, kafka_v0_compression, tank_compression):
        try:
            out, s, e = table.decode(data, min(start, len(data)), len(data), budget(Limits(FUZZ_LIMIT)), codec)
        except DecodeError as err:
            assert err.kind in ("unknown_codec", "corrupt_compressed", "limit_exceeded")
            assert err.offset == min(start, len(data))
        else:
            assert 0 <= s <= e <= len(out)
