meta:
  id: carried
  title: Values carried from the previous element
  endian: le
  bit-endian: le
doc: |
  Not a real format: a test schema for a value carried from the previous element
  of a list (as TANK's "timestamp of the last message that had one"), chosen by
  the encoder from the value, and a parameter of the root type.
params:
  - id: base
    type: u4
    doc: A number given by the caller, as a base sequence number is.
    -lc-default: 0
seq:
  - id: num_entries
    type: u1
    doc: Number of entries.
    -lc-count-of: entries
  - id: entries
    type: entry(_index)
    repeat: expr
    repeat-expr: num_entries
    doc: The entries.
instances:
  last_number:
    value: base + num_entries
    doc: The caller's base plus the number of entries.
types:
  entry:
    doc: One entry; its stamp is written only when it differs from the previous entry's.
    params:
      - id: idx
        type: s4
        doc: Position in the list.
    seq:
      - id: same_stamp
        type: b1
        doc: Set when the stamp is the previous entry's, and not written.
        -lc-default: 'idx > 0 and _parent.entries[idx - 1].stamp == stamp'
      - id: reserved
        type: b7
        doc: Unused bits.
      - id: stamp_written
        type: u8
        if: not same_stamp
        doc: The stamp, when it is not carried.
        -lc-default: stamp
      - id: payload
        type: u1
        doc: One byte of content.
    instances:
      stamp:
        value: '(same_stamp ? _parent.entries[idx - 1].stamp : stamp_written).as<u8>'
        doc: The entry's stamp, carried or written.
        -lc-input: true
