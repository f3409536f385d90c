"""The librdkafka testee (conformance/testees/confluent_kafka.py) over the testee protocol.

The testee runs as its own process (``python -m logcodec.conformance.testees.confluent_kafka``),
with its fake broker on 127.0.0.1, and is driven with start/run/stop lines on a handful of
vectors through the shared driver of test_python_testees.py (the harness's client, pipelined).
Answers are judged by the harness's own ``judge`` (with the stricter checks there), and each case's
outcome is asserted exactly, together with the error kind of refusals: librdkafka's behaviour changing
shows up here. See conformance/testees/confluent_kafka_NOTES.md for why each outcome is what it is.
"""

from __future__ import annotations

import json
import sys
import time

import pytest

pytest.importorskip("confluent_kafka")
pytest.importorskip("kafka.protocol.consumer.fetch")  # kafka-python 3's protocol classes (the fake broker)

import logcodec  # noqa: E402
from logcodec.conformance import judge, process  # noqa: E402
from tests.conformance.session import FORMAT, TESTS, Session, verdict  # noqa: E402

COMMAND = (sys.executable, "-m", "logcodec.conformance.testees.confluent_kafka")
ANSWER_TIMEOUT = 15  # seconds; answers take ~10-40 ms, a decode gives up after 5 s
CASES = {(c.op, c.test["tcId"]): c for c in judge.build_cases([FORMAT])}

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


@pytest.fixture(scope="module")
def started():
    with Session(COMMAND, ANSWER_TIMEOUT) as session:
        yield session


def test_handshake(started):
    hello = started.hello
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
    unsupported = started.hello["unsupported_fields"][FORMAT]
    cases = [CASES[key] for key in EXPECTED]
    started_at = time.monotonic()
    answers = started.ask([judge.request(case, 0) for case in cases])  # pipelined, as the harness does
    elapsed = time.monotonic() - started_at
    problems = []
    for case, answer in zip(cases, answers):
        result = verdict(case, answer, unsupported)
        kind = (answer.get("error") or {}).get("kind") if not answer.get("ok") else None
        got = (result.outcome, kind)
        if got != EXPECTED[(case.op, case.test["tcId"])]:
            problems.append(f"{case.op} {case.test['tcId']}: expected {EXPECTED[(case.op, case.test['tcId'])]}, "
                            f"got {got}: {result.detail} {result.diff} {json.dumps(answer)[:300]}")
    assert not problems, "\n".join(problems)
    assert elapsed < 20, f"{len(cases)} requests took {elapsed:.1f} s"


def test_encode_compresses_with_the_requested_codec(started):
    value = TESTS["codecs/zstd"]["value"]
    [answer] = started.ask([{"type": "run", "op": "encode", "format": FORMAT, "value": value}])
    assert answer["ok"], answer
    decoded = logcodec.to_json(logcodec.decode(FORMAT, bytes.fromhex(answer["bytes"])))
    assert decoded["attributes"]["compression"] == "zstd"
    assert decoded["partition_leader_epoch"] == 0 and decoded["producer_id"] == "-1"


def test_stop_exits_zero(started):
    assert started.stop(timeout=15) == 0


def test_crc_mismatch_in_zstd_marked_batch_aborts_librdkafka():
    """librdkafka 2.16.0 aborts (assertion in rdbuf.c) on invalid/crc_over_attributes with
    check.crcs=true, for the topic-name length the testee uses (see the NOTES)."""
    with Session(COMMAND, ANSWER_TIMEOUT) as session:
        with pytest.raises(process.TesteeGone):  # no answer: the testee dies
            session.ask([judge.request(CASES[("decode", "invalid/crc_over_attributes")], 0)])
        status = session.testee.proc.wait(timeout=15)
        stderr = session.testee.stderr
    assert status != 0, status
    assert "rd_slice_narrow_copy" in stderr, stderr[-1000:]
