"""Schema errors name the file and the YAML path; expressions parse as Kaitai's grammar says."""

from pathlib import Path

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


# ---------------------------------------------------------------- law 7, as the schema campaign found it
# (`python -m fuzz schemas`): each case a mutant of a schema that once got a traceback or a poor message.

USER = """meta:
  id: user
  endian: le
seq:
  - id: kind
    type: u1
    enum: msg_type
  - id: hdr
    type: header
  - id: body
    size: hdr.length
    if: kind == msg_type::dat
types:
  header:
    seq:
      - id: length
        type: u2
enums:
  msg_type:
    1: dat
    2: ack
"""


def compile_lines(tmp_path, monkeypatch, text, name: str = "user.ksy") -> list[str]:
    """The problems `logcodec compile` reports for a schema given as `src/<name>` (relative, from
    its working directory), a line each."""
    from logcodec.generator.compile import load as compile_load

    (tmp_path / "src").mkdir(exist_ok=True)
    (tmp_path / "src" / name).write_bytes(text.encode() if isinstance(text, str) else text)
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SchemaError) as info:
        compile_load([Path("src") / name], "pk")
    return info.value.lines


@pytest.mark.parametrize("change,line", [
    (("msg_type::dat", "msg_type::dta"),
     "src/user.ksy:12:5: seq[2].if: enum msg_type has no member 'dta' (did you mean 'dat'?)"),
    (("msg_type::dat", "msg_typ::dat"), "src/user.ksy:12:5: seq[2].if: unknown enum 'msg_typ' (did you mean 'msg_type'?)"),
    (("hdr.length", "hdr.lenght"),
     "src/user.ksy:11:5: seq[2].size: header has no field, instance or param 'lenght' (did you mean 'length'?)"),
    (("size: hdr.length", "size: hdr_.length"),
     "src/user.ksy:11:5: seq[2].size: expression reads 'hdr_', which is not a field before it, a param or an "
     "instance (did you mean 'hdr'?)"),
    (("type: header", "type: haeder"), "src/user.ksy:9:5: seq[1].type: unknown type 'haeder' (did you mean 'header'?)"),
    (("enum: msg_type", "enum: msg_tpye"), "src/user.ksy:7:5: seq[0].enum: unknown enum 'msg_tpye' (did you mean "
                                           "'msg_type'?)"),
    (("    if:", "    iff:"), "src/user.ksy:12:5: seq[2].iff: unknown key (not in the Kaitai subset logcodec implements) "
                              "(did you mean 'if'?)"),
])
def test_a_wrong_name_is_placed_and_the_closest_one_offered(tmp_path, monkeypatch, change, line):
    assert compile_lines(tmp_path, monkeypatch, USER.replace(*change)) == [line]


@pytest.mark.parametrize("change,line", [
    # YAML values as YAML writes them, not as Python prints them
    (("    1: dat", "    1: null"), "src/user.ksy:20:5: enums.msg_type.1: a member id is lower_snake, not null"),
    (("    1: dat", "    1: {id: [x]}"), "src/user.ksy:20:5: enums.msg_type.1: a member id is lower_snake, not [x]"),
    (("size: hdr.length", "size: {a: 1}"), "src/user.ksy:11:5: seq[2].size: an expression is text or a number, "
                                           "not {a: 1}"),
    (("type: header", "type: [header]"), "src/user.ksy:9:5: seq[1].type: a type is a name (u4, str, a type of the "
                                         "schema), not [header]"),
    # the type of what is wrong, as the language names it (it once showed `('enum', Enum(name='msg_type', ...))`)
    (("size: hdr.length", "size: kind.size(2)"), "src/user.ksy:11:5: seq[2].size: `.size(...)` on a enum msg_type is "
                                                 "not supported yet"),
    # it was a RecursionError, then a traceback of the back end
    (("size: hdr.length", "size: " + "(" * 120 + "1" + ")" * 120), "src/user.ksy:11:5: seq[2].size: bad expression: "
     "nested more than 100 levels deep in '" + "(" * 57 + "...'"),
    (("  - id: kind\n    type: u1\n", "  - id: kind\n    type: u1\n    repeat: expr\n    repeat-expr: _index\n"),
     "src/user.ksy:8:5: seq[0].repeat-expr: expression reads '_index', which is not a field before it, a param or an "
     "instance (did you mean 'kind'?)"),  # (the count comes before the loop)
    (("size: hdr.length", "size: (-1).as<header>.length"), "src/user.ksy:11:5: seq[2].size: cannot cast a int to "
                                                            "header (a structure can be, of a type not known here)"),
])
def test_what_is_wrong_is_said_in_the_schemas_words(tmp_path, monkeypatch, change, line):
    assert compile_lines(tmp_path, monkeypatch, USER.replace(*change)) == [line]


@pytest.mark.parametrize("text,line", [
    (USER.replace("  endian: le", "  endian: le\n\x07"), "src/user.ksy:4:1: not valid YAML: unacceptable character "
                                                         "#x0007: control characters are not allowed"),
    (USER.encode().replace(b"dat", b"d\xffat"), "src/user.ksy:12:28: not valid YAML: unacceptable character #x00ff: "
                                                "invalid leading UTF-8 octet"),
    (USER.replace("    2: ack", "    2: &loop [*loop]"), "src/user.ksy:21:8: not valid YAML: an alias inside the node it "
                                                         "names (the schema would never end)"),
    ("".join(["-lol0: &l0 [lol]\n"] + [f"-lol{n}: &l{n} [{', '.join([f'*l{n - 1}'] * 9)}]\n" for n in range(1, 10)])
     + USER, "src/user.ksy:1:13: not valid YAML: more than 100000 nodes, counting those aliases repeat"),
    (USER.replace("size: hdr.length", "size: " + "[" * 300 + "]" * 300), "src/user.ksy:11:209: not valid YAML: "
                                                                         "nested more than 200 levels deep"),
])
def test_yaml_that_is_broken_or_never_ends_is_placed_in_the_file_as_given(tmp_path, monkeypatch, text, line):
    assert compile_lines(tmp_path, monkeypatch, text) == [line]


def test_every_problem_of_a_schema_is_reported_in_one_run(tmp_path, monkeypatch):
    text = USER.replace("type: header", "type: haeder").replace("    if:", "    iff:").replace("    1: dat", "    1: Dat")
    assert [line.split(": ")[1] for line in compile_lines(tmp_path, monkeypatch, text)] == [
        "seq[1].type", "seq[2].iff", "enums.msg_type.1"]


def test_an_imported_schema_is_named_by_its_path_from_the_working_directory(tmp_path, monkeypatch):
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "part.ksy").write_text("meta: {id: part}\nseq: [{id: x, type: u4}]\n")
    lines = compile_lines(tmp_path, monkeypatch, "meta: {id: user, imports: [../lib/part]}\nseq: [{id: p, type: part}]\n")
    assert lines == ["lib/part.ksy:2:15: seq[0].type: u4 needs a byte order: `u4le`/`u4be`, or meta/endian"]


def test_only_lists_and_bytes_are_indexed(tmp_path, monkeypatch):
    # `5[(-1)]` was written into the module, a SyntaxWarning on import and a TypeError when read
    assert compile_lines(tmp_path, monkeypatch, USER.replace("size: hdr.length", "size: 5[-1]")) == [
        "src/user.ksy:11:5: seq[2].size: a int has no items to index (a list or bytes has)"]


@pytest.mark.parametrize("enum", ["-0.0", "0", "false"])
def test_an_enum_named_by_what_yaml_reads_as_a_number_or_false_is_unknown(tmp_path, monkeypatch, enum):
    # it was skipped as no enum at all (`if inst.enum:`), and the emitter met the float
    text = USER + "instances:\n  big:\n    value: kind.to_i\n    enum: " + enum + "\n"
    assert compile_lines(tmp_path, monkeypatch, text) == [
        f"src/user.ksy:25:5: instances.big.enum: unknown enum {enum}"]
