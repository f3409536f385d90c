"""Translation between canonical JSON of ``kafka.message_set`` / ``kafka.record_set`` and the legacy
(magic 0 and 1) record classes of kafka-python and aiokafka (C and pure Python).

As for v2 batches (kafka_common), only the libraries read and write bytes: their ``MemoryRecords``
frames the input and picks the class of each entry by its magic byte, their ``LegacyRecordBatch``
checks the CRC, decompresses a wrapper and yields its records, their ``LegacyRecordBatchBuilder``
writes message sets. One top-level entry is one "batch" of the library.

What consumers of the libraries see, and how it becomes canonical JSON:

* A plain message: its record's ``offset``, ``timestamp`` (None for magic 0), ``key`` and ``value``.
* A compressed wrapper: its inner messages as records with *absolute* offsets, each carrying the
  wrapper's timestamp type (and, under log-append time, the wrapper's timestamp: such an entry is
  answered ``unsupported``, as for v2 batches, since the inner timestamps are lost).
* What consumers never see, the message header (magic, attribute bits, a wrapper's own timestamp
  and key), is read with the library's own header parser (``_read_header``, ``_read_key_value``),
  and the inner offsets as written with its ``_read_all_headers``: never with logcodec's code.
  aiokafka's C classes keep these in C fields; ``LibraryLegacy.header`` says how each library
  gets them.
* Inner offsets: canonical JSON keeps them as written (relative in magic 1) and defines
  ``inner_offset_base`` as Java does: wrapper offset - last inner offset as written, when not
  negative, else 0. The testee reports ``absolute offset - that base``: the offset as written
  when the library follows Java's rule, and a visible difference when it does not.
* Inner messages are read by the libraries with the wrapper's magic and must be uncompressed
  (the libraries assert it), so their magic is the wrapper's and their codec ``none``; the inner
  attribute bits are not exposed (``unsupported_fields``).
* Derived fields (sizes, CRCs, lengths) are left null; a bad CRC is refused with
  ``validate_crc``, the library's own check.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from logcodec.conformance.testee import Refused, Unsupported

MESSAGE_SET = "kafka.message_set"
RECORD_SET = "kafka.record_set"

LEGACY_CODECS = ("none", "gzip", "snappy", "lz4")  # zstd (4) needs magic 2
CODEC_MASK, TIMESTAMP_TYPE_BIT, RESERVED_SHIFT = 0x07, 0x08, 4
TIMESTAMP_TYPES = ("create_time", "log_append_time")
LOG_OVERHEAD = 12  # offset (int64) and size (int32) before each message

INNER = "entries[].message.value.entries[].message."
#: the inner messages' own attribute bits: the libraries read them only to assert "no codec"
LEGACY_UNSUPPORTED = [INNER + "attributes.reserved"]


@dataclass(frozen=True)
class Header:
    """A top-level message's header, as the library's own header parser reads it."""
    offset: int
    magic: int
    attributes: int
    timestamp: int | None
    key: bytes | None


@dataclass(frozen=True)
class LibraryLegacy:
    """How one library reads and writes legacy messages."""
    #: (batch, the entry's bytes) -> Header; called before the batch is iterated
    header: Callable[[Any, bytes], Header]
    #: (batch, the entry's bytes) -> inner offsets as written; called after iterating a wrapper
    inner_offsets: Callable[[Any, bytes], list[int]]
    #: the library's LegacyRecordBatchBuilder (magic, codec, batch_size), or None
    builder_cls: type | None


def header_from_python_batch(batch, _entry: bytes) -> Header:
    """kafka-python's and aiokafka's pure-Python LegacyRecordBatch parse the header themselves."""
    offset, _length, _crc, magic, attributes, timestamp = batch._read_header(0)
    key, _value = batch._read_key_value(batch.KEY_OFFSET_V1 if magic == 1 else batch.KEY_OFFSET_V0)
    return Header(offset, magic, attributes, timestamp, key)


def inner_offsets_from_python_batch(batch, _entry: bytes) -> list[int]:
    return [header[0] for header, _pos in batch._read_all_headers()]  # of the decompressed buffer


def python_twin(py_batch_cls: type, builder_cls: type) -> LibraryLegacy:
    """For a C batch class whose header fields Python cannot read: the same library's pure-Python
    class parses the entry's header and inner offsets; records, CRC and offsets still come from C."""
    def header(_batch, entry: bytes) -> Header:
        return header_from_python_batch(py_batch_cls(entry, entry[16]), entry)

    def inner_offsets(_batch, entry: bytes) -> list[int]:
        twin = py_batch_cls(entry, entry[16])
        list(twin)  # decompresses into twin's buffer
        return inner_offsets_from_python_batch(twin, entry)
    return LibraryLegacy(header, inner_offsets, builder_cls)


# ---------------------------------------------------------------- decoding

def _attributes(bits: int) -> dict:
    codec = bits & CODEC_MASK
    return {"reserved": bits >> RESERVED_SHIFT,
            "timestamp_type": TIMESTAMP_TYPES[bool(bits & TIMESTAMP_TYPE_BIT)],
            "compression": LEGACY_CODECS[codec] if codec < len(LEGACY_CODECS) else codec}


def _hex(b) -> str | None:
    return None if b is None else bytes(b).hex()


def _stamp(t) -> str | None:
    return None if t is None else str(t)


def entry_json(offset: int, magic: int, attributes: dict, timestamp, key, value) -> dict:
    return {"offset": str(offset), "len_message": None,
            "message": {"crc": None, "magic": magic, "attributes": attributes, "timestamp": timestamp,
                        "len_key": None, "key": key, "len_value": None, "value": value}}


def java_base(magic: int, wrapper_offset: int, last_inner_offset: int) -> int:
    """Kafka's inner_offset_base: magic 1 only, and only when not negative (the Java client's rule)."""
    base = wrapper_offset - last_inner_offset
    return base if magic == 1 and base >= 0 else 0


def legacy_entry(lib_name: str, legacy: LibraryLegacy, batch, entry: bytes) -> dict:
    """One top-level legacy message as canonical JSON, from the library's batch object."""
    head = legacy.header(batch, entry)
    if not batch.validate_crc():
        raise Refused(f"{lib_name}: the stored CRC-32 does not match the message at offset {head.offset}",
                      "checksum_mismatch")
    records = list(batch)  # the library decompresses and yields the records consumers get
    attributes = _attributes(head.attributes)
    if head.attributes & CODEC_MASK == 0:
        (record,) = records
        return entry_json(record.offset, head.magic, attributes, _stamp(record.timestamp),
                          _hex(record.key), _hex(record.value))
    if attributes["timestamp_type"] == "log_append_time":
        raise Unsupported(f"{lib_name} reports a log-append-time wrapper's timestamp as every inner message's "
                          "timestamp, so the inner timestamps are not exposed")
    written = legacy.inner_offsets(batch, entry)
    base = java_base(head.magic, head.offset, written[-1]) if written else 0
    inner = [entry_json(r.offset - base, head.magic, _inner_attributes(r), _stamp(r.timestamp),
                        _hex(r.key), _hex(r.value)) for r in records]
    return entry_json(head.offset, head.magic, attributes, _stamp(head.timestamp), _hex(head.key),
                      {"entries": inner, "inner_offset_base": None})


def _inner_attributes(record) -> dict:
    kind = record.timestamp_type  # the wrapper's type, None for magic 0
    return {"reserved": None, "timestamp_type": TIMESTAMP_TYPES[kind or 0], "compression": "none"}


def entry_bytes(data: bytes, pos: int) -> bytes:
    """The bytes of the entry at `pos`, sliced at its size field as the libraries' MemoryRecords do
    (only to hand a header parser its entry; the library has already framed it)."""
    size = int.from_bytes(data[pos + 8:pos + LOG_OVERHEAD], "big", signed=True)
    return data[pos:pos + LOG_OVERHEAD + size]


# ---------------------------------------------------------------- encoding

def _int(v) -> int:
    if isinstance(v, bool) or not isinstance(v, (int, str)):
        raise ValueError(f"expected an integer, got {v!r}")
    return int(v)


def _codec(name) -> int:
    if name in LEGACY_CODECS:
        return LEGACY_CODECS.index(name)
    raise Unsupported(f"compression {name!r}: not a legacy codec the builder writes")


def _plain_messages(entries: list[dict]) -> list[dict]:
    """The messages the builder would append: it writes them all with one magic, attributes 0."""
    messages = [e["message"] for e in entries]
    for i, m in enumerate(messages):
        a = m["attributes"]
        if _int(a["reserved"]) or a["timestamp_type"] != "create_time" or a["compression"] != "none":
            raise Unsupported(f"entries[{i}]: the builder writes attributes 0 (create time, no codec, no reserved "
                              f"bits), not {a}")
        if isinstance(m["value"], dict):
            raise Unsupported(f"entries[{i}]: a compressed wrapper among other messages; the builder writes one "
                              "wrapper holding every message, or none")
    return messages


def _builder_plan(value: dict) -> tuple[int, int, list[dict]]:
    """(magic, codec, entries to append) for a value the builder can write as given, else Unsupported.

    The builder writes either plain messages at the offsets appended, or, with a codec, one wrapper at
    offset 0 with timestamp 0 and a null key holding them (LegacyRecordBatchBuilder._maybe_compress)."""
    entries = value["entries"]
    wrapper = entries[0]["message"] if len(entries) == 1 and isinstance(entries[0]["message"]["value"], dict) \
        else None
    if wrapper is None:
        inner, codec = entries, 0
    else:
        a = wrapper["attributes"]
        problems = [f"{name} {got}: the builder writes {want}" for name, got, want in [
            ("wrapper offset", _int(entries[0]["offset"]), 0),
            ("wrapper timestamp", None if wrapper["timestamp"] is None else _int(wrapper["timestamp"]),
             None if wrapper["magic"] == 0 else 0),
            ("wrapper key", wrapper["key"], None), ("wrapper reserved bits", _int(a["reserved"]), 0),
            ("wrapper timestamp type", a["timestamp_type"], "create_time")] if got != want]
        if problems:
            raise Unsupported("; ".join(problems))
        inner, codec = wrapper["value"]["entries"], _codec(a["compression"])
    messages = _plain_messages(inner)
    magics = {_int(m["magic"]) for m in messages} | ({_int(wrapper["magic"])} if wrapper else set())
    if len(magics) > 1:
        raise Unsupported(f"magics {sorted(magics)}: the builder writes one magic for every message")
    return (magics.pop() if magics else 0), codec, inner


def encode_message_set(lib_name: str, legacy: LibraryLegacy, value: dict) -> bytes:
    magic, codec, entries = _builder_plan(value)
    builder = legacy.builder_cls(magic, codec, 2**31 - 1)
    for i, e in enumerate(entries):
        m = e["message"]
        timestamp = None if m["timestamp"] is None else _int(m["timestamp"])
        key = None if m["key"] is None else bytes.fromhex(m["key"])
        val = None if m["value"] is None else bytes.fromhex(m["value"])
        if builder.append(_int(e["offset"]), timestamp, key, val) is None:
            raise RuntimeError(f"{lib_name} builder refused entries[{i}] (batch full)")
    return bytes(builder.build())
