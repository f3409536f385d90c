"""The official compiler's Python output under the suite: the reference adapter.

Every schema is compiled by the npm `kaitai-struct-compiler` (through
`ksc_batch.js`, all schemas in one node process) into its own folder, imported
with the `kaitaistruct` runtime and parsed as the suite's own Python specs do
(`Root.from_bytes(data)`; a debug-mode class is `_read()` explicitly).

The suite's exception names map to what the Python target raises
(`PythonCompiler.ksErrorName`): `EndOfStreamError` -> `EOFError` (the runtime's
`EndOfStreamError` is one), `ConversionError` -> `ValueError`, every other
name -> the `kaitaistruct` class of that name (`ValidationNotEqualError<u1>` ->
`kaitaistruct.ValidationNotEqualError`). When the spec gives a message, the
exception's `str()` must equal it, as in the suite's Python specs.

Null: the Python target never assigns a field it did not read (an `if` that
was false, a `switch-on` without a matching case), so reading it raises
`AttributeError`; the suite's own Python specs (`assertIsNone(r.x)`) fail
there. Here a field that the class's `_read` assigns somewhere but did not
this time is read as Kaitai's null, which is what the schema means.

The YAML is read in Python (duplicate keys refused, as Kaitai's own YAML
readers do) and handed to the compiler as JSON, so integers beyond 2^53 reach
the npm build as JavaScript numbers: that is the npm build's behaviour, kept.
"""

from __future__ import annotations

import enum
import importlib
import inspect
import json
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import yaml

from . import corpus
from .evaluator import Access, EvalError, Unsupported

BATCH_JS = Path(__file__).with_name("ksc_batch.js")
FIXTURES = Path(__file__).with_name("fixtures")


def available() -> str | None:
    """None when the official compiler can run here, else why not."""
    if not shutil.which("node"):
        return "node is not installed"
    if not (corpus.REPO / "node_modules" / "kaitai-struct-compiler").is_dir():
        return "kaitai-struct-compiler is not installed (run `npm ci`)"
    try:
        import kaitaistruct  # noqa: F401
    except ImportError:
        return "the kaitaistruct Python runtime is not installed"
    return None


def type2class(name: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in name.split("_"))


def _key(suite: Path, path: Path) -> str:
    return path.relative_to(suite).as_posix()


def compile_batch(suite: Path, mains: list[Path], root_dirs: list[Path]) -> tuple[dict[Path, dict], float]:
    """Compile `mains` (schemas under `root_dirs` may be imported); returns per main
    {"ok": True, "outputs": {...}} or {"ok": False, "error": ...}, and node's seconds."""
    dirs = corpus.suite_dirs(suite)
    files, results = {}, {}
    for root in [*root_dirs, *dirs["import_dirs"]]:
        for path in root.rglob("*.ksy"):
            try:
                files[_key(suite, path)] = corpus.load_yaml(path)
            except yaml.YAMLError as e:
                files[_key(suite, path)] = None
                if path in mains:
                    results[path] = {"ok": False, "error": "YAML: " + " ".join(str(e).split())}
    todo = [p for p in mains if p not in results]
    base = {"target": "python", "files": {k: v for k, v in files.items() if v is not None},
            "import_dirs": [_key(suite, d) for d in dirs["import_dirs"]]}
    by_key, seconds = run_batch(base, [_key(suite, p) for p in todo])
    results.update({p: by_key[_key(suite, p)] for p in todo})
    return results, seconds


def run_batch(base: dict, mains: list[str]) -> tuple[dict[str, dict], float]:
    """Compile the schemas keyed `mains` in `base["files"]` (`ksc_batch.js`'s request without
    "main"), all in one node process, restarted after the schema a crash happened on; returns
    {key: {"ok": True, "outputs": {...}} or {"ok": False, "error": ...}} and node's seconds."""
    results, todo, seconds = {}, list(mains), 0.0
    while todo:
        t0 = time.perf_counter()
        proc = subprocess.run(["node", str(BATCH_JS)], check=False, input=json.dumps({**base, "main": todo}),
                              capture_output=True, text=True, cwd=corpus.REPO)
        seconds += time.perf_counter() - t0
        by_key = {}
        for line in proc.stdout.splitlines():
            doc = json.loads(line)
            if "fatal" in doc:
                raise RuntimeError(f"ksc_batch.js failed: {doc['fatal']}")
            by_key[doc["file"]] = doc
        done = [k for k in todo if k in by_key]
        results.update({k: by_key[k] for k in done})
        rest = todo[len(done):]
        if rest:  # the compiler died on rest[0]
            lines = [ln for ln in proc.stderr.splitlines() if ln.strip()]
            results[rest[0]] = {"ok": False, "error": "compiler crashed: " + (lines[0] if lines else f"exit {proc.returncode}")}
            rest = rest[1:]
        todo = rest
    return results, seconds


def external_imports(outputs: dict[str, str]) -> set[str]:
    """Modules the compiled code imports that the compilation did not produce (opaque types,
    custom processors), leaving out the runtime and the standard library."""
    names = set()
    for source in outputs.values():
        names |= set(re.findall(r"^(?:import|from) ([A-Za-z_][\w]*)", source, re.M))
    known = {Path(n).stem for n in outputs} | {"kaitaistruct", "enum", "collections", "zlib", "struct", "io",
                                                "sys", "__future__"}
    return {n for n in names - known if n not in sys.stdlib_module_names}


def write_outputs(outputs: dict[str, str], folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name, source in outputs.items():
        (folder / name).write_text(source)


# --- in the worker ------------------------------------------------------------------------

_ASSIGNED: dict[type, str] = {}


def _read_source(cls) -> str:
    if cls not in _ASSIGNED:
        try:
            _ASSIGNED[cls] = inspect.getsource(cls._read)
        except (OSError, TypeError, AttributeError):
            _ASSIGNED[cls] = ""
    return _ASSIGNED[cls]


class OfficialAccess(Access):
    def attr(self, obj, name: str):
        try:
            return super().attr(obj, name)
        except EvalError:
            # The Python target never sets a field it did not read (an `if` that was false, a
            # switch without a matching case): that is Kaitai's null. Only for a name that
            # `_read` does assign somewhere, so a misspelt or absent field still fails.
            if self.is_struct(obj) and re.search(rf"\bself\.{re.escape(name)}\s*=", _read_source(type(obj))):
                return None
            raise

    def is_struct(self, value) -> bool:
        from kaitaistruct import KaitaiStruct
        return isinstance(value, KaitaiStruct)

    def special(self, obj, name: str):
        if not self.is_struct(obj):
            raise Unsupported(f"`{name}` of a {type(obj).__name__}")
        return getattr(obj, name)

    def is_io(self, value) -> bool:
        from kaitaistruct import KaitaiStream
        return isinstance(value, KaitaiStream)

    def io_attr(self, io, name: str):
        if name == "size":
            return io.size()
        if name == "pos":
            return io.pos()
        if name == "eof":
            return io.is_eof()
        raise Unsupported(f"_io.{name}")


_EXCEPTIONS = {"EndOfStreamError": "EOFError", "ConversionError": "ValueError"}


def exception_class(name: str):
    import kaitaistruct

    base = name.split("<")[0]
    mapped = _EXCEPTIONS.get(base)
    if mapped:
        return {"EOFError": EOFError, "ValueError": ValueError}[mapped]
    return getattr(kaitaistruct, base)


class OfficialImpl:
    name = "official"
    access = OfficialAccess()

    def __init__(self, folder: Path) -> None:
        self.folder = folder  # the spec's compiled modules

    def _new(self, spec_id: str, data: bytes):
        for path in (str(FIXTURES), str(self.folder)):
            if path not in sys.path:
                sys.path.insert(0, path)
        module = importlib.import_module(spec_id)
        cls = getattr(module, type2class(spec_id))
        return cls.from_bytes(data)

    @staticmethod
    def _debug_mode(obj) -> bool:
        return hasattr(obj, "_debug") and hasattr(obj, "SEQ_FIELDS")  # no _read() in __init__

    def parse(self, spec_id: str, data: bytes):
        obj = self._new(spec_id, data)
        if self._debug_mode(obj):
            obj._read()
        return obj

    def parse_partial(self, spec_id: str, data: bytes):
        """(the object, the exception its parse raised): a debug-mode object keeps what it read."""
        obj = self._new(spec_id, data)
        if not self._debug_mode(obj):
            return obj, None  # a non-debug class reads in __init__: it would have raised there
        try:
            obj._read()
        except Exception as exc:  # noqa: BLE001
            return obj, exc
        return obj, None

    def exception_matches(self, exc: BaseException, name: str, message: str | None) -> tuple[bool, str]:
        cls = exception_class(name)
        if not isinstance(exc, cls):
            return False, f"raised {type(exc).__name__}: {exc}, expected {cls.__name__}"
        if message is not None and str(exc) != message:
            return False, f"{type(exc).__name__} says {str(exc)!r}, expected {message!r}"
        return True, ""

    def is_enum(self, value) -> bool:
        return isinstance(value, enum.Enum)

    def cleanup(self) -> None:
        folder = str(self.folder)
        if folder in sys.path:
            sys.path.remove(folder)
        for name, mod in list(sys.modules.items()):
            if str(getattr(mod, "__file__", "") or "").startswith(folder + "/"):
                del sys.modules[name]
