"""Input the official compiler's parsers refuse, refused by ours too (issue 37's differential
campaign): each case a tiny schema and bytes by hand, our decoder's answer compared with the
official parser's on the same bytes."""

from __future__ import annotations

import pytest

import logcodec

from .tiny_schemas import compiled, needs_official, official, official_error


SIZED_MAGIC = """
meta: {id: sized_magic}
seq:
  - {id: magic, size: 2, contents: "MZ"}
  - {id: rest, type: u1}
"""


@needs_official
def test_contents_with_a_size_is_checked(tmp_path):
    schema, m = compiled(tmp_path, SIZED_MAGIC, "sized_magic")
    assert official_error(tmp_path, schema, b"MZ\x07") is None
    assert (m.decode(b"MZ\x07").magic, m.decode(b"MZ\x07").rest) == (b"MZ", 7)
    assert official_error(tmp_path, schema, b"\x00\x00\x07") == "ValidationNotEqualError"
    with pytest.raises(logcodec.DecodeError) as info:
        m.decode(b"\x00\x00\x07")
    assert (info.value.kind, info.value.offset, info.value.path) == ("invalid_value", 0, "sized_magic.magic")


STRZ_OWN_TERMINATOR = """
meta: {id: strz_own_terminator}
seq:
  - {id: line, type: strz, encoding: UTF-8, terminator: 0x0a}
"""


@needs_official
def test_strz_with_its_own_terminator_ends_there_only(tmp_path):
    schema, m = compiled(tmp_path, STRZ_OWN_TERMINATOR, "strz_own_terminator")
    assert official_error(tmp_path, schema, b"A\x00\n") is None
    assert m.decode(b"A\x00\n").line == "A\x00"  # a NUL is text here, as the official reads it
    assert official_error(tmp_path, schema, b"A\x00B") == "NoTerminatorFoundError"
    with pytest.raises(logcodec.DecodeError) as info:
        m.decode(b"A\x00B")
    assert (info.value.kind, info.value.offset, info.value.path) == ("truncated", 0, "strz_own_terminator.line")


# Kaitai's gallery works around plain bytes having no `_io` with a type of one field, imported
# (pcf_font's strings): a type of the importer reads from that value's stream.
BYTES_WITH_IO = """
meta: {id: bytes_with_io}
seq:
  - {id: data, size-eos: true}
"""

IO_OF_IMPORTED = """
meta: {id: io_of_imported, imports: [common/bytes_with_io]}
seq:
  - {id: strings, size: 4, type: bytes_with_io}
  - {id: prop, type: prop}
types:
  prop:
    seq:
      - {id: ofs, type: u1}
    instances:
      name: {io: _parent.strings._io, pos: ofs, type: strz, encoding: ASCII}
"""


@needs_official
def test_an_instance_reads_from_the_stream_of_an_imported_types_value(tmp_path):
    (tmp_path / "common").mkdir()
    (tmp_path / "common" / "bytes_with_io.ksy").write_text(BYTES_WITH_IO)
    schema, m = compiled(tmp_path, IO_OF_IMPORTED, "io_of_imported")
    data = b"AB\x00C\x01"
    theirs = official(tmp_path, schema, data, read=lambda o: o.prop.name)
    value = m.decode(data)
    assert value.prop.name == theirs == "B"
    assert m.encode(value) == data


# The encoder given a size far past its value (mozilla_mar's `len_block`, a u4): it refuses
# before it builds the padding, naming the field, where it built gigabytes of zeros.
PADDED = """
meta: {id: padded, endian: be}
seq:
  - {id: len_block, type: u4}
  - {id: block, size: len_block, type: block}
  - {id: len_name, type: u4}
  - {id: name, size: len_name, type: strz, encoding: ASCII}
types:
  block:
    seq:
      - {id: tag, type: u1}
"""


@needs_official
@pytest.mark.parametrize("field,kind", [("len_block", "invalid_length"), ("len_name", "limit_exceeded")])
def test_a_size_far_past_its_value_is_refused_before_padding(tmp_path, field, kind):
    schema, m = compiled(tmp_path, PADDED, "padded")
    data = bytes.fromhex("00000003" "07" "0000" "00000004" "41" "000000")
    assert official(tmp_path, schema, data, read=lambda o: (o.block.tag, o.name)) == (7, "A")
    value = m.decode(data)
    assert (value.block.tag, value.name) == (7, "A") and m.encode(value) == data  # padding that fits: written
    setattr(value, field, 0xFFFF_FFFE)
    with pytest.raises(logcodec.EncodeError) as info:
        m.encode(value)
    assert (info.value.kind, info.value.path) == (kind, f"padded.{field.removeprefix('len_')}")
