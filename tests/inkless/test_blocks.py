"""Inkless batch blocks: every batch of every valid block decodes alike in kafka-python and
aiokafka, and the metadata vectors that describe a block vector point at exactly its batches."""

import pytest

import logcodec
from tests.laws.test_thirdparty_agreement import comparable, neutral
from tests.thirdparty.kafka_libs import LIBRARIES
from tests.vectorfiles import all_tests, ids, vector_file

BLOCK = "inkless.batch_block"
VALID = [(f, t) for f, t in all_tests("valid") if f == BLOCK]

#: Metadata vectors and the block vector each describes.
DESCRIBES = {"basic/several_partitions_metadata": "basic/several_partitions",
             "basic/every_codec_metadata": "codecs/every_codec"}


def test_there_are_block_vectors():
    assert len(VALID) >= 6
    assert any(t["tcId"].startswith("third_party/kafka_python") for _, t in VALID)


@pytest.mark.parametrize("library", sorted(LIBRARIES))
@pytest.mark.parametrize("fmt,test", VALID, ids=ids(VALID))
def test_every_batch_decodes_alike_in_other_libraries(library, fmt, test):
    data = bytes.fromhex(test["bytes"])
    decode, _ = LIBRARIES[library]
    ours = logcodec.decode(fmt, data).batches
    theirs = decode(data)  # the library's own iterator over batches laid end to end
    assert [comparable(b) for b in theirs] == [neutral(b) for b in ours]


def test_kafka_python_reads_each_batch_alone():
    """Each batch, cut out of the block at its own length, is a whole batch for kafka-python too."""
    decode, _ = LIBRARIES["kafka-python"]
    for _, test in VALID:
        data, pos = bytes.fromhex(test["bytes"]), 0
        for batch in logcodec.decode(BLOCK, data).batches:
            size = 12 + batch.len_batch
            (theirs,) = decode(data[pos:pos + size])
            assert comparable(theirs) == neutral(batch)
            pos += size
        assert pos == len(data)


def find(fmt: str, tc_id: str) -> dict:
    return next(t for g in vector_file(fmt)["testGroups"] for t in g["tests"] if t["tcId"] == tc_id)


@pytest.mark.parametrize("meta_id", sorted(DESCRIBES))
def test_metadata_points_at_exactly_the_batches_of_its_block(meta_id):
    meta = logcodec.decode("inkless.block_metadata", bytes.fromhex(find("inkless.block_metadata", meta_id)["bytes"]))
    data = bytes.fromhex(find(BLOCK, DESCRIBES[meta_id])["bytes"])
    ranges = sorted((b.byte_offset, b.size, b.number_of_records) for tp in meta.topic_partitions for b in tp.batches)
    pos = 0
    for offset, size, count in ranges:  # the ranges tile the block: no gap, no overlap, nothing past the end
        assert offset == pos
        batch = logcodec.decode("kafka.record_batch_v2", data[offset:offset + size])  # exactly one batch
        assert len(batch.records) == count == batch.num_records
        pos += size
    assert pos == len(data)
    # In the block's own order, too: the metadata lists batches as the block holds them.
    assert ranges == [(b.byte_offset, b.size, b.number_of_records) for tp in meta.topic_partitions for b in tp.batches]
