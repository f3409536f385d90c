"""The processors a schema's `process:` may name, and the module that defines each: Kaitai's
built-ins (`logcodec.runtime.processors`), then the codec tables of the format packages
(`logcodec.<family>.codecs`, the names in its `__all__`). Any other name is a user's own processor,
imported as Kaitai's Python target imports it (`UserProcessor`).

The generator asks this module where a name lives and writes that import into the codec, so the
runtime and the generator name no format, and each format keeps its codec tables in its package.
"""

from __future__ import annotations

import importlib
from functools import cache

from logcodec._api import FORMAT_PACKAGES, optional_module
from logcodec.runtime.processors import BUILTIN, is_processor

RUNTIME = "logcodec.runtime.processors"


@cache
def named() -> dict[str, str]:
    """Every processor name a schema may use -> the module to import it from."""
    found = dict.fromkeys(BUILTIN, RUNTIME)
    for package in FORMAT_PACKAGES:
        module_name = f"logcodec.{package}.codecs"
        module = optional_module(module_name)
        if module is None:
            continue
        for name in module.__all__:
            if not is_processor(getattr(module, name)):
                raise TypeError(f"{module_name}.{name} is in __all__ and is not a processor")
            if name in found:
                raise ValueError(f"processor {name!r} is defined by both {found[name]} and {module_name}")
            found[name] = module_name
    return found


def module_of(name: str) -> str | None:
    """The module that defines processor `name`, or None for a user's own."""
    return named().get(name)


def passes_through(name: str) -> bool:
    """Whether the named processor lists the arguments it returns its input for unchanged (its
    `passthrough`, a set: `runtime.compression.CodecTable`'s ids stored as is), which a
    generated decoder then checks before it calls it."""
    module = module_of(name)
    return module is not None and hasattr(getattr(importlib.import_module(module), name), "passthrough")


__all__ = ["named", "module_of", "passes_through"]
