"""`logcodec inkless build | read | validate`: objects and metadata in files, records as JSON lines,
findings one per line with exit status 1, bad input as one error line."""

import json
import subprocess
import sys
import uuid

import pytest

from logcodec import inkless
from logcodec.cli import main
from logcodec.generated.kafka import record_batch_v2 as rb
from logcodec.inkless.blocks import load_metadata, metadata_form
from tests.thirdparty.kafka_libs import LIBRARIES

BLOCK_ID = "0c9d7f3e-5a1b-4c2d-8e4f-6a7b8c9d0e1f"
ORDERS_ID = "f0e1d2c3-b4a5-4697-8879-6a5b4c3d2e1f"


def logcodec_batch(keys) -> bytes:
    return rb.encode(rb.RecordBatchV2(base_timestamp=1_700_000_000_000, max_timestamp=1_700_000_000_000, records=[
        rb.Record(offset_delta=i, key=k, value=b"v-" + k) for i, k in enumerate(keys)]))


@pytest.fixture
def batches(tmp_path):
    """Three batch files: one from logcodec, one from kafka-python, two batches end to end."""
    _, build = LIBRARIES["kafka-python"]
    files = {
        "a.bin": logcodec_batch([b"a0", b"a1"]),
        "b.bin": build({"compression": "gzip", "records": [
            {"offset": 0, "timestamp": 1_700_000_000_005, "key": b"b0", "value": b"x" * 300}]}),
        "c.bin": logcodec_batch([b"c0"]) + logcodec_batch([b"c1", b"c2"]),
    }
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    return tmp_path


def run_main(capsys, *args):
    status = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return status, out, err


def build(capsys, where, metadata_name, *extra):
    return run_main(capsys, "inkless", "build", where / "object", where / metadata_name,
                    "--batch", f"orders:0:{where / 'a.bin'}", "--batch", f"orders:1:{where / 'b.bin'}",
                    "--batch", f"orders:0:{where / 'c.bin'}", "--block-id", BLOCK_ID, "--time", 1_700_000_000_250,
                    *extra)


@pytest.mark.parametrize("name,form,encoding_start", [
    ("meta.bin", "seed", b"IKBM"), ("meta.yaml", "seed", b"- block_header:"), ("meta.json", "seed", b"["),
    ("meta.json", "shipped", b"{"),
])
def test_build_writes_the_object_and_its_metadata(capsys, batches, name, form, encoding_start):
    status, out, err = build(capsys, batches, name, "--form", form)
    assert (status, err) == (0, "")
    assert "inkless/DJ1_PlobTC2OT2p7jJ0OHw" in out and f"{form} form" in out
    raw = (batches / name).read_bytes()
    assert raw.startswith(encoding_start)
    metadata = load_metadata(raw)
    assert metadata_form(metadata) == form
    data = (batches / "object").read_bytes()
    assert len(data) == sum(len((batches / f).read_bytes()) for f in ("a.bin", "b.bin", "c.bin"))


@pytest.mark.parametrize("name,form", [("meta.bin", "seed"), ("meta.yaml", "seed"), ("meta.json", "shipped")])
def test_validate_is_clean_and_read_prints_records(capsys, batches, name, form):
    build(capsys, batches, name, "--form", form, "--next-offset", "orders:0=40", "--topic-id", f"orders={ORDERS_ID}")
    status, out, _ = run_main(capsys, "inkless", "validate", batches / "object", batches / name)
    assert status == 0 and out.count("\n") == 1 and "match" in out
    status, out, _ = run_main(capsys, "inkless", "read", batches / "object", batches / name,
                              "--topic", "orders", "--partition", 0, "--topic-id", f"orders={ORDERS_ID}")
    records = [json.loads(line) for line in out.splitlines()]
    assert status == 0
    assert [bytes.fromhex(r["key"]) for r in records] == [b"a0", b"a1", b"c0", b"c1", b"c2"]
    assert all(set(r) == {"offset", "timestamp", "timestamp_type", "key", "value", "headers"} for r in records)
    if form == "shipped":  # absolute offsets from --next-offset; the seed form keeps each batch's own
        assert [r["offset"] for r in records] == ["40", "41", "42", "43", "44"]
    else:
        assert [r["offset"] for r in records] == ["0", "1", "0", "0", "1"]


def test_read_from_an_offset_and_by_topic_id(capsys, batches):
    build(capsys, batches, "meta.json", "--form", "shipped", "--next-offset", "orders:0=40")
    # No --topic-id at build: the id is the one derived from the name, which read derives too.
    status, out, _ = run_main(capsys, "inkless", "read", batches / "object", batches / "meta.json",
                              "--topic", "orders", "--partition", 0, "--offset", 43)
    assert status == 0 and [json.loads(line)["offset"] for line in out.splitlines()] == ["43", "44"]
    (row, *_) = json.loads((batches / "meta.json").read_text())["batches"]
    by_id = [inkless.uuid_to_base64url(uuid.UUID(row["topic_id"]).bytes), row["topic_id"]]
    for text in by_id:
        status, out_by_id, _ = run_main(capsys, "inkless", "read", batches / "object", batches / "meta.json",
                                        "--topic", text, "--partition", row["partition"], "--offset", 43)
        assert status == 0 and out_by_id == out


def test_read_batches_prints_canonical_json(capsys, batches):
    build(capsys, batches, "meta.bin")
    status, out, _ = run_main(capsys, "inkless", "read", batches / "object", batches / "meta.bin", "--topic", "orders",
                              "--partition", 1, "--batches")
    (batch,) = [json.loads(line) for line in out.splitlines()]
    assert status == 0 and batch["attributes"]["compression"] == "gzip" and batch["records"][0]["key"] == b"b0".hex()


def test_validate_prints_each_finding_and_exits_1(capsys, batches):
    build(capsys, batches, "meta.bin")
    data = bytearray((batches / "object").read_bytes())
    data[-1] ^= 1  # inside the last batch
    (batches / "object").write_bytes(bytes(data) + b"\x00\x00")  # and two dead bytes after it
    status, out, err = run_main(capsys, "inkless", "validate", batches / "object", batches / "meta.bin")
    lines = out.splitlines()
    assert status == 1 and err == "" and len(lines) == 2
    assert lines[0].startswith("checksum_mismatch at offset ") and ".record_batch_v2.crc" in lines[0]
    assert lines[1].startswith(f"trailing_bytes at offset {len(data)} in object")


def test_dead_bytes_may_be_allowed(capsys, batches):
    build(capsys, batches, "meta.json", "--form", "shipped")
    doc = json.loads((batches / "meta.json").read_text())
    doc["batches"].pop()  # a batch the control plane rejected: its bytes stay in the object
    (batches / "meta.json").write_text(json.dumps(doc))
    assert run_main(capsys, "inkless", "validate", batches / "object", batches / "meta.json")[0] == 1
    status, out, _ = run_main(capsys, "inkless", "validate", batches / "object", batches / "meta.json",
                              "--allow-dead-bytes")
    assert status == 0 and "match" in out


@pytest.mark.parametrize("metadata,form,expected", [
    (b"IKBM\x01\x00", None, "truncated"),  # binary metadata cut short
    (b"\xff\xfe", None, "invalid_value at offset 0 in metadata"),  # neither binary nor text
    (b'{"files": []}', None, "invalid_value in batches: missing 'batches'"),
    (b'{"files": [], "batches": []}', None, "invalid_value in files: must be a list of exactly one row"),
    (b"- block_header: 5", None, "invalid_value in block_metadata"),
    (b'{"files": []}', "seed", "invalid_value in metadata: the metadata is in the shipped form"),
    # YAML nested thousands deep (the reader recursed out of the interpreter's stack), and aliases:
    # 31 kB of them stood for a million batch entries
    (b"- " * 5000 + b"x", None, "not metadata: YAML nested more than 64 deep"),
    (b"- &b {batch: [{byte_offset: 0}]}\n" + b"- *b\n" * 10, None, "an alias (*name): metadata documents have none"),
])
def test_bad_metadata_is_one_error_line_and_status_1(capsys, batches, metadata, form, expected):
    build(capsys, batches, "meta.bin")
    (batches / "bad").write_bytes(metadata)
    status, out, err = run_main(capsys, "inkless", "validate", batches / "object", batches / "bad",
                                *(["--form", form] if form else []))
    assert (status, out) == (1, "") and len(err.splitlines()) == 1
    assert err.startswith("logcodec inkless validate: ") and expected in err


def test_a_bad_batch_file_names_the_file(capsys, batches):
    data = bytearray((batches / "a.bin").read_bytes())
    data[-1] ^= 1
    (batches / "a.bin").write_bytes(bytes(data))
    status, out, err = build(capsys, batches, "meta.bin")
    assert (status, out) == (1, "") and len(err.splitlines()) == 1
    assert "checksum_mismatch at offset 17 in " in err and "a.bin.record_batch_v2[0].crc" in err
    assert not (batches / "object").exists()


def test_batch_files_without_batches_are_an_error_line(capsys, tmp_path):
    (tmp_path / "empty.bin").write_bytes(b"")
    status, out, err = run_main(capsys, "inkless", "build", tmp_path / "o", tmp_path / "m",
                                "--batch", f"t:0:{tmp_path / 'empty.bin'}")
    assert (status, out) == (1, "") and err == "logcodec inkless build: the --batch files hold no batches\n"
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize("args", [
    ["--batch", "orders:x:a.bin"], ["--batch", "orders:0"], ["--batch", "orders:0:a.bin", "--topic-id", "orders=nope"],
    ["--batch", "orders:0:a.bin", "--next-offset", "orders=5"], ["--batch", "orders:0:a.bin", "--block-id", "5"],
    ["--batch", "orders:0:a.bin", "--topic-id", BLOCK_ID],  # no TOPIC=
])
def test_bad_arguments_are_usage_errors(capsys, args, tmp_path):
    with pytest.raises(SystemExit) as info:
        main(["inkless", "build", str(tmp_path / "o"), str(tmp_path / "m"), *args])
    err = capsys.readouterr().err
    assert info.value.code == 2 and err.count("\n") == 1 and "(see logcodec inkless build --help)" in err


@pytest.mark.parametrize("command", [[], ["build"], ["read"], ["validate"]])
def test_every_inkless_command_has_help(capsys, command):
    with pytest.raises(SystemExit) as info:
        main(["inkless", *command, "--help"])
    assert info.value.code == 0 and "usage: logcodec inkless" in capsys.readouterr().out


def test_the_installed_command_runs(batches):
    """Through a subprocess, as users run it."""
    def run(*args):
        return subprocess.run([sys.executable, "-m", "logcodec", "inkless", *map(str, args)], capture_output=True)

    built = run("build", batches / "object", batches / "meta.yaml", "--batch", f"t:0:{batches / 'c.bin'}")
    assert built.returncode == 0, built.stderr
    read = run("read", batches / "object", batches / "meta.yaml", "--topic", "t", "--partition", 0)
    assert read.returncode == 0 and [json.loads(x)["key"] for x in read.stdout.splitlines()] == [
        b"c0".hex(), b"c1".hex(), b"c2".hex()]
    (batches / "object").write_bytes((batches / "object").read_bytes()[:-5])
    checked = run("validate", batches / "object", batches / "meta.yaml")
    assert checked.returncode == 1 and checked.stdout.decode().startswith("invalid_length at offset ")


def test_metadata_given_as_an_option_reads_as_the_argument_does(capsys, batches):
    obj, meta = batches / "object", batches / "meta.json"
    assert main(["inkless", "build", str(obj), str(meta), "--form", "shipped",
                 "--batch", f"orders:0:{batches / 'a.bin'}"]) == 0
    capsys.readouterr()
    assert main(["inkless", "validate", str(obj), "--metadata", str(meta)]) == 0
    assert f"match {meta} (shipped form)" in capsys.readouterr().out
    assert main(["inkless", "validate", str(obj), str(meta), "--metadata", str(meta)]) == 2
    assert "name the metadata once" in capsys.readouterr().err
    assert main(["inkless", "validate", str(obj), "--metadata", str(meta), "--topic", "orders"]) == 2
    assert "need --metadata postgresql://" in capsys.readouterr().err
