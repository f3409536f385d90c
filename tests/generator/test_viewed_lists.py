"""The lists a lazy read views (`Model.viewed_lists`, ARCHITECTURE.md "Lists a lazy read views"),
on schemas of this file: which lists the plan views, and what a view gives, against the eager
read (the real formats' vectors are held to it in tests/laws/test_nested_views.py)."""

import pytest

from logcodec import DecodeError, Limits
from logcodec.runtime.lazy import LazyList

from .tiny_schemas import compiled

HEAD = """
meta: {id: catalog, endian: be}
doc: A catalog of items.
"""
ITEM = """
  item:
    doc: One item.
    seq:
      - {id: code, type: u2, doc: Its code.}
      - {id: len_name, type: u1, doc: Its name's length.}
      - {id: name, type: str, size: len_name, encoding: UTF-8, doc: Its name.}
      - {id: num_parts, type: u1, doc: How many parts.}
      - {id: parts, type: u2, repeat: expr, repeat-expr: num_parts, doc: Its parts.}
"""
VIEWED = HEAD + """
seq:
  - {id: num_items, type: u1, doc: How many items.}
  - {id: items, type: item, repeat: expr, repeat-expr: num_items, doc: The items.}
  - {id: trailer, type: u1, doc: After the items.}
types:
""" + ITEM


def catalog(*items: tuple[int, bytes, list[int]], trailer: int = 7) -> bytes:
    out = bytes([len(items)])
    for code, name, parts in items:
        out += code.to_bytes(2, "big") + bytes([len(name)]) + name + bytes([len(parts)])
        out += b"".join(p.to_bytes(2, "big") for p in parts)
    return out + bytes([trailer])


ITEMS = [(1, b"one", [1, 2]), (2, b"two", []), (3, b"three", [3])]


def test_a_counted_list_of_structures_is_a_view_read_when_a_loop_reaches_it(tmp_path):
    _, m = compiled(tmp_path, VIEWED, "catalog", strict=True)
    assert m.VIEWED_LISTS == ("catalog.items",)
    data = catalog(*ITEMS)
    value, eager = m.decode(data), m.decode(data, lazy=False)
    assert isinstance(value.items, LazyList) and not value.items.is_loaded and len(value.items) == 3
    assert value.trailer == 7  # what follows the list is read: its elements were skipped
    assert [(i.code, i.name, i.parts) for i in value.items] == [(c, n.decode(), p) for c, n, p in ITEMS]
    assert not value.items.is_loaded  # a loop keeps none
    assert isinstance(eager.items, list) and value == eager and m.encode(value) == data
    tupled = m.decode(data, tuples=True)
    assert list(tupled.items) == m.decode(data, tuples=True, lazy=False).items


def test_a_bad_element_is_refused_by_the_call_as_the_eager_read_refuses_it(tmp_path):
    _, m = compiled(tmp_path, VIEWED, "catalog", strict=True)
    data = bytearray(catalog(*ITEMS))
    data[data.index(b"two")] = 0xFF  # not UTF-8: the skip checks what the decoder checks
    errors = []
    for lazy in (False, True):
        with pytest.raises(DecodeError) as caught:
            m.decode(bytes(data), lazy=lazy)
        errors.append((caught.value.kind, caught.value.offset, caught.value.path))
    assert errors[0] == errors[1] == ("invalid_value", data.index(0xFF), "catalog.items[1].name")
    with pytest.raises(DecodeError) as cut:
        m.decode(catalog(*ITEMS)[:-3])  # the last item cut short: the skip meets it
    assert cut.value.kind == "truncated" and cut.value.path.startswith("catalog.items[2]")


def test_the_element_budget_is_met_by_the_loop_named_as_the_eager_read_names_it(tmp_path):
    _, m = compiled(tmp_path, VIEWED, "catalog", strict=True)
    data, limits = catalog(*ITEMS), Limits(max_elements=5)  # 3 items, then 2 parts: the third part is one too many
    with pytest.raises(DecodeError) as eager:
        m.decode(data, limits=limits, lazy=False)
    value = m.decode(data, limits=limits)  # a skip spends none
    with pytest.raises(DecodeError) as lazy:
        list(value.items)
    assert (lazy.value.kind, lazy.value.offset, lazy.value.path) == (
        eager.value.kind, eager.value.offset, eager.value.path) == ("limit_exceeded", 28, "catalog.items[2].parts")


@pytest.mark.parametrize("seq, why", [
    ("""
  - {id: num_items, type: u1, doc: How many items.}
  - {id: items, type: item, repeat: expr, repeat-expr: num_items, doc: The items.}
  - {id: total, type: u1, valid: {eq: items.size}, doc: Their count again.}
""", "an expression reads the list"),
    ("""
  - {id: items, type: item, repeat: until, repeat-until: _.code == 0, doc: The items.}
""", "its loop reads its elements"),
    ("""
  - {id: num_items, type: u1, doc: How many items.}
  - {id: items, type: 'tagged(_index)', repeat: expr, repeat-expr: num_items, doc: The items.}
""", "each element takes its index"),
    ("""
  - {id: num_items, type: u1, doc: How many items.}
  - {id: items, type: 'maybe(num_items)', repeat: expr, repeat-expr: num_items, doc: The items.}
""", "an element may take no byte: a skip, which spends no budget, would not be bounded by the bytes"),
])
def test_the_plan_reads_whole_the_lists_a_skip_cannot_pass(tmp_path, seq, why):
    extra = """
  tagged:
    doc: An item that knows its place.
    params:
      - {id: place, type: u1, doc: Its index.}
    seq:
      - {id: code, type: u2, doc: Its code.}
  maybe:
    doc: An item that may be nothing.
    params:
      - {id: flag, type: u1, doc: Whether it has a code.}
    seq:
      - {id: code, type: u2, if: flag == 1, doc: Its code.}
"""
    schema = HEAD + "seq:" + seq + "  - {id: trailer_flag, type: u1, doc: A flag.}\ntypes:\n" + ITEM + extra
    _, m = compiled(tmp_path, schema, "catalog", strict=True)
    assert m.VIEWED_LISTS == (), why


STAMPED = HEAD + """
seq:
  - {id: num_items, type: u1, doc: How many items.}
  - {id: items, type: stamped, repeat: expr, repeat-expr: num_items, doc: The items.}
types:
  stamped:
    doc: An item whose fields but its magic and its length no read of the catalog needs.
    seq:
      - {id: magic, contents: [0x49, 0x54], doc: Its magic.}
      - {id: code, type: u2, doc: Its code.}
      - {id: stamp, type: s8le, doc: When it was made.}
      - {id: len_note, type: u1, doc: Its note's length.}
      - {id: note, size: len_note, doc: Its note.}
"""


def stamped(*items: tuple[int, int, bytes]) -> bytes:
    return bytes([len(items)]) + b"".join(
        b"IT" + code.to_bytes(2, "big") + stamp.to_bytes(8, "little", signed=True) + bytes([len(note)]) + note
        for code, stamp, note in items)


def test_a_skip_passes_over_what_nothing_reads_and_checks_the_rest_as_the_eager_read(tmp_path):
    _, m = compiled(tmp_path, STAMPED, "catalog", strict=True)
    made = m._s_stamped.__code__.co_varnames
    assert "v_code" not in made and "v_note" not in made and "v_len_note" in made  # passed by their size
    items = [(1, -5, b"ab" * 20), (65535, 2**62, b""), (7, 0, b"xyz")]  # long enough that a cut in the last passes the count check
    data = stamped(*items)
    value = m.decode(data)
    assert [(i.code, i.stamp, i.note) for i in value.items] == items and value == m.decode(data, lazy=False)
    bad_magic = data.replace(b"IT", b"IX", 2).replace(b"IX", b"IT", 1)  # the second item's
    cut = data[:-13]  # inside the last item's code, which the skip passes over by its size
    for wrong in (bad_magic, cut):
        errors = []
        for lazy in (False, True):
            with pytest.raises(DecodeError) as caught:
                m.decode(wrong, lazy=lazy)
            errors.append((caught.value.kind, caught.value.offset, caught.value.path))
        assert errors[0] == errors[1], errors
    assert errors[0][0] == "truncated" and errors[0][2] == "catalog.items[2].code"
