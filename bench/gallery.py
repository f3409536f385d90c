"""``python -m bench gallery``: decode time per format of Kaitai's format gallery, on the real-file corpus.

For each format of the real-file corpus (`tests/gallery/files/`, one folder per gallery schema):

1. the schema is compiled by `logcodec compile`'s code path into a stable folder outside git
   (`$XDG_CACHE_HOME/logcodec/bench-gallery/packages/`), and every module of its package is built
   with mypyc (`runtime.native.compile_file`) into `.../bench-gallery/native/`, unless a build of
   exactly those sources is there (builds are named by the hash of the module's source and of the
   compiled source they were made from: cached across runs, never stale); a build that fails is
   reported, not hidden;
2. a worker process times, on each file of the format (params from the corpus's manifest), the
   official compiler's Python parser (`Root.from_bytes`, kaitaistruct's runtime), logcodec's pure
   `decode` and its compiled `decode`; the pure and compiled modules are imported side by side
   (`LOGCODEC_PURE=1` set for the first import, then the package dropped from `sys.modules` and
   imported again without it). Before timing, each side must give a value on the same files and
   refuse the same others, and the compiled build must give the value the pure module gives (their
   canonical JSON): any other outcome is a wrong answer, never timed, and makes the run exit 1.
   Timings never do.

A format's time is the sum over its files of the best round's CPU time per call (rounds
interleaved, each long enough: `measure`). The ratios (official time / logcodec's) are from one run;
the report also gives the load average before and after, and the time `logcodec compile` takes on
all 186 gallery schemas (`bench.compile`).

Without the gallery, the corpus or the official compiler (node_modules) it says so and exits 0.
"""

from __future__ import annotations

import argparse
import gc
import json
import math
import os
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
TARGET_COMPILED_GEOMEAN = 5.0  # issue 37: compiled >= 5x the official parser on the geomean
TARGET_PURE_EACH = 1.0  # and pure >= 1x on every format
WARM_UP_CALLS = 3  # calls of each side before it is calibrated, not timed


def cache_root() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "logcodec" / "bench-gallery"


def native_folder() -> Path:
    return cache_root() / "native" / f"py{sys.version_info[0]}{sys.version_info[1]}"


# --- compiling and building (in this process) ----------------------------------------------------

def compile_package(schema: str) -> tuple[str, str | None]:
    """Compile one gallery schema into the stable packages folder; (module name, None) or
    (module name, why not)."""
    from logcodec.generator.compile import compile_schemas
    from logcodec.generator.problems import SchemaError

    from tests.gallery import runner

    package = runner.package_name(schema)
    module = f"{package}.{runner.schema_id(runner.GALLERY / schema)}"
    try:
        compile_schemas([runner.GALLERY / schema], cache_root() / "packages", package, (str(runner.GALLERY),))
    except SchemaError as exc:
        return module, "compile: " + str(exc).splitlines()[0]
    return module, None


def package_modules(module: str) -> list[tuple[str, Path]]:
    """Every codec module of a compiled package (the schema's and those it imports): (name, file)."""
    package = module.split(".")[0]
    folder = cache_root() / "packages" / package
    return [(f"{package}.{p.stem}", p) for p in sorted(folder.glob("*.py"))
            if p.stem != "__init__" and not p.stem.endswith("_compiled")]


def build_package(module: str, log) -> str | None:
    """Build every module of the package with mypyc (or find its build); None, or why it failed:
    the first line mypy or the C compiler said."""
    from logcodec.runtime import native

    for name, path in package_modules(module):
        started = time.perf_counter()
        compiling = []  # what compile_file says when it compiles, not when it finds the build
        try:
            native.compile_file(name, path, native_folder(), log=compiling.append)
        except RuntimeError as exc:
            lines = [ln for ln in str(exc).splitlines() if ": error:" in ln] or str(exc).splitlines()[1:2] or [str(exc)]
            return f"{name}: {lines[0].strip()[:200]}"
        if compiling:
            log(f"  built {name} ({time.perf_counter() - started:.0f} s)")
    return None


# --- one format (in a worker process) ------------------------------------------------------------

def _import_twice(module: str):
    """The module imported pure (`LOGCODEC_PURE=1`), then again, compiled where a build is there."""
    import importlib

    package = module.split(".")[0]
    sys.path.insert(0, str(cache_root() / "packages"))
    os.environ["LOGCODEC_PURE"] = "1"
    try:
        pure = importlib.import_module(module)
    finally:
        del os.environ["LOGCODEC_PURE"]
    for name in [n for n in sys.modules if n == package or n.startswith(package + ".")]:
        del sys.modules[name]
    compiled = importlib.import_module(module)
    return pure, compiled


def _outcome(fn, data: bytes, params: dict):
    """("value", the value) or ("refused", the exception's type name)."""
    try:
        return "value", fn(data, **params)
    except Exception as exc:  # noqa: BLE001 - judged by the caller: a refusal on either side
        return "refused", exc


def _json_of(value) -> str:
    """The canonical JSON of a value; where a lazy instance fails as JSON reads it, the error's
    kind, offset and path (its text may say the same in other words: a compiled build's
    TypeError is worded otherwise than the interpreter's)."""
    from logcodec.runtime.errors import DecodeError
    from logcodec.runtime.values import to_json

    try:
        return json.dumps(to_json(value), sort_keys=True, default=repr)
    except DecodeError as exc:
        return f"DecodeError {exc.kind} at {exc.offset} in {exc.path}"
    except Exception as exc:  # noqa: BLE001 - the same failure on both sides compares equal
        return f"to_json raised {type(exc).__name__}: {exc}"


def _cpu_seconds(fn, arg, n: int) -> float:
    # The garbage the sides leave (Kaitai's objects hold cycles: `_root`, `_parent`) is collected
    # first, or one side's left-over collection is timed as another's call: a compiled decode's
    # first call was once timed at 0.2 s that way, which ended its calibration at one call.
    gc.collect()
    started = time.process_time()
    for _ in range(n):
        fn(*arg)
    return time.process_time() - started


def measure(cases: dict, min_time: float, rounds: int) -> dict:
    """cases: side -> (fn, arg); {side: seconds per call}. As `bench.kafka.measure` (calls per
    round calibrated per side, rounds interleaved, the best one taken), but on this process's CPU
    time, not the wall clock: on a machine other jobs share, a round of small files is otherwise
    as long as the time slices the process waits for, and ratios between sides swing tenfold."""
    calls = {}
    for side, (fn, arg) in cases.items():
        _cpu_seconds(fn, arg, WARM_UP_CALLS)  # first calls fill caches (and build lazy tables)
        n = 1
        while (took := _cpu_seconds(fn, arg, n)) < min_time:
            n = max(n + 1, min(n * 10, math.ceil(n * 1.2 * min_time / max(took, 1e-6))))
        calls[side] = n
    best = dict.fromkeys(cases, math.inf)
    for _ in range(rounds):
        for side, (fn, arg) in cases.items():
            best[side] = min(best[side], _cpu_seconds(fn, arg, calls[side]) / calls[side])
    return best


def time_format(schema: str, module: str, min_time: float, rounds: int) -> dict:
    """The worker's job: check, then time, every file of one format."""
    from logcodec.runtime.errors import DecodeError
    from tests.gallery import files, official

    parser = official.parser(schema)
    pure, compiled = _import_twice(module)
    manifest = files.manifest()
    native = getattr(compiled, "NATIVE", None)
    decoders = {"official": parser.parse, "pure": pure.decode}
    if native is not None:  # else no build was made (--no-build): the compiled column is not timed
        decoders["compiled"] = compiled.decode
    result = {"schema": schema, "files": 0, "bytes": 0, "refused": 0, "wrong": [], "native": native,
              "seconds": dict.fromkeys(decoders, 0.0)}
    for path in files.corpus()[schema]:
        params = (manifest.get(path.relative_to(files.FILES).as_posix()) or {}).get("params") or {}
        data = path.read_bytes()
        said = {side: _outcome(fn, data, params) for side, fn in decoders.items()}
        kinds = {side: kind for side, (kind, _) in said.items()}
        for side in ("pure", "compiled"):
            kind, got = said.get(side, (None, None))
            if kind == "refused" and not isinstance(got, DecodeError):
                result["wrong"].append(f"{path.name}: {side} raised {type(got).__name__}: {got}")
        if len(set(kinds.values())) > 1:
            result["wrong"].append(f"{path.name}: " + ", ".join(f"{s} {k}" for s, k in kinds.items()))
            continue
        if kinds["pure"] == "refused":
            result["refused"] += 1  # refused by every side: nothing to time
            continue
        if "compiled" in said and _json_of(said["pure"][1]) != _json_of(said["compiled"][1]):
            result["wrong"].append(f"{path.name}: the compiled build decodes another value than the pure module")
            continue
        cases = {side: (fn, (data,)) for side, fn in decoders.items()}
        if params:
            cases = {side: (lambda d, fn=fn, p=params: fn(d, **p), arg) for side, (fn, arg) in cases.items()}
        for side, seconds in measure(cases, min_time, rounds).items():
            result["seconds"][side] += seconds
        result["files"] += 1
        result["bytes"] += len(data)
    return result


def run_worker(schema: str, module: str, min_time: float, rounds: int, timeout: float) -> dict:
    """`time_format` in a fresh process (its builds and parsers loaded there alone)."""
    env = {**os.environ, "LOGCODEC_NATIVE_DIR": str(native_folder())}
    env.pop("LOGCODEC_PURE", None)
    cmd = [sys.executable, "-m", "bench.gallery", "--worker", schema, module, str(min_time), str(rounds)]
    try:
        proc = subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return {"schema": schema, "error": f"the worker timed out after {timeout:g} s"}
    lines = proc.stdout.strip().splitlines()
    if proc.returncode != 0 or not lines:
        err = [ln for ln in proc.stderr.strip().splitlines() if ln.strip()]
        return {"schema": schema, "error": f"the worker failed: {err[-1] if err else proc.returncode}"}
    return json.loads(lines[-1])


# --- the report ----------------------------------------------------------------------------------

def geomean(values: list[float]) -> float | None:
    values = [v for v in values if v > 0]
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else None


def table(rows: list[dict]) -> str:
    out = ["| format | files | bytes | official µs | pure µs | compiled µs | pure × | compiled × |",
           "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        if "ratios" not in r:
            why = r.get("error") or (f"all {r['refused']} files refused by every side" if r.get("refused")
                                     else "not timed: a wrong answer")
            out.append(f"| {r['schema']} | - | - | - | - | - | - | {why} |")
            continue
        s, x = r["seconds"], r["ratios"]
        compiled = (f"{s['compiled'] * 1e6:.1f}", f"{x['compiled']:.2f}") if "compiled" in s else ("no build", "-")
        out.append(f"| {r['schema']} | {r['files']} | {r['bytes']} | {s['official'] * 1e6:.1f} | "
                   f"{s['pure'] * 1e6:.1f} | {compiled[0]} | {x['pure']:.2f} | {compiled[1]} |")
    return "\n".join(out)


def summary(rows: list[dict]) -> dict:
    timed = [r for r in rows if "ratios" in r]
    pure = [r["ratios"]["pure"] for r in timed]
    compiled = [r["ratios"]["compiled"] for r in timed if "compiled" in r["ratios"]]
    return {"formats_timed": len(timed), "formats_compiled": len(compiled), "geomean_pure": geomean(pure),
            "geomean_compiled": geomean(compiled),
            "pure_below_1x": sorted(r["schema"] for r in timed if r["ratios"]["pure"] < TARGET_PURE_EACH),
            "compiled_target_met": (geomean(compiled) or 0) >= TARGET_COMPILED_GEOMEAN}


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench gallery", description=__doc__.split("\n\n")[0])
    p.add_argument("--quick", action="store_true", help="smoke run: short rounds, no compile-time report")
    p.add_argument("--only", nargs="+", metavar="NAME", help="formats whose gallery path contains NAME")
    p.add_argument("--json", metavar="OUT", help="also write the raw numbers")
    p.add_argument("--min-time", type=float, help="seconds per round (default 0.2, --quick 0.02)")
    p.add_argument("--rounds", type=int, help="rounds per cell, best taken (default 3, --quick 1)")
    p.add_argument("--no-build", action="store_true", help="build nothing: the compiled column of a format "
                   "without a build is not timed")
    p.add_argument("--build-only", action="store_true", help="compile and build every format, time none")
    p.add_argument("--timeout", type=float, default=900, help="seconds a format's worker may take")
    p.add_argument("--worker", nargs=4, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.worker:
        schema, module, min_time, rounds = args.worker
        print(json.dumps(time_format(schema, module, float(min_time), int(rounds))))
        return 0

    sys.path.insert(0, str(REPO))  # tests.gallery: the corpus, the manifest and the official parsers
    from tests.gallery import files, official

    why = official.available()
    corpus = files.corpus()
    if why or not corpus:
        print(f"bench gallery: nothing to measure: {why or 'no real-file corpus in tests/gallery/files'}")
        return 0
    schemas = [s for s in sorted(corpus) if not args.only or any(n in s for n in args.only)]
    min_time = args.min_time or (0.02 if args.quick else 0.2)
    rounds = args.rounds or (1 if args.quick else 3)
    load_before = os.getloadavg()
    log(f"bench gallery: {len(schemas)} formats; packages and builds in {cache_root()}; load {load_before[0]:.2f}")

    rows, build_failed = [], {}
    for k, schema in enumerate(schemas, 1):
        log(f"[{k}/{len(schemas)}] {schema}")
        module, why_not = compile_package(schema)
        if why_not is None and not args.no_build:
            why_not = build_package(module, log)
            if why_not:
                build_failed[schema] = why_not
        if why_not or args.build_only:
            rows.append({"schema": schema, "error": why_not or "built, not timed (--build-only)"})
            continue
        try:
            official.parser(schema)
        except official.CompileError as exc:
            rows.append({"schema": schema, "error": f"the official compiler: {str(exc).splitlines()[0][:150]}"})
            continue
        row = run_worker(schema, module, min_time, rounds, args.timeout)
        s = row.get("seconds")
        if s and row.get("files") and not row.get("wrong"):
            row["ratios"] = {side: s["official"] / s[side] for side in ("pure", "compiled") if side in s}
        rows.append(row)
    load_after = os.getloadavg()

    compile_report = None
    if not args.quick:
        from bench import compile as compile_bench

        compile_report = compile_bench.run_gallery(Path(official.GALLERY))
    report = {"rows": rows, "summary": summary(rows), "build_failed": build_failed, "compile": compile_report,
              "meta": {"load_before": load_before, "load_after": load_after, "min_time": min_time, "rounds": rounds,
                       "quick": args.quick, "python": sys.version.split()[0], "time": time.time()}}
    print_report(report)
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1, default=str) + "\n")
    wrong = [(r["schema"], w) for r in rows for w in r.get("wrong") or []]
    for schema, what in wrong:
        print(f"bench gallery: WRONG RESULT: {schema}: {what}")
    return 1 if wrong else 0


def print_report(report: dict) -> None:
    meta, s = report["meta"], report["summary"]
    print(f"# bench gallery: decode CPU time per format, real-file corpus (load average {meta['load_before'][0]:.2f} "
          f"before, {meta['load_after'][0]:.2f} after; rounds {meta['rounds']} of >= {meta['min_time']:g} s; "
          f"CPython {meta['python']})\n")
    print(table(report["rows"]))
    gp, gc_ = s["geomean_pure"], s["geomean_compiled"]
    print(f"\ngeomean over the {s['formats_timed']} formats timed: pure {gp or 0:.2f}x the official parser; "
          f"over the {s['formats_compiled']} with a build: compiled {gc_ or 0:.2f}x")
    print(f"target compiled >= {TARGET_COMPILED_GEOMEAN:g}x on the geomean: {'met' if s['compiled_target_met'] else 'not met'}")
    print(f"target pure >= {TARGET_PURE_EACH:g}x on every format: "
          + ("met" if not s["pure_below_1x"] else f"not met on {len(s['pure_below_1x'])}: {', '.join(s['pure_below_1x'])}"))
    if report["build_failed"]:
        print(f"\nbuilds that failed ({len(report['build_failed'])}):")
        for schema, why in sorted(report["build_failed"].items()):
            print(f"  {schema}: {why}")
    if report["compile"]:
        from bench import compile as compile_bench

        print()
        compile_bench.print_report(report["compile"], "gallery schemas (logcodec compile: load and render)")


if __name__ == "__main__":
    sys.exit(main())
