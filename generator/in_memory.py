"""A user's schemas compiled in memory, nothing written: their codec modules and trace variants as
Python modules, for the decode page of `logcodec docs --schema` (`docserver.user_inspector`) and
the cut points of `logcodec compile --vectors`.
"""

from __future__ import annotations

from types import ModuleType

from .loader import import_rendered
from .python import ModuleEmitter
from .python.trace import TraceModule, trace_module
from .walk import with_imports


def load_modules(schemas: list) -> dict[str, ModuleType]:
    """The codec and trace modules of `schemas` (and of the schemas they import), pure Python, made
    from their rendered source by the one loader (`loader.import_rendered`); left in `sys.modules`,
    where the modules that import them find them."""
    sources = {}
    for s in with_imports(schemas):
        sources[s.module] = ModuleEmitter(s).render()
        sources[trace_module(s.module)] = TraceModule(s).render()
    return import_rendered(sources)


