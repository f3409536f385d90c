"""Reports of a run: a readable summary, JSON lines for machines, JUnit XML for CI systems."""

from __future__ import annotations

import json
import sys
import time
from collections import Counter, defaultdict
from xml.sax.saxutils import escape, quoteattr

from .expected import FAILING
from .judge import Verdict
from .runner import RunInfo


class Progress:
    """A one-line progress bar on stderr, for terminals and long runs only."""

    def __init__(self, stream=None, min_total: int = 200) -> None:
        self.stream = stream or sys.stderr
        self.enabled = self.stream.isatty()
        self.min_total = min_total
        self.last = 0.0

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if not self.enabled or total < self.min_total or (now - self.last < 0.1 and done < total):
            return
        self.last = now
        width = 30
        filled = width * done // max(total, 1)
        self.stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total}")
        if done >= total:
            self.stream.write("\n")
        self.stream.flush()


def counts(verdicts: list[Verdict]) -> dict:
    """Per format and operation: passed, failed (unexpectedly), expected failures, skipped, ..."""
    table: dict = defaultdict(Counter)
    for v in verdicts:
        row = table[(v.case.format, v.case.op)]
        if v.outcome == "not_run":  # whatever the vector: it says nothing about the testee
            row["not run"] += 1
        elif v.case.result == "acceptable":
            row["acceptable"] += 1
        elif v.expected_failure and v.outcome in FAILING:
            row["expected"] += 1
        elif v.outcome == "pass" and v.expected_failure:
            row["unexpected pass"] += 1
        elif v.outcome == "pass":
            row["passed"] += 1
        elif v.outcome == "skipped":
            row["skipped"] += 1
        else:
            row["failed"] += 1
        if v.kind_differs:
            row["kind differs"] += 1
    return table


COLUMNS = ("passed", "failed", "expected", "unexpected pass", "skipped", "not run", "acceptable", "kind differs")


STDERR_LINES = 15  # of a failed testee's standard error, shown once at the top


def summary(verdicts: list[Verdict], bad: list[Verdict], info: RunInfo, show: int = 10) -> str:
    lines = _header(verdicts, info)
    table = counts(verdicts)
    header = f"{'format':28} {'op':7} " + " ".join(f"{c:>8}" for c in ("passed", "failed", "expected", "skipped", "not run", "accept.", "kind≠"))
    lines += ["", header, "-" * len(header)]
    for (fmt, op), row in sorted(table.items()):
        cells = [row["passed"], row["failed"] + row["unexpected pass"], row["expected"], row["skipped"],
                 row["not run"], row["acceptable"], row["kind differs"]]
        lines.append(f"{fmt:28} {op:7} " + " ".join(f"{n:>8}" for n in cells))
    outcomes = Counter(v.outcome for v in verdicts)
    lines += ["", "outcomes: " + ", ".join(f"{k} {outcomes[k]}" for k in sorted(outcomes))]
    # Cases that were not run share one reason, given once rather than case by case.
    ran_badly = [v for v in bad if v.outcome != "not_run"]
    for reason, n in Counter(v.detail for v in bad if v.outcome == "not_run").items():
        lines += ["", f"{n} case(s) {reason}"]
    if ran_badly:
        lines += ["", f"{len(ran_badly)} unexpected result(s); the first {min(show, len(ran_badly))}:"]
        for v in ran_badly[:show]:
            lines.append(f"  {v.outcome:12} {v.case.id}: {v.detail}")
            lines += [f"      {d}" for d in v.diff[:6]]
    elif not bad:
        lines += ["", "every case that is not listed as an expected failure passed or was skipped"]
    return "\n".join(lines)


def _header(verdicts: list[Verdict], info: RunInfo) -> list[str]:
    """Who was tested, and why the run stopped early (with the testee's last words) if it did."""
    impl = info.implementation
    who = f"{impl.get('name', '?')} {impl.get('version', '')}" if impl else f"`{info.command or '?'}`"
    lines = [f"testee: {who}  ({len(verdicts)} cases in {info.seconds:.2f} s, {info.restarts} restarts)"]
    for fmt, paths in sorted(info.unsupported_fields.items()):
        if paths:
            lines.append(f"  not compared for {fmt} (declared unsupported): {', '.join(paths)}")
    if info.gave_up:
        lines.append(f"  {info.gave_up}")
        if info.stderr:
            lines.append("  its standard error ended with:")
            lines += [f"    | {line}" for line in stderr_tail(info.stderr).splitlines()]
    return lines


def stderr_tail(stderr: str, max_lines: int = STDERR_LINES) -> str:
    return "\n".join(stderr.splitlines()[-max_lines:])


def write_jsonl(path: str, verdicts: list[Verdict], info: RunInfo) -> None:
    with open(path, "w") as out:
        out.write(json.dumps({"type": "run", "implementation": info.implementation, "seconds": round(info.seconds, 3),
                              "restarts": info.restarts, "gave_up": info.gave_up,
                              "stderr": stderr_tail(info.stderr) if info.gave_up else "",
                              "command": info.command, "unsupported_fields": info.unsupported_fields}) + "\n")
        for v in verdicts:
            out.write(json.dumps({"type": "case", **v.to_json()}) + "\n")


def write_junit(path: str, verdicts: list[Verdict], info: RunInfo) -> None:
    name = info.implementation.get("name", "testee")
    by_format: dict = defaultdict(list)
    for v in verdicts:
        by_format[v.case.format].append(v)
    parts = ['<?xml version="1.0" encoding="UTF-8"?>', f"<testsuites name={quoteattr('logcodec conformance: ' + name)}>"]
    for fmt, items in sorted(by_format.items()):
        failures = sum(1 for v in items if v.outcome in FAILING and not v.expected_failure)
        failures += sum(1 for v in items if v.outcome == "pass" and v.expected_failure)
        skipped = sum(1 for v in items if v.outcome in ("skipped", "not_run") or (v.expected_failure and v.outcome in FAILING))
        parts.append(f"  <testsuite name={quoteattr(name + ' ' + fmt)} tests=\"{len(items)}\" "
                     f"failures=\"{failures}\" errors=\"0\" skipped=\"{skipped}\">")
        for v in items:
            attrs = f"classname={quoteattr(f'{fmt}.{v.case.op}')} name={quoteattr(v.case.test['tcId'])} time=\"{v.seconds:.4f}\""
            body = ""
            message = v.detail + ("\n" + "\n".join(v.diff) if v.diff else "")
            if v.expected_failure and v.outcome in FAILING:
                body = f"<skipped message={quoteattr('expected failure: ' + v.expected_failure)}/>"
            elif v.outcome in FAILING or (v.outcome == "pass" and v.expected_failure):
                body = f"<failure type={quoteattr(v.outcome)} message={quoteattr(v.detail)}>{escape(message)}</failure>"
            elif v.outcome == "skipped":
                body = f"<skipped message={quoteattr(v.detail)}/>"
            elif v.outcome == "not_run":  # the run's failure is reported once, by _junit_gave_up
                body = f"<skipped message={quoteattr(v.detail)}/>"
            parts.append(f"    <testcase {attrs}>{body}</testcase>")
        parts.append("  </testsuite>")
    parts += _junit_gave_up(name, info)
    parts.append("</testsuites>")
    with open(path, "w") as out:
        out.write("\n".join(parts) + "\n")


def _junit_gave_up(name: str, info: RunInfo) -> list[str]:
    """A run that stopped early is one error, of a test of the testee itself, with its standard error."""
    if not info.gave_up:
        return []
    stderr = stderr_tail(info.stderr)
    return [f"  <testsuite name={quoteattr(name + ' (the testee process)')} tests=\"1\" failures=\"0\" "
            f"errors=\"1\" skipped=\"0\">",
            f"    <testcase classname=\"testee\" name=\"run\"><error type=\"gave_up\" "
            f"message={quoteattr(info.gave_up)}>{escape(stderr)}</error></testcase>",
            "  </testsuite>"]
