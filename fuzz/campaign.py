"""The campaign: inputs from the engines, run on each build, classified, tabled and kept as repros."""

from __future__ import annotations

import hashlib
import json
import random
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

from fuzz import engines as EN
from fuzz import worker as W
from fuzz.checksums import fix_checksums
from fuzz.compressed import Recompressor
from fuzz.knowledge import facts
from fuzz.pool import Job, Pool
from fuzz.seeds import formats, load_seeds

OUT = Path(__file__).resolve().parent / "out"


@dataclass
class Input:
    format: str
    engine: str
    seed: str
    data: bytes
    note: str = ""
    params: dict = field(default_factory=dict)  # the root's params, the seed's


@dataclass
class FormatStats:
    inputs: int = 0
    classes: Counter = field(default_factory=Counter)
    errors: Counter = field(default_factory=Counter)
    slowest_ms: float = 0.0
    slowest: str = ""
    peak_kb: int = 0


class Generator:
    """Deterministic inputs: input i of a format comes from Random(f"{seed}:{format}:{i}")."""

    def __init__(self, seed: int, format_names: list[str]) -> None:
        self.seed = seed
        self.contexts = {f: EN.Context(facts(f), list(load_seeds(f))) for f in format_names}
        self.recompress = {f: Recompressor(ctx) for f, ctx in self.contexts.items()}

    def engines(self, format_name: str) -> list[str]:
        names = sorted(EN.BYTE_ENGINES) + ["havoc", "recompress"]
        return names

    def make(self, format_name: str, index: int) -> Input:
        rng = random.Random(f"{self.seed}:{format_name}:{index}")
        ctx = self.contexts[format_name]
        for _ in range(20):  # an engine may not apply to the seed drawn: draw again
            seed = rng.choice(ctx.seeds)
            name = rng.choice(self.engines(format_name))
            engine = self.recompress[format_name] if name == "recompress" else (
                EN.havoc if name == "havoc" else EN.BYTE_ENGINES[name])
            data = engine(rng, seed, ctx)
            if data is None:
                continue
            note = ""
            # Half of the mutants of a checksummed format get their CRCs fixed, so that the
            # mutation reaches the fields behind them instead of stopping at the checksum.
            if ctx.facts.checksums and name != "recompress" and rng.random() < 0.5:
                data, fixes = fix_checksums(format_name, data, dict(seed.params))
                name += "+crc" if fixes else ""
                note = "; ".join(f.describe() for f in fixes)
            return Input(format_name, name, seed.id, data, note, dict(seed.params))
        return Input(format_name, "seed", seed.id, seed.data, params=dict(seed.params))

    def stream(self, format_names: list[str], limit: int | None) -> Iterator[Input]:
        """Round robin over the formats, `limit` inputs in all (None: until the caller stops)."""
        i = 0
        while limit is None or i < limit:
            yield self.make(format_names[i % len(format_names)], i // len(format_names))
            i += 1


class Recorder:
    """Counts outcomes per format and writes a repro for every finding (one per class, format and
    input hash)."""

    def __init__(self, run_dir: Path, build: str) -> None:
        self.run_dir, self.build = run_dir, build
        self.stats: dict[str, FormatStats] = defaultdict(FormatStats)
        self.findings: list[tuple[str, str, Path]] = []

    def record(self, item: Input, result: dict) -> None:
        st = self.stats[item.format]
        st.inputs += 1
        st.classes[result["cls"]] += 1
        if result["cls"] in (W.ERROR, W.OFFSET_OUTSIDE):
            st.errors[result["kind"]] += 1
        ms = result.get("ms") or 0.0
        if ms > st.slowest_ms:
            st.slowest_ms, st.slowest = ms, f"{item.engine} of {item.seed}"
        st.peak_kb = max(st.peak_kb, result.get("rss_kb") or 0)
        if result["cls"] in W.FINDINGS:
            self.findings.append((result["cls"], item.format, self.write_repro(item, result)))

    def write_repro(self, item: Input, result: dict) -> Path:
        digest = hashlib.sha256(item.data).hexdigest()[:12]
        folder = self.run_dir / result["cls"]
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{item.format}-{digest}.bin"
        path.write_bytes(item.data)
        path.with_suffix(".txt").write_text(
            f"format: {item.format}\n" + (f"params: {json.dumps(item.params)}\n" if item.params else "")
            + f"build: {self.build}\nclass: {result['cls']}\nkind: {result.get('kind', '')}\n"
            f"engine: {item.engine}\nseed vector: {item.seed}\nbytes: {len(item.data)}\n"
            f"time: {result.get('ms') or 0:.1f} ms\nworker peak RSS: {(result.get('rss_kb') or 0) / 1024:.0f} MB\n"
            + (f"generator note: {item.note}\n" if item.note else "")
            + f"detail: {result.get('detail', '')}\n"
            + f"rerun: .venv/bin/python -m fuzz --repro {path}\n")
        return path


def run_build(build: str, inputs: Iterator[Input], run_dir: Path, *, seconds: float | None, workers: int,
              timeout: float, memory_mb: int) -> tuple[Recorder, dict[str, str], float, int]:
    """Run the inputs on one build; returns the recorder, the builds the workers reported, the
    wall time and the number of inputs."""
    recorder = Recorder(run_dir / build, build)
    items: dict[int, Input] = {}
    end = None if seconds is None else time.monotonic() + seconds

    def jobs():
        for i, item in enumerate(inputs):
            items[i] = item
            yield Job(i, item.format, item.data, item.params)

    def on_result(job, result):
        recorder.record(items.pop(job.id), result)

    pool = Pool(build, workers=workers, timeout=timeout, memory_mb=memory_mb)
    start = time.monotonic()
    pool.run(jobs(), on_result, stop=lambda: end is not None and time.monotonic() > end)
    total = sum(s.inputs for s in recorder.stats.values())
    return recorder, pool.builds, time.monotonic() - start, total


def all_formats(selected: list[str] | None) -> list[str]:
    names = formats()
    if not selected:
        return names
    unknown = [f for f in selected if f not in names]
    if unknown:
        raise SystemExit(f"unknown format(s) {', '.join(unknown)}; known: {', '.join(names)}")
    return [f for f in names if f in selected]


def run_bombs(builds: list[str], run_dir: Path, *, quick: bool, timeout: float, memory_mb: int,
              workers: int) -> tuple[list[dict], list[tuple[str, str, Path]]]:
    """Every bomb of fuzz/bombs.py on every build, each in a fresh worker (its peak RSS is its own)."""
    from fuzz import bombs as B

    made = []
    for thunk in B.plan(quick=quick):
        try:
            made.append(thunk())
        except Exception as exc:  # noqa: BLE001 - a generator that cannot build is reported, not fatal
            made.append(B.Bomb(getattr(thunk, "__name__", "?"), "?", "?", b"", f"not built: {exc}"))
    results, findings = [], []
    for build in builds:
        recorder = Recorder(run_dir / build / "bombs", build)
        by_id: dict[int, dict] = {}

        def on_result(job, result, build=build, recorder=recorder, by_id=by_id):
            bomb = made[job.id]
            outcome = result["cls"] + (f" {result['kind']}" if result.get("kind") else "")
            by_id[job.id] = {"format": bomb.format, "codec": bomb.codec, "name": bomb.name, "bytes": len(bomb.data),
                             "build": build, "outcome": outcome, "ms": result.get("ms"),
                             "peak_kb": result.get("rss_kb") or 0, "detail": result.get("detail", "")}
            if result["cls"] in W.FINDINGS or (result["cls"] != W.ERROR or result.get("kind") != "limit_exceeded"):
                item = Input(bomb.format, f"bomb: {bomb.name}", bomb.codec, bomb.data, bomb.note)
                findings.append((result["cls"], bomb.format, recorder.write_repro(item, result)))

        jobs = [Job(i, b.format, b.data) for i, b in enumerate(made) if b.data]
        Pool(build, workers=workers, timeout=timeout, memory_mb=memory_mb, fresh=True).run(jobs, on_result)
        for i, b in enumerate(made):
            results.append(by_id.get(i) or {"format": b.format, "codec": b.codec, "name": b.name, "bytes": 0,
                                            "build": build, "outcome": b.note, "ms": None, "peak_kb": 0})
    return results, findings
