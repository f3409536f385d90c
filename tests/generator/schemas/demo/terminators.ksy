meta:
  id: terminators
  title: Strings and bytes that end at a terminator or carry padding
  license: CC0-1.0
  ks-version: "0.11"
  encoding: UTF-8
doc: |
  A test schema for Kaitai's `strz`, `terminator`, `consume`, `include`,
  `eos-error` and `pad-right`, on bytes and on text (one- and two-byte units).
seq:
  - id: name
    type: strz
    doc: Text up to a NUL, which is consumed.
  - id: left
    terminator: 0x7c
    consume: false
    doc: Bytes up to a `|`, which is left for the next field.
  - id: bar
    contents: "|"
    doc: The `|` the field before left.
  - id: kept
    type: str
    terminator: 0x40
    include: true
    doc: Text up to and with an `@`.
  - id: padded
    type: str
    size: 8
    pad-right: 0x20
    doc: Text padded with spaces to 8 bytes.
  - id: cut
    size: 8
    terminator: 0
    pad-right: 0xff
    doc: Bytes cut at a NUL, padded with 0xff to 8 bytes.
  - id: wide
    type: strz
    encoding: UTF-16LE
    doc: UTF-16 text up to a two-byte NUL at a whole code unit.
  - id: in_term
    type: pair
    terminator: 0x3b
    doc: A structure read from the bytes up to a `;`.
  - id: in_box
    type: pair
    size: 5
    pad-right: 0x2e
    doc: A structure read from 5 bytes padded with dots.
  - id: rest
    terminator: 0x0a
    eos-error: false
    doc: Bytes up to a newline, or to the end when there is none.
types:
  pair:
    doc: Two bytes.
    seq:
      - id: a
        type: u1
        doc: The first.
      - id: b
        type: u1
        doc: The second.
