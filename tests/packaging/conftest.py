"""The installed wheel, built once for all the packaging tests (see installed.py).

`LOGCODEC_PACKAGING_VENV=DIR` runs them against the virtual environment DIR as it is instead (a
wheel installed there before, to rerun the tests without building one again)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.packaging.installed import IGNORE, REPO, Installed, pin


@pytest.fixture(scope="session")
def installed(tmp_path_factory) -> Installed:
    root = tmp_path_factory.mktemp("wheel")
    timings = {}
    if os.environ.get("LOGCODEC_PACKAGING_VENV"):
        venv = Path(os.environ["LOGCODEC_PACKAGING_VENV"]).resolve()
        yield Installed(root, next(iter(sorted(venv.glob("lib/*/site-packages/logcodec-*.dist-info"))), venv), venv,
                        timings)
        return
    started = time.perf_counter()
    src = root / "src"
    shutil.copytree(REPO, src, ignore=IGNORE, symlinks=True)
    dist = root / "dist"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", str(src), "-w", str(dist)],
                   check=True, capture_output=True, text=True, timeout=1500)
    wheel = next(dist.glob("logcodec-*.whl"))
    timings["build"] = time.perf_counter() - started

    started = time.perf_counter()
    venv = root / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    # From the ordinary index (pip's cache makes it quick). kafka-python (with xxhash, for its
    # magic-0 lz4) is the runtime of a testee: one shipped testee beyond those of the package itself.
    proc = subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", str(wheel),
                           pin("kafka-python"), pin("xxhash")], capture_output=True, text=True, timeout=900, cwd=root)
    assert proc.returncode == 0, proc.stderr[-4000:]
    timings["install"] = time.perf_counter() - started
    yield Installed(root, wheel, venv, timings)
    print(f"\npackaging: wheel build {timings['build']:.0f} s, install {timings['install']:.0f} s ({wheel.name})")
