"""Inkless as shipped: the metadata of one object as rows of Inkless's `files` and `batches` tables.

Inkless keeps block metadata in PostgreSQL, not in the seed's per-block document: one `files`
row per object and one `batches` row per accepted batch, or per run of batches when it coalesces
them (see below). `ShippedMetadata` holds the rows of one object: its `FileRow` and the
`BatchRow`s that point into it. Its text form is one JSON document with an array per table,
each row an object whose keys are the table's columns, in the tables' order::

    {"files": [{"file_id": 1, "object_key": "inkless/DJ1_PlobTC2OT2p7jJ0OHw", "format": 1,
                "reason": "produce", "state": "uploaded", "uploader_broker_id": 3,
                "committed_at": "2023-11-14T22:13:20.250+00:00", "marked_for_deletion_at": null,
                "size": 214}],
     "batches": [{"batch_id": 1, "magic": 2, "topic_id": "f0e1d2c3-b4a5-4697-8879-6a5b4c3d2e1f",
                  "partition": 0, "base_offset": 100, "last_offset": 104, "file_id": 1,
                  "byte_offset": 0, "byte_size": 214, "timestamp_type": 0,
                  "log_append_timestamp": 1700000000250, "batch_max_timestamp": 1700000000100}]}

Why one document and not JSON Lines: the metadata of an object is one unit (a reader and a
validator need the file row and all its batch rows together), two tables would need a table tag
on every line, and `{"files": [...], "batches": [...]}` is what `row_to_json` of the two tables
gives, so rows exported from an Inkless database need no reshaping. `files` holds exactly one row:
the object the batches point into.

Columns keep PostgreSQL's types: integers as JSON numbers (a `bigint` offset is exact in JSON; a
reader that uses doubles rounds above 2^53), the `uuid` topic id as 8-4-4-4-12 lowercase hex, the
two `timestamp with time zone` columns as ISO 8601 text with an offset (`null` when unset; a value
holds them as aware `datetime`s), `reason` and `state` as their enum labels. `base_offset` and
`last_offset` are absolute (assigned at commit); `log_append_timestamp` is the commit time in
milliseconds, which a reader puts into batches of log-append-time topics.

Coalesced rows: adjacent accepted batches of one partition with the same magic and timestamp type
may share one row (`commit_file_v2`), whose byte range holds those batches end to end and whose
offsets [base_offset, last_offset] they must exactly fill (each batch takes `last_offset_delta + 1`
offsets, as Inkless's `FetchCompleter` relocates them). `logcodec.inkless.blocks.validate` checks
that against the object.

A document is read strictly, like the seed's: every column once and nothing else, each value of its
column's type and range. A bad document raises `DecodeError` (`invalid_value`) whose path names the
place, e.g. `batches[3].topic_id` (`metadata` for the document as a whole).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone

from logcodec.runtime.errors import DecodeError, EncodeError

from ._reading import S32, S64, bad, checked_int, kind_of
from .document import document_from_json, document_to_json, uuid_from_text, uuid_text

#: `files.format` of every object a broker uploads: a write-ahead, multi-segment file.
FORMAT_WRITE_AHEAD_MULTI_SEGMENT = 1
#: Labels of `files.reason` and `files.state` (PostgreSQL enums).
REASONS = ("produce", "merge")
STATES = ("uploaded", "deleting")
#: `batches.timestamp_type`: Kafka's `TimestampType` ids (-1 none, 0 create time, 1 log-append time).
NO_TIMESTAMP_TYPE, CREATE_TIME, LOG_APPEND_TIME = -1, 0, 1
#: The only record batch magic Inkless stores.
MAGIC_V2 = 2

#: Columns of each table, in the order the JSON form writes them.
FILE_COLUMNS = ("file_id", "object_key", "format", "reason", "state", "uploader_broker_id", "committed_at",
                "marked_for_deletion_at", "size")
BATCH_COLUMNS = ("batch_id", "magic", "topic_id", "partition", "base_offset", "last_offset", "file_id",
                 "byte_offset", "byte_size", "timestamp_type", "log_append_timestamp", "batch_max_timestamp")

_OBJECT_KEY_MAX = 1024  # object_key_t is VARCHAR(1024)
SHIPPED_ROOT = "metadata"  # the path an error about the whole document names (rows are `files[0]`, `batches[3]`)
_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)


@dataclass(kw_only=True, slots=True)
class FileRow:
    """A row of `files`: one object in storage."""

    file_id: int
    object_key: str
    format: int = FORMAT_WRITE_AHEAD_MULTI_SEGMENT
    reason: str = "produce"
    state: str = "uploaded"
    uploader_broker_id: int
    committed_at: datetime | None
    marked_for_deletion_at: datetime | None = None
    size: int


@dataclass(kw_only=True, slots=True)
class BatchRow:
    """A row of `batches`: where one batch, or a coalesced run of them, lies in an object, and
    the absolute offsets it holds."""

    batch_id: int
    magic: int = MAGIC_V2
    topic_id: bytes  # 16 bytes, most significant first
    partition: int
    base_offset: int
    last_offset: int
    file_id: int
    byte_offset: int
    byte_size: int
    timestamp_type: int = CREATE_TIME
    log_append_timestamp: int
    batch_max_timestamp: int

    @property
    def offset_count(self) -> int:
        """How many offsets the row says its batches fill."""
        return self.last_offset - self.base_offset + 1


@dataclass(slots=True)
class ShippedMetadata:
    """The shipped metadata of one object: its `files` row and the `batches` rows that point
    into it (in the order written: by topic id and partition, then offset)."""

    file: FileRow
    batches: list[BatchRow] = field(default_factory=list)


# ---------------------------------------------------------------- timestamps

def datetime_from_ms(ms: int) -> datetime:
    """The UTC `datetime` of milliseconds since the Unix epoch (exact: no float on the way)."""
    return _EPOCH + timedelta(milliseconds=ms)


def ms_from_datetime(moment: datetime) -> int:
    """Milliseconds since the Unix epoch of an aware `datetime`, rounded down, as Inkless turns
    `committed_at` into `log_append_timestamp`."""
    return (moment - _EPOCH) // timedelta(milliseconds=1)


def timestamp_text(moment: datetime) -> str:
    """ISO 8601 text of an aware `datetime` in UTC: milliseconds, or microseconds when it has them
    (PostgreSQL keeps microseconds)."""
    utc = moment.astimezone(timezone.utc)
    return utc.isoformat(timespec="milliseconds" if utc.microsecond % 1000 == 0 else "microseconds")


def _timestamp(v, path: str) -> datetime | None:
    if v is None:
        return None
    if not isinstance(v, str):
        bad(path, f"must be ISO 8601 text or null, not {kind_of(v)} ({v!r})")
    try:
        moment = datetime.fromisoformat(v)
    except ValueError:
        bad(path, f"{v!r} is not an ISO 8601 date and time")
    if moment.tzinfo is None:
        bad(path, f"{v!r} has no UTC offset (the column is a timestamp with time zone)")
    return moment.astimezone(timezone.utc)


# ---------------------------------------------------------------- rows -> document

def _file_to_json(row: FileRow) -> dict:
    return {
        "file_id": row.file_id, "object_key": row.object_key, "format": row.format, "reason": row.reason,
        "state": row.state, "uploader_broker_id": row.uploader_broker_id,
        "committed_at": _timestamp_or_none(row.committed_at, "files[0].committed_at"),
        "marked_for_deletion_at": _timestamp_or_none(row.marked_for_deletion_at, "files[0].marked_for_deletion_at"),
        "size": row.size,
    }


def _timestamp_or_none(moment, path: str):
    if moment is None:
        return None
    if not isinstance(moment, datetime) or moment.tzinfo is None:
        raise EncodeError("invalid_value", f"must be an aware datetime or None, not {moment!r}", None, path)
    return timestamp_text(moment)


def _batch_to_json(row: BatchRow, i: int) -> dict:
    out = {}
    for name in BATCH_COLUMNS:
        out[name] = getattr(row, name)
    try:
        out["topic_id"] = uuid_text(row.topic_id)
    except EncodeError as exc:
        exc.path = f"batches[{i}].topic_id"
        raise
    return out


def shipped_to_document(meta: ShippedMetadata) -> dict:
    """The JSON-ready document (`{"files": [...], "batches": [...]}`) of shipped metadata. Rows
    that break a column's type or range raise `EncodeError` naming the place, as the strict reader
    would refuse what is written."""
    doc = {"files": [_file_to_json(meta.file)], "batches": [_batch_to_json(b, i) for i, b in enumerate(meta.batches)]}
    try:
        shipped_from_document(doc)
    except DecodeError as exc:
        raise EncodeError(exc.kind, exc.detail, exc.offset, exc.path) from None
    return doc


# ---------------------------------------------------------------- document -> rows

def _columns(v, path: str, columns: tuple[str, ...]) -> dict:
    """A row object with exactly `columns` (in any order, as JSON objects are unordered)."""
    if not isinstance(v, dict):
        bad(path, f"must be an object with the keys {', '.join(columns)}, not {kind_of(v)}")
    extra = [k for k in v if k not in columns]
    if extra:
        bad(_join(path, str(extra[0])), f"unknown key {extra[0]!r} (expected {', '.join(columns)})")
    missing = [k for k in columns if k not in v]
    if missing:
        bad(path or missing[0], f"missing {', '.join(map(repr, missing))}")
    return v


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _label(v, path: str, labels: tuple[str, ...]) -> str:
    if not isinstance(v, str) or v not in labels:
        bad(path, f"must be one of {', '.join(map(repr, labels))}, not {v!r}")
    return v


def _object_key(v, path: str) -> str:
    if not isinstance(v, str) or not v:
        bad(path, f"must be non-empty text, not {kind_of(v)} ({v!r})")
    if len(v) > _OBJECT_KEY_MAX:
        bad(path, f"has {len(v)} characters, more than the {_OBJECT_KEY_MAX} of the column")
    return v


def _file_row(v, path: str) -> FileRow:
    row = _columns(v, path, FILE_COLUMNS)
    file_format = checked_int(row["format"], f"{path}.format", -(1 << 15), (1 << 15) - 1)
    if file_format != FORMAT_WRITE_AHEAD_MULTI_SEGMENT:
        bad(f"{path}.format", f"format {file_format} is not one logcodec reads (only "
             f"{FORMAT_WRITE_AHEAD_MULTI_SEGMENT}, write-ahead multi-segment)")
    return FileRow(
        file_id=checked_int(row["file_id"], f"{path}.file_id", 0, S64[1]),
        object_key=_object_key(row["object_key"], f"{path}.object_key"),
        format=file_format,
        reason=_label(row["reason"], f"{path}.reason", REASONS),
        state=_label(row["state"], f"{path}.state", STATES),
        uploader_broker_id=checked_int(row["uploader_broker_id"], f"{path}.uploader_broker_id", *S32),
        committed_at=_timestamp(row["committed_at"], f"{path}.committed_at"),
        marked_for_deletion_at=_timestamp(row["marked_for_deletion_at"], f"{path}.marked_for_deletion_at"),
        size=checked_int(row["size"], f"{path}.size", 0, S64[1]),
    )


def _batch_row(v, path: str) -> BatchRow:
    row = _columns(v, path, BATCH_COLUMNS)
    offsets = (0, S64[1])
    timestamps = (-1, S64[1])  # timestamp_t: -1 is Kafka's "no timestamp"
    return BatchRow(
        batch_id=checked_int(row["batch_id"], f"{path}.batch_id", 0, S64[1]),
        magic=checked_int(row["magic"], f"{path}.magic", 0, 127),
        topic_id=uuid_from_text(row["topic_id"], f"{path}.topic_id"),
        partition=checked_int(row["partition"], f"{path}.partition", 0, S32[1]),
        base_offset=checked_int(row["base_offset"], f"{path}.base_offset", *offsets),
        last_offset=checked_int(row["last_offset"], f"{path}.last_offset", *offsets),
        file_id=checked_int(row["file_id"], f"{path}.file_id", 0, S64[1]),
        byte_offset=checked_int(row["byte_offset"], f"{path}.byte_offset", 0, S64[1]),
        byte_size=checked_int(row["byte_size"], f"{path}.byte_size", 0, S64[1]),
        timestamp_type=checked_int(row["timestamp_type"], f"{path}.timestamp_type", NO_TIMESTAMP_TYPE, LOG_APPEND_TIME),
        log_append_timestamp=checked_int(row["log_append_timestamp"], f"{path}.log_append_timestamp", *timestamps),
        batch_max_timestamp=checked_int(row["batch_max_timestamp"], f"{path}.batch_max_timestamp", *timestamps),
    )


def shipped_from_document(doc) -> ShippedMetadata:
    """The shipped metadata of a document (as `shipped_to_document` writes it, or parsed from
    JSON). A document that breaks the form raises `DecodeError` (`invalid_value`) naming the place."""
    if not isinstance(doc, dict):
        bad(SHIPPED_ROOT, f"must be an object with \"files\" and \"batches\", not {kind_of(doc)}")
    _columns(doc, "", ("files", "batches"))
    files, batches = doc["files"], doc["batches"]
    if not isinstance(files, list) or len(files) != 1:
        bad("files", "must be a list of exactly one row: the object the batches point into, not "
             + (f"{len(files)} rows" if isinstance(files, list) else kind_of(files)))
    if not isinstance(batches, list):
        bad("batches", f"must be a list of rows, not {kind_of(batches)}")
    return ShippedMetadata(_file_row(files[0], "files[0]"),
                           [_batch_row(row, f"batches[{i}]") for i, row in enumerate(batches)])


# ---------------------------------------------------------------- JSON text

def dump_shipped_json(meta: ShippedMetadata, indent: int | None = 2) -> str:
    """JSON text of shipped metadata."""
    return document_to_json(shipped_to_document(meta), indent)


def load_shipped_json(text) -> ShippedMetadata:
    """The shipped metadata of JSON text (a key twice in one object is an error, as for the seed's
    document form)."""
    return shipped_from_document(document_from_json(text, root=SHIPPED_ROOT))


__all__ = [
    "FileRow", "BatchRow", "ShippedMetadata",
    "FORMAT_WRITE_AHEAD_MULTI_SEGMENT", "REASONS", "STATES", "NO_TIMESTAMP_TYPE", "CREATE_TIME", "LOG_APPEND_TIME",
    "MAGIC_V2", "FILE_COLUMNS", "BATCH_COLUMNS", "SHIPPED_ROOT",
    "shipped_to_document", "shipped_from_document", "dump_shipped_json", "load_shipped_json",
    "datetime_from_ms", "ms_from_datetime", "timestamp_text",
]
