"""A user's schemas compiled in memory, nothing written: their codec modules and trace variants as
Python modules, for the decode page of `logcodec docs --schema` (`logcodec.inspector.user`) and
the cut points of `logcodec compile --vectors`.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
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

    _, schemas = load([Path(path)], PACKAGE, include)
    loaded = load_modules(schemas)
    return {s.id: (loaded[s.module], loaded[trace_module(s.module)]) for s in schemas if not s.root.primitive}


def load_modules(schemas: list) -> dict[str, ModuleType]:
    """The codec and trace modules of `schemas` (and of the schemas they import), pure Python, made
    from their rendered source; left in `sys.modules`, where the modules that import them find
    them. They are imported as any module is, from a finder that holds their sources (and makes
    their package), so that two schemas that import each other load as two modules that do."""
    sources = {}
    for s in _with_imports(schemas):
        sources[s.module] = ModuleEmitter(s).render()
        sources[trace_module(s.module)] = TraceModule(s).render()
    finder = _Rendered(sources)
    sys.meta_path.insert(0, finder)
    try:
        return {name: importlib.import_module(name) for name in sources}
    finally:
        sys.meta_path.remove(finder)


class _Rendered(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds and loads modules from their rendered source, and their packages (empty)."""

    def __init__(self, sources: dict[str, str]) -> None:
        self.sources = sources
        self.packages = {name.rsplit(".", 1)[0] for name in sources if "." in name} - set(sys.modules)

    def find_spec(self, name, path, target=None):
        if name in self.sources or name in self.packages:
            return importlib.util.spec_from_loader(name, self, is_package=name in self.packages)
        return None

    def create_module(self, spec):
        return None  # the default module

    def exec_module(self, module) -> None:
        name = module.__name__
        if name in self.sources:
            module.__file__ = f"<{name}>"
            setattr(module, native.PURE_KEY, True)  # never swapped for a compiled build
            exec(compile(self.sources[name], module.__file__, "exec"), module.__dict__)


def _with_imports(schemas) -> list:
    """The schemas and every schema they import (each once), but the primitive ones."""
    out, seen = [], set()
    for s in schemas:
        for member in schema_closure(s):
            if id(member) not in seen and not member.root.primitive:
                seen.add(id(member))
                out.append(member)
    return out
