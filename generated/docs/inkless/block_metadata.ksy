meta:
  id: block_metadata
  title: Inkless batch block metadata (logcodec binary encoding)
  application: logcodec (the Inkless batch block design)
  file-extension: ikbm
  license: CC0-1.0
  ks-version: "0.11"
  -lc-fills-input: true
  endian: be
  bit-endian: be
doc: |
  The metadata of one batch block (`inkless.batch_block`): a block header, then
  for each topic partition with batches in the block, where each of its batches
  lies in the block and how many records it holds. The Inkless design decision
  names these fields and shows them as a YAML document, but fixes no bytes: this
  binary encoding is logcodec's, and `logcodec.inkless` converts it to and from
  that document form (YAML or JSON) without loss.

  The encoding follows Kafka's own protocol types:
  - integers are big-endian, of Java's widths (`int` 32 bits, `long` 64 bits,
    both signed);
  - a UUID is its 16 bytes, most significant first (Kafka's `UUID` type);
  - a string is a signed 16-bit byte length, then that many bytes of UTF-8
    (Kafka's `STRING`; there is no null string, so a negative length is wrong);
  - a list is a signed 32-bit count, then the elements (Kafka's `ARRAY`, never
    null);
  - a file starts with the magic bytes "IKBM" and a version byte (1), so that
    metadata is recognised as such and a later version may change the layout.

  One deliberate widening of the seed: a batch's `byte_offset` is 64 bits (the
  seed says `int`), so that a block may pass 2 GiB; a batch's `size` stays 32
  bits, like a Kafka batch length. Topic partitions and batches are kept in the
  order written. Whether the batches lie inside the block, do not overlap and
  hold the records counted is checked against the block, not by this encoding.
doc-ref:
  - https://kafka.apache.org/protocol#protocol_types
  - https://github.com/aiven/inkless/blob/main/docs/inkless/ARCHITECTURE.md
seq:
  - id: magic
    contents: IKBM
    doc: The magic bytes "IKBM" (49 4b 42 4d) that start every metadata file.
    doc-ref: https://kafka.apache.org/protocol#protocol_types
  - id: version
    type: u1
    valid: 1
    doc: Version of this encoding; 1 is the only one so far.
    doc-ref: https://kafka.apache.org/protocol#protocol_types
    -lc-default: 1
  - id: block_header
    type: block_header
    doc: What the block is, who wrote it and where it is stored.
    doc-ref: https://github.com/aiven/inkless/blob/main/docs/inkless/ARCHITECTURE.md
  - id: num_topic_partitions
    type: s4
    doc: Number of topic partitions that follow; a negative count is wrong.
    doc-ref: https://kafka.apache.org/protocol#protocol_types
    -lc-count-of: topic_partitions
  - id: topic_partitions
    type: topic_partition
    repeat: expr
    repeat-expr: num_topic_partitions
    doc: |
      The topic partitions with batches in the block, in the order written
      (Inkless sorts them by topic id, then partition); none in an empty block.
    doc-ref: https://github.com/aiven/inkless/blob/main/docs/inkless/ARCHITECTURE.md
types:
  block_header:
    doc: The seed's `block_header` (id, broker, eventTimestamp, path, flags).
    doc-ref: https://github.com/aiven/inkless/blob/main/docs/inkless/ARCHITECTURE.md
    seq:
      - id: id
        size: 16
        doc: |
          The block's UUID, most significant byte first; the document form writes
          it as 8-4-4-4-12 hex digits.
        doc-ref: https://www.rfc-editor.org/rfc/rfc9562
      - id: broker
        type: s4
        doc: Id of the broker that produced the block (its `node.id`).
        doc-ref: https://kafka.apache.org/documentation/#brokerconfigs_node.id
      - id: event_timestamp
        type: s8
        doc: |
          When the block was made, in milliseconds since the Unix epoch (the
          document form's `eventTimestamp`).
        doc-ref: https://github.com/aiven/inkless/blob/main/docs/inkless/ARCHITECTURE.md
      - id: len_path
        type: s2
        doc: Length of `path` in bytes; negative is wrong (there is no null path).
        doc-ref: https://kafka.apache.org/protocol#protocol_types
        -lc-size-of: path
      - id: path
        type: str
        size: len_path
        encoding: UTF-8
        doc: Where the block is stored (its object key), UTF-8 text.
        doc-ref: https://github.com/aiven/inkless/blob/main/docs/inkless/ARCHITECTURE.md
      - id: flags
        type: block_flags
        doc: How the block object as a whole is stored (a 32-bit `int` of flags).
        doc-ref: https://github.com/aiven/inkless/blob/main/docs/inkless/ARCHITECTURE.md
  block_flags:
    doc: |
      The 32 flag bits of a block, most significant first: bit 0 says that the
      object is compressed as a whole, bit 1 that it is encrypted. The other bits
      are kept as written, so that a later writer's flags survive a round trip;
      the document form writes all 32 as one signed `int`.
    doc-ref: https://github.com/aiven/inkless/blob/main/docs/inkless/ARCHITECTURE.md
    seq:
      - id: reserved
        type: b30
        doc: Bits 31 to 2, unused so far; zero in every block logcodec writes.
        doc-ref: https://github.com/aiven/inkless/blob/main/docs/inkless/ARCHITECTURE.md
        -lc-default: 0
      - id: encrypted
        type: b1
        doc: Bit 1, set when the block object is encrypted as a whole.
        doc-ref: https://github.com/aiven/inkless/blob/main/docs/inkless/ARCHITECTURE.md
        -lc-default: false
      - id: compressed
        type: b1
        doc: Bit 0, set when the block object is compressed as a whole.
        doc-ref: https://github.com/aiven/inkless/blob/main/docs/inkless/ARCHITECTURE.md
        -lc-default: false
  topic_partition:
    doc: The seed's `topic_partition`, with its batches in the block.
    doc-ref: https://github.com/aiven/inkless/blob/main/docs/inkless/ARCHITECTURE.md
    seq:
      - id: id
        size: 16
        doc: The topic's id (a Kafka topic UUID), most significant byte first.
        doc-ref: https://cwiki.apache.org/confluence/display/KAFKA/KIP-516%3A+Topic+Identifiers
      - id: len_name
        type: s2
        doc: Length of `name` in bytes; negative is wrong (there is no null name).
        doc-ref: https://kafka.apache.org/protocol#protocol_types
        -lc-size-of: name
      - id: name
        type: str
        size: len_name
        encoding: UTF-8
        doc: The topic's name, UTF-8 text.
        doc-ref: https://kafka.apache.org/documentation/#topicconfigs
      - id: partition
        type: s4
        valid:
          min: 0
        doc: The partition number; partitions count from 0, so negative is wrong.
        doc-ref: https://kafka.apache.org/documentation/#intro_concepts_and_terms
      - id: num_batches
        type: s4
        doc: Number of batches that follow; a negative count is wrong.
        doc-ref: https://kafka.apache.org/protocol#protocol_types
        -lc-count-of: batches
      - id: batches
        type: batch
        repeat: expr
        repeat-expr: num_batches
        doc: The partition's batches in the block, in offset order.
        doc-ref: https://github.com/aiven/inkless/blob/main/docs/inkless/ARCHITECTURE.md
  batch:
    doc: The seed's `batch`, where one record batch lies in the block.
    doc-ref: https://github.com/aiven/inkless/blob/main/docs/inkless/ARCHITECTURE.md
    seq:
      - id: byte_offset
        type: s8
        valid:
          min: 0
        doc: |
          Offset in the block of the batch's first byte; never negative (64 bits,
          so that a block may pass 2 GiB).
        doc-ref: https://github.com/aiven/inkless/blob/main/docs/inkless/ARCHITECTURE.md
      - id: size
        type: s4
        valid:
          min: 61
        doc: |
          Size of the whole batch in bytes. A v2 batch with no records takes 61
          bytes (12 of offset and length, 49 of header), so less cannot be right.
        doc-ref: https://kafka.apache.org/documentation/#recordbatch
      - id: number_of_records
        type: s4
        valid:
          min: 0
        doc: |
          Number of records in the batch; never negative (a batch emptied by
          compaction holds none).
        doc-ref: https://kafka.apache.org/documentation/#recordbatch
