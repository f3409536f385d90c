"""A schema's codec module, rendered: the one code path from a loaded schema to its Python source
(its C companion and trace variant), whichever asks: `logcodec generate` (`build.py`), `logcodec compile`
(`compile.py`), the vectors of a compiled package (`vectors.py`) and the docs server's user
schemas. It stands below all of them, so that none imports another for it."""

from __future__ import annotations

from .python import ModuleEmitter
from .python.trace import TraceModule, trace_module
from .schema import Schema


def render_module(schema: Schema) -> str:
    """The Python module of one schema."""
    return ModuleEmitter(schema).render()


def render_module_files(schema: Schema, traced: bool = False) -> dict[str, str]:
    """The Python module of one schema and, where it has one, its C companion (the C back end's,
    `generator/c`), by their paths in `generated/`; with `traced`, its trace variant too
    (`python/trace.py`: the docs server's byte ranges)."""
    emitter = ModuleEmitter(schema)
    files = {f"{schema.family}/{schema.id}.py": emitter.render()}
    if emitter.companion is not None:
        files[f"{schema.family}/{schema.id}_fast.c"] = emitter.companion
    if traced:
        files[f"{schema.family}/{trace_module(schema.id)}.py"] = TraceModule(schema).render()
    return files
