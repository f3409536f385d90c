"""`sizeof<type>` and `_sizeof` as Kaitai's compiler computes them (`CalculateSeqSizes`): a size
fixes a field whatever ends its value inside (`strz` of `size: 12`), and a conditional field
counts as if it were there (android_bootldr_huawei's header, broadcom_trx's tail). A size that
depends on the data is refused, as the official compiler refuses it.
"""

from __future__ import annotations

import pytest

from logcodec.generator.problems import SchemaError

from .tiny_schemas import compiled, needs_official, official

HEADER = """
meta: {id: header_sizes, endian: le}
seq:
  - {id: head, type: head}
  - {id: ext, size: head.len_head - head._sizeof}
  - {id: after, size: 2}
instances:
  tail:
    pos: _io.size - sizeof<tail>
    type: tail
types:
  head:
    seq:
      - {id: magic, contents: [0x3c, 0xd6]}
      - {id: name, type: strz, size: 6, encoding: ASCII}
      - {id: has_extra, type: u1}
      - {id: extra, type: u2, if: has_extra != 0}
      - {id: len_head, type: u1}
  tail:
    seq:
      - {id: product, type: strz, size: 3, encoding: ASCII}
      - {id: kind, type: u1, enum: kinds}
enums:
  kinds: {1: one, 2: two}
"""

DYNAMIC = """
meta: {id: dynamic_size}
seq:
  - {id: body, type: body}
  - {id: rest, size: body._sizeof}
types:
  body:
    seq:
      - {id: n, type: u1}
      - {id: data, size: n}
"""

# The head is 2 + 6 + 1 + 2 + 1 = 12 bytes to Kaitai, `extra` there or not: with it, `ext` is
# len_head - 12 bytes; without it (2 bytes fewer read), the same.
@needs_official
@pytest.mark.parametrize("data", [
    "3cd6" "6162630000ff" "01" "3412" "0e" "eeee" "aaaa" "787900" "02",
    "3cd6" "616263646566" "00" "0e" "eeeeeeee" "aaaa" "787900" "01",
])
def test_sizeof_of_a_type_with_a_sized_strz_and_a_conditional_field_is_kaitais(tmp_path, data):
    schema, m = compiled(tmp_path, HEADER, "header_sizes")
    data = bytes.fromhex(data)
    value, theirs = m.decode(data), official(tmp_path, schema, data)
    assert (value.ext, value.after) == (theirs.ext, theirs.after)
    assert value.head.name == theirs.head.name and value.head.extra == getattr(theirs.head, "extra", None)
    assert (value.tail.product, value.tail.kind.value) == (theirs.tail.product, theirs.tail.kind.value)


def test_sizeof_of_a_type_whose_size_depends_on_the_data_is_refused(tmp_path):
    with pytest.raises(SchemaError, match="depends on the data"):
        compiled(tmp_path, DYNAMIC, "dynamic_size")


# mcap's `ofs_footer`: the footer's place is computed from the sizes of the footer's own fields,
# which Kaitai knows when it compiles; reading them does not read the footer (here, a footer
# whose place is the value being computed: reading it would need the value first).
FOOTER_FIRST = """
meta: {id: footer_first, endian: le}
seq:
  - {id: body, size-eos: true}
instances:
  footer:
    pos: ofs_footer
    type: footer
  ofs_footer:
    value: _io.size - footer.op._sizeof - footer.len_body._sizeof
types:
  footer:
    seq:
      - {id: op, type: u1}
      - {id: len_body, type: u4}
"""


@needs_official
def test_sizeof_of_a_path_is_known_without_reading_what_the_path_names(tmp_path):
    schema, m = compiled(tmp_path, FOOTER_FIRST, "footer_first")
    data = bytes.fromhex("aabbcc" "02" "07000000")
    value = m.decode(data)
    theirs = official(tmp_path, schema, data, read=lambda o: (o.ofs_footer, o.footer.op, o.footer.len_body))
    assert (value.ofs_footer, value.footer.op, value.footer.len_body) == theirs == (3, 2, 7)
