"""`spark.read.format("logcodec.inkless")`: objects built by logcodec's BlockBuilder, with their
metadata in both forms (seed: binary, YAML, JSON; shipped: a sidecar, an export naming many
objects), from a local directory and from S3 (moto's server on 127.0.0.1), give exactly what
single-process `logcodec.inkless.read_records` gives; a damaged object gives error rows that are
`validate`'s findings, never a failed job; the validation job (`rows=validation`) quarantines each
metadata entry its object contradicts and reports the rest as findings, each of `validate`'s
findings once, with counts that add up.

The reader's corner cases run in one process (milliseconds each); the Spark tests share the
session of conftest.py and are one query each.
"""

from __future__ import annotations

import json
import logging
import socket
import uuid
from pathlib import Path

import pytest

pytest.importorskip("pyarrow")

import pyarrow.fs as pafs  # noqa: E402
import pyarrow.parquet as pq  # noqa: E402

from logcodec import cli  # noqa: E402
from logcodec.inkless import blocks as ib  # noqa: E402
from logcodec.pipeline import inkless, validate  # noqa: E402
from logcodec.runtime.errors import DecodeError  # noqa: E402
from tests.pipeline import corpus  # noqa: E402
from tests.pipeline import inkless_corpus as ic  # noqa: E402

BUCKET = "inkless-test"
KEYS = {"s3AccessKey": "testing", "s3SecretKey": "testing", "s3Region": "us-east-1"}


# ---------------------------------------------------------------- fixtures

@pytest.fixture(scope="module")
def blocks() -> list[ib.Block]:
    return ic.build_blocks()


def _put_local(root: Path):
    def put(path: str, data: bytes) -> None:
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_bytes(data)
    return put


@pytest.fixture(scope="module")
def local(blocks, tmp_path_factory):
    """The layout in a local directory: (root, placed objects)."""
    root = tmp_path_factory.mktemp("inkless")
    files, placed = ic.layout(blocks)
    ic.write(files, _put_local(root))
    return root, placed


@pytest.fixture(scope="module")
def corrupt(blocks, tmp_path_factory):
    root = tmp_path_factory.mktemp("inkless-bad")
    damaged = ic.corrupt_layout(blocks)
    ic.write(damaged.files, _put_local(root))
    return root, damaged


@pytest.fixture(scope="module")
def s3(blocks):
    """moto's S3 server on a free port of 127.0.0.1, holding the layout under `data/` and the
    shipped export apart, under `exports/`: (endpoint URL, placed objects)."""
    pytest.importorskip("moto")
    from moto.server import ThreadedMotoServer

    logging.getLogger("werkzeug").setLevel(logging.ERROR)  # one line per request otherwise
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    try:
        fs = pafs.S3FileSystem(access_key="testing", secret_key="testing", region="us-east-1", scheme="http",
                               endpoint_override=f"127.0.0.1:{port}", allow_bucket_creation=True)
        fs.create_dir(BUCKET)
        files, placed = ic.layout(blocks, export_at="exports/export.json")

        def put(path: str, data: bytes) -> None:
            with fs.open_output_stream(f"{BUCKET}/{path}") as f:
                f.write(data)
        ic.write(files, put)
        yield f"http://127.0.0.1:{port}", placed
    finally:
        server.stop()


# ---------------------------------------------------------------- helpers

def options(path, **more) -> inkless.InklessOptions:
    return inkless.InklessOptions.parse({"path": str(path), **{k: str(v) for k, v in more.items()}}, environ={})


def rows_of(opts: inkless.InklessOptions) -> list[dict]:
    """Every row of a read in one process: plan, then read each partition, as Spark's tasks do."""
    return [row for partition in inkless.plan(opts) for batch in inkless.read(partition, opts)
            for row in batch.to_pylist()]


def record_view(row) -> tuple:
    """(offset, timestamp, type, key, value, headers) of a row: a dict, or a Spark Row."""
    get = row.__getitem__ if isinstance(row, dict) else lambda name: getattr(row, name)
    headers = [(h["key"], h["value"]) if isinstance(h, dict) else (h.key, bytes(h.value) if h.value is not None
                                                                   else None) for h in get("headers")]
    blob = lambda v: None if v is None else bytes(v)  # noqa: E731
    return (get("offset"), get("timestamp"), get("timestamp_type"), blob(get("key")), blob(get("value")), headers)


def assert_records_match(rows, placed: list[ic.Placed], where) -> None:
    """Every placed object's records, partition by partition, are `read_records`'s, from the
    metadata it was placed with, and nothing else was read."""
    get = (lambda r, k: r[k]) if rows and isinstance(rows[0], dict) else getattr
    assert [r for r in rows if get(r, "error") is not None] == []
    total = 0
    for p in placed:
        for (topic_id, partition), expected in p.expected_records().items():
            got = [record_view(r) for r in rows if get(r, "file") == where(p.object_path)
                   and get(r, "topic_id") == topic_id and get(r, "partition") == partition]
            assert got == expected, (p.object_path, topic_id, partition)
            total += len(expected)
        assert {get(r, "metadata") for r in rows if get(r, "file") == where(p.object_path)} == \
            {where(p.metadata_path)}
    assert len(rows) == total


# ---------------------------------------------------------------- options

@pytest.mark.parametrize("given, message", [
    ({"rows": "bundle"}, "rows='bundle'"),
    ({"mode": "dropmalformed"}, "mode='dropmalformed'"),
    ({"splitBytes": "0"}, "at least 1"),
    ({"topic": "t"}, "unknown option(s) topic"),
    ({"allowDeadBytes": "yes"}, "expected true or false"),
    ({"s3Endpoint": "ftp://host"}, "expected http(s)://host"),
    ({"s3AccessKey": "k"}, "go together"),
])
def test_a_bad_option_is_refused_with_its_name(given, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        inkless.InklessOptions.parse({"path": "/x", **given}, environ={})


def test_s3_endpoint_and_region_come_from_options_else_the_environment_and_secrets_stay_out_of_reprs():
    given = inkless.InklessOptions.parse({"path": "s3://b/p", "S3ENDPOINT": "http://127.0.0.1:9000",
                                          "s3AccessKey": "AKIA", "s3SecretKey": "hush"}, environ={})
    assert (given.s3.endpoint, given.s3.scheme, given.s3.access_key) == ("127.0.0.1:9000", "http", "AKIA")
    assert "hush" not in repr(given) and "AKIA" not in repr(given)
    env = inkless.InklessOptions.parse({"path": "s3://b/p"}, environ={"AWS_ENDPOINT_URL": "minio:9000",
                                                                       "AWS_REGION": "eu-north-1"})
    assert (env.s3.endpoint, env.s3.scheme, env.s3.region) == ("minio:9000", "https", "eu-north-1")


# ---------------------------------------------------------------- one process

def test_objects_pair_with_sidecars_and_exports_and_read_as_read_records_does(local):
    root, placed = local
    rows = rows_of(options(root / "data"))
    assert_records_match(rows, placed, lambda p: str(root / p))
    seed, shipped = placed[0], placed[3]
    assert {r["topic"] for r in rows if r["file"] == str(root / seed.object_path)} == {"orders", "audit", "payments"}
    assert {r["topic"] for r in rows if r["file"] == str(root / shipped.object_path)} == {None}  # ids only
    audit = [r for r in rows if r["file"] == str(root / shipped.object_path) and r["timestamp_type"] == "log_append_time"]
    assert audit and {r["timestamp"] for r in audit} == {shipped.metadata.batches[0].log_append_timestamp}


def test_batch_rows_are_the_batches_read_batches_serves(local):
    root, placed = local
    rows = rows_of(options(root / "data", rows="batch"))
    assert all(r["error"] is None and r["crc_valid"] for r in rows)
    for p in placed:
        expected = []
        for topic_id, partition in ic.partitions(p.metadata):
            expected += [(str(uuid.UUID(bytes=topic_id)), partition, b.base_offset,
                          b.base_offset + b.last_offset_delta, len(b.records), b.max_timestamp)
                         for b in ib.read_batches(p.data, p.metadata, partition=partition, topic_id=topic_id)]
        got = [(r["topic_id"], r["partition"], r["base_offset"], r["last_offset"], r["record_count"],
                r["max_timestamp"]) for r in rows if r["file"] == str(root / p.object_path)]
        assert sorted(got) == sorted(expected), p.object_path
    assert {r["codec"] for r in rows} == set(ic.CODECS)
    coalesced = [r for r in rows if r["file"] == str(root / placed[3].object_path)]
    assert len({r["entry"] for r in coalesced}) < len(coalesced)  # shipped rows that hold several batches


def test_record_rows_agree_with_the_batch_rows(local):
    root, _ = local
    records, batches = rows_of(options(root / "data")), rows_of(options(root / "data", rows="batch"))
    corpus.assert_records_agree_with_their_batches(records, batches)
    assert {r["topic_id"] for r in records} == {b["topic_id"] for b in batches}


def test_a_large_object_is_cut_between_metadata_entries_and_reads_the_same(local):
    root, placed = local
    large = root / placed[2].object_path  # the seed form: one entry per batch
    whole, split = options(large), options(large, splitBytes=2000)
    ranges = [r for p in inkless.plan(split) for r in p]
    assert len(inkless.plan(whole)) == 1 and len(ranges) >= 6
    starts = {b.byte_offset for tp in placed[2].metadata.topic_partitions for b in tp.batches}
    assert all(r.start in starts for r in ranges) and ranges[-1].end == len(placed[2].data)
    assert rows_of(split) == rows_of(whole)


@pytest.mark.parametrize("split_bytes", [1, 700, 2000, 5000, 10**9])
def test_a_range_ends_with_the_entry_that_makes_it_span_split_bytes(local, split_bytes):
    root, placed = local
    large = root / placed[2].object_path
    entries = sorted(((b.byte_offset, b.byte_offset + b.size) for tp in placed[2].metadata.topic_partitions
                      for b in tp.batches))
    expected, group = [], []
    for start, end in entries:  # spelled out: the span of the group so far, before each entry joins it
        if group and max(e for _, e in group) - group[0][0] >= split_bytes:
            expected.append(group)
            group = []
        group.append((start, end))
    expected.append(group)
    ranges = [r for p in inkless.plan(options(large, splitBytes=split_bytes)) for r in p]
    assert [[(e.start, e.end) for e in r.extents] for r in ranges] == expected


def test_metadata_in_a_folder_of_its_own_names_objects_by_key(local, tmp_path):
    root, placed = local
    (tmp_path / "meta").mkdir()
    (tmp_path / "meta" / "export.json").write_bytes((root / placed[4].metadata_path).read_bytes())
    rows = rows_of(options(root / "data" / "shipped" / "inkless", metadata=tmp_path / "meta"))
    by_file = {r["file"] for r in rows}
    assert by_file == {str(root / p.object_path) for p in placed[3:]}
    assert {r["metadata"] for r in rows if r["file"] == str(root / placed[4].object_path)} == \
        {str(tmp_path / "meta" / "export.json")}


def test_a_damaged_object_gives_validates_findings_as_rows_and_its_good_ranges(corrupt):
    root, damaged = corrupt
    rows = rows_of(options(root))
    for p in damaged.validated:
        findings = sorted((f.kind, f.offset, f.path) for f in ib.validate(p.data, p.metadata))
        got = sorted((r["error"]["kind"], r["error"]["offset"], r["error"]["path"]) for r in rows
                     if r["error"] is not None and r["file"] == str(root / p.object_path))
        assert findings and got == findings, p.object_path
    flipped = damaged.validated[0]
    bad = [r for r in rows if r["file"] == str(root / flipped.object_path) and r["error"] is not None]
    assert [(r["error"]["kind"], r["topic"], r["partition"]) for r in bad] == [("checksum_mismatch", "orders", 0)]
    good = [r for r in rows if r["file"] == str(root / flipped.object_path) and r["error"] is None]
    readable = flipped.expected_records(skip={(bad[0]["topic_id"], 0)})  # read_records refuses the bad partition
    assert len(readable) == len(ic.partitions(flipped.metadata)) - 1
    for (topic_id, partition), records in readable.items():
        assert [record_view(r) for r in good if (r["topic_id"], r["partition"]) == (topic_id, partition)] == records
    tp = flipped.metadata.topic_partitions[0]  # the bad partition's other batches are read
    assert len(good) == sum(map(len, readable.values())) + sum(b.number_of_records for b in tp.batches[:1] + tp.batches[2:])
    unpaired = {r["file"]: r["error"] for r in rows if r["file"] in (str(root / damaged.orphan),
                                                                     str(root / damaged.broken))}
    assert unpaired[str(root / damaged.orphan)]["path"] == "metadata"
    assert unpaired[str(root / damaged.broken)]["kind"] == "invalid_value"


def test_dead_bytes_can_be_allowed(corrupt):
    root, damaged = corrupt
    dead = damaged.validated[2]
    rows = rows_of(options(root / dead.object_path, allowDeadBytes="true"))
    assert [r for r in rows if r["error"] is not None] == []
    assert [r for r in rows_of(options(root / dead.object_path)) if r["error"] is not None][0]["error"]["kind"] == \
        "trailing_bytes"


def test_failfast_raises_the_first_problem_naming_the_object(corrupt):
    root, damaged = corrupt
    with pytest.raises(DecodeError) as raised:
        rows_of(options(root / damaged.validated[0].object_path, mode="failfast"))
    assert raised.value.kind == "checksum_mismatch" and str(root / "bad" / "flipped") in str(raised.value)


def test_what_cannot_be_paired_is_a_row_never_dropped(local, tmp_path):
    root, placed = local
    shipped = placed[3]
    (tmp_path / "objects").mkdir()
    (tmp_path / "objects" / "lonely.metadata.bin").write_bytes((root / placed[0].metadata_path).read_bytes())
    (tmp_path / "objects" / "twice").write_bytes(shipped.data)
    (tmp_path / "objects" / "twice.metadata.json").write_bytes((root / shipped.metadata_path).read_bytes())
    export = (root / placed[4].metadata_path).read_text()
    (tmp_path / "objects" / "export.json").write_text(export)  # names objects that are not here
    doc = json.loads(export)
    doc["batches"][1]["file_id"] = 999
    doc["batches"][5]["magic"] = "two"
    (tmp_path / "meta").mkdir()
    (tmp_path / "meta" / "rows.json").write_text(json.dumps(doc))
    (tmp_path / "meta" / "twice.yaml").write_bytes(ib.dump_metadata(ib.load_metadata(
        (root / placed[0].metadata_path).read_bytes()), "yaml").replace(
            placed[0].metadata.block_header.path.encode(), b"twice"))
    rows = rows_of(options(tmp_path / "objects", metadata=tmp_path / "meta"))
    errors = sorted((r["metadata"].rsplit("/", 1)[1], r["error"]["path"]) for r in rows if r["error"] is not None)
    assert errors == [("export.json", "files[0].object_key"), ("export.json", "files[1].object_key"),
                      ("lonely.metadata.bin", "metadata"), ("rows.json", "batches[1].file_id"),
                      ("rows.json", "batches[5].magic"), ("rows.json", "files[0].object_key"),
                      ("twice.yaml", "block_header.path")]
    assert {r["file"] for r in rows if r["error"] is None} == {str(tmp_path / "objects" / "twice")}


def test_s3_reads_with_credentials_from_the_environment(s3, monkeypatch):
    endpoint, placed = s3
    for name, value in [("AWS_ACCESS_KEY_ID", "testing"), ("AWS_SECRET_ACCESS_KEY", "testing"),
                        ("AWS_REGION", "us-east-1"), ("AWS_ENDPOINT_URL_S3", endpoint)]:
        monkeypatch.setenv(name, value)
    inkless._storage._s3_filesystem.cache_clear()
    opts = inkless.InklessOptions.parse({"path": f"s3://{BUCKET}/data/seed"})
    assert_records_match(rows_of(opts), placed[:3], lambda p: f"s3://{BUCKET}/{p}")


# ---------------------------------------------------------------- Spark

def load(spark, path, **opts):
    reader = spark.read.format("logcodec.inkless")
    for key, value in opts.items():
        reader = reader.option(key, value)
    return reader.load(str(path))


@pytest.mark.parametrize("schema", [inkless.RECORD_SCHEMA, inkless.BATCH_SCHEMA], ids=["record", "batch"])
def test_declared_spark_schema_is_the_arrow_schema_the_reader_yields(schema):
    pytest.importorskip("pyspark")
    from pyspark.sql.pandas.types import to_arrow_schema

    from logcodec.pipeline.tables import spark_schema

    assert to_arrow_schema(spark_schema(schema), timezone="UTC").equals(schema)


def test_spark_reads_a_local_directory_as_read_records_does(spark, local):
    root, placed = local
    assert_records_match(load(spark, root / "data").collect(), placed, lambda p: str(root / p))


def test_spark_reads_objects_with_filter_pushdown_turned_off(spark, local):
    # The Inkless source takes no filters (it is no `Pushdown` format), so it has no pushFilters,
    # which Spark refuses to call, and to read without, on a session where pushdown is off.
    root, placed = local
    spark.conf.set("spark.sql.python.filterPushdown.enabled", "false")
    try:
        rows = load(spark, root / "data").where("partition = 0").collect()
    finally:
        spark.conf.set("spark.sql.python.filterPushdown.enabled", "true")
    assert rows and sorted(rows, key=str) == sorted(load(spark, root / "data").where("partition = 0").collect(), key=str)


def test_spark_reads_s3_with_metadata_apart(spark, s3):
    endpoint, placed = s3
    rows = load(spark, f"s3://{BUCKET}/data", metadata=f"s3://{BUCKET}/exports", s3Endpoint=endpoint, **KEYS).collect()
    assert_records_match(rows, placed, lambda p: f"s3://{BUCKET}/{p}")


def test_spark_splits_a_large_object_and_gives_the_batches_of_one_process(spark, local):
    root, placed = local
    split = load(spark, root / "data", rows="batch", splitBytes=4000)
    assert split.rdd.getNumPartitions() >= 4
    assert [r.asDict(recursive=True) for r in split.collect()] == rows_of(options(root / "data", rows="batch"))


def test_spark_does_not_fail_on_damaged_objects(spark, corrupt):
    root, damaged = corrupt
    rows = load(spark, root).collect()
    expected = rows_of(options(root))
    assert len(rows) == len(expected)
    assert sorted((r.file, r.batch_offset or -1, r.error.kind, r.error.path) for r in rows if r.error is not None) == \
        sorted((r["file"], r["batch_offset"] or -1, r["error"]["kind"], r["error"]["path"]) for r in expected
               if r["error"] is not None)


# ---------------------------------------------------------------- validation (rows=validation, the job)

def framed_batches(data: bytes) -> int:
    """Batches laid end to end in `data`, from their offset and length fields alone."""
    return len(corpus.kafka_entry_offsets(data))


def expected_batches(placed: ic.Placed, findings: list[DecodeError]) -> tuple[int, int]:
    """(batches the validation reads, of them quarantined) for one object: a metadata entry that a
    finding names counts once, quarantined; any other entry, each batch framed in its range."""
    read = quarantined = 0
    for ext in ib.metadata_extents(placed.metadata):
        if any(f.path == ext.path or f.path.startswith(ext.path + ".") for f in findings):
            read, quarantined = read + 1, quarantined + 1
        else:
            read += framed_batches(placed.data[ext.start:ext.end])
    return read, quarantined


def test_validation_quarantines_each_entry_its_object_contradicts_and_reports_the_rest_as_findings(corrupt):
    root, damaged = corrupt
    rows, summary = validate.validate_local(root)  # found as Inkless by its sidecars
    assert summary["format"] == "inkless"
    batches = quarantined = 0
    for p in damaged.validated:
        findings = ib.validate(p.data, p.metadata)
        mine = [r for r in rows if r["file"] == str(root / p.object_path)]
        # each of validate's findings exactly once: as a quarantined batch's error, or as a finding
        assert sorted((r["error_kind"], r["error_offset"], r["error_path"]) for r in mine if r["error_kind"]) == \
            sorted((f.kind, f.offset, f.path) for f in findings), p.object_path
        read, bad = expected_batches(p, findings)
        assert len([r for r in mine if r["status"] is not None]) == read and \
            len([r for r in mine if r["status"] == "quarantined"]) == bad, p.object_path
        assert {r["metadata"] for r in mine} == {str(root / p.metadata_path)}
        batches, quarantined = batches + read, quarantined + bad
    flipped = [r for r in rows if r["status"] == "quarantined" and r["file"].endswith("flipped")]
    second = damaged.validated[0].metadata.topic_partitions[0].batches[1]
    assert [(r["error_kind"], r["offset"], r["size"], r["metadata_entry"], r["topic"]) for r in flipped] == \
        [("checksum_mismatch", second.byte_offset, second.size, "topic_partitions[0].batches[1]", "orders")]
    unpaired = {r["file"]: r for r in rows if r["file"] in (str(root / damaged.orphan), str(root / damaged.broken))}
    assert {(r["entry"], r["status"], r["error_kind"]) for r in unpaired.values()} == \
        {("metadata", None, "invalid_value")}
    total = summary["total"]
    assert total["batches"] == total["valid"] + total["quarantined"] == batches
    assert total["quarantined"] == quarantined == 3
    assert total["findings"] == summary["findings"]["count"] == len([r for r in rows if r["status"] is None]) == 4
    assert {r["reencode"] for r in rows if r["status"] == "valid"} <= {"identical", "equivalent"}
    table = validate.format_table(summary)
    assert table.startswith("Inkless objects under") and "findings (not batches): 4" in table


def test_validation_of_intact_objects_finds_every_batch_valid(local):
    root, placed = local
    rows, summary = validate.validate_local(root / "data")
    assert summary["total"]["quarantined"] == summary["findings"]["count"] == 0
    assert summary["total"]["batches"] == sum(expected_batches(p, [])[0] for p in placed) == len(rows)
    assert summary["total"]["records"] == sum(len(r) for p in placed for r in p.expected_records().values())
    # kafka-python's compressors write other bytes than logcodec's: each batch writes back its own
    assert {r["codec"] for r in rows} > {"none"}
    assert {r["reencode"] for r in rows} == {"identical"}


def test_validation_reads_s3_as_it_reads_a_local_directory(s3, local):
    endpoint, _ = s3
    root, _ = local
    remote, summary = validate.validate_local(f"s3://{BUCKET}/data", options={
        "metadata": f"s3://{BUCKET}/exports", "s3Endpoint": endpoint, **KEYS})
    here, _ = validate.validate_local(root / "data")

    def view(row, prefix):
        return (row["file"].removeprefix(prefix), row["offset"], row["status"], row["record_count"],
                row["metadata_entry"], row["reencode"])
    assert sorted(view(r, f"s3://{BUCKET}/") for r in remote) == sorted(view(r, f"{root}/") for r in here)
    assert summary["format"] == "inkless" and summary["total"]["quarantined"] == 0


def test_validation_refuses_a_bad_option_before_spark_starts(local):
    root, _ = local
    with pytest.raises(validate.UsageError, match="allowdeadbytes"):
        validate.validate_local(root / "data", options={"allowDeadBytes": "maybe"})
    with pytest.raises(validate.UsageError, match="the job's own"):
        validate.validate_local(root / "data", options={"rows": "record"})
    with pytest.raises(validate.UsageError, match="only Inkless"):
        validate.check_path(f"s3://{BUCKET}/data", "kafka")


def test_validation_failfast_raises_the_first_problem(corrupt):
    root, damaged = corrupt
    with pytest.raises(DecodeError) as raised:
        rows_of(options(root / damaged.validated[0].object_path, rows="validation", mode="failfast"))
    assert raised.value.kind == "checksum_mismatch"


def test_validate_on_spark_checks_inkless_metadata_and_finds_what_one_process_finds(spark, corrupt, tmp_path, capsys):
    root, _ = corrupt
    out = tmp_path / "out"
    assert cli.main(["pipeline", "validate", str(root), "--out", str(out), "--quiet", "--split-bytes", "2000"]) == 1
    local_rows, local_summary = validate.validate_local(root)
    results = pq.read_table(out / "results.parquet").to_pylist()
    findings = pq.read_table(out / "findings.parquet").to_pylist()
    assert results == [r for r in local_rows if r["status"] is not None]
    assert findings == [r for r in local_rows if r["status"] is None]
    summary = json.loads((out / "summary.json").read_text())
    assert summary["total"] == local_summary["total"] and summary["findings"]["count"] == 4
    assert "checksum_mismatch 1" in capsys.readouterr().out
