meta:
  id: uvarint
  title: Unsigned base-128 varint (LEB128)
  license: CC0-1.0
  ks-version: "0.11"
doc: |
  An unsigned integer written 7 bits at a time, least significant group first,
  with the high bit of each byte set when another byte follows (LEB128, the
  varint of Jeff Dean's scheme that TANK uses). `max_bits` bounds the width:
  TANK's varints are 32 bits, at most 5 bytes; a longer encoding is invalid.
  So is an overlong one (a last byte of 0 after another: `80 80 80 80 00` for
  0): TANK writes the shortest form, and an overlong one could not be written
  back byte for byte.
doc-ref: https://en.wikipedia.org/wiki/LEB128
-lc-primitive:
  name: uvarint
  value: value
params:
  - id: max_bits
    type: u1
    doc: Width of the integer in bits (32 for TANK).
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
  value:
    value: groups.last.interm_value
    doc: The number.
