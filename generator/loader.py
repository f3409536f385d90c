"""The one loader of rendered source: a codec module made of its Python source as text, with no file
written (ARCHITECTURE.md, "The one loader").

`logcodec generate` makes its vectors with the modules it has just rendered, the docs server's
field ranges run pure copies of generated modules (`logcodec.spans`), and tests run modules
rendered otherwise than `logcodec generate` renders them: all through `load_rendered`. Nothing
else runs generated source (`tests/laws/test_layers.py`).

It imports nothing of the generator, so that what loads generated modules (the docs server) does
not load the emitters with it.
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from types import ModuleType

from logcodec.runtime import native


def load_rendered(name: str, source: str, file: str | None = None) -> ModuleType:
    """`source` run as the module `name`, which stays in `sys.modules` under that name: its value
    classes are found by their module's name, and a module imports another schema's module by
    name. Run the loads inside `stand_ins` to give the process its own modules back afterwards.
    `file` is the module's `__file__` (tracebacks name it; default `<name>`).

    The module is pure Python, never swapped for a compiled build nor given its C companion
    (`native.PURE_KEY`): a compiled build is initialised once per process, and one loaded for a
    module made here would keep that module's classes after it is gone."""
    module = importlib.util.module_from_spec(importlib.util.spec_from_loader(name, loader=None))
    module.__file__ = file or f"<{name}>"
    setattr(module, native.PURE_KEY, True)
    sys.modules[name] = module
    exec(compile(source, module.__file__, "exec"), module.__dict__)  # noqa: S102 (the one place: see above)
    return module


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
