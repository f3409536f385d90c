"""Kaitai's format gallery through `logcodec compile`, one schema at a time, as a user runs it.

For each `.ksy` of the gallery (`../shared/corpus/kaitai_struct_formats`, or $KAITAI_GALLERY):

1. **compile**: `python -m logcodec compile <schema> -o OUT --package gallery_<n> -I <gallery>`,
   run from a scratch folder (neither the repository nor the gallery), so that imports are found
   as Kaitai finds them: a relative one beside the file, an absolute one in the `-I` folder;
2. **import**: the compiled module imported in a fresh Python process, which runs the module's
   last line (`_native.accelerate(globals())`) as any user's import does;
3. **decode**: in that process, `decode(b"")` (or the root's `decode_prefix` with the params it
   needs left at zero): a value or a `DecodeError`; any other exception is a failure.

A schema's outcome is the first stage that failed (`compile`, `import`, `decode`) with the first
line of what it said, or `ok`. `expected.yaml` lists the schemas that do not work yet, each with
the stage it stops at and why; the test holds the run to it exactly.

    python -m tests.gallery [--only NAME...] [--jobs N]    # the table, one row per schema
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[2]
GALLERY = Path(os.environ.get("KAITAI_GALLERY", REPO / ".." / "shared" / "corpus" / "kaitai_struct_formats")).resolve()
EXPECTED = Path(__file__).with_name("expected.yaml")
STAGES = ("compile", "import", "decode")

# Runs in the fresh process: import the module, decode empty input, say what happened as JSON.
_PROBE = r"""
import importlib, json, sys, traceback
sys.path.insert(0, sys.argv[1])
def first_line(exc):
    return (traceback.format_exception_only(type(exc), exc)[-1]).strip()
try:
    module = importlib.import_module(sys.argv[2])
except BaseException as exc:
    print(json.dumps({"stage": "import", "error": first_line(exc)})); sys.exit()
from logcodec import DecodeError
params = {name: 0 for name in getattr(module, "PARAMS", {})}
try:
    module.decode(b"", **params)
    print(json.dumps({"stage": None, "decoded": "value"}))
except DecodeError as exc:
    print(json.dumps({"stage": None, "decoded": exc.kind}))
except BaseException as exc:
    print(json.dumps({"stage": "decode", "error": first_line(exc)}))
"""


@dataclass
class Outcome:
    """What became of one schema: `stage` is the first that failed (None: all passed)."""

    schema: str  # its path in the gallery, `image/png.ksy`
    stage: str | None
    error: str = ""
    decoded: str = ""  # what decode(b"") gave: "value" or a DecodeError's kind

    def row(self) -> str:
        compiles = "no" if self.stage == "compile" else "yes"
        imports = "-" if self.stage == "compile" else "no" if self.stage == "import" else "yes"
        decodes = self.decoded or ("-" if self.stage in ("compile", "import") else "no")
        return f"| {self.schema} | {compiles} | {imports} | {decodes} | {self.error} |"


def available(gallery: Path = GALLERY) -> bool:
    return gallery.is_dir() and any(gallery.rglob("*.ksy"))


def schemas(gallery: Path = GALLERY) -> list[str]:
    """Every schema of the gallery, by its path in it."""
    return sorted(p.relative_to(gallery).as_posix() for p in gallery.rglob("*.ksy"))


def schema_id(path: Path) -> str:
    """`meta/id` of a schema: its module's name in the compiled package."""
    meta = (yaml.safe_load(path.read_text(encoding="utf-8")) or {}).get("meta", {})
    return str(meta.get("id", path.stem))


def first_line(text: str) -> str:
    """What a failed command said first: a reported error's first line, or a traceback's
    exception (the first line after its frames, whose message may span many)."""
    lines = [ln for ln in text.splitlines() if ln.strip()]
    if lines and lines[0].startswith("Traceback"):
        lines = [ln for ln in lines[1:] if not ln.startswith(" ")]
    return re.sub(r"^logcodec compile: ", "", lines[0].strip()) if lines else ""


def package_name(schema: str) -> str:
    """The package a schema is compiled into: `gallery_image_png` for `image/png.ksy`."""
    return "gallery_" + re.sub(r"\W", "_", schema.removesuffix(".ksy"))


def compile_command(schema: str, out: Path, gallery: Path = GALLERY) -> list[str]:
    """`logcodec compile` of one gallery schema into `out`, as a user runs it."""
    return [sys.executable, "-m", "logcodec", "compile", str(gallery / schema), "-o", str(out),
            "--package", package_name(schema), "-I", str(gallery)]


def run_one(schema: str, scratch: Path, gallery: Path = GALLERY, timeout: float = 300) -> Outcome:
    """Compile one schema in `scratch`, then import and decode it in a fresh process."""
    package = package_name(schema)
    out = scratch / package
    cmd = compile_command(schema, out, gallery)
    try:
        proc = subprocess.run(cmd, check=False, capture_output=True, text=True, timeout=timeout, cwd=scratch)
    except subprocess.TimeoutExpired:
        return Outcome(schema, "compile", f"timed out after {timeout:g} s")
    if proc.returncode != 0:
        return Outcome(schema, "compile", first_line(proc.stderr or proc.stdout))
    module = f"{package}.{schema_id(gallery / schema)}"
    try:
        probe = subprocess.run([sys.executable, "-c", _PROBE, str(out), module], check=False, capture_output=True,
                               text=True, timeout=timeout, cwd=scratch)
    except subprocess.TimeoutExpired:
        return Outcome(schema, "decode", f"timed out after {timeout:g} s")
    try:
        said = json.loads(probe.stdout.strip().splitlines()[-1])
    except (IndexError, ValueError):
        return Outcome(schema, "import", "crashed: " + first_line(probe.stderr))
    return Outcome(schema, said["stage"], said.get("error", ""), said.get("decoded", ""))


def run(names: list[str] | None = None, jobs: int = 2, gallery: Path = GALLERY) -> list[Outcome]:
    """Every schema named (all of the gallery's by default), `jobs` at a time."""
    wanted = names or schemas(gallery)
    with tempfile.TemporaryDirectory(prefix="lc-gallery-") as tmp, ThreadPoolExecutor(jobs) as pool:
        return list(pool.map(lambda s: run_one(s, Path(tmp), gallery), wanted))


def expected() -> dict[str, dict]:
    """The schemas that do not work yet: {schema: {"stage": ..., "reason": ...}}."""
    return yaml.safe_load(EXPECTED.read_text(encoding="utf-8")) or {}


def table(outcomes: list[Outcome]) -> str:
    """The run as a Markdown table, with its counts."""
    compiled = sum(o.stage != "compile" for o in outcomes)
    imported = sum(o.stage not in ("compile", "import") for o in outcomes)
    passed = sum(o.stage is None for o in outcomes)
    counts = (f"{len(outcomes)} schemas: {compiled} compile, {imported} import, {passed} decode empty input as "
              "Kaitai's parsers would (a value or a DecodeError)")
    lines = [counts, "",
             "| schema | compiles | imports | decode(b\"\") | error |", "|---|---|---|---|---|"]
    return "\n".join(lines + [o.row() for o in outcomes])


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(prog="python -m tests.gallery", description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="*", help="schemas by path in the gallery (image/png.ksy) or name (png)")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(argv)
    if not available():
        print(f"no gallery at {GALLERY}", file=sys.stderr)
        return 2
    names = [s for s in schemas() if not args.only or s in args.only or Path(s).stem in args.only]
    print(table(run(names, args.jobs)))
    return 0
