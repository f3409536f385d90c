"""`spark.read.format("logcodec.inkless").option("metadata", "postgresql://...")` and `logcodec
pipeline validate` plan from Inkless's control plane: the session's cluster (`tests/conftest.py`,
made through `commit_file_v2` on Inkless's real schema, objects in S3) reads back every record
produced at the offsets the control plane assigned, validates clean with every byte accounted
for, and a broken copy gives its findings as rows.

Expected records are the cluster's own list of what it produced (offsets: positions in produce
order), never the reader's.
"""

from __future__ import annotations

import uuid

import pytest

pytest.importorskip("psycopg")
pytest.importorskip("pyarrow")

from logcodec.pipeline import inkless, validate

from tests.inkless import control_plane_cluster as cc
from tests.inkless import postgres_server


def redacted(url: str) -> str:
    """The URL as rows name it: without the test server's password."""
    return url.replace(f":{postgres_server.PASSWORD}@", ":***@")


def options(cluster, endpoint: str, **more) -> inkless.InklessOptions:
    return inkless.InklessOptions.parse({"path": cluster.store, **source_options(cluster, endpoint),
                                         **{k: str(v) for k, v in more.items()}}, environ={})


def source_options(cluster, endpoint: str) -> dict:
    """The data source's options: the control plane, and moto's S3 with its keys (given, not
    taken from the environment: Spark's workers may have started before it was set)."""
    return {"metadata": cluster.url, "s3Endpoint": endpoint, "s3AccessKey": "testing", "s3SecretKey": "testing",
            "s3Region": "us-east-1"}


def rows_of(opts: inkless.InklessOptions) -> list[dict]:
    """Every row of a read in one process: plan, then read each partition, as Spark's tasks do."""
    return [row for partition in inkless.plan(opts) for batch in inkless.read(partition, opts)
            for row in batch.to_pylist()]


def expected_records(cluster) -> dict:
    return {(str(uuid.UUID(bytes=cluster.topic_ids[topic])), partition): [(i, k, v) for i, (k, v) in enumerate(kv)]
            for (topic, partition), kv in cluster.produced.items()}


def by_partition(rows) -> dict:
    out: dict = {}
    for row in sorted(rows, key=lambda r: (r["topic_id"], r["partition"], r["offset"])):
        out.setdefault((row["topic_id"], row["partition"]), []).append((row["offset"], row["key"], row["value"]))
    return out


def test_records_read_from_the_control_plane_are_those_produced(inkless_cluster, inkless_s3):
    rows = rows_of(options(inkless_cluster, inkless_s3))
    assert [r for r in rows if r["error"] is not None] == []
    assert by_partition(rows) == expected_records(inkless_cluster)
    # the topic's name comes from `logs` (the rows name topics by id only)
    assert {(r["topic"], r["topic_id"]) for r in rows} == {
        (name, str(uuid.UUID(bytes=tid))) for name, tid in inkless_cluster.topic_ids.items()}
    assert {r["metadata"] for r in rows} == {redacted(inkless_cluster.url)}


def test_batch_rows_are_the_batches_produced(inkless_cluster, inkless_s3):
    rows = rows_of(options(inkless_cluster, inkless_s3, rows="batch"))
    produced = sum(len(request) + 1 for request in cc.produce_requests(6))  # orders/0 sends two batches a request
    assert len(rows) == produced and all(r["error"] is None and r["crc_valid"] for r in rows)
    assert all(r["entry"].startswith("batches[batch_id=") for r in rows)


def test_the_plan_holds_file_id_ranges_not_rows(inkless_cluster, inkless_s3):
    partitions = inkless.plan(options(inkless_cluster, inkless_s3, splitBytes=1))
    ranges = [r for p in partitions for r in p]
    assert all(r.extents == () for r in ranges)
    assert [r.file_ids for r in ranges] == [(i, i) for i in range(1, len(inkless_cluster.objects) + 1)]


def test_validation_rows_account_for_every_byte(inkless_cluster, inkless_s3):
    opts = options(inkless_cluster, inkless_s3, rows="validation")
    rows = rows_of(opts)
    assert {r["status"] for r in rows} == {"valid"}
    layout = inkless.byte_layout(opts)
    sizes = {f"{inkless_cluster.store}/{key}": len(data) for key, data in inkless_cluster.objects.items()}
    assert {k: v["size"] for k, v in layout.items()} == sizes
    assert all(v["dead"] == v["overlap"] == v["past_end"] == 0 for v in layout.values())
    for location, size in sizes.items():
        assert sum(r["size"] for r in rows if r["file"] == location) == size


def test_a_broken_copy_gives_its_findings_as_rows(inkless_cluster, inkless_postgres, inkless_s3):
    import psycopg

    server, _ = inkless_postgres
    copy = cc.copy_cluster(inkless_cluster, server, inkless_s3, "pipeline_broken")
    with psycopg.connect(copy.url, autocommit=True) as admin:
        file_id, key = admin.execute("SELECT file_id, object_key FROM files ORDER BY file_id LIMIT 1").fetchone()
        (other,) = admin.execute("SELECT object_key FROM files ORDER BY file_id DESC LIMIT 1").fetchone()
        admin.execute("UPDATE files SET state = 'deleting' WHERE file_id = %s", (file_id,))
        admin.execute("UPDATE logs SET high_watermark = high_watermark + 1 WHERE topic_name = 'audit'")
    cc.s3fs(inkless_s3).delete_file(f"{copy.store.removeprefix('s3://')}/{other}")
    rows = rows_of(options(copy, inkless_s3, rows="validation"))
    errors = {(r["file"], r["error_kind"], r["error_path"]) for r in rows if r["status"] != "valid"}
    audit = uuid.UUID(bytes=copy.topic_ids["audit"])
    assert errors == {
        (f"{copy.store}/{key}", "invalid_value", f"files[file_id={file_id}].state"),
        (f"{copy.store}/{other}", "truncated", f"files[file_id={len(copy.objects)}]"),
        # a finding of no object is the metadata's, as for a document that names no object
        (redacted(copy.url), "invalid_value", f"logs[topic_id={audit}, partition=0].high_watermark")}


def test_spark_reads_and_the_validation_job_plans_from_the_control_plane(spark, inkless_cluster, inkless_s3,
                                                                         tmp_path):
    df = (spark.read.format("logcodec.inkless").options(**source_options(inkless_cluster, inkless_s3))
          .load(inkless_cluster.store))
    got = by_partition(r.asDict() for r in df.select("topic_id", "partition", "offset", "key", "value",
                                                       "error").collect())
    assert {k: [(o, bytes(kk) if kk is not None else None, bytes(v) if v is not None else None) for o, kk, v in rs]
            for k, rs in got.items()} == expected_records(inkless_cluster)
    summary = validate.validate(inkless_cluster.store, tmp_path / "out", spark=spark, fmt="inkless",
                                options=source_options(inkless_cluster, inkless_s3))
    assert summary["total"]["quarantined"] == 0 and summary["total"]["findings"] == 0
    assert summary["total"]["batches"] == summary["total"]["valid"] > 0
    assert validate.exit_status(summary) == 0


def test_the_validation_job_refuses_a_database_that_is_not_a_control_plane_before_spark(inkless_postgres, capsys,
                                                                                         tmp_path):
    from logcodec import cli

    server, _ = inkless_postgres
    status = cli.main(["pipeline", "validate", str(tmp_path), "--format", "inkless", "--out", str(tmp_path / "out"),
                       "--option", f"metadata={server.url('postgres')}"])
    err = capsys.readouterr().err
    assert status == 2 and "not an Inkless control plane: no table logs, files, batches" in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
