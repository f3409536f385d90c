"""Translation between canonical JSON of ``kafka.request`` and ``kafka.response`` and aiokafka's
protocol classes (``aiokafka.protocol``): a message per API version, each written by hand as a
``Schema`` of (name, type) pairs in wire order, read and written by aiokafka's own types.

Only aiokafka reads and writes bytes: its ``RequestHeader_v1`` schema reads a request's API key
and version, the class of that version (a response's: of the run request's params) reads the
body; ``build_request_header`` and the ``ResponseHeader`` structs write the header, the message
its body. aiokafka names fields its own way (``partition`` for Kafka's ``PartitionIndex``), so this
module lines its schema up with Kafka's spec of that version field by field, in order, taking the
names from Kafka's specs as kafka-python loads them (``kafka_protocol.message_classes``); a schema
whose fields do not line up with the spec's is ``Unsupported``, naming both. Values are translated
as ``kafka_protocol`` translates kafka-python's; a ``records`` field through aiokafka's record
classes. aiokafka has no version of most APIs past those its client sends: any other is
``Unsupported``, not refused. It reads tagged fields as raw bytes by tag (``TaggedFields``), so a
frame that has any is ``Unsupported`` too (none is refused).
"""

from __future__ import annotations

import importlib
import io
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from logcodec.conformance.testee import Unsupported
from logcodec.conformance.testees.kafka_protocol import (
    REQUEST,
    RESPONSE,
    field_name,
    records_paths,
    simple_from_json,
    simple_json,
)


@dataclass(frozen=True)
class Protocol:
    requests: dict[tuple[int, int], type]  # aiokafka's request class by (API key, version)
    responses: dict[tuple[int, int], type]
    specs: dict[tuple[str, int], type]  # Kafka's spec of a message ("request"/"response", API key)
    records_json: Callable[[bytes], dict]
    records_bytes: Callable[[dict], bytes]


def protocol(records_json: Callable[[bytes], dict], records_bytes: Callable[[dict], bytes]) -> Protocol:
    from aiokafka.protocol.api import RequestStruct, Response
    from logcodec.conformance.testees.kafka_protocol import message_classes

    package = importlib.import_module("aiokafka.protocol")
    for m in pkgutil.iter_modules(package.__path__, "aiokafka.protocol."):
        importlib.import_module(m.name)
    requests = {(c.API_KEY, c.API_VERSION): c for c in _concrete(RequestStruct)}
    responses = {(c.API_KEY, c.API_VERSION): c for c in _concrete(Response)}
    specs = {("request" if c.is_request() else "response", c.API_KEY): c for c in message_classes().values()}
    return Protocol(requests, responses, specs, records_json, records_bytes)


def _concrete(base: type) -> list[type]:
    found, todo = [], [base]
    while todo:
        for sub in todo.pop().__subclasses__():
            todo.append(sub)
            # (the bases have them as abstract properties: a class's own are numbers)
            if isinstance(getattr(sub, "API_VERSION", None), int) and isinstance(getattr(sub, "API_KEY", None), int):
                found.append(sub)
    return found


def handlers(proto: Protocol) -> dict[str, dict[str, Callable]]:
    return {REQUEST: {"decode": partial(decode_request, proto), "encode": partial(encode_request, proto)},
            RESPONSE: {"decode": partial(decode_response, proto), "encode": partial(encode_response, proto)}}


# ---------------------------------------------------------------- decoding

def _class(table: dict, api_key: int, api_version: int, what: str) -> type:
    cls = table.get((api_key, api_version))
    if cls is None:
        raise Unsupported(f"aiokafka has no {what} class of API key {api_key} version {api_version}")
    return cls


def _spec(proto: Protocol, kind: str, api_key: int):
    spec = proto.specs.get((kind, api_key))
    if spec is None:
        raise Unsupported(f"no spec of the {kind} of API key {api_key} to name aiokafka's fields by")
    return spec


def decode_request(proto: Protocol, data: bytes) -> dict:
    from aiokafka.protocol.api import RequestHeader_v1, RequestHeader_v2
    from aiokafka.protocol.types import Int16

    # the header's first two fields, its API key and version, say which class reads the frame (it
    # has header classes of versions 1 and 2 only: ControlledShutdown v0's header, version 0, it has not)
    first = io.BytesIO(data)
    key, version = Int16.decode(first), Int16.decode(first)
    cls = _class(proto.requests, key, version, "request")
    buf = io.BytesIO(data)
    header = (RequestHeader_v2 if cls.FLEXIBLE_VERSION else RequestHeader_v1).SCHEMA.decode(buf)
    if cls.FLEXIBLE_VERSION and header[4]:
        raise Unsupported("aiokafka reads tagged fields as raw bytes (a request header's here)")
    body = cls.SCHEMA.decode(buf)
    value = {"header": {"request_api_key": key, "request_api_version": version, "correlation_id": header[2],
                        "client_id": header[3]},
             "body": _struct(proto, _spec(proto, "request", key).fields, cls.SCHEMA, body, version,
                             cls.FLEXIBLE_VERSION, False)}
    if cls.FLEXIBLE_VERSION:
        value["header"]["tagged_fields"] = []
    return value


def decode_response(proto: Protocol, data: bytes, *, api_key: int, api_version: int) -> dict:
    from aiokafka.protocol.api import ResponseHeader_v0, ResponseHeader_v1

    cls = _class(proto.responses, api_key, api_version, "response")
    request = proto.requests.get((api_key, api_version))
    flexible = bool(request and request.FLEXIBLE_VERSION)
    buf = io.BytesIO(data)
    header = (ResponseHeader_v1 if flexible else ResponseHeader_v0).SCHEMA.decode(buf)
    if flexible and header[1]:
        raise Unsupported("aiokafka reads tagged fields as raw bytes (a response header's here)")
    body = cls.SCHEMA.decode(buf)
    value = {"header": {"correlation_id": header[0]},
             "body": _struct(proto, _spec(proto, "response", api_key).fields, cls.SCHEMA, body, api_version, flexible,
                             False)}
    if flexible:
        value["header"]["tagged_fields"] = []
    return value


def _lined_up(fields: dict, schema, version: int) -> list[tuple[str, object, object, int]]:
    """(spec attribute, spec field, aiokafka type, index in aiokafka's schema) for each field the
    version has but its tagged ones, in order; Unsupported where the two do not line up."""
    from aiokafka.protocol.types import TaggedFields

    spec = [(attr, f) for attr, f in fields.items() if f.for_version_q(version) and not f.tagged_field_q(version)]
    theirs = [(i, t) for i, t in enumerate(schema.fields) if t is not TaggedFields]
    if len(spec) != len(theirs):
        raise Unsupported(f"aiokafka's schema {list(schema.names)} does not line up with Kafka's spec of "
                          f"v{version}: {[attr for attr, _ in spec]}")
    return [(attr, f, t, i) for (attr, f), (i, t) in zip(spec, theirs)]


def _is_schema(aio_type) -> bool:
    from aiokafka.protocol.types import Schema

    return isinstance(aio_type, Schema)


def _only_field(f, version: int):
    """(attribute, field) of a struct that aiokafka writes as a list of its one field's values
    (Metadata's topics, strings, where Kafka's spec has a struct with a name); Unsupported when
    the struct has more fields in the version."""
    present = [(attr, g) for attr, g in f.fields.items() if g.for_version_q(version) and not g.tagged_field_q(version)]
    if len(present) != 1:
        raise Unsupported(f"aiokafka's {f.name} elements are single values; Kafka's spec has {len(present)} fields")
    return present[0]


def _struct(proto: Protocol, fields: dict, schema, values: tuple, version: int, flexible: bool, nested: bool) -> dict:
    from aiokafka.protocol.types import TaggedFields

    out = {}
    for attr, f, aio_type, i in _lined_up(fields, schema, version):
        out[field_name(attr, f, nested)] = _field(proto, f, aio_type, values[i], version, flexible)
    if flexible:
        if any(values[i] for i, t in enumerate(schema.fields) if t is TaggedFields):
            raise Unsupported("aiokafka reads tagged fields as raw bytes")
        out["tagged_fields"] = []
    return out


def _field(proto: Protocol, f, aio_type, value, version: int, flexible: bool):
    if value is None:
        return None
    if f.is_struct_array() and not _is_schema(aio_type.array_of):  # a struct of one field, as its value
        attr, only = _only_field(f, version)
        return [{field_name(attr, only, True): _simple(proto, only.type_str, item)} for item in value]
    if f.is_struct_array():
        return [_struct(proto, f.fields, aio_type.array_of, item, version, flexible, True) for item in value]
    if f.is_array():
        element = f.array_of.type_str
        return [{"value": _simple(proto, element, item)} if element in ("string", "bytes")
                else _simple(proto, element, item) for item in value]
    if f.is_struct():
        return _struct(proto, f.fields, aio_type, value, version, flexible, True)
    return _simple(proto, f.type_str, value)


def _simple(proto: Protocol, type_str: str, value):
    """As kafka-python's testee translates a simple value, but for uuids, which aiokafka has no type of."""
    if type_str == "uuid":
        raise Unsupported("aiokafka has no uuid type")
    return simple_json(type_str, value, proto.records_json)  # a bitfield is the int32 aiokafka reads


# ---------------------------------------------------------------- encoding

def encode_request(proto: Protocol, value: dict) -> bytes:
    header = value["header"]
    key, version = header["request_api_key"], header["request_api_version"]
    cls = _class(proto.requests, key, version, "request")
    if header.get("tagged_fields"):
        raise Unsupported("aiokafka writes no tagged field in a request header")
    body = cls(*_tuple(proto, _spec(proto, "request", key).fields, cls.SCHEMA, value["body"], version,
                       cls.FLEXIBLE_VERSION, False))
    written = body.build_request_header(header["correlation_id"], header["client_id"])
    return written.encode() + body.encode()


def encode_response(proto: Protocol, value: dict, *, api_key: int, api_version: int) -> bytes:
    from aiokafka.protocol.api import ResponseHeader_v0, ResponseHeader_v1

    cls = _class(proto.responses, api_key, api_version, "response")
    request = proto.requests.get((api_key, api_version))
    flexible = bool(request and request.FLEXIBLE_VERSION)
    header = value["header"]
    if header.get("tagged_fields"):
        raise Unsupported("aiokafka writes no tagged field in a response header")
    written = ResponseHeader_v1(header["correlation_id"], {}) if flexible else ResponseHeader_v0(header["correlation_id"])
    body = cls(*_tuple(proto, _spec(proto, "response", api_key).fields, cls.SCHEMA, value["body"], api_version,
                       flexible, False))
    return written.encode() + body.encode()


def _tuple(proto: Protocol, fields: dict, schema, value: dict, version: int, flexible: bool, nested: bool) -> list:
    from aiokafka.protocol.types import TaggedFields

    if value.get("tagged_fields"):
        raise Unsupported("aiokafka writes tagged fields only as raw bytes")
    out: list = [{} if t is TaggedFields else None for t in schema.fields]
    for attr, f, aio_type, i in _lined_up(fields, schema, version):
        out[i] = _from_field(proto, f, aio_type, value.get(field_name(attr, f, nested)), version, flexible)
    return out


def _from_field(proto: Protocol, f, aio_type, value, version: int, flexible: bool):
    if value is None:
        return None
    if f.is_struct_array() and not _is_schema(aio_type.array_of):
        attr, only = _only_field(f, version)
        if any(set(item) - {field_name(attr, only, True), "tagged_fields"} - {k for k, v in item.items() if v is None}
               for item in value):
            raise Unsupported(f"aiokafka writes each element of {f.name} as its {only.name} alone")
        return [_from_simple(proto, only.type_str, item[field_name(attr, only, True)]) for item in value]
    if f.is_struct_array():
        return [tuple(_tuple(proto, f.fields, aio_type.array_of, item, version, flexible, True)) for item in value]
    if f.is_array():
        element = f.array_of.type_str
        return [_from_simple(proto, element, item["value"] if element in ("string", "bytes") else item)
                for item in value]
    if f.is_struct():
        return tuple(_tuple(proto, f.fields, aio_type, value, version, flexible, True))
    return _from_simple(proto, f.type_str, value)


def _from_simple(proto: Protocol, type_str: str, value):
    if type_str == "uuid":
        raise Unsupported("aiokafka has no uuid type")
    return simple_from_json(type_str, value, proto.records_bytes)


def unsupported_fields(proto: Protocol, record_set: list[str]) -> dict[str, list[str]]:
    """What aiokafka's record classes hide of a record set (`record_set`), in every `records` field."""
    return {fmt: [f"{path}.{hidden}" for path in records_paths({k: c for (which, k), c in proto.specs.items()
                                                                 if which == kind}) for hidden in record_set]
            for fmt, kind in ((REQUEST, "request"), (RESPONSE, "response"))}
