"""The block builder (logcodec.inkless.blocks.BlockBuilder): batches from kafka-python, aiokafka and
logcodec go in; the object and its metadata in both forms come out and read back to the same
records; blocks close at the size limit and at the time window, as Inkless's writer closes them."""

import pytest

import logcodec
from logcodec import inkless
from logcodec.generated.kafka import record_batch_v2 as rb
from logcodec.inkless.blocks import DEFAULT_SIZE_LIMIT, DEFAULT_WINDOW_MS, BlockBuilder, read_batch_bytes, read_batches, \
    read_records, topic_id_for_name, validate
from tests.thirdparty.kafka_libs import LIBRARIES

BLOCK_ID = bytes.fromhex("0c9d7f3e5a1b4c2d8e4f6a7b8c9d0e1f")


class FakeClock:
    """Milliseconds that move only when a test says so."""

    def __init__(self, now: int = 1_700_000_000_000):
        self.now = now

    def __call__(self) -> int:
        return self.now


def logcodec_batch(keys, *, base_timestamp=1_700_000_000_000, compression=rb.Compression.none) -> bytes:
    return rb.encode(rb.RecordBatchV2(
        attributes=rb.Attributes(compression=compression), base_timestamp=base_timestamp,
        max_timestamp=base_timestamp + len(keys) - 1,
        records=[rb.Record(offset_delta=i, timestamp_delta=i, key=k, value=b"value-" + k) for i, k in enumerate(keys)]))


def library_batch(library: str, keys, compression="none") -> bytes:
    _, build = LIBRARIES[library]
    return build({"compression": compression, "records": [
        {"offset": i, "timestamp": 1_700_000_000_000 + i, "key": k, "value": b"value-" + k,
         "headers": [("h", b"1")]} for i, k in enumerate(keys)]})


def builder(**options) -> BlockBuilder:
    options.setdefault("clock", FakeClock())
    options.setdefault("new_block_id", lambda: BLOCK_ID)
    return BlockBuilder(**options)


def test_defaults_are_inklesss():
    assert DEFAULT_SIZE_LIMIT == 8 * 1024 * 1024 and DEFAULT_WINDOW_MS == 250
    b = BlockBuilder()
    assert (b.size_limit, b.window_ms) == (DEFAULT_SIZE_LIMIT, DEFAULT_WINDOW_MS)


# ---------------------------------------------------------------- round trip through reader and validator

#: (topic, partition, producer, keys, codec): batches from three implementations, in produce order.
PRODUCED = [
    ("orders", 0, "kafka-python", [b"a", b"b"], "gzip"),
    ("orders", 1, "aiokafka-py", [b"c"], "none"),
    ("clicks", 0, "logcodec", [b"d", b"e", b"f"], "zstd"),
    ("orders", 0, "aiokafka-c", [b"g"], "lz4"),
    ("orders", 0, "logcodec", [b"h", b"i"], "none"),
    ("clicks", 0, "kafka-python", [b"j"], "snappy"),
]


def produce(topic, partition, producer, keys, codec) -> bytes:
    if producer == "logcodec":
        return logcodec_batch(keys, compression=rb.Compression[codec])
    # aiokafka's C extension may be missing; its pure Python builder stands in then.
    return library_batch(producer if producer in LIBRARIES else "aiokafka-py", keys, codec)


#: (topic, partition, bytes, keys), made once (compressed bytes differ between runs of some builders).
BATCHES = [(topic, partition, produce(topic, partition, producer, keys, codec), keys)
           for topic, partition, producer, keys, codec in PRODUCED]


@pytest.fixture(scope="module")
def mixed_block():
    b = builder(broker=7, next_offsets={("orders", 0): 1000})
    for topic, partition, data, _ in BATCHES:
        assert b.add(topic, partition, data) == []  # far below the limit, no time passes
    (block,) = b.flush()
    return block


def of(topic, partition, column):
    return [row[column] for row in BATCHES if row[:2] == (topic, partition)]


def expected_keys(topic, partition):
    return [k for keys in of(topic, partition, 3) for k in keys]


def test_the_object_is_the_batches_laid_out_by_topic_id_then_partition(mixed_block):
    entries = mixed_block.entries
    order = [inkless.topic_partition_sort_key(topic_id_for_name(e.topic), e.partition) for e in entries]
    assert order == sorted(order)
    assert [e.byte_offset for e in entries] == [sum(e.size for e in entries[:i]) for i in range(len(entries))]
    assert sum(e.size for e in entries) == len(mixed_block.data)
    # Stable: each partition's batches keep the order they were produced in, bytes untouched.
    for topic, partition in [("orders", 0), ("orders", 1), ("clicks", 0)]:
        laid_out = [mixed_block.data[e.byte_offset:e.byte_offset + e.size] for e in entries
                    if (e.topic, e.partition) == (topic, partition)]
        assert laid_out == of(topic, partition, 2)


@pytest.mark.parametrize("form", ["seed", "shipped"])
def test_a_mixed_block_validates_clean(mixed_block, form):
    metadata = mixed_block.seed_metadata if form == "seed" else mixed_block.shipped_metadata
    assert validate(mixed_block.data, metadata) == []
    assert validate(mixed_block.data, metadata, strict=True) == []


@pytest.mark.parametrize("topic,partition", [("orders", 0), ("orders", 1), ("clicks", 0)])
def test_each_partition_reads_back_from_the_seed_form(mixed_block, topic, partition):
    records = read_records(mixed_block.data, mixed_block.seed_metadata, topic=topic, partition=partition)
    assert [r.key for r in records] == expected_keys(topic, partition)
    assert [r.value for r in records] == [b"value-" + k for k in expected_keys(topic, partition)]
    # The seed form has no offsets: batches come back as stored, each from offset 0.
    assert all(b.base_offset == 0 for b in read_batches(mixed_block.data, mixed_block.seed_metadata, topic=topic,
                                                         partition=partition))


@pytest.mark.parametrize("topic,partition,first", [("orders", 0, 1000), ("orders", 1, 0), ("clicks", 0, 0)])
def test_each_partition_reads_back_with_absolute_offsets_from_the_shipped_form(mixed_block, topic, partition, first):
    topic_id = topic_id_for_name(topic)
    records = read_records(mixed_block.data, mixed_block.shipped_metadata, topic_id=topic_id, partition=partition)
    keys = expected_keys(topic, partition)
    assert [r.key for r in records] == keys
    assert [r.offset for r in records] == list(range(first, first + len(keys)))
    later = read_records(mixed_block.data, mixed_block.shipped_metadata, topic_id=topic_id, partition=partition,
                         from_offset=first + 1)
    assert [r.offset for r in later] == list(range(first + 1, first + len(keys)))


def test_served_batches_decode_in_kafka_python_with_their_offsets(mixed_block):
    """The offsets a reader patches in lie outside the CRC, as in Inkless's fetch path; the rest of
    each batch (compressed by whichever library) is the bytes stored."""
    decode, _ = LIBRARIES["kafka-python"]
    where = {"topic_id": topic_id_for_name("orders"), "partition": 0}
    served = read_batch_bytes(mixed_block.data, mixed_block.shipped_metadata, **where)
    batches = read_batches(mixed_block.data, mixed_block.shipped_metadata, **where)
    assert [b.base_offset for b in batches] == [1000, 1002, 1003]
    assert [raw[8:] for raw in served] == [data[8:] for data in of("orders", 0, 2)]
    for raw, batch in zip(served, batches):
        (theirs,) = decode(raw)
        assert theirs["base_offset"] == batch.base_offset
        assert [r["key"] for r in theirs["records"]] == [r.key for r in batch.records]


def test_a_partition_the_metadata_does_not_list_has_no_records(mixed_block):
    assert read_records(mixed_block.data, mixed_block.seed_metadata, topic="orders", partition=9) == []
    assert read_records(mixed_block.data, mixed_block.shipped_metadata, topic_id=topic_id_for_name("nope"),
                        partition=0) == []


def test_the_seed_metadata_describes_the_block(mixed_block):
    header = mixed_block.seed_metadata.block_header
    assert (header.id, header.broker, header.event_timestamp) == (BLOCK_ID, 7, mixed_block.closed_at)
    assert header.path == mixed_block.object_key == "inkless/DJ1_PlobTC2OT2p7jJ0OHw"
    assert inkless.parse_object_key(header.path) == ("inkless", BLOCK_ID)
    names = [(tp.name, tp.partition, len(tp.batches)) for tp in mixed_block.seed_metadata.topic_partitions]
    assert sorted(names) == [("clicks", 0, 2), ("orders", 0, 3), ("orders", 1, 1)]
    # It converts to the seed's document and back, like any metadata value.
    assert inkless.load_yaml(inkless.dump_yaml(mixed_block.seed_metadata)) == mixed_block.seed_metadata


# ---------------------------------------------------------------- closing at the size limit

def test_a_block_closes_when_the_buffer_reaches_the_limit():
    one = logcodec_batch([b"x"])
    b = builder(size_limit=3 * len(one), window_ms=None)
    assert b.add("t", 0, one) == [] and b.add("t", 1, one) == []
    assert b.buffered_bytes == 2 * len(one)
    (block,) = b.add("t", 2, one)  # reaches the limit exactly: closes, as Inkless closes at >=
    assert len(block.data) == 3 * len(one) and len(block.entries) == 3
    assert b.buffered_bytes == 0 and b.flush() == []


def test_a_batch_larger_than_the_limit_goes_alone_into_its_own_block():
    big = logcodec_batch([b"k" * 500])
    b = builder(size_limit=100, window_ms=None)
    (block,) = b.add("t", 0, big)
    assert block.data == big and [e.size for e in block.entries] == [len(big)]
    assert validate(block.data, block.seed_metadata) == []


def test_a_request_is_never_split_so_a_block_may_pass_the_limit():
    """Inkless checks the size after adding a whole produce request."""
    small, big = logcodec_batch([b"s"]), logcodec_batch([b"k" * 500])
    b = builder(size_limit=100, window_ms=None)
    assert b.add("t", 0, small) == []
    (block,) = b.add_request([("t", 1, big), ("u", 0, small)])
    assert len(block.data) == 2 * len(small) + len(big) > 100
    assert validate(block.data, block.shipped_metadata) == []


# ---------------------------------------------------------------- closing at the time window

def test_a_block_closes_when_its_window_has_passed():
    clock = FakeClock()
    b = builder(clock=clock, window_ms=250)
    b.add("t", 0, logcodec_batch([b"a"]))
    opened = clock.now
    clock.now += 100
    b.add("t", 0, logcodec_batch([b"b"]))  # the window runs from the first batch, not the last
    clock.now = opened + 249
    assert b.poll() == []
    clock.now = opened + 250
    (block,) = b.poll()
    assert len(block.entries) == 2 and block.closed_at == opened + 250
    assert block.seed_metadata.block_header.event_timestamp == opened + 250
    assert block.shipped_metadata.batches[0].log_append_timestamp == opened + 250
    assert b.poll() == []  # nothing left open


def test_a_late_batch_closes_the_expired_block_and_opens_the_next():
    clock = FakeClock()
    b = builder(clock=clock, window_ms=250)
    b.add("t", 0, logcodec_batch([b"a"]))
    clock.now += 400
    (expired,) = b.add("t", 0, logcodec_batch([b"b"]))
    assert [e.record_count for e in expired.entries] == [1]
    assert b.buffered_bytes > 0
    clock.now += 249
    assert b.poll() == []  # the new block's window started with the late batch


def test_consecutive_blocks_continue_each_partitions_offsets():
    clock = FakeClock()
    ids = iter([bytes([n]) * 16 for n in range(1, 4)])
    b = builder(clock=clock, new_block_id=lambda: next(ids), next_offsets={("t", 0): 50})
    b.add("t", 0, logcodec_batch([b"a", b"b"]))
    (first,) = b.flush()
    b.add("t", 0, logcodec_batch([b"c"]))
    (second,) = b.flush()
    rows = first.shipped_metadata.batches + second.shipped_metadata.batches
    assert [(r.base_offset, r.last_offset, r.file_id, r.batch_id) for r in rows] == [(50, 51, 1, 1), (52, 52, 2, 2)]
    assert first.object_key != second.object_key
    assert b.next_offsets == {("t", 0): 53}


# ---------------------------------------------------------------- bad input

def test_a_bad_batch_is_refused_and_nothing_of_its_request_is_kept():
    good = logcodec_batch([b"a"])
    bad = bytearray(good)
    bad[-1] ^= 1
    b = builder()
    with pytest.raises(logcodec.DecodeError) as info:
        b.add_request([("t", 0, good), ("t", 1, bytes(bad))])
    assert (info.value.kind, info.value.path) == ("checksum_mismatch", "record_batch_v2[0].crc")
    assert b.buffered_bytes == 0


@pytest.mark.parametrize("records,kind,path", [
    (b"\x00" * 11, "invalid_length", "records"),  # shorter than a batch header
    (logcodec_batch([b"a"])[:-1], "invalid_length", "records"),  # cut short
    (logcodec_batch([b"a"]) + logcodec_batch([b"b"])[:40], "invalid_length", "records"),
])
def test_records_that_are_not_whole_batches_are_refused(records, kind, path):
    with pytest.raises(logcodec.DecodeError) as info:
        builder().add("t", 0, records)
    assert (info.value.kind, info.value.path) == (kind, path)


@pytest.mark.parametrize("topic,partition,path", [("", 0, "topic"), (5, 0, "topic"), ("t", -1, "partition"),
                                                  ("t", True, "partition"), ("t", 1 << 31, "partition")])
def test_bad_topics_and_partitions_are_refused(topic, partition, path):
    with pytest.raises(logcodec.EncodeError) as info:
        builder().add(topic, partition, logcodec_batch([b"a"]))
    assert info.value.path == path


def test_two_topics_may_not_share_an_id():
    b = builder(topic_ids={"a": BLOCK_ID, "b": BLOCK_ID})
    b.add("a", 0, logcodec_batch([b"x"]))
    with pytest.raises(logcodec.EncodeError) as info:
        b.add("b", 0, logcodec_batch([b"y"]))
    assert info.value.path == "topic_ids"


def test_a_prefix_inkless_refuses_is_refused_at_once():
    with pytest.raises(logcodec.EncodeError):
        BlockBuilder(prefix="/inkless")


def test_flushing_an_empty_builder_closes_nothing():
    b = builder()
    assert b.flush() == [] and b.poll() == [] and b.add("t", 0, b"") == []
