"""logcodec under the suite, as a black box: `logcodec compile`, then the module's decoder.

Each spec's schema is compiled on its own by the command line,

    python -m logcodec compile formats/<id>.ksy -o BUILD/logcodec/<id> --package kst_<id>
        -I formats/ks_path -I import_path

which writes the package `kst_<id>/` with one module per schema. A missing
command or a non-zero exit is a compile error, reported by the first line of its
message. The input is decoded with the module's `decode(data)`, the call a user
makes first: a Kaitai schema's root does not fill its input (no
`-lc-fills-input`), so it reads the value at the start of the data and leaves
the bytes after it unread, as Kaitai's parsers do (many of the suite's inputs
have some). Enum literals in `expected` are resolved through the schemas,
so logcodec's enums need only be `Enum`s with the right values.

Exceptions: logcodec's decoders raise only `logcodec.DecodeError`, whose
`kind` says what went wrong. The suite's names map to kinds:

| suite's exception | DecodeError.kind | why |
|---|---|---|
| `EndOfStreamError` | `truncated`, `invalid_length` | a read past the end of the data (`truncated`) or of a sized substream (logcodec says `invalid_length`: "needs 4 bytes, 3 left in the enclosing field"; Kaitai has one error for both) |
| `Validation{NotEqual,LessThan,GreaterThan,NotAnyOf,NotInEnum,Expr}Error` | `invalid_value` | a `valid:` or `contents:` check failed |
| `UndecidedEndiannessError` | `invalid_value` | no case of `meta/endian`'s `switch-on` matched |
| `ConversionError` | `invalid_value` | `.to_i` of a string that is not a number |

The suite's message texts are the Kaitai runtimes' own, so they are not
compared for logcodec (only for the official output). A `DecodeError` where no
exception is expected is a parse error; any other exception from the decoder
is one too, and is reported as a crash of logcodec (it promises DecodeError).
`_io`, `_parent` and `_root` are used when the value objects have them,
else the assert is `unsupported`.
"""

from __future__ import annotations

import enum
import importlib
import os
import subprocess
import sys
import time
from pathlib import Path

from . import corpus
from .evaluator import Access, Unsupported

FIXTURES = Path(__file__).with_name("fixtures")

KINDS = {
    "EndOfStreamError": {"truncated", "invalid_length"},
    "ValidationNotEqualError": {"invalid_value"},
    "ValidationLessThanError": {"invalid_value"},
    "ValidationGreaterThanError": {"invalid_value"},
    "ValidationNotAnyOfError": {"invalid_value"},
    "ValidationNotInEnumError": {"invalid_value"},
    "ValidationExprError": {"invalid_value"},
    "UndecidedEndiannessError": {"invalid_value"},
    "ConversionError": {"invalid_value"},
}


def package_name(spec_id: str) -> str:
    return f"kst_{spec_id}"


def command() -> list[str]:
    return [sys.executable, "-m", "logcodec", "compile"]


def compile_one(suite: Path, schema: Path, out: Path, package: str, timeout: float = 120) -> dict:
    """Run `logcodec compile` on one schema; {"ok", "error", "seconds", "returncode", "output"}."""
    dirs = corpus.suite_dirs(suite)
    cmd = [*command(), str(schema), "-o", str(out), "--package", package]
    for d in dirs["import_dirs"]:
        cmd += ["-I", str(d)]
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(FIXTURES), *filter(None, [env.get("PYTHONPATH")])])
    t0 = time.perf_counter()
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=corpus.REPO, env=env)
    except subprocess.TimeoutExpired:
        return {"ok": False, "error": f"timed out after {timeout:g} s", "seconds": timeout, "returncode": None,
                "output": ""}
    seconds = time.perf_counter() - t0
    text = (proc.stderr.strip() or proc.stdout.strip())
    if proc.returncode != 0:
        if "invalid choice: 'compile'" in text:
            first = "`logcodec compile` does not exist"
        else:
            lines = [ln for ln in text.splitlines() if ln.strip()]
            # a traceback's last line says what happened; a reported error says it first
            first = lines[-1] if lines and lines[0].startswith("Traceback") else (lines[0] if lines else "")
            if lines and lines[0].startswith("Traceback"):
                first = "crash: " + first
        return {"ok": False, "error": first or f"exit status {proc.returncode}", "seconds": seconds,
                "returncode": proc.returncode, "output": text}
    return {"ok": True, "error": None, "seconds": seconds, "returncode": 0, "output": text}


# --- in the worker ------------------------------------------------------------------------

class LogcodecAccess(Access):
    def is_struct(self, value) -> bool:
        return hasattr(value, "__dict__") and not isinstance(value, (enum.Enum, type))

    def special(self, obj, name: str):
        if self.is_struct(obj) and hasattr(obj, name):
            return getattr(obj, name)
        raise Unsupported(f"`{name}` is not exposed by logcodec's values")

    def is_io(self, value) -> bool:
        from logcodec.runtime.primitives import KStream
        return isinstance(value, KStream)

    def io_attr(self, io, name: str):
        if name in ("size", "pos", "eof"):
            return getattr(io, name)
        raise Unsupported(f"_io.{name}")


class LogcodecImpl:
    name = "logcodec"
    access = LogcodecAccess()

    def __init__(self, folder: Path, package: str) -> None:
        self.folder, self.package = folder, package

    def module(self, spec_id: str):
        for path in (str(FIXTURES), str(self.folder)):
            if path not in sys.path:
                sys.path.insert(0, path)
        try:
            return importlib.import_module(f"{self.package}.{spec_id}")
        except ModuleNotFoundError:
            pkg = importlib.import_module(self.package)
            formats = getattr(pkg, "FORMATS", {})
            if len(formats) == 1:
                return importlib.import_module(next(iter(formats.values())))
            raise

    def parse(self, spec_id: str, data: bytes):
        return self.module(spec_id).decode(data)

    def roundtrip(self, spec_id: str, data: bytes) -> dict:
        """Serialization: encode(decode(b)) against the bytes the value was read from.
        `same`: byte for byte; `refused`: the encoder demanded a field (EncodeError);
        `other_bytes`: other bytes that decode to an equal value (the schema leaves them open,
        padding or unread bytes); `wrong`: bytes that do not decode back to the value."""
        from logcodec.runtime.errors import LogcodecError
        module = self.module(spec_id)
        value, used = module.decode_prefix(data)
        try:
            out = module.encode(value)
        except LogcodecError as exc:
            return {"result": "refused", "detail": str(exc)[:200]}
        if out == data[:used]:
            return {"result": "same"}
        try:
            again, _ = module.decode_prefix(out)
        except LogcodecError as exc:
            return {"result": "wrong", "detail": f"does not decode: {exc}"[:200]}
        return {"result": "other_bytes" if again == value else "wrong",
                "detail": f"{len(out)} bytes for {used}"}

    def parse_partial(self, spec_id: str, data: bytes):
        """logcodec returns no partial value: (None, the DecodeError) or (the value, None)."""
        try:
            return self.parse(spec_id, data), None
        except Exception as exc:  # noqa: BLE001
            return None, exc

    def exception_matches(self, exc: BaseException, name: str, message: str | None) -> tuple[bool, str]:
        import logcodec

        kinds = KINDS.get(name.split("<")[0])
        if kinds is None:
            return False, f"no DecodeError kind is mapped to {name}"
        if not isinstance(exc, logcodec.DecodeError):
            return False, f"raised {type(exc).__name__}: {exc}, expected DecodeError({'|'.join(sorted(kinds))})"
        if exc.kind not in kinds:
            return False, f"DecodeError kind {exc.kind!r} ({exc}), expected {'|'.join(sorted(kinds))}"
        return True, ""

    def cleanup(self) -> None:
        folder = str(self.folder)
        if folder in sys.path:
            sys.path.remove(folder)
        for name in list(sys.modules):
            if name == self.package or name.startswith(self.package + "."):
                del sys.modules[name]
