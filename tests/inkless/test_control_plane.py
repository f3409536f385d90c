"""Inkless against its real control plane: PostgreSQL 18 with Inkless's own 27 migrations (one
server for the session, `tests/conftest.py`), objects in S3 (moto's server on loopback).

A cluster is made as Inkless makes one (`control_plane_cluster`): blocks closed by `BlockBuilder`,
uploaded, committed through `commit_file_v2`. Reading a partition back goes through
`find_batches_v2` and must give every record produced, in order, at the offsets the control plane
assigned (their positions in produce order: every batch here is dense). Then one thing at a time
is broken, and `logcodec.inkless.control_plane.validate` must report exactly the finding it is,
naming the object, the row and the byte range; what each break must give is read from the rows the
test broke, never from the code under test.
"""

from __future__ import annotations

import itertools
import json
import sys
import uuid

import pytest

pytest.importorskip("psycopg")
pytest.importorskip("pyarrow")

import psycopg

from logcodec import cli
from logcodec.inkless import control_plane as cp
from logcodec.inkless.shipped import LOG_APPEND_TIME
from tests.inkless import control_plane_cluster as cc
from tests.inkless import postgres_server

_names = itertools.count()


@pytest.fixture
def base_cluster(inkless_cluster):
    return inkless_cluster


@pytest.fixture
def cluster(inkless_cluster, inkless_postgres, inkless_s3):
    """A copy of the session's cluster for one test to break: (cluster, store location, an admin
    connection to its database)."""
    server, _ = inkless_postgres
    copy = cc.copy_cluster(inkless_cluster, server, inkless_s3, f"cluster_{next(_names)}")
    with psycopg.connect(copy.url, autocommit=True) as admin:
        yield copy, copy.store, admin


def findings(cluster_url: str, store: str, **scope) -> set[tuple]:
    return {(f.kind, f.path, f.object_key, f.byte_range) for f in cp.validate(cluster_url, store, **scope)}


# ---------------------------------------------------------------- written as brokers write

def test_commits_through_commit_file_v2_coalesce_and_advance_the_high_watermarks(base_cluster):
    with psycopg.connect(base_cluster.url) as conn:
        logs = {(name, p): hwm for name, p, hwm in conn.execute(
            "SELECT topic_name, partition, high_watermark FROM logs")}
        (rows,) = conn.execute("SELECT count(*) FROM batches").fetchone()
    assert logs == {tp: len(records) for tp, records in base_cluster.produced.items()}
    produced_batches = 6 * 5  # per request: orders/0 two batches, orders/1, audit/0, idem/0 one each
    assert rows < produced_batches  # adjacent batches of a partition share a row (commit_file_v2 coalesces)


def test_a_partition_reads_back_through_find_batches_with_the_offsets_assigned(base_cluster, inkless_s3):
    store = base_cluster.store
    for (topic, partition), produced in base_cluster.produced.items():
        records = cp.read_records(base_cluster.url, store, topic=topic, partition=partition)
        assert [(r.offset, r.key, r.value) for r in records] == [(i, k, v) for i, (k, v) in enumerate(produced)]
        if topic == "audit":  # log-append time: served with the commit's time, as Inkless serves it
            assert {r.timestamp_type for r in records} == {LOG_APPEND_TIME}
            assert {r.timestamp for r in records} <= set(range(cc.TS, base_cluster.commit_ms + 1, 250))


def test_a_fetch_of_one_batch_at_a_time_and_from_an_offset_gives_the_same_records(base_cluster):
    store = base_cluster.store
    produced = base_cluster.produced[("orders", 0)]
    with cp.ControlPlane(base_cluster.url) as plane:
        batches = list(cp.read_batches(plane, store, topic="orders", partition=0, fetch_max_bytes=1))
        tail = cp.read_records(plane, store, topic="orders", partition=0, from_offset=20)
    assert [r.key for b in batches for r in b.records] == [k for k, _ in produced]
    assert [(r.offset, r.key) for r in tail] == [(i, k) for i, (k, _) in enumerate(produced) if i >= 20]


def test_a_cluster_as_committed_has_no_finding(base_cluster):
    assert findings(base_cluster.url, base_cluster.store) == set()


def test_pages_of_one_file_give_every_object_once_with_all_its_rows(base_cluster):
    with cp.ControlPlane(base_cluster.url, page_files=1) as plane:
        stored = list(plane.files())
        sizes = list(plane.file_sizes(page_rows=1))
        (rows,) = plane.query("SELECT count(*) AS n FROM batches")
        assert {(f.object_key, f.size) for f in stored} == {(k, len(v)) for k, v in base_cluster.objects.items()}
        assert [(r["object_key"], r["size"]) for r in sizes] == [(f.object_key, f.size) for f in stored]
        assert sum(len(f.batch_ids) for f in stored) == rows["n"]
        assert list(cp.validate(plane, base_cluster.store)) == []


def test_the_reader_only_reads(base_cluster):
    with cp.ControlPlane(base_cluster.url) as plane:
        assert plane.query("SHOW default_transaction_read_only")[0]["default_transaction_read_only"] == "on"
        with pytest.raises(cp.ControlPlaneError, match="read-only"):
            plane.query("UPDATE logs SET high_watermark = 0", rows=False)


def test_a_least_privilege_role_reads_and_validates(cluster, inkless_postgres):
    """The README's role: CONNECT, USAGE on the schema, SELECT on the three tables, EXECUTE on
    find_batches_v2, and nothing else (what PUBLIC may do by default is taken away first)."""
    cluster, store, admin = cluster
    server, _ = inkless_postgres
    role = f"reader_{cluster.url.rsplit('/', 1)[1]}"
    database = cluster.url.rsplit("/", 1)[1]
    for statement in [f"CREATE ROLE {role} LOGIN PASSWORD 'reader-password'",
                      f"REVOKE ALL ON DATABASE {database} FROM PUBLIC",
                      "REVOKE ALL ON SCHEMA public FROM PUBLIC",
                      "REVOKE EXECUTE ON ALL FUNCTIONS IN SCHEMA public FROM PUBLIC",
                      f"GRANT CONNECT ON DATABASE {database} TO {role}",
                      f"GRANT USAGE ON SCHEMA public TO {role}",
                      f"GRANT SELECT ON logs, files, batches TO {role}",
                      f"GRANT EXECUTE ON FUNCTION find_batches_v2(find_batches_request_v1[], int, int) TO {role}"]:
        admin.execute(statement)
    url = server.url(database, user=role, password="reader-password")
    assert findings(url, store) == set()
    records = cp.read_records(url, store, topic="orders", partition=1)
    assert [r.key for r in records] == [k for k, _ in cluster.produced[("orders", 1)]]
    with psycopg.connect(url) as conn, pytest.raises(psycopg.errors.InsufficientPrivilege):
        conn.execute("UPDATE logs SET high_watermark = 0")  # the role could not write, even were it asked


# ---------------------------------------------------------------- disagreement found, one break at a time

def _rows(admin, sql: str, *params) -> list[tuple]:
    return admin.execute(sql, params).fetchall()


def _a_file(admin) -> tuple[int, str, int]:
    """(file_id, object_key, size) of the first object."""
    return _rows(admin, "SELECT file_id, object_key, size FROM files ORDER BY file_id LIMIT 1")[0]


def _last_row_of(admin, file_id: int) -> tuple[int, int, int]:
    """(batch_id, byte_offset, byte_size) of the row that ends the object."""
    return _rows(admin, "SELECT batch_id, byte_offset, byte_size FROM batches WHERE file_id = %s "
                        "ORDER BY byte_offset DESC LIMIT 1", file_id)[0]


def test_a_deleted_object(cluster, inkless_s3):
    cluster, store, admin = cluster
    file_id, key, size = _a_file(admin)
    cc.s3fs(inkless_s3).delete_file(f"{store.removeprefix('s3://')}/{key}")
    assert findings(cluster.url, store) == {("truncated", f"files[file_id={file_id}]", key, (0, size))}


def test_a_truncated_object(cluster, inkless_s3):
    cluster, store, admin = cluster
    file_id, key, size = _a_file(admin)
    last_id, last_at, last_size = _last_row_of(admin, file_id)
    fs = cc.s3fs(inkless_s3)
    with fs.open_output_stream(f"{store.removeprefix('s3://')}/{key}") as f:
        f.write(cluster.objects[key][:size - 10])
    assert findings(cluster.url, store) == {
        ("invalid_length", f"files[file_id={file_id}].size", key, (size - 10, size)),
        ("invalid_length", f"batches[batch_id={last_id}]", key, (last_at, last_at + last_size))}


def test_a_flipped_byte(cluster, inkless_s3):
    cluster, store, admin = cluster
    file_id, key, _ = _a_file(admin)
    batch_id, at, size = _rows(admin, "SELECT batch_id, byte_offset, byte_size FROM batches WHERE file_id = %s "
                                      "ORDER BY byte_offset LIMIT 1", file_id)[0]
    data = bytearray(cluster.objects[key])
    data[at + size - 3] ^= 0xFF
    with cc.s3fs(inkless_s3).open_output_stream(f"{store.removeprefix('s3://')}/{key}") as f:
        f.write(bytes(data))
    (found,) = list(cp.validate(cluster.url, store))
    assert (found.kind, found.object_key, found.byte_range) == ("checksum_mismatch", key, (at, at + size))
    assert found.path.startswith(f"batches[batch_id={batch_id}].record_batch_v2")


def test_a_deleted_batches_row(cluster):
    cluster, store, admin = cluster
    # a row inside orders/0 (neither its first nor its last), and the row after it
    rows = _rows(admin, "SELECT b.batch_id, b.byte_offset, b.byte_size, f.object_key FROM batches b "
                        "JOIN files f USING (file_id) JOIN logs l USING (topic_id, partition) "
                        "WHERE l.topic_name = 'orders' AND b.partition = 0 ORDER BY b.base_offset")
    (gone, at, size, key), (after, after_at, after_size, after_key) = rows[1], rows[2]
    admin.execute("DELETE FROM batches WHERE batch_id = %s", (gone,))
    assert findings(cluster.url, store) == {
        ("trailing_bytes", "object", key, (at, at + size)),
        ("invalid_value", f"batches[batch_id={after}].base_offset", after_key, (after_at, after_at + after_size))}


def test_an_added_row_that_overlaps(cluster):
    cluster, store, admin = cluster
    file_id, key, _ = _a_file(admin)
    batch_id, at, size = _last_row_of(admin, file_id)
    (added,) = _rows(admin, "INSERT INTO batches (magic, topic_id, partition, base_offset, last_offset, file_id, "
                            "byte_offset, byte_size, timestamp_type, log_append_timestamp, batch_max_timestamp) "
                            "SELECT magic, topic_id, partition, base_offset, last_offset, file_id, byte_offset, "
                            "byte_size, timestamp_type, log_append_timestamp, batch_max_timestamp FROM batches "
                            "WHERE batch_id = %s RETURNING batch_id", batch_id)[0]
    assert findings(cluster.url, store) == {
        ("invalid_length", f"batches[batch_id={added}]", key, (at, at + size)),
        ("invalid_value", f"batches[batch_id={added}].base_offset", key, (at, at + size))}


def test_a_row_past_the_end_of_its_object(cluster):
    cluster, store, admin = cluster
    file_id, key, _ = _a_file(admin)
    batch_id, at, size = _last_row_of(admin, file_id)
    admin.execute("UPDATE batches SET byte_size = byte_size + 100 WHERE batch_id = %s", (batch_id,))
    assert findings(cluster.url, store) == {("invalid_length", f"batches[batch_id={batch_id}]", key,
                                             (at, at + size + 100))}


def test_a_file_marked_deleting_while_its_batches_remain(cluster):
    cluster, store, admin = cluster
    file_id, key, size = _a_file(admin)
    admin.execute("UPDATE files SET state = 'deleting', marked_for_deletion_at = now() WHERE file_id = %s",
                  (file_id,))
    assert findings(cluster.url, store) == {("invalid_value", f"files[file_id={file_id}].state", key, (0, size))}


def test_a_high_watermark_the_batches_disagree_with(cluster):
    cluster, store, admin = cluster
    topic_id = uuid.UUID(bytes=cluster.topic_ids["orders"])
    admin.execute("UPDATE logs SET high_watermark = high_watermark + 5 WHERE topic_id = %s AND partition = 1",
                  (topic_id,))
    assert findings(cluster.url, store) == {
        ("invalid_value", f"logs[topic_id={topic_id}, partition=1].high_watermark", None, None)}


def test_one_object_or_one_partition_is_checked_alone(cluster, inkless_s3):
    cluster, store, admin = cluster
    file_id, key, size = _a_file(admin)
    cc.s3fs(inkless_s3).delete_file(f"{store.removeprefix('s3://')}/{key}")
    (other,) = _rows(admin, "SELECT object_key FROM files WHERE file_id <> %s ORDER BY file_id LIMIT 1", file_id)[0]
    assert findings(cluster.url, store, object_key=key) == {("truncated", f"files[file_id={file_id}]", key, (0, size))}
    assert findings(cluster.url, store, object_key=other) == set()
    assert findings(cluster.url, store, topic="idem", partition=0) == {
        ("truncated", f"files[file_id={file_id}]", key, (0, size))}  # every object holds some of idem/0


# ---------------------------------------------------------------- the command line

def test_the_command_line_validates_and_reads_a_control_plane(base_cluster, capsys):
    store = base_cluster.store
    assert cli.main(["inkless", "validate", store, "--metadata", base_cluster.url]) == 0
    assert "storage agrees with" in capsys.readouterr().out
    assert cli.main(["inkless", "read", store, "--metadata", base_cluster.url, "--topic", "orders",
                     "--partition", "1", "--offset", "3"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [int(r["offset"]) for r in lines] == list(range(3, len(base_cluster.produced[("orders", 1)])))


def test_the_command_line_prints_each_finding_and_exits_1(cluster, capsys):
    cluster, store, admin = cluster
    file_id, key, size = _a_file(admin)
    admin.execute("UPDATE files SET state = 'deleting' WHERE file_id = %s", (file_id,))
    assert cli.main(["inkless", "validate", store, "--metadata", cluster.url]) == 1
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 1 and out[0].startswith(f"{key} bytes [0, {size}): invalid_value")
    assert f"files[file_id={file_id}].state" in out[0]


# ---------------------------------------------------------------- bad input: one line, never a traceback

def _cli_error(capsys, *args) -> tuple[int, str]:
    status = cli.main(["inkless", *args])
    err = capsys.readouterr().err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    return status, err


def test_a_refused_connection_is_a_usage_error(capsys, tmp_path):
    url = f"postgresql://nobody@127.0.0.1:{postgres_server._free_port()}/inkless"
    status, err = _cli_error(capsys, "validate", str(tmp_path), "--metadata", url)
    assert status == 2 and "cannot connect to" in err


def test_a_wrong_password_is_a_usage_error_that_does_not_repeat_it(inkless_postgres, capsys, tmp_path):
    server, template = inkless_postgres
    url = server.url(template, password="not-the-password")
    status, err = _cli_error(capsys, "validate", str(tmp_path), "--metadata", url)
    assert status == 2 and "password authentication failed" in err and "not-the-password" not in err


def test_a_database_without_the_tables_is_not_a_control_plane(inkless_postgres, capsys, tmp_path):
    server, _ = inkless_postgres
    with psycopg.connect(server.url(), autocommit=True) as conn:
        conn.execute("CREATE DATABASE not_inkless")
    status, err = _cli_error(capsys, "validate", str(tmp_path), "--metadata", server.url("not_inkless"))
    assert status == 2 and "not an Inkless control plane: no table logs, files, batches" in err


def test_an_older_migration_level_without_find_batches_is_named(inkless_postgres, capsys, tmp_path):
    server, _ = inkless_postgres
    with psycopg.connect(server.url(), autocommit=True) as conn:
        conn.execute("CREATE DATABASE inkless_v7")
    with psycopg.connect(server.url("inkless_v7"), autocommit=True) as conn:
        for path in postgres_server.migration_files(postgres_server.migrations_folder())[:7]:
            with conn.transaction():
                conn.execute(path.read_text())
    status, err = _cli_error(capsys, "read", str(tmp_path), "--metadata", server.url("inkless_v7"),
                             "--topic", "orders", "--partition", "0")
    assert status == 2 and "no function find_batches_v2" in err


def test_a_column_of_another_type_is_named(cluster, capsys, tmp_path):
    cluster, _, admin = cluster
    admin.execute("ALTER TABLE batches ALTER COLUMN byte_size TYPE text")
    status, err = _cli_error(capsys, "validate", str(tmp_path), "--metadata", cluster.url)
    assert status == 2 and "column batches.byte_size is text, not int8" in err


def test_a_row_the_shipped_form_refuses_is_a_finding_of_its_object(cluster, capsys):
    cluster, store, admin = cluster
    file_id, key, _ = _a_file(admin)
    admin.execute("UPDATE files SET format = 2 WHERE file_id = %s", (file_id,))
    assert findings(cluster.url, store) == {("invalid_value", f"files[file_id={file_id}].format", key, None)}


def test_a_query_past_its_timeout_is_a_data_error(cluster, capsys):
    cluster, store, admin = cluster
    admin.execute("BEGIN")
    admin.execute("LOCK TABLE files IN ACCESS EXCLUSIVE MODE")  # the reader's SELECT waits for it
    try:
        status, err = _cli_error(capsys, "validate", store, "--metadata", cluster.url, "--statement-timeout", "0.3")
    finally:
        admin.execute("ROLLBACK")
    assert status == 1 and "statement timeout" in err


def test_importing_the_inkless_package_and_its_reader_needs_no_psycopg():
    import subprocess

    code = ("import sys, logcodec.inkless, logcodec.inkless.control_plane, logcodec.inkless.cli; "
            "assert 'psycopg' not in sys.modules, 'psycopg imported'")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_without_psycopg_the_url_is_a_usage_error(monkeypatch, capsys, tmp_path):
    monkeypatch.setitem(sys.modules, "psycopg", None)  # import psycopg raises ImportError
    status, err = _cli_error(capsys, "validate", str(tmp_path), "--metadata", "postgresql://u@127.0.0.1:1/db")
    assert status == 2 and "pip install 'logcodec[postgres]'" in err
