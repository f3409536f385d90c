"""Drive the kafkajs testee and the two minimal example testees over the testee protocol.

Each testee runs every vector of kafka.record_batch_v2 (decode, and encode when it declares it) through the
shared driver of test_python_testees.py: the harness's client and cases, pipelined, judged by `judge.judge`
plus the stricter checks there (a well-formed answer; a decoded value with no field left out or unknown, a
derived value right when given, no bool for an int). An encode is judged on every field, the ones kafkajs
declares unsupported included: they are what its decoder cannot report, not what its encoder may get wrong.
Every case that does not pass is collected per testee and must equal the explicit, reasoned list below:
a new quirk, or a quirk that went away, fails the test.

The figures conformance/examples/README.md gives about the examples are checked against a run of the
commands it gives.
"""

from __future__ import annotations

import ast
import json
import re
import shlex
import shutil
import subprocess
import sys
from functools import cache

import pytest
from logcodec.conformance import judge
from logcodec.conformance.judge import vector_file

import logcodec
from tests.conformance.session import FORMAT, ROOT, TESTS, Session, run_vectors

KAFKAJS = ROOT / "conformance" / "testees" / "kafkajs"
EXAMPLES = ROOT / "conformance" / "examples"
NODE = shutil.which("node")

needs_node = pytest.mark.skipif(NODE is None, reason="node is not on PATH")
needs_kafkajs = pytest.mark.skipif(
    not (KAFKAJS / "node_modules").is_dir(),
    reason="conformance/testees/kafkajs/node_modules is missing: run `npm ci --prefix conformance/testees/kafkajs`",
)

# ---------------------------------------------------------------------------------------------------
# What does not pass, and why. Keys are "<op> <tcId>"; values (outcome, reason), in the harness's outcomes:
# skipped (the testee answered `unsupported`), fail (an invalid vector decoded, a valid one decoded to another
# value, or encode bytes that decode to another value), decode_error (a valid vector refused), encode_error.

NO_LZ4 = "no LZ4 codec: kafkajs ships gzip only and kafkajs-lz4 needs a native node-gyp build of lz4@0.6"
NO_ZSTD = "no ZSTD codec: kafkajs ships gzip only and @kafkajs/zstd does not build (native cppzst)"
LOG_APPEND = "under log-append time kafkajs reports maxTimestamp as every record's timestamp; the deltas are lost"
CONTROL = "kafkajs does not decode transaction markers: control records stay raw key/value buffers"
NULL_HEADER = "kafkajs's Record encoder throws on a null header value (sizeOfHeaders calls Buffer.byteLength(null))"

KAFKAJS_EXPECTED = {
    # decode of valid vectors
    "decode headers/many_headers": (
        "fail", "headers come back as an object keyed by header key: wire order b, a, b becomes b, b, a"),
    "decode attributes/log_append_time": ("skipped", LOG_APPEND),
    "decode codecs/gzip_control_bits": ("skipped", LOG_APPEND),
    "decode attributes/control_commit": ("skipped", CONTROL),
    "decode attributes/control_abort": ("skipped", CONTROL),
    "decode codecs/lz4": ("skipped", NO_LZ4),
    "decode codecs/zstd": ("skipped", NO_ZSTD),
    "decode third_party/aiokafka_c_lz4": ("skipped", NO_LZ4),
    "decode third_party/zstd_without_content_size": ("skipped", NO_ZSTD),
    "decode third_party/lz4_content_checksum_4mib_blocks": ("skipped", NO_LZ4),
    # decode of invalid vectors
    "decode invalid/bad_magic": (
        "fail", "RecordBatchDecoder reads the magic byte and ignores it (only the fetch path looks at it)"),
    "decode invalid/crc_mismatch": (
        "fail", "kafkajs never checks CRCs (\"The library is currently not performing CRC validations\")"),
    "decode invalid/crc_zero": ("skipped", CONTROL + " (and kafkajs never checks CRCs)"),
    "decode invalid/crc_over_attributes": (
        "skipped", "the changed codec bits say zstd, which kafkajs lacks; the unchecked CRC does not stop it first"),
    "decode invalid/unknown_codec_5": (
        "fail", "codec ids 5 to 7 have no entry in kafkajs's codec table, so the records are read as uncompressed"),
    "decode invalid/unknown_codec_7": (
        "fail", "codec ids 5 to 7 have no entry in kafkajs's codec table, so the records are read as uncompressed"),
    "decode invalid/corrupt_zstd": ("skipped", NO_ZSTD),
    "decode invalid/uncompressed_marked_lz4": ("skipped", NO_LZ4),
    "decode invalid/num_records_negative": ("fail", "Decoder.readArray reads a count of -1 as an empty array"),
    "decode invalid/num_records_too_few": (
        "fail", "bytes left in the batch after num_records records are ignored"),
    "decode invalid/record_length_too_long": (
        "fail", "a record is read from a slice of its stated length, clamped to the buffer; unread bytes are ignored"),
    "decode invalid/key_length_beyond_record": (
        "fail", "Buffer.slice clamps the key at the end of the record and varints read past the end come out 0"),
    "decode invalid/varint_too_long": ("fail", "Decoder.readVarInt has no length limit: a 6-byte varint is read"),
    "decode invalid/overlong_varint": ("fail", "Decoder.readVarInt reads an overlong encoding (80 00) as 0"),
    "decode invalid/lz4_records_left_over": ("skipped", NO_LZ4),
    "decode basic/negative_lengths_below_minus_one": (
        "decode_error", "only -1 means null to kafkajs's Decoder.readVarIntBytes: a length of -2 gives an empty "
        "key and moves the read position 2 bytes back, so the rest of the record is misread (here RangeError: "
        "Invalid array length), where Java reads null"),
    "encode basic/negative_lengths_below_minus_one": ("encode_error", NULL_HEADER),
    "decode invalid/header_key_not_utf8": (
        "fail", "header keys are decoded with Buffer.toString('utf8'), which turns bad bytes into U+FFFD"),
    "decode invalid/control_key_too_short": ("skipped", CONTROL),
    "decode invalid/decompression_bomb": ("skipped", NO_ZSTD),
    # encode
    "encode headers/many_headers": (
        "skipped", "kafkajs takes headers as an object keyed by header key, which cannot keep the order b, a, b"),
    "encode headers/headers_on_several_records": ("encode_error", NULL_HEADER),
    "encode headers/sixty_four_headers": ("encode_error", NULL_HEADER),
    "encode attributes/log_append_time": ("skipped", "RecordBatch always writes timestamp type create_time"),
    "encode codecs/gzip_control_bits": ("skipped", "RecordBatch always writes timestamp type create_time"),
    "encode attributes/control_commit": ("skipped", "RecordBatch cannot set the control bit"),
    "encode attributes/control_abort": ("skipped", "RecordBatch cannot set the control bit"),
    "encode attributes/delete_horizon": ("skipped", "RecordBatch cannot set the delete-horizon bit"),
    "encode attributes/reserved_bits": ("skipped", "RecordBatch cannot set the reserved attribute bits"),
    "encode codecs/lz4": ("skipped", NO_LZ4),
    "encode codecs/zstd": ("skipped", NO_ZSTD),
    "encode third_party/aiokafka_c_lz4": ("skipped", NO_LZ4),
    "encode third_party/zstd_without_content_size": ("skipped", NO_ZSTD),
    "encode third_party/lz4_content_checksum_4mib_blocks": ("skipped", NO_LZ4),
}

# kafkajs's RecordBatchDecoder reads these and returns none of them (magic only per record).
KAFKAJS_UNSUPPORTED_FIELDS = ["magic", "attributes.reserved", "attributes.has_delete_horizon", "attributes.compression"]

UNCOMPRESSED_ONLY = "the example reads uncompressed batches only"

EXAMPLE_EXPECTED = {
    "decode codecs/gzip": ("skipped", UNCOMPRESSED_ONLY),
    "decode codecs/snappy": ("skipped", UNCOMPRESSED_ONLY),
    "decode codecs/lz4": ("skipped", UNCOMPRESSED_ONLY),
    "decode codecs/zstd": ("skipped", UNCOMPRESSED_ONLY),
    "decode codecs/gzip_control_bits": ("skipped", UNCOMPRESSED_ONLY),
    "decode third_party/kafka_python_gzip": ("skipped", UNCOMPRESSED_ONLY),
    "decode third_party/aiokafka_c_lz4": ("skipped", UNCOMPRESSED_ONLY),
    "decode third_party/raw_snappy": ("skipped", UNCOMPRESSED_ONLY),
    "decode third_party/zstd_without_content_size": ("skipped", UNCOMPRESSED_ONLY),
    "decode third_party/lz4_content_checksum_4mib_blocks": ("skipped", UNCOMPRESSED_ONLY),
    "decode invalid/corrupt_gzip": ("skipped", UNCOMPRESSED_ONLY + " (the gzip stream is never opened)"),
    "decode invalid/corrupt_zstd": ("skipped", UNCOMPRESSED_ONLY + " (the zstd stream is never opened)"),
    "decode invalid/uncompressed_marked_lz4": ("skipped", UNCOMPRESSED_ONLY + ", and these codec bits say lz4"),
    "decode invalid/decompression_bomb": ("skipped", UNCOMPRESSED_ONLY + " (the zstd stream is never opened)"),
    "decode invalid/lz4_records_left_over": ("skipped", UNCOMPRESSED_ONLY + " (the lz4 frame is never opened)"),
}


@cache
def run(argv: tuple[str, ...]):
    """Every vector through a testee once: its handshake, exit status, answers and verdicts."""
    return run_vectors(argv, encodes_on_every_field=True)


def assert_outcomes(result, expected: dict) -> None:
    assert all(isinstance(reason, str) and reason for _, reason in expected.values())
    got = {case: v.outcome for case, v in result.verdicts.items() if v.outcome != "pass"}
    unexpected = {case: (outcome, result.verdicts[case].detail, result.verdicts[case].diff,
                         json.dumps(result.answers[case])[:300])
                  for case, outcome in got.items() if case not in expected}
    gone = sorted(case for case in expected if case not in got)
    changed = {case: (expected[case][0], got[case]) for case in got if case in expected and got[case] != expected[case][0]}
    assert not unexpected and not gone and not changed, (
        f"new failures: {unexpected}\nno longer failing: {gone}\noutcome changed (expected, got): {changed}")


# ---------------------------------------------------------------------------------------------------
# kafkajs

KAFKAJS_ARGV = ("node", "conformance/testees/kafkajs/testee.js")


@needs_node
@needs_kafkajs
def test_kafkajs_fails_exactly_the_known_quirks():
    result = run(KAFKAJS_ARGV)
    assert result.status == 0
    assert result.hello["implementation"] == {"name": "kafkajs", "version": "2.2.4"}
    assert result.hello["formats"] == {FORMAT: ["decode", "encode"], "kafka.message_set": ["decode"],
                                       "kafka.record_set": ["decode"],  # legacy: decode only (legacy.js)
                                       "kafka.response": ["decode"],  # its response readers (protocol.js)
                                       "kafka.request": ["encode"]}  # its request builders (requests.js)
    assert result.hello["unsupported_fields"][FORMAT] == KAFKAJS_UNSUPPORTED_FIELDS
    assert_outcomes(result, KAFKAJS_EXPECTED)


@needs_node
@needs_kafkajs
def test_kafkajs_error_kinds_are_its_own():
    """Only what kafkajs itself tells apart gets a kind: a partial batch, a broken gzip stream."""
    answers = run(KAFKAJS_ARGV).answers
    kinds = {case: a["error"]["kind"] for case, a in answers.items() if not a["ok"] and "error" in a}
    assert kinds["decode invalid/batch_length_beyond_buffer"] == "truncated"  # KafkaJSPartialMessageError
    assert kinds["decode invalid/corrupt_gzip"] == "corrupt_compressed"  # zlib Z_DATA_ERROR / Z_BUF_ERROR
    assert kinds["decode invalid/trailing_byte"] == "trailing_bytes"  # the adapter: one batch, bytes left over
    assert kinds["decode invalid/batch_length_negative"] is None  # a Node RangeError: kafkajs cannot tell


@needs_node
@needs_kafkajs
def test_kafkajs_header_object_moves_integer_like_keys_first():
    """Headers become a JS object, so integer-like keys come first and duplicates are grouped."""
    value = json.loads(json.dumps(TESTS["headers/one_header"]["value"]))
    value["records"][0]["headers"] = [{"key": k, "value": v} for k, v in [("b", "01"), ("1", "02"), ("a", "03"), ("b", "04")]]
    data = logcodec.encode(FORMAT, logcodec.strip_derived(logcodec.value_from_json(FORMAT, value)))
    with Session(KAFKAJS_ARGV) as session:
        [answer] = session.ask([{"type": "run", "op": "decode", "format": FORMAT, "bytes": data.hex()}])
        assert session.stop() == 0
    headers = [(h["key"], h["value"]) for h in answer["value"]["records"][0]["headers"]]
    assert headers == [("1", "02"), ("b", "01"), ("b", "04"), ("a", "03")]
    # The vector: wire order b, a, b, empty, null comes back grouped.
    answer = run(KAFKAJS_ARGV).answers["decode headers/many_headers"]
    assert [h["key"] for h in answer["value"]["records"][0]["headers"]] == ["b", "b", "a", "empty", "null"]


@needs_node
@needs_kafkajs
def test_kafkajs_compressed_framing():
    """kafkajs writes gzip with mtime 0, and (through kafkajs-snappy) raw snappy without xerial framing,
    while it reads both snappy framings (codecs/snappy is xerial, third_party/raw_snappy is raw)."""
    result = run(KAFKAJS_ARGV)
    gzip = bytes.fromhex(result.answers["encode codecs/gzip"]["bytes"])[61:]
    assert gzip[:10] == bytes.fromhex("1f8b0800000000000003")  # magic, deflate, no flags, mtime 0, unix
    snappy = bytes.fromhex(result.answers["encode codecs/snappy"]["bytes"])[61:]
    vector = bytes.fromhex(TESTS["codecs/snappy"]["bytes"])[61:]
    assert vector.startswith(b"\x82SNAPPY\x00") and not snappy.startswith(b"\x82SNAPPY\x00")
    assert result.verdicts["decode codecs/snappy"].outcome == "pass"
    assert result.verdicts["decode third_party/raw_snappy"].outcome == "pass"


# kafka.response: kafkajs's own response readers, their values named by position over Kafka's specs

RESPONSE = "kafka.response"
#: The vectors' flags of kafkajs's quirks in reading a response, and the outcome each gives. (Its
#: third, KafkajsLegacyFetch, is in the records of a Fetch response, which kafkajs does not report.)
RESPONSE_QUIRKS = {"KafkajsAuthBytes": "fail", "KafkajsNoErrorMessage": "decode_error"}
RESPONSE_TESTS = [t for g in vector_file(RESPONSE)["testGroups"] for t in g["tests"]]


def _with_specs(folder) -> tuple[str, ...]:
    return ("env", f"KAFKA_MESSAGE_SPECS={folder}", *KAFKAJS_ARGV)


@cache
def responses(argv: tuple[str, ...] = KAFKAJS_ARGV):
    return run_vectors(argv, formats=(RESPONSE,), null_left_out=True)


@needs_node
@needs_kafkajs
def test_kafkajs_reads_each_response_version_it_has_a_reader_of():
    """Every valid vector flagged `Kafkajs` (a version kafkajs has a reader of) passes, but those
    whose flags name one of its quirks; every invalid vector of such a version is refused; the
    rest are outside kafkajs (`unsupported`)."""
    result = responses()
    assert result.status == 0
    assert result.hello["formats"][RESPONSE] == ["decode"]
    read = {(t["params"]["api_key"], t["params"]["api_version"]) for t in RESPONSE_TESTS if "Kafkajs" in t["flags"]}
    for test in RESPONSE_TESTS:
        outcome = result.verdicts[f"decode {test['tcId']}"].outcome
        quirks = [RESPONSE_QUIRKS[f] for f in test["flags"] if f in RESPONSE_QUIRKS]
        if (test["params"]["api_key"], test["params"]["api_version"]) not in read:
            assert outcome == "skipped", test["tcId"]
        elif test["result"] == "valid":
            assert "Kafkajs" in test["flags"] and outcome == (quirks[0] if quirks else "pass"), (test["tcId"], outcome)
        else:
            assert outcome == "pass", (test["tcId"], outcome)  # refused, as an invalid vector must be
    passed = sum(v.outcome == "pass" for v in result.verdicts.values())
    assert passed >= 250, passed  # 212 of the 220 valid vectors (110 versions, 33 APIs), 56 invalid ones refused


@needs_node
@needs_kafkajs
def test_kafkajs_reports_what_it_drops_as_unsupported():
    unsupported = responses().hello["unsupported_fields"][RESPONSE]
    assert "body.responses[].partitions[].records" in unsupported  # Fetch: only its records' client view
    assert {"header.tagged_fields", "body.tagged_fields"} <= set(unsupported)  # (its flexible readers skip them)
    assert all(p.endswith((".records", ".tagged_fields")) for p in unsupported), unsupported


@needs_node
@needs_kafkajs
def test_kafkajs_values_are_named_by_the_specs_it_is_given(tmp_path):
    """The names come from Kafka's specs, the values from kafkajs: with two fields of a Metadata
    partition swapped in the specs, kafkajs's values land in each other's field and the filled
    Metadata vectors fail (their defaults, both zero, still pass); the other APIs are untouched."""
    specs = tmp_path / "specs"
    shutil.copytree(ROOT / "schemas" / "kafka" / "messages", specs)
    metadata = specs / "MetadataResponse.json"
    text = metadata.read_text()
    text = text.replace('"name": "PartitionIndex"', '"name": "Swapped"').replace(
        '{ "name": "ErrorCode", "type": "int16", "versions": "0+",\n          "about": "The partition error',
        '{ "name": "PartitionIndex", "type": "int16", "versions": "0+",\n          "about": "The partition error')
    metadata.write_text(text.replace('"name": "Swapped"', '"name": "ErrorCode"'))
    result = responses(_with_specs(specs))
    failed = {case for case, v in result.verdicts.items() if v.outcome not in ("pass", "skipped")}
    metadata_filled = {f"decode {t['tcId']}" for t in RESPONSE_TESTS if "Kafkajs" in t["flags"]
                       and t["params"]["api_key"] == 3 and t["tcId"].endswith("_filled")}
    assert len(metadata_filled) == 7  # Metadata v0 to v6
    assert failed == metadata_filled | {f"decode {t['tcId']}" for t in RESPONSE_TESTS
                                        if any(f in RESPONSE_QUIRKS for f in t["flags"])}
    diff = result.verdicts["decode kafka_python_filled/metadata_response_v1_filled"].diff
    assert any("partitions[0].partition_index" in line for line in diff), diff


@needs_node
@needs_kafkajs
def test_kafkajs_offers_no_response_without_specs(tmp_path):
    with Session(_with_specs(tmp_path / "nowhere")) as session:
        assert RESPONSE not in session.hello["formats"] and "kafka.request" not in session.hello["formats"]
        assert "kafka.record_batch_v2" in session.hello["formats"]  # (the batches need no specs)
        assert session.stop() == 0


# kafka.request: kafkajs's own request builders, given the value's fields as their arguments

REQUEST = "kafka.request"
#: The vectors' flags of kafkajs's quirks in writing a request, and the outcome each gives.
REQUEST_QUIRKS = {"KafkajsEmptyArrayAsNull": "fail", "KafkajsTimestampsSortedAsText": "fail"}
REQUEST_TESTS = [t for g in vector_file(REQUEST)["testGroups"] for t in g["tests"]]


def _api(test: dict) -> tuple[int, int]:
    return int(test["bytes"][:4], 16), int(test["bytes"][4:8], 16)  # the header's api key and version


@needs_node
@needs_kafkajs
def test_kafkajs_writes_each_request_version_it_has_a_builder_of():
    """Every valid request vector flagged `Kafkajs` (a version kafkajs has a builder of; of
    Produce, the vectors whose batches are what kafkajs makes of their records) is written byte for
    byte, but those whose flags name one of its quirks, which show; the rest are outside kafkajs
    (`unsupported`). kafkajs reads no request: decode is not offered."""
    result = run_vectors(KAFKAJS_ARGV, formats=(REQUEST,))
    assert result.status == 0
    assert result.hello["formats"][REQUEST] == ["encode"]
    written = {_api(t) for t in REQUEST_TESTS if "Kafkajs" in t["flags"]}
    assert {(0, 7), (1, 11), (3, 6), (11, 5), (45, 0)} <= written  # Produce, Fetch, Metadata, JoinGroup, and
    for test in REQUEST_TESTS:  # a flexible version (header v2)
        if test["result"] != "valid":
            continue
        outcome = result.verdicts[f"encode {test['tcId']}"].outcome
        quirks = [REQUEST_QUIRKS[f] for f in test["flags"] if f in REQUEST_QUIRKS]
        expected = "skipped" if "Kafkajs" not in test["flags"] else quirks[0] if quirks else "pass"
        assert outcome == expected, (test["tcId"], outcome, result.verdicts[f"encode {test['tcId']}"].detail)
    passed = sum(v.outcome == "pass" for v in result.verdicts.values())
    assert passed >= 205, passed  # 209 of the 222 valid vectors flagged `Kafkajs` (110 versions of 33 APIs)


@needs_node
@needs_kafkajs
def test_kafkajs_names_what_it_cannot_write():
    """An API version kafkajs has no builder of, a Produce request whose batches kafkajs would
    make otherwise (a transactional id over batches not marked transactional) and a tagged field
    (kafkajs's flexible builders write none) are `unsupported`, with the reason, never a wrong
    frame."""
    test = next(t for t in REQUEST_TESTS if t["tcId"] == "kafka_python_filled/metadata_request_v4_filled")
    value = judge.encode_input(REQUEST, test)
    newer = {**value, "header": {**value["header"], "request_api_version": 12}}
    produce = next(t for t in REQUEST_TESTS if t["tcId"] == "kafka_python_filled/produce_request_v3_filled")
    with Session(KAFKAJS_ARGV) as session:
        ask = lambda v: session.ask([{"type": "run", "seq": 0, "op": "encode", "format": REQUEST, "value": v}])[0]
        assert ask(value)["ok"]
        assert ask(newer)["unsupported"] == "kafkajs has no builder of API 3 version 12"
        assert "transactional" in ask(judge.encode_input(REQUEST, produce))["unsupported"]
        tagged = next(t for t in REQUEST_TESTS if "Kafkajs" in t["flags"] and _api(t) == (45, 0))
        extra_tag = judge.encode_input(REQUEST, tagged)
        extra_tag["body"]["tagged_fields"] = [{"tag": 9, "len_data": None, "data": "00"}]
        assert "tagged fields" in ask(extra_tag)["unsupported"]
        assert session.stop() == 0


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
    result = run(EXAMPLES_ARGV[language])
    assert result.status == 0
    assert result.hello["formats"] == {FORMAT: ["decode"]}
    assert_outcomes(result, EXAMPLE_EXPECTED)
    # Every invalid vector the examples can read is refused with the vector's own error kind.
    for test in TESTS.values():
        answer = result.answers[f"decode {test['tcId']}"]
        if test["result"] == "invalid" and "error" in answer:
            assert answer["error"]["kind"] == test["error"], (test["tcId"], answer)


def test_examples_skip_only_compressed_batches():
    for case in EXAMPLE_EXPECTED:
        data = bytes.fromhex(TESTS[case.split(" ", 1)[1]]["bytes"])
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


# ---------------------------------------------------------------------------------------------------
# The figures of the examples' README, from the commands it gives

EXAMPLES_README = EXAMPLES / "README.md"


def readme_commands() -> dict[str, list[str]]:
    """language -> the README's `logcodec conformance run` command for that example, as argv
    (run as `python -m logcodec`, its Python testee on this interpreter)."""
    text = EXAMPLES_README.read_text()
    block = re.search(r"```sh\n(.*?)```", text, re.S).group(1)
    commands = {}
    for line in block.splitlines():
        argv = shlex.split(line)
        assert argv[:3] == ["logcodec", "conformance", "run"], line
        testee = argv[argv.index("--testee") + 1]
        language = "python" if testee.startswith("python ") else "node"
        argv[argv.index("--testee") + 1] = re.sub(r"^python ", shlex.quote(sys.executable) + " ", testee)
        commands[language] = [sys.executable, "-m", "logcodec", *argv[1:]]
    return commands


def readme_figures() -> dict:
    """The figures the README states about a run of either example."""
    text = " ".join(EXAMPLES_README.read_text().split())

    def find(pattern: str) -> re.Match:
        match = re.search(pattern, text)
        assert match, f"{EXAMPLES_README.relative_to(ROOT)} no longer says /{pattern}/: update this test with it"
        return match

    listed = find(r"the (\d+) valid ones under `codecs/` and `third_party/`, and (.*?)\), and the")
    return {"summary": find(r"`(outcomes: pass \d+, skipped \d+)`").group(1),
            "pass": int(find(r"The (\d+) are every uncompressed vector").group(1)),
            "skipped": int(find(r"The (\d+) skipped are").group(1)),
            "compressed": int(find(r"skipped are the (\d+) compressed cases").group(1)),
            "valid compressed": int(listed.group(1)),
            "invalid compressed": sorted(re.findall(r"`(invalid/[a-z0-9_]+)`", listed.group(2))),
            "encode": int(find(r"and the (\d+) encode cases").group(1))}


@pytest.mark.parametrize("language", sorted(EXAMPLES_ARGV))
def test_example_readme_figures_are_what_its_commands_report(language, tmp_path):
    if language == "node" and NODE is None:
        pytest.skip("node is not on PATH")
    cases = tmp_path / "cases.jsonl"
    run = subprocess.run([*readme_commands()[language], "--json", str(cases), "--quiet"], cwd=ROOT,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    figures = readme_figures()
    assert figures["summary"] in run.stdout.splitlines(), run.stdout
    lines = [json.loads(line) for line in cases.read_text().splitlines()]
    rows = [row for row in lines if row["type"] == "case"]
    skipped = [row for row in rows if row["outcome"] == "skipped"]
    decode_skipped = [row for row in skipped if row["op"] == "decode"]
    assert {row["format"] for row in rows} == {FORMAT}
    assert sum(row["outcome"] == "pass" for row in rows) == figures["pass"]
    assert len(skipped) == figures["skipped"] == figures["compressed"] + figures["encode"]
    assert len(decode_skipped) == figures["compressed"]
    valid = [row["tcId"] for row in decode_skipped if row["result"] == "valid"]
    assert len(valid) == figures["valid compressed"]
    assert all(tc.startswith(("codecs/", "third_party/")) for tc in valid), valid
    assert sorted(row["tcId"] for row in decode_skipped if row["result"] != "valid") == figures["invalid compressed"]
    assert [row["op"] for row in skipped if row["op"] != "decode"] == ["encode"] * figures["encode"]
    assert sum(row["op"] == "encode" for row in rows) == figures["encode"]  # every encode case: none declared
