"""Captures of real Kafka traffic read as `kafka.conversation` reads them (issue 39): kafkajs,
aiokafka and sarama producing and consuming in a group, against librdkafka's mock broker, recorded by a relay
(`kafka_capture`). Neither program is ours, so what they wrote is the check: every frame of both
sides decodes (every record and CRC) and re-encodes byte for byte, each response pairs with its
request, and the messages the scenario gave the client are the records of its Produce requests
and of the broker's Fetch responses. The one finding is a quirk of the mock broker, named below.

The captures kept in `schemas/kafka/captures/` are read everywhere; new ones are recorded where
confluent-kafka and the client are installed."""

from __future__ import annotations

import json
import os
import re

import pytest

import logcodec
from logcodec.kafka import read_capture, read_conversation
from logcodec.runtime.native import PURE_ENV
from logcodec.runtime.values import value_fields

from . import kafka_capture
from .kafka_capture import CLIENTS, SCENARIO

RecordBatchV2 = logcodec.codec("kafka.record_batch_v2").RecordBatchV2

#: What the broker sends that Kafka's spec does not allow, by the API and version it answers:
#: (error kind, where in the response, why).
QUIRKS = {
    (13, 3): ("truncated", "body.num_members",
              ("librdkafka's mock broker answers LeaveGroup v3 with its throttle time and error code only: the "
               "members array that v3 added (LeaveGroupResponse.json) is not written. kafkajs's own decoder "
               "fails on the same response (\"The value of offset is out of range\").")),
}
#: The APIs a capture of the scenario holds: the producer's, the consumer group's and the fetches
#: (ApiVersions too, but from sarama 1.22, which asks none at the version it is set to).
APIS = {"Metadata": 3, "Produce": 0, "FindCoordinator": 10, "JoinGroup": 11, "SyncGroup": 14, "OffsetFetch": 9,
        "ListOffsets": 2, "Fetch": 1, "OffsetCommit": 8, "LeaveGroup": 13}


def _kept(name: str) -> list[tuple[bytes, bytes]]:
    return kafka_capture.recorded(kafka_capture.CAPTURES / name)


@pytest.mark.parametrize("client", sorted(CLIENTS))
def test_kept_capture_reads_whole(client):
    check_capture(_kept(client))


@pytest.mark.parametrize("client", sorted(CLIENTS))
def test_new_capture_reads_whole(client, tmp_path):
    if os.environ.get(PURE_ENV):  # (CI runs the codec tests again in a pure build: the clients need not run twice)
        pytest.skip("new captures are recorded in the compiled build's run; this one reads the kept captures")
    why = CLIENTS[client].missing() or kafka_capture.broker_missing()
    if why:
        pytest.skip(why)
    check_capture(kafka_capture.record(CLIENTS[client], tmp_path))


def check_capture(connections: list[tuple[bytes, bytes]]) -> None:
    apis, produced, fetched = set(), [], []
    for n, (client_side, broker_side) in enumerate(connections):
        conversation = read_conversation(client_side, broker_side)
        where = f"connection {n}"
        assert not conversation.cut and not conversation.strays, where
        answered = sorted((e for e in conversation.exchanges if e.response_at is not None),
                          key=lambda e: e.response_at)
        # in order, and all but those a client left waiting when it closed (a fetch's long poll, say)
        assert answered == [e for e in conversation.exchanges if e.expects_response][:len(answered)], where
        _only_quirks(conversation.findings, answered, where)
        assert _framed([_encoded("kafka.request", e.request) for e in conversation.exchanges]) == client_side, where
        for exchange, frame in zip(answered, _frames(broker_side), strict=True):
            if exchange.response is not None:
                params = {"api_key": exchange.api_key, "api_version": exchange.api_version}
                assert _encoded("kafka.response", exchange.response, **params) == frame, (where, params)
        for e in conversation.exchanges:
            apis.add(e.api_key)
            produced += _records(e.request) if e.api_key == APIS["Produce"] else []
            fetched += _records(e.response) if e.api_key == APIS["Fetch"] else []
    assert set(APIS.values()) <= apis, {name for name, key in APIS.items() if key not in apis}
    sent = [_message(m) for send in SCENARIO["sends"] for m in send["messages"]]
    assert set(produced) == set(sent)  # (a producer that retries a request sends its records again)
    assert set(sent) <= set(fetched)  # a fetch may read a record again


def _only_quirks(findings, answered, where: str) -> None:
    for finding in findings:
        index = re.match(r"responses\[(\d+)\]\.response\.", finding.path)
        assert index, (where, finding)
        exchange = answered[int(index[1])]
        quirk = QUIRKS.get((exchange.api_key, exchange.api_version))
        assert quirk and finding.kind == quirk[0] and finding.path.endswith(quirk[1]), (where, finding)


def _encoded(fmt: str, value, **params) -> bytes:
    return logcodec.encode(fmt, logcodec.strip_derived(value), **params)


def _framed(contents: list[bytes]) -> bytes:
    frames = logcodec.codec("kafka.frame")
    return b"".join(frames.encode(frames.Frame(frame=content)) for content in contents)


def _frames(side: bytes) -> list[bytes]:
    frames = logcodec.codec("kafka.frame")
    bounds, _ = frames.entry_bounds(side)
    return [frames.decode(side[start:end]).frame for start, end in bounds]


def _records(value) -> list[tuple]:
    """The (key, value, headers) of every record of every batch anywhere in a decoded value."""
    if isinstance(value, RecordBatchV2):
        return [(r.key, r.value, tuple((h.key, h.value) for h in r.headers)) for r in value.records]
    if isinstance(value, (list, tuple)):
        return [row for item in value for row in _records(item)]
    if hasattr(value, "__dataclass_fields__"):
        return [row for f in value_fields(value) for row in _records(getattr(value, f.name))]
    return []


def _message(m: dict) -> tuple:
    key = None if m["key"] is None else m["key"].encode()
    return key, m["value"].encode(), tuple((k, v.encode()) for k, v in m["headers"])


def test_a_capture_folder_reads_as_one(tmp_path):
    """`read_capture` (`logcodec decode --format kafka.capture DIR`): every connection of a folder
    in the layout `logcodec record` writes, each finding under its connection."""
    kafkajs = read_capture(kafka_capture.CAPTURES / "kafkajs")
    kept = _kept("kafkajs")
    assert [n for n, _ in kafkajs.connections] == list(range(len(kept)))
    assert [c.to_json() for _, c in kafkajs.connections] == [read_conversation(*sides).to_json() for sides in kept]
    assert [(f.kind, f.path) for f in kafkajs.findings] == [
        ("truncated", "connections[2].responses[12].response.body.num_members")]
    # a connection whose broker side was not kept: its requests, unanswered, and no finding
    (tmp_path / "frames").mkdir()
    (tmp_path / "frames" / "conn7.c2s.bin").write_bytes(kept[0][0])
    alone = read_capture(tmp_path)
    assert alone.findings == [] and [n for n, _ in alone.connections] == [7]
    assert all(e.response_at is None for e in alone.connections[0][1].exchanges)


def test_a_capture_whose_files_lie_in_the_folder_itself_reads_as_one(tmp_path):
    """The `connN` files copied out of their `frames/` read as they did there; other files beside
    them (a TANK capture's `connN.frames.jsonl`, a `manifest.json`) are not connections."""
    kept = _kept("sarama")
    for n, (client, broker) in enumerate(kept):
        (tmp_path / f"conn{n}.c2s.bin").write_bytes(client)
        (tmp_path / f"conn{n}.s2c.bin").write_bytes(broker)
    (tmp_path / "conn0.frames.jsonl").write_text("{}\n")
    (tmp_path / "manifest.json").write_text("{}")
    flat = read_capture(tmp_path)
    assert [c.to_json() for _, c in flat.connections] == [read_conversation(*sides).to_json() for sides in kept]
    assert flat.findings == []


def _same_conversations(folder, packets) -> None:
    """A packet capture's connections read as the relay's files of the same connections read."""
    assert [n for n, _ in packets.connections] == list(range(len(folder.connections)))
    assert [c.to_json() for _, c in packets.connections] == [c.to_json() for _, c in folder.connections]
    assert packets.unread == [] and all(e[0].startswith("127.0.0.1:") for e in packets.endpoints.values())


@pytest.mark.parametrize("name", ["capture.pcap", "capture.pcapng"])
def test_a_packet_capture_reads_as_the_relay_recorded_the_same_connections(name):
    """`kafka.capture` of a pcap (tcpdump) or pcapng file (dumpcap) of a client's connections: the
    same conversations as the relay's files of those connections, recorded at the same time by a
    program that shares no code with them (the relay keeps what its sockets read; the capture
    programs, the packets the kernel passed), once `logcodec.net.tcp_streams` has put each side's
    segments back in order."""
    folder = kafka_capture.CAPTURES / kafka_capture.PACKETS
    _same_conversations(read_capture(folder), read_capture(folder / name))


def test_bytes_a_packet_capture_lost_are_a_finding_where_they_are_missing(tmp_path):
    """A capture that lost a segment of the client's side (dpkt writes it without the segment that
    held bytes 40 to 49 of aiokafka's first connection, inside its second request): the request
    before the gap reads, the side ends there (cut), and the gap is a `truncated` finding at its
    offset."""
    dpkt = pytest.importorskip("dpkt")
    client, _ = _kept("aiokafka")[0]

    def segment(seq, data=b"", flags=dpkt.tcp.TH_ACK):
        tcp = dpkt.tcp.TCP(sport=50000, dport=9092, seq=seq, flags=flags, data=data)
        ip = dpkt.ip.IP(src=bytes([127, 0, 0, 1]), dst=bytes([127, 0, 0, 1]), p=dpkt.ip.IP_PROTO_TCP, data=tcp)
        return bytes(dpkt.ethernet.Ethernet(src=bytes(6), dst=bytes(6), type=dpkt.ethernet.ETH_TYPE_IP, data=ip))

    out = tmp_path / "lost.pcap"
    with out.open("wb") as f:
        writer = dpkt.pcap.Writer(f)
        for frame in (segment(0, flags=dpkt.tcp.TH_SYN), segment(1, client[:40]), segment(51, client[50:])):
            writer.writepkt(frame, ts=1_700_000_000)
    capture = read_capture(out)
    assert capture.endpoints == {0: ("127.0.0.1:50000", "127.0.0.1:9092")}
    (lost,) = capture.findings
    assert (lost.kind, lost.offset, lost.path) == ("truncated", 40, "connections[0].requests")
    assert "lost 10 bytes" in lost.detail
    ((_, conversation),) = capture.connections
    assert len(conversation.exchanges) == 1 and conversation.cut["requests"].kind == "truncated"


@pytest.mark.parametrize("client", sorted(CLIENTS))
def test_a_connection_captured_after_it_began_is_read_from_its_first_whole_frame(client):
    """Each kept connection with its sides cut inside their first frames, as a capture that began
    after the connection did holds them (`mid_connection`): the bytes before each side's first whole
    frame are skipped, no finding, and the exchanges after are those of the whole connection."""
    for client_side, broker_side in _kept(client):
        whole = read_conversation(client_side, broker_side)
        if len(whole.exchanges) < 2:
            continue
        second = whole.exchanges[1]
        answered = [e for e in whole.exchanges[1:] if e.response_at is not None]
        mid = read_conversation(client_side[3:], broker_side[5:], mid_connection=True)
        # (the broker's quirk, in a late response, is a finding either way)
        assert [(f.kind, f.detail) for f in mid.findings] == [(f.kind, f.detail) for f in whole.findings]
        assert mid.strays == []
        assert mid.skipped["requests"] == second.request_at - 3
        assert mid.skipped.get("responses", 0) == (answered[0].response_at - 5 if answered else len(broker_side) - 5)
        assert [(e.correlation_id, e.request, e.response) for e in mid.exchanges] == [
            (e.correlation_id, e.request, e.response) for e in whole.exchanges[1:]]
    # read from the start, the same bytes are findings
    assert read_conversation(client_side[3:], broker_side[5:]).findings


def test_a_packet_capture_without_its_handshake_is_read_as_begun_mid_connection(tmp_path):
    """A packet capture that holds no SYN of a connection (dpkt writes aiokafka's connection from
    inside its first request on): its client is the side of the higher port, and its sides are read
    from their first whole frames."""
    dpkt = pytest.importorskip("dpkt")
    client, broker = _kept("aiokafka")[1]

    def segment(src, dst, data):
        tcp = dpkt.tcp.TCP(sport=src, dport=dst, seq=1000, flags=dpkt.tcp.TH_ACK | dpkt.tcp.TH_PUSH, data=data)
        ip = dpkt.ip.IP(src=bytes([127, 0, 0, 1]), dst=bytes([127, 0, 0, 1]), p=dpkt.ip.IP_PROTO_TCP, data=tcp)
        return bytes(dpkt.ethernet.Ethernet(src=bytes(6), dst=bytes(6), type=dpkt.ethernet.ETH_TYPE_IP, data=ip))

    out = tmp_path / "late.pcap"
    with out.open("wb") as f:
        writer = dpkt.pcap.Writer(f)
        for frame in (segment(9092, 50000, broker[7:]), segment(50000, 9092, client[9:])):
            writer.writepkt(frame, ts=1_700_000_000)
    capture = read_capture(out)
    assert capture.findings == [] and capture.endpoints == {0: ("127.0.0.1:50000", "127.0.0.1:9092")}
    ((_, conversation),) = capture.connections
    whole = read_conversation(client, broker)
    assert [e.request for e in conversation.exchanges] == [e.request for e in whole.exchanges[1:]]
    assert conversation.skipped["requests"] > 0


def test_new_packet_captures_read_as_the_relay_recorded(tmp_path):
    if os.environ.get(PURE_ENV):
        pytest.skip("new captures are recorded in the compiled build's run; this one reads the kept captures")
    client = CLIENTS[kafka_capture.PACKETS.removesuffix("-packets")]
    why = client.missing() or kafka_capture.broker_missing() or kafka_capture.sniffers_missing()
    if why:
        pytest.skip(why)
    kafka_capture.record(client, tmp_path, packets=True)
    for name in kafka_capture.SNIFFERS:
        _same_conversations(read_capture(tmp_path), read_capture(tmp_path / name))


def test_the_command_reads_a_capture_folder(capsys, tmp_path):
    from logcodec.cli import main

    assert main(["decode", "--format", "kafka.capture", str(kafka_capture.CAPTURES / "sarama")]) == 0
    value = json.loads(capsys.readouterr().out)
    assert len(value["connections"]) == len(_kept("sarama"))
    assert main(["decode", "--format", "kafka.capture", str(kafka_capture.CAPTURES / "kafkajs")]) == 1
    assert "connections[2].responses[12].response.body.num_members" in capsys.readouterr().err
    assert main(["decode", "--format", "kafka.capture", str(tmp_path)]) == 1
    assert "no frames/connN.c2s.bin in it" in capsys.readouterr().err
    pcap = kafka_capture.CAPTURES / kafka_capture.PACKETS / "capture.pcap"
    assert main(["decode", "--format", "kafka.capture", str(pcap)]) == 0
    value = json.loads(capsys.readouterr().out)
    assert [c["client"].split(":")[0] for c in value["connections"]] == ["127.0.0.1"] * 7
    (tmp_path / "not.pcap").write_bytes(b"\x00\x00\x00\x04abcd")
    assert main(["decode", "--format", "kafka.capture", str(tmp_path / "not.pcap")]) == 1
    assert "neither a folder of captured connections nor a pcap or pcapng file" in capsys.readouterr().err
