"""Compiled builds of the generated codecs, made with mypyc and used when they match.

The generated modules are plain, type-checked Python and always work as they
are. `logcodec accelerate` compiles each one with mypyc (the compiler of mypy,
which turns type-annotated Python into a C extension) into a cache folder; the
module's own last line calls `accelerate(globals())`, which swaps in the
compiled functions and classes, but only from a build of exactly these sources.

A build is compiled from the source the generator wrote for it beside the
module, `<format>_compiled.py` (`compiled_source_file`): where the two builds
run different code faster (the interpreter reads a table faster than it
computes, compiled code the other way round), each has its own code, and
neither tests which it is. That file names its module's source by hash, and a
build is made only from the one written with the module as it is. A build is
named by the SHA-256 of both files (`build_name`): the module's, which loads
it, and the compiled source, which a generator change may alter alone; so
regenerating a codec can never run a stale binary. `LOGCODEC_PURE=1` turns
the swap off.

Builds are looked for in two folders: the cache (`native_dir()`), which
`logcodec accelerate` fills, and `logcodec/_native/` inside the installed
package, which a wheel build fills when mypy and a C compiler are there
(`setup.py` calls `compile_file` below, the same compilation). Either way a
build is used only for the exact source it was made from.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

PURE_ENV = "LOGCODEC_PURE"
PURE_KEY = "__logcodec_pure__"  # set in a module's globals before it runs: it keeps pure Python
DIR_ENV = "LOGCODEC_NATIVE_DIR"
#: Builds shipped inside the package (a wheel made by `pip install .` / `pip wheel .`; see setup.py).
BUNDLED_DIR = Path(__file__).resolve().parent.parent / "_native"


def native_dir() -> Path:
    """Where compiled builds live: $LOGCODEC_NATIVE_DIR, else the user's cache folder."""
    if os.environ.get(DIR_ENV):
        return Path(os.environ[DIR_ENV])
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return cache / "logcodec" / "native" / f"py{sys.version_info[0]}{sys.version_info[1]}"


def build_name(module_name: str, source: bytes, compiled: bytes) -> str:
    """The compiled module's name: the codec's name and the hash of the two sources a build stands
    for, the module's own (`source`) and that of its compiled build (`compiled`, which mypyc
    compiles): either may change alone."""
    digest = hashlib.sha256(hashlib.sha256(source).digest() + hashlib.sha256(compiled).digest())
    return f"_lcn_{module_name.rsplit('.', 1)[-1]}_{digest.hexdigest()[:20]}"


def search_path() -> list[Path]:
    """The folders searched for a build: the cache first, then the builds the package ships."""
    return [native_dir(), BUNDLED_DIR]


def find_build(name: str, folder: Path | None = None) -> Path | None:
    """A build of this name in `folder`, else in the folders of `search_path()`."""
    for where in [folder] if folder else search_path():
        for suffix in importlib.machinery.EXTENSION_SUFFIXES:
            path = where / f"{name}{suffix}"
            if path.exists():
                return path
    return None


def accelerate(module_globals: dict) -> None:
    """Replace a generated module's contents with its compiled build, when there is one."""
    source_file = module_globals.get("__file__") or ""
    if os.environ.get(PURE_ENV) or module_globals.get(PURE_KEY) or not source_file.endswith(".py"):
        return  # asked for pure Python, or this is the compiled build itself
    source = _read_beside(module_globals, source_file)
    compiled = _read_beside(module_globals, str(compiled_source_file(Path(source_file))))
    if source is None or compiled is None:
        return  # no build can be told to fit: stay pure
    module = _load(build_name(module_globals["__name__"], source, compiled))
    if module is None:
        return  # stay pure
    swapped = {}  # name -> (the pure object, its compiled replacement)
    for key, value in vars(module).items():
        if not (key.startswith("__") and key.endswith("__")):
            if module_globals.get(key) is not value:
                swapped[key] = (module_globals.get(key), value)
            module_globals[key] = value
    module_globals["NATIVE"] = module.__file__
    _rebind_early_imports(module_globals["__name__"], swapped)


def _rebind_early_imports(module_name: str, swapped: dict) -> None:
    """Where schemas import each other, a sibling (or its build) imported this module's names while
    it was still being imported, before the swap: it holds the pure functions and classes, which
    must not run beside compiled ones (a pure decoder cannot make a compiled class's value). Those
    names are bound again, to the compiled ones, in every module of the package and its builds."""
    package = module_name.rpartition(".")[0]
    for other in list(sys.modules.values()):
        name = getattr(other, "__name__", "")
        if not name.startswith((package + ".", "_lcn_")) or name == module_name:
            continue
        names = vars(other)
        for key, (pure, compiled) in swapped.items():
            # Only what this module defines: a name it imported from the runtime (`_decode_one`)
            # is the same object in every module, where each build has its own.
            if pure is not None and names.get(key) is pure and getattr(pure, "__module__", None) == module_name:
                names[key] = compiled


def _read_beside(module_globals: dict, path: str) -> bytes | None:
    """The file `path` of a module's package: read from disk, or through the module's loader when
    imported from a zip (shipped to Spark executors); None when it is not there."""
    try:
        return Path(path).read_bytes()
    except OSError:
        try:
            return module_globals["__loader__"].get_data(path)
        except (KeyError, AttributeError, OSError):
            return None


def _load(name: str):
    """The build `name` from the search path, imported (and in `sys.modules`); None when there is
    none, or it does not load here (built for another interpreter, or against a changed runtime)."""
    path = find_build(name)
    if path is None:
        return None
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except ImportError:
        del sys.modules[name]
        return None
    return module


def build(module, folder: Path | None = None, log=print) -> Path:
    """Compile one generated codec module with mypyc, and its C companion where it has one
    (unless builds of their sources exist); returns the module's build."""
    return compile_file(module.__name__, source_of(module), folder or native_dir(), log)


def source_of(module) -> Path:
    """The source file of a generated module, also while its compiled build is in use."""
    source_file = Path(module.__file__)
    return source_file if source_file.suffix == ".py" else Path(module.__spec__.origin)


def compile_files(sources: list[tuple[str, Path]], folder: Path, jobs: int | None = None, log=print,
                  done=None, reuse: Path | None = None) -> list[Path | Exception]:
    """`compile_file` of each (module name, source file), `jobs` at a time (default one per CPU:
    mypyc and the C compiler run as processes of their own, so threads suffice), as `logcodec
    accelerate` and a wheel build compile: for each, in order, its build or the error that stopped
    it (RuntimeError, OSError). `done(name, build or error, seconds)` is called as each ends. A
    build of the same name in `reuse` is copied, not compiled again (`_compiled`)."""
    # (imported here: only a build needs them, not every codec's import)
    import time
    from concurrent.futures import ThreadPoolExecutor

    def one(item: tuple[str, Path]) -> Path | Exception:
        name, source_file = item
        started = time.perf_counter()
        result: Path | Exception
        try:
            result = compile_file(name, source_file, folder, log, reuse)
        except (RuntimeError, OSError) as exc:
            result = exc
        if done is not None:
            done(name, result, time.perf_counter() - started)
        return result

    with ThreadPoolExecutor(max_workers=max(1, min(len(sources), jobs or os.cpu_count() or 1))) as pool:
        return list(pool.map(one, sources))


def compile_file(module_name: str, source_file: Path, folder: Path, log=print, reuse: Path | None = None) -> Path:
    """Compile the generated module in `source_file` (`compile_source`, from the source of its
    compiled build beside it) and its C companion where it has one (`compile_companion`), as
    `logcodec accelerate` and a wheel build do, and the runtime's C helper its build calls
    (`untracker`); returns the module's build."""
    source = source_file.read_bytes()
    built = compile_source(module_name, source, read_compiled_source(source_file, source), folder, log, reuse)
    compile_companion(UNTRACKED, UNTRACKED_C.read_bytes(), folder, log, reuse)  # what the build calls
    companion_file = companion_source(source_file)
    if companion_file.exists():
        compile_companion(source_file.stem, companion_file.read_bytes(), folder, log, reuse)
    return built


#: The runtime's C helper (`untracked.c`), which a compiled build's decoders call (`untracker`).
UNTRACKED = "untracked"
UNTRACKED_C = Path(__file__).with_name("untracked.c")


def untracker(sha: str):
    """The runtime's `untracked(o)` (`untracked.c`: takes a value object or list off the cyclic
    collector's list, and returns it), which a compiled build's decoders call on the values they
    make: the build of the source whose hash the generator wrote in the module (`sha`), as a
    companion's; where that build is missing, a function that returns `o` as it is. (No file is
    read here: on a Spark executor the package may be a zip.)"""
    helper = companion({}, UNTRACKED, sha)
    return helper.untracked if helper is not None else _as_it_is


def tree_untracker(sha: str):
    """The runtime's `untracked_tree(o)` (`untracked.c`: `untracked` of `o` and of every list,
    tuple and value object below it), which an interpreted decoder of a schema whose values hold
    no links back calls on the elements it makes, where the build of that source (`sha`) is
    there; None where it is not (pure Python): the values then stay tracked, as Python makes
    them."""
    helper = companion({}, UNTRACKED, sha)
    return helper.untracked_tree if helper is not None else None


def _as_it_is(o):
    return o


def companion_source(source_file: Path) -> Path:
    """Where a generated module's C companion is (`generator/c`), if it has one."""
    return source_file.with_name(f"{source_file.stem}_fast.c")


def companion_sha(source: bytes) -> str:
    """What a generated module names its C companion's build by: the hash of the C source."""
    return hashlib.sha256(source).hexdigest()[:20]


def companion_name(stem: str, sha: str) -> str:
    """A C companion's build name: its module's file name and the hash of the C source."""
    return f"_lcn_{stem}_fast_{sha}"


def companion(module_globals: dict, stem: str, sha: str):
    """The C companion of the generated module `stem` whose source hashes to `sha`, when a build
    of it is there; None in pure Python (`LOGCODEC_PURE`) or without that build."""
    if os.environ.get(PURE_ENV) or module_globals.get(PURE_KEY):
        return None
    name = companion_name(stem, sha)
    return sys.modules[name] if name in sys.modules else _load(name)  # None: the Python loops serve


#: Compiles `<name>.c` in the current folder into an extension of that name (argv: name), with
#: the compiler and flags Python was built with, as mypyc's builds are.
_COMPILE_C = """
import sys
from setuptools import Distribution, Extension
name = sys.argv[1]
ext = Extension(name, [name + ".c"], define_macros=[("LC_MODULE_NAME", '"%s"' % name), ("LC_MODULE_INIT", "PyInit_" + name)])
dist = Distribution({"name": name, "ext_modules": [ext], "script_args": ["build_ext", "--inplace"]})
dist.parse_command_line()
dist.run_commands()
"""


def compile_companion(stem: str, source: bytes, folder: Path, log=print, reuse: Path | None = None) -> Path:
    """Compile a module's C companion into `folder`, named by `companion_name` (needs only the
    standard library here, and setuptools and a C compiler to run, as `compile_source`)."""
    name = companion_name(stem, companion_sha(source))
    return _compiled(name, f"{name}.c", source, [sys.executable, "-c", _COMPILE_C, name], f"{stem}_fast.c",
                     folder, log, reuse)


def _compiled(name: str, file_name: str, content: bytes, cmd: list[str], what: str, folder: Path, log,
              reuse: Path | None = None) -> Path:
    """The build `name` in `folder`: found there; else copied from `reuse` where it is there (a
    wheel build takes `accelerate`'s: the name is the hash of what was compiled, so the build is
    the same); else made by running `cmd` in a temporary folder that holds `file_name`
    (`content`), and moved there."""
    found = find_build(name, folder)
    if found:
        return found
    folder.mkdir(parents=True, exist_ok=True)
    cached = find_build(name, reuse) if reuse is not None else None
    if cached is not None:
        log(f"{what}: the build in {reuse}")
        return _placed(cached, folder)
    with tempfile.TemporaryDirectory() as tmp:
        Path(tmp, file_name).write_bytes(content)
        log(f"compiling {what} ...")
        proc = subprocess.run(cmd, cwd=tmp, capture_output=True, text=True)
        built = find_build(name, Path(tmp))
        if proc.returncode != 0 or built is None:
            raise RuntimeError(f"compiling {what} failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}")
        return _placed(built, folder)


def _placed(built: Path, folder: Path) -> Path:
    """A copy of the build `built` in `folder`: copied beside its target, then renamed over it, so
    that a build placed at once by another process or thread (accelerate's and a wheel build's
    workers) is never seen half-written."""
    target = folder / built.name
    staged = folder / f".{built.name}.{os.getpid()}.{threading.get_ident()}"
    shutil.copy2(built, staged)
    os.replace(staged, target)
    return target


def compiled_source_file(source_file: Path) -> Path:
    """Where the generator wrote the source of a module's compiled build: beside it."""
    return source_file.with_name(f"{source_file.stem}_compiled.py")


def read_compiled_source(source_file: Path, source: bytes) -> bytes:
    """The source of the compiled build of the generated module in `source_file`, whose source is
    `source`; RuntimeError when it is not there, or was not written with that module (its
    header names the module's source by hash: a build of another is never made in its name)."""
    path = compiled_source_file(source_file)
    try:
        compiled = path.read_bytes()
    except FileNotFoundError:
        raise RuntimeError(f"{path.name} is missing beside {source_file.name}: it is the source mypyc compiles "
                           "for that module, which `logcodec generate` writes") from None
    header = b"".join(line for line in compiled.splitlines(keepends=True)[:10] if line.startswith(b"#"))
    if f"{source_file.name} (sha256 {hashlib.sha256(source).hexdigest()})".encode() not in header:
        raise RuntimeError(f"{path.name} was not generated with {source_file.name} as it is: "
                           "run `logcodec generate` to write them again together")
    return compiled


def compile_source(module_name: str, source: bytes, compiled: bytes, folder: Path, log=print,
                   reuse: Path | None = None) -> Path:
    """Compile the source of a generated module's compiled build (`compiled`) with mypyc into
    `folder`, named by `build_name` of it and of the module's own source (`source`), which
    `accelerate` finds it by.

    The source is compiled alone, in a temporary folder: its imports of `logcodec.runtime` stay
    ordinary Python calls, so a build depends only on its own source. Needs only the standard
    library here (setup.py loads this file by path), and mypy and a C compiler to run.
    """
    if importlib.util.find_spec("mypyc") is None:
        raise RuntimeError("mypyc is not installed: it comes with mypy, in logcodec's `native` extra "
                           "(pip install 'logcodec[native]'); the codecs work without it, in pure Python")
    name = build_name(module_name, source, compiled)
    cmd = [sys.executable, "-m", "mypyc", "--follow-imports=silent", "--ignore-missing-imports", f"{name}.py"]
    return _compiled(name, f"{name}.py", compiled, cmd, f"{module_name} with mypyc", folder, log, reuse)
