"""TANK's compression codecs by id: the codec table that the bundle schema's `process:` names
(`tank_compression(codec.to_i)`), found through `logcodec.processors`."""

from __future__ import annotations

from logcodec.runtime.compression import (
    CodecTable,
    snappy_compress_raw,
    snappy_decompress_raw,
)

#: TANK bundles: flags bits 0-1. TANK reads and writes raw snappy only, no xerial framing.
tank_compression = CodecTable("tank", {0: None, 1: (snappy_decompress_raw, snappy_compress_raw)})

#: The processors the TANK schemas may name.
__all__ = ["tank_compression"]
