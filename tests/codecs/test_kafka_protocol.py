"""Kafka's protocol (issue 39): the formats `kafka.request` and `kafka.response`, made from Kafka's
own message specs by the second front end (`generator/message_specs/`), against kafka-python's
protocol classes (an implementation we did not write, which reads the same specs in its own
code): every API and version both know, request and response, decodes from kafka-python's bytes
to what kafka-python put there and encodes back to the same bytes; and the frames' rules: compact
lengths and null, the header's version, tagged fields kept, unknown APIs and versions refused."""

import dataclasses
import importlib
import json
import math
import re

import pytest
from logcodec.conformance.judge import vector_file
from logcodec.generated.kafka import request as rq
from logcodec.generated.kafka import response as rs

import logcodec
from logcodec import DecodeError, EncodeError

from ..vectorfiles import ROOT
from . import kafka_python_frames

pytest.importorskip("kafka.protocol")  # kafka-python, the test extra's


MESSAGES = kafka_python_frames.messages()


def _snake(name: str) -> str:
    return re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1_\2", name)).lower()


def _ours(cls) -> tuple[int, int] | None:
    """The versions of an API our spec set has (its body's module says), or None."""
    try:
        module = importlib.import_module(f"logcodec.generated.kafka.messages.{_snake(cls.__name__)}")
    except ImportError:
        return None
    low, high = re.search(r"versions (\d+)-?(\d+)?", module.__doc__).groups()  # (a compiled class has its own doc)
    return int(low), int(high or low)


def _cases():
    for name, cls in sorted(MESSAGES.items()):
        ours = _ours(cls)
        if ours is None:
            continue
        low, high = cls._valid_versions
        for version in range(max(low, ours[0]), min(high, ours[1]) + 1):
            yield pytest.param(cls, version, id=f"{name}-v{version}")


CASES = list(_cases())


def _frame(cls, version: int) -> bytes:
    """kafka-python's frame (without its size) of the API's message at its defaults."""
    message = cls[version]()
    if cls.is_request():
        message.with_header(correlation_id=7, client_id="kafka-python")
    else:
        message.with_header(correlation_id=7)
    return bytes(message.encode(header=True))


def test_kafka_python_and_our_spec_set_share_most_apis():
    assert len(CASES) > 400  # (446 at the spec set's commit and kafka-python 3.0.12)


@pytest.mark.parametrize(("cls", "version"), CASES)
def test_kafka_pythons_frames_decode_and_encode_back(cls, version):
    data = _frame(cls, version)
    if cls.is_request():
        value = logcodec.decode("kafka.request", data)
        assert (value.header.request_api_key, value.header.request_api_version) == (cls.API_KEY, version)
        assert value.header.client_id == ("kafka-python" if value.header.header_version >= 1 else None)
        assert logcodec.encode("kafka.request", value) == data
    else:
        value = logcodec.decode("kafka.response", data, api_key=cls.API_KEY, api_version=version)
        assert logcodec.encode("kafka.response", value, api_key=cls.API_KEY, api_version=version) == data
    assert value.header.correlation_id == 7
    assert type(value.body).__name__ == cls.__name__


def _metadata_request(version: int):
    from kafka.protocol.metadata.metadata import MetadataRequest

    m = MetadataRequest[version]
    return m(topics=[m.MetadataRequestTopic(name="orders", topic_id=None), m.MetadataRequestTopic(name="audit")],
             allow_auto_topic_creation=True, include_topic_authorized_operations=True)


@pytest.mark.parametrize("version", [4, 8, 9, 12])  # before and after flexible (9): fixed and compact lengths
def test_a_metadata_request_reads_what_kafka_python_wrote(version):
    message = _metadata_request(version)
    message.with_header(correlation_id=99, client_id="me")
    data = bytes(message.encode(header=True))
    value = logcodec.decode("kafka.request", data)
    assert [t.name for t in value.body.topics] == ["orders", "audit"]
    assert value.body.allow_auto_topic_creation == 1
    assert (value.header.header_version, value.header.client_id) == ((2 if version >= 9 else 1), "me")
    assert logcodec.encode("kafka.request", value) == data
    # a value built from scratch (derived lengths left out) writes the same bytes
    value = logcodec.strip_derived(value)
    assert logcodec.encode("kafka.request", value) == data


def test_compact_lengths_hold_their_value_plus_one_and_zero_is_null():
    from logcodec.generated.kafka.messages import metadata_response as md

    topic = md.MetadataResponseTopic(error_code=0, name=None, topic_id=bytes(16), is_internal=0, partitions=[],
                                     topic_authorized_operations=0, tagged_fields=[])
    value = md.MetadataResponse(throttle_time_ms=0, brokers=[], cluster_id=None, controller_id=1, topics=[topic],
                                tagged_fields=[])
    data = md.encode(value, api_version=12)
    # brokers: compact count 0 + 1; cluster id null: 0; one topic: 1 + 1; its name null: 0
    assert data[4:6] == b"\x01\x00" and data[10:13] == b"\x02\x00\x00"
    again = md.decode(data, api_version=12)
    assert again.cluster_id is None and again.len_cluster_id_compact == -1 and again.topics[0].name is None


def test_a_null_where_the_version_has_none_is_refused():
    from logcodec.generated.kafka.messages import metadata_response as md

    good = md.encode(md.MetadataResponse(brokers=[md.MetadataResponseBroker(
        node_id=1, host="h", port=9092, rack=None)], controller_id=1, topics=[]),
        api_version=1)
    bad = bytearray(good)
    bad[8:10] = b"\xff\xff"  # after the count and the node id, the broker's host: a string that is never null
    with pytest.raises(DecodeError) as caught:
        md.decode(bytes(bad), api_version=1)
    assert caught.value.path.endswith("host") or "len_host" in caught.value.path


def test_a_compact_null_is_refused_in_the_versions_that_have_none():
    """DeleteTopics' topic name may be null from v6: a compact length 0 (null) read in v4, an
    element of a list, is refused where the varint starts (the encoder refuses to write it too)."""
    from logcodec.generated.kafka.messages import delete_topics_response as dt

    def frame(version: int) -> bytes:
        result = dt.DeletableTopicResult(name="t", topic_id=bytes(16) if version >= 6 else None, error_code=0,
                                         tagged_fields=[])
        return dt.encode(dt.DeleteTopicsResponse(throttle_time_ms=0, responses=[result], tagged_fields=[]),
                         api_version=version)

    for version, name_at in ((4, 5), (6, 5)):  # after the throttle time and the count
        data = bytearray(frame(version))
        assert data[name_at:name_at + 2] == b"\x02t"  # compact: its length plus one
        data[name_at] = 0
        if version == 6:
            assert dt.decode(bytes(data[:name_at + 1] + data[name_at + 2:]), api_version=6).responses[0].name is None
            continue
        with pytest.raises(DecodeError) as caught:
            dt.decode(bytes(data), api_version=version)
        assert (caught.value.kind, caught.value.offset, caught.value.path) == \
            ("invalid_value", name_at, "delete_topics_response.responses[0].len_name_compact")


def test_a_null_other_than_minus_one_is_refused():
    """Java reads any negative length as null, but writes -1: another could not be written back."""
    from logcodec.generated.kafka.messages import describe_client_quotas_response as dq

    data = bytearray(dq.encode(dq.DescribeClientQuotasResponse(error_code=0, error_message=None, entries=None),
                               api_version=0))
    assert data[-4:] == b"\xff\xff\xff\xff"  # entries: null
    assert dq.decode(bytes(data), api_version=0).entries is None
    data[-4:] = b"\xff\xff\xff\xfe"
    with pytest.raises(DecodeError) as caught:
        dq.decode(bytes(data), api_version=0)
    assert (caught.value.kind, caught.value.path) == ("invalid_value", "describe_client_quotas_response.num_entries")


def _api_versions_response_v3() -> bytes:
    """kafka-python's ApiVersions response v3 with three of its four known tags set."""
    from kafka.protocol.metadata.api_versions import ApiVersionsResponse

    r = ApiVersionsResponse[3]
    return bytes(r(error_code=0, api_keys=[r.ApiVersion(api_key=18, min_version=0, max_version=4)], throttle_time_ms=0,
                   supported_features=[r.SupportedFeatureKey(name="x", min_version=1, max_version=2)],
                   finalized_features_epoch=7, zk_migration_ready=True).encode())


def test_known_tags_are_named_fields_over_the_entries_in_the_order_written():
    from logcodec.generated.kafka.messages import api_versions_response as av

    data = _api_versions_response_v3()
    value = av.decode(data, api_version=3)
    assert [(t.tag, t.len_data) for t in value.tagged_fields] == [(0, 8), (1, 8), (3, 1)]
    assert [(f.name, f.min_version, f.max_version) for f in value.supported_features] == [("x", 1, 2)]
    assert (value.finalized_features_epoch, value.zk_migration_ready) == (7, 1)
    assert value.finalized_features == []  # tag 2 not written: Java's default, an empty list
    assert av.encode(value, api_version=3) == data
    tupled = av.decode(data, api_version=3, tuples=True)  # entries as tuples: the same named fields
    assert (tupled.finalized_features_epoch, tupled.zk_migration_ready, tupled.finalized_features) == (7, 1, [])


def test_a_known_tag_not_written_is_javas_default_and_a_later_entry_wins():
    from logcodec.generated.kafka.messages import api_versions_response as av

    bare = av.ApiVersionsResponse(error_code=0, api_keys=[], throttle_time_ms=0, tagged_fields=[])
    # Java's defaults (ApiVersionsResponse.json): epoch -1, not ready (false), empty lists
    assert (bare.finalized_features_epoch, bare.zk_migration_ready, bare.supported_features) == (-1, 0, [])
    epoch = bytes.fromhex("0108") + (5).to_bytes(8, "big"), bytes.fromhex("0108") + (6).to_bytes(8, "big")
    data = bytes.fromhex("0000" "01" "00000000" "02") + epoch[0] + epoch[1]  # tag 1 twice, as Java reads: the last
    value = av.decode(data, api_version=3)
    assert value.finalized_features_epoch == 6
    assert av.encode(value, api_version=3) == data  # both entries kept


def test_setting_a_known_tag_writes_it_as_java_does():
    """Set through the named fields, the tags are written in tag order, one entry each, and a
    field at its default not at all: the bytes kafka-python's encoder (Java's rules) writes."""
    from kafka.protocol.metadata.api_versions import ApiVersionsResponse
    from logcodec.generated.kafka.messages import api_versions_response as av

    value = av.ApiVersionsResponse(error_code=0, api_keys=[av.ApiVersion(api_key=18, min_version=0, max_version=4,
                                                                         tagged_fields=[])],
                                   throttle_time_ms=0, tagged_fields=[])
    value.zk_migration_ready = 1  # set out of tag order
    value.finalized_features_epoch = 7
    value.supported_features = [av.SupportedFeatureKey(name="x", min_version=1, max_version=2, tagged_fields=[])]
    value.finalized_features = []  # at its default: no entry
    assert [t.tag for t in value.tagged_fields] == [0, 1, 3]
    assert av.encode(value, api_version=3) == _api_versions_response_v3()
    decoded = av.decode(_api_versions_response_v3(), api_version=3)
    decoded.finalized_features_epoch = -1  # back to the default: its entry taken out, the count left to encode
    assert [t.tag for t in decoded.tagged_fields] == [0, 3] and decoded.num_tagged_fields is None
    r = ApiVersionsResponse[3]
    assert av.encode(decoded, api_version=3) == bytes(r(
        error_code=0, api_keys=[r.ApiVersion(api_key=18, min_version=0, max_version=4)], throttle_time_ms=0,
        supported_features=[r.SupportedFeatureKey(name="x", min_version=1, max_version=2)],
        zk_migration_ready=True).encode())


def test_a_struct_tag_not_written_is_the_struct_at_its_defaults():
    from logcodec.generated.kafka.messages import fetch_response as fr

    p = fr.PartitionData(partition_index=0, error_code=0, high_watermark=0, last_stable_offset=0, log_start_offset=0,
                         aborted_transactions=[], preferred_read_replica=-1, records=None, tagged_fields=[])
    # FetchResponse.json: LeaderIdAndEpoch's LeaderId and LeaderEpoch default to -1, as Java's `new` gives them
    assert (p.current_leader.leader_id, p.current_leader.leader_epoch) == (-1, -1)
    decoded_default = fr.LeaderIdAndEpoch(leader_id=-1, leader_epoch=-1, num_tagged_fields=0, tagged_fields=[])
    p.current_leader = decoded_default  # equal to the default but for its count: still the default
    assert p.tagged_fields == []
    p.current_leader = fr.LeaderIdAndEpoch(leader_id=2, leader_epoch=9, tagged_fields=[])
    assert [(t.tag, t.data.current_leader.leader_id) for t in p.tagged_fields] == [(1, 2)]
    # the one documented way to change a value, and Java's way to build one, take them too
    moved = dataclasses.replace(p, current_leader=fr.LeaderIdAndEpoch(leader_id=3, leader_epoch=9, tagged_fields=[]),
                                snapshot_id=fr.SnapshotId(end_offset=5, epoch=1, tagged_fields=[]))
    assert [(t.tag, t.len_data) for t in moved.tagged_fields] == [(1, None), (2, None)]
    assert (moved.current_leader.leader_id, p.current_leader.leader_id) == (3, 2)  # a new value; p unchanged


def test_a_tag_the_struct_does_not_know_keeps_its_bytes_and_its_place():
    from kafka.protocol.metadata.api_versions import ApiVersionsResponse
    from logcodec.generated.kafka.messages import api_versions_response as av

    value = av.decode(_api_versions_response_v3(), api_version=3)
    value.tagged_fields.insert(1, av.ApiVersionsResponseTaggedField(tag=9, data=b"\xca\xfe"))
    value = logcodec.strip_derived(value)
    data = av.encode(value, api_version=3)
    again = av.decode(data, api_version=3)
    assert [(t.tag, t.data) for t in again.tagged_fields][1] == (9, b"\xca\xfe")
    assert av.encode(again, api_version=3) == data
    # kafka-python skips the tag it does not know and reads the others
    theirs = ApiVersionsResponse.decode(data, version=3)
    assert (theirs.finalized_features_epoch, theirs.zk_migration_ready) == (7, True)


def test_a_fetch_responses_known_tags_read_as_kafka_python_wrote_them():
    """Fetch v16: a partition's diverging epoch, current leader and snapshot id (tags 0-2, each a
    struct), and the response's node endpoints (tag 0, an array of structs)."""
    import uuid

    from kafka.protocol.consumer.fetch import FetchResponse

    r = FetchResponse[16]
    topic = r.FetchableTopicResponse
    p = topic.PartitionData
    partition = p(partition_index=3, error_code=0, high_watermark=100, last_stable_offset=90, log_start_offset=0,
                  diverging_epoch=p.EpochEndOffset(epoch=5, end_offset=42),
                  current_leader=p.LeaderIdAndEpoch(leader_id=2, leader_epoch=9),
                  snapshot_id=p.SnapshotId(end_offset=77, epoch=4),
                  aborted_transactions=None, preferred_read_replica=-1, records=None)
    message = r(throttle_time_ms=0, error_code=0, session_id=1,
                responses=[topic(topic_id=uuid.UUID(int=7), partitions=[partition])],
                node_endpoints=[r.NodeEndpoint(node_id=2, host="b2", port=9092, rack=None)])
    message.with_header(correlation_id=5)
    data = bytes(message.encode(header=True))
    value = logcodec.decode("kafka.response", data, api_key=1, api_version=16)
    partition = value.body.responses[0].partitions[0]
    assert [t.tag for t in partition.tagged_fields] == [0, 1, 2]
    assert (partition.diverging_epoch.epoch, partition.diverging_epoch.end_offset) == (5, 42)
    assert (partition.current_leader.leader_id, partition.current_leader.leader_epoch) == (2, 9)
    assert (partition.snapshot_id.end_offset, partition.snapshot_id.epoch) == (77, 4)
    endpoints = value.body.node_endpoints
    assert [(n.node_id, n.host, n.port, n.rack) for n in endpoints] == [(2, "b2", 9092, None)]
    assert logcodec.encode("kafka.response", value, api_key=1, api_version=16) == data


def test_a_quota_of_nan_or_infinity_is_named_in_canonical_json_and_written_back():
    """float64 NaN and infinities (a quota's value): JSON has no number for them, so canonical JSON
    names them ("NaN", "Infinity", "-Infinity"), which strict JSON takes, the value's JSON Schema
    allows and `value_from_json` reads back to the same bytes kafka-python wrote; the lazy read
    gives the same JSON as the eager one (their NaNs, two objects, are not equal to each other);
    any other text is refused."""
    import jsonschema

    data = kafka_python_frames.quota_request((math.nan, math.inf, -math.inf, 2.5))
    value = logcodec.decode("kafka.request", data, lazy=False)
    text = json.dumps(logcodec.to_json(value), allow_nan=False)  # strict JSON: no NaN token
    ops = json.loads(text)["body"]["entries"][0]["ops"]
    assert [o["value"] for o in ops] == ["NaN", "Infinity", "-Infinity", 2.5]
    schema = json.loads((ROOT / "generated" / "schema" / "kafka" / "request.value.json").read_text())
    jsonschema.validate(json.loads(text), schema)
    again = logcodec.value_from_json("kafka.request", json.loads(text))
    assert logcodec.encode("kafka.request", again) == data
    lazy = logcodec.decode("kafka.request", data)
    assert logcodec.to_json(lazy) == logcodec.to_json(value)
    with pytest.raises(EncodeError) as caught:
        logcodec.value_from_json("kafka.request", json.loads(text.replace('"NaN"', '"nan"')))
    assert caught.value.kind == "invalid_value" and caught.value.path.endswith("ops[0].value")


@pytest.mark.parametrize(("size", "kind"), [(9, "trailing_bytes"), (7, "invalid_length")])
def test_a_known_tags_size_is_checked_against_its_field(size, kind):
    from logcodec.generated.kafka.messages import api_versions_response as av

    data = bytearray(_api_versions_response_v3())
    at = data.index(b"\x01\x08" + (7).to_bytes(8, "big"))  # tag 1, size 8: the epoch
    data[at + 1] = size
    if size > 8:
        data[at + 10:at + 10] = b"\x00"  # the byte the size claims more
    with pytest.raises(DecodeError) as caught:
        av.decode(bytes(data), api_version=3)
    assert caught.value.kind == kind and "tagged_fields[1].data" in caught.value.path


def test_unknown_apis_and_versions_are_refused():
    frame = bytearray(_frame(MESSAGES["MetadataRequest"], 12))
    frame[2:4] = (99).to_bytes(2, "big")  # Metadata has no version 99
    with pytest.raises(DecodeError) as caught:
        logcodec.decode("kafka.request", bytes(frame))
    assert (caught.value.kind, caught.value.offset, caught.value.path) == (
        "invalid_value", 2, "request.header.request_api_version")
    spec = (ROOT / "schemas/kafka/messages/MetadataRequest.json").read_text()
    highest = re.search(r'"validVersions": "\d+-(\d+)"', spec)[1]
    assert caught.value.detail == f"99 must be at most {highest}"  # the bound it passed, by its value
    frame[0:4] = (32767).to_bytes(2, "big") + (0).to_bytes(2, "big")
    with pytest.raises(DecodeError) as caught:
        logcodec.decode("kafka.request", bytes(frame))
    assert (caught.value.kind, caught.value.path) == ("invalid_value", "request.header.request_api_key")
    response = _frame(MESSAGES["MetadataResponse"], 12)
    for key, version in ((3, 99), (999, 12)):  # a version Metadata lacks; a key no API has
        with pytest.raises(DecodeError) as caught:
            logcodec.decode("kafka.response", response, api_key=key, api_version=version)
        assert (caught.value.kind, caught.value.path, caught.value.detail) == (
            "invalid_value", "response.body", f"no case matches: api_key is {key}, api_version is {version}")
    value = logcodec.decode("kafka.response", response, api_key=3, api_version=12)
    with pytest.raises(EncodeError) as refused:  # the encoder says the same (it wrote no bytes for it)
        logcodec.encode("kafka.response", value, api_key=3, api_version=99)
    assert "no case matches: api_key is 3, api_version is 99" in str(refused.value)


def test_the_header_version_follows_the_api_and_its_version():
    """Flexible requests take header v2 (tagged fields after the client id), the others v1;
    ControlledShutdown v0 has header v0 (no client id), ApiVersions' response v0 in every version."""
    cases = {(3, 8): 1, (3, 9): 2, (18, 3): 2, (7, 0): 0, (7, 1): 1}
    assert {key: _header_version(*key) for key in cases} == cases
    # correlation id, and no tagged fields after it: error code, no APIs (compact 0 + 1), throttle, no tagged fields
    body = b"\x00\x00" + b"\x01" + b"\x00\x00\x00\x00" + b"\x00"
    assert rs.decode(b"\x00\x00\x00\x07" + body, api_key=18, api_version=3).header.correlation_id == 7


def _header_version(api_key: int, version: int) -> int:
    head = api_key.to_bytes(2, "big") + version.to_bytes(2, "big") + b"\x00\x00\x00\x01"
    header, _ = rq.decode_part("request_header", head + b"\xff\xff\x00", pos=0)
    return header.header_version


def test_a_produce_requests_records_are_read_down_to_each_header_and_every_crc_checked():
    from kafka.protocol.producer.produce import ProduceRequest
    from kafka.record.memory_records import MemoryRecordsBuilder

    builder = MemoryRecordsBuilder(magic=2, compression_type=0, batch_size=100_000)
    for i in range(3):
        builder.append(timestamp=1_700_000_000_000 + i, key=b"k%d" % i, value=b"v", headers=[("h", b"1")])
    builder.close()
    p = ProduceRequest[9]
    topic = p.TopicProduceData(name="orders", partition_data=[
        p.TopicProduceData.PartitionProduceData(index=0, records=bytes(builder.buffer()))])
    message = p(transactional_id=None, acks=-1, timeout_ms=1000, topic_data=[topic])
    message.with_header(correlation_id=1, client_id="c")
    data = bytes(message.encode(header=True))
    value = logcodec.decode("kafka.request", data)
    batch = value.body.topic_data[0].partition_data[0].records.entries[0]
    assert [(r.key, r.headers[0].key, r.headers[0].value) for r in batch.records] == [
        (b"k0", "h", b"1"), (b"k1", "h", b"1"), (b"k2", "h", b"1")]
    assert logcodec.encode("kafka.request", value) == data
    bad = bytearray(data)
    bad[-5] ^= 1  # a byte of the last record
    with pytest.raises(DecodeError) as caught:
        logcodec.decode("kafka.request", bytes(bad))
    assert (caught.value.kind, caught.value.path) == (
        "checksum_mismatch", "request.body.topic_data[0].partition_data[0].records.entries[0].body.crc")


# ------------------------------------------------------------------ the golden vectors

REQUEST_VECTORS = [t for g in vector_file("kafka.request")["testGroups"] for t in g["tests"]]
RESPONSE_VECTORS = [t for g in vector_file("kafka.response")["testGroups"] for t in g["tests"]]


@pytest.mark.parametrize("fmt", sorted(kafka_python_frames.DEFINITIONS))
def test_the_vectors_are_what_kafka_python_writes_today(fmt):
    """The definitions (`schemas/kafka/request.vectors.yaml`, `response.vectors.yaml`) are what
    `python -m tests.codecs.kafka_python_frames` writes with the pinned kafka-python."""
    import yaml

    from . import kafkajs_protocol, sarama_protocol

    if not (kafkajs_protocol.available() and sarama_protocol.available()):
        pytest.skip("the vectors' flags say which versions kafkajs and sarama read: both are needed")
    written = yaml.safe_load((ROOT / kafka_python_frames.DEFINITIONS[fmt]).read_text())
    assert written == kafka_python_frames.definition(fmt)


def test_the_vectors_cover_every_version_of_the_spec_set():
    """A filled frame of every API version of our spec set, each direction; kafka-python's own
    classes wrote those of the versions they know."""
    for vectors, requests in ((REQUEST_VECTORS, True), (RESPONSE_VECTORS, False)):
        filled = {t["tcId"] for t in vectors if "Filled" in t["flags"]}
        versions = [(n, v) for n, spec in kafka_python_frames.our_specs().items()
                    if (spec.kind == "request") == requests for v in spec.versions]
        assert filled == {f"kafka_python_filled/{_snake(n)}_v{v}_filled" for n, v in versions}, requests
        own = {t["tcId"] for t in vectors if "Filled" in t["flags"] and "KafkaPython" in t["flags"]}
        assert len(own) == len([c for c in CASES if c.values[0].is_request() == requests]) > 200


def _their_class(test: dict, name: str):
    """The kafka-python class that wrote a vector: its own, or its machinery's of our spec."""
    return (kafka_python_frames.spec_messages() if "KafkaPythonSpecs" in test["flags"] else MESSAGES)[name]


@pytest.mark.parametrize("test", [t for t in REQUEST_VECTORS if t["result"] == "valid"], ids=lambda t: t["tcId"])
def test_kafka_python_reads_every_valid_request_vector_as_we_do(test):
    """The independent check of the vectors: kafka-python decodes each valid vector's bytes to the
    value we decode, header and every field of the body (a tag kafka-python does not know it skips;
    we keep it). A request of header v0 has no client id: kafka-python reads its body."""
    data = bytes.fromhex(test["bytes"])
    ours = logcodec.decode("kafka.request", data)
    name, version = type(ours.body).__name__, ours.header.request_api_version
    if "OurEncoder" in test["flags"]:  # kafka-python cannot make the class: it reads the header
        _read_by_our_encoder_alone(data, ours, name)
        return
    cls = _their_class(test, name)
    if "HeaderV0" in test["flags"]:
        theirs = cls.decode(data[8:], version=version)
        assert (ours.header.request_api_key, ours.header.correlation_id, ours.header.client_id) == (cls.API_KEY, 7, None)
    else:
        theirs = cls.decode(data, version=version, header=True)
        assert (theirs.header.request_api_key, theirs.header.request_api_version, theirs.header.correlation_id,
                theirs.header.client_id) == (ours.header.request_api_key, version, ours.header.correlation_id,
                                              ours.header.client_id)
    assert kafka_python_frames.disagreements(theirs, ours.body, version) == []


def _read_by_our_encoder_alone(data: bytes, ours, name: str) -> None:
    """A version kafka-python cannot write or read (`SPEC_GAPS`): a message of no fields. Its
    header class reads the header; the rest is the empty list of tagged fields."""
    import io

    from kafka.protocol.api_header import RequestHeader

    assert name in kafka_python_frames.SPEC_GAPS
    header = RequestHeader.decode(io.BytesIO(data), flexible=True)
    assert (header.request_api_key, header.request_api_version, header.correlation_id, header.client_id) == \
        (ours.header.request_api_key, ours.header.request_api_version, ours.header.correlation_id,
         ours.header.client_id)
    assert [f.name for f in dataclasses.fields(ours.body) if getattr(ours.body, f.name)] == []


@pytest.mark.parametrize("test", [t for t in RESPONSE_VECTORS if t["result"] == "valid"], ids=lambda t: t["tcId"])
def test_kafka_python_reads_every_valid_response_vector_as_we_do(test):
    """The same for responses, read as the API and version the vector names (`params`)."""
    data, root = bytes.fromhex(test["bytes"]), test["params"]
    ours = logcodec.decode("kafka.response", data, **root)
    theirs = _their_class(test, type(ours.body).__name__).decode(data, version=root["api_version"], header=True)
    assert (theirs.header.correlation_id, theirs.API_KEY) == (ours.header.correlation_id, root["api_key"])
    written_in = getattr(ours.body, "body_version", root["api_version"])  # ApiVersions' fallback to v0
    assert kafka_python_frames.disagreements(theirs, ours.body, written_in) == []


def test_the_field_by_field_check_has_teeth():
    """A field of ours changed, or a tagged field we did not keep, is a disagreement."""
    fetch = MESSAGES["FetchRequest"]
    data = kafka_python_frames.frame(kafka_python_frames.filled(fetch, 15))
    theirs = fetch.decode(data, version=15, header=True)
    ours = logcodec.decode("kafka.request", data)
    assert kafka_python_frames.disagreements(theirs, ours.body, 15) == []
    ours.body.topics[1].partitions[0].partition_max_bytes += 1
    ours.body.tagged_fields.pop(0)  # the cluster id (tag 0)
    found = kafka_python_frames.disagreements(theirs, ours.body, 15)
    assert [line.split(":")[0] for line in found] == [".cluster_id", ".topics[1].partitions[0].partition_max_bytes"]


def test_an_api_versions_answer_to_an_unsupported_version_is_read_as_version_0():
    """A broker answers an ApiVersions request of a version it does not support with a version 0
    body holding UNSUPPORTED_VERSION (35): read as the answer to v3, it is version 0's layout."""
    from logcodec.generated.kafka.messages import api_versions_response as av

    body = av.encode(av.ApiVersionsResponse(error_code=35, api_keys=[av.ApiVersion(api_key=18, min_version=0,
                                                                                    max_version=2)]), api_version=0)
    value = av.decode(body, api_version=3)
    assert (value.body_version, value.throttle_time_ms, value.tagged_fields) == (0, None, None)
    assert [(k.api_key, k.max_version) for k in value.api_keys] == [(18, 2)]
    assert av.encode(value, api_version=3) == body
    with pytest.raises(DecodeError):  # an error other than 35 is read in the version asked
        av.decode(body[:1] + b"\x22" + body[2:], api_version=3)


def test_the_classes_made_from_our_specs_leave_kafka_pythons_own_alone():
    """kafka-python's machinery makes a class of every request and response of our spec set it can
    read (not its own classes: the testee's stay kafka-python's, and so does its registry of
    response classes), with the versions our spec gives, beyond those kafka-python ships."""
    from kafka.protocol.api_header import ResponseClassRegistry
    from logcodec.conformance.testees.kafka_protocol import message_classes

    registry = dict(ResponseClassRegistry._response_class_registry)
    made = kafka_python_frames.spec_messages()
    assert ResponseClassRegistry._response_class_registry == registry
    assert len(made) == len(kafka_python_frames.our_specs()) - len(kafka_python_frames.SPEC_GAPS)
    assert all(cls.__module__.startswith("kafka.") for cls in message_classes().values())
    assert "BrokerHeartbeatRequest" not in MESSAGES and made["BrokerHeartbeatRequest"]._valid_versions == (0, 1)
    assert made["FetchRequest"] is not MESSAGES["FetchRequest"]
