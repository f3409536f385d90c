"""Kafka's protocol frames: decode and encode throughput of logcodec's `kafka.request` and
`kafka.response` against kafka-python's protocol classes.

``python -m bench kafka-protocol [--quick] [--pure] [--json FILE]`` (see bench/README.md).

Workloads (each frame made once by kafka-python, outside the timed region, and checked: logcodec
decodes it and writes it back byte for byte, and its value is kafka-python's, field by field):

* ``metadata``  a Metadata v12 response: 3 brokers, 1,000 topics of 10 partitions (3 replicas).
* ``fetch``     a Fetch v16 response: 1 topic, 10 partitions, each 10 record batches of 70 records
                (16-byte key, 100-byte value, one header): 1 MB of record batches.
* ``produce``   a Produce v9 request: 10 topics of 10 partitions, a batch of 10 records in each
                (100 batches, records as in ``fetch``).

Columns, each called directly:

* ``logcodec``     ``logcodec.decode(fmt, frame, **params)``; ``encode`` of the decoded value with its
                   derived fields (lengths, counts, CRCs) taken out, so the encoder computes them.
                   Records come out decoded down to each header, every CRC checked. Both columns
                   then read what a client reads: every record's fields, every Metadata partition's
                   (logcodec's lazy read gives the big lists as views, read when a loop reaches them).
* ``kafka-python`` its message class's ``decode(frame, version=, header=True)``, then, where the frame
                   holds records, ``MemoryRecords`` over each ``records`` field: every batch's CRC
                   checked and every record read, as its consumer does (logcodec's value has them all);
                   ``encode(header=True)`` of the message, a Produce request's batches first built
                   with ``DefaultRecordBatchBuilder`` (logcodec's encode writes the records too).
* ``kafka-python frame`` (fetch and produce) the message class alone: records stay bytes.

Each column's rounds are interleaved and the best taken (bench/kafka.py's method). The ratios
are logcodec's speed over the other column's, in the same run.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import platform
import sys
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

from bench import kafka as kb  # the timing method

PURE_ENV = "LOGCODEC_PURE"
OPS = ("decode", "encode")
TARGETS = {"compiled": 5.0, "pure Python": 2.0}  # issue 39: logcodec / kafka-python, decode and encode
RECORD_KEY, RECORD_VALUE, HEADER = b"k" * 16, b"v" * 100, ("trace", b"t" * 8)

logcodec = None  # imported by main(), after --pure is read


@dataclass
class Workload:
    id: str
    title: str
    fmt: str
    message: object  # kafka-python's message, its header set
    params: dict = field(default_factory=dict)
    frame: bytes = b""
    records_paths: tuple = ()  # attribute paths of the records fields, for kafka-python's record reads
    records: object = None  # () -> the bytes of one records field, built with kafka-python's batch builder
    n_records: int = 0  # the records of all its records fields
    partitions_path: tuple = ()  # (topics, partitions): lists of which both columns read every element


def _classes():
    from logcodec.conformance.testees.kafka_protocol import message_classes

    return message_classes()


def _batch(base_offset: int, n: int) -> bytes:
    from kafka.record.default_records import DefaultRecordBatchBuilder

    builder = DefaultRecordBatchBuilder(2, 0, 0, -1, -1, -1, 1 << 30)
    for i in range(n):
        builder.append(i, 1_700_000_000_000 + i, RECORD_KEY, RECORD_VALUE, [HEADER])
    return bytes(builder.build())


def _element(cls, *names: str):
    """kafka-python's class of the elements of the list at `names` in message class `cls`."""
    f = cls.fields[names[0]]
    for name in names[1:]:
        f = f.fields[name]
    return f.array_of.data_class


def metadata(n_topics: int = 1000, n_partitions: int = 10) -> Workload:
    mr = _classes()["MetadataResponse"]
    broker, topic, partition = _element(mr, "brokers"), _element(mr, "topics"), _element(mr, "topics", "partitions")
    topics = [topic(error_code=0, name=f"topic-{t:04d}", topic_id=uuid.UUID(int=t + 1), is_internal=False,
                    partitions=[partition(error_code=0, partition_index=p, leader_id=p % 3, leader_epoch=5,
                                          replica_nodes=[0, 1, 2], isr_nodes=[0, 1, 2], offline_replicas=[])
                                for p in range(n_partitions)], authorized_operations=None) for t in range(n_topics)]
    message = mr[12](throttle_time_ms=0, cluster_id="cluster", controller_id=0, topics=topics,
                     brokers=[broker(node_id=i, host=f"broker-{i}.example", port=9092, rack=None) for i in range(3)])
    message.with_header(correlation_id=1)
    return Workload("metadata", f"Metadata v12 response, {n_topics:,} topics x {n_partitions} partitions",
                    "kafka.response", message, {"api_key": 3, "api_version": 12},
                    partitions_path=("topics", "partitions"))


def fetch(n_partitions: int = 10, n_batches: int = 10, n_records: int = 70) -> Workload:
    fr = _classes()["FetchResponse"]
    topic, partition = _element(fr, "responses"), _element(fr, "responses", "partitions")
    def records():
        return b"".join(_batch(b * n_records, n_records) for b in range(n_batches))

    partitions = [partition(partition_index=p, error_code=0, high_watermark=1000, last_stable_offset=1000,
                            log_start_offset=0, aborted_transactions=[], preferred_read_replica=-1,
                            records=records()) for p in range(n_partitions)]
    message = fr[16](throttle_time_ms=0, error_code=0, session_id=0,
                     responses=[topic(topic_id=uuid.UUID(int=7), partitions=partitions)])
    message.with_header(correlation_id=1)
    return Workload("fetch", f"Fetch v16 response, {n_partitions} partitions x {n_batches} batches x {n_records} "
                    "records", "kafka.response", message, {"api_key": 1, "api_version": 16},
                    records_paths=("responses", "partitions"), records=records,
                    n_records=n_partitions * n_batches * n_records)


def produce(n_topics: int = 10, n_partitions: int = 10, n_records: int = 10) -> Workload:
    pr = _classes()["ProduceRequest"]
    topic, partition = _element(pr, "topic_data"), _element(pr, "topic_data", "partition_data")
    message = pr[9](transactional_id=None, acks=-1, timeout_ms=30000, topic_data=[
        topic(name=f"topic-{t}", partition_data=[partition(index=p, records=_batch(0, n_records))
                                                 for p in range(n_partitions)])
        for t in range(n_topics)])
    message.with_header(correlation_id=1, client_id="bench")
    return Workload("produce", f"Produce v9 request, {n_topics} topics x {n_partitions} partitions x a batch of "
                    f"{n_records} records", "kafka.request", message, records_paths=("topic_data", "partition_data"),
                    records=lambda: _batch(0, n_records), n_records=n_topics * n_partitions * n_records)


WORKLOADS = (metadata, fetch, produce)


# ------------------------------------------------------------------------------ the columns

def _records_fields(message, path: tuple):
    """Each `records` field of the message (two levels of lists, `path` names them)."""
    outer, inner = path
    return [p.records for t in getattr(message, outer) for p in getattr(t, inner) if p.records is not None]


def _read_records(data: bytes) -> int:
    """kafka-python's consumer read of a records field: every batch's CRC, every record's fields."""
    from kafka.record.memory_records import MemoryRecords

    records, n = MemoryRecords(bytes(data)), 0
    while records.has_next():
        batch = records.next_batch()
        if not batch.validate_crc():
            raise ValueError("CRC mismatch")
        for r in batch:
            r.offset, r.timestamp, r.key, r.value, r.headers  # noqa: B018 - the reads are what is timed
            n += 1
    return n


def _read_partitions(message, path: tuple) -> int:
    """Every topic's name and every partition's fields of a Metadata response, read as a client
    reads them (both columns: logcodec's lists are views, read here, kafka-python's are built)."""
    outer, inner = path
    n = 0
    for t in getattr(message, outer):
        t.name  # noqa: B018 - the reads are what is timed
        for p in getattr(t, inner):
            p.partition_index, p.leader_id, p.leader_epoch, p.replica_nodes, p.isr_nodes  # noqa: B018
            n += 1
    return n


def kafka_python_decode(w: Workload, cls):
    version = w.message.API_VERSION

    def frame():
        return cls.decode(w.frame, version=version, header=True)

    def full():
        message = cls.decode(w.frame, version=version, header=True)
        for data in _records_fields(message, w.records_paths) if w.records_paths else ():
            _read_records(data)
        if w.partitions_path:
            _read_partitions(message, w.partitions_path)
        return message

    return frame, full


def kafka_python_encode(w: Workload, cls):
    def frame():
        return w.message.encode(header=True)

    def full():  # the batches built from their records, then the frame
        if w.records_paths:
            outer, inner = w.records_paths
            for t in getattr(w.message, outer):
                for p in getattr(t, inner):
                    p.records = w.records()
        return w.message.encode(header=True)

    return frame, full


def _touch(value, w: Workload) -> None:
    """Read what kafka-python's column reads: every record's fields, every partition's."""
    if w.partitions_path:
        _read_partitions(value.body, w.partitions_path)
    if not w.records_paths:
        return
    outer, inner = w.records_paths
    for t in getattr(value.body, outer):
        for p in getattr(t, inner):
            for batch in p.records.entries:
                for r in batch.records:
                    r.offset_delta, r.timestamp_delta, r.key, r.value, r.headers  # noqa: B018 - as above


def logcodec_decode(w: Workload):
    def run():
        value = logcodec.decode(w.fmt, w.frame, **w.params)
        _touch(value, w)
        return value
    return run


def logcodec_encode(w: Workload):
    value = logcodec.strip_derived(logcodec.decode(w.fmt, w.frame, **w.params))

    def run():
        return logcodec.encode(w.fmt, value, **w.params)
    return run


class WrongResult(Exception):
    """A column's answer is not the workload's: the run exits 1, and the column is not timed."""

    def __init__(self, column: str, w: Workload, op: str, what: str) -> None:
        super().__init__(f"bench kafka-protocol: WRONG RESULT: column {column}, workload {w.id}, {op}: {what}")


def check(w: Workload, cls, cases: dict, op: str) -> None:
    """Each column's answer, before it is timed: logcodec reads kafka-python's frame as kafka-python
    does (field by field) and writes it back byte for byte; kafka-python's full read finds every
    record, its full write is the frame."""
    from tests.codecs.kafka_python_frames import disagreements

    version = w.message.API_VERSION
    if op == "decode":
        theirs = cls.decode(w.frame, version=version, header=True)
        wrong = disagreements(theirs, cases["logcodec"][0]().body, version)
        if wrong:
            raise WrongResult("logcodec", w, op, f"differs from kafka-python's value: {wrong[:3]}")
        found = sum(_read_records(d) for d in _records_fields(theirs, w.records_paths)) if w.records_paths else 0
        if found != w.n_records:
            raise WrongResult("kafka-python", w, op, f"reads {found} records, expected {w.n_records}")
        return
    for column in ("logcodec", "kafka-python"):
        if bytes(cases[column][0]()) != w.frame:
            raise WrongResult(column, w, op, "does not write the frame byte for byte")


# ------------------------------------------------------------------------------ main

def load(pure: bool) -> str:
    global logcodec
    if pure:
        os.environ[PURE_ENV] = "1"
    logcodec = importlib.import_module("logcodec")
    frames = [logcodec.codec(fmt) for fmt in ("kafka.request", "kafka.response")]
    if not all(frame.NATIVE for frame in frames):
        return "pure Python"
    bodies = [sys.modules[name] for frame in frames for name in frame.IMPORTS]
    compiled = sum(1 for body in bodies if body.NATIVE)
    if compiled == len(bodies):
        return "compiled (mypyc) frames and API bodies (`logcodec accelerate --imports`)"
    return (f"compiled (mypyc) frames; {compiled} of the {len(bodies)} API body modules compiled, the others "
            "pure Python (`logcodec accelerate --imports` compiles them)")


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench kafka-protocol", description=__doc__.split("\n\n")[0])
    p.add_argument("--quick", action="store_true", help="short rounds (0.02 s, best of 2) for CI smoke runs")
    p.add_argument("--json", metavar="FILE", help="write the raw numbers to FILE")
    p.add_argument("--min-time", type=float, help="seconds per round (default 0.5, --quick 0.02)")
    p.add_argument("--rounds", type=int, help="rounds, best taken (default 5, --quick 2)")
    p.add_argument("--pure", action="store_true", help=f"logcodec's pure-Python build (sets {PURE_ENV}=1)")
    args = p.parse_args(argv)
    build = load(args.pure)
    min_time = args.min_time or (0.02 if args.quick else 0.5)
    rounds = args.rounds or (2 if args.quick else 5)
    load_avg = os.getloadavg()[0]
    print(f"# Kafka protocol benchmark ({'quick: ' if args.quick else ''}best of {rounds} rounds >= {min_time:g} s "
          f"each; CPython {platform.python_version()}, {platform.machine()}, load {load_avg:.2f})\n")
    print(f"logcodec build: {build}\n")
    kind = "pure Python" if build == "pure Python" else "compiled"
    results: dict = {}
    wrong: list[str] = []
    for make in WORKLOADS:
        w = make()
        w.frame = bytes(w.message.encode(header=True))
        cls = type(w.message)
        for op in OPS:
            frame, full = (kafka_python_decode if op == "decode" else kafka_python_encode)(w, cls)
            cases = {"logcodec": ((logcodec_decode if op == "decode" else logcodec_encode)(w), ()),
                     "kafka-python": (full, ())}
            if w.records_paths:
                cases["kafka-python frame"] = (frame, ())
            try:
                check(w, cls, cases, op)
            except WrongResult as exc:
                wrong.append(str(exc))
                print(exc, file=sys.stderr, flush=True)
                continue
            measured = kb.measure(cases, min_time, rounds)
            results.setdefault(w.id, {"title": w.title, "bytes": len(w.frame)})[op] = {
                impl: {"seconds": m["seconds_per_call"], "collector_share": m["collector_share"]}
                for impl, m in measured.items()}
            print(f"  {op:6} {w.id:9} " + "  ".join(f"{impl} {m['seconds_per_call'] * 1e3:.2f} ms"
                                                  for impl, m in measured.items()), file=sys.stderr, flush=True)
    print(render(results, kind))
    if args.json:
        Path(args.json).write_text(json.dumps({"meta": {"build": build, "load": load_avg, "time": time.time(),
                                                        "python": sys.version, "min_time": min_time,
                                                        "rounds": rounds},
                                               "results": results, "wrong_results": wrong}, indent=2) + "\n")
    for line in wrong:  # last, where a CI log ends: the run is not to be trusted
        print(line, file=sys.stderr)
    return 1 if wrong else 0


def render(results: dict, kind: str) -> str:
    target = TARGETS[kind]
    lines = ["| workload | bytes | op | logcodec | kafka-python | ratio | kafka-python frame | ratio |",
             "|---|---:|---|---:|---:|---:|---:|---:|"]

    def cell(m: dict) -> str:
        return f"{m['seconds'] * 1e3:.2f} ms ({m['collector_share']:.0%})"

    for wid, r in results.items():
        for op in (op for op in OPS if op in r):
            t = r[op]
            mine, theirs, frame = t["logcodec"], t["kafka-python"], t.get("kafka-python frame")
            lines.append(f"| {wid} | {r['bytes']:,} | {op} | {cell(mine)} | {cell(theirs)} "
                         f"| **{theirs['seconds'] / mine['seconds']:.2f}x** | "
                         + (f"{cell(frame)} | {frame['seconds'] / mine['seconds']:.2f}x |" if frame else "| |"))
    lines += ["", ("Time per frame (in brackets, the share of it the cyclic collector took). Ratio: kafka-python's "
                   f"time over logcodec's (above 1: logcodec is faster). Target for a {kind} build (issue 39): "
                   f">= {target:g}x on decode and encode.")]
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
