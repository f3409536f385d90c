"""The one loader of rendered source: a codec module made of its Python source as text, with no file
written (ARCHITECTURE.md, "The one loader").

`logcodec generate` makes its vectors with the modules it has just rendered, a user's schemas are
compiled in memory for the docs server and `compile --vectors` (`in_memory.py`: codec modules and
their trace variants, `import_rendered`), and tests run modules rendered otherwise than `logcodec
generate` renders them (`load_rendered`). Nothing else runs generated source
(`tests/laws/test_layers.py`).

It imports nothing of the generator, so that what loads generated modules (the docs server) does
not load the emitters with it.
"""

from __future__ import annotations

import enum
import importlib
import importlib.abc
import importlib.util
import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from types import ModuleType

from logcodec.runtime import native


def load_rendered(name: str, source: str, file: str | None = None, names: dict | None = None) -> ModuleType:
    """`source` run as the module `name`, which stays in `sys.modules` under that name: its value
    classes are found by their module's name, and a module imports another schema's module by
    name. Run the loads inside `stand_ins` to give the process its own modules back afterwards.
    `file` is the module's `__file__` (tracebacks name it; default `<name>`). `names`: what the
    module holds before its source runs (the source of a compiled build imports its enum classes
    (and the classes its C companion makes) from its module, which has defined them by the time it
    loads the build: `classes_of_module`).

    The module is pure Python, never swapped for a compiled build nor given its C companion
    (`native.PURE_KEY`): a compiled build is initialised once per process, and one loaded for a
    module made here would keep that module's classes after it is gone."""
    module = importlib.util.module_from_spec(importlib.util.spec_from_loader(name, loader=None))
    module.__file__ = file or f"<{name}>"
    setattr(module, native.PURE_KEY, True)
    vars(module).update(names or {})
    sys.modules[name] = module
    exec(compile(source, module.__file__, "exec"), module.__dict__)  # noqa: S102 (the one place: see above)
    return module


def classes_of_module(module: ModuleType) -> dict:
    """The classes the source of a codec module's compiled build imports from it: its enum classes,
    and the classes whose values its C companion makes (`_C_CLASSES`). Give them as
    `load_rendered`'s `names` to run that source."""
    found = {k: v for k, v in vars(module).items() if isinstance(v, enum.EnumMeta) and v.__module__ == module.__name__}
    return found | {cls.__name__: cls for cls in getattr(module, "_C_CLASSES", ())}


@contextmanager
def stand_ins(names: Iterable[str]) -> Iterator[None]:
    """`sys.modules` as it was for these names once the block ends: the modules loaded in it
    stand in for the process's own only while it runs."""
    saved = {name: sys.modules.get(name) for name in names}
    try:
        yield
    finally:
        for name, module in saved.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module


def import_rendered(sources: dict[str, str]) -> dict[str, ModuleType]:
    """The modules of `sources` (by name), imported as any module is, from a finder that holds
    their sources (and makes their packages, empty), so that two that import each other load as
    two modules that do (each is in `sys.modules` while it runs); they stay in `sys.modules`.
    Pure Python, as `load_rendered`'s."""
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
            exec(compile(self.sources[name], module.__file__, "exec"), module.__dict__)  # noqa: S102 (the one place)
