"""Where each field lies, checked against an implementation we did not write: the trace variants'
ranges (which cut the truncated vectors and annotate the docs' hex dumps) against those of the
official compiler's debug parsers (`--read-pos`: each object's `_debug`), on every valid vector
the reference parsers read.

The debug build is made here only, in memory (it needs Node.js, as the reference parsers do).
The two spell and count a few things apart, and the comparison allows exactly these:

- a path: Kaitai's names its objects, ours the value (`records.items[0].key`, where `records` is
  an unwrapped type holding one list, is the value's `records[0].key`);
- a primitive (`-lc-primitive`, a varint): Kaitai reads a type with fields (its groups of 7 bits),
  ours one number, its range the same;
- a bit field: Kaitai's range is the bytes its read took in (none for bits of a byte already
  read); ours is the whole bytes of its group, which must hold Kaitai's.

A list's elements are compared too (Kaitai keeps their ranges apart, in `_debug[...]["arr"]`).
"""

from __future__ import annotations

import importlib

import pytest
from kaitaistruct import BytesIO, KaitaiStream
from logcodec.generated import FORMATS
from logcodec.generated import kaitai as reference
from logcodec.generator import kaitai
from logcodec.generator.build import load_schemas
from logcodec.generator.schema import Schema, TypeDef
from logcodec.generator.walk import schema_closure

from tests.vectorfiles import ROOT, all_tests, ids

SCHEMAS = ROOT / "schemas"
# the formats of the schemas that are files (`kaitai.compiled_here`); those a second front end made
# have debug parsers of their own (test_kaitai_ranges_translated.py)
VALID = [(f, t) for f, t in all_tests("valid") if f in reference.FORMATS and "kaitai" not in t.get("quirks", {})]


@pytest.fixture(scope="module")
def debug_parsers():
    """A loader of the debug parsers by schema id, and the schemas by format name."""
    schemas = {s.format_name: s for s in load_schemas(SCHEMAS)}
    with kaitai.loaded(kaitai.sources(SCHEMAS, list(schemas.values()), debug=True)) as load:
        yield load, schemas


def kaitai_ranges(obj, types: dict[str, TypeDef], base: int = 0, path: str = "") -> dict[str, tuple]:
    """{value path: (IR field, start, end)} of every field and list element a debug parser read,
    in absolute offsets (`_debug` counts from each object's own stream: a sized field's children
    from its start). Each object's class names its type (`types`), whose fields its `_debug`
    names; the value leaves out an unwrapped type's one field. Not the insides of processed
    (decompressed) bytes, which have no place in the input, nor those of a primitive."""
    t, out = types[type_key(obj)], {}
    for name, info in obj._debug.items():
        if name.startswith("_m_") or "start" not in info or "end" not in info:
            continue
        field, fpath = t.field(name), path if t.unwrap else f"{path}.{name}".lstrip(".")
        out.setdefault(fpath, (field, base + info["start"], base + info["end"]))
        value, raw = getattr(obj, name, None), getattr(obj, f"_raw_{name}", None)
        if hasattr(obj, f"_raw__raw_{name}") and getattr(obj, f"_raw__raw_{name}") != raw:
            continue  # processed, and changed by it (a codec "none" passes the input's bytes through)
        if isinstance(value, list):
            for i, (item, at) in enumerate(zip(value, info.get("arr", []))):
                out.setdefault(f"{fpath}[{i}]", (field, base + at["start"], base + at["end"]))
                # a sized element opens a stream of its own
                out.update(within(item, types, base + at["start"] if raw is not None else base, f"{fpath}[{i}]"))
        else:
            out.update(within(value, types, base + info["start"] if raw is not None else base, fpath))
    return out


def within(value, types: dict[str, TypeDef], base: int, path: str) -> dict[str, tuple]:
    """The ranges inside a value a debug parser read: none in a number, bytes or a primitive."""
    if not hasattr(value, "_debug") or types[type_key(value)].primitive:
        return {}
    return {p: r for p, r in kaitai_ranges(value, types, base, path).items() if p != path}


def type_key(obj) -> tuple[str, str]:
    """A Kaitai object's type as `types` has it: its module (the schema's id) and class name (two
    schemas may each have a type of a name)."""
    return type(obj).__module__, type(obj).__name__


def debug_parse(load, schema: Schema, data: bytes, params: dict):
    """The debug parser's object of `data`, the root given `params` (the others at their schema
    defaults)."""
    parser = getattr(load(schema.id), schema.root.class_name)
    obj = parser(*(params.get(p.id, p.default) for p in schema.root.params), KaitaiStream(BytesIO(data)))
    obj._read()
    return obj


def trace_ranges(fmt: str, data: bytes, params: dict) -> dict[str, tuple[int, int]]:
    """{value path: (start, end)} of every field and list element the trace variant read from the
    input (not from processed bytes), but those of no bytes."""
    ranges = importlib.import_module(f"{FORMATS[fmt]}_trace").trace(data, **params).trace.ranges
    return {path: (r[0], r[1]) for path, r in ranges.items() if path and len(r) == 2 and r[1] > r[0]}


@pytest.mark.parametrize("fmt,test", VALID, ids=ids(VALID))
def test_the_trace_ranges_are_the_kaitai_debug_parsers(debug_parsers, fmt, test):
    ranges_agree(debug_parsers, fmt, test)


def ranges_agree(debug_parsers, fmt: str, test: dict) -> None:
    """The trace variant's ranges of a vector are the debug parser's (but as the module says)."""
    load, schemas = debug_parsers
    schema, data, params = schemas[fmt], bytes.fromhex(test["bytes"]), test.get("params", {})
    types = {(member.id, t.class_name): t for member in schema_closure(schema) for t in member.all_types()}
    read = kaitai_ranges(debug_parse(load, schema, data, params), types)
    bits = {path for path, (field, _, _) in read.items() if field is not None and field.type.kind == "bits"}
    ours = trace_ranges(fmt, data, params)
    for path, (_, start, end) in read.items():
        if path in bits:  # ours: the bytes of its group, which hold the bytes Kaitai's read took in
            assert ours[path][0] <= start and end <= ours[path][1], (path, ours[path], (start, end))
        elif end > start:
            assert ours.get(path) == (start, end), path
    # and no field of ours that Kaitai does not read there: the same cut points for truncations
    assert {path for path in ours if path not in bits} == {path for path, r in read.items() if r[2] > r[1]} - bits
