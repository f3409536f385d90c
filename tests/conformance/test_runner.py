"""The harness detects every outcome, survives broken testees, and reports in every format."""

import json
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from logcodec.conformance import expected, report, runner
from logcodec.conformance.judge import build_cases

BROKEN = str(Path(__file__).parent / "broken_testee.py")
# The broken testee's faults are written for Kafka batches (it shifts base_offset).
CASES = build_cases(["kafka.record_batch_v2"])
# The bytes of one vector, to aim a fault at: basic/tombstone (a null value).
TOMBSTONE = next(c for c in CASES if c.id == "kafka.record_batch_v2:decode:basic/tombstone")
TRIGGER = TOMBSTONE.test["bytes"]


def run(mode: str, trigger: str = "", cases=CASES, **kw):
    return runner.run([sys.executable, BROKEN, mode, trigger], cases, **kw)


def outcomes(verdicts):
    out = {}
    for v in verdicts:
        out.setdefault(v.outcome, []).append(v.case.id)
    return out


def test_a_correct_testee_passes_everything():
    verdicts, info = run("ok")
    assert {v.outcome for v in verdicts} == {"pass"} and len(verdicts) == len(CASES) > 200
    assert info.restarts == 0 and info.implementation["name"] == "broken-ok"


def test_wrong_values_fail_with_a_diff():
    verdicts, _ = run("wrong_value", '"op": "decode"')
    failed = [v for v in verdicts if v.outcome == "fail"]
    valid_decodes = [c for c in CASES if c.op == "decode" and c.result == "valid"]
    assert len(failed) == len(valid_decodes)
    assert all(v.diff and v.diff[0].startswith("base_offset: expected") for v in failed)
    assert all(v.outcome == "pass" for v in verdicts if v.case.op == "encode")


def test_a_crash_mid_run_is_charged_and_the_run_goes_on():
    verdicts, info = run("crash", window=1)
    crashed = [v for v in verdicts if v.outcome == "crash"]
    assert crashed and info.restarts == len(crashed)
    assert all("simulated crash" in v.detail for v in crashed)  # the testee's stderr is kept
    assert sum(v.outcome == "pass" for v in verdicts) == len(CASES) - len(crashed)


def test_a_hang_times_out_that_vector_only():
    started = time.monotonic()
    verdicts, info = run("hang", TRIGGER, timeout=1.0)
    assert time.monotonic() - started < 20
    by = outcomes(verdicts)
    assert by["timeout"] == [TOMBSTONE.id]
    assert info.restarts == 1 and len(by["pass"]) == len(CASES) - 1


def test_garbage_on_stdout_is_a_crash_of_that_vector():
    verdicts, info = run("garbage", TRIGGER)
    by = outcomes(verdicts)
    assert by["crash"] == [TOMBSTONE.id] and "not a JSON answer" in verdicts[CASES.index(TOMBSTONE)].detail
    assert len(by["pass"]) == len(CASES) - 1


def test_a_wrong_seq_is_a_crash_of_that_vector():
    verdicts, _ = run("wrong_seq", TRIGGER)
    by = outcomes(verdicts)
    assert by["crash"] == [TOMBSTONE.id] and "was not asked" in verdicts[CASES.index(TOMBSTONE)].detail
    assert len(by["pass"]) == len(CASES) - 1


def test_a_testee_that_always_crashes_costs_bounded_time():
    started = time.monotonic()
    verdicts, info = run("always_crash")
    assert time.monotonic() - started < 30
    by = outcomes(verdicts)
    assert len(by["crash"]) == 3 and len(by["not_run"]) == len(CASES) - 3
    assert "gave up" in info.gave_up


@pytest.mark.parametrize("mode", ["never_start", "slow_start"])
def test_a_testee_that_does_not_start_is_reported(mode):
    verdicts, info = run(mode, start_timeout=2.0)
    assert {v.outcome for v in verdicts} == {"not_run"} and "did not start" in info.gave_up


def test_expected_failures_cover_failures_and_catch_passes(tmp_path):
    verdicts, info = run("wrong_value", TRIGGER)
    listed = tmp_path / "expected.yaml"
    listed.write_text("failures:\n  - id: kafka.record_batch_v2:decode:basic/tomb\n    reason: test\n"
                      "  - id: kafka.record_batch_v2:decode:basic/one_record\n    reason: stale entry\n")
    entries = expected.load(listed)
    bad = expected.apply(entries, verdicts)
    # the listed failure is expected; the listed case that passes makes the run fail
    assert [v.case.id for v in bad] == ["kafka.record_batch_v2:decode:basic/one_record"]
    assert verdicts[CASES.index(TOMBSTONE)].expected_failure == "test"
    expected.write(listed, "broken", entries, verdicts)
    rewritten = expected.load(listed)
    assert [(e.id, e.reason) for e in rewritten] == [(TOMBSTONE.id, "test")]
    assert expected.apply(rewritten, verdicts) == []


def test_reports(tmp_path):
    verdicts, info = run("wrong_value", TRIGGER)
    bad = expected.apply([], verdicts)
    text = report.summary(verdicts, bad, info)
    assert "kafka.record_batch_v2" in text and "1 unexpected result" in text and "base_offset" in text
    report.write_jsonl(tmp_path / "r.jsonl", verdicts, info)
    lines = [json.loads(x) for x in (tmp_path / "r.jsonl").read_text().splitlines()]
    assert lines[0]["type"] == "run" and len(lines) == len(CASES) + 1
    assert sum(x.get("outcome") == "fail" for x in lines) == 1
    report.write_junit(tmp_path / "r.xml", verdicts, info)
    suite = ET.parse(tmp_path / "r.xml").getroot().find("testsuite")
    assert suite.get("tests") == str(len(CASES)) and suite.get("failures") == "1"
    assert len(suite.findall("testcase/failure")) == 1


def test_invalid_vectors_must_be_refused_and_kinds_are_compared():
    from logcodec.conformance.judge import judge

    invalid = next(c for c in CASES if c.result == "invalid" and c.test["error"] == "checksum_mismatch")
    assert judge(invalid, {"seq": 1, "ok": True, "value": {}}, []).outcome == "fail"
    same = judge(invalid, {"seq": 1, "ok": False, "error": {"kind": "checksum_mismatch"}}, [])
    other = judge(invalid, {"seq": 1, "ok": False, "error": {"kind": "truncated"}}, [])
    unknown = judge(invalid, {"seq": 1, "ok": False, "error": {"kind": None}}, [])
    assert (same.outcome, same.kind_differs) == ("pass", "")
    assert other.outcome == "pass" and other.kind_differs == "expected checksum_mismatch, testee said truncated"
    assert (unknown.outcome, unknown.kind_differs) == ("pass", "")
