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


def test_partition_directories_decode_with_their_indexes():
    """`logcodec decode --format tank.partition DIR`: every partition of every scenario, across segments."""
    from logcodec.tank.containers import read_tank_partition, tank_partition_json

    partitions = 0
    for scenario in SCENARIOS:
        for name, directory, expected in partition_contents(scenario):
            got = tank_partition_json(directory)
            assert [(int(m["seq_num"]), int(m["timestamp"]), m["key"], m["content"]) for m in got] == [
                (m["seq"], m["ts_ms"], m["key_hex"], m["value_hex"]) for m in expected], name
            # canonical JSON, as tank.bundle's: the u64 sequence numbers and timestamps as strings
            assert all(isinstance(m["seq_num"], str) and isinstance(m["timestamp"], str) for m in got), name
            partitions += 1
    rolled = read_tank_partition(CAPTURES / "s13_segment_roll" / "segments" / "events" / "0")
    assert [s.base_seq_num for s in rolled.segments] == [1, 7, 13, 19] and all(s.index for s in rolled.segments)
    assert partitions >= 9


def test_an_index_that_disagrees_with_its_log_is_an_error(tmp_path):
    import shutil

    from logcodec.tank.containers import read_tank_partition

    source = CAPTURES / "s13_segment_roll" / "segments" / "events" / "0"
    shutil.copytree(source, tmp_path / "p")
    index = next((tmp_path / "p").glob("7.index"))
    data = bytearray(index.read_bytes())
    data[8:12] = (5).to_bytes(4, "little")  # the second entry now names a sequence number the bundle does not start at
    index.write_bytes(bytes(data))
    with pytest.raises(logcodec.DecodeError) as info:
        read_tank_partition(tmp_path / "p")
    assert info.value.kind == "invalid_value" and info.value.path == "7.index.entries[1]"
    data[8:12] = (4).to_bytes(4, "little")
    data[12:16] = (100).to_bytes(4, "little")  # an offset inside a bundle
    index.write_bytes(bytes(data))
    with pytest.raises(logcodec.DecodeError) as info:
        read_tank_partition(tmp_path / "p")
    assert "not the start of a bundle" in info.value.detail


def test_segment_files_reencode_exactly():
    seg = logcodec.codec("tank.segment_log")
    files = sorted(CAPTURES.glob("*/segments/*/*/*.log")) + sorted(CAPTURES.glob("*/segments/*/*/*.ilog"))
    for path in files:
        base = int(path.name.split("_")[0].split("-")[0].split(".")[0])
        value = seg.decode(path.read_bytes(), base_seq_num=base)
        assert seg.encode(logcodec.strip_derived(value), base_seq_num=base) == path.read_bytes(), path.name
    assert len(files) >= 12


def frames():
    for path in sorted(CAPTURES.glob("*/frames/*.frames.jsonl")):
        for line in path.read_text().splitlines():
            frame = json.loads(line)
            yield path, frame, ("tank.request" if frame["dir"] == "c2s" else "tank.response"), bytes.fromhex(frame["hex"])


def test_every_captured_frame_round_trips():
    """Every frame of every scenario, both directions, re-encodes byte for byte (also from its stripped value)."""
    count = 0
    for path, frame, fmt, data in frames():
        value = logcodec.decode(fmt, data)
        assert int(value.msg_id) == frame["msg_id"] and value.len_payload == frame["payload_len"]
        assert logcodec.encode(fmt, value) == data, (path.name, frame["seq"])
        assert logcodec.encode(fmt, logcodec.strip_derived(value)) == data, (path.name, frame["seq"])
        count += 1
    assert count > 150


def test_admin_responses_decode_to_what_the_real_client_reported():
    manifest = json.loads((CAPTURES / "s10_admin" / "manifest.json").read_text())
    results = {op["connection"]: op.get("client_results") for op in manifest["operations"]}
    responses = {}
    for path, frame, fmt, data in frames():
        if path.parent.parent.name == "s10_admin" and fmt == "tank.response" and frame["msg_id"] != 3:
            responses[path.name.split(".")[0]] = logcodec.decode(fmt, data).payload
    status = responses["conn1"]
    (reported,) = results["conn1"]
    assert (status.num_topics, status.num_partitions, status.version, status.startup_secs) == (
        reported["topics"], reported["partitions"], reported["version"], reported["startup_ts"])
    assert [(t.name, t.num_partitions, bool(t.is_enabled)) for t in responses["conn2"].topics] == [
        (r["name"], r["partitions"], r["enabled"]) for r in results["conn2"]]
    assert [(p.first_available_seq_num, p.high_watermark) for p in responses["conn7"].partitions] == [
        (r["first_avail"], r["hwmark"]) for r in results["conn7"]]
    assert responses["conn5"].error.name == "already_exists" and responses["conn4"].error.name == "ok"
    assert responses["conn12"].error.name == "unknown_partition" and responses["conn9"].error.name == "system_fault"


def connections():
    """(scenario, connection, its operation in the manifest, its decoded frames by direction)."""
    for scenario in SCENARIOS:
        manifest = json.loads((CAPTURES / scenario / "manifest.json").read_text())
        for op in manifest["operations"]:
            path = CAPTURES / scenario / "frames" / f"{op['connection']}.frames.jsonl"
            if not path.exists():
                continue
            decoded = {"c2s": [], "s2c": []}
            for line in path.read_text().splitlines():
                frame = json.loads(line)
                fmt = "tank.request" if frame["dir"] == "c2s" else "tank.response"
                decoded[frame["dir"]].append(logcodec.decode(fmt, bytes.fromhex(frame["hex"])))
            yield scenario, op["connection"], op, decoded


def messages_json(messages, key_none=None):
    return [{"seq": m.seq_num, "ts_ms": m.timestamp, "key_hex": key_none if m.key is None else m.key.hex(),
             "value_hex": m.content.hex()} for m in messages]


def test_produced_bundles_decode_to_what_the_client_was_given():
    """Each Produce request's bundle holds exactly the messages handed to the client API
    (sequence numbers relative: the broker assigns them), and is the client's encoding of them."""
    checked = 0
    for scenario, conn, op, frames in connections():
        given = op.get("produced_bundle")
        produces = [f.payload for f in frames["c2s"] if f.msg_id.name in ("produce", "produce_with_seqnum")]
        if not given or not produces:
            continue
        (request,) = produces
        (topic,) = request.topics
        (part,) = topic.partitions
        assert (topic.name, part.partition) == (given["topic"], given["partition"]), (scenario, conn)
        first = given["messages"][0]["seq"]
        expected = [{**m, "seq": m["seq"] - first} for m in given["messages"]]
        got = messages_json(part.bundle.messages)
        assert [{k: m[k] for k in ("seq", "ts_ms", "key_hex", "value_hex")} for m in expected] == got, (scenario, conn)
        assert bundle.encode(logcodec.strip_derived(part.bundle)) == bundle.encode(part.bundle)
        checked += 1
    assert checked >= 25


FAULTS = {"UnknownTopic": "unknown_topic", "UnknownPartition": "unknown_partition"}


def test_produce_responses_pair_with_their_requests_as_the_client_reported():
    checked = 0
    for scenario, conn, op, frames in connections():
        requests = [f for f in frames["c2s"] if f.msg_id.name in ("produce", "produce_with_seqnum")]
        responses = [f for f in frames["s2c"] if f.msg_id.name in ("produce", "produce_with_seqnum")]
        results = [r for r in op.get("client_results", []) if r.get("op") == "produce"]
        if not requests:
            continue
        assert len(requests) == len(responses) == len(results) == 1, (scenario, conn)
        (ack,) = logcodec.tank.pair_produce(requests[0], responses[0])
        reported = results[0]
        assert (ack.topic, ack.partition) == (reported["topic"], reported["partition"])
        expected = "ok" if reported.get("ack") else FAULTS[reported["fault"]]
        assert ack.error.name == expected, (scenario, conn)
        checked += 1
    assert checked >= 30


def test_consume_responses_hold_what_the_client_consumed():
    """Round by round, the messages of each Consume response from the requested sequence
    number on are exactly the messages the real client reported; the header's statuses
    match the faults it reported."""
    rounds = 0
    for scenario, conn, op, frames in connections():
        requests = [f.payload for f in frames["c2s"] if f.msg_id.name == "consume"]
        responses = [f.payload for f in frames["s2c"] if f.msg_id.name == "consume"]
        if not requests:
            continue
        assert len(requests) == len(responses), (scenario, conn)
        results = [r for r in op["client_results"] if r.get("op") == "consume"]
        for n, (request, response) in enumerate(zip(requests, responses)):
            assert response.header.request_id == request.request_id
            (asked,) = request.topics[0].partitions
            (topic_header,) = response.header.topics
            (header,) = topic_header.partitions
            fault = next((r["fault"] for r in results if "fault" in r), None)
            if fault == "UnknownTopic":
                assert header.partition == 0xFFFF
                continue
            if fault == "UnknownPartition":
                assert header.error_or_flags.name == "unknown_partition"
                continue
            (chunk,) = response.chunks[0].partitions
            assert chunk.partial_bundle == b""  # this broker sends whole bundles
            got = [m for b in chunk.bundles for m in messages_json(b.bundle.messages, key_none="")
                   if m["seq"] >= asked.seq_num]
            reported = [{k: r[k] for k in ("seq", "key_hex", "value_hex")} | {"ts_ms": r["ts"]}
                        for r in results if r.get("round", 0) == n and "seq" in r]
            assert got == reported, (scenario, conn, n)
            rounds += 1
    assert rounds >= 10


def test_every_captured_connection_decodes_as_a_stream_of_frames():
    """The raw byte streams of every connection, both directions, are frames end to end; one
    cut short is reported as a partial last frame, not raised."""
    streams = sorted(CAPTURES.glob("*/frames/*.bin"))
    for path in streams:
        fmt = "tank.request" if path.name.endswith(".c2s.bin") else "tank.response"
        data = path.read_bytes()
        whole = logcodec.decode_stream(fmt, data)
        assert whole.partial is None and whole.consumed == len(data), path
        if len(data) > 5:
            cut = logcodec.decode_stream(fmt, data[:-1])
            assert cut.partial is not None and cut.partial.kind == "truncated"
            assert len(cut.items) == len(whole.items) - 1
    assert len(streams) >= 100
