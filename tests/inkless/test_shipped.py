"""Inkless as shipped (logcodec.inkless.shipped): rows of its `files` and `batches` tables as one JSON
document, objects laid out in Inkless's order with `<prefix>/<base64url uuid>` keys, coalesced rows,
and log-append-time rows served as Inkless serves them."""

import copy
import json
import uuid
from datetime import datetime, timedelta, timezone

import pytest

import logcodec
from logcodec import inkless
from logcodec.inkless import shipped
from logcodec.generated.kafka import record_batch_v2 as rb
from logcodec.inkless.blocks import BlockBuilder, read_batch_bytes, read_records, validate
from tests.thirdparty.kafka_libs import LIBRARIES

BLOCK_ID = bytes.fromhex("0c9d7f3e5a1b4c2d8e4f6a7b8c9d0e1f")
NOW = 1_700_000_000_250


def batch(n: int, base_timestamp: int = 1_700_000_000_000) -> bytes:
    return rb.encode(rb.RecordBatchV2(base_timestamp=base_timestamp, max_timestamp=base_timestamp + n - 1, records=[
        rb.Record(offset_delta=i, timestamp_delta=i, key=b"k%d" % i, value=b"v") for i in range(n)]))


def build(adds, **options):
    b = BlockBuilder(clock=lambda: NOW, new_block_id=lambda: BLOCK_ID, broker=3, **options)
    for topic, partition, data in adds:
        b.add(topic, partition, data)
    (block,) = b.flush()
    return block


@pytest.fixture(scope="module")
def block():
    return build([("orders", 0, batch(2)), ("orders", 0, batch(3)), ("orders", 1, batch(1)),
                  ("clicks", 0, batch(1))], next_offsets={("orders", 0): 100})


# ---------------------------------------------------------------- the JSON document

def test_the_document_has_the_tables_columns_in_order(block):
    doc = shipped.shipped_to_document(block.shipped_metadata)
    assert list(doc) == ["files", "batches"]
    assert [list(row) for row in doc["files"]] == [list(shipped.FILE_COLUMNS)]
    assert all(list(row) == list(shipped.BATCH_COLUMNS) for row in doc["batches"])
    file = doc["files"][0]
    assert file == {"file_id": 1, "object_key": "inkless/DJ1_PlobTC2OT2p7jJ0OHw", "format": 1, "reason": "produce",
                    "state": "uploaded", "uploader_broker_id": 3, "committed_at": "2023-11-14T22:13:20.250+00:00",
                    "marked_for_deletion_at": None, "size": len(block.data)}
    assert all(row["file_id"] == 1 and row["magic"] == 2 and row["log_append_timestamp"] == NOW
               for row in doc["batches"])
    assert {row["topic_id"] for row in doc["batches"]} == {
        str(uuid.UUID(bytes=b.topic_id)) for b in block.shipped_metadata.batches}


def test_json_text_round_trips(block):
    text = shipped.dump_shipped_json(block.shipped_metadata)
    assert shipped.load_shipped_json(text) == block.shipped_metadata
    assert shipped.dump_shipped_json(shipped.load_shipped_json(text)) == text
    compact = shipped.dump_shipped_json(block.shipped_metadata, indent=None)
    assert "\n" not in compact.strip() and shipped.load_shipped_json(compact) == block.shipped_metadata


def test_timestamps_keep_milliseconds_and_microseconds():
    assert shipped.ms_from_datetime(shipped.datetime_from_ms(NOW)) == NOW
    moment = datetime(2024, 5, 6, 7, 8, 9, 123456, tzinfo=timezone(timedelta(hours=2)))
    text = shipped.timestamp_text(moment)
    assert text == "2024-05-06T05:08:09.123456+00:00"
    doc = shipped.shipped_to_document(shipped.ShippedMetadata(shipped.FileRow(
        file_id=1, object_key="k", uploader_broker_id=0, committed_at=moment, marked_for_deletion_at=moment, size=0)))
    assert shipped.shipped_from_document(doc).file.committed_at == moment


def valid_doc(block):
    return shipped.shipped_to_document(block.shipped_metadata)


def set_at(doc, path, value):
    *parents, last = path
    for key in parents:
        doc = doc[key]
    if value is DELETE:
        del doc[last]
    else:
        doc[last] = value


DELETE = object()

BAD_DOCUMENTS = [  # (where, new value, path of the error)
    (("files",), [], "files"),
    (("files",), "x", "files"),
    (("batches",), {}, "batches"),
    (("extra",), 1, "extra"),
    (("files", 0, "size"), DELETE, "files[0]"),
    (("files", 0, "owner"), "x", "files[0].owner"),
    (("files", 0, "format"), 2, "files[0].format"),
    (("files", 0, "reason"), "compact", "files[0].reason"),
    (("files", 0, "state"), "gone", "files[0].state"),
    (("files", 0, "committed_at"), "2023-11-14T22:13:20", "files[0].committed_at"),  # no UTC offset
    (("files", 0, "committed_at"), "yesterday", "files[0].committed_at"),
    (("files", 0, "committed_at"), 1700000000, "files[0].committed_at"),
    (("files", 0, "object_key"), "", "files[0].object_key"),
    (("files", 0, "object_key"), "k" * 1025, "files[0].object_key"),
    (("files", 0, "size"), -1, "files[0].size"),
    (("batches", 0, "topic_id"), "DJ1_PlobTC2OT2p7jJ0OHw", "batches[0].topic_id"),  # the column is a uuid
    (("batches", 0, "partition"), -1, "batches[0].partition"),
    (("batches", 0, "base_offset"), "100", "batches[0].base_offset"),
    (("batches", 0, "byte_size"), 1.5, "batches[0].byte_size"),
    (("batches", 0, "timestamp_type"), 2, "batches[0].timestamp_type"),
    (("batches", 0, "batch_max_timestamp"), -2, "batches[0].batch_max_timestamp"),
    (("batches", 0, "magic"), True, "batches[0].magic"),
    (("batches", 1), [], "batches[1]"),
]


@pytest.mark.parametrize("where,value,path", BAD_DOCUMENTS, ids=[p for _, _, p in BAD_DOCUMENTS])
def test_a_document_that_breaks_the_form_names_the_place(block, where, value, path):
    doc = copy.deepcopy(valid_doc(block))
    set_at(doc, where, value)
    with pytest.raises(logcodec.DecodeError) as info:
        shipped.shipped_from_document(doc)
    assert (info.value.kind, info.value.path) == ("invalid_value", path)


@pytest.mark.parametrize("text", ['{"files": [], "files": []}', "[1, 2]", "{", '{"files": NaN}', "null"])
def test_json_that_is_not_a_document_is_invalid_value(text):
    with pytest.raises(logcodec.DecodeError) as info:
        shipped.load_shipped_json(text)
    assert info.value.kind == "invalid_value"


def test_rows_that_break_a_column_are_not_written(block):
    rows = copy.deepcopy(block.shipped_metadata)
    rows.batches[1].topic_id = b"short"
    with pytest.raises(logcodec.EncodeError) as info:
        shipped.shipped_to_document(rows)
    assert info.value.path == "batches[1].topic_id"
    rows = copy.deepcopy(block.shipped_metadata)
    rows.file.committed_at = datetime(2024, 1, 1)  # no time zone
    with pytest.raises(logcodec.EncodeError) as info:
        shipped.shipped_to_document(rows)
    assert info.value.path == "files[0].committed_at"
    rows = copy.deepcopy(block.shipped_metadata)
    rows.batches[0].partition = -3
    with pytest.raises(logcodec.EncodeError) as info:
        shipped.shipped_to_document(rows)
    assert (info.value.kind, info.value.path) == ("invalid_value", "batches[0].partition")


# ---------------------------------------------------------------- objects in shipped order

#: Topic ids on which Kafka's signed halves and byte order disagree.
IDS = {"a": uuid.UUID("80000000-0000-0000-0000-000000000000"),  # high half negative as a Java long
       "b": uuid.UUID("00000000-0000-0000-0000-000000000001"),
       "c": uuid.UUID("00000000-0000-0000-8000-000000000000")}  # low half negative


@pytest.mark.parametrize("unsigned,expected", [
    (False, [("a", 0), ("c", 0), ("b", 0), ("b", 1)]),  # Uuid.compareTo on signed halves
    (True, [("b", 0), ("b", 1), ("c", 0), ("a", 0)]),  # byte order
])
def test_batches_are_stable_sorted_by_topic_id_then_partition(unsigned, expected):
    block = build([("b", 1, batch(1)), ("b", 0, batch(2)), ("a", 0, batch(3)), ("c", 0, batch(4))],
                  topic_ids=IDS, unsigned_topic_order=unsigned)
    assert [(e.topic, e.partition) for e in block.entries] == expected
    rows = block.shipped_metadata.batches
    assert [(r.topic_id, r.partition) for r in rows] == [(IDS[t].bytes, p) for t, p in expected]
    assert [r.byte_offset for r in rows] == sorted(r.byte_offset for r in rows)


def test_the_object_key_is_the_prefix_and_the_block_ids_base64url(block):
    assert block.shipped_metadata.file.object_key == "inkless/DJ1_PlobTC2OT2p7jJ0OHw"
    assert inkless.parse_object_key(block.shipped_metadata.file.object_key) == ("inkless", BLOCK_ID)
    other = build([("t", 0, batch(1))], prefix="a/b")
    assert other.object_key == "a/b/" + inkless.uuid_to_base64url(BLOCK_ID)


def test_random_block_ids_make_keys_kafka_would_make():
    (closed,) = BlockBuilder(size_limit=1).add("t", 0, batch(1))
    prefix, raw = inkless.parse_object_key(closed.object_key)
    assert prefix == "inkless" and uuid.UUID(bytes=raw).version == 4
    assert not inkless.uuid_to_base64url(raw).startswith("-")


# ---------------------------------------------------------------- coalesced rows

def test_adjacent_batches_of_a_partition_share_one_row_that_fills_its_offsets(block):
    rows = [(r.partition, r.base_offset, r.last_offset, r.byte_size) for r in block.shipped_metadata.batches
            if r.topic_id == block.entries[-1].topic_id]
    sizes = [len(batch(2)), len(batch(3)), len(batch(1))]
    assert rows == [(0, 100, 104, sizes[0] + sizes[1]), (1, 0, 0, sizes[2])]
    coalesced = next(r for r in block.shipped_metadata.batches if r.base_offset == 100)
    assert coalesced.batch_max_timestamp == 1_700_000_000_002  # the greater of its batches' max timestamps
    assert validate(block.data, block.shipped_metadata) == []


def test_without_coalescing_each_batch_has_its_row():
    block = build([("t", 0, batch(2)), ("t", 0, batch(3))], coalesce=False)
    assert [(r.batch_id, r.base_offset, r.last_offset) for r in block.shipped_metadata.batches] == [(1, 0, 1), (2, 2, 4)]
    assert validate(block.data, block.shipped_metadata) == []


# ---------------------------------------------------------------- log-append time

def test_a_log_append_time_row_is_served_with_the_commit_time():
    """Inkless rewrites the max timestamp and the type bit on read and recomputes the CRC."""
    block = build([("audit", 0, batch(3))], timestamp_types={"audit": shipped.LOG_APPEND_TIME})
    topic_id = block.entries[0].topic_id
    records = read_records(block.data, block.shipped_metadata, topic_id=topic_id, partition=0)
    assert [(r.timestamp, r.timestamp_type) for r in records] == [(NOW, 1)] * 3
    (raw,) = read_batch_bytes(block.data, block.shipped_metadata, topic_id=topic_id, partition=0)
    decode, _ = LIBRARIES["kafka-python"]
    (theirs,) = decode(raw)  # checks the CRC
    assert (theirs["timestamp_type"], theirs["max_timestamp"]) == (1, NOW)
    assert logcodec.encode("kafka.record_batch_v2", logcodec.decode("kafka.record_batch_v2", raw)) == raw
    assert block.data == batch(3)  # the object itself is never rewritten


def test_the_shipped_form_names_topics_by_id_only(block):
    with pytest.raises(ValueError):
        read_records(block.data, block.shipped_metadata, topic="orders", partition=0)
    with pytest.raises(ValueError):
        read_records(block.data, block.shipped_metadata, partition=0)
    text_id = str(uuid.UUID(bytes=block.entries[-1].topic_id))
    by_text = read_records(block.data, block.shipped_metadata, topic_id=text_id, partition=0)
    by_base64 = read_records(block.data, block.shipped_metadata, partition=0,
                             topic_id=inkless.uuid_to_base64url(block.entries[-1].topic_id))
    assert by_text == by_base64 and len(by_text) == 5
    assert json.dumps([r.offset for r in by_text]) == "[100, 101, 102, 103, 104]"
