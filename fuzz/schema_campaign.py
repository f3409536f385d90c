"""The schema campaign (`python -m fuzz schemas`): law 7, no schema, however broken, gets a
traceback from the compiler.

Mutants of Kaitai's format gallery and of the schemas of Kaitai's test suite (`schema_mutants.py`)
each go through the whole compile of `logcodec compile` (`compile.load`, every pass of the python
target, then `compile.render_package`) in a worker process (`pool.py`: a time limit per mutant,
an address-space limit per worker). A mutant ends in a `SchemaError` whose every line names the
file as given, its line, column and YAML path and says what is wrong in the schema's words, or in
a package that compiles (and, for a sample, imports). Anything else is a finding, kept as a repro
under `fuzz/out/<run>/schemas/<class>/`: the mutant (`.ksy`) and what happened (`.txt`).
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import os
import random
import re
import shutil
import sys
import tempfile
import time
import traceback
from collections import Counter, defaultdict
from pathlib import Path

from fuzz import worker as W
from fuzz.pool import Job, Pool
from fuzz.schema_mutants import MUTATIONS, Seed, mutate

OUT = Path(__file__).resolve().parent / "out"
SHARED = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus"
GALLERY = Path(os.environ.get("KAITAI_GALLERY", SHARED / "kaitai_struct_formats"))
SUITE = Path(os.environ.get("KAITAI_SUITE", SHARED / "kaitai_struct_tests"))
#: The folders of each corpus a worker copies, and the import folders (`-I`) of its schemas,
#: as `tests/gallery` and `tests/kaitai_suite` compile them.
CORPORA = {"gallery": (GALLERY, ["."], ["."]),
           "suite": (SUITE, ["formats", "formats_err", "import_path"], ["formats/ks_path", "import_path"])}

# Outcome classes: the first three are what a mutant may end in; the rest are findings.
SCHEMA_ERROR, COMPILES, IMPORTS = "schema_error", "compiles", "imports"
NEEDS_MODULE = "needs_module"  # compiled; imports but for the module of a processor it names, not installed
TRACEBACK = "traceback"        # an exception other than SchemaError, loading, checking or rendering
BAD_MESSAGE = "bad_message"    # a SchemaError without a place, naming no file as given, or showing internals
IMPORT_FAILS = "import_fails"  # compiled, but the package does not import
FINDINGS = (TRACEBACK, BAD_MESSAGE, IMPORT_FAILS, W.TIMEOUT, W.MEMORY, W.KILLED)
#: An internal repr in a message: an expression node or an IR object as Python prints it.
INTERNALS = re.compile(r"\b(Name|Num|Str|Bool|EnumLit|Unary|Binary|Ternary|Attr|Call|Cast|Index|ArrayLit|SizeOf|"
                       r"FString|TypeRef|TypeDef|Field|Enum|Instance|Param)\((\w+=|')|<(TypeDef|Schema|Field) |"
                       r" object at 0x|<byte string>|<unicode string>|<file>|\{'[A-Za-z_]\w*': ")
#: A YAML value as Python prints it (YAML says null, true), outside what the message quotes.
PYTHON_VALUES = re.compile(r"\b(not|also|is) (None|True|False)\b|: (None|True|False)[,})]")
_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"")
SMOKE_MUTANTS = 300


def available() -> bool:
    return GALLERY.is_dir() or (SUITE / "formats").is_dir()


def seeds() -> list[Seed]:
    """Every schema of the corpora that are here, by `corpus:path`."""
    out = []
    for corpus, (root, folders, _) in CORPORA.items():
        for folder in folders:
            for path in sorted((root / folder).rglob("*.ksy")) if (root / folder).is_dir() else []:
                out.append(Seed(f"{corpus}:{path.relative_to(root).as_posix()}", path.read_bytes()))
    return out


# ---------------------------------------------------------------- in the worker

_COPY: list[Path] = []  # the worker's copy of the corpora (mutants are written into it, beside their seed)
_IMPORTED = [0]


def _copy() -> Path:
    """The corpora, copied once per worker into a folder of its own."""
    if not _COPY:
        base = Path(tempfile.mkdtemp(prefix="lc-schemafuzz-"))
        for corpus, (root, folders, _) in CORPORA.items():
            for folder in folders:
                if (root / folder).is_dir():
                    shutil.copytree(root / folder, base / corpus / folder, dirs_exist_ok=True)
        (base / "out").mkdir()
        # (this worker's own path: where the packages it imports lie, and the custom processors
        # the suite's schemas name, as tests/kaitai_suite finds them)
        sys.path[:0] = [str(base / "out"), str(Path(__file__).resolve().parent.parent / "tests" / "kaitai_suite" / "fixtures")]
        _COPY.append(base)
    return _COPY[0]


def judge(name: str, data: bytes) -> dict:
    """Compile one mutant as `logcodec compile` does, in this worker: its class, and what happened.
    `name` is the seed's `corpus:path`, with `|import` when the compiled package is imported."""
    from logcodec.generator import compile as C
    from logcodec.generator.problems import SchemaError

    seed, _, wanted = name.partition("|")
    corpus, rel = seed.split(":", 1)
    base = _copy()
    original = base / corpus / rel
    mutant = original.with_name("mutant_" + original.name)  # beside its seed: relative imports resolve
    mutant.write_bytes(data)
    include = tuple(str(base / corpus / d) for d in CORPORA[corpus][2])
    given = str(mutant)
    _IMPORTED[0] += 1
    package, stage = f"fz{os.getpid()}_{_IMPORTED[0]}", "load"  # (a name of its own: it may be imported)
    try:
        _, schemas = C.load([Path(given)], package, include)
        stage = "render"
        files = C.render_package(schemas, package)
    except SchemaError as exc:
        faults = message_faults(exc, given)
        if faults:
            return {"cls": BAD_MESSAGE, "kind": faults[0].split(":")[0], "detail": "\n".join(faults) + "\n\n" + str(exc)}
        return {"cls": SCHEMA_ERROR, "kind": f"{len(exc.problems)} problem(s)", "detail": str(exc)}
    except MemoryError:
        return {"cls": W.MEMORY, "kind": stage, "detail": f"MemoryError in {stage}"}
    except Exception as exc:  # noqa: BLE001 - the finding itself
        return _traceback(stage, exc)
    if wanted != "import":
        return {"cls": COMPILES, "kind": "", "detail": ""}
    return _imported(base, package, files, [s.id for s in schemas])


def _traceback(stage: str, exc: BaseException) -> dict:
    frames = traceback.extract_tb(exc.__traceback__)
    where = next((f"{Path(f.filename).name}:{f.lineno} {f.name}" for f in reversed(frames)
                  if "/generator/" in f.filename or "/logcodec/" in f.filename), "?")
    tail = "".join(traceback.format_exception(exc)[-8:])
    return {"cls": TRACEBACK, "kind": f"{type(exc).__name__} at {where}",
            "detail": f"{stage}: {type(exc).__name__}: {str(exc)[:2000]}\n{tail}"}


def _imported(base: Path, package: str, files: dict[str, str], ids: list[str]) -> dict:
    """Write the package, import each module of it, then forget it."""
    folder = base / "out" / package
    for rel, text in files.items():
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_text(text)
    importlib.invalidate_caches()
    try:
        for sid in ids:
            importlib.import_module(f"{package}.{sid}")
    except MemoryError:
        return {"cls": W.MEMORY, "kind": "import", "detail": "MemoryError importing the package"}
    except Exception as exc:  # noqa: BLE001
        found = _traceback("import", exc)
        if isinstance(exc, ModuleNotFoundError) and "processors.py" in found["kind"]:
            return {**found, "cls": NEEDS_MODULE}  # as Kaitai's parsers: a processor is a module on the path
        return {**found, "cls": IMPORT_FAILS}
    finally:
        for name in [n for n in sys.modules if n == package or n.startswith(package + ".")]:
            del sys.modules[name]
        shutil.rmtree(folder, ignore_errors=True)
    return {"cls": IMPORTS, "kind": "", "detail": ""}


def message_faults(exc, given: str) -> list[str]:
    """What is wrong with a SchemaError as a user reads it (law 7): each problem names a file
    that is there as written (the one given as given), its line and column and YAML path (a
    YAML syntax error: its line and column), and shows no internal repr. Empty: nothing."""
    if not exc.problems:
        return [f"no place: a plain message ({str(exc)[:200]})"]
    faults = []
    for p in exc.problems:
        line = str(p)
        if p.line is None or p.column is None:
            faults.append(f"no line: {line}")
        if p.ypath is None and not p.text.startswith(("not valid YAML", "cannot read")):
            faults.append(f"no YAML path: {line}")
        if not os.path.isfile(p.file):
            faults.append(f"no such file as named: {line}")
        elif os.path.samefile(p.file, given) and p.file != given:
            faults.append(f"not the file as given ({given}): {line}")
        if m := INTERNALS.search(p.text) or PYTHON_VALUES.search(_QUOTED.sub("''", p.text)):
            faults.append(f"internal repr {m.group()!r}: {line}")
    return faults


# ---------------------------------------------------------------- the campaign


class Campaign:
    """Mutant i comes from Random(f"{seed}:{i}"): a seed schema, a donor for splices, a mutation."""

    def __init__(self, seed: int, imports_every: int = 10) -> None:
        self.seed, self.imports_every = seed, imports_every
        self.seeds = seeds()
        self.by_corpus: dict[str, list[Seed]] = defaultdict(list)  # each corpus drawn as often as the other
        for seed in self.seeds:
            self.by_corpus[seed.name.split(":")[0]].append(seed)
        self.seen: set[bytes] = set()

    def jobs(self, count: int, mutants: dict, tally: Counter):
        """`count` distinct mutants (a mutant made before is drawn again), as pool jobs."""
        i = made = 0
        while made < count:
            rng = random.Random(f"{self.seed}:{i}")
            i += 1
            seed, donor = rng.choice(self.by_corpus[rng.choice(sorted(self.by_corpus))]), rng.choice(self.seeds)
            kind, data = mutate(rng, seed, donor)
            digest = hashlib.sha1(seed.name.encode() + data).digest()
            if digest in self.seen:
                tally["repeated"] += 1
                continue
            self.seen.add(digest)
            name = seed.name + ("|import" if made % self.imports_every == 0 else "")
            mutants[made] = (kind, seed.name, data)
            yield Job(made, name, data)
            made += 1


def run(count: int, seed: int, workers: int, timeout: float, memory_mb: int, out: Path,
        imports_every: int = 10, log=print) -> dict:
    """Run `count` mutants; the table's counts, the findings (with their repros) and the rate."""
    campaign = Campaign(seed, imports_every)
    run_dir = out / time.strftime(f"%Y%m%d-%H%M%S-schemas-seed{seed}")
    mutants: dict[int, tuple] = {}
    tally: Counter = Counter()
    by_kind: dict[str, Counter] = defaultdict(Counter)
    by_seed: dict[str, Counter] = defaultdict(Counter)
    findings: list[tuple[str, str, str, Path]] = []
    slowest: list[tuple[float, str, str]] = []
    started = time.monotonic()

    def on_result(job: Job, result: dict) -> None:
        kind, seed_name, data = mutants.pop(job.id)
        cls = result["cls"]
        by_kind[kind][cls] += 1
        by_seed[seed_name][cls] += 1
        slowest.append(((result.get("ms") or 0), seed_name, kind))
        slowest.sort(reverse=True)
        del slowest[5:]
        if cls in FINDINGS:
            findings.append((cls, result.get("kind", ""), seed_name, _keep(run_dir, cls, kind, seed_name, data, result)))
        done = sum(sum(c.values()) for c in by_kind.values())
        if done % 1000 == 0:
            log(f"  {done} mutants, {done / (time.monotonic() - started):.1f}/s, {len(findings)} finding(s)")

    try:
        Pool("pure", workers=workers, timeout=timeout, memory_mb=memory_mb, batch=4,
             target="fuzz.schema_campaign:judge").run(campaign.jobs(count, mutants, tally), on_result)
    except KeyboardInterrupt:  # stopped early (Ctrl-C): the table of what ran
        log("  interrupted")
    seconds = time.monotonic() - started
    count = sum(sum(c.values()) for c in by_kind.values())
    return {"run_dir": run_dir, "seconds": seconds, "count": count, "by_kind": by_kind, "by_seed": by_seed,
            "findings": findings, "repeated": tally["repeated"], "slowest": slowest, "workers": workers}


def _keep(run_dir: Path, cls: str, kind: str, seed_name: str, data: bytes, result: dict) -> Path:
    """A finding's repro: the mutant, and a note of its seed, mutation and what happened."""
    folder = run_dir / "schemas" / cls
    folder.mkdir(parents=True, exist_ok=True)
    stem = f"{seed_name.replace(':', '-').replace('/', '-').removesuffix('.ksy')}-{hashlib.sha1(data).hexdigest()[:10]}"
    (folder / f"{stem}.ksy").write_bytes(data)
    (folder / f"{stem}.txt").write_text(f"seed: {seed_name}\nmutation: {kind}\nclass: {cls}\nkind: {result.get('kind')}\n"
                                        f"ms: {result.get('ms')}\n\n{result.get('detail', '')}\n")
    return folder / f"{stem}.ksy"


def table(result: dict) -> str:
    """Mutants by kind of mutation and outcome, in Markdown."""
    classes = [SCHEMA_ERROR, COMPILES, IMPORTS, NEEDS_MODULE, *FINDINGS]
    shown = [c for c in classes if any(k[c] for k in result["by_kind"].values()) or c in (SCHEMA_ERROR, COMPILES)]
    rows = [f"| mutation | mutants | {' | '.join(shown)} |", "|---|---:|" + "---:|" * len(shown)]
    total: Counter = Counter()
    for kind in sorted(result["by_kind"], key=lambda k: (k not in MUTATIONS, k)):
        counts = result["by_kind"][kind]
        total += counts
        rows.append(f"| {kind} | {sum(counts.values())} | {' | '.join(str(counts[c]) for c in shown)} |")
    rows.append(f"| **all** | {sum(total.values())} | {' | '.join(str(total[c]) for c in shown)} |")
    return "\n".join(rows)


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="python -m fuzz schemas", description=__doc__.split("\n\n")[0])
    p.add_argument("--mutants", type=int, default=10000, help="how many distinct mutants (default 10000)")
    p.add_argument("--seed", type=int, default=1, help="the same seed gives the same mutants (default 1)")
    p.add_argument("--workers", type=int, default=2, help="worker processes (default 2)")
    p.add_argument("--timeout", type=float, default=20.0, help="seconds per mutant (default 20)")
    p.add_argument("--memory-mb", type=int, default=1536, help="address-space limit per worker (default 1536)")
    p.add_argument("--imports-every", type=int, default=10, help="import one compiled package in N (default 10)")
    p.add_argument("--smoke", action="store_true", help=f"CI: {SMOKE_MUTANTS} mutants; exit 1 on any finding")
    p.add_argument("--out", type=Path, default=OUT, help="where runs are written (default fuzz/out)")
    p.add_argument("--repro", type=Path, help="judge the saved mutants again (a .ksy of a run, or a folder of them)")
    args = p.parse_args(argv)
    if not available():
        print(f"no schema corpus at {GALLERY} or {SUITE}: nothing to mutate (skipped)")
        return 0
    if args.repro:
        return repro(args.repro, args.timeout, args.memory_mb)
    result = run(SMOKE_MUTANTS if args.smoke else args.mutants, args.seed, args.workers, args.timeout, args.memory_mb,
                 args.out, args.imports_every)
    count = result["count"]
    rate = count / max(result["seconds"], 1e-9)
    print(f"\n## schema mutants: {count} in {result['seconds']:.1f} s ({rate:.1f}/s, {args.workers} workers, "
          f"seed {args.seed}; {result['repeated']} repeated mutants drawn again)\n")
    print(table(result))
    print("\nslowest: " + "; ".join(f"{ms / 1000:.1f} s {seed} ({kind})" for ms, seed, kind in result["slowest"]))
    if not result["findings"]:
        print("\nno findings")
        return 0
    print("\nfindings:")
    grouped: dict[tuple, list] = defaultdict(list)
    for cls, kind, seed, path in result["findings"]:
        grouped[(cls, kind)].append(path)
    for (cls, kind), paths in sorted(grouped.items(), key=lambda item: -len(item[1])):
        print(f"  {cls} {kind}: {len(paths)} (e.g. {paths[0]})")
    print(f"\nrun folder: {result['run_dir']}")
    print(f"{'smoke' if args.smoke else 'schemas'}: FAILED: {len(result['findings'])} finding(s)")
    return 1


def repro(path: Path, timeout: float, memory_mb: int) -> int:
    """Judge saved mutants again (beside their seed, the package imported), in a worker as the
    campaign does; exit 1 while any is still a finding."""
    files = sorted(path.rglob("*.ksy")) if path.is_dir() else [path]
    seeds = {f: next(line.split(": ", 1)[1] for line in f.with_suffix(".txt").read_text().splitlines()
                     if line.startswith("seed: ")) for f in files}
    jobs = [Job(i, seeds[f] + "|import", f.read_bytes()) for i, f in enumerate(files)]
    still: list[str] = []

    def on_result(job: Job, result: dict) -> None:
        print(f"{result['cls']:<14} {files[job.id]}  {result.get('kind', '')}")
        if result["cls"] in FINDINGS:
            still.append(str(files[job.id]))

    Pool("pure", workers=1, timeout=timeout, memory_mb=memory_mb, batch=1,
         target="fuzz.schema_campaign:judge").run(jobs, on_result)
    print(f"{len(files) - len(still)} of {len(files)} no longer a finding")
    return 1 if still else 0
