"""Render everything under `generated/` from `schemas/`, or check that it is current.

`generated/` holds nothing but this module's output, so `rm -r generated &&
logcodec generate` recreates it byte for byte. Rendering happens in memory
first; writing only replaces files whose bytes differ, and removes files no
longer produced.
"""

from __future__ import annotations

from contextlib import ExitStack, contextmanager
from pathlib import Path

from .backends import BACKENDS, Run
from .loader import load_rendered, stand_ins
from .passes import TARGETS, imports_first, load_checked
from .python.trace import trace_module
from .reading import Loader, formats_under
from .schema import Schema
from .walk import with_imports


def repo_root() -> Path:
    """The checkout that holds `schemas/` (generation is a developer's task, run from a checkout)."""
    here = Path(__file__).resolve().parent.parent
    for candidate in (Path.cwd(), *Path.cwd().parents, here):
        # (an installed package has schemas/ and generator/ too, but no pyproject.toml)
        if all((candidate / part).exists() for part in ("schemas", "generator", "pyproject.toml")):
            return candidate
    raise SystemExit("logcodec generate runs in a logcodec checkout (no folder with schemas/, generator/ and "
                     "pyproject.toml found)")


def render_all(root: Path) -> dict[str, bytes]:
    """Every file of `generated/`, keyed by its path relative to it: every back end's part, in the
    registry's order (`backends.BACKENDS`). The back ends that read values do so with the codecs
    and trace variants just rendered, loaded (without writing them into the tree)."""
    formats = load_schemas(root / "schemas")
    run = Run(root, formats, building_blocks(formats))
    with ExitStack() as loaded:
        for backend in BACKENDS:
            if backend.reads_values and not run.modules:
                run.modules, run.traces = loaded.enter_context(
                    _rendered_modules(root, run.files, [*run.blocks, *run.schemas]))
            run.files.update(backend.generated(run))
    return {path: content.encode() if isinstance(content, str) else content for path, content in run.files.items()}


def load_schemas(folder: Path) -> list[Schema]:
    """Every format schema of `schemas/` (not `common/`, which they import), its message specs'
    frames too (`reading.formats_under`), loaded and checked by every back end's passes before
    any runs; SchemaError with every problem of all of them."""
    rels, documents = formats_under(folder)
    loaded = load_checked(Loader(folder, documents=documents), rels, TARGETS)
    return [s for s in loaded if not s.path.startswith("common/")]


def building_blocks(formats: list[Schema]) -> list[Schema]:
    """The schemas the formats import that are no format themselves (a message spec's schema,
    which its frame imports) and have a module (not a primitive), each once."""
    mine = {id(s) for s in formats}
    return [s for s in with_imports(formats) if id(s) not in mine]


@contextmanager
def _rendered_modules(root: Path, files: dict[str, str], schemas: list[Schema]):
    """The freshly rendered codec modules and their trace variants (the field ranges of the vectors'
    cuts and the docs' hex dumps), each by format name, loaded without writing them into the tree.

    They stand in for the installed modules only while generating (a rendered module imports
    another schema's by name, a trace variant its codec module's); afterwards the process gets its
    own modules back, so that values made before and after `generate` in one process are of the
    same classes.
    """
    modules, traces = {}, {}
    # A module that imports another schema's root type imports its module: load that one first.
    mine = {id(s) for s in schemas}
    ordered = [s for s in imports_first(schemas) if id(s) in mine]
    with stand_ins(name for schema in schemas for name in (schema.module, trace_module(schema.module))):
        for schema in ordered:
            modules[schema.format_name] = _load(root, files, schema.module, f"{schema.folder}/{schema.id}.py")
        for schema in ordered:
            traces[schema.format_name] = _load(root, files, trace_module(schema.module),
                                               f"{schema.folder}/{trace_module(schema.id)}.py")
        yield modules, traces


def _load(root: Path, files: dict[str, str], name: str, rel: str):
    """The module `name` made of its source rendered at `rel` (inside generated/)."""
    return load_rendered(name, files[rel], str(root / "generated" / rel))


def generate(root: Path | None = None, check: bool = False) -> list[str]:
    """Write (or with check, compare) `generated/`. Returns the paths that differ."""
    root = root or repo_root()
    out_dir = root / "generated"
    wanted = render_all(root)
    existing = {p.relative_to(out_dir).as_posix() for p in out_dir.rglob("*") if p.is_file() and "__pycache__" not in p.parts} if out_dir.exists() else set()
    changed = []
    for rel, content in sorted(wanted.items()):
        path = out_dir / rel
        if not path.exists() or path.read_bytes() != content:
            changed.append(("changed " if path.exists() else "missing ") + rel)
            if not check:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(content)
    for rel in sorted(existing - set(wanted)):
        changed.append("stale   " + rel)
        if not check:
            (out_dir / rel).unlink()
    return changed
