"""The Python testees (conformance/testees) against every vector of kafka.record_batch_v2.

Each testee runs as its own process (``python -m logcodec.conformance.testees.X``), driven with the harness's
own client (``process.Testee``, ``runner.handshake``) on the cases of ``judge.build_cases``, and judged by
``judge.judge``; ``verdict`` adds what the judge lets through: a malformed answer, and in a decoded value a
field left out (rather than null), a field the format does not have, a derived field given wrong, a bool for
an int. Every case that does not pass is listed, per testee, in EXPECTED with the verified reason, and the
test asserts that the list is exactly that: a library that changes shows up here.

The driver below (``Session``, ``run_vectors``, ``verdict``) is shared with test_node_testees.py and
test_confluent_testee.py.
"""

from __future__ import annotations

import hashlib
import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from logcodec import KINDS
from logcodec.conformance import judge, process, runner
from logcodec.conformance.judge import Case, Verdict

ROOT = Path(__file__).resolve().parents[2]
FORMAT = "kafka.record_batch_v2"
TIMEOUT = 120  # seconds for one answer (the decompression bomb's answer is 130 MB of JSON)
TESTS = {t["tcId"]: t for group in judge.vector_file(FORMAT)["testGroups"] for t in group["tests"]}


# ---------------------------------------------------------------- the harness's client and judge, stricter

class Session:
    """One testee process, started and handshaken with the harness's client."""

    def __init__(self, command, timeout: float = TIMEOUT) -> None:
        self.testee, self.timeout = process.Testee(list(command), cwd=str(ROOT)), timeout
        self.testee.start()
        try:
            self.hello = runner.handshake(self.testee, timeout)
        except BaseException:
            self.testee.kill()
            raise
        assert self.hello.get("protocol") == runner.PROTOCOL, self.hello

    def __enter__(self) -> Session:
        return self

    def __exit__(self, *_) -> None:
        self.testee.kill()

    def ask(self, requests: list[dict]) -> list[dict]:
        """Send the `run` requests (numbered here) pipelined; their answers, in the same order."""
        for seq, request in enumerate(requests):
            self.testee.send({**request, "seq": seq})
        answers: dict[int, dict] = {}
        while len(answers) < len(requests):
            try:
                line = self.testee.read_line(time.monotonic() + self.timeout)
            except process.TesteeGone as exc:
                raise process.TesteeGone(f"{exc}; stderr: {self.testee.stderr[-2000:]}") from None
            assert line is not None, f"no answer within {self.timeout:g} s; stderr: {self.testee.stderr[-2000:]}"
            answer = json.loads(line)
            assert answer.get("seq") in range(len(requests)) and answer["seq"] not in answers, line[:300]
            answers[answer["seq"]] = answer
        return [answers[seq] for seq in range(len(requests))]

    def stop(self, timeout: float = 20) -> int:
        """`stop`, with the input left open (the testee must exit by itself); its exit status."""
        deadline = time.monotonic() + timeout
        try:
            self.testee.send({"type": "stop"})
            while self.testee.read_line(deadline) is not None:
                pass
            raise AssertionError(f"still running {timeout:g} s after `stop`")
        except process.TesteeGone:
            return self.testee.proc.wait(timeout=max(deadline - time.monotonic(), 1))
        finally:
            self.testee.kill()


def variant(label: str, name: str, value: dict) -> Case:
    """An encode case for a value no vector has. The judge caches by tcId, so the tcId names the value."""
    digest = hashlib.sha256(json.dumps(value, sort_keys=True).encode()).hexdigest()[:16]
    return Case(f"{FORMAT}:{label}:{name}", FORMAT, "encode", {"tcId": f"{label}/{name}/{digest}", "result": "valid",
                                                               "value": value})


def verdict(case: Case, answer: dict, unsupported: list[str]) -> Verdict:
    """judge.judge on a well-formed answer; a decoded value must also pass `unjudged`."""
    if answer.get("ok") is True:
        assert ("value" if case.op == "decode" else "bytes") in answer, answer
    else:
        assert answer.get("ok") is False and ("unsupported" in answer) != ("error" in answer), answer
        assert "error" not in answer or answer["error"]["kind"] in (None, *KINDS), answer
    result = judge.judge(case, answer, unsupported)
    if case.op == "decode" and case.result == "valid" and answer["ok"]:
        extra = unjudged(case, answer["value"], unsupported)
        if extra:
            result.outcome, result.detail = "fail", result.detail or "decoded to a different value"
            result.diff += extra
    return result


def unjudged(case: Case, value, unsupported: list[str]) -> list[str]:
    """What judge.judge lets through in a decoded value: a field left out (null is fine only for a derived one),
    a field the value does not have, a derived value given wrong, a value equal but of another JSON type."""
    out: list[str] = []

    def walk(want, kept, got, where):  # kept: `want` as judge.comparable keeps it (no derived fields)
        if isinstance(want, dict) and isinstance(got, dict):
            kept = kept if isinstance(kept, dict) else want
            out.extend(f"{where}{k}: not a field of the value" for k in got if k not in want)
            for k in want:
                if where + k in unsupported:
                    continue
                if k not in kept:  # derived: null or left out, or right
                    if got.get(k) is not None and (got[k] != want[k] or type(got[k]) is not type(want[k])):
                        out.append(f"{where}{k}: derived value {got[k]!r}, expected {want[k]!r}")
                elif k not in got:
                    out.append(f"{where}{k}: missing")
                else:
                    walk(want[k], kept[k], got[k], f"{where}{k}.")
        elif isinstance(want, list) and isinstance(got, list) and isinstance(kept, list):
            for w, k, g in zip(want, kept, got):
                walk(w, k, g, where[:-1] + "[].")
        elif want == got and type(want) is not type(got):
            out.append(f"{where[:-1]}: expected {want!r}, got {got!r}")

    walk(case.test["value"], judge.comparable(case.format, case.test["value"], []), value, "")
    return out


@dataclass
class Run:
    hello: dict
    status: int  # on `stop`
    answers: dict[str, dict]  # by "<op> <tcId>"
    verdicts: dict[str, Verdict]


def not_passed(verdicts: dict[str, Verdict]) -> dict[str, tuple[str, str]]:
    """(outcome, detail and diff) of each case that does not pass."""
    return {k: (v.outcome, " ".join([v.detail, *v.diff])) for k, v in verdicts.items() if v.outcome != "pass"}


def run_vectors(command, extra: list[Case] = (), *, encodes_on_every_field: bool = False) -> Run:
    """Every vector (decode, and encode when declared) and the `extra` cases through one testee, pipelined.
    `encodes_on_every_field`: judge an encode on the fields the testee declared unsupported too."""
    with Session(command) as session:
        cases = [c for c in judge.build_cases([FORMAT]) if c.op in session.hello["formats"][FORMAT]] + list(extra)
        answers = session.ask([judge.request(case, 0) for case in cases])
        status = session.stop()
    declared = session.hello.get("unsupported_fields", {}).get(FORMAT, [])
    run = Run(session.hello, status, {}, {})
    for case, answer in zip(cases, answers):
        key = case.id.split(":", 1)[1].replace(":", " ", 1)
        run.answers[key] = answer
        run.verdicts[key] = verdict(case, answer, [] if encodes_on_every_field and case.op == "encode" else declared)
    return run


# ---------------------------------------------------------------- what does not pass, and why

# Every case that does not pass: "<op> <tcId>" -> (outcome, text the answer or verdict must contain,
# the verified reason). Outcomes: "skipped" (the testee answered unsupported) or "fail".
LOG_APPEND_TIME = ("skipped", "timestamp_delta is not exposed",
                   "under log-append time the library replaces every record's timestamp by max_timestamp "
                   "(_read_msg), so the delta is lost")
NO_LIMIT = ("fail", "accepted", "no decompression limit: the library decodes the 65 MiB value")
LONG_VARINT = ("fail", "accepted", "decode_varint reads up to 64 bits for every varint, so a six-byte "
                                   "varint for the int32 offset delta is accepted")
KAFKA_COMMON = {
    "decode attributes/log_append_time": LOG_APPEND_TIME,
    "decode codecs/gzip_control_bits": LOG_APPEND_TIME,
    "decode invalid/decompression_bomb": NO_LIMIT,
    "decode invalid/varint_too_long": LONG_VARINT,
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
