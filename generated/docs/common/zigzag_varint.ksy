meta:
  id: zigzag_varint
  title: Zigzag-encoded base-128 varint (Protocol Buffers style)
  license: CC0-1.0
  ks-version: "0.11"
doc: |
  A signed integer in the variable-length encoding of Protocol Buffers: the
  zigzag transform maps signed to unsigned (0, -1, 1, -2 ... to 0, 1, 2, 3 ...),
  then the number is written 7 bits at a time, least significant group first,
  with the high bit of each byte set when another byte follows.

  `max_bits` bounds the width: Kafka's varint is 32 bits (at most 5 bytes) and
  its varlong 64 bits (at most 10 bytes); a longer encoding is invalid.

  An overlong encoding (a last byte of 0 after another: `80 00` for 0) is
  invalid too. Java's and kafka-python's readers accept it, but no encoder
  writes it, and a decoder that kept it could not write the same bytes back.
doc-ref: https://protobuf.dev/programming-guides/encoding/#signed-ints
-lc-primitive:
  name: zigzag_varint
  value: value
params:
  - id: max_bits
    type: u1
    doc: Width of the integer in bits (32 for a varint, 64 for a varlong).
seq:
  - id: groups
    type: 'group(_index, _index != 0 ? groups[_index - 1].interm_value : 0, _index != 0 ? groups[_index - 1].multiplier * 128 : 1)'
    repeat: until
    repeat-until: not _.has_next
    doc: The 7-bit groups, least significant first.
types:
  group:
    doc: One byte of the encoding.
    params:
      - id: idx
        type: s4
        doc: Position of this group.
      - id: prev_interm_value
        type: u8
        doc: Value of the groups before this one.
      - id: multiplier
        type: u8
        doc: Weight of this group (128 to the power of idx).
    seq:
      - id: has_next
        type: b1
        doc: Set when another group follows.
      - id: value
        type: b7
        doc: The 7 bits of this group.
    instances:
      interm_value:
        value: (prev_interm_value + value * multiplier).as<u8>
        doc: Value of the groups up to and including this one.
instances:
  len:
    value: groups.size
    doc: Length of the encoding in bytes.
  unsigned:
    value: groups.last.interm_value
    doc: The number before the zigzag transform is undone.
  value:
    value: '(unsigned >> 1).as<s8> ^ -((unsigned & 1).as<s8>)'
    doc: The signed number.
