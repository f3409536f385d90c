"""`-lc-keyed`: named fields over a list of keyed entries (Kafka's tagged fields are one), for any
schema. The entries stay as read, in their order, unknown keys among them (so a value is written
back byte for byte); a named field reads the last entry of its key, else its default, and setting
it puts one entry of its key in key order, or none at the default. The expected bytes below are
written by hand from the demo schema (`schemas/demo/keyed.ksy`)."""

import os
import subprocess
import sys
import textwrap

import pytest
from logcodec.generator.compile import compile_schemas, load
from logcodec.generator.problems import SchemaError

import logcodec
from tests.generator.demo import SCHEMAS, compile_demo

# options: name "abc" (code 2), an unknown code 9, a timeout of 5 then one of 6 (code 1 twice)
DATA = bytes.fromhex("04" "0203616263" "09020102" "010400000005" "010400000006")


@pytest.fixture(scope="module")
def module():
    return compile_demo("keyed")[1]


def test_a_named_field_is_its_keys_last_entry_and_the_entries_stay_as_written(module):
    value = module.decode(DATA)
    assert (value.name, value.timeout_ms) == ("abc", 6)  # the later timeout wins, as Java reads tags
    assert [o.code for o in value.options] == [2, 9, 1, 1] and value.options[1].body == b"\x01\x02"
    assert module.encode(value) == DATA


def test_a_key_not_written_is_the_default_of_its_kind(module):
    value = module.decode(bytes.fromhex("00"))
    assert value.timeout_ms == 30000 and value.name == ""
    assert value.point == module.Point(x=0, y=-1)
    assert value.flags == [] and value.blob == b"\x00\x00" and value.label is None
    value.flags.append(1)  # a default is a new value each time: changing it changes nothing
    assert value.flags == [] and value.options == []


def test_setting_puts_one_entry_in_key_order_and_none_at_the_default(module):
    value = module.decode(DATA)
    value.label = "hi"  # code 7: after 2, before the unknown 9
    value.timeout_ms = 30000  # the default: both timeouts taken out
    value.point = module.Point(x=3, y=4)
    value.point = module.Point(x=0, y=-1)  # back to the default
    assert [o.code for o in value.options] == [2, 7, 9]
    assert value.num_options is None  # left to the encoder
    assert module.encode(value) == bytes.fromhex("03" "0203616263" "0703016869" "09020102")
    value.blob = b"\xaa\xbb"
    value.flags = [1, 0, 1]
    assert module.encode(logcodec.strip_derived(value)) == bytes.fromhex(
        "05" "0203616263" "050301" "0001" "0602aabb" "0703016869" "09020102")


def test_init_and_replace_take_the_named_fields(module):
    import dataclasses

    built = module.Keyed(options=[], label="hi", timeout_ms=5)
    assert [o.code for o in built.options] == [1, 7]
    assert module.encode(built) == bytes.fromhex("02" "010400000005" "0703016869")
    changed = dataclasses.replace(module.decode(DATA), timeout_ms=30000, name="x")
    assert [o.code for o in changed.options] == [2, 9]
    assert module.encode(logcodec.strip_derived(changed)) == bytes.fromhex("02" "020178" "09020102")
    with pytest.raises(TypeError):
        module.Keyed([], None, 5)  # the named fields are keywords only


def test_a_decoded_struct_equal_to_the_default_but_for_derived_fields_is_the_default(module):
    value = module.decode(bytes.fromhex("00"))
    value.point = module.decode(bytes.fromhex("01" "0404" "0000ffff")).point  # read, at the default
    assert value.options == []


def test_strip_derived_keeps_a_users_values_links():
    """(Found with the views: `strip_derived` refused every value of a user's schema, whose links
    are no `__init__` parameters.)"""
    module = compile_demo("keyed")[1]
    value = module.decode(DATA)
    stripped = logcodec.strip_derived(value)
    assert stripped.num_options is None and [o.len_body for o in stripped.options] == [None] * 4
    assert module.encode(stripped) == DATA


def test_the_compiled_build_has_the_named_fields(tmp_path):
    """mypyc compiles the views (properties with setters) of a user's schema."""
    compile_schemas([SCHEMAS / "demo" / "keyed.ksy"], tmp_path / "out", "kd")
    script = textwrap.dedent(f"""
        from pathlib import Path
        from logcodec.runtime import native
        import kd.keyed as m
        native.build(m, Path({str(tmp_path / "builds")!r}), log=lambda *a: None)
    """)
    env = {**os.environ, "LOGCODEC_NATIVE_DIR": str(tmp_path / "builds")}
    env.pop("LOGCODEC_PURE", None)
    subprocess.run([sys.executable, "-c", script], cwd=tmp_path / "out", env=env, check=True, capture_output=True)
    check = textwrap.dedent(f"""
        import kd.keyed as m
        assert m.NATIVE is not None
        v = m.decode(bytes.fromhex({DATA.hex()!r}))
        v.label = "hi"
        v.timeout_ms = 30000
        built = m.Keyed(options=[], label="hi", timeout_ms=5)
        print(v.name, v.point, m.encode(v).hex(), m.encode(built).hex())
    """)
    out = subprocess.run([sys.executable, "-c", check], cwd=tmp_path / "out", env=env, check=True,
                         capture_output=True, text=True).stdout
    assert out.split() == ["abc", "Point(x=0,", "y=-1)", ("03" "0203616263" "0703016869" "09020102"),
                           ("02" "010400000005" "0703016869")]


BAD = [
    ("key: nothing", "seq[1].-lc-keyed.key", "names no integer field of option"),
    ("key: len_body\n      value: code", "seq[1].-lc-keyed.value", "that switches on `len_body`"),
    ("fields: {timeout_ms: {key: 3, default: 1}}", "fields.timeout_ms.key", "3 is no case of `body`"),
    ("fields: {seconds: {key: 1, default: 1}}", "fields.seconds", "has no field `seconds`"),
    ("fields: {timeout_ms: {key: 1, default: soon}}", "fields.timeout_ms.default", "no value of a int field"),
    ("fields: {timeout_ms: {key: 1, after: 1}}", "fields.timeout_ms", "is {key, default}"),
    ("fields: {TimeoutMs: {key: 1, default: 1}}", "fields.TimeoutMs", "needs a lower_snake name"),
]


@pytest.mark.parametrize(("change", "where", "what"), BAD)
def test_a_keyed_field_that_cannot_be_is_a_problem_at_its_yaml_path(tmp_path, change, where, what):
    text = (SCHEMAS / "demo" / "keyed.ksy").read_text()
    keyed = text[text.index("    -lc-keyed:"):text.index("types:")]
    replaced = "    -lc-keyed:\n      key: code\n      value: body\n      fields: {timeout_ms: {key: 1, default: 30000}}\n"
    for line in change.split("\n      "):
        name = line.split(":")[0]
        replaced = "\n".join(f"      {line}" if row.startswith(f"      {name}:") else row
                             for row in replaced.split("\n"))
    bad = tmp_path / "keyed.ksy"
    bad.write_text(text.replace(keyed, replaced))
    with pytest.raises(SchemaError) as caught:
        load([bad], "acme")
    found = [(p.ypath, p.text) for p in caught.value.problems]
    assert any(ypath.endswith(where) and what in said for ypath, said in found), found
    assert all(p.line is not None for p in caught.value.problems)


def test_the_official_compiler_reads_the_entries_as_we_do(module):
    """The key is ours alone: Kaitai's compiler takes the schema and reads the same entries."""
    from logcodec.generator import kaitai
    from logcodec.generator.reading import Loader

    schema = Loader(SCHEMAS).load("demo/keyed.ksy")
    with kaitai.loaded(kaitai.sources(SCHEMAS, [schema])) as load_class:
        theirs = load_class("keyed").Keyed.from_bytes(DATA)
        assert [o.code for o in theirs.options] == [o.code for o in module.decode(DATA).options]
        assert (theirs.options[0].body.name, theirs.options[3].body.timeout_ms) == ("abc", 6)


def test_a_named_field_may_not_take_a_name_the_holder_has(tmp_path):
    clash = tmp_path / "clash.ksy"
    clash.write_text(textwrap.dedent("""
        meta: {id: clash}
        seq:
          - {id: count, type: u1}
          - id: entries
            type: entry
            repeat: expr
            repeat-expr: 2
            -lc-keyed: {key: k, value: v, fields: {count: {key: 1, default: 0}}}
        types:
          entry:
            seq:
              - {id: k, type: u1}
              - {id: v, type: {switch-on: k, cases: {1: counted}}}
          counted:
            seq: [{id: count, type: u1}]
    """))
    with pytest.raises(SchemaError) as caught:
        load([clash], "acme")
    assert [(p.ypath, p.text) for p in caught.value.problems] == [
        ("seq[1].-lc-keyed.fields.count", "`count` is also a field, instance or view of clash")]
