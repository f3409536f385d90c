meta:
  id: batch_block
  title: Inkless batch block (an object of Kafka v2 record batches)
  application: Inkless (diskless Apache Kafka topics, KIP-1150)
  license: CC0-1.0
  ks-version: "0.11"
  -lc-fills-input: true
  endian: be
  imports:
    - ../kafka/record_batch_v2
doc: |
  The object an Inkless broker uploads to remote storage: the record batches of
  many topic partitions, produced by one broker within one commit interval (250
  ms by default) up to a size limit (8 MiB by default), laid end to end. The
  object has no header, footer, magic number, object checksum, compression or
  encryption of its own: each batch is a complete Kafka record batch (magic v2)
  with its own CRC-32C and its own compression. An empty object is valid.

  An object does not describe itself. A v2 batch names no topic and no
  partition, so which batch belongs to which partition, and where each one
  starts, is kept apart in the block's metadata (`inkless.block_metadata`): a
  reader needs both. A block whose metadata flags it as compressed or encrypted
  as a whole is this format only once decompressed or decrypted; the seed names
  those flags but no algorithm for them.

  The offsets and leader epochs in the batches are not final: Inkless writes
  each (produce request, partition) from offset 0 with epoch 0, and assigns the
  real offsets when the block is committed (`base_offset` lies outside the CRC,
  so a reader patches it in).
doc-ref:
  - https://github.com/aiven/inkless/blob/main/docs/inkless/ARCHITECTURE.md
  - https://cwiki.apache.org/confluence/display/KAFKA/KIP-1150%3A+Diskless+Topics
seq:
  - id: batches
    type: record_batch_v2
    repeat: eos
    doc: |
      The record batches in the order written: grouped by topic partition (by
      topic id, then partition) and, within a partition, in offset order. Each
      starts where the one before ends; a batch's `byte_offset` and `size` in
      the metadata point at exactly one of them.
    doc-ref: https://kafka.apache.org/documentation/#recordbatch
