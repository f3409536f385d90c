"""bench pipeline's selective queries: the rows each must return, from the corpus's layout, are the
rows the corpus holds for its SQL condition; a query that returns others fails the run."""

from __future__ import annotations

import sqlite3

import pytest

import logcodec
from bench import pipeline as bp


@pytest.fixture(scope="module")
def small_corpus(tmp_path_factory):
    """A corpus of 40 kB segments (so that it has several, in all four partitions) and its records."""
    directory = tmp_path_factory.mktemp("corpus")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(bp, "SEGMENT_BYTES", 40_000)
        records, _ = bp.build_corpus(directory, 400_000)
    return directory, records


def every_record(directory) -> sqlite3.Connection:
    """The corpus's (partition, offset, timestamp) rows, read by logcodec, in an SQL table."""
    table = sqlite3.connect(":memory:")
    table.execute("CREATE TABLE corpus (partition INTEGER, offset INTEGER, timestamp INTEGER)")
    for segment in sorted(directory.glob("*/*.log")):
        partition = int(segment.parent.name.rsplit("-", 1)[1])
        stream = logcodec.decode_stream("kafka.record_batch_v2", segment.read_bytes())
        assert stream.partial is None
        table.executemany("INSERT INTO corpus VALUES (?, ?, ?)",
                          [(partition, b.base_offset + r.offset_delta, b.base_timestamp + r.timestamp_delta)
                           for b in stream.items for r in b.records])
    return table


def test_each_query_expects_the_rows_the_corpus_holds_for_it(small_corpus):
    directory, records = small_corpus
    table = every_record(directory)
    assert table.execute("SELECT count(*), count(DISTINCT partition) FROM corpus").fetchone() == (records, 4)
    queries = bp.selective_queries(directory, records)
    assert len(queries) == 4
    for name, (condition, _, expected) in queries.items():
        [(held,)] = table.execute(f"SELECT count(*) FROM corpus WHERE {condition}").fetchall()
        assert expected == held, (name, condition)
    # Partition 0's first 1,000 offsets lie in more than one segment's worth of records here.
    assert 0 < queries["first 1,000 offsets of partition 0"][2] < 1000


def test_a_query_that_returns_other_rows_is_a_wrong_result():
    right = {"query": "partition 1 only", "where": "partition = 1", "rows": 1200, "expected": 1200}
    wrong = {"query": "offsets 0 to 999", "where": "offset BETWEEN 0 AND 999", "rows": 0, "expected": 1000}
    assert bp.wrong_results([right]) == []
    assert bp.wrong_results([right, wrong]) == [
        "bench pipeline: WRONG RESULT: query 'offsets 0 to 999' (`offset BETWEEN 0 AND 999`): 0 rows, expected 1,000"]


def test_the_decode_memory_counts_every_record_of_the_sample_both_ways(small_corpus):
    directory, _ = small_corpus
    first = min(directory.glob("bench-*/*.log"))
    stream = logcodec.decode_stream("kafka.record_batch_v2", first.read_bytes(), lazy=False)
    memory = bp.decode_memory(directory)
    assert memory["records"] == sum(len(b.records) for b in stream.items) > 100
    # read whole, every record is alive at the end; read lazily, a batch's records at most (and
    # each compressed batch's decompressed bytes, which its view holds from the read on)
    assert memory["whole"] > memory["lazy"] > 0
