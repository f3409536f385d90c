"""bench kafka-protocol on tiny frames, in this process: every column's answer is checked before it
is timed, and a wrong one fails the run."""

from __future__ import annotations

import json

import pytest

import logcodec
from bench import kafka_protocol as kp

TINY = (lambda: kp.metadata(3, 2), lambda: kp.fetch(2, 2, 3), lambda: kp.produce(2, 2, 2))
QUICK = ["--min-time", "0.001", "--rounds", "1"]


@pytest.fixture
def run_bench(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(kp, "WORKLOADS", TINY)

    def run():
        out = tmp_path / "bench.json"
        status = kp.main([*QUICK, "--json", str(out)])
        captured = capsys.readouterr()
        return status, captured.out, captured.err, json.loads(out.read_text())

    return run


def test_a_run_whose_answers_are_right_exits_0(run_bench):
    status, out, err, doc = run_bench()
    assert status == 0 and "WRONG" not in err
    assert {w: sorted(r) for w, r in doc["results"].items()} == {
        w: ["bytes", "decode", "encode", "title"] for w in ("metadata", "fetch", "produce")}
    assert sorted(doc["results"]["fetch"]["decode"]) == ["kafka-python", "kafka-python frame", "logcodec"]
    assert out.count("| metadata |") == 2 and "Target for a" in out


def test_an_encoder_that_writes_another_frame_fails_the_run(run_bench, monkeypatch):
    encode = logcodec.encode
    monkeypatch.setattr(logcodec, "encode",  # a frame with a byte more (a record set as it is)
                        lambda fmt, *a, **k: encode(fmt, *a, **k) + (b"\0" if fmt.endswith(("request", "response")) else b""))
    status, _, err, doc = run_bench()
    assert status == 1
    assert len(set(doc["wrong_results"])) == 3 and all("column logcodec" in line for line in doc["wrong_results"])
    assert all("encode" not in r for r in doc["results"].values()) and err.endswith(doc["wrong_results"][-1] + "\n")


def test_a_record_reader_that_loses_a_record_fails_the_run(run_bench, monkeypatch):
    read = kp._read_records
    monkeypatch.setattr(kp, "_read_records", lambda data: read(data) - 1)
    status, _, err, doc = run_bench()
    assert status == 1
    assert "column kafka-python, workload fetch, decode: reads" in err and "decode" not in doc["results"]["fetch"]
    assert "decode" in doc["results"]["metadata"]  # no records there: nothing lost
