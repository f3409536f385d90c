"""Lengths and counts of a user's schema read as the official compiler's parsers read them (the
gallery's differential campaign): a positional instance past the end of its stream that reads
nothing, a sized switch whose case is a number, a list of a switch that no case matches, and a
negative count. Each schema is tiny, its bytes written by hand, and our value is compared with
the official parser's on the same bytes.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from logcodec.runtime.errors import DecodeError

from .tiny_schemas import compiled, needs_official, official

POS_PAST_END = """
meta: {id: pos_past_end}
seq:
  - {id: ofs, type: u1}
  - {id: len, type: u1}
instances:
  body: {pos: ofs, size: len}
"""

SIZED_SWITCH_INT = """
meta: {id: sized_switch_int, endian: le}
seq:
  - {id: kind, type: u1}
  - {id: len, type: u1}
  - id: value
    size: len
    type:
      switch-on: kind
      cases:
        1: u2
        2: item
  - {id: tail, type: u1}
types:
  item:
    seq:
      - {id: x, type: u1}
"""

SWITCH_LIST = """
meta: {id: switch_list, endian: le}
seq:
  - {id: kind, type: u1}
  - {id: n, type: u1}
  - id: items
    type:
      switch-on: kind
      cases:
        1: item
    repeat: expr
    repeat-expr: n
types:
  item:
    seq:
      - {id: x, type: u1}
"""

NEG_COUNT = """
meta: {id: neg_count}
seq:
  - {id: count, type: u1}
  - id: items
    type: u1
    repeat: expr
    repeat-expr: count - 1
"""


def both(tmp_path: Path, text: str, name: str, data: bytes):
    """Our decoder's value of `data` and the official parser's object of it."""
    schema, m = compiled(tmp_path, text, name)
    return m.decode(data), official(tmp_path, schema, data)


@needs_official
@pytest.mark.parametrize("data", ["1000", "0300", "0200"])
def test_a_positional_instance_at_or_past_the_end_that_reads_nothing_is_empty(tmp_path, data):
    ours, theirs = both(tmp_path, POS_PAST_END, "pos_past_end", bytes.fromhex(data))
    assert ours.body == theirs.body == b""


@needs_official
def test_a_positional_instance_past_the_end_that_reads_bytes_is_an_error_in_both(tmp_path):
    ours, theirs = both(tmp_path, POS_PAST_END, "pos_past_end", bytes.fromhex("1001"))
    with pytest.raises(DecodeError) as err:
        ours.body
    assert err.value.kind == "truncated"
    with pytest.raises(EOFError):
        theirs.body


@needs_official
def test_a_number_case_of_a_sized_switch_ignores_the_size(tmp_path):
    ours, theirs = both(tmp_path, SIZED_SWITCH_INT, "sized_switch_int", bytes.fromhex("0105aabbccddeeff"))
    assert (ours.value, ours.tail) == (theirs.value, theirs.tail) == (0xbbaa, 0xcc)


@pytest.mark.parametrize("data, value, tail", [
    ("0203aabbccdd", None, 0xdd),  # a structure case: read in its size, the rest left
    ("0902aabbcc", b"\xaa\xbb", 0xcc),  # no case: the size's bytes
])
@needs_official
def test_the_other_cases_of_a_sized_switch_of_numbers_read_the_size(tmp_path, data, value, tail):
    ours, theirs = both(tmp_path, SIZED_SWITCH_INT, "sized_switch_int", bytes.fromhex(data))
    if value is None:
        assert ours.value.x == theirs.value.x == 0xaa
    else:
        assert ours.value == theirs.value == value
    assert ours.tail == theirs.tail == tail


@needs_official
@pytest.mark.parametrize("data", ["0203", "0102aabb"])
def test_a_list_of_a_switch_holds_only_the_elements_a_case_matched(tmp_path, data):
    ours, theirs = both(tmp_path, SWITCH_LIST, "switch_list", bytes.fromhex(data))
    assert [e.x for e in ours.items] == [e.x for e in theirs.items]
    assert len(theirs.items) == (0 if data.startswith("02") else 2)


@needs_official
@pytest.mark.parametrize("data", ["00", "01", "03aabb"])
def test_a_negative_count_is_an_empty_list(tmp_path, data):
    ours, theirs = both(tmp_path, NEG_COUNT, "neg_count", bytes.fromhex(data))
    assert list(ours.items) == list(theirs.items)
    assert len(ours.items) == max(bytes.fromhex(data)[0] - 1, 0)


@pytest.mark.parametrize("data", ["0105aabbcc", "0102aabbcc", "0203aabbccdd", "0902aabbcc"])
def test_a_sized_switch_of_numbers_is_written_back_as_it_was_read(tmp_path, data):
    _, m = compiled(tmp_path, SIZED_SWITCH_INT, "sized_switch_int")
    assert m.encode(m.decode(bytes.fromhex(data))).hex() == data
