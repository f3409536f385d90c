"""A Kafka message spec as a `.ksy` schema: the second front end's translation into the language
every pass and back end reads (issue 39).

One type per message and per struct, the version a parameter (`api_version`), as Kafka's own
generated classes take it: a field is read in the versions it has (`if: api_version >= 3`), a string,
bytes or array is compact in a flexible version (its length or count a `biased_uvarint`: the
value plus one, 0 for null) and fixed-width in the others (`s2` for a string, `s4` for bytes and
arrays), and a flexible version ends every struct with its tagged fields: a count, then each
field's tag, size and bytes, in the order written, so that a value is written back byte for byte.
The bytes of a tag the struct knows are read as its field (a type of one field, by a switch on
the tag: its size is checked against what the field reads); an unknown tag's stay bytes. A
tagged field at its default is an entry not written, as Java leaves it out. A length or count is
derived (`-lc-size-of`, `-lc-count-of`), -1 for null (`-lc-absent`) where the spec lets the field
be null; where it does not, a negative length is refused as the Java client refuses it. Java
reads any negative length (and struct marker) as null; only -1, which it writes, is taken here,
since another could not be written back (as an over-long varint is refused).

The schema is plain data (`translate`), which `documents.py` writes as YAML for the loader; the
official Kaitai compiler reads it as it reads any schema.
"""

from __future__ import annotations

import re
from contextlib import contextmanager
from dataclasses import replace

from .spec import FieldSpec, FieldType, MessageSpec, Versions

#: A spec's fixed-width primitive types, as Kaitai types.
FIXED = {"bool": "u1", "int8": "s1", "int16": "s2", "uint16": "u2", "int32": "s4", "uint32": "u4", "int64": "s8",
         "float64": "f8"}
#: The width (a Kaitai type) of a non-flexible version's length or count, by the spec's type.
FIXED_LENGTH = {"string": "s2", "bytes": "s4", "records": "s4", "array": "s4"}
#: The param that holds a message's version, in every type of its schema.
VERSION = "api_version"
#: The schema of a tagged field (`tagged_field_schema`), beside the messages' schemas.
TAGGED_FIELD = "tagged_field"
#: Where the primitives the schemas import are (the `schemas/` folder's `common/`).
COMMON = "/common"
#: Messages written in another version than the one asked, by a field read before the version
#: matters: (the field, its value, the version then). A broker answers an ApiVersions request of
#: a version it does not support with a version 0 response holding UNSUPPORTED_VERSION (35), and
#: Java's ApiVersionsResponse.parse reads it so (it tries the version asked, then 0).
VERSION_FALLBACK = {"ApiVersionsResponse": ("ErrorCode", 35, 0)}
#: The instance that holds the version a message is read in, where it has a fallback.
BODY_VERSION = "body_version"


def snake(name: str) -> str:
    """A spec's CamelCase name in Kaitai's `lower_snake` (`ThrottleTimeMs` -> `throttle_time_ms`,
    `IsrNodes` -> `isr_nodes`, `ZkMigrationReady` -> `zk_migration_ready`)."""
    s = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1_\2", name)
    return re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", s).lower()


def translate(spec: MessageSpec, record_set: str | None = None, tagged_field: str = TAGGED_FIELD) -> dict:
    """The `.ksy` schema of `spec`, as the data YAML reads. `record_set` is the import (a path, as
    `meta.imports` writes one) of the schema whose root a `records` field holds, Kafka's record
    set (without it, such a field is bytes); `tagged_field`, that of `tagged_field_schema`."""
    return _Translation(spec, record_set, tagged_field).schema()


def translate_type(spec: MessageSpec, version: str, tagged_field: str) -> tuple[dict, dict[str, dict], set[str]]:
    """`spec` as a type of another schema (a frame's header): its definition, the types it
    defines beside it, and the imports they need. Its fields read the version from `version`
    (an expression of that type: a param, or an instance the caller adds)."""
    t = _Translation(spec, None, tagged_field, version)
    root = {"doc": t.doc(), "seq": t.seq(spec.fields, spec.valid_versions, snake(spec.name))}
    return root, t.defined_types(), t.imports


class _Translation:
    def __init__(self, spec: MessageSpec, record_set: str | None, tagged_field: str, version: str = VERSION) -> None:
        self.spec = spec
        self.record_set = record_set
        self.tagged_field = tagged_field
        self.version = version
        self.types: dict[str, dict] = {}
        self.structs = {s.name: s for s in spec.common_structs}
        self.imports = {f"{COMMON}/uvarint", f"{COMMON}/biased_uvarint"}

    def schema(self) -> dict:
        spec = self.spec
        root = snake(spec.name)
        fallback = VERSION_FALLBACK.get(spec.name)
        first = spec.fields[0] if spec.fields else None
        if fallback and not (first and first.name == fallback[0] and first.versions.low == 0
                             and first.versions.high is None):
            fallback = None  # a later spec whose first field is another: read as asked
        if fallback:
            self.version = BODY_VERSION  # every field reads the version the message is written in
        seq = self.seq(spec.fields, spec.valid_versions, root)
        schema = {
            "meta": {"id": root, "title": spec.name, "endian": "be", "-lc-fills-input": True,
                     "imports": sorted(self.imports)},
            "doc": self.doc(),
            "doc-ref": spec.file,  # the spec it is made from
            "params": [_version_param()],
            "seq": seq,
        }
        if fallback:
            field, value, version = fallback
            schema["instances"] = {BODY_VERSION: {
                "value": f"{snake(field)} == {value} ? {version} : {VERSION}",
                "doc": f"The version the message is written in: {version} where `{snake(field)}` is {value} "
                       f"(the answer to a version the sender does not support), else `{VERSION}`."}}
        types = self.defined_types()
        if types:
            schema["types"] = types
        return schema

    def doc(self) -> str:
        spec = self.spec
        return f"{spec.name} ({spec.kind}), versions {spec.valid_versions}; flexible in {spec.flexible_versions}."

    def defined_types(self) -> dict[str, dict]:
        """The types the message's fields need: its structs."""
        return dict(self.types)

    def condition(self, versions: Versions) -> str | None:
        """The condition on the version of `versions`, None where it holds in every version."""
        return _condition(versions, self.spec.valid_versions, self.version)

    # ------------------------------------------------------------------ a struct's fields

    def seq(self, fields: list[FieldSpec], versions: Versions, owner: str) -> list[dict]:
        """The seq of a struct (or of the message) `owner` whose fields are `fields`, in the
        versions `versions`, its tagged fields last in a flexible version."""
        out: list[dict] = []
        for f in fields:
            out.extend(self.field(f, versions))
        flexible = self.flexible(versions)
        if flexible is not None:
            out.extend(_tagged_section(self.condition(flexible), self.tagged_entry(fields, flexible, owner),
                                       self.known_tags(fields, flexible)))
        return out

    def known_tags(self, fields: list[FieldSpec], flexible: Versions) -> dict:
        """The named fields over a struct's tagged fields (`-lc-keyed`): each known tag's field,
        with Java's default, where no entry of its tag is written."""
        return {snake(f.name): {"key": f.tag, "default": self.java_default(f, tagged)}
                for f, tagged in _known_tags(fields, flexible)}

    def java_default(self, f: FieldSpec, versions: Versions):
        """The value of field `f` that Java's generated class starts with (its `default`, else
        zero, empty or, for a struct, the struct of its fields' defaults), as our value holds it:
        a bool as 0 or 1, a uuid as 16 bytes, bytes as a list of them, a struct as a mapping."""
        t, given = f.type, f.default
        if given == "null" or (t.text == "records" and given is None):
            return None
        if t.is_array:
            return []
        if t.is_struct:
            struct = f.fields or self.structs[t.element].fields
            out = {snake(g.name): self.java_default(g, _intersect(g.versions, versions)) for g in struct
                   if g.tag is None and not _intersect(g.versions, versions).empty}
            if self.flexible(versions) is not None:
                out["tagged_fields"] = []
            return out
        if t.text == "bool":
            return int(given in (True, "true"))
        if t.text == "string":
            return "" if given is None else str(given)
        if t.text == "bytes":
            return []
        if t.text == "uuid":
            return [0] * 16
        if t.text == "float64":
            return float(given or 0)
        return int(str(given), 0) if given is not None else 0

    def tagged_entry(self, fields: list[FieldSpec], flexible: Versions, owner: str) -> str:
        """The type (as a field names it) of one of `owner`'s tagged fields: the shared one (tag,
        size, bytes) where it knows no tag in `flexible`, else its own, whose bytes are the field
        of a known tag."""
        known = _known_tags(fields, flexible)
        if not known:
            self.imports.add(self.tagged_field)
            return TAGGED_FIELD
        tid = self.fresh(f"{owner}_tagged_field")
        called = f"{tid}({self.version})"
        with self.own_type():
            cases = {f.tag: f"{self.tag_type(f, tagged, owner)}({self.version})" for f, tagged in known}
        self.types[tid] = {
            "doc": f"One tagged field of {owner}: its tag, its size and its bytes, read as the field of a "
                   f"tag it knows ({', '.join(f'{f.tag}: `{snake(f.name)}`' for f, _ in known)}).",
            "params": [_version_param()],
            "seq": [
                {"id": "tag", "type": "uvarint(32)", "doc": "The field's tag."},
                {"id": "len_data", "type": "uvarint(32)", "doc": "Length of `data` in bytes.",
                 "-lc-size-of": "data"},
                {"id": "data", "size": "len_data.value", "type": {"switch-on": "tag.value", "cases": cases},
                 "doc": "The field of a known tag; an unknown tag's bytes."},
            ],
        }
        return called

    def tag_type(self, f: FieldSpec, tagged: Versions, owner: str) -> str:
        """The type of a tagged field's bytes: the one field, in its tagged versions."""
        tid = self.fresh(f"{snake(f.name)}_tag" if f"{snake(f.name)}_tag" not in self.types
                         else f"{owner}_{snake(f.name)}_tag")
        self.types[tid] = {}  # taken before the field's own types are
        field = replace(f, versions=tagged, tagged_versions=Versions(None), tag=None)
        with self.own_type():
            seq = self.field(field, tagged)
        self.types[tid] = {"doc": f"The tagged field `{snake(f.name)}` (tag {f.tag}).",
                           "params": [_version_param()], "seq": seq}
        return tid

    @contextmanager
    def own_type(self):
        """While a type of its own is made: its fields read the version from its param (the root
        may read it from elsewhere: `BODY_VERSION`)."""
        outer, self.version = self.version, VERSION
        try:
            yield
        finally:
            self.version = outer

    def fresh(self, tid: str) -> str:
        """`tid`, or with a number after it where the message has a type of that name."""
        n, out = 2, tid
        while out in self.types:
            out, n = f"{tid}_{n}", n + 1
        return out

    def field(self, f: FieldSpec, versions: Versions) -> list[dict]:
        """The seq entries of one field: its length or count where it has one, and the field."""
        present = _intersect(f.versions, versions)
        if not f.tagged_versions.empty:  # in the tagged section in its tagged versions
            present = _before(present, _intersect(present, f.tagged_versions))
        if present.empty:
            return []
        cond = self.condition(present)
        name = snake(f.name)
        doc = f.about or f"{f.name}."
        t = f.type
        if not t.is_array and t.text in FIXED:
            return [_with_if({"id": name, "type": FIXED[t.text], "doc": doc}, cond)]
        if t.text == "uuid":
            return [_with_if({"id": name, "size": 16, "doc": doc}, cond)]
        if not t.is_array and t.is_struct:
            return self.struct_field(f, name, doc, present, cond)
        kind = "array" if t.is_array else t.text
        lengths, size = self.lengths(f, name, kind, present)
        target: dict = {"id": name, "doc": doc}
        nullable = not _intersect(f.nullable_versions, present).empty
        if kind == "array":
            element = t.element
            if element in FIXED:
                target["type"] = FIXED[element]
            elif element == "uuid":
                target["size"] = 16
            elif element in ("string", "bytes"):
                target["type"] = f"{self.element_type(element)}({self.version})"
            else:
                target["type"] = f"{self.struct_type(f)}({self.version})"
            target["repeat"] = "expr"
            target["repeat-expr"] = size
        else:
            target["size"] = size
            if kind == "string":
                target["type"] = "str"
                target["encoding"] = "UTF-8"
            elif kind == "records" and self.record_set is not None:  # else its bytes
                self.imports.add(self.record_set)
                target["type"] = self.record_set.rsplit("/", 1)[-1]
        conds = [c for c in (cond, f"{size} >= 0" if nullable else None) if c]
        if conds:
            target["if"] = " and ".join(f"({c})" if " or " in c else c for c in conds)
        return [*lengths, target]

    def struct_field(self, f: FieldSpec, name: str, doc: str, present: Versions, cond: str | None) -> list[dict]:
        """A struct field, after its marker (`-1` for null, 1) in the versions it may be null."""
        field = {"id": name, "type": f"{self.struct_type(f)}({self.version})", "doc": doc}
        nullable = _intersect(f.nullable_versions, present)
        if nullable.empty:
            return [_with_if(field, cond)]
        marker_id, where = f"has_{name}", self.condition(nullable)
        # Java reads any negative marker as null and any other as present; only the two it writes
        # are taken, since another could not be written back
        marker = _with_if({"id": marker_id, "type": "s1", "doc": f"1 when `{name}` follows, -1 for null.",
                           "valid": {"any-of": [1, -1]}, "-lc-present": name, "-lc-absent": -1}, where)
        there = f"{marker_id} >= 0" if present.within(nullable) else f"({where} ? {marker_id} >= 0 : true)"
        return [marker, _with_if(field, " and ".join(c for c in (cond, there) if c))]

    def lengths(self, f: FieldSpec, name: str, kind: str, present: Versions) -> tuple[list[dict], str]:
        """The length (or count) fields of a string, bytes, records or array field: the
        fixed-width one in its versions that are not flexible, the compact one in those that
        are; and the expression of the length."""
        prefix = "num" if kind == "array" else "len"
        key = "-lc-count-of" if kind == "array" else "-lc-size-of"
        fixed_id, compact_id = f"{prefix}_{name}", f"{prefix}_{name}_compact"
        flexible = self.flexible(present, f)
        nullable = _intersect(f.nullable_versions, present)
        out, parts = [], []
        fixed_versions = present if flexible is None else _before(present, flexible)
        for fid, versions, type_, value in (
                (fixed_id, fixed_versions, FIXED_LENGTH[kind], fixed_id),
                (compact_id, _intersect(present, flexible) if flexible is not None else Versions(None),
                 "biased_uvarint(32)", f"{compact_id}.value")):
            if versions.empty:
                continue
            entry = {"id": fid, "type": type_,
                     "doc": f"{'Number of elements' if kind == 'array' else 'Length in bytes'} of `{name}`"
                            f"{', or -1 for null' if not nullable.empty else ''}.",
                     key: name}
            if not nullable.empty:
                # null is -1: Java reads any negative length as null, but another than -1 could not
                # be written back, and is refused (a compact length cannot be below -1)
                entry["-lc-absent"] = -1
                number = "_" if value == fid else "_.value"  # a biased_uvarint is a type; its number, .value
                if not versions.within(nullable):
                    entry["valid"] = {"expr": f"{number} >= 0 or ({number} == -1 and ({self.condition(nullable)}))"}
                elif value == fid:
                    entry["valid"] = {"min": -1}
            _with_if(entry, self.condition(versions))
            out.append(entry)
            parts.append((versions, value))
        if len(parts) == 1:
            return out, parts[0][1]
        (_, fixed_value), (compact_versions, compact_value) = parts
        return out, f"({self.condition(compact_versions)} ? {compact_value} : {fixed_value})"

    def flexible(self, versions: Versions, f: FieldSpec | None = None) -> Versions | None:
        """The flexible versions among `versions` (a field's own where it has them), or None."""
        flexible = f.flexible_versions if f is not None and f.flexible_versions is not None \
            else self.spec.flexible_versions
        both = _intersect(versions, flexible)
        return None if both.empty else both

    # ------------------------------------------------------------------ types

    def struct_type(self, f: FieldSpec) -> str:
        """The type of a struct field (or of an array's elements), defined once."""
        name = f.type.element
        tid = snake(name)
        if tid not in self.types:
            self.types[tid] = {}  # taken, for a struct that holds itself
            if f.fields:
                fields, versions = f.fields, f.versions
            elif name in self.structs:
                fields, versions = self.structs[name].fields, self.structs[name].versions
            else:
                raise ValueError(f"{self.spec.file}: {f.path}: no struct {name}")
            versions = _intersect(versions, self.spec.valid_versions)
            with self.own_type():
                seq = self.seq(fields, versions, tid)
            self.types[tid] = {"doc": f"{name}.", "params": [_version_param()], "seq": seq}
        return tid

    def element_type(self, kind: str) -> str:
        """The type of a string or bytes element of an array (`[]string`)."""
        tid = f"{kind}_element"
        if tid not in self.types:
            element = FieldSpec(name="Value", type=FieldType(kind), versions=self.spec.valid_versions, path="",
                                about=f"The {kind}.")
            with self.own_type():
                seq = self.field(element, self.spec.valid_versions)
            self.types[tid] = {"doc": f"One {kind} of a list.", "params": [_version_param()], "seq": seq}
        return tid


def _version_param() -> dict:
    return {"id": VERSION, "type": "u2", "doc": "The version of the message."}


def _known_tags(fields: list[FieldSpec], flexible: Versions) -> list[tuple[FieldSpec, Versions]]:
    """The tagged fields of a struct in the flexible versions `flexible`, each with the versions
    in which it is tagged there."""
    return [(f, tagged) for f in fields
            if f.tag is not None and not (tagged := _intersect(_intersect(f.versions, flexible),
                                                                f.tagged_versions)).empty]


def _tagged_section(cond: str | None, entry: str, known: dict) -> list[dict]:
    count = {"id": "num_tagged_fields", "type": "uvarint(32)", "doc": "Number of tagged fields.",
             "-lc-count-of": "tagged_fields"}
    fields = {"id": "tagged_fields", "type": entry, "repeat": "expr",
              "repeat-expr": "num_tagged_fields.value",
              "doc": "The tagged fields, in the order written: each its tag, size and bytes."}
    if known:  # each known tag's field, named on the holder
        fields["-lc-keyed"] = {"key": "tag", "value": "data", "fields": known}
    return [_with_if(count, cond), _with_if(fields, cond)]


def tagged_field_schema() -> dict:
    """The schema of one entry of a flexible version's tagged fields, which every message's schema
    imports (one module for them all)."""
    return {
        "meta": {"id": TAGGED_FIELD, "title": "Tagged field", "endian": "be", "imports": [f"{COMMON}/uvarint"]},
        "doc": "One tagged field of a flexible version: its tag, its size and its bytes.",
        "seq": [
            {"id": "tag", "type": "uvarint(32)", "doc": "The field's tag."},
            {"id": "len_data", "type": "uvarint(32)", "doc": "Length of `data` in bytes.", "-lc-size-of": "data"},
            {"id": "data", "size": "len_data.value", "doc": "The field's bytes, as its type writes them."},
        ],
    }


def _with_if(entry: dict, cond: str | None) -> dict:
    if cond:
        entry["if"] = cond
    return entry


def _intersect(a: Versions, b: Versions) -> Versions:
    if a.empty or b.empty:
        return Versions(None)
    low = max(a.low, b.low)
    highs = [h for h in (a.high, b.high) if h is not None]
    high = min(highs) if highs else None
    if high is not None and high < low:
        return Versions(None)
    return Versions(low, high)


def _before(versions: Versions, later: Versions) -> Versions:
    """The versions of `versions` before `later`, which runs to their end, starts."""
    if versions.empty or later.empty:
        return versions
    if later.high is not None and (versions.high is None or later.high < versions.high):
        raise NotImplementedError(f"versions {later} inside {versions}")
    return Versions(None) if later.low <= versions.low else _intersect(versions, Versions(0, later.low - 1))


def _condition(versions: Versions, within: Versions | None, name: str = VERSION) -> str | None:
    """The condition on the version (`name`) of `versions`, None when every version of `within` is one."""
    low = versions.low
    high = versions.high
    if within is not None and not within.empty:
        if low <= within.low:
            low = None
        if high is not None and within.high is not None and high >= within.high:
            high = None
    elif low == 0:
        low = None
    parts = [c for c in (f"{name} >= {low}" if low else None,
                         f"{name} <= {high}" if high is not None else None) if c]
    return " and ".join(parts) or None
