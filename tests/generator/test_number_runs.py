"""Counted lists of fixed-size numbers read and written in one `struct` call (`layout.number_run`,
`runtime.primitives.NumberRuns`): the same values as each number read on its own and as the
official compiler's parser reads, the same bytes written, and the same errors, naming the
element at fault; the trace still shows each number."""

import os
import struct
import subprocess
import sys
import textwrap

import pytest
from logcodec.generator.compile import compile_schemas
from logcodec.generator.python import ModuleEmitter
from logcodec.generator.python.trace import trace_module

from logcodec.runtime.errors import DecodeError, EncodeError
from logcodec.runtime.primitives import NumberRuns
from tests.generator.tiny_schemas import compiled, needs_official, official

SCHEMA = """
meta:
  id: runs
  endian: be
seq:
  - id: num_items
    type: u1
  - id: ints
    type: s4
    repeat: expr
    repeat-expr: num_items
  - id: words
    type: u2le
    repeat: expr
    repeat-expr: num_items
  - id: reals
    type: f8
    repeat: expr
    repeat-expr: num_items
  - id: kinds
    type: u1
    enum: kind
    repeat: expr
    repeat-expr: num_items
enums:
  kind:
    1: one
    2: two
"""

DATA = (bytes([3]) + struct.pack(">3i", -1, 2**31 - 1, -(2**31)) + struct.pack("<3H", 0, 1, 65535)
        + struct.pack(">3d", 0.5, -2.0, 1e300) + bytes([1, 2, 1]))


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return tmp_path_factory.mktemp("runs")


@pytest.fixture(scope="module")
def runs(folder):
    return compiled(folder, SCHEMA)


def test_the_numbers_are_read_in_one_call_and_the_enum_each_on_its_own(runs):
    source = ModuleEmitter(runs[0]).render()
    assert all(f'_rt.NumberRuns("{code}")' in source for code in (">i", "<H", ">d"))
    assert source.count(".unpack_from(buf, pos))") == 3  # ints, words, reals; kinds (an enum) each on its own


def test_the_values_are_the_numbers_written(runs):
    _, module = runs
    value = module.decode(DATA)
    assert value.ints == [-1, 2**31 - 1, -(2**31)] and value.words == [0, 1, 65535]
    assert value.reals == [0.5, -2.0, 1e300] and [k.name for k in value.kinds] == ["one", "two", "one"]
    assert type(value.ints) is list
    assert module.encode(value) == DATA


def test_empty_lists_are_read_and_written_as_nothing(runs):
    _, module = runs
    value = module.decode(bytes([0]))
    assert (value.ints, value.words, value.reals, value.kinds) == ([], [], [], [])
    assert module.encode(value) == bytes([0])
    assert module.encode(module.Runs(ints=[], words=[], reals=[], kinds=[])) == bytes([0])  # the count derived


@needs_official
def test_the_official_parser_reads_the_same_numbers(runs, folder):
    schema, module = runs
    value = module.decode(DATA)
    theirs = official(folder, schema, DATA, read=lambda r: (list(r.ints), list(r.words), list(r.reals)))
    assert theirs == (value.ints, value.words, value.reals)


def test_a_short_list_is_refused_before_it_is_read(runs):
    _, module = runs
    with pytest.raises(DecodeError) as err:
        module.decode(DATA[:10])
    assert err.value.kind == "truncated" and err.value.offset == 1 and err.value.path.endswith("ints")


@pytest.mark.parametrize(("field", "bad", "detail"), [
    ("ints", 2**31, "out of range"), ("words", -1, "out of range"), ("ints", "7", "not"), ("reals", None, "")])
def test_a_wrong_number_is_named_by_its_index(runs, field, bad, detail):
    _, module = runs
    value = module.decode(DATA)
    getattr(value, field)[1] = bad
    with pytest.raises(EncodeError) as err:
        module.encode(value)
    assert err.value.path.endswith(f"{field}[1]"), err.value.path


def test_the_trace_shows_each_number(runs):
    schema, _ = runs
    traced = sys.modules[trace_module(schema.module)].trace(DATA)
    assert traced.error is None
    ranges = traced.trace.ranges
    assert [ranges[f"ints[{i}]"][:2] for i in range(3)] == [[1, 5], [5, 9], [9, 13]]
    assert ranges["reals[2]"][:2] == [35, 43]


def test_number_runs_keep_the_structs_of_short_lists_only():
    runs = NumberRuns(">i")
    assert runs[3].format == ">3i" and runs[3] is runs[3]
    long = runs[NumberRuns.LARGEST + 1]
    assert long.unpack_from(bytes(4 * (NumberRuns.LARGEST + 1))) == (0,) * (NumberRuns.LARGEST + 1)
    assert NumberRuns.LARGEST + 1 not in runs and set(runs) == {3}


def test_the_compiled_build_reads_and_writes_the_runs(tmp_path):
    """mypyc compiles the one-call reads and writes (and their fallback) of a user's schema."""
    (tmp_path / "runs.ksy").write_text(SCHEMA)
    compile_schemas([tmp_path / "runs.ksy"], tmp_path / "out", "nr")
    env = {**os.environ, "LOGCODEC_NATIVE_DIR": str(tmp_path / "builds")}
    env.pop("LOGCODEC_PURE", None)
    build = textwrap.dedent(f"""
        from pathlib import Path
        from logcodec.runtime import native
        import nr.runs as m
        native.build(m, Path({str(tmp_path / "builds")!r}), log=lambda *a: None)
    """)
    subprocess.run([sys.executable, "-c", build], cwd=tmp_path / "out", env=env, check=True, capture_output=True)
    check = textwrap.dedent(f"""
        import nr.runs as m
        from logcodec.runtime.errors import EncodeError
        assert m.NATIVE is not None
        v = m.decode(bytes.fromhex({DATA.hex()!r}))
        assert m.encode(v).hex() == {DATA.hex()!r}
        v.ints[2] = 2**31
        try:
            m.encode(v)
        except EncodeError as exc:
            print(v.ints[:2], v.reals[1], exc.path)
    """)
    out = subprocess.run([sys.executable, "-c", check], cwd=tmp_path / "out", env=env, check=True,
                         capture_output=True, text=True).stdout
    assert out.split() == ["[-1,", "2147483647]", "-2.0", "runs.ints[2]"]
