"""The Spark data source against one Python process, on a generated corpus of Kafka segments.

``python -m bench pipeline [--gb 1.0] [--dir DIR] [--master local[2]] [--json FILE]``

The corpus: Kafka log segments (``<topic>-<partition>/<base offset>.log``, 256 MiB each as
Kafka's default ``log.segment.bytes`` would cut them at 1 GiB, smaller here so that the corpus
has several files) of v2 batches of 100 records each (100-byte JSON-like values, a 16-byte
key on every other record), one codec in four batches (none, gzip, snappy, lz4 in turn),
written once by logcodec's encoder and kept in ``--dir`` between runs.

Both sides decode every record into the same Arrow columns:

* single process: ``logcodec.pipeline.kafka.read`` over every planned range, one after the
  other, in this process (the data source's own reader, without Spark);
* Spark: ``spark.read.format("logcodec.kafka").load(DIR)`` on ``--master``, aggregated so that
  every row reaches the JVM (``count`` and ``sum(length(value))``).

And, as a reference from the same run, aiokafka's C extension reading every record of the same
segments in this process (each batch's CRC checked, each record's fields read, no columns made).

Before the timed Spark query, a first query on a 1 MB sample of the corpus starts the Python
workers and compiles the plan; its time is reported apart, with the session's start-up.

Then the selective queries (filter pushdown, `pushFilters`), each timed on the same session
against the full scan: the first 1,000 offsets of one partition, one partition, an offset range
in the middle of the corpus. For each: rows, seconds, speed-up over the full scan, and what the
data source plans to read for it (segments and bytes of the planned ranges: each task reads its
ranges with one `read` call, so this is the bytes read; the corpus has no `.index` files, so a
range starts at a segment's or a piece's start, and the reader stops at the first batch past the
range). A query that returns other rows than the corpus holds for it makes the run exit 1.

Reported: records/s and MB/s of each, their ratio, Spark's start-up time (session creation and
data source registration), the first query's time, and peak RSS: this process (the single-process reader and the Spark
driver), the JVM and the largest Python worker under it (VmHWM from /proc); CPU seconds per million
records of the single-process read (this process) and of Spark's full scan (the JVM, the Python
processes under it, and this process as the driver; from /proc and getrusage), and the load
average when the run started.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import resource
import sys
import time
from pathlib import Path

from logcodec.pipeline.tables import ROWS_PER_BATCH

SEGMENT_BYTES = 256 * 1024 * 1024
BASE_TIMESTAMP = 1_700_000_000_000  # record n's timestamp is BASE_TIMESTAMP + n
RECORDS_PER_BATCH = 100
CODECS = ("none", "gzip", "snappy", "lz4")


def build_corpus(directory: Path, total_bytes: int) -> tuple[int, int]:
    """Write segments until `total_bytes`; returns (records, bytes). Reuses a corpus already there."""
    marker = directory / "corpus.json"
    if marker.exists():
        info = json.loads(marker.read_text())
        if info["bytes"] >= total_bytes:
            return info["records"], info["bytes"]
    from logcodec.generated.kafka import record_batch_v2 as rb

    directory.mkdir(parents=True, exist_ok=True)
    rng = random.Random(20261122)
    records = written = 0
    segment, offset, partition = None, 0, 0
    while written < total_bytes:
        if segment is None or segment.tell() >= SEGMENT_BYTES:
            if segment is not None:
                segment.close()
            folder = directory / f"bench-{partition % 4}"
            folder.mkdir(exist_ok=True)
            segment = open(folder / f"{offset:020d}.log", "wb")
            partition += 1
        codec = rb.Compression[CODECS[(offset // RECORDS_PER_BATCH) % len(CODECS)]]
        batch = rb.RecordBatchV2(
            base_offset=offset, partition_leader_epoch=0, attributes=rb.Attributes(compression=codec),
            base_timestamp=BASE_TIMESTAMP + offset, max_timestamp=BASE_TIMESTAMP + offset + RECORDS_PER_BATCH - 1,
            producer_id=-1, producer_epoch=-1, base_sequence=-1,
            records=[rb.Record(timestamp_delta=i, offset_delta=i,
                               key=f"key-{offset + i:012d}".encode() if i % 2 == 0 else None,
                               value=json.dumps({"n": offset + i, "fill": rng.randbytes(30).hex()}).encode()[:100],
                               headers=[])
                     for i in range(RECORDS_PER_BATCH)])
        data = rb.encode(batch)
        segment.write(data)
        written += len(data)
        records += RECORDS_PER_BATCH
        offset += RECORDS_PER_BATCH
    segment.close()
    marker.write_text(json.dumps({"records": records, "bytes": written}))
    return records, written


def single_process(directory: Path) -> tuple[int, float, float, float]:
    """(rows, seconds, CPU seconds of this process, MB its peak RSS grew by) of reading every
    record in this process (the growth: the peak during the read over the RSS before it)."""
    from logcodec.pipeline import kafka
    from logcodec.pipeline.plan import ReadOptions

    options = ReadOptions(path=str(directory))
    rss_before = _rss_mb()
    cpu = _self_cpu()
    start = time.perf_counter()
    rows = 0
    for ranges in kafka.plan(options):
        for batch in kafka.read(ranges, options):
            rows += batch.num_rows
    return rows, time.perf_counter() - start, _self_cpu() - cpu, max(0.0, _maxrss_mb() - rss_before)


def aiokafka_c(directory: Path) -> tuple[int, float]:
    """(records, seconds) of aiokafka's C extension (its `MemoryRecords`, a Cython class) reading
    every record of the corpus's segments in this process, each batch's CRC checked and each
    record's offset, timestamp, key, value and headers read: the decoding a reader needs, without
    making columns: a reference from the same run for the single-process read. It reads the
    ranges the data source plans (planned before the clock starts), as the reader does, so that
    this process's peak memory is not a whole segment's more than the reader's."""
    from aiokafka.record._crecords.memory_records import MemoryRecords

    from logcodec.pipeline import kafka
    from logcodec.pipeline.plan import ReadOptions

    ranges = [r for partition in kafka.plan(ReadOptions(path=str(directory))) for r in partition]
    rows = 0
    start = time.perf_counter()
    for r in ranges:
        with open(r.path, "rb") as f:
            f.seek(r.start)
            records = MemoryRecords(f.read(r.end - r.start))
        while (batch := records.next_batch()) is not None:
            if not batch.validate_crc():
                raise SystemExit(f"{r.path}: aiokafka finds a bad CRC in the corpus")
            for record in batch:
                record.offset, record.timestamp, record.key, record.value, record.headers
                rows += 1
    return rows, time.perf_counter() - start


def decode_memory(directory: Path, sample: int = 64 << 20) -> dict[str, float]:
    """Peak bytes per record of `record_batch_v2.decode_stream` reading every record of the first
    `sample` bytes of the corpus's first segment (whole batches: a stream stops at the first cut
    one), read as it reads without options (each batch's records as the loop reaches them) and
    whole (`lazy=False`), from tracemalloc (every Python object; the sample's own bytes are read
    before it starts and not counted). The records' offset, timestamp, key, value and headers
    are read, as `bench kafka`'s decoders read them. A lazy stream holds each compressed batch's
    decompressed bytes from the read on (its view reads its records from them)."""
    import tracemalloc

    from logcodec.generated.kafka import record_batch_v2 as rb

    first = min(directory.glob("bench-*/*.log"))
    with open(first, "rb") as f:
        data = f.read(sample)
    out = {}
    for name, lazy in (("lazy", True), ("whole", False)):
        gc.collect()
        tracemalloc.start()
        try:
            stream = rb.decode_stream(data, lazy=lazy)
            records = 0
            for batch in stream.items:
                base_offset, base_timestamp = batch.base_offset, batch.base_timestamp
                for r in batch.records:
                    base_offset + r.offset_delta, base_timestamp + r.timestamp_delta, r.key, r.value, r.headers
                    records += 1
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        del stream
        out[name] = peak / max(records, 1)
    out["records"] = records
    return out


def _rss_mb() -> float:
    """This process's resident memory now (VmRSS), or its peak so far where /proc is not."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return _maxrss_mb()


def _self_cpu() -> float:
    """User and system CPU seconds of this process (all its threads) so far."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _tree_cpu(pid: int) -> dict[str, float]:
    """CPU seconds so far, from /proc, of the process `pid` (the JVM: `jvm`) and of everything it
    started (`workers`: the Python workers; each live process's own time plus what its children
    that ended and were waited for spent). Empty where /proc is not."""
    if not Path("/proc").exists():
        return {}
    tick = os.sysconf("SC_CLK_TCK")
    stats: dict[int, list[str]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            stats[int(stat.parent.name)] = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, ValueError):
            continue
    children: dict[int, list[int]] = {}
    for p, fields in stats.items():
        children.setdefault(int(fields[1]), []).append(p)
    # Fields after the name: state, ppid, ... utime (14th field of the line, index 11 here), stime, cutime, cstime.
    own = lambda p: (int(stats[p][11]) + int(stats[p][12])) / tick            # noqa: E731
    ended = lambda p: (int(stats[p][13]) + int(stats[p][14])) / tick          # noqa: E731
    workers, todo = ended(pid), list(children.get(pid, []))
    while todo:
        p = todo.pop()
        workers += own(p) + ended(p)
        todo += children.get(p, [])
    return {"jvm": own(pid), "workers": workers}


def selective_queries(directory: Path, records: int) -> dict[str, tuple[str, list, int]]:
    """{name: (SQL condition, the filters Spark pushes for it, the rows it must return)} of the
    selective queries. Offsets are global across the corpus's partitions (the generator numbers
    batches in one sequence); partition 0's first segment starts at offset 0."""
    from pyspark.sql.datasource import EqualTo, GreaterThanOrEqual, LessThan, LessThanOrEqual

    spans = corpus_spans(directory, records)
    middle = records // 2 // 1000 * 1000
    return {
        "first 1,000 offsets of partition 0": ("partition = 0 AND offset < 1000",
                                               [EqualTo(("partition",), 0), LessThan(("offset",), 1000)],
                                               rows_in(spans, partition=0, high=1000)),
        "partition 1 only (none below 0.5 GB)": ("partition = 1", [EqualTo(("partition",), 1)],
                                                 rows_in(spans, partition=1)),
        "the last 1,000 timestamps (no .timeindex: every batch decoded, few turned into rows)": (
            f"timestamp >= {BASE_TIMESTAMP + records - 1000}",
            [GreaterThanOrEqual(("timestamp",), BASE_TIMESTAMP + records - 1000)],
            rows_in(spans, low=records - 1000)),  # record n's timestamp is BASE_TIMESTAMP + n
        f"offsets {middle:,} to {middle + 999:,}": (
            f"offset BETWEEN {middle} AND {middle + 999}",
            [GreaterThanOrEqual(("offset",), middle), LessThanOrEqual(("offset",), middle + 999)],
            rows_in(spans, low=middle, high=middle + 1000)),
    }


def corpus_spans(directory: Path, records: int) -> list[tuple[int, int, int]]:
    """(partition, first offset, end offset) of each segment of the corpus, from its layout:
    build_corpus numbers the records 0, 1, ... in the order it writes the segments, names each
    segment by its first offset and puts it in the folder of its partition, `bench-<n>`."""
    segments = sorted((int(path.stem), int(path.parent.name.rsplit("-", 1)[1])) for path in directory.glob("*/*.log"))
    ends = [first for first, _ in segments[1:]] + [records]
    return [(partition, first, end) for (first, partition), end in zip(segments, ends)]


def rows_in(spans, partition: int | None = None, low: int = 0, high: int | None = None) -> int:
    """The records of `partition` (of any when None) whose offsets are in [low, high)."""
    return sum(max(0, min(end, high if high is not None else end) - max(first, low))
               for p, first, end in spans if partition is None or p == partition)


def wrong_results(selective: list[dict]) -> list[str]:
    """One line for each selective query that returned other rows than the corpus holds for it
    (its speed-up would be a figure about another query)."""
    return [f"bench pipeline: WRONG RESULT: query {q['query']!r} (`{q['where']}`): {q['rows']:,} rows, "
            f"expected {q['expected']:,}" for q in selective if q["rows"] != q["expected"]]


def planned_reads(directory: Path, filters: list) -> tuple[int, int]:
    """(segments, bytes) the data source plans to read under the pushed filters."""
    from logcodec.pipeline.sources import KafkaSource

    reader = KafkaSource(options={"path": str(directory)}).reader(None)
    list(reader.pushFilters(filters))
    ranges = [r for p in reader.partitions() for r in p.value]
    return len({r.path for r in ranges}), sum(r.size for r in ranges)


def spark_run(directory: Path, master: str, records: int = 0) -> tuple[int, float, float, float, dict, list, dict]:
    """(rows, seconds, start-up seconds, first-query seconds, peak RSS in MB of the JVM and of
    its Python workers, the selective queries' results, CPU seconds of the full scan: the JVM, its
    Python workers and this process, the driver)."""
    from logcodec.pipeline import local_session

    start = time.perf_counter()
    spark = local_session(master=master)
    startup = time.perf_counter() - start
    try:
        # The first query of a session also starts the Python workers and compiles its plan
        # (4-6 s, reference/pyspark.md): run it once on a 1 MB sample, timed apart.
        start = time.perf_counter()
        _count(spark, _sample(directory))
        warmup = time.perf_counter() - start
        jvm = getattr(spark.sparkContext._gateway, "proc", None)
        before, driver = (_tree_cpu(jvm.pid) if jvm else {}), _self_cpu()
        start = time.perf_counter()
        rows = _count(spark, directory)
        seconds = time.perf_counter() - start
        after, driver = (_tree_cpu(jvm.pid) if jvm else {}), _self_cpu() - driver
        cpu = {k: after[k] - before[k] for k in after} | {"driver": driver}
        selective = []
        # A filtered query is a new kind of plan (with pushFilters): warm it up on the sample too.
        _count(spark, _sample(directory), "partition = 0 AND offset < 1000")
        for name, (condition, filters, expected) in selective_queries(directory, records).items():
            start = time.perf_counter()
            n = _count(spark, directory, condition)
            took = time.perf_counter() - start
            segments, planned = planned_reads(directory, filters)
            selective.append({"query": name, "where": condition, "rows": n, "expected": expected, "seconds": took,
                              "speedup": seconds / took, "segments": segments, "bytes": planned})
        return rows, seconds, startup, warmup, _jvm_peaks(spark), selective, cpu
    finally:
        spark.stop()


def _sample(directory: Path, size: int = 1 << 20) -> Path:
    """The first whole entries (about `size` bytes) of one segment, in a file of their own."""
    segment = next(iter(sorted(directory.rglob("*.log"))))
    data = segment.read_bytes()[: size + (1 << 16)]
    end = 0
    while end + 12 <= len(data) and end < size:
        end += 12 + int.from_bytes(data[end + 8:end + 12], "big")
    sample = directory.parent / (directory.name + "-sample") / "bench-0" / segment.name
    sample.parent.mkdir(parents=True, exist_ok=True)
    sample.write_bytes(data[:end])
    return sample.parent.parent


def _count(spark, path: Path, where: str | None = None) -> int:
    """Every row (or those `where` keeps) through the JVM: count them and add up the lengths of their values."""
    df = spark.read.format("logcodec.kafka").load(str(path))
    if where is not None:
        df = df.where(where)
    row = df.selectExpr(
        "count(*) AS n", "sum(length(value)) AS bytes").collect()[0]
    return int(row["n"])


def _jvm_peaks(spark) -> dict:
    """Peak RSS (VmHWM) of the JVM that PySpark started and of the largest process under it
    (the Python workers), read from /proc while they are alive; empty where /proc is not."""
    proc = getattr(spark.sparkContext._gateway, "proc", None)
    if proc is None or not Path("/proc").exists():
        return {}
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    below, todo = [], list(children.get(proc.pid, []))
    while todo:
        pid = todo.pop()
        below.append(pid)
        todo += children.get(pid, [])
    peaks = [_hwm_mb(pid) for pid in below]
    return {"jvm": _hwm_mb(proc.pid), "largest_worker": max(peaks, default=0.0), "workers": len(below)}


def _hwm_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def _maxrss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench pipeline", description=__doc__.split("\n\n")[0])
    parser.add_argument("--gb", type=float, default=1.0, help="corpus size in GiB (default 1)")
    parser.add_argument("--dir", default=os.environ.get("LOGCODEC_BENCH_DIR", "/tmp/logcodec-bench-pipeline"),
                        help="where the corpus is written and kept")
    parser.add_argument("--master", default="local[2]", help="Spark master (default local[2])")
    parser.add_argument("--json", help="write the raw numbers to this file")
    args = parser.parse_args(argv)
    directory = Path(args.dir)
    records, size = build_corpus(directory, int(args.gb * 1024 ** 3))
    print(f"corpus: {directory}, {size / 1e6:,.0f} MB, {records:,} records", file=sys.stderr)
    load = os.getloadavg()
    single_rows, single_secs, single_cpu, single_growth = single_process(directory)
    aiokafka_rows, aiokafka_secs = aiokafka_c(directory)
    spark_rows, spark_secs, startup, warmup, peaks, selective, spark_cpu = spark_run(directory, args.master, records)
    decoded = decode_memory(directory)
    if not single_rows == spark_rows == aiokafka_rows == records:
        raise SystemExit(f"row counts differ: corpus {records}, single process {single_rows}, Spark {spark_rows}, "
                         f"aiokafka {aiokafka_rows}")
    result = {
        "records": records, "bytes": size, "master": args.master,
        "single": {"seconds": single_secs, "records_per_s": records / single_secs, "mb_per_s": size / 1e6 / single_secs},
        "spark": {"seconds": spark_secs, "records_per_s": records / spark_secs, "mb_per_s": size / 1e6 / spark_secs,
                  "startup_seconds": startup, "first_query_seconds": warmup},
        "aiokafka_c": {"seconds": aiokafka_secs, "records_per_s": records / aiokafka_secs},
        "ratio": single_secs / spark_secs,
        "single_vs_aiokafka_c": aiokafka_secs / single_secs,
        "peak_rss_mb": {"this_process": _maxrss_mb(), **peaks},
        # Memory of the read itself: what the single-process read added to the peak (the range's
        # bytes, a decoded batch, an Arrow batch of at most ROWS_PER_BATCH rows being made), per
        # record read and per row of one Arrow batch (the most rows alive at once).
        "single_peak_growth_mb": single_growth,
        "single_peak_bytes_per_record": single_growth * 2**20 / records,
        "single_peak_bytes_per_batch_row": single_growth * 2**20 / ROWS_PER_BATCH,
        "selective": selective,
        # `decode_stream`'s peak per record on a sample of the corpus (`decode_memory`): the read a
        # user gets without options, and the same read whole.
        "decode_peak_bytes_per_record": decoded,
        # CPU seconds per million records: what more cores would give (at most cores / this).
        "cpu_s_per_million": {"single": single_cpu / records * 1e6,
                              "spark": {k: v / records * 1e6 for k, v in spark_cpu.items()}
                              | {"total": sum(spark_cpu.values()) / records * 1e6}},
        "load_average_at_start": load,
    }
    print(f"| reader | records/s | MB/s | seconds |\n|---|---:|---:|---:|\n"
          f"| one Python process | {result['single']['records_per_s']:,.0f} | {result['single']['mb_per_s']:.1f} | {single_secs:.1f} |\n"
          f"| Spark {args.master} | {result['spark']['records_per_s']:,.0f} | {result['spark']['mb_per_s']:.1f} | {spark_secs:.1f} |\n"
          f"| aiokafka's C extension, records read (no columns) | {result['aiokafka_c']['records_per_s']:,.0f} | "
          f"{size / 1e6 / aiokafka_secs:.1f} | {aiokafka_secs:.1f} |\n\n"
          f"one process / aiokafka's C extension: {result['single_vs_aiokafka_c']:.2f}x (the reader of fd8227e, when "
          f"issue 13 was filed: about 0.3x, see bench/README.md)\n"
          f"issue 13, one process at least 2x its 525k records/s: {result['single']['records_per_s'] / 525e3:.2f}x, "
          f"{'met' if result['single']['records_per_s'] >= 2 * 525e3 else 'not met'} (records/s from another day: "
          f"read it beside the ratio above)\n"
          f"ratio Spark / one process: {result['ratio']:.2f}x; Spark start-up {startup:.1f} s, then a first query on "
          f"a 1 MB sample {warmup:.1f} s (not in the Spark row); peak RSS (MB): "
          + ", ".join(f"{k} {v:,.0f}" for k, v in result["peak_rss_mb"].items()))
    print("\n| selective query (pushdown) | rows | seconds | speed-up over the full scan | segments | bytes planned |\n"
          "|---|---:|---:|---:|---:|---:|")
    for q in selective:
        print(f"| {q['query']} (`{q['where']}`) | {q['rows']:,} | {q['seconds']:.2f} | {q['speedup']:.0f}x | "
              f"{q['segments']} | {q['bytes'] / 1e6:,.1f} MB |")
    print(f"\nmemory of the single-process read: its peak RSS grew by {single_growth:,.0f} MB, "
          f"{result['single_peak_bytes_per_record']:,.1f} bytes per record of the corpus, "
          f"{result['single_peak_bytes_per_batch_row']:,.0f} per row of one Arrow batch of {ROWS_PER_BATCH:,} rows")
    print(f"\nmemory of `record_batch_v2.decode_stream` reading every record of {decoded['records']:,} "
          f"(a 64 MB sample of the corpus): peak {decoded['lazy']:,.0f} bytes a record as it reads without "
          f"options, {decoded['whole']:,.0f} read whole (`lazy=False`)")
    per = result["cpu_s_per_million"]
    print(f"\nCPU seconds per million records (from /proc): one process {per['single']:.2f}; Spark {args.master} "
          f"{per['spark']['total']:.2f} = " + " + ".join(f"{k} {v:.2f}" for k, v in per["spark"].items() if k != "total")
          + f"\nload average when the run started: {load[0]:.2f}, {load[1]:.2f}, {load[2]:.2f} ({os.cpu_count()} cores)")
    wrong = wrong_results(selective)
    result["wrong_results"] = wrong
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1))
    for line in wrong:  # last, where a log ends: these speed-ups are not to be trusted
        print(line, file=sys.stderr)
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
