"""Kafka protocol frames made by kafka-python (an implementation we did not write), and the check
that our value of a frame is kafka-python's: the source and the independent check of the golden
vectors of `kafka.request` and `kafka.response` (`python -m tests.codecs.kafka_python_frames`
writes their definitions, `schemas/kafka/request.vectors.yaml` and `response.vectors.yaml`).

kafka-python's message classes are found by walking its protocol package; a message is filled
field by field from kafka-python's own description of it (`cls.fields`, each field's versions),
so every field a version has holds a value other than its default: numbers near the top of their
range, two elements in every list, text and bytes in every string, a real record batch in every
`records` field, and the tagged fields a version knows set (so that they are written).
"""

from __future__ import annotations

import uuid

from logcodec.conformance.testees.kafka_protocol import message_classes
from logcodec.generator.message_specs.to_ksy import snake

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


def record_batch() -> bytes:
    """A record batch (magic 2, two records, one with a header) as kafka-python's producer writes it."""
    from kafka.record.memory_records import MemoryRecordsBuilder

    builder = MemoryRecordsBuilder(magic=2, compression_type=0, batch_size=1 << 20)
    builder.append(timestamp=1_700_000_000_000, key=b"k", value=b"v" * 10, headers=[("h", b"x")])
    builder.append(timestamp=1_700_000_000_001, key=None, value=b"w", headers=[])
    builder.close()
    return bytes(builder.buffer())


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
        message.with_header(correlation_id=correlation_id, client_id="kafka-python")
    else:
        message.with_header(correlation_id=correlation_id)
    return bytes(message.encode(header=True))


# ------------------------------------------------------------------ the independent check

def disagreements(theirs, ours, version: int) -> list[str]:
    """Where our value of a message (its body) differs from kafka-python's of the same bytes, as
    `path: theirs != ours` lines; none when they agree. A tagged field is looked up among our
    entries by its tag; one not there must be at its default in theirs."""
    out: list[str] = []
    _compare_struct(type(theirs).fields, theirs, ours, version, "", out)
    return out


def _compare_struct(fields: dict, theirs, ours, version: int, path: str, out: list[str]) -> None:
    for name, f in fields.items():
        if not f.for_version_q(version):
            continue
        mine = next((n for n in RENAMED.get(name, ()) if hasattr(ours, n)), snake(f._name))
        where = f"{path}.{mine}"
        if f.tagged_field_q(version):
            entries = [t.data for t in getattr(ours, "tagged_fields", None) or [] if t.tag == f.tag]
            if not entries:
                if getattr(theirs, name) != f.default:
                    out.append(f"{where}: {getattr(theirs, name)!r} != (tag {f.tag} not written)")
                continue
            ours_value = getattr(entries[0], mine)
        elif hasattr(ours, mine):
            ours_value = getattr(ours, mine)
        else:
            out.append(f"{where}: we have no such field")
            continue
        _compare(f, getattr(theirs, name), ours_value, version, where, out)


def _compare(f, theirs, ours, version: int, path: str, out: list[str]) -> None:
    if theirs is None and f.type_str == "bitfield":  # kafka-python's None: the bits of -2**31 (unknown)
        theirs = {31}
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

#: The filled frames cut at every structural boundary, by format.
TRUNCATED = {"kafka.request": ("metadata_request_v4", "metadata_request_v12", "produce_request_v9",
                               "fetch_request_v15"),
             "kafka.response": ("metadata_response_v1", "metadata_response_v12", "fetch_response_v16",
                                "api_versions_response_v3")}


def definition(fmt: str) -> dict:
    """The vectors' definition of `kafka.request` or `kafka.response`: kafka-python's frames of
    every API version both it and our spec set know, filled and at their defaults, and mutations
    of some of them."""
    import logcodec
    from logcodec import DecodeError

    requests = fmt == "kafka.request"
    filled_tests, default_tests, frames = [], [], {}
    for name, cls in sorted(messages().items()):
        if cls.is_request() != requests:
            continue
        low, high = cls._valid_versions
        for version in range(low, high + 1):
            params = {} if requests else {"api_key": cls.API_KEY, "api_version": version}
            made = {"filled": frame(filled(cls, version)), "defaults": frame(cls[version]())}
            try:
                value = logcodec.decode(fmt, made["filled"], **params)
            except DecodeError:
                continue  # a version our spec set does not have (kafka-python follows a later Kafka)
            if type(value.body).__name__ != name:
                continue  # the API under another name in kafka-python's later specs
            test_id = f"{snake(name)}_v{version}"
            frames[test_id] = made["filled"]
            for kind, tests, flag in (("filled", filled_tests, "Filled"), ("defaults", default_tests, "Defaults")):
                how = "every field filled (tests/codecs/kafka_python_frames.py)" if kind == "filled" \
                    else "every field at its default"
                test = {"name": f"{test_id}_{kind}", "bytes": made[kind].hex(), "canonical": True,
                        "provenance": f"{KAFKA_PYTHON}: {name}[{version}], {how}", "flags": ["KafkaPython", flag]}
                if params:
                    test["params"] = params
                tests.append(test)
    what = "Request" if requests else "Response"
    return {
        "source": f"{what} frames written by kafka-python's protocol classes ({KAFKA_PYTHON}), for every API "
                  "version both kafka-python and the spec set know, each filled and at its defaults; "
                  "invalid inputs are byte mutations of those. Written by `python -m "
                  "tests.codecs.kafka_python_frames`: do not edit by hand.",
        "notes": {flag: {"description": text} for flag, text in NOTES.items()},
        "groups": [
            {"type": "kafka_python_filled", "comment": "kafka-python's frames, every field filled.",
             "tests": filled_tests},
            {"type": "kafka_python_defaults", "comment": "kafka-python's frames, every field at its default.",
             "tests": default_tests},
            {"type": "mutated", "comment": "Byte mutations of kafka-python's filled frames.",
             "tests": (_request_mutations if requests else _response_mutations)(frames)},
        ],
        "truncations": {"type": "truncated", "flags": ["Truncated"],
                        "comment": "Frames cut at every structural boundary of the frame.",
                        "from": [f"{t}_filled" for t in TRUNCATED[fmt]]},
    }


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
    ]


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
        {"name": "api_versions_v0_answers_v3", "from": "api_versions_response_v0_filled",
         "params": {"api_key": 18, "api_version": 3}, "patch": [{"offset": fixed, "hex": "0023"}],
         "flags": ["VersionFallback"], "canonical": True,
         "comment": "ApiVersions v0 with error 35 (UNSUPPORTED_VERSION), the answer to a v3 request."},
    ]


def main() -> None:
    from pathlib import Path

    import yaml

    root = Path(__file__).resolve().parents[2]
    for fmt, rel in DEFINITIONS.items():
        header = (f"# Golden vector definitions for {fmt} (see generator/vectors.py), written by\n"
                  "# `python -m tests.codecs.kafka_python_frames` from kafka-python's protocol classes.\n")
        (root / rel).write_text(header + yaml.safe_dump(definition(fmt), sort_keys=False, width=100,
                                                        allow_unicode=True))
        print(f"wrote {rel}")


if __name__ == "__main__":
    main()
