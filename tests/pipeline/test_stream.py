"""Tailing live logs (issue 15, item 4): `spark.readStream.format("logcodec.kafka")` and
`logcodec.tank` (`pipeline/stream.py`).

While a query runs, batches are appended to the active segment (cut anywhere, also inside a
header), new segments and partitions appear, a TANK segment is renamed as TANK rolls it, and a
preallocated Kafka segment is written into its zeros. Every entry becomes rows exactly once, the
same rows as a batch read of the final files; nothing cut short is ever an error row; offsets
are the log's own (segment, byte position); a query restarted from its checkpoint goes on where
it stopped. `complete_end`, where a micro-batch stops in a segment being written, is checked
without Spark too.
"""

from __future__ import annotations

import random
import threading
import time
from pathlib import Path

from tests.pipeline import corpus

KAFKA_SEGMENT = "00000000000000000000"


def kafka_batches(first: int, count: int) -> list[bytes]:
    """`count` batches from offset `first` on: kafka-python's and logcodec's, every codec, 1-6 records."""
    out, offset = [], first
    for i in range(count):
        n = 1 + i % 6
        codec = list(corpus.CODECS)[i % len(corpus.CODECS)]
        out.append(corpus.kafka_python_batch(offset, codec, n) if i % 2 else corpus.logcodec_batch(offset, codec, n))
        offset += n
    return out


def tank_bundles(first_seq: int, count: int) -> tuple[list[bytes], int]:
    """The framed bundles of a TANK segment from `first_seq`, and the next sequence number."""
    import logcodec

    log, _ = corpus.tank_segment(first_seq, count)
    starts = corpus.tank_bundle_offsets(log) + [len(log)]
    last = logcodec.codec("tank.segment_log").decode(log, base_seq_num=first_seq).entries[-1].bundle.messages[-1]
    return [log[a:b] for a, b in zip(starts, starts[1:])], last.seq_num + 1


# ---------------------------------------------------------------- where a micro-batch stops (no Spark)

def test_kafka_complete_end_stops_before_what_is_still_being_written(tmp_path):
    from logcodec.pipeline import kafka

    b = kafka_batches(0, 4)
    path = tmp_path / f"{KAFKA_SEGMENT}.log"
    ends = [sum(map(len, b[:i + 1])) for i in range(4)]
    cases = [
        (b[0] + b[1][:5], ends[0]),                                # a header cut short
        (b[0] + b[1][:30], ends[0]),                               # a batch cut short
        (b[0] + b[1] + bytes(4096), ends[1]),                      # preallocated zeros
        (b[0] + b[1][:40] + bytes(len(b[1]) - 40) + bytes(999), ends[0]),  # being written into the zeros
        (b[0] + b[1] + b[2] + b[3], ends[3]),                      # all complete
        (b"", 0),
    ]
    for data, expected in cases:
        path.write_bytes(data)
        assert kafka.complete_end(path, 0, None) == (expected, None)
    path.write_bytes(b"".join(b))
    assert kafka.complete_end(path, ends[1], None) == (ends[3], None)   # from where the last micro-batch ended
    # Overwritten bytes with whole batches after them are read (the reader reports them as unreadable).
    hole = bytearray(b"".join(b))
    hole[ends[0] + 3: ends[0] + 40] = b"\xff" * 37
    path.write_bytes(bytes(hole) + b[0][:10])
    assert kafka.complete_end(path, 0, None) == (ends[3], None)


def test_tank_complete_end_stops_before_a_bundle_cut_short(tmp_path):
    from logcodec.pipeline import tank

    bundles, _ = tank_bundles(1, 6)
    path = tmp_path / "1_1795324599.log"
    path.write_bytes(b"".join(bundles[:3]) + bundles[3][:4])
    end, seq = tank.complete_end(path, 0, 1)
    assert end == sum(map(len, bundles[:3]))
    _, next_seq = tank_bundles(1, 3)
    assert seq == next_seq
    path.write_bytes(b"".join(bundles))
    assert tank.complete_end(path, end, seq) == (len(path.read_bytes()), tank_bundles(1, 6)[1])


# ---------------------------------------------------------------- a query tailing logs

class Tail:
    """A streaming query over `root` whose micro-batches are collected as rows, with a checkpoint."""

    def __init__(self, spark, fmt: str, root: Path, checkpoint: Path, **options) -> None:
        self.rows: list = []
        self.lock = threading.Lock()
        reader = spark.readStream.format(fmt)
        for k, v in options.items():
            reader = reader.option(k, v)

        def collect(df, batch_id):
            rows = df.collect()
            with self.lock:
                self.rows += rows

        self.query = (reader.load(str(root)).writeStream.foreachBatch(collect)
                      .option("checkpointLocation", str(checkpoint)).trigger(processingTime="100 milliseconds")
                      .start())

    def settle(self) -> list:
        """The rows so far, once everything written has been read."""
        self.query.processAllAvailable()
        with self.lock:
            return list(self.rows)

    def end_offset(self) -> dict:
        import json

        return json.loads(self.query.lastProgress["sources"][0]["endOffset"])

    def stop(self) -> None:
        self.query.stop()


def _sorted(rows, but: str | None = None) -> list[tuple]:
    """The rows as sorted tuples (without the column `but`)."""
    return sorted((tuple(v for k, v in r.asDict().items() if k != but) for r in rows), key=repr)


def batch_read(spark, fmt: str, root: Path, but: str | None = None) -> list[tuple]:
    return _sorted(spark.read.format(fmt).load(str(root)).collect(), but)


def test_kafka_stream_reads_appends_new_segments_and_partitions_once(spark, tmp_path):
    root = tmp_path / "logs"
    (root / "orders-0").mkdir(parents=True)
    active = root / "orders-0" / f"{KAFKA_SEGMENT}.log"
    b = kafka_batches(0, 4)
    active.write_bytes(b[0] + b[1][:30])                        # the second batch is being written
    tail = Tail(spark, "logcodec.kafka", root, tmp_path / "checkpoint")
    try:
        rows = tail.settle()
        assert [r.offset for r in rows] == [0] and rows[0].error is None
        assert tail.end_offset() == {"orders-0": {"segment": KAFKA_SEGMENT, "position": len(b[0])}}
        with open(active, "ab") as f:
            f.write(b[1][30:] + b[2])                           # completed, and one more
        rows = tail.settle()
        assert [r.offset for r in rows] == [0, 1, 2, 3, 4, 5]
        assert tail.end_offset() == {"orders-0": {"segment": KAFKA_SEGMENT, "position": len(b"".join(b[:3]))}}
    finally:
        tail.stop()
    # Written while the query is stopped: the rest of the segment, a new segment, a new partition.
    with open(active, "ab") as f:
        f.write(b[3])
    rolled, other = kafka_batches(10, 3), kafka_batches(0, 2)
    (root / "orders-0" / "00000000000000000010.log").write_bytes(b"".join(rolled))
    (root / "orders-1").mkdir()
    (root / "orders-1" / f"{KAFKA_SEGMENT}.log").write_bytes(b"".join(other))
    again = Tail(spark, "logcodec.kafka", root, tmp_path / "checkpoint")   # restarted from its checkpoint
    try:
        more = again.settle()
        assert again.end_offset() == {
            "orders-0": {"segment": "00000000000000000010", "position": len(b"".join(rolled))},
            "orders-1": {"segment": KAFKA_SEGMENT, "position": len(b"".join(other))}}
    finally:
        again.stop()
    assert min(r.offset for r in more if r.partition == 0) == 6          # went on where it stopped
    assert all(r.error is None for r in rows + more)
    assert _sorted(rows + more) == batch_read(spark, "logcodec.kafka", root)


def _pieces(rng: random.Random, path: Path, data: bytes, in_place: bool) -> list[tuple[Path, int, bytes, bool]]:
    """`data` for `path` in pieces of 1-300 bytes: (path, position, bytes, written in place)."""
    out, at = [], 0
    while at < len(data):
        n = rng.randint(1, 300)
        out.append((path, at, data[at:at + n], in_place))
        at += n
    return out


def kafka_writer(root: Path, seed: int) -> None:
    """Writes two partitions while a query runs, in pieces cut anywhere (inside headers too):
    `orders-0` appends and rolls to a new segment halfway; `orders-1` is a preallocated segment
    (zeros) written into in place. The two are interleaved at random."""
    rng = random.Random(seed)
    first = kafka_batches(0, 6)
    base = sum(1 + i % 6 for i in range(6))
    second = kafka_batches(base, 6)
    preallocated = root / "orders-1" / f"{KAFKA_SEGMENT}.log"
    data = b"".join(kafka_batches(0, 8))
    preallocated.write_bytes(bytes(len(data) + 5000))
    queues = [_pieces(rng, root / "orders-0" / f"{KAFKA_SEGMENT}.log", b"".join(first), False)
              + _pieces(rng, root / "orders-0" / f"{base:020d}.log", b"".join(second), False),
              _pieces(rng, preallocated, data, True)]
    while any(queues):
        queue = rng.choice([q for q in queues if q])
        path, at, chunk, in_place = queue.pop(0)
        with open(path, "r+b" if in_place else "ab") as f:
            f.seek(at)
            f.write(chunk)
        time.sleep(rng.random() * 0.02)


def test_kafka_stream_while_a_writer_appends(spark, tmp_path):
    root = tmp_path / "logs"
    (root / "orders-0").mkdir(parents=True)
    (root / "orders-1").mkdir()
    (root / "orders-0" / f"{KAFKA_SEGMENT}.log").touch()
    tail = Tail(spark, "logcodec.kafka", root, tmp_path / "checkpoint")
    try:
        writer = threading.Thread(target=kafka_writer, args=(root, 15))
        writer.start()
        writer.join()
        rows = tail.settle()
    finally:
        tail.stop()
    assert len(rows) == 2 * sum(1 + i % 6 for i in range(6)) + sum(1 + i % 6 for i in range(8))
    assert all(r.error is None for r in rows), [r.error for r in rows if r.error is not None][:3]
    assert _sorted(rows) == batch_read(spark, "logcodec.kafka", root)


def test_tank_stream_reads_appends_and_rolled_segments_once(spark, tmp_path):
    root = tmp_path / "tank"
    directory = root / "clicks" / "0"
    directory.mkdir(parents=True)
    bundles, following = tank_bundles(1, 14)
    active = directory / "1_1795324599.log"
    active.write_bytes(b"".join(bundles[:3]) + bundles[3][:5])
    tail = Tail(spark, "logcodec.tank", root, tmp_path / "checkpoint")
    try:
        rows = tail.settle()
        _, seq = tank_bundles(1, 3)
        assert [r.seq_num for r in rows] == list(range(1, seq))
        assert tail.end_offset() == {"clicks/0": {"segment": "1", "position": len(b"".join(bundles[:3])), "seq": seq}}
        writer = threading.Thread(target=_tank_writer, args=(active, b"".join(bundles)[len(b"".join(bundles[:3])) + 5:],
                                                             following))
        writer.start()
        writer.join()
        rows = tail.settle()
        assert tail.end_offset()["clicks/0"]["segment"] == str(following)
    finally:
        tail.stop()
    assert all(r.error is None for r in rows)
    assert len({r.seq_num for r in rows}) == len(rows)
    # The same rows as a batch read, but for the rolled segment's name: it was read before it was renamed.
    assert _sorted(rows, "file") == batch_read(spark, "logcodec.tank", root, "file")


def _tank_writer(active: Path, rest: bytes, following: int) -> None:
    """Appends the rest of the active segment in pieces, rolls it as TANK does (renamed
    `<first>-<last>_<secs>.ilog`) and writes a new active segment."""
    rng = random.Random(3)
    for _, _, chunk, _ in _pieces(rng, active, rest, False):
        with open(active, "ab") as f:
            f.write(chunk)
        time.sleep(rng.random() * 0.02)
    active.rename(active.with_name(f"1-{following - 1}_1795324599.ilog"))
    bundles, _ = tank_bundles(following, 4)
    new = active.with_name(f"{following}_1795324699.log")
    for _, _, chunk, _ in _pieces(rng, new, b"".join(bundles), False):
        with open(new, "ab") as f:
            f.write(chunk)
        time.sleep(rng.random() * 0.02)


def test_kafka_stream_available_now_and_starting_from_latest(spark, tmp_path):
    root = tmp_path / "logs"
    (root / "orders-0").mkdir(parents=True)
    active = root / "orders-0" / f"{KAFKA_SEGMENT}.log"
    b = kafka_batches(0, 3)
    active.write_bytes(b[0] + b[1] + b[2][:25])
    got = []
    query = (spark.readStream.format("logcodec.kafka").load(str(root)).writeStream
             .foreachBatch(lambda df, batch_id: got.extend(df.collect()))
             .option("checkpointLocation", str(tmp_path / "once")).trigger(availableNow=True).start())
    assert query.awaitTermination(300)  # what is there when it starts, then it stops
    assert sorted(r.offset for r in got) == [0, 1, 2]     # the third batch was cut short
    tail = Tail(spark, "logcodec.kafka", root, tmp_path / "latest", startingOffsets="latest")
    try:
        assert tail.settle() == []
        with open(active, "ab") as f:
            f.write(b[2][25:])
        assert sorted(r.offset for r in tail.settle()) == [3, 4, 5]
    finally:
        tail.stop()
