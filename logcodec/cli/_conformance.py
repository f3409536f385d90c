"""`logcodec testee` and `logcodec conformance`: an implementation judged against the golden
vectors, and the matrix of the shipped testees."""

from __future__ import annotations

import sys

from logcodec._cli_io import UsageError
from logcodec.cli._names import known_format


def cmd_testee(args) -> int:
    from logcodec.conformance.own_testee import main as serve

    serve()
    return 0


def cmd_conformance_list(args) -> int:
    from logcodec.conformance.impls import SHIPPED

    width = max(len(name) for name in SHIPPED) + 2
    for shipped in SHIPPED.values():
        missing = shipped.missing()
        state = "ready" if missing is None else f"unavailable: {missing}"
        print(f"{shipped.name:{width}}{shipped.what}\n{'':{width}}{state}; expected failures: "
              f"{shipped.expected_failures.relative_to(shipped.expected_failures.parents[2])}")
    return 0


def cmd_conformance_run(args) -> int:
    from pathlib import Path

    from logcodec.conformance import expected, report, runner
    from logcodec.conformance.impls import SHIPPED
    from logcodec.conformance.judge import build_cases

    if bool(args.testee) == bool(args.impl):
        print("logcodec conformance run: give --testee COMMAND or --impl NAME", file=sys.stderr)
        return 2
    failures_file = args.expected_failures
    if args.impl:
        shipped = SHIPPED.get(args.impl)
        if shipped is None:
            print(f"logcodec conformance run: no shipped testee {args.impl!r} (see `logcodec conformance list`)", file=sys.stderr)
            return 2
        if shipped.missing():
            print(f"logcodec conformance run: {args.impl}: {shipped.missing()}", file=sys.stderr)
            return 2
        command = list(shipped.command)
        failures_file = failures_file or str(shipped.expected_failures)
    else:
        command = args.testee
    from logcodec.conformance.judge import formats_with_vectors

    for name in args.format or ():
        if name not in formats_with_vectors():
            known_format(name, composite_ok=False)  # a usage error naming the close names
            raise UsageError(f"{name} has no golden vectors to run")
    cases = build_cases(args.format, tuple(args.op or ("decode", "encode")))
    import logcodec

    for fmt in sorted({c.format for c in cases}):  # the judge needs each codec: say which one is broken
        try:
            logcodec.codec(fmt)
        except ImportError as exc:
            print(f"logcodec conformance run: the codec of {fmt} does not import ({exc}); "
                  f"is logcodec installed whole?", file=sys.stderr)
            return 1
    if args.repeat > 1:  # distinct ids, so repeated cases are judged one by one
        cases = [runner.Case(f"{c.id}#{r}", c.format, c.op, c.test) for r in range(args.repeat) for c in cases]
    entries = expected.load(Path(failures_file)) if failures_file else []
    verdicts, info = runner.run(command, cases, timeout=args.timeout, window=args.window,
                                breaker=runner.Breaker(budget=args.budget),
                                progress=None if args.quiet else report.Progress())
    bad = expected.apply(entries, verdicts)
    if args.update_failures:
        if not failures_file:
            print("logcodec conformance run: --update-failures needs --expected-failures or --impl", file=sys.stderr)
            return 2
        expected.write(Path(failures_file), info.implementation.get("name", args.impl or "testee"), entries, verdicts)
        entries = expected.load(Path(failures_file))
        bad = expected.apply(entries, verdicts)
    if args.json:
        report.write_jsonl(args.json, verdicts, info)
    if args.junit:
        report.write_junit(args.junit, verdicts, info)
    print(report.summary(verdicts, bad, info))
    if info.gave_up:  # cases were not run, even if every one of them is an expected failure
        return 1
    return 1 if bad else 0


def cmd_conformance_matrix(args) -> int:
    from logcodec.conformance import matrix
    from logcodec.conformance.impls import SHIPPED
    from logcodec.generator.build import generate

    results = [matrix.record(name) for name in args.impl or SHIPPED]
    changed = generate()
    print(f"docs: {len(changed)} file(s) written" if changed else "docs: up to date")
    return 0 if all(r is None or r["ok"] for r in results) else 1


# ---------------------------------------------------------------- their parsers

def add_testee_and_conformance(sub) -> None:
    """`logcodec testee` and `logcodec conformance run|list|matrix`."""
    p = sub.add_parser("testee", help="serve logcodec's own codecs over the conformance protocol (stdin/stdout)")
    p.set_defaults(func=cmd_testee)

    conf = sub.add_parser("conformance", help="test an implementation against the golden vectors")
    csub = conf.add_subparsers(dest="conformance_command", required=True, metavar="SUBCOMMAND")
    p = csub.add_parser("run", help="run the vectors through a testee and judge its answers")
    p.add_argument("--testee", help="the testee's command line (it speaks conformance/PROTOCOL.md)")
    p.add_argument("--impl", help="a shipped testee by name (see `logcodec conformance list`)")
    p.add_argument("--format", action="append", help="only this format (repeatable)")
    p.add_argument("--op", action="append", choices=["decode", "encode"], help="only this operation (repeatable)")
    p.add_argument("--expected-failures", help="YAML list of expected failures (default for --impl: its checked-in list)")
    p.add_argument("--update-failures", action="store_true", help="rewrite the expected-failure list from this run")
    p.add_argument("--junit", help="write a JUnit XML report here")
    p.add_argument("--json", help="write one JSON line per case here")
    p.add_argument("--timeout", type=float, default=10.0, help="seconds a testee may take per request (default 10)")
    p.add_argument("--budget", type=float, metavar="SECONDS",
                   help="stop after this much wall time; the cases left are reported not_run")
    p.add_argument("--window", type=int, default=64, help="requests in flight at once (default 64)")
    p.add_argument("--repeat", type=int, default=1, help="send every case N times (for throughput measurements)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_conformance_run)
    p = csub.add_parser("list", help="list the shipped testees")
    p.set_defaults(func=cmd_conformance_list)
    p = csub.add_parser("matrix", help="run the shipped testees, record their results and regenerate the docs")
    p.add_argument("--impl", action="append", help="only this testee (repeatable)")
    p.set_defaults(func=cmd_conformance_matrix)
