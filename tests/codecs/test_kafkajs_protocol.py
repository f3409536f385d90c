"""The `kafka.response` vectors against kafkajs's response decoders (issue 39: each valid vector
checked by an implementation we did not write): every valid vector of an API version kafkajs
reads (flag `Kafkajs`) is read by kafkajs to our value, compared as shapes and values
(`kafkajs_protocol`), but where its flags name a quirk of kafkajs, which must then show."""

import pytest
from logcodec.conformance.judge import vector_file

import logcodec

from . import kafkajs_protocol

pytestmark = pytest.mark.skipif(not kafkajs_protocol.available(), reason="needs node and kafkajs (npm ci)")


def _valid() -> list[dict]:
    tests = [t for g in vector_file("kafka.response")["testGroups"] for t in g["tests"]]
    return [t for t in tests if t["result"] == "valid" and "Kafkajs" in t["flags"]]


@pytest.fixture(scope="module")
def read():
    """kafkajs's value and ours of every vector it reads, by test id (one node process for all)."""
    cases, ours = [], {}
    for t in _valid():
        data, params = bytes.fromhex(t["bytes"]), t["params"]
        ours[t["tcId"]] = logcodec.decode("kafka.response", data, lazy=False, **params).body
        cases.append({"id": t["tcId"], "key": params["api_key"], "version": params["api_version"],
                      "hex": data[kafkajs_protocol.HEADER:].hex()})
    return kafkajs_protocol.decode_all(cases), ours


def test_the_flags_name_every_response_version_kafkajs_reads():
    tests = [t for g in vector_file("kafka.response")["testGroups"] for t in g["tests"] if t["result"] == "valid"]
    every = {(t["params"]["api_key"], t["params"]["api_version"]) for t in tests}
    flagged = {(t["params"]["api_key"], t["params"]["api_version"]) for t in _valid()}
    assert flagged == every & kafkajs_protocol.supported()
    assert len(flagged) >= 100  # kafkajs 2.2: 33 APIs, most of their versions
    assert {"Produce", "Fetch", "Metadata", "ApiVersions"} <= {kafkajs_protocol.api_names()[k] for k, _ in flagged}


@pytest.mark.parametrize("test", _valid() if kafkajs_protocol.available() else [], ids=lambda t: t["tcId"])
def test_kafkajs_reads_each_valid_vector_as_we_do(test, read):
    theirs, ours = read
    got = theirs[test["tcId"]]
    assert "error" not in got and "unsupported" not in got, got
    agree = kafkajs_protocol.theirs(got["value"]) == kafkajs_protocol.ours(ours[test["tcId"]])
    quirks = [f for f in test["flags"] if f in kafkajs_protocol.QUIRKS]
    assert agree is not bool(quirks), quirks or "kafkajs reads this vector otherwise"


def test_the_comparison_has_teeth(read):
    """A changed leaf, a dropped element or a record's changed value is a disagreement."""
    theirs, ours = read
    test_id = "kafka_python_filled/metadata_response_v5_filled"
    value = ours[test_id]
    assert kafkajs_protocol.theirs(theirs[test_id]["value"]) == kafkajs_protocol.ours(value)
    value.topics[1].partitions[0].leader_id += 1
    assert kafkajs_protocol.theirs(theirs[test_id]["value"]) != kafkajs_protocol.ours(value)
    value.topics[1].partitions[0].leader_id -= 1
    value.topics.pop()
    assert kafkajs_protocol.theirs(theirs[test_id]["value"]) != kafkajs_protocol.ours(value)
    fetch = "kafka_python_filled/fetch_response_v4_filled"
    record = ours[fetch].responses[0].partitions[0].records.entries[0].records[0]
    assert kafkajs_protocol.theirs(theirs[fetch]["value"]) == kafkajs_protocol.ours(ours[fetch])
    record.value = b"other"
    assert kafkajs_protocol.theirs(theirs[fetch]["value"]) != kafkajs_protocol.ours(ours[fetch])
