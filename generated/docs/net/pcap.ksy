meta:
  id: pcap
  title: pcap capture file (the libpcap format, little-endian)
  application: tcpdump, Wireshark, libpcap
  file-extension: pcap
  license: CC0-1.0
  ks-version: "0.11"
  -lc-fills-input: true
  endian: le
doc: |
  A packet capture as libpcap writes it (`tcpdump -w`): a file header, then each packet
  captured, as it was seen on the link, after a header of its own. Written in the byte order
  of the host that captured; this schema reads the little-endian files every x86 and ARM host
  writes (a big-endian file's magic reads as another number, and is refused). The packets are
  `net.packet`s of the file's link type. A capture stopped while it was being written ends
  inside a packet: that packet is kept as `partial_packet`, not an error.
doc-ref: https://www.ietf.org/archive/id/draft-ietf-opsawg-pcap-04.html
seq:
  - id: magic
    type: u4
    enum: magic
    valid:
      in-enum: true
    doc: Says the byte order and the unit of the packets' timestamps (micro- or nanoseconds).
    doc-ref: https://www.ietf.org/archive/id/draft-ietf-opsawg-pcap-04.html#section-4
  - id: version_major
    type: u2
    valid: 2
    doc: The format's major version, 2.
    doc-ref: https://www.ietf.org/archive/id/draft-ietf-opsawg-pcap-04.html#section-4
  - id: version_minor
    type: u2
    doc: The format's minor version, 4.
    doc-ref: https://www.ietf.org/archive/id/draft-ietf-opsawg-pcap-04.html#section-4
  - id: reserved1
    type: u4
    doc: Was the time zone's offset from UTC; 0 (readers ignore it).
    doc-ref: https://www.ietf.org/archive/id/draft-ietf-opsawg-pcap-04.html#section-4
  - id: reserved2
    type: u4
    doc: Was the timestamps' accuracy; 0 (readers ignore it).
    doc-ref: https://www.ietf.org/archive/id/draft-ietf-opsawg-pcap-04.html#section-4
  - id: snaplen
    type: u4
    doc: The most bytes of a packet the capture kept; longer packets were cut to it.
    doc-ref: https://www.ietf.org/archive/id/draft-ietf-opsawg-pcap-04.html#section-4
  - id: linktype
    type: u4
    doc: |
      The link layer of every packet (its low 16 bits: 1 Ethernet, 113 Linux cooked, 276 Linux
      cooked v2, 0 and 108 loopback, 101, 228 and 229 raw IP; `net.packet` reads them); the upper
      bits may say whether frames end in their check sequence.
    doc-ref: https://www.tcpdump.org/linktypes.html
  - id: packets
    type: packet
    repeat: eos
    doc: The packets in the order they were captured.
    doc-ref: https://www.ietf.org/archive/id/draft-ietf-opsawg-pcap-04.html#section-5
    -lc-partial-tail: true
  - id: partial_packet
    size-eos: true
    doc: The bytes of a last packet the capture stopped inside; empty when the last packet is whole.
    doc-ref: https://www.ietf.org/archive/id/draft-ietf-opsawg-pcap-04.html#section-5
types:
  packet:
    doc: One captured packet, after its record header.
    doc-ref: https://www.ietf.org/archive/id/draft-ietf-opsawg-pcap-04.html#section-5
    seq:
      - id: ts_sec
        type: u4
        doc: When it was captured, in seconds since 1970-01-01 UTC.
        doc-ref: https://www.ietf.org/archive/id/draft-ietf-opsawg-pcap-04.html#section-5
      - id: ts_subsec
        type: u4
        doc: The fraction of that second, in microseconds, or in nanoseconds where the magic says so.
        doc-ref: https://www.ietf.org/archive/id/draft-ietf-opsawg-pcap-04.html#section-5
      - id: len_data
        type: u4
        doc: Number of bytes of the packet kept (at most the file's snaplen).
        doc-ref: https://www.ietf.org/archive/id/draft-ietf-opsawg-pcap-04.html#section-5
        -lc-size-of: data
      - id: orig_len
        type: u4
        doc: Number of bytes the packet had on the link; more than `len_data` where it was cut.
        doc-ref: https://www.ietf.org/archive/id/draft-ietf-opsawg-pcap-04.html#section-5
      - id: data
        size: len_data
        doc: The packet as captured, from its link-layer header on (a `net.packet` of the file's link type).
        doc-ref: https://www.tcpdump.org/linktypes.html
enums:
  magic:
    0xa1b2c3d4: microseconds
    0xa1b23c4d: nanoseconds
