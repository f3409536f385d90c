meta:
  id: table_of_lengths
  title: A table of lengths before the blobs it measures
  license: CC0-1.0
  ks-version: "0.11"
  endian: le
doc: |
  A test schema for `-lc-derived`: a header lists the length of every blob, and
  the blobs follow, so each length sits away from what it measures, in another
  type. The encoder fills the lengths in as it writes the blobs.
seq:
  - id: header
    type: header
    doc: The number of blobs and their lengths.
  - id: blobs
    type: blob_holder(_index)
    repeat: expr
    repeat-expr: header.lengths.size
    doc: The blobs, in the order of the header's lengths.
types:
  header:
    doc: The table of lengths.
    seq:
      - id: num_blobs
        type: u1
        doc: Number of blobs.
        -lc-count-of: lengths
      - id: lengths
        type: blob_length
        repeat: expr
        repeat-expr: num_blobs
        doc: One length per blob.
  blob_length:
    doc: The length of one blob.
    seq:
      - id: len_blob
        type: u2
        doc: Length of the blob, filled in by the blob's encoder.
        -lc-derived: true
  blob_holder:
    doc: One blob, sized by its entry in the header.
    params:
      - id: idx
        type: s4
        doc: Position of the blob.
    seq:
      - id: blob
        size: _parent.header.lengths[idx].len_blob
        doc: The bytes of the blob.
