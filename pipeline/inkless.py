"""Inkless objects with their metadata as rows: one per record, or one per batch (or one
validation result per batch, for the validation job: `validation_rows`); from a local
directory or from S3-compatible object storage (`s3://bucket/prefix`).

An Inkless object is Kafka v2 record batches laid end to end, with nothing that says whose
they are: its metadata does, in either form `logcodec.inkless.blocks.load_metadata` reads (the
seed's binary `IKBM` or its YAML/JSON document; the shipped rows of Inkless's `files` and
`batches` tables as JSON). So a read pairs each object with its metadata first, on the driver,
from the names of the files under the load path (and the `metadata` option's):

- `<name>.metadata.bin|.yaml|.yml|.json` is the metadata of the object `<name>` beside it
  (a sidecar, either form; the key written inside it does not matter);
- any other `*.json`, `*.yaml` or `*.yml` file, and every file under the `metadata` option's
  path, is a metadata document that names its object(s) by object key: the seed's
  `block_header.path`, the shipped form's `files[].object_key` (an export of the two tables may
  hold many `files` rows, each with the `batches` rows of its `file_id`). A key names the object
  under the load path whose location ends with `/<key>` (Inkless keys are `<prefix>/<uuid>`);
- every other file is an object.

Whatever cannot be paired is a row with its `error`, never dropped: an object without metadata,
metadata that does not load, a key that names no object (or several), a second metadata for an
object that has one.

Checks. What `logcodec.inkless.blocks.validate` reports for an object is reported as rows of
the read, each once, split by where it can be found cheaply: problems that need only the
metadata and the object's size (overlapping ranges, dead bytes, a `files` size or `file_id`
that disagrees, a partition's offsets out of order) are found on the driver while planning and
go out with the object's first input partition; a range's own problems (past the end, not whole
batches, a bad CRC, a record count or offsets that its batches contradict) are found by the task
that reads the range, as it reads it. A range with a problem gives its error rows and none of
its records (single-process `read_records` refuses it too); the object's other ranges are read.
Dead bytes are normal in the shipped form (batches the control plane rejected); the
`allowDeadBytes` option leaves them out, as `validate(..., allow_dead_bytes=True)` does.

Records come back as Inkless serves them, exactly as `logcodec.inkless.read_records` returns them:
with shipped metadata, absolute offsets patched in (a coalesced row's batches numbered on from its
`base_offset`) and, for a log-append-time row, the row's append time; the seed's as stored.

Splitting. An object is one unit of work; one larger than `splitBytes` is cut between metadata
ranges into pieces of about `splitBytes`, each read with one ranged GET. Small objects share
an input partition (`plan.pack`).

Storage. Local paths and `s3://bucket/prefix` are read through `pyarrow.fs` (LocalFileSystem,
S3FileSystem). For S3: `s3Endpoint` (e.g. `http://127.0.0.1:9000` for MinIO or moto; else
`AWS_ENDPOINT_URL_S3` / `AWS_ENDPOINT_URL`, else AWS), `s3Region` (else `AWS_REGION` /
`AWS_DEFAULT_REGION`), `s3AccessKey` / `s3SecretKey` / `s3SessionToken` (else AWS's default
chain in each process: environment, `~/.aws`, an instance role) or `s3Anonymous=true`. The
endpoint and region are resolved on the driver; credentials are not, so a cluster's executors
use their own.
"""

from __future__ import annotations

import functools
from concurrent.futures import ThreadPoolExecutor
import os
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from urllib.parse import urlsplit

import pyarrow as pa
import pyarrow.fs as pafs

# The reader works per metadata entry, with the steps of logcodec.inkless.blocks' own validator and reader
# (entries, the check of one entry, serving a batch, the object-wide checks).
from logcodec.inkless.document import document_from_json, uuid_text
from logcodec.inkless.blocks import (SHIPPED, Extent, bytes_form, check_extent, load_metadata, metadata_extents,
                                     object_file_findings, overlap_findings, partition_order_findings, served_bytes,
                                     uncovered_ranges)
from logcodec.inkless.shipped import SHIPPED_ROOT, ShippedMetadata, shipped_from_document
from logcodec.kafka.records import delta_columns
from logcodec.pipeline.kafka import entry_codec, entry_crc_valid, entry_magic, v2_batch_columns, v2_batch_fields, \
    v2_record_columns
from logcodec.pipeline.plan import DEFAULT_SPLIT_BYTES, common_options, pack, positive_int
from logcodec.pipeline.roundtrip import compare, without_length_and_crc
from logcodec.pipeline.tables import ERROR, HEADERS, VALIDATION_SCHEMA, error_columns, record_batches, row_maker, \
    run_maker, validation_row
from logcodec.generated.kafka import record_batch_v2 as _rb
from logcodec.runtime.errors import DecodeError

ROW_KINDS = ("record", "batch", "validation")

#: One row per record: the Kafka source's columns, with the topic id and the metadata file.
RECORD_SCHEMA = pa.schema([
    ("topic", pa.string()),             # the seed's topic name; null in the shipped form (ids only)
    ("topic_id", pa.string()),          # 8-4-4-4-12 lowercase hex
    ("partition", pa.int32()),
    ("offset", pa.int64()),             # shipped: absolute, as Inkless serves it; seed: as stored
    ("timestamp", pa.int64()),          # milliseconds since the epoch (a log-append-time row: its append time)
    ("timestamp_type", pa.string()),    # create_time or log_append_time
    ("key", pa.binary()),
    ("value", pa.binary()),
    ("headers", HEADERS),
    ("producer_id", pa.int64()),
    ("producer_epoch", pa.int16()),
    ("base_sequence", pa.int32()),
    ("leader_epoch", pa.int32()),       # as stored (Inkless stores 0)
    ("is_transactional", pa.bool_()),
    ("is_control", pa.bool_()),
    ("codec", pa.string()),
    ("magic", pa.int8()),
    ("file", pa.string()),              # provenance: the object (a path or s3://bucket/key), the byte
    ("batch_offset", pa.int64()),       # offset of the batch in it, and the metadata file that placed it
    ("metadata", pa.string()),
    ("error", ERROR),                   # null, or why the range at batch_offset could not be read
])

#: One row per batch (a coalesced shipped row holds several).
BATCH_SCHEMA = pa.schema([
    ("topic", pa.string()),
    ("topic_id", pa.string()),
    ("partition", pa.int32()),
    ("file", pa.string()),
    ("batch_offset", pa.int64()),       # byte offset of the batch in the object
    ("size", pa.int32()),               # bytes of the batch, offset and length fields included
    ("magic", pa.int8()),
    ("base_offset", pa.int64()),        # as served (shipped: absolute)
    ("last_offset", pa.int64()),
    ("record_count", pa.int32()),
    ("codec", pa.string()),
    ("timestamp_type", pa.string()),
    ("base_timestamp", pa.int64()),
    ("max_timestamp", pa.int64()),      # as served (a log-append-time row: its append time)
    ("producer_id", pa.int64()),
    ("producer_epoch", pa.int16()),
    ("base_sequence", pa.int32()),
    ("leader_epoch", pa.int32()),
    ("is_transactional", pa.bool_()),
    ("is_control", pa.bool_()),
    ("payload_bytes", pa.int64()),      # key, value and header bytes of the records, uncompressed
    ("crc_valid", pa.bool_()),          # the stored CRC against the stored bytes
    ("metadata", pa.string()),
    ("entry", pa.string()),             # the metadata entry: `batches[3]`, `topic_partitions[0].batches[2]`
    ("error", ERROR),
])
record_row = row_maker(RECORD_SCHEMA)
record_run = run_maker(RECORD_SCHEMA)
batch_row = row_maker(BATCH_SCHEMA)

SIDECAR_SUFFIXES = ("bin", "yaml", "yml", "json")
SIDECAR = re.compile(r"^(?P<object>.+)\.metadata\.(?:bin|ya?ml|json)$")
DOCUMENT_SUFFIXES = (".json", ".yaml", ".yml")
_HEADER = 12  # a batch's offset and length fields: what a seed range's check reads past a short range
_INT32_MAX = (1 << 31) - 1


def parse_options(options: Mapping[str, str]) -> "InklessOptions":
    """The options of a read (`InklessOptions.parse`)."""
    return InklessOptions.parse(options)


def schema(options: "InklessOptions") -> pa.Schema:
    return {"batch": BATCH_SCHEMA, "validation": VALIDATION_SCHEMA}.get(options.rows, RECORD_SCHEMA)


# ---------------------------------------------------------------- options

@dataclass(frozen=True)
class S3Config:
    """How to reach S3-compatible storage; the secrets stay out of reprs and messages."""

    endpoint: str | None = None        # host:port
    scheme: str | None = None          # http or https
    region: str | None = None
    access_key: str | None = field(default=None, repr=False)
    secret_key: str | None = field(default=None, repr=False)
    session_token: str | None = field(default=None, repr=False)
    anonymous: bool = False


@dataclass(frozen=True)
class InklessOptions:
    """The options of `spark.read.format("logcodec.inkless")`, checked once on the driver:
    `rows` (`record`, `batch` or `validation`), `mode` (`permissive` or `failfast`), `splitBytes`, `metadata`
    (a file or directory of metadata documents, local or `s3://`, apart from the objects),
    `allowDeadBytes` and the `s3*` settings (see the module's docstring)."""

    path: str
    rows: str = "record"
    mode: str = "permissive"
    split_bytes: int = DEFAULT_SPLIT_BYTES
    metadata: str | None = None
    allow_dead_bytes: bool = False
    s3: S3Config = S3Config()

    MORE = ("metadata", "allowdeadbytes", "s3endpoint", "s3region", "s3accesskey", "s3secretkey", "s3sessiontoken",
            "s3anonymous")

    @classmethod
    def parse(cls, options: Mapping[str, str], environ: Mapping[str, str] | None = None) -> "InklessOptions":
        """From Spark's (case-insensitive, all-string) options; a bad value is a ValueError naming it.
        The S3 endpoint and region fall back to the environment (`environ`, default os.environ)."""
        env = os.environ if environ is None else environ
        opts, rows, mode = common_options(options, cls.MORE, ROW_KINDS,
                                          "use .load(PATH) with a directory, an object or s3://bucket/prefix")
        endpoint = opts.get("s3endpoint") or env.get("AWS_ENDPOINT_URL_S3") or env.get("AWS_ENDPOINT_URL")
        host = scheme = None
        if endpoint:
            parts = urlsplit(endpoint if "://" in endpoint else f"https://{endpoint}")
            if parts.scheme not in ("http", "https") or not parts.netloc:
                raise ValueError(f"option s3Endpoint={endpoint!r}: expected http(s)://host[:port]")
            host, scheme = parts.netloc, parts.scheme
        s3 = S3Config(endpoint=host, scheme=scheme,
                      region=opts.get("s3region") or env.get("AWS_REGION") or env.get("AWS_DEFAULT_REGION"),
                      access_key=opts.get("s3accesskey"), secret_key=opts.get("s3secretkey"),
                      session_token=opts.get("s3sessiontoken"), anonymous=_flag(opts, "s3anonymous"))
        if (s3.access_key is None) != (s3.secret_key is None):
            raise ValueError("options s3AccessKey and s3SecretKey go together")
        return cls(path=opts["path"], rows=rows, mode=mode,
                   split_bytes=positive_int(opts, "splitbytes", DEFAULT_SPLIT_BYTES),
                   metadata=opts.get("metadata") or None, allow_dead_bytes=_flag(opts, "allowdeadbytes"), s3=s3)

    @property
    def failfast(self) -> bool:
        return self.mode == "failfast"


def _flag(opts: dict, name: str) -> bool:
    raw = opts.get(name, "false").lower()
    if raw not in ("true", "false"):
        raise ValueError(f"option {name}={opts[name]!r}: expected true or false")
    return raw == "true"


# ---------------------------------------------------------------- storage

@functools.lru_cache(maxsize=8)
def _s3_filesystem(config: S3Config) -> pafs.FileSystem:
    try:
        from pyarrow.fs import S3FileSystem
    except ImportError:  # a pyarrow built without S3 (the PyPI wheels have it)
        raise RuntimeError("this pyarrow was built without S3 support: install the pyarrow wheel from PyPI") from None
    kwargs: dict = {"region": config.region} if config.region else {}
    if config.endpoint:
        kwargs.update(endpoint_override=config.endpoint, scheme=config.scheme)
    if config.anonymous:
        kwargs["anonymous"] = True
    elif config.access_key is not None:
        kwargs.update(access_key=config.access_key, secret_key=config.secret_key, session_token=config.session_token)
    return S3FileSystem(**kwargs)


def filesystem(location: str, s3: S3Config) -> tuple[pafs.FileSystem, str]:
    """The filesystem of a location and the path in it: `s3://bucket/key` (as `bucket/key`) or a
    local path (made absolute)."""
    if location.startswith("s3://"):
        return _s3_filesystem(s3), location[len("s3://"):].rstrip("/")
    local = location.removeprefix("file://")
    if "://" in local:
        raise ValueError(f"{location}: expected a local path or s3://bucket/prefix")
    return pafs.LocalFileSystem(), os.path.abspath(local)


def _location(fs: pafs.FileSystem, path: str) -> str:
    return f"s3://{path}" if fs.type_name == "s3" else path


@dataclass(frozen=True)
class Listed:
    location: str  # a local path or s3://bucket/key
    name: str      # its last component
    size: int


def list_files(location: str, s3: S3Config) -> list[Listed]:
    """The files at or under a location (recursively), by location; for the location of a file,
    the file and its sidecar metadata, if any."""
    fs, path = filesystem(location, s3)
    info = fs.get_file_info(path)
    if info.type == pafs.FileType.File:  # one object: with its sidecar, if there is one
        infos = [info] + [i for i in fs.get_file_info([f"{path}.metadata.{ext}" for ext in SIDECAR_SUFFIXES])
                          if i.type == pafs.FileType.File and not SIDECAR.match(info.base_name)]
    elif info.type == pafs.FileType.Directory:
        infos = [i for i in fs.get_file_info(pafs.FileSelector(path, recursive=True)) if i.type == pafs.FileType.File]
    else:
        raise FileNotFoundError(f"no such file, directory or prefix: {location}")
    return sorted((Listed(_location(fs, i.path), i.base_name, i.size) for i in infos), key=lambda f: f.location)


def read_bytes(location: str, s3: S3Config, start: int = 0, end: int | None = None) -> bytes:
    """Bytes [start, end) of a file (to its end when `end` is None): one ranged read."""
    fs, path = filesystem(location, s3)
    with fs.open_input_file(path) as f:
        size = f.size()
        stop = size if end is None else min(end, size)
        return f.read_at(max(stop - start, 0), start) if stop > start else b""


# ---------------------------------------------------------------- the plan

@dataclass(frozen=True)
class Problem:
    """An error row found while planning: the error (kind, offset, path, detail) and what is
    known of where it lies."""

    error: tuple
    batch_offset: int | None = None
    topic: str | None = None
    topic_id: bytes | None = None
    partition: int | None = None
    entry: str | None = None


@dataclass(frozen=True)
class ObjectRange:
    """What one task reads of one object: the metadata entries `extents` (in byte order), whose
    bytes lie in [start, end) of the object (`object_size` bytes in all), and the `problems` found
    while planning, reported first. `file` is None for a problem with no object (metadata that
    names none)."""

    file: str | None
    metadata: str | None
    start: int = 0
    end: int = 0
    object_size: int = 0
    extents: tuple = ()
    problems: tuple = ()

    @property
    def size(self) -> int:
        """Bytes read, for `plan.pack`."""
        return self.end - self.start


def plan(options: InklessOptions) -> list[list[ObjectRange]]:
    """The input partitions of a read: each object with its metadata (large objects cut between
    metadata entries), and a range of error rows for each object or metadata that cannot be paired."""
    documents = list_files(options.metadata, options.s3) if options.metadata else []
    apart = {f.location for f in documents}
    listed = [f for f in list_files(options.path, options.s3) if f.location not in apart]
    sidecars = [f for f in listed if SIDECAR.match(f.name)]
    documents += [f for f in listed if f.name.lower().endswith(DOCUMENT_SUFFIXES) and not SIDECAR.match(f.name)]
    metadata_files = {f.location for f in sidecars} | {f.location for f in documents}
    objects = {f.location: f for f in listed if f.location not in metadata_files}
    raw = _read_all([f.location for f in sidecars + documents], options.s3)
    paired: dict[str, Loaded | None] = {}  # object location -> its metadata (None: it did not load)
    problems: list[ObjectRange] = []

    for f in sidecars:
        name = SIDECAR.match(f.name).group("object")
        target = f.location[: len(f.location) - len(f.name)] + name
        if target not in objects:
            problems.append(ObjectRange(None, f.location, problems=(Problem(_error(
                "invalid_value", None, "metadata", f"the sidecar of {name!r}, which is not there")),)))
            continue
        try:
            paired[target] = Loaded(f.location, load_metadata(raw[f.location]))
        except DecodeError as exc:
            problems.append(ObjectRange(target, f.location, object_size=objects[target].size,
                                        problems=(Problem(_error_of(exc)),)))
            paired[target] = None

    suffixes = _suffix_index(objects)
    for f in documents:
        try:
            loaded = load_documents(f.location, raw[f.location])
        except DecodeError as exc:
            problems.append(ObjectRange(None, f.location, problems=(Problem(_error_of(exc)),)))
            continue
        for item in loaded:
            if isinstance(item, DecodeError):
                problems.append(ObjectRange(None, f.location, problems=(Problem(_error_of(item)),)))
                continue
            key = item.object_key
            found = suffixes.get(key.removeprefix("s3://").strip("/"), []) if key else []
            if len(found) == 1 and found[0] not in paired:
                paired[found[0]] = item
                continue
            detail = ("names no object (its key is empty)" if not key else
                      f"object key {key!r} names no object under {options.path}" if not found else
                      f"object key {key!r} names {len(found)} objects: {', '.join(found)}" if len(found) > 1 else
                      f"{found[0]} already has its metadata in "
                      f"{paired[found[0]].location if paired[found[0]] else 'a sidecar'}; this is left unread")
            problems.append(ObjectRange(found[0] if len(found) == 1 else None, f.location, problems=(Problem(_error(
                "invalid_value", None, item.key_path, detail)),)))

    units = []
    for location, obj in objects.items():
        if location not in paired:
            units.append(ObjectRange(location, None, object_size=obj.size, problems=(Problem(_error(
                "invalid_value", None, "metadata", "no metadata for this object: expected a sidecar "
                f"{obj.name}.metadata.bin|yaml|json or a document naming its key")),)))
        elif paired[location] is not None:
            units += object_ranges(location, obj.size, paired[location], options)
    return pack(problems + units, options.split_bytes)


def byte_layout(options: InklessOptions) -> dict[str, dict[str, int]]:
    """How each object's bytes divide by its metadata alone, for the validation job's accounting
    (`validate.summarize`): {object: {"size", "dead", "overlap", "past_end"}}. `dead`: bytes no
    entry covers; `overlap`: bytes covered more than once, counted once for each entry after the
    first; `past_end`: bytes entries claim beyond the object's end. The rows of a validation read
    give every entry's bytes as valid or quarantined, so that size = valid + quarantined + dead -
    overlap - past_end. An entry too large for the `size` column (its row has none) counts as dead."""
    sizes: dict[str, int] = {}
    claimed: dict[str, list[Extent]] = {}
    for partition in plan(options):
        for r in partition:
            if r.file is None:
                continue  # metadata that names no object
            sizes[r.file] = max(sizes.get(r.file, 0), r.object_size)
            claimed.setdefault(r.file, []).extend(e for e in r.extents if e.size <= _INT32_MAX)
    return {file: _divide(size, claimed[file]) for file, size in sizes.items()}


def _divide(size: int, extents: list[Extent]) -> dict[str, int]:
    dead = sum(end - start for start, end in uncovered_ranges(size, extents))  # the validator's dead bytes
    within = sum(min(e.end, size) - min(e.start, size) for e in extents)
    return {"size": size, "dead": dead, "overlap": within - (size - dead),
            "past_end": sum(e.size for e in extents) - within}


def _read_all(locations: list[str], s3: S3Config) -> dict[str, bytes]:
    """The bytes of each metadata file, read a few at a time (from object storage, each read is a
    round trip)."""
    if len(locations) < 2:
        return {loc: read_bytes(loc, s3) for loc in locations}
    with ThreadPoolExecutor(max_workers=min(16, len(locations))) as pool:
        return dict(zip(locations, pool.map(lambda loc: read_bytes(loc, s3), locations)))


def object_ranges(location: str, size: int, loaded: "Loaded", options: InklessOptions) -> list[ObjectRange]:
    """The ranges of one object: its metadata entries in byte order, cut into pieces of about
    `splitBytes`; the first carries the object-wide problems."""
    extents = loaded.extents()
    problems = tuple(_problem(f, extents) for f in object_findings(size, loaded, extents, options.allow_dead_bytes))
    groups: list[list[Extent]] = [[]]
    first = furthest = 0  # of the group being filled: its first start (they come in order), its furthest end
    for ext in sorted(extents, key=lambda e: e.start):
        if groups[-1] and min(furthest, size) - min(first, size) >= options.split_bytes:
            groups.append([])
        first, furthest = (first, max(furthest, ext.end)) if groups[-1] else (ext.start, ext.end)
        groups[-1].append(ext)
    ranges = []
    for i, group in enumerate(groups):
        start = min(min((e.start for e in group), default=0), size)
        end = min(max((e.end + _HEADER for e in group), default=0), size)  # a seed check reads a header past a short range
        ranges.append(ObjectRange(location, loaded.location, start, max(start, end), size, tuple(group),
                                  problems if i == 0 else ()))
    return ranges


def object_findings(size: int, loaded: "Loaded", extents: list[Extent], allow_dead_bytes: bool) -> list[DecodeError]:
    """What `validate` reports of an object that needs only its size and its metadata, not its
    bytes: a shipped `files` row that disagrees (size, file_id), a partition's rows out of offset
    order, overlapping ranges, and (unless allowed) dead bytes."""
    findings = []
    if isinstance(loaded.metadata, ShippedMetadata):
        file_findings = object_file_findings(_Sized(size), loaded.metadata)
        for f in file_findings:
            f.path = loaded.place(f.path)
        findings += file_findings + partition_order_findings(extents)
    findings += overlap_findings(extents)
    if not allow_dead_bytes:
        findings += [DecodeError("trailing_bytes", f"bytes [{start}, {end}) ({end - start}) are covered by no "
                                 "metadata entry (dead bytes)", start, "object")
                     for start, end in uncovered_ranges(size, extents)]
    findings.sort(key=lambda f: -1 if f.offset is None else f.offset)
    return findings


class _Sized:
    """Stands for an object's bytes where only their number is used."""

    def __init__(self, size: int) -> None:
        self._size = size

    def __len__(self) -> int:
        return self._size


def _problem(finding: DecodeError, extents: list[Extent]) -> Problem:
    """An object-wide finding as a row, with the entry it names when it names one."""
    entry = next((e for e in extents if finding.path == e.path or finding.path.startswith(e.path + ".")), None)
    if entry is None:
        return Problem(_error_of(finding), finding.offset)
    return Problem(_error_of(finding), finding.offset, entry.topic, entry.topic_id, entry.partition, entry.path)


def _suffix_index(objects: Mapping[str, Listed]) -> dict[str, list[str]]:
    """Every trailing run of path components of each object's location -> the objects it ends."""
    index: dict[str, list[str]] = {}
    for location in objects:
        parts = location.removeprefix("s3://").strip("/").split("/")
        for i in range(len(parts)):
            index.setdefault("/".join(parts[i:]), []).append(location)
    return index


# ---------------------------------------------------------------- metadata documents

@dataclass
class Loaded:
    """The metadata of one object, from the file at `location`. Metadata split out of a shipped
    export of many files keeps the places of its rows in the export: `file_index` and
    `batch_indexes`, so that problems name `files[j]` and `batches[k]` as they are there."""

    location: str
    metadata: object
    key_path: str = "block_header.path"
    file_index: int | None = None
    batch_indexes: tuple = ()

    @property
    def object_key(self) -> str | None:
        if isinstance(self.metadata, ShippedMetadata):
            return self.metadata.file.object_key
        return self.metadata.block_header.path or None

    def place(self, path: str) -> str:
        """A path in the metadata value as a path in the file."""
        return path if self.file_index is None else _remap(path, self.file_index, self.batch_indexes)

    def extents(self) -> list[Extent]:
        extents = metadata_extents(self.metadata)
        return extents if self.file_index is None else [replace(e, path=self.place(e.path)) for e in extents]


def load_documents(location: str, raw: bytes) -> list["Loaded | DecodeError"]:
    """The metadata in a document that names its object(s): one value for the seed's forms and a
    one-file shipped document; for a shipped export with many `files` rows, one per file row with
    the `batches` rows of its `file_id` (a problem of one file's rows is that file's alone, and a
    batch row of no file is a problem of its own). A document that does not load raises."""
    if bytes_form(raw) != SHIPPED:
        return [Loaded(location, load_metadata(raw))]
    doc = document_from_json(raw.decode("utf-8"), root=SHIPPED_ROOT)
    files = doc.get("files") if isinstance(doc, dict) else None
    batches = doc.get("batches") if isinstance(doc, dict) else None
    if not (isinstance(files, list) and len(files) > 1 and isinstance(batches, list)
            and set(doc) == {"files", "batches"}):
        return [Loaded(location, shipped_from_document(doc), "files[0].object_key")]
    ids = [row.get("file_id") if isinstance(row, dict) else None for row in files]
    out: list[Loaded | DecodeError] = []
    for j, row in enumerate(files):
        if ids.count(ids[j]) > 1:
            out.append(DecodeError("invalid_value", f"file_id {ids[j]!r} is in {ids.count(ids[j])} files rows",
                                   None, f"files[{j}].file_id"))
            continue
        mine = tuple(k for k, b in enumerate(batches) if isinstance(b, dict) and b.get("file_id") == ids[j])
        try:
            metadata = shipped_from_document({"files": [row], "batches": [batches[k] for k in mine]})
        except DecodeError as exc:
            out.append(DecodeError(exc.kind, exc.detail, exc.offset, _remap(exc.path, j, mine)))
            continue
        out.append(Loaded(location, metadata, f"files[{j}].object_key", j, mine))
    for k, b in enumerate(batches):
        if not isinstance(b, dict) or b.get("file_id") not in ids:
            out.append(DecodeError("invalid_value", f"file_id {b.get('file_id') if isinstance(b, dict) else None!r} "
                                   "is in no files row", None, f"batches[{k}].file_id"))
    return out


def _remap(path: str, file_index: int, batch_indexes: tuple) -> str:
    """A path in a one-file document split from an export, as a path in the export."""
    path = re.sub(r"^files\[0\]", f"files[{file_index}]", path)
    return re.sub(r"^batches\[(\d+)\]", lambda m: f"batches[{batch_indexes[int(m.group(1))]}]", path)


# ---------------------------------------------------------------- reading (tasks)

def read(ranges: list[ObjectRange], options: InklessOptions) -> Iterator[pa.RecordBatch]:
    """The Arrow batches of one input partition."""
    if options.rows == "validation":
        rows = (row for r in ranges for row in validation_rows(r, options))
    else:
        rows = (row for r in ranges for row in range_rows(r, options, options.rows == "batch"))
    return record_batches(rows, schema(options))


class _Window:
    """The bytes [start, end) of an object of `size` bytes, indexed as the whole object: what the
    per-entry checks slice stays within the ranges the task read."""

    def __init__(self, data: bytes, start: int, size: int) -> None:
        self.data, self.start, self.size = data, start, size

    def __len__(self) -> int:
        return self.size

    def __getitem__(self, item):
        if not isinstance(item, slice) or item.step is not None:
            raise TypeError("an object window is sliced, not indexed")
        lo, hi = max(item.start or 0, 0), min(self.size if item.stop is None else item.stop, self.size)
        if hi <= lo:
            return b""
        if lo < self.start or hi > self.start + len(self.data):
            raise IndexError(f"bytes [{lo}, {hi}) are outside the range read, [{self.start}, "
                             f"{self.start + len(self.data)})")
        return self.data[lo - self.start:hi - self.start]


def range_rows(r: ObjectRange, options: InklessOptions, batch_rows: bool = False) -> Iterator[tuple | list]:
    """The rows (RECORD_SCHEMA, or BATCH_SCHEMA with `batch_rows`) of one range, as
    `tables.record_batches` takes them (a batch's records as columns): its problems, then each
    metadata entry's records or batches, or its error rows."""
    row = batch_row if batch_rows else record_row
    for p in r.problems:
        yield _error_row(row, r, p.error, p.batch_offset, p.topic, p.topic_id, p.partition, p.entry,
                         options.failfast)
    for ext, window, findings, found in _checked_extents(r, options, tuples=True):
        if findings:
            stored = window[ext.start:ext.end] if ext.end <= r.object_size else None
            for f in findings:
                yield _error_row(row, r, _error_of(f), ext.start, ext.topic, ext.topic_id, ext.partition, ext.path,
                                 options.failfast, size=ext.size, crc_valid=entry_crc_valid(stored))
            continue
        running = None if ext.row is None else ext.row.base_offset
        for pos, size, batch in found:
            stored = window[pos:pos + size]
            served_bytes(stored, batch, running, ext.row)  # patches `batch` as Inkless serves it
            if running is not None:
                running += batch.last_offset_delta + 1
            if batch_rows:
                yield _batch_row(r, ext, pos, size, batch, stored)
            else:
                yield _record_columns(r, ext, pos, batch)


def _checked_extents(r: ObjectRange, options: InklessOptions, tuples: bool = False) -> Iterator[tuple]:
    """(entry, the range's bytes, findings, batches) for each metadata entry of a range, as
    `check_extent` finds them (records as tuples with `tuples`: rows take them as columns), with
    one ranged read for the whole range."""
    if not r.extents:
        return
    window = _Window(read_bytes(r.file, options.s3, r.start, r.end), r.start, r.object_size)
    for ext in r.extents:
        findings, found = check_extent(window, ext, tuples)
        yield ext, window, findings, found


def _record_columns(r: ObjectRange, ext: Extent, pos: int, batch) -> list[list]:
    """RECORD_SCHEMA columns of the records of a batch, as `tables.record_batches` takes them."""
    return record_run(len(batch.records), **v2_record_columns(batch, delta_columns(batch)), topic=ext.topic,
                      topic_id=uuid_text(ext.topic_id), partition=ext.partition, file=r.file, batch_offset=pos,
                      metadata=r.metadata, **v2_batch_fields(batch))


def _batch_row(r: ObjectRange, ext: Extent, pos: int, size: int, batch, stored: bytes) -> tuple:
    return batch_row(topic=ext.topic, topic_id=uuid_text(ext.topic_id), partition=ext.partition, file=r.file,
                     batch_offset=pos, size=size, crc_valid=entry_crc_valid(stored), metadata=r.metadata,
                     entry=ext.path, **v2_batch_columns(batch))


def _error_row(row, r: ObjectRange, error: tuple, batch_offset, topic, topic_id, partition, entry,
               failfast: bool, **more) -> tuple:
    """An error row made by `row` (`record_row` or `batch_row`); `entry` and `more` (size, crc_valid)
    are a batch row's columns only."""
    if failfast:
        _fail(r, error)
    if row is batch_row:
        if "size" in more and (more["size"] is None or more["size"] > _INT32_MAX):
            more["size"] = None
        more["entry"] = entry
    else:
        more = {}
    return row(topic=topic, topic_id=None if topic_id is None else uuid_text(topic_id), partition=partition,
               file=r.file, batch_offset=batch_offset, metadata=r.metadata, error=error, **more)


def _fail(r: ObjectRange, error: tuple) -> None:
    """Raise an error row's error (`mode=failfast`), naming the object (or the metadata)."""
    kind, offset, path, detail = error
    raise DecodeError(kind, f"{r.file or r.metadata}: {detail}", offset, path)


# ---------------------------------------------------------------- validation (tasks)

def validation_rows(r: ObjectRange, options: InklessOptions) -> Iterator[tuple]:
    """VALIDATION_SCHEMA rows of one range, for the validation job.

    - A metadata entry whose range the object contradicts (past its end, not whole batches, a bad
      CRC, a record count or offsets its batches disagree with) is one quarantined row: its error
      is the entry's first finding, and any further findings of the same entry are findings
      rows (status null), so that each entry read counts once.
    - Each batch of an entry that checks out is re-encoded and compared with its stored bytes
      (`roundtrip.compare`, before any patching for serving): valid or quarantined.
    - What concerns no single entry's bytes (metadata that does not load or names no object, an
      object without metadata, overlapping ranges, dead bytes, a `files` row or offset order that
      disagrees) is a findings row: `entry` = metadata, status null. It is no batch: the job
      counts it apart, as TANK's index findings.

    With `mode=failfast`, the first problem or finding raises instead (as the other row kinds)."""
    if options.failfast and r.problems:
        _fail(r, r.problems[0].error)
    for p in r.problems:
        yield _validation_row(r, p.batch_offset, None, "metadata", None, p.error, p.topic, p.topic_id, p.partition,
                              p.entry)
    for ext, window, findings, found in _checked_extents(r, options):
        where = (ext.topic, ext.topic_id, ext.partition, ext.path)
        if findings and options.failfast:
            _fail(r, _error_of(findings[0]))
        if findings:
            stored = window[ext.start:ext.end] if ext.end <= r.object_size else None
            size = ext.size if ext.size <= _INT32_MAX else None
            yield _validation_row(r, ext.start, size, "record_batch", "quarantined", _error_of(findings[0]), *where,
                                  codec=entry_codec(stored, entry_magic(stored)))
            for f in findings[1:]:
                yield _validation_row(r, ext.start, size, "metadata", None, _error_of(f), *where)
            continue
        for pos, size, batch in found:
            codec_name = _rb.Compression(batch.attributes.compression).name
            outcome = compare(window[pos:pos + size], batch, encode=_rb.encode, decode=_rb.decode,
                              compressed=codec_name != "none", base=pos, codec=codec_name,
                              light=without_length_and_crc)
            status, error = ("valid", (None,) * 4) if outcome.error is None else ("quarantined", outcome.error)
            yield _validation_row(r, pos, size, "record_batch", status, error, *where, record_count=len(batch.records),
                                  codec=codec_name, reencode=outcome.reencode)


def _validation_row(r: ObjectRange, offset, size, entry, status, error: tuple, topic, topic_id, partition,
                    metadata_entry, **more) -> tuple:
    return validation_row(format="inkless", topic=topic, partition=partition, file=r.file or r.metadata,
                          offset=offset, size=size, entry=entry, status=status, **error_columns(error),
                          topic_id=None if topic_id is None else uuid_text(topic_id), metadata=r.metadata,
                          metadata_entry=metadata_entry, **more)


def _error(kind: str, offset: int | None, path: str, detail: str) -> tuple:
    return (kind, offset, path, detail)


def _error_of(exc: DecodeError) -> tuple:
    return (exc.kind, exc.offset, exc.path, exc.detail)


__all__ = ["ROW_KINDS", "RECORD_SCHEMA", "BATCH_SCHEMA", "InklessOptions", "S3Config", "ObjectRange", "plan", "read",
           "range_rows", "validation_rows", "list_files", "load_documents", "object_findings"]
