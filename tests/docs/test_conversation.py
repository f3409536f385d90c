"""The decode API's `kafka.conversation`: a client's bytes, and the broker's as the second input
(`"responses"`, optional), read as `logcodec.kafka.read_conversation` reads them, each request's
fields placed in the client's bytes. The connection is kafka-python's (its `KafkaProtocol` frames
the requests, its classes the responses)."""

from __future__ import annotations

import json
import re
import urllib.request

import pytest

import logcodec
from logcodec.kafka import read_conversation
from logcodec.kafka.conversation_page import MAX_EXCHANGES, MAX_FINDINGS

from .conftest import SMALL_LIMIT, VECTORS
from .test_block_with_metadata import at
from .test_server import post

pytest.importorskip("kafka.protocol")  # kafka-python, the test extra's

from tests.codecs import kafka_python_frames  # noqa: E402 (it imports kafka-python)

NAME = "kafka.conversation"
FRAME = logcodec.codec("kafka.frame")


@pytest.fixture(scope="module")
def connection():
    requests, responses, sent, _ = kafka_python_frames.conversation()
    return requests, responses, sent


def exchange_of(path: str) -> str:
    """A finding's path up to its exchange (the request or response inside may be one not read)."""
    return re.split(r"\.(?:request|response)(?:\.|$)", path)[0]


def test_both_sides_read_as_the_reader_reads_them_each_request_in_its_bytes(base, connection):
    requests, responses, sent = connection
    status, answer = post(base, {"format": NAME, "hex": requests.hex(), "responses": {"hex": responses.hex()}})
    assert status == 200, answer
    expected = read_conversation(requests, responses).to_json()
    assert answer["findings"] == expected.pop("findings") == []
    assert answer["value"] == expected
    assert answer["conversation"] == {"exchanges": len(sent), "answered": len(sent) - 1, "findings": 0,  # one acks 0
                                      "listed": len(sent)}
    start = 0
    for k, (correlation_id, request, response) in enumerate(sent):
        end = start + 4 + FRAME.decode_prefix(requests[start:])[0].len_frame
        assert answer["ranges"][f"exchanges[{k}]"] == [start, end]
        # each field of the request where the request lies: its header's correlation id, 4 bytes
        # after the API key and version
        assert answer["ranges"][f"exchanges[{k}].request.header.correlation_id"] == [start + 8, start + 12]
        assert int.from_bytes(requests[start + 8:start + 12], "big") == correlation_id
        label = answer["labels"][f"exchanges[{k}]"]
        api = type(request).__name__.removesuffix("Request")
        assert label.startswith(f"{api} v{request.API_VERSION} · correlation id {correlation_id} · bytes {start}–{end - 1}")
        assert ("answered at byte" in label) == (response is not None), label
        start = end
    assert start == len(requests) == answer["consumed"]


def test_the_broker_side_may_be_left_out(base, connection):
    requests, _, sent = connection
    status, answer = post(base, {"format": NAME, "hex": requests.hex()})
    assert status == 200 and answer["conversation"] == {"exchanges": len(sent), "answered": 0, "findings": 0,
                                                        "listed": len(sent)}
    assert all(e["response"] is None for e in answer["value"]["exchanges"])


def test_auto_detection_picks_it_when_the_responses_are_given(base, connection):
    requests, responses, _ = connection
    status, answer = post(base, {"format": "auto", "hex": requests.hex(), "responses": {"base64": ""}})
    assert status == 400 and "the broker's bytes is empty" in answer["message"]
    status, answer = post(base, {"format": "auto", "hex": requests.hex(), "responses": {"hex": responses.hex()}})
    assert status == 200 and answer["format"] == NAME and answer["detected"] and answer["candidates"] == [NAME]


def test_findings_name_nodes_of_the_value(base, connection):
    """A request whose record is changed (its batch's CRC), a response moved before the one it
    follows, and a response whose request is not in the capture: each finding names a node of the
    value; those in the broker's bytes say their offset there and mark none in the client's."""
    requests, responses, sent = connection
    value_at = requests.rindex(b"v" * 10)
    broken = requests[:value_at] + b"V" + requests[value_at + 1:]
    first = FRAME.decode_prefix(responses)[1]
    second = first + FRAME.decode_prefix(responses[first:])[1]
    swapped = responses[first:second] + responses[:first] + responses[second:]
    without_first = requests[FRAME.decode_prefix(requests)[1]:]
    for client, broker in ((broken, responses), (requests, swapped), (without_first, responses)):
        status, answer = post(base, {"format": NAME, "hex": client.hex(), "responses": {"hex": broker.hex()}})
        assert status == 200 and answer["findings"], answer
        for f in answer["findings"]:
            at(answer["value"], exchange_of(f["path"]))
            if f["path"].startswith("exchanges") and ".request." in f["path"]:
                assert f["offset"] is not None and f["offset"] < len(client)
            else:
                assert f["offset"] is None and "of the broker's" in f["detail"], f
    status, answer = post(base, {"format": NAME, "hex": broken.hex(), "responses": {"hex": responses.hex()}})
    (crc,) = answer["findings"]
    assert crc["kind"] == "checksum_mismatch" and crc["path"].startswith("exchanges[2].request.body.topic_data[")
    status, answer = post(base, {"format": NAME, "hex": without_first.hex(), "responses": {"hex": responses.hex()}})
    (stray,) = answer["findings"]
    assert stray["path"] == "strays[0]" and answer["value"]["strays"][0]["correlation_id"] == sent[0][0]


@pytest.mark.parametrize("body, status, words", [
    ({"format": NAME, "hex": "00000000", "responses": {"hex": "0"}}, 400, "the broker's bytes has an odd number"),
    ({"format": NAME, "hex": "00000000", "responses": 7}, 400, "\"responses\" is"),
    ({"format": NAME, "hex": "00000000", "responses": {"text": "00"}}, 400, "\"responses\" is"),
    ({"format": NAME, "hex": "00000000", "responses": {}}, 400, "\"responses\" is"),
    ({"format": NAME, "hex": "00000000", "metadata": {"hex": "00"}}, 400, "\"metadata\" goes with inkless.block_with_metadata"),
    ({"format": "kafka.frame", "hex": "00000000", "responses": {"hex": "00"}}, 400, "\"responses\" goes with kafka.conversation"),
    ({"format": "auto", "hex": "00000000", "responses": {"hex": "00"}, "metadata": {"hex": "00"}}, 400, "give one second input"),
])
def test_bad_input_gets_a_message(base, body, status, words):
    got, answer = post(base, body)
    assert (got, words in answer.get("message", "")) == (status, True), answer


def test_bytes_that_are_no_conversation_are_findings_or_a_cut_not_a_failure(base):
    for data in ("00", "ffffffff" + "00" * 8, "0000000a" + "00" * 10, "00000004" + "ffffffff"):
        status, answer = post(base, {"format": NAME, "hex": data, "responses": {"hex": data}})
        assert status == 200, answer
        for f in answer["findings"]:
            at(answer["value"], exchange_of(f["path"]))  # (raises where the value has no such node)


def test_the_first_exchanges_and_findings_are_listed_and_all_are_counted(base):
    """Zeros on both sides (half the input limit each, as the body's limit holds both): every 4
    bytes an empty frame, none a request or a response: each an exchange and a finding, each
    response a stray and a finding."""
    size = SMALL_LIMIT // 2
    assert size // 4 > MAX_EXCHANGES and size // 2 > MAX_FINDINGS
    zeros = "00" * size
    status, answer = post(base, {"format": NAME, "hex": zeros, "responses": {"hex": zeros}})
    assert status == 200
    assert answer["conversation"] == {"exchanges": size // 4, "answered": 0, "findings": size // 2,
                                      "listed": MAX_EXCHANGES}
    assert len(answer["value"]["exchanges"]) == len(answer["value"]["strays"]) == MAX_EXCHANGES
    assert len(answer["labels"]) == MAX_EXCHANGES
    assert len(answer["findings"]) == MAX_FINDINGS
    assert answer["findings"][0]["path"].startswith("exchanges[0]") and answer["findings"][0]["offset"] == 4
    for f in answer["findings"]:  # each finding's node is in the value
        at(answer["value"], exchange_of(f["path"]))


def test_formats_lists_it_with_its_optional_second_input(base):
    with urllib.request.urlopen(base + "api/formats", timeout=30) as r:
        info = json.load(r)
    (page,) = [f for f in info["formats"] if f["name"] == NAME]
    assert page["needs"]["key"] == "responses" and page["needs"]["optional"] is True


def test_its_examples_are_the_check_vectors_of_captured_connections(base):
    """The page's example buttons: real traffic (kafkajs, aiokafka and sarama against librdkafka's mock
    broker) and mutations of it, each read as its check vector says."""
    with urllib.request.urlopen(base + "api/formats", timeout=30) as r:
        (page,) = [f for f in json.load(r)["formats"] if f["name"] == NAME]
    checks = {t["tcId"]: t for t in json.loads((VECTORS / "kafka" / "conversation.checks.json").read_text())["tests"]}
    assert [e["tcId"] for e in page["examples"]] == list(checks)
    for example in page["examples"]:
        status, answer = post(base, {"format": NAME, "hex": example["hex"], "responses": example["responses"]})
        assert status == 200, answer
        wanted = checks[example["tcId"]]["findings"]  # (the page names each finding's node of its value)
        assert [f["kind"] for f in answer["findings"]] == [f["kind"] for f in wanted], example["tcId"]
        for f in answer["findings"]:
            at(answer["value"], exchange_of(f["path"]))
