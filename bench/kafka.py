"""Kafka RecordBatch v2: decode and encode throughput of logcodec against other implementations.

``python -m bench kafka [--quick] [--pure] [--only decode|encode] [--json FILE]`` (see bench/README.md).

Implementations, each called directly (no adapter or conversion in the timed region):

* ``logcodec``      generated/kafka/record_batch_v2.py: ``decode`` / ``decode_stream`` / ``encode``, as they
                    read without options: each batch's records read as the loop reaches them; encode
                    takes value objects built once, outside the timed region (decode's output is the
                    value model and encode's input is the value model, as in protobuf's serialize
                    benchmarks). Whichever build the module uses: the compiled (mypyc) one when
                    ``logcodec accelerate`` made it, pure Python otherwise or with ``--pure``.
* ``logcodec+tuples`` (decode only) ``decode(bytes, tuples=True)``, read as ``logcodec``: each record
                    (and header) in its tuple form, as ``build`` takes it, with no object for each.
* ``logcodec+iter`` (decode only) ``decode_iter(bytes, tuples=True)``: the batch's header fields, then
                    its records in their tuple form one at a time, decoded as the loop reaches them
                    (the shape of the libraries' batch iterators, which also hand out one record
                    at a time); ``decode_stream(bytes, iterate=True, tuples=True)`` for the multi-batch buffer.
* ``logcodec+build`` (encode only) the producer API: ``build(...)`` with each record in its tuple
                    form, made from the same tuples the libraries append: the cost for a caller
                    who starts from plain tuples.
* ``kafka-python``  ``kafka.record.default_records.DefaultRecordBatch`` / ``DefaultRecordBatchBuilder``,
                    ``kafka.record.memory_records.MemoryRecords`` for the multi-batch buffer.
* ``aiokafka-c``    the Cython extension classes, imported from ``aiokafka.record._crecords``.
* ``aiokafka-py``   ``aiokafka.record.default_records._DefaultRecordBatchPy`` / ``_DefaultRecordBatchBuilderPy``;
                    multi-batch framing by ``aiokafka.record.memory_records._MemoryRecordsPy``.
* ``kaitai``        the official Kaitai Struct compiler's Python parser, generated/kaitai/record_batch_v2.py
                    (decode only; skipped with a message when the module has not been generated).

Every input buffer is built once per workload with logcodec's encoder and checked against
kafka-python (record count and content) and against every other decoder before anything is
timed; every encoder's output is decoded again and compared with the logical records. A
column that fails its check is never timed and makes the run exit 1, naming it.
"""

from __future__ import annotations

import argparse
import copy
import gc
import importlib
import json
import math
import os
import platform
import random
import sys
import time
import tracemalloc
from dataclasses import dataclass, field
from pathlib import Path
from typing import Self

import aiokafka
import aiokafka.record.memory_records as _aio_memory_records
import kafka
import kaitaistruct
from aiokafka.record.default_records import _DefaultRecordBatchBuilderPy as AioPyBuilder
from aiokafka.record.default_records import _DefaultRecordBatchPy as AioPyBatch
from aiokafka.record.memory_records import _MemoryRecordsPy as AioPyMemoryRecords
from kafka.record.default_records import DefaultRecordBatch as KPBatch
from kafka.record.default_records import DefaultRecordBatchBuilder as KPBuilder
from kafka.record.memory_records import MemoryRecords as KPMemoryRecords

# logcodec is imported by main(), after the arguments are parsed: the generated module picks
# its build (compiled or pure Python, see --pure) once, at import.
lc = None
PURE_ENV = "LOGCODEC_PURE"  # logcodec.runtime.native.PURE_ENV, not imported before the choice is made

try:  # the compiled extension itself, whatever aiokafka.record.default_records fell back to
    from aiokafka.record._crecords.default_records import DefaultRecordBatch as AioCBatch
    from aiokafka.record._crecords.default_records import DefaultRecordBatchBuilder as AioCBuilder
    from aiokafka.record._crecords.memory_records import MemoryRecords as AioCMemoryRecords
    AIOKAFKA_C_ERROR = None
except ImportError as exc:  # pragma: no cover - depends on the installed wheel
    AIOKAFKA_C_ERROR = f"aiokafka C extension unavailable: {exc!r}"

REPO = Path(__file__).resolve().parent.parent
DEFAULT_KAITAI_DIR = REPO / "generated" / "kaitai"

IMPLS = ("logcodec", "logcodec+tuples", "logcodec+iter", "logcodec+build", "kafka-python", "aiokafka-c", "aiokafka-py",
         "kaitai")
MINE = ("logcodec", "logcodec+tuples", "logcodec+iter", "logcodec+build")  # the logcodec columns; ratios are taken from each
OTHERS = IMPLS[len(MINE):]
OPS = ("decode", "encode")
IMPLS_OF = {"decode": tuple(i for i in IMPLS if i != "logcodec+build"),
            "encode": tuple(i for i in IMPLS if i not in ("logcodec+tuples", "logcodec+iter"))}
CODECS = {"none": 0, "gzip": 1, "snappy": 2, "lz4": 3, "zstd": 4}
# (op, logcodec column, other implementation, minimum ratio logcodec column / other), by the
# build measured: what issue 38 asks of the read a user gets without options (the `logcodec`
# column), and, for the other columns, the targets that came before it (issue 13).
TARGETS = {
    "pure Python": (("decode", "logcodec", "kafka-python", 2.5), ("decode", "logcodec+tuples", "kafka-python", 2.0),
                    ("decode", "logcodec+iter", "kafka-python", 2.0),
                    ("decode", "logcodec", "kaitai", 8.0),
                    ("encode", "logcodec", "kafka-python", 3.0), ("encode", "logcodec+build", "kafka-python", 2.0)),
    "compiled": (("decode", "logcodec", "kafka-python", 2.0), ("decode", "logcodec", "kaitai", 8.0),
                 ("decode", "logcodec", "aiokafka-c", 1.2), ("decode", "logcodec+tuples", "aiokafka-c", 1.0),
                 ("decode", "logcodec+iter", "aiokafka-c", 1.0),
                 ("encode", "logcodec", "kafka-python", 3.0), ("encode", "logcodec", "aiokafka-c", 1.0),
                 ("encode", "logcodec+build", "kafka-python", 3.0), ("encode", "logcodec+build", "aiokafka-c", 1.0)),
}
TARGET_LABEL = {col: f"`{col}`" for col in MINE}
ENCODE_NOTE = (
    "`logcodec` encodes prebuilt value objects (one `RecordBatchV2` per batch, with its `Record`s and "
    "`Header`s, built once outside the timed region from the same tuples; for the compressed workloads "
    "the attributes carry the codec): decode's output is the value model and encode's input is the value "
    "model, the convention of protobuf's serialize benchmarks. kafka-python and aiokafka have no value "
    "model, their `append()` takes the record fields; `logcodec+build` is the producer API, `build(...)` "
    "with each record in its tuple form `(attributes, timestamp_delta, offset_delta, key, value, headers)` "
    "made from the same tuples the libraries append: the cost for a caller who starts from plain tuples.")
BUILDER_BATCH_SIZE = 2**31 - 1  # never "full": every record of a workload batch fits
BASE_TIMESTAMP = 1_700_000_000_000


# ------------------------------------------------------------------------------ workloads

@dataclass
class Workload:
    id: str
    title: str
    codec: str
    batches: list  # one list per batch of (offset_delta, timestamp, key, value, headers) tuples
    data: bytes = b""  # the decode input: every batch encoded by logcodec, concatenated
    expected: list = field(default_factory=list)  # (offset, timestamp, key, value, headers) over all batches

    @property
    def n_records(self) -> int:
        return sum(len(b) for b in self.batches)

    @property
    def multi(self) -> bool:
        return len(self.batches) > 1


_ACTIONS = ("view", "click", "add_to_cart", "checkout", "search", "logout")


def _records_with_headers(n: int, rng: random.Random) -> list:
    """16-byte keys, 100-byte JSON-like values, headers h1/h2 with 8-byte values."""
    out = []
    for i in range(n):
        key = f"key-{i:012d}".encode()
        value = (f'{{"seq":{i},"user":"u{rng.randrange(10_000):04d}","action":"{rng.choice(_ACTIONS)}",'
                 f'"token":"{rng.getrandbits(64):016x}","ok":true}}').ljust(100)[:100].encode()
        headers = [("h1", f"{i:08d}".encode()), ("h2", f"{rng.getrandbits(32):08x}".encode())]
        out.append((i, BASE_TIMESTAMP + 3 * i, key, value, headers))
    return out


def _small_records(n: int, rng: random.Random) -> list:
    """Null keys, 20-byte values, no headers."""
    return [(i, BASE_TIMESTAMP + i, None, f"v{i:09d}-{rng.getrandbits(36):09x}".encode(), []) for i in range(n)]


def make_workloads() -> list[Workload]:
    w1 = _records_with_headers(1_000, random.Random(1))
    ws = [Workload("1k_hdr", "1 batch x 1,000 records, 16 B key, 100 B value, 2 headers", "none", [w1]),
          Workload("10k_small", "1 batch x 10,000 records, null key, 20 B value, no headers", "none",
                   [_small_records(10_000, random.Random(2))])]
    for codec in ("gzip", "snappy", "lz4", "zstd"):
        ws.append(Workload(f"1k_hdr_{codec}", f"workload 1k_hdr, {codec}", codec, [w1]))
    many = _records_with_headers(1_000, random.Random(4))
    ws.append(Workload("100x10", "100 batches x 10 records (as 1k_hdr), one buffer", "none",
                       [[(j, ts, k, v, h) for j, (_, ts, k, v, h) in enumerate(many[i:i + 10])]
                        for i in range(0, 1_000, 10)]))
    return ws


# ------------------------------------------------------------------------------ logcodec

def _logcodec_value(recs, compression, base_offset=0):
    """The RecordBatchV2 value of one batch of (offset_delta, timestamp, key, value, headers) tuples."""
    Record, Header = lc.Record, lc.Header
    base_ts = max_ts = recs[0][1]
    records = []
    for offset_delta, ts, key, value, headers in recs:
        if ts > max_ts:
            max_ts = ts
        records.append(Record(timestamp_delta=ts - base_ts, offset_delta=offset_delta, key=key, value=value,
                              headers=[Header(key=hk, value=hv) for hk, hv in headers]))
    return lc.RecordBatchV2(
        base_offset=base_offset, partition_leader_epoch=-1, attributes=lc.Attributes(compression=compression),
        base_timestamp=base_ts, max_timestamp=max_ts, producer_id=-1, producer_epoch=-1, base_sequence=-1,
        records=records)


def logcodec_values(batches, codec):
    """One RecordBatchV2 per batch, built outside the timed region (the `logcodec` encode input)."""
    compression = lc.Compression(codec)
    return [_logcodec_value(recs, compression) for recs in batches]


def encode_logcodec(values):
    encode = lc.encode
    return [encode(v) for v in values]


def encode_logcodec_build(batches, codec):
    """The producer API: `build` with each record in its tuple form (attributes, timestamp_delta,
    offset_delta, key, value, headers), the headers as the (key, value) pairs they are."""
    build = lc.build
    attributes = lc.Attributes(compression=lc.Compression(codec))
    out = []
    for recs in batches:
        base_ts = max_ts = recs[0][1]
        records = []
        for offset_delta, ts, key, value, headers in recs:
            if ts > max_ts:
                max_ts = ts
            records.append((0, ts - base_ts, offset_delta, key, value, headers))
        out.append(build(base_offset=0, partition_leader_epoch=-1, attributes=attributes, base_timestamp=base_ts,
                         max_timestamp=max_ts, producer_id=-1, producer_epoch=-1, base_sequence=-1,
                         records=records))
    return out


def _touch_logcodec(batches):
    for batch in batches:
        base_offset, base_ts = batch.base_offset, batch.base_timestamp
        for r in batch.records:
            base_offset + r.offset_delta
            base_ts + r.timestamp_delta
            r.key
            r.value
            for h in r.headers:
                h.key
                h.value


def decode_logcodec(data, lazy=True):
    _touch_logcodec((lc.decode(data, lazy=lazy),))


def decode_logcodec_stream(data, lazy=True):
    stream = lc.decode_stream(data, lazy=lazy)
    if stream.partial is not None:
        raise stream.partial
    _touch_logcodec(stream.items)


def _touch_logcodec_tuples(batches):
    # a record's tuple form: (attributes, timestamp_delta, offset_delta, key, value, headers)
    for batch in batches:
        base_offset, base_ts = batch.base_offset, batch.base_timestamp
        for _, timestamp_delta, offset_delta, key, value, headers in batch.records:
            base_offset + offset_delta
            base_ts + timestamp_delta
            for k, v in headers:
                pass


def decode_logcodec_tuples(data):
    _touch_logcodec_tuples((lc.decode(data, tuples=True),))


def decode_logcodec_tuples_stream(data):
    stream = lc.decode_stream(data, tuples=True)
    if stream.partial is not None:
        raise stream.partial
    _touch_logcodec_tuples(stream.items)


def rows_logcodec_tuples(data, multi):
    batches = _complete(lc.decode_stream(data, tuples=True)) if multi else (lc.decode(data, tuples=True),)
    return _tuple_rows((b, b.records) for b in batches)


def _complete(stream):
    """The items of a stream that holds whole batches only."""
    if stream.partial is not None:
        raise stream.partial
    return stream.items


def _tuple_rows(entries):
    """The (offset, timestamp, key, value, headers) rows of (header or batch, records in their
    tuple form) pairs."""
    return [(h.base_offset + offset_delta, h.base_timestamp + timestamp_delta, key, value, list(headers))
            for h, records in entries for _, timestamp_delta, offset_delta, key, value, headers in records]


def _touch_logcodec_iter(entries):
    # (header, iterator of records in their tuple form) for each batch
    for header, records in entries:
        base_offset, base_ts = header.base_offset, header.base_timestamp
        for _, timestamp_delta, offset_delta, key, value, headers in records:
            base_offset + offset_delta
            base_ts + timestamp_delta
            for k, v in headers:
                pass


def decode_logcodec_iter(data):
    _touch_logcodec_iter((lc.decode_iter(data, tuples=True),))


def decode_logcodec_iter_stream(data):
    stream = lc.decode_stream(data, iterate=True, tuples=True)
    if stream.partial is not None:
        raise stream.partial
    _touch_logcodec_iter(stream.items)


def rows_logcodec_iter(data, multi):
    entries = _complete(lc.decode_stream(data, iterate=True, tuples=True)) if multi else (lc.decode_iter(data, tuples=True),)
    return _tuple_rows(entries)


def rows_logcodec(data, multi):
    batches = _complete(lc.decode_stream(data)) if multi else (lc.decode(data),)
    return [(b.base_offset + r.offset_delta, b.base_timestamp + r.timestamp_delta, r.key, r.value,
             [(h.key, h.value) for h in r.headers]) for b in batches for r in b.records]


# ------------------------------------------------------------------------------ the client libraries

def _touch_lib(batches):
    for batch in batches:
        if not batch.validate_crc():  # before iterating: iteration decompresses
            raise ValueError(f"CRC mismatch in batch at base offset {batch.base_offset}")
        for r in batch:
            r.offset
            r.timestamp
            r.key
            r.value
            for k, v in r.headers:
                pass


def _memory_records(cls, data):
    records = cls(data)
    while records.has_next():
        yield records.next_batch()


def _aiokafka_py_memory_records(data):
    # _MemoryRecordsPy.next_batch instantiates the module-global DefaultRecordBatch, which
    # is the Cython class whenever the extension loads; for the pure-Python column it is
    # the Python class, exactly as with AIOKAFKA_NO_EXTENSIONS=1 (restored at once).
    records = AioPyMemoryRecords(data)
    saved = _aio_memory_records.DefaultRecordBatch
    while records.has_next():
        _aio_memory_records.DefaultRecordBatch = AioPyBatch
        try:
            batch = records.next_batch()
        finally:
            _aio_memory_records.DefaultRecordBatch = saved
        yield batch


def _lib_rows(batches, batch_cls):
    rows = []
    for b in batches:
        if type(b) is not batch_cls:
            raise TypeError(f"got {type(b).__module__}.{type(b).__qualname__}, expected {batch_cls.__qualname__}")
        if not b.validate_crc():
            raise ValueError("CRC mismatch")
        rows += [(r.offset, r.timestamp, _b(r.key), _b(r.value), [(k, _b(v)) for k, v in r.headers]) for r in b]
    return rows


def _b(x):
    return None if x is None else bytes(x)


def _encode_lib(builder_cls, batches, codec):
    out = []
    for recs in batches:
        builder = builder_cls(2, codec, 0, -1, -1, -1, BUILDER_BATCH_SIZE)
        for offset_delta, ts, key, value, headers in recs:
            builder.append(offset_delta, ts, key, value, headers)
        out.append(builder.build())
    return out


def encode_kafka_python(batches, codec):
    return _encode_lib(KPBuilder, batches, codec)


def encode_aiokafka_c(batches, codec):
    return _encode_lib(AioCBuilder, batches, codec)


def encode_aiokafka_py(batches, codec):
    return _encode_lib(AioPyBuilder, batches, codec)


# ------------------------------------------------------------------------------ Kaitai reference parser

class Kaitai:
    """The official compiler's parser, if generated; `error` says why not otherwise."""

    def __init__(self, directory: Path):
        self.directory, self.module, self.error = directory, None, None
        path = directory / "record_batch_v2.py"
        if not path.exists():
            self.error = (f"{_rel(path)} not found: the Kaitai reference parser has not been generated "
                          "yet (the official compiler's output; `logcodec generate` writes it)")
            return
        if str(directory) not in sys.path:
            sys.path.insert(0, str(directory))  # the compiler's modules import each other top-level
        try:
            self.module = importlib.import_module("record_batch_v2")
        except Exception as exc:  # noqa: BLE001 - reported, the column is skipped
            self.error = f"importing {_rel(path)} failed: {exc!r}"
            return
        from kaitaistruct import KaitaiStream
        from io import BytesIO
        cls = self.module.RecordBatchV2

        def decode(data):
            _touch_kaitai((cls.from_bytes(data),))

        def decode_stream(data):
            io = KaitaiStream(BytesIO(data))
            batches = []
            while not io.is_eof():
                batches.append(cls(io))
            _touch_kaitai(batches)

        def batches(data):
            io = KaitaiStream(BytesIO(data))
            while not io.is_eof():
                yield cls(io)

        def rows(data, multi):
            return [(b.base_offset + r.offset_delta.value, b.base_timestamp + r.timestamp_delta.value,
                     r.key if r.len_key.value >= 0 else None, r.value if r.len_value.value >= 0 else None,
                     [(h.key, h.value if h.len_value.value >= 0 else None) for h in r.headers])
                    for b in (batches(data) if multi else (cls.from_bytes(data),)) for r in b.records.items]

        self.decode, self.decode_stream, self.rows = decode, decode_stream, rows


def _touch_kaitai(batches):
    # The parser reads every field eagerly; the zigzag varints' `.value` is a lazy instance,
    # and an absent key/value (length -1) is an unset attribute, as Kaitai models `if:`.
    for batch in batches:
        base_offset, base_ts = batch.base_offset, batch.base_timestamp
        for r in batch.records.items:
            base_offset + r.offset_delta.value
            base_ts + r.timestamp_delta.value
            r.key if r.len_key.value >= 0 else None
            r.value if r.len_value.value >= 0 else None
            for h in r.headers:
                h.key
                h.value if h.len_value.value >= 0 else None


def _rel(path: Path) -> str:
    try:
        return str(path.relative_to(REPO))
    except ValueError:
        return str(path)


# ------------------------------------------------------------------------------ registry

class Skip(Exception):
    """This (implementation, workload, op) is not measured; the message says why."""


def decoders(kaitai: Kaitai) -> dict:
    """name -> (decode one batch, decode a multi-batch buffer, rows(data, multi) for the correctness
    check: through the entry point that is timed, the multi-batch one when `multi`)."""
    table = {
        "logcodec": (decode_logcodec, decode_logcodec_stream, rows_logcodec),
        "logcodec+tuples": (decode_logcodec_tuples, decode_logcodec_tuples_stream, rows_logcodec_tuples),
        "logcodec+iter": (decode_logcodec_iter, decode_logcodec_iter_stream, rows_logcodec_iter),
        "kafka-python": (lambda d: _touch_lib((KPBatch(d),)),
                         lambda d: _touch_lib(_memory_records(KPMemoryRecords, d)),
                         lambda d, multi: _lib_rows(_memory_records(KPMemoryRecords, d) if multi else (KPBatch(d),),
                                                    KPBatch)),
        "aiokafka-py": (lambda d: _touch_lib((AioPyBatch(d),)),
                        lambda d: _touch_lib(_aiokafka_py_memory_records(d)),
                        lambda d, multi: _lib_rows(_aiokafka_py_memory_records(d) if multi else (AioPyBatch(d),),
                                                   AioPyBatch)),
    }
    if not AIOKAFKA_C_ERROR:
        table["aiokafka-c"] = (lambda d: _touch_lib((AioCBatch(d),)),
                               lambda d: _touch_lib(_memory_records(AioCMemoryRecords, d)),
                               lambda d, multi: _lib_rows(
                                   _memory_records(AioCMemoryRecords, d) if multi else (AioCBatch(d),), AioCBatch))
    if kaitai.module is not None:
        table["kaitai"] = (kaitai.decode, kaitai.decode_stream, kaitai.rows)
    return table


def encoders() -> dict:
    """name -> setup(workload) -> (encode function, its arguments); setup runs outside the timed region."""
    def tuples(fn):
        return lambda w: (fn, (w.batches, CODECS[w.codec]))

    table = {"logcodec": lambda w: (encode_logcodec, (logcodec_values(w.batches, CODECS[w.codec]),)),
             "logcodec+build": tuples(encode_logcodec_build),
             "kafka-python": tuples(encode_kafka_python), "aiokafka-py": tuples(encode_aiokafka_py)}
    if not AIOKAFKA_C_ERROR:
        table["aiokafka-c"] = tuples(encode_aiokafka_c)
    return table


def skip_reason(impl: str, op: str, kaitai: Kaitai) -> str | None:
    if impl == "kaitai":
        if op == "encode":
            return "n/a: Kaitai Struct 0.11 generates parsers only"
        return kaitai.error
    if impl == "aiokafka-c":
        return AIOKAFKA_C_ERROR
    return None


def _codec_available(impl: str, codec: str) -> bool:
    if codec == "none" or impl in (*MINE, "kaitai"):  # kaitai decompresses through logcodec's table
        return True
    lib = kafka.codec if impl == "kafka-python" else aiokafka.codec
    return bool(getattr(lib, f"has_{codec}")())


# ------------------------------------------------------------------------------ correctness (untimed)

def prepare(w: Workload) -> None:
    """Build the decode input with logcodec and check it with kafka-python."""
    parts, base = [], 0
    for recs in w.batches:
        parts.append(lc.encode(_logcodec_value(recs, lc.Compression(CODECS[w.codec]), base_offset=base)))
        w.expected += [(base + od, ts, k, v, list(h)) for od, ts, k, v, h in recs]
        base += len(recs)
    w.data = b"".join(parts)
    got = _lib_rows(_memory_records(KPMemoryRecords, w.data), KPBatch)
    # Nothing of this workload can be measured: either logcodec's encoder or kafka-python is wrong.
    where = f"bench kafka: WRONG RESULT: workload {w.id}, the decode input (logcodec's encoder, read by kafka-python)"
    if len(got) != w.n_records:
        raise SystemExit(f"{where}: kafka-python decodes {len(got)} records, expected {w.n_records}")
    if got != w.expected:
        raise SystemExit(f"{where}: kafka-python decodes other records than were encoded")


def check_decoder(rows, w: Workload) -> None:
    got = rows(w.data, w.multi)
    if len(got) != w.n_records:
        raise AssertionError(f"decodes {len(got)} records, expected {w.n_records}")
    if got != w.expected:
        i = next(i for i, (a, b) in enumerate(zip(got, w.expected)) if a != b)
        raise AssertionError(f"record {i} differs: {got[i]!r} != {w.expected[i]!r}")


def check_encoder(encode, arg, w: Workload) -> None:
    before = copy.deepcopy(arg)
    parts = encode(*arg)
    again = encode(*arg)
    if arg != before:  # every timed call must do the whole work: nothing may be cached in the input
        raise AssertionError("encoding changed its input")
    check_encoded(parts, w)
    if [bytes(p) for p in again] != [bytes(p) for p in parts]:
        # A compressor may stamp each call: a gzip member's header holds the time it was written,
        # which aiokafka's pure-Python encoder sets (a second later, other bytes). The second call
        # must still hold the same records.
        check_encoded(again, w)


def check_encoded(parts, w: Workload) -> None:
    """The batches an encoder wrote hold the workload's records, in its codec, every CRC right."""
    if len(parts) != len(w.batches):
        raise AssertionError(f"built {len(parts)} batches, expected {len(w.batches)}")
    stream = lc.decode_stream(b"".join(bytes(p) for p in parts))  # checks every CRC
    if stream.partial is not None:
        raise AssertionError(f"output does not decode: {stream.partial}")
    codecs = {int(b.attributes.compression) for b in stream.items}
    if codecs != {CODECS[w.codec]}:
        raise AssertionError(f"batches use codec ids {sorted(codecs)}, expected {CODECS[w.codec]}")
    got = [(r.offset_delta, b.base_timestamp + r.timestamp_delta, r.key, r.value, [(h.key, h.value) for h in r.headers])
           for b in stream.items for r in b.records]
    want = [(od, ts, k, v, list(h)) for recs in w.batches for od, ts, k, v, h in recs]
    if got != want:
        raise AssertionError("output decodes to different records")


# ------------------------------------------------------------------------------ timing

def _run(fn, arg, n):
    t0 = time.perf_counter()
    for _ in range(n):
        fn(*arg)
    return time.perf_counter() - t0


def calibrate(fn, arg, min_time: float) -> int:
    """Calls per round so that one round takes >= min_time; the calibration runs are the warm-up."""
    gc.collect()
    n = 1
    while True:
        t = _run(fn, arg, n)
        if t >= min_time:
            return n
        n = max(n + 1, min(n * 10, math.ceil(n * 1.1 * min_time / max(t, 1e-9))))


class CollectorClock:
    """The seconds Python's cyclic garbage collector runs while this clock is installed
    (a `gc.callbacks` entry, told when each pass starts and stops)."""

    def __init__(self):
        self.seconds = 0.0
        self._started = 0.0

    def __call__(self, phase: str, info: dict) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        else:
            self.seconds += time.perf_counter() - self._started

    def __enter__(self) -> Self:
        gc.callbacks.append(self)
        return self

    def __exit__(self, *exc) -> None:
        gc.callbacks.remove(self)


def measure(cases: dict, min_time: float, rounds: int) -> dict:
    """cases: impl -> (fn, arg). Each implementation gets its own calls-per-round n; the
    rounds are interleaved (round 1 of every implementation, then round 2, ...) so that a
    change of machine load hits all columns alike; the best round gives the time per call,
    and the share of it the cyclic collector took (the passes the calls set off)."""
    n = {impl: calibrate(fn, arg, min_time) for impl, (fn, arg) in cases.items()}
    per_call = {impl: [] for impl in cases}
    collector = {impl: [] for impl in cases}
    for _ in range(rounds):
        for impl, (fn, arg) in cases.items():
            gc.collect()
            with CollectorClock() as clock:
                seconds = _run(fn, arg, n[impl])
            per_call[impl].append(seconds / n[impl])
            collector[impl].append(clock.seconds / seconds)
    out = {}
    for impl, t in per_call.items():
        best = t.index(min(t))
        out[impl] = {"seconds_per_call": t[best], "collector_share": collector[impl][best],
                     "calls_per_round": n[impl], "rounds": t}
    return out


def peak_bytes(fn, arg) -> tuple[int, int]:
    """(peak, kept): the most bytes Python's allocators held at once while `fn(*arg)` ran, and
    what they still held when it returned, its result kept (tracemalloc: every object, the C
    extensions' and mypyc's too, but not a C library's own buffers), over what they held before."""
    gc.collect()
    tracemalloc.start()
    try:
        result = fn(*arg)
        kept, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    del result
    return peak, kept


def memory(cases: dict, n_records: int) -> dict:
    """impl -> peak and kept bytes per record of one call of its decode (decode and read every
    record: a streaming reader keeps only a record at a time, logcodec the decoded value), and,
    for logcodec, of `decode_stream` alone, its value kept: as it reads by default (`logcodec value`:
    each batch's records read when iterated) and whole (`logcodec value, lazy=False`)."""
    out = {impl: peak_bytes(fn, arg) for impl, (fn, arg) in cases.items()}
    if "logcodec" in cases:
        data = cases["logcodec"][1][0]
        out["logcodec value"] = peak_bytes(lambda d: lc.decode_stream(d).items, (data,))
        out["logcodec value, lazy=False"] = peak_bytes(lambda d: lc.decode_stream(d, lazy=False).items, (data,))
    return {impl: {"peak_bytes_per_record": peak / n_records, "kept_bytes_per_record": kept / n_records}
            for impl, (peak, kept) in out.items()}


# ------------------------------------------------------------------------------ report

def _fmt_rate(x: float) -> str:
    if x >= 1e6:
        return f"{x / 1e6:.2f}M"
    if x >= 1e3:
        return f"{x / 1e3:.0f}k"
    return f"{x:.0f}"


def _geomean(xs):
    xs = [x for x in xs if x and x > 0]
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else None


def ratios(results: dict, workloads: list[Workload]) -> dict:
    """op -> logcodec column -> other -> {workload id: logcodec column rate / other rate, "geomean": ...}."""
    out = {}
    for op, per_w in results.items():
        out[op] = {}
        for col in MINE:
            for other in OTHERS:
                r = {}
                for w in workloads:
                    mine, theirs = per_w[w.id].get(col, {}), per_w[w.id].get(other, {})
                    if "records_per_s" in mine and "records_per_s" in theirs:
                        r[w.id] = mine["records_per_s"] / theirs["records_per_s"]
                if r:
                    r["geomean"] = _geomean(list(r.values()))
                    out[op].setdefault(col, {})[other] = r
    return out


def judge_targets(rat: dict, all_workloads: list[str]) -> list[dict]:
    """The targets of the build measured, each judged on `1k_hdr` alone (`first`) and on the
    geomean over every workload of the benchmark (`geomean`): met or not met only when each of
    those workloads was measured, else not measured (a geomean of the workloads that happened
    to run is not the target's)."""
    rows = []
    for op, mine, other, target in TARGETS["compiled" if lc.NATIVE else "pure Python"]:
        per_workload = {k: v for k, v in rat.get(op, {}).get(mine, {}).get(other, {}).items() if k != "geomean"}
        row = {"op": op, "mine": mine, "other": other, "target": target}
        for key, wanted in (("first", ["1k_hdr"]), ("geomean", all_workloads)):
            measured = [w for w in wanted if w in per_workload]
            value = _geomean([per_workload[w] for w in measured])
            complete = len(measured) == len(wanted)
            row[key] = value
            row[f"{key}_met"] = value >= target if complete else None
            row[f"{key}_verdict"] = ("not measured" if not complete else "met" if value >= target else "not met")
            row[f"{key}_workloads"] = {"measured": len(measured), "of": len(wanted),
                                       "missing": [w for w in wanted if w not in per_workload]}
        rows.append(row)
    return rows


def verdict_text(row: dict, key: str) -> str:
    """A target's verdict as printed: met, not met (and what it lacks) or not measured, with the
    number of the target's workloads it rests on."""
    covers = row[f"{key}_workloads"]
    count = f"{covers['measured']}/{covers['of']} workload{'s' * (covers['of'] > 1)}"
    verdict = row[f"{key}_verdict"]
    if verdict == "met":
        return f"**met** ({count})"
    if verdict == "not met":
        return f"**not met** (needs {row['target'] / row[key]:.2f}x more; {count})"
    return f"not measured ({count})"


def _collector_table(per_workload: dict, workloads, cols) -> list[str]:
    """Each decode column's share of its time in the cyclic garbage collector."""
    about = ("Share of the decode time in Python's cyclic garbage collector (its passes, timed through "
             "`gc.callbacks`, in the best round). A decode that returns an object for each record and header "
             "hands the collector every one of them to walk while the caller reads them, and brings on the "
             "passes that walk the whole heap (which also holds the bench's expected records); a reader that "
             "makes one record at a time lets each die before a pass sees it.")
    lines = ["", about, "",
             "| workload | " + " | ".join(cols) + " |", "|---|" + "---:|" * len(cols)]
    for w in workloads:
        shares = [per_workload[w.id].get(impl, {}).get("collector_share") for impl in cols]
        lines.append(f"| {w.id} | " + " | ".join("–" if x is None else f"{100 * x:.1f}%" for x in shares) + " |")
    return lines


def render(results, rat, workloads, skipped_notes, target_rows, wrong=()) -> str:
    lines = []
    impls_of = {op: [i for i in IMPLS_OF[op]
                     if any("records_per_s" in results[op][w.id].get(i, {}) for w in workloads)]
                for op in results}
    for op in results:
        lines += [f"### {op}", ""]
        if op == "encode":
            lines += [ENCODE_NOTE, ""]
        lines += ["Throughput: records/s · MB/s (MB = 10^6 bytes of the workload's wire bytes, "
                  "the decode input; the same byte count for every implementation).", ""]
        cols = impls_of[op]
        lines.append("| workload | records | bytes | " + " | ".join(cols) + " |")
        lines.append("|---|---:|---:|" + "---:|" * len(cols))
        for w in workloads:
            cells = []
            for impl in cols:
                r = results[op][w.id].get(impl, {})
                if "records_per_s" in r:
                    cells.append(f"{_fmt_rate(r['records_per_s'])} · {r['mb_per_s']:.1f}")
                else:
                    cells.append("FAILED" if r.get("failed") else "–")
            lines.append(f"| {w.id} | {w.n_records:,} | {len(w.data):,} | " + " | ".join(cells) + " |")
        for col in MINE:
            per_other = rat.get(op, {}).get(col, {})
            others = [o for o in OTHERS if o in per_other]
            if not others:
                continue
            lines += ["", f"Ratio {col} / other ({op} records/s; > 1 means {col} is faster):", "",
                      "| workload | " + " | ".join(f"{col} vs {o}" for o in others) + " |",
                      "|---|" + "---:|" * len(others)]
            for wid in [w.id for w in workloads] + ["geomean"]:
                cells = [f"{per_other[o][wid]:.2f}x" if wid in per_other[o] else "–" for o in others]
                label = "**geomean**" if wid == "geomean" else wid
                lines.append(f"| {label} | " + " | ".join(cells) + " |")
        if op == "decode":
            lines += _collector_table(results[op], workloads, cols)
        lines.append("")
    if any("memory" in results.get("decode", {}).get(w.id, {}) for w in workloads):
        mem_cols = list(dict.fromkeys(i for w in workloads for i in results["decode"][w.id].get("memory", {})))
        lines += ["### memory", "",
                  "Bytes per record of one decode call (tracemalloc): the peak Python's allocators held during "
                  "it · what they still held after it, over what they held before. Each column is the timed decode "
                  "(bytes in, every record read); the libraries iterate and keep one record at a time, "
                  "`logcodec` and `logcodec+tuples` (whose records are read as the loop reaches them) and "
                  "`logcodec+iter` too (compiled, the C companion reads 64 at a time). `logcodec value` is `decode_stream(bytes).items`, kept (each batch's records not read "
                  "yet), `logcodec value, lazy=False` the same read whole. The input "
                  "bytes themselves are not counted (the `bytes` column over `records`). What `logcodec+tuples` "
                  "still holds after its call (about 200 kB) is CPython's free lists of tuples, up to 2,000 of "
                  "each size, which keep freed tuples for reuse.", "",
                  "| workload | input bytes/record | " + " | ".join(mem_cols) + " |",
                  "|---|---:|" + "---:|" * len(mem_cols)]
        for w in workloads:
            mem = results["decode"][w.id].get("memory", {})
            cells = [f"{mem[i]['peak_bytes_per_record']:,.0f} · {mem[i]['kept_bytes_per_record']:,.0f}" if i in mem
                     else "–" for i in mem_cols]
            lines.append(f"| {w.id} | {len(w.data) / w.n_records:,.0f} | " + " | ".join(cells) + " |")
        lines.append("")
    if wrong:
        lines += ["Wrong results (never timed; the run fails):", ""] + [
            f"- {impl} {op} {wid}: {what}" for impl, op, wid, what in wrong] + [""]
    if skipped_notes:
        lines += ["Not measured:", ""] + [f"- {n}" for n in skipped_notes] + [""]
    lines += ["### targets", "",
              f"The targets of the build measured ({'compiled' if lc.NATIVE else 'pure Python'}). Decode is judged "
              "on `logcodec` (value objects out), on `logcodec+tuples` (records and headers as tuples, "
              "`decode(..., tuples=True)`) and on `logcodec+iter` (the same tuples, one record at a time: "
              "`decode_iter(..., tuples=True)`, as the libraries iterate a batch); encode on `logcodec` (prebuilt "
              "value objects in) and `logcodec+build` (from the same tuples the libraries append, through the "
              "producer API `build`). Each verdict says how many of the target's workloads it rests on: "
              "`met` or `not met` only when every one was measured (the geomean's are all the benchmark's "
              "workloads, whatever `--workloads` chose), `not measured` otherwise, beside the value of those "
              "that were.", "",
              "| target | logcodec column | 1k_hdr | | geomean over workloads | |",
              "|---|---|---:|---|---:|---|"]
    for row in target_rows:
        a, g = ("–" if row[k] is None else f"{row[k]:.2f}x" for k in ("first", "geomean"))
        lines.append(f"| {row['op']} >= {row['target']:g}x {row['other']} | {TARGET_LABEL[row['mine']]} "
                     f"| {a} | {verdict_text(row, 'first')} | {g} | {verdict_text(row, 'geomean')} |")
    lines.append("")
    return "\n".join(lines)


# ------------------------------------------------------------------------------ main

def load_logcodec(pure: bool) -> str:
    """Import the generated codec (choosing its build) and say which build runs."""
    global lc
    if pure:
        os.environ[PURE_ENV] = "1"
    name = "logcodec.generated.kafka.record_batch_v2"
    if pure and name in sys.modules and sys.modules[name].NATIVE:
        raise SystemExit(f"--pure: {name} was imported (compiled) before the option was read; "
                         f"run with {PURE_ENV}=1 in the environment instead")
    lc = importlib.import_module(name)
    if lc.NATIVE:
        return f"compiled (mypyc) {lc.NATIVE}"
    why = f"{PURE_ENV} is set" if os.environ.get(PURE_ENV) else "no compiled build of this source; `logcodec accelerate` makes one"
    return f"pure Python ({why})"


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench kafka", description=__doc__.split("\n\n")[0])
    p.add_argument("--quick", action="store_true", help="short rounds (0.02 s, best of 2) for CI smoke runs")
    p.add_argument("--only", choices=OPS, help="measure only decode or only encode")
    p.add_argument("--json", metavar="FILE", help="write the raw numbers to FILE")
    p.add_argument("--workloads", metavar="IDS", help="comma-separated workload ids, timed in that order (default: all)")
    p.add_argument("--kaitai-dir", metavar="DIR", default=str(DEFAULT_KAITAI_DIR),
                   help="folder of the Kaitai reference parsers (default: generated/kaitai)")
    p.add_argument("--min-time", type=float, help="seconds per round (default 0.3, --quick 0.02)")
    p.add_argument("--rounds", type=int, help="rounds, best taken (default 5, --quick 2)")
    p.add_argument("--pure", action="store_true",
                   help=f"measure logcodec's pure-Python build even when a compiled (mypyc) one exists "
                        f"(sets {PURE_ENV}=1 before logcodec is imported)")
    args = p.parse_args(argv)
    build = load_logcodec(pure=args.pure)
    min_time = args.min_time or (0.02 if args.quick else 0.3)
    rounds = args.rounds or (2 if args.quick else 5)
    ops = (args.only,) if args.only else OPS

    workloads = make_workloads()
    if args.workloads:
        wanted = args.workloads.split(",")
        unknown = set(wanted) - {w.id for w in workloads}
        if unknown:
            p.error(f"unknown workload(s) {sorted(unknown)}; known: {[w.id for w in workloads]}")
        by_id = {w.id: w for w in workloads}
        workloads = [by_id[i] for i in dict.fromkeys(wanted)]  # in the order given: each is timed in turn

    kaitai = Kaitai(Path(args.kaitai_dir).resolve())
    dec, enc = decoders(kaitai), encoders()
    skipped_notes = []
    for impl in IMPLS:
        for op in ops:
            reason = skip_reason(impl, op, kaitai)
            if reason:
                skipped_notes.append(f"{impl} {op}: {reason}")
    print(f"# Kafka RecordBatch v2 benchmark ({'quick: ' if args.quick else ''}best of {rounds} rounds "
          f">= {min_time:g} s each; CPython {platform.python_version()}, {platform.machine()})\n", flush=True)
    print(f"logcodec build: {build}\n", flush=True)
    for note in skipped_notes:
        print(f"note: {note}", file=sys.stderr, flush=True)

    results = {op: {w.id: {} for w in workloads} for op in ops}
    wrong = []  # (column, op, workload id, what was wrong) of every correctness check that failed
    for w in workloads:
        prepare(w)
        for op in ops:
            cases = {}
            for impl in IMPLS_OF[op]:
                if skip_reason(impl, op, kaitai):
                    continue
                if not _codec_available(impl, w.codec):
                    results[op][w.id][impl] = {"skipped": f"{w.codec} codec unavailable"}
                    skipped_notes.append(f"{impl} {op} {w.id}: {w.codec} codec unavailable")
                    continue
                try:
                    cases[impl] = checked_case(impl, op, w, dec, enc)
                except Exception as exc:  # noqa: BLE001 - a wrong answer: never timed, and it fails the run
                    wrong.append((impl, op, w.id, _what(exc)))
                    print(wrong_line(*wrong[-1]), file=sys.stderr, flush=True)
                    results[op][w.id][impl] = {"failed": _what(exc)}
            if op == "decode":
                results[op][w.id]["memory"] = memory(cases, w.n_records)
            for impl, m in measure(cases, min_time, rounds).items():
                s = m["seconds_per_call"]
                m.update(records_per_s=w.n_records / s, mb_per_s=len(w.data) / s / 1e6)
                results[op][w.id][impl] = m
                print(f"  {op:6} {w.id:14} {impl:14} {_fmt_rate(m['records_per_s']):>7} rec/s "
                      f"{m['mb_per_s']:8.1f} MB/s", file=sys.stderr, flush=True)

    rat = ratios(results, workloads)
    target_rows = judge_targets(rat, [w.id for w in make_workloads()])
    print(render(results, rat, workloads, skipped_notes, target_rows, wrong), flush=True)

    if args.json:
        doc = {
            "meta": {"python": sys.version, "implementation": platform.python_implementation(),
                     "machine": platform.machine(), "platform": platform.platform(),
                     "logcodec_build": build, "logcodec_native": lc.NATIVE,
                     "kafka-python": kafka.__version__, "aiokafka": aiokafka.__version__,
                     "kaitaistruct": kaitaistruct.__version__, "aiokafka_c": AIOKAFKA_C_ERROR or "available",
                     "kaitai": kaitai.error or _rel(kaitai.directory / "record_batch_v2.py"),
                     "min_time": min_time, "rounds": rounds, "quick": args.quick, "time": time.time()},
            "workloads": {w.id: {"title": w.title, "codec": w.codec, "batches": len(w.batches),
                                 "records": w.n_records, "bytes": len(w.data)} for w in workloads},
            "results": results, "ratios": rat, "targets": target_rows, "not_measured": skipped_notes,
            "wrong_results": [dict(zip(("column", "op", "workload", "what"), w)) for w in wrong],
        }
        Path(args.json).write_text(json.dumps(doc, indent=2) + "\n")
        print(f"raw numbers written to {args.json}", file=sys.stderr)
    for w in wrong:  # last, where a CI log ends: the run is not to be trusted
        print(wrong_line(*w), file=sys.stderr)
    return 1 if wrong else 0


def checked_case(impl: str, op: str, w: Workload, dec: dict, enc: dict) -> tuple:
    """The (function, arguments) timed for `impl` on `w`, once its correctness check has passed
    on them (an exception says what is wrong)."""
    if op == "decode":
        single, stream, rows = dec[impl]
        check_decoder(rows, w)
        return (stream if w.multi else single), (w.data,)
    fn, arg = enc[impl](w)  # untimed setup: logcodec's value objects
    check_encoder(fn, arg, w)
    return fn, arg


def _what(exc: Exception) -> str:
    return str(exc) if isinstance(exc, AssertionError) and str(exc) else repr(exc)


def wrong_line(impl: str, op: str, workload: str, what: str) -> str:
    return f"bench kafka: WRONG RESULT: column {impl}, workload {workload}, {op}: {what}"
