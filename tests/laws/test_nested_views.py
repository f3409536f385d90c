"""Views below a value's root (ARCHITECTURE.md, "Lazy reads"): a Kafka batch in a record set, in a
Fetch response, in a Produce request, in an Inkless block, read as a batch's own `decode` reads it,
its records when a loop reaches them; and the big lists a lazy read views (a Metadata response's
topics, a TANK request's topics, an Inkless block's partitions), their elements skipped when the
call reads, read when a loop reaches them. Read to the end, a lazy read is the value
`decode(..., lazy=False)` gives, and an element's error is the one it raises: kind, offset, whole
path and detail.

Every vector of the formats that hold views is held to that; those formats are named, and no
other format's vectors give a view below the root, so that the law cannot pass by finding none.
"""

import dataclasses

import pytest
from logcodec.generated.kafka import record_batch_v2 as rb
from logcodec.generated.kafka import response
from logcodec.generated.kafka.messages import fetch_response as fr

import logcodec
from logcodec import DecodeError, Limits
from logcodec.runtime.lazy import LazyList
from tests.vectorfiles import all_tests, ids, params

#: The formats whose values hold Kafka batches, which a lazy read views.
NESTING = {"kafka.record_set", "kafka.request", "kafka.response", "inkless.batch_block"}
#: The formats whose values hold lists a lazy read views (`Model.viewed_lists`).
LISTING = {"kafka.request", "kafka.response", "tank.request", "tank.response", "inkless.block_metadata"}
VIEWING = NESTING | LISTING
VALID = [(fmt, test) for fmt, test in all_tests("valid")]
INVALID = [(fmt, test) for fmt, test in all_tests("invalid") if fmt in VIEWING]


def walked(value):
    """The value with every view read by a loop (each element reached once, in order), as plain
    data: what a reader that touches everything sees."""
    if isinstance(value, (LazyList, list, tuple)):
        return [walked(x) for x in value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: walked(getattr(value, f.name)) for f in dataclasses.fields(value) if f.compare}
    return value


def views_in(value) -> list[LazyList]:
    """The views a value holds, without reading any."""
    if isinstance(value, LazyList):
        return [value]
    if isinstance(value, (list, tuple)):
        return [v for x in value for v in views_in(x)]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return [v for f in dataclasses.fields(value) if f.compare for v in views_in(getattr(value, f.name))]
    return []


def error_of(call):
    try:
        call()
    except DecodeError as exc:
        return exc.kind, exc.offset, exc.path, exc.detail
    return None


def test_the_formats_that_hold_views_read_them_so():
    with_views = {fmt for fmt, test in VALID if fmt not in ("kafka.record_batch_v2",)
                  and views_in(logcodec.decode(fmt, bytes.fromhex(test["bytes"]), **params(test)))}
    assert with_views == VIEWING
    # and each module says so (the fuzz worker reads it)
    assert {fmt: logcodec.codec(fmt).NESTED_VIEWS for fmt in logcodec.formats() if logcodec.codec(fmt).NESTED_VIEWS} \
        == dict.fromkeys(NESTING, ("kafka.record_batch_v2",))


@pytest.mark.parametrize("tuples", [False, True], ids=["objects", "tuples"])
@pytest.mark.parametrize("fmt", sorted(VIEWING))
def test_a_lazy_read_walked_is_the_eager_read(fmt, tuples):
    tests = [t for f, t in VALID if f == fmt]
    assert tests
    for test in tests:
        data, kw = bytes.fromhex(test["bytes"]), params(test)
        eager = logcodec.decode(fmt, data, lazy=False, tuples=tuples, **kw)
        lazy = logcodec.decode(fmt, data, tuples=tuples, **kw)
        assert not any(view.is_loaded for view in views_in(lazy))
        assert walked(lazy) == walked(eager), test["tcId"]
        assert lazy == eager  # `==` reads every view once, and keeps it
        assert encoded(fmt, lazy, kw) == encoded(fmt, eager, kw)


def encoded(fmt, value, root_params: dict):
    """What `value` encodes to, or the EncodeError it raises as a comparable tuple (a non-canonical
    vector's value may carry a derived field the encoder does not write back)."""
    try:
        return logcodec.encode(fmt, value, **root_params)
    except logcodec.EncodeError as exc:
        return exc.kind, exc.path, exc.detail


@pytest.mark.parametrize("fmt,test", INVALID, ids=ids(INVALID))
def test_a_lazy_read_walked_raises_the_eager_error(fmt, test):
    data, kw = bytes.fromhex(test["bytes"]), params(test)
    expected = error_of(lambda: logcodec.decode(fmt, data, lazy=False, **kw))
    assert expected is not None and expected[0] == test["error"]
    assert error_of(lambda: walked(logcodec.decode(fmt, data, **kw))) == expected


# ------------------------------------------------------------------ an element's error, its whole path

def test_a_bad_record_of_a_nested_batch_is_named_from_the_root():
    good, bad = batch(RECORDS), with_bad_record(3)
    data = good + bad + good
    expected = error_of(lambda: logcodec.decode("kafka.record_set", data, lazy=False))
    assert expected[:3] == ("invalid_length", len(good) + record_at(bad, 3), "record_set.entries[1].body.records[3].len_record")
    value = logcodec.decode("kafka.record_set", data)  # the batches' sizes and CRCs hold: the call returns
    first, second, third = (entry.records for entry in value.entries)
    assert list(third) == list(first) == records_of(good)
    loop = iter(second)
    assert [next(loop) for _ in range(3)] == records_of(good)[:3]
    assert error_of(lambda: next(loop)) == expected
    assert error_of(lambda: list(second)) == expected  # a later loop, which reads the batch again
    assert error_of(lambda: second[0]) == expected  # reading them all to keep them


def test_a_bad_record_inside_a_fetch_response_is_named_from_the_frame():
    frame = fetch_response([batch(RECORDS), with_bad_record(1)])
    expected = error_of(lambda: logcodec.decode("kafka.response", frame, api_key=1, api_version=16, lazy=False))
    assert expected[2] == "response.body.responses[0].partitions[0].records.entries[1].body.records[1].len_record"
    value = logcodec.decode("kafka.response", frame, api_key=1, api_version=16)
    assert error_of(lambda: walked(value)) == expected


def test_a_stream_names_the_value_that_holds_the_bad_record():
    good = batch(RECORDS)
    data = good + good + with_bad_record(2)  # three record sets of one batch each, as a stream
    stream = logcodec.codec("kafka.record_set").decode_stream(data)
    expected = error_of(lambda: logcodec.codec("kafka.record_set").decode_stream(data, lazy=False))
    assert expected is not None
    assert len(stream.items) == 1  # a record set takes every byte given: one value
    assert error_of(lambda: walked(stream.items)) == expected


def test_a_budget_the_earlier_loops_spent_is_named_from_the_root():
    # The budget a lazy call's first loops spend is the call's: the third batch's first loop finds
    # it spent, which the whole read again meets too, in the same place.
    data = batch(RECORDS) * 3
    limits = Limits(max_elements=25)  # 9 elements a batch: 5 records, 4 headers
    expected = error_of(lambda: logcodec.decode("kafka.record_set", data, limits=limits, lazy=False))
    assert expected[:3] == ("limit_exceeded", 2 * len(batch(RECORDS)) + 61, "record_set.entries[2].body.records")
    views = [entry.records for entry in logcodec.decode("kafka.record_set", data, limits=limits).entries]
    assert [len(list(v)) for v in views[:2]] == [5, 5]
    assert error_of(lambda: list(views[2])) == expected


def test_a_budget_spent_out_of_order_is_named_where_it_ran_out():
    # Read out of order, the third batch's loop spends what the first's then lacks.
    data = batch(RECORDS) * 3
    views = [entry.records for entry in logcodec.decode("kafka.record_set", data, limits=Limits(max_elements=25)).entries]
    assert [len(list(v)) for v in views[1:]] == [5, 5]
    with pytest.raises(DecodeError) as caught:
        list(views[0])
    assert caught.value.kind == "limit_exceeded" and caught.value.offset == 61
    assert caught.value.path == "record_set.entries[0].body.records"


def test_first_batches_of_two_partitions_are_told_apart():
    # Each partition's record set is read from bytes of its own: both first batches start at 0 there.
    frame = fetch_response([batch(RECORDS)], [with_bad_record(2)])
    expected = error_of(lambda: logcodec.decode("kafka.response", frame, api_key=1, api_version=16, lazy=False))
    assert expected[2] == "response.body.responses[0].partitions[1].records.entries[0].body.records[2].len_record"
    value = logcodec.decode("kafka.response", frame, api_key=1, api_version=16)
    assert error_of(lambda: walked(value)) == expected


def test_nested_views_untouched_cost_no_element():
    data = batch(RECORDS) * 3
    value = logcodec.decode("kafka.record_set", data, limits=Limits(max_elements=5))
    assert [entry.num_records for entry in value.entries] == [5, 5, 5]
    assert not any(view.is_loaded for view in views_in(value))


# ------------------------------------------------------------------ a list a lazy read views

def test_a_metadata_responses_topics_are_read_when_a_loop_reaches_them():
    frame = metadata_response(topics=4, partitions=3)
    value = logcodec.decode("kafka.response", frame, api_key=3, api_version=12)
    topics = value.body.topics
    assert isinstance(topics, LazyList) and not topics.is_loaded and len(topics) == 4  # the count: nothing read
    eager = logcodec.decode("kafka.response", frame, api_key=3, api_version=12, lazy=False)
    assert [t.name for t in topics] == [t.name for t in eager.body.topics]  # a loop keeps none
    assert not topics.is_loaded
    assert walked(value) == walked(eager) and value == eager
    assert logcodec.encode("kafka.response", value, api_key=3, api_version=12) == frame


def test_a_bad_topic_is_refused_when_the_call_reads():
    # The elements are skipped, each read checked as its decoder checks it: the error is the
    # eager read's, raised by the call.
    frame = bytearray(metadata_response(topics=4, partitions=3))
    at = frame.index(b"topic-2")
    frame[at] = 0xFF  # not UTF-8
    expected = error_of(lambda: logcodec.decode("kafka.response", bytes(frame), api_key=3, api_version=12, lazy=False))
    assert expected[:3] == ("invalid_value", at, "response.body.topics[2].name")
    assert error_of(lambda: logcodec.decode("kafka.response", bytes(frame), api_key=3, api_version=12)) == expected


def test_a_budget_a_viewed_list_runs_out_of_is_named_from_the_root():
    # A skip spends no element; the loops do, the first from the call's budget, as the eager read
    # does in that order: the error is the same, in the same place.
    frame = metadata_response(topics=4, partitions=3)
    limits = Limits(max_elements=3 + 4 + 2 * 3 + 12)  # brokers, topics, two topics' partitions, replicas
    expected = error_of(lambda: logcodec.decode("kafka.response", frame, api_key=3, api_version=12, limits=limits,
                                                lazy=False))
    assert expected[0] == "limit_exceeded" and expected[2].startswith("response.body.topics[")
    value = logcodec.decode("kafka.response", frame, api_key=3, api_version=12, limits=limits)
    assert error_of(lambda: walked(value)) == expected


def metadata_response(topics: int, partitions: int) -> bytes:
    """A Metadata v12 response of 3 brokers and `topics` topics of `partitions` partitions."""
    from logcodec.generated.kafka.messages import metadata_response as mr

    body = mr.MetadataResponse(
        throttle_time_ms=0, cluster_id="c", controller_id=1, tagged_fields=[],
        brokers=[mr.MetadataResponseBroker(node_id=i, host=f"b{i}", port=9092, rack=None, tagged_fields=[])
                 for i in range(3)],
        topics=[mr.MetadataResponseTopic(
            error_code=0, name=f"topic-{t}", topic_id=bytes(15) + bytes([t + 1]), is_internal=0,
            topic_authorized_operations=-2**31, tagged_fields=[],
            partitions=[mr.MetadataResponsePartition(error_code=0, partition_index=p, leader_id=1, leader_epoch=2,
                                                     replica_nodes=[1, 2], isr_nodes=[1, 2], offline_replicas=[],
                                                     tagged_fields=[]) for p in range(partitions)])
            for t in range(topics)])
    header = response.ResponseHeader(correlation_id=1, tagged_fields=[])
    return logcodec.encode("kafka.response", response.Response(header=header, body=body), api_key=3, api_version=12)


def batch(records, **fields) -> bytes:
    return rb.build(records=records, **fields)


RECORDS = [(0, i, i, b"k%d" % i, b"v" * i, (("h", b"x"),) * (i % 3)) for i in range(5)]


def records_of(data: bytes) -> list:
    return list(rb.decode(data, lazy=False).records)


def record_at(data: bytes, index: int) -> int:
    """Where record `index` of a batch of RECORDS starts (each record's zigzag length is one byte)."""
    pos = 61
    for _ in range(index):
        pos += 1 + (data[pos] >> 1)
    return pos


def with_bad_record(index: int) -> bytes:
    """A batch of RECORDS whose record `index` declares a wrong length, behind a good CRC."""
    data = bytearray(batch(RECORDS))
    data[record_at(data, index)] += 2  # one byte longer than it is
    data[17:21] = rb._rt.crc32c(bytes(data[21:])).to_bytes(4, "big")
    return bytes(data)


def fetch_response(*partitions: list[bytes]) -> bytes:
    """A Fetch v16 response of partitions holding these batches as they are (logcodec writes the
    frame around good batches that stand in for them, which have the same sizes)."""
    good = batch(RECORDS)
    assert all(len(b) == len(good) for batches in partitions for b in batches)
    body = fr.FetchResponse(throttle_time_ms=0, error_code=0, session_id=0, tagged_fields=[], responses=[
        fr.FetchableTopicResponse(topic_id=bytes(15) + b"\x07", tagged_fields=[], partitions=[
            fr.PartitionData(partition_index=i, error_code=0, high_watermark=10, last_stable_offset=10,
                             log_start_offset=0, aborted_transactions=[], preferred_read_replica=-1,
                             records=logcodec.decode("kafka.record_set", good * len(batches), lazy=False),
                             tagged_fields=[])
            for i, batches in enumerate(partitions)])])
    header = response.ResponseHeader(correlation_id=1, tagged_fields=[])
    frame = logcodec.encode("kafka.response", response.Response(header=header, body=body), api_key=1, api_version=16)
    at = 0
    for batches in partitions:  # each partition's stand-ins, in order, replaced by its batches
        at = frame.index(good * len(batches), at)
        frame = frame[:at] + b"".join(batches) + frame[at + len(good) * len(batches):]
        at += len(good) * len(batches)
    return frame
