"""Conformance at scale (`logcodec pipeline conformance`): seeded random valid values, run through a
testee inside Spark's executors, give the verdicts the single-process runner gives on the same values.

The value generator (conformance/random_values.py) needs no Spark and is tested in one process; the
Spark tests share the one session of conftest.py and keep to 20 values on two formats.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest

import logcodec
from logcodec import cli
from logcodec.conformance import expected, runner
from logcodec.conformance import random_values as rv
from logcodec.conformance.impls import SHIPPED
from logcodec.conformance.judge import Case, Verdict, formats_with_vectors

FORMATS = ["kafka.record_batch_v2", "tank.bundle"]
COUNT = 20


def key(test: dict) -> tuple:
    return test["tcId"], test["bytes"], json.dumps(test["value"], sort_keys=True)


# ---------------------------------------------------------------- the value generator (no Spark)


@pytest.mark.parametrize("fmt", formats_with_vectors())
def test_generated_values_are_valid_and_mostly_changed(fmt):
    tests = rv.random_tests(fmt, 11, range(12))
    for test in tests:
        assert test["result"] == "valid"
        root = test.get("params", {})
        decoded = logcodec.decode(fmt, bytes.fromhex(test["bytes"]), **root)
        assert logcodec.to_json(decoded) == test["value"]  # the case's bytes are the value's
        again = logcodec.decode(fmt, logcodec.encode(fmt, logcodec.strip_derived(decoded), **root), **root)
        assert logcodec.to_json(again) == test["value"]  # decode(encode(v)) == v
    assert sum(t["mutations"] > 0 for t in tests) >= 10
    sources = {t["bytes"] for g in rv.vector_file(fmt)["testGroups"] for t in g["tests"]}
    assert sum(t["bytes"] not in sources for t in tests) >= 6  # new values, not the golden ones again


def test_the_same_seed_gives_the_same_values_however_they_are_split():
    whole = rv.random_tests("kafka.record_batch_v2", 5, range(COUNT))
    backwards = rv.random_tests("kafka.record_batch_v2", 5, reversed(range(COUNT)))[::-1]
    halves = rv.random_tests("kafka.record_batch_v2", 5, range(0, COUNT, 2)) + \
        rv.random_tests("kafka.record_batch_v2", 5, range(1, COUNT, 2))
    assert [key(t) for t in whole] == [key(t) for t in backwards]
    assert sorted(map(key, whole)) == sorted(map(key, halves))
    assert len({t["bytes"] for t in whole}) == COUNT


def test_a_different_seed_gives_different_values():
    for fmt in FORMATS:
        one = {key(t) for t in rv.random_tests(fmt, 5, range(COUNT))}
        other = {key(t) for t in rv.random_tests(fmt, 6, range(COUNT))}
        assert len(one & other) <= 2, fmt


def test_random_cases_are_named_after_their_source_vector():
    cases = rv.random_cases(["tank.bundle"], 3, 1)
    assert [c.op for c in cases] == ["decode", "encode"] * 3
    for c in cases:
        assert c.id == f"tank.bundle:{c.op}:{c.test['source']}~{c.test['tcId'].rsplit('~', 1)[1]}"


def test_expected_failures_apply_by_source_and_a_random_pass_is_a_pass():
    from logcodec.pipeline.conformance import apply_expected

    def verdict(tc, outcome):
        return Verdict(Case(f"f:decode:{tc}", "f", "decode", {"tcId": tc, "result": "valid"}), outcome)

    listed_fail, listed_pass, other_fail = verdict("g/x~1", "fail"), verdict("g/x~2", "pass"), verdict("h~3", "fail")
    bad = apply_expected([expected.Entry("f:decode:g/", "a quirk")],
                         [listed_fail, listed_pass, other_fail])
    assert bad == [other_fail]
    assert listed_fail.expected_failure == "a quirk" and listed_pass.expected_failure is None


def test_usage_errors_come_before_spark(capsys):
    assert cli.main(["pipeline", "conformance", "--impl", "no-such-testee"]) == 2
    assert cli.main(["pipeline", "conformance", "--impl", "logcodec", "--format", "kafka.nope"]) == 2
    assert cli.main(["pipeline", "conformance", "--impl", "logcodec", "--master", "nowhere"]) == 2
    assert cli.main(["pipeline", "conformance", "--impl", "logcodec", "--testee", "x"]) == 2
    assert cli.main(["pipeline", "conformance"]) == 2
    assert cli.main(["pipeline", "conformance", "--testee", "x", "--expected-failures", "/no/such.yaml"]) == 2
    err = capsys.readouterr().err
    assert "no shipped testee" in err and "kafka.nope" in err and "--master" in err
    assert "give --impl NAME or --testee COMMAND" in err and "/no/such.yaml: no such file" in err


# ---------------------------------------------------------------- on Spark


def outcomes(verdicts):
    return [(v.case.id, v.outcome, v.detail, v.diff, v.kind_differs) for v in verdicts]


@pytest.mark.parametrize("impl", ["logcodec", "kafka-python"])
def test_pipeline_verdicts_equal_the_single_process_runner(spark, impl):
    if SHIPPED[impl].missing():
        pytest.skip(SHIPPED[impl].missing())
    from logcodec.pipeline import conformance

    verdicts, info, bad = conformance.run(impl, count=COUNT, seed=3, formats=FORMATS, spark=spark, partitions=3)
    single, single_info = runner.run(list(SHIPPED[impl].command), rv.random_cases(FORMATS, COUNT, 3))
    assert len(verdicts) == 2 * COUNT * len(FORMATS)
    assert outcomes(verdicts) == outcomes(single)
    assert info.implementation == single_info.implementation and info.restarts == 0 and not info.gave_up
    assert info.unsupported_fields == single_info.unsupported_fields
    single_bad = conformance.apply_expected(expected.load(SHIPPED[impl].expected_failures), single)
    assert [v.case.id for v in bad] == [v.case.id for v in single_bad]
    if impl == "logcodec":
        assert {v.outcome for v in verdicts} == {"pass"} and not bad
    else:  # kafka-python knows Kafka batches only
        assert {v.outcome for v in verdicts if v.case.format == "tank.bundle"} == {"skipped"}
        assert any(v.outcome == "pass" for v in verdicts if v.case.format == "kafka.record_batch_v2")


def test_the_command_writes_the_reports_of_conformance_run(spark, tmp_path, capsys):
    jsonl, junit = tmp_path / "run.jsonl", tmp_path / "run.xml"
    status = cli.main(["pipeline", "conformance", "--impl", "logcodec", "--count", "5", "--seed", "9",
                       "--format", "kafka.record_batch_v2", "--json", str(jsonl), "--junit", str(junit)])
    assert status == 0
    out = capsys.readouterr().out
    assert "testee: logcodec" in out and "kafka.record_batch_v2" in out and "outcomes: pass 10" in out
    lines = [json.loads(line) for line in jsonl.read_text().splitlines()]
    assert lines[0]["type"] == "run" and lines[0]["implementation"]["name"] == "logcodec"
    assert [(d["op"], d["outcome"]) for d in lines[1:]] == [("decode", "pass"), ("encode", "pass")] * 5
    expected_ids = [c.id for c in rv.random_cases(["kafka.record_batch_v2"], 5, 9)]
    assert [d["id"] for d in lines[1:]] == expected_ids
    suite = ET.parse(junit).getroot().find("testsuite")
    assert suite.get("tests") == "10" and suite.get("failures") == "0"


def test_a_testee_command_runs_on_the_executors_with_its_expected_failures(spark, tmp_path):
    """`--testee COMMAND`: any implementation speaking the protocol, here kafka-python's testee by its
    command line: the verdicts of `--impl`; `--expected-failures FILE` excuses what it lists."""
    shipped = SHIPPED["kafka-python"]
    if shipped.missing():
        pytest.skip(shipped.missing())
    from logcodec.pipeline import conformance

    command = " ".join(shipped.command)
    by_command = conformance.run(testee=command, count=COUNT, seed=3, formats=FORMATS, spark=spark, partitions=2)
    by_name = conformance.run("kafka-python", count=COUNT, seed=3, formats=FORMATS, spark=spark, partitions=3)
    assert outcomes(by_command[0]) == outcomes(by_name[0])
    failing = [v.case.id for v in by_command[2]]
    assert failing  # seed 3 finds a kafka-python bug (a record whose attributes byte is 0xff)
    failures = tmp_path / "failures.yaml"
    failures.write_text(json.dumps({"implementation": "kafka-python",
                                    "failures": [{"id": case, "reason": "a test"} for case in failing]}))
    excused = conformance.run(testee=command, expected_failures=failures, count=COUNT, seed=3, formats=FORMATS,
                              spark=spark, partitions=2)
    assert excused[2] == [] and outcomes(excused[0]) == outcomes(by_name[0])
    assert {v.case.id for v in excused[0] if v.expected_failure == "a test"} == set(failing)
