"""Run the cases through a testee: pipelined, isolated, and always finished.

Requests are pipelined (up to `window` in flight) so the protocol never limits a
fast implementation. Each answer must arrive within `timeout` seconds of its
request. A testee that crashes, hangs, writes something that is not an answer
or answers a `seq` it was not asked is charged with the oldest unanswered case,
restarted, and the other unanswered cases are sent again. After
`max_restarts_in_a_row` such failures without a good answer between them, the
rest of the cases are `not_run`, so a broken testee costs bounded time.
"""

from __future__ import annotations

import json
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Callable

from .judge import Case, Verdict, judge, request
from .process import Testee, TesteeGone

PROTOCOL = 1


@dataclass
class RunInfo:
    """What the testee said about itself, and how the run went."""

    implementation: dict = field(default_factory=dict)
    formats: dict = field(default_factory=dict)
    unsupported_fields: dict = field(default_factory=dict)
    restarts: int = 0
    seconds: float = 0.0
    stderr: str = ""
    gave_up: str = ""


class StartFailed(Exception):
    pass


def handshake(testee: Testee, timeout: float) -> dict:
    testee.send({"type": "start", "protocol": PROTOCOL})
    deadline = time.monotonic() + timeout
    while True:
        line = testee.read_line(deadline)
        if line is None:
            raise StartFailed(f"no `started` answer within {timeout:g} s")
        if not line.strip():
            continue
        try:
            msg = json.loads(line)
        except ValueError:
            raise StartFailed(f"answered the handshake with something that is not JSON: {line[:200]!r}") from None
        if not isinstance(msg, dict) or msg.get("type") != "started":
            raise StartFailed(f"answered the handshake with {str(msg)[:200]}")
        return msg


def run(command, cases: list[Case], *, timeout: float = 10.0, start_timeout: float = 60.0, window: int = 64,
        max_restarts_in_a_row: int = 3, progress: Callable[[int, int], None] | None = None,
        cwd: str | None = None) -> tuple[list[Verdict], RunInfo]:
    info = RunInfo()
    verdicts: dict[str, Verdict] = {}
    todo = deque(cases)
    testee = Testee(command, cwd)
    started_at = time.monotonic()
    failures_in_a_row = 0
    seq = 0

    def start() -> bool:
        try:
            testee.start()
            hello = handshake(testee, start_timeout)
        except (StartFailed, TesteeGone, OSError) as exc:
            info.gave_up = f"the testee did not start: {exc}"
            info.stderr = testee.stderr if testee.proc else ""
            testee.kill()
            return False
        info.implementation = hello.get("implementation") or {}
        info.formats = hello.get("formats") or {}
        info.unsupported_fields = hello.get("unsupported_fields") or {}
        return True

    def supported(case: Case) -> bool:
        return case.op in info.formats.get(case.format, [])

    def charge(case: Case, outcome: str, detail: str) -> None:
        nonlocal failures_in_a_row
        stderr = testee.stderr
        verdicts[case.id] = Verdict(case, outcome, detail + (f"; stderr: {stderr[-500:]}" if stderr else ""))
        info.stderr = stderr or info.stderr
        failures_in_a_row += 1

    if not start():
        for case in todo:
            verdicts[case.id] = Verdict(case, "not_run", info.gave_up)
        return [verdicts[c.id] for c in cases], info

    inflight: dict[int, tuple[Case, float]] = {}
    while todo or inflight:
        # Fill the window; unsupported formats and operations are skipped without asking.
        while todo and len(inflight) < window:
            case = todo.popleft()
            if not supported(case):
                verdicts[case.id] = Verdict(case, "skipped", f"the testee does not {case.op} {case.format}")
                continue
            seq += 1
            try:
                testee.send(request(case, seq))
            except TesteeGone:
                todo.appendleft(case)
                break
            inflight[seq] = (case, time.monotonic())
        if not inflight:
            continue
        oldest_seq = next(iter(inflight))
        oldest_case, sent = inflight[oldest_seq]
        problem = None
        try:
            line = testee.read_line(sent + timeout)
        except TesteeGone as exc:
            line, problem = None, ("crash", f"{exc}")
        if line is None and problem is None:
            problem = ("timeout", f"no answer within {timeout:g} s")
        if problem is None and line.strip():
            try:
                answer = json.loads(line)
                answer_seq = answer.get("seq") if isinstance(answer, dict) else None
            except ValueError:
                answer, answer_seq = None, None
                problem = ("crash", f"wrote something that is not a JSON answer: {line[:120]!r}")
            if problem is None:
                if answer_seq not in inflight:
                    problem = ("crash", f"answered seq {answer_seq!r}, which was not asked (or was answered already)")
                else:
                    case, sent = inflight.pop(answer_seq)
                    verdict = judge(case, answer, info.unsupported_fields.get(case.format, []))
                    verdict.seconds = time.monotonic() - sent
                    verdicts[case.id] = verdict
                    failures_in_a_row = 0
                    if progress:
                        progress(len(verdicts), len(cases))
                    continue
        if problem is None:
            continue  # a blank line
        # Charge the oldest unanswered case, restart, and send the others again.
        inflight.pop(oldest_seq)
        charge(oldest_case, *problem)
        todo.extendleft(reversed([case for case, _ in inflight.values()]))
        inflight.clear()
        testee.kill()
        if failures_in_a_row >= max_restarts_in_a_row:
            info.gave_up = f"gave up after {failures_in_a_row} crashes or timeouts in a row"
            break
        info.restarts += 1
        if not start():
            break
        if progress:
            progress(len(verdicts), len(cases))
    for case in todo:
        verdicts.setdefault(case.id, Verdict(case, "not_run", info.gave_up or "not reached"))
    testee.stop()
    info.seconds = time.monotonic() - started_at
    return [verdicts[c.id] for c in cases], info
