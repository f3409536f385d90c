"""``python -m fuzz [options]``: the fuzzing campaign (see fuzz/README.md).

    python -m fuzz --smoke                         # about a minute; exit 1 on any finding (fuzz/README.md)
    python -m fuzz --seconds 300 --build both      # 300 s of mutants per build, then the bombs
    python -m fuzz --inputs 20000 --format tank.bundle --build pure --seed 7
    python -m fuzz --bombs-only
    python -m fuzz --repro fuzz/out/<run>/<build>/<class>/<format>-<hash>.bin
    python -m fuzz --atheris 120 --format kafka.record_batch_v2   # coverage-guided, pure build
    python -m fuzz schemas --mutants 100000 --seed 1  # mutated schemas through the compiler (law 7)
    python -m fuzz schemas --smoke                    # CI: a few hundred of them
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

from fuzz import campaign as CA
from fuzz import report as R
from fuzz import worker as W

SMOKE_SECONDS = 15.0  # per build; the bombs (quick set) take about as long again


def parse(argv) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m fuzz", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--seed", type=int, default=1, help="campaign seed: the same seed gives the same inputs (default 1)")
    p.add_argument("--seconds", type=float, help="mutants for this long, per build (default 60 unless --inputs)")
    p.add_argument("--inputs", type=int, help="this many mutants per build (round robin over the formats)")
    p.add_argument("--format", action="append", help="only this format (repeatable, or comma-separated)")
    p.add_argument("--build", choices=("compiled", "pure", "both"), default="both")
    p.add_argument("--workers", type=int, default=2, help="worker processes per build (default 2)")
    p.add_argument("--timeout", type=float, default=10.0, help="time limit per input in seconds (default 10)")
    p.add_argument("--memory-mb", type=int, default=1024, help="address-space limit per worker (default 1024)")
    p.add_argument("--bomb-timeout", type=float, default=30.0, help="time limit per bomb in seconds (default 30)")
    p.add_argument("--no-bombs", action="store_true", help="skip the amplification inputs")
    p.add_argument("--bombs-only", action="store_true", help="only the amplification inputs")
    p.add_argument("--smoke", action="store_true", help=f"CI: {SMOKE_SECONDS:g} s per build, the quick bombs and "
                   "every format of Kaitai's gallery through logcodec (without --format; any run exits 1 on a finding)")
    p.add_argument("--out", type=Path, default=CA.OUT, help="where runs are written (default fuzz/out)")
    p.add_argument("--repro", type=Path, help="rerun one saved input (its .txt names the format) on the builds")
    p.add_argument("--atheris", type=float, metavar="SECONDS", help="coverage-guided mode (atheris, pure build)")
    return p.parse_args(argv)


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["schemas"]:  # the schema campaign (fuzz/schema_campaign.py)
        from fuzz import schema_campaign

        return schema_campaign.main(argv[1:])
    args = parse(argv)
    selected = [f for item in args.format or [] for f in item.split(",") if f]
    builds = ["compiled", "pure"] if args.build == "both" else [args.build]
    if args.repro:
        return repro(args.repro, builds, args)
    if args.atheris:
        from fuzz import coverage

        return coverage.main(CA.all_formats(selected), args.atheris, args.seed, args.out, args.memory_mb)
    if args.smoke:
        args.seconds = args.seconds or SMOKE_SECONDS
    elif args.seconds is None and args.inputs is None:
        args.seconds = 60.0
    run_dir = args.out / time.strftime(f"%Y%m%d-%H%M%S-seed{args.seed}")
    found: Counter[str] = Counter()  # finding class -> inputs, over the builds and the bombs
    summary = {"seed": args.seed, "runs": []}
    if not args.bombs_only:
        found += fuzz_builds(args, CA.all_formats(selected), builds, run_dir, summary)
    if not args.no_bombs:
        found += bombs(args, builds, run_dir, summary)
    if args.smoke and not selected:  # a smoke run of named formats is of those alone
        found += gallery_smoke(args, run_dir, summary)
    summary["findings_by_class"] = dict(found)
    run_dir.mkdir(parents=True, exist_ok=True)
    (run_dir / "summary.json").write_text(json.dumps(summary, indent=1, default=str))
    print(f"\nrun folder: {run_dir}")
    if found:  # every finding class is a broken law (fuzz/README.md): none may pass unnoticed
        print(f"{'smoke' if args.smoke else 'fuzz'}: FAILED: {sum(found.values())} finding(s): "
              + ", ".join(f"{cls} {n}" for cls, n in sorted(found.items())))
        return 1
    return 0


def fuzz_builds(args, format_names: list[str], builds: list[str], run_dir: Path, summary: dict) -> Counter[str]:
    """Mutants on each build; returns the findings by class."""
    generator = CA.Generator(args.seed, format_names)
    found: Counter[str] = Counter()
    for build in builds:
        inputs = generator.stream(format_names, args.inputs)
        recorder, reported, wall, total = CA.run_build(build, inputs, run_dir, seconds=args.seconds,
                                                       workers=args.workers, timeout=args.timeout,
                                                       memory_mb=args.memory_mb)
        print(f"\n## {build} build: {total} inputs in {wall:.1f} s ({total / max(wall, 1e-9):.0f}/s, "
              f"{args.workers} workers, seed {args.seed})\n")
        print(R.format_table(recorder, reported))
        found += print_findings(recorder.findings)
        summary["runs"].append({"build": build, "inputs": total, "seconds": wall,
                                "formats": {f: {"inputs": s.inputs, "classes": dict(s.classes), "errors": dict(s.errors),
                                                "slowest_ms": s.slowest_ms, "peak_kb": s.peak_kb}
                                            for f, s in recorder.stats.items()},
                                "findings": [(c, f, str(p)) for c, f, p in recorder.findings]})
    return found


def print_findings(findings) -> Counter[str]:
    """Print the findings by class (with one repro each); returns their counts."""
    if not findings:
        print("\nno findings")
        return Counter()
    by_class: dict[str, list] = {}
    for cls, fmt, path in findings:
        by_class.setdefault(cls, []).append((fmt, path))
    print("\nfindings:")
    for cls, items in sorted(by_class.items()):
        print(f"  {cls}: {len(items)} (e.g. {items[0][1]})")
    return Counter({cls: len(items) for cls, items in by_class.items()})


def bombs(args, builds: list[str], run_dir: Path, summary: dict) -> Counter[str]:
    """Every bomb on each build; returns the findings by class (a bomb refused with any
    DecodeError kind is none, `limit_exceeded` being the one expected)."""
    results, findings = CA.run_bombs(builds, run_dir, quick=args.smoke, timeout=args.bomb_timeout,
                                     memory_mb=args.memory_mb, workers=args.workers)
    print(f"\n## amplification inputs and bombs (limit {args.bomb_timeout:g} s, {args.memory_mb} MB address space)\n")
    print(R.bomb_table(results))
    summary["bombs"] = results
    return Counter(cls for cls in (r["outcome"].split()[0] for r in results) if cls in W.FINDINGS)


def gallery_smoke(args, run_dir: Path, summary: dict) -> Counter[str]:
    """Law 5 on every format of Kaitai's gallery (fuzz/gallery/smoke.py); returns the findings by
    class. Skipped, and said so, without the gallery (../shared)."""
    from fuzz.gallery import formats as GF
    from fuzz.gallery import smoke as GS

    why = GF.available()
    if why:
        print(f"\n## gallery: skipped ({why})")
        return Counter()
    found: Counter[str] = Counter()
    kept = run_dir / "gallery"
    listed, seen = GS.expected(), Counter()

    def record(name, what, data, result):
        entry = GS.expected_entry(listed, name, result)
        if entry:  # a known bug of the generator (fuzz/gallery/smoke_expected.yaml)
            seen[entry] += 1
            return
        found[result["cls"]] += 1
        path = kept / result["cls"] / f"{name.removesuffix('.ksy').replace('/', '-')}-{found[result['cls']]}.bin"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        path.with_suffix(".txt").write_text(f"format: {name}\ninput: {what}\nclass: {result['cls']}\n"
                                            f"kind: {result.get('kind', '')}\ndetail: {result.get('detail', '')}\n")
        if found[result["cls"]] <= 5:  # the first few; the count says the rest
            print(f"  {result['cls']}: {name} ({what}): {str(result.get('detail', ''))[:200]} -> {path}")

    print(f"\n## gallery: {len(GF.all_formats())} formats of Kaitai's gallery, logcodec's decode alone\n")
    total, wall, classes = GS.smoke(args.seed, args.workers, args.timeout, args.memory_mb, record)
    print(f"{total} inputs in {wall:.1f} s: " + ", ".join(f"{c} {n}" for c, n in classes.most_common()))
    for name, entries in listed.items():
        for i, entry in enumerate(entries):
            key = f"{name}#{i}"
            if seen[key]:
                print(f"  expected (smoke_expected.yaml): {name} {entry['class']} x{seen[key]}: {entry['reason'][:100]}")
            else:  # fixed: the list only shrinks
                found["stale_expected"] += 1
                print(f"  {name}: listed in fuzz/gallery/smoke_expected.yaml ({entry['class']}: {entry['detail']}), "
                      "but no input shows it now: remove the entry")
    summary["gallery"] = {"inputs": total, "seconds": wall, "classes": dict(classes), "expected": dict(seen)}
    return found


def repro(path: Path, builds: list[str], args) -> int:
    from fuzz.pool import Job, Pool

    notes = path.with_suffix(".txt")
    said: dict[str, str] = {}  # the notes' "name: value" lines, the first of each name (the detail may hold more)
    for line in notes.read_text().splitlines() if notes.exists() else ():
        name, _, value = line.partition(": ")
        said.setdefault(name, value)
    fmt = said.get("format") or (args.format or [None])[0]
    if not fmt:
        raise SystemExit("name the format with --format (no .txt beside the input)")
    params = json.loads(said["params"]) if "params" in said else {}  # the root's, as the input was read
    for build in builds:
        Pool(build, workers=1, timeout=args.timeout, memory_mb=args.memory_mb, fresh=True).run(
            [Job(0, fmt, path.read_bytes(), params)],
            lambda job, r, build=build: print(f"{build}: {r['cls']} {r.get('kind', '')} "
                                              f"{(r.get('ms') or 0):.1f} ms {(r.get('rss_kb') or 0) / 1024:.0f} MB\n"
                                              f"  {r.get('detail', '')}"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
