meta:
  id: feature_tour
  title: A tour of the Kaitai subset logcodec implements
  endian: le
  bit-endian: le
doc: Not a real format; a test schema that uses each construct at least once.
seq:
  - id: magic
    contents: [0x4c, 0x43]
    doc: Fixed magic bytes "LC".
  - id: flags
    type: flags
    doc: A flags byte, least significant bit first.
  - id: version
    type: u1
    valid:
      min: 1
      max: 3
    doc: Version 1 to 3.
  - id: kind
    type: u1
    enum: kind
    valid:
      any-of: [kind::small, kind::big, kind::text]
    doc: What the body holds.
  - id: len_body
    type: u2
    doc: Length of the body.
    -lc-size-of: body
  - id: body
    size: len_body
    type:
      switch-on: kind
      cases:
        kind::small: small_body
        kind::big: big_body
        _: text_body
    doc: The body, by kind.
  - id: extra
    type: u4
    if: flags.has_extra
    doc: Present when the flag says so.
  - id: words
    type: u2
    repeat: until
    repeat-until: _ == 0
    doc: 16-bit words up to and including a zero.
  - id: tail
    type: pair
    repeat: eos
    doc: Pairs to the end of the input.
instances:
  num_words:
    value: words.size
    doc: How many words, the terminating zero included.
  header_copy:
    pos: 2
    type: u2
    doc: The flags and version bytes read again as one little-endian u2 (a positional instance).
  magic_again:
    pos: 0
    size: 2
    doc: The magic, read again from the start.
types:
  flags:
    doc: Flag bits, LSB first.
    seq:
      - id: has_extra
        type: b1
        doc: Bit 0.
      - id: level
        type: b3
        doc: Bits 1 to 3.
      - id: reserved
        type: b4
        doc: Bits 4 to 7.
  small_body:
    doc: A small body.
    seq:
      - id: value
        type: s2
        doc: A signed 16-bit value.
  big_body:
    doc: A big body.
    seq:
      - id: value
        type: s8be
        doc: A big-endian signed 64-bit value.
      - id: rest
        size-eos: true
        doc: Everything after it.
  text_body:
    doc: A text body.
    seq:
      - id: text
        type: str
        size-eos: true
        encoding: UTF-8
        doc: UTF-8 text.
  pair:
    doc: Two bytes.
    seq:
      - id: a
        type: u1
        doc: First.
      - id: b
        type: s1
        doc: Second.
enums:
  kind:
    1: small
    2: big
    3: text
    9: unused
