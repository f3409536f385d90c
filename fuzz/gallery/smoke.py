"""The gallery's part of `python -m fuzz --smoke` (CI): law 5 on every gallery format, logcodec
alone. Per format: its real files, a few values made and encoded (`values.py`), and mutants of
those seeds (fuzz/engines.py); each input decoded by the compiled schema's plain `decode` within
the default Limits: a value or a `DecodeError` whose offset lies in the input, nothing else,
under the pool's time and memory limits. No official parser: the comparison is the campaign's
(`python -m fuzz.gallery`). Without the gallery (../shared), it says so and passes.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from pathlib import Path

import yaml

from fuzz import engines as EN
from fuzz import worker as W
from fuzz.gallery import formats as F
from fuzz.knowledge import FormatFacts, _fixed_ints
from fuzz.pool import Job, Pool

DECODED = "decoded"
TARGET = "fuzz.gallery.smoke:run"
VALUES = 8  # value jobs per format
MUTANTS = 40  # mutants per format
MAX_FILES = 8  # real files per format taken as they are
GROUP = 40  # formats per pool of workers: a worker holds the modules of its group


EXPECTED = Path(__file__).with_name("smoke_expected.yaml")


def expected() -> dict[str, list[dict]]:
    """The known findings (smoke_expected.yaml): {schema: [{class, detail, reason}]}."""
    return yaml.safe_load(EXPECTED.read_text(encoding="utf-8")) or {}


def expected_entry(listed: dict, name: str, result: dict) -> str | None:
    """The key of the entry of `listed` that a finding matches, or None."""
    for i, entry in enumerate(listed.get(name, ())):
        if entry["class"] == result["cls"] and entry["detail"] in str(result.get("detail", "")):
            return f"{name}#{i}"
    return None


def run(format_name: str, job) -> dict:
    """The worker's target: make the input if the job is a value, then decode it."""
    from fuzz.gallery import compare
    from logcodec import DecodeError

    ours = F.ours(format_name)
    data = job
    if isinstance(job, tuple):
        made = compare.make_input(format_name, ours, *job[1:])
        if "data" not in made:  # not made: no input, no finding (the campaign counts these)
            return {**made, "cls": "not_made"}
        data = made["data"]
    try:
        ours.decode(data)
    except DecodeError as err:
        if err.offset is None or not 0 <= err.offset <= len(data):
            return {"cls": W.OFFSET_OUTSIDE, "kind": err.kind, "detail": f"offset {err.offset} of {len(data)}: {err}"}
        return {"cls": W.ERROR, "kind": err.kind, "detail": str(err)[:300], "data": data}
    except MemoryError:
        return {"cls": W.MEMORY, "kind": "decode", "detail": "MemoryError in decode"}
    except Exception as exc:  # noqa: BLE001 - the finding itself
        return {**W._foreign("decode", exc), "data": data}
    return {"cls": DECODED, "kind": "", "detail": "", "data": data}


def inputs(name: str, seed: int, seeds: list) -> list:
    """The format's inputs but its mutants: its files, then value jobs. `seeds` collects the
    bytes that come back, for `mutants`."""
    files = F.seed_files(name)[:MAX_FILES]
    seeds.extend(EN.Seed(name, p.name, p.read_bytes(), True) for p in files)
    return [(name, "file", s.data) for s in seeds] + [(name, f"value #{i}", ("value", seed, i)) for i in range(VALUES)]


def mutants(name: str, seed: int, seeds: list) -> list:
    facts = FormatFacts(name, "be")
    try:
        facts = FormatFacts(name, F.ir(name).root.endian, fixed_ints=_fixed_ints(F.ir(name).root))
    except Exception:  # noqa: BLE001, S110 - a schema that does not load shows in the decode results
        pass
    # In the order of the inputs, not of the answers (two workers answer in either order).
    order = {f"value #{i}": i for i in range(VALUES)}
    pool = sorted(seeds, key=lambda s: order.get(s.id, -1)) or [EN.Seed(name, "empty", b"", False)]
    ctx = EN.Context(facts, pool)
    out = []
    for i in range(MUTANTS):
        rng = random.Random(f"{seed}:{name}:smoke:{i}")
        engine = rng.choice(sorted(EN.BYTE_ENGINES) + ["havoc"])
        fn = EN.havoc if engine == "havoc" else EN.BYTE_ENGINES[engine]
        s = rng.choice(pool)
        data = fn(rng, s, ctx)
        out.append((name, f"{engine} of {s.id}", s.data if data is None else data))
    return out


def smoke(seed: int, workers: int, timeout: float, memory_mb: int, record,
          names: list[str] | None = None) -> tuple[int, float, Counter]:
    """Every gallery format (or those named); `record(format, what, data, result)` sees every
    finding. Returns the inputs run, the wall time and the outcomes by class."""
    names = names or F.all_formats()
    start, total, classes = time.monotonic(), 0, Counter()
    for i in range(0, len(names), GROUP):
        group = names[i:i + GROUP]
        seeds = {n: [] for n in group}
        for phase in ("seeds", "mutants"):
            items = [x for n in group for x in (inputs(n, seed, seeds[n]) if phase == "seeds" else mutants(n, seed, seeds[n]))]

            def on_result(job, result, items=items, phase=phase, seeds=seeds):
                nonlocal total
                name, what, _ = items[job.id]
                if result["cls"] == "not_made":
                    return
                total += 1
                classes[result["cls"]] += 1
                data = result.get("data", items[job.id][2] if isinstance(items[job.id][2], bytes) else b"")
                if phase == "seeds" and what.startswith("value") and "data" in result:
                    seeds[name].append(EN.Seed(name, what, result["data"], True))
                if result["cls"] in W.FINDINGS:
                    record(name, what, data, result)

            Pool("pure", workers=workers, timeout=timeout, memory_mb=memory_mb, target=TARGET).run(
                [Job(j, name, data) for j, (name, _, data) in enumerate(items)], on_result)
    return total, time.monotonic() - start, classes
