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

The cluster starts once for the module (about 10 s) and each driver process takes 10-20 s.
`-m 'not cluster'` deselects these tests.
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


@pytest.mark.parametrize("fmt", ["kafka", "tank"])
def test_validation_job_on_a_cluster_gives_the_rows_of_local(cluster, spark, validation_corpus, tmp_path, fmt):
    from logcodec.pipeline import validate

    local = validate.validate(validation_corpus[fmt], tmp_path / "local", spark=spark)
    proc = _validate(cluster, validation_corpus[fmt], tmp_path / "cluster", tmp_path)
    assert proc.returncode == 1, proc.stderr  # the corpus has quarantined entries, on both
    remote = json.loads((tmp_path / "cluster" / "summary.json").read_text())
    assert remote["master"] == cluster.url
    assert remote["total"] == local["total"] and remote["files"] == local["files"]
    assert remote["total"]["quarantined"] > 0
    for table in ("results.parquet", "findings.parquet"):
        assert _rows(tmp_path / "cluster" / table) == _rows(tmp_path / "local" / table)


DRIVER = textwrap.dedent('''
    import json, sys
    from logcodec.pipeline import local_session

    spark = local_session(sys.argv[1])
    out = {}
    for name, fmt, path, rows in json.loads(sys.argv[2]):
        df = spark.read.format(fmt).option("rows", rows).load(path)
        out[name] = [[repr(v) for v in row] for row in df.collect()]

    def probe(_):
        import sys
        from logcodec.generated.kafka import record_batch_v2 as rb
        return [rb.__file__, getattr(rb, "NATIVE", None), sys.executable]

    out["executors"] = spark.sparkContext.parallelize(range(2), 2).map(probe).collect()
    spark.stop()
    print(json.dumps(out))
''')


def test_dataframe_reads_on_a_cluster_give_the_rows_of_local(cluster, spark, kafka_corpus, tank_corpus, tmp_path):
    queries = [("kafka records", "logcodec.kafka", str(kafka_corpus["logs"]), "record"),
               ("kafka batches", "logcodec.kafka", str(kafka_corpus["corrupt"]), "batch"),
               ("tank messages", "logcodec.tank", str(tank_corpus), "record")]
    script = tmp_path / "driver.py"
    script.write_text(DRIVER)
    proc = _run(cluster, [str(script), cluster.url, json.dumps(queries)], tmp_path)
    assert proc.returncode == 0, proc.stderr[-3000:]
    remote = json.loads(proc.stdout.strip().splitlines()[-1])
    for name, fmt, path, rows in queries:
        df = spark.read.format(fmt).option("rows", rows).load(path)
        local = [[repr(v) for v in row] for row in df.collect()]
        assert len(local) > 3
        assert sorted(remote[name]) == sorted(local), name
    # The executors imported logcodec from the shipped zip, in their own Python, with pure-Python codecs.
    for module_file, native, executable in remote["executors"]:
        assert ".zip/logcodec/generated/kafka/record_batch_v2.py" in module_file
        assert native is None
        assert executable == str(cluster.python)


def test_executors_without_logcodec_are_one_line(cluster, validation_corpus, tmp_path):
    conf = tmp_path / "conf"
    conf.mkdir()
    (conf / "spark-defaults.conf").write_text("spark.logcodec.ship false\n")
    proc = _validate(cluster, validation_corpus["kafka"], tmp_path / "out", tmp_path, SPARK_CONF_DIR=str(conf))
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
    proc = _validate(cluster, cluster.hidden / "logs", tmp_path / "out", tmp_path)
    assert proc.returncode == 1
    lines = _spark_lines(proc.stderr)
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith(f"logcodec pipeline validate: the Spark job failed: UnreadableInput: {segment}: "
                               "No such file or directory on executor host ")
    assert "readable from every executor" in lines[0]
