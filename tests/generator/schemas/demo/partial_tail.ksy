meta:
  id: partial_tail
  title: A repeated field whose last element may be cut short
  endian: le
doc: Not a real format; a test schema for `-lc-partial-tail` inside a sized field.
seq:
  - id: len_chunk
    type: u1
    doc: Length of the chunk.
    -lc-size-of: chunk
  - id: chunk
    size: len_chunk
    type: chunk
    doc: Entries, the last of which may be cut short.
  - id: trailer
    type: u1
    doc: A byte after the chunk, to see that decoding goes on at the right place.
types:
  chunk:
    doc: Entries to the end of the chunk.
    seq:
      - id: entries
        type: entry
        repeat: eos
        doc: The whole entries.
        -lc-partial-tail: true
      - id: partial
        size-eos: true
        doc: The bytes of a last entry cut short by the end of the chunk.
  entry:
    doc: A length and that many bytes.
    seq:
      - id: len_data
        type: u1
        valid:
          max: 100
        doc: Length of the data.
        -lc-size-of: data
      - id: data
        size: len_data
        doc: The data.
