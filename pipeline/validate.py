"""The validation job: `logcodec pipeline validate PATH --out DIR [--master URL] [--format F]`.

It reads everything under PATH through the data sources with `rows=validation` (permissive):
one row per Kafka batch (or legacy message), TANK bundle or Inkless batch, decoded in Spark's
tasks with every checksum checked, then re-encoded and compared with its bytes (`roundtrip`:
byte for byte when not compressed; compressed, the values of a second decoding, since other
compressors write other bytes). An entry that does not decode, or does not come back, is
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
"""

from __future__ import annotations

import json
import os
import re
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TextIO

from logcodec._api import codec
from logcodec.pipeline import resync
from logcodec.pipeline.plan import DEFAULT_SPLIT_BYTES
from logcodec.runtime.errors import DecodeError

FORMATS = ("kafka", "tank", "inkless")
#: What a finding row's `entry` may be: a TANK index entry, Inkless metadata, or a zero-filled tail
#: (zeros to the end of a log file, as a preallocated segment keeps after a crash: no batch).
FINDING_ENTRIES = ("index", "metadata", "zero_fill")
#: A quarantined row of this `entry` is no batch but a range of bytes where no entry decodes,
#: between a broken frame and the next entry whose checksum holds (or the end of the file).
UNREADABLE = "unreadable"
#: What an Inkless object is called when no metadata entry places anything in it (none, or none that loads).
NO_METADATA = "no metadata places anything in it"
#: What a file is called when nothing in it decodes as an entry of its format.
NOT_A_LOG = {"kafka": "not a Kafka log", "tank": "not a TANK log", "inkless": "not an Inkless object"}
#: Findings listed in summary.json (all of them are in findings.parquet).
MAX_LISTED_FINDINGS = 1000
#: Files listed one by one in the printed table; above this, only those with something quarantined.
MAX_TABLE_FILES = 40
_GROUP_KEYS = ("format", "file", "entry", "status", "error_kind", "reencode")


class UsageError(ValueError):
    """PATH or an option cannot be used (the command exits with status 2)."""


# ---------------------------------------------------------------- which format

_TANK_NAME = re.compile(r"^\d+(?:-\d+_\d+\.ilog|_\d+\.log|-\d+\.ilog)$")
_INKLESS_SIDECAR = re.compile(r"\.metadata\.(?:bin|ya?ml|json)$")
_rs = codec("kafka.record_set")


def detect_format(path: Path) -> str:
    """`kafka`, `tank` or `inkless` for what lies under `path`, from file names and first bytes:
    `.ilog` and TANK-style names (`<first>_<secs>.log`) are TANK; a `.log` whose first bytes frame
    a Kafka entry (offset >= 0, size >= 14, magic 0-2) is Kafka; other digit-named `.log` files in
    a digit-named directory are TANK; Inkless metadata sidecars (`<object>.metadata.bin|yaml|json`)
    mean Inkless objects. A file given as PATH is Kafka, or Inkless when it has a sidecar (TANK
    reads partition directories). UsageError when nothing is found, or more than one kind is."""
    if not path.exists():
        raise UsageError(f"no such file or directory: {path}")
    if path.is_file():
        if path.suffix == ".ilog" or _TANK_NAME.match(path.name):
            raise UsageError(f"{path} is a TANK segment: give its partition directory (TANK reads directories)")
        if any(path.with_name(f"{path.name}.metadata.{ext}").is_file() for ext in ("bin", "yaml", "yml", "json")):
            return "inkless"
        return "kafka"
    found: dict[str, Path] = {}
    unknown = None
    for directory, subdirs, names in os.walk(path):
        subdirs.sort()
        for name in sorted(names):
            if _INKLESS_SIDECAR.search(name):
                found.setdefault("inkless", Path(directory) / name)
                continue
            if not name.endswith((".log", ".ilog")):
                continue
            kind = _sniff(Path(directory) / name)
            if kind is None:
                unknown = unknown or Path(directory) / name
            else:
                found.setdefault(kind, Path(directory) / name)
        if len(found) > 1:
            kinds = " and ".join(f"{_NAMES[k]} ({found[k]})" for k in FORMATS if k in found)
            raise UsageError(f"{path} holds {kinds}: validate them apart, or give --format")
    if found:
        return next(iter(found))
    if unknown is not None:
        return "kafka"  # the Kafka reader reads any *.log, and says what is wrong with it
    raise UsageError(f"no Kafka or TANK logs (*.log, *.ilog) or Inkless metadata (*.metadata.*) under {path}")


_NAMES = {"kafka": "Kafka logs", "tank": "TANK logs", "inkless": "Inkless objects"}


def _sniff(file: Path) -> str | None:
    if file.suffix == ".ilog" or _TANK_NAME.match(file.name):
        return "tank"
    with open(file, "rb") as f:
        head = f.read(max(_rs.ENTRY_HEADER, resync.MAGIC_AT + 1))
    if not head:
        return None
    if len(head) > resync.MAGIC_AT and head[resync.MAGIC_AT] in resync.MAGICS:
        try:  # the first bytes frame a Kafka entry, by kafka.record_set's entry header
            _rs.entry_size(head)
            return "kafka"
        except DecodeError:
            pass
    if file.stem.isdigit() and file.parent.name.isdigit():
        return "tank"
    return None


def check_path(path: Path | str, fmt: str) -> str:
    """The format to read `path` with (`auto` detected); UsageError when there is nothing to read.
    An `s3://` location is Inkless (only Inkless keeps its objects there); it is not listed here."""
    if is_remote(path):
        if fmt not in ("auto", "inkless"):
            raise UsageError(f"{path}: only Inkless objects are read from object storage, not {fmt}")
        return "inkless"
    path = Path(path)
    if fmt == "auto":
        return detect_format(path)
    if fmt not in FORMATS:
        raise UsageError(f"unknown format {fmt!r}; expected {', '.join(FORMATS)} or auto")
    if not path.exists():
        raise UsageError(f"no such file or directory: {path}")
    if fmt == "tank":
        from logcodec.pipeline.tank import partition_directories

        if not path.is_dir():
            raise UsageError(f"{path} is a file: TANK reads partition directories")
        if not partition_directories(path):
            raise UsageError(f"no TANK segments under {path}")
    elif fmt == "kafka" and path.is_dir() and not any(path.rglob("*.log")):
        raise UsageError(f"no Kafka logs (*.log) under {path}")
    return fmt


def is_remote(path: Path | str) -> bool:
    return str(path).startswith("s3://")


_MASTER = re.compile(r"^(local(\[[^\]]+\])?|local-cluster\[[^\]]+\]|yarn|(spark|k8s)://.+)$")


def check_master(master: str | None) -> None:
    """UsageError for a master URL that Spark refuses (it would say so only after starting a JVM)."""
    if master is not None and not _MASTER.match(master):
        raise UsageError(f"--master {master!r}: expected local, local[N], local[*], spark://HOST:PORT, "
                         f"k8s://URL or yarn")


# ---------------------------------------------------------------- the job

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
    say = _Say(progress)
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
            with _StageProgress(spark, say, "decoding, checking, re-encoding"):
                groups = [row.asDict() for row in df.groupBy(*_GROUP_KEYS).agg(
                    F.count(F.lit(1)).alias("rows"), F.sum("record_count").alias("records"),
                    F.sum("size").alias("bytes")).collect()]
            out.mkdir(parents=True, exist_ok=True)
            results, found = out / "results.parquet", out / "findings.parquet"
            with _StageProgress(spark, say, "writing results"):
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
        _module(fmt).parse_options({**options, "path": "-"})
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    return options


def _module(fmt: str):
    """The Spark-free reader module of a format (`pipeline.kafka`, `.tank`, `.inkless`)."""
    from logcodec.pipeline import inkless, kafka, tank

    return {"kafka": kafka, "tank": tank, "inkless": inkless}[fmt]


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
    module = _module(fmt)
    read_options = module.parse_options(given)
    rows = [row for partition in module.plan(read_options) for batch in module.read(partition, read_options)
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


def listed_files(fmt: str, path, options: Mapping[str, str] | None = None) -> dict[str, int | dict]:
    """{file: size} of every log file a read of `path` covers, empty ones included (they yield no
    row, and are listed all the same). For Inkless, {object: how its bytes divide by its metadata}
    (`inkless.byte_layout`: size, dead, overlap, past_end), from its planner."""
    if fmt == "kafka":
        from logcodec.pipeline.plan import files_under

        glob = next((v for k, v in (options or {}).items() if k.lower() == "glob"), "*.log")
        return {str(f): f.stat().st_size for f in files_under(Path(path), glob)}
    if fmt == "tank":
        from logcodec.tank.containers import segment_files
        from logcodec.pipeline.tank import partition_directories

        return {str(s.path): s.path.stat().st_size for d in partition_directories(Path(path))
                for s in segment_files(d)}
    from logcodec.pipeline import inkless

    return inkless.byte_layout(inkless.parse_options({**(options or {}), "path": str(path)}))


def exit_status(summary: dict, strict_zero_fill: bool | None = None) -> int:
    """The validation job's exit status: 1 when something is quarantined (a batch, or an unreadable
    range) or found, but for zero-filled tails unless `strict_zero_fill` (default: as the job ran)."""
    strict = summary.get("strict_zero_fill", False) if strict_zero_fill is None else strict_zero_fill
    t = summary["total"]
    findings = summary["findings"]["count"] - (0 if strict else summary["findings"]["kinds"].get(
        "zero_fill: zero_fill", 0))
    return 1 if t["quarantined"] or t["unreadable"] or findings else 0


# ---------------------------------------------------------------- the summary

def summarize(groups: Iterable[dict], findings: list[dict], *, path: Path | str, fmt: str,
              master: str | None, files: Mapping[str, int | dict] | None = None,
              strict_zero_fill: bool = False) -> dict:
    """The summary from grouped counts (one dict per `_GROUP_KEYS` combination, with `rows`,
    `records` and `bytes`, the sum of their sizes) and the first findings. `files`: what
    `listed_files` gives of every file read (empty files have no rows and are listed from it).
    Checks that every row is a batch that is valid or quarantined, an unreadable range, or a
    finding, so that batches = valid + quarantined holds everywhere; and, when `files` is given,
    that every byte is accounted for, per file and in total: bytes = valid + quarantined +
    unreadable + zero fill (+ an Inkless object's dead bytes - overlap - past the end)."""
    per_file: dict[str, dict] = {}
    for file, size in sorted((files or {}).items()):
        per_file[file] = _counts(file=file, format=fmt, size=size if isinstance(size, int) else size["size"])
        if isinstance(size, dict):
            per_file[file]["bytes"].update({k: size[k] for k in _LAYOUT})
    finding_files: Counter = Counter()
    finding_kinds: Counter = Counter()
    for g in sorted(groups, key=lambda g: g["file"] or ""):
        if g["status"] is None:
            if g["entry"] not in FINDING_ENTRIES:
                raise AssertionError(f"a row of {g['file']} has no status and is no finding: {g}")
            finding_files[g["file"]] += g["rows"]
            finding_kinds[f"{g['entry']}: {g['error_kind']}"] += g["rows"]
            if g["entry"] == "zero_fill":
                f = per_file.setdefault(g["file"], _counts(file=g["file"], format=g["format"]))
                f["bytes"]["zero_fill"] += g.get("bytes") or 0
            continue
        if g["status"] not in ("valid", "quarantined"):
            raise AssertionError(f"unknown status {g['status']!r} in {g['file']}")
        f = per_file.setdefault(g["file"], _counts(file=g["file"], format=g["format"]))
        _add(f, g)
    total = _counts(files=len(per_file))
    total["bytes"]["file"] = 0
    for f in per_file.values():
        _check(f, f["file"])
        for key in ("batches", "valid", "quarantined", "unreadable", "records", "decoded"):
            total[key] += f[key]
        for key in ("errors", "reencode", "entries", "bytes"):
            for name, n in f[key].items():
                total[key][name] = (total[key].get(name) or 0) + (n or 0)
        f["verdict"] = _verdict(f, fmt)
    total["findings"] = sum(finding_files.values())
    total["not_logs"] = sum(1 for f in per_file.values() if f["verdict"] == NOT_A_LOG.get(fmt))
    _check(total, "the total")
    if files is not None:
        for f in [*per_file.values(), total]:
            _check_bytes(f, f.get("file") or "the total")
    for f in per_file.values():
        f["errors"] = dict(sorted(f["errors"].items()))
    total["errors"] = dict(sorted(total["errors"].items()))
    return {
        "path": str(path), "format": fmt, "master": master, "strict_zero_fill": strict_zero_fill,
        "total": total,
        "files": list(per_file.values()),
        "findings": {"count": total["findings"], "kinds": dict(sorted(finding_kinds.items())),
                     "files": dict(sorted(finding_files.items(), key=lambda kv: kv[0] or "")),
                     "listed": [{k: f[k] for k in ("file", "offset", "entry", "error_kind", "error_offset",
                                                   "error_path", "detail")} for f in findings]},
    }


def _counts(size: int | None = None, **fields) -> dict:
    """The counts of a file (or of the total): `batches` = `valid` + `quarantined` entries;
    `unreadable` ranges apart (no batch); `decoded`, entries that decoded (valid, or quarantined
    only for their re-encoding); `bytes`: the file's size and how its bytes divide."""
    return {**fields, "batches": 0, "valid": 0, "quarantined": 0, "unreadable": 0, "records": 0, "decoded": 0,
            "errors": {}, "reencode": {}, "entries": {},
            "bytes": {"file": size, "valid": 0, "quarantined": 0, "unreadable": 0, "zero_fill": 0,
                      **dict.fromkeys(_LAYOUT, 0)}}


#: How an Inkless object's bytes divide by its metadata alone (`inkless.byte_layout`); 0 elsewhere.
_LAYOUT = ("dead", "overlap", "past_end")


def _add(f: dict, g: dict) -> None:
    n, size = g["rows"], g.get("bytes") or 0
    if g["entry"] == UNREADABLE:
        f["unreadable"] += n
        f["bytes"]["unreadable"] += size
        return
    f["batches"] += n
    f[g["status"]] += n
    f["bytes"][g["status"]] += size
    f["records"] += g["records"] or 0
    if g["reencode"] is not None:
        f["decoded"] += n
    if g["error_kind"] is not None:
        f["errors"][g["error_kind"]] = f["errors"].get(g["error_kind"], 0) + n
    if g["reencode"] is not None:
        f["reencode"][g["reencode"]] = f["reencode"].get(g["reencode"], 0) + n
    entry = g["entry"] or "unknown"
    f["entries"][entry] = f["entries"].get(entry, 0) + n


def _verdict(f: dict, fmt: str) -> str | None:
    """`empty` (no bytes, or zeros only), `NO_METADATA` for an Inkless object whose bytes no entry
    covers, the format's "not a ... log" when bytes are there but no entry ever decodes, else None."""
    b = f["bytes"]
    if (b["file"] if b["file"] is not None else b["valid"] + b["quarantined"] + b["unreadable"]) == b["zero_fill"]:
        return "empty"
    if b["file"] and b.get("dead") == b["file"]:
        return NO_METADATA  # an Inkless object that no metadata entry places: nothing was read in it
    if f["decoded"] == 0:
        return NOT_A_LOG.get(fmt, f"not {fmt}")
    return None


def _check(f: dict, what: str) -> None:
    """Nothing lost: every batch read is valid or quarantined, and every quarantined one has its kind."""
    if f["batches"] != f["valid"] + f["quarantined"]:
        raise AssertionError(f"{what}: {f['batches']} batches read, {f['valid']} valid + {f['quarantined']} quarantined")
    if sum(f["errors"].values()) != f["quarantined"]:
        raise AssertionError(f"{what}: {f['quarantined']} quarantined, {sum(f['errors'].values())} with an error kind")


def _check_bytes(f: dict, what: str) -> None:
    """Every byte accounted for: the file's size = bytes of valid entries + quarantined entries +
    unreadable ranges + zero fill; for an Inkless object, whose entries its metadata places, + the
    bytes no entry covers - bytes covered twice - bytes claimed past its end."""
    b = f["bytes"]
    parts = (b["valid"] + b["quarantined"] + b["unreadable"] + b["zero_fill"]
             + b.get("dead", 0) - b.get("overlap", 0) - b.get("past_end", 0))
    if b["file"] != parts:
        raise AssertionError(f"{what}: {b['file']} bytes, but {_byte_sum(b)} = {parts}")


def _byte_sum(b: dict) -> str:
    """The terms of the byte accounting, as the summary prints them."""
    text = (f"valid {b['valid']:,} + quarantined {b['quarantined']:,} + unreadable {b['unreadable']:,} + "
            f"zero fill {b['zero_fill']:,}")
    for key, sign, name in (("dead", "+", "dead bytes"), ("overlap", "-", "covered twice"),
                            ("past_end", "-", "past the end")):
        if b.get(key):
            text += f" {sign} {name} {b[key]:,}"
    return text


def format_table(summary: dict, out: Path | str | None = None) -> str:
    """The summary as a table for the terminal: a line per file (relative to PATH) and the total,
    then the re-encoding outcomes and the findings."""
    root = Path(summary["path"])
    files = summary["files"]
    shown = files if len(files) <= MAX_TABLE_FILES else [f for f in files if f["quarantined"] or f.get("unreadable")
                                                            or f.get("verdict")]

    def name(file: str | None) -> str:
        if file is None or is_remote(file):
            return str(file)
        try:
            return str(Path(file).relative_to(root)) if root.is_dir() else Path(file).name
        except ValueError:
            return file

    def kinds(errors: dict) -> str:
        return ", ".join(f"{k} {n}" for k, n in errors.items())

    def note(f: dict) -> str:
        said = [kinds(f["errors"])] if f["errors"] else []
        if f.get("verdict"):
            said.append(f"({f['verdict']})")
        return " ".join(said)

    header = ("file", "batches", "valid", "quarantined", "unreadable", "records", "quarantined by kind")
    lines = [(name(f["file"]), f["batches"], f["valid"], f["quarantined"], f.get("unreadable", 0), f["records"],
              note(f)) for f in shown]
    t = summary["total"]
    total = (f"total ({t['files']} file{'s' if t['files'] != 1 else ''})", t["batches"], t["valid"],
             t["quarantined"], t.get("unreadable", 0), t["records"], kinds(t["errors"]))
    width = max(len(str(row[0])) for row in [header, *lines, total])
    widths = [width] + [max(len(str(row[i])) for row in [header, *lines, total]) for i in range(1, 6)]

    def fmt(row) -> str:
        cells = [str(row[0]).ljust(widths[0])] + [str(v).rjust(w) for v, w in zip(row[1:6], widths[1:])]
        return "  ".join(cells + [row[6]]).rstrip()

    text = [f"{_NAMES.get(summary['format'], summary['format'])} under {summary['path']}", fmt(header),
            *map(fmt, lines)]
    if len(shown) < len(files):
        text.append(f"({len(files) - len(shown)} file(s) with nothing quarantined not shown)")
    text.append(fmt(total))
    b = t.get("bytes")
    if b and b.get("file") is not None:
        text.append(f"bytes: {b['file']:,} = {_byte_sum(b)}")
    if t["reencode"]:
        text.append("re-encoded: " + ", ".join(f"{k} {n}" for k, n in sorted(t["reencode"].items())))
    findings = summary["findings"]
    if findings["count"]:
        text.append(f"findings (not batches): {findings['count']} ("
                    + ", ".join(f"{k} {n}" for k, n in findings["kinds"].items()) + ")")
        for f in findings["listed"][:10]:
            at = "" if f["offset"] is None else f" @{f['offset']}"
            text.append(f"  {name(f['file'])}{at}: {f['entry']} {f['error_path']}: {f['error_kind']}: {f['detail']}")
        if findings["count"] > 10:
            text.append(f"  ... {findings['count'] - 10} more")
    if out is not None:
        text.append(f"results: {Path(out) / 'results.parquet'}, {Path(out) / 'findings.parquet'}, "
                    f"{Path(out) / 'summary.json'}")
    return "\n".join(text)


# ---------------------------------------------------------------- progress

class _Say:
    """Progress lines on a stream (stderr), or nothing."""

    def __init__(self, stream: TextIO | None) -> None:
        self.stream = stream
        self.tty = bool(stream is not None and getattr(stream, "isatty", lambda: False)())
        self.lock = threading.Lock()
        self.pending = False  # a \\r line is on screen

    def __bool__(self) -> bool:
        return self.stream is not None

    def __call__(self, line: str, transient: bool = False) -> None:
        if self.stream is None:
            return
        with self.lock:
            if transient and self.tty:
                self.stream.write(f"\r\x1b[Kvalidate: {line}")
                self.pending = True
            else:
                self.stream.write(("\r\x1b[K" if self.pending else "") + f"validate: {line}\n")
                self.pending = False
            self.stream.flush()


class _StageProgress:
    """While a block runs Spark jobs: how many of their tasks are done, from Spark's status tracker
    (its console progress bar is off), every half second on a terminal, else at each tenth. The
    block's jobs are told apart by a job group, set for its duration."""

    def __init__(self, spark, say: _Say, label: str, interval: float = 0.5) -> None:
        self.sc, self.say, self.label, self.interval = spark.sparkContext, say, label, interval
        self.group = f"logcodec-validate-{id(self)}"
        self.stop = threading.Event()
        self.thread: threading.Thread | None = None

    def __enter__(self) -> "_StageProgress":
        if self.say:
            self.started = time.time()
            self.sc.setJobGroup(self.group, f"logcodec validate: {self.label}")
            self.say(f"{self.label} ...")
            self.thread = threading.Thread(target=self._run, daemon=True)
            self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        if self.thread is None:
            return
        self.stop.set()
        self.thread.join()
        self.sc.setLocalProperty("spark.jobGroup.id", None)
        if exc[0] is None:
            done, tasks = self._tasks()
            self.say(f"{self.label}: {done} tasks in {time.time() - self.started:.1f} s")

    def _tasks(self) -> tuple[int, int]:
        done = tasks = 0
        try:
            tracker = self.sc.statusTracker()
            for job in tracker.getJobIdsForGroup(self.group):
                info = tracker.getJobInfo(job)
                for stage in info.stageIds if info is not None else ():
                    stage_info = tracker.getStageInfo(stage)
                    if stage_info is not None:
                        done += stage_info.numCompletedTasks
                        tasks += stage_info.numTasks
        except Exception:  # the tracker is advisory: it never fails the job
            pass
        return done, tasks

    def _run(self) -> None:
        last = -1
        while not self.stop.wait(self.interval):
            done, tasks = self._tasks()
            if not tasks:
                continue
            percent = 100 * done // tasks
            if self.say.tty or percent // 10 != last // 10:
                self.say(f"{self.label}: {done}/{tasks} tasks ({percent}%)", transient=True)
                last = percent
