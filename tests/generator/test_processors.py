"""Kaitai's built-in processors (xor, rol, ror, zlib) on a test schema: decoded as the official
compiler's parser decodes them, and written back byte for byte (zlib at the same level)."""

import zlib

import pytest

import logcodec
from logcodec.generator import kaitai
from tests.generator.demo import SCHEMAS, compile_demo

PLAIN = b"hello"
PACKED = zlib.compress(b"inside " * 20, 6)


def rotate_left(data: bytes, n: int) -> bytes:
    return bytes(((b << n) | (b >> (8 - n))) & 0xFF for b in data)


KEY = bytes([0xEC, 0xBB, 0xA3])
# Each block stored so that its processor gives PLAIN back: rol(3) and ror(5) (len_block % 8)
# both undo a rotation left by 5.
DATA = (bytes([len(PLAIN)]) + bytes(b ^ 0xAA for b in PLAIN) + bytes(b ^ KEY[i % 3] for i, b in enumerate(PLAIN))
        + rotate_left(PLAIN, 5) + rotate_left(PLAIN, 5) + bytes([len(PACKED)]) + PACKED)


@pytest.fixture(scope="module")
def demo():
    return compile_demo("processors")


def test_values_agree_with_the_reference_parser(demo):
    schema, m = demo
    value = m.decode(DATA)
    ours = (value.xor_one, value.xor_key, value.rotated_left, value.rotated_right, value.packed)
    assert ours == (PLAIN, PLAIN, PLAIN, PLAIN, b"inside " * 20)
    with kaitai.loaded(kaitai.sources(SCHEMAS, [schema])) as load:
        from kaitaistruct import BytesIO, KaitaiStream

        theirs = load("processors").Processors(KaitaiStream(BytesIO(DATA)))
        assert (theirs.xor_one, theirs.xor_key, theirs.rotated_left, theirs.rotated_right, theirs.packed) == ours


def test_the_bytes_come_back(demo):
    _, m = demo
    assert m.encode(m.decode(DATA)) == DATA


def test_a_zlib_bomb_stops_at_the_limit(demo):
    _, m = demo
    bomb = zlib.compress(bytes(200_000), 9)
    assert len(bomb) < 256
    data = DATA[:1 + 4 * len(PLAIN)] + bytes([len(bomb)]) + bomb
    assert len(m.decode(data).packed) == 200_000
    with pytest.raises(logcodec.DecodeError) as info:
        m.decode(data, limits=logcodec.Limits(max_decompressed_size=1000))
    assert info.value.kind == "limit_exceeded" and info.value.path == "processors.packed"
    assert info.value.offset == 2 + 4 * len(PLAIN)
