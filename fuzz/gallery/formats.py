"""The gallery's formats as the campaign sees them: which schemas, and each compiled by logcodec
(in memory of this process: its IR for the value maker, its generated modules for decoding) and,
where asked, by the official compiler (`tests/gallery/official.py`, the reference adapter).

A format is named by its path in the gallery (`image/gif.ksy`). Schemas listed in
`tests/gallery/expected.yaml` (they do not compile, import or decode with logcodec yet) are left
out, as are those the official compiler refuses.
"""

from __future__ import annotations

import importlib
import os
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from tests.gallery import runner

GALLERY = runner.GALLERY
ROOT = Path(__file__).resolve().parents[2]
# The real files of the gallery's formats (branch i37-files), by gallery path without `.ksy`.
FILES = ROOT / "tests" / "gallery" / "files"


def available() -> str | None:
    """None when the gallery is here, else why the campaign cannot run."""
    return None if runner.available() else f"no Kaitai format gallery at {GALLERY}"


def all_formats() -> list[str]:
    """Every gallery schema that logcodec compiles, imports and decodes (not in expected.yaml)."""
    broken = runner.expected()
    return [s for s in runner.schemas() if s not in broken]


def select(names: list[str] | None) -> list[str]:
    """The formats named (a gallery path, or a schema's file name without `.ksy`), or all."""
    known = all_formats()
    if not names:
        return known
    chosen = [s for s in known if s in names or Path(s).stem in names]
    missing = [n for n in names if not any(n in (s, Path(s).stem) for s in known)]
    if missing:
        raise SystemExit(f"not a gallery format that compiles: {', '.join(missing)}")
    return chosen


@dataclass
class Ours:
    """logcodec's side of one gallery schema."""

    schema: object  # the IR of the schema (generator.schema.Schema)
    module: object  # its generated module
    modules: dict  # schema id -> generated module, the imported schemas' included
    params: dict  # the root's params as decode takes them (all zero, as tests/gallery/runner.py does)

    def decode(self, data: bytes):
        return self.module.decode(data, lazy=False, **self.params)

    def encode(self, value) -> bytes:
        return self.module.encode(value, **self.params)


def _cache_env() -> None:
    # Compiled gallery packages go beside the campaign's output, not into the user's cache.
    os.environ.setdefault("LOGCODEC_SCHEMA_CACHE", str(ROOT / "fuzz" / "out" / "gallery-cache"))


@cache
def ours(name: str) -> Ours:
    """Compile one gallery schema with logcodec (cached by content) and import it."""
    _cache_env()
    from logcodec.generator.compile import compiled_module, load

    path = GALLERY / name
    module = compiled_module(path, include=(GALLERY,))
    (named,), schemas = load([path], "probe", (GALLERY,), targets=())
    package = module.__name__.rpartition(".")[0]
    modules = {s.id: importlib.import_module(f"{package}.{s.id}") for s in schemas}
    params = {p: 0 for p in getattr(module, "PARAMS", {})}
    return Ours(named, module, modules, params)


def ir(name: str):
    """The IR of one gallery schema alone (no module imported)."""
    from logcodec.generator.compile import load

    (named,), _ = load([GALLERY / name], "probe", (GALLERY,), targets=())
    return named


@cache
def official(name: str):
    """The official compiler's parser of one gallery schema (tests/gallery/official.py), once
    per process: finding it hashes the schema's YAML and that of its imports."""
    from tests.gallery import official as O

    return O.parser(name, GALLERY)


def prepare_official(names: list[str]) -> dict[str, str]:
    """Compile every official parser not cached yet in one node process (workers then only
    import them); returns {format: why it cannot be compared} for those refused."""
    from tests.gallery import official as O

    why = O.available()
    if why:
        return {n: why for n in names}
    refused = {}
    for name, folder in O.compile_schemas(names, GALLERY).items():
        if (folder / "error.txt").is_file():
            refused[name] = "the official compiler refuses it: " + (folder / "error.txt").read_text()[:200]
    return refused


def seed_files(name: str) -> list[Path]:
    """The real files of a format (tests/gallery/files/<gallery path without .ksy>/), if any."""
    folder = FILES / name.removesuffix(".ksy")
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.rglob("*") if p.is_file() and not p.name.startswith("."))
