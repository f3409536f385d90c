"""Testee: the official Kaitai Struct compiler's Python parsers (generated/kaitai, and
generated/kaitai/translated for the schemas a second front end made: Kafka's protocol frames),
decode only, for every format of logcodec.

The parser of a format is its folder's ``load(schema_id)``'s class named in CamelCase after the
schema id, given the root's params a request names (a Kafka response's API); a parse that stops
before the end of the input is refused (``trailing_bytes``).

Its object tree is translated into canonical JSON generically, by walking the value classes
of logcodec (``logcodec.codec(fmt).ROOT`` and the classes its fields name) beside the Kaitai
objects: only their field names and ``metadata`` are used, never logcodec's decoder or
encoder. A field whose ``if`` was false is missing on the Kaitai object and becomes null; a
primitive type (e.g. zigzag_varint) is an object whose ``.value`` is the number; a list of an
unwrapped type (``-lc-unwrap``) is an object whose single list attribute holds the items;
enums are IntEnum members (their name) or, for a number the enum does not name, an int.

Kaitai has no checksums, and no length checks beyond the sizes it reads (the schema's
``-lc-*`` keys are logcodec extensions the compiler ignores), so it accepts some inputs that
logcodec refuses; the conformance report shows which.

    python -m logcodec.conformance.testees.kaitai
"""

from __future__ import annotations

import sys
from enum import IntEnum
from functools import cache, partial

from logcodec.conformance.testee import Implementation, Refused, main_guard
from logcodec.runtime.values import float_json, value_fields

NAME = "kaitai-struct-compiler"
VERSION = "0.11"


def to_json(cls, obj) -> dict:
    """The canonical JSON of Kaitai object `obj`, shaped by logcodec's value class `cls`."""
    out = {}
    for f in value_fields(cls):
        out[f.name] = _field(cls, getattr(obj, f.name, None), f.metadata)
    return out


def _field(owner, raw, meta):
    if raw is None:
        return None
    if meta.get("list"):
        if not isinstance(raw, list):
            raw = _unwrapped_items(raw)
        return [_scalar(owner, x, meta) for x in raw]
    return _scalar(owner, raw, meta)


def _unwrapped_items(obj) -> list:
    lists = [v for k, v in vars(obj).items() if not k.startswith("_") and isinstance(v, list)]
    if len(lists) != 1:
        raise TypeError(f"{type(obj).__name__} is not an unwrapped list type ({len(lists)} list attributes)")
    return lists[0]


def unwrapped_value(obj, names: set):
    """A Kaitai object of a type the value model unwraps (its single seq field stands for it)
    holds the value as that field: descend until the object is of one of `names`."""
    while type(obj).__name__ not in names:
        fields = [v for k, v in vars(obj).items() if not k.startswith("_")]
        if len(fields) != 1:
            break
        obj = fields[0]
    return obj


def _scalar(owner, raw, meta):
    from kaitaistruct import KaitaiStruct

    kind = meta["kind"]
    if kind == "switch":
        if isinstance(raw, KaitaiStruct):
            names = {c["type"] for c in meta["cases"] if c["kind"] == "user"}
            raw = unwrapped_value(raw, names)
            case = next(c for c in meta["cases"] if c["kind"] == "user" and c["type"] == type(raw).__name__)
        else:
            case = next(c for c in meta["cases"] if c["kind"] != "user")
        return _scalar(owner, raw, case)
    if kind == "int":
        number = raw.value if isinstance(raw, KaitaiStruct) else raw  # a primitive type such as a varint
        return str(int(number)) if meta.get("wide") else int(number)
    if kind == "enum":
        return raw.name if isinstance(raw, IntEnum) else int(raw)
    if kind == "float":
        return float_json(float(raw))
    if kind == "bool":
        return bool(raw)
    if kind == "bytes":
        return bytes(raw).hex()
    if kind == "str":
        return str(raw)
    if kind == "user":
        return to_json(getattr(sys.modules[owner.__module__], meta["type"]), raw)
    raise TypeError(f"unknown field kind {kind!r}")


@cache
def parsers() -> dict:
    """The folder of parsers (its package) of each format the official compiler made one of:
    `generated/kaitai/` for the schemas that are files, `generated/kaitai/translated/` for those
    a second front end made (Kafka's protocol frames), whose modules may have the same names."""
    from logcodec.generated import kaitai as reference
    from logcodec.generated.kaitai import translated

    return {fmt: folder for folder in (reference, translated) for fmt in folder.FORMATS}


def parse(fmt: str, data: bytes, params: dict):
    """The reference parser's object of `data`, its root given `params` (the others at their
    schema's defaults)."""
    folder = parsers()[fmt]
    return folder.parse(folder.FORMATS[fmt], data, **params)


def decode(fmt: str, data: bytes, **params) -> dict:
    import logcodec

    obj = parse(fmt, data, params)
    if obj._io.pos() != len(data):
        raise Refused(f"the parser stopped at byte {obj._io.pos()} of {len(data)}", "trailing_bytes")
    return to_json(logcodec.codec(fmt).ROOT, obj)


def kind_of(exc: BaseException) -> str | None:
    import kaitaistruct

    import logcodec

    if isinstance(exc, Refused):
        return exc.kind
    if isinstance(exc, EOFError):  # kaitaistruct.EndOfStreamError and a plain EOFError alike
        return "truncated"
    if isinstance(exc, (kaitaistruct.ValidationFailedError, UnicodeDecodeError)):
        return "invalid_value"
    if isinstance(exc, logcodec.DecodeError):  # raised by a custom processor (decompression) with its kind
        return exc.kind
    return None


def build() -> Implementation:
    import kaitaistruct

    import logcodec

    if kaitaistruct.__version__ != VERSION:
        raise RuntimeError(f"kaitaistruct {kaitaistruct.__version__} is installed; the parsers need {VERSION}")
    handlers = {}
    made = parsers()
    for fmt in logcodec.formats():
        if fmt in made:  # the formats the official compiler made a parser of
            made[fmt].load(made[fmt].FORMATS[fmt])  # fail at startup, not per request, when one is missing
            handlers[fmt] = {"decode": partial(decode, fmt)}
    return Implementation(name=NAME, version=VERSION, handlers=handlers, kind_of=kind_of)


if __name__ == "__main__":
    main_guard(build)
