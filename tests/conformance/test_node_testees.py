"""Drive the kafkajs testee and the two minimal example testees over the testee protocol.

Each testee runs as a subprocess and is spoken to directly (conformance/PROTOCOL.md): start, every vector
of generated/vectors/kafka/record_batch_v2.json as pipelined `run` requests (decode, and encode when the
testee declares it), stop. A case passes when
- a valid vector decodes to the vector's value, derived fields aside (null or omitted is fine, a value
  given must be right) and the paths the testee lists in `unsupported_fields` aside;
- an invalid vector is refused with an error;
- an encode answer decodes with logcodec to the vector's value (`strip_derived` on both sides).
Every case that does not pass is collected per testee and must equal the explicit, reasoned list below:
a new quirk, or a quirk that went away, fails the test.
"""

from __future__ import annotations

import ast
import json
import queue
import re
import shutil
import subprocess
import sys
import threading
from collections import deque
from functools import cache
from pathlib import Path

import pytest

import logcodec

ROOT = Path(__file__).resolve().parents[2]
FORMAT = "kafka.record_batch_v2"
VECTORS = ROOT / "generated" / "vectors" / "kafka" / "record_batch_v2.json"
VALUE_SCHEMA = ROOT / "generated" / "schema" / "kafka" / "record_batch_v2.value.json"
KAFKAJS = ROOT / "conformance" / "testees" / "kafkajs"
EXAMPLES = ROOT / "conformance" / "examples"
NODE = shutil.which("node")

needs_node = pytest.mark.skipif(NODE is None, reason="node is not on PATH")
needs_kafkajs = pytest.mark.skipif(
    not (KAFKAJS / "node_modules").is_dir(),
    reason="conformance/testees/kafkajs/node_modules is missing: run `npm ci --prefix conformance/testees/kafkajs`",
)

# ---------------------------------------------------------------------------------------------------
# What does not pass, and why. Keys are "<op> <tcId>"; values (outcome, reason). Outcomes:
# unsupported (the testee answered `unsupported`: the case is skipped), accepted (an invalid vector
# decoded), refused (a valid vector refused), wrong_value (decoded to another value), encode_error,
# encode_wrong_value (the bytes decode to another value), encode_undecodable.

NO_LZ4 = "no LZ4 codec: kafkajs ships gzip only and kafkajs-lz4 needs a native node-gyp build of lz4@0.6"
NO_ZSTD = "no ZSTD codec: kafkajs ships gzip only and @kafkajs/zstd does not build (native cppzst)"
LOG_APPEND = "under log-append time kafkajs reports maxTimestamp as every record's timestamp; the deltas are lost"
CONTROL = "kafkajs does not decode transaction markers: control records stay raw key/value buffers"
NULL_HEADER = "kafkajs's Record encoder throws on a null header value (sizeOfHeaders calls Buffer.byteLength(null))"

KAFKAJS_EXPECTED = {
    # decode of valid vectors
    "decode headers/many_headers": (
        "wrong_value", "headers come back as an object keyed by header key: wire order b, a, b becomes b, b, a"),
    "decode attributes/log_append_time": ("unsupported", LOG_APPEND),
    "decode codecs/gzip_control_bits": ("unsupported", LOG_APPEND),
    "decode attributes/control_commit": ("unsupported", CONTROL),
    "decode attributes/control_abort": ("unsupported", CONTROL),
    "decode codecs/lz4": ("unsupported", NO_LZ4),
    "decode codecs/zstd": ("unsupported", NO_ZSTD),
    "decode third_party/aiokafka_c_lz4": ("unsupported", NO_LZ4),
    "decode third_party/zstd_without_content_size": ("unsupported", NO_ZSTD),
    "decode third_party/lz4_content_checksum_4mib_blocks": ("unsupported", NO_LZ4),
    # decode of invalid vectors
    "decode invalid/bad_magic": (
        "accepted", "RecordBatchDecoder reads the magic byte and ignores it (only the fetch path looks at it)"),
    "decode invalid/crc_mismatch": (
        "accepted", "kafkajs never checks CRCs (\"The library is currently not performing CRC validations\")"),
    "decode invalid/crc_zero": ("unsupported", CONTROL + " (and kafkajs never checks CRCs)"),
    "decode invalid/crc_over_attributes": (
        "unsupported", "the changed codec bits say zstd, which kafkajs lacks; the unchecked CRC does not stop it first"),
    "decode invalid/unknown_codec_5": (
        "accepted", "codec ids 5 to 7 have no entry in kafkajs's codec table, so the records are read as uncompressed"),
    "decode invalid/unknown_codec_7": (
        "accepted", "codec ids 5 to 7 have no entry in kafkajs's codec table, so the records are read as uncompressed"),
    "decode invalid/corrupt_zstd": ("unsupported", NO_ZSTD),
    "decode invalid/uncompressed_marked_lz4": ("unsupported", NO_LZ4),
    "decode invalid/num_records_negative": ("accepted", "Decoder.readArray reads a count of -1 as an empty array"),
    "decode invalid/num_records_too_few": (
        "accepted", "bytes left in the batch after num_records records are ignored"),
    "decode invalid/record_length_too_long": (
        "accepted", "a record is read from a slice of its stated length, clamped to the buffer; unread bytes are ignored"),
    "decode invalid/key_length_beyond_record": (
        "accepted", "Buffer.slice clamps the key at the end of the record and varints read past the end come out 0"),
    "decode invalid/varint_too_long": ("accepted", "Decoder.readVarInt has no length limit: a 6-byte varint is read"),
    "decode invalid/header_key_not_utf8": (
        "accepted", "header keys are decoded with Buffer.toString('utf8'), which turns bad bytes into U+FFFD"),
    "decode invalid/control_key_too_short": ("unsupported", CONTROL),
    "decode invalid/decompression_bomb": ("unsupported", NO_ZSTD),
    # encode
    "encode headers/many_headers": (
        "unsupported", "kafkajs takes headers as an object keyed by header key, which cannot keep the order b, a, b"),
    "encode headers/headers_on_several_records": ("encode_error", NULL_HEADER),
    "encode headers/sixty_four_headers": ("encode_error", NULL_HEADER),
    "encode attributes/log_append_time": ("unsupported", "RecordBatch always writes timestamp type create_time"),
    "encode codecs/gzip_control_bits": ("unsupported", "RecordBatch always writes timestamp type create_time"),
    "encode attributes/control_commit": ("unsupported", "RecordBatch cannot set the control bit"),
    "encode attributes/control_abort": ("unsupported", "RecordBatch cannot set the control bit"),
    "encode attributes/delete_horizon": ("unsupported", "RecordBatch cannot set the delete-horizon bit"),
    "encode attributes/reserved_bits": ("unsupported", "RecordBatch cannot set the reserved attribute bits"),
    "encode codecs/lz4": ("unsupported", NO_LZ4),
    "encode codecs/zstd": ("unsupported", NO_ZSTD),
    "encode third_party/aiokafka_c_lz4": ("unsupported", NO_LZ4),
    "encode third_party/zstd_without_content_size": ("unsupported", NO_ZSTD),
    "encode third_party/lz4_content_checksum_4mib_blocks": ("unsupported", NO_LZ4),
}

# kafkajs's RecordBatchDecoder reads these and returns none of them (magic only per record).
KAFKAJS_UNSUPPORTED_FIELDS = ["magic", "attributes.reserved", "attributes.has_delete_horizon", "attributes.compression"]

UNCOMPRESSED_ONLY = "the example reads uncompressed batches only"

EXAMPLE_EXPECTED = {
    "decode codecs/gzip": ("unsupported", UNCOMPRESSED_ONLY),
    "decode codecs/snappy": ("unsupported", UNCOMPRESSED_ONLY),
    "decode codecs/lz4": ("unsupported", UNCOMPRESSED_ONLY),
    "decode codecs/zstd": ("unsupported", UNCOMPRESSED_ONLY),
    "decode codecs/gzip_control_bits": ("unsupported", UNCOMPRESSED_ONLY),
    "decode third_party/kafka_python_gzip": ("unsupported", UNCOMPRESSED_ONLY),
    "decode third_party/aiokafka_c_lz4": ("unsupported", UNCOMPRESSED_ONLY),
    "decode third_party/raw_snappy": ("unsupported", UNCOMPRESSED_ONLY),
    "decode third_party/zstd_without_content_size": ("unsupported", UNCOMPRESSED_ONLY),
    "decode third_party/lz4_content_checksum_4mib_blocks": ("unsupported", UNCOMPRESSED_ONLY),
    "decode invalid/corrupt_gzip": ("unsupported", UNCOMPRESSED_ONLY + " (the gzip stream is never opened)"),
    "decode invalid/corrupt_zstd": ("unsupported", UNCOMPRESSED_ONLY + " (the zstd stream is never opened)"),
    "decode invalid/uncompressed_marked_lz4": ("unsupported", UNCOMPRESSED_ONLY + ", and these codec bits say lz4"),
    "decode invalid/decompression_bomb": ("unsupported", UNCOMPRESSED_ONLY + " (the zstd stream is never opened)"),
}


# ---------------------------------------------------------------------------------------------------
# The protocol, spoken directly.

class TesteeProcess:
    """A testee subprocess: JSON lines in and out, stdout read on a thread so pipelining cannot deadlock."""

    __test__ = False  # not a pytest test class

    def __init__(self, argv: list[str]) -> None:
        self.argv = argv
        self.proc = subprocess.Popen(argv, cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True, encoding="utf-8", bufsize=1)
        self.lines: queue.Queue = queue.Queue()
        self.stderr: deque = deque(maxlen=40)
        threading.Thread(target=self._pump, args=(self.proc.stdout, self.lines.put), daemon=True).start()
        threading.Thread(target=self._pump, args=(self.proc.stderr, self.stderr.append), daemon=True).start()

    @staticmethod
    def _pump(stream, sink) -> None:
        for line in stream:
            sink(line)
        sink(None)

    def send(self, message: dict) -> None:
        self.proc.stdin.write(json.dumps(message) + "\n")
        self.proc.stdin.flush()

    def receive(self, timeout: float = 60) -> dict:
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"{self.argv}: no answer within {timeout} s; stderr: {''.join(self.stderr)}") from None
        assert line is not None, f"{self.argv} closed its output; stderr: {''.join(self.stderr)}"
        try:
            return json.loads(line)
        except json.JSONDecodeError:
            raise AssertionError(f"{self.argv} wrote something that is not JSON: {line[:200]!r}") from None

    def start(self) -> dict:
        self.send({"type": "start", "protocol": 1})
        started = self.receive()
        assert started.get("type") == "started" and started.get("protocol") == 1, started
        return started

    def run_all(self, requests: list[dict]) -> dict[int, dict]:
        for request in requests:  # pipelined: everything first, then the answers, in any order
            self.send(request)
        answers: dict[int, dict] = {}
        for _ in requests:
            answer = self.receive()
            seq = answer.get("seq")
            assert seq not in answers, f"seq {seq} answered twice"
            answers[seq] = answer
        assert set(answers) == {r["seq"] for r in requests}
        return answers

    def stop(self) -> int:
        self.send({"type": "stop"})  # stdin stays open: the testee must exit on its own
        try:
            return self.proc.wait(timeout=20)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
            self.proc.stdin.close()


def check_answer_shape(answer: dict, op: str) -> None:
    if answer["ok"] is True:
        assert ("value" if op == "decode" else "bytes") in answer, answer
    else:
        assert answer["ok"] is False and (("unsupported" in answer) != ("error" in answer)), answer
        if "error" in answer:
            assert answer["error"]["kind"] is None or answer["error"]["kind"] in logcodec.KINDS, answer


# ---------------------------------------------------------------------------------------------------
# Judging.

@cache
def vectors() -> list[dict]:
    return [test for group in json.loads(VECTORS.read_text())["testGroups"] for test in group["tests"]]


@cache
def derived_names() -> frozenset[str]:
    """Field names the value JSON Schema marks derived (may be omitted or null)."""
    defs = json.loads(VALUE_SCHEMA.read_text())["$defs"]
    derived, plain = set(), set()
    for definition in defs.values():
        for name, prop in definition.get("properties", {}).items():
            (derived if "Derived:" in prop.get("description", "") else plain).add(name)
    assert not derived & plain, "a field name is derived in one type and not in another"
    return frozenset(derived)


def drop_path(value, path: str) -> None:
    """Remove a value path such as `magic`, `attributes.compression` or `records[].len_record`."""
    head, _, rest = path.partition(".")
    if head.endswith("[]"):
        items = value.get(head[:-2]) if isinstance(value, dict) else None
        for item in items or []:
            if rest:
                drop_path(item, rest)
    elif not rest:
        if isinstance(value, dict):
            value.pop(head, None)
    elif isinstance(value, dict) and isinstance(value.get(head), (dict, list)):
        drop_path(value[head], rest)


def differences(expected, got, where: str = "$") -> list[str]:
    if isinstance(expected, dict):
        if not isinstance(got, dict):
            return [f"{where}: expected an object, got {got!r}"]
        out = []
        for key, want in expected.items():
            if key in derived_names() and got.get(key) is None:
                continue  # a derived field may be left out or null; a value given must be right
            if key not in got:
                out.append(f"{where}.{key}: missing")
            else:
                out += differences(want, got[key], f"{where}.{key}")
        return out + [f"{where}.{key}: not in the expected value" for key in got if key not in expected]
    if isinstance(expected, list):
        if not isinstance(got, list) or len(got) != len(expected):
            return [f"{where}: expected a list of {len(expected)}, got {got!r}"[:300]]
        return [d for i, (e, g) in enumerate(zip(expected, got)) for d in differences(e, g, f"{where}[{i}]")]
    if type(expected) is not type(got) or expected != got:
        return [f"{where}: expected {expected!r}, got {got!r}"]
    return []


def decode_differences(test: dict, got: dict, unsupported_fields: list[str]) -> list[str]:
    expected = json.loads(json.dumps(test["value"]))
    got = json.loads(json.dumps(got))
    for path in unsupported_fields:
        drop_path(expected, path)
        drop_path(got, path)
    return differences(expected, got)


def judge(op: str, test: dict, answer: dict, unsupported_fields: list[str]) -> str | None:
    """None when the case passes, else its outcome."""
    check_answer_shape(answer, op)
    if not answer["ok"] and "unsupported" in answer:
        return "unsupported"
    if op == "decode":
        if test["result"] == "invalid":
            return None if not answer["ok"] else "accepted"
        if not answer["ok"]:
            return "refused"
        return "wrong_value" if decode_differences(test, answer["value"], unsupported_fields) else None
    if not answer["ok"]:
        return "encode_error"
    try:
        decoded = logcodec.decode(FORMAT, bytes.fromhex(answer["bytes"]))
    except logcodec.DecodeError:
        return "encode_undecodable"
    expected = logcodec.value_from_json(FORMAT, test["value"])
    return None if logcodec.strip_derived(decoded) == logcodec.strip_derived(expected) else "encode_wrong_value"


def encode_request_value(test: dict) -> dict:
    """The vector's value as the harness sends it to an encoder: derived fields null."""
    return logcodec.to_json(logcodec.strip_derived(logcodec.value_from_json(FORMAT, test["value"])))


@cache
def run_vectors(argv: tuple[str, ...]) -> dict:
    """Run every vector through a testee once; the outcome of each case that does not pass, and more."""
    testee = TesteeProcess(list(argv))
    started = testee.start()
    ops = started["formats"][FORMAT]
    requests, cases = [], {}
    for test in vectors():
        if test["result"] == "acceptable":
            continue
        for op in ("decode", "encode"):
            if op not in ops or (op == "encode" and test["result"] != "valid"):
                continue
            seq = len(requests) + 1
            request = {"type": "run", "seq": seq, "op": op, "format": FORMAT}
            if op == "decode":
                request["bytes"] = test["bytes"]
            else:
                request["value"] = encode_request_value(test)
            requests.append(request)
            cases[seq] = (op, test)
    answers = testee.run_all(requests)
    exit_code = testee.stop()
    unsupported_fields = started.get("unsupported_fields", {}).get(FORMAT, [])
    outcomes, answers_by_case = {}, {}
    for seq, (op, test) in cases.items():
        answers_by_case[f"{op} {test['tcId']}"] = answers[seq]
        outcome = judge(op, test, answers[seq], unsupported_fields)
        if outcome is not None:
            outcomes[f"{op} {test['tcId']}"] = outcome
    return {"started": started, "exit_code": exit_code, "outcomes": outcomes, "answers": answers_by_case,
            "cases": len(cases)}


def assert_outcomes(result: dict, expected: dict) -> None:
    assert all(isinstance(reason, str) and reason for _, reason in expected.values())
    got = result["outcomes"]
    unexpected = {case: (outcome, _detail(result, case)) for case, outcome in got.items() if case not in expected}
    gone = sorted(case for case in expected if case not in got)
    changed = {case: (expected[case][0], got[case]) for case in got if case in expected and got[case] != expected[case][0]}
    assert not unexpected and not gone and not changed, (
        f"new failures: {unexpected}\nno longer failing: {gone}\noutcome changed (expected, got): {changed}")


def _detail(result: dict, case: str) -> str:
    answer = result["answers"][case]
    op, tc_id = case.split(" ", 1)
    if op == "decode" and answer.get("ok"):
        test = next(t for t in vectors() if t["tcId"] == tc_id)
        fields = result["started"].get("unsupported_fields", {}).get(FORMAT, [])
        return "; ".join(decode_differences(test, answer["value"], fields))[:500] if "value" in test else "accepted"
    return json.dumps(answer)[:300]


# ---------------------------------------------------------------------------------------------------
# kafkajs

KAFKAJS_ARGV = ("node", "conformance/testees/kafkajs/testee.js")


@needs_node
@needs_kafkajs
def test_kafkajs_fails_exactly_the_known_quirks():
    result = run_vectors(KAFKAJS_ARGV)
    assert result["exit_code"] == 0
    assert result["started"]["implementation"] == {"name": "kafkajs", "version": "2.2.4"}
    assert result["started"]["formats"] == {FORMAT: ["decode", "encode"]}
    assert result["started"]["unsupported_fields"] == {FORMAT: KAFKAJS_UNSUPPORTED_FIELDS}
    assert_outcomes(result, KAFKAJS_EXPECTED)


@needs_node
@needs_kafkajs
def test_kafkajs_error_kinds_are_its_own():
    """Only what kafkajs itself tells apart gets a kind: a partial batch, a broken gzip stream."""
    answers = run_vectors(KAFKAJS_ARGV)["answers"]
    kinds = {case: a["error"]["kind"] for case, a in answers.items() if not a["ok"] and "error" in a}
    assert kinds["decode invalid/batch_length_beyond_buffer"] == "truncated"  # KafkaJSPartialMessageError
    assert kinds["decode invalid/corrupt_gzip"] == "corrupt_compressed"  # zlib Z_DATA_ERROR / Z_BUF_ERROR
    assert kinds["decode invalid/trailing_byte"] == "trailing_bytes"  # the adapter: one batch, bytes left over
    assert kinds["decode invalid/batch_length_negative"] is None  # a Node RangeError: kafkajs cannot tell


@needs_node
@needs_kafkajs
def test_kafkajs_header_object_moves_integer_like_keys_first():
    """Headers become a JS object, so integer-like keys come first and duplicates are grouped."""
    value = json.loads(json.dumps(next(t for t in vectors() if t["tcId"] == "headers/one_header")["value"]))
    value["records"][0]["headers"] = [{"key": k, "value": v} for k, v in [("b", "01"), ("1", "02"), ("a", "03"), ("b", "04")]]
    data = logcodec.encode(FORMAT, logcodec.strip_derived(logcodec.value_from_json(FORMAT, value)))
    testee = TesteeProcess(list(KAFKAJS_ARGV))
    testee.start()
    answer = testee.run_all([{"type": "run", "seq": 1, "op": "decode", "format": FORMAT, "bytes": data.hex()}])[1]
    assert testee.stop() == 0
    headers = [(h["key"], h["value"]) for h in answer["value"]["records"][0]["headers"]]
    assert headers == [("1", "02"), ("b", "01"), ("b", "04"), ("a", "03")]
    # The vector: wire order b, a, b, empty, null comes back grouped.
    answer = run_vectors(KAFKAJS_ARGV)["answers"]["decode headers/many_headers"]
    assert [h["key"] for h in answer["value"]["records"][0]["headers"]] == ["b", "b", "a", "empty", "null"]


@needs_node
@needs_kafkajs
def test_kafkajs_compressed_framing():
    """kafkajs writes gzip with mtime 0, and (through kafkajs-snappy) raw snappy without xerial framing,
    while it reads both snappy framings (codecs/snappy is xerial, third_party/raw_snappy is raw)."""
    result = run_vectors(KAFKAJS_ARGV)
    gzip = bytes.fromhex(result["answers"]["encode codecs/gzip"]["bytes"])[61:]
    assert gzip[:10] == bytes.fromhex("1f8b0800000000000003")  # magic, deflate, no flags, mtime 0, unix
    snappy = bytes.fromhex(result["answers"]["encode codecs/snappy"]["bytes"])[61:]
    vector = bytes.fromhex(next(t for t in vectors() if t["tcId"] == "codecs/snappy")["bytes"])[61:]
    assert vector.startswith(b"\x82SNAPPY\x00") and not snappy.startswith(b"\x82SNAPPY\x00")
    assert "decode codecs/snappy" not in result["outcomes"]
    assert "decode third_party/raw_snappy" not in result["outcomes"]


def test_kafkajs_testee_pins_its_dependencies():
    package = json.loads((KAFKAJS / "package.json").read_text())
    lock = json.loads((KAFKAJS / "package-lock.json").read_text())
    assert package["dependencies"] == {"kafkajs": "2.2.4", "kafkajs-snappy": "1.1.0"}
    assert lock["packages"]["node_modules/kafkajs"]["version"] == "2.2.4"
    assert lock["packages"]["node_modules/kafkajs-snappy"]["version"] == "1.1.0"


# ---------------------------------------------------------------------------------------------------
# The minimal examples

EXAMPLES_ARGV = {
    "python": (sys.executable, "conformance/examples/minimal_testee.py"),
    "node": ("node", "conformance/examples/minimal_testee.js"),
}


@pytest.mark.parametrize("language", sorted(EXAMPLES_ARGV))
def test_example_passes_every_uncompressed_vector(language):
    if language == "node" and NODE is None:
        pytest.skip("node is not on PATH")
    result = run_vectors(EXAMPLES_ARGV[language])
    assert result["exit_code"] == 0
    assert result["started"]["formats"] == {FORMAT: ["decode"]}
    assert_outcomes(result, EXAMPLE_EXPECTED)
    # Every invalid vector the examples can read is refused with the vector's own error kind.
    for test in vectors():
        answer = result["answers"][f"decode {test['tcId']}"]
        if test["result"] == "invalid" and "error" in answer:
            assert answer["error"]["kind"] == test["error"], (test["tcId"], answer)


def test_examples_skip_only_compressed_batches():
    for case in EXAMPLE_EXPECTED:
        data = bytes.fromhex(next(t for t in vectors() if t["tcId"] == case.split(" ", 1)[1])["bytes"])
        assert 1 <= data[22] & 7 <= 4, case  # the codec bits of the attributes (bytes 21-22)


@pytest.mark.parametrize("name", ["minimal_testee.py", "minimal_testee.js"])
def test_example_is_under_100_lines(name):
    assert len((EXAMPLES / name).read_text().splitlines()) < 100


def test_examples_have_no_dependencies():
    tree = ast.parse((EXAMPLES / "minimal_testee.py").read_text())
    imported = {alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    imported |= {node.module.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert imported and imported <= sys.stdlib_module_names, imported  # logcodec is not imported either
    required = set(re.findall(r"""require\('([^']+)'\)""", (EXAMPLES / "minimal_testee.js").read_text()))
    assert required == {"readline"}, required
