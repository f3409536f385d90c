"""Inkless objects and metadata built for the pipeline tests by logcodec's `BlockBuilder`, from
batches written by kafka-python's builder and by logcodec (every codec, headers, nulls, a
transaction and its commit marker, a log-append-time topic, coalesced shipped rows), laid out
as a reader finds them: sidecars in every encoding of both forms, a shipped export naming many
objects by key, a large object to split; and corrupt copies.

The expected rows are computed by single-process `logcodec.inkless.blocks.read_records` and
`validate` on each object with its metadata, not by the pipeline's reader.
"""

from __future__ import annotations

import json
import random
import uuid
from collections.abc import Callable
from dataclasses import dataclass

from logcodec.inkless import blocks as ib
from logcodec.inkless.document import uuid_to_base64url
from logcodec.inkless.shipped import LOG_APPEND_TIME, ShippedMetadata, shipped_to_document
from tests.pipeline.corpus import TS, _control_bytes, commit_marker, kafka_python_batch, logcodec_batch

CODECS = ["none", "gzip", "snappy", "lz4", "zstd"]


@dataclass
class Placed:
    """An object and its metadata as laid out: their paths relative to the root of the layout."""

    object_path: str
    metadata_path: str
    data: bytes
    metadata: object  # the metadata value the reader should pair with the object

    def expected_records(self, skip=()) -> dict[tuple[str, int], list[tuple]]:
        """(topic id text, partition) -> (offset, timestamp, timestamp type, key, value, headers) of
        each record, by `read_records` (but for the partitions in `skip`)."""
        out = {}
        for topic_id, partition in partitions(self.metadata):
            if (str(uuid.UUID(bytes=topic_id)), partition) in skip:
                continue
            out[(str(uuid.UUID(bytes=topic_id)), partition)] = [
                (r.offset, r.timestamp, ["create_time", "log_append_time"][r.timestamp_type], _control_bytes(r.key),
                 _control_bytes(r.value), list(r.headers))
                for r in ib.read_records(self.data, self.metadata, partition=partition, topic_id=topic_id)]
        return out


def partitions(metadata) -> list[tuple[bytes, int]]:
    if isinstance(metadata, ShippedMetadata):
        pairs = [(row.topic_id, row.partition) for row in metadata.batches]
    else:
        pairs = [(bytes(tp.id), tp.partition) for tp in metadata.topic_partitions]
    return list(dict.fromkeys(pairs))


def _block_ids(seed: int):
    rng = random.Random(seed)

    def new() -> bytes:
        while True:
            raw = uuid.UUID(int=rng.getrandbits(128), version=4).bytes
            if not uuid_to_base64url(raw).startswith("-"):
                return raw
    return new


def build_blocks(large_batches: int = 60) -> list[ib.Block]:
    """Three blocks of one builder (so shipped offsets run on across them): two of mixed produce
    requests, one large of many small batches."""
    clock = iter(range(TS, TS + 10_000, 250))
    builder = ib.BlockBuilder(broker=3, size_limit=None, window_ms=None, clock=lambda: next(clock),
                              timestamp_types={"audit": LOG_APPEND_TIME}, next_offsets={("orders", 0): 1000},
                              new_block_id=_block_ids(6))
    blocks = []
    for block in range(2):
        for request in range(3):
            n = block * 3 + request
            builder.add_request([
                ("orders", 0, kafka_python_batch(0, CODECS[n % 5], 6) + logcodec_batch(0, CODECS[(n + 1) % 5], 3)),
                ("orders", 1, logcodec_batch(0, CODECS[(n + 2) % 5], 4)),
                ("audit", 0, kafka_python_batch(0, CODECS[(n + 3) % 5], 5)),
            ])
        builder.add_request([("payments", 2, kafka_python_batch(0, "zstd", 4, producer=(4242, 3, 0),
                                                                transactional=True) + commit_marker(4))])
        blocks += builder.flush()
    for i in range(large_batches):
        builder.add("clicks", i % 3, kafka_python_batch(0, CODECS[i % 5], 10) if i % 2 else
                    logcodec_batch(0, CODECS[i % 5], 10))
    blocks += builder.flush()
    return blocks


def layout(blocks: list[ib.Block], export_at: str = "data/shipped/export.json") -> tuple[dict[str, bytes], list[Placed]]:
    """Files (relative path -> bytes) of a layout of three blocks in both forms, and where each
    object and its metadata lie:

        data/seed/<id>                  + <id>.metadata.bin | .metadata.yaml | .metadata.json (seed)
        data/shipped/inkless/<id>       the first with a shipped sidecar <id>.metadata.json,
                                        the others named by key in one export of two files rows
        <export_at>
    """
    files: dict[str, bytes] = {}
    placed = []
    for block, encoding in zip(blocks, ["binary", "yaml", "json"]):
        name = block.object_key.rsplit("/", 1)[1]
        suffix = {"binary": "bin", "yaml": "yaml", "json": "json"}[encoding]
        files[f"data/seed/{name}"] = block.data
        files[f"data/seed/{name}.metadata.{suffix}"] = ib.dump_metadata(block.seed_metadata, encoding)
        placed.append(Placed(f"data/seed/{name}", f"data/seed/{name}.metadata.{suffix}", block.data,
                             block.seed_metadata))
    first, *rest = blocks
    files[f"data/shipped/{first.object_key}"] = first.data
    files[f"data/shipped/{first.object_key}.metadata.json"] = ib.dump_metadata(first.shipped_metadata, "json")
    placed.append(Placed(f"data/shipped/{first.object_key}", f"data/shipped/{first.object_key}.metadata.json",
                         first.data, first.shipped_metadata))
    export = {"files": [], "batches": []}
    for block in rest:
        doc = shipped_to_document(block.shipped_metadata)
        export["files"] += doc["files"]
        export["batches"] += doc["batches"]
        files[f"data/shipped/{block.object_key}"] = block.data
        placed.append(Placed(f"data/shipped/{block.object_key}", export_at, block.data, block.shipped_metadata))
    files[export_at] = json.dumps(export, indent=1).encode()
    return files, placed


@dataclass
class Corrupt:
    """A layout of damaged objects and metadata: the files, the objects whose findings should be
    what `validate` finds, and the locations of the unpairable ones."""

    files: dict[str, bytes]
    validated: list[Placed]  # objects whose error rows are validate's findings
    orphan: str              # an object without metadata
    broken: str              # an object whose sidecar is not metadata


def corrupt_layout(blocks: list[ib.Block]) -> Corrupt:
    a, b, _ = blocks
    files, validated = {}, []

    def put(path: str, data: bytes, metadata, encoding: str, suffix: str) -> None:
        files[path] = data
        files[f"{path}.metadata.{suffix}"] = ib.dump_metadata(metadata, encoding)
        validated.append(Placed(path, f"{path}.metadata.{suffix}", data, metadata))

    flipped = bytearray(a.data)
    second = a.seed_metadata.topic_partitions[0].batches[1]
    flipped[second.byte_offset + second.size - 3] ^= 0xFF      # a record's bytes: its CRC no longer matches
    put("bad/flipped", bytes(flipped), a.seed_metadata, "binary", "bin")
    put("bad/truncated", b.data[: len(b.data) * 2 // 3], b.shipped_metadata, "json", "json")  # ranges past the end
    dead = ShippedMetadata(a.shipped_metadata.file, a.shipped_metadata.batches[:1] + a.shipped_metadata.batches[2:])
    put("bad/dead", a.data, dead, "json", "json")               # a rejected batch: dead bytes
    files["bad/orphan"] = b.data
    files["bad/broken"] = b.data
    files["bad/broken.metadata.json"] = b'{"files": [{"file_id": 1}], "batches": []}'
    return Corrupt(files, validated, "bad/orphan", "bad/broken")


def write(files: dict[str, bytes], put: Callable[[str, bytes], None]) -> None:
    for path, data in files.items():
        put(path, data)
