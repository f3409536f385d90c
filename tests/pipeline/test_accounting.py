"""Every byte accounted for (issue 15, item 1), without Spark: after a broken frame the readers
resynchronise (Kafka: at the next offset where the generated decoder reads a whole entry with
its checksum; TANK: at the next index entry whose bundle decodes), the bytes between are one
`unreadable` range, a zero-filled tail is a `zero_fill` finding, empty files are listed, a file
where nothing decodes is "not a Kafka log", and the validation summary refuses byte counts
that do not add up to the files' sizes."""

from __future__ import annotations

import os
import random
import struct
import time
from pathlib import Path

import pytest

import logcodec
from logcodec.pipeline import kafka, tank, validate
from logcodec.pipeline.kafka import resync
from tests.pipeline import corpus
from tests.pipeline.test_readers import kafka_options, rows_of


def ten_batches() -> tuple[bytes, list[int]]:
    """A 10-batch segment of 100 records each (mixed codecs) and where each batch starts."""
    batches = [corpus.kafka_python_batch(100 * i, ["none", "gzip", "none", "lz4", "none"][i % 5], 100)
               for i in range(10)]
    return b"".join(batches), [sum(map(len, batches[:i])) for i in range(11)]


def write(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / "logs" / "orders-0" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


def test_a_hole_mid_file_hides_nothing_behind_it(tmp_path):
    data, starts = ten_batches()
    holed = bytearray(data)
    holed[starts[3]:starts[3] + 4096] = bytes(4096)  # zero 4 KB at the 4th batch
    assert starts[4] < starts[3] + 4096 < starts[5]  # the hole ends inside the 5th batch
    path = write(tmp_path, "00000000000000000000.log", bytes(holed))
    rows, summary = validate.validate_local(path.parent.parent)
    assert [(r["offset"], r["entry"], r["status"]) for r in rows] == [
        *((starts[i], "record_batch", "valid") for i in range(3)),
        (starts[3], "unreadable", "quarantined"),          # the zeros and the rest of the 4th and 5th batches
        *((starts[i], "record_batch", "valid") for i in range(5, 10))]
    assert rows[3]["size"] == starts[5] - starts[3] and rows[3]["error_kind"] == "unreadable"
    t = summary["total"]
    assert (t["batches"], t["valid"], t["quarantined"], t["unreadable"], t["records"]) == (8, 8, 0, 1, 800)
    assert t["bytes"] == {"file": len(data), "valid": starts[3] + starts[10] - starts[5], "quarantined": 0,
                          "unreadable": starts[5] - starts[3], "zero_fill": 0, "dead": 0, "overlap": 0, "past_end": 0}
    assert validate.exit_status(summary) == 1
    # The record rows: the 5 intact batches behind the hole are read, 500 records.
    records = rows_of(kafka, kafka_options(path))
    assert [r["offset"] for r in records if r["error"] is None] == [*range(300), *range(500, 1000)]
    assert [(r["batch_offset"], r["error"]["kind"]) for r in records if r["error"]] == [(starts[3], "unreadable")]
    # Zeroed from inside the 4th batch: its header holds, its CRC does not; the rest is unreadable.
    holed = bytearray(data)
    holed[starts[3] + 100:starts[3] + 4196] = bytes(4096)
    path.write_bytes(bytes(holed))
    rows, summary = validate.validate_local(path)
    assert [(r["offset"], r["entry"], r["error_kind"]) for r in rows[3:5]] == [
        (starts[3], "record_batch", "checksum_mismatch"), (starts[4], "unreadable", "unreadable")]
    assert summary["total"]["valid"] == 8


def test_a_hole_over_a_batch_header_resyncs_at_the_next_batch(tmp_path):
    data, starts = ten_batches()
    holed = bytearray(data)
    holed[starts[2] + 5:starts[2] + 40] = os.urandom(35)  # the header's size and CRC are garbage
    path = write(tmp_path, "00000000000000000000.log", bytes(holed))
    rows, summary = validate.validate_local(path)
    assert summary["total"]["valid"] == 9
    assert sum(r["size"] for r in rows) == len(data)


def test_a_zero_filled_tail_is_a_finding_that_does_not_fail_the_job(tmp_path):
    data, starts = ten_batches()
    path = write(tmp_path, "00000000000000000000.log", data + bytes(65536))  # preallocated, then a crash
    rows, summary = validate.validate_local(path.parent)
    assert [r["entry"] for r in rows].count("zero_fill") == 1
    zero = next(r for r in rows if r["entry"] == "zero_fill")
    assert (zero["offset"], zero["size"], zero["status"]) == (len(data), 65536, None)
    assert summary["total"]["batches"] == summary["total"]["valid"] == 10
    assert summary["total"]["bytes"]["zero_fill"] == 65536
    assert summary["findings"]["kinds"] == {"zero_fill: zero_fill": 1}
    assert validate.exit_status(summary) == 0
    assert validate.exit_status(summary, strict_zero_fill=True) == 1
    _, strict = validate.validate_local(path.parent, strict_zero_fill=True)
    assert validate.exit_status(strict) == 1
    # Not a batch: the readers' record and batch rows do not show it.
    assert len(rows_of(kafka, kafka_options(path, rows="batch"))) == 10
    # A file of zeros only (preallocated, never written) is empty, not foreign.
    path.write_bytes(bytes(4096))
    _, summary = validate.validate_local(path)
    assert summary["files"][0]["verdict"] == "empty" and validate.exit_status(summary) == 0


def test_an_empty_file_is_listed(tmp_path):
    data, _ = ten_batches()
    write(tmp_path, "00000000000000000000.log", data)
    empty = write(tmp_path, "00000000000000001000.log", b"")
    _, summary = validate.validate_local(tmp_path / "logs")
    listed = {f["file"]: f for f in summary["files"]}
    assert listed[str(empty)]["batches"] == 0 and listed[str(empty)]["bytes"]["file"] == 0
    assert listed[str(empty)]["verdict"] == "empty"
    assert summary["total"]["files"] == 2
    assert "00000000000000001000.log" in validate.format_table(summary)


def test_a_foreign_file_is_not_a_kafka_log(tmp_path):
    text = b"AAAAAAAA\nThis is a text file, read as Kafka by mistake.\n" * 40
    path = write(tmp_path, "00000000000000000000.log", text)
    rows, summary = validate.validate_local(path, fmt="kafka")
    assert [(r["entry"], r["offset"], r["size"]) for r in rows] == [("unreadable", 0, len(text))]
    assert summary["files"][0]["verdict"] == "not a Kafka log" and summary["total"]["not_logs"] == 1
    assert "not a Kafka log" in validate.format_table(summary)


def test_a_segment_cut_short_still_ends_in_a_truncated_batch(tmp_path):
    data, starts = ten_batches()
    path = write(tmp_path, "00000000000000000000.log", data[:starts[9] + 100])
    rows, summary = validate.validate_local(path)
    assert (rows[-1]["entry"], rows[-1]["error_kind"], rows[-1]["size"]) == ("record_batch", "truncated", 100)
    assert summary["total"]["bytes"]["quarantined"] == 100


def test_the_summary_refuses_bytes_that_do_not_add_up():
    group = dict(format="kafka", file="f", entry="record_batch", status="valid", error_kind=None,
                 reencode="identical", rows=3, records=9, bytes=300)
    validate.summarize([group], [], path=Path("f"), fmt="kafka", master=None, files={"f": 300})
    with pytest.raises(AssertionError, match="301 bytes, but valid 300"):
        validate.summarize([group], [], path=Path("f"), fmt="kafka", master=None, files={"f": 301})
    with pytest.raises(AssertionError, match="the total"):
        validate._summary.check_bytes({"bytes": {"file": 10, "valid": 3, "quarantined": 3, "unreadable": 3, "zero_fill": 0}},
                                      "the total")


def test_every_byte_of_the_validation_corpus_is_accounted_for(validation_corpus):
    for fmt in ("kafka", "tank"):
        rows, summary = validate.validate_local(validation_corpus[fmt])  # checks the identity itself
        b = summary["total"]["bytes"]
        assert b["file"] == sum(f["bytes"]["file"] for f in summary["files"]) > 0
        assert b["file"] == b["valid"] + b["quarantined"] + b["unreadable"] + b["zero_fill"]


def test_resync_finds_candidates_through_the_codec():
    assert resync.MAGIC_AT == 16 and resync.MAGICS == bytes([0, 1, 2])  # asked of kafka.record_set at import
    data, starts = ten_batches()
    noise = random.Random(7).randbytes(200_000)
    assert resync.next_entry(noise + data, 0, len(noise) + len(data)) == len(noise)
    assert resync.next_entry(bytes(300_000) + data, 0, 300_000 + len(data)) == 300_000
    assert resync.next_entry(noise, 0, len(noise)) is None


def test_resync_over_a_large_hole_is_fast():
    """A 16 MB random hole then batches: the scan runs the decoder only where the codec's magic byte
    values are, and a zero hole is skipped at C speed."""
    data, _ = ten_batches()
    hole = random.Random(11).randbytes(16 << 20)
    start = time.perf_counter()
    assert resync.next_entry(hole + data, 0, len(hole) + len(data)) == len(hole)
    assert time.perf_counter() - start < 30
    start = time.perf_counter()
    assert resync.next_entry(bytes(64 << 20) + data, 0, (64 << 20) + len(data)) == 64 << 20
    assert time.perf_counter() - start < 2


# ---------------------------------------------------------------- TANK

def test_tank_resumes_at_the_next_index_entry_after_a_broken_frame(tmp_path):
    partition = tmp_path / "tank" / "clicks" / "0"
    partition.mkdir(parents=True)
    log, index = corpus.tank_segment(1, 60, index_every=512)
    starts = corpus.tank_bundle_offsets(log)
    entries = [struct.unpack_from("<II", index, i) for i in range(0, len(index), 8)]
    hole_at = starts[5]
    following = next(offset for _, offset in entries if offset > hole_at + 1)
    holed = bytearray(log)
    holed[hole_at] = 0xFF  # a length varint that never ends, then garbage
    holed[hole_at + 1:hole_at + 6] = b"\xff\xff\xff\xff\xff"
    (partition / "1_1795324599.log").write_bytes(bytes(holed))
    (partition / "1.index").write_bytes(index)
    rows, summary = validate.validate_local(tmp_path / "tank")
    unreadable = [r for r in rows if r["entry"] == "unreadable"]
    assert [(r["offset"], r["size"]) for r in unreadable] == [(hole_at, following - hole_at)]
    assert [r["offset"] for r in rows if r["entry"] == "bundle"] == \
        [s for s in starts if s < hole_at or s >= following]
    assert summary["total"]["bytes"]["file"] == len(log)
    # and the messages after it keep their sequence numbers (from the index entry)
    messages = rows_of(tank, tank.parse_options({"path": str(tmp_path / "tank")}))
    expected = {m.seq_num: m.content for e in logcodec.codec("tank.segment_log").decode(log, base_seq_num=1).entries
                for m in e.bundle.messages}
    assert all(expected[m["seq_num"]] == m["value"] for m in messages if m["error"] is None)


def test_tank_zero_tail_is_zero_fill(tmp_path):
    partition = tmp_path / "tank" / "clicks" / "0"
    partition.mkdir(parents=True)
    log, _ = corpus.tank_segment(1, 10)
    (partition / "1_1795324599.log").write_bytes(log + bytes(1000))
    rows, summary = validate.validate_local(tmp_path / "tank")
    assert [(r["entry"], r["offset"], r["size"]) for r in rows if r["entry"] != "bundle"] == [
        ("zero_fill", len(log), 1000)]
    assert validate.exit_status(summary) == 0


# ---------------------------------------------------------------- Inkless objects

def test_every_byte_of_an_inkless_object_is_accounted_for(tmp_path):
    """An object's bytes are its metadata entries' (valid or quarantined), the bytes no entry covers
    (dead), less what entries cover twice and claim past its end: each damaged object of the corpus,
    one whose metadata claims a batch twice, and objects without metadata (all dead)."""
    from logcodec.inkless import shipped
    from logcodec.inkless.blocks import dump_metadata
    from tests.pipeline import inkless_corpus as ic

    blocks = ic.build_blocks(large_batches=4)
    damaged = ic.corrupt_layout(blocks)
    a = blocks[0]
    rows = a.shipped_metadata.batches
    files = dict(damaged.files)
    files["bad/twice"] = a.data
    files["bad/twice.metadata.json"] = dump_metadata(shipped.ShippedMetadata(
        a.shipped_metadata.file, [*rows, replace_id(rows[0], len(rows) + 1)]), "json")
    ic.write(files, lambda path, data: (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
             or (tmp_path / path).write_bytes(data))

    _, summary = validate.validate_local(tmp_path / "bad", fmt="inkless")
    by_name = {Path(f["file"]).name: f["bytes"] for f in summary["files"]}
    assert by_name["orphan"] == by_name["broken"] == {**zero_bytes(), "file": len(blocks[1].data),
                                                      "dead": len(blocks[1].data)}
    verdicts = {Path(f["file"]).name: f["verdict"] for f in summary["files"]}
    assert verdicts["orphan"] == verdicts["broken"] == validate.NO_METADATA and verdicts["dead"] is None
    assert summary["total"]["not_logs"] == 0  # objects without metadata are not called "not an Inkless object"
    dropped = a.shipped_metadata.batches[1]
    assert by_name["dead"] == {**zero_bytes(), "file": len(a.data), "valid": len(a.data) - dropped.byte_size,
                               "dead": dropped.byte_size}
    cut = len(blocks[1].data) * 2 // 3
    truncated = by_name["truncated"]
    assert truncated["file"] == cut and truncated["past_end"] == len(blocks[1].data) - cut > 0
    assert truncated["quarantined"] > truncated["past_end"] and truncated["dead"] == 0
    assert by_name["twice"]["overlap"] == rows[0].byte_size and by_name["twice"]["dead"] == 0
    flipped = by_name["flipped"]
    assert flipped["quarantined"] == a.seed_metadata.topic_partitions[0].batches[1].size
    assert flipped["valid"] + flipped["quarantined"] == flipped["file"]
    total = summary["total"]["bytes"]
    assert total["file"] == sum(b["file"] for b in by_name.values())
    assert total["valid"] + total["quarantined"] + total["dead"] - total["overlap"] - total["past_end"] == total["file"]
    assert "dead bytes" in validate.format_table(summary) and "past the end" in validate.format_table(summary)


def test_the_summary_refuses_an_inkless_entry_that_left_no_row(tmp_path):
    """The accounting checks the rows against the metadata: drop an entry's row and it fails."""
    from tests.pipeline import inkless_corpus as ic

    blocks = ic.build_blocks(large_batches=4)
    files, _ = ic.layout(blocks[:1])
    ic.write(files, lambda path, data: (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
             or (tmp_path / path).write_bytes(data))
    rows, summary = validate.validate_local(tmp_path, fmt="inkless")
    assert summary["total"]["bytes"]["dead"] == 0 and summary["total"]["valid"] > 1
    layout = validate.listed_files("inkless", tmp_path)
    batches = [r for r in rows if r["status"] is not None]
    groups = [{**{k: r[k] for k in validate._GROUP_KEYS}, "rows": 1, "records": r["record_count"],
               "bytes": r["size"]} for r in batches]
    validate.summarize(groups, [], path=tmp_path, fmt="inkless", master=None, files=layout)  # all there: it holds
    with pytest.raises(AssertionError, match="bytes, but"):
        validate.summarize(groups[1:], [], path=tmp_path, fmt="inkless", master=None, files=layout)


def zero_bytes() -> dict:
    return {"valid": 0, "quarantined": 0, "unreadable": 0, "zero_fill": 0, "dead": 0, "overlap": 0, "past_end": 0}


def replace_id(row, batch_id: int):
    """A shipped batch row again under another batch id: the same bytes claimed twice."""
    from dataclasses import replace

    return replace(row, batch_id=batch_id)
