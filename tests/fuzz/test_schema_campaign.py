"""The schema campaign (`python -m fuzz schemas`): its mutations, how it judges an outcome, and a
short run over the corpora (skipped without ../shared)."""

import random
import shutil
import sys
from collections import Counter

import pytest
import yaml

from fuzz import schema_campaign as SC
from fuzz import schema_mutants as SM
from logcodec.generator.problems import ERROR, Problem, SchemaError

SCHEMA = b"""meta:
  id: demo
  endian: le
seq:
  - id: kind
    type: u1
    enum: msg_type
  - id: len_body
    type: u2
  - id: body
    size: len_body
    if: kind == msg_type::dat
types:
  header:
    seq:
      - id: magic
        contents: [0x4c, 0x43]
enums:
  msg_type:
    1: dat
    2: ack
"""
needs_corpus = pytest.mark.skipif(not SC.available(), reason=f"no schema corpus at {SC.GALLERY} or {SC.SUITE}")


@pytest.mark.parametrize("name", sorted(SM.MUTATIONS))
def test_each_mutation_changes_the_schema_and_the_same_seed_gives_the_same_mutant(name):
    seed, donor = SM.Seed("test:demo.ksy", SCHEMA), SM.Seed("test:other.ksy", SCHEMA.replace(b"demo", b"other"))
    made = [m for i in range(30) if (m := SM.MUTATIONS[name](random.Random(i), seed, donor)) is not None]
    assert made and any(m != SCHEMA for m in made), name
    again = [m for i in range(30) if (m := SM.MUTATIONS[name](random.Random(i), seed, donor)) is not None]
    assert made == again


def test_expressions_are_broken_where_the_schema_has_them():
    seed = SM.Seed("test:demo.ksy", SCHEMA)
    broken = Counter()
    for i in range(200):
        tree = yaml.safe_load(SM.expression(random.Random(i), seed, None))
        body = tree["seq"][2]
        broken["size"] += body.get("size") != "len_body"
        broken["if"] += body.get("if") != "kind == msg_type::dat"
    assert broken["size"] > 20 and broken["if"] > 20, broken


def _error(**given) -> SchemaError:
    fields = {"severity": ERROR, "file": __file__, "line": 3, "column": 5, "ypath": "seq[0].size", "text": "wrong"}
    return SchemaError([Problem(**{**fields, **given})])


def test_a_message_that_breaks_law_7_is_a_finding():
    assert SC.message_faults(_error(), __file__) == []
    assert SC.message_faults(SchemaError("a plain message"), __file__)[0].startswith("no place")
    assert SC.message_faults(_error(line=None, column=None), __file__)[0].startswith("no line")
    assert SC.message_faults(_error(ypath=None), __file__)[0].startswith("no YAML path")
    assert SC.message_faults(_error(file="nowhere/x.ksy"), __file__)[0].startswith("no such file")
    for internal in ("cases.EnumLit(enum='msg_type', value='dat')", "on a ('enum', Enum(name='animal'))",
                     "not None", "not {'a': 1}", 'in "<byte string>", position 3'):
        assert SC.message_faults(_error(text=internal), __file__)[0].startswith("internal repr"), internal


@needs_corpus
def test_a_traceback_is_a_finding_with_its_place(monkeypatch):
    from logcodec.generator import compile as C

    def broken(schemas, package):
        raise KeyError("planted")

    monkeypatch.setattr(C, "render_package", broken)
    monkeypatch.setattr(SC, "_COPY", [])  # (the worker's copy of the corpora, and its sys.path: this test's own)
    monkeypatch.setattr(sys, "path", list(sys.path))
    seed = next(s for s in SC.seeds() if s.name.startswith("gallery:"))
    try:
        found = SC.judge(seed.name, seed.text)
    finally:
        shutil.rmtree(SC._COPY[0], ignore_errors=True)
    assert found["cls"] == SC.TRACEBACK and found["kind"].startswith("KeyError at"), found


@needs_corpus
def test_a_short_campaign_ends_every_mutant_in_a_schema_error_or_a_package(tmp_path):
    result = SC.run(60, seed=11, workers=1, timeout=60, memory_mb=1536, out=tmp_path, imports_every=5,
                    log=lambda line: None)
    total = sum((counts for counts in result["by_kind"].values()), Counter())
    assert sum(total.values()) == 60
    assert result["findings"] == [], result["findings"]
    assert total[SC.SCHEMA_ERROR] > 0 and total[SC.COMPILES] + total[SC.IMPORTS] > 0, total
    assert "| **all** | 60 |" in SC.table(result)
