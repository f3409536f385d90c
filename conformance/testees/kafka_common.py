"""Translation between canonical JSON of ``kafka.record_batch_v2`` and the record classes of the
Kafka client libraries (kafka-python, aiokafka C and aiokafka pure Python).

Only the libraries' own classes read and write bytes: their ``MemoryRecords`` frames the input,
their ``DefaultRecordBatch`` checks the CRC, decompresses and parses the records, their
``DefaultRecordBatchBuilder`` writes batches. This module only maps their objects to JSON and
back (ints to decimal strings, bytes to hex, codec ids to names, attribute bits to flags), and
refuses, before building, a value the builder would not write as given.

What the libraries expose, and how it is translated:

* Batch header: every field has an accessor, except ``partition_leader_epoch`` on aiokafka's
  batches (declared in ``unsupported_fields``). ``attributes`` is the raw int16: its codec,
  timestamp-type, transactional and control bits are read through the library's properties,
  the bits it has no property for (6, the delete horizon, and 15..7, reserved) are split out of
  the raw value.
* Records: the libraries give absolute ``offset`` and ``timestamp``; ``offset_delta`` is
  reported as ``record.offset - batch.base_offset`` and ``timestamp_delta`` as
  ``record.timestamp - batch.first_timestamp``, which undoes exactly what the libraries
  computed (``base + delta``). With log-append time the libraries replace every record's
  timestamp by ``max_timestamp``, so the delta is lost: such a batch is answered
  ``unsupported``. The record ``attributes`` byte is skipped by every library
  (``unsupported_fields``).
* Control batches: the key is translated from the library's own control-key parser
  (kafka-python's ``ControlRecord``, aiokafka's ``control_record.ControlRecord.parse``). No
  library parses the marker's value, so ``value.version`` and ``value.coordinator_epoch`` are
  in ``unsupported_fields`` and a control record's non-null value is reported as ``{}``.
* Derived fields (lengths, counts, the CRC) are left null.

Encoding: the builders write base offset 0, their own partition leader epoch, no timestamp
type, control, delete-horizon or reserved bit, record attributes 0, the first record's
timestamp as ``base_timestamp``, the largest as ``max_timestamp`` and the last record's offset
delta as ``last_offset_delta``. A value asking for anything else is ``unsupported``, with the
reason, also on the paths declared in ``unsupported_fields``: the harness wants a canonical
vector's exact bytes, so aiokafka (which always writes partition_leader_epoch -1) is refused
a value with any other epoch rather than answering bytes that differ from what was asked.
The Python builders also drop the codec when compressing does not shrink the records; that
is found by reading the built batch back with the library's own batch class.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Any, Callable

from logcodec.conformance.testee import Implementation, Refused, Unsupported
from logcodec.conformance.testees.kafka_legacy import (
    LEGACY_UNSUPPORTED, MESSAGE_SET, RECORD_SET, LibraryLegacy, encode_message_set, entry_bytes, legacy_entry,
)

FORMAT = "kafka.record_batch_v2"

#: Kafka's names of the codec ids; the ids themselves come from each library's CODEC_* constants.
CODEC_NAMES = ("none", "gzip", "snappy", "lz4", "zstd")
#: the libraries' ``timestamp_type``: CREATE_TIME 0, LOG_APPEND_TIME 1
TIMESTAMP_TYPES = {0: "create_time", 1: "log_append_time"}
#: control record types (Kafka's ControlRecordType): 0 abort, 1 commit
CONTROL_TYPES = {0: "abort", 1: "commit"}
#: attribute bits the libraries have no property for
DELETE_HORIZON_BIT = 0x40
RESERVED_SHIFT, RESERVED_MASK = 7, 0x1FF

BATCH_SIZE = 2**31 - 1  # the builders' size limit: never refuse a record for size


@dataclass(frozen=True)
class KafkaLibrary:
    name: str
    version: str
    memory_records: type  # the library's framing class
    batch_cls: type  # its DefaultRecordBatch
    builder_cls: type  # its DefaultRecordBatchBuilder
    #: (builder, producer_id, producer_epoch, base_sequence, is_transactional) -> None
    set_producer_state: Callable[..., None]
    #: (record) -> (version, type) through the library's control-key parser
    control_key: Callable[[Any], tuple[int, int]]
    #: (batch) -> partition leader epoch, or None when the library has no accessor
    leader_epoch: Callable[[Any], int] | None
    #: what the builder writes as partition_leader_epoch
    written_leader_epoch: int
    #: what the builder writes as base and max timestamp of a batch without records
    empty_batch_timestamp: int
    #: (memory records) -> bytes it framed as complete batches, when the library can tell
    valid_bytes: Callable[[Any], int] | None = None
    #: how it reads and writes legacy messages (kafka.message_set, kafka.record_set); see kafka_legacy
    legacy: LibraryLegacy | None = None

    def unsupported_fields(self) -> list[str]:
        fields = [] if self.leader_epoch else ["partition_leader_epoch"]
        return fields + ["records[].attributes", "records[].value.version", "records[].value.coordinator_epoch"]


def kind_of(exc: BaseException) -> str | None:
    """Our refusals carry a kind; a library exception's kind cannot be told apart reliably."""
    return exc.kind if isinstance(exc, Refused) else None


def implementation(lib: KafkaLibrary) -> Implementation:
    handlers = {FORMAT: {"decode": partial(decode, lib), "encode": partial(encode, lib)}}
    unsupported = {FORMAT: lib.unsupported_fields()}
    if lib.legacy is not None:
        handlers[MESSAGE_SET] = {"decode": partial(decode_message_set, lib)}
        if lib.legacy.builder_cls is not None:
            handlers[MESSAGE_SET]["encode"] = partial(encode_legacy, lib)
        handlers[RECORD_SET] = {"decode": partial(decode_record_set, lib)}
        unsupported[MESSAGE_SET] = list(LEGACY_UNSUPPORTED)
        # a record set's v2 batches lose what the library hides of a v2 batch; without a count of
        # framed bytes, the library cannot tell a cut-off last entry either
        unsupported[RECORD_SET] = record_set_unsupported(lib)
    return Implementation(name=lib.name, version=lib.version, handlers=handlers,
                          unsupported_fields=unsupported, kind_of=kind_of)


# ---------------------------------------------------------------- decoding

def _one_batch(lib: KafkaLibrary, data: bytes):
    """Frame the input with the library's MemoryRecords: exactly one complete batch."""
    records = lib.memory_records(data)
    if not records.has_next():
        raise Refused(f"{lib.name} MemoryRecords finds no complete batch in {len(data)} bytes", "truncated")
    batch = records.next_batch()
    if records.has_next():
        raise Refused(f"{lib.name} MemoryRecords finds a second batch after the first", "trailing_bytes")
    if lib.valid_bytes is not None and lib.valid_bytes(records) != len(data):
        raise Refused(f"{lib.name} MemoryRecords frames {lib.valid_bytes(records)} of {len(data)} bytes",
                      "trailing_bytes")
    return batch


def _name(table, number: int):
    return table[number] if 0 <= number < len(table) else number


def decode(lib: KafkaLibrary, data: bytes) -> dict:
    batch = _one_batch(lib, data)
    magic = getattr(batch, "magic", None)
    if type(batch) is not lib.batch_cls or magic != 2:
        raise Refused(f"magic {magic} ({type(batch).__name__}), not a v2 batch", "invalid_value")
    return batch_json(lib, batch)


def batch_json(lib: KafkaLibrary, batch) -> dict:
    """A v2 batch object of the library as canonical JSON."""
    if not batch.validate_crc():  # before iterating, which decompresses
        raise Refused(f"{lib.name}: stored CRC {batch.crc:#010x} does not match the batch", "checksum_mismatch")
    records = list(batch)  # the library's parser; its exceptions are refusals
    if batch.timestamp_type == 1 and records:
        raise Unsupported(f"{lib.name} reports every record's timestamp as max_timestamp under log-append "
                          "time, so records[].timestamp_delta is not exposed")
    attributes = batch.attributes
    value: dict[str, Any] = {"base_offset": str(batch.base_offset), "len_batch": None}
    if lib.leader_epoch is not None:
        value["partition_leader_epoch"] = lib.leader_epoch(batch)
    value.update({
        "magic": batch.magic,
        "crc": None,
        "attributes": {
            "reserved": (attributes >> RESERVED_SHIFT) & RESERVED_MASK,
            "has_delete_horizon": bool(attributes & DELETE_HORIZON_BIT),
            "is_control": bool(batch.is_control_batch),
            "is_transactional": bool(batch.is_transactional),
            "timestamp_type": TIMESTAMP_TYPES.get(batch.timestamp_type, batch.timestamp_type),
            "compression": _name(CODEC_NAMES, batch.compression_type),
        },
        "last_offset_delta": batch.last_offset_delta,
        "base_timestamp": str(batch.first_timestamp),
        "max_timestamp": str(batch.max_timestamp),
        "producer_id": str(batch.producer_id),
        "producer_epoch": batch.producer_epoch,
        "base_sequence": batch.base_sequence,
        "num_records": None,
        "records": [_record(lib, batch, r) for r in records],
    })
    return value


def _record(lib: KafkaLibrary, batch, record) -> dict:
    if batch.is_control_batch:
        key = None
        if record.key is not None:
            version, kind = lib.control_key(record)
            key = {"version": version, "type": CONTROL_TYPES.get(kind, kind)}
        value = None if record.value is None else {}  # the marker's value is not parsed (unsupported_fields)
    else:
        key = None if record.key is None else bytes(record.key).hex()
        value = None if record.value is None else bytes(record.value).hex()
    return {
        "len_record": None,
        "timestamp_delta": str(record.timestamp - batch.first_timestamp),
        "offset_delta": record.offset - batch.base_offset,
        "len_key": None, "key": key,
        "len_value": None, "value": value,
        "num_headers": None,
        "headers": [{"len_key": None, "key": k, "len_value": None, "value": None if v is None else bytes(v).hex()}
                    for k, v in record.headers],
    }


# ---------------------------------------------------------------- legacy messages and record sets

def _entries(lib: KafkaLibrary, data: bytes):
    """(batch object, its bytes' start) for each entry the library's MemoryRecords frames."""
    records, pos = lib.memory_records(data), 0
    while records.has_next():
        batch = records.next_batch()
        yield batch, pos
        pos += len(entry_bytes(data, pos))
    if lib.valid_bytes is not None:
        yield None, lib.valid_bytes(records)


def _is_v2(lib: KafkaLibrary, batch) -> bool:
    return type(batch) is lib.batch_cls


def decode_message_set(lib: KafkaLibrary, data: bytes) -> dict:
    entries = []
    for batch, pos in _entries(lib, data):
        if batch is None:  # the library's count of bytes framed as complete messages
            if pos != len(data):
                raise Refused(f"{lib.name} MemoryRecords frames {pos} of {len(data)} bytes", "truncated")
        elif _is_v2(lib, batch):
            raise Refused(f"{lib.name} reads a v2 batch at byte {pos}, not a legacy message", "invalid_value")
        else:
            entries.append(legacy_entry(lib.name, lib.legacy, batch, entry_bytes(data, pos)))
    if data and not entries:
        raise Refused(f"{lib.name} MemoryRecords finds no complete message in {len(data)} bytes", "truncated")
    return {"entries": entries, "inner_offset_base": None}


def decode_record_set(lib: KafkaLibrary, data: bytes) -> dict:
    entries, partial = [], None
    for batch, pos in _entries(lib, data):
        if batch is None:  # a cut-off last entry is what a Fetch returns, not an error
            partial = data[pos:].hex()
        elif _is_v2(lib, batch):
            entries.append(batch_json(lib, batch))
        else:
            entries.append(legacy_entry(lib.name, lib.legacy, batch, entry_bytes(data, pos)))
    return {"entries": entries, "partial_entry": partial}


def encode_record_set(lib: KafkaLibrary, value: dict) -> bytes:
    """A record set of v2 batches, each written by the library's builder (as `encode` writes one),
    then the cut-off last entry's bytes as they are."""
    entries = value["entries"]
    if any(entry.get("magic") != 2 for entry in entries):
        raise Unsupported(f"{lib.name}: a record set here holds v2 batches only")
    return b"".join(encode(lib, entry) for entry in entries) + bytes.fromhex(value.get("partial_entry") or "")


def record_set_unsupported(lib: KafkaLibrary) -> list[str]:
    """The paths of a kafka.record_set value the library cannot report."""
    return LEGACY_UNSUPPORTED + [f"entries[].{p}" for p in lib.unsupported_fields()] + (
        [] if lib.valid_bytes else ["partial_entry"])


def encode_legacy(lib: KafkaLibrary, value: dict) -> bytes:
    try:
        return encode_message_set(lib.name, lib.legacy, value)
    except Exception as exc:
        if type(exc).__name__ == "UnsupportedCodecError":  # a codec the builder deliberately does not write
            raise Unsupported(f"{lib.name} builder: {exc}") from None
        raise


# ---------------------------------------------------------------- encoding

def _int(v) -> int:
    if isinstance(v, bool) or not isinstance(v, (int, str)):
        raise ValueError(f"expected an integer, got {v!r}")
    return int(v)


def _enum(value, names: dict[int, str] | tuple, what: str) -> int:
    table = dict(enumerate(names)) if isinstance(names, tuple) else names
    if isinstance(value, str):
        for number, name in table.items():
            if name == value:
                return number
        raise ValueError(f"unknown {what} {value!r}")
    return _int(value)


def _bytes(v) -> bytes | None:
    if v is None:
        return None
    if isinstance(v, dict):
        raise Unsupported(f"{v!r} is a control-record object; the builders write plain bytes and no control batch")
    return bytes.fromhex(v)


def _builder_limits(lib: KafkaLibrary, v: dict) -> list[str]:
    """Why the builder cannot write value `v` as given (empty when it can)."""
    problems = []
    attrs = v["attributes"]
    if _int(v["base_offset"]) != 0:
        problems.append(f"base_offset {v['base_offset']}: the builder always writes 0 (the broker assigns offsets)")
    if _int(v["partition_leader_epoch"]) != lib.written_leader_epoch:
        problems.append(f"partition_leader_epoch {v['partition_leader_epoch']}: the builder always writes "
                        f"{lib.written_leader_epoch}")
    if _int(v["magic"]) != 2:
        problems.append(f"magic {v['magic']}: only v2 batches are built here")
    if _int(attrs["reserved"]) != 0:
        problems.append("reserved attribute bits: the builder cannot set them")
    if attrs["has_delete_horizon"]:
        problems.append("has_delete_horizon: the builder cannot set it (compaction sets it)")
    if attrs["is_control"]:
        problems.append("is_control: the builder cannot set the control bit (control batches are broker-written)")
    if _enum(attrs["timestamp_type"], TIMESTAMP_TYPES, "timestamp type") != 0:
        problems.append("timestamp_type log_append_time: the builder cannot set it (broker-set)")
    if _enum(attrs["compression"], CODEC_NAMES, "codec") not in range(len(CODEC_NAMES)):
        problems.append(f"compression {attrs['compression']!r}: not a codec the builder knows")
    records = v["records"]
    base = _int(v["base_timestamp"])
    stamps = [base + _int(r["timestamp_delta"]) for r in records]
    if records and _int(records[0]["timestamp_delta"]) != 0:
        problems.append(f"records[0].timestamp_delta {records[0]['timestamp_delta']}: the builder takes "
                        "base_timestamp from the first record, whose delta is then 0")
    if not records and base != lib.empty_batch_timestamp:
        problems.append(f"base_timestamp {base} of an empty batch: the builder writes {lib.empty_batch_timestamp}")
    max_written = max(stamps) if records else lib.empty_batch_timestamp
    if _int(v["max_timestamp"]) != max_written:
        problems.append(f"max_timestamp {v['max_timestamp']}: the builder writes the largest record timestamp "
                        f"({max_written})")
    last_written = _int(records[-1]["offset_delta"]) if records else 0
    if v.get("last_offset_delta") is not None and _int(v["last_offset_delta"]) != last_written:
        problems.append(f"last_offset_delta {v['last_offset_delta']}: the builder writes the last record's "
                        f"offset delta ({last_written})")
    for i, r in enumerate(records):
        if _int(r.get("attributes") or 0) != 0:
            problems.append(f"records[{i}].attributes {r['attributes']}: the builder always writes 0")
    return problems


def encode(lib: KafkaLibrary, v: dict) -> bytes:
    problems = _builder_limits(lib, v)
    if problems:
        raise Unsupported(f"{lib.name}: " + "; ".join(problems))
    codec_name = CODEC_NAMES[_enum(v["attributes"]["compression"], CODEC_NAMES, "codec")]
    codec = getattr(lib.batch_cls, f"CODEC_{codec_name.upper()}")
    transactional = bool(v["attributes"]["is_transactional"])
    producer_id, epoch, sequence = _int(v["producer_id"]), _int(v["producer_epoch"]), _int(v["base_sequence"])
    builder = lib.builder_cls(2, codec, int(transactional), producer_id, epoch, sequence, BATCH_SIZE)
    if producer_id != -1:
        lib.set_producer_state(builder, producer_id, epoch, sequence, transactional)
    base = _int(v["base_timestamp"])
    for i, r in enumerate(v["records"]):
        headers = [(h["key"], _bytes(h["value"])) for h in r["headers"]]
        if builder.append(_int(r["offset_delta"]), base + _int(r["timestamp_delta"]),
                          _bytes(r["key"]), _bytes(r["value"]), headers) is None:
            raise RuntimeError(f"{lib.name} builder refused records[{i}] (batch full)")
    data = bytes(builder.build())
    written = lib.batch_cls(data).compression_type  # read back with the library's own class
    if written != codec:
        raise Unsupported(f"{lib.name} builder wrote codec {_name(CODEC_NAMES, written)} instead of {codec_name}: "
                          "it keeps records uncompressed when compressing does not shrink them")
    return data
