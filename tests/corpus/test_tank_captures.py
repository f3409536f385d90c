"""Real TANK data: the segment files of ../shared/corpus/tank-captures, written by the TANK 4.0 broker
from bundles encoded by its C++ client.

Every bundle decodes to exactly the messages of the scenario's manifest (sequence numbers,
timestamps, keys, values), re-encodes to the captured bytes, and is reproduced byte for byte
from its messages alone (the encoder picks the compact form: count in the flags, carried
timestamps, as the real client does).
"""

import json
from pathlib import Path

import pytest

import logcodec
from logcodec.runtime.primitives import uvarint

CAPTURES = Path(__file__).resolve().parents[3] / "shared" / "corpus" / "tank-captures"
SCENARIOS = sorted(p.name for p in CAPTURES.iterdir() if p.is_dir()) if CAPTURES.exists() else []
bundle = logcodec.codec("tank.bundle") if "tank.bundle" in logcodec.formats() else None

pytestmark = pytest.mark.skipif(not SCENARIOS, reason=f"captures not found at {CAPTURES}")


def segments(partition: Path) -> list[Path]:
    """The partition's segment files in sequence order (`<first>_<secs>.log`, `<first>-<last>_<secs>.ilog`)."""
    files = list(partition.glob("*.log")) + list(partition.glob("*.ilog"))
    return sorted(files, key=lambda p: int(p.name.split("_")[0].split("-")[0].split(".")[0]))


def bundles(path: Path):
    """(bytes of each bundle) of a segment file: varint length, then the bundle."""
    data = path.read_bytes()
    pos = 0
    while pos < len(data):
        n, pos = uvarint(data, pos, len(data), 5, "length")
        yield data[pos:pos + n]
        pos += n


def partition_contents(scenario: str):
    manifest = json.loads((CAPTURES / scenario / "manifest.json").read_text())
    for name, messages in manifest["expected_partition_content"].items():
        yield name, CAPTURES / scenario / "segments" / name, messages


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_segment_bundles_decode_to_the_manifest_and_reencode_exactly(scenario):
    checked = 0
    for name, directory, expected in partition_contents(scenario):
        got = []
        for segment in segments(directory):
            seq = int(segment.name.split("_")[0].split("-")[0].split(".")[0])
            for raw in bundles(segment):
                value = bundle.decode(raw, base_seq_num=seq)
                got += [{"seq": m.seq_num, "ts_ms": m.timestamp, "key_hex": None if m.key is None else m.key.hex(),
                         "value_hex": m.content.hex()} for m in value.messages]
                assert bundle.encode(value) == raw
                # From the messages alone, the encoder makes the real client's bytes.
                assert bundle.encode(logcodec.strip_derived(value)) == raw
                seq = value.messages[-1].seq_num + 1
                checked += 1
        want = [{k: m[k] for k in ("seq", "ts_ms", "key_hex", "value_hex")} for m in expected]
        assert got == want, name
    assert checked > 0


def test_every_capture_feature_is_seen():
    """The captures cover a count in the flags (1 and 15), varint counts (16, 300), keys and Snappy."""
    codecs, counts, keyed = set(), set(), False
    for scenario in SCENARIOS:
        for _, directory, _ in partition_contents(scenario):
            for segment in segments(directory):
                for raw in bundles(segment):
                    v = bundle.decode(raw)
                    codecs.add(v.codec.name)
                    counts.add((v.num_messages, v.num_messages_in_flags != 0))
                    keyed |= any(m.has_key for m in v.messages)
    assert codecs == {"none", "snappy"} and keyed
    assert {(1, True), (15, True), (16, False), (300, False)} <= counts


def test_mutated_bundles_decode_or_raise_decode_error():
    """Law 5 on TANK bundles, seeded with the captured ones."""
    import random

    from hypothesis import HealthCheck, given, settings, strategies as st

    seeds = [raw for scenario in SCENARIOS for _, directory, _ in partition_contents(scenario)
             for segment in segments(directory) for raw in bundles(segment)]

    @settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(st.sampled_from(seeds), st.randoms(use_true_random=False), st.integers(1, 6))
    def fuzz(raw, rnd: random.Random, edits):
        buf = bytearray(raw)
        for _ in range(edits):
            at = rnd.randrange(len(buf) + 1)
            if rnd.random() < 0.6 and buf:
                buf[min(at, len(buf) - 1)] = rnd.randrange(256)
            else:
                del buf[at:]
        try:
            bundle.decode(bytes(buf), base_seq_num=rnd.randrange(1 << 40))
        except logcodec.DecodeError as exc:
            assert exc.kind in logcodec.KINDS

    fuzz()
