"""The parts of the build that pyproject.toml cannot declare (see ARCHITECTURE.md, "Packaging").

1. The packages. Each root folder is a subpackage of `logcodec` (`package-dir` in pyproject.toml);
   every folder below them with an `__init__.py` is found here, so a new family of formats
   (`generated/<family>/`) or a new subpackage is never left out of the wheel.
2. Compiled codecs. A wheel build (`pip install .`, `pip wheel .`) compiles each generated codec
   with mypyc (from the source of its compiled build beside it, `<format>_compiled.py`, which
   ships as part of its package), and its C companion where it has one, as `logcodec accelerate`
   does and with the same function (`logcodec.runtime.native.compile_file`), into
   `logcodec/_native/` inside the wheel, where `native.py` looks for builds keyed by the hash of
   each module's source and of its compiled source. A build that the cache of compiled builds
   already holds ($LOGCODEC_NATIVE_DIR, else the user's cache: `logcodec accelerate` fills it)
   is copied instead: its name is the hash of both sources, so it is the build this would
   make. The wheel is then tagged for this interpreter and platform. Without a C compiler or
   Python's headers the wheel is pure Python, and works the same, slower.
   `LOGCODEC_BUILD_NATIVE=0` builds a pure wheel; `=1` fails the build instead of falling back. Editable installs are never compiled (use
   `logcodec accelerate`, which fills a cache that follows the sources as they change).
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import sys
import sysconfig
from pathlib import Path

from setuptools import Distribution, setup
from setuptools.command.build_py import build_py

try:  # setuptools >= 70.1 has its own; older ones use the wheel package's
    from setuptools.command.bdist_wheel import bdist_wheel
except ImportError:  # pragma: no cover
    from wheel.bdist_wheel import bdist_wheel

ROOT = Path(__file__).resolve().parent
# Keep in step with [tool.setuptools] package-dir in pyproject.toml.
PACKAGE_DIR = {
    "logcodec": "logcodec",
    "logcodec.generator": "generator",
    "logcodec.generated": "generated",
    "logcodec.conformance": "conformance",
    "logcodec.pipeline": "pipeline",
    "logcodec.schemas": "schemas",
}
#: Folders of data that ship as packages without modules (no `__init__.py` to find them by).
DATA_PACKAGES = ("logcodec.schemas",)
SKIP = {"__pycache__", "node_modules"}
NATIVE_ENV = "LOGCODEC_BUILD_NATIVE"  # auto (default), 0, 1
BUNDLED = "logcodec/_native"  # native.BUNDLED_DIR, relative to the build's lib folder


def find_packages() -> list[str]:
    packages = []
    for package, folder in PACKAGE_DIR.items():
        for init in sorted((ROOT / folder).rglob("__init__.py")):
            parts = init.parent.relative_to(ROOT / folder).parts
            if SKIP.intersection(parts):
                continue
            packages.append(".".join((package, *parts)))
    return sorted({*packages, *DATA_PACKAGES})


def _native_module():
    """logcodec/runtime/native.py, loaded by path: it needs only the standard library."""
    spec = importlib.util.spec_from_file_location("_logcodec_native", ROOT / "logcodec" / "runtime" / "native.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _why_not_native() -> str | None:
    """Why codecs cannot be compiled here, or None."""
    if importlib.util.find_spec("mypyc") is None:
        return "mypy (mypyc) is not installed in the build environment"
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None and shutil.which("cc") is None:
        return f"no C compiler ({compiler})"
    if not Path(sysconfig.get_paths()["include"], "Python.h").exists():
        return "Python's headers (Python.h) are not installed"
    return None


def _codec_sources(build_lib: Path) -> list[tuple[str, Path]]:
    """(module name, file) of every generated codec, as FORMATS in generated/__init__.py names them."""
    spec = importlib.util.spec_from_file_location("_logcodec_generated", ROOT / "generated" / "__init__.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    out = []
    for name in sorted(module.FORMATS.values()):
        path = build_lib.joinpath(*name.split(".")).with_suffix(".py")
        out.append((name, path))
    return out


class BuildPy(build_py):
    """build_py, then the compiled codecs (not for an editable install)."""

    native_built = 0

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        mode = os.environ.get(NATIVE_ENV, "auto").strip().lower()
        if mode in ("0", "no", "false", "off"):
            print(f"logcodec: {NATIVE_ENV}={mode}: pure-Python codecs", file=sys.stderr)
            return
        why = _why_not_native()
        if why:
            if mode in ("1", "yes", "true", "on"):
                raise SystemExit(f"logcodec: {NATIVE_ENV}={mode} but {why}")
            print(f"logcodec: pure-Python codecs ({why})", file=sys.stderr)
            return
        native = _native_module()
        build_lib = Path(self.build_lib)
        folder = build_lib / BUNDLED
        shutil.rmtree(folder, ignore_errors=True)  # an earlier build's leftovers would ship too
        sources = _codec_sources(build_lib)
        # each module, and its C loops where it has them, one per CPU at a time; a build the cache
        # of compiled builds holds (`logcodec accelerate`'s) is copied, not compiled again
        results = native.compile_files(sources, folder, log=lambda m: print(m, file=sys.stderr),
                                       reuse=native.native_dir())
        failed = [(name, r) for (name, _), r in zip(sources, results) if isinstance(r, Exception)]
        for name, exc in failed:
            print(f"logcodec: {name} stays pure Python: {str(exc)[:2000]}", file=sys.stderr)
        if failed and mode in ("1", "yes", "true", "on"):
            raise SystemExit(f"logcodec: {NATIVE_ENV}={mode} but {len(failed)} codec(s) did not compile")
        BuildPy.native_built = len(results) - len(failed)
        print(f"logcodec: {BuildPy.native_built} of {len(results)} codecs compiled into {BUNDLED}", file=sys.stderr)


class BdistWheel(bdist_wheel):
    """A wheel holding compiled codecs is tagged for this interpreter and platform."""

    def run(self) -> None:
        self.run_command("build")
        if BuildPy.native_built:
            self.root_is_pure = False
        super().run()

    def get_tag(self):
        if BuildPy.native_built:
            self.root_is_pure = False
        return super().get_tag()


class LogcodecDistribution(Distribution):
    """Compiled codecs are extension modules: installed as platform files, in a platform wheel."""

    def has_ext_modules(self) -> bool:
        return bool(BuildPy.native_built) or super().has_ext_modules()


setup(packages=find_packages(), distclass=LogcodecDistribution,
      cmdclass={"build_py": BuildPy, "bdist_wheel": BdistWheel})
