"""Kaitai's reading for Kaitai's schemas, strictness where a schema asks for it: a root reads what
it describes and stops, unless its schema declares that it fills its input (`-lc-fills-input`),
as every format of this repository does (issue 37)."""

import subprocess
import sys
import textwrap

import pytest

import logcodec
from logcodec import DecodeError
from logcodec.generator.compile import load
from logcodec.generator.in_memory import load_modules
from logcodec.generator.problems import SchemaError

SCHEMA = """
    meta:
      id: {sid}
      endian: be{extra}
    seq:
      - id: a
        type: u2
    """


def module(tmp_path, sid: str, extra: str = ""):
    path = tmp_path / f"{sid}.ksy"
    path.write_text(textwrap.dedent(SCHEMA.format(sid=sid, extra=extra)).lstrip())
    _, schemas = load([path], f"pkg_{sid}")
    return load_modules(schemas)[f"pkg_{sid}.{sid}"]


def test_a_kaitai_schema_reads_what_its_root_describes_and_leaves_the_rest(tmp_path):
    m = module(tmp_path, "plain")
    assert m.FILLS_INPUT is False
    assert m.decode(b"\x01\x02\xff\xff").a == 0x0102  # as Kaitai's parser reads it
    assert m.decode_prefix(b"\x01\x02\xff\xff")[1] == 2  # the call that says how many bytes it took
    with pytest.raises(DecodeError) as info:
        m.decode(b"\x01")
    assert info.value.kind == "truncated"


def test_a_schema_whose_root_fills_its_input_refuses_bytes_after_it(tmp_path):
    m = module(tmp_path, "whole", "\n      -lc-fills-input: true")
    assert m.FILLS_INPUT is True
    assert m.decode(b"\x01\x02").a == 0x0102
    with pytest.raises(DecodeError) as info:
        m.decode(b"\x01\x02\xff")
    assert (info.value.kind, info.value.offset) == ("trailing_bytes", 2)
    assert m.decode_prefix(b"\x01\x02\xff")[1] == 2


def test_the_key_is_true_or_false(tmp_path):
    with pytest.raises(SchemaError, match=r"meta\.-lc-fills-input: is true or false"):
        module(tmp_path, "wrong", "\n      -lc-fills-input: yes please")


def test_every_format_of_this_repository_fills_its_input():
    """A property of each schema (its `meta`), not of the folder it lies in."""
    assert {name: logcodec.codec(name).FILLS_INPUT for name in logcodec.formats()} == {
        name: True for name in logcodec.formats()}


def test_decode_on_the_command_line_says_what_it_left_unread(tmp_path):
    schema = tmp_path / "plain.ksy"
    schema.write_text(textwrap.dedent(SCHEMA.format(sid="plain", extra="")).lstrip())
    (tmp_path / "data.bin").write_bytes(b"\x01\x02\xff")
    done = subprocess.run([sys.executable, "-m", "logcodec", "decode", "--schema", str(schema), "--compact",
                           str(tmp_path / "data.bin")], capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert '"a":258' in done.stdout.replace(" ", "")
    assert "1 bytes after the value (from offset 2) not read" in done.stderr
