meta:
  id: record_batch_v2
  title: Apache Kafka record batch (magic v2)
  application: Apache Kafka 0.11 and later
  file-extension: log
  license: CC0-1.0
  ks-version: "0.11"
  -lc-fills-input: true
  endian: be
  imports:
    - ../common/zigzag_varint
doc: |
  The unit in which Kafka stores and transfers records since 0.11: a header
  with the producer's identity and a CRC-32C, followed by the records, which
  may be compressed as a whole. Fetch responses and log segments hold batches
  one after the other; the last one of a fetch response may be cut short.
doc-ref: https://kafka.apache.org/documentation/#recordbatch
seq:
  - id: base_offset
    type: s8
    doc: Offset of the first record of the batch; records carry deltas from it.
    doc-ref: https://kafka.apache.org/documentation/#recordbatch
  - id: len_batch
    type: s4
    doc: Number of bytes that follow this field, up to the end of the batch.
    doc-ref: https://kafka.apache.org/documentation/#recordbatch
    -lc-size-of:
      from: partition_leader_epoch
  - id: partition_leader_epoch
    type: s4
    doc: |
      Leader epoch of the partition when the batch was appended. The broker
      rewrites it, so it lies outside the CRC.
    doc-ref: https://kafka.apache.org/documentation/#recordbatch
  - id: magic
    type: s1
    valid: 2
    doc: Format version of the batch; always 2 here.
    doc-ref: https://kafka.apache.org/documentation/#recordbatch
  - id: crc
    type: u4
    doc: CRC-32C (Castagnoli) of every byte from `attributes` to the end of the batch.
    doc-ref: https://kafka.apache.org/documentation/#recordbatch
    -lc-checksum:
      algorithm: crc32c
      from: attributes
  - id: attributes
    type: attributes
    doc: Compression codec and flag bits of the batch.
    doc-ref: https://kafka.apache.org/documentation/#recordbatch
  - id: last_offset_delta
    type: s4
    doc: |
      Offset delta of the last record. Log compaction may remove records but
      keeps this value, so it is written as it was given; when left out it is
      the offset delta of the last record (0 when there are none).
    doc-ref: https://kafka.apache.org/documentation/#recordbatch
    -lc-default: 'records.items.size == 0 ? 0 : records.items.last.offset_delta.value'
  - id: base_timestamp
    type: s8
    doc: Timestamp of the first record; records carry deltas from it.
    doc-ref: https://kafka.apache.org/documentation/#recordbatch
  - id: max_timestamp
    type: s8
    doc: Largest timestamp of the batch, or the broker's time with log-append time.
    doc-ref: https://kafka.apache.org/documentation/#recordbatch
  - id: producer_id
    type: s8
    doc: Producer id of an idempotent or transactional producer, -1 otherwise.
    doc-ref: https://kafka.apache.org/documentation/#recordbatch
  - id: producer_epoch
    type: s2
    doc: Epoch of the producer id, -1 when there is none.
    doc-ref: https://kafka.apache.org/documentation/#recordbatch
  - id: base_sequence
    type: s4
    doc: Sequence number of the first record for idempotence, -1 when unused.
    doc-ref: https://kafka.apache.org/documentation/#recordbatch
  - id: num_records
    type: s4
    doc: Number of records in the batch.
    doc-ref: https://kafka.apache.org/documentation/#recordbatch
    -lc-count-of: records.items
  - id: records
    size: len_batch - 49
    process: kafka_compression(attributes.compression.to_i)
    type: record_list(num_records, attributes.is_control)
    doc: |
      The records, compressed as a whole when the codec is not `none`. The
      49 bytes subtracted are the fixed fields between `len_batch` and here.
    doc-ref: https://kafka.apache.org/documentation/#recordbatch
types:
  attributes:
    doc: The 16-bit attributes of a batch, most significant bit first.
    doc-ref: https://kafka.apache.org/documentation/#recordbatch
    seq:
      - id: reserved
        type: b9
        doc: Bits 15 to 7, unused; zero in every batch written so far.
        doc-ref: https://kafka.apache.org/documentation/#recordbatch
      - id: has_delete_horizon
        type: b1
        doc: |
          Bit 6: set by log compaction when `base_timestamp` holds the delete
          horizon of tombstones and transaction markers (KIP-534).
        doc-ref: https://cwiki.apache.org/confluence/display/KAFKA/KIP-534%3A+Retain+tombstones+and+transaction+markers+for+approximately+delete.retention.ms+milliseconds
      - id: is_control
        type: b1
        doc: Bit 5, set when the batch holds a transaction marker (a control record).
        doc-ref: https://kafka.apache.org/documentation/#controlbatch
      - id: is_transactional
        type: b1
        doc: Bit 4, set when the batch was written by a transactional producer.
        doc-ref: https://kafka.apache.org/documentation/#recordbatch
      - id: timestamp_type
        type: b1
        enum: timestamp_type
        doc: Bit 3, which clock the timestamps come from.
        doc-ref: https://kafka.apache.org/documentation/#recordbatch
      - id: compression
        type: b3
        enum: compression
        doc: Bits 2 to 0, the codec that compresses the records.
        doc-ref: https://kafka.apache.org/documentation/#recordbatch
  record_list:
    doc: The records of a batch, once decompressed.
    doc-ref: https://kafka.apache.org/documentation/#record
    -lc-unwrap: true
    params:
      - id: num_records
        type: s4
        doc: Number of records, from the batch header.
      - id: is_control
        type: bool
        doc: Whether the batch is a control batch, whose records are markers.
    seq:
      - id: items
        type: record(is_control)
        repeat: expr
        repeat-expr: num_records
        doc: The records in order.
        doc-ref: https://kafka.apache.org/documentation/#record
  record:
    doc: One record; its offset and timestamp are deltas from the batch header.
    doc-ref: https://kafka.apache.org/documentation/#record
    params:
      - id: is_control
        type: bool
        doc: Whether the enclosing batch is a control batch.
    seq:
      - id: len_record
        type: zigzag_varint(32)
        doc: Number of bytes of the record after this field.
        doc-ref: https://kafka.apache.org/documentation/#record
        -lc-size-of:
          from: attributes
      - id: attributes
        type: s1
        doc: Unused; zero.
        doc-ref: https://kafka.apache.org/documentation/#record
      - id: timestamp_delta
        type: zigzag_varint(64)
        doc: Timestamp of the record minus the batch's `base_timestamp`; may be negative.
        doc-ref: https://kafka.apache.org/documentation/#record
      - id: offset_delta
        type: zigzag_varint(32)
        doc: Offset of the record minus the batch's `base_offset`.
        doc-ref: https://kafka.apache.org/documentation/#record
      - id: len_key
        type: zigzag_varint(32)
        doc: |
          Length of the key in bytes, or -1 for a null key. Any negative
          length means null, as the Java client reads it; the length is kept,
          so that such a record is written back byte for byte.
        doc-ref: https://kafka.apache.org/documentation/#record
        -lc-size-of: key
        -lc-absent: -1
      - id: key
        size: len_key.value
        if: len_key.value >= 0
        type:
          switch-on: is_control
          cases:
            true: control_record_key
        doc: The key; in a control batch, the marker's version and type.
        doc-ref: https://kafka.apache.org/documentation/#record
      - id: len_value
        type: zigzag_varint(32)
        doc: |
          Length of the value in bytes, or -1 for a null value. Any negative
          length means null, as the Java client reads it, and is kept.
        doc-ref: https://kafka.apache.org/documentation/#record
        -lc-size-of: value
        -lc-absent: -1
      - id: value
        size: len_value.value
        if: len_value.value >= 0
        type:
          switch-on: is_control
          cases:
            true: control_record_value
        doc: The value; in a control batch, the marker's version and coordinator epoch.
        doc-ref: https://kafka.apache.org/documentation/#record
      - id: num_headers
        type: zigzag_varint(32)
        doc: Number of headers.
        doc-ref: https://kafka.apache.org/documentation/#recordheader
        -lc-count-of: headers
      - id: headers
        type: header
        repeat: expr
        repeat-expr: num_headers.value
        doc: The headers in order; order and duplicate keys are significant.
        doc-ref: https://kafka.apache.org/documentation/#recordheader
  header:
    doc: One record header.
    doc-ref: https://kafka.apache.org/documentation/#recordheader
    seq:
      - id: len_key
        type: zigzag_varint(32)
        doc: Length of the key in bytes.
        doc-ref: https://kafka.apache.org/documentation/#recordheader
        -lc-size-of: key
      - id: key
        type: str
        size: len_key.value
        encoding: UTF-8
        doc: The header key, UTF-8 text; may be empty.
        doc-ref: https://kafka.apache.org/documentation/#recordheader
      - id: len_value
        type: zigzag_varint(32)
        doc: |
          Length of the value in bytes, or -1 for a null value. Any negative
          length means null, as the Java client reads it, and is kept.
        doc-ref: https://kafka.apache.org/documentation/#recordheader
        -lc-size-of: value
        -lc-absent: -1
      - id: value
        size: len_value.value
        if: len_value.value >= 0
        doc: The header value, opaque bytes.
        doc-ref: https://kafka.apache.org/documentation/#recordheader
  control_record_key:
    doc: Key of a control record (a transaction marker).
    doc-ref: https://kafka.apache.org/documentation/#controlbatch
    seq:
      - id: version
        type: s2
        doc: Version of the key schema; 0 so far.
        doc-ref: https://kafka.apache.org/documentation/#controlbatch
      - id: type
        type: s2
        enum: control_type
        doc: Which marker this is.
        doc-ref: https://kafka.apache.org/documentation/#controlbatch
  control_record_value:
    doc: Value of a transaction marker, as written by the transaction coordinator.
    doc-ref: https://kafka.apache.org/documentation/#controlbatch
    seq:
      - id: version
        type: s2
        doc: Version of the value schema; 0 so far.
        doc-ref: https://kafka.apache.org/documentation/#controlbatch
      - id: coordinator_epoch
        type: s4
        doc: Epoch of the transaction coordinator that wrote the marker.
        doc-ref: https://kafka.apache.org/documentation/#controlbatch
enums:
  compression:
    0: none
    1: gzip
    2: snappy
    3: lz4
    4: zstd
  timestamp_type:
    0: create_time
    1: log_append_time
  control_type:
    0: abort
    1: commit
