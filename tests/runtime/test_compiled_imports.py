"""The blocks a format imports (Kafka's message bodies) have compiled builds too: the generator
writes the source of each one's build beside it, `logcodec accelerate --imports` compiles them,
and a compiled body reads and writes every vector of its API as the interpreted one does."""

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import logcodec
from logcodec.cli._build import _imported_codecs
from logcodec.runtime import native

#: Run with a compiled Metadata body: every kafka.response vector of Metadata (api_key 3), judged
#: as the conformance harness judges logcodec's own testee.
JUDGE_METADATA = """
import sys
from logcodec.conformance.judge import build_cases, judge, request
from logcodec.conformance.own_testee import implementation
from logcodec.conformance.testee import answer
from logcodec.generated.kafka.messages import metadata_response

assert metadata_response.NATIVE, "the compiled build was not taken"
impl = implementation()
cases = [c for c in build_cases(["kafka.response"]) if c.test.get("params", {}).get("api_key") == 3]
bad = [(c.id, v.outcome, v.detail) for seq, c in enumerate(cases)
       if (v := judge(c, answer(impl, request(c, seq)), [])).outcome != "pass"]
print(len(cases), "cases")
sys.exit(f"failed: {bad[:3]}" if bad else 0)
"""


def test_the_imports_of_a_frame_are_its_bodies_and_what_they_import():
    response = logcodec.codec("kafka.response")
    imported = {m.__name__ for m in _imported_codecs([response])}
    assert set(response.IMPORTS) <= imported
    assert "logcodec.generated.kafka.messages.metadata_response" in imported
    assert "logcodec.generated.kafka.messages.tagged_field" in imported  # imported by the bodies
    assert not any(name.endswith("_request") for name in imported)
    for name in imported:  # each with the source of its compiled build beside it
        source = native.source_of(sys.modules[name])
        assert native.compiled_source_file(source).is_file(), name


def test_a_format_that_imports_nothing_has_no_imports():
    assert _imported_codecs([logcodec.codec("kafka.time_index")]) == []


@pytest.mark.skipif(importlib.util.find_spec("mypyc") is None, reason="mypyc is not installed")
def test_a_compiled_body_decodes_and_encodes_every_vector_of_its_api(tmp_path):
    body = importlib.import_module("logcodec.generated.kafka.messages.metadata_response")
    native.compile_file(body.__name__, native.source_of(body), tmp_path, log=lambda _msg: None)
    env = {**os.environ, native.DIR_ENV: str(tmp_path)}
    env.pop(native.PURE_ENV, None)
    out = subprocess.run([sys.executable, "-c", JUDGE_METADATA], capture_output=True, text=True, env=env, check=False,
                         cwd=Path(__file__).parent)
    assert out.returncode == 0, out.stdout + out.stderr
    assert int(out.stdout.split()[0]) > 50  # decode and encode cases of its 13 versions


def test_accelerate_says_which_formats_import_schemas_it_leaves_interpreted():
    """Without `--imports`, `accelerate` ends with a line naming the formats whose imports have no
    compiled build, and the option that compiles them; nothing where every import has one."""
    say = ("import logcodec; from logcodec.cli._build import _say_what_stays_interpreted as say; "
           "say([logcodec.codec(f) for f in ('kafka.response', 'kafka.time_index')])")
    env = {**os.environ, native.PURE_ENV: "1"}  # (no build is used: every import stays interpreted)
    out = subprocess.run([sys.executable, "-c", say], capture_output=True, text=True, env=env, check=True)
    assert re.match(r"kafka.response: the (\d+) schemas they import stay pure Python", out.stdout)
    assert int(out.stdout.split()[2]) == len(_imported_codecs([logcodec.codec("kafka.response")])) > 80
    assert "--imports" in out.stdout and "time_index" not in out.stdout
