"""Inkless's metadata read straight from its control plane: the PostgreSQL database whose `logs`,
`files` and `batches` tables an Inkless cluster's brokers write (through `commit_file_v2`) and read
(through `find_batches_v2`).

What this module takes from Inkless's schema are facts, checked when it connects (`SCHEMA`): the
tables and columns it reads and the type each has under its domains; the function a fetch calls
(`FIND_BATCHES`). A database that lacks one (not a control plane, or one at another migration
level) is refused with an error naming what is missing and, when Flyway's history is there, the
database's migration level.

The reader only reads. Its session is read-only (`SET SESSION CHARACTERISTICS AS TRANSACTION READ
ONLY`, and every transaction begins READ ONLY), each statement has a timeout, and rows come in
pages (keyset pages of `files` by `file_id`, with the `batches` rows of each page), so that no
process holds every row of a large control plane.

- `ControlPlane(url)`: the connection, `files(...)` (each object's rows as `StoredFile`: the
  shipped form's `ShippedMetadata` and the row ids), `topic_ids(name)`, `log(...)`,
  `find_batches(...)` (one call of the broker's fetch function) and the checks that need no object
  bytes (`control_plane_findings`: a `logs` high watermark the batches disagree with, a partition's
  offsets with a gap or overlapping across objects, a file marked `deleting` whose batches remain).
- `validate(url, store, ...)`: every disagreement between storage and control plane, as `Finding`s
  that name the object, the row (`files[file_id=7]`, `batches[batch_id=42].byte_size`,
  `logs[topic_id=..., partition=0].high_watermark`) and the byte range.
- `read_batches` / `read_records`: one partition read the way a broker's fetch reads it, through
  `find_batches_v2`, from the log start offset (or a given offset) to the high watermark.

psycopg 3 is imported when a connection is made (the `postgres` extra); without it,
`ControlPlaneError` says what to install. Every failure of the database (refused connection,
wrong password, a missing table or column, a query past its timeout) is one `ControlPlaneError`,
whose `usage` says whether it is the caller's (a bad URL, not a control plane) or the data's.
"""

from __future__ import annotations

import contextlib
import re
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Self

from logcodec.kafka.records import Record, batch_records
from logcodec.runtime.errors import DecodeError

from .blocks import Extent, check_extent, served_bytes
from .blocks import validate as validate_object
from .document import uuid_from_either_text
from .shipped import (
    BATCH_COLUMNS,
    FILE_COLUMNS,
    BatchRow,
    ShippedMetadata,
    shipped_from_document,
    timestamp_text,
)
from .storage import ObjectStore, StorageError

URL_PREFIXES = ("postgresql://", "postgres://")
DEFAULT_STATEMENT_TIMEOUT_S = 60.0
DEFAULT_PAGE_FILES = 200  # files rows per page; each page brings the batches rows of its files
DEFAULT_FETCH_MAX_BYTES = 1 << 20

_INT2, _INT4, _INT8, _UUID, _TEXT, _TIME = ("int2",), ("int4",), ("int8",), ("uuid",), ("varchar", "text"), \
    ("timestamptz",)
_ENUM = ("enum",)
#: What the reader needs of Inkless's schema: table -> column -> the base types (under domains) it
#: reads. The columns of `files` and `batches` are those of the shipped form.
SCHEMA: dict[str, dict[str, tuple[str, ...]]] = {
    "logs": {"topic_id": _UUID, "partition": _INT4, "topic_name": _TEXT, "log_start_offset": _INT8,
             "high_watermark": _INT8},
    "files": {"file_id": _INT8, "object_key": _TEXT, "format": _INT2, "reason": _ENUM, "state": _ENUM,
              "uploader_broker_id": _INT4, "committed_at": _TIME, "marked_for_deletion_at": _TIME, "size": _INT8},
    "batches": {"batch_id": _INT8, "magic": _INT2, "topic_id": _UUID, "partition": _INT4, "base_offset": _INT8,
                "last_offset": _INT8, "file_id": _INT8, "byte_offset": _INT8, "byte_size": _INT8,
                "timestamp_type": _INT2, "log_append_timestamp": _INT8, "batch_max_timestamp": _INT8},
}
#: The function a broker's fetch calls to find a partition's batches (Inkless's migration V8 on).
FIND_BATCHES = "find_batches_v2"
#: The migration levels this reader was written against (Inkless's V1 to V27).
KNOWN_LEVELS = (1, 27)


class ControlPlaneError(Exception):
    """The control plane cannot be read: one line saying why. `usage` is True when the cause is
    the caller's (a URL that does not connect, a database that is not a control plane, psycopg
    missing), False when it is the data's (a query past its timeout, a row that does not read)."""

    def __init__(self, message: str, *, usage: bool) -> None:
        super().__init__(message)
        self.usage = usage


def is_database_url(text) -> bool:
    """Whether metadata is named by a PostgreSQL URL rather than a document's path."""
    return isinstance(text, str) and text.startswith(URL_PREFIXES)


def redacted(url: str) -> str:
    """A URL with its password replaced by `***` (in the authority and in a `password=` parameter)."""
    url = re.sub(r"^(\w+://[^:/@]*):[^@/]*@", r"\1:***@", url)
    return re.sub(r"(?i)([?&]password=)[^&]*", r"\1***", url)


def _psycopg():
    try:
        import psycopg
    except ImportError:
        raise ControlPlaneError("reading metadata from PostgreSQL needs psycopg: pip install 'logcodec[postgres]'",
                                usage=True) from None
    return psycopg


def _first_line(exc: Exception) -> str:
    text = str(exc).strip() or type(exc).__name__
    return text.splitlines()[0]


# ---------------------------------------------------------------- findings

@dataclass(frozen=True)
class Finding:
    """One disagreement: the error (its `path` names the row and column, its `offset` the byte in
    the object where it starts), the object's key (None for a finding of `logs`) and the byte range
    of the object it concerns (None when it concerns no bytes)."""

    error: DecodeError
    object_key: str | None = None
    byte_range: tuple[int, int] | None = None

    @property
    def kind(self) -> str:
        return self.error.kind

    @property
    def path(self) -> str:
        return self.error.path

    def __str__(self) -> str:
        where = self.object_key or "control plane"
        if self.byte_range is not None:
            where += f" bytes [{self.byte_range[0]}, {self.byte_range[1]})"
        return f"{where}: {self.error}"

    def to_json(self) -> dict:
        return {"object_key": self.object_key, "byte_range": None if self.byte_range is None else list(self.byte_range),
                **self.error.to_json()}


# ---------------------------------------------------------------- one object's rows

@dataclass
class StoredFile:
    """One `files` row and the `batches` rows that point into its object: as shipped metadata (or
    the error that stopped the rows from reading as such) with the ids that name its rows."""

    file_id: int
    object_key: str
    size: int
    state: str
    batch_ids: list[int] = field(default_factory=list)
    metadata: ShippedMetadata | None = None
    load_error: DecodeError | None = None

    def row_path(self, path: str) -> str:
        """A path in the shipped document (`files[0].size`, `batches[3]`) as the row's
        (`files[file_id=7].size`, `batches[batch_id=42]`)."""
        path = re.sub(r"\bfiles\[0\]", f"files[file_id={self.file_id}]", path)
        return re.sub(r"\bbatches\[(\d+)\]", lambda m: f"batches[batch_id={self.batch_ids[int(m.group(1))]}]", path)

    def row_range(self, path: str) -> tuple[int, int] | None:
        """The byte range of the batches row a shipped path names, if it names one."""
        m = re.match(r"batches\[(\d+)\]", path)
        if m is None or self.metadata is None:
            return None
        row = self.metadata.batches[int(m.group(1))]
        return row.byte_offset, row.byte_offset + row.byte_size


def _file_document(row: dict) -> dict:
    return {**row, "committed_at": None if row["committed_at"] is None else timestamp_text(row["committed_at"]),
            "marked_for_deletion_at": None if row["marked_for_deletion_at"] is None
            else timestamp_text(row["marked_for_deletion_at"])}


def _batch_document(row: dict) -> dict:
    return {**row, "topic_id": str(row["topic_id"])}


def stored_file(file_row: dict, batch_rows: list[dict]) -> StoredFile:
    """The rows of one object, checked as strictly as a shipped document is (a column's value out
    of the shipped form's range is a `load_error` naming the row)."""
    stored = StoredFile(file_row["file_id"], file_row["object_key"], file_row["size"], file_row["state"],
                        [b["batch_id"] for b in batch_rows])
    try:
        stored.metadata = shipped_from_document({"files": [_file_document(file_row)],
                                                 "batches": [_batch_document(b) for b in batch_rows]})
    except DecodeError as exc:
        stored.load_error = DecodeError(exc.kind, exc.detail, exc.offset, stored.row_path(exc.path))
    return stored


# ---------------------------------------------------------------- the connection

class ControlPlane:
    """A read-only session on an Inkless control plane (a context manager). The schema is checked
    when it opens (`SCHEMA`); `statement_timeout_s` bounds each query; `page_files` is how many
    `files` rows (with their `batches` rows) one page brings."""

    def __init__(self, url: str, *, statement_timeout_s: float = DEFAULT_STATEMENT_TIMEOUT_S,
                 page_files: int = DEFAULT_PAGE_FILES) -> None:
        if not is_database_url(url):
            raise ControlPlaneError(f"{url!r} is not a PostgreSQL URL (postgresql://user@host:port/database)",
                                    usage=True)
        self.url, self.page_files = url, page_files
        self._psycopg = _psycopg()
        self.conn = self._connect(statement_timeout_s)
        try:
            self.level = self._migration_level()
            self._check_schema()
        except BaseException:
            self.close()
            raise

    def _connect(self, statement_timeout_s: float):
        psycopg = self._psycopg
        # Each statement in its own short transaction (autocommit), or a page in one (`files`): a
        # transaction held open for a whole run would hold back vacuum on a busy control plane.
        try:
            conn = psycopg.connect(self.url, connect_timeout=10, application_name="logcodec", autocommit=True)
        except psycopg.Error as exc:
            raise ControlPlaneError(f"cannot connect to {redacted(self.url)}: {_first_line(exc)}", usage=True) from None
        try:
            conn.execute("SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY")
            conn.execute("SELECT set_config('statement_timeout', %s, false)", (f"{int(statement_timeout_s * 1000)}ms",))
            conn.read_only = True  # and the transactions this reader begins say so too
            conn.isolation_level = psycopg.IsolationLevel.REPEATABLE_READ  # a page's queries see one snapshot
        except psycopg.Error as exc:
            conn.close()
            raise ControlPlaneError(f"{redacted(self.url)}: {_first_line(exc)}", usage=True) from None
        return conn

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    @contextlib.contextmanager
    def _transaction(self):
        """One read-only, repeatable-read transaction; a failure to begin or end it is a
        `ControlPlaneError`, as a query's is."""
        try:
            with self.conn.transaction():
                yield
        except self._psycopg.Error as exc:
            raise ControlPlaneError(f"{redacted(self.url)}: {_first_line(exc)}", usage=False) from None

    def query(self, sql: str, params=(), *, rows: bool = True) -> list[dict]:
        """The rows of one SELECT, as dicts; a database error is a `ControlPlaneError`."""
        psycopg = self._psycopg
        try:
            with self.conn.cursor(row_factory=psycopg.rows.dict_row) as cur:
                cur.execute(sql, params)
                return cur.fetchall() if rows else []
        except psycopg.errors.QueryCanceled:
            raise ControlPlaneError(f"{redacted(self.url)}: a query ran past the statement timeout", usage=False) \
                from None
        except psycopg.Error as exc:
            raise ControlPlaneError(f"{redacted(self.url)}: {_first_line(exc)}", usage=False) from None

    # ------------------------------------------------------------ the schema, as facts

    def _migration_level(self) -> int | None:
        """The highest migration Flyway applied, when its history table is there."""
        if self.query("SELECT to_regclass('flyway_schema_history') IS NOT NULL AND "
                      "has_table_privilege('flyway_schema_history', 'SELECT') AS there")[0]["there"]:
            got = self.query("SELECT max(version::int) AS level FROM flyway_schema_history "
                             "WHERE success AND version ~ '^[0-9]+$'")
            return got[0]["level"]
        return None

    def _level_text(self) -> str:
        low, high = KNOWN_LEVELS
        known = f"logcodec reads Inkless's control plane at migrations V{low} to V{high}"
        return f"{known}; this database is at V{self.level}" if self.level else known

    def _check_schema(self) -> None:
        found: dict[str, dict[str, str]] = {}
        for row in self.query(_COLUMN_TYPES, (list(SCHEMA),)):
            found.setdefault(row["table_name"], {})[row["column_name"]] = row["type"]
        missing_tables = [t for t in SCHEMA if t not in found]
        if missing_tables:
            raise ControlPlaneError(
                f"{redacted(self.url)} is not an Inkless control plane: no table {', '.join(missing_tables)} "
                f"(on the search path); {self._level_text()}", usage=True)
        for table, columns in SCHEMA.items():
            for column, types in columns.items():
                got = found[table].get(column)
                if got is None:
                    raise ControlPlaneError(f"{redacted(self.url)}: table {table} has no column {column}; "
                                            f"{self._level_text()}", usage=True)
                if got not in types:
                    raise ControlPlaneError(f"{redacted(self.url)}: column {table}.{column} is {got}, not "
                                            f"{' or '.join(types)}; {self._level_text()}", usage=True)

    def require_find_batches(self) -> None:
        """A fetch needs `find_batches_v2`: refuse a control plane without it, naming it."""
        if not self.query("SELECT to_regproc(%s) IS NOT NULL AS there", (FIND_BATCHES,))[0]["there"]:
            raise ControlPlaneError(f"{redacted(self.url)}: no function {FIND_BATCHES} (Inkless's migration V8 "
                                    f"adds it); {self._level_text()}", usage=True)

    # ------------------------------------------------------------ topics and logs

    def topic_ids(self, name: str) -> list[bytes]:
        """The ids of the topic of a name in `logs` (a topic deleted and made again has two)."""
        rows = self.query("SELECT DISTINCT topic_id FROM logs WHERE topic_name = %s ORDER BY topic_id", (name,))
        return [r["topic_id"].bytes for r in rows]

    def topic_names(self) -> dict[bytes, str]:
        """Topic id -> name, from `logs`."""
        return {r["topic_id"].bytes: r["topic_name"]
                for r in self.query("SELECT DISTINCT topic_id, topic_name FROM logs")}

    def log(self, topic_id: bytes, partition: int) -> dict | None:
        rows = self.query("SELECT topic_id, partition, topic_name, log_start_offset, high_watermark FROM logs "
                          "WHERE topic_id = %s AND partition = %s", (uuid.UUID(bytes=topic_id), partition))
        return rows[0] if rows else None

    # ------------------------------------------------------------ files and their batches, in pages

    def files(self, *, object_key: str | None = None, topic_ids: list[bytes] | None = None,
              partition: int | None = None, file_ids: tuple[int, int] | None = None) -> Iterator[StoredFile]:
        """Each object's rows, by `file_id`, in keyset pages: every file that has batches rows or is
        not marked for deletion (the cleaner deletes the objects of the others), or only the one of
        `object_key`, those holding batches of `topic_ids` (and `partition`), or those whose
        `file_id` is within `file_ids` (inclusive)."""
        where, params = _file_scope(object_key, topic_ids, partition, file_ids)
        last = -1
        while True:
            with self._transaction():  # a page's files and their batches from one snapshot
                page = self.query(f"SELECT {', '.join('f.' + c for c in FILE_COLUMNS)}, f.state::text AS state, "
                                  "f.reason::text AS reason FROM files f WHERE f.file_id > %s" + where +
                                  " ORDER BY f.file_id LIMIT %s", (last, *params, self.page_files))
                batches: dict[int, list[dict]] = {}
                for row in self.query(f"SELECT {', '.join(BATCH_COLUMNS)} FROM batches WHERE file_id = ANY(%s) "
                                      "ORDER BY file_id, byte_offset, batch_id", ([r["file_id"] for r in page],)):
                    batches.setdefault(row["file_id"], []).append(row)
            if not page:
                return
            for row in page:
                yield stored_file(row, batches.get(row["file_id"], []))
            last = page[-1]["file_id"]

    def file_sizes(self, page_rows: int = 10_000) -> Iterator[dict]:
        """{file_id, object_key, size} of each file `files` would give (no `batches` rows), by
        `file_id`, in keyset pages of `page_rows`: enough to cut the files into ranges."""
        where, params = _file_scope(None, None, None, None)
        last = -1
        while True:
            page = self.query("SELECT f.file_id, f.object_key::text AS object_key, f.size::bigint AS size "
                              "FROM files f WHERE f.file_id > %s" + where + " ORDER BY f.file_id LIMIT %s",
                              (last, *params, page_rows))
            yield from page
            if len(page) < page_rows:
                return
            last = page[-1]["file_id"]

    # ------------------------------------------------------------ a broker's fetch

    def find_batches(self, topic_id: bytes, partition: int, starting_offset: int,
                     fetch_max_bytes: int = DEFAULT_FETCH_MAX_BYTES) -> tuple[dict, list[dict]]:
        """One call of `find_batches_v2` for one partition, as a broker's fetch makes it: the
        response ({log_start_offset, high_watermark, error}) and its batches, in order
        ({batch_id, object_key, and the batch_metadata_v1 fields})."""
        rows = self.query(_FIND_BATCHES_SQL, (uuid.UUID(bytes=topic_id), partition, starting_offset, fetch_max_bytes,
                                              fetch_max_bytes))
        head = {k: rows[0][k] for k in ("log_start_offset", "high_watermark", "error")}
        return head, [r for r in rows if r["batch_id"] is not None]


_COLUMN_TYPES = """
WITH RECURSIVE cols AS (
    SELECT c.relname::text AS table_name, a.attname::text AS column_name, a.atttypid AS type_oid
    FROM unnest(%s::text[]) AS t(name)
    JOIN pg_class c ON c.oid = to_regclass(t.name)
    JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
), base AS (
    SELECT table_name, column_name, type_oid FROM cols
    UNION ALL
    SELECT b.table_name, b.column_name, t.typbasetype FROM base b JOIN pg_type t ON t.oid = b.type_oid
    WHERE t.typtype = 'd'
)
SELECT b.table_name, b.column_name, CASE WHEN t.typtype = 'e' THEN 'enum' ELSE t.typname::text END AS type
FROM base b JOIN pg_type t ON t.oid = b.type_oid WHERE t.typtype <> 'd'
"""

# The batches of one find_batches_v2 call, one row each (a response without batches gives one
# row of NULL batch columns, so the response's own columns always come back).
_FIND_BATCHES_SQL = """
SELECT r.log_start_offset::bigint AS log_start_offset, r.high_watermark::bigint AS high_watermark,
       r.error::text AS error, b.batch_id, b.object_key::text AS object_key,
       (b.batch_metadata).magic::int AS magic, (b.batch_metadata).byte_offset::bigint AS byte_offset,
       (b.batch_metadata).byte_size::bigint AS byte_size, (b.batch_metadata).base_offset::bigint AS base_offset,
       (b.batch_metadata).last_offset::bigint AS last_offset, (b.batch_metadata).timestamp_type::int AS timestamp_type,
       (b.batch_metadata).log_append_timestamp::bigint AS log_append_timestamp,
       (b.batch_metadata).batch_max_timestamp::bigint AS batch_max_timestamp
FROM find_batches_v2(ARRAY[ROW(%s, %s, %s, %s)::find_batches_request_v1], %s) AS r
LEFT JOIN LATERAL unnest(r.batches) WITH ORDINALITY AS b(batch_id, object_key, batch_metadata, n) ON true
ORDER BY b.n
"""


def _file_scope(object_key, topic_ids, partition, file_ids) -> tuple[str, list]:
    """The WHERE conditions (after `f.file_id > %s`) choosing the files a read covers."""
    where = " AND (f.state <> 'deleting' OR EXISTS (SELECT 1 FROM batches b WHERE b.file_id = f.file_id))"
    params: list = []
    if object_key is not None:
        where += " AND f.object_key = %s"
        params.append(object_key)
    if topic_ids is not None:
        where += " AND EXISTS (SELECT 1 FROM batches b WHERE b.file_id = f.file_id AND b.topic_id = ANY(%s)" + \
                 (" AND b.partition = %s)" if partition is not None else ")")
        params += [[uuid.UUID(bytes=t) for t in topic_ids]] + ([partition] if partition is not None else [])
    if file_ids is not None:
        where += " AND f.file_id BETWEEN %s AND %s"
        params += list(file_ids)
    return where, params


# ---------------------------------------------------------------- checks that need no object bytes

def _partition_scope(topic_ids, partition, alias: str) -> tuple[str, list]:
    if topic_ids is None:
        return "", []
    where = f" AND {alias}.topic_id = ANY(%s)" + (f" AND {alias}.partition = %s" if partition is not None else "")
    return where, [[uuid.UUID(bytes=t) for t in topic_ids]] + ([partition] if partition is not None else [])


def _log_path(topic_id, partition, column: str = "") -> str:
    return f"logs[topic_id={topic_id}, partition={partition}]" + (f".{column}" if column else "")


def control_plane_findings(plane: ControlPlane, *, topic_ids: list[bytes] | None = None,
                           partition: int | None = None, object_key: str | None = None) -> list[Finding]:
    """What the control plane says against itself, found by queries that return only the rows that
    disagree: a partition whose last batch does not end at its `logs.high_watermark`; a partition
    whose offsets skip some (a gap) or overlap those of a row in another object (overlaps within
    one object are that object's findings); a file marked `deleting` whose batches remain."""
    findings = []
    scope, params = _partition_scope(topic_ids, partition, "l")
    if object_key is None:
        for r in plane.query(_HIGH_WATERMARK_SQL.format(scope=scope), params):
            findings.append(Finding(DecodeError(
                "invalid_value", f"high_watermark {r['high_watermark']}, but the partition's batches end at offset "
                f"{r['last_offset']} (batches[batch_id={r['batch_id']}] of {r['object_key']}), so it should be "
                f"{r['last_offset'] + 1}", None, _log_path(r["topic_id"], r["partition"], "high_watermark"))))
        scope, params = _partition_scope(topic_ids, partition, "b")
        for r in plane.query(_OFFSET_RUNS_SQL.format(scope=scope), params):
            findings.append(_offset_run_finding(r))
    scope, params = ("", []) if object_key is None else (" AND f.object_key = %s", [object_key])
    for r in plane.query(_DELETING_SQL.format(scope=scope), params):
        findings.append(Finding(DecodeError(
            "invalid_value", f"state deleting (marked {r['marked_for_deletion_at']}), but {r['batches']} batches "
            f"row(s) still point into it (batches[batch_id={r['batch_id']}] first)", 0,
            f"files[file_id={r['file_id']}].state"), r["object_key"], (0, r["size"])))
    return findings


def _offset_run_finding(r: dict) -> Finding:
    row = f"batches[batch_id={r['batch_id']}]"
    before = f"batches[batch_id={r['prev_batch_id']}] of {r['prev_object_key']}"
    if r["base_offset"] > r["prev_last_offset"] + 1:
        detail = (f"offsets from {r['base_offset']}, but {before} ends at {r['prev_last_offset']}: offsets "
                  f"{r['prev_last_offset'] + 1} to {r['base_offset'] - 1} of topic {r['topic_id']} partition "
                  f"{r['partition']} are in no batch")
    else:
        detail = (f"offsets from {r['base_offset']} overlap those of {before} (up to {r['prev_last_offset']})")
    return Finding(DecodeError("invalid_value", detail, r["byte_offset"], f"{row}.base_offset"), r["object_key"],
                   (r["byte_offset"], r["byte_offset"] + r["byte_size"]))


_HIGH_WATERMARK_SQL = """
SELECT l.topic_id, l.partition, l.high_watermark::bigint AS high_watermark, last.batch_id, last.object_key,
       last.last_offset::bigint AS last_offset
FROM logs l
CROSS JOIN LATERAL (
    SELECT b.batch_id, b.last_offset, f.object_key::text AS object_key
    FROM batches b JOIN files f ON f.file_id = b.file_id
    WHERE b.topic_id = l.topic_id AND b.partition = l.partition
    ORDER BY b.last_offset DESC LIMIT 1
) AS last
WHERE last.last_offset + 1 <> l.high_watermark{scope}
ORDER BY l.topic_id, l.partition
"""

_OFFSET_RUNS_SQL = """
SELECT * FROM (
    SELECT b.batch_id, b.topic_id, b.partition, b.base_offset::bigint AS base_offset, b.byte_offset::bigint AS
           byte_offset, b.byte_size::bigint AS byte_size, b.file_id, f.object_key::text AS object_key,
           lag(b.last_offset::bigint) OVER w AS prev_last_offset, lag(b.batch_id) OVER w AS prev_batch_id,
           lag(b.file_id) OVER w AS prev_file_id, lag(f.object_key::text) OVER w AS prev_object_key
    FROM batches b JOIN files f ON f.file_id = b.file_id
    WHERE true{scope}
    WINDOW w AS (PARTITION BY b.topic_id, b.partition ORDER BY b.base_offset, b.batch_id)
) AS runs
WHERE prev_last_offset IS NOT NULL
  AND (base_offset > prev_last_offset + 1 OR (base_offset <= prev_last_offset AND file_id <> prev_file_id))
ORDER BY topic_id, partition, base_offset
"""

_DELETING_SQL = """
SELECT f.file_id, f.object_key::text AS object_key, f.size::bigint AS size, f.marked_for_deletion_at,
       count(*) AS batches, min(b.batch_id) AS batch_id
FROM files f JOIN batches b ON b.file_id = f.file_id
WHERE f.state = 'deleting'{scope}
GROUP BY f.file_id, f.object_key, f.size, f.marked_for_deletion_at
ORDER BY f.file_id
"""


# ---------------------------------------------------------------- objects against their rows

def object_findings(stored: StoredFile, store: ObjectStore, *, allow_dead_bytes: bool = False) -> list[Finding]:
    """Where one object and its rows disagree, as `logcodec.inkless.blocks.validate` finds it for
    shipped metadata, the paths naming rows by id; an object missing from storage is one finding."""
    key = stored.object_key
    if stored.load_error is not None:
        return [Finding(stored.load_error, key)]
    try:
        size = store.size(key)
        data = None if size is None else store.read(key)
    except StorageError as exc:
        return [Finding(DecodeError("truncated", f"the object cannot be read: {exc}", 0,
                                    f"files[file_id={stored.file_id}]"), key, (0, stored.size))]
    if data is None:
        return [Finding(DecodeError("truncated", f"the object is not in storage ({store.where(key)}), but its files "
                                    f"row says {stored.size} bytes and {len(stored.batch_ids)} batches row(s) point "
                                    "into it", 0, f"files[file_id={stored.file_id}]"), key, (0, stored.size))]
    findings = []
    for f in validate_object(data, stored.metadata, allow_dead_bytes=allow_dead_bytes):
        error = DecodeError(f.kind, stored.row_path(f.detail), f.offset, stored.row_path(f.path))
        findings.append(Finding(error, key, _finding_range(f, stored, len(data))))
    return findings


def _finding_range(f: DecodeError, stored: StoredFile, size: int) -> tuple[int, int] | None:
    row = stored.row_range(f.path)
    if row is not None:
        return row
    if f.path == "object" and f.offset is not None:  # dead bytes: the run that starts there
        m = re.search(r"bytes \[(\d+), (\d+)\)", f.detail)
        return (int(m.group(1)), int(m.group(2))) if m else (f.offset, size)
    if f.path.startswith("files[0].size"):
        return min(stored.size, size), max(stored.size, size)
    return None


def validate(url_or_plane, store: ObjectStore | str, *, object_key: str | None = None, topic: str | None = None,
             topic_id=None, partition: int | None = None, allow_dead_bytes: bool = False,
             statement_timeout_s: float = DEFAULT_STATEMENT_TIMEOUT_S) -> Iterator[Finding]:
    """Every disagreement between the objects in `store` (an `ObjectStore`, or its location) and
    the control plane at `url_or_plane` (a URL, or an open `ControlPlane`): each object's, then the
    control plane's own (`control_plane_findings`). Choose one object (`object_key`), or the
    objects holding a topic's batches (`topic` by name in `logs`, or `topic_id`) or a partition's;
    each object chosen is checked whole. Findings come as each object is checked."""
    store = store if isinstance(store, ObjectStore) else ObjectStore(store)
    plane = url_or_plane if isinstance(url_or_plane, ControlPlane) else \
        ControlPlane(url_or_plane, statement_timeout_s=statement_timeout_s)
    try:
        topic_ids = resolve_topic(plane, topic, topic_id) if (topic is not None or topic_id is not None) else None
        for stored in plane.files(object_key=object_key, topic_ids=topic_ids, partition=partition):
            yield from object_findings(stored, store, allow_dead_bytes=allow_dead_bytes)
        yield from control_plane_findings(plane, topic_ids=topic_ids, partition=partition, object_key=object_key)
    finally:
        if plane is not url_or_plane:
            plane.close()


def _topic_id(topic_id) -> bytes:
    """16 bytes of a topic id given as bytes, a `uuid.UUID` or either UUID text."""
    if isinstance(topic_id, uuid.UUID):
        return topic_id.bytes
    if isinstance(topic_id, str):
        return uuid_from_either_text(topic_id, "topic_id")
    if isinstance(topic_id, (bytes, bytearray, memoryview)) and len(topic_id) == 16:
        return bytes(topic_id)
    raise ControlPlaneError(f"a topic id is 16 bytes, a uuid.UUID or its text, not {topic_id!r}", usage=True)


def resolve_topic(plane: ControlPlane, topic: str | None, topic_id=None) -> list[bytes]:
    """The ids of a topic named by name (as `logs` names it) or by id; a name `logs` does not
    know is a usage error."""
    if topic_id is not None:
        return [_topic_id(topic_id)]
    ids = plane.topic_ids(topic)
    if not ids:
        raise ControlPlaneError(f"no topic named {topic!r} in the control plane's logs", usage=True)
    return ids


# ---------------------------------------------------------------- reading as a broker's fetch reads

def read_batches(url_or_plane, store: ObjectStore | str, *, partition: int, topic: str | None = None, topic_id=None,
                 from_offset: int | None = None, fetch_max_bytes: int = DEFAULT_FETCH_MAX_BYTES) -> Iterator:
    """One partition's batches as a broker serves a fetch: `find_batches_v2` from the log start
    offset (or `from_offset`) to the high watermark, each row's byte range read from its object
    and checked, its batches given the offsets the control plane assigned (`served_bytes`). A
    problem raises `DecodeError` naming the object and the row."""
    store = store if isinstance(store, ObjectStore) else ObjectStore(store)
    plane = url_or_plane if isinstance(url_or_plane, ControlPlane) else ControlPlane(url_or_plane)
    try:
        plane.require_find_batches()
        (tid,) = resolve_topic(plane, topic, topic_id)[-1:]  # a name made again: its newest id
        head, _ = plane.find_batches(tid, partition, 0, 1)
        if head["error"] == "unknown_topic_or_partition":
            raise ControlPlaneError(f"no partition {partition} of topic {topic or uuid.UUID(bytes=tid)} in logs",
                                    usage=True)
        offset = head["log_start_offset"] if from_offset is None else max(from_offset, head["log_start_offset"])
        while offset < head["high_watermark"]:
            head, infos = plane.find_batches(tid, partition, offset, fetch_max_bytes)
            if head["error"] is not None or not infos:
                raise DecodeError("invalid_value", f"find_batches_v2 at offset {offset} answers "
                                  f"{head['error'] or 'no batches'} below the high watermark {head['high_watermark']}",
                                  None, _log_path(uuid.UUID(bytes=tid), partition, "high_watermark"))
            for info in infos:
                yield from _served(store, tid, partition, info)
            offset = infos[-1]["last_offset"] + 1
    finally:
        if plane is not url_or_plane:
            plane.close()


def _served(store: ObjectStore, topic_id: bytes, partition: int, info: dict) -> Iterator:
    """The batches of one row `find_batches_v2` returned, read from its object and served."""
    start, size = info["byte_offset"], info["byte_size"]
    row = BatchRow(batch_id=info["batch_id"], magic=info["magic"], topic_id=topic_id, partition=partition,
                   base_offset=info["base_offset"], last_offset=info["last_offset"], file_id=0, byte_offset=start,
                   byte_size=size, timestamp_type=info["timestamp_type"],
                   log_append_timestamp=info["log_append_timestamp"], batch_max_timestamp=info["batch_max_timestamp"])
    path = f"batches[batch_id={info['batch_id']}]"
    chunk = store.read(info["object_key"], start, start + size)
    findings, found = check_extent(chunk, Extent(path, topic_id, None, partition, 0, size, row=row))
    if findings:
        f = findings[0]
        raise DecodeError(f.kind, f"{info['object_key']} bytes [{start}, {start + size}): {f.detail}",
                          None if f.offset is None else start + f.offset, f.path)
    running = row.base_offset
    for pos, length, batch in found:
        served_bytes(chunk[pos:pos + length], batch, running, row)
        running += batch.last_offset_delta + 1
        yield batch


def read_records(url_or_plane, store: ObjectStore | str, *, partition: int, topic: str | None = None,
                 topic_id=None, from_offset: int | None = None) -> list[Record]:
    """The records of one partition, from `from_offset` on, as a broker's fetch serves them (see
    `read_batches`)."""
    records = [r for b in read_batches(url_or_plane, store, partition=partition, topic=topic, topic_id=topic_id,
                                       from_offset=from_offset) for r in batch_records(b)]
    return records if from_offset is None else [r for r in records if r.offset >= from_offset]


__all__ = [
    "FIND_BATCHES",
    "SCHEMA",
    "ControlPlane",
    "ControlPlaneError",
    "Finding",
    "ObjectStore",
    "StorageError",
    "StoredFile",
    "control_plane_findings",
    "is_database_url",
    "object_findings",
    "read_batches",
    "read_records",
    "resolve_topic",
    "validate",
]
