"""The passes: every problem of every schema found in one run, each a line naming the file, the
line, the column and the YAML path, before any back end runs; no back end refuses a schema itself."""

import ast
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from logcodec.generator import passes
from logcodec.generator.build import load_schemas
from logcodec.generator.compile import compile_schemas, load
from logcodec.generator.problems import ERROR, WARNING, Marks, Problem, SchemaError, problem, read_yaml
from logcodec.generator.reading import Loader

GENERATOR = Path(__file__).resolve().parents[2] / "generator"


@pytest.fixture(autouse=True)
def beside_the_schemas(tmp_path, monkeypatch):
    """Each test works in the folder of its schemas, which it names as a user types them there."""
    monkeypatch.chdir(tmp_path)


def write(folder: Path, name: str, text: str) -> Path:
    """Write a schema; its path as typed from the working directory (problems name it so)."""
    path = folder / name
    path.write_text(textwrap.dedent(text).lstrip())
    return Path(os.path.relpath(path))


def places(exc: SchemaError) -> list[tuple]:
    return [(p.file, p.line, p.column, p.ypath) for p in exc.problems]


# ---------------------------------------------------------------- loading

MAIN = """
    meta:
      id: main
      endian: le
      imports: [other]
      colour: red
    seq:
      - id: a
        type: u2
        sise: 4
      - id: b
        type: no_such_type
      - id: c
        size: a +
      - id: d
        type: other
    types:
      inner:
        seq:
          - id: e
            type: u1
            enum: nope
    """
OTHER = """
    meta: {id: other}
    seq:
      - id: X
        type: u1
    """


def test_every_loading_problem_of_a_schema_and_its_imports_is_found_in_one_run(tmp_path):
    main = write(tmp_path, "main.ksy", MAIN)
    write(tmp_path, "other.ksy", OTHER)
    with pytest.raises(SchemaError) as info:
        load([main], "acme")
    assert places(info.value) == [  # by file, then in the order of the file
        ("main.ksy", 5, 3, "meta.colour"),  # an unknown key of meta
        ("main.ksy", 9, 5, "seq[0].sise"),  # an unknown key of a field
        ("main.ksy", 11, 5, "seq[1].type"),  # a type that does not exist
        ("main.ksy", 13, 5, "seq[2].size"),  # an expression that does not parse
        ("main.ksy", 21, 9, "types.inner.seq[0].enum"),  # an enum that does not exist
        ("other.ksy", 3, 5, "seq[0].id"),  # the imported schema's own
    ]
    texts = [p.text for p in info.value.problems]
    assert texts[0].startswith("unknown key") and "did you mean 'size'?" in texts[1]
    assert texts[2].startswith("unknown type 'no_such_type'") and texts[3].startswith("bad expression")
    assert texts[4].startswith("unknown enum 'nope'") and texts[5] == "needs a lower_snake id"
    assert str(info.value).splitlines()[0] == "main.ksy:5:3: meta.colour: unknown key"


def test_the_command_line_prints_every_problem_a_line_each(tmp_path):
    main = write(tmp_path, "main.ksy", MAIN)
    write(tmp_path, "other.ksy", OTHER)
    for args in (["compile", str(main), "-o", str(tmp_path / "out")], ["decode", "--schema", str(main), str(main)]):
        done = subprocess.run([sys.executable, "-m", "logcodec", *args], capture_output=True, text=True,
                              env={"LOGCODEC_SCHEMA_CACHE": str(tmp_path / "cache"), "PATH": "/usr/bin:/bin"})
        lines = done.stderr.splitlines()
        assert done.returncode == 1 and len(lines) == 6, done.stderr
        assert lines[5] == f"logcodec {args[0]}: other.ksy:3:5: seq[0].id: needs a lower_snake id"


def test_generate_reports_the_problems_of_every_schema_together(tmp_path):
    (tmp_path / "fam").mkdir()
    write(tmp_path / "fam", "one.ksy", "meta: {id: one}\ndoc: One.\nseq: [{id: a, type: u1}]\n")
    write(tmp_path / "fam", "two.ksy", "meta: {id: two}\ndoc: Two.\nseq: [{id: a, type: u1, doc: A., if: 5}]\n")
    write(tmp_path / "fam", "three.ksy", "meta: {id: three}\ndoc: Three.\nseq: [{id: a, type: u1, doc: A.}]\n")
    with pytest.raises(SchemaError) as info:
        load_schemas(tmp_path)
    # one's problem is of loading (no doc), two's of the passes (a condition that is a number)
    assert [str(p) for p in info.value.problems] == [
        "fam/one.ksy:3:7: seq[0].doc: every field needs a `doc` (house rule of schemas/)",
        "fam/two.ksy:3:34: seq[0].if: is a int; a truth value is needed",
    ]


def test_what_made_the_loader_crash_is_a_problem_or_what_kaitai_means(tmp_path):
    # Kaitai's contents may mix text and byte values.
    mixed = write(tmp_path, "mixed.ksy", "meta: {id: mixed}\nseq: [{id: magic, contents: [PK, 3, 4]}]\n")
    (schema,), _ = load([mixed], "acme")
    assert schema.root.seq[0].contents == b"PK\x03\x04"
    # A range without its first field.
    ranged = write(tmp_path, "ranged.ksy", "meta: {id: ranged}\nseq:\n  - {id: a, type: u1}\n"
                   "  - {id: b, type: u4be, -lc-checksum: {algorithm: crc32c, to: a}}\n")
    with pytest.raises(SchemaError) as info:
        load([ranged], "acme")
    assert str(info.value) == "ranged.ksy:4:25: seq[1].-lc-checksum: a range needs `from`, the first field it covers"


@pytest.mark.parametrize("section,what", [("params: {a: 1}", "params: is a list"), ("types: [1]", "types: is a mapping"),
                                          ("enums: [1]", "enums: is a mapping"), ("instances: [1]", "instances: is a mapping"),
                                          ("seq: [{id: b, type: u1, -lc-checksum: 3}]",
                                           "seq[0].-lc-checksum.algorithm: one of ['crc32', 'crc32c']")])
def test_a_section_of_another_kind_is_a_problem_at_its_key(tmp_path, section, what):
    path = write(tmp_path, "user.ksy", f"meta: {{id: user}}\n{section}\n")
    with pytest.raises(SchemaError) as info:
        load([path], "acme")
    assert str(info.value).startswith("user.ksy:2:") and str(info.value).endswith(what), str(info.value)


# ---------------------------------------------------------------- the passes

CHECKED = """
    meta: {id: user, endian: be}
    seq:
      - id: flags
        type: b3be
      - id: rest
        type: b5le
      - id: name
        type: str
        encoding: ASCII
      - id: x
        type: u1
        if: 5
      - id: body
        type: u1
        enum: thing
    types:
      thing:
        seq:
          - id: y
            type: u1
      user_thing:
        seq:
          - id: z
            type: u1
    enums:
      thing: {1: one}
    """


def test_the_passes_report_every_problem_they_find_together(tmp_path):
    path = write(tmp_path, "user.ksy", CHECKED)
    with pytest.raises(SchemaError) as info:
        load([path], "acme")
    assert [str(p) for p in info.value.problems] == [
        "user.ksy:5:5: seq[1]: bit fields of both bit orders in one byte are not supported yet",  # bits
        "user.ksy:7:5: seq[2]: a str field needs a size",  # sizes
        "user.ksy:12:5: seq[3].if: is a int; a truth value is needed",  # types
        # the enum beside a type of its name is prefixed with its owner's, as its nested class is named
        "user.ksy:26:3: enums.thing: its class name UserThing is also that of types.user_thing",  # classes
    ]


def test_each_back_end_has_the_passes_of_its_limits(tmp_path):
    """A switch case that is an expression: the codecs take it, construct's `Switch` cannot."""
    path = write(tmp_path, "user.ksy", """
        meta: {id: user}
        seq:
          - id: k
            type: u1
          - id: v
            type:
              switch-on: k
              cases:
                k - k: u1
        """)
    load([path], "acme")  # the Python back end's passes
    with pytest.raises(SchemaError) as info:
        compile_schemas([path], tmp_path / "out", "acme", target="construct")
    assert str(info.value) == ("user.ksy:9:9: seq[1].type.cases.k - k: a switch case that is not a literal has no "
                               "construct translation")
    assert not (tmp_path / "out").exists()  # refused before the back end ran


def test_kaitais_type_rules_hold_for_every_back_end(tmp_path):
    path = write(tmp_path, "user.ksy", "meta: {id: user}\nseq: [{id: a, type: u1, if: 5}]\n")
    with pytest.raises(SchemaError, match=r"^user\.ksy:2:25: seq\[0\]\.if: is a int; a truth value is needed$"):
        compile_schemas([path], tmp_path / "out", "acme", target="construct")


def test_a_pass_runs_only_where_the_passes_it_needs_found_no_error(tmp_path):
    """Type rules broken: the passes that type expressions do not run (they would only say it
    again, or fail on it); the others do, in their order."""
    schema = Loader(tmp_path, strict=False).load(write(tmp_path, "user.ksy", CHECKED).name)
    analysis = passes.run(schema, "python")
    assert analysis.failed == {"classes", "types", "bits", "sizes"}
    assert analysis.ran == ["parents", "classes", "primitives", "types", "frames", "layouts", "bits", "sizes",
                            "encodable"]
    assert [p.name for p in passes.PASSES if p.name in analysis.ran] == analysis.ran
    assert {"streams", "remote lengths"} <= {p.name for p in passes.PASSES if "types" in p.needs}


def test_the_passes_annotate_the_model_before_any_back_end_runs():
    """Value kinds, tuple forms, the bulk, frames and each type's plan are worked out by their
    passes, once, in their order: the back ends read what they annotated."""
    schema = next(s for s in load_schemas(GENERATOR.parent / "schemas") if s.format_name == "kafka.record_batch_v2")
    model = passes.checked(schema, "python").model
    assert {"value kinds", "tuple forms", "keyed views", "bulk", "frames", "layouts"} <= set(passes.analysis_of(schema).ran)
    assert {id(t) for t in model.types} <= set(model.views)
    assert {id(t) for t in model.rendered} <= set(model.plans)
    assert {id(f) for t in model.types for f in t.seq} <= set(model.kinds)
    assert {id(t) for t in model.types} <= set(model.tuple_forms) and {id(t) for t in model.types} <= set(model.frames)
    record = next(t for t in model.types if t.name == "record")
    plans_before = dict(model.plans)
    assert model.plan(record) is plans_before[id(record)]  # read, not planned again
    assert model.tuple_form(record) == model.tuple_forms[id(record)] and model.tuple_forms[id(record)]
    assert model.bulk is not None and model.bulk.items.type.user is record


def test_no_back_end_raises_a_schema_error_of_its_own():
    """What a back end cannot translate is refused by a pass that knows its limits, before it runs."""
    found = []
    for folder in ("python", "construct", "docs"):
        for path in sorted((GENERATOR / folder).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text())):
                exc = node.exc if isinstance(node, ast.Raise) else None
                name = exc.func if isinstance(exc, ast.Call) else exc
                if isinstance(name, ast.Name) and name.id == "SchemaError":
                    found.append(f"{path.relative_to(GENERATOR)}:{node.lineno}")
    assert found == []


# ---------------------------------------------------------------- problems and places


def test_a_problem_is_one_line_naming_its_file_place_and_yaml_path():
    assert str(Problem(ERROR, "a/b.ksy", 3, 7, "seq[0].size", "bad")) == "a/b.ksy:3:7: seq[0].size: bad"
    assert str(Problem(WARNING, "b.ksy", 1, 1, "", "odd")) == "b.ksy:1:1: (top): warning: odd"
    assert str(Problem(ERROR, "b.ksy", None, None, None, "cannot read: gone")) == "b.ksy: cannot read: gone"
    error = SchemaError([Problem(ERROR, "b.ksy", 1, 1, "meta", "one"), Problem(ERROR, "c.ksy", 2, 3, "seq", "two")])
    assert str(error) == "b.ksy:1:1: meta: one\nc.ksy:2:3: seq: two"
    assert str(SchemaError("no schema given")) == "no schema given" and SchemaError("x").problems == []


def test_every_yaml_path_has_its_place_and_a_missing_one_its_nearest():
    _, marks = read_yaml(b"meta: {id: x}\nenums:\n  e:\n    0x10: sixteen\nseq:\n  - {id: a, type: u1}\n"
                         b"  - id: b\n    size: 2\n")
    assert marks.place("meta.id") == (1, 8)
    assert marks.place("enums.e.16") == (4, 5)  # a key as YAML reads it, as the loader names it
    assert marks.place("seq[0].type") == (6, 13)
    assert marks.place("seq[1].size") == (8, 5)
    assert marks.place("seq[1].doc") == (7, 5)  # not there: its field
    assert marks.place("") == (1, 1) and Marks().place("seq") == (None, None)
    assert problem(marks, "x.ksy", "types.t", "no such").line == 1  # nothing of it: the top
