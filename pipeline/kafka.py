"""Kafka log segments and record-set files as rows: one per record, or one per batch
(or one validation result per batch, for the validation job).

A Kafka log segment (`<topic>-<partition>/<base offset>.log`) and a Fetch response's
record set are the same thing: entries laid end to end, each an int64 offset, an int32
size and that many bytes, whose magic byte (16 bytes in) says whether it is a legacy
message (magic 0 or 1, maybe a compressed wrapper) or a record batch (magic 2). The
size framing is what lets a large segment be cut into input partitions without
decoding it, and what lets a reader step over a bad entry and go on.

Each entry is decoded on its own by the generated codecs (`kafka.record_batch_v2` or
`kafka.message_set`, chosen by the magic byte as `kafka.record_set` chooses), and its
records are resolved by `logcodec.kafka.records` as a Kafka client sees them. A bad entry
becomes one row whose `error` says why and where, and reading goes on at the next
entry. When the framing itself is broken (a size that is too small, or that runs past
the end of the file) nothing after it can be located, so that is the file's last row.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from dataclasses import replace
from pathlib import Path
from typing import NamedTuple

import pyarrow as pa

from logcodec._api import codec
from logcodec.pipeline import resync
from logcodec.pipeline.errors import open_input
from logcodec.pipeline.plan import (FileRange, Pushed, ReadOptions, cut, files_under, kafka_topic_partition, pack,
                                   push_filters)
from logcodec.pipeline.roundtrip import compare, without_length_and_crc
from logcodec.pipeline.tables import ERROR, HEADERS, VALIDATION_SCHEMA, error_columns, error_value, record_batches, \
    Plus, column_bounds, row_maker, run_maker, validation_row
from logcodec.kafka.indexes import index_entries
from logcodec.kafka.records import LOG_APPEND_TIME, Record, batch_records, legacy_records
from logcodec.runtime.errors import DecodeError
from logcodec.runtime.values import without_derived

ROW_KINDS = ("record", "batch", "validation")

#: One row per record.
RECORD_SCHEMA = pa.schema([
    ("topic", pa.string()),             # from the directory name `<topic>-<partition>`, or the `topic` option
    ("partition", pa.int32()),
    ("offset", pa.int64()),             # absolute, as a consumer sees it
    ("timestamp", pa.int64()),          # milliseconds since the epoch, as stored (null for magic 0)
    ("timestamp_type", pa.string()),    # create_time or log_append_time (null for magic 0)
    ("key", pa.binary()),
    ("value", pa.binary()),
    ("headers", HEADERS),               # empty for legacy messages
    ("producer_id", pa.int64()),        # producer fields: null for legacy messages
    ("producer_epoch", pa.int16()),
    ("base_sequence", pa.int32()),      # the batch's first sequence number
    ("leader_epoch", pa.int32()),       # the batch's partition leader epoch
    ("is_transactional", pa.bool_()),
    ("is_control", pa.bool_()),         # a transaction marker; key and value are the marker's bytes
    ("codec", pa.string()),             # none, gzip, snappy, lz4, zstd
    ("magic", pa.int8()),
    ("file", pa.string()),              # provenance: the file and the byte offset of the batch in it
    ("batch_offset", pa.int64()),
    ("error", ERROR),                   # null, or why the batch at batch_offset could not be read
])

#: One row per batch (a v2 record batch, or a legacy message or compressed wrapper).
BATCH_SCHEMA = pa.schema([
    ("topic", pa.string()),
    ("partition", pa.int32()),
    ("file", pa.string()),
    ("batch_offset", pa.int64()),       # byte offset of the batch in the file
    ("size", pa.int32()),               # bytes in the file, offset and size fields included
    ("magic", pa.int8()),
    ("base_offset", pa.int64()),        # first and last record offsets
    ("last_offset", pa.int64()),
    ("record_count", pa.int32()),
    ("codec", pa.string()),
    ("timestamp_type", pa.string()),
    ("base_timestamp", pa.int64()),     # the first record's timestamp (v2: the batch's base timestamp)
    ("max_timestamp", pa.int64()),
    ("producer_id", pa.int64()),
    ("producer_epoch", pa.int16()),
    ("base_sequence", pa.int32()),
    ("leader_epoch", pa.int32()),
    ("is_transactional", pa.bool_()),
    ("is_control", pa.bool_()),
    ("payload_bytes", pa.int64()),      # key, value and header bytes of the records, uncompressed
    ("crc_valid", pa.bool_()),          # the stored CRC against the bytes, checked apart from decoding
    ("error", ERROR),
])
record_row = row_maker(RECORD_SCHEMA)
record_run = run_maker(RECORD_SCHEMA)
batch_row = row_maker(BATCH_SCHEMA)

TIMESTAMP_TYPES: dict[int | None, str | None] = {0: "create_time", 1: "log_append_time", None: None}
_rb = codec("kafka.record_batch_v2")
_ms = codec("kafka.message_set")
_rs = codec("kafka.record_set")  # a log's entries: their sizes and bounds (`entry_size`, `entry_bounds`)


def parse_options(options: Mapping[str, str]) -> ReadOptions:
    """The options of a read (`ReadOptions.parse` with this format's row kinds)."""
    return ReadOptions.parse(options, ROW_KINDS)


def schema(options: ReadOptions) -> pa.Schema:
    if options.rows == "validation":
        return VALIDATION_SCHEMA
    return BATCH_SCHEMA if options.rows == "batch" else RECORD_SCHEMA


# ---------------------------------------------------------------- planning (driver)

def push(options: ReadOptions, filters) -> tuple[ReadOptions, list]:
    """The read options with what Spark's pushed filters let the reader skip (`plan.push_filters`),
    and the filters Spark must still apply. Topic and partition filters are handled in full for
    every row kind; offset and timestamp ranges prune record reads only."""
    columns = {"topic": "topic", "partition": "partition"}
    if options.rows == "record":
        columns.update(offset="offset", timestamp="timestamp")
    pushed, rest = push_filters(filters, columns)
    return replace(options, pushed=pushed), rest


def plan(options: ReadOptions) -> list[list[FileRange]]:
    """The input partitions of a read: every matching file, large ones cut at entry boundaries.
    With pushed filters (`push`): files of other topics and partitions are not opened; with an
    offset or timestamp range, segments that cannot hold it are skipped, and a segment's `.index`
    (and `.timeindex`) narrows the bytes read (`segment_span`)."""
    pushed = options.pushed
    ranges = []
    # Absolute: tasks run elsewhere (an executor's working directory is not the driver's).
    files = files_under(Path(options.path).absolute(), options.glob)
    following = _next_bases(files)
    for path in files:
        topic, partition = kafka_topic_partition(path.parent)
        topic = options.topic if options.topic is not None else topic
        partition = options.partition if options.partition is not None else partition
        if not pushed.keeps(topic, partition):
            continue
        size = path.stat().st_size
        span = segment_span(path, size, following.get(path), pushed) if pushed.by_offset or pushed.by_timestamp \
            else (0, size)
        if span is None:
            continue
        start, end = span
        boundaries = [b - start for b in entry_starts(path) if start < b < end] \
            if end - start > options.split_bytes else []
        pieces = [(a + start, b + start) for a, b in cut(boundaries, end - start, options.split_bytes)]
        if pushed.by_offset and len(pieces) > 1:
            pieces = _pieces_in_range(path, pieces, pushed)
        ranges += [FileRange(str(path), a, b, topic, partition) for a, b in pieces]
    return pack(ranges, options.split_bytes)


def _pieces_in_range(path: Path, pieces: list[tuple[int, int]], pushed: Pushed) -> list[tuple[int, int]]:
    """The pieces of a segment (cut at entry boundaries) that can hold offsets of the pushed range.
    Offsets ascend through a segment, so every offset of a piece lies below the first offset of the
    next piece (read by decoding the entry there): a piece is dropped when the next one starts at or
    below the range's start, or when it starts itself at or after the range's end (and so is every
    piece after it)."""
    firsts = [None] + [_offsets_at(path, a)[0] for a, _ in pieces[1:]]
    kept = []
    for i, piece in enumerate(pieces):
        if pushed.offset_to is not None and firsts[i] is not None and firsts[i] >= pushed.offset_to:
            break
        following = firsts[i + 1] if i + 1 < len(pieces) else None
        if pushed.offset_from is not None and following is not None and following <= pushed.offset_from:
            continue
        kept.append(piece)
    return kept


def _next_bases(files: list[Path]) -> dict[Path, int]:
    """{segment: the base offset of the next segment in its directory}, for segments named by their
    base offset (`<base offset>.log`, as Kafka names them)."""
    following: dict[Path, int] = {}
    by_directory: dict[Path, list[tuple[int, Path]]] = {}
    for f in files:
        if f.stem.isdigit():
            by_directory.setdefault(f.parent, []).append((int(f.stem), f))
    for segments in by_directory.values():
        segments.sort()
        for (_, f), (base, _) in zip(segments, segments[1:]):
            following[f] = base
    return following


def segment_span(path: Path, size: int, next_base: int | None, pushed) -> tuple[int, int] | None:
    """The bytes [start, end) of a segment that can hold records in the pushed offset and timestamp
    ranges; None when none can. A segment named by its base offset holds offsets from it up to the
    next segment's base. Its `.timeindex` (where present) says up to which offset every timestamp is
    below the range's start; its `.index` (where present) gives a position from which to read and
    one at which to stop. Every position taken from an index is checked by decoding the entry there
    (`_offsets_at`): an index that disagrees with its log is not used."""
    if not path.stem.isdigit():
        return 0, size
    base = int(path.stem)
    low, high = pushed.offset_from, pushed.offset_to
    if pushed.timestamp_from is not None:
        below = _timeindex_below(path.with_suffix(".timeindex"), base, pushed.timestamp_from)
        if below is not None:
            low = below + 1 if low is None else max(low, below + 1)
    if (high is not None and base >= high) or (low is not None and next_base is not None and next_base <= low):
        return None
    start, end = 0, size
    index = path.with_suffix(".index")
    if (low is not None or high is not None) and index.is_file():
        entries = _offset_index(index, base, size)
        if low is not None:
            for offset, position in reversed([e for e in entries if e[0] <= low]):
                first, _ = _offsets_at(path, position)
                if first is not None and first <= low:  # entries before it end below `low`
                    start = position
                    break
        if high is not None:
            # The first entry whose batch starts at or after `high` (an entry names its batch's last
            # offset, so the batch of the first entry at or above `high` may still start below it).
            for _, position in [e for e in entries if e[0] >= high][:2]:
                first, _ = _offsets_at(path, position)
                if first is not None and first >= high and position > start:
                    end = position
                    break
    return start, end


def _offset_index(index: Path, base: int, log_size: int) -> list[tuple[int, int]]:
    """(absolute offset, file position) of a Kafka offset index's entries (`kafka.offset_index`),
    while they ascend and point into the log (a preallocated index ends in zeros)."""
    entries: list[tuple[int, int]] = []
    for e in index_entries("kafka.offset_index", index.read_bytes()):
        relative, position = e.relative_offset, e.position
        if entries and (relative <= entries[-1][0] - base or position <= entries[-1][1]):
            break
        if relative < 0 or not 0 <= position < log_size:
            break
        entries.append((base + relative, position))
    return entries


def _timeindex_below(timeindex: Path, base: int, timestamp: int) -> int | None:
    """The largest offset up to which every record's timestamp is below `timestamp`, from a Kafka
    time index (`kafka.time_index`: the largest timestamp so far, and the offset where it was
    seen, while both ascend); None without one."""
    if not timeindex.is_file():
        return None
    found, last = None, None
    for e in index_entries("kafka.time_index", timeindex.read_bytes()):
        if last is not None and (e.timestamp <= last[0] or e.relative_offset <= last[1]):
            break
        last = (e.timestamp, e.relative_offset)
        if e.timestamp < timestamp:
            found = base + e.relative_offset
    return found


def _offsets_at(path: Path, position: int, window: int = 1 << 20) -> tuple[int | None, int | None]:
    """(first offset, last offset) of the entry the generated decoder reads at `position`; (None,
    None) when none decodes there."""
    with open(path, "rb") as f:
        f.seek(position)
        data = f.read(window)
        try:
            value, _ = resync.decode_entry_at(data, 0, len(data))
        except DecodeError as exc:
            if exc.kind != "truncated":
                return None, None
            data += f.read(resync.MAX_ENTRY)
            try:
                value, _ = resync.decode_entry_at(data, 0, len(data))
            except DecodeError:
                return None, None
    return _offset_bounds(value)


def _offset_bounds(value) -> tuple[int | None, int | None]:
    """(first, last) offset of a decoded entry: a v2 batch, or a legacy message (`Entry`)."""
    if isinstance(value, (_rb.RecordBatchV2, _rb.RecordBatchV2Header)):
        return value.base_offset, value.base_offset + value.last_offset_delta
    records = legacy_records(value if isinstance(value, _ms.MessageSet) else _ms.MessageSet(entries=[value]))
    return (records[0].offset, records[-1].offset) if records else (None, None)


def entry_starts(path: Path, start: int = 0) -> list[int]:
    """The byte offset of every entry of a file whose framing holds, from the offset and size
    fields alone (nothing is decoded), walking from `start` (an entry's start); the walk stops where
    the framing breaks."""
    # Each header is read by itself (as `entry_bounds` walks a buffer): a map of the file would
    # bring every page it touches into this process's memory, a 256 MiB segment's all of them.
    starts = []
    with open(path, "rb") as f:
        fd, size, pos = f.fileno(), os.fstat(f.fileno()).st_size, start
        while pos < size:
            try:
                n = _rs.entry_size(os.pread(fd, _rs.ENTRY_HEADER, pos))
            except DecodeError:  # a header cut short, or one that declares too few bytes
                break
            if pos + n > size:
                break
            starts.append(pos)
            pos += n
    return starts


# ---------------------------------------------------------------- tailing (streaming, driver)

def segment_id(path: Path) -> tuple[str, tuple]:
    """(what a stream's offsets call a segment, its place in its directory): a segment named by its
    base offset (`<base offset>.log`, as Kafka names them) is that number, and segments follow in its
    order; another file is its name, after them."""
    return (path.stem, (0, int(path.stem), "")) if path.stem.isdigit() else (path.name, (1, 0, path.name))


def stream_partitions(options: ReadOptions) -> dict[str, tuple[str | None, int | None, list[tuple[str, Path, None]]]]:
    """{key: (topic, partition, [(segment id, path, None)] in log order)} of the logs under the path:
    one entry per directory (its path under the load path, `.` for the path itself), as a stream's
    offsets name them. (No state: a Kafka entry carries its offsets.)"""
    root = Path(options.path).absolute()
    found: dict[str, tuple] = {}
    files = files_under(root, options.glob)
    for directory in sorted({f.parent for f in files}):
        topic, partition = kafka_topic_partition(directory)
        topic = options.topic if options.topic is not None else topic
        partition = options.partition if options.partition is not None else partition
        segments = sorted((segment_id(f) for f in files if f.parent == directory), key=lambda s: s[1])
        key = "." if directory == root or root.is_file() else directory.relative_to(root).as_posix()
        by_id = {segment_id(f)[0]: f for f in files if f.parent == directory}
        found[key] = (topic, partition, [(name, by_id[name], None) for name, _ in segments])
    return found


def complete_end(path: Path, start: int, state=None) -> tuple[int, None]:
    """(where the entries of a segment that is still being written end, from `start`, an entry's
    start; no state). What follows the last complete entry is not read yet: an entry cut short at
    the end of the file (its bytes still being written), zeros to the end of the file (a
    preallocated segment), and a last entry whose checksum fails there (being written into such
    zeros): the generated decoder must read the last entry whole with its checksum. Bytes where no
    entry decodes, with complete entries after them, are included (a reader reports them as an
    unreadable range); the spans are the reader's own (`entries`)."""
    size = path.stat().st_size
    starts = entry_starts(path, start)
    spans = [(at, following - at, "entry", None) for at, following in zip(starts, starts[1:])]
    framed = start
    if starts:
        framed = starts[-1] + _rs.entry_size(_read(path, starts[-1], _rs.ENTRY_HEADER))
        spans.append((starts[-1], framed - starts[-1], "entry", None))
    if framed < size:
        spans += [(sp.at, sp.size, sp.kind, sp.error) for sp in entries(FileRange(str(path), framed, size), False)]
    while spans and spans[-1][0] + spans[-1][1] == size and spans[-1][2] != "entry" or \
            spans and spans[-1][3] is not None:
        spans.pop()  # zeros, or bytes that do not decode yet, to the end of the file
    if spans:
        at, length, _, _ = spans[-1]
        data = _read(path, at, length)
        if resync.entry_at(data, 0, len(data)) is None:
            spans.pop()  # the last entry's checksum fails: it is being written
    return (spans[-1][0] + spans[-1][1] if spans else start), None


def _read(path: Path, at: int, length: int) -> bytes:
    with open(path, "rb") as f:
        f.seek(at)
        return f.read(length)


def relocate(r: FileRange) -> FileRange:
    """A range of a segment that is no longer at its path: Kafka renames a segment it deletes to
    `<name>.deleted` (and removes it `file.delete.delay.ms` later)."""
    deleted = Path(r.path + ".deleted")
    return replace(r, path=str(deleted)) if deleted.is_file() else r


def stream_ranges(segment: str, path: Path, start: int, end: int | None, topic, partition, state,
                  options: ReadOptions) -> list[FileRange]:
    """The ranges of a stream's micro-batch in one segment: [start, end) (end None: to the end of the
    file, a segment no longer written), cut at entry boundaries into pieces of about `splitBytes`."""
    if not path.is_file():
        return []  # deleted since (retention): nothing to read
    end = path.stat().st_size if end is None else end
    if end <= start:
        return []
    boundaries = [b - start for b in entry_starts(path, start) if start < b < end] \
        if end - start > options.split_bytes else []
    return [FileRange(str(path), a + start, b + start, topic, partition)
            for a, b in cut(boundaries, end - start, options.split_bytes)]


# ---------------------------------------------------------------- reading (tasks)

def read(ranges: list[FileRange], options: ReadOptions) -> Iterator[pa.RecordBatch]:
    """The Arrow batches of one input partition."""
    if options.rows == "record" and (options.pushed.by_offset or options.pushed.by_timestamp):
        rows = (row for r in ranges for row in record_rows(r, options.failfast, options.pushed))
        return record_batches(rows, schema(options))
    row_source = {"batch": batch_rows, "validation": validation_rows}.get(options.rows, record_rows)
    return record_batches((row for r in ranges for row in row_source(r, options.failfast)), schema(options))


class Span(NamedTuple):
    """What a reader found at one place of a range: an entry (whole, or cut short at the end of the
    file), an `unreadable` range of bytes where no entry decodes (after a broken frame, up to where
    the framing resynchronises, `resync.next_entry`), or a `zero_fill` tail (zeros to the end of the
    file, as a preallocated segment keeps after a crash)."""

    at: int                      # file offset
    size: int                    # bytes in the file
    entry: bytes | None          # the entry's bytes (None for unreadable and zero_fill)
    error: tuple | None          # the `error` column (None for a framed entry and zero_fill)
    kind: str = "entry"          # entry, unreadable or zero_fill


def entries(r: FileRange, failfast: bool, max_entry: int = resync.MAX_ENTRY) -> Iterator[Span]:
    """Every entry of the range, by its framing; after a broken frame, the bytes up to the next
    offset where the generated decoder reads a whole entry with its checksum (`resync`) as one
    `unreadable` span, and reading goes on there. Zeros to the end of the file are one `zero_fill`
    span. A last entry that the decoder finds cut short (and nothing decodes after it) is an entry
    with a `truncated` error, as before. Every byte of the range is in exactly one span."""
    with open_input(r.path) as f:
        file_size = os.fstat(f.fileno()).st_size
        f.seek(r.start)
        data = f.read(max(0, min(r.end, file_size) - r.start))  # bytes: the compiled decoders take no mmap
    base, end, pos = r.start, len(data), 0
    while pos < end:
        at = base + pos
        try:
            size = _rs.entry_size(data, pos, end)
        except DecodeError as exc:  # a header cut short, or one that declares too few bytes
            why = (exc.kind, base + exc.offset, exc.detail, exc.path)
        else:
            if pos + size <= end:
                yield Span(at, size, data[pos:pos + size], None)
                pos += size
                continue
            why = ("truncated", at, f"entry of {size} bytes, {end - pos} left in the file", "")
        if base + end == file_size and resync.all_zero(data, pos, end):
            yield Span(at, end - pos, None, None, "zero_fill")
            return
        if failfast:
            raise DecodeError(why[0], f"{r.path}: {why[2]}", why[1], why[3])
        following = resync.next_entry(data, pos + 1, end, max_entry)
        if following is None and _cut_short(data, pos, end):
            yield Span(at, end - pos, data[pos:end], error_value(DecodeError(why[0], why[2], 0, why[3]), why[1]))
            return
        following = end if following is None else following
        detail = (f"{following - pos} bytes where no entry decodes, from a broken frame ({why[2]}) to "
                  + ("the end of the file" if base + following == file_size
                     else "the next entry whose checksum holds"))
        yield Span(at, following - pos, None, ("unreadable", at, "", detail), "unreadable")
        pos = following


def _cut_short(data, pos: int, end: int) -> bool:
    """Whether the generated entry decoder reads data[pos:end] as an entry cut short (a last
    entry the writer did not finish), rather than refusing its bytes."""
    try:
        resync.decode_entry_at(data, pos, end)
    except DecodeError as exc:
        return exc.kind == "truncated"
    return False


def _in_file(exc: DecodeError, path: str, base: int) -> DecodeError:
    """The same error with the file named and the offset made absolute, for failfast."""
    return DecodeError(exc.kind, f"{path}: {exc.detail}", base + (exc.offset or 0), exc.path)


def decode_entry(entry: bytes, tuples: bool = False, columns: bool = False):
    """A decoded entry: a `RecordBatchV2`, or a `MessageSet` holding the one legacy message.
    `tuples`: a batch's records in their tuple form (no object each); `columns`: a batch as its
    header and its records' columns (`decode_columns`: no tuple each either), what record rows
    need."""
    if entry[resync.MAGIC_AT] in (0, 1):  # where kafka.record_set reads the magic that picks the format
        return _ms.decode(entry)
    if columns:
        return _rb.decode_columns(entry)
    return _rb.decode(entry, tuples=tuples)


def _decoded(r: FileRange, failfast: bool, tuples: bool = False, columns: bool = False):
    """(span, decoded entry or None, error or None) for each span of the range (`entries`)."""
    for span in entries(r, failfast):
        if span.error is not None or span.entry is None:
            yield span, None, span.error
            continue
        try:
            yield span, decode_entry(span.entry, tuples, columns), None
        except DecodeError as exc:
            if failfast:
                raise _in_file(exc, r.path, span.at) from None
            yield span, None, error_value(exc, span.at)


def entry_magic(entry: bytes | None) -> int | None:
    if entry is None or len(entry) <= resync.MAGIC_AT:
        return None
    return int.from_bytes(entry[resync.MAGIC_AT:resync.MAGIC_AT + 1], "big", signed=True)  # the magic is an s1


def record_rows(r: FileRange, failfast: bool = False, pushed: Pushed | None = None) -> Iterator[tuple | list]:
    """RECORD_SCHEMA rows of a range (as `tables.record_batches` takes them): every record of every
    entry, one row per bad entry. A v2 batch's records come as columns (`batch_record_columns`)."""
    for span, value, error in _decoded(r, failfast, columns=True):
        if span.kind == "zero_fill":
            continue  # no batch: zeros a preallocated segment kept
        v2 = value.__class__ is tuple  # a v2 batch: its header and its records' columns
        if pushed is not None and value is not None:
            first, last = _offset_bounds(value[0] if v2 else value)
            if pushed.offset_to is not None and first is not None and first >= pushed.offset_to:
                return  # offsets ascend through a segment: nothing after this batch is in range
            if not pushed.offsets_meet(first, last):
                continue
        if v2:
            columns = batch_record_columns(*value, r, span.at)
            if pushed is not None and pushed.by_timestamp and columns.n and \
                    not pushed.timestamps_meet(*column_bounds(columns[_TIMESTAMP])):
                continue  # no record of the batch is in the timestamp range
            yield columns
        else:
            for row in _other_record_rows(r, span.at, span.entry, value, error):
                stamp = row[_TIMESTAMP]
                if pushed is None or not pushed.by_timestamp or stamp is None or pushed.timestamps_meet(stamp, stamp):
                    yield row


def batch_record_columns(header, records: dict, r: FileRange, at: int) -> list[list]:
    """RECORD_SCHEMA columns of the records of a v2 batch at file offset `at`, from its header (or
    whole value) and its records' columns (`decode_columns`)."""
    return record_run(len(records["value"]), **v2_record_columns(header, records), topic=r.topic,
                      partition=r.partition, file=r.path, batch_offset=at, **v2_batch_fields(header))


def v2_record_columns(header, records: dict) -> dict:
    """The offset, timestamp, key, value and headers columns of the records of a v2 batch, and
    their timestamp type, for a `record_run`, from its header (or whole value) and its records'
    columns (`decode_columns`, `logcodec.kafka.records.delta_columns`): as
    `logcodec.kafka.batch_columns` gives them, but for the offsets and timestamps, whose bases
    Arrow adds (`Plus`), and a control marker's key and value, as bytes."""
    keys, values, headers = records["key"], records["value"], records["headers"]
    ts_type = int(header.attributes.timestamp_type)
    if ts_type == LOG_APPEND_TIME:
        timestamps = header.max_timestamp  # every record's
    else:
        timestamps = Plus(header.base_timestamp, records["timestamp_delta"])
    if header.attributes.is_control:
        keys, values = [_raw(k) for k in keys], [_raw(v) for v in values]
    if not any(headers):
        # No record has headers (as most producers write): the column is one run of an empty
        # list, which Arrow repeats without converting a list per row (a list given here would
        # be taken for the column itself, so the empty value is a tuple).
        headers = ()
    return {"offset": Plus(header.base_offset, records["offset_delta"]), "timestamp": timestamps,
            "timestamp_type": TIMESTAMP_TYPES.get(ts_type), "key": keys, "value": values, "headers": headers}


def v2_batch_fields(value) -> dict:
    """What every record row of a decoded v2 batch repeats, by column name (from its header or
    its whole value)."""
    a = value.attributes
    return {"producer_id": value.producer_id, "producer_epoch": value.producer_epoch,
            "base_sequence": value.base_sequence, "leader_epoch": value.partition_leader_epoch,
            "is_transactional": a.is_transactional, "is_control": a.is_control,
            "codec": _rb.Compression(a.compression).name, "magic": 2}


def _other_record_rows(r: FileRange, at: int, entry: bytes | None, value, error) -> Iterator[tuple]:
    """RECORD_SCHEMA rows of an entry that is no v2 batch: the row of a bad entry, or the records
    of a legacy message (or compressed wrapper)."""
    if error is not None:
        yield record_row(topic=r.topic, partition=r.partition, magic=entry_magic(entry), file=r.path,
                         batch_offset=at, error=error)
        return
    message = value.entries[0].message
    codec_name = _ms.Compression(message.attributes.compression).name
    for rec in legacy_records(value):
        yield record_row(topic=r.topic, partition=r.partition, offset=rec.offset, timestamp=rec.timestamp,
                         timestamp_type=TIMESTAMP_TYPES.get(rec.timestamp_type), key=rec.key, value=rec.value,
                         headers=[], is_transactional=False, is_control=False, codec=codec_name, magic=message.magic,
                         file=r.path, batch_offset=at)


def batch_rows(r: FileRange, failfast: bool = False) -> Iterator[tuple]:
    """BATCH_SCHEMA rows of a range: one per entry, decoded or not."""
    for span, value, error in _decoded(r, failfast, tuples=True):
        if span.kind == "zero_fill":
            continue  # no batch: zeros a preallocated segment kept
        at, entry, size = span.at, span.entry, span.size
        if error is not None:
            yield batch_row(topic=r.topic, partition=r.partition, file=r.path, batch_offset=at, size=size,
                            magic=entry_magic(entry), crc_valid=entry_crc_valid(entry), error=error)
        elif isinstance(value, _rb.RecordBatchV2):
            yield batch_row(topic=r.topic, partition=r.partition, file=r.path, batch_offset=at, size=size,
                            crc_valid=entry_crc_valid(entry), **v2_batch_columns(value))
        else:
            message = value.entries[0].message
            records = legacy_records(value)
            timestamps = [rec.timestamp for rec in records if rec.timestamp is not None]
            yield batch_row(topic=r.topic, partition=r.partition, file=r.path, batch_offset=at, size=size,
                            magic=message.magic, base_offset=records[0].offset if records else None,
                            last_offset=value.entries[0].offset, record_count=len(records),
                            codec=_ms.Compression(message.attributes.compression).name,
                            timestamp_type=TIMESTAMP_TYPES.get(records[0].timestamp_type) if records else None,
                            base_timestamp=records[0].timestamp if records else None,
                            max_timestamp=max(timestamps) if timestamps else None, is_transactional=False,
                            is_control=False, payload_bytes=payload_bytes(records), crc_valid=entry_crc_valid(entry))


def v2_batch_columns(value) -> dict:
    """The BATCH_SCHEMA columns a decoded v2 batch fills by itself (Kafka's and Inkless's alike)."""
    return {**v2_batch_fields(value), "base_offset": value.base_offset,
            "last_offset": value.base_offset + value.last_offset_delta, "record_count": len(value.records),
            "timestamp_type": TIMESTAMP_TYPES.get(int(value.attributes.timestamp_type)),
            "base_timestamp": value.base_timestamp, "max_timestamp": value.max_timestamp,
            "payload_bytes": payload_bytes(batch_records(value))}


def validation_rows(r: FileRange, failfast: bool = False) -> Iterator[tuple]:
    """VALIDATION_SCHEMA rows of a range: one per entry, valid when it decodes (every CRC checked
    on the way) and re-encodes to itself (`roundtrip.compare`), quarantined otherwise."""
    for span, value, error in _decoded(r, failfast):
        at, entry, size = span.at, span.entry, span.size
        where = {"format": "kafka", "topic": r.topic, "partition": r.partition, "file": r.path, "offset": at,
                 "size": size}
        if span.kind == "zero_fill":
            yield validation_row(**where, entry="zero_fill", error_kind="zero_fill", error_offset=at, error_path="",
                                 detail=f"{size} zero bytes to the end of the file (preallocated, never written)")
            continue
        if span.kind == "unreadable":
            yield validation_row(**where, entry="unreadable", status="quarantined", **error_columns(error))
            continue
        if error is not None:
            magic = entry_magic(entry)
            yield validation_row(**where, entry=_ENTRY_KINDS.get(magic), status="quarantined", **error_columns(error),
                                 codec=entry_codec(entry, magic))
            continue
        if isinstance(value, _rb.RecordBatchV2):
            kind, count = "record_batch", len(value.records)
            codec_name = _rb.Compression(value.attributes.compression).name
            outcome = compare(entry, value, encode=_rb.encode, decode=_rb.decode, compressed=codec_name != "none",
                              base=at, codec=codec_name, light=without_length_and_crc)
        else:
            kind, count = "legacy_message", len(legacy_records(value))
            codec_name = _ms.Compression(value.entries[0].message.attributes.compression).name
            outcome = compare(entry, value, encode=_ms.encode, decode=_ms.decode, compressed=codec_name != "none",
                              base=at, codec=codec_name, light=without_derived)
        status, error = ("valid", (None,) * 4) if outcome.error is None else ("quarantined", outcome.error)
        yield validation_row(**where, entry=kind, status=status, **error_columns(error), record_count=count,
                             codec=codec_name, reencode=outcome.reencode)


_TIMESTAMP = RECORD_SCHEMA.names.index("timestamp")  # pushdown reads it from a row or a column run
_ENTRY_KINDS = {0: "legacy_message", 1: "legacy_message", 2: "record_batch"}


def entry_codec(entry: bytes | None, magic: int | None) -> str | None:
    """The codec an entry's attributes name, from its bytes (for entries that do not decode): a
    batch's from its header (`decode_header`), a legacy message's from its attributes where the
    schema places them (`OFFSETS`), read alone (`decode_part`) as an outermost message's."""
    if entry is None:
        return None
    try:
        if magic == 2:
            return _rb.decode_header(entry[:_rb.HEADER_MAX]).attributes.compression.name
        if magic in (0, 1):
            attributes, _ = _ms.decode_part("attributes", entry, _LEGACY_ATTRIBUTES, None, 0)
            return attributes.compression.name
    except (DecodeError, ValueError, AttributeError):  # a header cut short, a codec no member names
        pass
    return None


#: Where a legacy entry's attributes lie: in its message, after the entry's offset and size.
_LEGACY_ATTRIBUTES = _ms.OFFSETS["entry.message"] + _ms.OFFSETS["message.attributes"]


def _raw(part) -> bytes | None:
    """Key or value bytes. A control record's key and value are decoded into typed values;
    encoding them back with the generated encoders gives their bytes."""
    if part is None or isinstance(part, bytes):
        return part
    return _rb.encode_part("control_record_key" if isinstance(part, _rb.ControlRecordKey) else "control_record_value",
                           part)


def payload_bytes(records: list[Record]) -> int:
    total = 0
    for rec in records:
        total += len(_raw(rec.key) or b"") + len(_raw(rec.value) or b"")
        for key, value in rec.headers:
            total += len(key.encode()) + len(value or b"")
    return total


def entry_crc_valid(entry: bytes | None) -> bool | None:
    """Whether an entry's stored CRC matches its bytes (CRC-32C from the attributes on for magic 2,
    CRC-32 from the magic byte on for magic 0 and 1, as kafka.record_set places them), checked
    without decoding it; None when it cannot be told (an entry cut short, an unknown magic)."""
    if entry is None or entry_magic(entry) not in _ENTRY_KINDS:
        return None
    try:
        if _rs.entry_size(entry) != len(entry):
            return None
    except DecodeError:
        return None
    return _rs.checksums_hold(entry)