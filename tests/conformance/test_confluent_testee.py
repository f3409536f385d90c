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
MESSAGE_SET, RECORD_SET = "kafka.message_set", "kafka.record_set"
LEGACY_CASES = {(c.format, c.test["tcId"]): c for c in judge.build_cases([MESSAGE_SET, RECORD_SET], ops=("decode",))}

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
    assert hello["formats"] == {FORMAT: ["decode", "encode"], MESSAGE_SET: ["decode"], RECORD_SET: ["decode"]}
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


#: (format, tcId) -> (outcome, refusal kind or None): legacy messages and record sets, decoded
LEGACY_EXPECTED = {
    (MESSAGE_SET, "basic/v0_one_message"): ("pass", None),
    (MESSAGE_SET, "basic/mixed_magics"): ("pass", None),  # magic 0 (no timestamp), then magic 1
    (MESSAGE_SET, "basic/v1_log_append_time"): ("pass", None),
    (MESSAGE_SET, "basic/empty"): ("pass", None),
    (MESSAGE_SET, "invalid/crc_mismatch"): ("pass", "checksum_mismatch"),  # check.crcs=true: CRC-32
    (MESSAGE_SET, "invalid/corrupt_gzip"): ("pass", "corrupt_compressed"),
    (MESSAGE_SET, "truncated/v1_create_time/at-43"): ("pass", "truncated"),  # its log: read-buffer underflow
    (MESSAGE_SET, "truncated/v1_create_time/at-8"): ("pass", "truncated"),  # "might be too large to fetch"
    (MESSAGE_SET, "compressed/v0_gzip"): ("skipped", None),  # a wrapper's messages come out flat
    (RECORD_SET, "mixed/v0_v2_v1"): ("pass", None),  # librdkafka picks the parser per entry
    (RECORD_SET, "real_broker/kafka_go_v2b_v1"): ("pass", None),
    (RECORD_SET, "partial/v2_then_cut_v1"): ("pass", None),  # the cut-off last entry dropped silently
    (RECORD_SET, "invalid/unknown_magic"): ("pass", "invalid_value"),
    (RECORD_SET, "invalid/v2_crc_mismatch"): ("pass", "checksum_mismatch"),
    (RECORD_SET, "invalid/v1_crc_mismatch"): ("pass", "checksum_mismatch"),
}


def test_legacy_cases_over_the_protocol(started):
    cases = [LEGACY_CASES[key] for key in LEGACY_EXPECTED]
    answers = started.ask([judge.request(case, 0) for case in cases])
    problems = []
    for case, answer in zip(cases, answers):
        result = verdict(case, answer, started.hello["unsupported_fields"][case.format])
        kind = (answer.get("error") or {}).get("kind") if not answer.get("ok") else None
        if (result.outcome, kind) != LEGACY_EXPECTED[(case.format, case.test["tcId"])]:
            problems.append(f"{case.id}: expected {LEGACY_EXPECTED[(case.format, case.test['tcId'])]}, got "
                            f"{(result.outcome, kind)}: {result.detail} {result.diff} {json.dumps(answer)[:300]}")
    assert not problems, "\n".join(problems)


def test_legacy_message_decodes_through_librdkafka(started):
    """A magic-0 and a magic-1 message come back from librdkafka's consumer with their offsets, keys,
    values and (magic 1 only) timestamp; what it cannot say of a legacy message is declared."""
    case = LEGACY_CASES[(MESSAGE_SET, "basic/mixed_magics")]
    [answer] = started.ask([judge.request(case, 0)])
    assert answer["ok"], answer
    got = [(e["offset"], e["message"]["timestamp"], e["message"]["key"], e["message"]["value"])
           for e in answer["value"]["entries"]]
    want = [(e["offset"], e["message"]["timestamp"], e["message"]["key"], e["message"]["value"])
            for e in case.test["value"]["entries"]]
    assert got == want and got[0][1] is None and got[1][1] is not None
    assert set(started.hello["unsupported_fields"][MESSAGE_SET]) == {
        "entries[].message.magic", "entries[].message.attributes.reserved",
        "entries[].message.attributes.timestamp_type"}


def test_negative_inner_base_drops_messages(started):
    """The quirk behind the wrappers' `unsupported` answers: kafka-python writes a magic-1 gzip wrapper at
    offset 0 around inner offsets 0, 1, 2; librdkafka adds the base 0 - 2 = -2 (Java keeps the offsets
    as written when the base is negative) and drops the two messages that fall below fetch offset 0.
    Its log says it read 3 inner messages; 1 is handed out."""
    case = LEGACY_CASES[(MESSAGE_SET, "third_party/kafka_python_v1_gzip")]
    [answer] = started.ask([judge.request(case, 0)])
    assert not answer["ok"] and "unsupported" in answer, answer
    reason = answer["unsupported"]
    assert "3 inner message(s), the last at offset 2 as written" in reason, reason
    assert "handed out 1 message(s) in all, offsets [0]" in reason, reason
    assert "2 message(s) read were not handed out" in reason, reason
    # and a wrapper inside a wrapper (invalid: one level of compression) is decompressed too
    nested = LEGACY_CASES[(MESSAGE_SET, "invalid/nesting_too_deep")]
    [answer] = started.ask([judge.request(nested, 0)])
    assert "among them a gzip wrapper, decompressed too" in answer.get("unsupported", ""), answer


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
