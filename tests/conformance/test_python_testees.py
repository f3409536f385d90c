"""The Python testees (conformance/testees) against every vector of kafka.record_batch_v2.

Each testee runs as its own process (``python -m logcodec.conformance.testees.X``) and is driven
over the testee protocol directly, one request at a time. The rules are the harness's:

* valid vector, decode: ``ok`` and the value equals the vector's, except derived fields (which
  may be null or omitted, and must be right when given) and the paths the testee declared in
  ``unsupported_fields``;
* invalid vector, decode: not ``ok``, with an ``error`` (its kind is not compared here);
* valid vector, encode (the value with derived fields null): ``ok`` and the bytes decode with
  logcodec to the vector's value (``strip_derived`` on both sides, declared paths aside) and,
  for a canonical vector, are the vector's bytes;
* an ``unsupported`` answer is a skip.

Every case that does not pass is listed, per testee, in EXPECTED with the verified reason, and
the test asserts that the list is exactly that: a library that changes shows up here.
"""

from __future__ import annotations

import dataclasses
import json
import queue
import subprocess
import sys
import tempfile
import threading

import pytest

import logcodec
from tests.vectorfiles import vector_file

FORMAT = "kafka.record_batch_v2"
TIMEOUT = 120  # seconds for one answer (the decompression bomb's answer is 130 MB of JSON)

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
    for key, verdict in KAFKA_COMMON.items():
        expected[key] = verdict
        if key.startswith("encode "):
            expected[key.replace("encode ", "encode@epoch-1 ")] = verdict
    for test in vectors():
        if test["result"] == "valid" and test["value"]["partition_leader_epoch"] != -1:
            expected.setdefault(f"encode {test['tcId']}", AIOKAFKA_EPOCH)
    return expected


def vectors():
    for group in vector_file(FORMAT)["testGroups"]:
        yield from group["tests"]


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


# ---------------------------------------------------------------- driving a testee

class RunningTestee:
    def __init__(self, module: str) -> None:
        self.stderr = tempfile.TemporaryFile()  # a file, so that a chatty testee never blocks on a full pipe
        self.proc = subprocess.Popen(
            [sys.executable, "-m", f"logcodec.conformance.testees.{module}"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.stderr, text=True, encoding="utf-8")
        self.answers: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.seq = 0

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.answers.put(json.loads(line))
        self.answers.put(None)

    def send(self, message: dict) -> dict:
        self.proc.stdin.write(json.dumps(message) + "\n")
        self.proc.stdin.flush()
        answer = self.answers.get(timeout=TIMEOUT)
        if answer is None:
            self.stderr.seek(0)
            raise AssertionError(f"testee exited: {self.stderr.read()[-2000:].decode(errors='replace')}")
        return answer

    def run(self, op: str, **payload) -> dict:
        self.seq += 1
        answer = self.send({"type": "run", "seq": self.seq, "op": op, "format": FORMAT, **payload})
        assert answer["seq"] == self.seq
        return answer

    def stop(self) -> int:
        self.proc.stdin.write(json.dumps({"type": "stop"}) + "\n")
        self.proc.stdin.close()
        try:
            return self.proc.wait(timeout=30)
        finally:
            self.stderr.close()


# ---------------------------------------------------------------- comparison

def _is_derived(meta) -> bool:
    return bool(meta.get("derived") or meta.get("instance"))


def _user_class(owner, name):
    return getattr(sys.modules[owner.__module__], name)


def differences(cls, expected: dict, actual, unsupported: set[str], path: str = "") -> list[str]:
    """Where JSON value `actual` differs from `expected` (canonical JSON of value class `cls`)."""
    if not isinstance(actual, dict):
        return [f"{path or '.'}: expected an object, got {actual!r}"]
    names = {f.name for f in dataclasses.fields(cls)}
    out = [f"{path}{k}: unknown field" for k in set(actual) - names]
    for f in dataclasses.fields(cls):
        where = f"{path}{f.name}"
        if where in unsupported:
            continue
        if _is_derived(f.metadata):
            if actual.get(f.name) is not None and actual[f.name] != expected.get(f.name):
                out.append(f"{where}: derived value {actual[f.name]!r} != {expected.get(f.name)!r}")
            continue
        if f.name not in actual:
            out.append(f"{where}: missing")
            continue
        mine, theirs = expected.get(f.name), actual[f.name]
        if f.metadata.get("list") and isinstance(mine, list) and isinstance(theirs, list):
            if len(mine) != len(theirs):
                out.append(f"{where}: {len(theirs)} items, expected {len(mine)}")
                continue
            for a, b in zip(mine, theirs):
                out += _scalar_differences(cls, f.metadata, a, b, unsupported, f"{where}[]")
        else:
            out += _scalar_differences(cls, f.metadata, mine, theirs, unsupported, where)
    return out


def _scalar_differences(owner, meta, mine, theirs, unsupported, where) -> list[str]:
    kind = meta["kind"]
    if kind == "switch" and isinstance(mine, dict):
        meta = next(c for c in meta["cases"] if c["kind"] == "user"
                    and set(mine) <= {f.name for f in dataclasses.fields(_user_class(owner, c["type"]))})
        kind = "user"
    if kind == "user" and mine is not None:
        return differences(_user_class(owner, meta["type"]), mine, theirs, unsupported, f"{where}.")
    return [] if mine == theirs else [f"{where}: {theirs!r} != expected {mine!r}"]


def for_encoding(value: dict) -> dict:
    """The vector's value as a user gives it to an encoder: derived fields null."""
    return logcodec.to_json(logcodec.strip_derived(logcodec.value_from_json(FORMAT, value)))


# ---------------------------------------------------------------- running every vector

def run_all(module: str) -> tuple[dict, dict[str, tuple[str, str]]]:
    """Run every vector through one testee; return its handshake and the cases that did not pass."""
    testee = RunningTestee(module)
    not_passed: dict[str, tuple[str, str]] = {}
    try:
        hello = testee.send({"type": "start", "protocol": 1})
        assert hello["type"] == "started" and hello["protocol"] == 1
        ops = hello["formats"][FORMAT]
        unsupported = set(hello.get("unsupported_fields", {}).get(FORMAT, []))
        root = logcodec.codec(FORMAT).ROOT
        for test in vectors():
            tc = test["tcId"]
            answer = testee.run("decode", bytes=test["bytes"])
            if "unsupported" in answer:
                not_passed[f"decode {tc}"] = ("skipped", answer["unsupported"])
            elif test["result"] == "invalid":
                if answer["ok"] or "error" not in answer:
                    not_passed[f"decode {tc}"] = ("fail", "accepted an invalid vector")
            elif test["result"] == "valid":
                if not answer["ok"]:
                    not_passed[f"decode {tc}"] = ("fail", f"refused: {answer.get('error')}")
                else:
                    diff = differences(root, test["value"], answer["value"], unsupported)
                    if diff:
                        not_passed[f"decode {tc}"] = ("fail", "; ".join(diff)[:300])
            if test["result"] != "valid" or "encode" not in ops:
                continue
            verdict = check_encode(testee, for_encoding(test["value"]), test["value"], unsupported,
                                   test["bytes"] if test.get("canonical") else None)
            if verdict is not None:
                not_passed[f"encode {tc}"] = verdict
            if module in REWRITE_EPOCH:
                value = {**test["value"], "partition_leader_epoch": REWRITE_EPOCH[module]}
                verdict = check_encode(testee, for_encoding(value), value, unsupported)
                if verdict is not None:
                    not_passed[f"encode@epoch-1 {tc}"] = verdict
    finally:
        status = testee.stop()
    assert status == 0
    return hello, not_passed


def check_encode(testee: RunningTestee, request: dict, expected: dict, unsupported: set[str],
                 canonical: str | None = None):
    """None when the bytes decode (with logcodec) to `expected` and, for a canonical vector, are its
    bytes (as the harness wants); else (outcome, reason)."""
    answer = testee.run("encode", value=request)
    if "unsupported" in answer:
        return ("skipped", answer["unsupported"])
    if not answer["ok"]:
        return ("fail", f"refused: {answer.get('error')}")
    try:
        got = logcodec.decode(FORMAT, bytes.fromhex(answer["bytes"]))
    except logcodec.DecodeError as exc:
        return ("fail", f"logcodec refuses the bytes: {exc}")
    want = logcodec.to_json(logcodec.strip_derived(logcodec.value_from_json(FORMAT, expected)))
    diff = differences(logcodec.codec(FORMAT).ROOT, want, logcodec.to_json(logcodec.strip_derived(got)), unsupported)
    if diff:
        return ("fail", "; ".join(diff)[:300])
    if canonical is not None and answer["bytes"] != canonical:
        return ("fail", "same value, but not the canonical bytes")
    return None


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


@pytest.mark.parametrize("module", MODULES)
def test_testee_against_every_vector(module):
    hello, not_passed = run_all(module)
    assert hello["implementation"]["name"] == IMPLEMENTATIONS[module]
    assert hello.get("unsupported_fields", {}).get(FORMAT, []) == UNSUPPORTED_FIELDS[module]
    expected = EXPECTED[module]
    assert {k: v[0] for k, v in not_passed.items()} == {k: v[0] for k, v in expected.items()}, not_passed
    wrong_reason = {k: not_passed[k][1] for k, (_, match, _) in expected.items() if match not in not_passed[k][1]}
    assert not wrong_reason


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
    testee = RunningTestee(module)
    try:
        hello = testee.send({"type": "start", "protocol": 1})
        unsupported = set(hello["unsupported_fields"][FORMAT])
        verdicts = {}
        for name, value in SYNTHETIC.items():
            value = {**value, "partition_leader_epoch": REWRITE_EPOCH.get(module, 0)}  # what the builder writes
            verdicts[name] = check_encode(testee, value, value, unsupported)
    finally:
        assert testee.stop() == 0
    not_passed = {k: v for k, v in verdicts.items() if v is not None}
    expected = SYNTHETIC_EXPECTED[module]
    assert {k: v[0] for k, v in not_passed.items()} == {k: v[0] for k, v in expected.items()}, not_passed
    assert all(match in not_passed[k][1] for k, (_, match) in expected.items()), not_passed


def test_the_comparison_has_teeth():
    root = logcodec.codec(FORMAT).ROOT
    test = next(t for t in vectors() if t["tcId"] == "attributes/control_commit")
    value = json.loads(json.dumps(test["value"]))
    assert differences(root, test["value"], value, set()) == []
    value["records"][0]["value"] = {}  # what the Kafka testees report for a marker's value
    assert differences(root, test["value"], value, set()) != []
    assert differences(root, test["value"], value, set(UNSUPPORTED_FIELDS["aiokafka_c"])) == []
    value["records"][0]["key"]["type"] = "abort"
    value["len_batch"] = None  # derived: may be null
    assert differences(root, test["value"], value, set(UNSUPPORTED_FIELDS["aiokafka_c"])) == [
        "records[].key.type: 'abort' != expected 'commit'"]
    value["len_batch"] = 1  # but right when given
    assert len(differences(root, test["value"], value, set(UNSUPPORTED_FIELDS["aiokafka_c"]))) == 2
