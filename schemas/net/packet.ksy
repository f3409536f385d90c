meta:
  id: packet
  title: Captured packet (link layer, IPv4 or IPv6, TCP)
  application: tcpdump, Wireshark, libpcap
  license: CC0-1.0
  ks-version: "0.11"
  -lc-fills-input: true
  endian: be
doc: |
  One packet of a capture (`net.pcap`, `net.pcapng`) as it was seen on the link, read down to
  its TCP segment: the link-layer header its capture's link type says (Ethernet, with one
  802.1Q tag or none; Linux cooked v1 or v2; loopback; raw IPv4 or IPv6), then an IPv4 or IPv6 packet,
  then, in an unfragmented IPv4 packet or an IPv6 packet whose next header is TCP, the TCP
  segment. Anything else (another link type, ether type or protocol, an IP fragment, IPv6
  extension headers) is kept as bytes. Link type 101 (raw IP of either version, which only the
  packet's first 4 bits tell apart) is bytes here: read such a packet as 228 (IPv4) or 229
  (IPv6), as `logcodec.net.tcp_streams` does. The bytes after the IP packet (the padding of a short
  Ethernet frame) are kept as `trailer`. Checksums are kept as captured, not checked: the host
  that captures a packet it sends sees it before the network card fills them in (checksum
  offload), so captures hold checksums that were never on the wire.
doc-ref: https://www.tcpdump.org/linktypes.html
params:
  - id: linktype
    type: u4
    doc: The capture's link type (pcap's file header, pcapng's interface description), without the upper bits a pcap file's may carry.
seq:
  - id: link
    type:
      switch-on: linktype
      cases:
        1: ethernet
        113: linux_sll
        276: linux_sll2
        0: loopback_host
        108: loopback_be
        228: raw_ipv4
        229: raw_ipv6
    size-eos: true
    doc: The link-layer header and what it carries; bytes for a link type read as such.
    doc-ref: https://www.tcpdump.org/linktypes.html
types:
  ethernet:
    doc: An Ethernet II frame (without its check sequence, as captures keep them).
    doc-ref: https://www.tcpdump.org/linktypes/LINKTYPE_ETHERNET.html
    seq:
      - id: dst_mac
        size: 6
        doc: The destination's hardware address.
        doc-ref: https://www.tcpdump.org/linktypes/LINKTYPE_ETHERNET.html
      - id: src_mac
        size: 6
        doc: The source's hardware address.
        doc-ref: https://www.tcpdump.org/linktypes/LINKTYPE_ETHERNET.html
      - id: outer_ether_type
        type: u2
        doc: What follows; 0x8100 for an 802.1Q tag, then the type of what follows it.
        doc-ref: https://www.iana.org/assignments/ieee-802-numbers/ieee-802-numbers.xhtml
      - id: vlan_tci
        type: u2
        if: outer_ether_type == 0x8100
        doc: The 802.1Q tag's priority, drop eligibility and VLAN id.
        doc-ref: https://en.wikipedia.org/wiki/IEEE_802.1Q
      - id: inner_ether_type
        type: u2
        if: outer_ether_type == 0x8100
        doc: What follows the 802.1Q tag.
        doc-ref: https://en.wikipedia.org/wiki/IEEE_802.1Q
      - id: payload
        type: 'ip_payload(outer_ether_type == 0x8100 ? inner_ether_type : outer_ether_type)'
        doc: The IP packet, and what follows it in the frame.
        doc-ref: https://www.iana.org/assignments/ieee-802-numbers/ieee-802-numbers.xhtml
  linux_sll:
    doc: Linux's cooked capture header (`tcpdump -i any` before libpcap 1.10).
    doc-ref: https://www.tcpdump.org/linktypes/LINKTYPE_LINUX_SLL.html
    seq:
      - id: packet_type
        type: u2
        doc: To this host (0), broadcast (1), multicast (2), to another host (3), sent by this host (4).
        doc-ref: https://www.tcpdump.org/linktypes/LINKTYPE_LINUX_SLL.html
      - id: arphrd_type
        type: u2
        doc: The interface's ARPHRD_ type (1 Ethernet, 772 loopback).
        doc-ref: https://www.tcpdump.org/linktypes/LINKTYPE_LINUX_SLL.html
      - id: len_address
        type: u2
        doc: Number of bytes of the link-layer address (at most 8).
        doc-ref: https://www.tcpdump.org/linktypes/LINKTYPE_LINUX_SLL.html
      - id: address
        size: 8
        doc: The sender's link-layer address, padded with zeros to 8 bytes.
        doc-ref: https://www.tcpdump.org/linktypes/LINKTYPE_LINUX_SLL.html
      - id: protocol
        type: u2
        doc: The ether type of what follows.
        doc-ref: https://www.tcpdump.org/linktypes/LINKTYPE_LINUX_SLL.html
      - id: payload
        type: ip_payload(protocol)
        doc: The IP packet, and what follows it.
        doc-ref: https://www.tcpdump.org/linktypes/LINKTYPE_LINUX_SLL.html
  linux_sll2:
    doc: Linux's cooked capture header, version 2 (`tcpdump -i any` since libpcap 1.10).
    doc-ref: https://www.tcpdump.org/linktypes/LINKTYPE_LINUX_SLL2.html
    seq:
      - id: protocol
        type: u2
        doc: The ether type of what follows.
        doc-ref: https://www.tcpdump.org/linktypes/LINKTYPE_LINUX_SLL2.html
      - id: reserved
        type: u2
        doc: Zero.
        doc-ref: https://www.tcpdump.org/linktypes/LINKTYPE_LINUX_SLL2.html
      - id: interface_index
        type: u4
        doc: The index of the interface the packet was captured on.
        doc-ref: https://www.tcpdump.org/linktypes/LINKTYPE_LINUX_SLL2.html
      - id: arphrd_type
        type: u2
        doc: The interface's ARPHRD_ type (1 Ethernet, 772 loopback).
        doc-ref: https://www.tcpdump.org/linktypes/LINKTYPE_LINUX_SLL2.html
      - id: packet_type
        type: u1
        doc: To this host (0), broadcast (1), multicast (2), to another host (3), sent by this host (4).
        doc-ref: https://www.tcpdump.org/linktypes/LINKTYPE_LINUX_SLL2.html
      - id: len_address
        type: u1
        doc: Number of bytes of the link-layer address (at most 8).
        doc-ref: https://www.tcpdump.org/linktypes/LINKTYPE_LINUX_SLL2.html
      - id: address
        size: 8
        doc: The sender's link-layer address, padded with zeros to 8 bytes.
        doc-ref: https://www.tcpdump.org/linktypes/LINKTYPE_LINUX_SLL2.html
      - id: payload
        type: ip_payload(protocol)
        doc: The IP packet, and what follows it.
        doc-ref: https://www.tcpdump.org/linktypes/LINKTYPE_LINUX_SLL2.html
  loopback_host:
    doc: |
      BSD loopback encapsulation: the protocol family in the capturing host's byte order
      (little-endian here, as on every x86 and ARM host): 2 IPv4; 24, 28 or 30 IPv6.
    doc-ref: https://www.tcpdump.org/linktypes/LINKTYPE_NULL.html
    seq:
      - id: family
        type: u4le
        doc: The protocol family of what follows.
        doc-ref: https://www.tcpdump.org/linktypes/LINKTYPE_NULL.html
      - id: payload
        type: 'ip_payload(family == 2 ? 0x0800 : family == 24 or family == 28 or family == 30 ? 0x86dd : 0)'
        doc: The IP packet, and what follows it.
        doc-ref: https://www.tcpdump.org/linktypes/LINKTYPE_NULL.html
  loopback_be:
    doc: OpenBSD's loopback encapsulation, the protocol family big-endian (2 IPv4; 24, 28 or 30 IPv6).
    doc-ref: https://www.tcpdump.org/linktypes/LINKTYPE_LOOP.html
    seq:
      - id: family
        type: u4
        doc: The protocol family of what follows.
        doc-ref: https://www.tcpdump.org/linktypes/LINKTYPE_LOOP.html
      - id: payload
        type: 'ip_payload(family == 2 ? 0x0800 : family == 24 or family == 28 or family == 30 ? 0x86dd : 0)'
        doc: The IP packet, and what follows it.
        doc-ref: https://www.tcpdump.org/linktypes/LINKTYPE_LOOP.html
  raw_ipv4:
    doc: An IPv4 packet with no link-layer header.
    doc-ref: https://www.tcpdump.org/linktypes/LINKTYPE_IPV4.html
    seq:
      - id: payload
        type: ip_payload(0x0800)
        doc: The IP packet, and what follows it.
        doc-ref: https://www.tcpdump.org/linktypes/LINKTYPE_IPV4.html
  raw_ipv6:
    doc: An IPv6 packet with no link-layer header.
    doc-ref: https://www.tcpdump.org/linktypes/LINKTYPE_IPV6.html
    seq:
      - id: payload
        type: ip_payload(0x86dd)
        doc: The IP packet, and what follows it.
        doc-ref: https://www.tcpdump.org/linktypes/LINKTYPE_IPV6.html
  ip_payload:
    doc: What a link-layer header carries, by its ether type; then the bytes the IP packet leaves.
    doc-ref: https://www.iana.org/assignments/ieee-802-numbers/ieee-802-numbers.xhtml
    params:
      - id: ether_type
        type: u2
        doc: The ether type the link layer gives (0x0800 IPv4, 0x86DD IPv6).
    seq:
      - id: ip
        type:
          switch-on: ether_type
          cases:
            0x0800: ipv4
            0x86dd: ipv6
        if: ether_type == 0x0800 or ether_type == 0x86dd
        doc: The IP packet.
        doc-ref: https://www.rfc-editor.org/rfc/rfc791
      - id: trailer
        size-eos: true
        doc: What follows the IP packet (a short Ethernet frame's padding), or everything for another ether type.
        doc-ref: https://www.tcpdump.org/linktypes/LINKTYPE_ETHERNET.html
  ipv4:
    doc: An IPv4 packet; a TCP segment where it is not a fragment.
    doc-ref: https://www.rfc-editor.org/rfc/rfc791#section-3.1
    seq:
      - id: version
        type: b4
        valid: 4
        doc: 4.
        doc-ref: https://www.rfc-editor.org/rfc/rfc791#section-3.1
      - id: ihl
        type: b4
        valid:
          min: 5
        doc: Number of 4-byte words of the header, options included (at least 5).
        doc-ref: https://www.rfc-editor.org/rfc/rfc791#section-3.1
      - id: dscp_ecn
        type: u1
        doc: The differentiated services code point and the explicit congestion notification bits.
        doc-ref: https://www.rfc-editor.org/rfc/rfc2474
      - id: total_length
        type: u2
        doc: Number of bytes of the packet, header included (given with the value on encode, and checked against its body).
        doc-ref: https://www.rfc-editor.org/rfc/rfc791#section-3.1
      - id: identification
        type: u2
        doc: Tells the fragments of one datagram apart.
        doc-ref: https://www.rfc-editor.org/rfc/rfc791#section-3.1
      - id: flags_fragment
        type: u2
        doc: The flags (don't fragment 0x4000, more fragments 0x2000) and the fragment's offset in 8-byte units.
        doc-ref: https://www.rfc-editor.org/rfc/rfc791#section-3.1
      - id: ttl
        type: u1
        doc: Hops left.
        doc-ref: https://www.rfc-editor.org/rfc/rfc791#section-3.1
      - id: protocol
        type: u1
        doc: What the packet carries (6 TCP).
        doc-ref: https://www.iana.org/assignments/protocol-numbers/protocol-numbers.xhtml
      - id: header_checksum
        type: u2
        doc: The header's checksum, as captured (not checked; see the format's doc).
        doc-ref: https://www.rfc-editor.org/rfc/rfc791#section-3.1
      - id: src_addr
        size: 4
        doc: The source address.
        doc-ref: https://www.rfc-editor.org/rfc/rfc791#section-3.1
      - id: dst_addr
        size: 4
        doc: The destination address.
        doc-ref: https://www.rfc-editor.org/rfc/rfc791#section-3.1
      - id: options
        size: ihl * 4 - 20
        doc: The header's options.
        doc-ref: https://www.rfc-editor.org/rfc/rfc791#section-3.1
      - id: body
        size: total_length - ihl * 4
        type:
          switch-on: '(flags_fragment & 0x3fff) == 0 ? protocol : 256'
          cases:
            6: tcp_segment
        doc: A TCP segment; bytes for another protocol or a fragment.
        doc-ref: https://www.rfc-editor.org/rfc/rfc791#section-3.1
  ipv6:
    doc: An IPv6 packet; a TCP segment where its next header is TCP.
    doc-ref: https://www.rfc-editor.org/rfc/rfc8200#section-3
    seq:
      - id: version
        type: b4
        valid: 6
        doc: 6.
        doc-ref: https://www.rfc-editor.org/rfc/rfc8200#section-3
      - id: traffic_class
        type: b8
        doc: The differentiated services and congestion notification bits.
        doc-ref: https://www.rfc-editor.org/rfc/rfc8200#section-3
      - id: flow_label
        type: b20
        doc: Labels the packets of one flow.
        doc-ref: https://www.rfc-editor.org/rfc/rfc8200#section-3
      - id: len_payload
        type: u2
        doc: Number of bytes after this header.
        doc-ref: https://www.rfc-editor.org/rfc/rfc8200#section-3
        -lc-size-of: body
      - id: next_header
        type: u1
        doc: What follows the header (6 TCP).
        doc-ref: https://www.iana.org/assignments/protocol-numbers/protocol-numbers.xhtml
      - id: hop_limit
        type: u1
        doc: Hops left.
        doc-ref: https://www.rfc-editor.org/rfc/rfc8200#section-3
      - id: src_addr
        size: 16
        doc: The source address.
        doc-ref: https://www.rfc-editor.org/rfc/rfc8200#section-3
      - id: dst_addr
        size: 16
        doc: The destination address.
        doc-ref: https://www.rfc-editor.org/rfc/rfc8200#section-3
      - id: body
        size: len_payload
        type:
          switch-on: next_header
          cases:
            6: tcp_segment
        doc: A TCP segment; bytes for anything else (extension headers included).
        doc-ref: https://www.rfc-editor.org/rfc/rfc8200#section-3
  tcp_segment:
    doc: A TCP segment.
    doc-ref: https://www.rfc-editor.org/rfc/rfc9293#section-3.1
    seq:
      - id: src_port
        type: u2
        doc: The sender's port.
        doc-ref: https://www.rfc-editor.org/rfc/rfc9293#section-3.1
      - id: dst_port
        type: u2
        doc: The receiver's port.
        doc-ref: https://www.rfc-editor.org/rfc/rfc9293#section-3.1
      - id: seq_num
        type: u4
        doc: The place of the segment's first byte in the sender's stream (its SYN's, for a SYN).
        doc-ref: https://www.rfc-editor.org/rfc/rfc9293#section-3.1
      - id: ack_num
        type: u4
        doc: The next byte the sender expects from the other side, where the ACK flag is set.
        doc-ref: https://www.rfc-editor.org/rfc/rfc9293#section-3.1
      - id: data_offset
        type: b4
        valid:
          min: 5
        doc: Number of 4-byte words of the header, options included (at least 5).
        doc-ref: https://www.rfc-editor.org/rfc/rfc9293#section-3.1
      - id: reserved
        type: b4
        doc: Reserved bits (the last one was the ECN nonce).
        doc-ref: https://www.rfc-editor.org/rfc/rfc9293#section-3.1
      - id: flags
        type: u1
        doc: CWR 0x80, ECE 0x40, URG 0x20, ACK 0x10, PSH 0x08, RST 0x04, SYN 0x02, FIN 0x01.
        doc-ref: https://www.rfc-editor.org/rfc/rfc9293#section-3.1
      - id: window
        type: u2
        doc: How many bytes the sender will take (scaled by the window scale option).
        doc-ref: https://www.rfc-editor.org/rfc/rfc9293#section-3.1
      - id: checksum
        type: u2
        doc: The checksum, as captured (not checked; see the format's doc).
        doc-ref: https://www.rfc-editor.org/rfc/rfc9293#section-3.1
      - id: urgent_pointer
        type: u2
        doc: Where urgent data ends, where the URG flag is set.
        doc-ref: https://www.rfc-editor.org/rfc/rfc9293#section-3.1
      - id: options
        size: data_offset * 4 - 20
        doc: The header's options (maximum segment size, window scale, timestamps, SACK).
        doc-ref: https://www.rfc-editor.org/rfc/rfc9293#section-3.1
      - id: data
        size-eos: true
        doc: The bytes the segment carries.
        doc-ref: https://www.rfc-editor.org/rfc/rfc9293#section-3.1
