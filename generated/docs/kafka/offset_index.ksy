meta:
  id: offset_index
  title: Apache Kafka offset index file
  application: Apache Kafka brokers
  file-extension: index
  license: CC0-1.0
  ks-version: "0.11"
  -lc-fills-input: true
  endian: be
doc: |
  The sparse offset index of a log segment (`<base offset>.index`, beside
  `<base offset>.log`): an entry each time more than `index.interval.bytes` (default 4096)
  were appended to the segment since the last one, mapping the last offset of the batch
  just appended, relative to the segment's base offset, to the file position where that
  batch starts. The broker preallocates the file (`segment.index.bytes`, default 10 MiB) and
  trims it when the segment rolls or the log closes, so the index of an active segment, or
  one left by a crash, ends in zero-filled entries: a reader stops at the first entry whose
  offset and position do not both ascend.
doc-ref: https://github.com/apache/kafka/blob/trunk/storage/src/main/java/org/apache/kafka/storage/internals/log/OffsetIndex.java
seq:
  - id: entries
    type: entry
    repeat: eos
    doc: The entries in file order (a preallocated file's zeros included).
    doc-ref: https://github.com/apache/kafka/blob/trunk/storage/src/main/java/org/apache/kafka/storage/internals/log/OffsetIndex.java
types:
  entry:
    doc: One index entry, 8 bytes.
    doc-ref: https://github.com/apache/kafka/blob/trunk/storage/src/main/java/org/apache/kafka/storage/internals/log/OffsetIndex.java
    seq:
      - id: relative_offset
        type: s4
        doc: An offset minus the segment's base offset (the file name).
        doc-ref: https://github.com/apache/kafka/blob/trunk/storage/src/main/java/org/apache/kafka/storage/internals/log/OffsetIndex.java
      - id: position
        type: s4
        doc: The byte position in the segment file of the batch that holds that offset.
        doc-ref: https://github.com/apache/kafka/blob/trunk/storage/src/main/java/org/apache/kafka/storage/internals/log/OffsetIndex.java
