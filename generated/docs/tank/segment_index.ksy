meta:
  id: segment_index
  title: TANK segment index file
  application: TANK 4.0 broker
  file-extension: index
  license: CC0-1.0
  ks-version: "0.11"
  -lc-fills-input: true
  endian: le
doc: |
  The sparse index of a segment (`<first>.index`): for the segment's first bundle, then
  each time more than `log.index.interval.bytes` (default 4096) were written since the
  last entry, the bundle's first sequence number relative to the segment's base and its
  offset in the segment file.
doc-ref: https://github.com/phaistos-networks/TANK/blob/master/tank_protocol.md
seq:
  - id: entries
    type: entry
    repeat: eos
    doc: The entries in file order.
types:
  entry:
    doc: One index entry.
    seq:
      - id: rel_seq_num
        type: u4
        doc: The bundle's first sequence number minus the segment's base.
      - id: file_offset
        type: u4
        doc: Offset of the bundle's length varint in the segment file.
