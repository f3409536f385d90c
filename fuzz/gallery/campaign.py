"""The gallery campaign: inputs per format, run in workers, counted, kept as repros, tabled.

Inputs of a format, in chunks of `CHUNK`: first chunks of value jobs (the worker makes value *i*
and encodes it, `values.py`), then mutants: the byte engines of fuzz/engines.py on the seeds,
which are the format's real files (`tests/gallery/files/...`) and the bytes of the values made
so far. Formats run in groups, each group with fresh workers (so that no worker holds every
schema's modules), chunk by chunk in turn: by the time a format's mutants are made, its values
have come back.
"""

from __future__ import annotations

import hashlib
import random
import re
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from fuzz import engines as EN
from fuzz import worker as W
from fuzz.gallery import compare as C
from fuzz.gallery import formats as F
from fuzz.gallery.known import known_difference
from fuzz.knowledge import FormatFacts, _fixed_ints
from fuzz.pool import Job, Pool

CHUNK = 100
GROUP = 8  # formats per pool of workers
TARGET = "fuzz.gallery.compare:run"
MAX_SEEDS = 64  # value encodings kept as seeds per format
REPROS_PER_CAUSE = 2  # inputs kept per format and cause
PROGRESS = 20_000  # a line every this many inputs


@dataclass
class Input:
    format: str
    origin: str  # "files" or "values": where its bytes come from, first hand or mutated
    engine: str  # "file", "value", or the byte engine
    seed: str  # the seed's name (a file, value #i)
    job: object  # bytes, or ("value", seed, index)


@dataclass
class Stats:
    inputs: Counter = field(default_factory=Counter)  # by origin
    outcomes: Counter = field(default_factory=Counter)  # same_value, both_refused, disagree, known, finding
    official_refusals: Counter = field(default_factory=Counter)  # both refused: the official exception
    our_refusals: Counter = field(default_factory=Counter)  # both refused: our DecodeError kind
    causes: Counter = field(default_factory=Counter)  # disagreements (bugs), by cause
    known: Counter = field(default_factory=Counter)  # documented differences, by what they are
    values: Counter = field(default_factory=Counter)  # value jobs: made, unbuildable, unencodable, maker_error
    value_reasons: Counter = field(default_factory=Counter)
    slowest_ms: float = 0.0
    total_ms: float = 0.0  # time in the worker, over every input (and value made)
    peak_kb: int = 0


class Inputs:
    """The inputs of one format (deterministic given the seeds that have come back)."""

    def __init__(self, name: str, seed: int, total: int, value_share: float) -> None:
        self.name, self.seed, self.total = name, seed, total
        self.value_jobs = int(total * value_share)
        files = [EN.Seed(name, p.name, p.read_bytes(), True) for p in F.seed_files(name)]
        self.file_seeds, self.value_seeds = files, []
        schema = F.ir(name)
        self.facts = FormatFacts(name, schema.root.endian, fixed_ints=_fixed_ints(schema.root))
        self.made = 0

    def add_value_seed(self, index: int, data: bytes) -> None:
        if len(self.value_seeds) < MAX_SEEDS and all(s.data != data for s in self.value_seeds):
            self.value_seeds.append(EN.Seed(self.name, f"value #{index}", data, True))

    def chunk(self) -> list[Input]:
        """The next CHUNK inputs (fewer at the end, none when done)."""
        out = []
        while self.made < self.total and len(out) < CHUNK:
            out.append(self.make(self.made))
            self.made += 1
        return out

    def make(self, i: int) -> Input:
        files = len(self.file_seeds)
        if i < files:  # the real files themselves, first
            s = self.file_seeds[i]
            return Input(self.name, "files", "file", s.id, s.data)
        if i < files + self.value_jobs:
            index = i - files
            return Input(self.name, "values", "value", f"value #{index}", ("value", self.seed, index))
        rng = random.Random(f"{self.seed}:{self.name}:mutant:{i}")
        seeds = self.file_seeds + self.value_seeds
        if not seeds:  # nothing came back to mutate: bytes from nothing
            seeds = [EN.Seed(self.name, "empty", b"", False)]
        ctx = EN.Context(self.facts, seeds)
        seed = rng.choice(seeds)
        for _ in range(10):
            name = rng.choice(sorted(EN.BYTE_ENGINES) + ["havoc"])
            engine = EN.havoc if name == "havoc" else EN.BYTE_ENGINES[name]
            data = engine(rng, seed, ctx)
            if data is not None:
                break
        else:
            name, data = "seed", seed.data
        return Input(self.name, "files" if seed in self.file_seeds else "values", name, seed.id, data)


class Recorder:
    def __init__(self, run_dir: Path) -> None:
        self.run_dir = run_dir
        self.stats: dict[str, Stats] = {}
        self.kept: Counter = Counter()
        self.repros: list[tuple[str, str, Path]] = []  # (class, format, path)

    def record(self, item: Input, result: dict, inputs: Inputs) -> None:
        st = self.stats.setdefault(item.format, Stats())
        st.slowest_ms = max(st.slowest_ms, result.get("ms") or 0.0)
        st.total_ms += result.get("ms") or 0.0
        st.peak_kb = max(st.peak_kb, result.get("rss_kb") or 0)
        cls = result["cls"]
        if cls == C.NOT_LOADED:  # not compared: neither an agreement nor a disagreement
            st.outcomes["not_loaded"] += 1
            st.causes[f"not loaded: {result['detail'][:100]}"] += 1
            return
        if item.engine == "value":
            if cls in W.FINDINGS:  # the worker died or overran making it: the maker's or the encoder's
                cls, result = C.MAKER_ERROR, {**result, "kind": f"worker: {cls}"}
            if cls in (C.UNBUILDABLE, C.UNENCODABLE, C.MAKER_ERROR):
                st.values[cls] += 1
                st.value_reasons[f"{cls}: {_reason(result)}"] += 1
                if cls == C.MAKER_ERROR:
                    self.keep(item, result, "maker_error", b"")
                return
            st.values["made"] += 1
            item = Input(item.format, item.origin, item.engine, item.seed, result["data"])
            inputs.add_value_seed(int(item.seed.split("#")[1]), item.job)
        st.inputs[item.origin] += 1
        if cls in (C.SAME, C.BOTH_REFUSED):
            st.outcomes[cls] += 1
            if cls == C.BOTH_REFUSED:
                st.official_refusals[result["official"]] += 1
                st.our_refusals[result["ours"]] += 1
            return
        if cls in W.FINDINGS:  # the pool's: a time-out, a death, a MemoryError of a worker
            cause = f"worker: {cls} {result.get('kind', '')}".strip()
        else:
            cause = result["cause"]
        known = known_difference(cause, result)
        if known:
            st.outcomes["known"] += 1
            st.known[known] += 1
            self.keep(item, result, "known", cause, limit=1)
            return
        finding = cause.startswith(("ours raised", "ours timed out", "worker:"))
        st.outcomes["finding" if finding else "disagree"] += 1
        st.causes[cause] += 1
        self.keep(item, result, "finding" if finding else "disagree", cause)

    def keep(self, item: Input, result: dict, cls: str, cause, limit: int = REPROS_PER_CAUSE) -> None:
        key = (item.format, cls, str(cause))
        self.kept[key] += 1
        if self.kept[key] > limit:
            return
        data = item.job if isinstance(item.job, bytes) else b""
        digest = hashlib.sha256(data + str(item.job).encode() * (not data)).hexdigest()[:12]
        folder = self.run_dir / cls
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{_slug(item.format)}-{digest}.bin"
        path.write_bytes(data)
        path.with_suffix(".txt").write_text(
            f"format: {item.format}\nclass: {cls}\ncause: {cause}\norigin: {item.origin}\nengine: {item.engine}\n"
            f"seed: {item.seed}\nbytes: {len(data)}\nofficial: {result.get('official') or 'a value'}\n"
            f"ours: {result.get('ours') or 'a value'}\ndetail: {result.get('detail', '')}\n"
            + ("" if isinstance(item.job, bytes) else f"value job: seed {item.job[1]} index {item.job[2]}\n")
            + f"rerun: .venv/bin/python -m fuzz.gallery --repro {path}\n")
        self.repros.append((cls, item.format, path))


def _reason(result: dict) -> str:
    """A value job's failure, with numbers and paths' indices dropped, so that alike ones count
    together."""
    text = (result.get("kind") or "") + " " + (result.get("detail") or "").splitlines()[0] if result.get("detail") else ""
    return re.sub(r"\d+", "N", text)[:120].strip()


def _slug(name: str) -> str:
    return name.removesuffix(".ksy").replace("/", "-")


def groups(names: list[str], size: int = GROUP) -> Iterator[list[str]]:
    for i in range(0, len(names), size):
        yield names[i:i + size]


def run(names: list[str], run_dir: Path, *, seed: int, per_format: int, value_share: float, workers: int,
        timeout: float, memory_mb: int, progress=print, after_group=None) -> tuple[Recorder, float, int]:
    """Every format's inputs through the comparison; returns the recorder, the wall time and the
    number of inputs run. `after_group(recorder, seconds, inputs)` is called after each group of
    formats (the summary so far is written there: a long run stopped early keeps its counts)."""
    recorder = Recorder(run_dir)
    start = time.monotonic()
    done = 0
    for group in groups(names):
        sources = {n: Inputs(n, seed, per_format, value_share) for n in group}
        items: dict[int, Input] = {}
        counter = iter(range(1 << 62))

        def jobs(sources=sources, items=items, counter=counter):
            while True:
                chunks = [c for s in sources.values() if (c := s.chunk())]
                if not chunks:
                    return
                for chunk in chunks:
                    for item in chunk:
                        i = next(counter)
                        items[i] = item
                        yield Job(i, item.format, item.job)

        def on_result(job, result, sources=sources, items=items):
            nonlocal done
            item = items.pop(job.id)
            recorder.record(item, result, sources[item.format])
            done += 1
            if done % PROGRESS == 0:
                progress(f"    {done} inputs, {time.monotonic() - start:.0f} s")

        t0 = time.monotonic()
        # Batches of 64: the round trips to the worker, not the inputs, were most of the time.
        Pool("pure", workers=workers, timeout=timeout, memory_mb=memory_mb, target=TARGET, batch=64).run(jobs(), on_result)
        n = sum(s.made for s in sources.values())
        progress(f"  {', '.join(group)}: {n} inputs in {time.monotonic() - t0:.0f} s "
                 f"({n / max(time.monotonic() - t0, 1e-9):.0f}/s)")
        if after_group:
            after_group(recorder, time.monotonic() - start, done)
    return recorder, time.monotonic() - start, done
