"""The one mapping between the Python codecs' values and construct's, field by field.

A Python value is a dataclass (a structure), a list, an IntEnum member, bytes, text, a bool, an
int or None; a construct value is a Container, a ListContainer, an enum label
(`EnumIntegerString`, also its integer) or a bare integer for an unnamed member, and the same
scalars. A Container's keys that start with `_` are construct's own (`_io`) or the generated
definitions' hidden ones (params, positions, bit groups): they are not part of the value.
A value instance is part of both (Kaitai `instances`); a param of neither.
"""

from __future__ import annotations

import dataclasses
from enum import IntEnum

from construct import Container, EnumIntegerString


def differences(py, co, path: str = "") -> list[str]:
    """Where a construct value differs from the Python codec's, as `path: what` lines (none when
    they agree value for value)."""
    here = path or "(value)"
    if dataclasses.is_dataclass(py):
        if not isinstance(co, dict):
            return [f"{here}: a structure against {type(co).__name__}"]
        out = []
        names = [f.name for f in dataclasses.fields(py) if not f.metadata.get("param")]
        for name in names:
            if name not in co:
                out.append(f"{path}.{name}: missing")
            else:
                out += differences(getattr(py, name), co[name], f"{path}.{name}")
        extra = [k for k in co if not k.startswith("_") and k not in names]
        return out + [f"{path}.{k}: not in the Python value" for k in extra]
    if isinstance(py, list):
        if not isinstance(co, list):
            return [f"{here}: a list against {type(co).__name__}"]
        if len(py) != len(co):
            return [f"{here}: {len(py)} elements against {len(co)}"]
        return [d for i, (p, c) in enumerate(zip(py, co)) for d in differences(p, c, f"{path}[{i}]")]
    if isinstance(py, IntEnum):
        ok = isinstance(co, EnumIntegerString) and str(co) == py.name and int(co) == py.value
        return [] if ok else [f"{here}: {py!r} against {co!r}"]
    if isinstance(py, bool) or py is None:
        return [] if co is py else [f"{here}: {py!r} against {co!r}"]
    if isinstance(py, int):
        ok = isinstance(co, int) and not isinstance(co, bool) and co == py
        return [] if ok else [f"{here}: {py!r} against {co!r}"]
    if isinstance(py, (bytes, bytearray, memoryview)):
        ok = isinstance(co, (bytes, bytearray)) and bytes(co) == bytes(py)
        return [] if ok else [f"{here}: {bytes(py).hex()} against {co!r}"]
    return [] if type(co) is type(py) and co == py else [f"{here}: {py!r} against {co!r}"]


def to_construct(py):
    """The value construct builds from, for a Python codec's value: dicts of the fields (derived
    ones included as they are: construct recomputes them), enum members as their labels."""
    if dataclasses.is_dataclass(py):
        return Container((f.name, to_construct(getattr(py, f.name)))
                         for f in dataclasses.fields(py) if not f.metadata.get("param"))
    if isinstance(py, list):
        return [to_construct(v) for v in py]
    if isinstance(py, IntEnum):
        return EnumIntegerString.new(py.value, py.name)
    if isinstance(py, (bytearray, memoryview)):
        return bytes(py)
    return py
