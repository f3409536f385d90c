"""What changed between two versions of a folder of `.ksy` schemas (`logcodec diff OLD NEW`), and
which golden vectors of OLD still decode to the same value under NEW.

Each schema is compared as written (its YAML), type by type: `seq` field by field, lined up by
position where the ids still do or only an id changed (a rename: names do not travel), by id
otherwise; `instances`, `params` and `enums` by name; `meta` for the byte and bit order, the
text encoding and whether the root fills its input. A change to what is read from the bytes (a field's type, size, condition,
repetition, contents, terminator, encoding, process, or `valid`, which decides what is taken) of
a type both versions have is wire-breaking, as is a field or type removed or added in a type
both have, a param changed, an enum member removed or renumbered, and a positioned instance
changed. Documentation and the `-lc-` keys that say how the encoder derives a value are reported
and break nothing; nor does a type, enum member or schema added.

Two folders of Kafka's message specs are compared by `message_specs.evolution`; which of the
shipped golden vectors of `kafka.request` and `kafka.response` still decode to the same value is
`spec_vectors_under_new`'s, each folder compiled as `logcodec compile` compiles one.
"""

from __future__ import annotations

import importlib
import json
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import yaml

from logcodec.runtime.errors import DecodeError, LogcodecError
from logcodec.runtime.values import to_json

from .changes import Change, json_ready, shown
from .compile import compile_schemas
from .message_specs.documents import shipped_family
from .problems import Problem, SchemaError, yaml_problem

#: Keys that do not change what is read (or are compared apart: `enum`, and `-lc-` keys).
UNREAD = frozenset({"doc", "doc-ref", "-orig-id", "id"})
#: The keys of `meta` that change what is read or taken (whether the root fills its input), and
#: those that change nothing of the bytes (the others, `imports`, are reported).
META_READ = frozenset({"endian", "bit-endian", "encoding", "-lc-fills-input"})
META_UNREAD = frozenset({"id", "title", "application", "file-extension", "xref", "license", "ks-version", "ks-debug",
                         "ks-opaque-types", "tags", "doc", "doc-ref"})


def schema_changes(old: Path, new: Path) -> list[Change]:
    """Every change from the `.ksy` schemas under `old` to those under `new`, file by file (by
    path), in order."""
    olds, news = _schemas(old), _schemas(new)
    out: list[Change] = []
    for rel in sorted(olds.keys() | news.keys()):
        a, b = olds.get(rel), news.get(rel)
        if b is None:
            out.append(Change(rel, (), "", "schema removed", True))
        elif a is None:
            out.append(Change(rel, (), "", "schema added", False))
        else:
            out += _schema(rel, a, b)
    return out


def _schemas(root: Path) -> dict[str, dict]:
    """Each `.ksy` under `root` as YAML, by its path; SchemaError naming every file that is not."""
    found, problems = {}, []
    for path in sorted(root.rglob("*.ksy")):
        rel = path.relative_to(root).as_posix()
        try:
            doc = yaml.safe_load(path.read_bytes())
        except yaml.YAMLError as exc:
            line, column, what = yaml_problem(exc, path.read_bytes())
            problems.append(Problem("error", f"{root.name}/{rel}", line, column, None, f"is not YAML: {what}"))
            continue
        found[rel] = doc if isinstance(doc, dict) else {}
    if problems:
        raise SchemaError(problems)
    return found


def _schema(rel: str, a: dict, b: dict) -> list[Change]:
    out = []
    ma, mb = a.get("meta") or {}, b.get("meta") or {}
    for key in sorted((ma.keys() | mb.keys()) - META_UNREAD):
        if _plain(ma.get(key)) != _plain(mb.get(key)):
            out.append(Change(rel, (), f"meta.{key}", f"{shown(ma.get(key))} -> {shown(mb.get(key))}",
                              key in META_READ))
    types_a, types_b = dict(_types(a, "")), dict(_types(b, ""))
    for name in sorted(types_a.keys() | types_b.keys(), key=lambda n: (n != "", n)):
        subject = f"{rel}:{name or a.get('meta', {}).get('id', 'root')}"
        ta, tb = types_a.get(name), types_b.get(name)
        if tb is None:
            out.append(Change(subject, (), "", "type removed", True))
        elif ta is None:
            out.append(Change(subject, (), "", "type added", False))
        else:
            out += [Change(subject, (), path, what, breaking) for path, what, breaking in _type(ta, tb)]
    return out


def _types(t: dict, at: str):
    """(path, type) of a type and every type nested in it: "" for the root, `a.b` for `types: a:
    types: b`."""
    yield at, t
    for name, inner in (t.get("types") or {}).items():
        if isinstance(inner, dict):
            yield from _types(inner, f"{at}.{name}" if at else str(name))


def _type(a: dict, b: dict) -> list[tuple[str, str, bool]]:
    out = []
    if _plain(a.get("params")) != _plain(b.get("params")):
        out.append(("params", "params changed", True))
    out += _seq(a.get("seq") or [], b.get("seq") or [])
    out += _by_name("instances", a.get("instances") or {}, b.get("instances") or {})
    for name in sorted((a.get("enums") or {}).keys() | (b.get("enums") or {}).keys()):
        out += _enum(f"enums.{name}", (a.get("enums") or {}).get(name), (b.get("enums") or {}).get(name))
    return out


def _seq(a: list, b: list) -> list[tuple[str, str, bool]]:
    """A seq's changes: field by field where the fields line up by position (same ids, or the
    same reading under another id), by id otherwise."""
    def ids(seq):
        return [f.get("id") if isinstance(f, dict) else None for f in seq]

    lined_up = len(a) == len(b) and all(
        x == y or _read(fa) == _read(fb) for x, y, fa, fb in zip(ids(a), ids(b), a, b))
    if lined_up:
        out = []
        for i, (fa, fb) in enumerate(zip(a, b)):
            path = f"seq[{i}] {fb.get('id')}"
            if fa.get("id") != fb.get("id"):
                out.append((path, f"renamed from {fa.get('id')}", False))
            out += _field(path, fa, fb)
        return out
    placed = []  # (place in NEW, or in OLD for a field removed; the change), in that order
    by_id = {f.get("id"): (i, f) for i, f in enumerate(b) if isinstance(f, dict)}
    old_ids = set(ids(a))
    for i, fa in enumerate(a):
        found = by_id.get(fa.get("id") if isinstance(fa, dict) else None)
        if found is None:
            placed.append((i, (f"seq[{i}] {fa.get('id')}", "field removed", True)))
        else:
            j, fb = found
            path = f"seq[{j}] {fb.get('id')}"
            placed += [(j, (path, f"moved from seq[{i}]", True))] if i != j else []
            placed += [(j, change) for change in _field(path, fa, fb)]
    placed += [(j, (f"seq[{j}] {f.get('id')}", "field added", True)) for j, f in enumerate(b)
               if isinstance(f, dict) and f.get("id") not in old_ids]
    return [change for _, change in sorted(placed, key=lambda p: p[0])]


def _field(path: str, a: dict, b: dict) -> list[tuple[str, str, bool]]:
    out = []
    for key in sorted((a.keys() | b.keys()) - UNREAD):
        x, y = a.get(key), b.get(key)
        if _plain(x) == _plain(y):
            continue
        read = key != "enum" and not key.startswith("-lc-")
        out.append((f"{path}.{key}", f"{shown(x)} -> {shown(y)}", read))
    return out


def _by_name(kind: str, a: dict, b: dict) -> list[tuple[str, str, bool]]:
    out = []
    for name in sorted(a.keys() | b.keys()):
        x, y = a.get(name), b.get(name)
        positioned = any(isinstance(d, dict) and "pos" in d for d in (x, y))
        if y is None:
            out.append((f"{kind}.{name}", "removed", positioned))
        elif x is None:
            out.append((f"{kind}.{name}", "added", False))
        else:
            out += [(f"{kind}.{name}.{k}", f"{shown(x.get(k))} -> {shown(y.get(k))}", positioned)
                    for k in sorted((x.keys() | y.keys()) - UNREAD) if _plain(x.get(k)) != _plain(y.get(k))]
    return out


def _enum(path: str, a, b) -> list[tuple[str, str, bool]]:
    if a is None:
        return [(path, "enum added", False)]
    if b is None:
        return [(path, "enum removed", True)]
    out = []
    for value in sorted(a.keys() | b.keys(), key=str):
        x, y = _member(a.get(value)), _member(b.get(value))
        if x != y:
            out.append((f"{path}.{value}", f"{shown(x)} -> {shown(y)}", x is not None))
    return out


def _member(m):
    """An enum member's name (`id` of the long form)."""
    return m.get("id") if isinstance(m, dict) else m


def _read(f) -> object:
    """What a field reads from the bytes (its definition without id and docs)."""
    return _plain({k: v for k, v in f.items() if k not in UNREAD}) if isinstance(f, dict) else f


def _plain(value) -> str:
    """A YAML value as text that compares equal where the values are."""
    return json.dumps(json_ready(value), sort_keys=True, default=str)


# ---------------------------------------------------------------- the vectors of OLD under NEW

def vectors_under_new(old: Path, new: Path) -> list[str]:
    """For each schema of `old` with golden vectors (`<schema>.vectors.yaml` beside it) that `new`
    also has: how many of its valid vectors decode under `new`'s schema to the value they hold,
    and which do not (a line each). Each schema is compiled on both sides into a temporary
    folder (`compile_schemas`), in packages of their own; one whose vectors cannot be made there
    is said so."""
    rels = sorted(p.relative_to(old).as_posix() for p in old.rglob("*.ksy")
                  if p.with_name(p.name[:-4] + ".vectors.yaml").exists() and (new / p.relative_to(old)).exists())
    if not rels:
        return []
    lines = []
    with tempfile.TemporaryDirectory() as tmp:
        for n, rel in enumerate(rels):
            lines += _vectors_of(old, new, rel, Path(tmp) / str(n))
    return lines


def _vectors_of(old: Path, new: Path, rel: str, tmp: Path) -> list[str]:
    """The lines of `vectors_under_new` for the schema `rel`, each side compiled under `tmp`."""
    packages = {side: f"_logcodec_diff_{side}_{tmp.parent.name}_{tmp.name}" for side in ("old", "new")}
    with _importable_sides(tmp, packages):
        for side, root in (("old", old), ("new", new)):
            try:
                try:  # as `logcodec generate` makes a schema of this repository's (its house rules hold)
                    compile_schemas([root / rel], tmp / side, packages[side], include=(str(root),), strict=True,
                                    with_vectors=side == "old")
                except SchemaError:  # as `logcodec compile` makes a user's
                    compile_schemas([root / rel], tmp / side, packages[side], include=(str(root),),
                                    with_vectors=side == "old")
            except (SchemaError, LogcodecError) as exc:
                first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
                return [f"{rel}: not compared: the {side.upper()} schema and its vectors could not be made ({first})"]
        schema_id = yaml.safe_load((old / rel).read_text())["meta"]["id"]
        vectors = json.loads((tmp / "old" / packages["old"] / "vectors" / f"{schema_id}.json").read_text())
        module = importlib.import_module(f"{packages['new']}.{schema_id}")
        same, differ = 0, []
        valid = [t for g in vectors["testGroups"] for t in g["tests"] if t["result"] == "valid"]
        for t in valid:
            try:
                value = to_json(module.decode(bytes.fromhex(t["bytes"]), lazy=False, **t.get("params", {})))
            except DecodeError as exc:
                differ.append(f"{t['tcId']} (no longer decodes: {exc.kind} at offset {exc.offset})")
                continue
            if value == t["value"]:
                same += 1
            else:
                differ.append(f"{t['tcId']} (another value)")
        return [f"{rel}: {same} of {len(valid)} valid vectors of OLD decode to the same value under NEW",
                *(f"{rel}: {d}" for d in differ)]


@contextmanager
def _importable_sides(tmp: Path, packages: dict[str, str]) -> Iterator[None]:
    """The packages compiled under `tmp/old` and `tmp/new` importable while the block runs, and
    forgotten after it (`packages`: their names, by side)."""
    sys.path[:0] = [str(tmp / "old"), str(tmp / "new")]
    try:
        yield
    finally:
        for package in packages.values():
            for name in [n for n in sys.modules if n == package or n.startswith(package + ".")]:
                del sys.modules[name]
        del sys.path[:2]


#: The formats a folder of message specs makes, and the shipped golden vectors of each.
SPEC_FORMATS = ("request", "response")


def spec_vectors_under_new(old: Path, new: Path, shipped: Path) -> list[str]:
    """For two folders of Kafka's message specs: of the shipped golden vectors of `kafka.request`
    and `kafka.response` that `old`'s codecs read, how many `new`'s read to the same value, and
    which they do not (a line each). Each folder is compiled into a temporary package. `shipped`:
    the package's generated data (`docs/`, its schemas as the docs publish them, and `vectors/`),
    which the caller finds."""
    family = shipped_family(shipped / "docs")
    if family is None:
        return ["vectors not compared: no family of the shipped schemas was made from message specs"]
    vector_folder = shipped / "vectors" / family
    lines = []
    with tempfile.TemporaryDirectory() as tmp:
        packages = {side: f"_logcodec_diff_specs_{side}_{Path(tmp).name}" for side in ("old", "new")}
        with _importable_sides(Path(tmp), packages):
            for side, folder in (("old", old), ("new", new)):
                try:
                    compile_schemas([folder], Path(tmp) / side, packages[side], shipped=shipped / "docs")
                except (SchemaError, LogcodecError) as exc:
                    first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
                    return [f"vectors not compared: the {side.upper()} specs could not be compiled ({first})"]
            importlib.invalidate_caches()  # the packages were written after the import system looked
            for kind in SPEC_FORMATS:
                vectors = json.loads((vector_folder / f"{kind}.json").read_text())
                old_module, new_module = (importlib.import_module(f"{packages[side]}.{kind}") for side in ("old", "new"))
                lines += _same_under_new(f"{family}.{kind}", vectors, old_module, new_module)
    return lines


def _same_under_new(fmt: str, vectors: dict, old_module, new_module) -> list[str]:
    """The lines of `spec_vectors_under_new` for one format: each valid vector OLD reads, read by
    NEW, the same value when their fields that are not null are (`_given`)."""
    read, same, differ = 0, 0, []
    for t in (t for g in vectors["testGroups"] for t in g["tests"] if t["result"] == "valid"):
        data, params = bytes.fromhex(t["bytes"]), t.get("params", {})
        try:
            before = to_json(old_module.decode(data, lazy=False, **params))
        except DecodeError:
            continue  # not a vector of OLD's: a version or API it does not have
        read += 1
        try:
            after = to_json(new_module.decode(data, lazy=False, **params))
        except DecodeError as exc:
            differ.append(f"{t['tcId']} (no longer decodes: {exc.kind} at offset {exc.offset}, {exc.path})")
            continue
        if _given(after) == _given(before):
            same += 1
        else:
            differ.append(f"{t['tcId']} (another value)")
    return [f"{fmt}: {same} of {read} valid vectors OLD reads decode to the same value under NEW",
            *(f"{fmt}: {d}" for d in differ)]


def _given(value):
    """A value's JSON without its null fields: a field one spec set's type has and the other's has
    not (a field of a later version) is null in a frame of a version without it."""
    if isinstance(value, dict):
        return {k: _given(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_given(v) for v in value]
    return value
