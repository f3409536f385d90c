"""Translation between canonical JSON of ``kafka.request`` and ``kafka.response`` and kafka-python's
protocol message classes (``kafka.protocol``), which load kafka-python's own copy of Kafka's
message specs and read and write every API version it knows.

Only kafka-python's classes read and write bytes: its ``RequestHeader`` reads a request's API key
and version, the message class of that key (a response's: of the key the run request's params
name) reads the frame, header and body, and writes it back. This module maps their objects to
JSON and back, field by field, walking kafka-python's own description of each message
(``cls.fields``, each field's versions and tag):

* names: kafka-python's attribute names (the spec's in ``lower_snake``, as ours), but the two it renames
  (its ``json_patch`` of MetadataResponse and DescribeClusterResponse, the only names it writes in
  lower case): ``authorized_operations`` is ``cluster_authorized_operations`` at a message's root
  and ``topic_authorized_operations`` in a topic;
* values: int64 as decimal strings, bools as 0 and 1, uuids and bytes as hex, an element of a list
  of strings or bytes as ``{"value": ...}``, kafka-python's ``bitfield`` (a set of bit numbers) as
  the signed int32 it reads (None is the bits of -2**31, which it reads as "unknown");
* a ``records`` field: its bytes read by kafka-python's record classes into ``kafka.record_set``'s
  JSON (``kafka_common.decode_record_set``), written back by its batch builder;
* tagged fields: each known tag the version holds at other than its default, as an entry
  ``{"tag": n, "data": {field: value}}``, and each tag it does not know (kept in ``unknown_tags``)
  as ``{"tag": n, "data": hex}``, in tag order (the order Kafka writes them in); kafka-python
  writes no unknown tag back, so a value with one is ``Unsupported`` to encode. It reads a known
  tag by its field's type and skips an unknown one by its size without checking that the size
  is there or matches the field;
* left out: the fields of other versions than the frame's (kafka-python's specs are of a later
  Kafka than ours, so it knows fields our types do not have), which are null in the vectors, and
  lengths, counts and ``has_`` markers, which the value's other fields say.

kafka-python reads no byte after a frame's body (its decoder returns where it stopped, and
``decode`` does not look), so it accepts a frame with bytes after it.
"""

from __future__ import annotations

import importlib
import pkgutil
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from logcodec.conformance.testee import Unsupported
from logcodec.runtime.values import NON_FINITE_JSON, float_json

REQUEST, RESPONSE = "kafka.request", "kafka.response"
#: the bits of the int32 kafka-python reads as an unknown set of operations (None)
UNKNOWN_OPERATIONS = -(2**31)


def message_classes() -> dict[str, type]:
    """kafka-python's message classes (one per API and direction, the version an index), by name."""
    protocol = importlib.import_module("kafka.protocol")
    api_message = importlib.import_module("kafka.protocol.api_message")
    for m in pkgutil.walk_packages(protocol.__path__, "kafka.protocol."):
        if ".old" not in m.name and "generate_stubs" not in m.name:
            importlib.import_module(m.name)
    found, todo = {}, [api_message.ApiMessage]
    while todo:
        for sub in todo.pop().__subclasses__():
            todo.append(sub)
            shipped = sub.__module__.startswith("kafka.")  # not classes made elsewhere from other specs
            if shipped and getattr(sub, "_class_version", None) is None and getattr(sub, "_valid_versions", None):
                found[sub.__name__] = sub
    return found


@dataclass(frozen=True)
class Protocol:
    requests: dict[int, type]  # message class by API key
    responses: dict[int, type]
    records_json: Callable[[bytes], dict]  # a records field's bytes as kafka.record_set JSON
    records_bytes: Callable[[dict], bytes]  # and back


def protocol(records_json: Callable[[bytes], dict], records_bytes: Callable[[dict], bytes]) -> Protocol:
    classes = message_classes().values()
    return Protocol({c.API_KEY: c for c in classes if c.is_request()},
                    {c.API_KEY: c for c in classes if not c.is_request()},
                    records_json, records_bytes)


def handlers(proto: Protocol) -> dict[str, dict[str, Callable]]:
    return {REQUEST: {"decode": partial(decode_request, proto), "encode": partial(encode_request, proto)},
            RESPONSE: {"decode": partial(decode_response, proto), "encode": partial(encode_response, proto)}}


def unsupported_fields(proto: Protocol, record_set: list[str]) -> dict[str, list[str]]:
    """What the library cannot report: in every `records` field, what its record classes hide of a
    record set (`record_set`, paths in kafka.record_set's value)."""
    return {fmt: [f"{path}.{hidden}" for path in records_paths(table) for hidden in record_set]
            for fmt, table in ((REQUEST, proto.requests), (RESPONSE, proto.responses))}


def records_paths(table: dict[int, type]) -> list[str]:
    """The value paths of every `records` field of the messages, by kafka-python's description."""
    paths: set[str] = set()

    def walk(fields: dict, path: str) -> None:
        for attr, f in fields.items():
            here = f"{path}.{field_name(attr, f, path != 'body')}"
            if f.type_str == "records":
                paths.add(here)
            elif f.is_struct_array():
                walk(f.fields, here + "[]")
            elif f.is_struct():
                walk(f.fields, here)

    for cls in table.values():
        walk(cls.fields, "body")
    return sorted(paths)


# ---------------------------------------------------------------- decoding

def _class(table: dict[int, type], api_key: int, api_version: int, what: str) -> type:
    """kafka-python's class of an API version; one it does not have is outside what it implements
    (skipped, as the testees take the APIs and versions their library knows), whether Kafka has it
    or not: an unknown version is refused by the testees that know every version."""
    cls = table.get(api_key)
    if cls is None:
        raise Unsupported(f"kafka-python has no {what} class of API key {api_key}")
    if not cls.min_version <= api_version <= cls.max_version:
        raise Unsupported(f"kafka-python has no {what} class of API key {api_key} version {api_version} "
                          f"({cls.__name__} has versions {cls.min_version}..{cls.max_version})")
    return cls


def decode_request(proto: Protocol, data: bytes) -> dict:
    from kafka.protocol.schemas.fields.codecs import Int16

    # the header's first two fields, its API key and version, say which class reads the frame (its
    # header class reads only versions 1 and 2: ControlledShutdown v0's header, version 0, it has not)
    api_key, at = Int16.decode_from(data, 0)
    api_version, _ = Int16.decode_from(data, at)
    cls = _class(proto.requests, api_key, api_version, "request")
    message = cls.decode(data, version=api_version, header=True)
    header = message.header
    return {"header": {"request_api_key": header.request_api_key,
                       "request_api_version": header.request_api_version,
                       "correlation_id": header.correlation_id, "client_id": header.client_id,
                       "tagged_fields": [] if cls.flexible_version_q(message.API_VERSION) else None},
            "body": _body(proto, message)}


def decode_response(proto: Protocol, data: bytes, *, api_key: int, api_version: int) -> dict:
    cls = _class(proto.responses, api_key, api_version, "response")
    message = cls.decode(data, version=api_version, header=True)
    header = message.header
    return {"header": {"correlation_id": header.correlation_id,
                       "tagged_fields": [] if header.version >= 1 else None},
            "body": _body(proto, message)}


def _body(proto: Protocol, message) -> dict:
    version = message.API_VERSION  # an ApiVersions response with an error: 0, as kafka-python reads it
    return _struct(proto, type(message).fields, message, version, message.flexible_version_q(version), False)


def field_name(attr: str, f, nested: bool) -> str:
    if f._name == "authorized_operations":  # kafka-python's rename (its patch writes the name in lower case)
        return "topic_authorized_operations" if nested else "cluster_authorized_operations"
    return attr


def _struct(proto: Protocol, fields: dict, obj, version: int, flexible: bool, nested: bool) -> dict:
    out: dict[str, Any] = {}
    tagged = []
    for attr, f in fields.items():
        if not f.for_version_q(version):
            continue
        value = getattr(obj, attr)
        if f.tagged_field_q(version):
            if value != f.default:
                tagged.append({"tag": f.tag, "data": {field_name(attr, f, nested): _field(proto, f, value, version, flexible)}})
            continue
        out[field_name(attr, f, nested)] = _field(proto, f, value, version, flexible)
    if flexible:  # else left out, as a field of other versions
        for key, data in (getattr(obj, "unknown_tags", None) or {}).items():  # kafka-python's "_<tag>": bytes
            tagged.append({"tag": int(key.lstrip("_")), "data": bytes(data).hex()})
        out["tagged_fields"] = sorted(tagged, key=lambda entry: entry["tag"])
    return out


def _field(proto: Protocol, f, value, version: int, flexible: bool):
    if f.type_str == "bitfield":
        return _bits(value)
    if value is None:
        return None
    if f.is_struct_array():
        return [_struct(proto, f.fields, item, version, flexible, True) for item in value]
    if f.is_array():
        element = f.array_of.type_str
        return [{"value": simple_json(element, item, proto.records_json)} if element in ("string", "bytes")
                else simple_json(element, item, proto.records_json) for item in value]
    if f.is_struct():
        return _struct(proto, f.fields, value, version, flexible, True)
    return simple_json(f.type_str, value, proto.records_json)


def simple_json(type_str: str, value, records_json: Callable[[bytes], dict]):
    """A value of one of the spec's simple types as canonical JSON (`records` through `records_json`)."""
    if value is None:
        return None
    if type_str == "int64":
        return str(value)
    if type_str == "bool":
        return int(value)
    if type_str == "uuid":
        return value.bytes.hex()
    if type_str == "bytes":
        return bytes(value).hex()
    if type_str == "records":
        return records_json(bytes(value))
    if type_str == "float64":
        return float_json(value)
    return value


def _bits(value) -> int:
    if value is None:
        return UNKNOWN_OPERATIONS
    bits = sum(1 << bit for bit in value)
    return bits - (1 << 32) if bits >= 1 << 31 else bits


# ---------------------------------------------------------------- encoding

def encode_request(proto: Protocol, value: dict) -> bytes:
    header = value["header"]
    version = header["request_api_version"]
    cls = _class(proto.requests, header["request_api_key"], version, "request")
    if header.get("tagged_fields"):
        raise Unsupported("kafka-python writes no tagged field in a request header")
    message = _message(proto, cls, version, value["body"])
    message.with_header(correlation_id=header["correlation_id"], client_id=header["client_id"])
    return bytes(message.encode(header=True))  # cls[version] carries its version


def encode_response(proto: Protocol, value: dict, *, api_key: int, api_version: int) -> bytes:
    cls = _class(proto.responses, api_key, api_version, "response")
    header = value["header"]
    if header.get("tagged_fields"):
        raise Unsupported("kafka-python writes no tagged field in a response header")
    message = _message(proto, cls, api_version, value["body"])
    message.with_header(correlation_id=header["correlation_id"])
    return bytes(message.encode(header=True))


def _message(proto: Protocol, cls: type, version: int, body: dict):
    flexible = cls.flexible_version_q(version)
    return cls[version](**_kwargs(proto, cls.fields, body, version, flexible, False))


def _kwargs(proto: Protocol, fields: dict, value: dict, version: int, flexible: bool, nested: bool) -> dict:
    tagged = {entry["tag"]: entry["data"] for entry in value.get("tagged_fields") or []}
    out = {}
    for attr, f in fields.items():
        if not f.for_version_q(version):
            continue
        name = field_name(attr, f, nested)
        if f.tagged_field_q(version):
            data = tagged.pop(f.tag, None)
            if data is not None:
                if not isinstance(data, dict) or name not in data:
                    raise Unsupported(f"tag {f.tag} holds no {name}")
                out[attr] = _from_field(proto, f, data[name], version, flexible)
            continue
        out[attr] = _from_field(proto, f, value.get(name), version, flexible)
    if tagged:
        raise Unsupported(f"kafka-python writes no tagged field it does not know (tags {sorted(tagged)})")
    return out


def _from_field(proto: Protocol, f, value, version: int, flexible: bool):
    if f.type_str == "bitfield":
        return None if value == UNKNOWN_OPERATIONS else {bit for bit in range(32) if value & (1 << bit)}
    if value is None:
        return None
    if f.is_struct_array():
        cls = f.array_of.data_class
        return [cls(**_kwargs(proto, f.fields, item, version, flexible, True)) for item in value]
    if f.is_array():
        element = f.array_of.type_str
        return [simple_from_json(element, item["value"] if element in ("string", "bytes") else item, proto.records_bytes)
                for item in value]
    if f.is_struct():
        return f.data_class(**_kwargs(proto, f.fields, value, version, flexible, True))
    return simple_from_json(f.type_str, value, proto.records_bytes)


def simple_from_json(type_str: str, value, records_bytes: Callable[[dict], bytes]):
    """A simple value back from canonical JSON (`records` through `records_bytes`)."""
    if value is None:
        return None
    if type_str == "int64":
        return int(value)
    if type_str == "bool":
        return bool(value)
    if type_str == "uuid":
        return uuid.UUID(hex=value)
    if type_str == "bytes":
        return bytes.fromhex(value)
    if type_str == "records":
        return records_bytes(value)
    if type_str == "float64" and isinstance(value, str):
        return NON_FINITE_JSON[value]
    return value
