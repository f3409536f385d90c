meta:
  id: pcapng
  title: pcapng capture file (little-endian)
  application: Wireshark, tshark, dumpcap, tcpdump
  file-extension: pcapng
  license: CC0-1.0
  ks-version: "0.11"
  -lc-fills-input: true
  endian: le
doc: |
  A packet capture as Wireshark's dumpcap writes it by default: blocks, each with its type and
  its length at both ends. A section header block starts each section; an interface description
  block describes each interface the section's packets were captured on (its link type above
  all), numbered from 0 in the order they come; enhanced (and simple) packet blocks hold the
  packets, as they were seen on the link. Other blocks (name resolution, statistics, secrets,
  custom) are kept as bytes. Written in the byte order of the host that captured; this schema
  reads the little-endian sections every x86 and ARM host writes (a big-endian section's
  byte-order magic is refused). A capture stopped while it was being written ends inside a
  block: that block is kept as `partial_block`, not an error.
doc-ref: https://www.ietf.org/archive/id/draft-ietf-opsawg-pcapng-03.html
seq:
  - id: section_magic
    contents: [0x0a, 0x0d, 0x0d, 0x0a]
    doc: |
      The type of the file's first block, which is its first section's header block (written out
      here, apart from the blocks after it, so that a file is known by its first bytes).
    doc-ref: https://www.ietf.org/archive/id/draft-ietf-opsawg-pcapng-03.html#section-4.1
  - id: len_section_block
    type: u4
    valid:
      min: 28
    doc: Number of bytes of that block, its type and both lengths included.
    doc-ref: https://www.ietf.org/archive/id/draft-ietf-opsawg-pcapng-03.html#section-3.1
  - id: section_header
    size: len_section_block - 12
    type: section_header
    doc: The first section's header.
    doc-ref: https://www.ietf.org/archive/id/draft-ietf-opsawg-pcapng-03.html#section-4.1
  - id: len_section_block_trailer
    type: u4
    valid: len_section_block
    doc: The block's length again.
    doc-ref: https://www.ietf.org/archive/id/draft-ietf-opsawg-pcapng-03.html#section-3.1
    -lc-default: len_section_block
  - id: blocks
    type: block
    repeat: eos
    doc: The blocks after it in file order (the next sections' headers among them).
    doc-ref: https://www.ietf.org/archive/id/draft-ietf-opsawg-pcapng-03.html#section-3.1
    -lc-partial-tail: true
  - id: partial_block
    size-eos: true
    doc: The bytes of a last block the capture stopped inside; empty when the last block is whole.
    doc-ref: https://www.ietf.org/archive/id/draft-ietf-opsawg-pcapng-03.html#section-3.1
types:
  block:
    doc: One block; its body's layout is its type's.
    doc-ref: https://www.ietf.org/archive/id/draft-ietf-opsawg-pcapng-03.html#section-3.1
    seq:
      - id: block_type
        type: u4
        doc: What the block is (0x0A0D0D0A section header, 1 interface description, 6 enhanced packet, 3 simple packet; other types are kept as bytes).
        doc-ref: https://www.ietf.org/archive/id/draft-ietf-opsawg-pcapng-03.html#section-11.1
      - id: len_block
        type: u4
        valid:
          min: 12
        doc: |
          Number of bytes of the whole block, its type and both lengths included; a multiple of 4
          (given with the value on encode, and checked against its body).
        doc-ref: https://www.ietf.org/archive/id/draft-ietf-opsawg-pcapng-03.html#section-3.1
      - id: body
        size: len_block - 12
        type:
          switch-on: block_type
          cases:
            0x0a0d0d0a: section_header
            1: interface_description
            6: enhanced_packet
            3: simple_packet
        doc: The block's content, by its type; bytes for the types read as such.
        doc-ref: https://www.ietf.org/archive/id/draft-ietf-opsawg-pcapng-03.html#section-4
      - id: len_block_trailer
        type: u4
        valid: len_block
        doc: The block's length again, so that a reader can walk the file backwards.
        doc-ref: https://www.ietf.org/archive/id/draft-ietf-opsawg-pcapng-03.html#section-3.1
        -lc-default: len_block
  section_header:
    doc: Starts a section; says its byte order and version.
    doc-ref: https://www.ietf.org/archive/id/draft-ietf-opsawg-pcapng-03.html#section-4.1
    seq:
      - id: byte_order_magic
        type: u4
        valid: 0x1a2b3c4d
        doc: 0x1A2B3C4D in the section's byte order (little-endian here).
        doc-ref: https://www.ietf.org/archive/id/draft-ietf-opsawg-pcapng-03.html#section-4.1
      - id: version_major
        type: u2
        valid: 1
        doc: The format's major version, 1.
        doc-ref: https://www.ietf.org/archive/id/draft-ietf-opsawg-pcapng-03.html#section-4.1
      - id: version_minor
        type: u2
        doc: The format's minor version, 0.
        doc-ref: https://www.ietf.org/archive/id/draft-ietf-opsawg-pcapng-03.html#section-4.1
      - id: section_length
        type: s8
        doc: Number of bytes of the section after this block, or -1 where the writer did not say.
        doc-ref: https://www.ietf.org/archive/id/draft-ietf-opsawg-pcapng-03.html#section-4.1
      - id: options
        type: option
        repeat: eos
        doc: The section's options (the hardware, operating system and application that wrote it).
        doc-ref: https://www.ietf.org/archive/id/draft-ietf-opsawg-pcapng-03.html#section-4.1
  interface_description:
    doc: An interface the section's packets were captured on, numbered by its place among the section's.
    doc-ref: https://www.ietf.org/archive/id/draft-ietf-opsawg-pcapng-03.html#section-4.2
    seq:
      - id: linktype
        type: u2
        doc: The link layer of its packets (1 Ethernet, 113 Linux cooked, 276 Linux cooked v2, 0 and 108 loopback, 101, 228 and 229 raw IP).
        doc-ref: https://www.tcpdump.org/linktypes.html
      - id: reserved
        type: u2
        doc: Always zero.
        doc-ref: https://www.ietf.org/archive/id/draft-ietf-opsawg-pcapng-03.html#section-4.2
      - id: snaplen
        type: u4
        doc: The most bytes of a packet kept (0 for no limit).
        doc-ref: https://www.ietf.org/archive/id/draft-ietf-opsawg-pcapng-03.html#section-4.2
      - id: options
        type: option
        repeat: eos
        doc: The interface's options (its name, timestamp resolution, capture filter).
        doc-ref: https://www.ietf.org/archive/id/draft-ietf-opsawg-pcapng-03.html#section-4.2
  enhanced_packet:
    doc: A packet, with the interface it was captured on and when.
    doc-ref: https://www.ietf.org/archive/id/draft-ietf-opsawg-pcapng-03.html#section-4.3
    seq:
      - id: interface_id
        type: u4
        doc: The interface it was captured on, by its number in the section.
        doc-ref: https://www.ietf.org/archive/id/draft-ietf-opsawg-pcapng-03.html#section-4.3
      - id: ts_high
        type: u4
        doc: The upper 32 bits of its 64-bit timestamp, in the interface's unit (microseconds unless said).
        doc-ref: https://www.ietf.org/archive/id/draft-ietf-opsawg-pcapng-03.html#section-4.3
      - id: ts_low
        type: u4
        doc: The lower 32 bits of its timestamp.
        doc-ref: https://www.ietf.org/archive/id/draft-ietf-opsawg-pcapng-03.html#section-4.3
      - id: len_data
        type: u4
        doc: Number of bytes of the packet kept.
        doc-ref: https://www.ietf.org/archive/id/draft-ietf-opsawg-pcapng-03.html#section-4.3
        -lc-size-of: data
      - id: orig_len
        type: u4
        doc: Number of bytes the packet had on the link; more than `len_data` where it was cut.
        doc-ref: https://www.ietf.org/archive/id/draft-ietf-opsawg-pcapng-03.html#section-4.3
      - id: data
        size: len_data
        doc: The packet as captured, from its link-layer header on (a `net.packet` of its interface's link type).
        doc-ref: https://www.tcpdump.org/linktypes.html
      - id: padding
        size: (4 - len_data % 4) % 4
        doc: Zeros up to a multiple of 4 bytes.
        doc-ref: https://www.ietf.org/archive/id/draft-ietf-opsawg-pcapng-03.html#section-4.3
      - id: options
        type: option
        repeat: eos
        doc: The packet's options (flags, hashes, drop counts, comments).
        doc-ref: https://www.ietf.org/archive/id/draft-ietf-opsawg-pcapng-03.html#section-4.3
  simple_packet:
    doc: A packet captured on the section's first interface, without a timestamp.
    doc-ref: https://www.ietf.org/archive/id/draft-ietf-opsawg-pcapng-03.html#section-4.4
    seq:
      - id: orig_len
        type: u4
        doc: Number of bytes the packet had on the link.
        doc-ref: https://www.ietf.org/archive/id/draft-ietf-opsawg-pcapng-03.html#section-4.4
      - id: data
        size-eos: true
        doc: The packet as captured, then zeros up to a multiple of 4 bytes (the packet's own headers say where it ends).
        doc-ref: https://www.ietf.org/archive/id/draft-ietf-opsawg-pcapng-03.html#section-4.4
  option:
    doc: One option of a block (code 0 ends the list, where a writer writes it).
    doc-ref: https://www.ietf.org/archive/id/draft-ietf-opsawg-pcapng-03.html#section-3.5
    seq:
      - id: code
        type: u2
        doc: Which option; its meaning depends on the block.
        doc-ref: https://www.ietf.org/archive/id/draft-ietf-opsawg-pcapng-03.html#section-3.5
      - id: len_value
        type: u2
        doc: Number of bytes of the value, without its padding.
        doc-ref: https://www.ietf.org/archive/id/draft-ietf-opsawg-pcapng-03.html#section-3.5
        -lc-size-of: value
      - id: value
        size: len_value
        doc: The option's value.
        doc-ref: https://www.ietf.org/archive/id/draft-ietf-opsawg-pcapng-03.html#section-3.5
      - id: padding
        size: (4 - len_value % 4) % 4
        doc: Zeros up to a multiple of 4 bytes.
        doc-ref: https://www.ietf.org/archive/id/draft-ietf-opsawg-pcapng-03.html#section-3.5
