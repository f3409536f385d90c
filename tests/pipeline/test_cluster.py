"""logcodec on a real Spark cluster (issue 15, item 3): a standalone master and worker on 127.0.0.1,
started with pyspark's own `spark-class`, whose executors' Python does not have logcodec
(`tests/pipeline/cluster.py`). Drivers run in processes of their own (one SparkContext per
process; the other tests hold a local one), with `--master spark://127.0.0.1:PORT`.

- The validation job and DataFrame reads give the same rows as `local[*]` (the shared session):
  logcodec reaches the executors as a zip (`pipeline/ship.py`), and they run the pure-Python
  codecs, no compiled build fitting there.
- Executors without logcodec (shipping turned off), and a path the driver reads but the
  executors cannot (the worker runs in a mount namespace of its own where it is an empty folder),
  are one clear line from `logcodec pipeline validate`, not a Java stack.

The cluster starts once for the module (about 10 s); four driver processes start and stop their
applications (10-30 s each on an idle machine). `-m 'not cluster'` deselects these tests.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.pipeline import corpus

pytestmark = pytest.mark.cluster

pytest.importorskip("pyspark")
if shutil.which("java") is None:
    pytest.skip("no java on PATH: Spark cannot start", allow_module_level=True)

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    from tests.pipeline.cluster import StandaloneCluster

    c = StandaloneCluster(tmp_path_factory.mktemp("cluster")).start()
    yield c
    c.stop()


def _run(cluster, args: list[str], cwd: Path, **env) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], cwd=cwd, env=cluster.driver_env(**env), capture_output=True,
                          text=True, timeout=300)


def _validate(cluster, path: Path, out: Path, cwd: Path, **env) -> subprocess.CompletedProcess:
    return _run(cluster, ["-m", "logcodec", "pipeline", "validate", str(path), "--out", str(out),
                          "--master", cluster.url, "--quiet"], cwd, **env)


def _rows(folder: Path) -> list[tuple]:
    import pyarrow.parquet as pq

    table = pq.read_table(folder)
    return sorted(tuple(map(repr, row.values())) for row in table.to_pylist())


def _spark_lines(stderr: str) -> list[str]:
    """stderr without the JVM's notice about incubator modules."""
    return [line for line in stderr.splitlines() if line.strip() and "incubator modules" not in line]


def test_the_workers_python_lacks_logcodec(cluster):
    """The premise: the executors' Python cannot import logcodec, but has what a node is given."""
    probe = subprocess.run([str(cluster.python), "-c", "import pyarrow, crc32c, zstandard\nimport logcodec"],
                           capture_output=True, text=True, cwd=cluster.root)
    assert probe.returncode == 1
    assert "No module named 'logcodec'" in probe.stderr


def test_validation_job_on_a_cluster_gives_the_rows_of_local(cluster, spark, validation_corpus, tmp_path):
    """`logcodec pipeline validate --master spark://...` (Kafka logs)."""
    from logcodec.pipeline import validate

    local = validate.validate(validation_corpus["kafka"], tmp_path / "local", spark=spark)
    proc = _validate(cluster, validation_corpus["kafka"], tmp_path / "cluster", tmp_path)
    assert proc.returncode == 1, proc.stderr  # the corpus has quarantined entries, on both
    _same_validation(json.loads((tmp_path / "cluster" / "summary.json").read_text()), tmp_path / "cluster",
                     local, tmp_path / "local", cluster.url)


def _same_validation(remote: dict, remote_out: Path, local: dict, local_out: Path, master: str) -> None:
    assert remote["master"] == master
    assert remote["total"] == local["total"] and remote["files"] == local["files"]
    assert remote["total"]["quarantined"] > 0
    for table in ("results.parquet", "findings.parquet"):
        assert _rows(remote_out / table) == _rows(local_out / table)


DRIVER = textwrap.dedent('''
    import json, sys
    from logcodec.pipeline import local_session, validate

    spark = local_session(sys.argv[1])
    out = {}
    for name, fmt, path, rows in json.loads(sys.argv[2]):
        df = spark.read.format(fmt).option("rows", rows).load(path)
        out[name] = [[repr(v) for v in row] for row in df.collect()]
    out["validation"] = validate.validate(sys.argv[3], sys.argv[4], spark=spark)

    def probe(_):
        import sys
        from logcodec.generated.kafka import record_batch_v2 as rb
        return [rb.__file__, getattr(rb, "NATIVE", None), sys.executable]

    out["executors"] = spark.sparkContext.parallelize(range(2), 2).map(probe).collect()
    spark.stop()
    print(json.dumps(out))
''')


def test_dataframe_reads_and_the_validation_job_on_a_cluster_give_the_rows_of_local(
        cluster, spark, kafka_corpus, tank_corpus, validation_corpus, tmp_path):
    """DataFrame reads and the validation job (TANK logs, through `validate.validate`) in one driver."""
    from logcodec.pipeline import validate

    queries = [("kafka records", "logcodec.kafka", str(kafka_corpus["logs"]), "record"),
               ("kafka batches", "logcodec.kafka", str(kafka_corpus["corrupt"]), "batch"),
               ("tank messages", "logcodec.tank", str(tank_corpus), "record")]
    script = tmp_path / "driver.py"
    script.write_text(DRIVER)
    proc = _run(cluster, [str(script), cluster.url, json.dumps(queries), str(validation_corpus["tank"]),
                          str(tmp_path / "cluster")], tmp_path)
    assert proc.returncode == 0, proc.stderr[-3000:]
    remote = json.loads(proc.stdout.strip().splitlines()[-1])
    for name, fmt, path, rows in queries:
        df = spark.read.format(fmt).option("rows", rows).load(path)
        local = [[repr(v) for v in row] for row in df.collect()]
        assert len(local) > 3
        assert sorted(remote[name]) == sorted(local), name
    local = validate.validate(validation_corpus["tank"], tmp_path / "local", spark=spark)
    _same_validation(remote["validation"], tmp_path / "cluster", local, tmp_path / "local", cluster.url)
    # The executors imported logcodec from the shipped zip, in their own Python, with pure-Python codecs.
    for module_file, native, executable in remote["executors"]:
        assert ".zip/logcodec/generated/kafka/record_batch_v2.py" in module_file
        assert native is None
        assert executable == str(cluster.python)


def _quick_failures(tmp_path: Path, **conf: str) -> str:
    """A Spark configuration folder (SPARK_CONF_DIR) whose spark-defaults.conf fails a job at a task's
    first failure (Spark tries each task 4 times by default) and sets `conf`."""
    folder = tmp_path / "conf"
    folder.mkdir()
    (folder / "spark-defaults.conf").write_text("".join(f"{k} {v}\n" for k, v in
                                                        {"spark.task.maxFailures": "1", **conf}.items()))
    return str(folder)


def test_executors_without_logcodec_are_one_line(cluster, validation_corpus, tmp_path):
    proc = _validate(cluster, validation_corpus["kafka"], tmp_path / "out", tmp_path,
                     SPARK_CONF_DIR=_quick_failures(tmp_path, **{"spark.logcodec.ship": "false"}))
    assert proc.returncode == 1
    lines = _spark_lines(proc.stderr)
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("logcodec pipeline validate: the Spark job failed: ModuleNotFoundError: "
                               "No module named 'logcodec': ")
    assert "README" in lines[0]


def test_a_path_the_executors_cannot_read_is_one_line(cluster, tmp_path):
    if not cluster.hides:
        pytest.skip("no mount namespaces here (unshare -m needs root): cannot hide a path from the executors")
    logs = cluster.hidden / "logs" / "orders-0"
    logs.mkdir(parents=True)
    segment = logs / "00000000000000000000.log"
    segment.write_bytes(corpus.mixed_segment())
    proc = _validate(cluster, cluster.hidden / "logs", tmp_path / "out", tmp_path,
                     SPARK_CONF_DIR=_quick_failures(tmp_path))
    assert proc.returncode == 1
    lines = _spark_lines(proc.stderr)
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith(f"logcodec pipeline validate: the Spark job failed: UnreadableInput: {segment}: "
                               "No such file or directory on executor host ")
    assert "readable from every executor" in lines[0]
