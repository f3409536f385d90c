"""The librdkafka testee (conformance/testees/confluent_kafka.py) over the testee protocol.

The testee runs as its own process (``python -m logcodec.conformance.testees.confluent_kafka``),
with its fake broker on 127.0.0.1, and is driven with start/run/stop lines on a handful of
vectors. Answers are judged by the harness's own ``judge``, and each case's outcome is
asserted exactly, together with the error kind of refusals: librdkafka's behaviour changing
shows up here. See conformance/testees/confluent_kafka_NOTES.md for why each outcome is what it is.
"""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
import time

import pytest

pytest.importorskip("confluent_kafka")
pytest.importorskip("kafka.protocol.consumer.fetch")  # kafka-python 3's protocol classes (the fake broker)

from logcodec.conformance.judge import Case, judge  # noqa: E402
from tests.vectorfiles import vector_file  # noqa: E402

FORMAT = "kafka.record_batch_v2"
MODULE = "logcodec.conformance.testees.confluent_kafka"
ANSWER_TIMEOUT = 15  # seconds; answers take ~10-40 ms, a decode gives up after 5 s

#: (op, tcId) -> (outcome, refusal kind or None)
EXPECTED = {
    ("decode", "basic/one_record"): ("pass", None),
    ("decode", "headers/many_headers"): ("pass", None),
    ("decode", "varints/non_contiguous_offsets"): ("pass", None),
    ("decode", "codecs/gzip"): ("pass", None),
    ("decode", "codecs/snappy"): ("pass", None),
    ("decode", "codecs/lz4"): ("pass", None),
    ("decode", "codecs/zstd"): ("pass", None),
    ("decode", "third_party/raw_snappy"): ("pass", None),
    # librdkafka hands out no control record, and under log-append time only max_timestamp
    ("decode", "attributes/control_commit"): ("skipped", None),
    ("decode", "attributes/log_append_time"): ("skipped", None),
    # refusals: consumer error events, and a batch cut short (debug log: read-buffer underflow)
    ("decode", "invalid/crc_mismatch"): ("pass", "checksum_mismatch"),
    ("decode", "invalid/corrupt_gzip"): ("pass", "corrupt_compressed"),
    ("decode", "invalid/unknown_codec_5"): ("pass", "unknown_codec"),
    ("decode", "invalid/batch_length_beyond_buffer"): ("pass", "truncated"),
    ("decode", "truncated/one_record/at-61"): ("pass", "truncated"),
    ("decode", "truncated/one_record/at-0"): ("pass", None),  # nothing delivered, no error: given up
    ("decode", "invalid/header_key_not_utf8"): ("pass", "invalid_value"),  # the Python binding refuses
    # librdkafka is lenient: it never checks num_records against the records it reads
    ("decode", "invalid/num_records_too_many"): ("fail", None),
    # encode: byte-exact when uncompressed; every codec librdkafka has
    ("encode", "basic/one_record"): ("pass", None),
    ("encode", "headers/many_headers"): ("pass", None),
    ("encode", "codecs/gzip"): ("pass", None),
    ("encode", "codecs/snappy"): ("pass", None),
    ("encode", "codecs/lz4"): ("pass", None),
    ("encode", "codecs/zstd"): ("pass", None),
    ("encode", "basic/three_records"): ("skipped", None),  # base_offset 1000: librdkafka writes 0
}


def _tests() -> dict[str, dict]:
    return {t["tcId"]: t for g in vector_file(FORMAT)["testGroups"] for t in g["tests"]}


class _TesteeProcess:
    def __init__(self) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", MODULE], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True, encoding="utf-8")
        self.lines: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def send(self, message: dict) -> None:
        self.proc.stdin.write(json.dumps(message) + "\n")
        self.proc.stdin.flush()

    def receive(self) -> dict | None:
        line = self.lines.get(timeout=ANSWER_TIMEOUT)
        return None if line is None else json.loads(line)

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)


@pytest.fixture(scope="module")
def started():
    testee = _TesteeProcess()
    try:
        testee.send({"type": "start", "protocol": 1})
        hello = testee.receive()
        assert hello is not None, testee.proc.stderr.read()[-2000:]
        yield testee, hello
    finally:
        testee.kill()


def test_handshake(started):
    _, hello = started
    assert hello["type"] == "started" and hello["protocol"] == 1
    assert hello["implementation"]["name"] == "librdkafka (confluent-kafka)"
    assert hello["formats"] == {FORMAT: ["decode", "encode"]}
    unsupported = set(hello["unsupported_fields"][FORMAT])
    # librdkafka hands out records only: these header fields are not reported ...
    assert {"base_offset", "base_timestamp", "max_timestamp", "producer_id", "producer_epoch", "base_sequence",
            "attributes.is_transactional", "records[].attributes"} <= unsupported
    # ... these are (Message.leader_epoch(), timestamp type, the codec from its debug log, records)
    assert not {"partition_leader_epoch", "attributes.timestamp_type", "attributes.compression",
                "records[].key", "records[].value", "records[].headers", "records[].offset_delta",
                "records[].timestamp_delta"} & unsupported


def test_cases_over_the_protocol(started):
    testee, hello = started
    unsupported = hello["unsupported_fields"][FORMAT]
    tests = _tests()
    from logcodec.conformance.judge import request

    cases = [Case(f"{FORMAT}:{op}:{tc}", FORMAT, op, tests[tc]) for op, tc in EXPECTED]
    started_at = time.monotonic()
    for seq, case in enumerate(cases):  # pipelined, as the harness does
        testee.send(request(case, seq))
    answers = {}
    for _ in cases:
        answer = testee.receive()
        assert answer is not None, f"testee exited: {testee.proc.stderr.read()[-2000:]}"
        answers[answer["seq"]] = answer
    elapsed = time.monotonic() - started_at
    problems = []
    for seq, case in enumerate(cases):
        verdict = judge(case, answers[seq], unsupported)
        answer = answers[seq]
        kind = (answer.get("error") or {}).get("kind") if not answer.get("ok") else None
        got = (verdict.outcome, kind)
        if got != EXPECTED[(case.op, case.test["tcId"])]:
            problems.append(f"{case.op} {case.test['tcId']}: expected {EXPECTED[(case.op, case.test['tcId'])]}, "
                            f"got {got}: {verdict.detail} {verdict.diff} {json.dumps(answer)[:300]}")
    assert not problems, "\n".join(problems)
    assert elapsed < 20, f"{len(cases)} requests took {elapsed:.1f} s"


def test_encode_compresses_with_the_requested_codec(started):
    testee, _ = started
    import logcodec

    value = _tests()["codecs/zstd"]["value"]
    testee.send({"type": "run", "seq": 1000, "op": "encode", "format": FORMAT, "value": value})
    answer = testee.receive()
    assert answer["ok"], answer
    data = bytes.fromhex(answer["bytes"])
    decoded = logcodec.to_json(logcodec.decode(FORMAT, data))
    assert decoded["attributes"]["compression"] == "zstd"
    assert decoded["partition_leader_epoch"] == 0 and decoded["producer_id"] == "-1"


def test_stop_exits_zero(started):
    testee, _ = started
    testee.send({"type": "stop"})
    assert testee.proc.wait(timeout=15) == 0


def test_crc_mismatch_in_zstd_marked_batch_aborts_librdkafka():
    """librdkafka 2.16.0 aborts (assertion in rdbuf.c) on invalid/crc_over_attributes with
    check.crcs=true, for the topic-name length the testee uses (see the NOTES)."""
    testee = _TesteeProcess()
    try:
        testee.send({"type": "start", "protocol": 1})
        assert testee.receive()["type"] == "started"
        testee.send({"type": "run", "seq": 1, "op": "decode", "format": FORMAT,
                     "bytes": _tests()["invalid/crc_over_attributes"]["bytes"]})
        answer = testee.receive()
        status = testee.proc.wait(timeout=15)
        stderr = testee.proc.stderr.read()
    finally:
        testee.kill()
    assert answer is None and status != 0, (answer, status)
    assert "rd_slice_narrow_copy" in stderr, stderr[-1000:]
