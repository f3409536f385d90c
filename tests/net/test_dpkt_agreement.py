"""dpkt (a packet library we did not write) reads every valid vector of `net.pcap`, `net.pcapng`
and `net.packet` as logcodec does: the same packets, link types and timestamps from a capture
file, and the same addresses, ports, sequence numbers, flags and bytes from a packet."""

import io
import ipaddress
from decimal import Decimal

import pytest
from logcodec.conformance.judge import vector_file

import logcodec

dpkt = pytest.importorskip("dpkt")  # the test extra's


def _valid(fmt: str):
    doc = vector_file(fmt)
    return [pytest.param(t, id=t["tcId"]) for g in doc["testGroups"] for t in g["tests"] if t["result"] == "valid"]


@pytest.mark.parametrize("test", _valid("net.pcap"))
def test_dpkt_reads_each_pcap_vector_as_logcodec_does(test):
    data = bytes.fromhex(test["bytes"])
    ours = logcodec.decode("net.pcap", data)
    theirs = dpkt.pcap.Reader(io.BytesIO(data))
    assert (theirs.datalink(), theirs.snaplen) == (ours.linktype, ours.snaplen)
    unit = 10**9 if ours.magic == 0xA1B23C4D else 10**6
    got = [(p.ts_sec * unit + p.ts_subsec, p.data) for p in ours.packets]
    assert [(_in_units(ts, unit), bytes(buf)) for ts, buf in theirs] == got
    assert ours.partial_packet == b""


def _in_units(ts, unit: int) -> int:
    """dpkt's timestamp (a float in seconds, a Decimal for nanoseconds) in `unit`s a second."""
    return round(Decimal(repr(ts) if isinstance(ts, float) else ts) * unit)


@pytest.mark.parametrize("test", _valid("net.pcapng"))
def test_dpkt_reads_each_pcapng_vector_as_logcodec_does(test):
    data = bytes.fromhex(test["bytes"])
    ours = logcodec.decode("net.pcapng", data)
    theirs = dpkt.pcapng.Reader(io.BytesIO(data))
    interfaces = [b.body for b in ours.blocks if b.block_type == 1]
    assert theirs.datalink() == interfaces[0].linktype
    packets = [b.body for b in ours.blocks if b.block_type == 6]
    unit = _resolution(interfaces[0])
    got = [((p.ts_high << 32) | p.ts_low, p.data) for p in packets]
    read = [(ts, bytes(buf)) for ts, buf in theirs]
    assert [buf for _, buf in read] == [buf for _, buf in got]
    # (dpkt's timestamps are floats: to the microsecond)
    assert all(abs(_in_units(ts, 10**6) - ticks * 10**6 // unit) <= 1 for (ts, _), (ticks, _) in zip(read, got))


def _resolution(interface) -> int:
    """Ticks a second of an interface's timestamps: its if_tsresol option (code 9), else microseconds."""
    for option in interface.options:
        if option.code == 9:
            v = option.value[0]
            return 2 ** (v & 0x7F) if v & 0x80 else 10**v
    return 10**6


#: dpkt's class of each link type of the vectors
LINKS = {1: "ethernet.Ethernet", 113: "sll.SLL", 276: "sll2.SLL2", 0: "loopback.Loopback", 228: "ip.IP",
         229: "ip6.IP6", 101: "ip.IP"}


def _dpkt_link(linktype: int, data: bytes):
    module, cls = LINKS[linktype].split(".")
    return getattr(getattr(dpkt, module), cls)(data)


@pytest.mark.parametrize("test", _valid("net.packet"))
def test_dpkt_reads_each_packet_vector_as_logcodec_does(test):
    data, linktype = bytes.fromhex(test["bytes"]), test["params"]["linktype"]
    ours = logcodec.decode("net.packet", data, linktype=linktype)
    theirs = _dpkt_link(linktype, data)
    if linktype == 101:  # raw IP of either version: bytes (the reader picks 228 or 229)
        assert ours.link == data and isinstance(theirs, dpkt.ip.IP)
        return
    ip = theirs if linktype in (228, 229) else theirs.data
    ours_ip = ours.link.payload.ip
    assert (ipaddress.ip_address(ours_ip.src_addr), ipaddress.ip_address(ours_ip.dst_addr)) == (
        ipaddress.ip_address(ip.src), ipaddress.ip_address(ip.dst))
    if isinstance(ip.data, dpkt.tcp.TCP) and not getattr(ip, "mf", 0) and not getattr(ip, "offset", 0):
        tcp, seg = ip.data, ours_ip.body
        assert (seg.src_port, seg.dst_port, seg.seq_num, seg.ack_num, seg.flags, seg.window) == (
            tcp.sport, tcp.dport, tcp.seq, tcp.ack, tcp.flags, tcp.win)
        assert (seg.options, seg.data) == (bytes(tcp.opts), bytes(tcp.data))
    else:  # UDP, a fragment: the IP body stays bytes
        assert ours_ip.body == bytes(ip.data)
    if linktype == 1:
        # what follows the IP packet in the frame (a short frame's padding), which dpkt's Ethernet
        # keeps in its IP packet's `data` past its length, or drops
        tagged = ours.link.outer_ether_type == 0x8100
        assert ours.link.payload.trailer == data[14 + 4 * tagged + len(ip):]
