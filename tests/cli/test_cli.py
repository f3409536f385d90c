"""The command line: canonical JSON out, bytes back in, one-line errors with exit status 1."""

import copy
import json
import subprocess
import sys

import pytest

from tests.cli import bad_inputs
from tests.vectorfiles import vector_file

FORMAT = "kafka.record_batch_v2"


def run(*args, input=None):
    return subprocess.run([sys.executable, "-m", "logcodec", *args], input=input, capture_output=True)


def vector(tc_id):
    """A copy of a vector, free to change."""
    return copy.deepcopy(next(t for g in vector_file(FORMAT)["testGroups"] for t in g["tests"] if t["tcId"] == tc_id))


def test_decode_prints_canonical_json(tmp_path):
    test = vector("headers/many_headers")
    path = tmp_path / "batch.bin"
    path.write_bytes(bytes.fromhex(test["bytes"]))
    out = run("decode", "--format", FORMAT, str(path))
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == test["value"]


def test_encode_writes_the_bytes(tmp_path):
    test = vector("basic/three_records")
    (tmp_path / "v.json").write_text(json.dumps(test["value"]))
    out = run("encode", "--format", FORMAT, str(tmp_path / "v.json"), "-o", str(tmp_path / "out.bin"))
    assert out.returncode == 0, out.stderr
    assert (tmp_path / "out.bin").read_bytes().hex() == test["bytes"]


def test_stream_decoding_reports_the_partial_batch():
    data = bytes.fromhex(vector("basic/one_record")["bytes"])
    out = run("decode", "--format", FORMAT, "--stream", "-", input=data + data[:30])
    doc = json.loads(out.stdout)
    assert out.returncode == 0 and len(doc["items"]) == 1 and doc["consumed"] == len(data)
    assert doc["partial"]["kind"] == "truncated" and doc["partial"]["offset"] == len(data) + 27
    assert doc["partial"]["path"] == "record_batch_v2[1].base_timestamp"


@pytest.mark.parametrize("tc_id", ["invalid/crc_mismatch", "invalid/bad_magic", "truncated/one_record/at-61"])
def test_bad_input_is_one_line_and_status_1(tc_id):
    test = vector(tc_id)
    out = run("decode", "--format", FORMAT, "--hex", "-", input=test["bytes"].encode())
    assert out.returncode == 1 and out.stdout == b""
    lines = out.stderr.decode().strip().splitlines()
    assert len(lines) == 1
    err = test["errorDetail"]
    assert f"{test['error']} at offset {err['offset']} in {err['path']}" in lines[0]


def test_bad_json_value_is_an_error_line(tmp_path):
    value = vector("basic/three_records")["value"]
    value["records"][0]["offset_delta"] = "x"
    (tmp_path / "v.json").write_text(json.dumps(value))
    out = run("encode", "--format", FORMAT, str(tmp_path / "v.json"))
    assert out.returncode == 1 and b"record_batch_v2.records[0].offset_delta" in out.stderr


@pytest.mark.parametrize("path,drop", [
    ("record_batch_v2.partition_leader_epoch", lambda v: v.pop("partition_leader_epoch")),
    ("record_batch_v2.records[1].value", lambda v: v["records"][1].pop("value")),
    ("record_batch_v2.attributes.compression", lambda v: v["attributes"].pop("compression")),
])
def test_a_missing_field_is_an_error_naming_its_path(tmp_path, path, drop):
    value = vector("basic/three_records")["value"]
    drop(value)
    out = run("encode", "--format", FORMAT, "-", input=json.dumps(value).encode())
    assert out.returncode == 1 and out.stdout == b""
    assert f"invalid_value in {path}: is missing".encode() in out.stderr


def test_derived_fields_and_schema_defaults_may_be_left_out():
    test = vector("basic/three_records")
    value = test["value"]
    for name in ("len_batch", "crc", "num_records", "last_offset_delta"):  # last_offset_delta: -lc-default
        value.pop(name)
    for record in value["records"]:
        record.pop("len_record"), record.pop("len_key"), record.pop("len_value"), record.pop("num_headers")
    out = run("encode", "--format", FORMAT, "--hex", "-", input=json.dumps(value).encode())
    assert out.returncode == 0, out.stderr
    assert out.stdout.decode().strip() == test["bytes"]


@pytest.mark.parametrize("command", [[], ["generate"], ["decode"], ["encode"], ["docs"], ["formats"], ["compile"]])
def test_help_on_every_command(command):
    out = run(*command, "--help")
    assert out.returncode == 0 and b"usage: logcodec" in out.stdout


def test_formats_lists_the_format():
    assert FORMAT in run("formats").stdout.decode().split()


def test_unknown_format_is_a_usage_error():
    out = run("decode", "--format", "kafka.nope", "-", input=b"")
    assert out.returncode == 2 and b"unknown format" in out.stderr


def test_version_is_the_package_version():
    from importlib.metadata import version

    out = run("--version")
    assert out.returncode == 0 and out.stdout.decode().strip() == f"logcodec {version('logcodec')}"


def test_a_directory_without_tank_segments_is_an_error(tmp_path):
    (tmp_path / "notes.txt").write_text("not a segment")
    out = run("decode", "--format", "tank.partition", str(tmp_path))
    assert out.returncode == 1 and out.stdout == b""
    assert b"no TANK segment files" in out.stderr


@pytest.mark.parametrize(("args", "stdin", "status"), bad_inputs.CASES, ids=[" ".join(c[0]) for c in bad_inputs.CASES])
def test_every_bad_input_is_one_line_and_its_status(tmp_path, args, stdin, status):
    bad_inputs.prepare(tmp_path)
    out = subprocess.run([sys.executable, "-m", "logcodec", *args], input=stdin, capture_output=True, cwd=tmp_path,
                         timeout=120)
    bad_inputs.check(args, status, out.returncode, out.stdout.decode(), out.stderr.decode())
