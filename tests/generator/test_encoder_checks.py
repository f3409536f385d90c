"""The encoder never writes a value other than the one given (law 6, issue 37 item 5).

A `contents` that differs, a `valid` that fails (on a number, text, bytes or a structure), a
size that says more than a structure's bytes where its decoder would read the padding as part of
it: each is an `EncodeError` naming the path, and no bytes. What the encoder does write decodes
to the value given. Types whose bytes the value does not determine say why (`not_canonical`).
"""

from __future__ import annotations

import pytest

from logcodec import DecodeError, EncodeError
from logcodec.generator.passes import model_of

from .tiny_schemas import compiled

CHECKED = """
meta: {id: checked}
seq:
  - {id: magic, contents: "AB"}
  - {id: name, type: str, size: 3, encoding: ASCII, valid: '"abc"'}
  - {id: tag, size: 2, valid: '[0x01, 0x02]'}
  - {id: small, type: u1, repeat: expr, repeat-expr: 2, valid: {max: 5}}
  - {id: point, type: point, valid: {expr: _.x == 7}}
  - {id: word, type: strz, encoding: ASCII, valid: {any-of: ['"x"', '"y"']}}
types:
  point:
    seq:
      - {id: x, type: u1}
"""
CHECKED_BYTES = bytes.fromhex("4142" "616263" "0102" "0203" "07" "7800")

SIZED = """
meta: {id: sized}
seq:
  - {id: len_closed, type: u1}
  - {id: closed, type: closed, size: len_closed}
  - {id: len_open, type: u1}
  - {id: open, type: open, size: len_open}
  - {id: len_nested, type: u1}
  - {id: nested, type: nested, size: len_nested}
types:
  closed:
    seq:
      - {id: x, type: u1}
  open:
    seq:
      - {id: x, type: u1}
      - {id: rest, size-eos: true}
  nested:
    seq:
      - {id: inner, type: items}
  items:
    seq:
      - {id: xs, type: u1, repeat: eos}
"""
SIZED_BYTES = bytes.fromhex("01" "07" "02" "0809" "02" "0102")

NOT_CANONICAL = """
meta: {id: loose}
seq:
  - {id: flag, type: b1}
  - {id: more, type: b3, if: flag}
  - {id: len_z, type: u1}
  - {id: z, size: len_z, process: zlib}
instances:
  first:
    pos: 0
    type: u1
"""


def refused(m, value) -> EncodeError:
    with pytest.raises(EncodeError) as caught:
        m.encode(value)
    return caught.value


def test_a_value_as_decoded_encodes_back(tmp_path):
    _, m = compiled(tmp_path, CHECKED, "checked")
    assert m.encode(m.decode(CHECKED_BYTES)) == CHECKED_BYTES


@pytest.mark.parametrize("field,given,path", [
    ("magic", b"XY", "checked.magic"),
    ("name", "abd", "checked.name"),
    ("tag", b"\x01\x03", "checked.tag"),
    ("small", [1, 9], "checked.small[1]"),
    ("word", "z", "checked.word"),
])
def test_a_value_that_breaks_its_contents_or_valid_is_refused_naming_its_path(tmp_path, field, given, path):
    _, m = compiled(tmp_path, CHECKED, "checked")
    value = m.decode(CHECKED_BYTES)
    setattr(value, field, given)
    error = refused(m, value)
    assert (error.kind, error.path) == ("invalid_value", path)
    assert repr(given[1] if field == "small" else given) in str(error)


def test_a_structure_that_breaks_its_valid_is_refused_and_not_decoded(tmp_path):
    _, m = compiled(tmp_path, CHECKED, "checked")
    value = m.decode(CHECKED_BYTES)
    value.point = m.Point(x=8)
    assert refused(m, value).path == "checked.point"
    with pytest.raises(DecodeError) as caught:
        m.decode(CHECKED_BYTES.replace(b"\x07", b"\x08"))
    assert caught.value.path == "checked.point"


def test_contents_left_none_or_defaulted_is_the_schemas(tmp_path):
    _, m = compiled(tmp_path, CHECKED, "checked")
    value = m.decode(CHECKED_BYTES)
    value.magic = None
    assert m.encode(value) == CHECKED_BYTES
    assert m.Checked().magic == b"AB"


def test_a_size_that_says_more_pads_only_where_the_padding_is_not_read(tmp_path):
    _, m = compiled(tmp_path, SIZED, "sized")
    value = m.decode(SIZED_BYTES)
    value.len_closed = 3  # `closed` reads one byte of its three: the zeros after it are never read
    value.closed = m.Closed(x=7)
    assert m.decode(m.encode(value)) == value
    for length, field, given in (("len_open", "open", m.Open(x=8, rest=b"\x09")),
                                 ("len_nested", "nested", m.Nested(inner=m.Items(xs=[1, 2])))):
        value = m.decode(SIZED_BYTES)
        setattr(value, length, 4)  # zeros there would be read: `rest` or `xs` would be longer
        setattr(value, field, given)
        error = refused(m, value)
        assert (error.kind, error.path) == ("invalid_length", f"sized.{field}")


def test_the_plan_says_why_bytes_may_not_be_canonical_and_the_docstrings_say_it(tmp_path):
    schema, m = compiled(tmp_path, NOT_CANONICAL, "loose")
    reasons = model_of(schema).plan(schema.root).not_canonical
    assert [r.split(" ")[0] for r in reasons] == ["`z`", "bits", "instances"]
    for reason in reasons:
        words = reason.split()[:4]
        assert " ".join(words) in " ".join(m.encode.__doc__.split())
        assert " ".join(words) in " ".join(m.Loose.__doc__.split())
    checked, _ = compiled(tmp_path, CHECKED, "checked")
    assert model_of(checked).plan(checked.root).not_canonical == []


# What a decoder decides by the stream (`_io.pos`, `_io.size`, `_io.eof`, and an instance that
# reads them), an encoder, which has no stream, takes from the value: a field is there when the
# value has it, a switch's case is the value's class, a size is not checked (the bytes written
# make the stream that says it). Shapes of gzip's body, windows_resource_file's padding and
# save_pos, tls_client_hello's extensions and bmp's color table.
STREAMED = """
meta: {id: streamed}
seq:
  - {id: head, type: head, size: 6}
  - {id: tail, type: tail}
types:
  head:
    seq:
      - {id: body, size: _io.size - _io.pos - 1}
      - {id: last, type: u1}
  tail:
    seq:
      - {id: name, type: strz, encoding: ASCII}
      - {id: pad, size: (4 - _io.pos) % 4}
      - {id: marked, type: u1, if: here >= 0}
      - {id: extra, type: {switch-on: _io.size - _io.pos, cases: {1: one, 2: two}}}
      - {id: more, type: u1, if: not _io.eof}
    instances:
      here: {value: _io.pos}
  one:
    seq:
      - {id: x, type: u1}
  two:
    seq:
      - {id: x, type: u1}
      - {id: y, type: u1}
"""
STREAMED_HEAD = b"hello!" + b"ab\x00" + b"\x00\x00\x00" + b"\x07"  # 6 + 3 + pad to 12 + marked


@pytest.mark.parametrize("rest", [b"", b"\x08", b"\x08\x09"])
def test_what_the_decoder_decides_by_the_stream_the_encoder_takes_from_the_value(tmp_path, rest):
    _, m = compiled(tmp_path, STREAMED, "streamed")
    data = STREAMED_HEAD + rest
    value = m.decode(data)
    assert (value.head.body, value.tail.pad, value.tail.marked) == (b"hello", b"\0\0\0", 7)
    assert type(value.tail.extra).__name__ == {0: "NoneType", 1: "One", 2: "Two"}[len(rest)]
    assert value.tail.more is None
    assert m.encode(value) == data


def test_a_field_decided_by_the_stream_is_written_as_the_value_has_it_and_read_back(tmp_path):
    schema, m = compiled(tmp_path, STREAMED, "streamed")
    plans = model_of(schema)
    assert [plans.plan(t).decided_by_stream for t in schema.all_types() if t.name in ("head", "tail")] == [
        ["body"], ["pad", "marked", "extra", "more"]]
    assert "`tail.more`" in " ".join(m.encode.__doc__.split())
    value = m.decode(STREAMED_HEAD + b"\x08")
    value.tail.extra = m.Two(x=1, y=2)  # the case is the value's: two bytes left, read as a `two`
    value.head.body = b"hi!!!"
    assert m.encode(value) == STREAMED_HEAD.replace(b"hello", b"hi!!!") + b"\x01\x02"
    value.tail.more = 9  # then three bytes are left: no case, and `extra` would be read as none
    error = refused(m, value)
    assert (error.kind, error.path) == ("invalid_value", "streamed.tail.extra")
    value.tail.more, value.head.body = None, b"too long"  # the head's size, 6, holds it no more
    error = refused(m, value)
    assert (error.kind, error.path) == ("invalid_length", "streamed.head")


PEEKED = """
meta: {id: peeked}
seq:
  - {id: x, type: u1}
instances:
  far:
    pos: 100
    type: u4le
"""


def test_an_instance_no_expression_reads_is_not_decoded_by_the_encoder(tmp_path):
    _, m = compiled(tmp_path, PEEKED, "peeked")
    value = m.decode(b"\x05")
    with pytest.raises(DecodeError):
        value.far  # noqa: B018 - the lazy instance reads past the end
    assert m.encode(m.decode(b"\x05")) == b"\x05"


EOS_TAIL = """
meta: {id: eos_tail}
seq:
  - {id: head, type: u1}
  - {id: body, type: first_byte, size-eos: true}
types:
  first_byte:
    seq:
      - {id: x, type: u1}
"""


def test_a_structure_to_the_end_of_its_stream_is_written_with_what_it_left_unread(tmp_path):
    _, m = compiled(tmp_path, EOS_TAIL, "eos_tail")
    data = bytes.fromhex("01020304")  # bmp's bitmap: a structure that reads none of its pixels
    value = m.decode(data)
    assert value.body.x == 2
    assert m.encode(value) == data
    assert m.encode(m.EosTail(head=1, body=m.FirstByte(x=2))) == data[:2]


SINGLE = """
meta: {id: single, endian: le}
seq:
  - {id: x, type: f4}
  - {id: y, type: f8}
"""


def test_a_signaling_nan_of_four_bytes_comes_back_quiet_and_the_plan_says_so(tmp_path):
    schema, m = compiled(tmp_path, SINGLE, "single")
    data = bytes.fromhex("0100807f") + bytes.fromhex("010000000000f07f")  # signaling NaNs, 4 and 8 bytes
    value = m.decode(data)
    assert m.encode(value) == bytes.fromhex("0100c07f") + data[4:]  # the 8-byte one stays signaling
    assert [r.split(" (")[0] for r in model_of(schema).plan(schema.root).not_canonical] == [
        "a signaling NaN in a 4-byte float"]
    assert "`x`" in model_of(schema).plan(schema.root).not_canonical[0]


BOUNDED = """
meta: {id: bounded}
seq:
  - {id: len_body, type: u1}
  - {id: len_trailer, type: u1, valid: len_body}
  - {id: version, type: u1, valid: {min: '[1, 3][len_body - 4]', max: len_body * 2}}
"""


@pytest.mark.parametrize("data, words, offset, path", [
    ("040500", "5 must be 4", 1, "len_trailer"),
    ("040400", "0 must be at least 1", 2, "version"),
    ("040409", "9 must be at most 8", 2, "version"),
    ("050502", "2 must be at least 3", 2, "version"),
])
def test_a_bound_computed_from_other_fields_is_named_by_its_value(tmp_path, data, words, offset, path):
    """A `valid` bound that reads other fields says its value in the error, not its expression."""
    _, m = compiled(tmp_path, BOUNDED, "bounded")
    with pytest.raises(DecodeError) as caught:
        m.decode(bytes.fromhex(data))
    assert (caught.value.detail, caught.value.offset, caught.value.path) == (words, offset, f"bounded.{path}")
    assert m.decode(b"\x04\x04\x08").version == 8


def test_an_encoder_names_a_computed_bound_by_its_value(tmp_path):
    _, m = compiled(tmp_path, BOUNDED, "bounded")
    with pytest.raises(EncodeError) as caught:
        m.encode(m.Bounded(len_body=4, len_trailer=4, version=9))
    assert "9 must be at most 8" in str(caught.value) and "version" in caught.value.path


SWITCHED = """
meta: {id: switched, endian: be}
doc: A body whose type the version and kind say.
params:
  - {id: version, type: u1, doc: The version.}
seq:
  - {id: kind, type: u1, doc: The body's kind.}
  - id: body
    type: {switch-on: 'version > 1 ? kind : kind + 100', cases: {1: u1, 2: u2}}
    doc: The body.
"""


def test_a_switch_no_case_matches_names_what_it_read(tmp_path):
    """In a format of ours, a switch that no case matches is an error that says the numbers its
    expression read (a response's API key and version), not only that nothing matched."""
    _, m = compiled(tmp_path, SWITCHED, "switched", strict=True)
    assert m.decode(b"\x02\x00\x07", version=2).body == 7
    with pytest.raises(DecodeError) as caught:
        m.decode(b"\x03\x00", version=2)
    assert (caught.value.kind, caught.value.detail, caught.value.offset, caught.value.path) == (
        "invalid_value", "no case matches: version is 2, kind is 3", 1, "switched.body")
    with pytest.raises(EncodeError) as refused:  # the encoder says the same, writing no bytes for it
        m.encode(m.Switched(kind=3, body=7), version=2)
    assert "no case matches: version is 2, kind is 3" in str(refused.value) and refused.value.path == "switched.body"
    _, lenient = compiled(tmp_path / "user", SWITCHED, "switched")
    assert lenient.decode(b"\x03", version=2).body is None  # a user's schema: Kaitai's null
