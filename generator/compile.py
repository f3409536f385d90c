"""`logcodec compile`: Kaitai Struct schemas in, an importable Python package out.

As kaitai-struct-compiler or protoc do, it takes schema files anywhere and writes
`OUT/PACKAGE/`: one module per schema, the schemas they import included, each with
`decode`, `decode_stream`, `encode`, `ROOT` and the value classes, importing nothing
but `logcodec.runtime`; and, on request, the JSON Schema of each value. It is the
code path of `logcodec generate` (`render.render_module_files`), applied to a user's schemas
without this repository's house rules (a `doc` everywhere), unless `strict`.

Given a folder of Kafka's JSON message specs instead (`load_specs`), it writes the formats
`request` and `response` of that spec set, each API's body and Kafka's record set: what a user
regenerates after a Kafka release, as `logcodec generate` makes `kafka.request` and
`kafka.response` from the specs in `schemas/kafka/messages/`.

`compiled_module` compiles one schema into a cache keyed by its content (and that of
the schemas it imports, and this generator's version), for `logcodec decode --schema`.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import re
import shutil
import sys
from dataclasses import replace
from pathlib import Path

import yaml

from logcodec.runtime import native

from .backends import targets
from .jsonschema import value_schema
from .message_specs.documents import (
    RECORD_SET,
    family_documents,
    frame_rels,
    shipped_family,
)
from .passes import load_checked
from .problems import Problem, SchemaError, problem
from .reading import Loader
from .schema import Schema

_PACKAGE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$")


def load(paths: list[Path], package: str, include: tuple = (), strict: bool = False,
         targets: tuple = ("python",)) -> tuple[list, list]:
    """The schemas named, and all of them with every schema they import (each once, by id),
    checked by the passes of the back ends `targets`: SchemaError with every problem of them."""
    if not paths:
        raise SchemaError("no schema given")
    if not _PACKAGE.match(package):
        raise SchemaError(f"{package!r} is not a Python package name")
    typed = {Path(p).resolve(): str(p) for p in paths}
    paths = list(typed)
    root = Path(os.path.commonpath([p.parent for p in paths]))
    loader = Loader(root, strict=strict, include=tuple(include), package=package, shown_prefix="")
    try:
        named = load_checked(loader, [path.relative_to(root).as_posix() for path in paths], targets)
        schemas = [s for s in loader.loaded.values() if not s.root.primitive]
        _one_module_each(schemas)
    except SchemaError as exc:
        raise SchemaError(_as_given(exc.problems, loader, typed) if exc.problems else str(exc)) from None
    return named, sorted(schemas, key=lambda s: s.id)


def load_specs(folder: Path, package: str, shipped: Path, targets: tuple = ("python",)) -> tuple[list, list]:
    """A folder of Kafka's JSON message specs, as the frames `request` and `response`, each API's
    body and Kafka's record set (the one of the schemas under `shipped`, which `records` fields
    hold: the package's, as the docs publish them beside their pages, which the caller finds),
    checked by the passes of `targets`: SchemaError with every problem of the specs, then of
    their schemas.

    Read under this repository's rules (`strict`), as `logcodec generate` reads them: the
    translations are written to them (a negative count refused, a switch that matches no case an
    error, no Kaitai objects), so the codecs are those of `kafka.request` and `kafka.response`."""
    if not _PACKAGE.match(package):
        raise SchemaError(f"{package!r} is not a Python package name")
    family = shipped_family(shipped) or "messages"  # (no shipped family: `records` fields stay bytes)
    documents = family_documents(Path(folder), family, (shipped / family / f"{RECORD_SET}.ksy").is_file())
    if not frame_rels(documents):
        raise SchemaError(f"{folder}: no request or response frame to make: the folder has no RequestHeader or "
                          "ResponseHeader spec, or no request or response of an API")
    loader = Loader(shipped, strict=True, package=package, documents=documents, shown_prefix="")
    named = load_checked(loader, frame_rels(documents), targets)
    schemas = [s for s in loader.loaded.values() if not s.root.primitive]
    _one_module_each(schemas)
    return named, sorted(schemas, key=lambda s: s.id)


def is_spec_folder(path: Path) -> bool:
    """A folder of message specs in Kafka's JSON language (what `compile` takes in place of schemas)."""
    return Path(path).is_dir() and any(Path(path).glob("*.json"))


def _one_module_each(schemas: list[Schema]) -> None:
    """Each schema becomes the module `<package>.<id>`: two with one `meta/id` are a problem of
    the second, at its id."""
    first: dict[str, Schema] = {}
    found = []
    for s in schemas:
        if s.id in first:
            found.append(problem(s.marks, s.path, "meta.id", f"{s.id!r} is also the id of {first[s.id].source}: each "
                                 "schema becomes the module <package>.<id>"))
        first.setdefault(s.id, s)
    if found:
        raise SchemaError(found)


def _as_given(problems: list[Problem], loader: Loader, typed: dict[Path, str]) -> list[Problem]:
    """The problems, each naming its file as the user gave it: a schema named on the command line
    as it was typed; one it imports by its path from the working directory (absolute when the
    schemas were given by absolute paths)."""
    relative = not any(Path(t).is_absolute() for t in typed.values())
    shown: dict[str, str] = {}
    for rel in {p.file for p in problems}:
        actual = Path(os.path.abspath(loader.locate(rel)))
        given = typed.get(actual) or typed.get(actual.resolve())
        try:
            shown[rel] = given or (os.path.relpath(actual) if relative else str(actual))
        except (OSError, ValueError):  # no working directory to be relative to
            shown[rel] = str(actual)
    return [replace(p, file=shown[p.file]) for p in problems]


def render_package(schemas: list[Schema], package: str, json_schemas: bool = False) -> dict[str, str]:
    """Every file of the package of logcodec's Python codecs (the python back end's), with the JSON
    Schema of each value when asked, by its path inside `OUT/PACKAGE/`."""
    files = targets()["python"].package(schemas, package)
    if json_schemas:
        for s in schemas:
            doc = value_schema(s)
            files[f"schema/{s.id}.value.json"] = json.dumps(doc, indent=1, ensure_ascii=False) + "\n"
    return files


def write(out: Path, package: str, files: dict[str, str]) -> list[Path]:
    """Write the package under `out` (a dotted package name is nested folders); returns the paths."""
    base = Path(out).joinpath(*package.split("."))
    written = []
    for rel, text in sorted(files.items()):
        path = base / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        written.append(path)
    for parent in list(base.relative_to(out).parents)[:-1]:  # the outer packages of a dotted name
        init = Path(out) / parent / "__init__.py"
        if not init.exists():
            init.write_text("")
    return written


def render_vectors(out: Path, package: str, schemas: list[Schema]) -> dict[str, str]:
    """The golden vectors of each schema that has a `<schema>.vectors.yaml` beside it (the layout
    of this repository's), made and checked with the package just written under `out`."""
    from . import vectors  # noqa: PLC0415
    from .in_memory import load_modules  # noqa: PLC0415
    from .python.trace import trace_module  # noqa: PLC0415

    wanted = [s for s in schemas if Path(s.source).with_suffix(".vectors.yaml").is_file()]
    if not wanted:
        return {}
    if package.split(".")[0] in sys.modules:  # it would be imported in place of the package just written
        raise SchemaError(f"--vectors imports the package it wrote, but {package.split('.')[0]!r} is a module "
                          "already loaded here: choose another --package")
    sys.path.insert(0, str(Path(out).resolve()))
    try:
        importlib.invalidate_caches()
        files = {}
        for s in wanted:
            definition = Path(s.source).with_suffix(".vectors.yaml")
            try:
                spec = yaml.safe_load(definition.read_text())
            except yaml.YAMLError as exc:
                raise SchemaError(f"{definition.name}: not valid YAML: {exc}") from None
            if not isinstance(spec, dict):
                raise SchemaError(f"{definition.name}: a vectors file is a mapping (groups, notes, ...)")
            module = importlib.import_module(s.module)
            traced = load_modules([s])[trace_module(s.module)]  # not in the package: made in memory
            built = vectors.Builder(s, module, traced, spec, definition.name, "logcodec compile").build()
            files[f"vectors/{s.id}.json"] = json.dumps(built, indent=1, ensure_ascii=False) + "\n"
        return files
    finally:
        sys.path.remove(str(Path(out).resolve()))
        for name in [n for n in sys.modules if n == package or n.startswith(package + ".")]:
            del sys.modules[name]


def compile_schemas(paths: list[Path], out: Path, package: str, include: tuple = (), strict: bool = False,
                    json_schemas: bool = False, target: str = "python", with_vectors: bool = False,
                    with_docs: bool = False, shipped: Path | None = None) -> list[Path]:
    """Compile to `target`, a back end that makes packages (`backends.targets`): logcodec's Python
    codecs, or construct 2.10 definitions (no JSON Schemas, vectors or docs there). `paths` may
    instead be one folder of message specs (`load_specs`, with the shipped schemas `shipped`)."""
    if target not in targets():
        raise SchemaError(f"unknown target {target!r}: one of {', '.join(targets())}")
    if any(is_spec_folder(p) for p in paths):
        if len(paths) != 1 or include:
            raise SchemaError("a folder of message specs is compiled alone (no other schema, no -I)")
        if with_vectors:
            raise SchemaError("--vectors: a folder of message specs has no vectors' definitions beside it; "
                              "`logcodec diff OLD NEW` says which of the shipped vectors a changed spec set still "
                              "reads the same")
        if shipped is None:
            raise SchemaError("a folder of message specs is compiled with the shipped schemas (`shipped=`)")
        _, schemas = load_specs(paths[0], package, shipped, targets=(target,))
    else:
        _, schemas = load(paths, package, include, strict, targets=(target,))
    if target != "python":  # logcodec's values are the python target's: no JSON Schemas, vectors or docs
        if json_schemas or with_vectors or with_docs:
            raise SchemaError(f"--json-schema, --vectors and --docs describe logcodec's values; the {target} target "
                              "has none")
        return write(Path(out), package, targets()[target].package(schemas, package))
    written = write(Path(out), package, render_package(schemas, package, json_schemas))
    vector_files = render_vectors(Path(out), package, schemas) if with_vectors else {}
    written += write(Path(out), package, vector_files)
    if with_docs:
        from .docs import package_site  # noqa: PLC0415 (markdown, the diagrams)

        written += write(Path(out), package, package_site(schemas, vector_files, json_schemas))
    return written


# ---------------------------------------------------------------- on the fly


def cache_dir() -> Path:
    """Where `compiled_module` keeps its packages: `$LOGCODEC_SCHEMA_CACHE`, else beside the
    compiled codecs of `logcodec accelerate`."""
    env = os.environ.get("LOGCODEC_SCHEMA_CACHE")
    return Path(env) if env else native.native_dir().parent / "schemas"


def compiled_module(path: Path, include: tuple = ()):
    """The module of one schema, compiled on first use and cached by content: the schema's bytes,
    those of every schema it imports, and the generator's own source."""
    from logcodec import __version__

    # Everything it imports, loaded to name the cache; the passes run once, below, on a schema not
    # compiled yet (a cached package passed them when it was written).
    (named,), probe = load([path], "probe", include, targets=())
    digest = hashlib.sha256(__version__.encode())
    for s in probe:
        digest.update(s.sha256.encode())
    digest.update(_generator_fingerprint())
    package = f"lcschema_{digest.hexdigest()[:20]}"
    folder = cache_dir()
    if not (folder / package / "__init__.py").exists():
        _, schemas = load([path], package, include)
        tmp = folder / f".{package}.{os.getpid()}"
        write(tmp, package, render_package(schemas, package))
        try:
            (tmp / package).rename(folder / package)  # atomic: a concurrent compile may have won
        except OSError:
            pass
        shutil.rmtree(tmp, ignore_errors=True)
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))
    return importlib.import_module(f"{package}.{named.id}")


def _generator_fingerprint() -> bytes:
    here = Path(__file__).resolve().parent
    return hashlib.sha256(b"".join(p.read_bytes() for p in sorted(here.rglob("*")) if p.is_file()
                                   and p.suffix in (".py", ".j2"))).digest()
