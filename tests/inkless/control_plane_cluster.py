"""A test Inkless cluster made the way Inkless makes one: `BlockBuilder` closes blocks (as a
broker's buffer does at its size limit or commit interval), the test uploads each block to S3
and commits it through the control plane's own `commit_file_v2`, with the request rows a broker
sends (one per batch: its byte range in the object, the offsets the producer wrote, the topic's
timestamp type, the batch's max timestamp and producer fields), in one transaction per commit.

What the cluster produced is kept apart from anything the code under test computes: `produced`
holds each partition's records in produce order (key, value), so that the offsets the control
plane must have assigned are simply their positions in that list (every batch here is dense:
`last_offset_delta + 1` records).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime

import logcodec
from logcodec.inkless import blocks as ib
from tests.pipeline.corpus import TS, kafka_python_batch

CODECS = ["none", "gzip", "snappy", "lz4", "zstd"]
BUCKET = "inkless-cluster"
BASE = "cluster_base"  # the database, and the bucket prefix, of the session's cluster


def s3fs(endpoint: str):
    """pyarrow's filesystem on moto's server (the test's own uploads and breaks)."""
    import pyarrow.fs as pafs

    return pafs.S3FileSystem(access_key="testing", secret_key="testing", region="us-east-1", scheme="http",
                             endpoint_override=endpoint.removeprefix("http://"), allow_bucket_creation=True)


def build_base_cluster(server, template: str, endpoint: str) -> Cluster:
    """The session's cluster: three topics, six produce requests committed as four objects (two
    requests in most), in the database `cluster_base`, objects under `s3://inkless-cluster/cluster_base`."""
    from logcodec.inkless.shipped import LOG_APPEND_TIME

    fs = s3fs(endpoint)
    fs.create_dir(BUCKET)

    def put(key: str, data: bytes) -> None:
        with fs.open_output_stream(f"{BUCKET}/{BASE}/{key}") as f:
            f.write(data)
    cluster = Cluster(clone_database(server, template, BASE), put, store=f"s3://{BUCKET}/{BASE}")
    cluster.create_topic("orders", 2)
    cluster.create_topic("audit", 1, LOG_APPEND_TIME)
    cluster.create_topic("idem", 1)
    requests = produce_requests(6)
    for pair in (requests[:2], requests[2:4], requests[4:5], requests[5:]):
        cluster.produce(cluster.builder(), pair)
    return cluster


def copy_cluster(base: Cluster, server, endpoint: str, name: str) -> Cluster:
    """A copy of a cluster that a test may break: its database cloned, its objects copied under
    a prefix of that name."""
    url = clone_database(server, BASE, name)
    fs = s3fs(endpoint)
    for key in base.objects:
        fs.copy_file(f"{BUCKET}/{BASE}/{key}", f"{BUCKET}/{name}/{key}")
    return Cluster(url, None, base.topic_ids, base.timestamp_types, base.produced, base.objects,
                   store=f"s3://{BUCKET}/{name}")


def clone_database(server, template: str, name: str) -> str:
    """A fresh database copied from `template`: its URL."""
    import psycopg

    with psycopg.connect(server.url(), autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
    return server.url(name)


@dataclass
class Cluster:
    """A control plane (`url`, administered by the test as its owner) and a bucket prefix of
    objects; `produced[(topic, partition)]` = [(key, value), ...] in produce order."""

    url: str
    put_object: object  # (key, bytes) -> None
    topic_ids: dict = field(default_factory=dict)
    timestamp_types: dict = field(default_factory=dict)
    produced: dict = field(default_factory=dict)
    objects: dict = field(default_factory=dict)  # object key -> bytes uploaded
    commit_ms: int = TS
    store: str = ""  # where the objects are: s3://bucket/prefix

    def create_topic(self, name: str, partitions: int, timestamp_type: int = 0) -> None:
        """Its `logs` rows, as the broker's topic creation makes them (offsets from 0)."""
        import psycopg

        self.topic_ids[name] = uuid.uuid5(uuid.NAMESPACE_URL, f"test-topic:{name}").bytes
        self.timestamp_types[name] = timestamp_type
        with psycopg.connect(self.url) as conn:
            for p in range(partitions):
                conn.execute("INSERT INTO logs (topic_id, partition, topic_name, log_start_offset, high_watermark) "
                             "VALUES (%s, %s, %s, 0, 0)", (uuid.UUID(bytes=self.topic_ids[name]), p, name))

    def builder(self, **more) -> ib.BlockBuilder:
        return ib.BlockBuilder(broker=1, prefix="inkless-test", size_limit=more.pop("size_limit", None),
                               window_ms=None, topic_ids=self.topic_ids, timestamp_types=self.timestamp_types,
                               **more)

    def produce(self, builder: ib.BlockBuilder, requests: list) -> list[ib.Block]:
        """Each produce request ([(topic, partition, records)]) into the builder; every block it
        closes, and the last one, uploaded and committed."""
        closed = []
        for request in requests:
            for topic, partition, records in request:
                self.produced.setdefault((topic, partition), []).extend(_keys_values(records))
            closed += builder.add_request(request)
        closed += builder.flush()
        for block in closed:
            self.commit(block)
        return closed

    def commit(self, block: ib.Block) -> list:
        """Upload the object, then `commit_file_v2` it as a broker does: the responses."""
        self.put_object(block.object_key, block.data)
        self.objects[block.object_key] = block.data
        self.commit_ms += 250
        return commit_file_v2(self.url, block, self.commit_ms)


def _keys_values(records: bytes) -> list[tuple]:
    """(key, value) of each record of batches laid end to end (read by the codec alone)."""
    out = []
    for batch in logcodec.codec("kafka.record_batch_v2").decode_stream(records).items:
        out += [(r.key, r.value) for r in batch.records]
    return out


def commit_requests(block: ib.Block) -> list[tuple]:
    """The `commit_batch_request_v1` rows a broker sends for a block: one per batch, in the
    order laid out."""
    rows = []
    for e in block.entries:
        batch = logcodec.decode("kafka.record_batch_v2", block.data[e.byte_offset:e.byte_offset + e.size])
        last_sequence = -1 if batch.base_sequence < 0 else batch.base_sequence + batch.last_offset_delta
        rows.append((e.magic, uuid.UUID(bytes=e.topic_id), e.partition, e.byte_offset, e.size, batch.base_offset,
                     batch.base_offset + batch.last_offset_delta, e.timestamp_type, e.max_timestamp,
                     batch.producer_id, batch.producer_epoch, batch.base_sequence, last_sequence))
    return rows


def commit_file_v2(url: str, block: ib.Block, now_ms: int, *, conn=None) -> list:
    """One call of `commit_file_v2` for a block (format 1, uploader broker 1), committed."""
    import psycopg
    from psycopg.types.composite import CompositeInfo, register_composite

    own = conn is None
    conn = conn or psycopg.connect(url)
    try:
        info = CompositeInfo.fetch(conn, "commit_batch_request_v1")
        register_composite(info, conn)
        requests = [info.python_type(*row) for row in commit_requests(block)]
        now = datetime.fromtimestamp(now_ms / 1000, UTC)
        got = conn.execute("SELECT (r).topic_id, (r).partition, (r).assigned_base_offset, (r).error::text "
                           "FROM commit_file_v2(%s::object_key_t, 1::format_t, 1::broker_id_t, %s::byte_size_t, %s, %s) AS r",
                           (block.object_key, len(block.data), now, requests)).fetchall()
        conn.commit()
        return got
    finally:
        if own:
            conn.close()


def produce_requests(rounds: int = 3) -> list[list]:
    """Produce requests over three topics: `orders` (2 partitions, every codec, many batches per
    request so rows coalesce), `audit` (log-append time) and `idem` (an idempotent producer's
    sequences, which the control plane checks)."""
    requests = []
    for n in range(rounds):
        requests.append([
            ("orders", 0, kafka_python_batch(0, CODECS[n % 5], 6) + kafka_python_batch(0, CODECS[(n + 1) % 5], 3)),
            ("orders", 1, kafka_python_batch(0, CODECS[(n + 2) % 5], 4)),
            ("audit", 0, kafka_python_batch(0, CODECS[(n + 3) % 5], 5)),
            ("idem", 0, kafka_python_batch(0, "zstd", 4, producer=(777, 0, 4 * n))),
        ])
    return requests
