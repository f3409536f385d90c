"""Kafka's compression codecs by id: the codec tables that the Kafka schemas' `process:` names
(`kafka_compression(attributes.compression.to_i)`), found through `logcodec.processors`."""

from __future__ import annotations

from functools import partial

from logcodec.runtime.compression import (
          ByVersion,
          CodecTable,
          gzip_compress,
          gzip_decompress,
          lz4_compress,
          lz4_decompress,
          snappy_compress,
          snappy_decompress,
          zstd_compress,
          zstd_decompress,
)

_KAFKA = {0: None, 1: (gzip_decompress, gzip_compress), 2: (snappy_decompress, snappy_compress),
          3: (lz4_decompress, lz4_compress), 4: (zstd_decompress, zstd_compress)}
#: Kafka record batches (v2) and v1 message sets: attributes bits 0-2.
kafka_compression = CodecTable("kafka", _KAFKA)
# zstd came with magic 2 (KIP-110): Java refuses it in magic 0 and 1 message sets.
_KAFKA_LEGACY = {codec: entry for codec, entry in _KAFKA.items() if codec != 4}
#: Kafka magic-1 message sets.
kafka_v1_compression = CodecTable("kafka_v1", _KAFKA_LEGACY)
#: Kafka magic-0 message sets: lz4 with the KAFKA-3160 header checksum, as Java writes it.
kafka_v0_compression = CodecTable("kafka_v0", {**_KAFKA_LEGACY, 3: (partial(lz4_decompress, broken_header_checksum=True),
                                                                    partial(lz4_compress, broken_header_checksum=True))})
#: Kafka legacy message sets, by magic (0 or 1) and attributes bits 0-2.
kafka_legacy_compression = ByVersion("kafka_legacy", {0: kafka_v0_compression, 1: kafka_v1_compression})

#: The processors the Kafka schemas may name.
__all__ = ["kafka_compression", "kafka_v0_compression", "kafka_v1_compression", "kafka_legacy_compression"]
