"""The golden vectors of `net.pcap`, `net.pcapng` and `net.packet`, from captures of real traffic.

`python -m tests.net.net_vectors` (root, with tcpdump and dumpcap: `apt-get install tcpdump
tshark`) captures a short TCP exchange on the loopback interface, over IPv4 and IPv6, with tcpdump
(pcap: Ethernet, Linux cooked v1 and v2 on the `any` interface, nanosecond timestamps) and with
dumpcap (pcapng), and writes `schemas/net/{pcap,pcapng,packet}.vectors.yaml`: the capture files
whole, single packets of them, and the link types a Linux loopback capture does not give (raw IP,
BSD loopback, an 802.1Q tag, an IP fragment, UDP) written by dpkt, a library we did not write.
tests/net/test_dpkt_agreement.py has dpkt read every valid vector as logcodec does.
"""

from __future__ import annotations

import io
import socket
import sys
import tempfile
import threading
from dataclasses import replace
from pathlib import Path

from tests.net.capturing import capturing

ROOT = Path(__file__).resolve().parents[2]
PORT = 47093
#: capture file -> the program and its arguments before the file (the filter comes after it)
CAPTURES = {
    "lo.pcap": ["tcpdump", "-i", "lo", "-y", "EN10MB", "--immediate-mode", "-U", "-w"],
    "nano.pcap": ["tcpdump", "-i", "lo", "--time-stamp-precision=nano", "--immediate-mode", "-U", "-w"],
    "sll.pcap": ["tcpdump", "-i", "any", "-y", "LINUX_SLL", "--immediate-mode", "-U", "-w"],
    "sll2.pcap": ["tcpdump", "-i", "any", "-y", "LINUX_SLL2", "--immediate-mode", "-U", "-w"],
    "lo.pcapng": ["dumpcap", "-q", "-i", "lo", "-w"],
}


def _exchange(family: int, host: str) -> None:
    """A client sends two messages, the server answers each reversed, the client closes."""
    server = socket.socket(family)
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind((host, PORT))
    server.listen()

    def serve():
        conn, _ = server.accept()
        while data := conn.recv(4096):
            conn.sendall(data[::-1])
        conn.close()

    thread = threading.Thread(target=serve)
    thread.start()
    client = socket.create_connection((host, PORT))
    for message in (b"ping from logcodec", b"second message"):
        client.sendall(message)
        client.recv(4096)
    client.close()
    thread.join()
    server.close()


def record(folder: Path) -> dict[str, bytes]:
    """The capture files of one run of the exchange (IPv4, then IPv6), by name."""
    with capturing(folder, CAPTURES, PORT):
        _exchange(socket.AF_INET, "127.0.0.1")
        _exchange(socket.AF_INET6, "::1")
    return {name: (folder / name).read_bytes() for name in CAPTURES}


def _packets(name: str, data: bytes) -> list[tuple[int, bytes]]:
    """(link type, bytes) of each packet of a capture, as dpkt reads it."""
    import dpkt

    reader = (dpkt.pcapng.Reader if name.endswith(".pcapng") else dpkt.pcap.Reader)(io.BytesIO(data))
    return [(reader.datalink(), bytes(buf)) for _, buf in reader]


def _tcp(ip) -> object | None:
    import dpkt

    body = ip.data
    return body if isinstance(body, dpkt.tcp.TCP) else None


def _pick(captures: dict[str, bytes]) -> list[dict]:
    """Single packets of the captures: each link type's SYN with its options and a segment with
    data, IPv4 and IPv6."""
    import dpkt

    out = []
    for name, label in (("lo.pcap", "ethernet"), ("sll.pcap", "linux_sll"), ("sll2.pcap", "linux_sll2")):
        wanted = {"syn_ipv4": None, "data_ipv4": None, "data_ipv6": None}
        for n, (linktype, frame) in enumerate(_packets(name, captures[name])):
            link = {1: dpkt.ethernet.Ethernet, 113: dpkt.sll.SLL, 276: dpkt.sll2.SLL2}[linktype](frame)
            ip = link.data
            tcp = _tcp(ip)
            if tcp is None:
                continue
            v6 = isinstance(ip, dpkt.ip6.IP6)
            key = ("data_ipv6" if v6 else "data_ipv4") if tcp.data else ("syn_ipv4" if tcp.flags & 2 and not v6 else None)
            if key and wanted[key] is None:
                wanted[key] = (n, linktype, frame)
        for key, (n, linktype, frame) in wanted.items():
            out.append({"name": f"{label}_{key}", "linktype": linktype, "bytes": frame,
                        "comment": f"A {'SYN' if key.startswith('syn') else 'segment with data'} over "
                                   f"{'IPv6' if key.endswith('v6') else 'IPv4'}, captured by tcpdump "
                                   f"({CAPTURES[name][2]} interface, link type {linktype}).",
                        "flags": ["Tcpdump"],
                        "provenance": f"Packet {n} of {name} (pcap's capture group), as dpkt's pcap reader reads it."})
    return out


def _written_by_dpkt() -> list[dict]:
    """Packets of link types and layouts a Linux loopback capture does not give, written by dpkt."""
    import dpkt

    def ip4(body, p=dpkt.ip.IP_PROTO_TCP, fragment_at: int | None = None):
        packet = dpkt.ip.IP(src=bytes([10, 0, 0, 1]), dst=bytes([10, 0, 0, 2]), p=p, ttl=64, id=7, data=body)
        if fragment_at is not None:  # a middle fragment: more to come, at this byte of the datagram
            packet.mf, packet.offset = 1, fragment_at
        return packet

    tcp = dpkt.tcp.TCP(sport=51000, dport=9092, seq=1000, ack=2000, flags=dpkt.tcp.TH_ACK | dpkt.tcp.TH_PUSH,
                       win=512, data=b"\x00\x00\x00\x0ckafka frame!")
    udp = dpkt.udp.UDP(sport=5353, dport=5353, data=b"not tcp")
    mac = {"src": bytes.fromhex("020000000001"), "dst": bytes.fromhex("020000000002")}
    vlan = dpkt.ethernet.Ethernet(**mac, type=dpkt.ethernet.ETH_TYPE_IP, data=ip4(tcp),
                                  vlan_tags=[dpkt.ethernet.VLANtag8021Q(pri=3, cfi=0, id=42)])
    short = dpkt.ethernet.Ethernet(**mac, type=dpkt.ethernet.ETH_TYPE_IP,
                                   data=ip4(dpkt.tcp.TCP(sport=51000, dport=9092, seq=1, flags=dpkt.tcp.TH_ACK)))
    ip6 = dpkt.ip6.IP6(src=bytes(15) + b"\x01", dst=bytes(15) + b"\x02", nxt=dpkt.ip.IP_PROTO_TCP, hlim=64, data=tcp)
    ip6.plen = len(tcp)
    made = [
        ("raw_ipv4", 228, bytes(ip4(tcp)), "An IPv4 packet with no link-layer header (link type 228)."),
        ("raw_ipv6", 229, bytes(ip6), "An IPv6 packet with no link-layer header (link type 229)."),
        ("raw_ip_either_version", 101, bytes(ip4(tcp)), "Link type 101, raw IP of either version: kept as bytes "
         "(the packet's first 4 bits tell the version; a reader reads it as 228 or 229)."),
        ("null_loopback_ipv4", 0, bytes(dpkt.loopback.Loopback(family=2, data=ip4(tcp))),
         "BSD loopback (link type 0): the family 2 (IPv4) in the host's byte order, little-endian."),
        ("vlan_ipv4", 1, bytes(vlan), "An Ethernet frame with an 802.1Q tag (VLAN 42, priority 3)."),
        ("ethernet_padded", 1, bytes(short) + bytes(6),
         "A 54-byte Ethernet frame padded to 60 bytes, as a network card sends short frames: the padding is the trailer."),
        ("ipv4_udp", 228, bytes(ip4(udp, p=dpkt.ip.IP_PROTO_UDP)), "A UDP datagram: its IP body kept as bytes."),
        ("ipv4_fragment", 228, bytes(ip4(b"middle of a datagram", fragment_at=80)),
         "A fragment of a TCP datagram (more fragments, offset 80 bytes): its body kept as bytes, not read as TCP."),
    ]
    return [{"name": name, "linktype": linktype, "bytes": data, "comment": comment, "flags": ["Dpkt"],
             "provenance": f"Written by dpkt {dpkt.__version__} (`tests.net.net_vectors._written_by_dpkt`)."}
            for name, linktype, data, comment in made]


def definitions(captures: dict[str, bytes]) -> dict[str, dict]:
    """The three vectors files' definitions."""
    provenance = ("Captured on the loopback interface during `python -m tests.net.net_vectors`: a client "
                  "sending two messages, a server answering each reversed, over IPv4 and IPv6, by "
                  "{program} ({name}).")
    pcap = {
        "source": "Capture files written by tcpdump (libpcap) on Linux; invalid inputs are byte mutations of "
                  "them. dpkt's pcap reader reads every valid one as logcodec does (tests/net).",
        "notes": {
            "Tcpdump": {"description": "A capture file written by tcpdump (libpcap), of real traffic."},
            "BigEndian": {"description": "A magic of a big-endian file: refused, this format reads little-endian files."},
            "Truncated": {"description": "The input ends inside the file header (a capture stopped inside a packet "
                                         "keeps that packet's bytes as partial_packet)."},
        },
        "groups": [
            {"type": "capture", "comment": "Whole capture files, and the start of one.", "tests": [
                _start("net.pcap", captures["lo.pcap"], "lo.pcap", 4, "Tcpdump",
                       provenance.format(program="tcpdump", name="lo.pcap")),
                *(_whole(n, captures[n], c, "Tcpdump", provenance.format(program="tcpdump", name=n))
                for n, c in (("lo.pcap", "The loopback interface (Ethernet link type), microsecond timestamps."),
                             ("nano.pcap", "The loopback interface, nanosecond timestamps (magic a1b23c4d)."),
                             ("sll.pcap", "The `any` interface, Linux cooked headers (link type 113): each "
                                          "packet seen going out and coming in."),
                             ("sll2.pcap", "The `any` interface, Linux cooked headers v2 (link type 276).")))]},
            {"type": "invalid", "comment": "Files every reader must refuse.", "tests": [
                {"name": "big_endian_magic", "comment": "lo_pcap with the magic of a big-endian file.",
                 "flags": ["BigEndian"], "from": "lo_pcap", "patch": [{"offset": 0, "hex": "a1b2c3d4"}],
                 "error": "invalid_value"},
                {"name": "version_3", "comment": "lo_pcap with major version 3.", "from": "lo_pcap",
                 "patch": [{"offset": 4, "hex": "0300"}], "error": "invalid_value"},
            ]},
        ],
    }
    pcapng = {
        "source": "A capture file written by dumpcap (Wireshark) on Linux; invalid inputs are byte mutations of "
                  "it. dpkt's pcapng reader reads every valid one as logcodec does (tests/net).",
        "notes": {
            "Dumpcap": {"description": "A capture file written by dumpcap (Wireshark's capture engine), of real traffic."},
            "Trailer": {"description": "A block whose trailing length differs from its leading one: refused."},
            "BigEndian": {"description": "A section header block of a big-endian section: refused."},
            "Truncated": {"description": "The input ends inside the first block, the section header (a capture "
                                         "stopped inside a later block keeps that block's bytes as partial_block)."},
        },
        "groups": [
            {"type": "capture", "comment": "A whole capture file, and its start.", "tests": [
                _start("net.pcapng", captures["lo.pcapng"], "lo.pcapng", 4, "Dumpcap",
                       provenance.format(program="dumpcap", name="lo.pcapng")),
                _whole("lo.pcapng", captures["lo.pcapng"], "The loopback interface: a section header, an "
                       "interface description, then enhanced packet blocks, and the statistics dumpcap writes "
                       "last.", "Dumpcap", provenance.format(program="dumpcap", name="lo.pcapng"))]},
            {"type": "invalid", "comment": "Files every reader must refuse.", "tests": [
                {"name": "trailer_differs", "comment": "lo_pcapng with the first block's trailing length one more.",
                 "flags": ["Trailer"], "from": "lo_pcapng",
                 "patch": [{"offset": _first_block_end(captures["lo.pcapng"]) - 4,
                            "hex": (_first_block_end(captures["lo.pcapng"]) + 1).to_bytes(4, "little").hex()}],
                 "error": "invalid_value"},
                {"name": "big_endian_section", "comment": "lo_pcapng with its byte-order magic big-endian.",
                 "flags": ["BigEndian"], "from": "lo_pcapng", "patch": [{"offset": 8, "hex": "1a2b3c4d"}],
                 "error": "invalid_value"},
            ]},
        ],
    }
    pcap["truncations"] = _truncations(["lo_pcap", "sll2_pcap"])
    pcapng["truncations"] = _truncations(["lo_pcapng"])
    picked = _pick(captures) + _written_by_dpkt()
    packet = {
        "source": "Packets of captures written by tcpdump on Linux (Ethernet, Linux cooked v1 and v2, IPv4 and "
                  "IPv6), and packets written by dpkt for the link types and layouts a Linux loopback capture "
                  "does not give; invalid inputs are byte mutations of them. dpkt reads every valid one as "
                  "logcodec does (tests/net).",
        "notes": {
            "Tcpdump": {"description": "A packet of a capture tcpdump wrote, of real traffic."},
            "Dpkt": {"description": "A packet dpkt wrote (lengths and checksums computed by dpkt)."},
            "BadHeader": {"description": "A header length below its minimum, or a version the header's type does not have."},
        },
        "groups": [
            {"type": "packet", "comment": "Single packets, with their capture's link type.", "tests": [
                {"name": p["name"], "comment": p["comment"], "flags": p["flags"], "canonical": True,
                 "provenance": p["provenance"], "params": {"linktype": p["linktype"]}, "bytes": p["bytes"].hex()}
                for p in picked]},
            {"type": "invalid", "comment": "Packets every reader must refuse.", "tests": [
                {"name": "ipv4_version_5", "comment": "ethernet_data_ipv4 with IP version 5 where the ether type "
                 "says IPv4 (in a raw IP packet, the version says what follows: version 5 is bytes).",
                 "flags": ["BadHeader"], "from": "ethernet_data_ipv4", "patch": [{"offset": 14, "hex": "55"}],
                 "error": "invalid_value"},
                {"name": "ipv4_ihl_4", "comment": "raw_ipv4 with a header length of 4 words.", "flags": ["BadHeader"],
                 "from": "raw_ipv4", "patch": [{"offset": 0, "hex": "44"}], "error": "invalid_value"},
                {"name": "tcp_data_offset_4", "comment": "raw_ipv4 with a TCP header length of 4 words.",
                 "flags": ["BadHeader"], "from": "raw_ipv4", "patch": [{"offset": 32, "hex": "40"}],
                 "error": "invalid_value"},
                {"name": "ipv4_total_length_beyond", "comment": "raw_ipv4 with a total length 100 bytes past its end.",
                 "from": "raw_ipv4", "patch": [{"offset": 2, "hex": (len(_raw_ipv4(picked)) + 100).to_bytes(2, "big").hex()}],
                 "error": "truncated"},
            ]},
        ],
    }
    return {"pcap": pcap, "pcapng": pcapng, "packet": packet}


def _raw_ipv4(picked: list[dict]) -> bytes:
    return next(p["bytes"] for p in picked if p["name"] == "raw_ipv4")


def _truncations(names: list[str]) -> dict:
    return {"type": "truncated", "comment": "Each valid capture cut where a field starts.", "flags": ["Truncated"],
            "from": names}


def _whole(name: str, data: bytes, comment: str, flag: str, provenance: str) -> dict:
    return {"name": name.replace(".", "_"), "comment": comment, "flags": [flag], "canonical": True,
            "provenance": provenance, "bytes": data.hex()}


def _start(fmt: str, data: bytes, name: str, n: int, flag: str, provenance: str) -> dict:
    """The first `n` packets (or blocks after the section header) of a capture file: its first bytes,
    a file of its own (small enough for the format's page to show whole)."""
    import logcodec

    value = logcodec.decode(fmt, data)
    items = "packets" if fmt == "net.pcap" else "blocks"
    start = logcodec.encode(fmt, replace(value, **{items: getattr(value, items)[:n]}))
    assert data.startswith(start)
    return {"name": f"{name.replace('.', '_')}_start", "comment": f"The first {n} {items} of {name}: "
            "the handshake of its first connection.", "flags": [flag], "canonical": True,
            "provenance": f"{provenance} The file's first {len(start)} bytes.", "bytes": start.hex()}


def _first_block_end(data: bytes) -> int:
    return int.from_bytes(data[4:8], "little")


def _whole_exchange(data: bytes) -> bool:
    """Whether a capture holds both sides of both connections of the exchange, whole."""
    from logcodec.net import tcp_streams

    streams = tcp_streams(data)
    sent = b"ping from logcodecsecond message"
    return len(streams.connections) == 2 and all(
        bytes(c.client.data) == sent and len(c.server.data) == len(sent) for c in streams.connections)


def main() -> None:
    import yaml

    for _ in range(5):  # (a capture program may miss a packet: such a run is not kept)
        with tempfile.TemporaryDirectory() as tmp:
            captures = record(Path(tmp))
        if all(_whole_exchange(data) for data in captures.values()):
            break
    else:
        sys.exit("every run missed packets")
    for fmt, definition in definitions(captures).items():
        rel = f"schemas/net/{fmt}.vectors.yaml"
        header = (f"# Golden vector definitions for net.{fmt} (see generator/vectors.py), written by\n"
                  "# `python -m tests.net.net_vectors` from captures of real traffic: do not edit by hand.\n")
        (ROOT / rel).write_text(header + yaml.safe_dump(definition, sort_keys=False, width=100, allow_unicode=True))
        print(f"wrote {rel}")


if __name__ == "__main__":
    main()
