meta:
  id: processors
  title: Kaitai's built-in processors
  license: CC0-1.0
  ks-version: "0.11"
doc: |
  A test schema for `process:` with Kaitai's built-ins: xor with one byte and with a
  repeated key, rotations both ways, and a zlib stream.
seq:
  - id: len_block
    type: u1
    doc: Size of each processed block.
  - id: xor_one
    size: len_block
    process: xor(0xaa)
    doc: Each byte xor 0xaa.
  - id: xor_key
    size: len_block
    process: xor([0xec, 0xbb, 0xa3])
    doc: Each byte xor the key's byte at its place, the key repeated.
  - id: rotated_left
    size: len_block
    process: rol(3)
    doc: Each byte rotated left by 3 bits.
  - id: rotated_right
    size: len_block
    process: ror(len_block % 8)
    doc: Each byte rotated right by an amount that an expression gives.
  - id: len_packed
    type: u1
    doc: Size of the zlib stream.
  - id: packed
    size: len_packed
    process: zlib
    doc: A zlib stream.
