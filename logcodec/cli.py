"""The `logcodec` command line.

Bad input ends with exit status 1 and one line on stderr naming the error kind,
the byte offset and the field path; usage errors exit with status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
from pathlib import Path

from logcodec._cli_io import UsageError, note, read_input, schema_file, write_json
from logcodec.inputs import InputError, hex_bytes, hex_text
from logcodec.runtime.errors import EncodeError, LogcodecError


class _Parser(argparse.ArgumentParser):
    """argparse's parser, whose errors are one line, as every other error of the command line."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


# ---------------------------------------------------------------- format names and root parameters

def _known_format(name: str, *, composite_ok: bool = True) -> str:
    """`name` if it is a format (or a composite one, where those are taken); otherwise a usage
    error that lists the close names, or all of them."""
    import difflib

    import logcodec
    from logcodec.composites import composites

    known = logcodec.formats() + (list(composites()) if composite_ok else [])
    if name in known:
        return name
    close = difflib.get_close_matches(name, known, n=3, cutoff=0.6)
    hint = f"did you mean {_either(close)}?" if close else f"known: {', '.join(sorted(known))}"
    raise UsageError(f"unknown format {name!r}; {hint} (logcodec formats lists them)")


def _either(names: list[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"


def _root_params(module, texts: list[str] | None, what: str) -> dict:
    """The `--param NAME=VALUE` given, checked against the root's parameters (the module's `PARAMS`,
    and every one it needs)."""
    from logcodec._api import root_params_problems

    given = dict(_root_param(text) for text in texts or ())
    problems = root_params_problems(module, given, what)
    if problems:
        raise UsageError(f"--param: {problems[0]} (--param NAME=VALUE)")
    return given


def _root_param(text: str) -> tuple[str, int | bool]:
    name, sep, value = text.partition("=")
    if not sep or not name.isidentifier():
        raise UsageError(f"--param {text!r}: expected NAME=VALUE")
    if value in ("true", "false"):
        return name, value == "true"
    try:
        return name, int(value, 0)
    except ValueError:
        raise UsageError(f"--param {text!r}: the value is an integer, true or false") from None


def cmd_formats(args) -> int:
    """Every format `decode --format` takes: the codecs, then the composite formats (a directory,
    or a file with others), each with what it takes."""
    import logcodec
    from logcodec.composites import composites

    found = composites()
    width = max(len(n) for n in [*logcodec.formats(), *found])
    for name in sorted([*logcodec.formats(), *found]):
        print(f"{name:{width}}  ({found[name].takes}; decode only)" if name in found else name)
    return 0


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


# ---------------------------------------------------------------- decode

def cmd_decode(args) -> int:
    if bool(args.format) == bool(args.schema):
        raise UsageError("give --format NAME (or auto) or --schema FILE.ksy")
    if args.schema:
        from logcodec.generator.compile import compiled_module

        module = compiled_module(schema_file(args.schema), tuple(args.include or ()))
        return _decode_with(module, args, what=f"the schema {args.schema}")
    if args.include:
        raise UsageError("-I goes with --schema")
    if args.format == "auto":
        if args.param:
            raise UsageError("--param needs the format: give --format NAME")
        return _decode_detected(args)
    from logcodec.composites import composites

    name = _known_format(args.format)
    found = composites().get(name)
    if found is not None:
        return _decode_composite(found, args)
    _no_other_inputs(args, name)
    import logcodec

    return _decode_with(logcodec.codec(name), args, what=name)


def _input_bytes(args) -> bytes:
    data = read_input(args.file)
    if args.hex:
        what = "stdin" if args.file == "-" else args.file
        data = hex_bytes(hex_text(data, what), what)
    return data


def _decode_with(module, args, *, what: str) -> int:
    """Decode with a codec module: one value (the whole input where the schema says its root fills
    it, `FILLS_INPUT`; else from the start, as Kaitai's ksdump, the bytes after it said on stderr),
    or values end to end with `--stream`."""
    from logcodec.runtime.values import cut_tails, to_json

    params = _root_params(module, args.param, what)
    data = _input_bytes(args)
    if args.stream:
        stream = module.decode_stream(data, lazy=False, **params)
        write_json({"items": [to_json(v) for v in stream.items], "consumed": stream.consumed,
                     "partial": stream.partial.to_json() if stream.partial else None}, args.compact)
        if not stream.items and stream.partial is not None:
            note("decode", f"no whole value: the input ends inside the first one ({stream.partial})")
        return 0
    if module.FILLS_INPUT:
        value, used = module.decode(data, lazy=False, **params), len(data)
    else:
        value, used = module.decode_prefix(data, lazy=False, **params)
    write_json(to_json(value), args.compact)
    if used < len(data):
        note("decode", f"{len(data) - used} bytes after the value (from offset {used}) not read")
    for listed, whole, tail, size in cut_tails(value):
        if not whole:
            note("decode", f"no whole element in {listed}: all {size} bytes are in {tail}, the start of one cut "
                            f"short (as a fetch size cuts one), or bytes that are not {what} at all")
    return 0


def _decode_detected(args) -> int:
    """`--format auto`: the format the bytes give evidence of (`logcodec.detection`), said on stderr."""
    from logcodec import detection, inspector

    answer = detection.detect([inspector.builtin()], _input_bytes(args), stream=args.stream)
    if not answer["detected"]:
        note("decode", f"no format detected: {detection.unclaimed_reason(answer)}; give --format NAME")
        return 1
    others = [c for c in answer["candidates"] if c != answer["format"]]
    note("decode", f"detected {answer['format']}" + (f" (also reads as {', '.join(others)})" if others else ""))
    if args.stream:
        write_json({"items": answer["value"], "consumed": answer["consumed"], "partial": answer["partial"]},
                    args.compact)
    else:
        write_json(answer["value"], args.compact)
    return 0


def _no_other_inputs(args, name: str) -> None:
    for other in _other_inputs():
        if getattr(args, other, None):
            raise UsageError(f"--{other} goes with a format that reads it; {name} does not")


def _decode_composite(found, args) -> int:
    """A format of several inputs (`logcodec.composites`): a directory, or a file and others."""
    if args.param or args.hex or args.stream:
        raise UsageError(f"{found.name} takes {found.takes}, without --param, --hex or --stream")
    path = Path(args.file)
    if found.directory != path.is_dir() or not path.exists():
        raise UsageError(f"{found.name} takes {found.takes}; {args.file} is "
                         f"{'a directory' if path.is_dir() else 'a file' if path.exists() else 'not there'}")
    others = {}
    for other in _other_inputs():
        given = getattr(args, other, None)
        if other in found.others and not given:
            raise UsageError(f"{found.name} takes {found.takes}")
        if given and other not in found.others:
            raise UsageError(f"--{other} goes with a format that reads it; {found.name} does not")
        if given:
            others[other] = read_input(given)
    value, findings = found.read(path, **others)
    write_json(value, args.compact)
    for finding in findings:
        note("decode", str(finding))
    return 1 if findings else 0


def _other_inputs() -> list[str]:
    """The names of the composite formats' other inputs, each an option of `decode` (--metadata)."""
    from logcodec.composites import composites

    return sorted({other for c in composites().values() for other in c.others})


def _docs_dir() -> Path:
    """The package's own docs (and the schema copies they carry): generated/docs in a checkout,
    logcodec/generated/docs when installed."""
    import logcodec.generated

    return Path(logcodec.generated.__file__).resolve().parent / "docs"


# ---------------------------------------------------------------- compile, encode

def cmd_compile(args) -> int:
    from logcodec.generator.compile import compile_schemas, is_spec_folder

    package = args.package or Path(args.schemas[0]).stem
    given = [Path(s) if is_spec_folder(Path(s)) else schema_file(s) for s in args.schemas]
    shipped = _shipped_data() / "docs" if any(is_spec_folder(p) for p in given) else None
    written = compile_schemas(given, Path(args.output), package, tuple(args.include or ()), strict=args.strict,
                              json_schemas=args.json_schema, target=args.target, with_vectors=args.vectors,
                              with_docs=args.docs, shipped=shipped)
    modules = sum(1 for p in written if p.suffix == ".py" and p.name != "__init__.py"
                  and not p.stem.endswith("_compiled"))  # a compiled build's source is no module of its own
    print(f"{Path(args.output) / Path(*package.split('.'))}: {modules} module(s), {len(written)} file(s)")
    return 0


def _shipped_data() -> Path:
    """The generated data this package ships (`docs/`, with its schemas beside the pages, and
    `vectors/`): what a compile or a diff of message specs reads of the shipped formats."""
    import logcodec.generated

    return Path(logcodec.generated.__file__).resolve().parent


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
        vectors = [] if args.changes_only else spec_vectors_under_new(*folders, _shipped_data())
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


def cmd_encode(args) -> int:
    if bool(args.format) == bool(args.schema):
        raise UsageError("give --format NAME or --schema FILE.ksy")
    if args.schema:
        from logcodec.generator.compile import compiled_module

        module, what = compiled_module(schema_file(args.schema), tuple(args.include or ())), f"the schema {args.schema}"
    else:
        if args.format == "auto":
            raise UsageError("encode needs the format: auto tells what bytes are, not what a value is")
        import logcodec

        what = _known_format(args.format, composite_ok=False)
        module = logcodec.codec(what)
    params = _root_params(module, args.param, what)
    from logcodec.runtime.values import root_from_json, without_derived

    value = root_from_json(module, _json_input(args.file), params)
    if args.derive:
        value = without_derived(value)
    try:
        data = module.encode(value, **params)
    except EncodeError as exc:
        from logcodec.runtime.primitives import STRIP_DERIVED_HINT

        if STRIP_DERIVED_HINT in exc.detail:  # say the command line's way to compute them
            exc.detail = exc.detail.replace(STRIP_DERIVED_HINT, "encode --derive recomputes every derived field")
        raise
    if args.hex:
        data = data.hex().encode() + b"\n"
    if args.output and args.output != "-":
        Path(args.output).write_bytes(data)
    else:
        sys.stdout.buffer.write(data)
    return 0


def _json_input(path: str):
    raw = read_input(path)
    where = "stdin" if path == "-" else path
    try:
        return json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise InputError(f"{where} is not JSON: byte {raw[exc.start]:#04x} at offset {exc.start} is not UTF-8 "
                         "text") from None
    except json.JSONDecodeError as exc:
        raise InputError(f"{where} is not JSON: {exc}") from None
    except RecursionError:
        raise InputError(f"{where} is not JSON this reader takes: nested too deep") from None


def cmd_accelerate(args) -> int:
    import logcodec
    from logcodec.runtime import native

    if args.path:
        print(native.native_dir())
        return 0
    modules = {}  # module name -> (the name printed, the module)
    for name in [_known_format(n, composite_ok=False) for n in args.format or ()] or logcodec.formats():
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


def cmd_testee(args) -> int:
    from logcodec.conformance.own_testee import main as serve

    serve()
    return 0


def cmd_conformance_list(args) -> int:
    from logcodec.conformance.impls import SHIPPED

    width = max(len(name) for name in SHIPPED) + 2
    for shipped in SHIPPED.values():
        missing = shipped.missing()
        state = "ready" if missing is None else f"unavailable: {missing}"
        print(f"{shipped.name:{width}}{shipped.what}\n{'':{width}}{state}; expected failures: "
              f"{shipped.expected_failures.relative_to(shipped.expected_failures.parents[2])}")
    return 0


def cmd_conformance_run(args) -> int:
    from pathlib import Path

    from logcodec.conformance import expected, report, runner
    from logcodec.conformance.impls import SHIPPED
    from logcodec.conformance.judge import build_cases

    if bool(args.testee) == bool(args.impl):
        print("logcodec conformance run: give --testee COMMAND or --impl NAME", file=sys.stderr)
        return 2
    failures_file = args.expected_failures
    if args.impl:
        shipped = SHIPPED.get(args.impl)
        if shipped is None:
            print(f"logcodec conformance run: no shipped testee {args.impl!r} (see `logcodec conformance list`)", file=sys.stderr)
            return 2
        if shipped.missing():
            print(f"logcodec conformance run: {args.impl}: {shipped.missing()}", file=sys.stderr)
            return 2
        command = list(shipped.command)
        failures_file = failures_file or str(shipped.expected_failures)
    else:
        command = args.testee
    from logcodec.conformance.judge import formats_with_vectors

    for name in args.format or ():
        if name not in formats_with_vectors():
            _known_format(name, composite_ok=False)  # a usage error naming the close names
            raise UsageError(f"{name} has no golden vectors to run")
    cases = build_cases(args.format, tuple(args.op or ("decode", "encode")))
    import logcodec

    for fmt in sorted({c.format for c in cases}):  # the judge needs each codec: say which one is broken
        try:
            logcodec.codec(fmt)
        except ImportError as exc:
            print(f"logcodec conformance run: the codec of {fmt} does not import ({exc}); "
                  f"is logcodec installed whole?", file=sys.stderr)
            return 1
    if args.repeat > 1:  # distinct ids, so repeated cases are judged one by one
        cases = [runner.Case(f"{c.id}#{r}", c.format, c.op, c.test) for r in range(args.repeat) for c in cases]
    entries = expected.load(Path(failures_file)) if failures_file else []
    verdicts, info = runner.run(command, cases, timeout=args.timeout, window=args.window,
                                breaker=runner.Breaker(budget=args.budget),
                                progress=None if args.quiet else report.Progress())
    bad = expected.apply(entries, verdicts)
    if args.update_failures:
        if not failures_file:
            print("logcodec conformance run: --update-failures needs --expected-failures or --impl", file=sys.stderr)
            return 2
        expected.write(Path(failures_file), info.implementation.get("name", args.impl or "testee"), entries, verdicts)
        entries = expected.load(Path(failures_file))
        bad = expected.apply(entries, verdicts)
    if args.json:
        report.write_jsonl(args.json, verdicts, info)
    if args.junit:
        report.write_junit(args.junit, verdicts, info)
    print(report.summary(verdicts, bad, info))
    if info.gave_up:  # cases were not run, even if every one of them is an expected failure
        return 1
    return 1 if bad else 0


def cmd_conformance_matrix(args) -> int:
    from logcodec.conformance import matrix
    from logcodec.conformance.impls import SHIPPED
    from logcodec.generator.build import generate

    results = [matrix.record(name) for name in args.impl or SHIPPED]
    changed = generate()
    print(f"docs: {len(changed)} file(s) written" if changed else "docs: up to date")
    return 0 if all(r is None or r["ok"] for r in results) else 1


def cmd_docs(args) -> int:
    import webbrowser

    from logcodec import docserver, inspector

    docs = _docs_dir()
    if not (docs / "index.html").exists():
        print(f"logcodec docs: no {docs / 'index.html'}; run `logcodec generate` in a checkout", file=sys.stderr)
        return 1
    if args.path:
        print(docs / "index.html")
        return 0
    inspectors = []
    user_formats: list[str] = []
    if args.schema:  # compiled in memory: the server writes no file
        user = docserver.user_inspector(schema_file(args.schema), tuple(args.include or ()))
        inspectors.append(user)
        user_formats = user.names()
    inspectors.append(inspector.builtin())
    app = docserver.DocsServer(docs, inspectors, titles=docserver.titles_of(inspectors), user_formats=user_formats,
                               max_bytes=args.max_bytes, max_body=3 * args.max_bytes)
    server = docserver.make_server(app, args.port, quiet=args.quiet)
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    print(f"serving {docs} at {url} (decode your own bytes: {url}decode.html; Ctrl-C stops)", flush=True)
    if user_formats:
        print(f"schema {args.schema}: {', '.join(user_formats)}", flush=True)
    if args.open:
        webbrowser.open(url + ("decode.html" if args.schema else ""))
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


# ---------------------------------------------------------------- pipeline

#: The modules of the pipeline extra (`pip install 'logcodec[pipeline]'`).
_PIPELINE_EXTRA = ("pyspark", "pyarrow", "pandas")


def _pipeline_extra_missing(command: str, exc: ImportError) -> int:
    """The pipeline's modules need its extra: without it, say what to install in one line (a usage
    error: the installation is what to change); any other ImportError is a bug and raised again."""
    if (exc.name or "").split(".")[0] not in _PIPELINE_EXTRA:
        raise exc
    print(f"{command}: needs the pipeline extra, pip install 'logcodec[pipeline]' (no module named {exc.name!r})",
          file=sys.stderr)
    return 2


def cmd_pipeline_validate(args) -> int:
    try:
        from logcodec.pipeline import validate
    except ImportError as exc:
        return _pipeline_extra_missing("logcodec pipeline validate", exc)
    try:
        fmt = validate.check_path(args.path, args.format)
        validate.check_master(args.master)
        options = validate.parse_options(args.option)
    except validate.UsageError as exc:
        print(f"logcodec pipeline validate: {exc}", file=sys.stderr)
        return 2
    try:
        summary = validate.validate(args.path, args.out, master=args.master, fmt=fmt, split_bytes=args.split_bytes,
                                    options=options, spark=_active_spark_session(),
                                    progress=None if args.quiet else sys.stderr,
                                    strict_zero_fill=args.strict_zero_fill)
    except validate.UsageError as exc:
        print(f"logcodec pipeline validate: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:
        _spark_job_failed("logcodec pipeline validate", exc)
        return 1
    print(validate.format_table(summary, args.out))
    return validate.exit_status(summary)


def _spark_job_failed(command: str, exc: Exception) -> None:
    """Say that a Spark job failed, in one line (the Python exception behind it, with what to do about a
    missing module or an unreadable path: `pipeline.errors.explain`); anything else than Spark's and
    py4j's errors is a bug of ours and is raised again."""
    if not type(exc).__module__.startswith(("pyspark", "py4j")):
        raise exc
    from logcodec.pipeline.errors import explain

    print(f"{command}: the Spark job failed: {explain(exc)}", file=sys.stderr)


def cmd_pipeline_conformance(args) -> int:
    from logcodec.conformance import report

    try:
        from logcodec.pipeline import conformance
        from logcodec.pipeline.validate import UsageError, check_master
    except ImportError as exc:
        return _pipeline_extra_missing("logcodec pipeline conformance", exc)

    try:
        conformance.check(args.impl, args.format, args.testee)
        check_master(args.master)
        if args.expected_failures and not Path(args.expected_failures).is_file():
            raise UsageError(f"--expected-failures {args.expected_failures}: no such file")
    except (conformance.UsageError, UsageError) as exc:
        print(f"logcodec pipeline conformance: {exc}", file=sys.stderr)
        return 2
    try:
        verdicts, info, bad = conformance.run(
            args.impl, testee=args.testee, expected_failures=args.expected_failures, count=args.count,
            seed=args.seed, formats=args.format, ops=tuple(args.op or conformance.OPS),
            spark=_active_spark_session(), master=args.master, partitions=args.partitions, timeout=args.timeout)
    except Exception as exc:
        _spark_job_failed("logcodec pipeline conformance", exc)
        return 1
    if args.json:
        report.write_jsonl(args.json, verdicts, info)
    if args.junit:
        report.write_junit(args.junit, verdicts, info)
    print(f"seed {args.seed}, {args.count} random valid value(s) per format")
    print(report.summary(verdicts, bad, info))
    if info.gave_up and not verdicts:
        return 1
    return 1 if bad else 0


def _at_least_one(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive integer")
    return value


def _active_spark_session():
    """The session this process already runs (a notebook's, a test's), to use and leave running; None
    when there is none, so that the job starts its own (and stops it)."""
    if "pyspark" not in sys.modules:
        return None
    from pyspark.sql import SparkSession

    return SparkSession.getActiveSession()


def _add_pipeline_parser(sub) -> None:
    pipe = sub.add_parser("pipeline", help="Spark jobs over log files (needs the pipeline extra and Java 17+)")
    psub = pipe.add_subparsers(dest="pipeline_command", required=True, metavar="SUBCOMMAND")
    p = psub.add_parser(
        "validate", help="decode, check and re-encode every batch under PATH on Spark; quarantine the bad ones",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description=textwrap.fill(
            "Decode every Kafka batch (or legacy message), TANK bundle or Inkless batch under PATH in Spark's "
            "tasks, check its checksums, re-encode it and compare (byte for byte when not compressed; compressed, "
            "the values of a second decoding, since other compressors write other bytes), and check TANK indexes "
            "against their logs and Inkless metadata against its objects. A bad entry is quarantined with its "
            "error kind and byte offset and the job goes on: batches read = valid + quarantined, always. What "
            "concerns no single batch (a bad index entry, Inkless metadata that names no object, dead bytes) is "
            "a finding, reported apart.", 79),
        epilog=textwrap.fill(
            "Writes DIR/results.parquet (a row per batch or bundle), DIR/findings.parquet (index and metadata "
            "findings) and DIR/summary.json, and prints a table; progress lines go to stderr.", 79)
               + "\n\nexit status:\n"
               "  0  nothing quarantined and no finding (a zero-filled tail is one only with --strict-zero-fill)\n"
               "  1  something quarantined or a finding (or the Spark job failed)\n"
               "  2  usage error (PATH missing or holding no logs, a bad option)")
    p.add_argument("path", metavar="PATH", help="a Kafka log directory or segment file, a TANK base or partition "
                                                "directory, or Inkless objects with their metadata (a directory, "
                                                "an object, or s3://bucket/prefix)")
    p.add_argument("--out", required=True, metavar="DIR", help="where to write the results (replaced if there)")
    p.add_argument("--master", metavar="URL", help="Spark master (default: an embedded local[*] session)")
    p.add_argument("--format", choices=["kafka", "tank", "inkless", "auto"], default="auto",
                   help="the logs' format (default auto: from file names and first bytes; s3:// is inkless)")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="an option of the data source, repeatable: for Inkless metadata=PATH (documents kept "
                        "apart), allowDeadBytes=true, s3Endpoint=URL, s3Region, ...; see the README")
    p.add_argument("--split-bytes", type=_at_least_one, default=32 << 20, metavar="N",
                   help="bytes per input partition (default 32 MiB)")
    p.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    p.add_argument("--strict-zero-fill", action="store_true",
                   help="a zero-filled tail (a preallocated segment's, after a crash) makes the exit status 1 too")
    p.set_defaults(func=cmd_pipeline_validate)
    p = psub.add_parser(
        "conformance", help="run seeded random valid values through a testee on Spark's executors",
        description=textwrap.fill(
            "Make COUNT random valid values per format (value i of format F depends on the seed, F and i only, "
            "whatever the number of executors: golden vectors with their free content changed, each change kept "
            "only when logcodec round-trips it), encode them with logcodec and run them through the testee, "
            "started once in each partition, then report as `logcodec conformance run` does, with the "
            "testee's expected-failure list. A --testee command runs as it is on every executor.", 79))
    p.add_argument("--impl", help="a shipped testee by name (see `logcodec conformance list`)")
    p.add_argument("--testee", metavar="COMMAND",
                   help="the testee's command line (it speaks conformance/PROTOCOL.md; installed on every executor)")
    p.add_argument("--expected-failures", metavar="FILE",
                   help="YAML list of expected failures (default for --impl: its checked-in list; for --testee: none)")
    p.add_argument("--count", type=_at_least_one, default=100, metavar="N", help="values per format (default 100)")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="the seed (default 0)")
    p.add_argument("--format", action="extend", nargs="+", metavar="F",
                   help="only these formats (repeatable; default: every format with golden vectors)")
    p.add_argument("--op", action="append", choices=["decode", "encode"], help="only this operation (repeatable)")
    p.add_argument("--master", metavar="URL", help="Spark master (default: an embedded local[*] session)")
    p.add_argument("--partitions", type=_at_least_one, metavar="N",
                   help="partitions, each with its own testee process (default: Spark's default parallelism)")
    p.add_argument("--timeout", type=float, default=10.0, help="seconds a testee may take per request (default 10)")
    p.add_argument("--junit", metavar="FILE", help="write a JUnit XML report here")
    p.add_argument("--json", metavar="FILE", help="write one JSON line per case here")
    p.set_defaults(func=cmd_pipeline_conformance)


def _version() -> str:
    from logcodec import __version__

    return __version__


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="logcodec", description=__doc__.splitlines()[0].rstrip("."))
    parser.add_argument("--version", action="version", version=f"logcodec {_version()}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("formats", help="list the format names")
    p.set_defaults(func=cmd_formats)

    p = sub.add_parser("generate", help="regenerate generated/ from schemas/")
    p.add_argument("--check", action="store_true", help="write nothing; exit 1 with a list of differences if stale")
    p.set_defaults(func=cmd_generate)

    p = sub.add_parser("decode", help="decode a binary file to canonical JSON on stdout",
                       description="Decode a file (or stdin) to canonical JSON. Exit status: 0 decoded, 1 bad "
                                   "data or a failed check, 2 a usage error.")
    p.add_argument("--format", "-f",
                   help="format name (logcodec formats lists them), e.g. kafka.record_batch_v2, or auto: the "
                        "format the bytes give evidence of (a magic number, a checksum), said on stderr")
    p.add_argument("--schema", metavar="FILE.ksy",
                   help="decode with any Kaitai Struct schema instead, compiled on first use (cached by content)")
    p.add_argument("-I", "--include", action="append", metavar="DIR", help="with --schema: an import folder (repeatable)")
    p.add_argument("--param", action="append", metavar="NAME=VALUE",
                   help="a parameter of the root type (repeatable), e.g. base_seq_num=13 for tank.bundle")
    for other in _other_inputs():
        p.add_argument(f"--{other}", metavar="FILE",
                       help=f"the {other} input of a format that reads one (logcodec formats says which)")
    p.add_argument("file", help="input file, - for stdin, or a directory for tank.partition")
    p.add_argument("--stream", action="store_true", help="values laid end to end; report a partial last one")
    p.add_argument("--hex", action="store_true", help="the input is hex text")
    p.add_argument("--compact", action="store_true", help="one line of JSON")
    p.set_defaults(func=cmd_decode)

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

    p = sub.add_parser("encode", help="encode a canonical JSON value to bytes",
                       description="Encode canonical JSON (as decode writes it) to bytes. Derived fields (lengths, "
                                   "counts, checksums) left out or null are computed; carried ones must be right, "
                                   "or --derive recomputes them all. Exit status: 0 encoded, 1 a value that cannot "
                                   "be encoded or input that is not JSON, 2 a usage error.")
    p.add_argument("--format", "-f", help="format name, e.g. kafka.record_batch_v2")
    p.add_argument("--schema", metavar="FILE.ksy", help="encode with any Kaitai Struct schema instead")
    p.add_argument("-I", "--include", action="append", metavar="DIR", help="with --schema: an import folder (repeatable)")
    p.add_argument("--param", action="append", metavar="NAME=VALUE", help="a parameter of the root type (repeatable)")
    p.add_argument("--derive", action="store_true",
                   help="recompute every derived field (lengths, counts, checksums) instead of checking the ones "
                        "given: for a decoded value that was changed, or whose checksum covers another encoder's "
                        "bytes (another producer's compressed batch)")
    p.add_argument("file", help="JSON file, or - for stdin")
    p.add_argument("--output", "-o", help="output file (default: stdout)")
    p.add_argument("--hex", action="store_true", help="write hex text instead of bytes")
    p.set_defaults(func=cmd_encode)

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

    p = sub.add_parser("testee", help="serve logcodec's own codecs over the conformance protocol (stdin/stdout)")
    p.set_defaults(func=cmd_testee)

    conf = sub.add_parser("conformance", help="test an implementation against the golden vectors")
    csub = conf.add_subparsers(dest="conformance_command", required=True, metavar="SUBCOMMAND")
    p = csub.add_parser("run", help="run the vectors through a testee and judge its answers")
    p.add_argument("--testee", help="the testee's command line (it speaks conformance/PROTOCOL.md)")
    p.add_argument("--impl", help="a shipped testee by name (see `logcodec conformance list`)")
    p.add_argument("--format", action="append", help="only this format (repeatable)")
    p.add_argument("--op", action="append", choices=["decode", "encode"], help="only this operation (repeatable)")
    p.add_argument("--expected-failures", help="YAML list of expected failures (default for --impl: its checked-in list)")
    p.add_argument("--update-failures", action="store_true", help="rewrite the expected-failure list from this run")
    p.add_argument("--junit", help="write a JUnit XML report here")
    p.add_argument("--json", help="write one JSON line per case here")
    p.add_argument("--timeout", type=float, default=10.0, help="seconds a testee may take per request (default 10)")
    p.add_argument("--budget", type=float, metavar="SECONDS",
                   help="stop after this much wall time; the cases left are reported not_run")
    p.add_argument("--window", type=int, default=64, help="requests in flight at once (default 64)")
    p.add_argument("--repeat", type=int, default=1, help="send every case N times (for throughput measurements)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_conformance_run)
    p = csub.add_parser("list", help="list the shipped testees")
    p.set_defaults(func=cmd_conformance_list)
    p = csub.add_parser("matrix", help="run the shipped testees, record their results and regenerate the docs")
    p.add_argument("--impl", action="append", help="only this testee (repeatable)")
    p.set_defaults(func=cmd_conformance_matrix)

    from logcodec.inkless.cli import add_parser as add_inkless_parser  # noqa: PLC0415 (the format's own)

    add_inkless_parser(sub)
    _add_pipeline_parser(sub)

    p = sub.add_parser("docs", help="serve the generated format docs on 127.0.0.1")
    p.add_argument("--port", type=int, default=8000, help="port (0 picks a free one)")
    p.add_argument("--open", action="store_true", help="also open a browser")
    p.add_argument("--path", action="store_true", help="only print the path of index.html")
    p.add_argument("--schema", metavar="KSY", help="also decode this Kaitai schema's format (compiled in memory)")
    p.add_argument("-I", "--include", action="append", metavar="DIR", help="where --schema's imports are looked up")
    p.add_argument("--max-bytes", type=int, default=256 << 10, help="largest input /api/decode takes (default 256 KiB)")
    p.add_argument("--quiet", action="store_true", help="do not log requests")
    p.set_defaults(func=cmd_docs)
    return parser


def _command_name(args) -> str:
    """The subcommand as typed (`conformance run`), for the errors' prefix."""
    sub = getattr(args, f"{args.command}_command", None)
    return f"{args.command} {sub}" if sub else args.command


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except BrokenPipeError:  # `logcodec decode ... | head` is fine
        sys.stderr.close()
        return 0
    except UsageError as exc:
        note(_command_name(args), str(exc))
        return 2
    except (LogcodecError, InputError) as exc:
        note(_command_name(args), str(exc))
        return 1
    except (OSError, ValueError) as exc:
        note(_command_name(args), str(exc))
        return 1
    except Exception as exc:  # malformed schemas: a line per problem, naming the file, the place and the YAML path
        from logcodec.generator.problems import SchemaError

        if not isinstance(exc, SchemaError):
            raise
        for line in str(exc).splitlines():
            note(_command_name(args), line)
        return 1


if __name__ == "__main__":
    sys.exit(main())
