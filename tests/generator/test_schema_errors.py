"""Schema errors name the file and the YAML path; expressions parse as Kaitai's grammar says."""

import pytest

from logcodec.generator import expr as E
from logcodec.generator.build import generate
from logcodec.generator.python import ModuleEmitter
from logcodec.generator.problems import SchemaError
from logcodec.generator.reading import Loader

GOOD = """
meta: {id: thing, endian: be}
doc: A thing.
seq:
  - id: len_data
    type: u2
    doc: Length.
  - id: data
    size: len_data
    doc: Data.
"""


def load(tmp_path, text: str):
    (tmp_path / "fam").mkdir(exist_ok=True)
    (tmp_path / "fam" / "thing.ksy").write_text(text)
    return Loader(tmp_path).load("fam/thing.ksy")


def test_a_good_schema_loads(tmp_path):
    assert load(tmp_path, GOOD).root.seq[1].id == "data"


@pytest.mark.parametrize("change,place,where,what", [
    (("    doc: Data.\n", "    doc: Data.\n    sizee: 3\n"), "11:5", "seq[1].sizee", "unknown key"),
    (("size: len_data", "size: len_dta"), "9:5", "seq[1].size", "len_dta"),
    (("size: len_data", "size: len_data +"), "9:5", "seq[1].size", "bad expression"),
    (("    doc: Length.\n", ""), "5:5", "seq[0].doc", "needs a `doc`"),  # placed at its field: it has none
    (("type: u2", "type: nothing_here"), "6:5", "seq[0].type", "unknown type"),
    (("id: data", "id: Data"), "8:5", "seq[1].id", "lower_snake"),
    (("id: data", "id: len_data"), "8:5", "seq[1].id", "duplicate id"),
])
def test_errors_name_file_line_column_and_yaml_path(tmp_path, change, place, where, what):
    with pytest.raises(SchemaError) as info:
        load(tmp_path, GOOD.replace(*change))
    message = str(info.value)
    assert message.startswith(f"fam/thing.ksy:{place}: {where}: ") and what in message and "\n" not in message


def test_yaml_syntax_errors_name_the_file(tmp_path):
    with pytest.raises(SchemaError, match=r"^fam/thing.ksy:\d+:\d+: not valid YAML: [^\n]*$"):
        load(tmp_path, GOOD + "  - : [")


def test_a_size_of_range_must_name_fields(tmp_path):
    text = GOOD.replace("    doc: Length.\n", "    doc: Length.\n    -lc-size-of: {from: nope}\n")
    with pytest.raises(SchemaError, match=r"seq\[0\]\.-lc-size-of: no field 'nope'"):
        load(tmp_path, text)


def test_bits_left_in_a_byte_are_skipped_before_a_byte_aligned_field(tmp_path):
    # Kaitai aligns to the next byte; the module renders (test_bits checks the values).
    text = GOOD.replace("type: u2", "type: b3")
    assert "_d_" in ModuleEmitter(load(tmp_path, text)).render()


@pytest.mark.parametrize("text,tree", [
    ("a + b * 2", E.Binary("+", E.Name("a"), E.Binary("*", E.Name("b"), E.Num(2)))),
    ("(a + b) * 2", E.Binary("*", E.Binary("+", E.Name("a"), E.Name("b")), E.Num(2))),
    ("a < 1 ? x.size : -1", E.Ternary(E.Binary("<", E.Name("a"), E.Num(1)), E.Attr(E.Name("x"), "size"),
                                      E.Unary("-", E.Num(1)))),
    ("not _.has_next", E.Unary("not", E.Attr(E.Name("_"), "has_next"))),
    ("a and b or c", E.Binary("or", E.Binary("and", E.Name("a"), E.Name("b")), E.Name("c"))),
    ("codec::gzip", E.EnumLit("codec", "gzip")),
    ("groups[_index - 1].value", E.Attr(E.Index(E.Name("groups"), E.Binary("-", E.Name("_index"), E.Num(1))), "value")),
    ("(x >> 1).as<s8>", E.Cast(E.Binary(">>", E.Name("x"), E.Num(1)), "s8")),
    ("0x7f & 0b101", E.Binary("&", E.Num(127), E.Num(5))),
    ("1_000", E.Num(1000)),
])
def test_expressions_parse_with_kaitai_precedence(text, tree):
    assert E.parse(text) == tree


@pytest.mark.parametrize("bad", ["a +", "(a", "a ? b", "a $ b", "x.as<u8"])
def test_malformed_expressions_are_errors(bad):
    with pytest.raises(E.ExprError):
        E.parse(bad)


def test_generated_tree_is_current():
    """`logcodec generate --check` as CI runs it: generated/ is exactly what the schemas give."""
    assert generate(check=True) == []


from hypothesis import given, settings, strategies as st  # noqa: E402


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="ab_01x().[]<>?:+-*/%&|^~!=, 'not", max_size=30))
def test_the_expression_parser_fails_only_with_its_error(text):
    try:
        E.parse(text)
    except E.ExprError:
        pass


LIST_OF_LISTS = GOOD + """
  - id: groups
    type: group
    repeat: expr
    repeat-expr: 2
    doc: Groups.
types:
  group:
    doc: A group, shown as its list of items.
    -lc-unwrap: true
    seq:
      - id: items
        type: u1
        repeat: expr
        repeat-expr: 2
        doc: Items.
"""


def test_a_list_of_unwrapped_lists_is_refused(tmp_path):
    with pytest.raises(SchemaError, match=r"seq\[2\]\.repeat: a list of group, an unwrapped list"):
        load(tmp_path, LIST_OF_LISTS)
    assert load(tmp_path, LIST_OF_LISTS.replace("    -lc-unwrap: true\n", "")).root.seq[2].id == "groups"


def test_only_io_pos_is_supported_and_only_the_imported_schemas_types_resolve(tmp_path):
    peek = GOOD + """instances:
  peek:
    pos: _io.size - 1
    type: u1
    doc: The last byte.
"""
    with pytest.raises(SchemaError, match=r"`_io.size` is not supported"):
        ModuleEmitter(load(tmp_path, peek)).render()
    source = ModuleEmitter(load(tmp_path, peek.replace("_io.size - 1", "_io.pos + 1"))).render()
    assert "pos = start + ((pos - start) + 1)" in source  # a peek one byte ahead of where decoding is
    (tmp_path / "fam" / "other.ksy").write_text(GOOD.replace("id: thing", "id: other"))
    imports = GOOD.replace("meta: {id: thing, endian: be}", "meta: {id: thing, endian: be, imports: [other]}")
    with pytest.raises(SchemaError, match=r"unknown type 'other::nope'"):
        load(tmp_path, imports.replace("type: u2", "type: other::nope"))


@pytest.mark.parametrize("text,tree", [
    # Kaitai's grammar is Python's: comparisons bind looser than bitwise operators, `not` takes
    # a whole comparison (C's order would read `a & (1 == 1)` and `(not a) == b`).
    ("a & 1 == 1", E.Binary("==", E.Binary("&", E.Name("a"), E.Num(1)), E.Num(1))),
    ("not a == b", E.Unary("not", E.Binary("==", E.Name("a"), E.Name("b")))),
    ("a | b ^ c & d", E.Binary("|", E.Name("a"), E.Binary("^", E.Name("b"), E.Binary("&", E.Name("c"), E.Name("d"))))),
    ("x < 0.5", E.Binary("<", E.Name("x"), E.Num(0.5))),
])
def test_operators_bind_as_in_kaitai(text, tree):
    assert E.parse(text) == tree


def test_string_literals_keep_their_characters_and_read_escapes():
    assert E.parse('"こんにちは\\n"') == E.Str("こんにちは\n")
    assert E.parse("'a\\x41'") == E.Str("a\\x41")  # single quotes: no escapes, as in Kaitai
