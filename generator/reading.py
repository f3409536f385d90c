"""Reading `.ksy` files into the IR (`schema.py`): the loader.

The loader reads a file and the files it imports, checks every key against the Kaitai subset we
implement plus our `-lc-` extensions (`vocabulary.py`) and reads its types, fields and instances,
every expression parsed, into the IR (`definitions.py`); `resolve.py` then resolves type and enum
references with Kaitai's scoping and checks the names each expression reads. Every
problem is one line naming the file, the line, the column and the YAML path of the offending
key (`problems.py`), e.g. ``kafka/record_batch_v2.ksy:40:9: types.record.seq[4].size: ...``;
the loader goes on past a problem wherever it can, so that a run reports them all.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import yaml

from .definitions import DefinitionReader, doc_ref
from .message_specs.documents import frame_rels, spec_documents
from .problems import (
    ERROR,
    Marks,
    Problem,
    SchemaError,
    errors,
    in_order,
    problem,
    read_yaml,
    yaml_problem,
)
from .resolve import Resolver
from .schema import BUILTIN_TYPE, Schema, Stop
from .vocabulary import LOWER_SNAKE, check_meta


class Loader(DefinitionReader):
    """Loads schema files from a root folder, caching each by relative path.

    `strict` (this repository's house rules, for `schemas/`): a `doc` on every type and field,
    and a file named by its `meta/id`. Without a `package`, a schema's family is the first
    folder of its path and it compiles to `logcodec.generated.<folder>.<id>`, its folder's path
    dotted (`kafka`, `kafka.messages`); with one (a user's schemas, `logcodec compile`), every
    schema compiles to `<package>.<id>`. `documents` are schemas that are no file (another front
    end's translation: Kafka's message specs), their YAML text by the path they are read as. Imports are
    looked up beside the importing file, then in each of `include` (Kaitai's import path);
    absolute ones (`/common/x`) in the root, then in `include`.

    The loader goes on past a problem wherever what follows still makes sense (an unknown key,
    a bad type name, a bad expression), so that one run reports them all (`problems`); it gives
    up on a field, a type or a file only where nothing after would (`Stop`).
    """

    def __init__(self, root: Path, *, strict: bool = True, include: tuple = (), package: str | None = None,
                 shown_prefix: str = "schemas/", documents: dict[str, bytes] | None = None) -> None:
        self.root = Path(root)
        self.documents = dict(documents or {})
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
        if rel in self.documents:
            return self.root / rel
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
            text = self.documents[rel] if rel in self.documents else path.read_bytes()
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
        check_meta(self.report, rel, meta)
        sid = self.schema_id(rel, meta)
        family = self.package or rel.split("/")[0]
        folder = self.package or rel.rpartition("/")[0] or family
        module = f"{self.package}.{sid}" if self.package else f"logcodec.generated.{folder.replace('/', '.')}.{sid}"
        shown = self.shown_prefix + rel if self.found_in.get(rel, self.root) == self.root else rel
        schema = Schema(
            path=rel, family=family, folder=folder, id=sid, module=module, shown=shown, strict=self.strict,
            title=str(meta.get("title", sid)),
            doc=str(raw.get("doc", "")).strip(), doc_ref=doc_ref(raw.get("doc-ref")), raw=raw,
            sha256=hashlib.sha256(text).hexdigest(), source=str(path), text=text.decode("utf-8", "replace"),
            marks=self.marks[rel],
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
        if not isinstance(sid, str) or not LOWER_SNAKE.match(sid):
            self.report(rel, "meta.id", "needs a lower_snake id")
            stem = Path(rel).stem
            return stem if LOWER_SNAKE.match(stem) else "schema"
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
            if target not in self.loaded and target not in self.documents and not self.locate(target).is_file():
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
                    if (LOWER_SNAKE.match(base) and base not in known and base not in wanted
                            and not BUILTIN_TYPE.match(base)
                            and self.locate(self.import_target(schema.path, base)).is_file()):
                        wanted.append(base)
        return wanted

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
    """Every format schema under `root`, skipping `common/` (imported building blocks), the
    frames of its message specs too (`formats_under`); SchemaError with every problem of loading them."""
    rels, documents = formats_under(root)
    return [s for s in Loader(root, documents=documents).load_each(rels) if not s.path.startswith("common/")]


def formats_under(root: Path) -> tuple[list[str], dict[str, bytes]]:
    """The schemas under `root` that are formats, by path (`common/` too, which the caller leaves
    out), and the schemas of its message specs, which are no file (`message_specs.documents`:
    their frames are formats), by path."""
    documents = spec_documents(root)
    return schema_files(root) + frame_rels(documents), documents


def schema_files(root: Path) -> list[str]:
    """Every `.ksy` under `root`, relative to it."""
    return [path.relative_to(root).as_posix() for path in sorted(Path(root).rglob("*.ksy"))]
