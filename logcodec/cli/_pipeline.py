"""`logcodec pipeline`: the Spark jobs over log files (the pipeline extra and Java 17+)."""

from __future__ import annotations

import argparse
import sys
import textwrap
from pathlib import Path

#: The modules of the pipeline extra (`pip install 'logcodec[pipeline]'`).
_PIPELINE_EXTRA = ("pyspark", "pyarrow", "pandas")


def _pipeline_extra_missing(command: str, exc: ImportError) -> int:
    """The pipeline's modules need its extra: without it, say what to install in one line (a usage
    error: the installation is what to change); any other ImportError is a bug and raised again."""
    if (exc.name or "").split(".")[0] not in _PIPELINE_EXTRA:
        raise exc
    print(f"{command}: needs the pipeline extra, pip install 'logcodec[pipeline]' (no module named {exc.name!r})",
          file=sys.stderr)
    return 2


def cmd_pipeline_validate(args) -> int:
    try:
        from logcodec.pipeline import validate
    except ImportError as exc:
        return _pipeline_extra_missing("logcodec pipeline validate", exc)
    try:
        fmt = validate.check_path(args.path, args.format)
        validate.check_master(args.master)
        options = validate.parse_options(args.option)
    except validate.UsageError as exc:
        print(f"logcodec pipeline validate: {exc}", file=sys.stderr)
        return 2
    try:
        summary = validate.validate(args.path, args.out, master=args.master, fmt=fmt, split_bytes=args.split_bytes,
                                    options=options, spark=_active_spark_session(),
                                    progress=None if args.quiet else sys.stderr,
                                    strict_zero_fill=args.strict_zero_fill)
    except validate.UsageError as exc:
        print(f"logcodec pipeline validate: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:
        _spark_job_failed("logcodec pipeline validate", exc)
        return 1
    print(validate.format_table(summary, args.out))
    return validate.exit_status(summary)


def _spark_job_failed(command: str, exc: Exception) -> None:
    """Say that a Spark job failed, in one line (the Python exception behind it, with what to do about a
    missing module or an unreadable path: `pipeline.errors.explain`); anything else than Spark's and
    py4j's errors is a bug of ours and is raised again."""
    if not type(exc).__module__.startswith(("pyspark", "py4j")):
        raise exc
    from logcodec.pipeline.errors import explain

    print(f"{command}: the Spark job failed: {explain(exc)}", file=sys.stderr)


def cmd_pipeline_conformance(args) -> int:
    from logcodec.conformance import report

    try:
        from logcodec.pipeline import conformance
        from logcodec.pipeline.validate import UsageError, check_master
    except ImportError as exc:
        return _pipeline_extra_missing("logcodec pipeline conformance", exc)

    try:
        conformance.check(args.impl, args.format, args.testee)
        check_master(args.master)
        if args.expected_failures and not Path(args.expected_failures).is_file():
            raise UsageError(f"--expected-failures {args.expected_failures}: no such file")
    except (conformance.UsageError, UsageError) as exc:
        print(f"logcodec pipeline conformance: {exc}", file=sys.stderr)
        return 2
    try:
        verdicts, info, bad = conformance.run(
            args.impl, testee=args.testee, expected_failures=args.expected_failures, count=args.count,
            seed=args.seed, formats=args.format, ops=tuple(args.op or conformance.OPS),
            spark=_active_spark_session(), master=args.master, partitions=args.partitions, timeout=args.timeout)
    except Exception as exc:
        _spark_job_failed("logcodec pipeline conformance", exc)
        return 1
    if args.json:
        report.write_jsonl(args.json, verdicts, info)
    if args.junit:
        report.write_junit(args.junit, verdicts, info)
    print(f"seed {args.seed}, {args.count} random valid value(s) per format")
    print(report.summary(verdicts, bad, info))
    if info.gave_up and not verdicts:
        return 1
    return 1 if bad else 0


def _at_least_one(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive integer")
    return value


def _active_spark_session():
    """The session this process already runs (a notebook's, a test's), to use and leave running; None
    when there is none, so that the job starts its own (and stops it)."""
    if "pyspark" not in sys.modules:
        return None
    from pyspark.sql import SparkSession

    return SparkSession.getActiveSession()


def add_pipeline(sub) -> None:
    """`logcodec pipeline validate|conformance`."""
    pipe = sub.add_parser("pipeline", help="Spark jobs over log files (needs the pipeline extra and Java 17+)")
    psub = pipe.add_subparsers(dest="pipeline_command", required=True, metavar="SUBCOMMAND")
    p = psub.add_parser(
        "validate", help="decode, check and re-encode every batch under PATH on Spark; quarantine the bad ones",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description=textwrap.fill(
            "Decode every Kafka batch (or legacy message), TANK bundle or Inkless batch under PATH in Spark's "
            "tasks, check its checksums, re-encode it and compare byte for byte (a compressed batch keeps the "
            "compressed bytes it was read from and writes them back), and check TANK indexes "
            "against their logs and Inkless metadata against its objects. A bad entry is quarantined with its "
            "error kind and byte offset and the job goes on: batches read = valid + quarantined, always. What "
            "concerns no single batch (a bad index entry, Inkless metadata that names no object, dead bytes) is "
            "a finding, reported apart.", 79),
        epilog=textwrap.fill(
            "Writes DIR/results.parquet (a row per batch or bundle), DIR/findings.parquet (index and metadata "
            "findings) and DIR/summary.json, and prints a table; progress lines go to stderr.", 79)
               + "\n\nexit status:\n"
               "  0  nothing quarantined and no finding (a zero-filled tail is one only with --strict-zero-fill)\n"
               "  1  something quarantined or a finding (or the Spark job failed)\n"
               "  2  usage error (PATH missing or holding no logs, a bad option)")
    p.add_argument("path", metavar="PATH", help="a Kafka log directory or segment file, a TANK base or partition "
                                                "directory, or Inkless objects with their metadata (a directory, "
                                                "an object, or s3://bucket/prefix)")
    p.add_argument("--out", required=True, metavar="DIR", help="where to write the results (replaced if there)")
    p.add_argument("--master", metavar="URL", help="Spark master (default: an embedded local[*] session)")
    p.add_argument("--format", choices=["kafka", "tank", "inkless", "auto"], default="auto",
                   help="the logs' format (default auto: from file names and first bytes; s3:// is inkless)")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="an option of the data source, repeatable: for Inkless metadata=PATH (documents kept "
                        "apart), allowDeadBytes=true, s3Endpoint=URL, s3Region, ...; see the README")
    p.add_argument("--split-bytes", type=_at_least_one, default=32 << 20, metavar="N",
                   help="bytes per input partition (default 32 MiB)")
    p.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    p.add_argument("--strict-zero-fill", action="store_true",
                   help="a zero-filled tail (a preallocated segment's, after a crash) makes the exit status 1 too")
    p.set_defaults(func=cmd_pipeline_validate)
    p = psub.add_parser(
        "conformance", help="run seeded random valid values through a testee on Spark's executors",
        description=textwrap.fill(
            "Make COUNT random valid values per format (value i of format F depends on the seed, F and i only, "
            "whatever the number of executors: golden vectors with their free content changed, each change kept "
            "only when logcodec round-trips it), encode them with logcodec and run them through the testee, "
            "started once in each partition, then report as `logcodec conformance run` does, with the "
            "testee's expected-failure list. A --testee command runs as it is on every executor.", 79))
    p.add_argument("--impl", help="a shipped testee by name (see `logcodec conformance list`)")
    p.add_argument("--testee", metavar="COMMAND",
                   help="the testee's command line (it speaks conformance/PROTOCOL.md; installed on every executor)")
    p.add_argument("--expected-failures", metavar="FILE",
                   help="YAML list of expected failures (default for --impl: its checked-in list; for --testee: none)")
    p.add_argument("--count", type=_at_least_one, default=100, metavar="N", help="values per format (default 100)")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="the seed (default 0)")
    p.add_argument("--format", action="extend", nargs="+", metavar="F",
                   help="only these formats (repeatable; default: every format with golden vectors)")
    p.add_argument("--op", action="append", choices=["decode", "encode"], help="only this operation (repeatable)")
    p.add_argument("--master", metavar="URL", help="Spark master (default: an embedded local[*] session)")
    p.add_argument("--partitions", type=_at_least_one, metavar="N",
                   help="partitions, each with its own testee process (default: Spark's default parallelism)")
    p.add_argument("--timeout", type=float, default=10.0, help="seconds a testee may take per request (default 10)")
    p.add_argument("--junit", metavar="FILE", help="write a JUnit XML report here")
    p.add_argument("--json", metavar="FILE", help="write one JSON line per case here")
    p.set_defaults(func=cmd_pipeline_conformance)
