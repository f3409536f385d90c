"""`logcodec.net.tcp_streams`: the TCP connections of a capture, each side's bytes in order.

On real captures (the vectors' tcpdump and dumpcap files) each side is what the programs sent; on
captures dpkt writes (a library we did not write), the flaws of real ones: segments out of order,
sent again or overlapping, lost, a capture begun after the handshake, sequence numbers that wrap,
a packet that cannot be read, traffic that is not TCP, a 4-tuple used again."""

import io

import pytest
from logcodec.conformance.judge import vector_file

from logcodec.net import tcp_streams
from logcodec.runtime.errors import DecodeError

dpkt = pytest.importorskip("dpkt")  # the test extra's

CLIENT, SERVER = ("10.0.0.1", 51000), ("10.0.0.2", 9092)
ISN_C, ISN_S = 1000, 5000


def _captures(start: bool):
    return [pytest.param(bytes.fromhex(t["bytes"]), id=t["tcId"]) for fmt in ("net.pcap", "net.pcapng")
            for g in vector_file(fmt)["testGroups"] for t in g["tests"]
            if t["result"] == "valid" and t["tcId"].endswith("_start") == start]


@pytest.mark.parametrize("data", _captures(start=True))
def test_the_start_of_a_capture_holds_a_handshake(data):
    (connection,) = tcp_streams(data).connections
    assert connection.handshake and not connection.server.data
    assert b"ping from logcodecsecond message".startswith(connection.client.data)  # (the first message, or none yet)


@pytest.mark.parametrize("data", _captures(start=False))
def test_each_side_of_the_real_captures_is_what_was_sent(data):
    """The vectors' captures (tcpdump: Ethernet, Linux cooked v1 and v2, microseconds and
    nanoseconds; dumpcap: pcapng) of `tests.net.net_vectors`'s exchange, over IPv4 and IPv6: the
    client sent two messages, the server each reversed."""
    streams = tcp_streams(data)
    assert streams.findings == []
    assert [c.client.address for c in streams.connections] == ["127.0.0.1", "::1"]
    for c in streams.connections:
        assert c.handshake and c.server.port == 47093 and c.client.lost is None and c.server.lost is None
        assert bytes(c.client.data) == b"ping from logcodecsecond message"
        assert bytes(c.server.data) == b"ping from logcodec"[::-1] + b"second message"[::-1]


def _segment(src, dst, seq, flags=dpkt.tcp.TH_ACK, data=b"", ack=0):
    tcp = dpkt.tcp.TCP(sport=src[1], dport=dst[1], seq=seq % (1 << 32), ack=ack, flags=flags, win=512, data=data)
    ip = dpkt.ip.IP(src=bytes(map(int, src[0].split("."))), dst=bytes(map(int, dst[0].split("."))),
                    p=dpkt.ip.IP_PROTO_TCP, ttl=64, data=tcp)
    return bytes(dpkt.ethernet.Ethernet(src=bytes(6), dst=bytes(6), type=dpkt.ethernet.ETH_TYPE_IP, data=ip))


def _pcap(frames) -> bytes:
    out = io.BytesIO()
    writer = dpkt.pcap.Writer(out, linktype=dpkt.pcap.DLT_EN10MB)
    for n, frame in enumerate(frames):
        writer.writepkt(frame, ts=1_700_000_000 + n / 1000)
    return out.getvalue()


def _handshake(isn_c=ISN_C, isn_s=ISN_S):
    return [_segment(CLIENT, SERVER, isn_c, dpkt.tcp.TH_SYN),
            _segment(SERVER, CLIENT, isn_s, dpkt.tcp.TH_SYN | dpkt.tcp.TH_ACK, ack=isn_c + 1),
            _segment(CLIENT, SERVER, isn_c + 1, ack=isn_s + 1)]


def _c(at, data, isn=ISN_C):
    return _segment(CLIENT, SERVER, isn + 1 + at, data=data)


def _s(at, data, isn=ISN_S):
    return _segment(SERVER, CLIENT, isn + 1 + at, data=data)


def _one(frames):
    streams = tcp_streams(_pcap(frames))
    assert streams.findings == []
    (connection,) = streams.connections
    return connection


def test_segments_out_of_order_sent_again_or_overlapping_add_each_byte_once():
    c = _one(_handshake() + [_c(5, b"56789"), _c(0, b"01234"), _c(0, b"01234"), _c(3, b"3456789abc"),
                             _s(0, b"answer"), _s(2, b"swer")])
    assert (bytes(c.client.data), bytes(c.server.data)) == (b"0123456789abc", b"answer")
    assert (c.client.address, c.client.port, c.server.port, c.handshake) == (*CLIENT, SERVER[1], True)


def test_a_gap_stops_its_side_and_says_where():
    c = _one(_handshake() + [_c(0, b"0123"), _c(10, b"after the gap"), _s(0, b"ok")])
    assert bytes(c.client.data) == b"0123" and c.client.lost == (4, 6)
    assert bytes(c.server.data) == b"ok" and c.server.lost is None


def test_a_capture_begun_after_the_handshake_takes_the_higher_port_for_the_client():
    c = _one([_s(0, b"late answer"), _c(0, b"request"), _c(7, b" more")])
    assert not c.handshake and c.client.port == CLIENT[1]
    assert (bytes(c.client.data), bytes(c.server.data)) == (b"request more", b"late answer")


def test_sequence_numbers_that_wrap_stay_in_order():
    isn = (1 << 32) - 3
    c = _one(_handshake(isn_c=isn) + [_c(0, b"abcd", isn=isn), _c(4, b"efgh", isn=isn)])
    assert bytes(c.client.data) == b"abcdefgh"


def test_a_packet_that_cannot_be_read_is_a_finding_and_the_others_are_read():
    frames = _handshake() + [_c(0, b"data")]
    broken = bytearray(frames[1])
    broken[14] = 0x44  # the SYN-ACK's IPv4 header length: 4 words
    streams = tcp_streams(_pcap([frames[0], bytes(broken), *frames[2:]]))
    (finding,) = streams.findings
    assert isinstance(finding, DecodeError) and finding.kind == "invalid_value"
    assert finding.path.startswith("packets[1]") and finding.path.endswith("ihl")
    assert bytes(streams.connections[0].client.data) == b"data"


def test_traffic_that_is_not_tcp_is_left_out():
    udp = dpkt.ip.IP(src=bytes(4), dst=bytes(4), p=dpkt.ip.IP_PROTO_UDP, data=dpkt.udp.UDP(sport=1, dport=2, data=b"x"))
    frame = bytes(dpkt.ethernet.Ethernet(src=bytes(6), dst=bytes(6), type=dpkt.ethernet.ETH_TYPE_IP, data=udp))
    streams = tcp_streams(_pcap([frame, *_handshake(), _c(0, b"tcp")]))
    assert streams.packets == 5 and [bytes(c.client.data) for c in streams.connections] == [b"tcp"]


def test_a_four_tuple_used_again_is_a_new_connection():
    first = _handshake() + [_c(0, b"first")]
    second = _handshake(isn_c=90_000, isn_s=70_000) + [_c(0, b"second", isn=90_000)]
    streams = tcp_streams(_pcap(first + second))
    assert [bytes(c.client.data) for c in streams.connections] == [b"first", b"second"]
    assert [c.first_packet for c in streams.connections] == [0, 4]


def test_raw_ip_of_either_version_is_read_as_its_version_says():
    """Link type 101 (raw IP, a tunnel's captures): `net.packet` keeps it as bytes; the reader
    reads each packet as IPv4 (228) or IPv6 (229), whichever it is."""
    tcp = dpkt.tcp.TCP(sport=51000, dport=9092, seq=1, flags=dpkt.tcp.TH_ACK, data=b"over ipv6")
    ip6 = dpkt.ip6.IP6(src=bytes(15) + b"\x01", dst=bytes(15) + b"\x02", nxt=dpkt.ip.IP_PROTO_TCP, hlim=64, data=tcp)
    ip6.plen = len(tcp)
    ip4 = dpkt.ip.IP(src=bytes([10, 0, 0, 1]), dst=bytes([10, 0, 0, 2]), p=dpkt.ip.IP_PROTO_TCP,
                     data=dpkt.tcp.TCP(sport=51001, dport=9092, seq=1, flags=dpkt.tcp.TH_ACK, data=b"over ipv4"))
    out = io.BytesIO()
    writer = dpkt.pcap.Writer(out, linktype=101)
    for packet in (ip6, ip4):
        writer.writepkt(bytes(packet), ts=1_700_000_000)
    streams = tcp_streams(out.getvalue())
    assert streams.findings == []
    assert [(c.client.address, bytes(c.client.data)) for c in streams.connections] == [
        ("::1", b"over ipv6"), ("10.0.0.1", b"over ipv4")]


def test_what_is_no_capture_is_its_error():
    """Bytes that are neither a pcap nor a pcapng file: the pcap format's error (its magic); a
    pcap file cut inside its header: truncated."""
    for data in (b"\x00\x00\x00\x10a Kafka frame, not a capture", bytes.fromhex("a1b2c3d4") + bytes(20)):
        with pytest.raises(DecodeError) as caught:
            tcp_streams(data)
        assert (caught.value.kind, caught.value.path) == ("invalid_value", "pcap.magic")
    with pytest.raises(DecodeError) as caught:
        tcp_streams(bytes.fromhex("d4c3b2a1") + bytes(3))
    assert caught.value.kind == "truncated"
