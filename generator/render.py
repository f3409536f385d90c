"""A schema's codec module, rendered: the one code path from a loaded schema to its Python source
(and its C companion), whichever asks: `logcodec generate` (`build.py`), `logcodec compile`
(`compile.py`), the vectors of a compiled package (`vectors.py`) and the docs server's user
schemas. It stands below all of them, so that none imports another for it."""

from __future__ import annotations

from .python import ModuleEmitter
from .schema import Schema


def render_module(schema: Schema) -> str:
    """The Python module of one schema."""
    return ModuleEmitter(schema).render()


def render_module_files(schema: Schema) -> dict[str, str]:
    """The Python module of one schema and, where it has one, its C companion (`fast_c`), by
    their paths in `generated/`."""
    emitter = ModuleEmitter(schema)
    files = {f"{schema.family}/{schema.id}.py": emitter.render()}
    if emitter.companion is not None:
        files[f"{schema.family}/{schema.id}_fast.c"] = emitter.companion
    return files
