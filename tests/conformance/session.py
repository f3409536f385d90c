"""The shared driver of the testee tests: a protocol session on the harness's own client
(``process.Testee``, ``runner.handshake``), the verdict the harness's judge gives plus the checks
it lets through (a malformed answer; in a decoded value a field left out rather than null, a field
the format does not have, a bool for an int), and full-vector runs.

Used by test_python_testees.py, test_node_testees.py and test_confluent_testee.py.
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass
from pathlib import Path

from logcodec import KINDS
from logcodec.conformance import judge, process, runner
from logcodec.conformance.judge import Case, Verdict

ROOT = Path(__file__).resolve().parents[2]
FORMAT = "kafka.record_batch_v2"
TIMEOUT = 120  # seconds for one answer (the decompression bomb's answer is 130 MB of JSON)
TESTS = {t["tcId"]: t for group in judge.vector_file(FORMAT)["testGroups"] for t in group["tests"]}


# ---------------------------------------------------------------- the harness's client and judge, stricter

class Session:
    """One testee process, started and handshaken with the harness's client."""

    def __init__(self, command, timeout: float = TIMEOUT) -> None:
        self.testee, self.timeout = process.Testee(list(command), cwd=str(ROOT)), timeout
        self.testee.start()
        try:
            self.hello = runner.handshake(self.testee, timeout)
        except BaseException:
            self.testee.kill()
            raise
        assert self.hello.get("protocol") == runner.PROTOCOL, self.hello

    def __enter__(self) -> Session:
        return self

    def __exit__(self, *_) -> None:
        self.testee.kill()

    def ask(self, requests: list[dict]) -> list[dict]:
        """Send the `run` requests (numbered here) pipelined; their answers, in the same order."""
        for seq, request in enumerate(requests):
            self.testee.send({**request, "seq": seq})
        answers: dict[int, dict] = {}
        while len(answers) < len(requests):
            try:
                line = self.testee.read_line(time.monotonic() + self.timeout)
            except process.TesteeGone as exc:
                raise process.TesteeGone(f"{exc}; stderr: {self.testee.stderr[-2000:]}") from None
            assert line is not None, f"no answer within {self.timeout:g} s; stderr: {self.testee.stderr[-2000:]}"
            answer = json.loads(line)
            assert answer.get("seq") in range(len(requests)) and answer["seq"] not in answers, line[:300]
            answers[answer["seq"]] = answer
        return [answers[seq] for seq in range(len(requests))]

    def stop(self, timeout: float = 20) -> int:
        """`stop`, with the input left open (the testee must exit by itself); its exit status."""
        deadline = time.monotonic() + timeout
        try:
            self.testee.send({"type": "stop"})
            while self.testee.read_line(deadline) is not None:
                pass
            raise AssertionError(f"still running {timeout:g} s after `stop`")
        except process.TesteeGone:
            return self.testee.proc.wait(timeout=max(deadline - time.monotonic(), 1))
        finally:
            self.testee.kill()


def variant(label: str, name: str, value: dict) -> Case:
    """An encode case for a value no vector has. The judge caches by tcId, so the tcId names the value."""
    digest = hashlib.sha256(json.dumps(value, sort_keys=True).encode()).hexdigest()[:16]
    return Case(f"{FORMAT}:{label}:{name}", FORMAT, "encode", {"tcId": f"{label}/{name}/{digest}", "result": "valid",
                                                               "value": value})


def verdict(case: Case, answer: dict, unsupported: list[str], null_left_out: bool = False) -> Verdict:
    """judge.judge on a well-formed answer; a decoded value must also pass `unjudged`."""
    if answer.get("ok") is True:
        assert ("value" if case.op == "decode" else "bytes") in answer, answer
    else:
        assert answer.get("ok") is False and ("unsupported" in answer) != ("error" in answer), answer
        assert "error" not in answer or answer["error"]["kind"] in (None, *KINDS), answer
    result = judge.judge(case, answer, unsupported)
    if case.op == "decode" and case.result == "valid" and answer["ok"]:
        extra = unjudged(case, answer["value"], unsupported, null_left_out)
        if extra:
            result.outcome, result.detail = "fail", result.detail or "decoded to a different value"
            result.diff += extra
    return result


def unjudged(case: Case, value, unsupported: list[str], null_left_out: bool = False) -> list[str]:
    """What judge.judge lets through in a decoded value: a field left out (null is fine only for a derived one;
    with `null_left_out`, also for a field the vector has null: a Kafka frame's field of other versions), a
    field the value does not have, a value equal but of another JSON type. (A derived value given wrong is the
    judge's to fail.)"""
    out: list[str] = []

    def walk(want, kept, got, where):  # kept: `want` as judge.comparable keeps it (no omittable fields)
        if isinstance(want, dict) and isinstance(got, dict):
            kept = kept if isinstance(kept, dict) else want
            out.extend(f"{where}{k}: not a field of the value" for k in got if k not in want)
            for k in want:
                if where + k in unsupported:
                    continue
                if k not in kept:  # derived: null or left out, or right (the judge compares the value)
                    if got.get(k) is not None and got[k] == want[k] and type(got[k]) is not type(want[k]):
                        out.append(f"{where}{k}: expected {want[k]!r}, got {got[k]!r}")
                elif k not in got:
                    if not (null_left_out and want[k] is None):
                        out.append(f"{where}{k}: missing")
                else:
                    walk(want[k], kept[k], got[k], f"{where}{k}.")
        elif isinstance(want, list) and isinstance(got, list) and isinstance(kept, list):
            for w, k, g in zip(want, kept, got):
                walk(w, k, g, where[:-1] + "[].")
        elif want == got and type(want) is not type(got):
            out.append(f"{where[:-1]}: expected {want!r}, got {got!r}")

    walk(case.test["value"], judge.comparable(case.format, case.test["value"], [], judge.omittable), value, "")
    return out


@dataclass
class Run:
    hello: dict
    status: int  # on `stop`
    answers: dict[str, dict]  # by "<op> <tcId>"
    verdicts: dict[str, Verdict]


def not_passed(verdicts: dict[str, Verdict]) -> dict[str, tuple[str, str]]:
    """(outcome, detail and diff) of each case that does not pass."""
    return {k: (v.outcome, " ".join([v.detail, *v.diff])) for k, v in verdicts.items() if v.outcome != "pass"}


def run_vectors(command, extra: list[Case] = (), *, formats: tuple[str, ...] = (FORMAT,),
                encodes_on_every_field: bool = False, null_left_out: bool = False) -> Run:
    """Every vector of `formats` (decode, and encode when declared) and the `extra` cases through one
    testee, pipelined; cases keyed "<op> <tcId>" (of more than one format, "<format> <op> <tcId>").
    `encodes_on_every_field`: judge an encode on the fields the testee declared unsupported too;
    `null_left_out`: see `unjudged`."""
    with Session(command) as session:
        cases = [c for fmt in formats for c in judge.build_cases([fmt])
                 if c.op in session.hello["formats"][fmt]] + list(extra)
        answers = session.ask([judge.request(case, 0) for case in cases])
        status = session.stop()
    run = Run(session.hello, status, {}, {})
    for case, answer in zip(cases, answers):
        key = case.id.replace(":", " ", 2) if len(formats) > 1 else case.id.split(":", 1)[1].replace(":", " ", 1)
        declared = session.hello.get("unsupported_fields", {}).get(case.format, [])
        run.answers[key] = answer
        run.verdicts[key] = verdict(case, answer, [] if encodes_on_every_field and case.op == "encode" else declared,
                                    null_left_out)
    return run


# ---------------------------------------------------------------- what does not pass, and why

# Every case that does not pass: "<op> <tcId>" -> (outcome, text the answer or verdict must contain,
# the verified reason). Outcomes: "skipped" (the testee answered unsupported) or "fail".
