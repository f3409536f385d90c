"""`logcodec formats`, `decode` and `encode`: bytes to canonical JSON and back."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from logcodec._cli_io import UsageError, note, read_input, schema_file, write_json
from logcodec.cli._names import known_format, other_inputs, root_params
from logcodec.inputs import InputError, hex_bytes, hex_text
from logcodec.runtime.errors import EncodeError


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

    name = known_format(args.format)
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

    params = root_params(module, args.param, what)
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
    for other in other_inputs():
        if getattr(args, other, None):
            raise UsageError(f"--{other} goes with a format that reads it; {name} does not")


def _decode_composite(found, args) -> int:
    """A format of several inputs (`logcodec.composites`): a directory, or a file and others."""
    if args.param or args.hex or args.stream:
        raise UsageError(f"{found.name} takes {found.takes}, without --param, --hex or --stream")
    path = Path(args.file)
    what = "directory" if path.is_dir() else "file" if path.exists() else None
    if what is None or what not in found.path.split(" or "):
        raise UsageError(f"{found.name} takes {found.takes}; {args.file} is "
                         f"{'a ' + what if what else 'not there'}")
    others = {}
    for other in other_inputs():
        given = getattr(args, other, None)
        if other in found.others and other not in found.optional and not given:
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


# ---------------------------------------------------------------- encode

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

        what = known_format(args.format, composite_ok=False)
        module = logcodec.codec(what)
    params = root_params(module, args.param, what)
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


# ---------------------------------------------------------------- their parsers

def add_formats(sub) -> None:
    """`logcodec formats`."""
    p = sub.add_parser("formats", help="list the format names")
    p.set_defaults(func=cmd_formats)


def add_decode(sub) -> None:
    """`logcodec decode`."""
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
    for other in other_inputs():
        p.add_argument(f"--{other}", metavar="FILE",
                       help=f"the {other} input of a format that reads one (logcodec formats says which)")
    p.add_argument("file", help="input file, - for stdin, or a directory for tank.partition")
    p.add_argument("--stream", action="store_true", help="values laid end to end; report a partial last one")
    p.add_argument("--hex", action="store_true", help="the input is hex text")
    p.add_argument("--compact", action="store_true", help="one line of JSON")
    p.set_defaults(func=cmd_decode)


def add_encode(sub) -> None:
    """`logcodec encode`."""
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
