meta:
  id: record_set
  title: Apache Kafka record set (the records of a Fetch response)
  application: Apache Kafka brokers and clients
  file-extension: log
  license: CC0-1.0
  ks-version: "0.11"
  -lc-fills-input: true
  endian: be
  imports:
    - record_batch_v2
    - message_set
doc: |
  The records of a partition as a Fetch response (or a log segment) holds them:
  legacy messages (magic 0 and 1) and record batches (magic 2) one after the
  other, in any order. Both start with an int64 offset and an int32 size, and
  keep their magic byte at the same place, 16 bytes in; each entry's format is
  chosen from its own magic byte (clients that look only at the first entry
  misread mixed sets). The broker may cut the last entry short at the fetch
  size: that entry is kept as `partial_entry`, not an error.
doc-ref: https://kafka.apache.org/documentation/#messageformat
seq:
  - id: entries
    type: record_set_entry
    repeat: eos
    doc: The whole entries, in order.
    doc-ref: https://kafka.apache.org/documentation/#messageformat
    -lc-partial-tail: true
  - id: partial_entry
    size-eos: true
    doc: The bytes of a last entry cut short by the fetch size; empty when the last entry is whole.
    doc-ref: https://kafka.apache.org/documentation/#messageformat
types:
  record_set_entry:
    doc: A legacy message (magic 0 or 1, maybe a compressed wrapper) or a record batch (magic 2).
    -lc-unwrap: true
    seq:
      - id: body
        type:
          switch-on: magic
          cases:
            0: message_set::entry(0)
            1: message_set::entry(0)
            _: record_batch_v2
        doc: The entry, by its magic byte; magic 2 and any other value read as a record batch (which accepts only 2).
        doc-ref: https://kafka.apache.org/documentation/#messageformat
    instances:
      magic:
        pos: _io.pos + 16
        type: s1
        doc: The entry's magic byte, read ahead (after offset, size and CRC or leader epoch).
