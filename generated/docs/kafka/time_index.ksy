meta:
  id: time_index
  title: Apache Kafka time index file
  application: Apache Kafka brokers
  file-extension: timeindex
  license: CC0-1.0
  ks-version: "0.11"
  -lc-fills-input: true
  endian: be
doc: |
  The sparse time index of a log segment (`<base offset>.timeindex`): when the offset
  index gets an entry, and the largest timestamp seen in the segment has grown since the
  last time entry, an entry maps that timestamp to the offset, relative to the segment's
  base offset, of the record where it was seen. Timestamps and offsets both ascend. Like
  the offset index, the file is preallocated and trimmed when the segment rolls, so an
  active or crashed segment's time index ends in zero-filled entries.
doc-ref: https://github.com/apache/kafka/blob/trunk/storage/src/main/java/org/apache/kafka/storage/internals/log/TimeIndex.java
seq:
  - id: entries
    type: entry
    repeat: eos
    doc: The entries in file order (a preallocated file's zeros included).
    doc-ref: https://github.com/apache/kafka/blob/trunk/storage/src/main/java/org/apache/kafka/storage/internals/log/TimeIndex.java
types:
  entry:
    doc: One time index entry, 12 bytes.
    doc-ref: https://github.com/apache/kafka/blob/trunk/storage/src/main/java/org/apache/kafka/storage/internals/log/TimeIndex.java
    seq:
      - id: timestamp
        type: s8
        doc: The largest timestamp seen in the segment so far, in milliseconds since the epoch.
        doc-ref: https://github.com/apache/kafka/blob/trunk/storage/src/main/java/org/apache/kafka/storage/internals/log/TimeIndex.java
      - id: relative_offset
        type: s4
        doc: The offset of the record where it was seen, minus the segment's base offset.
        doc-ref: https://github.com/apache/kafka/blob/trunk/storage/src/main/java/org/apache/kafka/storage/internals/log/TimeIndex.java
