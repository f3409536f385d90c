"""Law 4, second part: kafka-python and aiokafka (C and pure Python) agree with us.

Every valid Kafka v2 vector is decoded by each library, and batches built by
each library's own builder, across codecs and header shapes, decode with our
codec to the values they were built from.
"""

import struct

import pytest
from logcodec.generated.kafka import record_batch_v2 as rb

import logcodec
from tests.thirdparty.kafka_libs import CODECS, LIBRARIES
from tests.vectorfiles import all_tests, ids

FORMAT = "kafka.record_batch_v2"
VALID = [(f, t) for f, t in all_tests("valid") if f == FORMAT]


def raw(field) -> bytes | None:
    """Record keys and values as bytes; control markers packed back into their wire form."""
    if isinstance(field, rb.ControlRecordKey):
        return struct.pack(">hh", field.version, field.type)
    if isinstance(field, rb.ControlRecordValue):
        return struct.pack(">hi", field.version, field.coordinator_epoch)
    return field


def neutral(batch: rb.RecordBatchV2) -> dict:
    """Our decoded batch in the libraries' neutral form (absolute offsets and timestamps)."""
    a = batch.attributes
    log_append = a.timestamp_type == rb.TimestampType.log_append_time
    return {
        "base_offset": batch.base_offset, "magic": batch.magic, "crc": batch.crc,
        "compression": a.compression.name, "timestamp_type": int(a.timestamp_type),
        "is_transactional": a.is_transactional, "is_control": a.is_control,
        "last_offset_delta": batch.last_offset_delta, "base_timestamp": batch.base_timestamp,
        "max_timestamp": batch.max_timestamp, "producer_id": batch.producer_id,
        "producer_epoch": batch.producer_epoch, "base_sequence": batch.base_sequence,
        "records": [
            {"offset": batch.base_offset + r.offset_delta,
             # With log-append time every record carries the broker's time (Java does the same).
             "timestamp": batch.max_timestamp if log_append else batch.base_timestamp + r.timestamp_delta,
             "key": raw(r.key), "value": raw(r.value),
             "headers": [[h.key, h.value] for h in r.headers]}
            for r in batch.records
        ],
    }


def comparable(theirs: dict) -> dict:
    return {k: v for k, v in theirs.items() if k != "partition_leader_epoch"}


@pytest.mark.parametrize("library", sorted(LIBRARIES))
@pytest.mark.parametrize("fmt,test", VALID, ids=ids(VALID))
def test_library_decodes_every_valid_vector_alike(library, fmt, test):
    data = bytes.fromhex(test["bytes"])
    decode, _ = LIBRARIES[library]
    (theirs,) = decode(data)
    assert comparable(theirs) == neutral(logcodec.decode(fmt, data))
    if theirs["partition_leader_epoch"] is not None:
        assert theirs["partition_leader_epoch"] == logcodec.decode(fmt, data).partition_leader_epoch


HEADER_SHAPES = {
    "no_headers": [],
    "one_header": [("trace", b"abc")],
    "many_headers": [("b", b"2"), ("a", b"1"), ("b", b"3"), ("empty", b""), ("null", None)],
}


def spec_for(codec: str, headers: list, transactional: bool) -> dict:
    records = [
        {"offset": i, "timestamp": 1_700_000_000_000 + i * 7 - (30 if i == 2 else 0),
         "key": None if i % 3 == 0 else f"key-{i}".encode(), "value": None if i == 4 else (b"v%d" % i) * 40,
         "headers": headers}
        for i in range(6)
    ]
    spec = {"compression": codec, "base_offset": 5000, "records": records, "is_transactional": transactional}
    if transactional:
        spec.update(producer_id=77, producer_epoch=3, base_sequence=100)
    return spec


BUILDS = [(lib, codec, shape, tx) for lib in sorted(LIBRARIES) for codec in sorted(CODECS[lib])
          for shape in HEADER_SHAPES for tx in (False, True)]


@pytest.mark.parametrize("library,codec,shape,transactional", BUILDS,
                         ids=[f"{l}-{c}-{s}-{'tx' if t else 'plain'}" for l, c, s, t in BUILDS])
def test_batches_built_by_libraries_decode_to_their_input(library, codec, shape, transactional):
    spec = spec_for(codec, HEADER_SHAPES[shape], transactional)
    data = LIBRARIES[library][1](spec)
    batch = logcodec.decode(FORMAT, data)
    ours = neutral(batch)
    assert ours["compression"] == codec
    assert ours["base_offset"] == 5000
    assert ours["is_transactional"] is transactional
    if transactional:
        assert (ours["producer_id"], ours["producer_epoch"], ours["base_sequence"]) == (77, 3, 100)
    assert [(r["offset"], r["timestamp"], r["key"], r["value"]) for r in ours["records"]] == [
        (5000 + r["offset"], r["timestamp"], r["key"], r["value"]) for r in spec["records"]]
    assert all(r["headers"] == [list(h) for h in spec["records"][0]["headers"]] for r in ours["records"])
    # Re-encoding our decoded value gives bytes every library reads back the same way.
    if codec == "none":
        assert logcodec.encode(FORMAT, batch) == data
    again = logcodec.encode(FORMAT, logcodec.strip_derived(batch))
    reencoded = neutral(logcodec.decode(FORMAT, again))
    assert {**reencoded, "crc": None} == {**ours, "crc": None}
    for other, (decode, _) in sorted(LIBRARIES.items()):
        (theirs,) = decode(again)
        assert comparable(theirs) == reencoded, other
