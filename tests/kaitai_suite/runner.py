"""Run Kaitai Struct's language test suite against the official compiler's Python output
and against logcodec; report by spec, by feature area and for `formats_err/`.

    python -m tests.kaitai_suite [SUITE] [--impl official|logcodec|both] [--filter SUBSTRING]
                                 [--jobs N] [--json OUT] [--out DIR] [--no-formats-err] [-v]

Outcomes per spec: `pass`; `fail` (which assert, expected vs actual; or the
wrong exception, or none where one was expected); `compile_error` (the
compiler refused the schema, or its output does not import); `parse_error`
(parsing the input raised where the spec expects no exception, or timed out);
`unsupported` (an assert needs what the evaluator or the implementation does not
expose, e.g. `_io` of a logcodec value; no assert failed).
"""

from __future__ import annotations

import argparse
import datetime
import json
import multiprocessing
import os
import re
import shutil
import signal
import sys
import time
import traceback
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict
from pathlib import Path

from . import corpus, kexpr
from . import evaluator as E

IMPLS = ("official", "logcodec")
STATUSES = ("pass", "fail", "compile_error", "parse_error", "unsupported")


class Timeout(BaseException):
    pass


# --- per spec, in a worker process --------------------------------------------------------

_SCHEMAS: dict[str, corpus.SchemaIndex] = {}


def _schemas(suite: str) -> corpus.SchemaIndex:
    if suite not in _SCHEMAS:
        _SCHEMAS[suite] = corpus.SchemaIndex(Path(suite))
    return _SCHEMAS[suite]


def _make_impl(task: dict):
    if task["impl"] == "official":
        from .official import OfficialImpl
        return OfficialImpl(Path(task["folder"]))
    from .logcodec_impl import LogcodecImpl
    return LogcodecImpl(Path(task["folder"]), task["package"])


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0] if text else ''}"[:300]


def _on_alarm(signum, frame):
    raise Timeout()


def run_spec(task: dict) -> dict:
    """Parse one spec's input and judge its asserts; returns the result record."""
    spec = corpus.Spec(**{**task["spec"], "asserts": [corpus.Assert(**a) for a in task["spec"]["asserts"]]})
    result = {"id": spec.id, "area": corpus.feature_area(spec.id), "status": None, "detail": "",
              "asserts": len(spec.asserts), "passed": 0, "failures": [], "unsupported": []}
    impl = _make_impl(task)
    schemas = _schemas(task["suite"])
    ev = E.Evaluator(impl.access, lambda lit: schemas.enum_value(lit, spec.id))
    data = (corpus.suite_dirs(Path(task["suite"]))["src"] / spec.data).read_bytes()
    signal.signal(signal.SIGALRM, _on_alarm)
    signal.alarm(int(task["timeout"]))
    try:
        if spec.partial_exception:
            return judge_partial(ev, impl, spec, data, result)
        try:
            root = impl.parse(spec.id, data)
        except (ImportError, SyntaxError) as exc:  # the compiled code does not load
            return {**result, "status": "compile_error", "detail": "import: " + _first_line(exc)}
        except Timeout:
            return {**result, "status": "parse_error", "detail": f"timed out after {task['timeout']} s"}
        except Exception as exc:  # noqa: BLE001 - whatever the parser raises is the result
            if spec.exception:
                ok, why = impl.exception_matches(exc, spec.exception, spec.exception_message)
                return {**result, "status": "pass" if ok else "fail", "detail": "" if ok else why}
            return {**result, "status": "parse_error", "detail": _first_line(exc)}
        if spec.exception:
            return {**result, "status": "fail", "detail": f"parsed without error, expected {spec.exception}"}
        if hasattr(impl, "roundtrip"):  # serialization, where the implementation has it
            try:
                result["roundtrip"] = impl.roundtrip(spec.id, data)
            except Exception as exc:  # noqa: BLE001 - an encoder that crashes is a finding
                result["roundtrip"] = {"result": "crash", "detail": _first_line(exc)}
        return judge_all(ev, impl, spec, root, result)
    except Timeout:
        return {**result, "status": "fail", "detail": f"asserts timed out after {task['timeout']} s"}
    finally:
        signal.alarm(0)
        impl.cleanup()


def judge_partial(ev, impl, spec: corpus.Spec, data: bytes, result: dict) -> dict:
    """A debug-mode spec: the parse must raise, and the asserts judge what it read first."""
    try:
        root, exc = impl.parse_partial(spec.id, data)
    except (ImportError, SyntaxError) as e:
        return {**result, "status": "compile_error", "detail": "import: " + _first_line(e)}
    if exc is None:
        return {**result, "status": "fail", "detail": f"parsed without error, expected {spec.partial_exception}"}
    ok, why = impl.exception_matches(exc, spec.partial_exception, None)
    if not ok:
        return {**result, "status": "fail", "detail": why}
    if root is None:
        return {**result, "status": "unsupported",
                "detail": f"raised {spec.partial_exception} as expected, but gives no partial value to judge"}
    return judge_all(ev, impl, spec, root, result)


def judge_all(ev, impl, spec: corpus.Spec, root, result: dict) -> dict:
    for i, a in enumerate(spec.asserts):
        outcome = judge(ev, impl, root, a)
        if outcome is None:
            result["passed"] += 1
        elif outcome[0] == "unsupported":
            result["unsupported"].append({"index": i, "actual": a.actual, "why": outcome[1]})
        else:
            result["failures"].append({"index": i, "actual": a.actual, "expected": _text(a), "why": outcome[1]})
    if result["failures"]:
        f = result["failures"][0]
        more = f" (+{len(result['failures']) - 1} more)" if len(result["failures"]) > 1 else ""
        result["status"], result["detail"] = "fail", f"assert {f['index']} `{f['actual']}`: {f['why']}{more}"
    elif result["unsupported"]:
        u = result["unsupported"][0]
        result["status"], result["detail"] = "unsupported", f"assert {u['index']} `{u['actual']}`: {u['why']}"
    else:
        result["status"] = "pass"
    return result


def _text(a: corpus.Assert) -> str:
    return a.exception if a.exception else " ".join(str(a.expected).split())


def judge(ev: E.Evaluator, impl, root, a: corpus.Assert):
    """None when the assert holds, else ("fail" | "unsupported", why)."""
    try:
        actual_node = kexpr.parse(a.actual)
        expected_node = None if a.exception else kexpr.parse(a.expected)
    except kexpr.ExprSyntaxError as e:
        return "unsupported", f"evaluator cannot parse: {e}"
    try:
        actual = ev.eval(actual_node, root)
    except E.Unsupported as e:
        return "unsupported", str(e)
    except Timeout:
        raise
    except Exception as exc:  # noqa: BLE001
        if a.exception:
            ok, why = impl.exception_matches(exc, a.exception, None)
            return None if ok else ("fail", why)
        if isinstance(exc, E.EvalError):
            return "fail", f"cannot evaluate: {exc}"
        return "fail", f"raised {_first_line(exc)}"
    if a.exception:
        return "fail", f"no exception, got {E.short(actual)}; expected {a.exception}"
    try:
        expected = ev.eval(expected_node, None)
    except E.Unsupported as e:
        return "unsupported", f"expected value: {e}"
    except Exception as exc:  # noqa: BLE001
        return "unsupported", f"evaluator cannot evaluate the expected value: {_first_line(exc)}"
    ok, why = E.equal(actual, expected)
    if ok:
        return None
    return "fail", f"expected {E.short(expected)}, got {E.short(actual)}" + (f" ({why})" if why else "")


# --- compile stages, in the main process --------------------------------------------------

def compile_official(suite: Path, specs: list[corpus.Spec], out: Path, all_formats: bool) -> tuple[dict, dict]:
    from . import official

    dirs = corpus.suite_dirs(suite)
    if all_formats:
        mains = sorted(p for p in dirs["formats"].rglob("*.ksy"))
    else:
        mains = [dirs["formats"] / f"{s.id}.ksy" for s in specs if (dirs["formats"] / f"{s.id}.ksy").exists()]
    t0 = time.perf_counter()
    results, node_seconds = official.compile_batch(suite, mains, [dirs["formats"]])
    # An opaque type (`ks-opaque-types: true`) is a module the harness must supply: Kaitai's CI
    # compiles every schema into one package, so `import hello_world` finds the suite's own.
    missing = {}
    for p, r in results.items():
        if r["ok"]:
            missing[p] = official.external_imports(r["outputs"])
    extra = sorted({dirs["formats"] / f"{m}.ksy" for ms in missing.values() for m in ms} - set(results))
    extra = [p for p in extra if p.exists()]
    if extra:
        more, more_seconds = official.compile_batch(suite, extra, [dirs["formats"]])
        node_seconds += more_seconds
        results.update(more)
    for p, ms in missing.items():
        for m in ms:
            dep = results.get(dirs["formats"] / f"{m}.ksy")
            if dep and dep["ok"]:
                results[p]["outputs"] = {**dep["outputs"], **results[p]["outputs"]}
    compiled = {}
    for s in specs:
        schema = dirs["formats"] / f"{s.id}.ksy"
        r = results.get(schema)
        folder = out / "official" / s.id
        if r is None:
            compiled[s.id] = {"ok": False, "error": f"no schema formats/{s.id}.ksy"}
        elif not r["ok"]:
            compiled[s.id] = {"ok": False, "error": " ".join(r["error"].split())[:300]}
        else:
            official.write_outputs(r["outputs"], folder)
            compiled[s.id] = {"ok": True, "folder": str(folder), "package": None}
    timing = {"schemas": len(mains), "refused": sum(1 for r in results.values() if not r["ok"]),
              "node_seconds": round(node_seconds, 2), "total_seconds": round(time.perf_counter() - t0, 2)}
    return compiled, timing


def compile_logcodec(suite: Path, specs: list[corpus.Spec], out: Path, jobs: int) -> tuple[dict, dict]:
    from . import logcodec_impl as L

    dirs = corpus.suite_dirs(suite)

    def one(s: corpus.Spec):
        schema = dirs["formats"] / f"{s.id}.ksy"
        if not schema.exists():
            return s.id, {"ok": False, "error": f"no schema formats/{s.id}.ksy", "seconds": 0}
        folder = out / "logcodec" / s.id
        package = L.package_name(s.id)
        r = L.compile_one(suite, schema, folder, package)
        r.update(folder=str(folder), package=package)
        return s.id, r

    t0 = time.perf_counter()
    with ThreadPoolExecutor(max(1, jobs)) as pool:
        compiled = dict(pool.map(one, specs))
    timing = {"schemas": len(specs), "refused": sum(1 for r in compiled.values() if not r["ok"]),
              "sum_seconds": round(sum(r.get("seconds", 0) for r in compiled.values()), 2),
              "total_seconds": round(time.perf_counter() - t0, 2)}
    return compiled, timing


# --- formats_err --------------------------------------------------------------------------

def path_variants(expected: str) -> list[str]:
    """How an error may name the YAML path `/seq/0/id`: as is, `seq[0].id`, `seq.0.id`."""
    parts = [p for p in expected.strip("/").split("/") if p]
    dotted = ""
    for p in parts:
        dotted += f"[{p}]" if p.isdigit() else (("." if dotted else "") + p)
    return [expected, dotted, ".".join(parts)] if parts else [expected]


def names_path(message: str, expected: str | None) -> bool:
    if not expected or expected == "?":
        return expected == "?"  # the suite does not say which path; any refusal counts
    m = re.fullmatch(r"(\d+):(\d+)", expected)
    if m:  # a YAML syntax error: line and column
        line = m.group(1)
        return f"line {line}" in message or f":{line}:" in message
    return any(v and v in message for v in path_variants(expected))


def _err_cases(suite: Path) -> dict[Path, tuple[str, str]]:
    dirs = corpus.suite_dirs(suite)
    cases = {p: corpus.expected_error(p) for p in sorted(dirs["formats_err"].glob("*.ksy"))}
    return {p: c for p, c in cases.items() if c[0] is not None}  # helpers (imported by others) left out


def _err_row(p: Path, case: tuple[str, str], refused: bool, msg: str) -> dict:
    return {"schema": p.name, "expected_path": case[0], "severity": case[1], "refused": refused,
            "names_path": refused and names_path(msg, case[0]), "message": msg[:300]}


def formats_err_official(suite: Path) -> dict:
    from . import official

    dirs = corpus.suite_dirs(suite)
    cases = _err_cases(suite)
    t0 = time.perf_counter()
    results, _ = official.compile_batch(suite, list(cases), [dirs["formats_err"]])
    rows = [_err_row(p, c, not results[p]["ok"], "" if results[p]["ok"] else " ".join(results[p]["error"].split()))
            for p, c in cases.items()]
    return _err_summary(rows, time.perf_counter() - t0)


def formats_err_logcodec(suite: Path, out: Path, jobs: int) -> dict:
    from . import logcodec_impl as L

    cases = _err_cases(suite)

    def one(item):
        p, c = item
        r = L.compile_one(suite, p, out / "logcodec_err" / p.stem, "kst_err_" + p.stem)
        msg = " ".join((r["output"] or r["error"] or "").split()) if not r["ok"] else ""
        # a traceback is a crash, not a refusal; a timeout is neither
        refused = not r["ok"] and r["returncode"] not in (None, 0) and not r["error"].startswith("crash:")
        return _err_row(p, c, refused, msg)

    t0 = time.perf_counter()
    with ThreadPoolExecutor(max(1, jobs)) as pool:
        rows = list(pool.map(one, cases.items()))
    return _err_summary(rows, time.perf_counter() - t0)


def _err_summary(rows: list[dict], seconds: float) -> dict:
    """Shares over the schemas that must be refused (`error:`); the `warning:`-only ones
    (style and encoding-name warnings) must compile, and are counted apart."""
    errors = [r for r in rows if r["severity"] == "error"]
    warnings = [r for r in rows if r["severity"] == "warning"]
    n = len(errors)
    refused = sum(r["refused"] for r in errors)
    named = sum(r["names_path"] for r in errors)
    return {"schemas": n, "refused": refused, "refused_naming_path": named,
            "refused_share": round(refused / n, 4) if n else None,
            "refused_naming_path_share": round(named / n, 4) if n else None,
            "warning_only": len(warnings), "warning_only_refused": sum(r["refused"] for r in warnings),
            "seconds": round(seconds, 2), "rows": rows}


# --- the whole run ------------------------------------------------------------------------

def run_impl(impl: str, suite: Path, specs: list[corpus.Spec], out: Path, jobs: int, timeout: float,
             all_formats: bool, formats_err: bool, log=print) -> dict:
    t0 = time.perf_counter()
    if impl == "official":
        from . import official
        why = official.available()
        if why:
            raise SystemExit(f"official compiler unavailable: {why}")
        compiled, ctiming = compile_official(suite, specs, out, all_formats)
    else:
        compiled, ctiming = compile_logcodec(suite, specs, out, jobs)
    log(f"[{impl}] compiled {ctiming['schemas'] - ctiming['refused']}/{ctiming['schemas']} schemas "
        f"in {ctiming['total_seconds']} s")
    tasks, results = [], {}
    for s in specs:
        c = compiled[s.id]
        if not c["ok"]:
            results[s.id] = {"id": s.id, "area": s.area, "status": "compile_error", "detail": c["error"],
                             "asserts": len(s.asserts), "passed": 0, "failures": [], "unsupported": []}
            continue
        tasks.append({"impl": impl, "spec": asdict(s), "suite": str(suite), "folder": c["folder"],
                      "package": c.get("package"), "timeout": timeout})
    t1 = time.perf_counter()
    if tasks:
        ctx = multiprocessing.get_context("fork")
        with ctx.Pool(max(1, min(jobs, len(tasks))), maxtasksperchild=40) as pool:
            for r in pool.imap_unordered(_safe_run_spec, tasks):
                results[r["id"]] = r
    run_seconds = time.perf_counter() - t1
    ordered = [results[s.id] for s in specs]
    report = {"impl": impl, "compile": ctiming, "run_seconds": round(run_seconds, 2),
              "specs": ordered, "summary": summarize(ordered)}
    if formats_err:
        report["formats_err"] = formats_err_official(suite) if impl == "official" else \
            formats_err_logcodec(suite, out, jobs)
    report["total_seconds"] = round(time.perf_counter() - t0, 2)
    return report


def _safe_run_spec(task: dict) -> dict:
    try:
        return run_spec(task)
    except BaseException as exc:  # noqa: BLE001 - a runner bug must not end the run
        spec = task["spec"]
        return {"id": spec["id"], "area": corpus.feature_area(spec["id"]), "status": "fail",
                "detail": f"runner error: {_first_line(exc)}", "asserts": len(spec["asserts"]), "passed": 0,
                "failures": [], "unsupported": [], "traceback": traceback.format_exc()[-2000:]}


def summarize(results: list[dict]) -> dict:
    counts = {st: sum(1 for r in results if r["status"] == st) for st in STATUSES}
    areas: dict[str, dict] = {}
    for r in results:
        a = areas.setdefault(r["area"], {"specs": 0, **{st: 0 for st in STATUSES}})
        a["specs"] += 1
        a[r["status"]] += 1
    n = len(results)
    trips = [r["roundtrip"]["result"] for r in results if r.get("roundtrip")]
    roundtrip = {kind: trips.count(kind) for kind in ("same", "other_bytes", "refused", "wrong", "crash")}
    return {"specs": n, **counts, "pass_rate": round(counts["pass"] / n, 4) if n else None,
            "areas": dict(sorted(areas.items())), "roundtrip": {"decoded": len(trips), **roundtrip} if trips else None}


def print_report(reports: dict, verbose: bool, out=sys.stdout) -> None:
    w = out.write
    for impl, rep in reports.items():
        w(f"\n== {impl} ==\n")
        for r in rep["specs"]:
            if verbose or r["status"] != "pass":
                w(f"  {r['status']:<13} {r['id']}: {r['detail']}\n")
    # the table by feature area, one column per implementation
    areas = sorted({a for rep in reports.values() for a in rep["summary"]["areas"]})
    w("\nfeature area       specs  " + "  ".join(f"{impl + ' pass':>15}" for impl in reports) + "\n")
    for a in areas:
        cells = []
        n = 0
        for rep in reports.values():
            s = rep["summary"]["areas"].get(a, {"specs": 0, "pass": 0})
            n = s["specs"]
            cells.append(f"{s['pass']:>6}/{s['specs']:<3} {100 * s['pass'] / s['specs'] if s['specs'] else 0:4.0f}%")
        w(f"{a:<18} {n:>5}  " + "  ".join(f"{c:>15}" for c in cells) + "\n")
    for impl, rep in reports.items():
        s = rep["summary"]
        w(f"\n{impl}: {s['pass']}/{s['specs']} specs pass ({100 * (s['pass_rate'] or 0):.1f} %); "
          + ", ".join(f"{st} {s[st]}" for st in STATUSES if st != "pass") + "\n")
        rt = s.get("roundtrip")
        if rt:
            w(f"  serialization: of {rt['decoded']} decoded inputs, encode(decode(b)) == b for {rt['same']} "
              f"({100 * rt['same'] / rt['decoded']:.1f} %); other bytes of an equal value {rt['other_bytes']}, "
              f"refused by the encoder {rt['refused']}, wrong {rt['wrong']}, crashed {rt['crash']}\n")
        c = rep["compile"]
        w(f"  compile: {c['schemas'] - c['refused']}/{c['schemas']} schemas in {c['total_seconds']} s"
          + (f" (node {c['node_seconds']} s)" if "node_seconds" in c else "")
          + f"; specs run in {rep['run_seconds']} s; total {rep['total_seconds']} s\n")
        fe = rep.get("formats_err")
        if fe:
            w(f"  formats_err: refused {fe['refused']}/{fe['schemas']} ({100 * fe['refused_share']:.1f} %), "
              f"naming the YAML path {fe['refused_naming_path']}/{fe['schemas']} "
              f"({100 * fe['refused_naming_path_share']:.1f} %); warning-only schemas refused "
              f"{fe['warning_only_refused']}/{fe['warning_only']}; in {fe['seconds']} s\n")
            if verbose:
                for row in fe["rows"]:
                    bad = not row["names_path"] if row["severity"] == "error" else row["refused"]
                    if bad:
                        w(f"    {'refused' if row['refused'] else 'ACCEPTED':<8} {row['severity']:<7} {row['schema']} "
                          f"(expected {row['expected_path']}): {row['message'][:150]}\n")


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m tests.kaitai_suite", description=__doc__.split("\n\n")[0])
    p.add_argument("suite", nargs="?", default=str(corpus.DEFAULT_SUITE),
                   help="the test suite's folder (default: ../shared/corpus/kaitai_struct_tests from the repo root)")
    p.add_argument("--impl", choices=("official", "logcodec", "both"), default="both")
    p.add_argument("--filter", metavar="SUBSTRING", help="only specs whose id contains this")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    p.add_argument("--json", metavar="OUT", help="write the full results as JSON")
    p.add_argument("--out", metavar="DIR", default=str(corpus.REPO / "build" / "kaitai_suite"),
                   help="where compiled code goes (default build/kaitai_suite, emptied first)")
    p.add_argument("--timeout", type=float, default=30, help="seconds per spec (parse and asserts)")
    p.add_argument("--formats-err", dest="formats_err", action="store_true", default=None,
                   help="also run formats_err/ (default: only without --filter)")
    p.add_argument("--no-formats-err", dest="formats_err", action="store_false")
    p.add_argument("-v", "--verbose", action="store_true", help="list passing specs too")
    args = p.parse_args(argv)
    suite = Path(args.suite).resolve()
    if not corpus.available(suite):
        print(f"no Kaitai test suite at {suite}", file=sys.stderr)
        return 2
    specs = corpus.load_specs(suite, args.filter)
    if not specs:
        print(f"no spec matches {args.filter!r}", file=sys.stderr)
        return 2
    out = Path(args.out)
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    formats_err = args.formats_err if args.formats_err is not None else not args.filter
    impls = IMPLS if args.impl == "both" else (args.impl,)
    reports = {}
    for impl in impls:
        reports[impl] = run_impl(impl, suite, specs, out, args.jobs, args.timeout,
                                 all_formats=not args.filter, formats_err=formats_err,
                                 log=lambda m: print(m, file=sys.stderr))
    print_report(reports, args.verbose)
    if args.json:
        doc = {"suite": str(suite), "date": datetime.datetime.now().isoformat(timespec="seconds"),
               "filter": args.filter, "reports": reports}
        Path(args.json).write_text(json.dumps(doc, indent=1, default=str))
    return 0
