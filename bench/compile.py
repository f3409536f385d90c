"""``python -m bench compile``: how long `logcodec compile` takes on Kaitai Struct's test-suite schemas
and on the format gallery's.

Every schema of the suite's `formats/` folder (with its import folders), then every schema of the
format gallery (with its root as the import folder, as `logcodec compile -I` is given it), is compiled
to Python in this one process, as `logcodec compile` does for one: loaded and checked (`load`),
analysed and rendered to a module (`render`, the model, the emitter and the type rules), then laid
out by `ruff format` (`format`). Nothing is written. The report gives the total and each phase's
share, so a slower generator shows where; a schema the compiler refuses is counted apart
(formats_err/ is not run). `python -m bench gallery` reports the gallery's part too (`run`).

Without the suite (`../shared/corpus/kaitai_struct_tests`) or the gallery it says so and goes on.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path
from unittest import mock

from logcodec.generator.compile import load, render_package
from logcodec.generator.problems import SchemaError
from logcodec.generator.python import emit

SUITE = Path(__file__).resolve().parents[1].parent / "shared" / "corpus" / "kaitai_struct_tests"
GALLERY = Path(__file__).resolve().parents[1].parent / "shared" / "corpus" / "kaitai_struct_formats"


def run_suite(suite: Path) -> dict:
    """The suite's schemas, with its import folders."""
    formats = suite / "formats"
    return run(sorted(formats.glob("*.ksy")), (str(formats / "ks_path"), str(suite / "import_path")))


def run_gallery(gallery: Path) -> dict:
    """The gallery's schemas, each with the gallery's root as its import folder."""
    return run(sorted(gallery.rglob("*.ksy")), (str(gallery),))


def run(paths: list[Path], include: tuple) -> dict:
    """Compile every schema of `paths` (imports found in `include`), timing each phase."""
    phases = {"load": 0.0, "render": 0.0, "format": 0.0}
    refused, compiled = [], 0
    real_format = emit.tidy

    def timed_format(source: str) -> str:
        t = time.perf_counter()
        try:
            return real_format(source)
        finally:
            phases["format"] += time.perf_counter() - t

    started = time.perf_counter()
    with mock.patch.object(emit, "tidy", timed_format):  # the formatter's share, apart from rendering
        for k, path in enumerate(paths):
            t = time.perf_counter()
            try:
                _, schemas = load([path], f"bench_{k}", include)
                t1 = time.perf_counter()
                phases["load"] += t1 - t
                formatted_before = phases["format"]
                render_package(schemas, f"bench_{k}")  # every module and the source of its compiled build
                phases["render"] += time.perf_counter() - t1 - (phases["format"] - formatted_before)
                compiled += 1
            except SchemaError as exc:
                refused.append((path.name, str(exc).splitlines()[0][:120]))
            except Exception as exc:  # noqa: BLE001 - a crash of the generator is reported, and the run goes on
                refused.append((path.name, f"CRASH {type(exc).__name__}: {exc}"[:120]))
    total = time.perf_counter() - started
    return {"schemas": len(paths), "compiled": compiled, "refused": refused, "total_seconds": round(total, 2),
            "phases_seconds": {k: round(v, 2) for k, v in phases.items()},
            "load": os.getloadavg()[0]}


def print_report(report: dict, what: str) -> None:
    print(f"compiled {report['compiled']}/{report['schemas']} {what} in {report['total_seconds']} s "
          f"(one process; load average {report['load']:.2f} at the end)")
    for phase, seconds in report["phases_seconds"].items():
        share = seconds / report["total_seconds"] if report["total_seconds"] else 0
        print(f"  {phase:<7} {seconds:7.2f} s  {share:5.1%}")
    for name, why in report["refused"]:
        print(f"  refused {name}: {why}")


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench compile", description=__doc__.split("\n\n")[0])
    p.add_argument("suite", nargs="?", type=Path, default=SUITE)
    p.add_argument("--gallery", type=Path, default=GALLERY, help="the format gallery (default ../shared/corpus/...)")
    p.add_argument("--json", metavar="OUT")
    args = p.parse_args(argv)
    reports = {}
    if (args.suite / "formats").is_dir():
        reports["suite"] = run_suite(args.suite)
        print_report(reports["suite"], "suite schemas")
    else:
        print(f"no Kaitai test suite at {args.suite}: not measured")
    if args.gallery.is_dir():
        reports["gallery"] = run_gallery(args.gallery)
        print_report(reports["gallery"], "gallery schemas")
    else:
        print(f"no Kaitai format gallery at {args.gallery}: not measured")
    if args.json:
        Path(args.json).write_text(json.dumps(reports, indent=1) + "\n")
    return 0
