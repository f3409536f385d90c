"""`spark.read.format("logcodec.kafka" | "logcodec.tank")` on a local Spark session: the rows
are exactly what single-process logcodec decodes from the same files, whatever the split,
and a corrupt file does not fail the read.

One session for the module (conftest.py); each test is one or two queries, so the module
stays within about half a minute. Corner cases of the readers are in test_readers.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("pyspark")

from pyspark.sql.pandas.types import to_arrow_schema  # noqa: E402

import logcodec  # noqa: E402
from logcodec.tank.containers import read_tank_partition  # noqa: E402
from logcodec.pipeline import kafka, tank  # noqa: E402
from logcodec.pipeline.tables import spark_schema  # noqa: E402
from tests.pipeline import corpus  # noqa: E402


def load(spark, fmt: str, path: Path, **options):
    reader = spark.read.format(fmt)
    for key, value in options.items():
        reader = reader.option(key, value)
    return reader.load(str(path))


def plain(value):
    """A collected value as plain Python: Rows as tuples, binary as bytes."""
    if isinstance(value, (bytearray, memoryview)):
        return bytes(value)
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, tuple):  # a Row too
        return tuple(plain(v) for v in value)
    return value


@pytest.mark.parametrize("schema", [kafka.RECORD_SCHEMA, kafka.BATCH_SCHEMA, tank.RECORD_SCHEMA, tank.BUNDLE_SCHEMA],
                         ids=["kafka-record", "kafka-batch", "tank-record", "tank-bundle"])
def test_declared_spark_schema_is_the_arrow_schema_the_readers_yield(schema):
    """Spark refuses batches whose Arrow schema differs from its own reading of the declared one."""
    assert to_arrow_schema(spark_schema(schema), timezone="UTC").equals(schema)


def test_kafka_records_are_what_logcodec_decodes_from_each_file(spark, kafka_corpus):
    rows = load(spark, "logcodec.kafka", kafka_corpus["logs"]).collect()
    assert [r for r in rows if r.error is not None] == []
    for name, topic, partition in [("orders-0/00000000000000000000.log", "orders", 0),
                                   ("payments-3/00000000000000001000.log", "payments", 3)]:
        path = kafka_corpus["logs"] / name
        mine = [r for r in rows if r.file == str(path)]
        assert [plain((r.offset, r.timestamp, r.timestamp_type, r.key, r.value, r.headers)) for r in mine] == \
            corpus.expected_kafka_records(path)
        assert {(r.topic, r.partition) for r in mine} == {(topic, partition)}


def test_kafka_batches_are_the_entries_logcodec_decodes(spark, kafka_corpus):
    path = kafka_corpus["logs"] / "orders-0" / "00000000000000000000.log"
    rows = load(spark, "logcodec.kafka", path, rows="batch").collect()
    assert [(r.magic, r.codec, r.base_offset, r.last_offset, r.record_count) for r in rows] == \
        corpus.expected_kafka_batches(path)
    assert all(r.crc_valid for r in rows)


def test_a_record_set_file_reads_with_the_topic_given(spark, kafka_corpus):
    rows = load(spark, "logcodec.kafka", kafka_corpus["fetch"], topic="fetched", partition=2).collect()
    assert [plain((r.offset, r.timestamp, r.timestamp_type, r.key, r.value, r.headers)) for r in rows] == \
        corpus.expected_kafka_records(kafka_corpus["fetch"])
    assert {(r.topic, r.partition) for r in rows} == {("fetched", 2)}


def test_a_segment_split_into_many_partitions_gives_the_same_rows_as_one(spark, kafka_corpus):
    whole = load(spark, "logcodec.kafka", kafka_corpus["logs"])
    split = load(spark, "logcodec.kafka", kafka_corpus["logs"], splitBytes=20000)  # each partition costs time
    assert whole.rdd.getNumPartitions() == 1
    assert split.rdd.getNumPartitions() >= 4
    assert split.collect() == whole.collect()


def test_a_corrupt_segment_does_not_fail_the_read(spark, kafka_corpus):
    _, bad = corpus.corrupt_segment()
    rows = load(spark, "logcodec.kafka", kafka_corpus["corrupt"]).collect()
    assert [(r.batch_offset, r.error.kind) for r in rows if r.error is not None] == bad
    assert [r.offset for r in rows if r.error is None] == list(range(0, 9)) + list(range(15, 20))  # 3 good batches


def test_tank_messages_are_the_partitions_logcodec_decodes(spark, tank_corpus, tank_captures):
    captured = load(spark, "logcodec.tank", tank_captures).collect()
    split = load(spark, "logcodec.tank", tank_corpus, splitBytes=8000)
    assert split.rdd.getNumPartitions() >= 6
    built = split.collect()
    directories = tank.partition_directories(tank_captures) + tank.partition_directories(tank_corpus)
    assert len(directories) > 10
    for directory in directories:
        expected = [(m.seq_num, m.timestamp, m.key, m.content) for m in read_tank_partition(directory).messages()]
        got = [plain((r.seq_num, r.timestamp, r.key, r.value)) for r in captured + built
               if Path(r.file).parent == directory]
        assert got == expected, directory
    assert [r for r in captured + built if r.error is not None] == []


def test_tank_bundles_are_the_segment_entries_logcodec_decodes(spark, tank_captures):
    rows = load(spark, "logcodec.tank", tank_captures, rows="bundle").collect()
    expected = []
    for directory in tank.partition_directories(tank_captures):
        for segment in read_tank_partition(directory).segments:
            expected += [(str(segment.path), len(e.bundle.messages), e.bundle.messages[0].seq_num,
                          logcodec.codec("tank.bundle").Codec(e.bundle.codec).name) for e in segment.value.entries]
    assert [(r.file, r.message_count, r.first_seq_num, r.codec) for r in rows] == expected
    assert {r.codec for r in rows} == {"none", "snappy"}
