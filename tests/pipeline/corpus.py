"""Log files built for the pipeline tests: Kafka segments of batches written by kafka-python's
builders and by logcodec (every codec, headers, nulls, producer state, a transaction marker,
log-append time) mixed with legacy messages (magic 0 and 1, plain and in compressed
wrappers); a larger segment to split; corrupt copies; TANK partitions with indexes.

The expected rows are computed here from whole files by single-process logcodec
(`logcodec.decode("kafka.record_set", file)` and `logcodec.kafka.kafka_records`,
`logcodec.tank.containers.read_tank_partition`), not by the pipeline's own entry walk.
"""

from __future__ import annotations

import struct
from pathlib import Path

from kafka.record.default_records import DefaultRecordBatchBuilder
from kafka.record.legacy_records import LegacyRecordBatchBuilder

import logcodec
from logcodec.runtime.primitives import uvarint_bytes
from logcodec.generated.kafka import message_set as ms
from logcodec.generated.kafka import record_batch_v2 as rb
from logcodec.generated.tank import bundle as tb

TS = 1_700_000_000_000
CODECS = {"none": 0, "gzip": 1, "snappy": 2, "lz4": 3, "zstd": 4}
TIMESTAMP_TYPES = ["create_time", "log_append_time"]


def _with_base_offset(batch: bytes, base_offset: int) -> bytes:
    """A builder writes offset 0; the broker writes the real one (bytes 0-7, outside every CRC)."""
    return struct.pack(">q", base_offset) + batch[8:]


def kafka_python_batch(base_offset: int, codec: str, count: int, *, producer=(-1, -1, -1),
                       transactional=False) -> bytes:
    builder = DefaultRecordBatchBuilder(2, CODECS[codec], transactional, *producer, 1 << 22)
    for i in range(count):
        key = None if i % 4 == 3 else b"key-%d" % (base_offset + i)
        value = None if i % 7 == 6 else b"value-%d " % (base_offset + i) * (1 + i % 5)
        headers = [("trace", b"%d" % i), ("empty", b""), ("null", None)][: i % 4]
        builder.append(i, TS + base_offset + i, key, value, headers)
    return _with_base_offset(bytes(builder.build()), base_offset)


def logcodec_batch(base_offset: int, codec: str, count: int, *, log_append=False) -> bytes:
    attributes = rb.Attributes(compression=rb.Compression[codec],
                               timestamp_type=rb.TimestampType.log_append_time if log_append
                               else rb.TimestampType.create_time)
    records = [rb.Record(offset_delta=i, timestamp_delta=3 * i, key=b"lc-%d" % i, value=bytes(range(i % 50)) * 3,
                         headers=[rb.Header(key="h%d" % j, value=b"x" * j) for j in range(i % 3)])
               for i in range(count)]
    return logcodec.encode("kafka.record_batch_v2", rb.RecordBatchV2(
        base_offset=base_offset, partition_leader_epoch=7, attributes=attributes, base_timestamp=TS + base_offset,
        max_timestamp=TS + base_offset + 3 * (count - 1), producer_id=4242, producer_epoch=3, base_sequence=base_offset,
        records=records))


def commit_marker(offset: int) -> bytes:
    """A transaction's commit marker: a control batch of one control record, as a broker writes it."""
    return logcodec.encode("kafka.record_batch_v2", rb.RecordBatchV2(
        base_offset=offset, attributes=rb.Attributes(is_control=True, is_transactional=True),
        base_timestamp=TS + offset, max_timestamp=TS + offset, producer_id=4242, producer_epoch=3, base_sequence=-1,
        records=[rb.Record(key=rb.ControlRecordKey(version=0, type=rb.ControlType.commit),
                           value=rb.ControlRecordValue(version=0, coordinator_epoch=5))]))


def legacy_messages(base_offset: int, magic: int, codec: str, count: int) -> bytes:
    """Legacy messages: `count` plain entries, or one compressed wrapper (offsets as a broker
    assigns them: absolute inside magic 0, relative inside magic 1, the wrapper at the last)."""
    builder = LegacyRecordBatchBuilder(magic, CODECS[codec], 1 << 22)
    relative = magic == 1 and codec != "none"
    for i in range(count):
        builder.append(i if relative else base_offset + i, timestamp=TS + base_offset + i if magic else None,
                       key=None if i % 2 else b"old-%d" % i, value=b"legacy value %d" % (base_offset + i))
    data = bytes(builder.build())
    return data if codec == "none" else struct.pack(">q", base_offset + count - 1) + data[8:]


def mixed_segment() -> bytes:
    """One partition's log: legacy messages first (as an upgraded cluster keeps them), then v2."""
    parts, offset = [], 0
    for magic, codec, count in [(0, "none", 2), (0, "gzip", 3), (1, "none", 2), (1, "snappy", 4), (1, "lz4", 3)]:
        parts.append(legacy_messages(offset, magic, codec, count))
        offset += count
    for codec in CODECS:
        parts.append(kafka_python_batch(offset, codec, 9))
        offset += 9
        parts.append(logcodec_batch(offset, codec, 6))
        offset += 6
    parts.append(kafka_python_batch(offset, "zstd", 5, producer=(4242, 3, 0), transactional=True))
    offset += 5
    parts.append(commit_marker(offset))
    offset += 1
    parts.append(logcodec_batch(offset, "gzip", 4, log_append=True))
    return b"".join(parts)


def large_segment(batches: int = 120) -> bytes:
    """Enough batches that a small split size cuts the file into many input partitions."""
    parts, offset = [], 1000
    for i in range(batches):
        codec = list(CODECS)[i % len(CODECS)]
        parts.append(kafka_python_batch(offset, codec, 20) if i % 2 else logcodec_batch(offset, codec, 20))
        offset += 20
    return b"".join(parts)


def corrupt_segment() -> tuple[bytes, list[tuple[int, str]]]:
    """Good batches around a batch with a flipped byte (CRC mismatch), a legacy message with a
    flipped byte, and a cut-off last batch; with (byte offset, error kind) of each bad entry."""
    good = [kafka_python_batch(0, "gzip", 5), logcodec_batch(5, "none", 4)]
    bad_crc = bytearray(kafka_python_batch(9, "snappy", 5))
    bad_crc[-3] ^= 0xFF
    bad_legacy = bytearray(legacy_messages(14, 1, "none", 1))
    bad_legacy[-1] ^= 0xFF
    tail = logcodec_batch(20, "zstd", 5)
    parts = [good[0], bytes(bad_crc), good[1], bytes(bad_legacy), kafka_python_batch(15, "lz4", 5), tail[:-10]]
    offsets = [sum(len(p) for p in parts[:i]) for i in range(len(parts))]
    return b"".join(parts), [(offsets[1], "checksum_mismatch"), (offsets[3], "checksum_mismatch"),
                             (offsets[5], "truncated")]


def write_kafka_corpus(root: Path) -> dict[str, Path]:
    """A Kafka data directory (`<topic>-<partition>/<base offset>.log`, with the index files a
    broker keeps beside them) and a raw record-set file outside it."""
    logs = root / "kafka-logs"
    (logs / "orders-0").mkdir(parents=True)
    (logs / "orders-0" / "00000000000000000000.log").write_bytes(mixed_segment())
    (logs / "orders-0" / "00000000000000000000.index").write_bytes(b"\0" * 16)  # not a log: skipped by the glob
    (logs / "payments-3").mkdir()
    (logs / "payments-3" / "00000000000000001000.log").write_bytes(large_segment())
    fetch = root / "fetch-response.records"
    fetch.write_bytes(kafka_python_batch(0, "lz4", 3) + legacy_messages(3, 1, "gzip", 2))
    corrupt = root / "corrupt" / "orders-9"
    corrupt.mkdir(parents=True)
    (corrupt / "00000000000000000000.log").write_bytes(corrupt_segment()[0])
    return {"logs": logs, "fetch": fetch, "corrupt": corrupt.parent}


def expected_kafka_records(path: Path) -> list[tuple]:
    """(offset, timestamp, timestamp type, key, value, headers) of every record of a file, by
    single-process logcodec on the whole file."""
    value = logcodec.decode("kafka.record_set", path.read_bytes())
    assert value.partial_entry == b"", f"{path} ends in a partial entry"
    return [(r.offset, r.timestamp, None if r.timestamp_type is None else TIMESTAMP_TYPES[r.timestamp_type],
             _control_bytes(r.key), _control_bytes(r.value), list(r.headers)) for r in logcodec.kafka.kafka_records(value)]


def expected_kafka_batches(path: Path) -> list[tuple]:
    """(magic, codec, first offset, last offset, record count) of every entry of a file, by
    single-process logcodec on the whole file."""
    out = []
    for entry in logcodec.decode("kafka.record_set", path.read_bytes()).entries:
        if isinstance(entry, rb.RecordBatchV2):
            out.append((2, rb.Compression(entry.attributes.compression).name, entry.base_offset,
                        entry.base_offset + entry.last_offset_delta, len(entry.records)))
        else:
            records = logcodec.kafka.legacy_records(ms.MessageSet(entries=[entry]))
            out.append((entry.message.magic, ms.Compression(entry.message.attributes.compression).name,
                        records[0].offset, entry.offset, len(records)))
    return out


def _control_bytes(part):
    """A control record's typed key and value as Kafka writes them (version and type; version and
    coordinator epoch, int16/int32 big-endian): written by hand here, apart from the pipeline."""
    if isinstance(part, rb.ControlRecordKey):
        return struct.pack(">hh", part.version, int(part.type))
    if isinstance(part, rb.ControlRecordValue):
        return struct.pack(">hi", part.version, part.coordinator_epoch)
    return part


# ---------------------------------------------------------------- TANK

def tank_segment(first_seq: int, bundles: int, index_every: int = 512) -> tuple[bytes, bytes]:
    """A TANK segment of `bundles` bundles starting at `first_seq` (every fifth sparse, every
    third snappy, message counts across the 15/16 flag boundary) and its index, with an entry
    for the first bundle and then whenever `index_every` bytes were written since the last."""
    log, index, seq, since_index = bytearray(), bytearray(), first_seq, None
    for b in range(bundles):
        count = 1 + (b * 7) % 20
        sparse = b % 5 == 4
        if sparse:
            seq += 3  # a gap, as a sparse bundle may leave
        messages = [tb.Message(timestamp=TS + b * 10 + i // 4, key=b"k%d" % i if i % 3 == 0 else None,
                               content=b"tank message %d/%d " % (b, i) * (1 + i % 4),
                               **({"seq_num": seq + 2 * i} if sparse else {}))
                    for i in range(count)]
        raw = tb.encode(tb.Bundle(codec=tb.Codec.snappy if b % 3 == 2 else tb.Codec.none, is_sparse=sparse,
                                  messages=messages), base_seq_num=seq)
        if since_index is None or since_index >= index_every:
            index += struct.pack("<II", seq - first_seq, len(log))
            since_index = 0
        framed = uvarint_bytes(len(raw)) + raw
        log += framed
        since_index += len(framed)
        seq = (messages[-1].seq_num if sparse else seq + count - 1) + 1
    return bytes(log), bytes(index)


def write_tank_corpus(root: Path) -> Path:
    """A TANK base directory: `clicks/0` with two segments and indexes, `clicks/1` whose large
    segment has no index (split by walking bundle headers)."""
    base = root / "tank"
    p0, p1 = base / "clicks" / "0", base / "clicks" / "1"
    p0.mkdir(parents=True)
    p1.mkdir(parents=True)
    first, _ = _write_segment(p0, 1, 40, "1-{last}_1795324531.ilog")
    _write_segment(p0, first, 60, "{first}_1795324599.log")
    log, _ = tank_segment(100, 50)
    (p1 / "100_1795324600.log").write_bytes(log)
    return base


def _write_segment(directory: Path, first_seq: int, bundles: int, name: str) -> tuple[int, Path]:
    log, index = tank_segment(first_seq, bundles)
    messages = logcodec.codec("tank.segment_log").decode(log, base_seq_num=first_seq).entries
    last = messages[-1].bundle.messages[-1].seq_num
    path = directory / name.format(first=first_seq, last=last)
    path.write_bytes(log)
    (directory / f"{first_seq}.index").write_bytes(index)
    return last + 1, path


# ---------------------------------------------------------------- corrupt logs for the validation job

def kafka_entry_offsets(data: bytes) -> list[int]:
    """Where each Kafka entry of a file starts, by its framing alone (a cut-off last entry too):
    the batches a single-process walk finds, apart from the pipeline's own walk."""
    offsets, pos = [], 0
    while pos < len(data):
        offsets.append(pos)
        if len(data) - pos < 12:
            break
        size = struct.unpack_from(">i", data, pos + 8)[0]
        if size < 14:
            break
        pos += 12 + size
    return offsets


def tank_bundle_offsets(data: bytes) -> list[int]:
    """Where each TANK bundle of a segment starts, by its length varints alone (a cut-off last one too)."""
    offsets, pos = [], 0
    while pos < len(data):
        offsets.append(pos)
        n = shift = 0
        while pos < len(data):
            b = data[pos]
            pos += 1
            n |= (b & 0x7F) << shift
            shift += 7
            if b < 0x80:
                break
        pos += n
    return offsets


def write_validation_corpus(root: Path) -> dict:
    """Logs with corruption injected where the validation job must find it, and what it must find:
    a Kafka tree (a clean segment, one with a flipped byte in a batch, one cut short inside a batch)
    and a TANK tree (a corrupt bundle, a segment cut short, two bad index entries). Returns the two
    roots, `bad`: [(file, byte offset, error kind)] of every bad batch or bundle, and `index`:
    [(index file, byte offset of the entry, error offset)] of every bad index entry."""
    bad, index_findings = [], []
    kafka = root / "kafka"
    for name, data in [("orders-0", mixed_segment())]:
        (kafka / name).mkdir(parents=True)
        (kafka / name / "00000000000000000000.log").write_bytes(data)
    batches = [kafka_python_batch(0, "none", 5), logcodec_batch(5, "gzip", 4), kafka_python_batch(9, "lz4", 6),
               logcodec_batch(15, "none", 3)]
    starts = [sum(len(b) for b in batches[:i]) for i in range(len(batches))]
    flipped = bytearray(b"".join(batches))
    flipped[starts[2] + 70] ^= 0x10  # inside the third batch's records: its CRC-32C no longer matches
    path = kafka / "orders-1" / "00000000000000000000.log"
    path.parent.mkdir()
    path.write_bytes(bytes(flipped))
    bad.append((str(path), starts[2], "checksum_mismatch"))
    path = kafka / "orders-2" / "00000000000000000000.log"
    path.parent.mkdir()
    path.write_bytes(b"".join(batches)[: starts[3] + 30])  # cut inside the fourth batch
    bad.append((str(path), starts[3], "truncated"))

    tank = root / "tank"
    p0, p1 = tank / "clicks" / "0", tank / "clicks" / "1"
    p0.mkdir(parents=True)
    p1.mkdir(parents=True)
    first, ilog = _write_segment(p0, 1, 40, "1-{last}_1795324531.ilog")
    _, log = _write_segment(p0, first, 60, "{first}_1795324599.log")
    # A corrupt bundle: a byte of the snappy-compressed messages of the third bundle of the second segment.
    data = bytearray(log.read_bytes())
    third = tank_bundle_offsets(bytes(data))[2]
    data[third + 3] ^= 0xFF
    log.write_bytes(bytes(data))
    bad.append((str(log), third, "corrupt_compressed"))
    # Two bad index entries: the first segment's fourth names the next sequence number, the second
    # segment's third points one byte into a bundle.
    for index_file, entry, field, value in [(p0 / "1.index", 3, 0, 1), (p0 / f"{first}.index", 2, 4, 1)]:
        entries = bytearray(index_file.read_bytes())
        struct.pack_into("<I", entries, 8 * entry + field, struct.unpack_from("<I", entries, 8 * entry + field)[0]
                         + value)
        index_file.write_bytes(bytes(entries))
        index_findings.append((str(index_file), 8 * entry, 8 * entry + field))
    # A segment cut short inside its last bundle.
    log, _ = tank_segment(100, 30)
    segment = p1 / "100_1795324600.log"
    segment.write_bytes(log[:-7])
    bad.append((str(segment), tank_bundle_offsets(log)[-1], "truncated"))
    return {"kafka": kafka, "tank": tank, "bad": bad, "index": index_findings}


#: What a record row repeats of its batch, and the batch row has too.
BATCH_FIELDS = ("topic", "partition", "timestamp_type", "producer_id", "producer_epoch", "base_sequence",
                "leader_epoch", "is_transactional", "is_control", "codec", "magic")


def assert_records_agree_with_their_batches(records: list[dict], batches: list[dict]) -> None:
    """Every record row (of a batch that decoded) repeats its batch row's fields, lies in its
    offset range, and each batch has as many record rows as its `record_count`: the record rows,
    built column by column, against the batch rows, built row by row by other code."""
    by_place = {(b["file"], b["batch_offset"]): b for b in batches if b["error"] is None}
    counts: dict = {}
    for rec in (r for r in records if r["error"] is None):
        batch = by_place[(rec["file"], rec["batch_offset"])]
        assert {k: rec[k] for k in BATCH_FIELDS if k in batch} == {k: batch[k] for k in BATCH_FIELDS if k in batch}
        assert batch["base_offset"] <= rec["offset"] <= batch["last_offset"]
        counts[(rec["file"], rec["batch_offset"])] = counts.get((rec["file"], rec["batch_offset"]), 0) + 1
    assert counts == {place: b["record_count"] for place, b in by_place.items() if b["record_count"]}
