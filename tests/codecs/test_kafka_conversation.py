"""A captured Kafka connection (`kafka.frame`, `kafka.conversation`): frames as kafka-python's
connection machinery writes and reads them (an implementation we did not write), each response
paired with its request by correlation id and read with that request's API and version, and what
a capture's flaws give: a side cut short, a negative size, a frame that is not a request, a
response that answers nothing or answers out of order."""

import dataclasses
import json
import random

import pytest
from logcodec.conformance.judge import vector_file

import logcodec
from logcodec.cli import main
from logcodec.kafka import read_conversation

from . import kafka_python_frames

pytest.importorskip("kafka.protocol")  # kafka-python, the test extra's

MESSAGES = kafka_python_frames.messages()
FRAME = logcodec.codec("kafka.frame")


# ------------------------------------------------------------------ kafka.frame's vectors

def _valid_frames():
    doc = vector_file("kafka.frame")
    return [pytest.param(t, id=t["tcId"]) for g in doc["testGroups"] for t in g["tests"] if t["result"] == "valid"]


@pytest.mark.parametrize("test", _valid_frames())
def test_kafka_python_reads_each_valid_frame_as_logcodec_does(test):
    """kafka-python's message classes read the framed bytes (`framed=True`: its own reading of the
    size) to the message whose header and body logcodec's `kafka.request` / `kafka.response` read
    in the frame logcodec cut out; and kafka-python writes that message back, framed, to the same
    bytes."""
    data = bytes.fromhex(test["bytes"])
    frame = FRAME.decode(data)
    assert frame.len_frame == len(data) - 4
    if test["tcId"].startswith("request/"):
        ours = logcodec.decode("kafka.request", frame.frame)
        api_key, version = ours.header.request_api_key, ours.header.request_api_version
        cls = next(c for c in MESSAGES.values() if c.API_KEY == api_key and c.is_request())
    else:  # the kafka-go fixture: a Fetch response, in the layout of v7 to v10
        api_key, version = 1, 10
        cls = MESSAGES["FetchResponse"]
        ours = logcodec.decode("kafka.response", frame.frame, api_key=api_key, api_version=version)
    theirs = cls.decode(data, version=version, header=True, framed=True)
    assert theirs.header.correlation_id == ours.header.correlation_id
    assert kafka_python_frames.disagreements(theirs, ours.body, version) == []
    theirs.with_header(**_header_of(theirs))
    assert bytes(theirs.encode(header=True, framed=True)) == data


def _header_of(message) -> dict:
    h = message.header
    if message.is_request():
        return {"correlation_id": h.correlation_id, "client_id": h.client_id}
    return {"correlation_id": h.correlation_id}


# ------------------------------------------------------------------ a conversation

def test_each_response_is_read_beside_its_request_as_kafka_python_reads_it():
    requests, responses, sent, client = kafka_python_frames.conversation()
    theirs = client.receive_bytes(responses)  # kafka-python pairs them in order, checking correlation ids
    got = read_conversation(requests, responses)
    assert got.findings == [] and got.strays == [] and got.cut == {}
    assert [e.correlation_id for e in got.exchanges] == [c for c, _, _ in sent]
    assert [e.correlation_id for e in got.exchanges if e.response is not None] == [c for c, _ in theirs]
    for exchange, (correlation_id, request, response) in zip(got.exchanges, sent, strict=True):
        version = request.API_VERSION
        assert (exchange.api_key, exchange.api_version) == (request.API_KEY, version)
        assert kafka_python_frames.disagreements(request, exchange.request.body, version) == []
        assert exchange.expects_response == (response is not None)
        if response is None:
            assert exchange.response is None and exchange.response_at is None
            continue
        decoded = dict(theirs)[correlation_id]
        assert kafka_python_frames.disagreements(decoded, exchange.response.body, version) == []
        # each frame where the conversation says it is, written back byte for byte
        assert logcodec.encode("kafka.frame", FRAME.Frame(frame=logcodec.encode("kafka.request", exchange.request))) \
            == requests[exchange.request_at:exchange.request_at + 4 + FRAME.decode_prefix(requests[exchange.request_at:])[0].len_frame]
        back = logcodec.encode("kafka.response", exchange.response, api_key=exchange.api_key, api_version=version)
        assert FRAME.decode_prefix(responses[exchange.response_at:])[0].frame == back


def test_records_inside_a_conversation_are_read_down_to_each_record():
    requests, responses, _, _ = kafka_python_frames.conversation((("Produce", 9), ("Fetch", 12)), acks_0_at=None)
    produce, fetch = read_conversation(requests, responses).exchanges
    batches = produce.request.body.topic_data[0].partition_data[0].records.entries
    assert [r.value for r in batches[0].records] == [b"v" * 10, b"w"]
    assert [r.key for r in fetch.response.body.responses[0].partitions[0].records.entries[0].records] == [b"k", None]


def test_a_record_changed_inside_a_request_is_a_finding_of_its_batch_crc():
    requests, responses, _, _ = kafka_python_frames.conversation((("Produce", 9),), acks_0_at=None)
    value_at = requests.rindex(b"v" * 10)
    broken = requests[:value_at] + b"V" + requests[value_at + 1:]
    got = read_conversation(broken, responses)
    (finding,) = got.findings
    assert finding.kind == "checksum_mismatch" and finding.path.startswith("requests[0].request.body.topic_data[")
    assert finding.path.endswith(".records.entries[0].body.crc")
    assert got.exchanges[0].request is None and got.exchanges[0].response is not None


def test_a_capture_cut_inside_a_frame_keeps_what_came_before_and_says_where():
    requests, responses, sent, _ = kafka_python_frames.conversation()
    got = read_conversation(requests[:-5], responses[:-3])
    assert got.findings == []
    assert set(got.cut) == {"requests", "responses"}
    assert got.cut["requests"].kind == got.cut["responses"].kind == "truncated"
    assert len(got.exchanges) == len(sent) - 1  # the last request is cut
    last_answered = [e for e in got.exchanges if e.response_at is not None][-1]
    assert got.cut["responses"].offset >= last_answered.response_at
    assert got.cut["requests"].path.startswith(f"requests[{len(sent) - 1}]")


def test_requests_alone_are_read_unanswered():
    requests, _, sent, _ = kafka_python_frames.conversation()
    got = read_conversation(requests)
    assert [e.response for e in got.exchanges] == [None] * len(sent) and got.findings == []


def test_a_negative_size_ends_its_side_with_a_finding():
    requests, responses, _, _ = kafka_python_frames.conversation()
    first = FRAME.decode_prefix(requests)[1]
    broken = requests[:first] + b"\xff\xff\xff\xfe" + requests[first + 4:]
    got = read_conversation(broken, responses)
    assert len(got.exchanges) == 1
    (finding,) = [f for f in got.findings if f.path.startswith("requests")]
    assert (finding.kind, finding.offset, finding.path) == ("invalid_value", first, "requests[1].frame.len_frame")
    # the responses to the requests not read answer no request read
    assert len(got.strays) == len(read_conversation(requests, responses).exchanges) - 2  # less ApiVersions', acks 0


def test_a_frame_that_is_no_request_is_a_finding_placed_in_the_capture_and_the_next_are_read():
    requests, responses, sent, _ = kafka_python_frames.conversation()
    first = FRAME.decode_prefix(requests)[1]
    # the second request's API version made one the specs lack: the header is refused
    broken = bytearray(requests)
    broken[first + 6:first + 8] = b"\x7f\x7f"
    got = read_conversation(bytes(broken), responses)
    assert len(got.exchanges) == len(sent)
    bad = got.exchanges[1]
    assert bad.request is None and bad.correlation_id is None and bad.response is None
    request_finding, stray_finding = got.findings
    assert (request_finding.kind, request_finding.offset) == ("invalid_value", first + 6)
    assert request_finding.path == "requests[1].request.header.request_api_version"
    assert stray_finding.path == "responses[1].response.header.correlation_id"
    assert stray_finding.detail.endswith(f": perhaps the one whose header could not be read (at offset {first} of "
                                         "the requests)")  # the request it answers, which could not be read
    assert [s.correlation_id for s in got.strays] == [sent[1][0]]
    assert all(e.response is not None for e in got.exchanges if e is not bad and e.expects_response)


def test_a_response_that_may_answer_one_of_several_unread_requests_names_them():
    requests, responses, sent, _ = kafka_python_frames.conversation()
    starts = [0]
    for _ in range(2):
        starts.append(starts[-1] + FRAME.decode_prefix(requests[starts[-1]:])[1])
    broken = bytearray(requests)
    for at in starts[1:]:  # the second and third requests' API versions made ones the specs lack
        broken[at + 6:at + 8] = b"\x7f\x7f"
    got = read_conversation(bytes(broken), responses)
    strays = [f for f in got.findings if f.path.endswith("response.header.correlation_id")]
    assert [f.path for f in strays] == ["responses[1].response.header.correlation_id",
                                        "responses[2].response.header.correlation_id"]
    assert all(f.detail.endswith(f": perhaps one of the 2 whose headers could not be read (at offsets {starts[1]}, "
                                 f"{starts[2]} of the requests)") for f in strays)


def test_a_response_out_of_order_is_paired_and_said():
    requests, responses, sent, _ = kafka_python_frames.conversation(acks_0_at=None)
    first = FRAME.decode_prefix(responses)[1]
    second = first + FRAME.decode_prefix(responses[first:])[1]
    swapped = responses[first:second] + responses[:first] + responses[second:]
    got = read_conversation(requests, swapped)
    (finding,) = got.findings
    assert finding.path == "responses[0].response.header.correlation_id"
    assert f"before {sent[0][0]}" in finding.detail
    assert [e.response_at for e in got.exchanges[:2]] == [second - first, 0]
    assert all(e.response is not None for e in got.exchanges)


def test_responses_in_reverse_order_are_each_paired_with_their_request():
    """Many requests, answered last first, and two that share a correlation id: each response goes
    to the earliest request still waiting with its id, and each but the first answered is a finding."""
    requests, responses, _, _ = kafka_python_frames.conversation((("ApiVersions", 3),), acks_0_at=None)
    request = logcodec.decode("kafka.request", FRAME.decode(requests).frame)
    response = logcodec.decode("kafka.response", FRAME.decode(responses).frame, api_key=18, api_version=3)
    ids = [*range(300), 7]  # id 7 twice: the first request of it is answered first

    def framed(fmt: str, value, **params) -> bytes:
        return logcodec.encode("kafka.frame", FRAME.Frame(frame=logcodec.encode(fmt, value, **params)))

    def with_id(value, correlation_id: int):
        return dataclasses.replace(value, header=dataclasses.replace(value.header, correlation_id=correlation_id))

    client = b"".join(framed("kafka.request", with_id(request, i)) for i in ids)
    broker = b"".join(framed("kafka.response", with_id(response, i), api_key=18, api_version=3) for i in reversed(ids))
    got = read_conversation(client, broker)
    answered = sorted((e.response_at, k) for k, e in enumerate(got.exchanges))
    # the broker's k-th response (id ids[-1 - k]) answers the earliest request of that id not yet answered
    expected = []
    for i in reversed(ids):
        expected.append(next(k for k, c in enumerate(ids) if c == i and k not in expected))
    assert [k for _, k in answered] == expected
    assert got.strays == [] and all(e.response is not None for e in got.exchanges)
    # every response but the one to the earliest request waiting (the last, id 0) answers out of order
    assert len(got.findings) == len(ids) - 1
    assert all("a broker answers in order" in f.detail for f in got.findings)


@pytest.mark.parametrize("seed", range(200))
def test_any_damage_is_read_without_raising(seed):
    """Random bytes changed, cut or added on either side: never an exception, findings name a side."""
    rnd = random.Random(seed)
    requests, responses, _, _ = kafka_python_frames.conversation()
    sides = [bytearray(requests), bytearray(responses)]
    for _ in range(rnd.randint(1, 4)):
        side = rnd.choice(sides)
        at = rnd.randrange(len(side))
        match rnd.randrange(3):
            case 0:
                side[at] = rnd.randrange(256)
            case 1:
                del side[at:at + rnd.randint(1, 40)]
            case _:
                side[at:at] = rnd.randbytes(rnd.randint(1, 8))
    got = read_conversation(bytes(sides[0]), bytes(sides[1]))
    assert all(f.path.startswith(("requests[", "responses[")) for f in got.findings)
    json.dumps(got.to_json())  # canonical JSON all through


def test_the_command_line_reads_a_conversation(tmp_path, capsys):
    requests, responses, sent, _ = kafka_python_frames.conversation()
    (tmp_path / "client.bin").write_bytes(requests)
    (tmp_path / "broker.bin").write_bytes(responses)
    assert main(["decode", "--format", "kafka.conversation", str(tmp_path / "client.bin"),
                 "--responses", str(tmp_path / "broker.bin")]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [e["correlation_id"] for e in out["exchanges"]] == [c for c, _, _ in sent]
    assert out["exchanges"][0]["response"]["header"]["correlation_id"] == sent[0][0]
    # a response that answers nothing is a finding: exit status 1, said on stderr
    (tmp_path / "client.bin").write_bytes(requests[:FRAME.decode_prefix(requests)[1]])
    assert main(["decode", "--format", "kafka.conversation", str(tmp_path / "client.bin"),
                 "--responses", str(tmp_path / "broker.bin")]) == 1
    assert "answers no request" in capsys.readouterr().err
