"""The TCP connections of a packet capture, each side's bytes put back in order.

A capture file (`net.pcap`, or `net.pcapng` with its interfaces) holds packets as the link saw
them; each is read as a `net.packet` of its link type, down to its TCP segment. The segments of a
connection (its two addresses and ports) are put in order by their sequence numbers, each side's
from its SYN where the capture holds it: a segment sent again (a retransmission, or one that
overlaps another) adds only the bytes not seen yet. Where bytes are missing (the capture lost
packets, or cut them at its snaplen) that side stops at the gap, which is said (`Side.lost`): the
bytes after it cannot be placed in the stream's frames. The side that sent the first SYN is the
client; where the capture began after the handshake, the side whose port is the higher (an
ephemeral port, against a service's).

It knows no protocol above TCP: what a connection carries is its reader's (`kafka.capture` reads
each as a Kafka connection).
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass, field

from logcodec._api import codec
from logcodec.runtime.errors import DecodeError
from logcodec.runtime.limits import DEFAULT_LIMITS, Limits

SYN, ACK = 0x02, 0x10  # TCP flags
_SEQ = 1 << 32
RAW_IP, RAW_IPV4, RAW_IPV6 = 101, 228, 229  # link types: raw IP of either version, of one


@dataclass
class Side:
    """What one side of a connection sent, in order, as far as it goes without a gap."""

    address: str  # its IP address
    port: int
    data: bytearray = field(default_factory=bytearray)
    #: where the bytes stop for want of some (their number in the stream, and how many are missing
    #: before the next ones the capture holds); None where nothing is missing
    lost: tuple[int, int] | None = None
    _segments: list = field(default_factory=list, repr=False)  # (seq, bytes) as captured
    _isn: int | None = field(default=None, repr=False)  # its SYN's sequence number, where captured


@dataclass
class Connection:
    """One TCP connection of a capture: the client's side, the server's, and where its first
    packet is in the capture (its index among the capture's packets)."""

    client: Side
    server: Side
    first_packet: int
    handshake: bool  # whether the capture holds the client's SYN (else the client is guessed from the ports)


@dataclass
class Streams:
    """What `tcp_streams` read: the connections in the order their first packets came, and the
    packets that could not be read (their DecodeErrors, each path under `packets[i]`, its offset
    in that packet's bytes)."""

    connections: list[Connection] = field(default_factory=list)
    findings: list[DecodeError] = field(default_factory=list)
    packets: int = 0  # how many the capture holds


def tcp_streams(data: bytes, *, limits: Limits = DEFAULT_LIMITS) -> Streams:
    """The TCP connections of a pcap or pcapng capture, each side's bytes in order. Bytes that are
    neither, or a capture that cannot be read, raise its DecodeError; a packet that cannot be read
    is a finding, and the others are read on."""
    out = Streams()
    open_: dict[tuple, _Building] = {}
    building: list[_Building] = []
    packets = codec("net.packet")  # (looked up once: a capture may hold millions of packets)
    for n, (linktype, frame) in enumerate(_packets(data, limits)):
        out.packets = n + 1
        try:
            segment = _segment(_decoded(packets, frame, linktype, limits))
        except DecodeError as exc:
            out.findings.append(exc.within(f"packets[{n}]"))
            continue
        if segment is None:
            continue
        src, dst, tcp = segment
        key = frozenset((src, dst))
        b = open_.get(key)
        if b is None or (tcp.flags & (SYN | ACK) == SYN and b.has_data()):
            b = open_[key] = _Building(n)  # a new connection (or the 4-tuple used again)
            building.append(b)
        b.add(src, dst, tcp)
    out.connections = [b.connection() for b in building]
    return out


def _packets(data: bytes, limits: Limits):
    """(link type, bytes) of each packet of the capture, in order: a pcap file, else a pcapng file.
    Bytes that do not start as a pcapng file either raise the pcap format's error (its magic's, for
    bytes that are no capture); a pcapng file's error is its own."""
    try:
        capture = codec("net.pcap").decode(data, limits=limits)
    except DecodeError as not_pcap:
        try:
            capture = codec("net.pcapng").decode(data, limits=limits)
        except DecodeError as exc:
            raise not_pcap if exc.path == "pcapng.section_magic" else exc from None
        yield from _pcapng_packets(capture)
        return
    for packet in capture.packets:
        yield capture.linktype, packet.data


def _pcapng_packets(capture):
    blocks = codec("net.pcapng")
    interfaces: list[int] = []
    for body in [capture.section_header, *(block.body for block in capture.blocks)]:
        if isinstance(body, blocks.SectionHeader):
            interfaces = []  # (numbered again in each section)
        elif isinstance(body, blocks.InterfaceDescription):
            interfaces.append(body.linktype)
        elif isinstance(body, (blocks.EnhancedPacket, blocks.SimplePacket)):
            at = body.interface_id if isinstance(body, blocks.EnhancedPacket) else 0
            if at >= len(interfaces):
                raise DecodeError("invalid_value", f"interface {at} is not described in its section "
                                  f"({len(interfaces)} are)", None, "blocks")
            yield interfaces[at], body.data


def _decoded(packets, frame: bytes, linktype: int, limits: Limits):
    """The `net.packet` (`packets`, its module) of a frame; one of link type 101 (raw IP of either
    version) as IPv4 (228) where its version is 4, else as IPv6 (229)."""
    linktype &= 0xFFFF  # (a pcap file's upper bits may say whether frames keep their check sequence)
    if linktype != RAW_IP:
        return packets.decode(frame, linktype=linktype, limits=limits)
    try:
        return packets.decode(frame, linktype=RAW_IPV4, limits=limits)
    except DecodeError as exc:
        if not exc.path.endswith("ip.version"):
            raise
    return packets.decode(frame, linktype=RAW_IPV6, limits=limits)


def _segment(packet) -> tuple[tuple[str, int], tuple[str, int], object] | None:
    """((source address, port), (destination address, port), TCP segment) of a packet; None for
    one that carries no TCP segment."""
    payload = getattr(packet.link, "payload", None)
    ip = getattr(payload, "ip", None)
    if ip is None or not hasattr(ip.body, "seq_num"):
        return None
    tcp = ip.body
    src, dst = str(ipaddress.ip_address(ip.src_addr)), str(ipaddress.ip_address(ip.dst_addr))
    return (src, tcp.src_port), (dst, tcp.dst_port), tcp


class _Building:
    """The segments of one connection as they come."""

    def __init__(self, first_packet: int) -> None:
        self.first_packet = first_packet
        self.sides: dict[tuple[str, int], Side] = {}
        self.client: tuple[str, int] | None = None  # the sender of the first SYN without ACK

    def has_data(self) -> bool:
        return any(side._segments for side in self.sides.values())

    def add(self, src: tuple[str, int], dst: tuple[str, int], tcp) -> None:
        for end in (src, dst):
            if end not in self.sides:
                self.sides[end] = Side(*end)
        side = self.sides[src]
        if tcp.flags & SYN:
            side._isn = tcp.seq_num
            if not tcp.flags & ACK and self.client is None:
                self.client = src
        if tcp.data:
            side._segments.append((tcp.seq_num, tcp.data))

    def connection(self) -> Connection:
        ends = list(self.sides)
        handshake = self.client is not None
        client = self.client if handshake else max(ends, key=lambda end: end[1])
        server = next(end for end in ends if end != client) if len(ends) > 1 else client
        for side in self.sides.values():
            _reassemble(side)
        return Connection(self.sides[client], self.sides[server], self.first_packet, handshake)


def _reassemble(side: Side) -> None:
    """Put a side's segments in order from its first byte (after its SYN, else the first segment
    captured), each adding the bytes not seen yet; stop at the first gap."""
    if not side._segments:
        return
    base = (side._isn + 1) % _SEQ if side._isn is not None else side._segments[0][0]
    placed = []
    for seq, data in side._segments:
        at = (seq - base) % _SEQ
        if at >= _SEQ // 2:  # before the first byte: a segment of what came before the capture
            continue
        placed.append((at, data))
    placed.sort(key=lambda p: p[0])
    out = side.data
    for at, data in placed:
        end = at + len(data)
        if end <= len(out):
            continue  # sent again: every byte of it is there already
        if at > len(out):
            side.lost = (len(out), at - len(out))
            break
        out += data[len(out) - at:]
    side._segments = []
