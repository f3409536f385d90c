"""The harness under faults: a testee that does not start, hangs again and again, or runs out of time.

A start-up failure is reported once, with the real exit status and the testee's last words;
repeated time-outs trip a breaker so a hanging testee costs bounded time, and the cases left
are `not_run` (typed in every report, never a pass, never an expected failure that "now passes").
"""

import json
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

from logcodec.conformance import expected, process, report, runner
from logcodec.conformance.judge import build_cases

BROKEN = str(Path(__file__).parent / "broken_testee.py")
# Decode cases only: every vector once, and no dependence on the encoder under work elsewhere.
DECODES = build_cases(["kafka.record_batch_v2"], ("decode",))


def run(mode: str, cases=DECODES, **kw):
    return runner.run([sys.executable, BROKEN, mode], cases, **kw)


def by_outcome(verdicts) -> dict[str, list]:
    out: dict[str, list] = {}
    for v in verdicts:
        out.setdefault(v.outcome, []).append(v)
    return out


# ---------------------------------------------------------------- a testee that does not start


def test_the_exit_status_is_collected_before_it_is_reported():
    # The output closes a moment before the process can be reaped: asked at once, the
    # status used to be None. Many short-lived processes make that race show.
    for _ in range(20):
        testee = process.Testee([sys.executable, "-c", "import sys; sys.stderr.write('bye'); sys.exit(4)"])
        testee.start()
        try:
            testee.read_line(time.monotonic() + 10)
        except process.TesteeGone as exc:
            assert str(exc) == "the testee exited with status 4" and testee.stderr == "bye"
        else:
            raise AssertionError("the testee's exit was not noticed")
        finally:
            testee.kill()


def test_a_killed_testee_is_named_by_its_signal():
    testee = process.Testee([sys.executable, "-c", "import os, signal; os.kill(os.getpid(), signal.SIGKILL)"])
    testee.start()
    try:
        testee.read_line(time.monotonic() + 10)
        raise AssertionError("the testee's death was not noticed")
    except process.TesteeGone as exc:
        assert str(exc) == "the testee was killed by SIGKILL"
    finally:
        testee.kill()


def test_a_start_up_failure_is_reported_once_with_status_and_stderr(tmp_path):
    verdicts, info = run("import_error")
    assert {v.outcome for v in verdicts} == {"not_run"} and len(verdicts) == len(DECODES)
    assert info.gave_up == "the testee did not start: it exited with status 1"
    assert "ModuleNotFoundError: No module named 'a_module_that_does_not_exist'" in info.stderr
    # Each case names the reason, without the traceback.
    assert all(v.detail == f"not run: {info.gave_up}" for v in verdicts)

    text = report.summary(verdicts, expected.apply([], verdicts), info)
    assert text.count("ModuleNotFoundError") == 1 and text.count("exited with status 1") == 2  # top and tally
    assert text.index("ModuleNotFoundError") < text.index("format ")  # at the top, above the table
    assert f"{len(DECODES)} case(s) not run: the testee did not start" in text
    assert "basic/one_record" not in text  # not case by case

    report.write_jsonl(tmp_path / "r.jsonl", verdicts, info)
    run_line, *case_lines = [json.loads(x) for x in (tmp_path / "r.jsonl").read_text().splitlines()]
    assert "ModuleNotFoundError" in run_line["stderr"] and run_line["gave_up"] == info.gave_up
    assert run_line["command"].endswith("broken_testee.py import_error")
    assert {c["outcome"] for c in case_lines} == {"not_run"}
    assert not any("ModuleNotFoundError" in c["detail"] for c in case_lines)

    report.write_junit(tmp_path / "r.xml", verdicts, info)
    suites = ET.parse(tmp_path / "r.xml").getroot().findall("testsuite")
    errors = [e for s in suites for e in s.iter("error")]
    assert len(errors) == 1 and "ModuleNotFoundError" in errors[0].text
    assert errors[0].get("message") == info.gave_up
    skipped = [s for suite in suites for s in suite.iter("skipped")]
    assert len(skipped) == len(DECODES) and all(s.get("message").startswith("not run: ") for s in skipped)


def test_a_testee_that_quits_between_answers_is_charged_and_the_run_ends():
    # It exits after its 4th answer, with nothing in flight: the next request finds its input
    # closed, and must be charged as a crash, not retried forever.
    verdicts, info = run("quit", DECODES[:40], window=1)
    crashed = by_outcome(verdicts)["crash"]
    assert crashed and all("exited with status 0" in v.detail for v in crashed)
    assert len(by_outcome(verdicts)["pass"]) + len(crashed) == 40 and not info.gave_up


# ---------------------------------------------------------------- the time-out breaker


def test_a_testee_that_hangs_again_and_again_stops_costing_time():
    # It hangs on every fifth request: answers in between keep the crash breaker from
    # tripping, so without the time-out breaker every fifth case would cost the whole time-out.
    cases = DECODES[:150]
    started = time.monotonic()
    verdicts, info = run("hang_often", cases, timeout=0.2)
    elapsed = time.monotonic() - started
    by = by_outcome(verdicts)
    assert len(by["timeout"]) == runner.Breaker().timeouts_in_window == 5
    assert len(by["pass"]) == 20 and len(by["not_run"]) == len(cases) - 25
    assert info.gave_up == "gave up after 5 of the last 25 requests timed out (0.2 s each)"
    assert all(v.detail == f"not run: {info.gave_up}" for v in by["not_run"])
    assert elapsed < 0.2 * len(cases) / 5  # the time-outs alone would take this long without the breaker


def test_a_testee_slow_on_one_vector_is_not_cut_off():
    tombstone = next(c for c in DECODES if c.id.endswith("basic/tombstone"))
    verdicts, info = runner.run([sys.executable, BROKEN, "hang", tombstone.test["bytes"]], DECODES, timeout=0.5)
    by = by_outcome(verdicts)
    assert [v.case for v in by["timeout"]] == [tombstone] and len(by["pass"]) == len(DECODES) - 1
    assert "not_run" not in by and not info.gave_up


def breaker_after(events: str, **limits) -> runner.Breaker:
    """A breaker fed `events`: `.` an answer, `T` a time-out, `C` a crash."""
    breaker = runner.Breaker(**limits)
    for event in events:
        breaker.answered() if event == "." else breaker.failed("timeout" if event == "T" else "crash")
    return breaker


def test_the_breaker_lets_rare_time_outs_pass():
    assert breaker_after(("." * 45 + "T") * 19).tripped() == ""  # 19 rare ones: at most 2 in any 50
    assert breaker_after("T" + "." * 20 + "TT" + "." * 20 + "T").tripped() == ""  # 4 in 45
    assert breaker_after("CC." * 50).tripped() == ""  # crashes, but never 3 in a row


def test_the_breaker_trips_on_repeated_time_outs_or_crashes():
    assert breaker_after("....T" * 5).tripped() == "gave up after 5 of the last 25 requests timed out"
    assert breaker_after(("." * 45 + "T") * 20).tripped() == "gave up after 20 time-outs in the run"
    assert breaker_after("..CTC").tripped() == "gave up after 3 crashes or time-outs in a row"
    assert breaker_after("....T" * 5, timeouts_in_window=6).tripped() == ""


def test_a_time_budget_stops_the_run_without_charging_the_testee():
    verdicts, info = run("slow", DECODES, window=1, breaker=runner.Breaker(budget=1.0))
    by = by_outcome(verdicts)
    assert info.seconds < 5 and "timeout" not in by and "crash" not in by
    assert 10 < len(by["pass"]) < len(DECODES) and len(by["pass"]) + len(by["not_run"]) == len(DECODES)
    assert info.gave_up == "stopped when the run's time budget of 1 s was spent"


# ---------------------------------------------------------------- not_run in reports and expected-failure lists


def test_not_run_is_never_a_pass_nor_an_expected_failure_that_now_passes(tmp_path):
    verdicts, info = run("always_crash", DECODES[:10])
    by = by_outcome(verdicts)
    assert len(by["crash"]) == 3 and len(by["not_run"]) == 7
    listed = tmp_path / "expected.yaml"
    listed.write_text("failures:\n  - id: \"kafka.record_batch_v2:decode:\"\n    reason: every decode fails\n")
    bad = expected.apply(expected.load(listed), verdicts)
    assert bad == []  # the crashes are expected; the cases not run are not "passes" to be unlisted
    row = report.counts(verdicts)[("kafka.record_batch_v2", "decode")]
    assert (row["not run"], row["expected"], row["passed"], row["unexpected pass"]) == (7, 3, 0, 0)
    # Unlisted, a case not run fails the run.
    assert [v.outcome for v in expected.apply([], verdicts)] == ["crash"] * 3 + ["not_run"] * 7


def test_not_run_of_an_acceptable_vector_is_counted_as_not_run():
    acceptable = [c for c in build_cases(ops=("decode",)) if c.result == "acceptable"]
    assert acceptable, "no acceptable vector to run"
    verdicts, _ = run("import_error", acceptable)
    rows = report.counts(verdicts).values()
    assert sum(row["not run"] for row in rows) == len(acceptable) and sum(row["acceptable"] for row in rows) == 0


def test_updating_the_list_after_a_run_that_gave_up_keeps_the_entries_of_cases_not_run(tmp_path):
    verdicts, info = run("always_crash", DECODES[:10])
    assert info.gave_up
    listed = tmp_path / "expected.yaml"
    ids = [v.case.id for v in verdicts]
    listed.write_text("failures:\n" + "".join(f"  - id: {i!r}\n    reason: known\n" for i in ids[-2:]))
    kept = expected.write(listed, "broken", expected.load(listed), verdicts)
    assert {e.id for e in kept} == set(ids[:3]) | set(ids[-2:])  # the 3 crashes, and the 2 listed, not run


def test_the_command_line_fails_a_run_that_gave_up_even_when_every_case_is_listed(tmp_path):
    import subprocess

    listed = tmp_path / "expected.yaml"
    listed.write_text("failures:\n  - id: \"kafka.record_batch_v2:decode:\"\n    reason: every decode fails\n")
    done = subprocess.run([sys.executable, "-m", "logcodec", "conformance", "run", "--quiet",
                           "--testee", f"{sys.executable} {BROKEN} always_crash", "--op", "decode",
                           "--format", "kafka.record_batch_v2", "--expected-failures", str(listed)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 1 and "gave up" in done.stdout
