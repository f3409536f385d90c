"""A wheel built from this tree and installed into a fresh virtual environment, for the packaging
tests (the `installed` fixture of conftest.py): every command runs in a temporary folder outside
the repository, with a clean environment, so only what the wheel ships is used."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sysconfig
import tomllib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
# What .gitignore keeps out of the repository, and .git: the rest is the tree a wheel is built from.
_IGNORED = shutil.ignore_patterns(".git", ".venv", "node_modules", "build", "dist", "__pycache__", "*.egg-info",
                                  ".pytest_cache", ".hypothesis", ".native")


def IGNORE(folder: str, names: list[str]) -> set[str]:
    ignored = set(_IGNORED(folder, names))
    if Path(folder).resolve() == REPO / "fuzz":
        ignored.add("out")  # the fuzzing campaign's findings
    return ignored


DEMO = REPO / "tests" / "generator" / "schemas" / "demo"


def compiler_present() -> bool:
    """As setup.py decides: a C compiler and Python's headers (mypy comes with the build), unless
    LOGCODEC_BUILD_NATIVE=0 asks for a pure wheel."""
    if os.environ.get("LOGCODEC_BUILD_NATIVE", "auto").strip().lower() in ("0", "no", "false", "off"):
        return False
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    return bool(shutil.which(compiler) or shutil.which("cc")) and \
        Path(sysconfig.get_paths()["include"], "Python.h").exists()


class Installed:
    def __init__(self, root: Path, wheel: Path, venv: Path, timings: dict[str, float]):
        self.root, self.wheel, self.venv, self.timings = root, wheel, venv, timings
        self.work = root / "work"  # the folder every command runs in, outside the repository
        self.work.mkdir()
        self.bin = venv / "bin"
        self.env = {k: v for k, v in os.environ.items()
                    if k not in ("PYTHONPATH", "VIRTUAL_ENV", "LOGCODEC_PURE", "PYTHONHOME", "PYTHONSTARTUP")}
        self.env.update(PATH=f"{self.bin}{os.pathsep}{os.environ.get('PATH', '')}", PYTHONUNBUFFERED="1",
                        PYTHONNOUSERSITE="1", LOGCODEC_NATIVE_DIR=str(root / "empty-native-cache"))

    def run(self, *args: str, timeout: float = 600, check: bool = True) -> subprocess.CompletedProcess:
        proc = subprocess.run(args, cwd=self.work, env=self.env, capture_output=True, text=True, timeout=timeout)
        if check and proc.returncode != 0:
            pytest.fail(f"{' '.join(args)} exited {proc.returncode}\n{proc.stdout[-4000:]}\n{proc.stderr[-4000:]}")
        return proc

    def python(self, code: str, **kw) -> subprocess.CompletedProcess:
        return self.run(str(self.bin / "python"), "-c", code, **kw)

    def logcodec(self, *args: str, **kw) -> subprocess.CompletedProcess:
        return self.run(str(self.bin / "logcodec"), *args, **kw)


def pin(name: str) -> str:
    """The requirement of the test extra for a package, e.g. kafka-python==3.0.12."""
    extra = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["optional-dependencies"]["test"]
    return next(r for r in extra if re.split(r"[=<>\[ ]", r, maxsplit=1)[0] == name)
