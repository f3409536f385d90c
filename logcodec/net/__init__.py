"""Packet captures beyond their codecs: the TCP connections of a pcap or pcapng file, each side's
bytes in order, for the readers of what a connection carries (`kafka.capture`). The codecs
themselves are `logcodec.codec("net.pcap")`, `"net.pcapng"` and `"net.packet"`."""

from logcodec.net.tcp import Connection, Side, Streams, tcp_streams

__all__ = ["tcp_streams", "Streams", "Connection", "Side"]
