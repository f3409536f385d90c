meta:
  id: segment_log
  title: TANK segment log file
  application: TANK 4.0 broker
  file-extension: [log, ilog]
  license: CC0-1.0
  ks-version: "0.11"
  -lc-fills-input: true
  endian: le
  imports:
    - ../common/uvarint
    - bundle
doc: |
  A partition's segment file (`<first>_<secs>.log`, active, or `<first>-<last>_<secs>.ilog`,
  immutable): the bundles exactly as the broker received them, each after its varint length.
  The file does not store sequence numbers: the first bundle starts at the segment's base
  (the number in the file name), and every bundle that is not sparse starts right after the
  previous bundle's last message.
doc-ref: https://github.com/phaistos-networks/TANK/blob/master/tank_encoding.md
params:
  - id: base_seq_num
    type: u8
    doc: Sequence number of the segment's first message (the first number in its file name).
    -lc-default: 0
seq:
  - id: entries
    type: entry(_index, base_seq_num)
    repeat: eos
    doc: The bundles in the order they were appended.
types:
  entry:
    doc: One bundle with its length.
    params:
      - id: idx
        type: s4
        doc: Position in the file.
      - id: segment_base
        type: u8
        doc: Sequence number of the segment's first message.
    seq:
      - id: len_bundle
        type: uvarint(32)
        doc: Length of the bundle in bytes.
        -lc-size-of: bundle
      - id: bundle
        size: len_bundle.value
        type: 'bundle(idx == 0 ? segment_base : (_parent.entries[idx - 1].bundle.messages.items.last.seq_num + 1).as<u8>)'
        doc: The bundle; its first sequence number follows the previous bundle's last.
