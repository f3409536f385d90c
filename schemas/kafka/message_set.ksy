meta:
  id: message_set
  title: Apache Kafka legacy message set (magic 0 and 1)
  application: Apache Kafka before 0.11, and every broker since for old clients
  file-extension: log
  license: CC0-1.0
  ks-version: "0.11"
  -lc-fills-input: true
  endian: be
  bit-endian: be
doc: |
  The record format of Kafka before 0.11: messages one after the other, each
  with its offset, its size and a CRC-32 (IEEE) over the rest. Magic 0 has no
  timestamp; magic 1 adds one and its type. To compress, a wrapper message holds
  a whole message set, compressed, as its value; its own offset is that of the
  last inner message. In magic 1 the inner offsets are relative: absolute =
  wrapper offset - last inner offset + inner offset (`inner_offset_base`), which
  the Java client applies only when that base is not negative. Only one level of
  compression is allowed, as in the Java client and kafka-python: an inner
  message that is compressed again is invalid. Codecs are gzip, snappy (xerial
  framing or raw, as producers write either) and lz4; magic-0 lz4 frames carry
  the KAFKA-3160 header checksum (over the magic too), which is accepted there
  and written as Java writes it. zstd needs magic 2.
doc-ref: https://kafka.apache.org/documentation/#messageset
params:
  - id: depth
    type: u1
    doc: How many compressed wrappers enclose this message set (0 for the outermost).
    -lc-default: 0
  - id: wrapper_offset
    type: s8
    doc: The enclosing wrapper message's offset (that of its last inner message); -1 at the top.
    -lc-default: -1
  - id: wrapper_magic
    type: s1
    doc: The enclosing wrapper message's magic; -1 at the top.
    -lc-default: -1
seq:
  - id: entries
    type: entry(depth)
    repeat: eos
    doc: The messages, each after its offset and size.
    doc-ref: https://kafka.apache.org/documentation/#messageset
instances:
  inner_offset_base:
    value: 'wrapper_magic == 1 and entries.size > 0 and wrapper_offset - entries.last.offset >= 0 ? wrapper_offset - entries.last.offset : 0'
    doc: |
      What to add to the offsets of this message set's entries to make them
      absolute: the wrapper offset minus the last inner offset inside a magic-1
      wrapper (when not negative, as the Java client does), else 0.
types:
  entry:
    doc: One message with its offset and size.
    params:
      - id: depth
        type: u1
        doc: How many compressed wrappers enclose this message.
    seq:
      - id: offset
        type: s8
        doc: |
          The message's offset; inside a magic-1 wrapper, relative to the
          wrapper (see inner_offset_base).
        doc-ref: https://kafka.apache.org/documentation/#messageset
      - id: len_message
        type: s4
        doc: Size of the message in bytes.
        doc-ref: https://kafka.apache.org/documentation/#messageset
        -lc-size-of: message
      - id: message
        size: len_message
        type: message(depth, offset)
        doc: The message.
        doc-ref: https://kafka.apache.org/documentation/#messageset
  message:
    doc: A message of magic 0 or 1.
    params:
      - id: depth
        type: u1
        doc: How many compressed wrappers enclose this message.
      - id: offset
        type: s8
        doc: The message's offset, passed to the message set its value may hold.
    seq:
      - id: crc
        type: u4
        doc: CRC-32 (IEEE) of the message from the magic byte to its end.
        doc-ref: https://kafka.apache.org/documentation/#messageset
        -lc-checksum:
          algorithm: crc32
          from: magic
      - id: magic
        type: s1
        valid:
          any-of: [0, 1]
        doc: Format version, 0 or 1.
        doc-ref: https://kafka.apache.org/documentation/#messageset
      - id: attributes
        type: attributes(depth)
        doc: Codec and timestamp type.
        doc-ref: https://kafka.apache.org/documentation/#messageset
      - id: timestamp
        type: s8
        if: magic == 1
        doc: Milliseconds since the epoch (magic 1 only); its meaning follows the timestamp type.
        doc-ref: https://kafka.apache.org/documentation/#messageset
      - id: len_key
        type: s4
        valid:
          min: -1
        doc: Length of the key; -1 for a null key.
        doc-ref: https://kafka.apache.org/documentation/#messageset
        -lc-size-of: key
        -lc-absent: -1
      - id: key
        size: len_key
        if: len_key >= 0
        doc: The key; null when the length is -1 (a compressed wrapper's key is null).
        doc-ref: https://kafka.apache.org/documentation/#messageset
      - id: len_value
        type: s4
        valid:
          min: -1
        doc: Length of the stored value; -1 for a null value.
        doc-ref: https://kafka.apache.org/documentation/#messageset
        -lc-size-of: value
        -lc-absent: -1
      - id: value
        size: len_value
        if: len_value >= 0
        process: kafka_legacy_compression(magic, attributes.compression.to_i)
        type:
          switch-on: attributes.compression
          cases:
            compression::gzip: message_set(depth + 1, offset, magic)
            compression::snappy: message_set(depth + 1, offset, magic)
            compression::lz4: message_set(depth + 1, offset, magic)
        doc: |
          The value: bytes, or for a compressed wrapper the inner message set,
          compressed with the codec of the attributes.
        doc-ref: https://kafka.apache.org/documentation/#messageset
  attributes:
    doc: The 8-bit attributes of a message, most significant bit first.
    doc-ref: https://kafka.apache.org/documentation/#messageset
    params:
      - id: depth
        type: u1
        doc: How many compressed wrappers enclose the message.
    seq:
      - id: reserved
        type: b4
        doc: Bits 7 to 4, unused (0).
        doc-ref: https://kafka.apache.org/documentation/#messageset
      - id: timestamp_type
        type: b1
        enum: timestamp_type
        doc: Bit 3 (magic 1), create time or log-append time.
        doc-ref: https://kafka.apache.org/documentation/#messageset
      - id: compression
        type: b3
        enum: compression
        valid:
          expr: depth == 0 or _ == compression::none
        doc: Bits 2 to 0, the codec of the value; inner messages of a wrapper are never compressed.
        doc-ref: https://kafka.apache.org/documentation/#messageset
enums:
  compression:
    0: none
    1: gzip
    2: snappy
    3: lz4
  timestamp_type:
    0: create_time
    1: log_append_time
