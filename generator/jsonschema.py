"""JSON Schemas (draft 2020-12) of each format's canonical JSON value and of the vector files.

The value schema follows the same rules as `logcodec.runtime.values`: bytes as
hex strings, enums by name (or a bare integer the enum has no name for),
integers wider than 53 bits as decimal strings, a NaN or an infinity as its name,
derived fields optional.
"""

from __future__ import annotations

import json

from logcodec.runtime.values import NON_FINITE_JSON

from .model import Model, value_instance_meta
from .passes import model_of
from .schema import Field, Schema, TypeDef
from .walk import schema_closure

DRAFT = "https://json-schema.org/draft/2020-12/schema"
_HEX = {"type": "string", "pattern": "^([0-9a-f]{2})*$", "contentEncoding": "base16"}
_WIDE = {"type": "string", "pattern": "^-?[0-9]+$", "description": "a 64-bit integer as a decimal string"}
_FLOAT = {"anyOf": [{"type": "number"}, {"enum": list(NON_FINITE_JSON),
                                         "description": "a NaN or an infinity, which JSON has no number for"}]}


def render(schemas: list[Schema], modules: dict) -> dict[str, str]:
    out = {}
    for schema in schemas:
        doc = value_schema(schema)
        out[f"schema/{schema.family}/{schema.id}.value.json"] = json.dumps(doc, indent=1, ensure_ascii=False) + "\n"
    out["schema/vectors.json"] = json.dumps(vector_file_schema(), indent=1) + "\n"
    return out


def value_schema(schema: Schema) -> dict:
    defs = {}
    # every schema whose values it may hold, not only those it imports itself (a Kafka request's
    # body holds a record set, which holds record batches)
    owners = [s for s in schema_closure(schema) if not s.root.primitive]

    def key(owner: Schema, class_name: str) -> str:
        """A definition's name: the class name, qualified for an imported schema's types
        (two schemas may both have an `Attributes`)."""
        return class_name if owner is schema else f"{owner.id}.{class_name}"

    def resolver(owner: Schema):
        def resolve(class_name: str) -> str:
            for s in [owner, *owner.imports]:
                if any(t.class_name == class_name for t in s.all_types()):
                    return key(s, class_name)
            raise ValueError(f"no type {class_name} for {owner.path}")
        return resolve

    for owner in owners:
        for t in owner.all_types():
            if t.primitive or t.unwrap:
                continue
            defs[key(owner, t.class_name)] = type_schema(t, model_of(owner), resolver(owner))
    return {
        "$schema": DRAFT,
        "$id": f"https://logcodec.dev/schema/{schema.family}/{schema.id}.value.json",
        "title": f"{schema.title}: canonical JSON value",
        "description": schema.doc,
        "$ref": f"#/$defs/{schema.root.class_name}",
        "$defs": defs,
    }


def type_schema(t: TypeDef, model: Model, resolve) -> dict:
    props, required = {}, []
    for f in t.seq:
        meta = model.field_meta(f)
        s = element_schema(meta, f, resolve)
        if meta.get("list"):
            s = {"type": "array", "items": s}
        if meta.get("derived") or meta.get("defaulted") or meta.get("optional") or meta["kind"] == "switch":
            s = {"anyOf": [s, {"type": "null"}]}
        if not (meta.get("derived") or meta.get("defaulted")):
            required.append(f.id)
        props[f.id] = {**s, "description": f.doc + (" Derived: may be omitted or null." if f.derived else "")}
    for inst in t.instances:
        if inst.field is not None:
            meta = model.field_meta(inst.field)
            s = element_schema(meta, inst.field, resolve)
            s = {"type": "array", "items": s} if meta.get("list") else s
        elif inst.enum:
            s = {"anyOf": [{"enum": sorted(inst.enum.members.values())}, {"type": "integer"}]}
        else:
            meta = value_instance_meta(inst)
            s = element_schema(meta, None, resolve)
            s = {"type": "array", "items": s} if meta.get("list") else s
        how = " Given on input: the encoder derives wire fields from it." if inst.input else " Computed on decode; ignored on input."
        props[inst.id] = {"anyOf": [s, {"type": "null"}], "description": inst.doc + how}
    return {"type": "object", "description": t.doc, "properties": props, "required": required,
            "additionalProperties": False}


def element_schema(meta: dict, f: Field, resolve) -> dict:
    kind = meta["kind"]
    if kind == "int":
        return dict(_WIDE) if meta.get("wide") else {"type": "integer"}
    if kind == "bool":
        return {"type": "boolean"}
    if kind == "float":
        return dict(_FLOAT)
    if kind == "bytes":
        return dict(_HEX)
    if kind == "str":
        return {"type": "string"}
    if kind == "enum":
        return {"anyOf": [{"enum": sorted(f.enum.members.values())}, {"type": "integer"}]}
    if kind == "user":
        return {"$ref": f"#/$defs/{resolve(meta['type'])}"}
    if kind == "switch":
        cases = [element_schema(c, f, resolve) for c in meta["cases"]]
        return {"anyOf": list({json.dumps(c, sort_keys=True): c for c in cases}.values())}  # each case once
    raise ValueError(kind)


def vector_file_schema() -> dict:
    test = {
        "type": "object",
        "required": ["tcId", "comment", "flags", "result", "bytes"],
        "properties": {
            "tcId": {"type": "string", "description": "stable id: group/name; prefixes select groups"},
            "comment": {"type": "string"},
            "flags": {"type": "array", "items": {"type": "string"}},
            "result": {"enum": ["valid", "invalid", "acceptable"]},
            "bytes": _HEX,
            "canonical": {"type": "boolean", "description": "an encoder must reproduce these bytes exactly"},
            "value": {"description": "the decoded value in canonical JSON (valid tests)"},
            "error": {"type": "string", "description": "the error kind (invalid tests)"},
            "errorDetail": {"type": "object", "description": "offset and path logcodec reports (informative)"},
            "provenance": {"type": "string"},
            "params": {"type": "object", "description": "the root's params the bytes are read with, by name "
                       "(a format whose root takes them)", "additionalProperties": {"type": ["integer", "string", "boolean"]}},
            "quirks": {"type": "object", "additionalProperties": {"type": "string"}},
        },
        "additionalProperties": False,
    }
    return {
        "$schema": DRAFT,
        "$id": "https://logcodec.dev/schema/vectors.json",
        "title": "logcodec golden vector file",
        "type": "object",
        "required": ["format", "schema", "schemaSha256", "source", "numberOfTests", "notes", "testGroups"],
        "properties": {
            "format": {"type": "string"},
            "schema": {"type": "string"},
            "schemaSha256": {"type": "string", "pattern": "^[0-9a-f]{64}$"},
            "source": {"type": "string"},
            "generator": {"type": "string"},
            "numberOfTests": {"type": "integer"},
            "notes": {"type": "object"},
            "testGroups": {"type": "array", "items": {
                "type": "object", "required": ["type", "tests"],
                "properties": {"type": {"type": "string"}, "comment": {"type": "string"},
                               "tests": {"type": "array", "items": test}},
            }},
        },
    }
