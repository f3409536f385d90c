"""Independent codecs of Kafka's legacy message sets (magic 0 and 1) behind one neutral form:
a list of (offset, timestamp, timestamp type, key, value) per message set, wrappers opened.

* ``kafka-python`` 3.0.12: ``kafka.record.legacy_records.LegacyRecordBatch`` /
  ``LegacyRecordBatchBuilder`` (magic-0 lz4 needs the ``xxhash`` package).
* ``aiokafka-c`` 0.14.0: ``aiokafka.record._crecords.legacy_records`` (the Cython extension).
* ``aiokafka-py`` 0.14.0: ``aiokafka.record.legacy_records._LegacyRecordBatchPy`` /
  ``_LegacyRecordBatchBuilderPy``.

Each library's batch class reads one message (a wrapper or a plain message); a message set
is split into its entries here (offset, size, message), the magic read from byte 16.

Neutral form: a magic-1 timestamp of -1 ("no timestamp", which the libraries report as None
with no type) is -1 with type None; magic 0 has neither.

Library limits: aiokafka (both) refuses to write or read magic-0 lz4 ("not supported for
broker version 0.8/0.9"); kafka-python writes it (with the KAFKA-3160 header checksum) when the
``xxhash`` package is installed.
"""

import struct

from aiokafka.record.legacy_records import _LegacyRecordBatchBuilderPy, _LegacyRecordBatchPy
from kafka.record.legacy_records import LegacyRecordBatch as KafkaPythonBatch
from kafka.record.legacy_records import LegacyRecordBatchBuilder as KafkaPythonBuilder

try:
    from aiokafka.record._crecords.legacy_records import LegacyRecordBatch as AiokafkaCBatch
    from aiokafka.record._crecords.legacy_records import LegacyRecordBatchBuilder as AiokafkaCBuilder
except ImportError:  # pragma: no cover - the wheel ships the extension
    AiokafkaCBatch = AiokafkaCBuilder = None


def entries(data: bytes):
    pos = 0
    while pos < len(data):
        (size,) = struct.unpack_from(">i", data, pos + 8)
        yield data[pos:pos + 12 + size]
        pos += 12 + size


def _decode(batch_cls, data: bytes) -> list[tuple]:
    out = []
    for entry in entries(data):
        for r in batch_cls(bytearray(entry), entry[16]):
            value = None if r.value is None else bytes(r.value)
            key = None if r.key is None else bytes(r.key)
            timestamp, ts_type = r.timestamp, r.timestamp_type
            if entry[16] == 0:
                timestamp = ts_type = None
            elif timestamp is None or timestamp == -1:
                timestamp, ts_type = -1, None
            out.append((r.offset, timestamp, ts_type, key, value))
    return out


def _build(builder_cls, magic: int, codec: int, records) -> bytes:
    """records: (offset, timestamp, key, value); the builder writes a wrapper when codec != 0."""
    b = builder_cls(magic, codec, 1 << 24)
    for offset, timestamp, key, value in records:
        b.append(offset, timestamp=timestamp if magic else None, key=key, value=value)
    return bytes(b.build())


#: (library, magic, codec) that a library refuses to write or to read.
UNSUPPORTED = {("aiokafka-py", 0, 3), ("aiokafka-c", 0, 3)}

LIBRARIES = {
    "kafka-python": (lambda d: _decode(KafkaPythonBatch, d), lambda *a: _build(KafkaPythonBuilder, *a)),
    "aiokafka-py": (lambda d: _decode(_LegacyRecordBatchPy, d), lambda *a: _build(_LegacyRecordBatchBuilderPy, *a)),
}
if AiokafkaCBatch is not None:
    LIBRARIES["aiokafka-c"] = (lambda d: _decode(AiokafkaCBatch, d), lambda *a: _build(AiokafkaCBuilder, *a))
