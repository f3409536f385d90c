"""The code buffer of the Python back end (`generator/python/code.py`): a module declares, and a
function's head, what the emitters recorded on it as they wrote the code, never what a search
of the code finds."""

import ast
import re
from pathlib import Path

import pytest

from logcodec.generator.layout import Primitive
from logcodec.generator.python import code
from logcodec.generator.python.code import COMPILED, INTERPRETED, Function, Lines, declared
from logcodec.generator.python.emit import ModuleEmitter, module_declarations, used_by
from logcodec.generator.python.shapes import UnsignedVarint, ZigzagVarint
from logcodec.generator.reading import Loader

BACK_END = Path(code.__file__).parent


def declarations(*buffers: Lines) -> dict:
    return module_declarations(used_by([Function(c.text(), c.uses) for c in buffers]), ["Animal"])


def test_a_helper_an_emitter_writes_is_declared_and_no_other():
    c = Lines(INTERPRETED)
    UnsignedVarint(Primitive("uvarint", 32, False)).decode(c, "v_a", "a")
    found = declarations(c)
    assert found["helpers"] == ["uvarint"]
    assert found["tables"] == [] and found["checksums"] == [] and found["budget_items"] == []
    assert found["enums_by_value"] == [] and not found["take_elements"] and not found["elements_left"]


def test_an_encoder_s_varint_declares_its_table_and_helper():
    c = Lines(INTERPRETED)
    ZigzagVarint(Primitive("zigzag_varint", 64, True)).encode(c, "v_a", "a")
    found = declarations(c)
    assert found["tables"] == [("ZIGZAG", "bytes")]
    assert found["helpers"] == ["uvarint_bytes"]
    assert c.uses.locals == {"x", "d"}


def test_each_kind_of_module_name_is_recorded_by_the_method_that_names_it():
    c = Lines(INTERPRETED)
    c(f"{c.checksum('crc32c')}({c.helper('checked_bytes')}(buf, 0, 4))")
    c(f"{c.enum_by_value('Animal')}.get(x, x)")
    c(f"lim[{c.budget('TUPLES')}]; {c.limits_call('take_elements')}(lim, 1, 0, '')")
    assert c.text() == ("    _crc32c(_checked_bytes(buf, 0, 4))\n    _Animal_BY_VALUE.get(x, x)\n"
                        "    lim[_TUPLES]; _take_elements(lim, 1, 0, '')")
    found = declarations(c)
    assert found["checksums"] == ["crc32c"] and found["helpers"] == ["checked_bytes"]
    assert found["enums_by_value"] == ["Animal"] and found["take_elements"] and not found["elements_left"]
    assert [name for name, _ in found["budget_items"]] == ["TUPLES"]


def test_each_build_reads_a_zigzag_varint_its_own_way():
    """The module reads a small one from a table, its compiled build computes it (`code.Build`):
    each writes its own code, with no test of which build it is."""
    prim = Primitive("zigzag_varint", 32, True)
    interpreted, compiled = Lines(INTERPRETED), Lines(COMPILED)
    for c in (interpreted, compiled):
        ZigzagVarint(prim).decode(c, "v_a", "a")
    assert declarations(interpreted)["tables"] == [("UNZIGZAG", "int")]
    assert "_UNZIGZAG[x]" in interpreted.text() and "buf[pos + 2]" in interpreted.text()  # three bytes inline
    assert declarations(compiled)["tables"] == [] and "(x >> 1) ^ -(x & 1)" in compiled.text()
    assert "buf[pos + 2]" not in compiled.text()  # three bytes by `_uvarint`
    assert declarations(interpreted)["helpers"] == declarations(compiled)["helpers"] == ["uvarint"]


def test_a_name_no_module_declares_is_an_emitter_s_bug():
    with pytest.raises(ValueError, match="UNKNOWN"):
        Lines(INTERPRETED).table("UNKNOWN")
    with pytest.raises(ValueError, match="md5"):
        Lines(INTERPRETED).checksum("md5")


def test_a_local_is_declared_where_the_code_records_it_not_where_its_name_is_written():
    c = Lines(INTERPRETED)
    c(f"{c.local('n')} = 3")
    c("raise _rt.invalid('x and y', pos, 'x')")  # a path or a message is no use of `x`
    candidates = [("x", "    x: int"), ("n", "    n: int"), ("y", "    y: int")]
    assert declared(candidates, c.uses) == ["    n: int"]


def test_lines_included_from_another_buffer_bring_their_uses_renamed():
    inner = Lines(INTERPRETED, indent=0)
    inner(f"{inner.local('v_key')} = {inner.table('VARINT')}[x]")
    outer = Lines(INTERPRETED)
    outer.include(inner.lines, inner.uses, lambda name: f"header_{name}" if name == "v_key" else name)
    assert outer.uses.locals == {"header_v_key"}
    assert declarations(outer)["tables"] == [("VARINT", "bytes")]


def test_a_module_declares_only_what_its_functions_use(tmp_path):
    (tmp_path / "demo").mkdir()
    (tmp_path / "demo/plain.ksy").write_text(
        "meta:\n  id: plain\n  endian: be\ndoc: Two integers.\nseq:\n  - id: a\n    type: u4\n    doc: One.\n"
        "  - id: b\n    type: u2\n    doc: Two.\n")
    source = ModuleEmitter(Loader(tmp_path).load("demo/plain.ksy")).render()
    for name in ("_uvarint", "_VARINT", "_ZIGZAG", "_UNZIGZAG", "_check_bits", "_checked_bytes", "_new",
                 "_ELEMENTS_RESERVED", "_take_elements", "_elements_left"):
        assert re.search(rf"\b{name}\b", source) is None, name


# ------------------------------------------------------------ no text searches in the back end

def _modules():
    return {path.name: ast.parse(path.read_text()) for path in sorted(BACK_END.glob("*.py"))}


#: The one regular-expression search of the back end, and what it reads: a schema's type name.
SEARCHES_ALLOWED = {("classes.py", "param_annotation")}


def test_no_module_of_the_back_end_searches_text_with_a_regular_expression():
    found = set()
    for name, tree in _modules().items():
        for fn in (n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.Module))):
            for call in (n for n in ast.walk(fn) if isinstance(n, ast.Call)):
                func = call.func
                if (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "re"
                        and func.attr in ("search", "match", "fullmatch", "findall", "finditer")):
                    found.add((name, getattr(fn, "name", "")))
    assert {f for f in found if f[1]} <= SEARCHES_ALLOWED, found


def test_no_module_of_the_back_end_searches_each_of_several_texts_for_a_word():
    """`any(name in f for f in functions)`, `any("x += " in line for line in lines)`: how the back
    end used to find what its code needed."""
    found = []
    for name, tree in _modules().items():
        for comp in (n for n in ast.walk(tree) if isinstance(n, (ast.GeneratorExp, ast.ListComp, ast.SetComp))):
            targets = {t.id for g in comp.generators for t in ast.walk(g.target) if isinstance(t, ast.Name)}
            for test in (n for n in ast.walk(comp) if isinstance(n, ast.Compare)):
                for op, right in zip(test.ops, test.comparators):
                    if isinstance(op, (ast.In, ast.NotIn)) and isinstance(right, ast.Name) and right.id in targets:
                        found.append((name, test.lineno))
    assert not found


def test_the_names_the_buffer_records_are_written_only_by_the_buffer():
    """A helper's, a table's... name comes from the method of `Lines` that records its use, so no
    emitter can write one the module would not declare."""
    names = ([f"_{n}" for n in code.TABLES] + [f"_{n}" for n in code.HELPERS] + [f"_{n}" for n in code.BUDGET_ITEMS]
             + [f"_{n}" for n in code.LIMITS_CALLS] + ["_new", "_BY_VALUE", "_TEXT_", "_INTERPRETED"])
    written = re.compile("|".join(rf"(?<![\w.]){re.escape(n)}\b" if not n.endswith("_") else re.escape(n)
                                  for n in names) + r"|\w_BY_VALUE\b")
    found = []
    for name, tree in _modules().items():
        if name == "code.py":
            continue
        docstrings = {id(n.body[0].value) for n in ast.walk(tree)
                      if isinstance(n, (ast.Module, ast.ClassDef, ast.FunctionDef)) and n.body
                      and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
                if written.search(node.value):
                    found.append((name, node.lineno, node.value))
    assert not found
