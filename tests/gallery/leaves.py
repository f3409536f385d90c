"""Leaf by leaf: the official parser's object against logcodec's decoded value.

The walk is driven by the schema: for each structure, every field of its `seq` and every
`instances` entry (the schema's order), recursively through user types and lists. Which type a
structure is comes from the official object's class (`Zip.PkSection` in module `zip` is the type
`pk_section` of `zip.ksy`), so a `switch-on` is followed the way the official parser took it.

A leaf is a value that is not a structure or a list: an integer, an enum, a bool, a float, bytes,
a string, or null. Two leaves are the same when

- enums: their integer values are equal (the official IntEnum, or a raw int for a value with no
  member, against ours);
- floats: NaN against NaN, else the same bits;
- bytes: the same bytes (ours may be any buffer);
- null: the official Python target leaves a field it did not read unassigned, so reading it
  raises `AttributeError`: that is Kaitai's null, and ours must be None; an instance that is not
  read (its `if` is false) returns None in both;
- anything else: equal values of the same kind (a bool is no integer, an integer no float).

An instance whose reading raises in the official parser must raise `DecodeError` in ours, and the
other way round: both raising is one leaf, the same; one raising is a difference. The same holds
for the whole parse: the official parser raising and `decode` raising `DecodeError` is one leaf,
the same. Ours raising anything but `DecodeError` is always a difference (logcodec promises
`DecodeError` only).

    result = leaves.compare_parse(official_parser, module.decode, data)
    result.leaves, result.differences  # [Difference(path, official, ours), ...]
"""

from __future__ import annotations

import enum
import math
import struct
from dataclasses import dataclass, field
from pathlib import Path

from ..kaitai_suite import corpus
from ..kaitai_suite.official import type2class
from . import official as official_mod

#: Stops a walk that would never end (a value instance that returns a structure of its own).
MAX_LEAVES = 500_000
#: How often one instance of one type may stand on the path from the root. A parse instance can
#: lead back to where it started (ISO 9660's `.` and `..` entries read their own directory again):
#: each time it is a new object, the walk would never end, so it stops going deeper there.
MAX_INSTANCE_REPEATS = 2


@dataclass
class Difference:
    path: str
    official: str  # a short repr
    ours: str

    def __str__(self) -> str:
        return f"{self.path}: official {self.official}, ours {self.ours}"


@dataclass
class Comparison:
    leaves: int = 0
    differences: list[Difference] = field(default_factory=list)
    truncated: bool = False  # MAX_LEAVES reached: the rest was not compared
    cut: int = 0  # instances not walked into, met MAX_INSTANCE_REPEATS times on their path already

    @property
    def identical(self) -> int:
        return self.leaves - len(self.differences)


class Raised:
    """What reading a field or the whole input raised, as a leaf."""

    def __init__(self, exc: BaseException) -> None:
        self.exc = exc

    def __repr__(self) -> str:
        return f"raised {type(self.exc).__name__}: {str(self.exc)[:120]}"


class _Null:
    """An official field the parser did not assign (`AttributeError`): Kaitai's null."""

    def __repr__(self) -> str:
        return "null (not read)"


NULL = _Null()


# --- the schema's types ----------------------------------------------------------------------

@dataclass
class TypeSpec:
    fields: list[str]  # seq ids, then instance names, in the schema's order
    instances: set[str]


class Types:
    """Every type of a schema and of the schemas it imports, by (official module, class qualname)."""

    def __init__(self, schema: str, gallery: Path = official_mod.GALLERY) -> None:
        self.by_class: dict[tuple[str, str], TypeSpec] = {}
        for key in official_mod.imported_files(schema, gallery):
            doc = corpus.load_yaml(gallery / key) or {}
            module = str((doc.get("meta") or {}).get("id", Path(key).stem))
            self._add(module, type2class(module), doc)

    def _add(self, module: str, qualname: str, spec: dict) -> None:
        seq = spec.get("seq") or []
        names = [str(f.get("id", f"_unnamed{i}")) for i, f in enumerate(seq) if isinstance(f, dict)]
        instances = [str(n) for n in (spec.get("instances") or {})]
        self.by_class[(module, qualname)] = TypeSpec(names + instances, set(instances))
        for name, sub in (spec.get("types") or {}).items():
            if isinstance(sub, dict):
                self._add(module, f"{qualname}.{type2class(str(name))}", sub)

    def of(self, obj) -> TypeSpec | None:
        cls = type(obj)
        return self.by_class.get((cls.__module__, cls.__qualname__))


# --- reading a field on each side --------------------------------------------------------------

def _official_field(obj, name: str, instance: bool):
    for attr in (name, name + "_"):
        try:
            return getattr(obj, attr)
        except AttributeError as exc:
            if instance and hasattr(type(obj), attr):
                return Raised(exc)  # the instance's own code failed
            continue
        except Exception as exc:  # noqa: BLE001 - whatever the official parser raises
            return Raised(exc)
    return NULL


def _our_field(value, name: str):
    for attr in (name, name + "_"):
        try:
            return getattr(value, attr)
        except AttributeError:
            continue
        except Exception as exc:  # noqa: BLE001 - judged by the comparison (DecodeError or not)
            return Raised(exc)
    return Raised(AttributeError(f"no field {name!r} in {type(value).__name__}"))


# --- comparing ---------------------------------------------------------------------------------

def _is_struct(obj) -> bool:
    from kaitaistruct import KaitaiStruct
    return isinstance(obj, KaitaiStruct)


def _short(value) -> str:
    if isinstance(value, (bytes, bytearray, memoryview)):
        data = bytes(value)
        return f"bytes[{len(data)}] {data[:24].hex()}{'...' if len(data) > 24 else ''}"
    if isinstance(value, enum.Enum):
        return f"{type(value).__name__}.{value.name}={value.value}"
    if isinstance(value, (list, tuple)):
        return f"list[{len(value)}]"
    if not isinstance(value, (int, float, str, type(None), Raised, _Null)):
        return f"<{type(value).__qualname__}>"  # a structure: its repr may be huge, or recurse
    text = repr(value)
    return text if len(text) <= 120 else text[:117] + "..."


def _is_decode_error(exc: BaseException) -> bool:
    from logcodec import DecodeError
    return isinstance(exc, DecodeError)


def same_leaf(official, ours) -> bool:
    """Whether two leaves are the same (see the module's doc)."""
    if official is NULL:
        return ours is None
    if isinstance(official, enum.Enum):
        official = official.value
    if isinstance(ours, enum.Enum):
        ours = ours.value
    if isinstance(official, bool) or isinstance(ours, bool):
        return type(official) is type(ours) and official == ours
    if isinstance(official, float) and isinstance(ours, float):
        if math.isnan(official) and math.isnan(ours):
            return True
        return struct.pack("<d", official) == struct.pack("<d", ours)
    if isinstance(official, (bytes, bytearray)) and isinstance(ours, (bytes, bytearray, memoryview)):
        return bytes(official) == bytes(ours)
    if isinstance(official, float) != isinstance(ours, float):
        return False
    return official == ours  # ints, strings, None: values of another kind are never equal


class _Walk:
    def __init__(self, types: Types) -> None:
        self.types = types
        self.result = Comparison()
        self.seen: set[int] = set()  # official structures already walked
        self.keep: list = []  # holds them, so that their ids are not reused
        self.instances: list[tuple[str, str]] = []  # (class, instance) on the path from the root

    def leaf(self, path: str, official, ours) -> None:
        if self.result.leaves >= MAX_LEAVES:
            self.result.truncated = True
            return
        self.result.leaves += 1
        if isinstance(official, Raised) or isinstance(ours, Raised):
            both = isinstance(official, Raised) and isinstance(ours, Raised) and _is_decode_error(ours.exc)
            if not both:
                self.result.differences.append(Difference(path, _short(official), _short(ours)))
            return
        if not same_leaf(official, ours):
            self.result.differences.append(Difference(path, _short(official), _short(ours)))

    def node(self, path: str, official, ours) -> None:
        if self.result.truncated:
            return
        if isinstance(official, list):
            if not isinstance(ours, (list, tuple)):
                self.leaf(path, official, ours)
                return
            if len(official) != len(ours):
                self.result.leaves += 1
                self.result.differences.append(Difference(path + ".length", str(len(official)), str(len(ours))))
            for i, (a, b) in enumerate(zip(official, ours)):
                self.node(f"{path}[{i}]", a, b)
            return
        if _is_struct(official):
            spec = self.types.of(official)
            if spec is None or isinstance(ours, Raised) or ours is None or isinstance(ours, (int, bytes, str, list)):
                self.leaf(path, f"<{type(official).__qualname__}>" if spec is None else official, ours)
                return
            if id(official) in self.seen:
                return
            self.seen.add(id(official))
            self.keep.append(official)
            for name in spec.fields:
                instance = name in spec.instances
                where = (type(official).__qualname__, name)
                if instance and self.instances.count(where) >= MAX_INSTANCE_REPEATS:
                    self.result.cut += 1
                    continue
                if instance:
                    self.instances.append(where)
                self.node(f"{path}.{name}" if path else name, _official_field(official, name, instance),
                          _our_field(ours, name))
                if instance:
                    self.instances.pop()
            return
        self.leaf(path, official, ours)


def compare(official, ours, types: Types) -> Comparison:
    """Every leaf of two parses of the same input: `official` the official root (or `Raised`),
    `ours` logcodec's root value (or `Raised`)."""
    walk = _Walk(types)
    if isinstance(official, Raised) or isinstance(ours, Raised):
        walk.leaf("<root>", official, ours)
    else:
        walk.node("", official, ours)
    return walk.result


def compare_parse(parser: official_mod.OfficialParser, decode, data: bytes, params: dict | None = None,
                  types: Types | None = None) -> Comparison:
    """Parse `data` with the official parser and with `decode` (a logcodec module's), then compare."""
    params = params or {}
    try:
        official = parser.parse(data, **params)
    except Exception as exc:  # noqa: BLE001 - whatever the official parser raises is its refusal
        official = Raised(exc)
    try:
        ours = decode(data, **params)
    except Exception as exc:  # noqa: BLE001 - judged: DecodeError is a refusal, anything else a crash
        ours = Raised(exc)
    return compare(official, ours, types or Types(parser.schema))
