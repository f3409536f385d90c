"""A Spark standalone cluster on 127.0.0.1 for the cluster tests: a master and a worker started with
pyspark's own `spark-class`, whose executors run a Python that does not have logcodec.

The executors' Python is a bare virtual environment of the same interpreter as the tests (Spark
wants the driver's and the workers' Python versions equal) without pip and without logcodec. It
sees only what an operator would install on a node: logcodec's compiled dependencies and pyarrow
(`NODE_DISTRIBUTIONS`, linked from the test environment's site-packages, so nothing is
downloaded). pyspark itself comes from the zip that Spark puts on every worker's path. The
worker's compiled-codec cache is an empty folder: no compiled build fits there.

Where the kernel lets us (`unshare -m`, as root), the worker runs in a mount namespace of its own
in which `hidden` is an empty tmpfs: a path that the driver reads and the executors cannot.
"""

from __future__ import annotations

import importlib.metadata
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

#: What a node's Python needs for logcodec's data sources (logcodec's own runtime dependencies and
#: pyarrow); jinja2, markdown and the test libraries are not needed to read logs.
NODE_DISTRIBUTIONS = ("pyarrow", "crc32c", "cramjam", "python-snappy", "lz4", "zstandard", "PyYAML", "kaitaistruct")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def bare_python(root: Path) -> Path:
    """A virtual environment of this interpreter with only `NODE_DISTRIBUTIONS` (linked) in it."""
    venv = root / "venv"
    subprocess.run([getattr(sys, "_base_executable", sys.executable), "-m", "venv", "--without-pip", str(venv)],
                   check=True, capture_output=True)
    deps = root / "deps"
    deps.mkdir()
    for name in NODE_DISTRIBUTIONS:
        dist = importlib.metadata.distribution(name)
        for top in sorted({Path(str(f)).parts[0] for f in dist.files or []}):
            source = Path(dist.locate_file(top))
            if top.startswith("..") or top == "__pycache__" or top.endswith(".pth") or not source.exists():
                continue
            if not (deps / top).exists():
                (deps / top).symlink_to(source)
    site = next((venv / "lib").glob("python3*/site-packages"))
    (site / "node-dependencies.pth").write_text(f"{deps}\n")
    return venv / "bin" / "python"


def can_hide() -> bool:
    """Whether a process can be given a mount namespace of its own here (root, a permissive kernel)."""
    if shutil.which("unshare") is None or os.geteuid() != 0:
        return False
    return subprocess.run(["unshare", "-m", "--propagation", "private", "true"], capture_output=True).returncode == 0


class StandaloneCluster:
    """`spark://127.0.0.1:PORT`: one master, one worker (2 cores, 2 GiB), logs in `root`."""

    def __init__(self, root: Path) -> None:
        import pyspark

        self.root = root
        self.spark_home = Path(pyspark.__file__).parent
        self.python = bare_python(root)
        self.port = free_port()
        self.url = f"spark://127.0.0.1:{self.port}"
        self.hidden = root / "hidden"
        self.hidden.mkdir()
        self.hides = can_hide()
        self.native = root / "native-cache"    # the executors' compiled-codec cache: empty
        self.native.mkdir()
        self.processes: list[subprocess.Popen] = []

    def _env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("PYSPARK", "SPARK_", "LOGCODEC_"))}
        env.update(SPARK_HOME=str(self.spark_home), SPARK_LOCAL_IP="127.0.0.1", SPARK_LOG_DIR=str(self.root),
                   SPARK_MASTER_OPTS="-Dspark.master.rest.enabled=false", LOGCODEC_NATIVE_DIR=str(self.native))
        return env

    def _start(self, name: str, command: list[str]) -> Path:
        log = self.root / f"{name}.log"
        with open(log, "wb") as out:
            self.processes.append(subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=self._env(),
                                                   cwd=self.root, start_new_session=True))
        return log

    def start(self, timeout: float = 90) -> "StandaloneCluster":
        spark_class = str(self.spark_home / "bin" / "spark-class")
        self._start("master", [spark_class, "org.apache.spark.deploy.master.Master", "--host", "127.0.0.1",
                               "--port", str(self.port), "--webui-port", "0"])
        worker = [spark_class, "org.apache.spark.deploy.worker.Worker", self.url, "--host", "127.0.0.1",
                  "--cores", "2", "--memory", "2g", "--work-dir", str(self.root / "work"), "--webui-port", "0"]
        if self.hides:
            worker = ["unshare", "-m", "--propagation", "private", "sh", "-c",
                      f'mount -t tmpfs tmpfs "{self.hidden}" && exec "$@"', "sh", *worker]
        log = self._start("worker", worker)
        deadline = time.monotonic() + timeout
        while b"Successfully registered with master" not in log.read_bytes():
            if time.monotonic() > deadline or any(p.poll() is not None for p in self.processes):
                self.stop()
                tail = b"".join((self.root / f"{n}.log").read_bytes()[-2000:] for n in ("master", "worker"))
                raise RuntimeError(f"the standalone cluster did not start:\n{tail.decode(errors='replace')}")
            time.sleep(0.3)
        return self

    def stop(self) -> None:
        for p in reversed(self.processes):
            if p.poll() is None:
                try:
                    os.killpg(p.pid, signal.SIGTERM)
                except ProcessLookupError:
                    continue
                try:
                    p.wait(20)
                except subprocess.TimeoutExpired:
                    os.killpg(p.pid, signal.SIGKILL)
                    p.wait()
        self.processes.clear()

    def driver_env(self, **more: str) -> dict[str, str]:
        """The environment of a driver process: the executors' Python, loopback."""
        env = {k: v for k, v in os.environ.items() if not k.startswith(("PYSPARK", "SPARK_"))}
        env.update(PYSPARK_PYTHON=str(self.python), SPARK_LOCAL_IP="127.0.0.1", **more)
        return env
