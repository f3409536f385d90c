"""The validation job: `logcodec pipeline validate PATH --out DIR [--master URL] [--format F]`.

It reads everything under PATH through the data sources with `rows=validation` (permissive):
one row per Kafka batch (or legacy message), TANK bundle or Inkless batch, decoded in Spark's
tasks with every checksum checked, then re-encoded and compared with its bytes (`roundtrip`:
byte for byte, compressed ones too: a decoded batch keeps the compressed bytes it was read
from and writes them back). An entry that does not decode, or does not come back, is
quarantined with its error kind and byte offset; reading goes on, so a corrupt or truncated
file never fails the job. Indexes and metadata are checked against what they describe: a
TANK segment's index against its log, an Inkless object's metadata against the object (a
metadata entry whose range the object contradicts is quarantined as the batch it names).
What concerns no single batch (a bad index entry; Inkless metadata that does not load or
names no object, an object without metadata, overlapping ranges, dead bytes) is a finding,
reported apart: it is no batch.

What it writes in DIR:
- `results.parquet/`: one row per batch or bundle (`tables.VALIDATION_SCHEMA`);
- `findings.parquet/`: the findings (same columns; `entry` = index or metadata, `status` null);
- `summary.json`: per file and in total, batches read, valid, quarantined, records, error
  kinds and re-encoding outcomes; the findings; the job's settings and duration.

Nothing is lost: for every file and in total, batches read = valid + quarantined, and the
rows written to `results.parquet` are read back and counted; the job fails loudly otherwise.
The table printed at the end (`format_table`) is the summary made readable.

The modules: `_paths` (which format PATH holds, usage errors, the files it covers), `_summary`
(the counts and their checks, the exit status), `_table` (the printed table), `_progress`
(progress lines); the job itself is here. It reaches the formats through the registry and the
protocol only (`registry`, `formats.LogFormat`).
"""

from __future__ import annotations

import json
import time
from collections import defaultdict
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TextIO

from logcodec.pipeline.plan import DEFAULT_SPLIT_BYTES
from logcodec.pipeline.registry import format_named
from logcodec.pipeline.validate._paths import (
    UsageError,
    check_master,
    check_path,
    detect_format,
    is_remote,
    listed_files,
)
from logcodec.pipeline.validate._progress import Say, StageProgress
from logcodec.pipeline.validate._summary import (
    FINDING_ENTRIES,
    MAX_LISTED_FINDINGS,
    NO_METADATA,
    UNREADABLE,
    exit_status,
    summarize,
)
from logcodec.pipeline.validate._table import MAX_TABLE_FILES, format_table

_GROUP_KEYS = ("format", "file", "entry", "status", "error_kind", "reencode")


def validate(path, out, *, spark=None, master: str | None = None, fmt: str = "auto",
             split_bytes: int = DEFAULT_SPLIT_BYTES, options: Mapping[str, str] | None = None,
             progress: TextIO | None = None, strict_zero_fill: bool = False) -> dict:
    """Validate everything under `path` on Spark and write `out`/results.parquet, findings.parquet
    and summary.json; return the summary. `spark`: a session to use (else one is made for `master`,
    default `local[*]`, and stopped at the end). `options`: more options of the data source (for
    Inkless: `metadata`, `allowDeadBytes`, `s3Endpoint`, ...). `progress`: where to print progress
    lines (None: quiet). UsageError before Spark starts when `path` holds nothing to read.
    `strict_zero_fill`: a zero-filled tail fails the job (`exit_status`) as a quarantined batch does;
    by default it is a finding that does not."""
    path, out = _located(path), Path(out)
    fmt = check_path(path, fmt)
    options = _options(fmt, options)
    check_master(master)
    started = time.time()
    say = Say(progress)
    owned = spark is None
    if owned:
        from logcodec.pipeline.session import local_session

        say(f"starting Spark ({master or 'local[*]'})")
        spark = local_session(master or "local[*]", app_name="logcodec-validate")
    master = spark.sparkContext.master
    try:
        from pyspark import StorageLevel
        from pyspark.sql import functions as F

        df = (spark.read.format(f"logcodec.{fmt}").options(**options).option("rows", "validation")
              .option("mode", "permissive").option("splitBytes", str(split_bytes)).load(str(path)))
        say(f"validating {path} as {fmt} on {master}")
        df = df.persist(StorageLevel.MEMORY_AND_DISK)  # decoded once: counted, then written
        try:
            with StageProgress(spark, say, "decoding, checking, re-encoding"):
                groups = [row.asDict() for row in df.groupBy(*_GROUP_KEYS).agg(
                    F.count(F.lit(1)).alias("rows"), F.sum("record_count").alias("records"),
                    F.sum("size").alias("bytes")).collect()]
            out.mkdir(parents=True, exist_ok=True)
            results, found = out / "results.parquet", out / "findings.parquet"
            with StageProgress(spark, say, "writing results"):
                df.where(F.col("status").isNotNull()).write.mode("overwrite").parquet(str(results))
                df.where(F.col("status").isNull()).write.mode("overwrite").parquet(str(found))
        finally:
            df.unpersist()
    finally:
        if owned:
            spark.stop()
    findings = sorted(_parquet(found).to_pylist(), key=_finding_order)[:MAX_LISTED_FINDINGS] \
        if any(g["status"] is None for g in groups) else []
    summary = summarize(groups, findings, path=path, fmt=fmt, master=master, files=listed_files(fmt, path, options),
                        strict_zero_fill=strict_zero_fill)
    summary.update(results=str(results), findings_parquet=str(found), seconds=round(time.time() - started, 3))
    for folder, rows in [(results, summary["total"]["batches"] + summary["total"]["unreadable"]),
                         (found, summary["total"]["findings"])]:
        written = _parquet_rows(folder)
        if written != rows:
            raise AssertionError(f"{written} rows in {folder}, but {rows} were read")
    (out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    say(f"done in {summary['seconds']:.1f} s: {out}")
    return summary


def parse_options(pairs: Iterable[str]) -> dict[str, str]:
    """`KEY=VALUE` strings (`--option`) as data source options; UsageError for one without `=`."""
    options = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"--option {pair!r}: expected KEY=VALUE")
        options[key.strip()] = value
    return options


def _located(path) -> Path | str:
    """`path` made absolute, so that the tasks see the same path wherever they run; an `s3://`
    location as it is."""
    return str(path) if is_remote(path) else Path(path).absolute()


def _options(fmt: str, options: Mapping[str, str] | None) -> dict[str, str]:
    """The extra data source options, refused before Spark starts if the job sets them itself."""
    options = dict(options or {})
    taken = sorted(k for k in options if k.lower() in ("path", "rows", "mode", "splitbytes"))
    if taken:
        raise UsageError(f"option(s) {', '.join(taken)} are the job's own (use PATH and --split-bytes)")
    try:  # the data source would refuse them only inside Spark
        reader = format_named(fmt)
        reader.check_options(reader.parse_options({**options, "path": "-"}))
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    return options


def _finding_order(f: dict) -> tuple:
    return (f["file"] or "", -1 if f["offset"] is None else f["offset"], f["error_path"] or "")


def _parquet_rows(folder: Path) -> int:
    """Rows in the Parquet files Spark wrote to `folder`, from their footers (DIR is a local path,
    or one the driver and the executors share)."""
    import pyarrow.parquet as pq

    return sum(pq.ParquetFile(f).metadata.num_rows for f in sorted(folder.glob("*.parquet")))


def _parquet(folder: Path):
    import pyarrow.parquet as pq

    return pq.read_table(folder)


def validate_local(path, *, fmt: str = "auto", split_bytes: int = DEFAULT_SPLIT_BYTES,
                   options: Mapping[str, str] | None = None, strict_zero_fill: bool = False
                   ) -> tuple[list[dict], dict]:
    """The same validation in this process, without Spark: (every row, the summary)."""
    path = _located(path)
    fmt = check_path(path, fmt)
    given = {**_options(fmt, options), "path": str(path), "rows": "validation", "splitBytes": str(split_bytes)}
    reader = format_named(fmt)
    read_options = reader.parse_options(given)
    rows = [row for partition in reader.plan(read_options) for batch in reader.read(partition, read_options)
            for row in batch.to_pylist()]
    counts: dict[tuple, list[int]] = defaultdict(lambda: [0, 0, 0])
    for row in rows:
        c = counts[tuple(row[k] for k in _GROUP_KEYS)]
        c[0] += 1
        c[1] += row["record_count"] or 0
        c[2] += row["size"] or 0
    groups = [dict(zip(_GROUP_KEYS, key), rows=n, records=records, bytes=size)
              for key, (n, records, size) in counts.items()]
    findings = sorted((r for r in rows if r["status"] is None), key=_finding_order)
    return rows, summarize(groups, findings[:MAX_LISTED_FINDINGS], path=path, fmt=fmt, master=None,
                           files=listed_files(fmt, path, options), strict_zero_fill=strict_zero_fill)

__all__ = ["validate", "validate_local", "parse_options", "UsageError", "check_path", "check_master", "detect_format",
           "is_remote", "listed_files", "summarize", "exit_status", "format_table", "FINDING_ENTRIES", "UNREADABLE",
           "NO_METADATA", "MAX_LISTED_FINDINGS", "MAX_TABLE_FILES"]
