"""Load `.ksy` schemas into the intermediate representation (IR).

The loader checks every key against the Kaitai subset we implement plus our
`-lc-` extensions, resolves type and enum references with Kaitai's scoping
(nested types, then enclosing ones, then imported files), parses every
expression and checks the names it reads. Every error names the file and the
YAML path of the offending key, e.g. ``kafka/record_batch_v2.ksy: types.record.seq[4].size: ...``.
"""

from __future__ import annotations

import codecs
import difflib
import hashlib
import re
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from logcodec import processors

from . import expr as E


class SchemaError(Exception):
    """A schema is malformed; the message names the file and the YAML path."""


# ---------------------------------------------------------------- the IR


@dataclass
class Enum:
    name: str
    members: dict[int, str]
    owner: "TypeDef"


@dataclass
class TypeRef:
    """What a field holds: exactly one of the kinds below."""

    kind: str  # "int" | "bits" | "float" | "bytes" | "str" | "user" | "switch"
    size: int = 0  # bytes for int/float, bits for bits
    signed: bool = False
    endian: str = "be"
    encoding: str = ""
    user: "TypeDef | None" = None
    args: tuple = ()  # parsed expressions for a user type's params
    switch_on: object = None
    switch_text: str = ""  # the switch-on expression as the schema writes it, for messages
    cases: list = field(default_factory=list)  # [(expr AST, TypeRef)]; default case has expr None


@dataclass
class Field:
    id: str
    ypath: str
    doc: str
    doc_ref: str
    type: TypeRef
    size: object = None  # expression
    size_eos: bool = False
    if_expr: object = None
    repeat: str = ""  # "" | "expr" | "eos" | "until"
    repeat_expr: object = None
    repeat_until: object = None
    process: tuple | None = None  # (name, [arg expressions])
    valid: dict | None = None  # {"eq"|"min"|"max"|"any-of"|"expr": expression(s)}
    enum: Enum | None = None
    contents: bytes | None = None
    # -lc- write-side meaning
    size_of: tuple | None = None  # (first field id, last field id or None = end of type)
    count_of: object = None  # expression naming a repeated field
    absent: int | None = None
    checksum: dict | None = None  # {"algorithm", "from", "to"}
    default: object = None  # expression
    present: str | None = None  # -lc-present: this flag says whether that (conditional) field is there
    partial_tail: bool = False  # -lc-partial-tail: a repeat-eos whose last element may be cut short
    filled_remotely: bool = False  # -lc-derived: a length another type's sized field reads, filled by its encoder
    # bytes and strings: read up to a terminator (or cut a sized field at one), strip padding
    terminator: bytes | None = None  # one byte, or a unit of zeros for `strz` in UTF-16/32
    consume: bool = True  # the terminator is skipped (else the next field starts with it)
    include: bool = False  # the terminator is part of the value
    eos_error: bool = True  # no terminator before the end is an error (else the value runs to the end)
    pad_right: int | None = None  # a sized field's trailing padding byte, stripped from the value
    parent: object = None  # Kaitai's `parent:`: what a user type sees as `_parent` (false: nothing)
    no_case: str = ""  # a switch no case matches is this error (else null, in a user's schema)

    def expressions(self, write_side: bool = False) -> list:
        """The expressions a decoder evaluates for this field (and with `write_side`, those only
        an encoder does: -lc-default and -lc-count-of)."""
        exprs = [self.size, self.if_expr, self.repeat_expr, self.repeat_until, self.type.switch_on, *self.type.args,
                 *(a for _, c in self.type.cases for a in c.args), *(self.process[1] if self.process else ()),
                 *(v for rule in (self.valid or {}).values() for v in (rule if isinstance(rule, list) else [rule]))]
        if write_side:
            exprs += [self.default, self.count_of]
        return [e for e in exprs if e is not None]

    @property
    def derived(self) -> bool:
        """The encoder can compute this field when the value leaves it out."""
        return bool(self.size_of or self.count_of is not None or self.checksum or self.default is not None
                    or self.present or self.filled_remotely)


@dataclass
class Instance:
    id: str
    ypath: str
    doc: str
    value: object  # expression (value instances)
    enum: Enum | None = None
    pos: object = None  # expression (positional instances): where to read, from the start of the type
    field: "Field | None" = None  # what to read there (positional instances)
    input: bool = False  # -lc-input: also part of the value the encoder reads (the wire fields derive from it)
    owner: "TypeDef | None" = None  # the type it belongs to (its expression's scope)
    if_expr: object = None  # a value instance's `if`: null when false
    io: object = None  # a positional instance's `io`: the stream it is read from (a user's schema)


@dataclass
class Param:
    id: str
    type_name: str
    doc: str
    default: object = None  # -lc-default: a literal, for the root type's decode(..., name=default)
    enum: object = None  # an integer param's enum: its name, then (resolved) the Enum


@dataclass
class TypeDef:
    name: str
    ypath: str
    schema: "Schema"
    parent: "TypeDef | None"
    doc: str = ""
    doc_ref: str = ""
    endian: str = "be"
    bit_endian: str = "be"
    params: list[Param] = field(default_factory=list)
    seq: list[Field] = field(default_factory=list)
    instances: list[Instance] = field(default_factory=list)
    types: dict[str, "TypeDef"] = field(default_factory=dict)
    enums: dict[str, Enum] = field(default_factory=dict)
    unwrap: bool = False
    primitive: dict | None = None

    def __repr__(self) -> str:
        return f"<TypeDef {self.schema.path}:{self.name}>"

    @property
    def class_name(self) -> str:
        return "".join(part.capitalize() for part in self.name.split("_"))

    def walk(self):
        yield self
        for sub in self.types.values():
            yield from sub.walk()

    def field(self, fid: str) -> Field | None:
        return next((f for f in self.seq if f.id == fid), None)


@dataclass
class Schema:
    path: str  # relative to the schemas root (or its import folder), e.g. "kafka/record_batch_v2.ksy"
    family: str
    id: str
    module: str  # the Python module it compiles to, e.g. "logcodec.generated.kafka.record_batch_v2"
    shown: str  # where it came from, for generated files' headers, e.g. "schemas/kafka/record_batch_v2.ksy"
    strict: bool  # this repository's rules: also, a sized structure must fill its size exactly
    title: str
    doc: str
    doc_ref: str
    raw: dict
    sha256: str
    root: TypeDef = None  # type: ignore[assignment]
    imports: list["Schema"] = field(default_factory=list)
    source: str = ""  # the file it was read from

    def __repr__(self) -> str:
        return f"<Schema {self.path}>"

    @property
    def format_name(self) -> str:
        return f"{self.family}.{self.id}"

    def all_types(self):
        yield from self.root.walk()


# ---------------------------------------------------------------- loading

class _NoDuplicates(yaml.SafeLoader):
    """YAML that refuses a key given twice in one mapping (PyYAML keeps the last one)."""

    def construct_mapping(self, node, deep=False):
        seen = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=deep)
            if isinstance(key, (str, int, float, bool)) and key in seen:
                raise yaml.constructor.ConstructorError(
                    None, None, f"duplicate key {key!r}", key_node.start_mark)
            seen.add(key) if isinstance(key, (str, int, float, bool)) else None
        return super().construct_mapping(node, deep)


_META_KEYS = {"application", "bit-endian", "encoding", "endian", "file-extension", "id", "imports", "ks-debug",
              "ks-opaque-types", "ks-version", "ks-zero-copy-substream", "license", "tags", "title", "xref"}
_KS_VERSION = (0, 11)  # the language this generator implements

_ID = re.compile(r"^[a-z][a-z0-9_]*$")
_BUILTIN_TYPE = re.compile(r"^([us][1248](be|le)?|f[48](be|le)?|b[0-9]+(be|le)?|str|strz|bytes)$")
_INT = re.compile(r"^([us])([1248])(be|le)?$")
_BITS = re.compile(r"^b([1-9][0-9]?)(be|le)?$")
_FLOAT = re.compile(r"^f([48])(be|le)?$")

_FIELD_KEYS = {
    "id", "type", "size", "size-eos", "if", "repeat", "repeat-expr", "repeat-until", "process",
    "valid", "enum", "contents", "encoding", "doc", "doc-ref",
    "terminator", "consume", "include", "eos-error", "pad-right", "parent",
    "-lc-size-of", "-lc-count-of", "-lc-absent", "-lc-checksum", "-lc-default", "-lc-present",
    "-lc-partial-tail", "-lc-derived",
}
_TYPE_KEYS = {"meta", "doc", "doc-ref", "params", "seq", "instances", "types", "enums", "-lc-unwrap", "-lc-primitive"}
_CHECKSUMS = {"crc32c", "crc32"}
_VALUE_INSTANCE_KEYS = {"value", "enum", "if", "doc", "doc-ref", "-lc-input"}


class Loader:
    """Loads schema files from a root folder, caching each by relative path.

    `strict` (this repository's house rules, for `schemas/`): a `doc` on every type and field,
    and a file named by its `meta/id`. Without a `package`, a schema's family is the first
    folder of its path and it compiles to `logcodec.generated.<family>.<id>`; with one (a
    user's schemas, `logcodec compile`), every schema compiles to `<package>.<id>`. Imports are
    looked up beside the importing file, then in each of `include` (Kaitai's import path);
    absolute ones (`/common/x`) in the root, then in `include`.
    """

    def __init__(self, root: Path, *, strict: bool = True, include: tuple = (), package: str | None = None,
                 shown_prefix: str = "schemas/") -> None:
        self.root = Path(root)
        self.strict = strict
        self.include = [Path(p) for p in include]
        self.package = package
        self.shown_prefix = shown_prefix
        self.loaded: dict[str, Schema] = {}
        self.found_in: dict[str, Path] = {}  # rel -> the folder it was found in (root or an include folder)
        self.loading: list[str] = []  # the chain of imports being loaded, to refuse a cycle

    def fail(self, schema_path: str, ypath: str, message: str):
        raise SchemaError(f"{schema_path}: {ypath or '(top)'}: {message}")

    def locate(self, rel: str) -> Path:
        """The file of `rel`: under the root, else under the first include folder that has it."""
        for folder in [self.root, *self.include]:
            if (folder / rel).is_file():
                self.found_in[rel] = folder
                return folder / rel
        return self.root / rel  # reading it fails with a message naming it

    def load(self, rel: str) -> Schema:
        rel = rel.replace("\\", "/")
        if rel in self.loaded:
            return self.loaded[rel]
        path = self.locate(rel)
        try:
            text = path.read_bytes()
        except OSError as exc:
            raise SchemaError(f"{rel}: cannot read: {exc}") from None
        try:
            raw = yaml.load(text, Loader=_NoDuplicates)  # noqa: S506 (a SafeLoader)
        except yaml.YAMLError as exc:  # one line: where, and what the parser found there
            mark = getattr(exc, "problem_mark", None)
            where = f":{mark.line + 1}:{mark.column + 1}" if mark is not None else ""
            problem = " ".join(str(getattr(exc, "problem", None) or exc).split())
            raise SchemaError(f"{rel}{where}: not valid YAML: {problem}") from None
        if not isinstance(raw, dict):
            self.fail(rel, "/", "a schema is a mapping with a `meta` section (`/` is the top of the file)")
        if not isinstance(raw.get("meta"), dict):
            self.fail(rel, "meta", "a schema is a mapping with a `meta` section")
        meta = raw["meta"]
        self.check_meta(rel, meta)
        sid = meta.get("id")
        if not isinstance(sid, str) or not _ID.match(sid):
            self.fail(rel, "meta.id", "needs a lower_snake id")
        if self.strict and Path(rel).stem != sid:
            self.fail(rel, "meta.id", f"must match the file name ({Path(rel).stem})")
        family = self.package or rel.split("/")[0]
        module = f"{self.package}.{sid}" if self.package else f"logcodec.generated.{family}.{sid}"
        shown = self.shown_prefix + rel if self.found_in.get(rel, self.root) == self.root else rel
        schema = Schema(
            path=rel, family=family, id=sid, module=module, shown=shown, strict=self.strict,
            title=str(meta.get("title", sid)),
            doc=str(raw.get("doc", "")).strip(), doc_ref=_doc_ref(raw.get("doc-ref")), raw=raw,
            sha256=hashlib.sha256(text).hexdigest(), source=str(path),
        )
        self.loaded[rel] = schema
        self.loading.append(rel)
        # Its types first: a schema that imports this one back (a cycle) finds them while it resolves.
        schema.root = self.build_type(schema, sid, raw, "", None, meta)
        imports = [(f"meta.imports[{i}]", imp) for i, imp in enumerate(meta.get("imports", []) or [])]
        imports += [("meta.ks-opaque-types", name) for name in self.opaque_types(schema)]
        for ypath, imp in imports:
            if not isinstance(imp, str):
                self.fail(rel, ypath, "an import is a path without `.ksy`")
            target = self.import_target(rel, imp)
            if target not in self.loaded and not self.locate(target).is_file():
                self.fail(rel, ypath, f"no schema {imp!r} to import ({target} beside it, or in an import folder)")
            if target in self.loading and self.strict:  # our modules do not import each other
                self.fail(rel, ypath, "circular imports are not supported in schemas/: "
                          + " -> ".join([*self.loading[self.loading.index(target):], target]))
            schema.imports.append(self.load(target))
        self.loading.pop()
        Resolver(self, schema).resolve()
        return schema

    def check_meta(self, rel: str, meta: dict) -> None:
        """The keys of `meta` and the values only the loader reads (Kaitai's rules)."""
        for key in meta:
            if key not in _META_KEYS and not _vendor_key(key):
                self.fail(rel, f"meta.{key}", "unknown key" + did_you_mean(key, _META_KEYS))
        if "bit-endian" in meta and meta["bit-endian"] not in ("le", "be"):
            self.fail(rel, "meta.bit-endian", "is `le` or `be`")
        if "imports" in meta and not isinstance(meta["imports"], list):
            self.fail(rel, "meta.imports", "is a list of paths")
        if "ks-version" in meta:
            text = str(meta["ks-version"])
            if not re.fullmatch(r"(0|[1-9][0-9]*)(\.(0|[1-9][0-9]*)){1,2}", text):
                self.fail(rel, "meta.ks-version", f"{text!r} is no version (X.Y or X.Y.Z; quote it, or YAML reads "
                          "0.10 as 0.1)")
            version = tuple(int(x) for x in text.split("."))
            if version < (0, 6):
                self.fail(rel, "meta.ks-version", f"{text} is below 0.6, the oldest Kaitai language (quote "
                          "'0.10', or YAML reads it as 0.1)")
            if version[:2] > _KS_VERSION:
                self.fail(rel, "meta.ks-version", f"needs Kaitai Struct {text}; logcodec implements "
                          f"{'.'.join(map(str, _KS_VERSION))}")

    def opaque_types(self, schema: Schema) -> list[str]:
        """`ks-opaque-types: true`: a type named nowhere in the schema is another one's root, as
        Kaitai's parsers take it from the target language; logcodec reads it from `<name>.ksy`
        beside the schema (or in an import folder), as if imported."""
        if self.strict or schema.raw["meta"].get("ks-opaque-types") is not True:
            return []
        known = {t.name for t in schema.root.walk()} | {Path(str(i)).name for i in schema.raw["meta"].get("imports", [])}
        wanted = []
        for t in schema.root.walk():
            for f in [*t.seq, *(i.field for i in t.instances if i.field is not None)]:
                raw = f._raw_type
                names = list(raw.get("cases", {}).values()) if isinstance(raw, dict) else [raw] if raw else []
                for name in names:
                    base = str(name).split("(")[0].strip()
                    if (re.match(r"^[a-z][a-z0-9_]*$", base) and base not in known and base not in wanted
                            and not _BUILTIN_TYPE.match(base)
                            and self.locate(self.import_target(schema.path, base)).is_file()):
                        wanted.append(base)
        return wanted

    def endian(self, schema: Schema, ypath: str, meta: dict, parent) -> str | None:
        """A type's default byte order: its meta's, else its parent's; None when nobody says (a
        multi-byte number must then say it itself, as in Kaitai)."""
        if "endian" not in meta:
            return parent.endian if parent else None
        if meta["endian"] not in ("be", "le"):
            self.fail(schema.path, _join(ypath, "meta.endian"), "byte order chosen at run time (switch-on) is not "
                      "supported yet; `be` or `le`")
        return meta["endian"]

    def endian_chosen_at_run_time(self, schema: Schema, name: str, raw: dict, ypath: str, parent, meta: dict) -> TypeDef:
        """`meta/endian` with `switch-on`: the type is built once per byte order (`name__le`,
        `name__be`, with the types inside that inherit it), and `name` reads the one its
        switch chooses, as an unwrapped type: its value is the chosen one's. The chosen type
        sees the same `_parent` and params."""
        rule = meta["endian"]
        ep = _join(ypath, "meta.endian")
        cases = rule.get("cases")
        if set(rule) - {"switch-on", "cases"} or "switch-on" not in rule or not isinstance(cases, dict):
            self.fail(schema.path, ep, "is `le`, `be`, or switch-on with cases of `le` and `be`")
        for key, order in cases.items():
            if order not in ("le", "be"):
                self.fail(schema.path, _join(ep, f"cases.{key}"), f"a byte order is `le` or `be`, not {order!r}")
        t = TypeDef(name=name, ypath=ypath, schema=schema, parent=parent, doc=str(raw.get("doc", "")).strip(),
                    doc_ref=_doc_ref(raw.get("doc-ref")), endian=parent.endian if parent else None,
                    bit_endian=meta.get("bit-endian", parent.bit_endian if parent else "be"), unwrap=True)
        for i, p in enumerate(raw.get("params", []) or []):
            t.params.append(Param(str(p.get("id", "")), str(p.get("type", "")), str(p.get("doc", "")).strip()))
        args = f"({', '.join(p.id for p in t.params)})" if t.params else ""
        for order in ("le", "be"):
            variant = self.build_type(schema, f"{name}__{order}", raw, ypath, t, {**meta, "endian": order})
            t.types[variant.name] = variant
        f = Field(id="endian", ypath=ep, doc=t.doc, doc_ref="", type=TypeRef("bytes"), parent=E.Name("_parent"),
                  no_case="no byte order matches (meta.endian)")
        f._raw_type = {"switch-on": rule["switch-on"], "cases": {k: f"{name}__{v}{args}" for k, v in cases.items()}}
        f._raw_enum, f._encoding = None, ""
        t.seq.append(f)
        return t

    def terminated(self, sp: str, ypath: str, raw: dict, f: Field) -> None:
        """`terminator`, `consume`, `include`, `eos-error` and `pad-right` (Kaitai's defaults:
        consumed, not included, an error at the end of the stream)."""
        for key, attr in (("consume", "consume"), ("include", "include"), ("eos-error", "eos_error")):
            if key in raw:
                if not isinstance(raw[key], bool):
                    self.fail(sp, _join(ypath, key), "is true or false")
                setattr(f, attr, raw[key])
        for key in ("terminator", "pad-right"):
            if key in raw and not (isinstance(raw[key], int) and 0 <= raw[key] <= 255):
                self.fail(sp, _join(ypath, key), "is a byte value, 0 to 255")
        if "terminator" in raw:
            f.terminator = bytes([raw["terminator"]])
        f.pad_right = raw.get("pad-right")
        if f.terminator is not None and f.pad_right == f.terminator[0]:
            f.pad_right = None  # as Kaitai's compiler: padding of the terminator's byte is cut at it, not stripped

    def import_target(self, rel: str, imp: str) -> str:
        """The path an import names: beside the importing file when it is there, else from the
        top of the root or of an include folder (Kaitai looks in the importer's folder, then
        in the import path)."""
        if imp.startswith("/"):
            return _normalise(imp[1:]) + ".ksy"
        beside = _normalise((Path(rel).parent / imp).as_posix()) + ".ksy"
        home = self.found_in.get(rel, self.root)
        if (home / beside).is_file() or not any((f / (_normalise(imp) + ".ksy")).is_file() for f in self.include):
            return beside
        return _normalise(imp) + ".ksy"

    def build_type(self, schema: Schema, name: str, raw: dict, ypath: str, parent, meta: dict) -> TypeDef:
        if not isinstance(raw, dict):
            self.fail(schema.path, ypath, "a type is a mapping")
        if isinstance(meta.get("endian"), dict) and not self.strict:
            return self.endian_chosen_at_run_time(schema, name, raw, ypath, parent, meta)
        for key in raw:
            if _vendor_key(key):
                continue
            if key not in _TYPE_KEYS:
                self.fail(schema.path, _join(ypath, key), "unknown key (not in the Kaitai subset logcodec implements)"
                          + did_you_mean(key, _TYPE_KEYS))
        if self.strict and not raw.get("doc"):
            self.fail(schema.path, _join(ypath, "doc"), "every type needs a `doc` (house rule of schemas/)")
        t = TypeDef(
            name=name, ypath=ypath, schema=schema, parent=parent,
            doc=str(raw.get("doc", "")).strip(), doc_ref=_doc_ref(raw.get("doc-ref")),
            endian=self.endian(schema, ypath, meta, parent),
            bit_endian=meta.get("bit-endian", parent.bit_endian if parent else "be"),
            unwrap=bool(raw.get("-lc-unwrap", False)), primitive=raw.get("-lc-primitive"),
        )
        for i, p in enumerate(raw.get("params", []) or []):
            py = _join(ypath, f"params[{i}]")
            if not _ID.match(str(p.get("id", ""))):
                self.fail(schema.path, _join(py, "id"), "a param needs a lower_snake id")
            t.params.append(Param(p["id"], str(p.get("type", "")), str(p.get("doc", "")).strip(), p.get("-lc-default"),
                                  p.get("enum")))
        for ename, members in (raw.get("enums") or {}).items():
            t.enums[ename] = self.build_enum(schema, ename, members, _join(ypath, f"enums.{ename}"), t)
        for tname, traw in (raw.get("types") or {}).items():
            if not _ID.match(tname):
                self.fail(schema.path, _join(ypath, f"types.{tname}"), "type names are lower_snake")
            tmeta = traw.get("meta") if isinstance(traw, dict) else None
            if tmeta is not None and not isinstance(tmeta, dict):
                self.fail(schema.path, _join(ypath, f"types.{tname}.meta"), "is a mapping")
            # A type's own meta (endian, bit-endian) holds for it and the types inside it.
            t.types[tname] = self.build_type(schema, tname, traw, _join(ypath, f"types.{tname}"), t, tmeta or {})
        seen = {}  # id -> where it was given: params, seq and instances share one namespace
        for i, p in enumerate(t.params):
            if p.id in seen:
                self.fail(schema.path, _join(ypath, f"params[{i}].id"), f"duplicate id {p.id!r} (also {seen[p.id]})")
            seen[p.id] = _join(ypath, f"params[{i}]")
        for i, fraw in enumerate(raw.get("seq", []) or []):
            f = self.build_field(schema, fraw, _join(ypath, f"seq[{i}]"))
            if f.id in seen:
                self.fail(schema.path, _join(f.ypath, "id"), f"duplicate id {f.id!r} (also {seen[f.id]})")
            seen[f.id] = f.ypath
            t.seq.append(f)
        for iname, iraw in (raw.get("instances") or {}).items():
            py = _join(ypath, f"instances.{iname}")
            if not isinstance(iname, str) or not _ID.match(iname):
                self.fail(schema.path, py, f"an instance's name is lower_snake, not {iname!r}")
            if iname in seen:
                self.fail(schema.path, py, f"duplicate id {iname!r} (also {seen[iname]})")
            seen[iname] = py
            if not isinstance(iraw, dict):
                self.fail(schema.path, py, "an instance is a mapping")
            doc = str(iraw.get("doc", "")).strip()
            if "pos" in iraw:
                if self.strict:  # our codecs read a positional instance once, in its type's own stream
                    for key in ("repeat", "if", "io"):
                        if key in iraw:
                            self.fail(schema.path, _join(py, key), f"`{key}` on a positional instance is not "
                                      "supported in schemas/")
                spec = {k: v for k, v in iraw.items() if k not in ("pos", "io")}
                f = self.build_field(schema, {"id": iname, **spec}, py)
                t.instances.append(Instance(iname, py, doc, None, pos=self.expr(schema, py + ".pos", iraw["pos"]), field=f,
                                            io=self.expr(schema, py + ".io", iraw["io"]) if "io" in iraw else None))
            elif "value" in iraw:
                for key in iraw:
                    if key not in _VALUE_INSTANCE_KEYS and not _vendor_key(key):
                        self.fail(schema.path, _join(py, key), "unknown key for a value instance"
                                  + did_you_mean(key, _VALUE_INSTANCE_KEYS))
                t.instances.append(Instance(iname, py, doc, self.expr(schema, py + ".value", iraw["value"]), iraw.get("enum"),
                                            input=bool(iraw.get("-lc-input", False)),
                                            if_expr=self.expr(schema, py + ".if", iraw["if"]) if "if" in iraw else None))
            else:
                self.fail(schema.path, py, "an instance has a value or a pos")
            t.instances[-1].owner = t
        if t.unwrap and len(t.seq) != 1:
            self.fail(schema.path, _join(ypath, "-lc-unwrap"), "an unwrapped type has exactly one seq field")
        return t

    def build_enum(self, schema: Schema, name, members, ypath: str, owner: TypeDef) -> Enum:
        """An enum: lower_snake names, each member an id (or a mapping with `id`), no id twice."""
        if not isinstance(name, str) or not _ID.match(name):
            self.fail(schema.path, ypath, f"an enum's name is lower_snake, not {name!r}")
        if not isinstance(members, dict):
            self.fail(schema.path, ypath, "an enum maps values to member ids")
        values, seen = {}, {}
        for key, v in members.items():
            mp = _join(ypath, str(key))
            member = v.get("id") if isinstance(v, dict) else v
            if isinstance(member, bool) or not isinstance(member, str) or not _ID.match(member):
                self.fail(schema.path, mp, f"a member id is lower_snake, not {member!r}")
            if member in seen:
                self.fail(schema.path, mp, f"duplicate member id {member!r} (also {seen[member]})")
            try:
                values[int(key)] = member
            except (TypeError, ValueError):
                self.fail(schema.path, mp, f"an enum's key is an integer, not {key!r}")
            seen[member] = key
        return Enum(name, values, owner)

    def build_field(self, schema: Schema, raw: dict, ypath: str) -> Field:
        sp = schema.path
        if not isinstance(raw, dict):
            self.fail(sp, ypath, "a seq entry is a mapping")
        for key in raw:
            if _vendor_key(key):
                continue
            if key not in _FIELD_KEYS:
                self.fail(sp, _join(ypath, key), "unknown key (not in the Kaitai subset logcodec implements)"
                          + did_you_mean(key, _FIELD_KEYS))
        fid = raw.get("id")
        if fid is None and not self.strict and ypath.rsplit(".", 1)[-1].startswith("seq["):
            fid = "_unnamed" + ypath.rsplit("[", 1)[-1].rstrip("]")  # as Kaitai names a field without id
        elif not isinstance(fid, str) or not _ID.match(fid):
            self.fail(sp, _join(ypath, "id"), "needs a lower_snake id")
        if self.strict and not raw.get("doc"):
            self.fail(sp, _join(ypath, "doc"), "every field needs a `doc` (house rule of schemas/)")
        ex = lambda key: self.expr(sp, _join(ypath, key), raw[key]) if key in raw else None  # noqa: E731
        f = Field(
            id=fid, ypath=ypath, doc=str(raw.get("doc", "")).strip(), doc_ref=_doc_ref(raw.get("doc-ref")),
            type=TypeRef("bytes"), size=ex("size"), size_eos=bool(raw.get("size-eos", False)),
            if_expr=ex("if"), repeat=raw.get("repeat", ""), repeat_expr=ex("repeat-expr"),
            repeat_until=ex("repeat-until"), default=ex("-lc-default"), count_of=ex("-lc-count-of"),
            absent=raw.get("-lc-absent"), present=raw.get("-lc-present"),
            partial_tail=bool(raw.get("-lc-partial-tail", False)),
            filled_remotely=bool(raw.get("-lc-derived", False)), parent=ex("parent"),
        )
        f._raw_type = raw.get("type")  # resolved later, once all types are known
        self.terminated(sp, ypath, raw, f)
        f._raw_enum = raw.get("enum")
        f._encoding = raw.get("encoding", "")
        if f.repeat not in ("", "expr", "eos", "until"):
            self.fail(sp, _join(ypath, "repeat"), "repeat is expr, eos or until")
        for key, kind, given in (("repeat-expr", "expr", f.repeat_expr), ("repeat-until", "until", f.repeat_until)):
            if given is not None and f.repeat != kind:
                self.fail(sp, _join(ypath, key), f"{key} goes with `repeat: {kind}`"
                          + (f", not `repeat: {f.repeat}`" if f.repeat else ""))
            if given is None and f.repeat == kind:
                self.fail(sp, _join(ypath, "repeat"), f"`repeat: {kind}` needs {key}")
        if "contents" in raw:
            c = raw["contents"]
            f.contents = bytes(c) if isinstance(c, list) else str(c).encode()
        if "process" in raw:
            m = re.match(r"^([a-z_][a-z0-9_]*(?:\.[a-z_][a-z0-9_]*)*)(?:\((.*)\))?$", str(raw["process"]).strip())
            if not m:
                self.fail(sp, _join(ypath, "process"), "expected name(args)")
            # A user's schema may name its own (a Python module on the path, as for Kaitai's parsers).
            if processors.module_of(m.group(1)) is None and self.strict:
                self.fail(sp, _join(ypath, "process"), f"unsupported processor {m.group(1)!r}: logcodec has "
                          + ", ".join(sorted(processors.named())))
            args = [self.expr(sp, _join(ypath, "process"), a) for a in _split_args(m.group(2) or "")]
            f.process = (m.group(1), args)
        if "valid" in raw:
            v = raw["valid"]
            v = v if isinstance(v, dict) else {"eq": v}
            f.valid = {}
            for k, val in v.items():
                if k not in ("eq", "min", "max", "any-of", "expr", "in-enum"):
                    self.fail(sp, _join(ypath, f"valid.{k}"), "valid takes eq, min, max, any-of, in-enum or expr")
                vp = _join(ypath, f"valid.{k}")
                if k == "in-enum":
                    if val is not True or "enum" not in raw:
                        self.fail(sp, vp, "in-enum is `true`, on a field with an enum")
                    f.valid[k] = E.Bool(True)
                    continue
                f.valid[k] = [self.expr(sp, vp, x) for x in val] if k == "any-of" else self.expr(sp, vp, val)
        if "-lc-size-of" in raw:
            so = raw["-lc-size-of"]
            f.size_of = (so, so) if isinstance(so, str) else (so.get("from"), so.get("to"))
        if "-lc-checksum" in raw:
            ck = raw["-lc-checksum"]
            if ck.get("algorithm") not in _CHECKSUMS:
                self.fail(sp, _join(ypath, "-lc-checksum.algorithm"), f"one of {sorted(_CHECKSUMS)}")
            f.checksum = {"algorithm": ck["algorithm"], "from": ck.get("from"), "to": ck.get("to")}
        return f

    def expr(self, schema_path, ypath: str, text):
        try:
            return E.parse(text)
        except E.ExprError as exc:
            where = schema_path.path if isinstance(schema_path, Schema) else schema_path  # some callers pass the schema
            self.fail(where, ypath, f"bad expression: {exc}")


class Resolver:
    """Second pass: resolve type and enum names, check names used in expressions."""

    def __init__(self, loader: Loader, schema: Schema) -> None:
        self.loader, self.schema = loader, schema

    def fail(self, ypath, message):
        self.loader.fail(self.schema.path, ypath, message)

    def resolve(self) -> None:
        for t in self.schema.root.walk():
            for f in t.seq:
                self.resolve_field(t, f)
            for inst in t.instances:
                if inst.field is not None:
                    self.resolve_field(t, inst.field)
                    inst.enum = inst.field.enum
                elif inst.enum:
                    inst.enum = self.find_enum(t, inst.enum, _join(inst.ypath, "enum"))
            for i, p in enumerate(t.params):
                base = p.type_name.strip().removesuffix("[]")
                if base and not _BUILTIN_TYPE.match(base) and base not in ("bool", "struct", "io", "any") \
                        and lookup_type(t, base)[0] is None:
                    self.fail(_join(t.ypath, f"params[{i}].type"), f"unknown type {base!r}"
                              + did_you_mean(base, self.visible_types(t)))
                if isinstance(p.enum, str):
                    p.enum = self.find_enum(t, p.enum, _join(t.ypath, f"params[{i}].enum"))
            if not t.primitive:
                self.check_names(t)
        self.disambiguate()

    def disambiguate(self) -> None:
        """Types of one name nested in different types (Kaitai nests their classes) get the
        names of the types around them, one module holding them all side by side: `main::foo_obj`
        becomes `main__foo_obj` (class `MainFooObj`). Lookups go by the types' keys, not these."""
        by_name: dict[str, list[TypeDef]] = {}
        for t in self.schema.root.walk():
            by_name.setdefault(t.name, []).append(t)
        for same in by_name.values():
            if len(same) > 1 and not self.schema.strict:
                for t in same:
                    if t.parent is not None:
                        t.name = f"{t.parent.name}__{t.name}"

    def resolve_field(self, t: TypeDef, f: Field) -> None:
        raw = f._raw_type
        if raw is None:
            f.type = TypeRef("bytes")
            if f.size is None and not f.size_eos and f.contents is None and f.terminator is None:
                self.fail(f.ypath, "a byte field needs size, size-eos or a terminator")
        elif isinstance(raw, dict):
            for key in raw:
                if key not in ("switch-on", "cases") and not _vendor_key(key):
                    self.fail(_join(f.ypath, f"type.{key}"), "unknown key (a switch has switch-on and cases)")
            if "switch-on" not in raw:
                self.fail(_join(f.ypath, "type"), "a switch needs switch-on")
            if not isinstance(raw.get("cases"), dict) or not raw["cases"]:
                self.fail(_join(f.ypath, "type.cases" if "cases" in raw else "type"), "a switch needs cases, a mapping "
                          "of values to types")
            on = self.loader.expr(self.schema.path, _join(f.ypath, "type.switch-on"), raw.get("switch-on"))
            cases = []
            for key, tname in (raw.get("cases") or {}).items():
                k = None if key == "_" else self.loader.expr(self.schema.path, _join(f.ypath, f"type.cases.{key}"), key)
                cases.append((k, self.type_ref(t, f, str(tname))))
            f.type = TypeRef("switch", switch_on=on, switch_text=str(raw.get("switch-on")), cases=cases)
        else:
            f.type = self.type_ref(t, f, str(raw))
        if f._raw_enum:
            f.enum = self.find_enum(t, f._raw_enum, _join(f.ypath, "enum"))
            if f.type.kind not in ("int", "bits"):
                self.fail(_join(f.ypath, "enum"), f"an enum names integers, not a {f.type.kind} field")
        if (f.terminator is not None or f.pad_right is not None) and f.type.kind not in ("bytes", "str", "user", "switch"):
            self.fail(_join(f.ypath, "terminator" if f.terminator is not None else "pad-right"),
                      f"bytes, text and structures end at a terminator or carry padding, not a {f.type.kind} field")
        if f.pad_right is not None and f.size is None and not f.size_eos:
            self.fail(_join(f.ypath, "pad-right"), "padding needs a size (or size-eos)")
        if (f.terminator is not None and f.process and f.size is None and not f.size_eos
                and f.type.kind in ("bytes", "str")):
            self.fail(_join(f.ypath, "terminator"), "bytes or text up to a terminator, processed, are not supported "
                      "yet (give the field a size, or a type)")
        for key in ("size_of",):
            so = f.size_of
            if so:
                for end in so:
                    if end is not None and t.field(end) is None:
                        self.fail(_join(f.ypath, "-lc-size-of"), f"no field {end!r} in this type")
        if f.present and t.field(f.present) is None:
            self.fail(_join(f.ypath, "-lc-present"), f"no field {f.present!r} in this type")
        if f.partial_tail:
            self.check_partial_tail(t, f)
        if f.checksum:
            for end in (f.checksum["from"], f.checksum["to"]):
                if end is not None and t.field(end) is None:
                    self.fail(_join(f.ypath, "-lc-checksum"), f"no field {end!r} in this type")
        inner = f.type.user if f.type.kind == "user" else None
        if f.repeat and inner is not None and inner.unwrap and inner.seq[0].repeat:
            self.fail(_join(f.ypath, "repeat"), f"a list of {inner.name}, an unwrapped list, would be a list of "
                      "lists, which the value model does not have; do not unwrap that type")

    def check_partial_tail(self, t: TypeDef, f: Field) -> None:
        """The bytes of a cut-short last element must land somewhere: in the next field, the
        last of the type, which takes the rest of the input as bytes."""
        where = _join(f.ypath, "-lc-partial-tail")
        if f.repeat != "eos":
            self.fail(where, "only a `repeat: eos` field may end in a partial element")
        rest = t.seq[t.seq.index(f) + 1:]
        if len(rest) != 1 or not rest[0].size_eos or rest[0].type.kind != "bytes" or rest[0].if_expr is not None:
            self.fail(where, "the next field, the last of the type, must be bytes with `size-eos: true`"
                      " (it holds the partial element)")

    def type_ref(self, t: TypeDef, f: Field, name: str) -> TypeRef:
        if m := _INT.match(name):
            endian = m.group(3) or (t.endian if m.group(2) != "1" else "be")
            if endian is None:
                self.fail(_join(f.ypath, "type"), f"{name} needs a byte order: `{name}le`/`{name}be`, or meta/endian")
            return TypeRef("int", size=int(m.group(2)), signed=m.group(1) == "s", endian=endian)
        if m := _BITS.match(name):
            return TypeRef("bits", size=int(m.group(1)), endian=m.group(2) or t.bit_endian)
        if m := _FLOAT.match(name):
            if not (m.group(2) or t.endian):
                self.fail(_join(f.ypath, "type"), f"{name} needs a byte order: `{name}le`/`{name}be`, or meta/endian")
            return TypeRef("float", size=int(m.group(1)), endian=m.group(2) or t.endian)
        if name in ("str", "strz"):
            encoding = f._encoding or self.schema.raw["meta"].get("encoding", "")
            if not encoding:
                self.fail(f.ypath, "a str field needs an encoding (on the field or in meta)")
            try:
                codecs.lookup(encoding)
            except LookupError:
                # An instance of a user's schema is read when first used, as in Kaitai: reading
                # it is then the error (DecodeError), not compiling the schema.
                if self.schema.strict or ".instances." not in "." + f.ypath:
                    self.fail(_join(f.ypath, "encoding"), f"unknown encoding {encoding!r}")
            if name == "strz":  # terminated by a NUL of the encoding's code unit
                f.terminator = bytes(_unit_size(encoding))
            return TypeRef("str", encoding=encoding)
        if name in ("bytes",):
            return TypeRef("bytes")
        m = re.match(r"^([a-z_][a-z0-9_:]*)(?:\((.*)\))?$", name.strip(), re.S)  # args may span lines
        if not m:
            self.fail(_join(f.ypath, "type"), f"cannot read type {name!r}")
        user = self.find_type(t, m.group(1), _join(f.ypath, "type"))
        args = tuple(self.loader.expr(self.schema.path, _join(f.ypath, "type"), a) for a in _split_args(m.group(2) or ""))
        if len(args) != len(user.params):
            self.fail(_join(f.ypath, "type"), f"{user.name} takes {len(user.params)} params, given {len(args)}")
        return TypeRef("user", user=user, args=args)

    def find_type(self, t: TypeDef, name: str, ypath: str) -> TypeDef:
        found, missing = lookup_type(t, name)
        if found is None and missing == name.split("::")[0]:
            self.fail(ypath, f"unknown type {name!r}" + did_you_mean(missing, self.visible_types(t)))
        if found is None:
            self.fail(ypath, f"unknown type {name!r}: no type {missing!r} there")
        return found

    def visible_types(self, t: TypeDef) -> set[str]:
        names, scope = set(), t
        while scope is not None:
            names |= set(scope.types) | ({scope.name} if scope.parent is None else set())
            scope = scope.parent
        return names | {imp.id for imp in self.schema.imports}

    def find_enum(self, t: TypeDef, name: str, ypath: str) -> Enum:
        found = lookup_enum(t, name)
        if found is not None:
            return found
        visible, scope = set(), t
        while scope is not None:
            visible |= set(scope.enums)
            scope = scope.parent
        self.fail(ypath, f"unknown enum {name!r}" + did_you_mean(name, visible))

    def check_names(self, t: TypeDef) -> None:
        """Every name an expression reads is a field before it, a param, an instance or a special."""
        known = {p.id for p in t.params} | {i.id for i in t.instances} | {"_root", "_parent", "_io", "_sizeof", "true",
                                                                            "false"}
        for f in t.seq:
            in_loop = {"_index"} if f.repeat else set()  # a repeated field's element expressions may read _index
            for ypath, e, _ in field_sites(f):
                if ypath.endswith(("repeat-until", ".valid.expr")) or e is f.default or e is f.count_of:
                    continue  # `_` is the element; -lc- write rules read the whole value (below)
                for n in E.names(e):
                    if n not in known | in_loop and n != f.id:
                        self.fail(ypath, f"expression reads {n!r}, which is not a field before it, a param or an "
                                  "instance" + did_you_mean(n, known | {g.id for g in t.seq}))
            if f.repeat_until is not None:
                for n in E.names(f.repeat_until):
                    if n not in known | {"_", "_index", f.id}:
                        self.fail(_join(f.ypath, "repeat-until"), f"expression reads unknown {n!r}")
            known.add(f.id)
        # -lc-default and -lc-count-of may read any field, since they run on a complete value.
        all_names = known | {f.id for f in t.seq}
        for f in t.seq:
            for e in (f.default, f.count_of):
                for n in E.names(e) if e is not None else ():
                    if n not in all_names:
                        self.fail(f.ypath, f"expression reads unknown {n!r}")


def _join(base: str, key: str) -> str:
    if not base:
        return key
    return f"{base}{key}" if key.startswith("[") else f"{base}.{key}"


def lookup_type(t: TypeDef, name: str) -> tuple[TypeDef | None, str]:
    """The type a name means inside `t`, as Kaitai resolves it: the first part among the types
    nested in `t` and its enclosing types (or the schema's root), then the imported schemas;
    each further part (`a::b::c`) among the types nested in the one before. Returns the type, or
    None and the part that was not found."""
    head, *rest = name.split("::")
    found, scope = None, t
    while scope is not None and found is None:
        if head in scope.types:
            found = scope.types[head]
        elif scope.name == head and scope.parent is None:
            found = scope
        scope = scope.parent
    if found is None:
        found = next((imp.root for imp in t.schema.imports if imp.id == head), None)
    if found is None:
        return None, head
    for part in rest:
        if part not in found.types:
            return None, part
        found = found.types[part]
    return found, ""


def lookup_enum(t: TypeDef, name: str) -> "Enum | None":
    """The enum a name means inside `t`: a plain name in `t` and its enclosing types, a qualified
    one (`type::enum`, `imported_schema::enum`) in the type the path before its last part names."""
    *path, last = name.split("::")
    if path:
        owner, _ = lookup_type(t, "::".join(path))
        return owner.enums.get(last) if owner is not None else None
    scope = t
    while scope is not None:
        if last in scope.enums:
            return scope.enums[last]
        scope = scope.parent
    return None


def _vendor_key(key) -> bool:
    """Keys that start with `-` belong to other tools (`-webide-representation`), and Kaitai's
    compiler ignores them; ours (`-lc-`) are checked."""
    return isinstance(key, str) and key.startswith("-") and not key.startswith("-lc-")


def did_you_mean(name: str, known) -> str:
    """` (did you mean 'x'?)` for the closest known name, or nothing."""
    close = difflib.get_close_matches(name, sorted(known), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _unit_size(encoding: str) -> int:
    """Bytes of one code unit: 2 for UTF-16, 4 for UTF-32, else 1 (a NUL there ends a `strz`)."""
    name = encoding.upper().replace("_", "-")
    return 4 if name.startswith(("UTF-32", "UTF32")) else 2 if name.startswith(("UTF-16", "UTF16")) else 1


def _doc_ref(value) -> str:
    if isinstance(value, list):
        return " ".join(map(str, value))
    return str(value or "")


def _normalise(path: str) -> str:
    parts: list[str] = []
    for part in path.split("/"):
        if part == "..":
            parts.pop()
        elif part not in ("", "."):
            parts.append(part)
    return "/".join(parts)


def _split_args(text: str) -> list[str]:
    """Split `a, f(b, c), d` on top-level commas."""
    args, depth, cur = [], 0, ""
    for ch in text:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == "," and depth == 0:
            args.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        args.append(cur.strip())
    return args


def load_all(root: Path) -> list[Schema]:
    """Every format schema under `root`, skipping `common/` (imported building blocks)."""
    loader = Loader(root)
    out = []
    for path in sorted(Path(root).rglob("*.ksy")):
        rel = path.relative_to(root).as_posix()
        schema = loader.load(rel)
        if not rel.startswith("common/"):
            out.append(schema)
    return out


def static_bits(t: TypeDef, seen: frozenset = frozenset()) -> int | None:
    """A type's size in bits when the schema fixes it (Kaitai's `sizeof<>`, `_sizeof`): the sum
    of its seq fields' fixed sizes; None when any of them depends on the data."""
    if t.name in seen:
        return None
    total = 0
    for f in t.seq:
        bits = field_static_bits(f, seen | {t.name})
        if bits is None:
            return None
        total += bits
    return total


def field_static_bits(f: Field, seen: frozenset = frozenset()) -> int | None:
    """A field's size in bits when the schema fixes it, else None."""
    if f.if_expr is not None or f.repeat in ("eos", "until") or f.size_eos or f.terminator is not None:
        return None
    count = 1
    if f.repeat == "expr":
        if not isinstance(f.repeat_expr, E.Num):
            return None
        count = f.repeat_expr.value
    if f.size is not None:
        return count * f.size.value * 8 if isinstance(f.size, E.Num) else None
    if f.contents is not None:
        return count * len(f.contents) * 8
    ref = f.type
    if ref.kind in ("int", "float"):
        return count * ref.size * 8
    if ref.kind == "bits":
        return count * ref.size
    if ref.kind == "user" and not ref.user.primitive:
        inner = static_bits(ref.user, seen)
        return None if inner is None else count * inner
    return None


def field_sites(f: Field) -> list[tuple[str, object, object]]:
    """Every expression of a field with its YAML path and the type Kaitai wants of it: "bool",
    "int", ("valid", kind) compared with the element, "case" compared with the switch-on value,
    ("arg", type, index) passed as a param, or None."""
    sites = [(_join(f.ypath, "if"), f.if_expr, "bool"), (_join(f.ypath, "size"), f.size, "int"),
             (_join(f.ypath, "repeat-expr"), f.repeat_expr, "int"), (_join(f.ypath, "repeat-until"), f.repeat_until, "bool")]
    for kind, rule in (f.valid or {}).items():
        if kind == "any-of":
            sites += [(_join(f.ypath, f"valid.any-of[{i}]"), r, ("valid", kind)) for i, r in enumerate(rule)]
        elif kind != "in-enum":
            sites.append((_join(f.ypath, f"valid.{kind}"), rule, "bool" if kind == "expr" else ("valid", kind)))
    if f.type.kind == "switch":
        sites.append((_join(f.ypath, "type.switch-on"), f.type.switch_on, None))
        sites += [(_join(f.ypath, f"type.cases.{key}"), key, "case") for key, _ in f.type.cases if key is not None]
    for ref in [f.type, *(c for _, c in f.type.cases)]:
        sites += [(_join(f.ypath, "type"), a, ("arg", ref.user, i)) for i, a in enumerate(ref.args)]
    sites += [(_join(f.ypath, "process"), a, None) for a in (f.process[1] if f.process else ())]
    sites += [(_join(f.ypath, "parent"), f.parent, None), (f.ypath, f.default, None), (f.ypath, f.count_of, None)]
    return [(ypath, e, want) for ypath, e, want in sites if e is not None]


def type_sites(t: TypeDef) -> list[tuple[str, object, object, Field | None]]:
    """Every expression of a type: (YAML path, expression, wanted type, the field it belongs to)."""
    sites = [(*site, f) for f in t.seq for site in field_sites(f)]
    for inst in t.instances:
        sites += [(_join(inst.ypath, key), e, want, None) for key, e, want in
                  (("value", inst.value, None), ("pos", inst.pos, "int"), ("io", inst.io, None),
                   ("if", inst.if_expr, "bool"), ("enum", inst.value if inst.enum else None, "int")) if e is not None]
        if inst.field is not None:
            sites += [(*site, inst.field) for site in field_sites(inst.field)]
    return sites
