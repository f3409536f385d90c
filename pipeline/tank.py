"""TANK partition directories as rows: one per message, or one per bundle (or one validation
result per bundle and per bad index entry, for the validation job).

A TANK base directory holds `<topic>/<partition>/` folders of segment files
(`logcodec.tank.containers`): bundles laid end to end, each after a varint length. A
bundle that is not sparse does not store its sequence numbers: they follow from the
segment's base (in its file name) and from how many messages came before. So a
segment can only be cut where the sequence number is known without reading what
precedes it: at the entries of the segment's `.index` (sequence number and file
offset of a bundle, about every 4 KB). Without an index the planner walks the bundle
headers instead (`bundle_span`: lengths and message counts, nothing decompressed).

Each range knows the index entries inside it and at its end, and checks the log
against them: a disagreement is an extra row with `error.path = "index"` (the index
or the log is wrong; the log's numbering goes on). A range that starts at an index
entry can only number from it: if that entry is wrong, the range's messages are off
until a sparse bundle brings its own numbers, and where the next entry disagrees that
is reported too (as is the entry itself, by the range before). After a bundle that
cannot be decoded, numbering resumes from its header when the header can be read,
else from the next index entry; messages read while the number is unknown have a
null `seq_num`.
"""

from __future__ import annotations

import bisect
import mmap
import os
from collections.abc import Iterator, Mapping
from dataclasses import replace
from pathlib import Path
from typing import NamedTuple

import pyarrow as pa

from logcodec._api import codec
from logcodec.tank.containers import segment_files
from logcodec.generated.tank.bundle import Bundle
from logcodec.pipeline.errors import open_input
from logcodec.pipeline.plan import ReadOptions, SegmentRange, cut, pack, partition_number, push_filters
from logcodec.pipeline.roundtrip import compare
from logcodec.pipeline.tables import ERROR, VALIDATION_SCHEMA, error_columns, error_value, record_batches, row_maker, \
    run_maker, validation_row
from logcodec.runtime.errors import DecodeError

ROW_KINDS = ("record", "bundle", "validation")

#: One row per message.
RECORD_SCHEMA = pa.schema([
    ("topic", pa.string()),             # the partition directory's parent
    ("partition", pa.int32()),          # the partition directory's name
    ("seq_num", pa.int64()),            # absolute sequence number (null while unknown after a bad bundle)
    ("timestamp", pa.int64()),          # milliseconds since the epoch
    ("key", pa.binary()),
    ("value", pa.binary()),
    ("codec", pa.string()),             # the bundle's: none or snappy
    ("file", pa.string()),              # provenance: the segment file and the byte offset of the bundle's
    ("bundle_offset", pa.int64()),      # length varint in it (what `.index` entries point at)
    ("error", ERROR),                   # null, or why the bundle at bundle_offset could not be read
])

#: One row per bundle.
BUNDLE_SCHEMA = pa.schema([
    ("topic", pa.string()),
    ("partition", pa.int32()),
    ("file", pa.string()),
    ("bundle_offset", pa.int64()),
    ("size", pa.int32()),               # bytes in the file, length varint included
    ("first_seq_num", pa.int64()),
    ("last_seq_num", pa.int64()),
    ("message_count", pa.int32()),
    ("codec", pa.string()),
    ("is_sparse", pa.bool_()),
    ("first_timestamp", pa.int64()),
    ("max_timestamp", pa.int64()),
    ("payload_bytes", pa.int64()),      # key and value bytes, uncompressed
    ("error", ERROR),
])
record_row = row_maker(RECORD_SCHEMA)
record_run = run_maker(RECORD_SCHEMA)
bundle_row = row_maker(BUNDLE_SCHEMA)

_bundle = codec("tank.bundle")
_segment = codec("tank.segment_log")  # a segment's framing: each bundle's length and where its bytes lie
_index = codec("tank.segment_index")
def _refusal(data: bytes) -> DecodeError:
    try:
        _bundle.decode(data)
    except DecodeError as exc:
        return exc
    raise RuntimeError("tank.bundle decoded a bundle of no bytes")


#: Why a bundle of length 0 breaks the framing, as the generated decoder says it.
_EMPTY_BUNDLE = _refusal(b"")
#: Bytes past a range's end that hold the next bundle's length and header (at most 5 + 1 + 15 + 5 + 8 + 5).
_PEEK = 40


def parse_options(options: Mapping[str, str]) -> ReadOptions:
    """The options of a read (`ReadOptions.parse` with this format's row kinds)."""
    return ReadOptions.parse(options, ROW_KINDS)


def schema(options: ReadOptions) -> pa.Schema:
    if options.rows == "validation":
        return VALIDATION_SCHEMA
    return BUNDLE_SCHEMA if options.rows == "bundle" else RECORD_SCHEMA


# ---------------------------------------------------------------- planning (driver)

def partition_directories(path: Path) -> list[Path]:
    """Every directory at or under `path` that holds segment files, in a stable order."""
    if not path.is_dir():
        raise FileNotFoundError(f"not a directory: {path} (TANK reads partition directories)")
    found = [d for d in [path, *sorted(p for p in path.rglob("*") if p.is_dir())] if segment_files(d)]
    return found


def push(options: ReadOptions, filters) -> tuple[ReadOptions, list]:
    """The read options with the topic and partition filters Spark pushed (handled in full: other
    partition directories are not opened), and the filters Spark must still apply."""
    pushed, rest = push_filters(filters, {"topic": "topic", "partition": "partition"})
    return replace(options, pushed=pushed), rest


def plan(options: ReadOptions) -> list[list[SegmentRange]]:
    """The input partitions of a read: every segment of every partition directory, large ones
    cut at index entries (or, without an index, at bundle boundaries found from headers)."""
    ranges = []
    # Absolute: tasks run elsewhere (an executor's working directory is not the driver's).
    for directory in partition_directories(Path(options.path).absolute()):
        topic = options.topic if options.topic is not None else directory.parent.name
        partition = options.partition if options.partition is not None else (
            partition_number(directory.name))
        if not options.pushed.keeps(topic, partition):
            continue
        for segment in segment_files(directory):
            size = segment.path.stat().st_size
            # The validation job checks the indexes, so it does not cut segments where they say.
            trusted = segment.index if options.rows != "validation" else None
            indexed = index_points(segment.index, segment.base_seq_num, size) if segment.index else None
            points = indexed if trusted else None
            if points is None and size > options.split_bytes:
                points = header_points(segment.path, segment.base_seq_num)
            points = points or {0: segment.base_seq_num}
            offsets = sorted(points)
            for start, end in cut(offsets, size, options.split_bytes):
                first = segment.base_seq_num if start == 0 else points[start]
                inside = offsets[bisect.bisect_left(offsets, start):bisect.bisect_right(offsets, end)]
                ranges.append(SegmentRange(str(segment.path), start, end, topic, partition, first,
                                           {offset: points[offset] for offset in inside},
                                           {o: q for o, q in (indexed or {}).items() if start < o < end}))
    return pack(ranges, options.split_bytes)


def index_points(index: Path, base_seq_num: int, segment_size: int) -> dict[int, int] | None:
    """{file offset: sequence number} of a segment's index entries; None when the index cannot
    be decoded. Entries that go backwards or point past the log are left out (the validation
    job reports them); the ones kept are still checked against the log by the readers."""
    try:
        entries = _index.decode(index.read_bytes()).entries
    except DecodeError:
        return None
    points: dict[int, int] = {}
    last_offset = last_seq = -1
    for e in entries:
        if last_offset < e.file_offset < segment_size and e.rel_seq_num > last_seq:
            points[e.file_offset] = base_seq_num + e.rel_seq_num
            last_offset, last_seq = e.file_offset, e.rel_seq_num
    return points


def header_points(path: Path, base_seq_num: int) -> dict[int, int]:
    """{file offset: first sequence number} of every bundle, from lengths and bundle headers
    alone; the walk stops at the first bundle whose framing or header cannot be read."""
    points: dict[int, int] = {}
    with open(path, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as data:
        pos, end, seq = 0, len(data), base_seq_num
        while pos < end:
            try:
                body, stop = _segment.entry_content(data, pos, end)
                n = stop - body
                if body + n > end:
                    break
                first, following = bundle_span(data, body, body + n, seq)
            except DecodeError:
                break
            if first is None or following is None:  # cannot happen: seq is known
                break
            points[pos] = first
            pos, seq = body + n, following
    return points


def bundle_span(buf, pos: int, end: int, base_seq_num: int | None) -> tuple[int | None, int | None]:
    """(first sequence number, the next bundle's base) of the bundle in buf[pos:end], read from
    its header alone (the codec's `decode_header`: flags, producer block, count, sparse bounds);
    the messages are not decompressed. A bundle that is not sparse starts at `base_seq_num`
    (None when unknown gives (None, None)). DecodeError when the header is cut short."""
    head = bytes(buf[pos:min(end, pos + _bundle.HEADER_MAX)])  # `buf` may be a whole segment's mmap
    try:
        header = _bundle.decode_header(head)
    except DecodeError as exc:
        raise DecodeError(exc.kind, exc.detail, pos + (exc.offset or 0), exc.path) from None
    count = header.num_messages
    if not header.is_sparse:
        return (None, None) if base_seq_num is None else (base_seq_num, base_seq_num + count)
    first = header.first_seq_num
    if count == 1:
        return first, first + 1
    return first, first + header.last_seq_num_delta + 2


# ---------------------------------------------------------------- tailing (streaming, driver)

def stream_partitions(options: ReadOptions) -> dict[str, tuple[str | None, int | None, list[tuple[str, Path, int]]]]:
    """{key: (topic, partition, [(segment id, path, base sequence number)] in log order)} of the
    partition directories under the path, keyed by their path under it (`.` for the path itself), as
    a stream's offsets name them. A segment is named by its base sequence number, which stays when
    TANK renames the active segment (`<first>_<secs>.log`) as it rolls it (`<first>-<last>_<secs>.ilog`)."""
    root = Path(options.path).absolute()
    found = {}
    for directory in partition_directories(root):
        topic = options.topic if options.topic is not None else directory.parent.name
        partition = options.partition if options.partition is not None else (
            partition_number(directory.name))
        key = "." if directory == root else directory.relative_to(root).as_posix()
        found[key] = (topic, partition, [(str(s.base_seq_num), s.path, s.base_seq_num)
                                         for s in segment_files(directory)])
    return found


def complete_end(path: Path, start: int, seq: int | None) -> tuple[int, int | None]:
    """(where the bundles of a segment that is still being written end, from `start`, a bundle's
    start whose first sequence number is `seq`; the sequence number after them, None when unknown).
    The walk reads lengths and bundle headers (`bundle_span`) and stops at a bundle cut short at the
    end of the file (still being written), at zeros, or where the framing breaks: what follows is
    read when the segment grows, or when it is rolled (then to its end, as a batch read does)."""
    with open(path, "rb") as f:
        size = os.fstat(f.fileno()).st_size
        if size <= start:
            return start, seq
        with mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as data:
            pos = start
            while pos < size:
                try:
                    body, stop = _segment.entry_content(data, pos, size)
                    n = stop - body
                except DecodeError:
                    break
                if n == 0 or body + n > size:
                    break
                try:
                    seq = bundle_span(data, body, body + n, seq)[1]
                except DecodeError:
                    seq = None  # a header that does not read: numbering resumes at the next index entry
                pos = body + n
    return pos, seq


def relocate(r: SegmentRange) -> SegmentRange:
    """A range of a segment that is no longer at its path: TANK renames the active segment as it rolls
    it; the segment with the same base sequence number in the directory is the same segment."""
    name = Path(r.path).name
    base = name.split("_")[0].split("-")[0].split(".")[0]
    for segment in segment_files(Path(r.path).parent):
        if str(segment.base_seq_num) == base:
            return replace(r, path=str(segment.path))
    return r


def stream_ranges(segment: str, path: Path, start: int, end: int | None, topic, partition, seq: int | None,
                  options: ReadOptions) -> list[SegmentRange]:
    """The range of a stream's micro-batch in one segment: [start, end) (end None: to the end of the
    file, a segment no longer written), numbered from `seq`, with the segment's index entries inside
    it to check against and to resume at (as `plan` gives them)."""
    if not path.is_file():
        return []  # deleted since (retention): nothing to read
    end = path.stat().st_size if end is None else end
    if end <= start:
        return []
    index = path.with_name(f"{segment}.index")
    indexed = index_points(index, int(segment), end) if index.is_file() else None
    trusted = indexed if options.rows != "validation" else None
    return [SegmentRange(str(path), start, end, topic, partition, seq,
                         {o: q for o, q in (trusted or {}).items() if start <= o <= end},
                         {o: q for o, q in (indexed or {}).items() if start < o < end})]


# ---------------------------------------------------------------- reading (tasks)

def read(ranges: list[SegmentRange], options: ReadOptions) -> Iterator[pa.RecordBatch]:
    """The Arrow batches of one input partition."""
    row_source = {"bundle": bundle_rows, "validation": validation_rows}.get(options.rows, record_rows)
    return record_batches((row for r in ranges for row in row_source(r, options.failfast)), schema(options))


class BundleRead(NamedTuple):
    """What a reader found at one place of a segment: a bundle (decoded or not), or an index entry
    that the log contradicts (then `size` is None and the error's path is `index`)."""

    at: int                      # file offset of the bundle's length varint
    size: int | None             # bytes in the file, varint included
    value: Bundle | None         # the decoded bundle, or None
    numbered: bool               # whether the messages' sequence numbers are known
    error: tuple | None          # the `error` column
    raw: bytes | None = None     # the bundle's bytes after the length varint (None: broken framing)
    #: bundle; unreadable (bytes from a broken frame to the next index entry whose bundle decodes);
    #: zero_fill (zeros to the end of the file: no bundle)
    kind: str = "bundle"


def bundles(r: SegmentRange, failfast: bool) -> Iterator[BundleRead]:
    """Every bundle of the range in file order, decoded, and every index entry the log contradicts."""
    with open_input(r.path) as f:
        file_size = os.fstat(f.fileno()).st_size
        f.seek(r.start)
        data = f.read(r.size + _PEEK)  # and the next range's first bundle header, to check the index there
    limit = min(r.size, len(data))
    pos, seq = 0, r.first_seq
    at_file_end = r.start + limit == file_size

    def zero_tail(pos: int) -> BundleRead | None:
        """Zeros from `pos` to the end of the file: a zero_fill span, no bundle."""
        if at_file_end and not data[pos:limit].strip(b"\0"):
            return BundleRead(r.start + pos, limit - pos, None, False, None, kind="zero_fill")
        return None

    def resume_after(pos: int) -> tuple[int, int] | None:
        """(position, sequence number) of the first index entry after `pos` whose bundle decodes."""
        for offset in sorted(o for o in r.resume if r.start + pos < o < r.start + limit):
            rel = offset - r.start
            try:
                body, stop = _segment.entry_content(data, rel, limit)
                n = stop - body
                if body + n <= limit:
                    _bundle.decode(data[body:body + n], base_seq_num=r.resume[offset])
                    return rel, r.resume[offset]
            except DecodeError:
                continue
        return None

    def unreadable(pos: int, following: int, why: str) -> BundleRead:
        detail = (f"{following - pos} bytes where no bundle can be located, from a broken frame ({why}) to the "
                  f"next index entry whose bundle decodes")
        return BundleRead(r.start + pos, following - pos, None, False, ("unreadable", r.start + pos, "", detail),
                          kind="unreadable")

    def fail(kind: str, detail: str, at: int, path: str) -> tuple:
        if failfast:
            raise DecodeError(kind, f"{r.path}: {detail}", at, path)
        return error_value(DecodeError(kind, detail, 0, path), at)

    def contradicts_index(at: int, body: int, end: int) -> BundleRead | None:
        """An error row when the index names another first sequence number for the bundle here."""
        try:
            first = bundle_span(data, body, end, seq)[0]
        except DecodeError:
            return None  # the bundle's own error says more
        if first is None or first == r.checkpoints[at]:
            return None
        return BundleRead(at, None, None, False, fail(
            "invalid_value", f"the index names sequence number {r.checkpoints[at]} for the bundle here, the log "
            f"gives {first}", at, "index"))

    while pos < limit:
        at = r.start + pos
        if seq is None and at in r.checkpoints:
            seq = r.checkpoints[at]  # numbering resumes
        try:
            body, stop = _segment.entry_content(data, pos, limit)
            n = stop - body
            broken = None if body + n <= limit else DecodeError(
                "truncated", f"bundle of {n} bytes, {limit - body} left in the file", at, "bundle")
            if n == 0:  # a bundle of no bytes: the decoder refuses it, and nothing says where the next starts
                broken = _EMPTY_BUNDLE
        except DecodeError as exc:
            exc.offset = r.start + (exc.offset or pos)
            broken = exc
        if broken is not None:
            tail = zero_tail(pos)
            if tail is not None:
                yield tail
                return
        if broken is not None:
            found = None if failfast else resume_after(pos)
            if found is not None:
                yield unreadable(pos, found[0], broken.detail)
                pos, seq = found
                continue
            yield BundleRead(at, limit - pos, None, False, fail(broken.kind, broken.detail,
                                                                at if broken is _EMPTY_BUNDLE else broken.offset,
                                                                broken.path))
            return
        disagreement = contradicts_index(at, body, body + n) if at in r.checkpoints else None
        try:
            raw = data[body:body + n]
            value = _bundle.decode(raw, base_seq_num=seq or 0)
        except DecodeError as exc:
            if failfast:
                raise DecodeError(exc.kind, f"{r.path}: {exc.detail}", r.start + body + (exc.offset or 0),
                                  exc.path) from None
            yield BundleRead(at, body + n - pos, None, False, error_value(exc, r.start + body), raw)
            try:
                seq = bundle_span(data, body, body + n, seq)[1]
            except DecodeError:
                seq = None
        else:
            numbered = value.is_sparse or seq is not None
            if numbered and value.messages:
                seq = value.messages[-1].seq_num + 1
            yield BundleRead(at, body + n - pos, value, numbered, None, raw)
        if disagreement is not None:
            yield disagreement
        pos = body + n
    if r.end in r.checkpoints and seq is not None and len(data) > limit:
        try:
            body, stop = _segment.entry_content(data, limit, len(data))
            n = stop - body
        except DecodeError:
            return  # the next range reports it
        disagreement = contradicts_index(r.end, body, min(body + n, len(data)))
        if disagreement is not None:
            yield disagreement


def record_rows(r: SegmentRange, failfast: bool = False) -> Iterator[tuple | list]:
    """RECORD_SCHEMA rows of a range (as `tables.record_batches` takes them): every message of every
    bundle, a bundle's messages as columns, one row per bad bundle."""
    for read in bundles(r, failfast):
        if read.kind == "zero_fill":
            continue  # no bundle
        if read.value is None:
            yield record_row(topic=r.topic, partition=r.partition, file=r.path, bundle_offset=read.at, error=read.error)
            continue
        messages = read.value.messages
        yield record_run(len(messages), topic=r.topic, partition=r.partition,
                         seq_num=[m.seq_num for m in messages] if read.numbered else None,
                         timestamp=[m.timestamp for m in messages], key=[m.key for m in messages],
                         value=[m.content for m in messages], codec=_bundle.Codec(read.value.codec).name,
                         file=r.path, bundle_offset=read.at)


def bundle_rows(r: SegmentRange, failfast: bool = False) -> Iterator[tuple]:
    """BUNDLE_SCHEMA rows of a range: one per bundle, decoded or not."""
    for read in bundles(r, failfast):
        if read.kind == "zero_fill":
            continue  # no bundle
        if read.value is None:
            yield bundle_row(topic=r.topic, partition=r.partition, file=r.path, bundle_offset=read.at, size=read.size,
                             error=read.error)
            continue
        messages = read.value.messages
        timestamps = [m.timestamp for m in messages]
        numbered = read.numbered and bool(messages)
        yield bundle_row(topic=r.topic, partition=r.partition, file=r.path, bundle_offset=read.at, size=read.size,
                         first_seq_num=messages[0].seq_num if numbered else None,
                         last_seq_num=messages[-1].seq_num if numbered else None, message_count=len(messages),
                         codec=_bundle.Codec(read.value.codec).name, is_sparse=read.value.is_sparse,
                         first_timestamp=timestamps[0] if timestamps else None,
                         max_timestamp=max(timestamps) if timestamps else None,
                         payload_bytes=sum(len(m.key or b"") + len(m.content) for m in messages))


# ---------------------------------------------------------------- validation (tasks)

def validation_rows(r: SegmentRange, failfast: bool = False) -> Iterator[tuple]:
    """VALIDATION_SCHEMA rows of a range: one per bundle, valid when it decodes and re-encodes to
    itself (`roundtrip.compare`), quarantined otherwise; and, from the range that starts a
    segment, one per entry of the segment's index that the log contradicts (`index_findings`): findings, not batches."""
    if r.start == 0:
        yield from _index_rows(r)
    for read in bundles(r, failfast):
        where = {"format": "tank", "topic": r.topic, "partition": r.partition, "file": r.path, "offset": read.at,
                 "size": read.size}
        if read.kind == "zero_fill":
            yield validation_row(**where, entry="zero_fill", error_kind="zero_fill", error_offset=read.at,
                                 error_path="", detail=f"{read.size} zero bytes to the end of the file")
            continue
        if read.kind == "unreadable":
            yield validation_row(**where, entry="unreadable", status="quarantined", **error_columns(read.error))
            continue
        if read.size is None:  # an index entry the range's checkpoints contradict (not with the validation plan)
            kind, offset, _, detail = read.error
            yield validation_row(**where, entry="index", error_kind=kind, error_offset=offset, error_path="index",
                                 detail=detail)
            continue
        codec_name = _codec_name(read.raw)
        if read.value is None:
            yield validation_row(**where, entry="bundle", status="quarantined", **error_columns(read.error),
                                 codec=codec_name)
            continue
        messages = read.value.messages
        base_seq_num = messages[0].seq_num if messages else 0
        outcome = compare(read.raw, read.value, encode=lambda v: _bundle.encode(v, base_seq_num=base_seq_num),
                          decode=lambda d: _bundle.decode(d, base_seq_num=base_seq_num),
                          compressed=codec_name != "none", base=read.at + read.size - len(read.raw), codec=codec_name)
        status, error = ("valid", (None,) * 4) if outcome.error is None else ("quarantined", outcome.error)
        yield validation_row(**where, entry="bundle", status=status, **error_columns(error),
                             record_count=len(messages), codec=codec_name, reencode=outcome.reencode)


def _codec_name(raw: bytes | None) -> str | None:
    """The codec a bundle's header names, read from its bytes (`decode_header`)."""
    if not raw:
        return None
    try:
        return _bundle.decode_header(raw[:_bundle.HEADER_MAX]).codec.name
    except (DecodeError, AttributeError):  # a header cut short, or a codec no member names (an int)
        return None


def _index_rows(r: SegmentRange) -> Iterator[tuple]:
    name = Path(r.path).name
    segment = next((s for s in segment_files(Path(r.path).parent) if s.path.name == name), None)
    if segment is None or segment.index is None:
        return
    for at, size, kind, offset, detail in index_findings(segment.path, segment.base_seq_num, segment.index):
        yield validation_row(format="tank", topic=r.topic, partition=r.partition, file=str(segment.index), offset=at,
                             size=size, entry="index", error_kind=kind, error_offset=offset, error_path="index",
                             detail=detail)


def index_findings(log: Path, base_seq_num: int, index: Path) -> list[tuple[int, int, str, int, str]]:
    """Every entry of a segment's index that its log contradicts, as (byte offset of the entry in the
    index file, its size, error kind, byte offset of the bad field, detail): an index that does not
    decode, an entry that does not go forwards, that points past the log or not at the start of a
    bundle, or that names another first sequence number than the bundle's. The log is walked from
    its base by lengths and bundle headers (nothing decompressed); entries pointing past the place
    where its framing breaks cannot be checked (that bundle is quarantined with its own error)."""
    raw = index.read_bytes()
    findings = []
    try:
        entries = _index.decode(raw).entries
    except DecodeError as exc:
        whole = len(raw) // 8 * 8
        findings.append((whole, len(raw) - whole, exc.kind, exc.offset or 0, f"{index.name}: {exc.detail}"))
        entries = _index.decode(raw[:whole]).entries
    starts, framed, size = _bundle_starts(log, base_seq_num)
    last_offset = last_rel = -1
    for i, e in enumerate(entries):
        at, seq = 8 * i, base_seq_num + e.rel_seq_num
        where = f"{index.name} entry {i} (sequence number {seq} at {log.name} offset {e.file_offset})"
        if e.file_offset <= last_offset or e.rel_seq_num <= last_rel:
            finding = (at, "does not follow the entry before it (entries ascend by offset and sequence number)")
        elif e.file_offset >= size:
            finding = (at + 4, f"points past the end of the log ({size} bytes)")
        elif e.file_offset >= framed:
            continue  # past the log's broken framing: its bundles cannot be located
        elif e.file_offset not in starts:
            finding = (at + 4, "does not point at the start of a bundle")
        elif starts[e.file_offset] is not None and starts[e.file_offset] != seq:
            finding = (at, f"the bundle there starts at sequence number {starts[e.file_offset]}")
        else:
            last_offset, last_rel = e.file_offset, e.rel_seq_num
            continue
        findings.append((at, 8, "invalid_value", finding[0], f"{where}: {finding[1]}"))
    return findings


def _bundle_starts(log: Path, base_seq_num: int) -> tuple[dict[int, int | None], int, int]:
    """({file offset: first sequence number} of every bundle the framing locates (None while the
    numbering is lost after an unreadable header), where the framing ends, the log's size)."""
    starts: dict[int, int | None] = {}
    with open(log, "rb") as f:
        size = f.seek(0, 2)
        if size == 0:
            return starts, 0, 0
        with mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as data:
            pos, seq = 0, base_seq_num
            while pos < size:
                try:
                    body, stop = _segment.entry_content(data, pos, size)
                    n = stop - body
                except DecodeError:
                    break
                if body + n > size:
                    break
                try:
                    first, seq = bundle_span(data, body, body + n, seq)
                except DecodeError:
                    first, seq = None, None
                starts[pos] = first
                pos = body + n
    return starts, pos, size
