"""Kafka protocol frames made by kafka-python (an implementation we did not write), and the check
that our value of a frame is kafka-python's: the source and the independent check of the golden
vectors of `kafka.request` and `kafka.response` (`python -m tests.codecs.kafka_python_frames`
writes their definitions, `schemas/kafka/request.vectors.yaml` and `response.vectors.yaml`).

Every API version of our spec set has its frames: kafka-python's own classes write the versions
they know; its protocol machinery, made to read our copy of the specs (`spec_messages`), writes
the others. kafka-python's message classes are found by walking its protocol package; a message is filled
field by field from kafka-python's own description of it (`cls.fields`, each field's versions),
so every field a version has holds a value other than its default: numbers near the top of their
range, two elements in every list, text and bytes in every string, a real record batch in every
`records` field, and the tagged fields a version knows set (so that they are written).
"""

from __future__ import annotations

import functools
import importlib
import json
import sys
import tempfile
import uuid
from dataclasses import dataclass
from pathlib import Path

from logcodec.conformance.testees.kafka_protocol import message_classes
from logcodec.generator.message_specs import read_specs
from logcodec.generator.message_specs.reading import blank_comments
from logcodec.generator.message_specs.spec import MessageSpec
from logcodec.generator.message_specs.to_ksy import snake

from . import kafkajs_protocol, sarama_protocol

#: Our copy of Kafka's message specs (a later Kafka than the copy kafka-python ships).
SPECS = Path(__file__).resolve().parents[2] / "schemas" / "kafka" / "messages"

#: A filled value of each of kafka-python's simple types (uint32 it does not have; `bitfield` is its
#: own reading of an int32 of authorized operations, a set of bit numbers).
FILLED = {"bitfield": {2, 3, 4}, "int8": 100, "int16": 30000, "uint16": 65000, "int32": 2_000_000_000, "int64": 2**62 + 7,
          "float64": 2.5, "bool": True, "string": "kafka-python", "bytes": b"\x00\x01\xfe\xff",
          "uuid": uuid.UUID("00112233-4455-6677-8899-aabbccddeeff")}

#: Fields kafka-python renames (its `json_patch` of MetadataResponse and DescribeClusterResponse,
#: which also reads them as a `bitfield`): its name, and the spec's names it stands for.
RENAMED = {"authorized_operations": ("cluster_authorized_operations", "topic_authorized_operations")}


def messages() -> dict:
    """kafka-python's message classes (one per API and direction, the version an index), by name:
    found as its conformance testee finds them."""
    return message_classes()


#: Field names kafka-python's machinery cannot take as Kafka writes them, and the name the copy it
#: reads has instead: `Type` (its attribute would hide the class's own `type`, "request" or
#: "response", and no message could say which it is). (A tag written as a string, "0", it is
#: given as the number, as Kafka's Java reader takes it: `_for_kafka_python`.)
RENAMED_FOR_KAFKA_PYTHON = {"Type": "MessageType"}
#: Those names back as Kafka's specs (and ours) have them.
KAFKA_NAMES = {renamed: name for name, renamed in RENAMED_FOR_KAFKA_PYTHON.items()}


@functools.cache
def spec_messages() -> dict[str, type]:
    """kafka-python's message classes made by its own machinery (`ApiMessage`, which reads Kafka's
    JSON message language) from our spec files, by name: the APIs and versions its own copy of
    the specs lacks. They live in a package of their own (`lc_kafka_specs`, in a temporary
    folder), so the classes kafka-python ships stay as they are; its registry of response
    classes by API key is put back after. A spec it cannot read is left out (`SPEC_GAPS`)."""
    from kafka.protocol.api_header import ResponseClassRegistry
    from kafka.protocol.api_message import ApiMessage, ApiMessageData

    registry = dict(ResponseClassRegistry._response_class_registry)
    with tempfile.TemporaryDirectory(prefix="lc-kafka-specs-") as tmp:  # read as each class is made
        folder = Path(tmp) / "lc_kafka_specs"
        folder.mkdir()
        (folder / "__init__.py").write_text("")
        names = [name for name in our_specs() if name not in SPEC_GAPS]
        for name in names:  # the file as kafka-python's reader takes it, by the message's name
            text = blank_comments((SPECS / our_specs()[name].file).read_text())
            (folder / f"{name}.json").write_text(json.dumps(_for_kafka_python(json.loads(text))))
        sys.path.insert(0, tmp)
        try:
            package = importlib.import_module("lc_kafka_specs")
            return {name: ApiMessageData(name, (ApiMessage,), {"__module__": "lc_kafka_specs"}, load_json=package)
                    for name in names}
        finally:
            sys.path.remove(tmp)
            ResponseClassRegistry._response_class_registry.clear()
            ResponseClassRegistry._response_class_registry.update(registry)


def _for_kafka_python(node):
    """A spec as kafka-python's reader takes it (`RENAMED_FOR_KAFKA_PYTHON`, tags as numbers)."""
    if isinstance(node, list):
        return [_for_kafka_python(n) for n in node]
    if not isinstance(node, dict):
        return node
    out = {k: _for_kafka_python(v) for k, v in node.items()}
    if isinstance(out.get("tag"), str):
        out["tag"] = int(out["tag"])
    if "type" in out and out.get("name") in RENAMED_FOR_KAFKA_PYTHON:
        out["name"] = RENAMED_FOR_KAFKA_PYTHON[out["name"]]
    return out


#: The messages (and versions) of our spec set kafka-python cannot write, and why: their vectors
#: are written by our encoder and checked as far as kafka-python reads them (`NOTES`).
SPEC_GAPS = {
    "ListClientMetricsResourcesRequest": "a message of no fields, which kafka-python's struct reader "
                                         "takes for none (TypeError at class creation)",
}


def record_batch() -> bytes:
    """A record batch (magic 2, two records, one with a header) as kafka-python's producer writes it."""
    from kafka.record.memory_records import MemoryRecordsBuilder

    builder = MemoryRecordsBuilder(magic=2, compression_type=0, batch_size=1 << 20)
    builder.append(timestamp=1_700_000_000_000, key=b"k", value=b"v" * 10, headers=[("h", b"x")])
    builder.append(timestamp=1_700_000_000_001, key=None, value=b"w", headers=[])
    builder.close()
    return bytes(builder.buffer())


def producer_batch(timestamps: tuple[int, ...]) -> bytes:
    """A record batch (magic 2, no codec) as kafka-python's producer writes one: a record a
    timestamp, each with a key, a value and a header."""
    from kafka.record.memory_records import MemoryRecordsBuilder

    builder = MemoryRecordsBuilder(magic=2, compression_type=0, batch_size=1 << 20)
    for i, timestamp in enumerate(timestamps):
        builder.append(timestamp=timestamp, key=b"key-%d" % i, value=b"value-%d" % i, headers=[("trace", b"%d" % i)])
    builder.close()
    return bytes(builder.buffer())


def quota_request(values: tuple[float, ...]) -> bytes:
    """An AlterClientQuotas v1 request frame (without its size) as kafka-python writes it: one
    user's entry, an op for each of `values` (float64; the keys "a", "b", ...)."""
    cls = messages()["AlterClientQuotasRequest"]
    entry = cls[1].fields["entries"].array_of.data_class
    entity, op = (entry.fields[name].array_of.data_class for name in ("entity", "ops"))
    ops = [op(key=chr(ord("a") + i), value=v, remove=False) for i, v in enumerate(values)]
    message = cls[1](entries=[entry(entity=[entity(entity_type="user", entity_name=None)], ops=ops)],
                     validate_only=False)
    message.with_header(correlation_id=3, client_id="kafka-python")
    return bytes(message.encode(header=True))


#: Produce requests as kafka-python's producer sends them (no transactional id, acks -1), by name:
#: the timestamps of the records of their one batch, and what the vector says of them.
PRODUCED = {
    "produced": ((1_700_000_000_000, 1_700_000_000_003, 1_700_000_000_001),
                 "two partitions of a topic, a batch of three records each"),
    "produced_across_a_power_of_ten": ((999_999_999_999, 1_000_000_000_000),
                                       ("a batch whose timestamps cross a power of ten (2001-09-09 01:46:40 UTC), "
                                        "where their decimal text changes length")),
}


def producer_frames() -> list[tuple[str, int, str, bytes]]:
    """(name, version, what, frame) of the Produce requests of `PRODUCED`, in every version of
    our spec set that carries record batches and kafka-python has a class of."""
    cls, spec = messages()["ProduceRequest"], our_specs()["ProduceRequest"]
    out = []
    for name, (timestamps, what) in PRODUCED.items():
        for version in spec.versions:
            if not (3 <= version and cls._valid_versions[0] <= version <= cls._valid_versions[1]):
                continue  # (below 3: legacy message sets)
            message = cls[version]
            topics, partitions = message.fields["topic_data"], message.fields["topic_data"].fields["partition_data"]
            data = [partitions.array_of.data_class(index=i, records=producer_batch(timestamps)) for i in range(2)]
            body = message(transactional_id=None, acks=-1, timeout_ms=30_000,
                           topic_data=[topics.array_of.data_class(name="events", partition_data=data)])
            out.append((name, version, what, frame(body)))
    return out


#: Fields of a message filled otherwise: kafka-python reads an ApiVersions response whose error
#: is not 0 as version 0 (what a broker answers to a version it does not support), whatever
#: version was asked, so a filled one says no error.
FILLED_OTHERWISE = {("ApiVersionsResponse", "error_code"): 0}


def filled(cls, version: int):
    """kafka-python's message `cls` at `version`, every field of the version filled."""
    message = cls[version]
    values = _fields(message.fields, version)
    values.update({name: v for (owner, name), v in FILLED_OTHERWISE.items() if owner == cls.__name__})
    return message(**values)


def at_defaults(cls, version: int):
    """kafka-python's message `cls` at `version` given nothing, every field at its default. It has
    no default of a struct field that is no list (`NotImplementedError`): that is given a struct of
    its own fields' defaults, as Java's generated classes make one."""
    try:
        return cls[version]()
    except NotImplementedError:
        return cls[version](**_default_structs(cls.fields, version))


def _default_structs(fields: dict, version: int) -> dict:
    return {name: f.data_class(**_default_structs(f.fields, version)) for name, f in fields.items()
            if f.for_version_q(version) and f.is_struct() and not f.is_array()}


def _fields(fields: dict, version: int) -> dict:
    return {name: _value(f, version) for name, f in fields.items() if f.for_version_q(version)}


def _value(f, version: int):
    if f.is_struct_array():
        return [f.array_of.data_class(**_fields(f.fields, version)) for _ in range(2)]
    if f.is_array():
        return [_simple(f.array_of.type_str)] * 2
    if f.is_struct():
        return f.data_class(**_fields(f.fields, version))
    return _simple(f.type_str)


def _simple(type_str: str):
    return record_batch() if type_str == "records" else FILLED[type_str]


def frame(message, correlation_id: int = 7) -> bytes:
    """A message's frame without its size: its header, then its body."""
    if message.is_request():
        message.with_header(correlation_id=correlation_id, client_id=CLIENT_ID)
    else:
        message.with_header(correlation_id=correlation_id)
    return bytes(message.encode(header=True))


# ------------------------------------------------------------------ the independent check

def disagreements(theirs, ours, version: int) -> list[str]:
    """Where our value of a message (its body) differs from kafka-python's of the same bytes, as
    `path: theirs != ours` lines; none when they agree. A known tagged field is read through our
    named field (`-lc-keyed`): its entry's value, else Java's default, which theirs must hold."""
    out: list[str] = []
    _compare_struct(type(theirs).fields, theirs, ours, version, "", out)
    return out


def _compare_struct(fields: dict, theirs, ours, version: int, path: str, out: list[str]) -> None:
    for name, f in fields.items():
        if not f.for_version_q(version):
            continue
        mine = next((n for n in RENAMED.get(name, ()) if hasattr(ours, n)), snake(KAFKA_NAMES.get(f._name, f._name)))
        where = f"{path}.{mine}"
        if f.tagged_field_q(version):  # our named field over the tagged fields: the entry's, or Java's default
            ours_value = getattr(ours, mine)
            written = any(t.tag == f.tag for t in getattr(ours, "tagged_fields", None) or [])
            if not written and getattr(theirs, name) is None and hasattr(ours_value, "tagged_fields"):
                continue  # a struct not written: kafka-python's None, Java's (and our) struct at its defaults
        elif hasattr(ours, mine):
            ours_value = getattr(ours, mine)
        else:
            out.append(f"{where}: we have no such field")
            continue
        _compare(f, getattr(theirs, name), ours_value, version, where, out)


def _compare(f, theirs, ours, version: int, path: str, out: list[str]) -> None:
    if theirs is None and f.type_str == "bitfield":  # kafka-python's None: the bits of -2**31 (unknown)
        theirs = {31}
    if theirs is None and f.type_str == "uuid":  # kafka-python reads the zero uuid (Java's default) as None
        theirs = uuid.UUID(int=0)
    if theirs is None or ours is None:
        if (theirs is None) != (ours is None):
            out.append(f"{path}: {theirs!r} != {ours!r}")
        return
    if f.is_array():
        if len(theirs) != len(ours):
            out.append(f"{path}: {len(theirs)} elements != {len(ours)}")
            return
        for i, (t, o) in enumerate(zip(theirs, ours, strict=True)):
            if f.is_struct_array():
                _compare_struct(f.fields, t, o, version, f"{path}[{i}]", out)
            else:
                _compare_simple(f.array_of.type_str, t, o, f"{path}[{i}]", out)
    elif f.is_struct():
        _compare_struct(f.fields, theirs, ours, version, path, out)
    else:
        _compare_simple(f.type_str, theirs, ours, path, out)


def _compare_simple(type_str: str, theirs, ours, path: str, out: list[str]) -> None:
    if type_str in ("string", "bytes") and hasattr(ours, "value"):  # an element of a list: its own type
        ours = ours.value
    if type_str == "records":
        import logcodec

        ours = logcodec.encode("kafka.record_set", ours)  # our value of the records: its bytes
        theirs = bytes(theirs)
    elif type_str == "uuid":
        theirs = theirs.bytes
    elif type_str == "bool":
        theirs = int(theirs)
    elif type_str == "bitfield":  # a set of bit numbers, of a signed 32-bit integer
        theirs = sum(1 << bit for bit in theirs)
        theirs -= (1 << 32) if theirs >= 1 << 31 else 0
    if theirs != ours:
        out.append(f"{path}: {theirs!r} != {ours!r}")


# ------------------------------------------------------------------ the vectors' definitions

#: The vectors' definitions this module writes, by format.
DEFINITIONS = {"kafka.request": "schemas/kafka/request.vectors.yaml",
               "kafka.response": "schemas/kafka/response.vectors.yaml"}
KAFKA_PYTHON = "kafka-python 3.0.12"  # the test extra's pin (pyproject.toml)

NOTES = {
    "KafkaPython": "Bytes written by kafka-python's protocol classes (its own encoder of the same specs); "
                   "kafka-python decodes them to the value logcodec decodes, field by field "
                   "(tests/codecs/test_kafka_protocol.py).",
    "KafkaPythonSpecs": "A version kafka-python's own classes do not know (its copy of the specs is of another "
                        "Kafka than ours): bytes written by kafka-python's protocol machinery (`ApiMessage`, its "
                        "reader of Kafka's JSON message language) from our copy of the spec, and read back by "
                        "it to the value logcodec decodes, field by field (tests/codecs/test_kafka_protocol.py). "
                        "Its reader is given the spec as Kafka wrote it but for a field named `Type` (renamed: "
                        "its attribute would hide the class's own `type`) and a tag written as the string "
                        "\"0\" (given as the number, as Kafka's Java reader takes it).",
    "OurEncoder": "A version kafka-python cannot write: ListClientMetricsResources v0's request is a message "
                  "of no fields, which kafka-python's struct reader takes for none (it fails making the class). "
                  "Its header is written and read back by kafka-python's header class; its body (the empty "
                  "list of tagged fields, one byte) by our encoder, which no other implementation checks.",
    "HeaderV0": "ControlledShutdown v0 has request header version 0 (no client id), a special case of "
                "Kafka's Java generator (`ApiMessageType.requestHeaderVersion`); kafka-python writes header "
                "v1, from whose frame the client id is taken out; kafka-python reads the body.",
    "Filled": "Every field the version has holds a value other than its default: numbers near the top of "
              "their range, two elements in every list, text in every string, a real record batch in "
              "every `records`, and every tagged field the version knows set, so that it is written (but an "
              "ApiVersions response's error code, 0: kafka-python reads one with an error as version 0, the "
              "answer a broker gives to a version it does not support).",
    "Defaults": "Every field at its default, as kafka-python makes a message given nothing: empty lists, "
                "zeros, no tagged field written.",
    "UnknownTag": "A tagged field whose tag the struct does not know: kept as bytes, in its place, and "
                  "written back (kafka-python skips it).",
    "UnknownVersion": "An API version (or API key) the spec set does not have: a request's header is "
                      "refused (`invalid_value` at request.header), as a broker answers "
                      "UNSUPPORTED_VERSION; a response given one has no body to read (`invalid_value` at "
                      "response.body).",
    "NotNullable": "A null (length -1, or a compact length 0) where the version may not hold one: refused "
                   "as a negative length (`invalid_length`), as Kafka's Java readers refuse it.",
    "SecondNull": "A negative length or count other than -1, or a null marker other than 1 and -1, where "
                  "the version lets the field be null: Java reads any negative one as null (and any other "
                  "marker as present), but writes only -1 and 1, and the value could not be written back to "
                  "these bytes: refused (`invalid_value`), as an over-long varint is.",
    "BadLength": "A length, count or tagged field's size that the bytes cannot hold, checked against the "
                 "bytes left before anything is built (`truncated`: a reader of a stream would wait for "
                 "more), or one that does not match what it holds.",
    "VersionFallback": "An ApiVersions response in version 0 with UNSUPPORTED_VERSION (35), read as the answer "
                       "to a newer request: a broker answers a version it does not support so, and Java's "
                       "client and kafka-python read it as version 0.",
    "BadChecksum": "A byte of a record batch inside the frame changed: its CRC-32C no longer matches.",
    "TrailingBytes": "Bytes after the frame's body: a frame is exactly its header and body.",
    "Truncated": "The input ends inside the frame; a reader waiting on a socket would read more.",
}

#: The response vectors' notes of kafkajs's check (tests/codecs/kafkajs_protocol.py).
KAFKAJS_NOTES = {
    "Kafkajs": "An API version kafkajs implements: its response decoder (an implementation we did not write, "
               "by hand for each version) reads the body to the value logcodec decodes, compared as shapes "
               "and values since its names are not Kafka's (tests/codecs/test_kafkajs_protocol.py).",
    **{flag: text for flag, (text, *_) in kafkajs_protocol.QUIRKS.items()},
}

#: The request vectors' notes of kafkajs's check (the kafkajs testee, which writes them).
KAFKAJS_REQUEST_NOTES = {
    "Kafkajs": "An API version kafkajs writes: its request builder (an implementation we did not write, by "
               "hand for each version), given the value's fields as its arguments, writes the frame byte "
               "for byte (conformance/testees/kafkajs/requests.js, tests/conformance/test_node_testees.py).",
    **{flag: text for flag, (text, *_) in kafkajs_protocol.REQUEST_QUIRKS.items()},
}

#: The filled frames cut at every structural boundary, by format.
TRUNCATED = {"kafka.request": ("metadata_request_v4", "metadata_request_v12", "produce_request_v9",
                               "fetch_request_v15"),
             "kafka.response": ("metadata_response_v1", "metadata_response_v12", "fetch_response_v16",
                                "api_versions_response_v3")}


def definition(fmt: str) -> dict:
    """The vectors' definition of `kafka.request` or `kafka.response`: every API version of our
    spec set, as kafka-python writes it (`written`), filled and at its defaults, and mutations of
    some of them."""
    requests = fmt == "kafka.request"
    filled_tests, default_tests, frames = [], [], {}
    for made in written(requests):
        frames[made.test_id] = made.filled
        for kind, tests, flag in (("filled", filled_tests, "Filled"), ("defaults", default_tests, "Defaults")):
            how = "every field filled (tests/codecs/kafka_python_frames.py)" if kind == "filled" \
                else "every field at its default"
            test = {"name": f"{made.test_id}_{kind}", "bytes": getattr(made, kind).hex(), "canonical": True,
                    "provenance": f"{made.writer}: {made.name}[{made.version}], {how}", "flags": [*made.flags, flag]}
            if not requests:
                test["params"] = {"api_key": made.api_key, "api_version": made.version}
            test["flags"] += kafkajs_protocol.flags(made.api_key, made.version, kind, requests)
            test["flags"] += sarama_protocol.flags("request" if requests else "response", made.api_key,
                                                   made.version, made.flexible)
            tests.append(test)
    produced = []
    if requests:
        flexible = our_specs()["ProduceRequest"].flexible_versions
        for name, version, what, data in producer_frames():
            produced.append({
                "name": f"produce_request_v{version}_{name}", "bytes": data.hex(), "canonical": True,
                "provenance": f"{KAFKA_PYTHON}: ProduceRequest[{version}] as its producer sends it, {what}",
                "flags": ["KafkaPython", *kafkajs_protocol.flags(0, version, name, requests),
                          *sarama_protocol.flags("request", 0, version, version in flexible)]})
    what = "Request" if requests else "Response"
    return {
        "source": f"{what} frames written by kafka-python ({KAFKA_PYTHON}): by its protocol classes for every "
                  "API version both it and the spec set know, by its protocol machinery reading our copy of "
                  "the specs for the others; each filled and at its defaults; invalid inputs are byte "
                  "mutations of those. Written by `python -m tests.codecs.kafka_python_frames`: do not edit "
                  "by hand.",
        "notes": {flag: {"description": text} for flag, text in
                  {**NOTES, **(KAFKAJS_REQUEST_NOTES if requests else KAFKAJS_NOTES),
                   "Sarama": sarama_protocol.NOTE}.items()},
        "groups": [
            {"type": "kafka_python_filled", "comment": "kafka-python's frames, every field filled.",
             "tests": filled_tests},
            {"type": "kafka_python_defaults", "comment": "kafka-python's frames, every field at its default.",
             "tests": default_tests},
            *([{"type": "kafka_python_producer", "tests": produced,
                "comment": "Produce requests as kafka-python's producer sends them: no transactional id, "
                           "acks -1, one batch a partition."}] if produced else []),
            {"type": "mutated", "comment": "Byte mutations of kafka-python's filled frames.",
             "tests": (_request_mutations if requests else _response_mutations)(frames)},
        ],
        "truncations": {"type": "truncated", "flags": ["Truncated"],
                        "comment": "Frames cut at every structural boundary of the frame.",
                        "from": [f"{t}_filled" for t in TRUNCATED[fmt]]},
    }


@dataclass(frozen=True)
class Written:
    """One API version's frames, filled and at its defaults, and who wrote them."""

    name: str  # the message's name in the specs
    api_key: int
    version: int
    filled: bytes
    defaults: bytes
    flags: tuple[str, ...]  # who wrote them (`NOTES`): KafkaPython, KafkaPythonSpecs or OurEncoder; HeaderV0
    writer: str

    @property
    def test_id(self) -> str:
        return f"{snake(self.name)}_v{self.version}"

    @property
    def flexible(self) -> bool:
        return self.version in our_specs()[self.name].flexible_versions


def written(requests: bool) -> list[Written]:
    """Every API version of our spec set in one direction (requests or responses), in name and
    version order: written by kafka-python's own class where it knows the version (and the
    API by the same name), else by its machinery reading our spec (`spec_messages`), else by
    our encoder (`SPEC_GAPS`)."""
    shipped, specs, out = messages(), spec_messages(), []
    for name, spec in sorted(our_specs().items()):
        if (spec.kind == "request") != requests:
            continue
        for version in spec.versions:
            own = shipped.get(name)
            if own is not None and own._valid_versions[0] <= version <= own._valid_versions[1]:
                cls, flags, writer = own, ("KafkaPython",), KAFKA_PYTHON
            elif name in specs:
                cls, flags, writer = specs[name], ("KafkaPythonSpecs",), f"{KAFKA_PYTHON}'s machinery, our specs"
            else:
                out.append(_ours_alone(spec, version))
                continue
            filled_frame, default_frame = frame(filled(cls, version)), frame(at_defaults(cls, version))
            if (name, version) in HEADER_V0:
                filled_frame, default_frame, flags = _header_v0(filled_frame), _header_v0(default_frame), \
                    (*flags, "HeaderV0")
            out.append(Written(name, cls.API_KEY, version, filled_frame, default_frame, flags, writer))
    return out


@functools.cache
def our_specs() -> dict[str, MessageSpec]:
    """Each request and response of our spec set, as the second front end reads it, by name."""
    return {s.name: s for s in read_specs(SPECS) if s.kind in ("request", "response")}


#: Versions whose request header is version 0 (no client id): Kafka's Java writes ControlledShutdown
#: v0 so, a special case of its generator (`ApiMessageType.requestHeaderVersion`); kafka-python's
#: machinery writes header v1, from whose frame the client id is taken out.
HEADER_V0 = {("ControlledShutdownRequest", 0)}
CLIENT_ID = "kafka-python"  # the client id of every request `frame` writes


def _header_v0(data: bytes) -> bytes:
    """A frame of header v1 as header v0: the api key, version and correlation id (8 bytes), then
    the body, without the client id (a string: 2 bytes of length, then its text) between them."""
    assert data[8:10 + len(CLIENT_ID)] == len(CLIENT_ID).to_bytes(2, "big") + CLIENT_ID.encode()
    return data[:8] + data[10 + len(CLIENT_ID):]


def _ours_alone(spec: MessageSpec, version: int) -> Written:
    """A version kafka-python cannot write (`SPEC_GAPS`): a message of no fields, its header
    written by kafka-python's own header class, its body (the flexible version's empty list of
    tagged fields) by our encoder."""
    from kafka.protocol.api_header import RequestHeader, ResponseHeader

    module = importlib.import_module(f"logcodec.generated.kafka.messages.{snake(spec.name)}")
    if spec.kind == "request":
        header = RequestHeader(request_api_key=spec.api_key, request_api_version=version, correlation_id=7,
                               client_id=CLIENT_ID).encode(flexible=True)
    else:
        header = ResponseHeader(correlation_id=7).encode(flexible=True)
    data = bytes(header) + module.encode(module.ROOT(), api_version=version)
    return Written(spec.name, spec.api_key, version, data, data, ("OurEncoder",), "logcodec's encoder, kafka-python's header")


TEXT = FILLED["string"].encode()  # every string of a filled frame


def _first_string(data: bytes, body: int, width: int) -> int:
    """Where the first string after `body` has its length (`width` bytes: 2 fixed, 1 compact)."""
    return data.index(TEXT, body) - width


def _unknown_tag(name: str, data: bytes, what: str) -> dict:
    """A flexible frame whose root writes no tagged field (its count, 0, is the frame's last byte),
    given one of tag 9, which no struct knows."""
    assert data[-1] == 0, f"{name} writes tagged fields of its own"
    return {"name": "unknown_tag", "from": f"{name}_filled", "truncate": len(data) - 1,
            "append": "01" "09" "02" "cafe", "flags": ["UnknownTag"], "canonical": True,
            "comment": f"{what} with a tagged field of tag 9, which it does not know."}


def _bad_crc(name: str, data: bytes, what: str) -> dict:
    """The frame's record batch with the last byte of its last record changed."""
    batch = record_batch()
    at = data.index(batch) + len(batch) - 1
    return {"name": "record_batch_crc_mismatch", "from": f"{name}_filled",
            "patch": [{"offset": at, "hex": f"{data[at] ^ 0xFF:02x}"}], "error": "checksum_mismatch",
            "flags": ["BadChecksum"], "comment": f"{what}: a byte of its record batch's last record flipped."}


def _request_mutations(frames: dict[str, bytes]) -> list[dict]:
    """Invalid (and one valid) requests made from the filled frames. Offsets are found in the
    bytes: every string of a filled frame is `kafka-python`, the client id in the header first."""
    body = 8 + 2 + len(TEXT)  # api key, version, correlation id, client id (a non-flexible string)
    topics_v4, topics_v5 = frames["create_topics_request_v4"], frames["create_topics_request_v5"]
    fetch = frames["fetch_request_v15"]
    # Fetch v15 sets its tagged cluster id (tag 0): the last entry of its root's tagged fields
    cluster = fetch.rindex(bytes([0, len(TEXT) + 1, len(TEXT) + 1]) + TEXT)  # tag, size, length, text
    return [
        {"name": "unknown_api_version", "from": "metadata_request_v12_filled", "patch": [{"offset": 2, "hex": "7fff"}],
         "error": "invalid_value", "flags": ["UnknownVersion"], "comment": "Metadata version 32767, which no spec has."},
        {"name": "unknown_api_key", "from": "metadata_request_v12_filled", "patch": [{"offset": 0, "hex": "7fff"}],
         "error": "invalid_value", "flags": ["UnknownVersion"], "comment": "API key 32767, which no spec has."},
        {"name": "null_topic_name_fixed", "from": "create_topics_request_v4_filled",
         "patch": [{"offset": _first_string(topics_v4, body, 2), "hex": "ffff"}],
         "error": "invalid_length", "flags": ["NotNullable"],
         "comment": "CreateTopics v4: the topic's name (a string that is never null) with length -1."},
        {"name": "null_topic_name_compact", "from": "create_topics_request_v5_filled",
         "patch": [{"offset": _first_string(topics_v5, body, 1), "hex": "00"}],
         "error": "invalid_length", "flags": ["NotNullable"],
         "comment": "CreateTopics v5: the topic's name with compact length 0, which is null."},
        {"name": "compact_length_past_the_end", "from": "create_topics_request_v5_filled",
         "patch": [{"offset": _first_string(topics_v5, body, 1), "hex": "ff7f"}],
         "error": "truncated", "flags": ["BadLength"],
         "comment": "CreateTopics v5: the topic's name claims 16,382 bytes; far fewer are left."},
        {"name": "array_count_past_the_end", "from": "create_topics_request_v4_filled",
         "patch": [{"offset": body, "hex": "7fffffff"}], "error": "truncated", "flags": ["BadLength"],
         "comment": "CreateTopics v4: 2,147,483,647 topics claimed in a frame of a few hundred bytes."},
        {"name": "null_topics_fixed", "from": "create_topics_request_v4_filled",
         "patch": [{"offset": body, "hex": "ffffffff"}], "error": "invalid_length", "flags": ["NotNullable"],
         "comment": "CreateTopics v4: the topics (a list that is never null) with count -1."},
        {"name": "trailing_byte", "from": "metadata_request_v12_filled", "append": "00",
         "error": "trailing_bytes", "flags": ["TrailingBytes"], "comment": "A byte after the body."},
        _unknown_tag("metadata_request_v12", frames["metadata_request_v12"], "Metadata v12"),
        {"name": "tagged_field_past_the_end", "from": "fetch_request_v15_filled",
         "patch": [{"offset": cluster + 1, "hex": "7f"}], "error": "truncated", "flags": ["BadLength"],
         "comment": "Fetch v15: the tagged cluster id's size claims 127 bytes; fewer are left."},
        {"name": "tagged_field_longer_than_its_content", "from": "fetch_request_v15_filled",
         "patch": [{"offset": cluster + 1, "hex": f"{len(TEXT) + 2:02x}"}], "append": "00",
         "error": "trailing_bytes", "flags": ["BadLength"],
         "comment": "Fetch v15: the tagged cluster id's size is one more than the string it holds."},
        _bad_crc("produce_request_v9", frames["produce_request_v9"], "Produce v9"),
        {"name": "null_marker_zero", "from": "describe_topic_partitions_request_v0_filled",
         "patch": [{"offset": _cursor_marker(frames["describe_topic_partitions_request_v0"]), "hex": "00"}],
         "error": "invalid_value", "flags": ["SecondNull"],
         "comment": "DescribeTopicPartitions v0: the nullable cursor's marker 0, which Java reads as present "
                    "and never writes (1)."},
    ]


def _cursor_marker(data: bytes) -> int:
    """Where DescribeTopicPartitions v0's cursor marker is: just before the cursor's topic name,
    the frame's last string (compact: its length plus one, then the text)."""
    at = data.rindex(bytes([len(TEXT) + 1]) + TEXT) - 1
    assert data[at] == 1, "the filled frame's cursor is present"
    return at


def _response_mutations(frames: dict[str, bytes]) -> list[dict]:
    """Invalid (and one valid) responses made from the filled frames (the response header: the
    correlation id, then in a flexible version a tagged-field count)."""
    fixed, flexible = 4, 5
    return [
        {"name": "unknown_api_version", "from": "metadata_response_v12_filled",
         "params": {"api_key": 3, "api_version": 32767}, "error": "invalid_value", "flags": ["UnknownVersion"],
         "comment": "Metadata v12's bytes read as version 32767, which no spec has."},
        {"name": "unknown_api_key", "from": "metadata_response_v12_filled",
         "params": {"api_key": 32767, "api_version": 12}, "error": "invalid_value", "flags": ["UnknownVersion"],
         "comment": "Metadata v12's bytes read as API key 32767, which no spec has."},
        {"name": "null_broker_host_fixed", "from": "metadata_response_v1_filled",
         "patch": [{"offset": _first_string(frames["metadata_response_v1"], fixed, 2), "hex": "ffff"}],
         "error": "invalid_length", "flags": ["NotNullable"],
         "comment": "Metadata v1: a broker's host (a string that is never null) with length -1."},
        {"name": "null_broker_host_compact", "from": "metadata_response_v12_filled",
         "patch": [{"offset": _first_string(frames["metadata_response_v12"], flexible, 1), "hex": "00"}],
         "error": "invalid_length", "flags": ["NotNullable"],
         "comment": "Metadata v12: a broker's host with compact length 0, which is null."},
        {"name": "array_count_past_the_end", "from": "metadata_response_v1_filled",
         "patch": [{"offset": fixed, "hex": "7fffffff"}], "error": "truncated", "flags": ["BadLength"],
         "comment": "Metadata v1: 2,147,483,647 brokers claimed in a frame of a few hundred bytes."},
        {"name": "trailing_byte", "from": "metadata_response_v12_filled", "append": "00",
         "error": "trailing_bytes", "flags": ["TrailingBytes"], "comment": "A byte after the body."},
        _unknown_tag("metadata_response_v12", frames["metadata_response_v12"], "Metadata v12"),
        _bad_crc("fetch_response_v16", frames["fetch_response_v16"], "Fetch v16"),
        {"name": "null_count_minus_two", "from": "describe_client_quotas_response_v0_filled",
         "patch": [{"offset": _first_string(frames["describe_client_quotas_response_v0"], fixed, 2) + 2 + len(TEXT),
                    "hex": "fffffffe"}],
         "error": "invalid_value", "flags": ["SecondNull"],
         "comment": "DescribeClientQuotas v0: its nullable entries with count -2, which Java reads as null and "
                    "never writes (-1)."},
        {"name": "api_versions_v0_answers_v3", "from": "api_versions_response_v0_filled",
         "params": {"api_key": 18, "api_version": 3}, "patch": [{"offset": fixed, "hex": "0023"}],
         "flags": ["VersionFallback"], "canonical": True,
         "comment": "ApiVersions v0 with error 35 (UNSUPPORTED_VERSION), the answer to a v3 request."},
    ]


#: The requests of `conversation`: (API, version), each filled (Produce's acks are not 0, so that
#: each is answered), then a Produce with acks 0, which is not.
CONVERSATION = (("ApiVersions", 3), ("Metadata", 12), ("Produce", 9), ("Fetch", 12), ("FindCoordinator", 4),
                ("ListOffsets", 1), ("Heartbeat", 0))


def conversation(asked=CONVERSATION, *, acks_0_at: int | None = 3):
    """(client bytes, broker bytes, [(correlation id, request, response or None)], kafka-python's
    `KafkaProtocol`) of a connection: the requests framed by that `KafkaProtocol`, the responses by
    kafka-python's classes (the request with acks 0 put before the one at `acks_0_at`)."""
    classes = messages()
    client = importlib.import_module("kafka.protocol.parser").KafkaProtocol(client_id="capture")
    sent = []
    for i, (api, version) in enumerate(asked):
        if i == acks_0_at:
            request = classes["ProduceRequest"][9](acks=0, timeout_ms=1000, topic_data=[])
            sent.append((client.send_request(request), request, None))
        request = filled(classes[f"{api}Request"], version)
        response = filled(classes[f"{api}Response"], version)
        sent.append((client.send_request(request), request, response))
    broker = b""
    for correlation_id, _, response in sent:
        if response is not None:
            response.with_header(correlation_id=correlation_id)
            broker += bytes(response.encode(header=True, framed=True))
    return client.send_bytes(), broker, sent, client


def main() -> None:
    from pathlib import Path

    import yaml

    if not (kafkajs_protocol.available() and sarama_protocol.available()):  # (the flags say what each reads)
        sys.exit("kafkajs and node (npm ci), and sarama and go (apt-get install golang-go "
                 "golang-github-shopify-sarama-dev) are needed")
    root = Path(__file__).resolve().parents[2]
    for fmt, rel in DEFINITIONS.items():
        header = (f"# Golden vector definitions for {fmt} (see generator/vectors.py), written by\n"
                  "# `python -m tests.codecs.kafka_python_frames` from kafka-python's protocol classes.\n")
        (root / rel).write_text(header + yaml.safe_dump(definition(fmt), sort_keys=False, width=100,
                                                        allow_unicode=True))
        print(f"wrote {rel}")


if __name__ == "__main__":
    main()
