"""Independent Kafka RecordBatch v2 codecs (kafka-python, aiokafka C and pure Python)
behind one neutral, JSON-like representation, for differential tests of our codec.

Implementations (only the libraries' own record classes are used):

* ``kafka-python`` 3.0.12: ``kafka.record.memory_records.MemoryRecords`` (framing),
  ``kafka.record.default_records.DefaultRecordBatch`` / ``DefaultRecordBatchBuilder``.
* ``aiokafka-c`` 0.14.0 (Cython extension, imported directly so AIOKAFKA_NO_EXTENSIONS
  cannot swap it): ``aiokafka.record._crecords.memory_records.MemoryRecords``,
  ``aiokafka.record._crecords.default_records.DefaultRecordBatch`` /
  ``DefaultRecordBatchBuilder`` (= ``aiokafka.record.default_records._DefaultRecordBatchCython``
  / ``_DefaultRecordBatchBuilderCython``).
* ``aiokafka-py`` 0.14.0: ``aiokafka.record.default_records._DefaultRecordBatchPy`` /
  ``_DefaultRecordBatchBuilderPy``.  ``_MemoryRecordsPy`` is NOT used: it instantiates the
  module-global ``DefaultRecordBatch``, i.e. the Cython class whenever the extension loads.

Neutral fields a library does not expose (reported as None):

* kafka-python: none (``partition_leader_epoch`` is ``DefaultRecordBatch.leader_epoch``).
* aiokafka-c, aiokafka-py: ``partition_leader_epoch`` (no accessor on either batch class).

Build limitations (identical for all three builders):

* base offset: the builders always write 0 ("set by broker"); the adapters write
  ``spec["base_offset"]`` into bytes 0-7 afterwards, which is outside the CRC, exactly as a
  broker does.  (kafka-python's ``MemoryRecordsBuilder(offset=N)`` does NOT set it: N is
  added to every offset *delta* and the base offset stays 0.)
* timestamp type and control bit: never set by a client builder ("set by broker");
  ``timestamp_type=1`` raises NotImplementedError.
* partition leader epoch: kafka-python writes 0, aiokafka (both) writes -1.
* a codec is silently dropped (attributes say "none") when compressing does not shrink
  the records, e.g. for an empty or tiny batch.
* ``last_offset_delta`` is the offset delta of the LAST appended record (not the max).

Library bugs/differences found (each pinned by a strict xfail in the self-check):

* aiokafka-c builder: uses ``first_timestamp == -1`` as "no record yet", so a first record
  with timestamp -1 is lost as the base (record 0 decodes with record 1's timestamp).
* aiokafka-c builder: never falls back to uncompressed; empty batches get first/max
  timestamp -1 (Python builders: 0); an empty snappy batch is a bare 16-byte xerial header
  that no decoder here can read (xerial detection needs len > 16).
* aiokafka-c builder: offset deltas >= 2**31 are accepted and last_offset_delta wraps
  (Python builders raise struct.error); no decoder checks offset deltas against int32.
* kafka-python builder: set_producer_state asserts (transactional needs a producer id; a
  producer id needs epoch and sequence); aiokafka accepts any combination.
* kafka-python decoder: parses every control-batch key as int16+int16; a malformed key
  lets ``struct.error`` escape, aiokafka decoders return the raw record.
"""
import struct

import aiokafka.codec
import kafka.codec
from aiokafka.record.default_records import _DefaultRecordBatchBuilderPy, _DefaultRecordBatchPy
from kafka.record.default_records import DefaultRecordBatchBuilder as KafkaPythonBuilder
from kafka.record.memory_records import MemoryRecords as KafkaPythonMemoryRecords

try:  # the compiled extension, not whatever aiokafka.record.default_records fell back to
    from aiokafka.record._crecords.default_records import DefaultRecordBatch as AiokafkaCBatch
    from aiokafka.record._crecords.default_records import DefaultRecordBatchBuilder as AiokafkaCBuilder
    from aiokafka.record._crecords.memory_records import MemoryRecords as AiokafkaCMemoryRecords
    AIOKAFKA_C_IMPORT_ERROR = None
except ImportError as exc:  # pragma: no cover - reported by the self-check
    AIOKAFKA_C_IMPORT_ERROR = repr(exc)

CODEC_IDS = {"none": 0, "gzip": 1, "snappy": 2, "lz4": 3, "zstd": 4}
CODEC_NAMES = {v: k for k, v in CODEC_IDS.items()}
ALL_CODECS = tuple(CODEC_IDS)

BUILD_WITH_HEADER_QUIRKS = {
    # Verified in test_kafka_libs_selfcheck.py (test_header_*).  None of the three builders
    # or decoders reorders headers, merges/drops duplicate keys, drops null or empty
    # header values, or refuses an empty header key / empty record key.
    "kafka-python": "header value may be bytes, bytearray or memoryview; headers may be any "
                    "sequence; bytes header key -> AttributeError (must be str)",
    "aiokafka-py": "same as kafka-python",
    "aiokafka-c": "header value must be exactly bytes (bytearray/memoryview -> TypeError), "
                  "headers must be a list (tuple -> TypeError); bytes header key -> TypeError",
}


# ---------------------------------------------------------------- decoding

def _frames(data):
    """Strict framing: yield each batch slice; reject truncation and non-v2 batches."""
    pos, view = 0, memoryview(data)
    while pos < len(data):
        if len(data) - pos < 17:
            raise ValueError(f"truncated batch header at byte {pos}")
        (length,) = struct.unpack_from(">i", data, pos + 8)
        end = pos + 12 + length
        if length < 0 or end > len(data):
            raise ValueError(f"batch at byte {pos} claims {length} bytes, buffer too short")
        if data[pos + 16] != 2:
            raise ValueError(f"batch at byte {pos} has magic {data[pos + 16]}, not 2")
        yield view[pos:end]
        pos = end


def _via_memory_records(memory_records_cls, data):
    """Use the library's own MemoryRecords iterator, cross-checked against strict framing."""
    expected = sum(1 for _ in _frames(data))
    records, batches = memory_records_cls(data), []
    while records.has_next():
        batches.append(records.next_batch())
    if len(batches) != expected:
        raise ValueError(f"MemoryRecords yielded {len(batches)} batches, framing says {expected}")
    return batches


def _to_neutral(batch, leader_epoch):
    if batch.magic != 2:
        raise ValueError(f"magic {batch.magic}")
    if not batch.validate_crc():  # must precede iteration (decompression)
        raise ValueError(f"CRC mismatch in batch at base offset {batch.base_offset}")
    neutral = {
        "base_offset": batch.base_offset, "partition_leader_epoch": leader_epoch,
        "magic": batch.magic, "crc": batch.crc,
        "compression": CODEC_NAMES[batch.compression_type],
        "timestamp_type": batch.timestamp_type,
        "is_transactional": bool(batch.is_transactional), "is_control": bool(batch.is_control_batch),
        "last_offset_delta": batch.last_offset_delta,
        "base_timestamp": batch.first_timestamp, "max_timestamp": batch.max_timestamp,
        "producer_id": batch.producer_id, "producer_epoch": batch.producer_epoch,
        "base_sequence": batch.base_sequence,
    }
    neutral["records"] = [
        {"offset": r.offset, "timestamp": r.timestamp, "key": r.key, "value": r.value,
         "headers": [[k, v] for k, v in r.headers]}
        for r in batch
    ]
    return neutral


def decode_kafka_python(data):
    return [_to_neutral(b, b.leader_epoch) for b in _via_memory_records(KafkaPythonMemoryRecords, bytes(data))]


def decode_aiokafka_c(data):
    if AIOKAFKA_C_IMPORT_ERROR:
        raise RuntimeError(f"aiokafka C extension unavailable: {AIOKAFKA_C_IMPORT_ERROR}")
    batches = _via_memory_records(AiokafkaCMemoryRecords, bytes(data))
    assert all(type(b) is AiokafkaCBatch for b in batches)
    return [_to_neutral(b, None) for b in batches]


def decode_aiokafka_py(data):
    return [_to_neutral(_DefaultRecordBatchPy(f), None) for f in _frames(bytes(data))]


# ---------------------------------------------------------------- building

def _build(builder_cls, spec, set_producer_state):
    if spec.get("timestamp_type", 0) != 0:
        raise NotImplementedError("client builders cannot set the timestamp type (broker-set)")
    builder = builder_cls(2, CODEC_IDS[spec["compression"]], int(spec.get("is_transactional", False)),
                          -1, -1, -1, 2**31 - 1)
    set_producer_state(builder, spec.get("producer_id", -1), spec.get("producer_epoch", -1),
                       spec.get("base_sequence", -1), bool(spec.get("is_transactional", False)))
    for r in spec["records"]:
        headers = [(k, v) for k, v in r.get("headers", [])]
        if builder.append(r["offset"], r["timestamp"], r["key"], r["value"], headers) is None:
            raise ValueError("builder refused the record (batch full)")
    buf = bytearray(builder.build())
    struct.pack_into(">q", buf, 0, spec.get("base_offset", 0))  # outside the CRC
    return bytes(buf)


def build_kafka_python(spec):
    # set_producer_state(pid, epoch, seq, is_transactional) asserts: transactional needs
    # pid != -1; pid != -1 needs epoch != -1 and seq != -1.
    return _build(KafkaPythonBuilder, spec, lambda b, pid, ep, seq, tx: b.set_producer_state(pid, ep, seq, tx))


def build_aiokafka_c(spec):
    if AIOKAFKA_C_IMPORT_ERROR:
        raise RuntimeError(f"aiokafka C extension unavailable: {AIOKAFKA_C_IMPORT_ERROR}")
    return _build(AiokafkaCBuilder, spec, lambda b, pid, ep, seq, tx: b.set_producer_state(pid, ep, seq))


def build_aiokafka_py(spec):
    return _build(_DefaultRecordBatchBuilderPy, spec, lambda b, pid, ep, seq, tx: b.set_producer_state(pid, ep, seq))


LIBRARIES = {"kafka-python": (decode_kafka_python, build_kafka_python)}
if not AIOKAFKA_C_IMPORT_ERROR:
    LIBRARIES["aiokafka-c"] = (decode_aiokafka_c, build_aiokafka_c)
LIBRARIES["aiokafka-py"] = (decode_aiokafka_py, build_aiokafka_py)


# ---------------------------------------------------------------- codec availability

def _codec_works(decode, build, codec):
    """Round trip a compressible record; True only if the batch really is compressed."""
    if codec == "none":
        return True
    value = b"logcodec " * 64
    spec = {"compression": codec, "records": [{"offset": 0, "timestamp": 1, "key": None, "value": value}]}
    try:
        (batch,) = decode(build(spec))
    except Exception:
        return False
    return batch["compression"] == codec and batch["records"][0]["value"] == value


CODECS = {name: frozenset(c for c in ALL_CODECS if _codec_works(dec, bld, c))
          for name, (dec, bld) in LIBRARIES.items()}
# Backends: kafka-python uses gzip (stdlib), python-snappy, lz4.frame, zstandard;
# aiokafka (C and Python alike) uses gzip (stdlib) and cramjam for snappy/lz4/zstd.
CODEC_BACKENDS = {
    "kafka-python": {"gzip": kafka.codec.has_gzip(), "snappy": kafka.codec.has_snappy(),
                     "lz4": kafka.codec.has_lz4(), "zstd": kafka.codec.has_zstd()},
    "aiokafka": {"gzip": aiokafka.codec.has_gzip(), "snappy": aiokafka.codec.has_snappy(),
                 "lz4": aiokafka.codec.has_lz4(), "zstd": aiokafka.codec.has_zstd()},
}
