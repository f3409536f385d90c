"""A table of bad inputs for every subcommand, with the exit status each must end with: 2 for a
command given wrongly (a missing file, an unknown format or parameter), 1 for bad data or a failed
check (binary where text is expected, bad hex, bad JSON, bytes that do not decode). Each must be
one line on stderr, naming the subcommand, and no traceback.

Used by tests/cli (the checkout) and tests/packaging (an installed wheel, outside the repository).
"""

from __future__ import annotations

import shutil
from pathlib import Path

HERE = Path(__file__).resolve().parent
OPS = HERE / "schemas" / "ops.ksy"

USAGE, BAD_DATA = 2, 1

#: (arguments, stdin, exit status); the files named are made by `prepare`.
CASES: list[tuple[list[str], bytes | None, int]] = [
    # decode
    (["decode", "-f", "kafka.record_batch_v2", "missing.bin"], None, USAGE),
    (["decode", "-f", "kafka.record_batch_v2", "folder"], None, USAGE),
    (["decode", "-f", "kafka.record_batch_v2", "--hex", "binary.bin"], None, BAD_DATA),
    (["decode", "-f", "kafka.record_batch_v2", "--hex", "not_hex.txt"], None, BAD_DATA),
    (["decode", "-f", "kafka.record_batch_v2", "--hex", "-"], b"abc", BAD_DATA),
    (["decode", "-f", "kafka.record_batch_v2", "binary.bin"], None, BAD_DATA),
    (["decode", "-f", "kafka.recordbatch", "binary.bin"], None, USAGE),
    (["decode", "-f", "tank.bundle", "--param", "nope=1", "binary.bin"], None, USAGE),
    (["decode", "-f", "tank.bundle", "--param", "base_seq_num=x", "binary.bin"], None, USAGE),
    (["decode", "-f", "tank.bundle", "--param", "base_seq_num", "binary.bin"], None, USAGE),
    (["decode", "-f", "kafka.response", "binary.bin"], None, USAGE),  # the API it answers, not given
    (["decode", "-f", "kafka.response", "--param", "api_key=3", "--param", "api_version=true", "binary.bin"], None,
     USAGE),
    (["decode", "--schema", "ops.ksy", "--param", "foo=1", "binary.bin"], None, USAGE),
    (["decode", "--schema", "missing.ksy", "binary.bin"], None, USAGE),
    (["decode", "--schema", "binary.bin", "binary.bin"], None, BAD_DATA),
    (["decode", "--schema", "ops.ksy", "-f", "tank.bundle", "binary.bin"], None, USAGE),
    (["decode", "binary.bin"], None, USAGE),
    (["decode", "-f", "tank.partition", "binary.bin"], None, USAGE),
    (["decode", "-f", "inkless.block_with_metadata", "binary.bin"], None, USAGE),
    (["decode", "-f", "kafka.record_batch_v2", "--metadata", "binary.bin", "binary.bin"], None, USAGE),
    (["decode", "-f", "auto", "--param", "base_seq_num=1", "binary.bin"], None, USAGE),
    (["decode", "-f", "auto", "binary.bin"], None, BAD_DATA),
    (["decode"], None, USAGE),
    # encode
    (["encode", "-f", "kafka.record_batch_v2", "binary.bin"], None, BAD_DATA),
    (["encode", "-f", "kafka.record_batch_v2", "not_json.txt"], None, BAD_DATA),
    (["encode", "-f", "kafka.record_batch_v2", "-"], b"[", BAD_DATA),
    (["encode", "-f", "kafka.record_batch_v2", "empty.json"], None, BAD_DATA),
    (["encode", "-f", "kafka.record_batch_v2", "missing.json"], None, USAGE),
    (["encode", "-f", "kafka.nope", "empty.json"], None, USAGE),
    (["encode", "-f", "auto", "empty.json"], None, USAGE),
    (["encode", "-f", "tank.partition", "empty.json"], None, USAGE),
    (["encode", "-f", "tank.bundle", "--param", "nope=1", "empty.json"], None, USAGE),
    (["encode", "--schema", "missing.ksy", "empty.json"], None, USAGE),
    (["encode", "--schema", "ops.ksy", "empty.json"], None, BAD_DATA),
    (["encode", "empty.json"], None, USAGE),
    # compile
    (["compile", "missing.ksy", "-o", "out"], None, USAGE),
    (["compile", "binary.bin", "-o", "out"], None, BAD_DATA),
    (["compile", "ops.ksy"], None, USAGE),
    # accelerate, conformance
    (["accelerate", "-f", "kafka.nope"], None, USAGE),
    (["conformance", "run", "--impl", "nope"], None, USAGE),
    (["conformance", "run", "--impl", "logcodec", "--format", "kafka.nope"], None, USAGE),
    (["conformance", "run"], None, USAGE),
    (["conformance"], None, USAGE),
    # inkless
    (["inkless", "validate", "missing.bin", "missing.yaml"], None, USAGE),
    (["inkless", "validate", "binary.bin", "binary.bin"], None, BAD_DATA),
    (["inkless", "read", "binary.bin", "binary.bin", "--topic", "t", "--partition", "0"], None, BAD_DATA),
    (["inkless", "read", "binary.bin", "binary.bin", "--topic", "t", "--partition", "x"], None, USAGE),
    # pipeline (a usage error is found before Spark is needed)
    (["pipeline", "validate", "missing", "--out", "results"], None, USAGE),
    # docs, an unknown command
    (["docs", "--schema", "missing.ksy", "--port", "0"], None, USAGE),
    (["nope"], None, USAGE),
]


def prepare(work: Path) -> None:
    """The files the table names, in `work`."""
    (work / "binary.bin").write_bytes(bytes([0xB3, 0x00, 0xFF, 0x10]) * 8)
    (work / "not_hex.txt").write_text("00 11 zz\n")
    (work / "not_json.txt").write_text("records: [1, 2]\n")
    (work / "empty.json").write_text("{}\n")
    (work / "folder").mkdir(exist_ok=True)
    shutil.copy(OPS, work / "ops.ksy")


def check(args: list[str], status: int, proc_returncode: int, stdout: str, stderr: str) -> None:
    """One line on stderr naming the subcommand, nothing on stdout, the status of the table."""
    assert "Traceback" not in stderr, (args, stderr)
    assert (proc_returncode, stdout) == (status, ""), (args, proc_returncode, stdout, stderr)
    lines = stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("logcodec"), (args, stderr)
