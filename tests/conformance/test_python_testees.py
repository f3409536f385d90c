"""The Python testees (conformance/testees) against every vector of kafka.record_batch_v2, and
kafka-python's protocol classes against every vector of kafka.request and kafka.response.

Each testee runs as its own process (``python -m logcodec.conformance.testees.X``), driven with the harness's
own client (``process.Testee``, ``runner.handshake``) on the cases of ``judge.build_cases``, and judged by
``judge.judge``; ``verdict`` adds what the judge lets through: a malformed answer, and in a decoded value a
field left out (rather than null), a field the format does not have, a derived field given wrong, a bool for
an int. Every case that does not pass is listed, per testee, in EXPECTED with the verified reason, and the
test asserts that the list is exactly that: a library that changes shows up here.

The driver (``Session``, ``run_vectors``, ``verdict``) is in session.py, shared with the other testee tests.
"""

from __future__ import annotations

import json
import re
import sys

import pytest

from logcodec.conformance import judge

from tests.conformance.session import (  # noqa: E402
    FORMAT, TESTS, Case, Session, not_passed, run_vectors, variant, verdict,
)


LOG_APPEND_TIME = ("skipped", "timestamp_delta is not exposed",
                   "under log-append time the library replaces every record's timestamp by max_timestamp "
                   "(_read_msg), so the delta is lost")
NO_LIMIT = ("fail", "accepted", "no decompression limit: the library decodes the 65 MiB value")
LONG_VARINT = ("fail", "accepted", "decode_varint reads up to 64 bits for every varint, so a six-byte "
                                   "varint for the int32 offset delta is accepted")
OVERLONG_VARINT = ("fail", "accepted", "decode_varint accepts an overlong encoding (80 00 for 0), as Java does; "
                                       "logcodec refuses it, since it could not be written back")
KAFKA_COMMON = {
    "decode attributes/log_append_time": LOG_APPEND_TIME,
    "decode codecs/gzip_control_bits": LOG_APPEND_TIME,
    "decode invalid/decompression_bomb": NO_LIMIT,
    "decode invalid/varint_too_long": LONG_VARINT,
    "decode invalid/overlong_varint": OVERLONG_VARINT,
    "encode attributes/control_commit": ("skipped", "control bit", "the builder never sets the control bit "
                                                                   "(control batches are broker-written)"),
    "encode attributes/control_abort": ("skipped", "control bit", "the builder never sets the control bit"),
    "encode attributes/delete_horizon": ("skipped", "has_delete_horizon", "the builder never sets bit 6 "
                                                                         "(compaction does)"),
    "encode attributes/reserved_bits": ("skipped", "reserved attribute bits", "the builder writes only codec "
                                                                              "and transactional bits"),
    "encode attributes/log_append_time": ("skipped", "log_append_time", "the builder cannot set the timestamp "
                                                                        "type (broker-set)"),
    "encode codecs/gzip_control_bits": ("skipped", "log_append_time", "the builder cannot set the timestamp "
                                                                      "type (broker-set)"),
    "encode basic/three_records": ("skipped", "base_offset 1000", "the builder always writes base_offset 0"),
    "encode basic/zero_and_max_fields": ("skipped", "base_offset 9223372036854775806",
                                         "the builder always writes base_offset 0"),
    "encode basic/empty_batch": ("skipped", "last_offset_delta 9", "the builder writes last_offset_delta 0 "
                                 "and its own timestamps for an empty batch; the vector keeps 9 and real times"),
    "encode varints/large_timestamp_deltas": ("skipped", "records[0].timestamp_delta 1099511627777",
                                              "the builder takes base_timestamp from the first record, so the "
                                              "first delta is always 0"),
    "encode varints/negative_timestamp_deltas": ("skipped", "records[0].timestamp_delta -1",
                                                 "the first delta is always 0 and max_timestamp is the largest "
                                                 "record timestamp in a built batch"),
}
AIOKAFKA_TRAILING = ("fail", "accepted", "aiokafka's MemoryRecords silently ignores a partial batch after the "
                                         "last complete one (left for the Fetcher) and exposes no framed-byte count")
# aiokafka's builders always write partition_leader_epoch -1 (NO_PARTITION_LEADER_EPOCH), and the
# harness wants a canonical vector's exact bytes: every vector with another epoch is unsupported.
# So the aiokafka builders are also run on each vector's value with epoch -1 ("encode@epoch-1").
REWRITE_EPOCH = {"aiokafka_c": -1, "aiokafka_py": -1}
AIOKAFKA_EPOCH = ("skipped", "partition_leader_epoch", "aiokafka's builders always write partition_leader_epoch -1")


def _aiokafka_expected() -> dict[str, tuple[str, str, str]]:
    expected = {"decode invalid/trailing_byte": AIOKAFKA_TRAILING}
    for key, outcome in KAFKA_COMMON.items():
        expected[key] = outcome
        if key.startswith("encode "):
            expected[key.replace("encode ", "encode@epoch-1 ")] = outcome
    for test in TESTS.values():
        if test["result"] == "valid" and test["value"]["partition_leader_epoch"] != -1:
            expected.setdefault(f"encode {test['tcId']}", AIOKAFKA_EPOCH)
    return expected


EXPECTED: dict[str, dict[str, tuple[str, str, str]]] = {
    "kafka_python": {
        **KAFKA_COMMON,
        "encode third_party/aiokafka_c_lz4": ("skipped", "partition_leader_epoch -1",
                                              "kafka-python's builder always writes partition_leader_epoch 0"),
        "encode basic/negative_lengths_below_minus_one": ("fail", "not the canonical bytes",
                                                          "the builder writes -1 for every null; a key length of -2 "
                                                          "cannot be asked for"),
    },
    "aiokafka_c": _aiokafka_expected(),
    "aiokafka_py": _aiokafka_expected(),
    "kaitai": {
        "decode invalid/crc_mismatch": ("fail", "accepted", "Kaitai has no checksums (-lc-checksum is a "
                                                            "logcodec key the compiler ignores)"),
        "decode invalid/crc_zero": ("fail", "accepted", "Kaitai has no checksums"),
        "decode invalid/key_length_negative": ("fail", "accepted", "the schema reads any negative key length as "
                                               "null (if: >= 0) and a negative header count as none, and leftover "
                                               "bytes of the records substream are never checked"),
        "decode invalid/num_records_negative": ("fail", "accepted", "repeat-expr -1 reads no record; leftover "
                                                "bytes of the records substream are never checked"),
        "decode invalid/num_records_too_few": ("fail", "accepted", "leftover bytes of the records substream are "
                                               "never checked"),
        "decode invalid/record_length_too_long": ("fail", "accepted", "len_record is read but never checked "
                                                  "against the record's fields (-lc-size-of is logcodec's)"),
        "decode invalid/varint_too_long": ("fail", "accepted", "zigzag_varint documents max_bits but does not "
                                           "validate it, so six groups are read"),
        "decode invalid/overlong_varint": ("fail", "accepted", "zigzag_varint reads an overlong encoding (80 00) "
                                           "as 0; refusing it is logcodec's rule, for writing back"),
        "decode invalid/lz4_records_left_over": ("fail", "accepted", "leftover bytes of the records substream "
                                                 "are never checked"),
    },
}

MODULES = ["kafka_python", "aiokafka_c", "aiokafka_py", "kaitai"]
IMPLEMENTATIONS = {"kafka_python": "kafka-python", "aiokafka_c": "aiokafka-c", "aiokafka_py": "aiokafka-py",
                   "kaitai": "kaitai-struct-compiler"}
KAFKA_UNSUPPORTED = ["records[].attributes", "records[].value.version", "records[].value.coordinator_epoch"]
UNSUPPORTED_FIELDS = {
    "kafka_python": KAFKA_UNSUPPORTED,
    "aiokafka_c": ["partition_leader_epoch", *KAFKA_UNSUPPORTED],
    "aiokafka_py": ["partition_leader_epoch", *KAFKA_UNSUPPORTED],
    "kaitai": [],
}


def command(module: str) -> tuple[str, ...]:
    return (sys.executable, "-m", f"logcodec.conformance.testees.{module}")


def assert_not_passed(not_passed: dict[str, tuple[str, str]], expected: dict[str, tuple]) -> None:
    """Exactly the expected cases do not pass, each with its outcome and the text its reason must contain."""
    assert {k: v[0] for k, v in not_passed.items()} == {k: v[0] for k, v in expected.items()}, not_passed
    wrong_reason = {k: not_passed[k][1] for k, (_, match, *_) in expected.items() if match not in not_passed[k][1]}
    assert not wrong_reason


@pytest.mark.parametrize("module", MODULES)
def test_testee_against_every_vector(module):
    epoch = REWRITE_EPOCH.get(module)
    rewritten = [] if epoch is None else [
        variant("encode@epoch-1", tc, {**t["value"], "partition_leader_epoch": epoch})
        for tc, t in TESTS.items() if t["result"] == "valid"]
    run = run_vectors(command(module), rewritten)
    assert run.status == 0
    assert run.hello["implementation"]["name"] == IMPLEMENTATIONS[module]
    assert run.hello.get("unsupported_fields", {}).get(FORMAT, []) == UNSUPPORTED_FIELDS[module]
    assert_not_passed(not_passed(run.verdicts), EXPECTED[module])


# ---------------------------------------------------------------- builder limits beyond the vectors

def _value(records, *, compression="none", producer=("-1", -1, -1), base_timestamp="1000"):
    return {
        "base_offset": "0", "len_batch": None, "partition_leader_epoch": 0, "magic": 2, "crc": None,
        "attributes": {"reserved": 0, "has_delete_horizon": False, "is_control": False, "is_transactional": False,
                       "timestamp_type": "create_time", "compression": compression},
        "last_offset_delta": len(records) - 1, "base_timestamp": base_timestamp,
        "max_timestamp": str(int(base_timestamp) + max(int(r[0]) for r in records)),
        "producer_id": producer[0], "producer_epoch": producer[1], "base_sequence": producer[2],
        "num_records": None,
        "records": [{"len_record": None, "attributes": 0, "timestamp_delta": ts, "offset_delta": i, "len_key": None,
                     "key": "6b", "len_value": None, "value": value, "num_headers": None, "headers": []}
                    for i, (ts, value) in enumerate(records)],
    }


SYNTHETIC = {
    # a producer id without a base sequence: kafka-python's set_producer_state asserts, aiokafka's does not
    "producer_id_without_sequence": _value([("0", "76")], producer=("5", 0, -1)),
    # a record too small to shrink: the Python builders silently keep it uncompressed, the C one compresses
    "gzip_that_does_not_shrink": _value([("0", "76")], compression="gzip"),
    # a first record with timestamp -1 (then 5): aiokafka-c's builder takes -1 as "no record yet"
    "first_timestamp_minus_one": _value([("0", "78"), ("6", "79")], base_timestamp="-1"),
}
SYNTHETIC_EXPECTED = {
    "kafka_python": {
        "producer_id_without_sequence": ("skipped", "set_producer_state refuses"),
        "gzip_that_does_not_shrink": ("skipped", "keeps records uncompressed"),
    },
    "aiokafka_c": {
        # verified: record 0 decodes with timestamp 5 and base_timestamp is 5 (tests/thirdparty pins it too)
        "first_timestamp_minus_one": ("fail", "base_timestamp"),
    },
    "aiokafka_py": {
        "gzip_that_does_not_shrink": ("skipped", "keeps records uncompressed"),
    },
}


@pytest.mark.parametrize("module", ["kafka_python", "aiokafka_c", "aiokafka_py"])
def test_builder_limits_on_synthetic_values(module):
    epoch = REWRITE_EPOCH.get(module, 0)  # what the builder writes
    cases = {name: variant("synthetic", name, {**value, "partition_leader_epoch": epoch})
             for name, value in SYNTHETIC.items()}
    with Session(command(module)) as session:
        answers = session.ask([judge.request(case, 0) for case in cases.values()])
        assert session.stop() == 0
    unsupported = session.hello["unsupported_fields"][FORMAT]
    verdicts = {name: verdict(case, a, unsupported) for (name, case), a in zip(cases.items(), answers)}
    assert_not_passed(not_passed(verdicts), SYNTHETIC_EXPECTED[module])


def test_the_comparison_has_teeth():
    case = Case(f"{FORMAT}:decode:attributes/control_commit", FORMAT, "decode", TESTS["attributes/control_commit"])
    value = json.loads(json.dumps(case.test["value"]))

    def judged(unsupported=()):
        return verdict(case, {"seq": 0, "ok": True, "value": value}, list(unsupported))

    assert judged().outcome == "pass" and judged().diff == []
    value["records"][0]["value"] = {}  # what the Kafka testees report for a marker's value
    assert judged().outcome == "fail" and judged().diff != []
    assert judged(UNSUPPORTED_FIELDS["aiokafka_c"]).outcome == "pass"
    value["records"][0]["key"]["type"] = "abort"
    value["len_batch"] = None  # derived: may be null
    assert judged(UNSUPPORTED_FIELDS["aiokafka_c"]).diff == ['records[0].key.type: expected "commit", got "abort"']
    value["len_batch"] = 1  # but right when given
    assert len(judged(UNSUPPORTED_FIELDS["aiokafka_c"]).diff) == 2


# ---------------------------------------------------------------- Kafka's protocol: kafka-python's message classes

PROTOCOL_FORMATS = ("kafka.request", "kafka.response")
TRAILING = ("fail", "accepted", "the message decoder stops after the body and never looks at what follows")
UNKNOWN_TAG_WRITTEN = ("skipped", "writes no tagged field it does not know",
                       "kafka-python keeps an unknown tag it reads (unknown_tags) but never writes one")
SECOND_NULL = ("fail", "accepted", "a count of -2 reads as null, as Java reads it")
KAFKA_PYTHON_PROTOCOL = {
    "kafka.request decode mutated/null_topics_fixed": ("fail", "accepted", "its array reader takes a count of -1 "
                                                       "as null in every version"),
    "kafka.request decode mutated/trailing_byte": TRAILING,
    "kafka.request decode mutated/tagged_field_past_the_end": ("fail", "accepted", "a known tag is read by its "
                                                               "field's type; its size is never checked"),
    "kafka.request decode mutated/tagged_field_longer_than_its_content": ("fail", "accepted", "the same"),
    "kafka.request encode mutated/unknown_tag": UNKNOWN_TAG_WRITTEN,
    "kafka.request decode mutated/null_marker_zero": ("fail", "accepted", "a marker of 0 reads as present"),
    "kafka.response decode mutated/null_count_minus_two": SECOND_NULL,
    "kafka.response decode mutated/trailing_byte": TRAILING,
    "kafka.response encode mutated/unknown_tag": UNKNOWN_TAG_WRITTEN,
    "kafka.response encode mutated/api_versions_v0_answers_v3": ("encode_error", "not an integer",
                                                                 "it writes the version asked (3), and the "
                                                                 "value is the v0 answer"),
    **{f"kafka.response {op} kafka_python_{group}/list_client_metrics_resources_response_v0_{group}":
       ("fail", "different value" if op == "decode" else "logcodec cannot decode the bytes",
        "its later specs name API 74 ListConfigResources, and its list config_resources (KIP-1142)")
       for op in ("decode", "encode") for group in ("filled", "defaults")},
}
NOT_FLEXIBLE = "DescribeAclsRequest_v2 and its response reuse v1's schema: not flexible, where Kafka's v2 is"
LONG_EPOCH = "OffsetRequest_v4 (and _v5, the same schema) has current_leader_epoch an Int64; Kafka's spec, an int32"


def _aiokafka_protocol() -> dict[str, tuple[str, str, str]]:
    """What aiokafka's protocol classes do not pass: its own bugs (verified in its source), and what
    it cannot do, each a reason; every version it has no class of is skipped by its own message."""
    expected = {}
    for group in ("filled", "defaults"):
        for kind in ("request", "response"):
            tc = f"kafka_python_{group}/describe_acls_{kind}_v2_{group}"
            expected[f"kafka.{kind} decode {tc}"] = ("decode_error", "Buffer underrun" if kind == "request" or
                                                    group == "filled" else "convert value", NOT_FLEXIBLE)
            expected[f"kafka.{kind} encode {tc}"] = ("fail", "logcodec cannot decode the bytes", NOT_FLEXIBLE)
    expected["kafka.response decode mutated/null_count_minus_two"] = SECOND_NULL
    for version in (4, 5):
        tc = f"kafka_python_filled/list_offsets_request_v{version}_filled"
        expected[f"kafka.request decode {tc}"] = ("decode_error", "Buffer underrun", LONG_EPOCH)
        expected[f"kafka.request encode {tc}"] = ("fail", "logcodec cannot decode the bytes", LONG_EPOCH)
    return expected


PROTOCOL_EXPECTED = {"kafka_python": KAFKA_PYTHON_PROTOCOL, "aiokafka_py": _aiokafka_protocol()}
#: How many valid vectors each decodes to our value, at least (the APIs and versions its library has).
PROTOCOL_AGREED = {"kafka_python": 880, "aiokafka_py": 320}


@pytest.mark.parametrize("module", sorted(PROTOCOL_EXPECTED))
def test_protocol_classes_against_every_request_and_response_vector(module):
    """Every vector of both frames, decoded and encoded by the library's own protocol classes (the
    testee translates objects only), judged strictly: every field of the frame's version given.
    What the library has no class of is skipped, and so counted out of the agreement."""
    run = run_vectors(command(module), formats=PROTOCOL_FORMATS, null_left_out=True)
    assert run.status == 0
    assert all(run.hello["formats"][fmt] == ["decode", "encode"] for fmt in PROTOCOL_FORMATS)
    agreed = sum(" decode " in k and v.case.result == "valid" and v.outcome == "pass" for k, v in run.verdicts.items())
    assert agreed >= PROTOCOL_AGREED[module]
    not_passed_ = {k: v for k, v in not_passed(run.verdicts).items()
                   if not (v[0] == "skipped" and ("has no request class" in v[1] or "has no response class" in v[1]))}
    wanted = PROTOCOL_EXPECTED[module]
    skipped = {k: v for k, v in not_passed_.items() if v[0] == "skipped" and k not in wanted}
    assert all(re.search(SKIPS_SAID, v[1]) for v in skipped.values()), skipped
    # a schema that does not line up with Kafka's spec would hide a wrong one: only CreatePartitions
    # v0 and v1, whose count and assignments aiokafka nests in one `new_partitions` struct
    assert {re.sub(r"_(filled|defaults)$", "", k.rsplit("/", 1)[1]) for k, v in skipped.items()
            if "does not line up" in v[1]} <= {"create_partitions_request_v0", "create_partitions_request_v1"}
    assert_not_passed({k: v for k, v in not_passed_.items() if k not in skipped}, wanted)


#: The other reasons a protocol testee gives for what it cannot do (beyond versions it has no class of).
SKIPS_SAID = (r"does not line up with Kafka's spec|the builder always writes|writes no tagged field it does not "
              r"know|aiokafka reads tagged fields as raw bytes")


def test_the_protocol_comparison_has_teeth():
    """kafka-python's answer with one field changed, one tag dropped or one record's value changed fails."""
    from logcodec.conformance.testees import kafka_python

    impl = kafka_python.build()
    tests = {t["tcId"]: t for fmt in PROTOCOL_FORMATS for g in judge.vector_file(fmt)["testGroups"]
             for t in g["tests"]}
    test = tests["kafka_python_filled/fetch_response_v16_filled"]
    case = Case("kafka.response:decode:x", "kafka.response", "decode", test)
    unsupported = impl.unsupported_fields["kafka.response"]
    answer = impl.handlers["kafka.response"]["decode"](bytes.fromhex(test["bytes"]), **test["params"])
    assert verdict(case, {"seq": 0, "ok": True, "value": answer}, unsupported, True).outcome == "pass"
    assert answer["body"]["responses"][0]["partitions"][1]["tagged_fields"]  # there are tags to drop
    for change in (lambda p: p.update(high_watermark="1"), lambda p: p["tagged_fields"].pop(),
                   lambda p: p["records"]["entries"][0]["records"][1].update(value="00")):
        changed = json.loads(json.dumps(answer))
        change(changed["body"]["responses"][0]["partitions"][1])
        assert verdict(case, {"seq": 0, "ok": True, "value": changed}, unsupported, True).outcome == "fail"
