meta:
  id: biased_uvarint
  title: Unsigned base-128 varint holding its value plus one
  license: CC0-1.0
  ks-version: "0.11"
doc: |
  A number from -1 up, written as the unsigned varint (LEB128) of the number
  plus one, so that an encoded 0 stands for -1: the "compact" lengths and
  counts of a protocol whose -1 means null (an absent string, bytes or list).
  `max_bits` bounds the width of the encoded number (32: at most 5 bytes). An
  overlong encoding is invalid, as for `uvarint`.
doc-ref: https://en.wikipedia.org/wiki/LEB128
-lc-primitive:
  name: biased_uvarint
  value: value
params:
  - id: max_bits
    type: u1
    doc: Width of the encoded number in bits.
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
  unbiased:
    value: groups.last.interm_value
    doc: The encoded number, the value plus one.
  value:
    value: unbiased.as<s8> - 1
    doc: The number.
