"""A user's schemas compiled in memory, nothing written: their codec modules and trace variants as
Python modules, for the decode page of `logcodec docs --schema` (`logcodec.inspector.user`) and
the cut points of `logcodec compile --vectors`.
"""

from __future__ import annotations

import sys
from pathlib import Path
from types import ModuleType

from logcodec.runtime import native

from .model import schema_closure
from .python import ModuleEmitter
from .python.trace import TraceModule, trace_module

#: The package a user's schemas are compiled into for the decode page.
PACKAGE = "lcdocs_user"


def compile_in_memory(path: Path, include: tuple = ()) -> dict[str, tuple[ModuleType, ModuleType]]:
    """The formats of the schema at `path` (and of those it imports), each as (codec module, trace
    module), by the schema's id; they stay importable by name (a module imports another's by it)."""
    from .compile import load  # (compile imports this module for its vectors)

    (named,), schemas = load([Path(path)], PACKAGE, include)
    loaded = load_modules(schemas)
    return {s.id: (loaded[s.module], loaded[trace_module(s.module)]) for s in schemas if not s.root.primitive}


def load_modules(schemas: list) -> dict[str, ModuleType]:
    """The codec and trace modules of `schemas` (and of the schemas they import), pure Python,
    made from their rendered source in dependency order; left in `sys.modules`, where the modules
    that import them find them (a package of its own name is made for them)."""
    order = [s for s in _with_imports(schemas) if not s.root.primitive]
    sources = {}
    for s in order:
        sources[s.module] = ModuleEmitter(s).render()
        sources[trace_module(s.module)] = TraceModule(s).render()
    modules = {}
    for s in order:
        for name in (s.module, trace_module(s.module)):
            modules[name] = _module(name, sources[name])
    return modules


def _module(name: str, source: str) -> ModuleType:
    parent = name.rsplit(".", 1)[0]
    if parent not in sys.modules:  # a user's package, compiled in memory
        package = ModuleType(parent)
        package.__path__ = []
        sys.modules[parent] = package
    module = ModuleType(name)
    module.__file__ = f"<{name}>"
    setattr(module, native.PURE_KEY, True)
    sys.modules[name] = module
    exec(compile(source, module.__file__, "exec"), module.__dict__)
    return module


def _with_imports(schemas) -> list:
    """The schemas and every schema they import, each after those it imports."""
    out, seen = [], set()
    for s in schemas:
        for member in schema_closure(s):
            if id(member) not in seen:
                seen.add(id(member))
                out.append(member)
    return sorted(out, key=lambda m: len(schema_closure(m)))
