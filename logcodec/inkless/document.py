"""Inkless batch blocks: the seed's document form of block metadata, Kafka's UUID texts, object
keys and the order of topic ids.

The metadata of a block has a binary encoding, `inkless.block_metadata` (see its schema), and the
document form the Inkless design decision shows, a YAML list::

    - block_header:
        - id: 0c9d7f3e-5a1b-4c2d-8e4f-6a7b8c9d0e1f
        - broker: 3
        - eventTimestamp: 1700000000250
        - path: inkless/DJ1_PlobTC2OT2p7jJ0OHw
        - flags: 0
    - topic_partitions:
        - topic_partition:
            id: f0e1d2c3-b4a5-4697-8879-6a5b4c3d2e1f
            name: orders
            partition: 0
            batches:
              - batch:
                  - byte_offset: 0
                  - size: 107
                  - number_of_records: 2

JSON carries the same structure. Both directions are lossless: binary -> document -> text ->
document -> binary gives the same bytes. UUIDs are canonical 8-4-4-4-12 lowercase hex text;
numbers are integers (a 64-bit `eventTimestamp` or `byte_offset` is an exact JSON number, which
JSON readers that use doubles round above 2^53); `flags` is the 32 flag bits as a Java `int`
(bit 0 compressed, bit 1 encrypted, bit 31 the sign). A document is read strictly: every key
once and nothing else, in the seed's order where the seed writes a list (a `topic_partition` is a
mapping, whose keys may come in any order), each value of its type and range. A bad document raises
`DecodeError` of kind `invalid_value` whose path names the place, e.g.
`block_metadata.topic_partitions[0].topic_partition.batches[1].batch.size`.

Kafka writes a UUID as 22 characters of URL-safe base64 without padding (`Uuid.toString`), and
Inkless names each object `<prefix>/<that text>`. Inkless lays out a block by (topic id,
partition), comparing topic ids with `Uuid.compareTo`: see `topic_id_sort_key`.

Inkless's own metadata (rows of its `files` and `batches` tables) is in `logcodec.inkless.shipped`;
building blocks, reading a partition back and validating metadata against an object, in either
form, is in `logcodec.inkless.blocks`.
"""

from __future__ import annotations

import base64
import json
import re
import uuid as _uuid

import yaml

from logcodec._api import codec
from logcodec.runtime.errors import DecodeError, EncodeError
from logcodec.runtime.values import without_derived

from ._reading import S32, S64, bad, checked_int, kind_of

FORMAT = "inkless.block_metadata"
MAGIC = b"IKBM"
VERSION = 1
ROOT = "block_metadata"  # the first component of every path in an error about a document

_S16_MAX = (1 << 15) - 1
_MIN_BATCH_SIZE = 61  # a v2 batch with no records: 12 bytes of offset and length, 49 of header

_UUID_TEXT = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
_BASE64URL = re.compile(r"[A-Za-z0-9_-]{22}")

#: Keys of the seed's block header, in its order, and the value field each one fills.
HEADER_KEYS = ("id", "broker", "eventTimestamp", "path", "flags")
#: Keys of a topic partition (a mapping in the seed, so any order is read; written in this one).
TOPIC_PARTITION_KEYS = ("id", "name", "partition", "batches")
#: Keys of a batch, in the seed's order.
BATCH_KEYS = ("byte_offset", "size", "number_of_records")


def _module():
    return codec(FORMAT)


# ---------------------------------------------------------------- UUIDs

def _uuid_bytes(value, what: str = "uuid") -> bytes:
    """16 bytes from bytes-like or a `uuid.UUID`; EncodeError otherwise."""
    if isinstance(value, _uuid.UUID):
        return value.bytes
    if isinstance(value, (bytes, bytearray, memoryview)) and len(value) == 16:
        return bytes(value)
    raise EncodeError("invalid_value", f"a UUID is 16 bytes or a uuid.UUID, not {value!r}", None, what)


def uuid_text(value) -> str:
    """The canonical 8-4-4-4-12 lowercase hex text of a 16-byte UUID."""
    return str(_uuid.UUID(bytes=_uuid_bytes(value)))


def uuid_from_text(text: str, path: str = "uuid") -> bytes:
    """The 16 bytes of canonical 8-4-4-4-12 lowercase hex text; anything else is `invalid_value`
    (no braces, `urn:uuid:`, missing hyphens or upper case: those would not round-trip)."""
    if not isinstance(text, str) or not _UUID_TEXT.fullmatch(text):
        raise DecodeError("invalid_value", f"{text!r} is not a UUID as 8-4-4-4-12 lowercase hex digits", None, path)
    return _uuid.UUID(text).bytes


def uuid_to_base64url(value) -> str:
    """Kafka's text of a UUID (`org.apache.kafka.common.Uuid.toString`): the 16 bytes, most
    significant first, in URL-safe base64 without padding, always 22 characters."""
    return base64.urlsafe_b64encode(_uuid_bytes(value)).rstrip(b"=").decode("ascii")


def uuid_from_base64url(text: str, path: str = "uuid") -> bytes:
    """The 16 bytes of Kafka's 22-character base64url UUID text.

    Stricter than Kafka's `Uuid.fromString`, which takes padding and ignores the 2 unused low
    bits of the last character: only the text `uuid_to_base64url` writes is accepted, so that
    every accepted text names one UUID and converts back to itself.
    """
    if not isinstance(text, str) or not _BASE64URL.fullmatch(text):
        raise DecodeError("invalid_value", f"{text!r} is not 22 characters of URL-safe base64", None, path)
    raw = base64.urlsafe_b64decode(text + "==")
    if uuid_to_base64url(raw) != text:
        raise DecodeError("invalid_value", f"{text!r} sets unused bits of its last character "
                          f"(the canonical text is {uuid_to_base64url(raw)!r})", None, path)
    return raw


def uuid_from_either_text(text: str, path: str = "uuid") -> bytes:
    """The 16 bytes of a UUID written either way: 8-4-4-4-12 hex (as PostgreSQL and the seed's
    document write it) or Kafka's 22 characters of base64url (as Kafka's tools print topic ids)."""
    if isinstance(text, str) and _UUID_TEXT.fullmatch(text):
        return uuid_from_text(text, path)
    if isinstance(text, str) and _BASE64URL.fullmatch(text):
        return uuid_from_base64url(text, path)
    raise DecodeError("invalid_value", f"{text!r} is neither 8-4-4-4-12 lowercase hex digits nor 22 characters "
                      "of URL-safe base64", None, path)


# ---------------------------------------------------------------- object keys

def object_key(prefix: str, block_id) -> str:
    """The object key Inkless gives a block: `<prefix>/<base64url id>`, or the id alone when the
    prefix is empty. As in Inkless (`ObjectKey.Path`), a non-blank prefix may not start or end
    with `/`."""
    if not isinstance(prefix, str):
        raise EncodeError("invalid_value", f"a prefix is text, not {prefix!r}", None, "prefix")
    if prefix.strip() and (prefix.startswith("/") or prefix.endswith("/")):
        raise EncodeError("invalid_value", f"prefix {prefix!r} may not start or end with '/'", None, "prefix")
    name = uuid_to_base64url(block_id)
    return name if prefix == "" else f"{prefix}/{name}"


def parse_object_key(key: str) -> tuple[str, bytes]:
    """(prefix, block id) of an object key: the prefix is everything before the last `/` (empty
    when there is none), and the rest must be a base64url UUID."""
    if not isinstance(key, str):
        raise DecodeError("invalid_value", f"an object key is text, not {key!r}", None, "object_key")
    prefix, _, name = key.rpartition("/")
    if prefix.strip() and (prefix.startswith("/") or prefix.endswith("/")):
        raise DecodeError("invalid_value", f"prefix {prefix!r} may not start or end with '/'", None, "object_key")
    return prefix, uuid_from_base64url(name, "object_key")


# ---------------------------------------------------------------- topic id order

def topic_id_sort_key(topic_id, *, unsigned: bool = False) -> tuple[int, int]:
    """A sort key that orders topic ids as Kafka's `Uuid.compareTo` does.

    Kafka's `Uuid.compareTo` compares the most significant 64 bits as a signed Java long, then
    the least significant 64 bits, also as a signed long. That is neither byte order nor the order
    of the 128 bits as one signed integer (where the low half would count as unsigned):
    `00000000-0000-0000-8000-000000000000` sorts before the nil UUID here.

    `unsigned=True` gives plain byte order (both halves compared with `Long.compareUnsigned`).

    Decision: signed halves by default. Inkless sorts a block's batches with
    `Comparator.comparing(topicId)` (`BatchBuffer.close`), i.e. with `Uuid.compareTo` of the
    Kafka it is built on (4.2.1-inkless in the snapshot our reference facts come from). Kafka's
    sources show two versions of that method: signed halves from its introduction (KAFKA-12206,
    2021), still there in 4.x-era code, and a later rewrite with `Long.compareUnsigned`. Which of
    the two Inkless's Kafka carries could not be read from its sources; the reference facts and
    issue 5 record the signed order, so that is the default, and `unsigned=True` reproduces
    blocks of an Inkless built on the rewrite. Only the layout a builder writes depends on this:
    readers and validators follow the metadata, which says where each batch is.
    """
    raw = _uuid_bytes(topic_id, "topic_id")
    signed = not unsigned
    return int.from_bytes(raw[:8], "big", signed=signed), int.from_bytes(raw[8:], "big", signed=signed)


def compare_topic_ids(a, b, *, unsigned: bool = False) -> int:
    """-1, 0 or 1 as `a.compareTo(b)` of Kafka's `Uuid` (see `topic_id_sort_key`)."""
    ka, kb = topic_id_sort_key(a, unsigned=unsigned), topic_id_sort_key(b, unsigned=unsigned)
    return (ka > kb) - (ka < kb)


def topic_partition_sort_key(topic_id, partition: int, *, unsigned: bool = False) -> tuple[int, int, int]:
    """The order in which Inkless lays out the batches of a block: topic id, then partition."""
    return (*topic_id_sort_key(topic_id, unsigned=unsigned), partition)


# ---------------------------------------------------------------- value -> document

def _flags_int(flags) -> int:
    raw = ((flags.reserved or 0) << 2) | (bool(flags.encrypted) << 1) | bool(flags.compressed)
    if not 0 <= raw < 1 << 32:
        raise EncodeError("invalid_value", f"reserved flag bits {flags.reserved!r} do not fit 30 bits", None,
                          f"{ROOT}.block_header.flags.reserved")
    return raw - (1 << 32) if raw >= 1 << 31 else raw


def metadata_to_document(value) -> list:
    """The seed's document form (a list, ready for YAML or JSON) of a block metadata value, as
    `logcodec.decode("inkless.block_metadata", data)` returns it, or built by hand). A value
    that cannot be encoded raises `EncodeError`, as `encode` would."""
    _module().encode(without_derived(value))  # the document says nothing the binary form cannot
    h = value.block_header
    header = [
        {"id": _text_of_uuid(h.id, f"{ROOT}.block_header.id")},
        {"broker": h.broker},
        {"eventTimestamp": h.event_timestamp},
        {"path": h.path},
        {"flags": _flags_int(h.flags)},
    ]
    partitions = []
    for i, tp in enumerate(value.topic_partitions):
        partitions.append({"topic_partition": {
            "id": _text_of_uuid(tp.id, f"{ROOT}.topic_partitions[{i}].id"),
            "name": tp.name,
            "partition": tp.partition,
            "batches": [{"batch": [{"byte_offset": b.byte_offset}, {"size": b.size},
                                   {"number_of_records": b.number_of_records}]}
                        for b in tp.batches],
        }})
    return [{"block_header": header}, {"topic_partitions": partitions}]


def _text_of_uuid(raw, path: str) -> str:
    try:
        return uuid_text(raw)
    except EncodeError as exc:
        exc.path = path
        raise


# ---------------------------------------------------------------- document -> value

def _text(v, path: str) -> str:
    if not isinstance(v, str):
        bad(path, f"must be text, not {kind_of(v)} ({v!r})")
    try:
        n = len(v.encode("utf-8"))
    except UnicodeEncodeError as exc:
        bad(path, f"is not valid Unicode text: {exc.reason}")
    if n > _S16_MAX:
        bad(path, f"takes {n} bytes of UTF-8, more than the {_S16_MAX} a 16-bit length allows")
    return v


def _single_key_list(v, path: str, keys: tuple[str, ...]) -> list:
    """The values of a list of one-key mappings with exactly `keys`, in that order."""
    if not isinstance(v, list):
        bad(path, f"must be a list of one-key mappings ({', '.join(keys)}), not {kind_of(v)}")
    out = []
    for i, (want, item) in enumerate(zip(keys, v)):
        if not isinstance(item, dict) or len(item) != 1:
            bad(f"{path}[{i}]", f"must be a mapping with the one key {want!r}, not {item!r}")
        (key, val), = item.items()
        if key != want:
            bad(f"{path}[{i}]", f"expected key {want!r} here, found {key!r} (keys go in the order {', '.join(keys)})")
        out.append(val)
    if len(v) != len(keys):
        missing = keys[len(v):]
        bad(path, f"missing {', '.join(map(repr, missing))}" if missing else
             f"has {len(v) - len(keys)} entries more than {', '.join(keys)}")
    return out


def metadata_from_document(doc):
    """The block metadata value of a document in the seed's form (as `metadata_to_document`
    writes it, or parsed from YAML or JSON). The value is complete, as decoding its bytes gives
    it; a document that breaks the form raises `DecodeError` (`invalid_value`) naming the place."""
    m = _module()
    if not isinstance(doc, list):
        bad(ROOT, f"must be a list (- block_header: ..., - topic_partitions: ...), not {kind_of(doc)}")
    header_doc, partitions_doc = _single_key_list(doc, ROOT, ("block_header", "topic_partitions"))
    hp = f"{ROOT}.block_header"
    hid, broker, ts, path, flags = _single_key_list(header_doc, hp, HEADER_KEYS)
    raw_flags = checked_int(flags, f"{hp}.flags", *S32) & 0xFFFFFFFF
    header = m.BlockHeader(
        id=uuid_from_text(hid, f"{hp}.id"),
        broker=checked_int(broker, f"{hp}.broker", *S32),
        event_timestamp=checked_int(ts, f"{hp}.eventTimestamp", *S64),
        path=_text(path, f"{hp}.path"),
        flags=m.BlockFlags(reserved=raw_flags >> 2, encrypted=bool(raw_flags & 2), compressed=bool(raw_flags & 1)),
    )
    tpp = f"{ROOT}.topic_partitions"
    if not isinstance(partitions_doc, list):
        bad(tpp, f"must be a list of topic_partition entries, not {kind_of(partitions_doc)}")
    partitions = [_topic_partition(m, item, f"{tpp}[{i}]") for i, item in enumerate(partitions_doc)]
    value = m.BlockMetadata(magic=MAGIC, version=VERSION, block_header=header, topic_partitions=partitions)
    return m.decode(m.encode(value))  # complete (lengths, counts), exactly as decoding the bytes gives it


def _topic_partition(m, item, path: str):
    if not isinstance(item, dict) or list(item) != ["topic_partition"]:
        bad(path, f"must be a mapping with the one key 'topic_partition', not {item!r}")
    tp = item["topic_partition"]
    path += ".topic_partition"
    if not isinstance(tp, dict):
        bad(path, f"must be a mapping ({', '.join(TOPIC_PARTITION_KEYS)}), not {kind_of(tp)}")
    extra = [k for k in tp if k not in TOPIC_PARTITION_KEYS]
    if extra:
        bad(f"{path}.{extra[0]}", f"unknown key {extra[0]!r} (a topic_partition has {', '.join(TOPIC_PARTITION_KEYS)})")
    missing = [k for k in TOPIC_PARTITION_KEYS if k not in tp]
    if missing:
        bad(path, f"missing {', '.join(map(repr, missing))}")
    batches = tp["batches"]
    if not isinstance(batches, list):
        bad(f"{path}.batches", f"must be a list of batch entries, not {kind_of(batches)}")
    return m.TopicPartition(
        id=uuid_from_text(tp["id"], f"{path}.id"),
        name=_text(tp["name"], f"{path}.name"),
        partition=checked_int(tp["partition"], f"{path}.partition", 0, S32[1]),
        batches=[_batch(m, b, f"{path}.batches[{j}]") for j, b in enumerate(batches)],
    )


def _batch(m, item, path: str):
    if not isinstance(item, dict) or list(item) != ["batch"]:
        bad(path, f"must be a mapping with the one key 'batch', not {item!r}")
    path += ".batch"
    offset, size, count = _single_key_list(item["batch"], path, BATCH_KEYS)
    return m.Batch(byte_offset=checked_int(offset, f"{path}.byte_offset", 0, S64[1]),
                   size=checked_int(size, f"{path}.size", _MIN_BATCH_SIZE, S32[1]),
                   number_of_records=checked_int(count, f"{path}.number_of_records", 0, S32[1]))


# ---------------------------------------------------------------- YAML and JSON text

class _Dumper(yaml.SafeDumper):
    """Indents lists under their key, as the seed writes them."""

    def increase_indent(self, flow=False, indentless=False):
        return super().increase_indent(flow, False)


#: How deep a metadata document's lists and mappings may nest (the seed's go 5 deep). Counted as
#: the document is read, not left to the recursion limit, which the host may have raised.
MAX_NESTING = 64


class _Loader(yaml.SafeLoader):
    """The safe loader, refusing a key written twice in one mapping (PyYAML keeps the last),
    aliases (the seed's document has none, and a few bytes of them stand for millions of entries)
    and nodes nested more than MAX_NESTING deep."""

    depth = 0

    def compose_node(self, parent, index):
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()
            raise yaml.composer.ComposerError(None, None, "an alias (*name): metadata documents have none",
                                              event.start_mark)
        if self.depth >= MAX_NESTING:
            raise _TooDeep
        self.depth += 1
        try:
            return super().compose_node(parent, index)
        finally:
            self.depth -= 1


class _TooDeep(Exception):
    """A metadata document nested deeper than MAX_NESTING."""


def _no_duplicates(loader, node, deep=False):
    seen = set()
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=deep)
        if key in seen:
            raise yaml.constructor.ConstructorError(None, None, f"duplicate key {key!r}", key_node.start_mark)
        seen.add(key)
    return loader.construct_mapping(node, deep)


_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _no_duplicates)


def document_to_yaml(doc: list) -> str:
    """YAML text of a document, laid out as the seed shows it."""
    return yaml.dump(doc, Dumper=_Dumper, sort_keys=False, default_flow_style=False, allow_unicode=True,
                     width=1 << 16)


def document_from_yaml(text: str) -> list:
    """The document of YAML text (safe loading; a key twice in one mapping is an error)."""
    try:
        return yaml.load(text, Loader=_Loader)
    except yaml.YAMLError as exc:
        raise DecodeError("invalid_value", f"not YAML: {exc}".replace("\n", " "), None, ROOT) from None
    except _TooDeep:
        raise DecodeError("invalid_value", f"not metadata: YAML nested more than {MAX_NESTING} deep", None,
                          ROOT) from None


def document_to_json(doc: list, indent: int | None = 2) -> str:
    """JSON text of a document (UTF-8 text kept as it is, integers exact)."""
    return json.dumps(doc, indent=indent, ensure_ascii=False) + "\n"


def _pairs(pairs):
    seen = {}
    for key, val in pairs:
        if key in seen:
            raise ValueError(f"duplicate key {key!r}")
        seen[key] = val
    return seen


def _constant(name):
    raise ValueError(f"{name} is not a number")


def document_from_json(text, root: str = ROOT):
    """The document of JSON text (a key twice in one object, NaN and Infinity are errors);
    `root` is the path an error names (the shipped form's documents have their own)."""
    try:
        return json.loads(text, object_pairs_hook=_pairs, parse_constant=_constant)
    except (ValueError, TypeError, RecursionError) as exc:
        raise DecodeError("invalid_value", f"not JSON: {exc}", None, root) from None


def dump_yaml(value) -> str:
    """The seed's YAML document of a block metadata value."""
    return document_to_yaml(metadata_to_document(value))


def load_yaml(text: str):
    """The block metadata value of the seed's YAML document."""
    return metadata_from_document(document_from_yaml(text))


def dump_json(value, indent: int | None = 2) -> str:
    """The seed's document of a block metadata value, as JSON."""
    return document_to_json(metadata_to_document(value), indent)


def load_json(text):
    """The block metadata value of the seed's document written as JSON."""
    return metadata_from_document(document_from_json(text))


__all__ = [
    "FORMAT", "MAGIC", "VERSION",
    "metadata_to_document", "metadata_from_document",
    "dump_yaml", "load_yaml", "dump_json", "load_json",
    "document_to_yaml", "document_from_yaml", "document_to_json", "document_from_json",
    "uuid_text", "uuid_from_text", "uuid_to_base64url", "uuid_from_base64url", "uuid_from_either_text",
    "object_key", "parse_object_key",
    "topic_id_sort_key", "compare_topic_ids", "topic_partition_sort_key",
]
