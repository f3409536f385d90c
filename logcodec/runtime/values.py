"""The canonical JSON form of values, shared by every language through the harness.

Rules (the generated JSON Schemas say the same, field by field):
- objects keep the schema's field order and names;
- bytes are lowercase hex strings; text is a JSON string;
- enums are their member name, or the bare integer when the enum has no name for it;
- integers wider than 53 bits (64-bit fields, varlongs) are decimal strings, as in
  the Protocol Buffers JSON mapping, so that no language loses precision; narrower
  integers are JSON numbers;
- floats are JSON numbers, but a NaN or an infinity, which JSON has no number for, is the
  string "NaN", "Infinity" or "-Infinity", as in the Protocol Buffers JSON mapping;
- absent optional fields are null; derived fields (lengths, counts, checksums) may
  be omitted or null on input, and the encoder computes them;
- value instances (Kaitai `instances`) are written by the decoder and ignored on input.

Conversion walks the dataclasses through the metadata each generated field
carries, so it needs no per-format code.
"""

from __future__ import annotations

import dataclasses
import math
import sys
from enum import IntEnum
from itertools import pairwise

from logcodec.runtime.errors import EncodeError
from logcodec.runtime.lazy import LazyList


def value_fields(value) -> tuple[dataclasses.Field, ...]:
    """The fields of a value (or of its class) that hold its data: all but those whose names begin
    with `_`, which no schema's id does (a user's schema's links `_parent` and `_root` and its
    stream `_io`, the bytes read past sized fields `_carried`, a processed field's bytes as read
    `_wire_<field>`)."""
    return tuple(f for f in dataclasses.fields(value) if not f.name.startswith("_"))


def _module_attr(cls, name: str):
    return getattr(sys.modules[cls.__module__], name)


def to_json(value, _holders: tuple = ()):
    """The canonical JSON-ready form (dicts, lists, str, int, bool, None) of a decoded value.

    A value a user's schema reads back as one of its holders (an instance that is `_root`, cast)
    is null there: its JSON is being written around it."""
    if isinstance(value, (list, LazyList)):
        return [to_json(v, _holders) for v in value]
    if any(value is h for h in _holders):
        return None
    holders = (*_holders, value)
    out = {}
    for f in dataclasses.fields(value):
        if not f.metadata.get("param"):  # a param is the holder's argument, not part of the value
            v = getattr(value, f.name)
            if f.metadata.get("instance") and _endless(v, holders):
                out[f.name] = None
                continue
            out[f.name] = field_to_json(v, _case_selected(value, f.metadata, v), holders)
    return out


#: How many values of one class an instance may nest in each other before JSON stops there: a
#: user's schema may read an instance of a type inside itself at the same place, without end
#: (Kaitai reads each level when first asked).
MAX_INSTANCE_NESTING = 16


def _endless(v, holders: tuple) -> bool:
    return dataclasses.is_dataclass(v) and sum(type(h) is type(v) for h in holders) >= MAX_INSTANCE_NESTING


def field_to_json(v, meta, _holders: tuple = ()):
    if v is None:
        return None
    if meta.get("list") and isinstance(v, (list, LazyList)):
        return [_scalar_to_json(x, meta, _holders) for x in v]
    return _scalar_to_json(v, meta, _holders)


def plain_json(v, _holders: tuple = ()):
    """The JSON of a value as its Python type says, where its field's kind does not (an instance
    of a user's schema whose expression gives another kind than the one inferred for it)."""
    if v is None or isinstance(v, (bool, str)):
        return v
    if isinstance(v, float):
        return float_json(v)
    if isinstance(v, IntEnum):
        return v.name
    if isinstance(v, int):
        return v if -(1 << 53) <= v <= (1 << 53) else str(v)
    if isinstance(v, (bytes, bytearray, memoryview)):
        return bytes(v).hex()
    if isinstance(v, (list, tuple)):
        return [plain_json(x, _holders) for x in v]
    if dataclasses.is_dataclass(v) and not isinstance(v, type):
        return to_json(v, _holders)
    return repr(v)


def _case_selected(owner, meta, v):
    """For a switch on a sibling field (`on`), the case that field's value selects in `owner`,
    when `v` fits it; otherwise the switch's meta, whose cases are then tried in turn."""
    if meta.get("kind") != "switch" or "on" not in meta or v is None:
        return meta
    selector = owner
    for name in meta["on"].split("."):  # a sibling, or a field of a sibling structure
        selector = getattr(selector, name, None)
    cases = meta["cases"]
    chosen = next((c for c in cases if "when" in c and c["when"] == selector), None) or \
        next((c for c in cases if "when" not in c), None)
    if chosen is None or not all(_matches(x, chosen) for x in (v if meta.get("list") else [v])):
        return meta
    return {**chosen, "list": True} if meta.get("list") else chosen


def _scalar_to_json(v, meta, holders: tuple = ()):
    kind = meta["kind"]
    if kind == "switch":
        for case in meta["cases"]:
            if _matches(v, case):
                return _scalar_to_json(v, case, holders)
        raise EncodeError("invalid_value", f"{type(v).__name__} fits no case")
    if kind in _SCALAR_TYPES and not _matches(v, meta) or kind == "user" and not dataclasses.is_dataclass(v):
        return plain_json(v, holders)
    if kind == "bytes":
        return bytes(v).hex()
    if kind == "enum":
        return v.name if isinstance(v, IntEnum) else int(v)
    if kind == "int":
        return str(v) if meta.get("wide") else int(v)
    if kind == "float":
        return float_json(v)
    if kind == "user":
        return to_json(v, holders)
    return v


#: The JSON strings of the floats that JSON has no number for.
NON_FINITE_JSON = {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}


def float_json(v: float):
    """A float as canonical JSON: a number, or the name of a NaN or an infinity (`NON_FINITE_JSON`)."""
    if not isinstance(v, float) or math.isfinite(v):
        return v
    return "NaN" if math.isnan(v) else "Infinity" if v > 0 else "-Infinity"


#: What Python type a value of each scalar kind has (a bool is an int to Python, not to a case).
_SCALAR_TYPES = {"bytes": (bytes, bytearray, memoryview), "str": str, "bool": bool, "float": (float, int),
                 "int": int, "enum": int}


def _matches(v, case) -> bool:
    """Whether `v` is a value of a switch's `case`: its class for a type, its Python type for a scalar."""
    kind = case["kind"]
    if kind == "user":
        return type(v).__name__ == case["type"]
    if kind in ("int", "enum") and isinstance(v, bool):
        return False
    return isinstance(v, _SCALAR_TYPES.get(kind, object))


def from_json(cls, data, *, partial: bool = False, params: dict | None = None):
    """Build a value of dataclass `cls` from its canonical JSON form.

    As the JSON Schemas say, only derived fields (and those with a schema default) may be
    left out; any other missing field is an error naming its path, never a silent zero.
    `partial=True` fills missing fields with the value classes' defaults instead (the
    shorthand of vector definitions). `params`: the params of `cls` by name (the root's, as
    its decode and encode take them), which select the case of a switch on one of them."""
    if not isinstance(data, dict):
        raise EncodeError("invalid_value", f"expected an object for {cls.__name__}, got {type(data).__name__}")
    fields = {f.name: f for f in dataclasses.fields(cls)}
    unknown = set(data) - set(fields)
    if unknown:
        raise EncodeError("invalid_value", f"unknown fields {sorted(unknown)} for {cls.__name__}")
    kwargs = {}
    for name, f in fields.items():
        if (f.metadata.get("instance") and not f.metadata.get("input")) or f.metadata.get("param"):
            continue  # instances are computed by the decoder (only -lc-input ones are read); params given
        if name not in data:
            if partial or f.metadata.get("derived") or f.metadata.get("defaulted") or f.metadata.get("instance"):
                continue
            raise EncodeError("invalid_value", "is missing; only derived fields and fields with a schema "
                              "default may be left out (null for an absent optional field)", None, name)
        try:
            kwargs[name] = _field_from_json(cls, data[name], _selected(cls, f.metadata, data, params or {},
                                                                       data[name]), partial)
        except EncodeError as exc:
            raise exc.within(name) from None
    try:
        return cls(**kwargs)
    except TypeError as exc:  # a compiled build checks field types on construction
        raise EncodeError("invalid_value", str(exc)) from None


def root_from_json(module, data, params: dict | None = None):
    """A value of a codec module's root class from canonical JSON, as `from_json` builds it (given
    the root's `params`), with the root's name at the head of an error's path
    (`record_batch_v2.records[0].key`)."""
    try:
        return from_json(module.ROOT, data, params=params)
    except EncodeError as exc:
        raise exc.within(module.FORMAT.split(".")[-1]) from None


def _selected(owner, meta, data, params: dict, v):
    """For a switch on a sibling field (`on`), or on one of `params`, the case its value selects
    in `data` (the default case when none names it), where the field's JSON `v` has that case's
    shape (a switch `c ? field : k` holds its default, bytes, where `c` is false); any other
    field's meta as it is."""
    chosen = _named_case(owner, meta, data, params)
    fits = v is None or meta.get("list") or (chosen.get("kind") == "user") == isinstance(v, dict)
    return chosen if chosen is meta or fits else meta  # (else its cases are tried by their shape)


def _named_case(owner, meta, data, params: dict):
    """The case of a switch on `on` that its selector's value in `data` (or `params`) names."""
    if meta.get("kind") != "switch" or "on" not in meta:
        return meta
    *through, last = meta["on"].split(".")  # a sibling, or a field of a sibling structure
    for name in through:
        owner, data = _field_class(owner, name), data.get(name)
        if owner is None or not isinstance(data, dict):
            return meta
    selector = data.get(last, params.get(last) if not through else None)
    if selector is None:
        return meta
    if isinstance(selector, str):  # an enum member's name
        on_meta = {f.name: f.metadata for f in dataclasses.fields(owner)}[last]
        if "enum" not in on_meta:
            return meta
        try:
            selector = _module_attr(owner, on_meta["enum"])[selector].value
        except KeyError:
            return meta
    cases = meta["cases"]
    chosen = next((c for c in cases if c.get("when") == selector), None)
    return chosen or next((c for c in cases if "when" not in c), meta)


def _field_class(owner, name: str):
    """The class of `owner`'s field `name` when it holds one structure, else None."""
    meta = next((f.metadata for f in dataclasses.fields(owner) if f.name == name), {})
    return _module_attr(owner, meta["type"]) if meta.get("kind") == "user" and not meta.get("list") else None


def _field_from_json(owner, v, meta, partial: bool):
    if v is None:
        return None
    if meta.get("list"):
        if not isinstance(v, list):
            raise EncodeError("invalid_value", "expected a list")
        out = []
        for i, x in enumerate(v):
            try:
                out.append(_scalar_from_json(owner, x, meta, partial))
            except EncodeError as exc:
                raise exc.within(f"[{i}]") from None
        return out
    return _scalar_from_json(owner, v, meta, partial)


def _scalar_from_json(owner, v, meta, partial: bool):
    kind = meta["kind"]
    if kind == "switch":
        cases = [c for c in meta["cases"] if (c["kind"] == "user") == isinstance(v, dict)]
        if isinstance(v, dict):  # the first object case that has every field the JSON names
            fitting = [c for c in cases
                       if set(v) <= {f.name for f in dataclasses.fields(_module_attr(owner, c["type"]))}]
            cases = fitting or cases
        if cases:
            return _scalar_from_json(owner, v, cases[0], partial)
        raise EncodeError("invalid_value", "fits no case of the switch")
    if kind == "bytes":
        try:
            return bytes.fromhex(v)
        except (TypeError, ValueError):
            raise EncodeError("invalid_value", "expected a hex string") from None
    if kind == "enum":
        enum = _module_attr(owner, meta["enum"])
        if isinstance(v, str):
            try:
                return enum[v]
            except KeyError:
                raise EncodeError("invalid_value", f"{v!r} is not a member of {enum.__name__}") from None
        return enum._value2member_map_.get(v, v)
    if kind == "int":
        if isinstance(v, bool) or not isinstance(v, (int, str)):
            raise EncodeError("invalid_value", f"expected an integer, got {v!r}")
        try:
            return int(v)
        except ValueError:
            raise EncodeError("invalid_value", f"expected an integer, got {v!r}") from None
    if kind == "user":
        return from_json(_module_attr(owner, meta["type"]), v, partial=partial)
    if kind == "float":
        if isinstance(v, str) and v in NON_FINITE_JSON:
            return NON_FINITE_JSON[v]
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise EncodeError("invalid_value", f'expected a number, "NaN", "Infinity" or "-Infinity", got {v!r}')
        return v
    if kind == "bool" and not isinstance(v, bool):
        raise EncodeError("invalid_value", f"expected true or false, got {v!r}")
    if kind == "str" and not isinstance(v, str):
        raise EncodeError("invalid_value", f"expected a string, got {v!r}")
    return v


def cut_tails(value) -> list[tuple[str, int, str, int]]:
    """Where a value's lists end in an element cut short by the end of the data (`-lc-partial-tail`,
    a fetch size cutting the last entry): `(list, whole elements, field of the cut bytes, their
    size)` for each such list of the root whose cut bytes are not empty."""
    fields = dataclasses.fields(value)
    out = []
    for listed, tail in pairwise(fields):
        if listed.metadata.get("partial_tail"):
            cut = getattr(value, tail.name)
            if cut:
                out.append((listed.name, len(getattr(value, listed.name) or ()), tail.name, len(cut)))
    return out


def without_derived(value):
    """A copy of `value` with every derived field set to None, recursively.

    This is what a user builds by hand; `decode(encode(without_derived(v)))`
    must give back `v` (law 1 for values whose derived fields were computed).
    """
    if isinstance(value, (list, LazyList)):  # a view's elements, read once
        return [without_derived(v) for v in value]
    if not dataclasses.is_dataclass(value):
        return value
    return replaced(value, **{f.name: None if _computed(f) else without_derived(getattr(value, f.name))
                              for f in dataclasses.fields(value) if f.init})


def replaced(value, /, **changes):
    """`dataclasses.replace(value, **changes)` that also keeps what `__init__` does not take: a
    user's schema's links, the bytes a field was read from (`_wire_<field>`, which the encoder
    writes back only while they still hold the value) and lazy state."""
    copy = dataclasses.replace(value, **changes)
    for f in dataclasses.fields(value):
        if not f.init:
            setattr(copy, f.name, getattr(value, f.name, None))
    return copy


def equal_but_derived(a, b) -> bool:
    """Whether two values are equal but for their derived fields (`without_derived`'s view of
    them), without copying either: a decoded value holds its counts, a built one leaves them None."""
    if isinstance(a, (list, tuple, LazyList)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(equal_but_derived(x, y) for x, y in zip(a, b, strict=True))
    if not dataclasses.is_dataclass(a) or type(a) is not type(b):
        return a == b
    return all(equal_but_derived(getattr(a, f.name), getattr(b, f.name)) for f in dataclasses.fields(a)
               if f.compare and not _computed(f))


def _computed(f: dataclasses.Field) -> bool:
    """Whether a value's field is computed rather than given: a derived field (computed on
    encode), or an instance that is no input (computed on decode)."""
    return bool(f.metadata.get("derived") or (f.metadata.get("instance") and not f.metadata.get("input")))
