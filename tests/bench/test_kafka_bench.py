"""bench kafka on tiny workloads, in this process: a column that gives a wrong answer fails the
run (and is never timed), and a target's verdict says how many of its workloads it rests on."""

from __future__ import annotations

import json
import random
from types import SimpleNamespace

import pytest

import logcodec
from aiokafka.record.default_records import _DefaultRecordBatchPy
from kafka.record.default_records import DefaultRecordBatchBuilder

from bench import kafka as kb

# Quick and full runs differ only in their timing settings: both must fail on a wrong answer.
TIMINGS = {"quick": ["--quick"], "full": ["--min-time", "0.001", "--rounds", "1"]}


def tiny_workloads() -> list[kb.Workload]:
    """Two workloads under the ids the targets name: one batch of 20 records, and 4 batches of 5."""
    records = kb._records_with_headers(20, random.Random(1))
    batches = [[(j, ts, k, v, h) for j, (_, ts, k, v, h) in enumerate(records[i:i + 5])] for i in range(0, 20, 5)]
    return [kb.Workload("1k_hdr", "1 batch x 20 records", "none", [records]),
            kb.Workload("100x10", "4 batches x 5 records", "none", batches)]


@pytest.fixture
def run_bench(monkeypatch, tmp_path, capsys):
    """Run `python -m bench kafka` in this process on the tiny workloads; (exit status, stdout,
    stderr, the JSON document). The Kaitai column is left out (no parser in tmp_path)."""
    monkeypatch.setattr(kb, "make_workloads", tiny_workloads)

    def run(*args):
        out = tmp_path / "bench.json"
        status = kb.main([*args, "--kaitai-dir", str(tmp_path), "--json", str(out)])
        captured = capsys.readouterr()
        return status, captured.out, captured.err, json.loads(out.read_text())

    return run


class DropsTheLastRecord(_DefaultRecordBatchPy):
    """aiokafka's pure-Python batch, broken: its iteration loses the last record."""

    def __iter__(self):
        super().__iter__()  # the base class iterates itself: __iter__ starts, __next__ reads a record
        records = []
        while True:
            try:
                records.append(super().__next__())
            except StopIteration:
                return iter(records[:-1])


class ChangesAValue(DefaultRecordBatchBuilder):
    """kafka-python's builder, broken: it writes every value with one byte more."""

    def append(self, offset, timestamp, key, value, headers):
        return super().append(offset, timestamp, key, value + b"!", headers)


@pytest.mark.parametrize("timing", sorted(TIMINGS))
def test_a_decoder_that_loses_a_record_fails_the_run(run_bench, monkeypatch, timing):
    monkeypatch.setattr(kb, "AioPyBatch", DropsTheLastRecord)
    status, out, err, doc = run_bench(*TIMINGS[timing], "--only", "decode")
    assert status == 1
    lines = err.splitlines()
    assert lines[-2:] == ["bench kafka: WRONG RESULT: column aiokafka-py, workload 1k_hdr, decode: "
                          "decodes 19 records, expected 20",
                          "bench kafka: WRONG RESULT: column aiokafka-py, workload 100x10, decode: "
                          "decodes 16 records, expected 20"]
    assert doc["results"]["decode"]["1k_hdr"]["aiokafka-py"] == {"failed": "decodes 19 records, expected 20"}
    assert [w["column"] for w in doc["wrong_results"]] == ["aiokafka-py", "aiokafka-py"]
    assert "Wrong results (never timed; the run fails):" in out
    # The other columns were checked and timed as usual.
    assert "records_per_s" in doc["results"]["decode"]["1k_hdr"]["kafka-python"]


@pytest.mark.parametrize("timing", sorted(TIMINGS))
def test_an_encoder_that_writes_another_value_fails_the_run(run_bench, monkeypatch, timing):
    monkeypatch.setattr(kb, "KPBuilder", ChangesAValue)
    status, out, err, doc = run_bench(*TIMINGS[timing], "--only", "encode", "--workloads", "100x10")
    assert status == 1
    assert err.splitlines()[-1] == ("bench kafka: WRONG RESULT: column kafka-python, workload 100x10, encode: "
                                    "output decodes to different records")
    assert doc["results"]["encode"]["100x10"]["kafka-python"] == {"failed": "output decodes to different records"}


def test_the_one_batch_entry_point_that_is_timed_is_the_one_checked(run_bench, monkeypatch):
    """A one-batch workload times `decode`, not `decode_stream`: a `decode` that loses a record
    fails the run, though `decode_stream` is right."""
    import logcodec.generated.kafka.record_batch_v2 as module

    real = module.decode

    def loses_the_last_record(data, **kwargs):
        value = real(data, **kwargs)
        value.records = list(value.records)[:-1]  # the records of a lazy read are read-only
        return value

    monkeypatch.setattr(module, "decode", loses_the_last_record)
    status, out, err, doc = run_bench("--quick", "--only", "decode", "--workloads", "1k_hdr")
    assert status == 1
    wrong = {(w["column"], w["workload"]) for w in doc["wrong_results"]}
    assert wrong == {("logcodec", "1k_hdr"), ("logcodec+tuples", "1k_hdr")}
    assert err.splitlines()[-2:] == [
        f"bench kafka: WRONG RESULT: column {column}, workload 1k_hdr, decode: decodes 19 records, expected 20"
        for column in ("logcodec", "logcodec+tuples")]


def test_a_run_whose_answers_are_right_exits_0(run_bench):
    status, out, err, doc = run_bench("--quick")
    assert status == 0, err
    assert doc["wrong_results"] == []
    assert "WRONG RESULT" not in err


def test_a_verdict_on_part_of_the_workloads_is_not_measured(run_bench):
    status, out, err, doc = run_bench("--quick", "--workloads", "1k_hdr")
    assert status == 0, err
    measured = [row for row in doc["targets"] if row["other"] != "kaitai"]  # no Kaitai parser here
    assert measured
    for row in measured:
        assert row["first_verdict"] in ("met", "not met")
        assert row["first_workloads"] == {"measured": 1, "of": 1, "missing": []}
        assert (row["geomean_verdict"], row["geomean_met"]) == ("not measured", None)
        assert row["geomean_workloads"] == {"measured": 1, "of": 2, "missing": ["100x10"]}
    printed = [line for line in out.splitlines() if line.startswith(("| decode >=", "| encode >="))]
    assert len(printed) == len(doc["targets"])
    assert all(line.endswith(" | not measured (1/2 workloads) |") for line in printed if "kaitai" not in line)
    assert all("1/1 workload) | " in line for line in printed if "kaitai" not in line)
    assert all(line.endswith("| – | not measured (0/1 workload) | – | not measured (0/2 workloads) |")
               for line in printed if "kaitai" in line)


def test_every_verdict_counts_its_workloads(monkeypatch):
    monkeypatch.setattr(kb, "lc", SimpleNamespace(NATIVE=None))  # the pure-Python targets
    all_ids = ["1k_hdr", "10k_small", "100x10"]
    ratios = {"decode": {"logcodec": {"kafka-python": {"1k_hdr": 3.0, "10k_small": 2.5, "100x10": 1.0}}},
              "encode": {"logcodec": {"kafka-python": {"1k_hdr": 3.5, "10k_small": 4.0}}}}
    rows = {(r["op"], r["mine"], r["other"]): r for r in kb.judge_targets(ratios, all_ids)}

    decode = rows["decode", "logcodec", "kafka-python"]
    assert (decode["first_verdict"], decode["first_met"]) == ("met", True)
    assert (decode["geomean_verdict"], decode["geomean_met"]) == ("not met", False)
    assert kb.verdict_text(decode, "first") == "**met** (1/1 workload)"
    target = next(t for *row, t in kb.TARGETS["pure Python"] if tuple(row) == ("decode", "logcodec", "kafka-python"))
    assert kb.verdict_text(decode, "geomean") == f"**not met** (needs {target / decode['geomean']:.2f}x more; 3/3 workloads)"

    encode = rows["encode", "logcodec", "kafka-python"]  # 3.74x over the two measured: not the target's geomean
    assert encode["geomean"] == pytest.approx((3.5 * 4.0) ** 0.5)
    assert (encode["geomean_verdict"], encode["geomean_met"]) == ("not measured", None)
    assert encode["geomean_workloads"] == {"measured": 2, "of": 3, "missing": ["100x10"]}
    assert kb.verdict_text(encode, "geomean") == "not measured (2/3 workloads)"

    unmeasured = rows["decode", "logcodec", "kaitai"]
    assert unmeasured["first"] is None and kb.verdict_text(unmeasured, "first") == "not measured (0/1 workload)"


def test_a_second_call_may_write_other_bytes_but_not_other_records():
    """An encoder whose calls stamp their bytes (gzip's header holds the time; aiokafka's pure-Python
    encoder sets it) passes the check when each call's batches hold the records; one whose second
    call writes a broken batch does not."""
    kb.load_logcodec(pure=False)
    w = tiny_workloads()[1]
    kb.prepare(w)
    right = [bytes(p) for p in kb.encode_kafka_python(w.batches, kb.CODECS[w.codec])]
    # other bytes, the same records: the first batch with another partition leader epoch
    first = kb.lc.decode(right[0])
    first.partition_leader_epoch = 5
    stamped = [kb.lc.encode(first)] + right[1:]
    assert stamped != right
    broken = [right[0][:-1] + bytes([right[0][-1] ^ 1])] + right[1:]  # its CRC no longer right
    for second, passes in ((right, True), (stamped, True), (broken, False)):
        calls = iter([right, second])
        if passes:
            kb.check_encoder(calls.__next__, (), w)
        else:
            with pytest.raises(logcodec.DecodeError, match="checksum_mismatch"):  # a wrong answer for the run
                kb.check_encoder(calls.__next__, (), w)
