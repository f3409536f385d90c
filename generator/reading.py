"""Reading `.ksy` files into the IR (`schema.py`): the loader.

The loader reads a file, checks every key against the Kaitai subset we implement plus our
`-lc-` extensions and parses every expression into the IR; `resolve.py` then resolves type and
enum references with Kaitai's scoping and checks the names each expression reads. Every
problem is one line naming the file, the line, the column and the YAML path of the offending
key (`problems.py`), e.g. ``kafka/record_batch_v2.ksy:40:9: types.record.seq[4].size: ...``;
the loader goes on past a problem wherever it can, so that a run reports them all.
"""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path

import yaml

from logcodec import processors

from . import expr as E
from .problems import (ERROR, Marks, Problem, SchemaError, errors, in_order, problem, read_yaml, yaml_problem,
                       yaml_text)
from .resolve import Resolver
from .schema import BUILTIN_TYPE, Enum, Field, Instance, Param, Schema, Stop, TypeDef, TypeRef, did_you_mean, is_vendor_key, join_ypath, split_args

# ---------------------------------------------------------------- loading

_META_KEYS = {"application", "bit-endian", "encoding", "endian", "file-extension", "id", "imports", "ks-debug",
              "ks-opaque-types", "ks-version", "ks-zero-copy-substream", "license", "tags", "title", "xref",
              "-lc-fills-input"}
_KS_VERSION = (0, 11)  # the language this generator implements

_ID = re.compile(r"^[a-z][a-z0-9_]*$")

_FIELD_KEYS = {
    "id", "type", "size", "size-eos", "if", "repeat", "repeat-expr", "repeat-until", "process",
    "valid", "enum", "contents", "encoding", "doc", "doc-ref",
    "terminator", "consume", "include", "eos-error", "pad-right", "parent",
    "-lc-size-of", "-lc-count-of", "-lc-absent", "-lc-checksum", "-lc-default", "-lc-present",
    "-lc-partial-tail", "-lc-derived",
}
_TYPE_KEYS = {"meta", "doc", "doc-ref", "to-string", "params", "seq", "instances", "types", "enums", "-lc-unwrap",
              "-lc-primitive"}
_CHECKSUMS = {"crc32c", "crc32"}
_VALUE_INSTANCE_KEYS = {"value", "enum", "if", "doc", "doc-ref", "-lc-input"}
# What a parse instance may read (any of them, without `value`, makes one)
_PARSE_INSTANCE_KEYS = {"pos", "io", "type", "size", "size-eos", "terminator", "contents"}


class Loader:
    """Loads schema files from a root folder, caching each by relative path.

    `strict` (this repository's house rules, for `schemas/`): a `doc` on every type and field,
    and a file named by its `meta/id`. Without a `package`, a schema's family is the first
    folder of its path and it compiles to `logcodec.generated.<family>.<id>`; with one (a
    user's schemas, `logcodec compile`), every schema compiles to `<package>.<id>`. Imports are
    looked up beside the importing file, then in each of `include` (Kaitai's import path);
    absolute ones (`/common/x`) in the root, then in `include`.

    The loader goes on past a problem wherever what follows still makes sense (an unknown key,
    a bad type name, a bad expression), so that one run reports them all (`problems`); it gives
    up on a field, a type or a file only where nothing after would (`Stop`).
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
        self.names: dict[Path, str] = {}  # a file (absolute) -> its rel, once it has one (`name_of`)
        self.loading: list[str] = []  # the chain of imports being loaded, to refuse a cycle
        self.problems: list[Problem] = []  # every problem found, in the order found
        self.noted: set[Problem] = set()
        self.marks: dict[str, Marks] = {}  # rel -> where each YAML path of that file is written
        self.imports_of: dict[str, list[str]] = {}  # rel -> the files it imports, read or not

    def report(self, schema_path, ypath: str | None, message: str) -> None:
        """Note a problem at `ypath` of a file (a schema, or its path) and go on. A problem found
        again (in each byte order of a type whose byte order is chosen at run time) is noted once."""
        rel = schema_path.path if isinstance(schema_path, Schema) else schema_path
        found = problem(self.marks.get(rel, Marks()), rel, ypath, message)
        if found not in self.noted:
            self.noted.add(found)
            self.problems.append(found)

    def fail(self, schema_path, ypath: str | None, message: str):
        """Note a problem and give up on what is being read (`Stop`)."""
        self.report(schema_path, ypath, message)
        raise Stop

    def locate(self, rel: str) -> Path:
        """The file of `rel`: where it was found before, else under the root, else under the first
        include folder that has it."""
        if rel in self.found_in:
            return self.found_in[rel] / rel
        for folder in [self.root, *self.include]:
            if (folder / rel).is_file():
                self.found_in[rel] = folder
                return folder / rel
        return self.root / rel  # reading it fails with a message naming it

    def name_of(self, file: Path, home: Path) -> str:
        """The name a file is loaded under: the one it has if it was named before (one file is read
        once, however imported), else its path relative to `home` (the folder of the schema that
        imports it), the root or the include folder that holds it, else relative to the root with
        `..` (a file imported from beside a schema, above the folder of the schemas given)."""
        file = Path(os.path.normpath(os.path.abspath(file)))
        if file in self.names:
            return self.names[file]
        for folder in [home, self.root, *self.include]:
            folder = Path(os.path.normpath(os.path.abspath(folder)))
            if file.is_relative_to(folder):
                rel = file.relative_to(folder).as_posix()
                break
        else:
            folder, rel = self.root, Path(os.path.relpath(file, os.path.abspath(self.root))).as_posix()
        self.found_in.setdefault(rel, folder)
        self.names[file] = rel
        return rel

    def load(self, rel: str) -> Schema:
        """A schema and the schemas it imports, resolved; SchemaError with every problem of them."""
        return self.load_each([rel])[0]

    def load_each(self, rels: list[str]) -> list[Schema]:
        """Each of these schemas (and those they import); SchemaError with every problem of them."""
        for rel in rels:
            self.read(rel)
        found = errors(self.problems_in(rels))
        if found:
            raise SchemaError(in_order(found))
        return [self.loaded[rel.replace("\\", "/")] for rel in rels]

    def problems_in(self, rels: list[str]) -> list[Problem]:
        """The problems of these files and of every file they import."""
        files = self.closure(rels)
        return [p for p in self.problems if p.file in files]

    def closure(self, rels: list[str]) -> set[str]:
        """These files and every file they import, directly or not (read or not)."""
        files, todo = set(), [rel.replace("\\", "/") for rel in rels]
        while todo:
            rel = todo.pop()
            if rel not in files:
                files.add(rel)
                todo.extend(self.imports_of.get(rel, ()))
        return files

    def read(self, rel: str) -> Schema | None:
        """A schema and those it imports, resolved as far as their problems (noted in `problems`)
        allow; None when the file is no schema at all (missing, not YAML, not a mapping)."""
        rel = rel.replace("\\", "/")
        if rel in self.loaded:
            return self.loaded[rel]
        path = self.locate(rel)
        self.names.setdefault(Path(os.path.normpath(os.path.abspath(path))), rel)
        try:
            text = path.read_bytes()
        except OSError as exc:
            return self.report(rel, None, f"cannot read: {exc}")
        try:
            raw, self.marks[rel] = read_yaml(text)
        except yaml.YAMLError as exc:  # one line: where, and what the parser found there
            line, column, found = yaml_problem(exc, text)
            self.problems.append(Problem(ERROR, rel, line, column, None, f"not valid YAML: {found}"))
            return None
        if not isinstance(raw, dict):
            return self.report(rel, "", "a schema is a mapping with a `meta` section (`/`, the top of the file, is not)")
        if not isinstance(raw.get("meta"), dict):
            return self.report(rel, "meta", "a schema is a mapping with a `meta` section")
        meta = raw["meta"]
        self.check_meta(rel, meta)
        sid = self.schema_id(rel, meta)
        family = self.package or rel.split("/")[0]
        module = f"{self.package}.{sid}" if self.package else f"logcodec.generated.{family}.{sid}"
        shown = self.shown_prefix + rel if self.found_in.get(rel, self.root) == self.root else rel
        schema = Schema(
            path=rel, family=family, id=sid, module=module, shown=shown, strict=self.strict,
            title=str(meta.get("title", sid)),
            doc=str(raw.get("doc", "")).strip(), doc_ref=_doc_ref(raw.get("doc-ref")), raw=raw,
            sha256=hashlib.sha256(text).hexdigest(), source=str(path), marks=self.marks[rel],
            fills_input=meta.get("-lc-fills-input") is True,
        )
        self.loaded[rel] = schema
        self.loading.append(rel)
        # Its types first: a schema that imports this one back (a cycle) finds them while it resolves.
        schema.root = self.type_or_stand_in(schema, sid, raw, "", None, meta)
        self.read_imports(schema, meta)
        self.loading.pop()

        Resolver(self, schema).resolve()
        return schema

    def schema_id(self, rel: str, meta: dict) -> str:
        """The schema's `meta/id` (its file's name where that is no id, after saying so)."""
        sid = meta.get("id")
        if not isinstance(sid, str) or not _ID.match(sid):
            self.report(rel, "meta.id", "needs a lower_snake id")
            stem = Path(rel).stem
            return stem if _ID.match(stem) else "schema"
        if self.strict and Path(rel).stem != sid:
            self.report(rel, "meta.id", f"must match the file name ({Path(rel).stem})")
        return sid

    def read_imports(self, schema: Schema, meta: dict) -> None:
        """`meta/imports` (and the opaque types found beside it), each read in turn."""
        rel = schema.path
        listed = meta.get("imports", []) if isinstance(meta.get("imports", []), list) else []
        imports = [(f"meta.imports[{i}]", imp) for i, imp in enumerate(listed)]
        imports += [("meta.ks-opaque-types", name) for name in self.opaque_types(schema)]
        self.imports_of[rel] = []
        for ypath, imp in imports:
            if not isinstance(imp, str):
                self.report(rel, ypath, "an import is a path without `.ksy`")
                continue
            target = self.import_target(rel, imp)
            if target not in self.loaded and not self.locate(target).is_file():
                self.report(rel, ypath, f"no schema {imp!r} to import ({target} beside it, or in an import folder)")
                continue
            if target in self.loading and self.strict:  # our modules do not import each other
                self.report(rel, ypath, "circular imports are not supported in schemas/: "
                            + " -> ".join([*self.loading[self.loading.index(target):], target]))
                continue
            self.imports_of[rel].append(target)
            imported = self.read(target)
            if imported is not None:
                schema.imports.append(imported)
                imported.importers.append(schema)

    def check_meta(self, rel: str, meta: dict) -> None:
        """The keys of `meta` and the values only the loader reads (Kaitai's rules)."""
        for key in meta:
            if key not in _META_KEYS and not is_vendor_key(key):
                self.report(rel, f"meta.{key}", "unknown key" + did_you_mean(str(key), _META_KEYS))
        if "-lc-fills-input" in meta and not isinstance(meta["-lc-fills-input"], bool):
            self.report(rel, "meta.-lc-fills-input", "is true or false")
        if "bit-endian" in meta and meta["bit-endian"] not in ("le", "be"):
            self.report(rel, "meta.bit-endian", "is `le` or `be`")
        if "imports" in meta and not isinstance(meta["imports"], list):
            self.report(rel, "meta.imports", "is a list of paths")
        if "ks-version" in meta:
            given = meta["ks-version"]
            if isinstance(given, (str, int, float)) and not isinstance(given, bool):
                self.check_version(rel, str(given))
            else:
                self.report(rel, "meta.ks-version", f"{yaml_text(given)} is no version (X.Y or X.Y.Z)")

    def check_version(self, rel: str, text: str) -> None:
        if not re.fullmatch(r"(0|[1-9][0-9]*)(\.(0|[1-9][0-9]*)){1,2}", text):
            return self.report(rel, "meta.ks-version", f"{text!r} is no version (X.Y or X.Y.Z; quote it, or YAML "
                               "reads 0.10 as 0.1)")
        version = tuple(int(x) for x in text.split("."))
        if version < (0, 6):
            self.report(rel, "meta.ks-version", f"{text} is below 0.6, the oldest Kaitai language (quote "
                        "'0.10', or YAML reads it as 0.1)")
        if version[:2] > _KS_VERSION:
            self.report(rel, "meta.ks-version", f"needs Kaitai Struct {text}; logcodec implements "
                        f"{'.'.join(map(str, _KS_VERSION))}")

    def opaque_types(self, schema: Schema) -> list[str]:
        """`ks-opaque-types: true`: a type named nowhere in the schema is another one's root, as
        Kaitai's parsers take it from the target language; logcodec reads it from `<name>.ksy`
        beside the schema (or in an import folder), as if imported."""
        if self.strict or schema.raw["meta"].get("ks-opaque-types") is not True:
            return []
        listed = schema.raw["meta"].get("imports", [])
        known = {t.name for t in schema.root.walk()} | {Path(str(i)).name for i in
                                                         (listed if isinstance(listed, list) else [])}
        wanted = []
        for t in schema.root.walk():
            for f in [*t.seq, *(i.field for i in t.instances if i.field is not None)]:
                raw = f._raw_type
                names = list(raw.get("cases", {}).values()) if isinstance(raw, dict) else [raw] if raw else []
                for name in names:
                    base = str(name).split("(")[0].strip()
                    if (re.match(r"^[a-z][a-z0-9_]*$", base) and base not in known and base not in wanted
                            and not BUILTIN_TYPE.match(base)
                            and self.locate(self.import_target(schema.path, base)).is_file()):
                        wanted.append(base)
        return wanted

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
                    doc_ref=_doc_ref(raw.get("doc-ref")), endian=parent.endian if parent else None,
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

    def import_target(self, rel: str, imp: str) -> str:
        """The name (`name_of`) of the file an import names: an absolute one from the top of the
        root or of an include folder; a relative one beside the importing file when it is there,
        wherever that is, else from the top of an include folder (Kaitai looks in the importer's
        folder, then in the import path)."""
        if imp.startswith("/"):
            wanted = _normalise(imp[1:]) + ".ksy"
            folder = next((f for f in [self.root, *self.include] if (f / wanted).is_file()), None)
            return self.name_of(folder / wanted, folder) if folder else wanted
        beside = self.locate(rel).parent / f"{imp}.ksy"
        if beside.is_file() or not any((f / (_normalise(imp) + ".ksy")).is_file() for f in self.include):
            return self.name_of(beside, self.found_in.get(rel, self.root))
        return _normalise(imp) + ".ksy"

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
            if not is_vendor_key(key) and key not in _TYPE_KEYS:
                self.report(schema, join_ypath(ypath, str(key)), "unknown key (not in the Kaitai subset logcodec "
                            "implements)" + did_you_mean(str(key), _TYPE_KEYS))
        if self.strict and not raw.get("doc"):
            self.report(schema, join_ypath(ypath, "doc"), "every type needs a `doc` (house rule of schemas/)")
        t = TypeDef(
            name=name, ypath=ypath, schema=schema, parent=parent,
            doc=str(raw.get("doc", "")).strip(), doc_ref=_doc_ref(raw.get("doc-ref")),
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
            if not isinstance(tname, str) or not _ID.match(tname):
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
            if not isinstance(p.get("id"), str) or not _ID.match(p["id"]):
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
        if not isinstance(iname, str) or not _ID.match(iname):
            self.report(schema, py, f"an instance's name is lower_snake, not {yaml_text(iname)}")
        iname = E.python_name(str(iname))
        self.declare(schema, seen, str(iname), py, py)
        if not isinstance(iraw, dict):
            self.fail(schema, py, "an instance is a mapping")
        doc = str(iraw.get("doc", "")).strip()
        if "value" in iraw:
            for key in iraw:
                if key not in _VALUE_INSTANCE_KEYS and not is_vendor_key(key):
                    self.report(schema, join_ypath(py, str(key)), "unknown key for a value instance"
                                + did_you_mean(str(key), _VALUE_INSTANCE_KEYS))
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
        if not any(key in iraw for key in _PARSE_INSTANCE_KEYS):
            self.fail(schema, py, "an instance has a value, or says what to read: "
                      + ", ".join(f"`{key}`" for key in sorted(_PARSE_INSTANCE_KEYS)))
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
        if not isinstance(name, str) or not _ID.match(name):
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
            if not isinstance(member, str) or not _ID.match(member):
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
            if not is_vendor_key(key) and key not in _FIELD_KEYS:
                self.report(sp, join_ypath(ypath, str(key)), "unknown key (not in the Kaitai subset logcodec implements)"
                            + did_you_mean(str(key), _FIELD_KEYS))
        fid = raw.get("id")
        if fid is None and not self.strict and ypath.rsplit(".", 1)[-1].startswith("seq["):
            fid = "_unnamed" + ypath.rsplit("[", 1)[-1].rstrip("]")  # as Kaitai names a field without id
        elif not isinstance(fid, str) or not _ID.match(fid):
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
            if not isinstance(ck, dict) or ck.get("algorithm") not in _CHECKSUMS:
                self.report(sp, join_ypath(ypath, "-lc-checksum.algorithm"), f"one of {sorted(_CHECKSUMS)}")
            else:
                f.checksum = {"algorithm": ck["algorithm"], "from": ck.get("from"), "to": ck.get("to")}
        f.broken = bool(bad)
        return f

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


def _doc_ref(value) -> str:
    if isinstance(value, list):
        return " ".join(map(str, value))
    return str(value or "")


def _normalise(path: str) -> str:
    """A path without `.` and with each `..` applied; a `..` above the path's start is kept."""
    parts: list[str] = []
    for part in path.split("/"):
        if part == ".." and parts and parts[-1] != "..":
            parts.pop()
        elif part not in ("", "."):
            parts.append(part)
    return "/".join(parts)


def load_all(root: Path) -> list[Schema]:
    """Every format schema under `root`, skipping `common/` (imported building blocks);
    SchemaError with every problem of loading them."""
    return [s for s in Loader(root).load_each(schema_files(root)) if not s.path.startswith("common/")]


def schema_files(root: Path) -> list[str]:
    """Every `.ksy` under `root`, relative to it."""
    return [path.relative_to(root).as_posix() for path in sorted(Path(root).rglob("*.ksy"))]
