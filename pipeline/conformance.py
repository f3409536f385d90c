"""Conformance at scale: seeded random valid values through a testee, across executors.

`logcodec pipeline conformance --impl NAME --count N --seed S` (or `--testee COMMAND`, any
implementation that speaks conformance/PROTOCOL.md) makes a DataFrame of
(format, index) pairs, N per format, and runs `mapInArrow` over it. Each partition
makes its values with `conformance.random_values` (value i of format F depends on
(S, F, i) only, so the values do not depend on the number of executors), encodes
them with logcodec, starts the testee ONCE with the runner of `logcodec conformance
run`, runs its cases (decode and encode per value), stops it, and sends back one JSON
line per verdict plus one describing the run. The driver rebuilds the verdicts in
(format, index, op) order, the order the single-process runner uses on
`random_values.random_cases`, applies the implementation's expected-failure list and
writes the reports of `logcodec conformance run` (table, JSON lines, JUnit XML).

The testee: a shipped one by name (its command is resolved on each executor: its interpreter,
its paths), or a command line, run as it is on each executor, so it must be installed there
(on `local[N]`, that is this machine).

Expected failures (a shipped testee's checked-in list, or `--expected-failures FILE`): a
random case is named `<source vector's tcId>~<index>`, so an entry written for the source
vector matches it by prefix, as in a golden run. One
difference: a random case that passes under an entry is a plain pass, not an
"unexpected pass" (a mutation may well remove the quirk the entry describes); the
golden run keeps the lists from rotting.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from logcodec.conformance import expected, runner
from logcodec.conformance.judge import Case, Verdict, formats_with_vectors

OPS = ("decode", "encode")


class UsageError(ValueError):
    pass


def check(impl: str | None, formats: list[str] | None, testee: str | None = None) -> list[str]:
    """The formats to run (default: every format with vectors); UsageError for an unknown or
    unavailable testee or format, or not exactly one of `impl` and `testee`, before Spark starts."""
    from logcodec.conformance.impls import SHIPPED

    if (impl is None) == (testee is None):
        raise UsageError("give --impl NAME or --testee COMMAND")
    if testee is not None and not testee.strip():
        raise UsageError("--testee: an empty command")
    shipped = SHIPPED.get(impl) if impl is not None else None
    if impl is not None and shipped is None:
        raise UsageError(f"no shipped testee {impl!r} (see `logcodec conformance list`)")
    if shipped is not None and shipped.missing():
        raise UsageError(f"{impl}: {shipped.missing()}")
    known = formats_with_vectors()
    for fmt in formats or []:
        if fmt not in known:
            raise UsageError(f"no golden vectors for format {fmt!r}; known: {', '.join(known)}")
    return list(dict.fromkeys(formats)) if formats else known


# ---------------------------------------------------------------- executors


def _partition_runner(impl: str | None, testee: str | None, seed: int, ops: tuple[str, ...], timeout: float,
                      window: int):
    """The function `mapInArrow` runs on each partition (module-level names only, so it pickles small)."""

    def run_partition(batches):
        import pyarrow as pa
        from logcodec.conformance.impls import SHIPPED
        from logcodec.conformance.random_values import cases_for, random_test

        pairs = []
        for batch in batches:
            pairs += zip(batch.column("format").to_pylist(), batch.column("index").to_pylist())
        if not pairs:
            return
        cases, index_of = [], {}
        for fmt, index in pairs:
            for case in cases_for(fmt, random_test(fmt, seed, index), ops):
                cases.append(case)
                index_of[case.id] = index
        # A shipped testee's command is resolved here, on the executor: its interpreter, its paths.
        command = list(SHIPPED[impl].command) if impl is not None else testee
        verdicts, info = runner.run(command, cases, timeout=timeout, window=window)
        lines = [json.dumps({"type": "run", "implementation": info.implementation, "formats": info.formats,
                             "unsupported_fields": info.unsupported_fields, "restarts": info.restarts,
                             "seconds": info.seconds, "gave_up": info.gave_up, "stderr": info.stderr[-2000:],
                             "cases": len(cases)})]
        lines += [json.dumps({"type": "case", "index": index_of[v.case.id], **v.to_json()}) for v in verdicts]
        yield pa.RecordBatch.from_pydict({"line": lines}, schema=pa.schema([("line", pa.string())]))

    return run_partition


# ---------------------------------------------------------------- driver


def _verdict(doc: dict) -> Verdict:
    case = Case(doc["id"], doc["format"], doc["op"], {"tcId": doc["tcId"], "result": doc["result"]})
    return Verdict(case, doc["outcome"], doc["detail"], list(doc["diff"]), doc["kind_differs"],
                   seconds=doc["ms"] / 1000)


def _merge(runs: list[dict], seconds: float) -> runner.RunInfo:
    info = runner.RunInfo(seconds=seconds)
    for run in runs:
        info.implementation = info.implementation or run["implementation"]
        for fmt, ops in run["formats"].items():
            info.formats.setdefault(fmt, ops)
        for fmt, paths in run["unsupported_fields"].items():
            info.unsupported_fields.setdefault(fmt, paths)
        info.restarts += run["restarts"]
        info.stderr = run["stderr"] or info.stderr
    gave_up = [run["gave_up"] for run in runs if run["gave_up"]]
    if gave_up:
        info.gave_up = f"{len(gave_up)} of {len(runs)} partition(s): " + "; ".join(dict.fromkeys(gave_up))
    return info


def apply_expected(entries: list[expected.Entry], verdicts: list[Verdict]) -> list[Verdict]:
    """`expected.apply`, except that a random case passing under an entry is a plain pass."""
    bad = expected.apply(entries, verdicts)
    for v in verdicts:
        if v.outcome == "pass" and v.expected_failure:
            v.expected_failure, v.detail = None, ""
    return [v for v in bad if not (v.outcome == "pass" and v.expected_failure is None)]


def run(impl: str | None = None, *, testee: str | None = None, expected_failures: Path | str | None = None,
        count: int = 100, seed: int = 0, formats: list[str] | None = None, ops: tuple[str, ...] = OPS, spark=None,
        master: str | None = None, partitions: int | None = None, timeout: float = 10.0,
        window: int = 64) -> tuple[list[Verdict], runner.RunInfo, list[Verdict]]:
    """Run `count` random values per format through the shipped testee `impl`, or the command line
    `testee`, on Spark; return the verdicts (in the order of `random_values.random_cases`), the
    merged run information and the verdicts that make the run fail, with the expected failures of
    `expected_failures` (default: a shipped testee's list; none for a command) applied. `spark`: a
    session to use (else one is made for `master`, default `local[*]`, and stopped at the end).
    `partitions`: testee processes (default: Spark's default parallelism)."""
    from logcodec.conformance.impls import SHIPPED

    formats, ops = check(impl, formats, testee), tuple(ops)
    if expected_failures is None and impl is not None:
        expected_failures = SHIPPED[impl].expected_failures
    entries = expected.load(Path(expected_failures)) if expected_failures is not None else []
    started = time.monotonic()
    owned = spark is None
    if owned:
        from logcodec.pipeline.session import local_session

        spark = local_session(master or "local[*]", app_name="logcodec-conformance")
    try:
        from pyspark.sql import functions as F

        total = count * len(formats)
        parts = max(1, min(partitions or spark.sparkContext.defaultParallelism, total))
        ids = spark.range(0, total, numPartitions=parts)
        pairs = ids.select(F.element_at(F.array(*[F.lit(f) for f in formats]),
                                        (F.col("id") / count).cast("int") + 1).alias("format"),
                           (F.col("id") % count).alias("index"))
        lines = [row.line for row in pairs.mapInArrow(_partition_runner(impl, testee, seed, ops, timeout, window),
                                                      "line string").collect()] if total else []
    finally:
        if owned:
            spark.stop()
    docs = [json.loads(line) for line in lines]
    info = _merge([d for d in docs if d["type"] == "run"], time.monotonic() - started)
    order = {fmt: i for i, fmt in enumerate(formats)}
    cases = sorted((d for d in docs if d["type"] == "case"),
                   key=lambda d: (order[d["format"]], d["index"], ops.index(d["op"])))
    verdicts = [_verdict(d) for d in cases]
    bad = apply_expected(entries, verdicts)
    return verdicts, info, bad
