"""A schema's codec module, rendered: the one code path from a loaded schema to its Python source
(its C companion, the source of its compiled build and its trace variant), whichever asks:
`logcodec generate` (`build.py`), `logcodec compile` (`compile.py`), the vectors of a compiled
package (`vectors.py`) and the docs server's user schemas. It stands below all of them, so that
none imports another for it."""

from __future__ import annotations

from .python import ModuleEmitter
from .python.code import COMPILED
from .python.trace import TraceModule, trace_module
from .schema import Schema


def render_module(schema: Schema) -> str:
    """The Python module of one schema."""
    return ModuleEmitter(schema).render()


def compiled_file(module_file: str) -> str:
    """Where the source of a module's compiled build lies, beside it (`logcodec.runtime.native`
    compiles it)."""
    return module_file.removesuffix(".py") + "_compiled.py"


def render_module_files(schema: Schema, traced: bool = False, compiled: bool = False) -> dict[str, str]:
    """The Python module of one schema and, where it has one, its C companion (the C back end's,
    `generator/c`), by their paths in `generated/`; with `traced`, its trace variant too
    (`python/trace.py`: the docs server's byte ranges); with `compiled`, the source of its
    compiled build (`code.COMPILED`), which mypyc compiles for it."""
    emitter = ModuleEmitter(schema)
    module = f"{schema.folder}/{schema.id}.py"
    files = {module: emitter.render()}
    if emitter.companion is not None:
        files[f"{schema.folder}/{schema.id}_fast.c"] = emitter.companion
    if compiled:
        files[compiled_file(module)] = ModuleEmitter(schema, COMPILED).render(files[module])
    if traced:
        files[f"{schema.folder}/{trace_module(schema.id)}.py"] = TraceModule(schema).render()
    return files
