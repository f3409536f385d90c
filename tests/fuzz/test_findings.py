"""Every finding class fails a fuzz run: `python -m fuzz`, in this process, on a codec broken on
purpose in its workers (tests/fuzz/stand_in.py: PLANTS), reports the class and exits 1."""

from __future__ import annotations

import json

import pytest

from fuzz import worker as W
from fuzz.__main__ import main
from tests.fuzz.stand_in import PLANTS

# The breakages that end the worker (a time-out, a MemoryError, a signal) need one input; the
# others are met within the first 16 mutants of seed 1 (counted when the test was written).
ONE_INPUT = (W.TIMEOUT, W.MEMORY, W.KILLED)
INPUTS = 24


def run_campaign(tmp_path, capsys, fmt: str, inputs: int, *extra: str) -> tuple[int, str, dict]:
    """(exit status, stdout, summary.json) of a campaign of `inputs` mutants of `fmt` on the pure
    build, one worker, no bombs."""
    status = main(["--format", fmt, "--inputs", str(inputs), "--build", "pure", "--workers", "1", "--no-bombs",
                   "--out", str(tmp_path), *extra])
    out = capsys.readouterr().out
    [summary] = tmp_path.glob("*/summary.json")
    return status, out, json.loads(summary.read_text())


def test_every_finding_class_has_a_plant():
    assert sorted(PLANTS) == sorted(W.FINDINGS)


@pytest.mark.parametrize("smoke", [False, True], ids=["campaign", "smoke"])
@pytest.mark.parametrize("cls", W.FINDINGS)
def test_a_finding_fails_the_run(monkeypatch, tmp_path, capsys, cls, smoke):
    monkeypatch.setenv("FUZZ_WORKER_TARGET", "tests.fuzz.stand_in:planted")
    monkeypatch.setenv("FUZZ_PLANT", cls)
    fmt, _ = PLANTS[cls]
    extra = (["--smoke"] if smoke else []) + (["--timeout", "2"] if cls == W.TIMEOUT else [])  # default 10 s
    status, out, summary = run_campaign(tmp_path, capsys, fmt, 1 if cls in ONE_INPUT else INPUTS, *extra)
    assert status == 1, out
    found = {c for c, _, _ in summary["runs"][0]["findings"]}
    assert cls in found, out
    assert summary["findings_by_class"][cls] >= 1
    assert f"\n  {cls}: " in out  # the findings list of the build
    last = out.rstrip().splitlines()[-1]
    assert last.startswith(f"{'smoke' if smoke else 'fuzz'}: FAILED: ") and f"{cls} " in last, last


def test_a_run_without_findings_exits_0(tmp_path, capsys):
    """The same campaign on the codec as it is: the plants, not the inputs, make the findings."""
    for fmt in sorted({fmt for fmt, _ in PLANTS.values()}):
        status, out, summary = run_campaign(tmp_path / fmt, capsys, fmt, INPUTS)
        assert status == 0, out
        assert summary["findings_by_class"] == {}
        assert "\nno findings" in out


def test_a_bomb_with_a_finding_fails_the_run(monkeypatch, tmp_path):
    """A bomb refused with any DecodeError kind is no finding; a finding class among the bombs is."""
    from argparse import Namespace

    from fuzz import __main__ as cli
    from fuzz import campaign as CA

    def outcome(cls_and_kind):
        return {"format": "kafka.record_batch_v2", "codec": "zstd", "name": "a bomb", "bytes": 10, "build": "pure",
                "outcome": cls_and_kind, "ms": 1.0, "peak_kb": 0}

    results = [outcome("decode_error limit_exceeded"), outcome("decode_error invalid_length"),
               outcome("offset_outside_input truncated"), outcome(f"{W.NON_ROUNDTRIP} value")]
    monkeypatch.setattr(CA, "run_bombs", lambda *a, **k: (results, []))
    args = Namespace(smoke=True, bomb_timeout=30.0, memory_mb=1024, workers=1)
    found = cli.bombs(args, ["pure"], tmp_path, {})
    assert dict(found) == {W.OFFSET_OUTSIDE: 1, W.NON_ROUNDTRIP: 1}


def test_a_nan_read_twice_is_no_finding():
    """A float64 NaN (an AlterClientQuotas request's quota, as kafka-python writes it) is not equal
    to itself: the lazy and the eager read, which each make one, still give the same value
    (canonical JSON names it), so the input is accepted, not an `iter_disagrees` finding."""
    import math

    pytest.importorskip("kafka.protocol")
    from tests.codecs import kafka_python_frames

    assert W.classify("kafka.request", kafka_python_frames.quota_request((math.nan,)))["cls"] == W.ACCEPTED
