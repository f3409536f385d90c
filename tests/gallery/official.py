"""The official Kaitai compiler's Python parsers of the format gallery: the reference adapter.

Each gallery schema is compiled by the npm `kaitai-struct-compiler` 0.11 (the worktree's
`node_modules`, through `tests/kaitai_suite/ksc_batch.js`: many schemas in one node process),
with imports resolved as Kaitai resolves them: relative to the importing file, absolute
(`/common/vlq_base128_le`) from the gallery's root (`-I GALLERY`).

The Python output is cached outside git, under `$XDG_CACHE_HOME/logcodec/gallery-official/`
(`~/.cache/...` by default), in a folder per schema keyed by the hash of the compiler's version
and the texts of the schema and of every schema it imports: a changed schema is compiled again,
an unchanged one never. A schema the compiler refuses is cached too, with its error.

    parser = official.parser("image/png.ksy")   # compiled once, imported with `kaitaistruct`
    obj = parser.parse(data)                    # Root.from_bytes(data), or Root(*params, io)
    parser.params                               # the root's params, in order

The parse object is the official one: fields are attributes, instances are properties that
read on first access (and raise there), and a field the parser did not read is not assigned at
all (`AttributeError`: Kaitai's null; `leaves.py` reads it so).

Several parsers may be loaded in one process: each schema's modules are imported under their
own names (`png`, `vlq_base128_le`...) and taken out of `sys.modules` again afterwards, so two
schemas that import the same module each keep the copy compiled for them.
"""

from __future__ import annotations

import hashlib
import importlib
import io
import json
import os
import re
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

import yaml

from ..kaitai_suite import corpus
from ..kaitai_suite import official as suite_official
from . import runner

GALLERY = runner.GALLERY
COMPILER = corpus.REPO / "node_modules" / "kaitai-struct-compiler"


def cache_root() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "logcodec" / "gallery-official"


def available(gallery: Path = GALLERY) -> str | None:
    """None when the official parsers can be made here, else why not."""
    if not runner.available(gallery):
        return f"no Kaitai format gallery at {gallery}"
    return suite_official.available()


def compiler_version() -> str:
    try:
        return json.loads((COMPILER / "package.json").read_text())["version"]
    except (OSError, ValueError, KeyError):
        return "unknown"


# --- imports and cache keys ----------------------------------------------------------------------

def _load(path: Path):
    return corpus.load_yaml(path)


def imported_files(schema: str, gallery: Path = GALLERY) -> list[str]:
    """`schema` and every schema it imports, transitively, as gallery paths (`common/x.ksy`).
    An import that cannot be found is left out: the compiler will say so."""
    seen: list[str] = []
    todo = [schema]
    while todo:
        key = todo.pop()
        if key in seen or not (gallery / key).is_file():
            continue
        seen.append(key)
        try:
            meta = (_load(gallery / key) or {}).get("meta") or {}
        except yaml.YAMLError:
            continue
        for name in meta.get("imports") or []:
            todo.append(_resolve_import(key, str(name)))
    return seen


def _resolve_import(importer: str, name: str) -> str:
    """Kaitai's rule: a name that starts with `/` is found in the import folders (the gallery's
    root here), any other beside the importing file."""
    if name.startswith("/"):
        return name.lstrip("/") + ".ksy"
    return os.path.normpath(os.path.join(os.path.dirname(importer), name)).replace(os.sep, "/") + ".ksy"


def cache_key(schema: str, gallery: Path = GALLERY) -> str:
    digest = hashlib.sha256(compiler_version().encode())
    for key in sorted(imported_files(schema, gallery)):
        digest.update(b"\0" + key.encode() + b"\0" + (gallery / key).read_bytes())
    return digest.hexdigest()[:20]


def cache_folder(schema: str, gallery: Path = GALLERY) -> Path:
    return cache_root() / (re.sub(r"\W", "_", schema.removesuffix(".ksy")) + "-" + cache_key(schema, gallery))


# --- compiling -----------------------------------------------------------------------------------

def compile_schemas(schemas: list[str], gallery: Path = GALLERY) -> dict[str, Path]:
    """Compile the schemas not cached yet, in one node process; {schema: its cache folder}.
    A folder holds the Python modules, or `error.txt` with what the compiler said."""
    folders = {s: cache_folder(s, gallery) for s in schemas}
    todo = [s for s, folder in folders.items() if not folder.is_dir()]
    if not todo:
        return folders
    files = {}
    for key in {k for s in todo for k in imported_files(s, gallery)}:
        try:
            files[key] = _load(gallery / key)
        except yaml.YAMLError:
            pass  # the compiler reports the main schema missing; an import, as not found
    base = {"target": "python", "files": files, "import_dirs": [""]}
    results, _ = suite_official.run_batch(base, [s for s in todo if s in files])
    for schema in todo:
        doc = results.get(schema, {"ok": False, "error": "the schema is not valid YAML"})
        _store(folders[schema], doc)
    return folders


def _store(folder: Path, doc: dict) -> None:
    """Write a compile's result into its cache folder whole, or not at all (another process may
    be writing the same folder: the first to finish wins)."""
    scratch = folder.with_name(folder.name + f".tmp{os.getpid()}")
    shutil.rmtree(scratch, ignore_errors=True)
    if doc.get("ok"):
        suite_official.write_outputs(doc["outputs"], scratch)
    else:
        scratch.mkdir(parents=True)
        (scratch / "error.txt").write_text(str(doc.get("error", "")))
    try:
        scratch.rename(folder)
    except OSError:
        shutil.rmtree(scratch, ignore_errors=True)


class CompileError(Exception):
    """The official compiler refused the schema."""


# --- parsing -------------------------------------------------------------------------------------

@dataclass
class OfficialParser:
    """One schema's official Python parser, imported."""

    schema: str  # its gallery path, `image/png.ksy`
    module: ModuleType
    root: type  # the root's class
    params: list[str] = field(default_factory=list)  # the root's params, in order

    def parse(self, data: bytes, **params):
        """The root read from `data` as `Root.from_bytes(data)` reads it; a root with params is
        built as `Root(*params, KaitaiStream(data))`. Raises what the official parser raises."""
        from kaitaistruct import KaitaiStream

        if not self.params:
            return self.root.from_bytes(data)
        args = [params[name] for name in self.params]
        return self.root(*args, KaitaiStream(io.BytesIO(data)))


def root_params(schema: str, gallery: Path = GALLERY) -> list[str]:
    return [str(p["id"]) for p in (_load(gallery / schema) or {}).get("params") or []]


_PARSERS: dict[tuple[str, str], OfficialParser] = {}


def parser(schema: str, gallery: Path = GALLERY) -> OfficialParser:
    """The official parser of `schema` (a gallery path), compiled if not cached, imported once per
    process. Raises `CompileError` when the official compiler refuses the schema, or writes Python that
    does not compile."""
    folder = compile_schemas([schema], gallery)[schema]
    key = (schema, str(folder))
    if key not in _PARSERS:
        error = folder / "error.txt"
        if error.is_file():
            raise CompileError(f"{schema}: {error.read_text()}")
        meta = (_load(gallery / schema) or {}).get("meta") or {}
        name = str(meta.get("id", Path(schema).stem))
        try:
            module = import_isolated(folder, name)
        except SyntaxError as exc:  # e.g. a field named `class`, which the Python target does not rename
            raise CompileError(f"{schema}: its Python output does not compile: line {exc.lineno}: "
                               f"{(exc.text or '').strip()}") from exc
        root = getattr(module, suite_official.type2class(name))
        _PARSERS[key] = OfficialParser(schema, module, root, root_params(schema, gallery))
    return _PARSERS[key]


def import_isolated(folder: Path, name: str) -> ModuleType:
    """Import `folder/name.py` and the modules beside it that it imports, under their own names,
    then take them out of `sys.modules` again (they stay alive through the module returned)."""
    local = {p.stem for p in folder.glob("*.py")}
    saved = {n: sys.modules.pop(n) for n in local if n in sys.modules}
    sys.path.insert(0, str(folder))
    try:
        return importlib.import_module(name)
    finally:
        sys.path.remove(str(folder))
        for n in local:
            sys.modules.pop(n, None)
        sys.modules.update(saved)
