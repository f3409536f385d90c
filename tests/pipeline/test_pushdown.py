"""Filter pushdown (issue 15, item 2): the filters Spark pushes (`pushFilters`) prune a read, and
never change its rows. Most of it without Spark: the data source's reader is called as Spark calls
it (`pushFilters`, then `partitions`, then `read` on each), with PySpark's own filter objects; one
test runs the queries on Spark."""

from __future__ import annotations

import builtins
import struct
from pathlib import Path

import pytest

pytest.importorskip("pyspark")

from pyspark.sql.datasource import (EqualTo, GreaterThan, GreaterThanOrEqual, In, IsNotNull,  # noqa: E402
                                    LessThan, LessThanOrEqual)

from logcodec.pipeline.sources import KafkaSource, TankSource  # noqa: E402
from tests.pipeline import corpus  # noqa: E402

BATCH = 10          # records per batch
BATCHES = 12        # batches per segment
SEGMENTS = 3        # segments per partition


@pytest.fixture(scope="module")
def logs(tmp_path_factory) -> Path:
    """Two partitions of three segments each, named by base offset. orders-0 has `.index` and
    `.timeindex` files as a broker writes them (an entry every 3 batches: the batch's last offset and
    position; the largest timestamp so far and its offset; then preallocated zeros); orders-1 has none.
    Timestamps go up and down inside batches (create time as producers set it)."""
    root = tmp_path_factory.mktemp("pushdown") / "logs"
    for partition in (0, 1):
        folder = root / f"orders-{partition}"
        folder.mkdir(parents=True)
        offset = 0
        for _ in range(SEGMENTS):
            base, log, index, timeindex, max_ts = offset, b"", b"", b"", None
            for b in range(BATCHES):
                batch = corpus.kafka_python_batch(offset, ["none", "gzip"][b % 2], BATCH)
                last = offset + BATCH - 1
                ts = corpus.TS + last  # the batch's largest timestamp (kafka_python_batch: TS + offset)
                if b % 3 == 1:
                    index += struct.pack(">ii", last - base, len(log))
                    if max_ts is None or ts > max_ts:
                        timeindex += struct.pack(">qi", ts, last - base)
                max_ts = ts if max_ts is None else max(ts, max_ts)
                log += batch
                offset += BATCH
            if _ < SEGMENTS - 1:  # a rolled segment's time index ends with its largest timestamp
                timeindex += struct.pack(">qi", max_ts, offset - 1 - base)
            (folder / f"{base:020d}.log").write_bytes(log)
            if partition == 0:
                (folder / f"{base:020d}.index").write_bytes(index + bytes(64))
                (folder / f"{base:020d}.timeindex").write_bytes(timeindex + bytes(48))
    return root


def read_through_source(source, path: Path, filters: list, **options) -> tuple[list[dict], list, list]:
    """Rows as Spark would get them from the data source: (rows, filters left to Spark, ranges read)."""
    ds = source(options={"path": str(path), **options})
    reader = ds.reader(None)
    rest = list(reader.pushFilters(filters))
    partitions = reader.partitions()
    rows = [row for p in partitions for batch in reader.read(p) for row in batch.to_pylist()]
    return rows, rest, [r for p in partitions for r in p.value]


def spark_filter(rows: list[dict], filters: list) -> list[dict]:
    """What Spark does with the filters after the read, in Python (null never passes a comparison)."""
    ops = {EqualTo: lambda a, b: a == b, GreaterThan: lambda a, b: a > b, GreaterThanOrEqual: lambda a, b: a >= b,
           LessThan: lambda a, b: a < b, LessThanOrEqual: lambda a, b: a <= b, In: lambda a, b: a in b}

    def keep(row):
        for f in filters:
            value = row[f.attribute[0]]
            if isinstance(f, IsNotNull):
                if value is None:
                    return False
            elif value is None or not ops[type(f)](value, f.value):
                return False
        return True
    return [r for r in rows if keep(r)]


QUERIES = {
    "first-1000-of-partition-0": [EqualTo(("partition",), 0), LessThan(("offset",), 1000)],
    "offsets-in-the-middle": [GreaterThanOrEqual(("offset",), 165), LessThanOrEqual(("offset",), 241)],
    "one-offset": [EqualTo(("offset",), 250), EqualTo(("topic",), "orders")],
    "offsets-in": [In(("offset",), (3, 130, 359)), In(("partition",), (0, 1))],
    "past-the-end": [GreaterThan(("offset",), 10_000)],
    "timestamps-from": [GreaterThanOrEqual(("timestamp",), corpus.TS + 200), IsNotNull(("offset",))],
    "timestamps-between": [GreaterThan(("timestamp",), corpus.TS + 110), LessThan(("timestamp",), corpus.TS + 130)],
    "other-topic": [EqualTo(("topic",), "payments")],
}


@pytest.mark.parametrize("name", QUERIES)
def test_pushed_filters_give_the_rows_of_an_unfiltered_read_filtered_afterwards(logs, name):
    filters = QUERIES[name]
    everything, rest, _ = read_through_source(KafkaSource, logs, [])
    assert rest == [] and len(everything) == 2 * SEGMENTS * BATCHES * BATCH
    pushed, rest, ranges = read_through_source(KafkaSource, logs, filters)
    assert spark_filter(pushed, rest) == spark_filter(everything, filters)
    # topic and partition are handled in full; offsets and timestamps go back to Spark
    assert all(f.attribute[0] not in ("topic", "partition") for f in rest)
    assert all(any(f is g for g in filters) for f in rest)
    assert sum(r.size for r in ranges) <= sum(p.stat().st_size for p in logs.rglob("*.log"))
    # segments cut into many pieces: the pieces outside the offset range are dropped, nothing else
    split, rest, pieces = read_through_source(KafkaSource, logs, filters, splitBytes="1500")
    assert spark_filter(split, rest) == spark_filter(everything, filters)


def test_an_offset_range_reads_one_segment_and_the_index_narrows_it(logs):
    segment_bytes = (logs / "orders-0" / f"{0:020d}.log").stat().st_size
    _, _, ranges = read_through_source(KafkaSource, logs, [EqualTo(("partition",), 0),
                                                           GreaterThanOrEqual(("offset",), 45),
                                                           LessThan(("offset",), 60)])
    assert [Path(r.path).name for r in ranges] == [f"{0:020d}.log"]
    assert 0 < ranges[0].start and ranges[0].end < segment_bytes  # index entries around offsets 45 and 60
    # Without an index (orders-1): the whole first segment is planned; the reader stops early.
    _, _, ranges = read_through_source(KafkaSource, logs, [EqualTo(("partition",), 1), LessThan(("offset",), 60)])
    assert [(Path(r.path).name, r.start) for r in ranges] == [(f"{0:020d}.log", 0)]


def test_a_timestamp_range_uses_the_time_index(logs):
    # Every timestamp of the first segment is below TS + 300 (its last is TS + 119): with the time
    # index, the first segment of orders-0 is skipped; orders-1 has none, so it is read.
    _, _, ranges = read_through_source(KafkaSource, logs, [GreaterThanOrEqual(("timestamp",), corpus.TS + 300)])
    read = {(Path(r.path).parent.name, Path(r.path).name) for r in ranges}
    assert ("orders-0", f"{0:020d}.log") not in read and ("orders-1", f"{0:020d}.log") in read


def test_a_partition_filter_does_not_open_the_other_partitions_files(logs, monkeypatch):
    opened = []
    real_open = builtins.open

    def spy(file, *args, **kwargs):
        opened.append(str(file))
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", spy)
    for rows in ("record", "batch", "validation"):
        opened.clear()
        got, rest, _ = read_through_source(KafkaSource, logs, [EqualTo(("partition",), 1)], rows=rows)
        assert rest == [] and got and {r["partition"] for r in got} == {1}
        assert [f for f in opened if "orders-0" in f] == [], rows
        assert any("orders-1" in f for f in opened)


def test_tank_pushes_topic_and_partition(tank_corpus):
    everything, _, _ = read_through_source(TankSource, tank_corpus, [])
    got, rest, ranges = read_through_source(TankSource, tank_corpus, [EqualTo(("partition",), 1),
                                                                     LessThan(("seq_num",), 120)])
    assert [type(f) for f in rest] == [LessThan]
    assert {Path(r.path).parent.name for r in ranges} == {"1"}
    assert spark_filter(got, rest) == [r for r in everything if r["partition"] == 1 and r["seq_num"] is not None
                                       and r["seq_num"] < 120]


def test_unusable_filters_go_back_to_spark(logs):
    filters = [EqualTo(("key",), b"x"), EqualTo(("partition",), "zero"), LessThan(("offset",), 1.5),
               EqualTo(("headers", "key"), "a")]
    _, rest, _ = read_through_source(KafkaSource, logs, filters)
    assert rest == filters
    _, rest, _ = read_through_source(KafkaSource, logs, [LessThan(("offset",), 5)], rows="batch")
    assert len(rest) == 1  # batch rows have no offset column: nothing pushed


def test_on_spark_a_pushed_query_counts_what_a_filtered_full_read_counts(spark, logs):
    assert spark.conf.get("spark.sql.python.filterPushdown.enabled") == "true"
    df = spark.read.format("logcodec.kafka").load(str(logs))
    everything = df.select("topic", "partition", "offset", "timestamp").collect()
    for where, keep in [("partition = 0 AND offset < 100", lambda r: r.partition == 0 and r.offset < 100),
                        (f"offset BETWEEN 150 AND 260 AND timestamp >= {corpus.TS + 200}",
                         lambda r: 150 <= r.offset <= 260 and r.timestamp >= corpus.TS + 200)]:
        assert df.where(where).count() == sum(1 for r in everything if keep(r)) > 0
