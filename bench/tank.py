"""TANK bundles and segment files: logcodec's decode throughput, beside its Kafka v2 decoder on comparable data.

``python -m bench tank [--quick] [--pure] [--json FILE] [--workloads IDS] [--segment-mb N]`` (see bench/README.md).

For every workload the same logical messages (100-byte contents, a 16-byte key on every other
message, a timestamp that changes every 10 messages) are encoded twice, once, outside the timed
region, with logcodec's own encoders:

* ``TANK``   generated/tank/bundle.py ``encode(Bundle(codec=..., messages=[Message(timestamp=, key=,
             content=)]))``; the segment file is every bundle after its varint length, as the broker
             writes it. Timed: ``bundle.decode(data)`` / ``segment_log.decode(data, base_seq_num=1)``,
             then every message's seq_num, timestamp, key and content are read.
* ``Kafka``  generated/kafka/record_batch_v2.py: one RecordBatch v2 with the same records (no headers),
             the same codec where Kafka has it (snappy); for the segment, one batch per bundle, laid end
             to end as in a Kafka log segment. Timed: ``decode(data, lazy=False)`` / ``decode_stream(data, lazy=False).items``
             (read whole, as TANK's are), then every record's offset (base + delta), timestamp (base + delta), key and value are read.

Both are decoded by the same build of logcodec (compiled with mypyc when ``logcodec accelerate`` made
the builds, pure Python otherwise or with ``--pure``), timed in the same run with bench/kafka.py's
method (calibrated rounds, interleaved, best round). Every input is decoded and compared with the
messages it was built from before anything is timed; the Kafka bytes are also checked with kafka-python.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import json
import math
import os
import platform
import random
import resource
import sys
import time
import tracemalloc
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from bench import kafka as kb  # the timing method, the Kafka value builder, the kafka-python cross-check

# Imported by main() after the arguments are read: the generated modules pick their build at import.
tank_bundle = None
tank_segment = None
kafka_lc = None

TANK_MODULES = ("logcodec.generated.tank.bundle", "logcodec.generated.tank.segment_log")
KAFKA_MODULE = "logcodec.generated.kafka.record_batch_v2"
BASE_TIMESTAMP = 1_700_000_000_000
TS_EVERY = 10        # the timestamp changes every 10 messages
TS_STEP_MS = 7       # ... by this many milliseconds
CONTENT_SIZE = 100
SEGMENT_BUNDLE = 100  # messages per bundle (and per Kafka batch) in the segment file
SAMPLE_EVERY = 997    # the segment's correctness check compares every 997th message, the first and the last
KAFKA_SNAPPY = 2      # Kafka's codec id for snappy (TANK's is 1)
_ACTIONS = ("view", "click", "add_to_cart", "checkout", "search", "logout")


# ------------------------------------------------------------------------------ messages

def make_messages(start: int, n: int, rng: random.Random) -> list[tuple[int, bytes | None, bytes]]:
    """(timestamp, key, content) of messages start .. start+n-1 (global indexes): JSON-like 100-byte
    contents, a 16-byte key on every even message, the timestamp advancing every 10 messages."""
    out = []
    for i in range(start, start + n):
        key = f"key-{i:012d}".encode() if i % 2 == 0 else None
        content = (f'{{"seq":{i},"user":"u{rng.randrange(10_000):04d}","action":"{rng.choice(_ACTIONS)}",'
                   f'"token":"{rng.getrandbits(64):016x}","ok":true}}').ljust(CONTENT_SIZE)[:CONTENT_SIZE].encode()
        out.append((BASE_TIMESTAMP + (i // TS_EVERY) * TS_STEP_MS, key, content))
    return out


def tank_bundle_bytes(msgs, snappy: bool) -> bytes:
    b = tank_bundle
    codec = b.Codec.snappy if snappy else b.Codec.none
    return b.encode(b.Bundle(codec=codec, messages=[b.Message(timestamp=ts, key=k, content=c) for ts, k, c in msgs]))


def kafka_batch_bytes(msgs, snappy: bool, base_offset: int) -> bytes:
    recs = [(j, ts, k, c, []) for j, (ts, k, c) in enumerate(msgs)]
    return kafka_lc.encode(kb._logcodec_value(recs, kafka_lc.Compression(KAFKA_SNAPPY if snappy else 0),
                                              base_offset=base_offset))


# ------------------------------------------------------------------------------ the timed functions

def decode_tank_bundle(data):
    for m in tank_bundle.decode(data).messages:
        m.seq_num
        m.timestamp
        m.key
        m.content


def decode_tank_segment(data):
    for e in tank_segment.decode(data, base_seq_num=1).entries:
        for m in e.bundle.messages:
            m.seq_num
            m.timestamp
            m.key
            m.content


# ------------------------------------------------------------------------------ workloads

@dataclass
class Workload:
    id: str
    title: str
    n_messages: int
    snappy: bool
    segment: bool = False
    tank: bytes = b""
    kafka: bytes = b""
    # (index, seq_num/offset, timestamp, key, content) of the messages the check compares
    expected: list = field(default_factory=list)
    memory: dict = field(default_factory=dict)

    @property
    def fns(self):
        # The Kafka side is read whole (`lazy=False`), as a TANK bundle is (its messages read the
        # one before them: no lazy read): the same work on both sides, the formats compared, not the reads.
        return ((decode_tank_segment, partial(kb.decode_logcodec_stream, lazy=False)) if self.segment
                else (decode_tank_bundle, partial(kb.decode_logcodec, lazy=False)))


def make_workloads(segment_mb: float) -> list[Workload]:
    ws = []
    for n, label in ((1, "1"), (100, "100"), (10_000, "10k")):
        for snappy in (False, True):
            ws.append(Workload(f"bundle_{label}{'_snappy' if snappy else ''}",
                               f"1 bundle / 1 batch of {n:,} message{'s' * (n > 1)}, "
                               f"{'Snappy (TANK raw, Kafka xerial-framed)' if snappy else 'uncompressed'}",
                               n, snappy))
    ws.append(Workload("segment", f"segment file of >= {segment_mb:g} MB: bundles of {SEGMENT_BUNDLE} messages, "
                                  f"uncompressed; Kafka: as many batches of {SEGMENT_BUNDLE} records, one buffer",
                       0, False, segment=True))
    return ws


def prepare_bundle(w: Workload, rng: random.Random) -> None:
    msgs = make_messages(0, w.n_messages, rng)
    w.tank = tank_bundle_bytes(msgs, w.snappy)
    w.kafka = kafka_batch_bytes(msgs, w.snappy, base_offset=0)
    w.expected = [(i, i, ts, k, c) for i, (ts, k, c) in enumerate(msgs)]


def prepare_segment(w: Workload, rng: random.Random, segment_bytes: int) -> None:
    """Encode bundle after bundle (never more than one bundle's value objects alive) until the
    segment holds segment_bytes; the Kafka batches carry the same messages."""
    from logcodec.runtime.primitives import uvarint_bytes

    tank_parts, kafka_parts, size, i = [], [], 0, 0
    while size < segment_bytes:
        msgs = make_messages(i, SEGMENT_BUNDLE, rng)
        b = tank_bundle_bytes(msgs, False)
        tank_parts.append(uvarint_bytes(len(b)))
        tank_parts.append(b)
        size += len(tank_parts[-2]) + len(b)
        kafka_parts.append(kafka_batch_bytes(msgs, False, base_offset=1 + i))
        w.expected += [(i + j, 1 + i + j, ts, k, c) for j, (ts, k, c) in enumerate(msgs)
                       if (i + j) % SAMPLE_EVERY == 0]
        i += SEGMENT_BUNDLE
    last = msgs[-1]
    w.expected.append((i - 1, i, *last))
    w.n_messages = i
    w.tank = b"".join(tank_parts)
    del tank_parts
    w.kafka = b"".join(kafka_parts)
    del kafka_parts


# ------------------------------------------------------------------------------ correctness (untimed)

def _compare(what: str, got_count: int, got: dict, w: Workload) -> None:
    if got_count != w.n_messages:
        raise SystemExit(f"{w.id}: {what} decodes {got_count} messages, expected {w.n_messages}")
    for idx, seq, ts, key, content in w.expected:
        if got.get(idx) != (seq, ts, key, content):
            raise SystemExit(f"{w.id}: {what} message {idx} is {got.get(idx)!r}, expected {(seq, ts, key, content)!r}")


def _rss_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 1e6


def _maxrss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 / 1e6  # KiB on Linux


def _reset_peak_rss() -> bool:
    """Restart the process's peak-RSS count (Linux: VmHWM and ru_maxrss); False where that is impossible."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        return True
    except OSError:
        return False


def decoded_memory(w: Workload) -> None:
    """The memory one decoded segment holds, TANK and Kafka, from tracemalloc. Run after the timing
    and after the peak RSS was read: tracemalloc's own tables (a trace per allocation) add RSS."""
    for name, decode in (("tank", lambda: tank_segment.decode(w.tank, base_seq_num=1)),
                         ("kafka", lambda: kafka_lc.decode_stream(w.kafka, lazy=False))):
        gc.collect()
        tracemalloc.start()
        value = decode()
        current, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        del value
        w.memory[f"{name}_decoded_mb"], w.memory[f"{name}_decode_peak_mb"] = current / 1e6, peak / 1e6
    gc.collect()


def check(w: Workload) -> None:
    """Decode both inputs once and compare them with the messages they were built from."""
    wanted = {e[0] for e in w.expected}
    if w.segment:
        value = tank_segment.decode(w.tank, base_seq_num=1)
        msgs = [m for e in value.entries for m in e.bundle.messages]
        if {e.bundle.codec for e in value.entries} != {tank_bundle.Codec.none}:
            raise SystemExit(f"{w.id}: TANK bundles are not all uncompressed")
        w.memory["bundles"] = len(value.entries)
    else:
        value = tank_bundle.decode(w.tank)
        msgs = value.messages
        want_codec = tank_bundle.Codec.snappy if w.snappy else tank_bundle.Codec.none
        if value.codec != want_codec:
            raise SystemExit(f"{w.id}: TANK bundle codec {value.codec!r}, expected {want_codec!r}")
    got = {i: (m.seq_num, m.timestamp, m.key, m.content) for i, m in enumerate(msgs) if i in wanted}
    _compare("TANK (logcodec)", len(msgs), got, w)
    first = 1 if w.segment else 0
    if any(m.seq_num != first + i for i, m in enumerate(msgs)):
        raise SystemExit(f"{w.id}: TANK sequence numbers are not {first}, {first + 1}, ...")
    del value, msgs, got

    if w.segment:
        gc.collect()
        stream = kafka_lc.decode_stream(w.kafka)
        if stream.partial is not None:
            raise SystemExit(f"{w.id}: Kafka stream is cut off: {stream.partial}")
        batches = stream.items
    else:
        batches = [kafka_lc.decode(w.kafka)]
    want_comp = KAFKA_SNAPPY if w.snappy else 0
    if {int(b.attributes.compression) for b in batches} != {want_comp}:
        raise SystemExit(f"{w.id}: Kafka batches do not all use codec id {want_comp}")
    count, got = 0, {}
    for b in batches:
        for r in b.records:
            if b.base_offset + r.offset_delta != first + count or r.headers:
                raise SystemExit(f"{w.id}: Kafka record {count} has offset {b.base_offset + r.offset_delta} "
                                 f"(expected {first + count}) or headers")
            if count in wanted:
                got[count] = (b.base_offset + r.offset_delta, b.base_timestamp + r.timestamp_delta, r.key, r.value)
            count += 1
    _compare("Kafka (logcodec)", count, got, w)
    del batches, got
    if w.segment:
        del stream
    _check_kafka_python(w)
    gc.collect()


def _check_kafka_python(w: Workload) -> None:
    """kafka-python reads the same Kafka bytes (the whole batch of a bundle workload; the segment's first
    and last batch), so the Kafka side is Kafka data as a client library reads it, not only logcodec
    agreeing with itself."""
    if w.snappy and not kb.kafka.codec.has_snappy():
        print(f"note: {w.id}: kafka-python has no snappy codec here; its cross-check is skipped", file=sys.stderr)
        return
    if w.segment:
        starts, pos = [], 0
        while pos < len(w.kafka):  # a batch: int64 base offset, int32 length of the rest, the rest
            starts.append(pos)
            pos += 12 + int.from_bytes(w.kafka[pos + 8:pos + 12], "big")
        if pos != len(w.kafka) or len(starts) != w.memory["bundles"]:
            raise SystemExit(f"{w.id}: the Kafka buffer does not hold one batch per bundle")
        parts = [(w.kafka[:starts[1] if len(starts) > 1 else len(w.kafka)], 1),
                 (w.kafka[starts[-1]:], 1 + SEGMENT_BUNDLE * (len(starts) - 1))]
    else:
        parts = [(w.kafka, 0)]
    wanted = {e[0]: e[1:] for e in w.expected}
    for part, first_offset in parts:
        rows = kb._lib_rows(kb._memory_records(kb.KPMemoryRecords, part), kb.KPBatch)
        n = w.n_messages if not w.segment else min(SEGMENT_BUNDLE, w.n_messages)
        if len(rows) != n or [r[0] for r in rows] != list(range(first_offset, first_offset + n)):
            raise SystemExit(f"{w.id}: kafka-python reads {len(rows)} records (offsets {rows[0][0]}..), "
                             f"expected {n} from offset {first_offset}")
        for offset, ts, key, value, headers in rows:
            idx = offset - (1 if w.segment else 0)
            if headers or (idx in wanted and wanted[idx] != (offset, ts, key, value)):
                raise SystemExit(f"{w.id}: kafka-python reads record {idx} as {(offset, ts, key, value, headers)!r}, "
                                 f"expected {wanted.get(idx)!r}")


# ------------------------------------------------------------------------------ report

def _geomean(xs):
    xs = [x for x in xs if x and x > 0]
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else None


def render(workloads: list[Workload], results: dict) -> str:
    lines = ["Throughput: messages/s · MB/s (MB = 10^6 bytes of that format's own input, the `bytes` "
             "column: TANK · Kafka). Ratio = TANK messages/s / Kafka messages/s, from the same run; "
             "> 1 means TANK decodes a message in less time.", "",
             "| workload | messages | bytes (TANK · Kafka) | TANK msgs/s · MB/s | Kafka msgs/s · MB/s | ratio TANK/Kafka |",
             "|---|---:|---:|---:|---:|---:|"]
    for w in workloads:
        r = results[w.id]
        cells = [f"{kb._fmt_rate(r[impl]['messages_per_s'])} · {r[impl]['mb_per_s']:.1f}" for impl in ("tank", "kafka")]
        label = f"segment ({len(w.tank) / 1e6:.0f} MB)" if w.segment else w.id
        lines.append(f"| {label} | {w.n_messages:,} | {len(w.tank):,} · {len(w.kafka):,} | {cells[0]} | {cells[1]} "
                     f"| {r['ratio']:.2f}x |")
    g = _geomean([results[w.id]["ratio"] for w in workloads])
    if g and len(workloads) > 1:
        lines.append(f"| **geomean** | | | | | {g:.2f}x |")
    lines += ["", "Workloads:", ""] + [f"- `{w.id}`: {w.title}" for w in workloads]
    seg = next((w for w in workloads if w.segment), None)
    if seg is not None:
        m = seg.memory
        reset = ("reset before building the inputs, then again before timing" if m["peak_reset"]
                 else "of the whole process so far: this system cannot reset it")
        lines += ["", f"Segment memory: inputs {len(seg.tank) / 1e6:.1f} MB TANK ({m['bundles']:,} bundles) and "
                      f"{len(seg.kafka) / 1e6:.1f} MB Kafka, held for the whole row; at most one decoded value "
                      f"is alive at a time. Peak RSS (ru_maxrss, {reset}): {m['maxrss_prepare_mb']:.0f} MB "
                      f"building and checking, **{m['maxrss_timing_mb']:.0f} MB timing** (RSS before the row "
                      f"{m['rss_before_mb']:.0f} MB, with both inputs built {m['rss_built_mb']:.0f} MB). "
                      f"One decoded value holds (tracemalloc, measured after the timing): TANK `SegmentLog` "
                      f"{m['tank_decoded_mb']:.0f} MB, Kafka `decode_stream` {m['kafka_decoded_mb']:.0f} MB."]
    lines.append("")
    return "\n".join(lines)


# ------------------------------------------------------------------------------ main

def load_logcodec(pure: bool) -> tuple[str, dict]:
    """Import the generated codecs (choosing their build) and say which build runs."""
    global tank_bundle, tank_segment, kafka_lc
    if pure:
        os.environ[kb.PURE_ENV] = "1"
    for name in TANK_MODULES:
        if pure and name in sys.modules and sys.modules[name].NATIVE:
            raise SystemExit(f"--pure: {name} was imported (compiled) before the option was read; "
                             f"run with {kb.PURE_ENV}=1 in the environment instead")
    kb.load_logcodec(pure)  # the Kafka module, also for bench.kafka's value builder
    kafka_lc = kb.lc
    tank_bundle, tank_segment = (importlib.import_module(n) for n in TANK_MODULES)
    natives = {m.__name__.removeprefix("logcodec.generated."): m.NATIVE for m in (tank_bundle, tank_segment, kafka_lc)}
    if all(natives.values()):
        return "compiled (mypyc) " + "; ".join(f"{k}: {v}" for k, v in natives.items()), natives
    why = (f"{kb.PURE_ENV} is set" if os.environ.get(kb.PURE_ENV)
           else "no compiled build of this source; `logcodec accelerate` makes one")
    if not any(natives.values()):
        return f"pure Python ({why})", natives
    return ("MIXED, the comparison is not like for like: " + "; ".join(
        f"{k}: {'compiled ' + v if v else 'pure Python'}" for k, v in natives.items()) + f" ({why})"), natives


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench tank", description=__doc__.split("\n\n")[0])
    p.add_argument("--quick", action="store_true",
                   help="short rounds (0.02 s, best of 2) and a 10 MB segment, for CI smoke runs")
    p.add_argument("--json", metavar="FILE", help="write the raw numbers to FILE")
    p.add_argument("--workloads", metavar="IDS", help="comma-separated workload ids (default: all)")
    p.add_argument("--segment-mb", type=float, help="size of the segment file in MB = 10^6 bytes (default 100, --quick 10)")
    p.add_argument("--min-time", type=float, help="seconds per round (default 0.3, --quick 0.02)")
    p.add_argument("--rounds", type=int, help="rounds, best taken (default 5, --quick 2)")
    p.add_argument("--pure", action="store_true",
                   help=f"measure logcodec's pure-Python build even when compiled (mypyc) ones exist "
                        f"(sets {kb.PURE_ENV}=1 before logcodec is imported)")
    args = p.parse_args(argv)
    build, natives = load_logcodec(pure=args.pure)
    min_time = args.min_time or (0.02 if args.quick else 0.3)
    rounds = args.rounds or (2 if args.quick else 5)
    segment_mb = args.segment_mb or (10 if args.quick else 100)

    workloads = make_workloads(segment_mb)
    if args.workloads:
        wanted = args.workloads.split(",")
        unknown = set(wanted) - {w.id for w in workloads}
        if unknown:
            p.error(f"unknown workload(s) {sorted(unknown)}; known: {[w.id for w in workloads]}")
        workloads = [w for w in workloads if w.id in wanted]

    print(f"# TANK decode benchmark, beside Kafka v2 ({'quick: ' if args.quick else ''}best of {rounds} rounds "
          f">= {min_time:g} s each; CPython {platform.python_version()}, {platform.machine()})\n", flush=True)
    print(f"logcodec build: {build}\n", flush=True)

    results = {}
    for k, w in enumerate(workloads):
        rng = random.Random(100 + k)
        if w.segment:
            gc.collect()
            w.memory["peak_reset"] = _reset_peak_rss()
            w.memory["rss_before_mb"] = _rss_mb()
            t0 = time.perf_counter()
            prepare_segment(w, rng, int(segment_mb * 1e6))
            w.memory["rss_built_mb"] = _rss_mb()
            print(f"  built {w.id}: {len(w.tank) / 1e6:.1f} MB TANK, {len(w.kafka) / 1e6:.1f} MB Kafka, "
                  f"{w.n_messages:,} messages ({time.perf_counter() - t0:.1f} s)", file=sys.stderr, flush=True)
        else:
            prepare_bundle(w, rng)
        check(w)
        if w.segment:
            w.memory["maxrss_prepare_mb"] = _maxrss_mb()  # building and checking
            gc.collect()
            w.memory["peak_reset"] &= _reset_peak_rss()
        tank_fn, kafka_fn = w.fns
        measured = kb.measure({"tank": (tank_fn, (w.tank,)), "kafka": (kafka_fn, (w.kafka,))}, min_time, rounds)
        for impl, data in (("tank", w.tank), ("kafka", w.kafka)):
            m = measured[impl]
            m.update(messages_per_s=w.n_messages / m["seconds_per_call"], mb_per_s=len(data) / m["seconds_per_call"] / 1e6)
            print(f"  decode {w.id:18} {impl:6} {kb._fmt_rate(m['messages_per_s']):>7} msg/s {m['mb_per_s']:8.1f} MB/s",
                  file=sys.stderr, flush=True)
        measured["ratio"] = measured["tank"]["messages_per_s"] / measured["kafka"]["messages_per_s"]
        results[w.id] = measured
        if w.segment:
            w.memory["maxrss_timing_mb"] = _maxrss_mb()  # the timed decodes, with both inputs held
            decoded_memory(w)
    print(render(workloads, results), flush=True)

    if args.json:
        doc = {
            "meta": {"python": sys.version, "implementation": platform.python_implementation(),
                     "machine": platform.machine(), "platform": platform.platform(),
                     "logcodec_build": build, "logcodec_native": natives,
                     "min_time": min_time, "rounds": rounds, "quick": args.quick, "segment_mb": segment_mb,
                     "time": time.time()},
            "workloads": {w.id: {"title": w.title, "messages": w.n_messages, "tank_bytes": len(w.tank),
                                 "kafka_bytes": len(w.kafka), "snappy": w.snappy,
                                 **({"memory_mb": w.memory} if w.memory else {})} for w in workloads},
            "results": results,
            "geomean_ratio": _geomean([results[w.id]["ratio"] for w in workloads]),
        }
        Path(args.json).write_text(json.dumps(doc, indent=2) + "\n")
        print(f"raw numbers written to {args.json}", file=sys.stderr)
    return 0
