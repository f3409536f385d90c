"""Shipping logcodec to executors (`pipeline/ship.py`) and one-line job errors (`pipeline/errors.py`),
without a cluster (tests/pipeline/test_cluster.py runs both on one)."""

from __future__ import annotations

import subprocess
import sys
import zipfile

import pytest

from logcodec.pipeline import errors, ship


def test_the_zip_holds_every_part_of_the_package_and_no_compiled_code(tmp_path):
    path = ship.package_zip(tmp_path)
    names = zipfile.ZipFile(path).namelist()
    for module in ("logcodec/__init__.py", "logcodec/runtime/native.py", "logcodec/pipeline/sources.py",
                   "logcodec/generated/kafka/record_batch_v2.py", "logcodec/generated/tank/bundle.py",
                   "logcodec/conformance/runner.py", "logcodec/generator/__init__.py"):
        assert module in names
    assert not [n for n in names if n.endswith((".so", ".pyc")) or "__pycache__" in n or "/_native/" in n]
    assert ship.package_zip(tmp_path) == path  # named by its contents: the same package, the same file


def test_a_python_that_imports_logcodec_from_the_zip_reads_logs(tmp_path):
    from tests.pipeline import corpus

    segment = tmp_path / "orders-0" / "00000000000000000000.log"
    segment.parent.mkdir()
    segment.write_bytes(corpus.mixed_segment())
    path = ship.package_zip(tmp_path / "zip")
    code = (f"import sys; sys.path.insert(0, {str(path)!r})\n"
            "import logcodec, logcodec.generated.kafka.record_batch_v2 as rb\n"
            "from logcodec.pipeline import kafka\n"
            "from logcodec.pipeline.plan import ReadOptions\n"
            f"o = ReadOptions(path={str(segment.parent)!r})\n"
            "print(logcodec.__file__, getattr(rb, 'NATIVE', None), sum(b.num_rows for p in kafka.plan(o)"
            " for b in kafka.read(p, o)))\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path,
                          env={"LOGCODEC_NATIVE_DIR": str(tmp_path / "no-builds"), "PATH": "/usr/bin:/bin"})
    assert proc.returncode == 0, proc.stderr
    module_file, native, rows = proc.stdout.split()
    assert module_file == f"{path}/logcodec/__init__.py"
    assert native == "None"  # no compiled build fits: pure Python
    assert int(rows) == len(corpus.expected_kafka_records(segment))


PLANNING = ("[PYTHON_DATA_SOURCE_ERROR] Failed to create Python data source instance: Traceback (most recent call "
            "last):\n  File \"/x/pyspark.zip/pyspark/serializers.py\", line 483, in loads\n"
            "    return cloudpickle.loads(obj, encoding=encoding)\n           ^^^^^^^^^^^^^^^^^^^^^^\n"
            "ModuleNotFoundError: No module named '{}'\n SQLSTATE: 38000")
TASK = ("An exception was thrown from the Python worker:\nTraceback (most recent call last):\n"
        "  File \"./logcodec-1.zip/logcodec/pipeline/errors.py\", line 54, in open_input\n"
        "    raise UnreadableInput(path, exc) from None\n"
        "logcodec.pipeline.errors.UnreadableInput: /data/a.log: No such file or directory on executor host n3 (...)\n"
        "\tat org.apache.spark.api.python.BasePythonRunner$ReaderIterator.handlePythonException(PythonRunner.scala:1)")


@pytest.mark.parametrize("text, line", [
    (PLANNING.format("logcodec"), "ModuleNotFoundError: No module named 'logcodec': the Python of Spark's workers "
                                  "lacks logcodec and it was not shipped"),
    (PLANNING.format("zstandard"), "ModuleNotFoundError: No module named 'zstandard': the Python of Spark's workers "
                                   "(PYSPARK_PYTHON) lacks it"),
    (TASK, "UnreadableInput: /data/a.log: No such file or directory on executor host n3 (...)"),
    ("[PATH_NOT_FOUND] Path does not exist: /x. SQLSTATE: 42K03\n\tat org.apache...", "[PATH_NOT_FOUND] Path does "
                                                                                       "not exist: /x."),
])
def test_a_failed_job_is_told_in_one_line(text, line):
    said = errors.explain(RuntimeError(text))
    assert "\n" not in said
    assert said.startswith(line)


def test_an_unreadable_input_names_the_path_and_pickles(tmp_path):
    import pickle

    with pytest.raises(errors.UnreadableInput) as caught:
        errors.open_input(str(tmp_path / "missing.log"))
    exc = pickle.loads(pickle.dumps(caught.value))
    assert str(exc).startswith(f"{tmp_path / 'missing.log'}: No such file or directory on executor host ")
    assert exc.path == str(tmp_path / "missing.log")
