"""The `logcodec` command line.

Bad input ends with exit status 1 and one line on stderr naming the error kind,
the byte offset and the field path; usage errors exit with status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from logcodec.runtime.errors import LogcodecError


def _read_input(path: str) -> bytes:
    return sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()


def cmd_formats(args) -> int:
    import logcodec

    for name in logcodec.formats():
        print(name)
    return 0


def cmd_generate(args) -> int:
    from logcodec.generator.build import generate
    from logcodec.generator.schema import SchemaError

    try:
        changed = generate(check=args.check)
    except SchemaError as exc:
        print(f"logcodec generate: {exc}", file=sys.stderr)
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


def cmd_decode(args) -> int:
    import logcodec
    from logcodec.containers import DIRECTORY_FORMATS

    if args.format in DIRECTORY_FORMATS:  # a directory of files, such as a TANK partition
        doc = DIRECTORY_FORMATS[args.format](Path(args.file))
        json.dump(doc, sys.stdout, indent=None if args.compact else 2)
        sys.stdout.write("\n")
        return 0
    data = _read_input(args.file)
    if args.hex:
        data = bytes.fromhex(data.decode("ascii").strip())
    if args.stream:
        stream = logcodec.decode_stream(args.format, data)
        doc = {
            "items": [logcodec.to_json(v) for v in stream.items],
            "consumed": stream.consumed,
            "partial": stream.partial.to_json() if stream.partial else None,
        }
    else:
        doc = logcodec.to_json(logcodec.decode(args.format, data))
    json.dump(doc, sys.stdout, indent=None if args.compact else 2)
    sys.stdout.write("\n")
    return 0


def cmd_encode(args) -> int:
    import logcodec

    text = _read_input(args.file)
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        print(f"logcodec encode: {args.file} is not JSON: {exc}", file=sys.stderr)
        return 1
    data = logcodec.encode(args.format, doc)
    if args.hex:
        data = data.hex().encode() + b"\n"
    if args.output and args.output != "-":
        Path(args.output).write_bytes(data)
    else:
        sys.stdout.buffer.write(data)
    return 0


def cmd_accelerate(args) -> int:
    import time

    import logcodec
    from logcodec.runtime import native

    if args.path:
        print(native.native_dir())
        return 0
    for name in args.format or logcodec.formats():
        module = logcodec.codec(name)
        if module.NATIVE and not args.force:
            print(f"{name}: compiled build in use ({module.NATIVE})")
            continue
        started = time.perf_counter()
        try:
            path = native.build(module)
        except (RuntimeError, OSError) as exc:
            print(f"logcodec accelerate: {name}: {exc}", file=sys.stderr)
            return 1
        print(f"{name}: {path} ({time.perf_counter() - started:.1f} s)")
    return 0


def cmd_testee(args) -> int:
    from logcodec.conformance.own_testee import main as serve

    serve()
    return 0


def cmd_conformance_list(args) -> int:
    from logcodec.conformance.impls import SHIPPED

    for shipped in SHIPPED.values():
        missing = shipped.missing()
        state = "ready" if missing is None else f"unavailable: {missing}"
        print(f"{shipped.name:14} {shipped.what}\n{'':14} {state}; expected failures: "
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
    cases = build_cases(args.format, tuple(args.op or ("decode", "encode")))
    if args.repeat > 1:  # distinct ids, so repeated cases are judged one by one
        cases = [runner.Case(f"{c.id}#{r}", c.format, c.op, c.test) for r in range(args.repeat) for c in cases]
    entries = expected.load(Path(failures_file)) if failures_file else []
    verdicts, info = runner.run(command, cases, timeout=args.timeout, window=args.window,
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
    if info.gave_up and not verdicts:
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
    import http.server
    import functools
    import webbrowser

    from logcodec.generator.build import repo_root

    docs = Path(__file__).resolve().parent.parent / "generated" / "docs"
    if not docs.exists():
        docs = repo_root() / "generated" / "docs"
    if not (docs / "index.html").exists():
        print("logcodec docs: no generated/docs/index.html; run `logcodec generate`", file=sys.stderr)
        return 1
    if args.path:
        print(docs / "index.html")
        return 0
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(docs))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", args.port), handler)
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    print(f"serving {docs} at {url} (Ctrl-C stops)")
    if args.open:
        webbrowser.open(url)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="logcodec", description=__doc__.splitlines()[0].rstrip("."))
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("formats", help="list the format names")
    p.set_defaults(func=cmd_formats)

    p = sub.add_parser("generate", help="regenerate generated/ from schemas/")
    p.add_argument("--check", action="store_true", help="write nothing; exit 1 with a list of differences if stale")
    p.set_defaults(func=cmd_generate)

    p = sub.add_parser("decode", help="decode a binary file to canonical JSON on stdout")
    p.add_argument("--format", "-f", required=True,
                   help="format name, e.g. kafka.record_batch_v2, or tank.partition for a partition directory")
    p.add_argument("file", help="input file, - for stdin, or a directory for tank.partition")
    p.add_argument("--stream", action="store_true", help="values laid end to end; report a partial last one")
    p.add_argument("--hex", action="store_true", help="the input is hex text")
    p.add_argument("--compact", action="store_true", help="one line of JSON")
    p.set_defaults(func=cmd_decode)

    p = sub.add_parser("encode", help="encode a canonical JSON value to bytes")
    p.add_argument("--format", "-f", required=True, help="format name, e.g. kafka.record_batch_v2")
    p.add_argument("file", help="JSON file, or - for stdin")
    p.add_argument("--output", "-o", help="output file (default: stdout)")
    p.add_argument("--hex", action="store_true", help="write hex text instead of bytes")
    p.set_defaults(func=cmd_encode)

    p = sub.add_parser("accelerate", help="compile the generated codecs with mypyc (optional, several times faster)")
    p.add_argument("--format", "-f", action="append", help="only this format (repeatable)")
    p.add_argument("--force", action="store_true", help="rebuild even when a build of the current source exists")
    p.add_argument("--path", action="store_true", help="only print the folder of the compiled builds")
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
    p.add_argument("--window", type=int, default=64, help="requests in flight at once (default 64)")
    p.add_argument("--repeat", type=int, default=1, help="send every case N times (for throughput measurements)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_conformance_run)
    p = csub.add_parser("list", help="list the shipped testees")
    p.set_defaults(func=cmd_conformance_list)
    p = csub.add_parser("matrix", help="run the shipped testees, record their results and regenerate the docs")
    p.add_argument("--impl", action="append", help="only this testee (repeatable)")
    p.set_defaults(func=cmd_conformance_matrix)

    p = sub.add_parser("docs", help="serve the generated format docs on 127.0.0.1")
    p.add_argument("--port", type=int, default=8000, help="port (0 picks a free one)")
    p.add_argument("--open", action="store_true", help="also open a browser")
    p.add_argument("--path", action="store_true", help="only print the path of index.html")
    p.set_defaults(func=cmd_docs)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except BrokenPipeError:  # `logcodec decode ... | head` is fine
        sys.stderr.close()
        return 0
    except LogcodecError as exc:
        print(f"logcodec {args.command}: {exc}", file=sys.stderr)
        return 1
    except (OSError, ValueError) as exc:
        print(f"logcodec {args.command}: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
