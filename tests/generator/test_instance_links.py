"""Instances and the links between Kaitai's objects, each against the official compiler's parser
on the same bytes: a value instance that names a structure holds it without adopting it (a
structure that names itself is no cycle to walk without end); a list literal cast to bytes
(`[a + 0x40, b].as<bytes>`) is those bytes.
"""

from __future__ import annotations

import dataclasses
import gc

import pytest

from logcodec.runtime.errors import DecodeError

from .tiny_schemas import compiled, needs_official, official

# java_class's shape: an item's instance names an item of the root's list, here itself.
SELF_REF = """
meta: {id: self_ref}
seq:
  - {id: items, type: item, repeat: expr, repeat-expr: 1}
types:
  item:
    seq:
      - {id: idx, type: u1}
    instances:
      target:
        value: _root.items[idx]
"""


@needs_official
def test_an_instance_naming_its_own_structure_is_that_structure_with_its_links(tmp_path):
    schema, m = compiled(tmp_path, SELF_REF, "self_ref")
    value = m.decode(b"\x00")
    item = value.items[0]
    assert item.target is item  # returns (it hung, walking the cycle to link it)
    assert (item._parent, item._root) == (None, None)  # no expression reads a link off a value: none kept
    theirs = official(tmp_path, schema, b"\x00", read=lambda o: (
        o.items[0].target is o.items[0], o.items[0]._parent is o, o.items[0].target.target.idx))
    assert theirs == (True, True, item.target.target.idx)


# edid's `mfg_str`: integers computed from fields, cast to bytes, then read as text.
ARRAY_AS_BYTES = """
meta: {id: array_as_bytes}
seq:
  - {id: a, type: u1}
  - {id: b, type: u1}
instances:
  name:
    value: '[a + 0x40, b + 0x40, 0x43].as<bytes>.to_s("ASCII")'
  raw:
    value: '[a, 0x41].as<bytes>'
"""


@needs_official
@pytest.mark.parametrize("data", ["0102", "0000", "1a05"])
def test_a_list_of_integers_cast_to_bytes_is_those_bytes(tmp_path, data):
    schema, m = compiled(tmp_path, ARRAY_AS_BYTES, "array_as_bytes")
    value = m.decode(bytes.fromhex(data))
    theirs = official(tmp_path, schema, bytes.fromhex(data), read=lambda o: (o.name, o.raw))
    assert (value.name, value.raw) == theirs


@needs_official
def test_an_integer_past_a_byte_in_a_list_cast_to_bytes_is_refused_as_kaitai_refuses_it(tmp_path):
    import struct

    schema, m = compiled(tmp_path, ARRAY_AS_BYTES, "array_as_bytes")
    with pytest.raises(struct.error):
        official(tmp_path, schema, b"\xff\x00", read=lambda o: o.name)
    with pytest.raises(DecodeError) as caught:
        m.decode(b"\xff\x00").name
    assert caught.value.kind == "invalid_value" and caught.value.offset is not None


# lvm2's `_root.sector_size`: a child reads a value instance of the root while the root is read.
ROOT_INSTANCE = """
meta: {id: root_instance}
seq:
  - {id: len_data, type: u1}
  - {id: child, type: child}
instances:
  three:
    value: len_data + 1
types:
  child:
    seq:
      - {id: data, size: _root.three}
"""


@needs_official
@pytest.mark.parametrize("data", ["02616263", "00aa"])
def test_a_value_instance_of_the_root_is_computed_when_a_child_reads_it(tmp_path, data):
    schema, m = compiled(tmp_path, ROOT_INSTANCE, "root_instance")
    value = m.decode(bytes.fromhex(data))
    theirs = official(tmp_path, schema, bytes.fromhex(data), read=lambda o: (o.child.data, o.three))
    assert (value.child.data, value.three) == theirs


@needs_official
def test_a_value_instance_of_the_root_past_the_input_is_refused_with_an_offset(tmp_path):
    schema, m = compiled(tmp_path, ROOT_INSTANCE, "root_instance")
    with pytest.raises(EOFError):
        official(tmp_path, schema, b"\x05ab", read=lambda o: o.child.data)
    with pytest.raises(DecodeError) as caught:
        m.decode(b"\x05ab")
    assert (caught.value.kind, caught.value.offset) == ("truncated", 1)
    assert caught.value.path.endswith("child.data")


# id3v2_4's padding: a grandchild reads the root's field that is still being read.
FIELD_BEING_READ = """
meta: {id: field_being_read}
seq:
  - {id: tag, type: tag}
types:
  tag:
    seq:
      - {id: len_body, type: u1}
      - {id: body, type: body}
  body:
    seq:
      - {id: data, size: _root.tag.len_body}
"""


@needs_official
def test_a_field_read_before_it_is_set_is_refused_with_an_offset(tmp_path):
    schema, m = compiled(tmp_path, FIELD_BEING_READ, "field_being_read")
    with pytest.raises(AttributeError):  # Kaitai sets `tag` once it is read
        official(tmp_path, schema, b"\x01a", read=lambda o: o.tag.body.data)
    with pytest.raises(DecodeError) as caught:
        m.decode(b"\x01a")
    assert (caught.value.kind, caught.value.offset) == ("invalid_value", 0)


@needs_official
def test_bytes_that_are_not_their_encoding_are_refused_with_an_offset(tmp_path):
    schema, m = compiled(tmp_path, ARRAY_AS_BYTES, "array_as_bytes")
    with pytest.raises(UnicodeDecodeError):  # 0x7f + 0x40 is no ASCII
        official(tmp_path, schema, b"\x7f\x00", read=lambda o: o.name)
    with pytest.raises(DecodeError) as caught:
        m.decode(b"\x7f\x00").name
    assert (caught.value.kind, caught.value.offset) == ("invalid_value", 2)


# Decoders make each value first and read its fields into it: its children get it as their parent.
PARENT_READ = """
meta: {id: parent_read}
seq:
  - {id: a, type: u1}
  - {id: b, type: u1, if: a > 1}
  - {id: child, type: child}
instances:
  twice:
    value: a * 2
types:
  child:
    seq:
      - {id: c, size: _parent.a}
"""


def test_a_decoded_value_has_every_field_set_and_no_link_no_expression_reads(tmp_path):
    # `_parent.a` is read while the child is read, from the decoder's own parent: kept on the
    # values, the links would make each structure a cycle that only the cyclic collector frees.
    _, m = compiled(tmp_path, PARENT_READ, "parent_read")
    value = m.decode(b"\x01\xaa")  # `b` absent: None
    assert (value.a, value.b, value.child.c, value.twice) == (1, None, b"\xaa", 2)
    assert (value._parent, value._root, value.child._parent, value.child._root) == (None, None, None, None)
    gc.collect()
    collecting = gc.isenabled()
    gc.disable()
    try:
        value = m.decode(b"\x01\xaa")
        assert value.twice == 2  # its lazy instance computed too
        del value
        assert gc.collect() == 0  # freed as its last reference went: no cycle among its objects
    finally:
        if collecting:
            gc.enable()


# A lazy instance reads a link off a value: the values keep Kaitai's links.
LINK_READ = """
meta: {id: link_read}
seq:
  - {id: a, type: u1}
  - {id: child, type: child}
types:
  child:
    seq:
      - {id: grandchild, type: grandchild}
  grandchild:
    instances:
      top_a:
        value: _parent._parent.a
"""


@needs_official
def test_where_an_expression_reads_a_link_off_a_value_the_values_keep_kaitais_links(tmp_path):
    schema, m = compiled(tmp_path, LINK_READ, "link_read")
    value = m.decode(b"\x07")
    grandchild = value.child.grandchild
    assert (value._parent, value._root) == (None, value)
    assert (value.child._parent, value.child._root, grandchild._parent, grandchild._root) == (
        value, value, value.child, value)
    assert grandchild.top_a == official(tmp_path, schema, b"\x07", read=lambda o: o.child.grandchild.top_a) == 7


def test_a_value_built_by_hand_has_no_instances_nor_links(tmp_path):
    _, m = compiled(tmp_path, PARENT_READ, "parent_read")
    value = m.ParentRead(a=3, b=4)
    assert (value.twice, value._parent, value._root, value.child.c) == (None, None, None, b"")
    with pytest.raises(AttributeError):
        _ = value.no_such_field


# A value keeps its stream (`_io`) where an expression reads it: the root's for `_root._io`, the
# one holder's for `_parent._io`; a value whose stream nothing reads does not (it costs).
STREAMS_READ = """
meta: {id: streams_read}
seq:
  - {id: ofs, type: u1}
  - {id: entry, type: entry}
types:
  entry:
    seq:
      - {id: len, type: u1}
      - {id: body, type: body}
    instances:
      at_root:
        io: _root._io
        pos: _root.ofs
        size: len
  body:
    instances:
      in_parent:
        io: _parent._io
        pos: 0
        type: u1
"""


def test_the_streams_read_through_root_and_parent_are_kept_and_no_other(tmp_path):
    _, m = compiled(tmp_path, STREAMS_READ, "streams_read")
    value = m.decode(b"\x02\x02\xaa\xbb")
    assert (value.entry.at_root, value.entry.body.in_parent) == (b"\xaa\xbb", 2)
    kept = {cls.__name__ for cls in (m.StreamsRead, m.Entry, m.Body)
            if "_io" in {f.name for f in dataclasses.fields(cls)}}
    assert kept == {"StreamsRead", "Entry"}
