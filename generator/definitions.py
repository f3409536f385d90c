"""Reading the definitions of a `.ksy` into the IR (`schema.py`): types (their meta, params, enums
and the types inside them), seq fields, instances and the expressions in them, each checked
against the keys it may take (`vocabulary.py`). A part of the loader (`reading.Loader`), which
reads the files and their imports and notes the problems (`report`, `fail`); like it, this goes on
past a problem wherever what follows still makes sense.
"""

from __future__ import annotations

import re

from logcodec import processors

from . import expr as E
from .problems import yaml_text
from .schema import (Enum, Field, Instance, Param, Schema, Stop, TypeDef, TypeRef, did_you_mean, is_vendor_key,
                     join_ypath, split_args)
from .vocabulary import CHECKSUMS, FIELD_KEYS, LOWER_SNAKE, PARSE_INSTANCE_KEYS, TYPE_KEYS, VALUE_INSTANCE_KEYS


class DefinitionReader:
    """The loader's reading of a schema's types, fields and instances (a base of `reading.Loader`,
    which gives it `strict`, and `report` and `fail` to note problems with)."""

    def type_or_stand_in(self, schema: Schema, name: str, raw, ypath: str, parent, meta: dict) -> TypeDef:
        """A type; where it makes no sense, an empty one in its place (its problem reported), so
        that what names it still finds it."""
        try:
            return self.build_type(schema, name, raw, ypath, parent, meta)
        except Stop:
            return TypeDef(name=name, ypath=ypath, schema=schema, parent=parent, endian=parent and parent.endian,
                           bit_endian=parent.bit_endian if parent else "be", encoding=parent.encoding if parent else "")

    def build_type(self, schema: Schema, name: str, raw: dict, ypath: str, parent, meta: dict) -> TypeDef:
        if not isinstance(raw, dict):
            self.fail(schema, ypath, "a type is a mapping")
        if isinstance(meta.get("endian"), dict) and not self.strict:
            return self.endian_chosen_at_run_time(schema, name, raw, ypath, parent, meta)
        for key in raw:
            if not is_vendor_key(key) and key not in TYPE_KEYS:
                self.report(schema, join_ypath(ypath, str(key)), "unknown key (not in the Kaitai subset logcodec "
                            "implements)" + did_you_mean(str(key), TYPE_KEYS))
        if self.strict and not raw.get("doc"):
            self.report(schema, join_ypath(ypath, "doc"), "every type needs a `doc` (house rule of schemas/)")
        t = TypeDef(
            name=name, ypath=ypath, schema=schema, parent=parent,
            doc=str(raw.get("doc", "")).strip(), doc_ref=doc_ref(raw.get("doc-ref")),
            endian=self.endian(schema, ypath, meta, parent),
            bit_endian=meta.get("bit-endian", parent.bit_endian if parent else "be"),
            encoding=_encoding(meta, parent),
            unwrap=bool(raw.get("-lc-unwrap", False)), primitive=raw.get("-lc-primitive"),
        )
        self.check_sections(schema, raw, ypath)
        t.to_string = self.to_string(schema, raw, ypath)
        t.params = self.params(schema, raw, ypath)
        for ename, members in _entries(raw.get("enums")):
            t.enums[ename] = self.build_enum(schema, ename, members, join_ypath(ypath, f"enums.{ename}"), t)
        for tname, traw in _entries(raw.get("types")):
            tp = join_ypath(ypath, f"types.{tname}")
            if not isinstance(tname, str) or not LOWER_SNAKE.match(tname):
                self.report(schema, tp, "type names are lower_snake")
            tmeta = traw.get("meta") if isinstance(traw, dict) else None
            if tmeta is not None and not isinstance(tmeta, dict):
                self.report(schema, f"{tp}.meta", "is a mapping")
                tmeta = None
            # A type's own meta (endian, bit-endian) holds for it and the types inside it.
            t.types[str(tname)] = self.type_or_stand_in(schema, str(tname), traw, tp, t, tmeta or {})
        seen = {}  # id -> where it was given: params, seq and instances share one namespace
        for i, p in enumerate(t.params):
            self.declare(schema, seen, p.id, join_ypath(ypath, f"params[{i}]"), join_ypath(ypath, f"params[{i}].id"))
        for i, fraw in enumerate(_items(raw.get("seq"))):
            try:
                f = self.build_field(schema, fraw, join_ypath(ypath, f"seq[{i}]"))
            except Stop:
                continue
            self.declare(schema, seen, f.id, f.ypath, join_ypath(f.ypath, "id"))
            t.seq.append(f)
        for iname, iraw in _entries(raw.get("instances")):
            try:
                t.instances.append(self.build_instance(schema, t, iname, iraw, seen))
            except Stop:
                continue
        if t.unwrap and len(t.seq) != 1:
            self.report(schema, join_ypath(ypath, "-lc-unwrap"), "an unwrapped type has exactly one seq field")
            t.unwrap = False  # (the schema is refused; nothing else reads a missing field)
        return t

    def endian(self, schema: Schema, ypath: str, meta: dict, parent) -> str | None:
        """A type's default byte order: its meta's, else its parent's; None when nobody says (a
        multi-byte number must then say it itself, as in Kaitai)."""
        if "endian" not in meta:
            return parent.endian if parent else None
        if meta["endian"] not in ("be", "le"):
            self.report(schema, join_ypath(ypath, "meta.endian"), "byte order chosen at run time (switch-on) is not "
                        "supported yet; `be` or `le`")
            return "be"  # (what it is does not matter: the schema is refused)
        return meta["endian"]

    def endian_chosen_at_run_time(self, schema: Schema, name: str, raw: dict, ypath: str, parent, meta: dict) -> TypeDef:
        """`meta/endian` with `switch-on`: the type is built once per byte order (`name__le`,
        `name__be`, with the types inside that inherit it), and `name` reads the one its
        switch chooses, as an unwrapped type: its value is the chosen one's. The chosen type
        sees the same `_parent` and params."""
        rule = meta["endian"]
        ep = join_ypath(ypath, "meta.endian")
        cases = rule.get("cases")
        if set(rule) - {"switch-on", "cases"} or "switch-on" not in rule or not isinstance(cases, dict):
            self.fail(schema, ep, "is `le`, `be`, or switch-on with cases of `le` and `be`")
        wrong = [key for key, order in cases.items() if order not in ("le", "be")]
        for key in wrong:
            self.report(schema, join_ypath(ep, f"cases.{key}"), f"a byte order is `le` or `be`, not {yaml_text(cases[key])}")
        if wrong:
            raise Stop
        t = TypeDef(name=name, ypath=ypath, schema=schema, parent=parent, doc=str(raw.get("doc", "")).strip(),
                    doc_ref=doc_ref(raw.get("doc-ref")), endian=parent.endian if parent else None,
                    bit_endian=meta.get("bit-endian", parent.bit_endian if parent else "be"),
                    encoding=_encoding(meta, parent), unwrap=True)
        t.params = self.params(schema, raw, ypath)
        args = f"({', '.join(p.id for p in t.params)})" if t.params else ""
        for order in ("le", "be"):
            variant = self.build_type(schema, f"{name}__{order}", raw, ypath, t, {**meta, "endian": order})
            t.types[variant.name] = variant
        t.byte_orders = tuple(t.types.values())
        f = Field(id="endian", ypath=ep, doc=t.doc, doc_ref="", type=TypeRef("bytes"), parent=E.Name("_parent"),
                  no_case="no byte order matches (meta.endian)")
        f._raw_type = {"switch-on": rule["switch-on"], "cases": {k: f"{name}__{v}{args}" for k, v in cases.items()}}
        f._raw_enum, f._encoding = None, ""
        t.seq.append(f)
        return t

    def to_string(self, schema: Schema, raw: dict, ypath: str):
        """Kaitai's `to-string`: an expression of the type that says its value as text (a value's
        `str()`); None when the type has none."""
        if "to-string" not in raw:
            return None
        where = join_ypath(ypath, "to-string")
        if self.strict:  # our values are plain: their text is their canonical JSON
            return self.report(schema, where, "`to-string` is not supported in schemas/")
        return self.expr(schema, where, raw["to-string"])

    def check_sections(self, schema: Schema, raw: dict, ypath: str) -> None:
        """`seq` and `params` are lists; `types`, `enums` and `instances` mappings."""
        for key, kind, name in (("seq", list, "a list"), ("params", list, "a list"), ("types", dict, "a mapping"),
                                ("enums", dict, "a mapping"), ("instances", dict, "a mapping")):
            if raw.get(key) is not None and not isinstance(raw[key], kind):
                self.report(schema, join_ypath(ypath, key), f"is {name}")

    def declare(self, schema: Schema, seen: dict, name: str, ypath: str, id_path: str) -> None:
        """Params, seq fields and instances share one namespace: a name given twice is a problem."""
        if name in seen:
            self.report(schema, id_path, f"duplicate id {name!r} (also {seen[name]})")
        else:
            seen[name] = ypath

    def params(self, schema: Schema, raw: dict, ypath: str) -> list[Param]:
        out = []
        for i, p in enumerate(_items(raw.get("params"))):
            py = join_ypath(ypath, f"params[{i}]")
            if not isinstance(p, dict):
                self.report(schema, py, "a param is a mapping with an id and a type")
                continue
            if not isinstance(p.get("id"), str) or not LOWER_SNAKE.match(p["id"]):
                self.report(schema, join_ypath(py, "id"), "a param needs a lower_snake id")
                continue
            if not isinstance(p.get("type", ""), str):
                self.report(schema, join_ypath(py, "type"), f"a param's type is a name, not {yaml_text(p['type'])}")
                continue
            out.append(Param(E.python_name(p["id"]), str(p.get("type", "")), str(p.get("doc", "")).strip(),
                             p.get("-lc-default"), p.get("enum")))
        return out

    def build_instance(self, schema: Schema, t: TypeDef, iname, iraw, seen: dict) -> Instance:
        py = join_ypath(t.ypath, f"instances.{iname}")
        if not isinstance(iname, str) or not LOWER_SNAKE.match(iname):
            self.report(schema, py, f"an instance's name is lower_snake, not {yaml_text(iname)}")
        iname = E.python_name(str(iname))
        self.declare(schema, seen, str(iname), py, py)
        if not isinstance(iraw, dict):
            self.fail(schema, py, "an instance is a mapping")
        doc = str(iraw.get("doc", "")).strip()
        if "value" in iraw:
            for key in iraw:
                if key not in VALUE_INSTANCE_KEYS and not is_vendor_key(key):
                    self.report(schema, join_ypath(py, str(key)), "unknown key for a value instance"
                                + did_you_mean(str(key), VALUE_INSTANCE_KEYS))
            inst = Instance(str(iname), py, doc, self.expr(schema, py + ".value", iraw["value"]), iraw.get("enum"),
                            input=bool(iraw.get("-lc-input", False)),
                            if_expr=self.expr(schema, py + ".if", iraw["if"]) if "if" in iraw else None)
        else:
            inst = self.parse_instance(schema, py, str(iname), iraw, doc)
        inst.owner = t
        return inst

    def parse_instance(self, schema: Schema, py: str, iname: str, iraw: dict, doc: str) -> Instance:
        """An instance without a `value` reads what it says, as a field does: at `pos` of its
        stream, or without `pos` where that stream is when the instance is first read (Kaitai
        neither seeks nor comes back then)."""
        if not any(key in iraw for key in PARSE_INSTANCE_KEYS):
            self.fail(schema, py, "an instance has a value, or says what to read: "
                      + ", ".join(f"`{key}`" for key in sorted(PARSE_INSTANCE_KEYS)))
        if self.strict:  # our codecs read a positional instance once, in its type's own stream
            for key in ("repeat", "if", "io"):
                if key in iraw:
                    self.report(schema, join_ypath(py, key), f"`{key}` on a positional instance is not supported "
                                "in schemas/")
            if "pos" not in iraw:
                self.report(schema, py, "an instance read where the stream is (no `pos`) is not supported in schemas/")
        spec = {k: v for k, v in iraw.items() if k not in ("pos", "io")}
        f = self.build_field(schema, {"id": iname, **spec}, py)
        return Instance(iname, py, doc, None, pos=self.expr(schema, py + ".pos", iraw["pos"]) if "pos" in iraw else None,
                        field=f, io=self.expr(schema, py + ".io", iraw["io"]) if "io" in iraw else None)

    def build_enum(self, schema: Schema, name, members, ypath: str, owner: TypeDef) -> Enum:
        """An enum: lower_snake names, each member an id (or a mapping with `id`), no id twice."""
        if not isinstance(name, str) or not LOWER_SNAKE.match(name):
            self.report(schema, ypath, f"an enum's name is lower_snake, not {yaml_text(name)}")
        if not isinstance(members, dict):
            self.report(schema, ypath, "an enum maps values to member ids")
            return Enum(str(name), {}, owner)
        values, seen = {}, {}
        for key, v in members.items():
            mp = join_ypath(ypath, str(key))
            member = v.get("id") if isinstance(v, dict) else v
            if isinstance(member, bool):  # `0x31: true`, `0: on`: YAML reads a boolean, Kaitai names it so
                member = "true" if member else "false"
            if not isinstance(member, str) or not LOWER_SNAKE.match(member):
                self.report(schema, mp, f"a member id is lower_snake, not {yaml_text(member)}")
            elif member in seen:
                self.report(schema, mp, f"duplicate member id {member!r} (also {yaml_text(seen[member])})")
            elif not _is_integer(key):
                self.report(schema, mp, f"an enum's key is an integer, not {yaml_text(key)}")
            else:
                values[int(key)] = E.python_name(member)
                seen[member] = key
        return Enum(str(name), values, owner)

    def build_field(self, schema: Schema, raw: dict, ypath: str) -> Field:
        sp = schema.path
        if not isinstance(raw, dict):
            self.fail(sp, ypath, "a seq entry is a mapping")
        for key in raw:
            if not is_vendor_key(key) and key not in FIELD_KEYS:
                self.report(sp, join_ypath(ypath, str(key)), "unknown key (not in the Kaitai subset logcodec implements)"
                            + did_you_mean(str(key), FIELD_KEYS))
        fid = raw.get("id")
        if fid is None and not self.strict and ypath.rsplit(".", 1)[-1].startswith("seq["):
            fid = "_unnamed" + ypath.rsplit("[", 1)[-1].rstrip("]")  # as Kaitai names a field without id
        elif not isinstance(fid, str) or not LOWER_SNAKE.match(fid):
            self.report(sp, join_ypath(ypath, "id"), "needs a lower_snake id")
            fid = fid if isinstance(fid, str) else "_unnamed" + ypath.rsplit("[", 1)[-1].rstrip("]")
        fid = E.python_name(fid)
        if self.strict and not raw.get("doc"):
            self.report(sp, join_ypath(ypath, "doc"), "every field needs a `doc` (house rule of schemas/)")
        bad = set()  # the keys whose expressions do not parse

        def ex(key):
            if key not in raw:
                return None
            parsed = self.expr(sp, join_ypath(ypath, key), raw[key])
            if parsed is None:
                bad.add(key)
            return parsed

        f = Field(
            id=fid, ypath=ypath, doc=str(raw.get("doc", "")).strip(), doc_ref=doc_ref(raw.get("doc-ref")),
            type=TypeRef("bytes"), size=ex("size"), size_eos=bool(raw.get("size-eos", False)),
            if_expr=ex("if"), repeat=raw.get("repeat", ""), repeat_expr=ex("repeat-expr"),
            repeat_until=ex("repeat-until"), default=ex("-lc-default"), count_of=ex("-lc-count-of"),
            absent=raw.get("-lc-absent"), present=raw.get("-lc-present"),
            partial_tail=bool(raw.get("-lc-partial-tail", False)),
            filled_remotely=bool(raw.get("-lc-derived", False)), parent=ex("parent"), keyed=raw.get("-lc-keyed"),
        )
        f._raw_type = raw.get("type")  # resolved later, once all types are known
        self.terminated(sp, ypath, raw, f)
        f._raw_enum = raw.get("enum")
        f._encoding = raw.get("encoding", "")
        self.repetition(sp, ypath, f, bad)
        if "contents" in raw:
            f.contents = self.contents(sp, join_ypath(ypath, "contents"), raw["contents"])
        if "process" in raw:
            f.process = self.process(sp, join_ypath(ypath, "process"), raw["process"])
        if "valid" in raw:
            f.valid = self.valid(sp, ypath, raw)
        if "-lc-size-of" in raw:
            so = raw["-lc-size-of"]
            if isinstance(so, str):
                f.size_of = (so, so)
            elif isinstance(so, dict):
                f.size_of = (so.get("from"), so.get("to"))
            else:
                self.report(sp, join_ypath(ypath, "-lc-size-of"), "names a field, or a range {from, to}")
        if "-lc-checksum" in raw:
            ck = raw["-lc-checksum"]
            if not isinstance(ck, dict) or ck.get("algorithm") not in CHECKSUMS:
                self.report(sp, join_ypath(ypath, "-lc-checksum.algorithm"), f"one of {sorted(CHECKSUMS)}")
            else:
                f.checksum = {"algorithm": ck["algorithm"], "from": ck.get("from"), "to": ck.get("to")}
        f.broken = bool(bad)
        return f

    def terminated(self, sp: str, ypath: str, raw: dict, f: Field) -> None:
        """`terminator`, `consume`, `include`, `eos-error` and `pad-right` (Kaitai's defaults:
        consumed, not included, an error at the end of the stream)."""
        for key, attr in (("consume", "consume"), ("include", "include"), ("eos-error", "eos_error")):
            if key in raw and not isinstance(raw[key], bool):
                self.report(sp, join_ypath(ypath, key), "is true or false")
            elif key in raw:
                setattr(f, attr, raw[key])
        for key in ("terminator", "pad-right"):
            if key in raw and not (isinstance(raw[key], int) and 0 <= raw[key] <= 255):
                self.report(sp, join_ypath(ypath, key), "is a byte value, 0 to 255")
            elif key == "terminator" and key in raw:
                f.terminator = bytes([raw["terminator"]])
            elif key in raw:
                f.pad_right = raw[key]
        if f.terminator is not None and f.pad_right == f.terminator[0]:
            f.pad_right = None  # as Kaitai's compiler: padding of the terminator's byte is cut at it, not stripped

    def repetition(self, sp: str, ypath: str, f: Field, bad: set) -> None:
        """`repeat` and the key that goes with it."""
        if f.repeat not in ("", "expr", "eos", "until"):
            return self.report(sp, join_ypath(ypath, "repeat"), "repeat is expr, eos or until")
        for key, kind, given in (("repeat-expr", "expr", f.repeat_expr), ("repeat-until", "until", f.repeat_until)):
            if given is not None and f.repeat != kind:
                self.report(sp, join_ypath(ypath, key), f"{key} goes with `repeat: {kind}`"
                            + (f", not `repeat: {f.repeat}`" if f.repeat else ""))
            if given is None and f.repeat == kind and key not in bad:
                self.report(sp, join_ypath(ypath, "repeat"), f"`repeat: {kind}` needs {key}")

    def contents(self, sp: str, ypath: str, given) -> bytes | None:
        """Kaitai's `contents`: text (its UTF-8 bytes), or a list of byte values and texts."""
        if not isinstance(given, list):
            return str(given).encode()
        out = b""
        for part in given:
            if isinstance(part, str):
                out += part.encode()
            elif isinstance(part, int) and 0 <= part <= 255:
                out += bytes([part])
            else:
                return self.report(sp, ypath, f"contents are text, or a list of byte values and texts, not {yaml_text(part)}")
        return out

    def process(self, sp: str, ypath: str, given) -> tuple | None:
        m = re.match(r"^([a-z_][a-z0-9_]*(?:\.[a-z_][a-z0-9_]*)*)(?:\((.*)\))?$", str(given).strip())
        if not m:
            return self.report(sp, ypath, "expected name(args)")
        # A user's schema may name its own (a Python module on the path, as for Kaitai's parsers).
        if processors.module_of(m.group(1)) is None and self.strict:
            self.report(sp, ypath, f"unsupported processor {m.group(1)!r}: logcodec has "
                        + ", ".join(sorted(processors.named())))
        return m.group(1), [self.expr(sp, ypath, a) for a in split_args(m.group(2) or "")]

    def valid(self, sp: str, ypath: str, raw: dict) -> dict:
        v = raw["valid"] if isinstance(raw["valid"], dict) else {"eq": raw["valid"]}
        rules = {}
        for k, val in v.items():
            vp = join_ypath(ypath, f"valid.{k}")
            if k not in ("eq", "min", "max", "any-of", "expr", "in-enum"):
                self.report(sp, vp, "valid takes eq, min, max, any-of, in-enum or expr")
            elif k == "in-enum" and (val is not True or "enum" not in raw):
                self.report(sp, vp, "in-enum is `true`, on a field with an enum")
            elif k == "in-enum":
                rules[k] = E.Bool(True)
            elif k == "any-of" and not isinstance(val, list):
                self.report(sp, vp, "any-of is a list of values")
            elif k == "any-of":
                rules[k] = [self.expr(sp, vp, x) for x in val]
            else:
                rules[k] = self.expr(sp, vp, val)
        return rules

    def expr(self, schema_path, ypath: str, text):
        """An expression's tree; None (after saying so) when it does not parse."""
        if text is None or isinstance(text, (dict, list)):  # (YAML hands over text, numbers and booleans)
            return self.report(schema_path, ypath, f"an expression is text or a number, not {yaml_text(text)}")
        try:
            return E.parse(text)
        except E.ExprError as exc:
            self.report(schema_path, ypath, f"bad expression: {exc}")
            return None


def _encoding(meta: dict, parent: TypeDef | None) -> str:
    """A type's default text encoding: its meta's, else its enclosing type's (Kaitai fills a
    type's meta in from the type it is written in: endian, bit-endian and encoding alike)."""
    own = meta.get("encoding")
    if own is not None:
        return own  # (not text: a str field that reads it says so)
    return parent.encoding if parent is not None else ""


def _entries(section) -> list:
    """The entries of a mapping section (`types`, `enums`, `instances`); none of anything else
    (the key's own check reports it)."""
    return list(section.items()) if isinstance(section, dict) else []


def _items(section) -> list:
    """The items of a list section (`seq`, `params`)."""
    return section if isinstance(section, list) else []


def _is_integer(key) -> bool:
    try:
        int(key)
        return True
    except (TypeError, ValueError):
        return False


def doc_ref(value) -> str:
    """`doc-ref`: one reference, or a list of them (joined with spaces)."""
    if isinstance(value, list):
        return " ".join(map(str, value))
    return str(value or "")
