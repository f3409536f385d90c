"""Kaitai's terminators and padding (`strz`, `terminator`, `consume`, `include`, `eos-error`,
`pad-right`) on a test schema: decoded as the official compiler's parser decodes them, written
back byte for byte where the schema determines the bytes, refused where it would not decode back."""

import pytest

import logcodec
from logcodec.generator import kaitai
from tests.generator.demo import SCHEMAS, compile_demo

DATA = (b"abc\x00" b"de" b"|" b"fg@" b"hi      " b"jk\x00\xff\xff\xff\xff\xff"
        + "l\u0100m".encode("utf-16le") + b"\x00\x00" + b"\x01\x02;" + b"\x03\x04..." + b"no")


@pytest.fixture(scope="module")
def demo():
    return compile_demo("terminators")


def test_values_agree_with_the_reference_parser(demo):
    schema, m = demo
    value = m.decode(DATA)
    ours = (value.name, value.left, value.kept, value.padded, value.cut, value.wide,
            (value.in_term.a, value.in_term.b), (value.in_box.a, value.in_box.b), value.rest)
    assert ours == ("abc", b"de", "fg@", "hi", b"jk", "l\u0100m", (1, 2), (3, 4), b"no")
    with kaitai.loaded(kaitai.sources(SCHEMAS, [schema])) as load:
        from kaitaistruct import BytesIO, KaitaiStream

        theirs = load("terminators").Terminators(KaitaiStream(BytesIO(DATA)))
        assert (theirs.name, theirs.left, theirs.kept, theirs.padded, theirs.cut, theirs.wide,
                (theirs.in_term.a, theirs.in_term.b), (theirs.in_box.a, theirs.in_box.b), theirs.rest) == ours


def test_the_bytes_come_back(demo):
    _, m = demo
    with_newline = DATA + b"\n"
    assert m.encode(m.decode(with_newline)) == with_newline
    # Without its terminator (eos-error: false) the value reads the same, so the encoder writes
    # the canonical form, with the terminator: not the same bytes, the same value (law 3).
    again = m.encode(m.decode(DATA))
    assert again == with_newline and m.decode(again) == m.decode(DATA)


def test_a_missing_terminator_is_truncated_at_the_field(demo):
    _, m = demo
    with pytest.raises(logcodec.DecodeError) as info:
        m.decode(b"abc")
    assert (info.value.kind, info.value.offset, info.value.path) == ("truncated", 0, "terminators.name")


@pytest.mark.parametrize("field,value,kind", [
    ("name", "a\x00b", "invalid_value"),   # decoding would stop at its NUL
    ("padded", "toolong!!", "invalid_length"),
    ("padded", "end ", "invalid_value"),   # decoding strips the trailing space
    ("kept", "f@g@", "invalid_value"),     # an included terminator must be the last byte
])
def test_values_that_would_not_decode_back_are_refused(demo, field, value, kind):
    _, m = demo
    v = m.decode(DATA)
    setattr(v, field, value)
    with pytest.raises(logcodec.EncodeError) as info:
        m.encode(v)
    assert info.value.kind == kind and info.value.path.endswith(field)
