"""Run the cases through a testee: pipelined, isolated, and always finished.

Requests are pipelined (up to `window` in flight) so the protocol never limits a
fast implementation. Each answer must arrive within `timeout` seconds of its
request. A testee that crashes, hangs, writes something that is not an answer
or answers a `seq` it was not asked is charged with the oldest unanswered case,
restarted, and the other unanswered cases are sent again. After
`max_restarts_in_a_row` such failures without a good answer between them, or
repeated time-outs (see `Breaker`), the rest of the cases are `not_run`, so a
broken testee costs bounded time. A testee that does not start is reported
once, with its exit status and the tail of its standard error (`RunInfo`).
"""

from __future__ import annotations

import json
import shlex
import time
from collections import deque
from dataclasses import dataclass, field, replace
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
    stderr: str = ""  # the tail of the testee's standard error, when it failed
    gave_up: str = ""  # why the run stopped before every case had a verdict
    command: str = ""


@dataclass
class Breaker:
    """When to stop waiting on a failing testee, so that a broken one costs bounded time.

    A testee that is slow on one rare vector loses that vector only (a time-out,
    then a restart); one that crashes or hangs again and again is cut off, and
    the cases left are `not_run`. It trips on
    - `crashes_in_a_row` crashes or time-outs without a good answer between them;
    - `timeouts_in_window` time-outs among the last `window` requests finished: a
      testee that hangs on every fifth request answers in between, so the first
      rule never trips, yet each hang costs a whole time-out;
    - `max_timeouts` time-outs in the whole run, so rarer hangs cannot add up
      to hours either;
    - and the run stops when `budget` seconds of wall time (if given) are spent.
    """

    crashes_in_a_row: int = 3
    timeouts_in_window: int = 5
    window: int = 50
    max_timeouts: int = 20
    budget: float | None = None
    timeout: float = 0.0  # the per-request time-out, for the messages

    def __post_init__(self) -> None:
        self.failures_in_a_row = 0
        self.timeouts = 0
        self.recent: deque[bool] = deque(maxlen=self.window)  # True: that request timed out

    def answered(self) -> None:
        self.failures_in_a_row = 0
        self.recent.append(False)

    def failed(self, outcome: str) -> None:
        self.failures_in_a_row += 1
        timed_out = outcome == "timeout"
        self.timeouts += timed_out
        self.recent.append(timed_out)

    def tripped(self) -> str:
        """Why to stop now, or "" to go on."""
        each = f" ({self.timeout:g} s each)" if self.timeout else ""
        if self.failures_in_a_row >= self.crashes_in_a_row:
            return f"gave up after {self.failures_in_a_row} crashes or time-outs in a row"
        if sum(self.recent) >= self.timeouts_in_window:
            return f"gave up after {sum(self.recent)} of the last {len(self.recent)} requests timed out{each}"
        if self.timeouts >= self.max_timeouts:
            return f"gave up after {self.timeouts} time-outs in the run{each}"
        return ""

    def budget_spent(self) -> str:
        return f"stopped when the run's time budget of {self.budget:g} s was spent"


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
            raise StartFailed("answered the handshake with something that is not JSON: "
                              f"{bytes(line[:200]).decode('utf-8', 'replace')!r}") from None
        if not isinstance(msg, dict) or msg.get("type") != "started":
            raise StartFailed(f"answered the handshake with {str(msg)[:200]}")
        return msg


def run(command, cases: list[Case], *, timeout: float = 10.0, start_timeout: float = 60.0, window: int = 64,
        max_restarts_in_a_row: int = 3, breaker: Breaker | None = None,
        progress: Callable[[int, int], None] | None = None, cwd: str | None = None) -> tuple[list[Verdict], RunInfo]:
    """Every case's verdict, in the order of `cases`, and how the run went.

    `breaker` says when to stop waiting on a failing testee (by default: after
    `max_restarts_in_a_row` crashes or time-outs in a row, or the Breaker's
    limits on time-outs); the cases left are then `not_run`, with the reason.
    """
    info = RunInfo(command=command if isinstance(command, str) else shlex.join(command))
    breaker = replace(breaker or Breaker(crashes_in_a_row=max_restarts_in_a_row), timeout=timeout)
    verdicts: dict[str, Verdict] = {}
    todo = deque(cases)
    testee = Testee(command, cwd)
    started_at = time.monotonic()
    budget_ends = started_at + breaker.budget if breaker.budget is not None else float("inf")
    seq = 0

    def start() -> bool:
        try:
            testee.start()
            hello = handshake(testee, start_timeout)
        except (StartFailed, TesteeGone, OSError) as exc:
            info.gave_up = f"the testee did not start: {str(exc).replace('the testee ', 'it ', 1)}"
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
        stderr = testee.stderr
        verdicts[case.id] = Verdict(case, outcome, detail + (f"; stderr: {stderr[-500:]}" if stderr else ""))
        info.stderr = stderr or info.stderr
        breaker.failed(outcome)

    if not start():
        info.seconds = time.monotonic() - started_at
        return _not_run(cases, verdicts, info), info

    inflight: dict[int, tuple[Case, float]] = {}
    while todo or inflight:
        if time.monotonic() >= budget_ends:
            info.gave_up = breaker.budget_spent()
            break
        # Fill the window; unsupported formats and operations are skipped without asking.
        while todo and len(inflight) < window:
            case = todo.popleft()
            if not supported(case):
                verdicts[case.id] = Verdict(case, "skipped", f"the testee does not {case.op} {case.format}")
                continue
            seq += 1
            inflight[seq] = (case, time.monotonic())
            try:
                testee.send(request(case, seq))
            except TesteeGone:
                break  # the read below finds the testee gone and charges the oldest unanswered case
        if not inflight:
            continue
        oldest_seq = next(iter(inflight))
        oldest_case, sent = inflight[oldest_seq]
        problem = None
        try:
            line = testee.read_line(min(sent + timeout, budget_ends))
        except TesteeGone as exc:
            line, problem = None, ("crash", f"{exc}")
        if line is None and problem is None:
            if time.monotonic() >= budget_ends and time.monotonic() < sent + timeout:
                continue  # the budget ran out first: not the testee's time-out
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
                    breaker.answered()
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
        if breaker.tripped():
            info.gave_up = breaker.tripped()
            break
        info.restarts += 1
        if not start():
            break
        if progress:
            progress(len(verdicts), len(cases))
    todo.extendleft(reversed([case for case, _ in inflight.values()]))  # the budget ran out with these asked
    testee.stop()
    info.seconds = time.monotonic() - started_at
    return _not_run(cases, verdicts, info), info


def _not_run(cases: list[Case], verdicts: dict[str, Verdict], info: RunInfo) -> list[Verdict]:
    """The verdicts in case order, every case without one `not_run` with the reason the run stopped."""
    reason = f"not run: {info.gave_up or 'not reached'}"
    return [verdicts.get(c.id) or Verdict(c, "not_run", reason) for c in cases]
