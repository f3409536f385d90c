"""logcodec: codecs, golden vectors and conformance tests for log-structured message formats.

    >>> import logcodec
    >>> logcodec.formats()                                            # doctest: +SKIP
    ['kafka.record_batch_v2', 'tank.bundle', 'tank.request', 'tank.response', ...]
    >>> batch = logcodec.decode("kafka.record_batch_v2", data)      # doctest: +SKIP
    >>> logcodec.encode("kafka.record_batch_v2", batch) == data      # doctest: +SKIP

Fields the encoder derives (lengths, counts, checksums) are computed when left
None; a value that carries them (every decoded value does) must carry the right
ones. After changing a decoded value, `strip_derived(value)` clears them.

Every format's module (`codec(name)`) has the same reads, `decode`, `decode_prefix`,
`decode_stream`, `decode_iter`, `decode_columns` and `decode_part`, with the same keywords
(`limits`, `tuples`, the root's parameters; `lazy` for the first three); one a format cannot
offer raises `UnsupportedRead`. A Kafka batch's records are read when a loop reaches them (a
`LazyList`); `decode(..., lazy=False)` reads and checks every one before it returns.

Every decoder raises only `DecodeError` (every encoder only `EncodeError`), with a
`kind` from `KINDS`, the byte `offset` and the field `path`.

A format's helpers beyond its codec are in its package: `logcodec.kafka` (records as a client
sees them), `logcodec.tank` (Produce pairing, partition directories), `logcodec.inkless` (blocks,
their metadata in both forms, validation).
"""

from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as _package_version

from logcodec._api import (
    FORMAT_PACKAGES,
    codec,
    decode,
    decode_stream,
    encode,
    formats,
    to_json,
    value_from_json,
)
from logcodec.runtime.errors import KINDS, DecodeError, EncodeError, LogcodecError, UnsupportedRead
from logcodec.runtime.lazy import LazyList
from logcodec.runtime.limits import DEFAULT_LIMITS, Limits
from logcodec.runtime.stream import Stream
from logcodec.runtime.values import without_derived as strip_derived

try:  # one place for the version: the package's metadata (pyproject.toml)
    __version__ = _package_version("logcodec")
except PackageNotFoundError:  # imported from a source tree that was never installed
    __version__ = "0+unknown"

__all__ = [
    "formats", "codec", "decode", "decode_stream", "encode", "to_json", "value_from_json", "strip_derived",
    "DecodeError", "EncodeError", "LogcodecError", "UnsupportedRead", "KINDS", "Limits", "DEFAULT_LIMITS", "Stream",
    "LazyList",
]

# What a format needs beyond its codecs lives in its package (`logcodec.kafka`, `logcodec.tank`, `logcodec.net`,
# `logcodec.inkless`), imported on first use: `logcodec.kafka.kafka_records(...)` after `import logcodec`.


def __getattr__(name: str):
    if name in FORMAT_PACKAGES:
        import importlib

        return importlib.import_module(f"logcodec.{name}")
    raise AttributeError(f"module 'logcodec' has no attribute {name!r}")
