"""What a new user hit, tried again from the installed wheel in a folder outside the repository:
the command line's answers to bad input, detection, decode-then-encode, the JSON it writes, and
the commands and hints users of kaitai-struct-compiler and protoc expect.

Slow (the packaging fixture builds a wheel): `-m "not packaging"` leaves it out.
"""

from __future__ import annotations

import json
import pickle
import re
import shutil
import subprocess
import urllib.request

import pytest

from tests.cli import bad_inputs
from tests.packaging.installed import REPO

pytestmark = pytest.mark.packaging

VECTORS = REPO / "generated" / "vectors"
GALLERY = REPO.parent / "shared" / "corpus" / "kaitai_struct_formats"
#: int1 7, text "héllo", mark, stop (tests/cli/schemas/ops.ksy)
OPS_BYTES = bytes([0x4B, 7, 0x55, 6]) + "héllo".encode() + bytes([0x28, 0x2E])
GARBAGE = bytes.fromhex("deadbeef000102")


def vector(fmt: str, tc_id: str | None = None) -> dict:
    family, name = fmt.split(".", 1)
    doc = json.loads((VECTORS / family / f"{name}.json").read_text())
    tests = [t for g in doc["testGroups"] for t in g["tests"]]
    return next(t for t in tests if t["tcId"] == tc_id) if tc_id else next(t for t in tests if t["result"] == "valid")


@pytest.fixture
def user(installed):
    """The installed package, in a work folder of its own holding the user's files."""
    bad_inputs.prepare(installed.work)
    (installed.work / "ops.bin").write_bytes(OPS_BYTES)
    (installed.work / "garbage.bin").write_bytes(GARBAGE)
    return installed


def one_line(proc: subprocess.CompletedProcess) -> str:
    assert "Traceback" not in proc.stderr, proc.stderr
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    return lines[0]


# ---------------------------------------------------------------- tracebacks where there should be one line

@pytest.mark.parametrize(("args", "stdin", "status"), bad_inputs.CASES, ids=[" ".join(c[0]) for c in bad_inputs.CASES])
def test_every_bad_input_is_one_line_and_its_status(user, args, stdin, status):
    proc = subprocess.run([str(user.bin / "logcodec"), *args], cwd=user.work, env=user.env, input=stdin,
                          capture_output=True, timeout=300)
    bad_inputs.check(args, status, proc.returncode, proc.stdout.decode(), proc.stderr.decode())


def test_a_value_with_an_empty_type_argument_decodes_to_json(user):
    proc = user.logcodec("decode", "--schema", "ops.ksy", "ops.bin", "--compact")
    assert json.loads(proc.stdout) == {"ops": [{"code": "int1", "arg": 7},
                                               {"code": "text", "arg": {"len_value": 6, "value": "héllo"}},
                                               {"code": "mark", "arg": {}}, {"code": "stop", "arg": {}}]}


def test_python_pickle_of_the_gallery_decodes_to_json(user):
    schema = GALLERY / "serialization" / "python_pickle.ksy"
    if not schema.is_file():
        pytest.skip("Kaitai's format gallery is not here (../shared/corpus)")
    shutil.copy(schema, user.work / "python_pickle.ksy")
    (user.work / "p.pkl").write_bytes(pickle.dumps({"a": [1, None, True]}, protocol=2))
    ops = json.loads(user.logcodec("decode", "--schema", "python_pickle.ksy", "p.pkl").stdout)["ops"]
    assert ops[0] == {"code": "proto", "arg": 2} and ops[-1] == {"code": "stop", "arg": {}}
    assert {"code": "none", "arg": {}} in ops and {"code": "newtrue", "arg": {}} in ops


def test_an_unknown_parameter_names_the_schemas_parameters(user):
    proc = user.logcodec("decode", "--schema", "ops.ksy", "--param", "foo=1", "ops.bin", check=False)
    assert proc.returncode == 2 and "has no param 'foo'; it takes none" in one_line(proc)
    proc = user.logcodec("decode", "-f", "tank.bundle", "--param", "foo=1", "ops.bin", check=False)
    assert proc.returncode == 2 and "its params: base_seq_num" in one_line(proc)


def test_hex_that_is_not_hex_text_or_not_hex_is_one_line(user):
    proc = user.logcodec("decode", "-f", "kafka.record_batch_v2", "--hex", "binary.bin", check=False)
    assert proc.returncode == 1 and "binary.bin is not hex text: byte 0xb3 at offset 0" in one_line(proc)
    proc = user.logcodec("decode", "-f", "kafka.record_batch_v2", "--hex", "not_hex.txt", check=False)
    assert proc.returncode == 1 and "not_hex.txt is not hex: 'z' at character 7" in one_line(proc)


def test_encode_of_input_that_is_not_json_is_one_line(user):
    proc = user.logcodec("encode", "-f", "kafka.record_batch_v2", "binary.bin", check=False)
    assert proc.returncode == 1 and "binary.bin is not JSON: byte 0xb3 at offset 0 is not UTF-8" in one_line(proc)


def test_a_switch_holding_another_cases_class_is_an_encode_error_naming_the_case(user):
    user.logcodec("compile", "ops.ksy", "-o", "out")
    script = """
import sys; sys.path.insert(0, "out")
import logcodec
from ops import ops as m
value = m.Ops(ops=[m.Op(code=m.Opcode.text, arg=m.NoArg()), m.Op(code=m.Opcode.stop, arg=m.NoArg())])
try:
    m.encode(value)
except logcodec.EncodeError as exc:
    print(exc.kind, exc.path, exc.detail, sep="|")
"""
    kind, path, detail = user.python(script).stdout.strip().split("|")
    assert (kind, path) == ("invalid_value", "ops.ops[0].arg")
    assert "holds a NoArg, but the switch on `code` selects the case of Text here" in detail


def test_a_parameter_goes_with_format_too(user):
    test = vector("tank.bundle", "basic/fifteen_messages")
    (user.work / "bundle.bin").write_bytes(bytes.fromhex(test["bytes"]))
    plain = json.loads(user.logcodec("decode", "-f", "tank.bundle", "bundle.bin").stdout)
    moved = json.loads(user.logcodec("decode", "-f", "tank.bundle", "--param", "base_seq_num=13", "bundle.bin").stdout)
    assert [int(m["seq_num"]) + 13 for m in plain["messages"]] == [int(m["seq_num"]) for m in moved["messages"]]


# ---------------------------------------------------------------- wrong answers

def test_garbage_is_no_record_set_and_auto_claims_no_format(user):
    proc = user.logcodec("decode", "-f", "kafka.record_set", "garbage.bin")
    assert json.loads(proc.stdout) == {"entries": [], "partial_entry": GARBAGE.hex()}  # as a fetch may end
    assert "no whole element in entries: all 7 bytes are in partial_entry" in one_line(proc)
    proc = user.logcodec("decode", "-f", "auto", "garbage.bin", check=False)
    assert proc.returncode == 1 and proc.stdout == ""
    assert "no format detected: it reads as kafka.record_set, but no rule of its schema checks" in one_line(proc)


def test_auto_claims_a_format_on_evidence(user):
    batch = bytes.fromhex(vector("kafka.record_batch_v2", "basic/one_record")["bytes"])
    (user.work / "batch.bin").write_bytes(batch)
    (user.work / "cut.bin").write_bytes(batch[:40])  # a fetch cut inside the first batch, its header whole
    proc = user.logcodec("decode", "-f", "auto", "batch.bin")
    assert one_line(proc).startswith("logcodec decode: detected kafka.record_batch_v2")
    assert json.loads(proc.stdout) == vector("kafka.record_batch_v2", "basic/one_record")["value"]
    proc = user.logcodec("decode", "-f", "auto", "cut.bin")
    assert one_line(proc).startswith("logcodec decode: detected kafka.record_set")
    assert json.loads(proc.stdout) == {"entries": [], "partial_entry": batch[:40].hex()}


def test_the_docs_server_claims_no_format_without_evidence(user):
    server = subprocess.Popen([str(user.bin / "logcodec"), "docs", "--port", "0", "--quiet"], cwd=user.work,
                              env=user.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        base = re.search(r"at (http://127\.0\.0\.1:\d+/)", server.stdout.readline()).group(1)

        def auto(data: bytes) -> dict:
            request = urllib.request.Request(base + "api/decode", method="POST",
                                             data=json.dumps({"format": "auto", "hex": data.hex()}).encode())
            with urllib.request.urlopen(request, timeout=60) as response:
                return json.load(response)

        answer = auto(GARBAGE)
        assert answer["detected"] is False and answer["candidates"] == ["kafka.record_set"]
        assert "no rule of its schema checks any of its bytes" in answer["undetected"]
        answer = auto(bytes.fromhex(vector("kafka.record_batch_v2")["bytes"]))
        assert answer["detected"] is True and answer["format"] == "kafka.record_batch_v2"
        assert "undetected" not in answer
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_decode_then_encode_of_another_producers_compressed_batch(user):
    shutil.copy(REPO / "examples" / "kafka-python-gzip-batch.bin", user.work / "theirs.bin")
    value = user.logcodec("decode", "-f", "kafka.record_set", "theirs.bin").stdout
    proc = subprocess.run([str(user.bin / "logcodec"), "encode", "-f", "kafka.record_set", "-", "-o", "ours.bin"],
                          cwd=user.work, env=user.env, input=value, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1
    assert re.search(r"checksum_mismatch in record_set\.entries\[0\]\.body\.crc: .* \(encode --derive recomputes "
                     r"every derived field\)$", one_line(proc))
    proc = subprocess.run([str(user.bin / "logcodec"), "encode", "--derive", "-f", "kafka.record_set", "-", "-o",
                           "ours.bin"], cwd=user.work, env=user.env, input=value, capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    theirs, ours = (json.loads(user.logcodec("decode", "-f", "kafka.record_set", f).stdout)["entries"][0]
                    for f in ("theirs.bin", "ours.bin"))
    assert ours["records"] == theirs["records"] and ours["attributes"] == theirs["attributes"]
    assert ours["crc"] != theirs["crc"]  # our gzip writes other bytes, under their own CRC


def test_json_out_has_64_bit_integers_as_strings_and_text_as_it_is(user):
    partition = user.work / "partition"
    partition.mkdir()
    (partition / "0_1700000000.log").write_bytes(bytes.fromhex(vector("tank.segment_log")["bytes"]))
    messages = json.loads(user.logcodec("decode", "-f", "tank.partition", "partition").stdout)
    assert messages and all(isinstance(m["seq_num"], str) and isinstance(m["timestamp"], str) for m in messages)
    raw = subprocess.run([str(user.bin / "logcodec"), "decode", "--schema", "ops.ksy", "ops.bin"], cwd=user.work,
                         env={**user.env, "LC_ALL": "C", "LANG": "C"}, capture_output=True, timeout=120).stdout
    assert "héllo".encode() in raw and b"\\u00e9" not in raw


# ---------------------------------------------------------------- as users of kaitai-struct-compiler and protoc expect

def test_encode_takes_a_schema(user):
    value = user.logcodec("decode", "--schema", "ops.ksy", "ops.bin").stdout
    (user.work / "ops.json").write_text(value)
    user.logcodec("encode", "--schema", "ops.ksy", "ops.json", "-o", "again.bin")
    assert (user.work / "again.bin").read_bytes() == OPS_BYTES


def test_a_folder_of_kafka_specs_compiles_from_the_installed_package(user):
    """After a Kafka release: the new spec folder in, `request` and `response` out, with Kafka's
    record set from the schemas the package ships (a Produce request's records decode)."""
    folder = user.work / "message"
    folder.mkdir()
    for name in ("RequestHeader", "ResponseHeader", "ProduceRequest", "ProduceResponse"):
        shutil.copy(REPO / "schemas" / "kafka" / "messages" / f"{name}.json", folder)
    user.logcodec("compile", "message", "-o", "out", "--package", "kafka_next")
    frame = vector("kafka.request", "kafka_python_filled/produce_request_v9_filled")["bytes"]
    code = ("import sys; sys.path.insert(0, 'out'); from kafka_next import request; "
            f"v = request.decode(bytes.fromhex({frame!r})); "
            "print(v.body.topic_data[0].partition_data[0].records.entries[0].records[0].value)")
    assert user.python(code).stdout.strip() == repr(b"v" * 10)


def test_formats_lists_what_decode_takes(user):
    listed = user.logcodec("formats").stdout.splitlines()
    names = [line.split()[0] for line in listed]
    assert names == sorted(names) and {"tank.partition", "inkless.block_with_metadata", "kafka.record_set"} <= set(names)
    checks = json.loads((VECTORS / "inkless" / "block_validation.checks.json").read_text())["tests"]
    for tc_id, status in (("clean", 0), ("crc_mismatch", 1)):
        test = next(t for t in checks if t["tcId"] == tc_id)
        (user.work / "object.bin").write_bytes(bytes.fromhex(test["inputs"]["object"]))
        (user.work / "metadata.bin").write_bytes(bytes.fromhex(test["inputs"]["metadata"]))
        proc = user.logcodec("decode", "-f", "inkless.block_with_metadata", "object.bin", "--metadata",
                             "metadata.bin", check=False)
        assert proc.returncode == status, proc.stderr
        assert json.loads(proc.stdout)["object"]["size"] == len(bytes.fromhex(test["inputs"]["object"]))
        assert len(proc.stderr.splitlines()) == len(test["findings"]), proc.stderr


def test_a_bad_format_name_gets_did_you_mean(user):
    proc = user.logcodec("decode", "-f", "kafka.recordset", "ops.bin", check=False)
    assert proc.returncode == 2 and "did you mean kafka.record_set" in one_line(proc)


def test_accelerate_without_mypyc_names_the_native_extra(user):
    if user.python("import importlib.util; print(importlib.util.find_spec('mypyc') is None)").stdout.strip() != "True":
        pytest.skip("mypyc is installed in this environment")
    proc = user.logcodec("accelerate", "--force", "-f", "tank.bundle", check=False)
    assert proc.returncode == 1 and "pip install 'logcodec[native]'" in one_line(proc)


def test_an_underived_length_says_how_a_schema_derives_it(user):
    value = {"ops": [{"code": "text", "arg": {"len_value": 0, "value": "héllo"}}, {"code": "stop", "arg": {}}]}
    (user.work / "ops.json").write_text(json.dumps(value))
    proc = user.logcodec("encode", "--schema", "ops.ksy", "ops.json", check=False)
    assert proc.returncode == 1
    assert "declared size is 0 (`len_value`): set `len_value` to 6, or declare `-lc-size-of: value` on " \
           "`len_value`" in one_line(proc)


def test_conformance_list_aligns_its_columns(user):
    rows = user.logcodec("conformance", "list").stdout.splitlines()
    names, details = rows[0::2], rows[1::2]
    starts = {len(r) - len(r.split(maxsplit=1)[1]) for r in names} | {len(r) - len(r.lstrip()) for r in details}
    assert len(names) >= 5 and len(starts) == 1, rows
