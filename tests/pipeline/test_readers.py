"""The data sources' readers without Spark: planning, splitting, and what a bad entry becomes.

The same functions run inside Spark's tasks (test_spark_sources.py checks that path);
here each case costs milliseconds, so the corner cases live here.
"""

from __future__ import annotations

import struct
from dataclasses import replace
from pathlib import Path

import pytest

pytest.importorskip("pyarrow")

import pyarrow as pa  # noqa: E402

import logcodec  # noqa: E402
from logcodec.tank.containers import read_tank_partition  # noqa: E402
from logcodec.pipeline import kafka, plan, tank  # noqa: E402
from logcodec.pipeline.plan import FileRange, Pushed, ReadOptions, cut, pack  # noqa: E402
from logcodec.pipeline.tables import record_batches  # noqa: E402
from logcodec.runtime.errors import DecodeError  # noqa: E402
from logcodec.runtime.primitives import uvarint, uvarint_bytes  # noqa: E402
from tests.pipeline import corpus  # noqa: E402


def kafka_options(path, **options) -> ReadOptions:
    return ReadOptions.parse({"path": str(path), **options}, kafka.ROW_KINDS)


def tank_options(path, **options) -> ReadOptions:
    return ReadOptions.parse({"path": str(path), **options}, tank.ROW_KINDS)


def rows_of(fmt, options: ReadOptions) -> list[dict]:
    """Every row of a read in one process: plan, then read each partition, as Spark's tasks do."""
    return [row for partition in fmt.plan(options) for batch in fmt.read(partition, options)
            for row in batch.to_pylist()]


# ---------------------------------------------------------------- options and plans

@pytest.mark.parametrize("options, message", [
    ({"rows": "message"}, "rows='message'"),
    ({"mode": "dropmalformed"}, "mode='dropmalformed'"),
    ({"splitBytes": "0"}, "at least 1"),
    ({"splitBytes": "lots"}, "expected an integer"),
    ({"partiton": "1"}, "unknown option(s) partiton"),
    ({"path": ""}, "no path"),
    ({"partition": str(1 << 31)}, "at most 2147483647"),
])
def test_a_bad_option_is_refused_with_its_name(options, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        ReadOptions.parse({"path": "/x", **options}, kafka.ROW_KINDS)


def test_options_are_case_insensitive_as_in_spark():
    options = ReadOptions.parse({"PATH": "/x", "SplitBytes": "100", "Rows": "Batch"}, kafka.ROW_KINDS)
    assert (options.path, options.split_bytes, options.rows) == ("/x", 100, "batch")


def test_cut_makes_pieces_of_at_least_the_split_size_at_boundaries_only():
    assert cut([0, 10, 25, 30, 70, 90], 100, 20) == [(0, 25), (25, 70), (70, 90), (90, 100)]
    assert cut([], 100, 20) == [(0, 100)]


def test_pack_puts_small_ranges_together_in_order():
    ranges = [FileRange("a", 0, 10), FileRange("b", 0, 10), FileRange("c", 0, 30), FileRange("d", 0, 5)]
    assert [[r.path for r in p] for p in pack(ranges, 25)] == [["a", "b"], ["c"], ["d"]]


def test_arrow_batches_are_cut_by_rows_and_by_the_bytes_of_their_keys_and_values():
    schema = kafka.RECORD_SCHEMA
    value_at = schema.names.index("value")

    def rows(sizes):
        return [tuple(b"v" * n if i == value_at else None for i in range(len(schema))) for n in sizes]

    def batch_sizes(sizes, **limits):
        return [b.num_rows for b in record_batches(rows(sizes), schema, **limits)]

    assert batch_sizes([1] * 10, rows_per_batch=4) == [4, 4, 2]
    assert batch_sizes([1] * 8, rows_per_batch=4) == [4, 4]  # no empty batch at the end
    assert batch_sizes([], rows_per_batch=4) == []
    assert batch_sizes([600, 600, 10, 10, 10, 2000, 1], rows_per_batch=100, bytes_per_batch=1000) == [2, 4, 1]
    out = list(record_batches(rows([3, 5]), schema))
    assert [b.schema for b in out] == [schema] and out[0].column("value").to_pylist() == [b"vvv", b"vvvvv"]
    as_columns = [list(column) for column in zip(*rows([2, 3]))]  # a run of rows given as columns
    mixed = list(record_batches([rows([1])[0], as_columns, rows([4])[0]], schema, rows_per_batch=2))
    assert [b.num_rows for b in mixed] == [3, 1]  # a run is never split
    assert [v for b in mixed for v in b.column("value").to_pylist()] == [b"v", b"vv", b"vvv", b"vvvv"]
    flat = pa.schema([("n", pa.int64())])  # no keys or values: cut by rows alone
    assert [b.num_rows for b in record_batches([(i,) for i in range(5)], flat, rows_per_batch=2)] == [2, 2, 1]


def test_the_collector_is_left_on_while_batches_are_made():
    # No pause of the process's cyclic collector, not even between batches (issue 38): the
    # reader runs as any other code of the process, and so does the caller's.
    import gc

    states = []

    def rows():
        for i in range(6):
            states.append(gc.isenabled())
            yield (i,)
    schema = pa.schema([("n", pa.int64())])
    assert gc.isenabled()
    for _ in record_batches(rows(), schema, rows_per_batch=4):
        assert gc.isenabled()
    assert states == [True] * 6 and gc.isenabled()


def test_kafka_plan_cuts_a_large_segment_at_entry_starts_and_covers_it(kafka_corpus):
    segment = kafka_corpus["logs"] / "payments-3" / "00000000000000001000.log"
    partitions = kafka.plan(kafka_options(segment, splitBytes="4000"))
    ranges = [r for p in partitions for r in p]
    starts = set(kafka.entry_starts(segment))
    assert len(partitions) > 10
    assert all(r.start in starts for r in ranges)
    assert [(a.end == b.start) for a, b in zip(ranges, ranges[1:])] == [True] * (len(ranges) - 1)
    assert (ranges[0].start, ranges[-1].end) == (0, segment.stat().st_size)
    assert {(r.topic, r.partition) for r in ranges} == {("payments", 3)}


@pytest.mark.parametrize("tail", ["", "cut_entry", "cut_header", "too_short", "from_the_middle"])
def test_entry_starts_walks_the_file_as_the_codec_walks_its_bytes(kafka_corpus, tmp_path, tail):
    # entry_starts reads each header from the file; the codec's entry_bounds walks the bytes.
    data = (kafka_corpus["logs"] / "payments-3" / "00000000000000001000.log").read_bytes()
    data += {"": b"", "cut_entry": data[:100], "cut_header": data[:7], "from_the_middle": b"",
             "too_short": data[:8] + b"\0\0\0\1" + data[12:40]}[tail]
    path = tmp_path / "00000000000000001000.log"
    path.write_bytes(data)
    start = kafka.entry_starts(path)[3] if tail == "from_the_middle" else 0
    bounds, _ = logcodec.codec("kafka.record_set").entry_bounds(data, start)
    assert kafka.entry_starts(path, start) == [at for at, _ in bounds] and len(bounds) > 3


def test_kafka_directory_reads_only_the_glob_and_names_topic_and_partition(kafka_corpus):
    ranges = [r for p in kafka.plan(kafka_options(kafka_corpus["logs"])) for r in p]
    assert [(Path(r.path).name, r.topic, r.partition) for r in ranges] == [
        ("00000000000000000000.log", "orders", 0), ("00000000000000001000.log", "payments", 3)]


def test_a_file_outside_a_topic_directory_takes_topic_and_partition_from_options(kafka_corpus):
    ranges = [r for p in kafka.plan(kafka_options(kafka_corpus["fetch"], topic="t", partition="4")) for r in p]
    assert [(r.topic, r.partition) for r in ranges] == [("t", 4)]
    assert [(r.topic, r.partition) for p in kafka.plan(kafka_options(kafka_corpus["fetch"])) for r in p] == [
        (None, None)]


@pytest.mark.parametrize("name, expected", [
    ("orders-3", ("orders", 3)), ("my-topic-0", ("my-topic", 0)), (f"t-{(1 << 31) - 1}", ("t", (1 << 31) - 1)),
    (f"t-{1 << 31}", (None, None)), ("t-\u0663", (None, None)), ("t-", (None, None)), ("orders", (None, None))])
def test_a_directory_names_a_partition_the_column_can_hold(name, expected):
    # A partition is an int32 in Kafka and in the column: a larger number, or digits that are not
    # ASCII, name no partition (they failed the read, at the Arrow column or at int()).
    assert kafka.topic_partition(Path(name)) == expected
    assert plan.partition_number(name.rpartition("-")[2]) == (expected[1] if expected[0] else None)


def test_a_tank_partition_directory_past_int32_reads_with_no_partition(tmp_path):
    bundle = logcodec.codec("tank.bundle")
    raw = bundle.encode(bundle.Bundle(codec=bundle.Codec.none, is_sparse=False,
                                      messages=[bundle.Message(timestamp=5, key=None, content=b"x")]), base_seq_num=1)
    partition = tmp_path / "t" / str(1 << 40)
    partition.mkdir(parents=True)
    (partition / "1_1795324599.log").write_bytes(uvarint_bytes(len(raw)) + raw)
    assert [(r["topic"], r["partition"], r["value"]) for r in rows_of(tank, tank_options(tmp_path))] == [("t", None, b"x")]


# ---------------------------------------------------------------- Kafka rows

@pytest.mark.parametrize("split_bytes", ["1", "3000", str(32 << 20)])
def test_kafka_rows_are_the_same_for_every_split_size(kafka_corpus, split_bytes):
    rows = rows_of(kafka, kafka_options(kafka_corpus["logs"], splitBytes=split_bytes))
    for name in ("orders-0/00000000000000000000.log", "payments-3/00000000000000001000.log"):
        path = kafka_corpus["logs"] / name
        got = [(r["offset"], r["timestamp"], r["timestamp_type"], r["key"], r["value"],
                [tuple(h.values()) for h in r["headers"]]) for r in rows if r["file"] == str(path)]
        assert got == corpus.expected_kafka_records(path)
    assert [r for r in rows if r["error"]] == []


@pytest.mark.parametrize("which", ["logs", "fetch"])
def test_kafka_record_rows_agree_with_the_batch_rows(kafka_corpus, which):
    def read(rows):
        options = ReadOptions.parse({"path": str(kafka_corpus[which]), "rows": rows}, kafka.ROW_KINDS)
        return [row for p in kafka.plan(options) for b in kafka.read(p, options) for row in b.to_pylist()]
    records, batches = read("record"), read("batch")
    assert len(records) >= 5 and 2 in {r["magic"] for r in records}
    corpus.assert_records_agree_with_their_batches(records, batches)


def test_a_control_record_carries_the_marker_bytes(kafka_corpus):
    rows = rows_of(kafka, kafka_options(kafka_corpus["logs"] / "orders-0"))
    (marker,) = [r for r in rows if r["is_control"]]
    assert (marker["key"], marker["value"], marker["is_transactional"]) == (
        b"\0\0\0\1", b"\0\0\0\0\0\5", True)


def test_kafka_batch_rows_describe_every_entry(kafka_corpus):
    path = kafka_corpus["logs"] / "orders-0" / "00000000000000000000.log"
    rows = rows_of(kafka, kafka_options(path, rows="batch"))
    assert [(r["magic"], r["codec"], r["base_offset"], r["last_offset"], r["record_count"]) for r in rows] == \
        corpus.expected_kafka_batches(path)
    assert [r["batch_offset"] for r in rows] == kafka.entry_starts(path)
    assert sum(r["size"] for r in rows) == path.stat().st_size
    assert all(r["crc_valid"] and r["error"] is None for r in rows)
    by_producer = [(r["producer_id"], r["producer_epoch"], r["is_transactional"]) for r in rows if r["magic"] == 2]
    assert (4242, 3, True) in by_producer and (-1, -1, False) in by_producer


def test_a_corrupt_file_yields_its_good_records_and_one_error_row_per_bad_entry(kafka_corpus):
    path = kafka_corpus["corrupt"] / "orders-9" / "00000000000000000000.log"
    _, bad = corpus.corrupt_segment()
    batches = rows_of(kafka, kafka_options(path, rows="batch"))
    assert [(r["batch_offset"], r["error"]["kind"]) for r in batches if r["error"]] == bad
    assert [r["crc_valid"] for r in batches] == [True, False, True, False, True, None]
    records = rows_of(kafka, kafka_options(path))
    assert [(r["batch_offset"], r["error"]["kind"]) for r in records if r["error"]] == bad
    assert [r["offset"] for r in records if not r["error"]] == list(range(0, 9)) + list(range(15, 20))


def test_failfast_raises_the_first_error_with_the_file_and_its_offset(kafka_corpus):
    path = kafka_corpus["corrupt"] / "orders-9" / "00000000000000000000.log"
    first_bad = corpus.corrupt_segment()[1][0][0]
    with pytest.raises(DecodeError) as raised:
        rows_of(kafka, kafka_options(path, mode="failfast"))
    assert raised.value.kind == "checksum_mismatch"
    assert str(path) in raised.value.detail
    assert first_bad <= raised.value.offset < first_bad + 61


@pytest.mark.parametrize("tail", [
    struct.pack(">qi", 99, -5),             # a negative size
    struct.pack(">qi", 99, 3) + b"abc",     # smaller than any message
    struct.pack(">qi", 99, 1 << 30),        # runs past the end of the file
], ids=["negative", "too-small", "past-the-end"])
def test_after_a_broken_frame_reading_resumes_at_the_next_entry_that_decodes(tmp_path, tail):
    good = corpus.kafka_python_batch(0, "none", 2)
    path = tmp_path / "broken.log"
    path.write_bytes(good + tail + good)  # the batch after the broken frame is found again (resync)
    rows = rows_of(kafka, kafka_options(path))
    assert [r["offset"] for r in rows] == [0, 1, None, 0, 1]
    assert (rows[2]["error"]["kind"], rows[2]["error"]["offset"], rows[2]["batch_offset"]) == \
        ("unreadable", len(good), len(good))
    batches = rows_of(kafka, kafka_options(path, rows="batch"))
    assert [(r["batch_offset"], r["size"]) for r in batches] == [(0, len(good)), (len(good), len(tail)),
                                                                 (len(good) + len(tail), len(good))]


def test_a_file_ending_inside_an_entry_header_ends_with_a_truncated_row(tmp_path):
    good = corpus.kafka_python_batch(0, "none", 2)
    path = tmp_path / "cut.log"
    path.write_bytes(good + corpus.kafka_python_batch(1 << 50, "none", 2)[:7])  # (7 zero bytes would be zero fill)
    rows = rows_of(kafka, kafka_options(path, rows="batch"))
    assert [(r["batch_offset"], r["error"] and r["error"]["kind"], r["size"]) for r in rows] == [
        (0, None, len(good)), (len(good), "truncated", 7)]


# ---------------------------------------------------------------- TANK

def captured_bundles(root: Path):
    """(bytes, base sequence number) of every bundle of every TANK segment under root."""
    for directory in tank.partition_directories(root):
        for segment in read_tank_partition(directory).segments:
            data, pos, base = segment.path.read_bytes(), 0, segment.base_seq_num
            for entry in segment.value.entries:
                n, body = uvarint(data, pos, len(data), 5, "len")
                yield data[body:body + n], base
                base = entry.bundle.messages[-1].seq_num + 1 if entry.bundle.messages else base
                pos = body + n


def test_bundle_span_reads_what_the_decoder_reads(tank_captures, tank_corpus):
    checked = 0
    for raw, base in [*captured_bundles(tank_captures), *captured_bundles(tank_corpus)]:
        decoded = logcodec.codec("tank.bundle").decode(raw, base_seq_num=base)
        first, following = tank.bundle_span(raw, 0, len(raw), base)
        assert (first, following) == (decoded.messages[0].seq_num, decoded.messages[-1].seq_num + 1)
        checked += 1
    assert checked > 150  # the corpus's 150 bundles and the captures'


@pytest.mark.parametrize("split_bytes", ["1", "700", str(32 << 20)])
def test_tank_rows_are_the_partitions_messages_for_every_split_size(tank_corpus, split_bytes):
    options = tank_options(tank_corpus, splitBytes=split_bytes)
    rows = rows_of(tank, options)
    for directory in tank.partition_directories(tank_corpus):
        expected = [(m.seq_num, m.timestamp, m.key, m.content) for m in read_tank_partition(directory).messages()]
        got = [(r["seq_num"], r["timestamp"], r["key"], r["value"]) for r in rows
               if Path(r["file"]).parent == directory]
        assert got == expected
    assert [r for r in rows if r["error"]] == []


def test_tank_splits_at_index_entries_and_at_walked_headers_without_an_index(tank_corpus):
    partitions = tank.plan(tank_options(tank_corpus, splitBytes="700"))
    ranges = [r for p in partitions for r in p]
    indexed = tank.index_points(tank_corpus / "clicks" / "0" / "1.index", 1, 1 << 30)
    in_first_segment = [r for r in ranges if r.path.endswith(".ilog")]
    assert len(in_first_segment) > 5 and all(r.start in indexed for r in in_first_segment)
    unindexed = [r for r in ranges if Path(r.path).parent.name == "1"]
    walked = tank.header_points(Path(unindexed[0].path), 100)
    assert len(unindexed) > 5 and all(r.start in walked and r.first_seq == walked[r.start] for r in unindexed)


def test_tank_bundle_rows_describe_every_bundle(tank_corpus):
    rows = rows_of(tank, tank_options(tank_corpus / "clicks" / "0", rows="bundle"))
    expected = [(len(e.bundle.messages), e.bundle.messages[0].seq_num, e.bundle.messages[-1].seq_num,
                 e.bundle.is_sparse) for s in read_tank_partition(tank_corpus / "clicks" / "0").segments
                for e in s.value.entries]
    assert [(r["message_count"], r["first_seq_num"], r["last_seq_num"], r["is_sparse"]) for r in rows] == expected
    assert {r["codec"] for r in rows} == {"none", "snappy"}
    assert all(r["error"] is None for r in rows)


def copy_partition(source: Path, target: Path) -> Path:
    target.mkdir(parents=True)
    for f in source.iterdir():
        (target / f.name).write_bytes(f.read_bytes())
    return target


def test_a_bad_bundle_is_an_error_row_and_numbering_goes_on_from_its_header(tank_corpus, tmp_path):
    partition = copy_partition(tank_corpus / "clicks" / "1", tmp_path / "t" / "1")
    (segment,) = partition.glob("*.log")
    data = bytearray(segment.read_bytes())
    third = sorted(tank.header_points(segment, 100))[2]  # a snappy bundle of 15 messages
    data[third + 3] ^= 0xFF  # its compressed messages, after the length varint and the flags
    segment.write_bytes(bytes(data))
    rows = rows_of(tank, tank_options(partition))
    assert [(r["bundle_offset"], r["error"]["kind"]) for r in rows if r["error"]] == [(third, "corrupt_compressed")]
    expected = [(m.seq_num, m.content) for m in read_tank_partition(tank_corpus / "clicks" / "1").messages()]
    in_third = range(1 + 8, 1 + 8 + 15)  # after the first two bundles' 1 and 8 messages
    assert [(r["seq_num"], r["value"]) for r in rows if not r["error"]] == [
        e for i, e in enumerate(expected) if i not in in_third]


def test_a_cut_off_last_bundle_is_a_truncated_row(tank_corpus, tmp_path):
    partition = copy_partition(tank_corpus / "clicks" / "1", tmp_path / "t" / "1")
    (segment,) = partition.glob("*.log")
    size = segment.stat().st_size
    last = max(tank.header_points(segment, 100))
    segment.write_bytes(segment.read_bytes()[: size - 7])
    rows = rows_of(tank, tank_options(partition, rows="bundle"))
    assert [(r["bundle_offset"], r["error"]["kind"], r["size"]) for r in rows if r["error"]] == [
        (last, "truncated", size - 7 - last)]


def test_an_index_that_contradicts_the_log_is_reported_where_it_is_seen(tank_corpus, tmp_path):
    partition = copy_partition(tank_corpus / "clicks" / "0", tmp_path / "t" / "0")
    index = partition / "1.index"
    entries = bytearray(index.read_bytes())
    struct.pack_into("<I", entries, 8 * 3, struct.unpack_from("<I", entries, 8 * 3)[0] + 1)  # 4th entry: seq + 1
    index.write_bytes(bytes(entries))
    offset, next_offset = struct.unpack_from("<I", entries, 8 * 3 + 4)[0], struct.unpack_from("<I", entries, 8 * 4 + 4)[0]
    expected = [(i, m.seq_num) for i, m in enumerate(read_tank_partition(tank_corpus / "clicks" / "0").messages())]

    # The entry lies inside a range: the log's numbering goes on, the entry is reported.
    rows = rows_of(tank, tank_options(partition))
    assert [(r["error"]["path"], r["error"]["offset"]) for r in rows if r["error"]] == [("index", offset)]
    assert [r["seq_num"] for r in rows if not r["error"]] == [seq for _, seq in expected]

    # A range starts at the entry (every index entry starts one): that range numbers its messages
    # from the entry, one too high, until a sparse bundle brings its own numbers; if none does
    # before the range ends, the next entry disagrees too and is reported as well.
    rows = rows_of(tank, tank_options(partition, splitBytes="1"))
    bundles = rows_of(tank, tank_options(tank_corpus / "clicks" / "0", rows="bundle"))
    resumed = min(b["bundle_offset"] for b in bundles
                  if b["is_sparse"] and b["bundle_offset"] > offset and b["file"].endswith(".ilog"))
    reported = [offset] + ([next_offset] if resumed > next_offset else [])
    assert [(r["error"]["path"], r["error"]["offset"]) for r in rows if r["error"]] == [("index", o) for o in reported]
    good = [r for r in rows if not r["error"]]
    assert [r["seq_num"] - seq for r, (_, seq) in zip(good, expected)] == [
        1 if r["file"].endswith(".ilog") and offset <= r["bundle_offset"] < min(resumed, next_offset) else 0
        for r in good]


def test_records_without_headers_give_empty_lists_beside_records_with_them(tmp_path):
    # A batch whose records have no headers gives its column as one run (no list per row); the
    # rows must still read as empty lists, alone and beside a batch with headers.
    from logcodec.generated.kafka import record_batch_v2 as rb

    path = tmp_path / "t-0" / "00000000000000000000.log"
    path.parent.mkdir()
    bare = rb.build(records=[(0, 0, 0, b"k", b"v", []), (0, 0, 1, b"k", b"v", [])])
    path.write_bytes(bare + rb.build(base_offset=2, records=[(0, 0, 0, b"k", b"v", [("h", b"1")])]))

    def headers(end):
        rows = kafka.record_rows(FileRange(str(path), 0, end, "t", 0))
        return pa.Table.from_batches(list(record_batches(rows, kafka.RECORD_SCHEMA))).column("headers").to_pylist()

    assert headers(len(bare)) == [[], []]
    assert headers(path.stat().st_size) == [[], [], [{"key": "h", "value": b"1"}]]


def test_offsets_and_timestamps_past_int64_wrap_around_as_kafka_reads_them(tmp_path):
    # Kafka reads a record's offset and timestamp as base + delta in a Java long, which wraps;
    # a batch whose sums pass int64 reads so, beside a log-append-time batch (its timestamps one
    # value each) and with a timestamp filter pushed down.
    from logcodec.generated.kafka import record_batch_v2 as rb

    top, bottom = (1 << 63) - 1, -(1 << 63)
    path = tmp_path / "t-0" / "00000000000000000000.log"
    path.parent.mkdir()
    path.write_bytes(
        rb.build(base_timestamp=top - 1, max_timestamp=top,
                 records=[(0, 0, 0, None, b"a", []), (0, 1, 1, None, b"b", []), (0, 2, 2, None, b"c", [])])
        + rb.build(base_offset=3, max_timestamp=5, attributes=rb.Attributes(timestamp_type=rb.TimestampType(1)),
                   records=[(0, 0, 0, None, b"d", []), (0, 0, 1, None, b"e", [])])
        + rb.build(base_offset=top, base_timestamp=7, records=[(0, 0, 0, None, b"f", []), (0, 0, 1, None, b"g", [])]))
    rows = rows_of(kafka, kafka_options(path.parent))
    assert [(r["value"], r["offset"], r["timestamp"], r["timestamp_type"]) for r in rows] == [
        (b"a", 0, top - 1, "create_time"), (b"b", 1, top, "create_time"), (b"c", 2, bottom, "create_time"),
        (b"d", 3, 5, "log_append_time"), (b"e", 4, 5, "log_append_time"),
        (b"f", top, 7, "create_time"), (b"g", bottom, 7, "create_time")]
    options = replace(kafka_options(path.parent), pushed=Pushed(timestamp_to=-(1 << 62)))
    assert [r["value"] for r in rows_of(kafka, options)] == [b"a", b"b", b"c"]  # the one batch holding one


def test_a_tank_timestamp_past_int64_reads_as_a_long_holds_it(tmp_path):
    # TANK stores a message's timestamp as a u64: one past int64 is its bits read as a long.
    bundle = logcodec.codec("tank.bundle")
    raw = bundle.encode(bundle.Bundle(codec=bundle.Codec.none, is_sparse=False,
                                      messages=[bundle.Message(timestamp=(1 << 64) - 1, key=None, content=b"x"),
                                                bundle.Message(timestamp=5, key=None, content=b"y")]), base_seq_num=1)
    partition = tmp_path / "t" / "0"
    partition.mkdir(parents=True)
    (partition / "1_1795324599.log").write_bytes(uvarint_bytes(len(raw)) + raw)
    rows = rows_of(tank, tank_options(tmp_path))
    assert [(r["seq_num"], r["timestamp"], r["value"], r["error"]) for r in rows] == [(1, -1, b"x", None), (2, 5, b"y", None)]
