"""`-lc-derived`: a length kept away from what it measures (before it, in another type) is
filled in by the encoder of what it measures, in a copy of its owner, so that a value built by
hand or cleared with strip_derived encodes, and the caller's value is left as it was.
On a test schema, checked against the official compiler's parser, and on TANK's Consume
responses, whose chunk lengths sit in their header."""

import pytest

import logcodec
from logcodec.generator import kaitai
from tests.generator.demo import SCHEMAS, compile_demo
from tests.vectorfiles import all_tests

DATA = bytes.fromhex("02" "0300" "0100" "616263" "64")  # two blobs: "abc" and "d"


@pytest.fixture(scope="module")
def table():
    return compile_demo("table_of_lengths")


def test_decoding_agrees_with_the_reference(table):
    schema, m = table
    value = m.decode(DATA)
    assert [h.blob for h in value.blobs] == [b"abc", b"d"]
    assert [entry.len_blob for entry in value.header.lengths] == [3, 1]
    with kaitai.loaded(kaitai.sources(SCHEMAS, [schema])) as load:
        from kaitaistruct import BytesIO, KaitaiStream

        theirs = load("table_of_lengths").TableOfLengths(KaitaiStream(BytesIO(DATA)))
        assert [h.blob for h in theirs.blobs] == [b"abc", b"d"]


def test_lengths_left_out_are_filled_in_without_changing_the_value(table):
    _, m = table
    value = m.TableOfLengths(header=m.Header(lengths=[m.BlobLength(), m.BlobLength()]),
                             blobs=[m.BlobHolder(blob=b"abc"), m.BlobHolder(blob=b"d")])
    assert m.encode(value) == DATA
    assert [entry.len_blob for entry in value.header.lengths] == [None, None]  # the caller's value as it was
    assert m.encode(m.decode(DATA)) == DATA


def test_a_carried_length_that_disagrees_is_refused(table):
    _, m = table
    value = m.decode(DATA)
    value.header.lengths[1].len_blob = 2
    with pytest.raises(logcodec.EncodeError) as info:
        m.encode(value)
    assert info.value.kind == "invalid_length" and info.value.path.startswith("table_of_lengths.blobs[1]")


CONSUME = [(fmt, t) for fmt, t in all_tests("valid") if fmt == "tank.response" and "consume" in t["tcId"].lower()]


def test_there_are_consume_responses():
    assert len(CONSUME) >= 5


@pytest.mark.parametrize("fmt,test", CONSUME, ids=[t["tcId"] for _, t in CONSUME])
def test_a_consume_response_cleared_of_derived_fields_encodes_to_its_bytes(fmt, test):
    value = logcodec.decode(fmt, bytes.fromhex(test["bytes"]))
    bare = logcodec.strip_derived(value)
    assert all(p.len_chunk is None for t in bare.payload.header.topics for p in t.partitions or [])
    assert logcodec.encode(fmt, bare).hex() == test["bytes"]
