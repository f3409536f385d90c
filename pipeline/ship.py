"""Getting logcodec to executors that do not have it: the package as a zip, through Spark's pyFiles.

On a cluster, Spark runs the data sources' Python (planning on the driver's host, reading in the
executors) with the Python that `PYSPARK_PYTHON` (or `spark.pyspark.python`) names on each node.
That Python needs logcodec's dependencies (pyarrow, crc32c, cramjam, lz4, zstandard, ...: compiled
libraries, installed there with pip), but logcodec itself can come with the job: `ship(spark)` zips
the `logcodec` package this driver imports (every subpackage, wherever an editable install maps
it) and adds the zip with `SparkContext.addPyFile`, which puts it first on the Python path of every
worker. `local_session` and `register` do it for a master that is not `local[...]`.

Code imported from a zip cannot load C extensions, so executors run the generated codecs as pure
Python there, unless the executor's own build cache (`logcodec accelerate` run with the same
logcodec, `native.native_dir()`) holds a compiled build of exactly the shipped source: a build
is named by the hash of its sources, so none that does not fit is ever used.

`python -m logcodec.pipeline.ship [DIR]` writes the zip and prints its path, for
`spark-submit --py-files` or `spark.submit.pyFiles`.
"""

from __future__ import annotations

import atexit
import hashlib
import importlib
import io
import os
import shutil
import sys
import tempfile
import zipfile
from pathlib import Path

#: The import package's parts, each a folder of its own in a checkout (pyproject's package-dir).
PARTS = ("logcodec", "logcodec.generator", "logcodec.generated", "logcodec.conformance", "logcodec.pipeline")
#: What is never shipped: byte code, compiled codecs (a zip cannot load them), caches.
_SKIP_DIRS = {"__pycache__", "_native", "node_modules", ".pytest_cache"}
_SKIP_SUFFIXES = (".pyc", ".so", ".pyd", ".dylib")
#: The Spark configuration key that turns shipping on or off (`true` / `false`); by default it is
#: on for masters that are not `local[...]`.
CONF_KEY = "spark.logcodec.ship"


def _files() -> dict[str, Path]:
    """{name in the zip: file} of the whole `logcodec` package as this process imports it."""
    files: dict[str, Path] = {}
    for name in PARTS:
        module = importlib.import_module(name)
        prefix = name.replace(".", "/")
        for root in module.__path__:
            root = Path(root)
            for directory, subdirs, names in os.walk(root):
                subdirs[:] = sorted(d for d in subdirs if d not in _SKIP_DIRS and not d.startswith("."))
                for n in sorted(names):
                    if n.endswith(_SKIP_SUFFIXES):
                        continue
                    path = Path(directory) / n
                    files.setdefault(f"{prefix}/{path.relative_to(root).as_posix()}", path)
    return files


def package_zip(folder: Path | str | None = None) -> Path:
    """The `logcodec` package as a zip in `folder` (default: a temporary folder), named by the hash
    of its contents (`logcodec-<hash>.zip`), so that a changed package is a new file for Spark."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as z:
        for arcname, path in sorted(_files().items()):
            info = zipfile.ZipInfo(arcname, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            z.writestr(info, path.read_bytes())
    data = buffer.getvalue()
    if folder is None:  # removed when this process ends (executors fetch the zip from the driver while it runs)
        folder = Path(tempfile.mkdtemp(prefix="logcodec-ship-"))
        atexit.register(shutil.rmtree, folder, True)
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / f"logcodec-{hashlib.sha256(data).hexdigest()[:16]}.zip"
    if not target.exists():
        target.write_bytes(data)
    return target


def wanted(spark) -> bool:
    """Whether to ship logcodec to this session's executors: the `spark.logcodec.ship` setting when
    given, else whether the master is not `local[...]` (local executors share the driver's Python)."""
    setting = spark.sparkContext.getConf().get(CONF_KEY)
    if setting is not None:
        return setting.strip().lower() in ("1", "true", "yes")
    return not spark.sparkContext.master.startswith("local")


def ship(spark, force: bool = False) -> Path | None:
    """Add the logcodec zip to the session's pyFiles (once per session), when `wanted` or `force`;
    return its path (None when not shipped). Call it before registering the data sources: Spark
    sends a data source the pyFiles it had when the source was registered."""
    if not (force or wanted(spark)):
        return None
    sc = spark.sparkContext
    shipped = getattr(sc, "_logcodec_shipped", None)
    if shipped is not None:
        return shipped
    path = package_zip()
    sc.addPyFile(str(path))
    sc._logcodec_shipped = path
    return path


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    print(package_zip(argv[0] if argv else "."))
    return 0


if __name__ == "__main__":
    sys.exit(main())
