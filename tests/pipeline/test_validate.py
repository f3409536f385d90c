"""The validation job (`logcodec pipeline validate`): every bad batch or bundle quarantined with
its kind and offset, index findings apart, nothing lost, Parquet and a summary that agree.

The Spark tests share the one session of conftest.py and run the job three times on small
corpora; the corner cases (re-encoding, index checks, format detection, usage errors) run in
one process, through the same readers, in milliseconds.
"""

from __future__ import annotations

import dataclasses
import json
import struct
from pathlib import Path

import pytest

pytest.importorskip("pyarrow")

import pyarrow.parquet as pq  # noqa: E402
from crc32c import crc32c  # noqa: E402

from logcodec import cli  # noqa: E402
from logcodec.pipeline import kafka, tank, validate  # noqa: E402
from logcodec import strip_derived  # noqa: E402
from logcodec.pipeline.roundtrip import compare, without_length_and_crc  # noqa: E402
from logcodec.pipeline.tables import VALIDATION_SCHEMA  # noqa: E402
from tests.pipeline import corpus  # noqa: E402


def walked_batches(root: Path) -> int:
    """Batches and bundles a single-process walk of the framing finds (not the pipeline's walk)."""
    logs = [p for p in sorted(root.rglob("*")) if p.suffix in (".log", ".ilog")]
    return sum(len((corpus.tank_bundle_offsets if "tank" in p.parts else corpus.kafka_entry_offsets)(p.read_bytes()))
               for p in logs)


def bad_of(rows: list[dict]) -> list[tuple]:
    return sorted((r["file"], r["offset"], r["error_kind"]) for r in rows if r["status"] == "quarantined")


def index_of(rows: list[dict]) -> list[tuple]:
    return sorted((r["file"], r["offset"], r["error_offset"]) for r in rows if r["status"] is None)


def expected(validation_corpus, fmt: str) -> tuple[list, list]:
    root = str(validation_corpus[fmt])
    return (sorted(b for b in validation_corpus["bad"] if b[0].startswith(root)),
            sorted(i for i in validation_corpus["index"] if i[0].startswith(root)))


def check_counts(summary: dict, rows: list[dict], root: Path) -> None:
    """batches read = valid + quarantined, per file and in total, = what the walk finds = the rows."""
    batches = [r for r in rows if r["status"] is not None]
    total = summary["total"]
    assert total["batches"] == total["valid"] + total["quarantined"] == len(batches) == walked_batches(root)
    assert total["quarantined"] == sum(total["errors"].values()) == len(bad_of(rows))
    assert total["findings"] == summary["findings"]["count"] == len(index_of(rows))
    for f in summary["files"]:
        mine = [r for r in batches if r["file"] == f["file"]]
        assert f["batches"] == f["valid"] + f["quarantined"] == len(mine)
        assert f["valid"] == sum(r["status"] == "valid" for r in mine)


# ---------------------------------------------------------------- in one process

@pytest.mark.parametrize("fmt", ["kafka", "tank"])
def test_every_bad_entry_is_quarantined_where_it_is_and_nothing_is_lost(validation_corpus, fmt):
    bad, index = expected(validation_corpus, fmt)
    rows, summary = validate.validate_local(validation_corpus[fmt])
    assert bad_of(rows) == bad
    assert index_of(rows) == index
    check_counts(summary, rows, validation_corpus[fmt])
    assert {r["reencode"] for r in rows if r["status"] == "valid"} <= {"identical", "equivalent"}


@pytest.mark.parametrize("split_bytes", [1, 700])
def test_split_ranges_find_the_same_and_never_cut_where_a_bad_index_says(validation_corpus, split_bytes):
    whole, _ = validate.validate_local(validation_corpus["tank"])
    split, summary = validate.validate_local(validation_corpus["tank"], split_bytes=split_bytes)
    assert split == whole
    check_counts(summary, split, validation_corpus["tank"])


def test_a_truncated_entry_ends_where_the_file_is_cut(validation_corpus):
    rows, _ = validate.validate_local(validation_corpus["kafka"])
    for row in rows:
        if row["error_kind"] == "truncated":
            assert row["offset"] + row["size"] == Path(row["file"]).stat().st_size
            assert row["detail"].startswith("entry of ")


def test_batches_come_back_identical_whoever_compressed_them(kafka_corpus):
    rows, summary = validate.validate_local(kafka_corpus["logs"] / "orders-0")
    by_codec = {}
    for r in rows:
        by_codec.setdefault(r["codec"], set()).add(r["reencode"])
    assert by_codec["none"] == {"identical"}
    # kafka-python's gzip writes other bytes than logcodec's: the batch keeps and writes back its own
    assert by_codec["gzip"] == {"identical"}
    assert summary["total"]["quarantined"] == 0


def overlong_varint_batch() -> bytes:
    """An uncompressed v2 batch of one record whose header count is written in two bytes (0x80 0x00),
    CRC and lengths fixed: Java reads it, but it could not be written back, so logcodec refuses it."""
    import logcodec
    from logcodec.generated.kafka import record_batch_v2 as rb

    data = bytearray(logcodec.encode("kafka.record_batch_v2", rb.RecordBatchV2(
        base_offset=0, base_timestamp=corpus.TS, max_timestamp=corpus.TS, producer_id=-1, producer_epoch=-1,
        base_sequence=-1, records=[rb.Record(value=b"abc")])))
    at = len(data) - 1
    data[at:] = b"\x80\x00"
    data[61] += 2                                                   # the record's length (zigzag) + 1
    struct.pack_into(">i", data, 8, struct.unpack_from(">i", data, 8)[0] + 1)
    struct.pack_into(">I", data, 17, crc32c(bytes(data[21:])))
    return bytes(data)


def test_bytes_that_could_not_come_back_are_quarantined_where_they_break_the_rule(tmp_path):
    # Before issue 11 such a batch decoded and was quarantined as a re-encode mismatch; an
    # overlong varint is now refused by the decoder, at the varint (the mismatch itself is
    # tested on compare below).
    batch = overlong_varint_batch()
    path = tmp_path / "t-0" / "00000000000000000000.log"
    path.parent.mkdir()
    good = corpus.kafka_python_batch(1, "none", 2)
    path.write_bytes(good + batch)
    rows, summary = validate.validate_local(path)
    assert [(r["offset"], r["status"]) for r in rows] == [(0, "valid"), (len(good), "quarantined")]
    assert (rows[1]["error_kind"], rows[1]["error_offset"]) == ("invalid_value", len(good) + len(batch) - 2)
    assert "overlong varint" in rows[1]["detail"]
    assert summary["total"]["errors"] == {"invalid_value": 1}


def test_compare_tells_equivalent_values_from_other_values():
    from logcodec.generated.kafka import record_batch_v2 as rb

    batch = corpus.kafka_python_batch(0, "lz4", 4)
    value = kafka.decode_entry(batch)
    outcome = compare(batch, value, encode=rb.encode, decode=rb.decode, compressed=True, base=100,
                      light=without_length_and_crc)
    assert outcome == ("identical", None)  # the batch's own compressed bytes, written back
    # without them (a plain `dataclasses.replace` drops them) the records are compressed anew
    outcome = compare(batch, value, encode=rb.encode, decode=rb.decode, compressed=True, base=100,
                      light=lambda v: dataclasses.replace(v, len_batch=None, crc=None))
    assert outcome == ("equivalent", None)
    other = rb.decode(batch, lazy=False)
    other.records[0].value = b"changed"
    outcome = compare(batch, value, encode=lambda v: rb.encode(strip_derived(other)), decode=rb.decode,
                      compressed=True, base=100)
    assert outcome.reencode == "mismatch" and outcome.error[:2] == ("reencode_mismatch", 100)
    outcome = compare(batch, value, encode=lambda v: b"\0" * 20, decode=rb.decode, compressed=True, base=100)
    assert outcome.reencode == "failed" and outcome.error[0] == "reencode_failed"


def copy_partition(source: Path, target: Path) -> Path:
    target.mkdir(parents=True)
    for f in source.iterdir():
        (target / f.name).write_bytes(f.read_bytes())
    return target


def write_index(directory: Path, entries: list[tuple[int, int]], tail: bytes = b"") -> Path:
    (index,) = directory.glob("*.index")
    index.write_bytes(b"".join(struct.pack("<II", *e) for e in entries) + tail)
    return index


def test_index_findings_name_each_bad_entry(tank_corpus, tmp_path):
    partition = copy_partition(tank_corpus / "clicks" / "0", tmp_path / "t" / "0")
    (segment,) = partition.glob("*.ilog")
    starts = corpus.tank_bundle_offsets(segment.read_bytes())
    points = tank.header_points(segment, 1)
    good = [(points[o] - 1, o) for o in starts[:4]]
    size = segment.stat().st_size
    (other,) = [p for p in partition.glob("*.index") if p.name != "1.index"]
    other.unlink()  # one index is enough here
    index = write_index(partition, good + [good[1], (good[3][0] + 1, size + 10), (good[3][0] + 2, starts[5] + 1),
                                           (good[3][0] + 3, starts[6])], tail=b"\1\2\3")
    found = tank.index_findings(segment, 1, index)
    assert [(at, kind, offset) for at, _, kind, offset, _ in found] == [
        (64, "truncated", 64),       # 3 bytes after the last whole entry
        (32, "invalid_value", 32),   # goes back to the second entry
        (40, "invalid_value", 44),   # past the end of the log
        (48, "invalid_value", 52),   # not at the start of a bundle
        (56, "invalid_value", 56),   # the bundle there starts at another sequence number
    ]
    assert "past the end" in found[2][4] and "not point at the start" in found[3][4] and "starts at" in found[4][4]
    rows, summary = validate.validate_local(partition)
    assert index_of(rows) == [(str(index), at, offset) for at, _, _, offset, _ in sorted(found)]
    assert summary["total"]["quarantined"] == 0 and summary["total"]["findings"] == 5


def test_index_entries_past_a_broken_frame_are_not_checked(tank_corpus, tmp_path):
    partition = copy_partition(tank_corpus / "clicks" / "1", tmp_path / "t" / "1")
    (segment,) = partition.glob("*.log")
    data = segment.read_bytes()
    starts = corpus.tank_bundle_offsets(data)
    segment.write_bytes(data[: starts[-1] + 3])  # the last bundle cut short: it cannot be located
    index = partition / "100.index"
    index.write_bytes(struct.pack("<II", 0, 0) + struct.pack("<II", 9999, starts[-1]))
    assert tank.index_findings(segment, 100, index) == []
    rows, summary = validate.validate_local(partition)
    assert bad_of(rows) == [(str(segment), starts[-1], "truncated")]


# ---------------------------------------------------------------- which format, usage errors

def test_the_format_is_detected_from_names_and_first_bytes(validation_corpus, kafka_corpus, tank_captures):
    assert validate.detect_format(validation_corpus["kafka"]) == "kafka"
    assert validate.detect_format(validation_corpus["kafka"] / "orders-2" / "00000000000000000000.log") == "kafka"
    assert validate.detect_format(kafka_corpus["fetch"]) == "kafka"
    assert validate.detect_format(validation_corpus["tank"]) == "tank"
    assert validate.detect_format(tank_captures) == "tank"


@pytest.mark.parametrize("make, message", [
    (lambda root, c: root / "missing", "no such file or directory"),
    (lambda root, c: root, "no Kafka logs"),
    (lambda root, c: c["tank"].parent, "holds Kafka logs"),
    (lambda root, c: next((c["tank"] / "clicks" / "0").glob("*.ilog")), "give its partition directory"),
])
def test_what_cannot_be_validated_is_a_usage_error(tmp_path, validation_corpus, make, message):
    with pytest.raises(validate.UsageError, match=message):
        validate.check_path(make(tmp_path, validation_corpus), "auto")


@pytest.mark.parametrize("args", [
    ["{missing}", "--out", "{out}"],
    ["{empty}", "--out", "{out}"],
    ["{empty}", "--out", "{out}", "--format", "tank"],
    ["{kafka}", "--out", "{out}", "--split-bytes", "0"],
    ["{kafka}", "--out", "{out}", "--format", "zip"],
    ["{kafka}", "--out", "{out}", "--option", "topic"],
    ["{kafka}", "--out", "{out}", "--option", "metadata=elsewhere"],
    ["{kafka}", "--out", "{out}", "--option", "splitBytes=10"],
    ["{kafka}", "--out", "{out}", "--master", "localhost:7077"],
    ["{kafka}"],
])
def test_usage_errors_exit_2_before_spark_starts(tmp_path, validation_corpus, capsys, args):
    (tmp_path / "empty").mkdir()
    values = {"missing": tmp_path / "missing", "empty": tmp_path / "empty", "out": tmp_path / "out",
              "kafka": validation_corpus["kafka"]}
    try:
        status = cli.main(["pipeline", "validate", *(a.format(**values) for a in args)])
    except SystemExit as exc:  # argparse
        status = exc.code
    assert status == 2
    assert not (tmp_path / "out").exists()
    assert len(capsys.readouterr().err.strip().splitlines()[-1]) > 0


def test_the_summary_refuses_counts_that_do_not_add_up():
    group = dict(format="kafka", file="f", entry="record_batch", status="valid", error_kind=None, reencode="identical",
                 rows=3, records=9)
    with pytest.raises(AssertionError, match="unknown status"):
        validate.summarize([{**group, "status": "skipped"}], [], path=Path("f"), fmt="kafka", master=None)
    with pytest.raises(AssertionError, match="no status"):
        validate.summarize([{**group, "status": None}], [], path=Path("f"), fmt="kafka", master=None)
    with pytest.raises(AssertionError, match="with an error kind"):
        validate.summarize([{**group, "status": "quarantined"}], [], path=Path("f"), fmt="kafka", master=None)


# ---------------------------------------------------------------- on Spark

def read_parquet(folder: Path) -> list[dict]:
    table = pq.read_table(folder)
    assert table.schema.remove_metadata().equals(VALIDATION_SCHEMA)
    return table.to_pylist()


def test_validate_on_spark_quarantines_every_bad_kafka_batch_and_exits_1(spark, validation_corpus, tmp_path, capsys):
    out = tmp_path / "out"
    status = cli.main(["pipeline", "validate", str(validation_corpus["kafka"]), "--out", str(out), "--quiet"])
    assert status == 1
    rows = read_parquet(out / "results.parquet")
    bad, index = expected(validation_corpus, "kafka")
    assert bad_of(rows) == bad and index == [] and read_parquet(out / "findings.parquet") == []
    summary = json.loads((out / "summary.json").read_text())
    check_counts(summary, rows, validation_corpus["kafka"])
    local_rows, local_summary = validate.validate_local(validation_corpus["kafka"])
    assert rows == local_rows  # Spark's tasks find exactly what one process finds, in the same order
    assert summary["total"] == local_summary["total"] and summary["files"] == local_summary["files"]
    printed = capsys.readouterr()
    assert printed.err == ""  # --quiet
    lines = printed.out.splitlines()
    assert any(line.startswith("orders-1/00000000000000000000.log") and line.endswith("checksum_mismatch 1")
               for line in lines)
    total = next(line for line in lines if line.startswith("total"))
    assert total.split()[3:6] == [str(summary["total"]["batches"]), str(summary["total"]["valid"]), "2"]


def test_validate_on_spark_reports_tank_bundles_and_index_entries_apart(spark, validation_corpus, tmp_path):
    out = tmp_path / "out"
    summary = validate.validate(validation_corpus["tank"], out, spark=spark, split_bytes=4000)
    rows = read_parquet(out / "results.parquet")
    findings = read_parquet(out / "findings.parquet")
    bad, index = expected(validation_corpus, "tank")
    assert bad_of(rows) == bad
    assert index_of(findings) == index and {f["error_path"] for f in findings} == {"index"}
    check_counts(summary, rows + findings, validation_corpus["tank"])
    assert json.loads((out / "summary.json").read_text()) == summary
    assert [f["offset"] for f in summary["findings"]["listed"]] == [i[1] for i in index]


def test_validate_on_spark_of_a_clean_corpus_exits_0(spark, kafka_corpus, tmp_path, capsys):
    out = tmp_path / "out"
    status = cli.main(["pipeline", "validate", str(kafka_corpus["logs"]), "--out", str(out), "--quiet",
                       "--split-bytes", "20000"])
    assert status == 0
    summary = json.loads((out / "summary.json").read_text())
    assert summary["total"]["quarantined"] == 0 and summary["total"]["batches"] == walked_batches(kafka_corpus["logs"])
    assert len(read_parquet(out / "results.parquet")) == summary["total"]["batches"]
    assert "total (2 files)" in capsys.readouterr().out


def test_the_declared_validation_schema_is_what_spark_expects():
    pytest.importorskip("pyspark")
    from pyspark.sql.pandas.types import to_arrow_schema

    from logcodec.pipeline.tables import spark_schema

    assert to_arrow_schema(spark_schema(VALIDATION_SCHEMA), timezone="UTC").equals(VALIDATION_SCHEMA)


def test_inkless_is_found_by_its_sidecars_and_never_mixed_with_logs(tmp_path, validation_corpus):
    objects = tmp_path / "objects"
    objects.mkdir()
    (objects / "block").write_bytes(b"")
    (objects / "block.metadata.json").write_bytes(b"{}")
    assert validate.check_path(objects, "auto") == validate.check_path(objects / "block", "auto") == "inkless"
    assert validate.check_path("s3://bucket/prefix", "auto") == "inkless"
    mixed = tmp_path / "mixed"
    (mixed / "orders-0").mkdir(parents=True)
    first_log = next(iter(sorted(validation_corpus["kafka"].rglob("*.log"))))
    (mixed / "orders-0" / first_log.name).write_bytes(first_log.read_bytes())
    (mixed / "z.metadata.json").write_bytes(b"{}")
    with pytest.raises(validate.UsageError, match="holds Kafka logs .* and Inkless objects"):
        validate.check_path(mixed, "auto")


def test_an_inkless_sidecar_given_as_path_is_a_usage_error(tmp_path):
    (tmp_path / "block").write_bytes(b"")
    (tmp_path / "block.metadata.yaml").write_bytes(b"{}")
    for fmt in ("auto", "inkless"):
        with pytest.raises(validate.UsageError, match="is the metadata of block: give the object"):
            validate.check_path(tmp_path / "block.metadata.yaml", fmt)
