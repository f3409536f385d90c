"""The fuzzing campaign's engines and workers (python -m fuzz), run briefly."""

from __future__ import annotations

import random

import pytest

import logcodec
from fuzz import bombs as B
from fuzz import worker as W
from fuzz.campaign import Generator
from fuzz.checksums import fix_checksums, probe
from fuzz.compressed import Recompressor
from fuzz.engines import BYTE_ENGINES, Context
from fuzz.knowledge import facts
from fuzz.pool import Job, Pool
from fuzz.seeds import load_seeds

CHECKSUMMED = ["kafka.record_batch_v2", "kafka.message_set", "kafka.record_set"]


def test_inputs_are_the_same_for_the_same_seed_and_differ_for_another():
    formats = ["kafka.record_batch_v2", "tank.bundle"]
    first = [Generator(5, formats).make(f, i).data for f in formats for i in range(60)]
    again = [Generator(5, formats).make(f, i).data for f in formats for i in range(60)]
    other = [Generator(6, formats).make(f, i).data for f in formats for i in range(60)]
    assert first == again
    assert first != other


@pytest.mark.parametrize("name", sorted(BYTE_ENGINES))
def test_each_byte_engine_is_deterministic_and_changes_bytes(name):
    ctx = Context(facts("kafka.record_batch_v2"), list(load_seeds("kafka.record_batch_v2")))
    seed = next(s for s in ctx.seeds if s.valid and len(s.data) > 70)
    outs = [BYTE_ENGINES[name](random.Random(i), seed, ctx) for i in range(20)]
    assert outs == [BYTE_ENGINES[name](random.Random(i), seed, ctx) for i in range(20)]
    assert any(o is not None and o != seed.data for o in outs)


@pytest.mark.parametrize("fmt", CHECKSUMMED)
def test_crc_fix_up_makes_a_mutated_vector_pass_its_checksums(fmt):
    fixed_some = 0
    for seed in [s for s in load_seeds(fmt) if s.valid and len(s.data) > 40]:
        rng = random.Random(seed.id)
        buf = bytearray(seed.data)
        buf[rng.randrange(len(buf) - 8, len(buf))] ^= 0x10  # near the end: inside the last checksummed range
        err = probe(fmt, bytes(buf))
        if err is None or err.kind != "checksum_mismatch":
            continue
        data, fixes = fix_checksums(fmt, bytes(buf))
        after = probe(fmt, data)
        assert fixes, seed.id
        if after is not None and after.kind == "checksum_mismatch":
            # Left: a checksum inside a compressed payload (not bytes of the input; the
            # recompression engine reaches those). The one at the reported offset must be right.
            stored = int(after.detail.split()[1].rstrip(","), 16).to_bytes(4, "big")
            assert data[after.offset:after.offset + 4] != stored, (seed.id, after)
            continue
        assert all(f.range_end is None or f.range_start < f.range_end <= len(data) for f in fixes)
        fixed_some += 1
    assert fixed_some >= 3


def test_recompression_mutates_inside_compressed_payloads_behind_correct_crcs():
    fmt = "kafka.record_batch_v2"
    ctx = Context(facts(fmt), list(load_seeds(fmt)))
    engine = Recompressor(ctx)
    outs = [engine(random.Random(i), s, ctx) for i, s in enumerate(ctx.seeds)]
    outs = [o for o in outs if o is not None]
    assert len(outs) >= 5
    kinds = {(probe(fmt, o).kind if probe(fmt, o) else "ok") for o in outs}
    assert "checksum_mismatch" not in kinds


def test_the_bomb_builders_reproduce_the_issue_inputs():
    v2 = B.tiny_elements("kafka.record_batch_v2", "zstd", 9_500_000)
    assert len(v2.data) < 10_000
    tank = B.tiny_elements("tank.bundle", "snappy-raw", 33_554_332)
    assert 3_000_000 < len(tank.data) < 3_300_000
    for bomb in (v2, tank):  # the count is in place and the CRC right: only the limits stop them
        with pytest.raises(logcodec.DecodeError) as err:
            logcodec.decode(bomb.format, bomb.data, lazy=False)
        assert err.value.kind == "limit_exceeded"


def test_the_worker_classifies_a_law_breaking_input():
    seed = next(s for s in load_seeds("kafka.record_batch_v2") if s.valid)
    assert W.classify("kafka.record_batch_v2", seed.data)["cls"] == W.ACCEPTED
    assert W.classify("kafka.record_batch_v2", seed.data[:-3])["cls"] == W.ERROR


def test_a_worker_over_its_time_or_memory_limit_is_recorded_and_the_run_goes_on(monkeypatch):
    monkeypatch.setenv("FUZZ_WORKER_TARGET", "tests.fuzz.stand_in:misbehave")
    names = ["ok", "sleep", "ok", "allocate", "ok", "crash", "ok", "ok"]
    results = {}
    # 6 s: under load (a Spark test beside it), a worker that allocates may need more than 2 s
    pool = Pool("pure", workers=2, timeout=6.0, memory_mb=1024, batch=3)
    pool.run([Job(i, n, b"") for i, n in enumerate(names)], lambda job, r: results.__setitem__(job.id, r))
    assert sorted(results) == list(range(len(names)))
    assert results[1]["cls"] == W.TIMEOUT
    assert results[3]["cls"] == W.MEMORY
    assert results[5]["cls"] == W.KILLED and "SIGSEGV" in results[5]["kind"]
    assert all(results[i]["cls"] == W.ACCEPTED for i, n in enumerate(names) if n == "ok")
    assert pool.started >= 4  # replaced after the time-out, the MemoryError and the crash
