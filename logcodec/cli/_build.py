"""`logcodec generate`, `compile`, `diff` and `accelerate`: schemas in, codecs out, and what
changed between two versions of a schema folder."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from logcodec._cli_io import UsageError, schema_file
from logcodec.cli._names import known_format, shipped_data


def cmd_generate(args) -> int:
    from logcodec.generator.build import generate
    from logcodec.generator.problems import SchemaError

    try:
        changed = generate(check=args.check)
    except SchemaError as exc:  # every problem of every schema, one line each
        for line in str(exc).splitlines():
            print(f"logcodec generate: {line}", file=sys.stderr)
        return 1
    if args.check:
        if changed:
            print("generated/ is stale; run `logcodec generate`:", file=sys.stderr)
            for line in changed:
                print(f"  {line}", file=sys.stderr)
            return 1
        print("generated/ is up to date")
        return 0
    print(f"generated/: {len(changed)} file(s) written" if changed else "generated/ was already up to date")
    for line in changed:
        print(f"  {line}")
    return 0


def cmd_compile(args) -> int:
    from logcodec.generator.compile import compile_schemas, is_spec_folder

    package = args.package or Path(args.schemas[0]).stem
    given = [Path(s) if is_spec_folder(Path(s)) else schema_file(s) for s in args.schemas]
    shipped = shipped_data() / "docs" if any(is_spec_folder(p) for p in given) else None
    written = compile_schemas(given, Path(args.output), package, tuple(args.include or ()), strict=args.strict,
                              json_schemas=args.json_schema, target=args.target, with_vectors=args.vectors,
                              with_docs=args.docs, shipped=shipped)
    modules = sum(1 for p in written if p.suffix == ".py" and p.name != "__init__.py"
                  and not p.stem.endswith("_compiled"))  # a compiled build's source is no module of its own
    print(f"{Path(args.output) / Path(*package.split('.'))}: {modules} module(s), {len(written)} file(s)")
    return 0


def cmd_diff(args) -> int:
    from logcodec.generator.message_specs import read_specs
    from logcodec.generator.message_specs.evolution import diff
    from logcodec.generator.schema_diff import (
        schema_changes,
        spec_vectors_under_new,
        vectors_under_new,
    )

    folders = [Path(args.old), Path(args.new)]
    kinds = set()
    for folder in folders:
        if not folder.is_dir():
            raise UsageError(f"{folder} is not a folder")
        if any(folder.rglob("*.ksy")):
            kinds.add("ksy")
        elif any(folder.glob("*.json")):
            kinds.add("kafka")
        else:
            raise UsageError(f"{folder} holds neither .ksy schemas nor Kafka message specs (*.json)")
    if len(kinds) != 1:
        raise UsageError("OLD and NEW hold different kinds: .ksy schemas in one, Kafka message specs in the other")
    vectors: list[str] = []
    if kinds == {"kafka"}:
        changes = diff(read_specs(folders[0]), read_specs(folders[1]))
        vectors = [] if args.changes_only else spec_vectors_under_new(*folders, shipped_data())
    else:
        changes = schema_changes(*folders)
        vectors = [] if args.changes_only else vectors_under_new(*folders)
    if args.json:
        print(json.dumps({"changes": [c.as_json() for c in changes], "vectors": vectors}, indent=2))
    else:
        for change in changes:
            print(change)
        for line in vectors:
            print(f"vectors: {line}")
        breaking = sum(c.breaking for c in changes)
        print(f"{len(changes)} change(s), {breaking} wire-breaking", file=sys.stderr)
    return 1 if any(c.breaking for c in changes) else 0


def cmd_accelerate(args) -> int:
    import logcodec
    from logcodec.runtime import native

    if args.path:
        print(native.native_dir())
        return 0
    modules = {}  # module name -> (the name printed, the module)
    for name in [known_format(n, composite_ok=False) for n in args.format or ()] or logcodec.formats():
        module = logcodec.codec(name)
        modules[module.__name__] = (name, module)
    if args.imports:
        for module in _imported_codecs([module for _, module in modules.values()]):
            modules.setdefault(module.__name__, (module.FORMAT, module))
    todo = []
    for name, module in modules.values():
        if module.NATIVE and getattr(module, "_FAST", True) is not None and not args.force:
            print(f"{name}: compiled build in use ({module.NATIVE})")
        else:
            todo.append((name, module))
    names = {module.__name__: name for name, module in todo}

    def done(module_name: str, result, seconds: float) -> None:
        if not isinstance(result, Exception):
            print(f"{names[module_name]}: {result} ({seconds:.1f} s)", flush=True)

    results = native.compile_files([(module.__name__, native.source_of(module)) for _, module in todo],
                                   native.native_dir(), args.jobs, done=done)
    errors = [f"logcodec accelerate: {name}: {r}" for (name, _), r in zip(todo, results) if isinstance(r, Exception)]
    for error in errors:
        print(error, file=sys.stderr)
    if not args.imports:
        _say_what_stays_interpreted([module for _, module in modules.values()])
    return 1 if errors else 0


def _say_what_stays_interpreted(formats: list) -> None:
    """A line naming the formats whose imports have no compiled build (Kafka's message bodies,
    where kafka.request and kafka.response do most of their work), and how to compile them."""
    importers, interpreted = [], set()
    for module in formats:
        missing = {m.__name__ for m in _imported_codecs([module]) if not m.NATIVE}
        if missing:
            importers.append(module.FORMAT)
            interpreted |= missing
    if importers:
        print(f"{', '.join(importers)}: the {len(interpreted)} schemas they import stay pure Python "
              "(`logcodec accelerate --imports` compiles them too, 5 to 20 s each)")


def _imported_codecs(modules: list) -> list:
    """The codec modules of the schemas these modules import (their `IMPORTS`), directly or not,
    each once, in a stable order."""
    import importlib

    seen: dict[str, object] = {}
    todo = [name for module in modules for name in getattr(module, "IMPORTS", ())]
    while todo:
        name = todo.pop(0)
        if name not in seen:
            seen[name] = module = importlib.import_module(name)
            todo.extend(getattr(module, "IMPORTS", ()))
    return list(seen.values())


# ---------------------------------------------------------------- their parsers

def add_generate(sub) -> None:
    """`logcodec generate`."""
    p = sub.add_parser("generate", help="regenerate generated/ from schemas/")
    p.add_argument("--check", action="store_true", help="write nothing; exit 1 with a list of differences if stale")
    p.set_defaults(func=cmd_generate)


def add_compile_and_diff(sub) -> None:
    """`logcodec compile` and `logcodec diff`."""
    p = sub.add_parser("compile", help="compile Kaitai Struct schemas into an importable Python package")
    p.add_argument("schemas", nargs="+", metavar="SCHEMA.ksy",
                   help="the schemas (the ones they import come along); or one folder of Kafka's JSON message "
                        "specs, for the formats request and response of that spec set")
    p.add_argument("-o", "--output", required=True, metavar="DIR", help="the folder that receives the package")
    p.add_argument("--package", metavar="NAME", help="the package's name (default: the first schema's file name)")
    p.add_argument("-I", "--include", action="append", metavar="DIR", help="an import folder (repeatable)")
    p.add_argument("--strict", action="store_true",
                   help="this repository's house rules: a doc on every type and field, files named by meta/id")
    p.add_argument("--json-schema", action="store_true", help="also write schema/<id>.value.json for each value")
    p.add_argument("--vectors", action="store_true",
                   help="also write vectors/<id>.json for each schema with a <schema>.vectors.yaml beside it")
    p.add_argument("--docs", action="store_true",
                   help="also write docs/: a page per schema (field tables, diagram, enums, vectors) and an index")
    from logcodec.generator.backends import targets  # noqa: PLC0415 (the back ends' one registry)

    p.add_argument("--target", choices=sorted(targets()), default="python",
                   help="the back end that makes the package: " + "; ".join(
                       f"{name}, {backend.makes}" for name, backend in sorted(targets().items())))
    p.set_defaults(func=cmd_compile)

    p = sub.add_parser("diff", help="what changed between two versions of a folder of schemas or Kafka message specs",
                       description="Compare two folders of .ksy schemas (type by type; and whether the golden vectors "
                                   "of OLD decode to the same values under NEW) or of Kafka's JSON message specs "
                                   "(message by message and version by version: versions added or dropped, fields "
                                   "added, removed, retyped, renamed or made nullable, tags, defaults, flexible "
                                   "versions; and whether the shipped golden vectors of kafka.request and "
                                   "kafka.response that OLD reads decode to the same values under NEW). Exit status "
                                   "1 when a change breaks the wire, 0 otherwise.")
    p.add_argument("old", metavar="OLD", help="the folder before")
    p.add_argument("new", metavar="NEW", help="the folder after")
    p.add_argument("--json", action="store_true", help="the changes as JSON")
    p.add_argument("--changes-only", action="store_true",
                   help="only the changes: do not compile both folders to read the golden vectors under each")
    p.set_defaults(func=cmd_diff)


def add_accelerate(sub) -> None:
    """`logcodec accelerate`."""
    p = sub.add_parser("accelerate", help="compile the generated codecs with mypyc (optional, several times faster)")
    p.add_argument("--format", "-f", action="append", help="only this format (repeatable)")
    p.add_argument("--imports", action="store_true",
                   help="also compile the schemas the formats import, directly or not (Kafka's message bodies, "
                        "where kafka.request and kafka.response do most of their work: 177 modules, a quarter "
                        "of an hour on 2 cores)")
    p.add_argument("--force", action="store_true", help="rebuild even when a build of the current source exists")
    p.add_argument("--path", action="store_true", help="only print the folder of the compiled builds")
    p.add_argument("--jobs", "-j", type=int, metavar="N",
                   help="compile N modules at once (default: one per CPU)")
    p.set_defaults(func=cmd_accelerate)
