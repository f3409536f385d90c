"""Real broker data: the kafka-go fetch fixtures in ../shared/corpus.

Each `.records.bin` is a partition's record set exactly as a broker returned it, mixing
legacy v1 messages (plain and gzip wrappers) and v2 batches. As `kafka.record_set`, every
entry decodes to the content listed in the fixture's JSON (decoded there by the corpus's
independent parser), the record counts are those of the corpus README, kafka-python reads
the same records, and the set re-encodes byte for byte (from its stripped value too, where
nothing is compressed; compressed entries round-trip through decoding).
"""

import base64
import json
from pathlib import Path

import pytest
from kafka.record.memory_records import MemoryRecords

import logcodec

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus" / "kafka-go-fetch-fixtures"
FIXTURES = sorted(p.stem.replace(".records", "") for p in CORPUS.glob("*.records.bin")) if CORPUS.exists() else []
# The corpus README's table: records per fixture.
README_RECORDS = {"v1-v1": 4, "v1c-v1c": 4, "v1c-v1-v1c": 6, "v2-v2": 4, "v2c-v2c": 4, "v2c-v2-v2c": 6, "v2b-v1": 4,
                  "v2bc-v1": 4, "v2bc-v1c": 4, "v2bc-v1-v1c": 6, "v1-v1c-v2-v2c-v2b-v2b-v2b-v2bc-v1b-v1bc": 20}

pytestmark = pytest.mark.skipif(not FIXTURES, reason=f"corpus not found at {CORPUS}")


def b64(text):
    return None if text is None else base64.b64decode(text)


def load(name):
    data = (CORPUS / f"{name}.records.bin").read_bytes()
    return data, json.loads((CORPUS / f"{name}.json").read_text())["entries"]


def check_batch(batch, expected):
    assert batch.base_offset == expected["baseOffset"]
    assert batch.len_batch == expected["batchLength"]
    assert batch.crc == int(expected["crc"], 16)
    assert batch.attributes.compression.name == expected["compression"]
    assert (batch.base_timestamp, batch.max_timestamp) == (expected["baseTimestamp"], expected["maxTimestamp"])
    assert (batch.producer_id, batch.producer_epoch, batch.base_sequence) == (
        expected["producerId"], expected["producerEpoch"], expected["baseSequence"])
    assert batch.num_records == expected["recordsCount"]
    got = [(r.offset_delta, r.timestamp_delta, r.key, r.value, [(h.key, h.value) for h in r.headers])
           for r in batch.records]
    want = [(r["offsetDelta"], r["timestampDelta"], b64(r["key"]), b64(r["value"]),
             [(h["key"], b64(h["value"])) for h in r.get("headers", [])]) for r in expected["records"]]
    assert got == want


def check_legacy(entry, expected):
    m = entry.message
    assert (entry.offset, m.magic, m.crc, m.timestamp) == (
        expected["offset"], expected["magic"], int(expected["crc"], 16), expected["timestamp"])
    assert int(m.attributes.compression) == expected["attributes"] & 7
    assert m.key == b64(expected["key"])
    if expected.get("inner") is None:
        assert m.value == b64(expected["value"])
        return
    inner = m.value.entries
    assert len(inner) == len(expected["inner"])
    for got, want in zip(inner, expected["inner"]):
        check_legacy(got, want)


@pytest.mark.parametrize("name", FIXTURES)
def test_every_entry_decodes_to_the_fixture_content(name):
    data, listed = load(name)
    value = logcodec.decode("kafka.record_set", data)
    assert value.partial_entry == b"" and len(value.entries) == len(listed)
    for entry, expected in zip(value.entries, listed):
        if expected["magic"] == 2:
            check_batch(entry, expected)
        else:
            check_legacy(entry, expected)


@pytest.mark.parametrize("name", FIXTURES)
def test_records_are_those_of_the_readme_and_of_kafka_python(name):
    data, _ = load(name)
    ours = logcodec.kafka.kafka_records(logcodec.decode("kafka.record_set", data))
    assert len(ours) == README_RECORDS[name]
    records, theirs = MemoryRecords(data), []
    while records.has_next():
        theirs += [(r.offset, r.timestamp, r.key, r.value) for r in records.next_batch()]
    assert [(r.offset, r.timestamp, r.key, r.value) for r in ours] == theirs
    offsets = [r.offset for r in ours]
    assert offsets == sorted(offsets) and len(set(offsets)) == len(offsets)


@pytest.mark.parametrize("name", FIXTURES)
def test_record_sets_reencode(name):
    data, listed = load(name)
    value = logcodec.decode("kafka.record_set", data)
    compressed = any(e.get("compression", "none") != "none" or e.get("inner") for e in listed)
    if not compressed:  # gzip by another encoder gives other bytes (and so another CRC)
        assert logcodec.encode("kafka.record_set", value) == data
        assert logcodec.encode("kafka.record_set", logcodec.strip_derived(value)) == data
    again = logcodec.decode("kafka.record_set", logcodec.encode("kafka.record_set", logcodec.strip_derived(value)))
    assert logcodec.strip_derived(again) == logcodec.strip_derived(value)


def test_a_cut_last_entry_is_partial_not_an_error():
    data, listed = load("v2b-v1")
    value = logcodec.decode("kafka.record_set", data[:-7])
    assert len(value.entries) == len(listed) - 1 and len(value.partial_entry) > 0
    assert data[:-7].endswith(value.partial_entry)
    assert logcodec.encode("kafka.record_set", value) == data[:-7]
