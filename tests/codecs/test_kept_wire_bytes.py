"""Processed bytes as another encoder wrote them (`TypePlan.keeps_raw`, `_wire_<field>`): a batch
compressed by kafka-python's producer (an encoder we did not write, whose compressed bytes are not
ours) decodes and encodes back to the same bytes, read lazily or whole; and the kept bytes never
stand for a value they do not give: a changed record, another codec or a value made anew get the
encoder's own output, which decodes to the value given."""

import dataclasses
import gzip
import pickle

import pytest

import logcodec
from logcodec.generated.kafka import record_batch_v2 as rb
from logcodec.kafka.codecs import kafka_compression
from logcodec.runtime.primitives import written_again
from logcodec.runtime.values import replaced

pytest.importorskip("kafka.record")  # kafka-python, the test extra's

CODECS = {"gzip": 1, "snappy": 2, "lz4": 3, "zstd": 4}


def producer_batch(codec: int) -> bytes:
    """A batch of 50 records as kafka-python's producer compresses it with `codec`."""
    from kafka.record.memory_records import MemoryRecordsBuilder

    builder = MemoryRecordsBuilder(magic=2, compression_type=codec, batch_size=1 << 20)
    for i in range(50):
        builder.append(timestamp=1_700_000_000_000 + i, key=b"key-%d" % i, value=b"value %d " % i * 8,
                       headers=[("trace", b"%d" % i)])
    builder.close()
    return bytes(builder.buffer())


@pytest.fixture(params=sorted(CODECS), scope="module")
def batch(request) -> bytes:
    return producer_batch(CODECS[request.param])


@pytest.mark.parametrize("lazy", [True, False])
def test_another_producers_compressed_batch_is_written_back_byte_for_byte(batch, lazy):
    value = rb.decode(batch, lazy=lazy)
    assert value._wire_records == batch[61:]  # the records as compressed, after the 61-byte header
    assert rb.encode(value) == batch
    assert rb.encode(logcodec.strip_derived(value)) == batch  # the derived fields computed again: the same
    assert rb.encode(pickle.loads(pickle.dumps(value))) == batch


def test_our_own_output_differs_where_the_bytes_are_not_kept(batch):
    """The case the kept bytes are for: without them, the same records compress to other bytes
    (at least for one of the codecs; each decodes to the same value)."""
    value = rb.decode(batch, lazy=False)
    fresh = dataclasses.replace(value)  # made anew through __init__: nothing kept
    assert fresh._wire_records is None and fresh == value
    ours = rb.encode(logcodec.strip_derived(fresh))
    assert logcodec.strip_derived(rb.decode(ours, lazy=False)) == logcodec.strip_derived(value)
    assert rb.encode(rb.decode(ours)) == ours


def test_some_codec_writes_other_bytes_than_kafka_python():
    differs = [name for name, codec in CODECS.items()
               if rb.encode(logcodec.strip_derived(dataclasses.replace(rb.decode(producer_batch(codec)))))
               != producer_batch(codec)]
    assert differs  # else the kept bytes would change nothing here


def test_a_changed_record_is_written_as_changed(batch):
    value = rb.decode(batch, lazy=False)
    value.records[7].value = b"changed"
    again = rb.decode(rb.encode(logcodec.strip_derived(value)), lazy=False)
    assert again.records[7].value == b"changed"
    assert [r.value for r in again.records] == [r.value for r in value.records]


def test_another_codec_is_written_with_that_codec(batch):
    value = rb.decode(batch, lazy=False)
    codec = rb.Compression.zstd if value.attributes.compression != rb.Compression.zstd else rb.Compression.gzip
    value.attributes.compression = codec
    again = rb.decode(rb.encode(logcodec.strip_derived(value)), lazy=False)
    assert again.attributes.compression == codec
    assert [r.value for r in again.records] == [r.value for r in value.records]


def test_kept_bytes_are_used_only_for_exactly_their_content():
    """The processor reads them again, bounded by the content's size, with this encode's codec."""
    content = b"records" * 10
    assert written_again(gzip.compress(content), content, kafka_compression, 1) is not None
    assert written_again(gzip.compress(content + b"!"), content, kafka_compression, 1) is None  # more than the content
    assert written_again(gzip.compress(content[:-1]), content, kafka_compression, 1) is None  # less
    assert written_again(b"not gzip", content, kafka_compression, 1) is None
    assert written_again(gzip.compress(content), content, kafka_compression, 3) is None  # read as lz4: not that
    assert written_again(None, content, kafka_compression, 1) is None


def test_the_kept_bytes_are_no_part_of_the_value():
    value = rb.decode(producer_batch(CODECS["gzip"]))
    assert "_wire_records" not in logcodec.to_json(value)
    assert "_wire_records" not in repr(value)
    fresh = logcodec.value_from_json("kafka.record_batch_v2", logcodec.to_json(value))
    assert fresh == value and fresh._wire_records is None


def test_a_fetch_response_with_compressed_batches_is_one_value_written_back():
    """A record set holding batches of several producers' codecs, and the batches inside a Fetch
    response frame: each batch keeps its own bytes."""
    records = b"".join(producer_batch(c) for c in CODECS.values())
    for lazy in (True, False):
        value = logcodec.decode("kafka.record_set", records, lazy=lazy)
        assert logcodec.encode("kafka.record_set", value) == records


def test_replaced_keeps_the_bytes_and_takes_any_field_name(batch):
    """`replaced` (what `strip_derived` and the pipeline's comparison copy with) keeps what
    `__init__` does not take, and takes a field named `value` (Kafka's records and headers have one)."""
    value = rb.decode(batch, lazy=False)
    copy = replaced(value, crc=None)
    assert copy._wire_records == value._wire_records and copy.crc is None
    header = value.records[0].headers[0]
    assert replaced(header, value=b"other").value == b"other"
    assert rb.encode(replaced(value, len_batch=None, crc=None)) == batch
