"""The second step of loading: type and enum references resolved with Kaitai's scoping (nested
types, then enclosing ones, then imported files), and the names each expression reads checked.

The loader (`reading.py`) reads a file into the IR with its references as written; the resolver
makes them point at the types and enums they name. Each problem is noted with its YAML path
(`Loader.report`); a field whose type cannot be resolved is left as bytes, its other checks
skipped (they would only repeat the problem).
"""

from __future__ import annotations

import codecs
import re

from . import expr as E
from .problems import yaml_text
from .schema import (BUILTIN_TYPE, Enum, Field, Schema, Stop, TypeDef, TypeRef, did_you_mean, field_sites,
                     is_vendor_key, join_ypath, lookup_enum, lookup_type, split_args, visible_enums,
                     visible_types)

_INT = re.compile(r"^([us])([1248])(be|le)?$")
_BITS = re.compile(r"^b([1-9][0-9]?)(be|le)?$")
_FLOAT = re.compile(r"^f([48])(be|le)?$")


class Resolver:
    """Resolve type and enum names, check the names expressions read. `loader`: the loader that
    read the schema (`reading.Loader`), which notes the problems and parses expressions."""

    def __init__(self, loader, schema: Schema) -> None:
        self.loader, self.schema = loader, schema

    def report(self, ypath, message) -> None:
        self.loader.report(self.schema, ypath, message)

    def fail(self, ypath, message):
        self.loader.fail(self.schema, ypath, message)

    def resolve(self) -> None:
        for t in self.schema.root.walk():
            for f in t.seq:
                self.resolve_or_skip(t, f)
            for inst in t.instances:
                if inst.field is not None:
                    self.resolve_or_skip(t, inst.field)
                    inst.enum = inst.field.enum
                elif inst.enum is not None:  # (`enum: 0` or `-0.0` is a name too: unknown)
                    inst.enum = self.enum_or_none(t, inst.enum, join_ypath(inst.ypath, "enum"))
            for i, p in enumerate(t.params):
                base = p.type_name.strip().removesuffix("[]")
                if base and not BUILTIN_TYPE.match(base) and base not in ("bool", "struct", "io", "any") \
                        and lookup_type(t, base)[0] is None:
                    self.report(join_ypath(t.ypath, f"params[{i}].type"), f"unknown type {base!r}"
                                + did_you_mean(base, self.visible_types(t)))
                if isinstance(p.enum, str):
                    p.enum = self.enum_or_none(t, p.enum, join_ypath(t.ypath, f"params[{i}].enum"))
            if not t.primitive:
                self.check_names(t)
        self.disambiguate()

    def resolve_or_skip(self, t: TypeDef, f: Field) -> None:
        try:
            self.resolve_field(t, f)
        except Stop:
            f.type, f.enum, f.broken = TypeRef("bytes"), None, True

    def enum_or_none(self, t: TypeDef, name, ypath: str) -> Enum | None:
        try:
            return self.find_enum(t, name, ypath)
        except Stop:
            return None

    def disambiguate(self) -> None:
        """Types of one name nested in different types (Kaitai nests their classes) get the
        names of the types around them, one module holding them all side by side: `main::foo_obj`
        becomes `main__foo_obj` (class `MainFooObj`). Then types of different names whose classes
        would have one (`label_header` and, inside it, `label_header_`: both `LabelHeader`) get
        the names of the types around them too. Lookups go by the types' keys, not these."""
        if self.schema.strict:
            return
        by_name: dict[str, list[TypeDef]] = {}
        for t in self.schema.root.walk():
            by_name.setdefault(t.name, []).append(t)
        for same in by_name.values():
            if len(same) > 1:
                for t in same:
                    if t.parent is not None:
                        t.name = f"{t.parent.name}__{t.name}"
        by_class: dict[str, list[TypeDef]] = {}
        for t in self.schema.root.walk():
            by_class.setdefault(t.class_name, []).append(t)
        renamed = {id(t): f"{t.parent.name}__{t.name}" for same in by_class.values() if len(same) > 1
                   for t in same if t.parent is not None}
        for t in self.schema.root.walk():  # named from their holders' names as they were
            t.name = renamed.get(id(t), t.name)

    def resolve_field(self, t: TypeDef, f: Field) -> None:
        raw = f._raw_type
        if raw is None:
            f.type = TypeRef("bytes")
            if f.size is None and not f.size_eos and f.contents is None and f.terminator is None and not f.broken:
                self.report(f.ypath, "a byte field needs size, size-eos or a terminator")
        elif isinstance(raw, dict):
            f.type = self.switch(t, f, raw)
        else:
            f.type = self.type_ref(t, f, raw)
        if f._raw_enum is not None:
            f.enum = self.find_enum(t, f._raw_enum, join_ypath(f.ypath, "enum"))
            if f.type.kind not in ("int", "bits"):
                self.report(join_ypath(f.ypath, "enum"), f"an enum names integers, not a {f.type.kind} field")
        self.check_field(t, f)

    def switch(self, t: TypeDef, f: Field, raw: dict) -> TypeRef:
        """`type: {switch-on, cases}`; each case's problems are noted before the field is given up."""
        for key in raw:
            if key not in ("switch-on", "cases") and not is_vendor_key(key):
                self.report(join_ypath(f.ypath, f"type.{key}"), "unknown key (a switch has switch-on and cases)")
        if "switch-on" not in raw:
            self.fail(join_ypath(f.ypath, "type"), "a switch needs switch-on")
        if not isinstance(raw.get("cases"), dict) or not raw["cases"]:
            self.fail(join_ypath(f.ypath, "type.cases" if "cases" in raw else "type"), "a switch needs cases, a mapping "
                      "of values to types")
        on = self.loader.expr(self.schema, join_ypath(f.ypath, "type.switch-on"), raw.get("switch-on"))
        cases, texts, given_up = [], [], on is None
        for key, tname in raw["cases"].items():
            try:
                k = None if key == "_" else self.loader.expr(self.schema, join_ypath(f.ypath, f"type.cases.{key}"), key)
                case = self.type_ref(t, f, tname)
            except Stop:
                k, case = None, None
            if case is None or (k is None and key != "_"):
                given_up = True
                continue
            cases.append((k, case))
            texts.append(str(key))
        if given_up:
            raise Stop
        return TypeRef("switch", switch_on=on, switch_text=str(raw.get("switch-on")), cases=cases, case_texts=texts)

    def check_field(self, t: TypeDef, f: Field) -> None:
        """What a field's keys say together, once its type is known."""
        if (f.terminator is not None or f.pad_right is not None) and f.type.kind not in ("bytes", "str", "user", "switch"):
            self.report(join_ypath(f.ypath, "terminator" if f.terminator is not None else "pad-right"),
                        f"bytes, text and structures end at a terminator or carry padding, not a {f.type.kind} field")
        if f.pad_right is not None and f.size is None and not f.size_eos:
            self.report(join_ypath(f.ypath, "pad-right"), "padding needs a size (or size-eos)")
        if (f.terminator is not None and f.process and f.size is None and not f.size_eos
                and f.type.kind in ("bytes", "str")):
            self.report(join_ypath(f.ypath, "terminator"), "bytes or text up to a terminator, processed, are not "
                        "supported yet (give the field a size, or a type)")
        for key, ends in (("-lc-size-of", f.size_of), ("-lc-checksum", f.checksum and (f.checksum["from"],
                                                                                        f.checksum["to"]))):
            if ends and ends[0] is None:
                self.report(join_ypath(f.ypath, key), "a range needs `from`, the first field it covers")
            for end in ends or ():
                if end is not None and t.field(end) is None:
                    self.report(join_ypath(f.ypath, key), f"no field {end!r} in this type")
        first = f.size_of[0] if f.size_of and f.size_of[0] != f.size_of[1] else None
        if first is not None and t.field(first) is not None and t.seq.index(t.field(first)) < t.seq.index(f):
            self.report(join_ypath(f.ypath, "-lc-size-of"), f"a range that starts before its length ({first!r}) is "
                        "not supported: the encoder writes a length before what it measures, or after its start "
                        "(leave `-lc-size-of` out: the value then gives the length, which the sizes must agree with)")
        if f.present and t.field(f.present) is None:
            self.report(join_ypath(f.ypath, "-lc-present"), f"no field {f.present!r} in this type")
        if f.partial_tail:
            self.check_partial_tail(t, f)
        inner = f.type.user if f.type.kind == "user" else None
        if f.repeat and inner is not None and inner.unwrap and inner.seq[0].repeat:
            self.report(join_ypath(f.ypath, "repeat"), f"a list of {inner.name}, an unwrapped list, would be a list of "
                        "lists, which the value model does not have; do not unwrap that type")

    def check_partial_tail(self, t: TypeDef, f: Field) -> None:
        """The bytes of a cut-short last element must land somewhere: in the next field, the
        last of the type, which takes the rest of the input as bytes."""
        where = join_ypath(f.ypath, "-lc-partial-tail")
        if f.repeat != "eos":
            return self.report(where, "only a `repeat: eos` field may end in a partial element")
        rest = t.seq[t.seq.index(f) + 1:]
        if len(rest) != 1 or not rest[0].size_eos or rest[0].type.kind != "bytes" or rest[0].if_expr is not None:
            self.report(where, "the next field, the last of the type, must be bytes with `size-eos: true`"
                        " (it holds the partial element)")

    def type_ref(self, t: TypeDef, f: Field, name) -> TypeRef:
        if not isinstance(name, str):  # (YAML may hand over a number, a list, a mapping in a case)
            self.fail(join_ypath(f.ypath, "type"), f"a type is a name (u4, str, a type of the schema), not "
                      f"{yaml_text(name)}")
        if m := _INT.match(name):
            endian = m.group(3) or (t.endian if m.group(2) != "1" else "be")
            if endian is None:
                self.fail(join_ypath(f.ypath, "type"), f"{name} needs a byte order: `{name}le`/`{name}be`, or meta/endian")
            return TypeRef("int", size=int(m.group(2)), signed=m.group(1) == "s", endian=endian)
        if m := _BITS.match(name):
            return TypeRef("bits", size=int(m.group(1)), endian=m.group(2) or t.bit_endian)
        if m := _FLOAT.match(name):
            if not (m.group(2) or t.endian):
                self.fail(join_ypath(f.ypath, "type"), f"{name} needs a byte order: `{name}le`/`{name}be`, or meta/endian")
            return TypeRef("float", size=int(m.group(1)), endian=m.group(2) or t.endian)
        if name in ("str", "strz"):
            return self.text(t, f, name)
        if name in ("bytes",):
            return TypeRef("bytes")
        m = re.match(r"^([a-z_][a-z0-9_:]*)(?:\((.*)\))?$", name.strip(), re.S)  # args may span lines
        if not m:
            self.fail(join_ypath(f.ypath, "type"), f"cannot read type {name!r}")
        user = self.find_type(t, m.group(1), join_ypath(f.ypath, "type"))
        args = tuple(self.loader.expr(self.schema, join_ypath(f.ypath, "type"), a) for a in split_args(m.group(2) or ""))
        if len(args) != len(user.params):
            self.report(join_ypath(f.ypath, "type"), f"{user.name} takes {len(user.params)} params, given {len(args)}")
        return TypeRef("user", user=user, args=tuple(a for a in args if a is not None))

    def text(self, t: TypeDef, f: Field, name: str) -> TypeRef:
        """`str` or `strz` in the field's encoding (or its type's, from its meta or the type it is
        written in)."""
        encoding = f._encoding or t.encoding
        if not encoding:
            self.fail(f.ypath, "a str field needs an encoding (on the field, or in the meta of its type or "
                      "of a type it is written in)")
        if not isinstance(encoding, str):
            self.fail(join_ypath(f.ypath, "encoding") if f._encoding else f.ypath,
                      f"an encoding is a name (UTF-8, ASCII...), not {yaml_text(encoding)}")
        if "\x00" in encoding:  # no codec's name has one (codecs.lookup raises ValueError), at run time neither
            self.fail(join_ypath(f.ypath, "encoding") if f._encoding else f.ypath, f"unknown encoding {encoding!r}")
        try:
            codecs.lookup(encoding)
        except LookupError:
            # An instance of a user's schema is read when first used, as in Kaitai: reading
            # it is then the error (DecodeError), not compiling the schema.
            if self.schema.strict or ".instances." not in "." + f.ypath:
                self.fail(join_ypath(f.ypath, "encoding"), f"unknown encoding {encoding!r}")
        if name == "strz" and f.terminator is None:  # a NUL of the encoding's code unit, unless
            f.terminator = bytes(_unit_size(encoding))  # the field names its own (as Kaitai's compiler)
        return TypeRef("str", encoding=encoding)

    def find_type(self, t: TypeDef, name: str, ypath: str) -> TypeDef:
        found, missing = lookup_type(t, name)
        if found is None and missing == name.split("::")[0]:
            self.fail(ypath, f"unknown type {name!r}" + did_you_mean(missing, self.visible_types(t)))
        if found is None:
            self.fail(ypath, f"unknown type {name!r}: no type {missing!r} there")
        return found

    def visible_types(self, t: TypeDef) -> set[str]:
        return visible_types(t)

    def find_enum(self, t: TypeDef, name, ypath: str) -> Enum:
        found = lookup_enum(t, str(name))
        if found is not None:
            return found
        self.fail(ypath, f"unknown enum {yaml_text(name)}" + did_you_mean(str(name), visible_enums(t)))

    def check_names(self, t: TypeDef) -> None:
        """Every name an expression reads is a field before it, a param, an instance or a special."""
        known = {p.id for p in t.params} | {i.id for i in t.instances} | {"_root", "_parent", "_io", "_sizeof", "true",
                                                                            "false"}
        for f in t.seq:
            in_loop = {"_index"} if f.repeat else set()  # a repeated field's element expressions may read _index
            for ypath, e, _ in field_sites(f):
                if ypath.endswith(("repeat-until", ".valid.expr")) or e is f.default or e is f.count_of:
                    continue  # `_` is the element; -lc- write rules read the whole value (below)
                loop = in_loop if not ypath.endswith("repeat-expr") else set()  # (the count comes before the loop)
                for n in E.names(e):
                    if n not in known | loop and n != f.id:
                        self.report(ypath, f"expression reads {n!r}, which is not a field before it, a param or an "
                                    "instance" + did_you_mean(n, known | {g.id for g in t.seq}))
            if f.repeat_until is not None:
                for n in E.names(f.repeat_until):
                    if n not in known | {"_", "_index", f.id}:
                        self.report(join_ypath(f.ypath, "repeat-until"), f"expression reads unknown {n!r}")
            known.add(f.id)
        # -lc-default and -lc-count-of may read any field, since they run on a complete value.
        all_names = known | {f.id for f in t.seq}
        for f in t.seq:
            for e in (f.default, f.count_of):
                for n in E.names(e) if e is not None else ():
                    if n not in all_names:
                        self.report(f.ypath, f"expression reads unknown {n!r}")


def _unit_size(encoding: str) -> int:
    """Bytes of one code unit: 2 for UTF-16, 4 for UTF-32, else 1 (a NUL there ends a `strz`)."""
    name = encoding.upper().replace("_", "-")
    return 4 if name.startswith(("UTF-32", "UTF32")) else 2 if name.startswith(("UTF-16", "UTF16")) else 1
