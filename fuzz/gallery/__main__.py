"""``python -m fuzz.gallery [options]``: the differential campaign on Kaitai's format gallery
(fuzz/README.md, "The gallery campaign").

    python -m fuzz.gallery --inputs 10000                 # every format: 10,000 inputs each, 1 worker
    python -m fuzz.gallery --inputs 500 --format png,gif  # a few formats
    python -m fuzz.gallery --repro fuzz/out/gallery-<run>/disagree/<format>-<hash>.bin
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from fuzz.campaign import OUT
from fuzz.gallery import campaign as GC
from fuzz.gallery import formats as F
from fuzz.gallery import report as R


def parse(argv) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m fuzz.gallery", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--seed", type=int, default=1, help="campaign seed: the same seed gives the same inputs (default 1)")
    p.add_argument("--inputs", type=int, default=10_000, help="inputs per format (default 10000)")
    p.add_argument("--value-share", type=float, default=0.3,
                   help="share of each format's inputs that are made from values (default 0.3); the rest are "
                   "the real files and mutants")
    p.add_argument("--format", action="append", help="only this format: gallery path or name (repeatable, or "
                   "comma-separated)")
    p.add_argument("--workers", type=int, default=1, help="worker processes (default 1)")
    p.add_argument("--timeout", type=float, default=15.0, help="time limit per input in seconds (default 15; each "
                   f"parser has {GC.C.SIDE_LIMIT:g} s of it)")
    p.add_argument("--memory-mb", type=int, default=1536, help="address-space limit per worker (default 1536)")
    p.add_argument("--out", type=Path, default=OUT, help="where runs are written (default fuzz/out)")
    p.add_argument("--repro", type=Path, help="rerun one saved input (its .txt names the format)")
    p.add_argument("--table", type=Path, nargs="+", metavar="SUMMARY", help="print the tables of runs' summary.json "
                   "again (several: their formats together), the causes judged by today's known differences (known.py)")
    p.add_argument("--after", metavar="FORMAT", help="only the formats after this one (gallery path), in order: "
                   "to go on with a run that was stopped")
    p.add_argument("--minimize", action="store_true", help="with --repro: cut the input down while the cause stays "
                   "the same, and write it beside as <name>.min.bin")
    return p.parse_args(argv)


def main(argv=None) -> int:
    args = parse(sys.argv[1:] if argv is None else argv)
    if args.table:
        runs = [json.loads(path.read_text()) for path in args.table]
        again = R.from_summary({"formats": {k: v for run in runs for k, v in run["formats"].items()},
                                "repros": [r for run in runs for r in run.get("repros", [])]})
        print(R.table(again) + "\n\n## disagreements by cause, most frequent first\n\n" + R.causes(again))
        return 0
    why = F.available()
    if why:
        print(f"fuzz.gallery: {why}", file=sys.stderr)
        return 2
    if args.repro:
        return repro(args.repro, args.minimize)
    names = F.select([f for item in args.format or [] for f in item.split(",") if f] or None)
    if args.after:
        names = [n for n in names if n > args.after]
    refused = F.prepare_official(names)
    if refused:
        reasons = sorted(set(refused.values()))
        print(f"not compared ({len(refused)}): " + "; ".join(
            f"{', '.join(n for n, w in sorted(refused.items()) if w == why)}: {why}" for why in reasons)[:2000])
    names = [n for n in names if n not in refused]
    run_dir = args.out / time.strftime(f"gallery-%Y%m%d-%H%M%S-seed{args.seed}")
    print(f"{len(names)} formats, {args.inputs} inputs each, {args.workers} worker(s), run folder {run_dir}")
    def write_summary(recorder, wall, total):
        summary = R.summary(recorder, seed=args.seed, seconds=wall, inputs=total, refused=refused,
                            formats_done=len(recorder.stats), formats_planned=len(names))
        run_dir.mkdir(parents=True, exist_ok=True)
        (run_dir / "summary.json").write_text(json.dumps(summary, indent=1, default=str))

    recorder, wall, total = GC.run(names, run_dir, seed=args.seed, per_format=args.inputs,
                                   value_share=args.value_share, workers=args.workers, timeout=args.timeout,
                                   memory_mb=args.memory_mb, after_group=write_summary)
    print(f"\n## {total} inputs in {wall:.0f} s ({total / max(wall, 1e-9):.0f}/s, {args.workers} worker(s), "
          f"seed {args.seed})\n")
    print(R.table(recorder))
    print("\n## disagreements by cause, most frequent first\n")
    print(R.causes(recorder))
    write_summary(recorder, wall, total)
    (run_dir / "table.md").write_text(R.table(recorder) + "\n\n" + R.causes(recorder) + "\n")
    print(f"\nrun folder: {run_dir}")
    return 0


def repro(path: Path, minimize: bool = False) -> int:
    """Both parsers on one saved input, in this process (no time limit but the side limits)."""
    from fuzz.gallery import compare

    notes = dict(line.split(": ", 1) for line in path.with_suffix(".txt").read_text().splitlines() if ": " in line)
    job = path.read_bytes()
    if "value job" in notes:  # a value that broke the maker or the encoder: made again
        _, seed, _, index = notes["value job"].split()
        job = ("value", int(seed), int(index))
    result = compare.run(notes["format"], job)
    for key in ("cls", "cause", "official", "ours", "detail"):
        if result.get(key):
            print(f"{key}: {result[key]}")
    if minimize and result.get("cause"):
        data = shrink(notes["format"], result.get("data", job), result["cause"])
        out = path.with_suffix(".min.bin")
        out.write_bytes(data)
        again = compare.run(notes["format"], data)
        print(f"\nminimized to {len(data)} bytes ({out}): {data.hex()}\n  cause: {again.get('cause')}\n"
              f"  {again.get('detail')}")
    return 0


def shrink(fmt: str, data: bytes, cause: str) -> bytes:
    """The shortest input found, by cutting pieces (halves, then smaller) and zeroing bytes, that
    keeps `cause`."""
    from fuzz.gallery import compare

    def keeps(candidate: bytes) -> bool:
        return compare.run(fmt, candidate).get("cause") == cause

    piece = max(1, len(data) // 2)
    while piece >= 1:
        i, cut = 0, False
        while i < len(data):
            candidate = data[:i] + data[i + piece:]
            if keeps(candidate):
                data, cut = candidate, True
            else:
                i += piece
        if not cut:
            piece //= 2
    return data


if __name__ == "__main__":
    sys.exit(main())
