"""Real broker data: the kafka-go fetch fixtures in ../shared/corpus.

Each `.records.bin` is a partition's record set exactly as a broker returned it,
mixing legacy v1 messages and v2 batches. Every v2 batch must decode to the
content listed in the fixture's JSON (decoded there by the corpus's independent
parser) and re-encode byte for byte. The v1 entries wait for the legacy format
(issue 5): they are counted, and the count is checked against the README.
"""

import base64
import json
import struct
from pathlib import Path

import pytest

import logcodec

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus" / "kafka-go-fetch-fixtures"
FIXTURES = sorted(p.stem.replace(".records", "") for p in CORPUS.glob("*.records.bin")) if CORPUS.exists() else []
# From the corpus README's table, top-level v1 entries per file: v1-v1 4, v1c-v1c 3, v1c-v1-v1c 5,
# v2b-v1 2, v2bc-v1 2, v2bc-v1c 1, v2bc-v1-v1c 3, and 7 of the 15 entries of the mixed file.
EXPECTED_V1_ENTRIES = 27


def entries(data: bytes):
    """(magic, bytes) of each entry: v0/v1 messages and v2 batches share offset+length framing."""
    pos = 0
    while pos < len(data):
        (length,) = struct.unpack_from(">i", data, pos + 8)
        yield data[pos + 16], data[pos:pos + 12 + length]
        pos += 12 + length


def b64(text):
    return None if text is None else base64.b64decode(text)


pytestmark = pytest.mark.skipif(not FIXTURES, reason=f"corpus not found at {CORPUS}")


@pytest.mark.parametrize("name", FIXTURES)
def test_v2_batches_decode_to_the_fixture_content(name):
    data = (CORPUS / f"{name}.records.bin").read_bytes()
    listed = json.loads((CORPUS / f"{name}.json").read_text())["entries"]
    found = list(entries(data))
    assert len(found) == len(listed)
    for (magic, raw), expected in zip(found, listed):
        assert magic == expected["magic"]
        if magic != 2:
            continue
        batch = logcodec.decode("kafka.record_batch_v2", raw)
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
        if expected["compression"] == "none":
            assert logcodec.encode("kafka.record_batch_v2", batch) == raw


def test_v1_entries_are_counted_until_the_legacy_format_lands():
    v1 = sum(1 for name in FIXTURES for magic, _ in entries((CORPUS / f"{name}.records.bin").read_bytes())
             if magic in (0, 1))
    assert v1 == EXPECTED_V1_ENTRIES


def test_stream_decoding_stops_at_the_first_legacy_entry():
    """decode_stream reads v2 batches up to a v1 entry, which it refuses by its magic."""
    data = (CORPUS / "v2b-v1.records.bin").read_bytes()
    magics = [m for m, _ in entries(data)]
    assert magics[0] == 2 and magics[1] == 1
    with pytest.raises(logcodec.DecodeError) as info:
        logcodec.decode_stream("kafka.record_batch_v2", data)
    assert info.value.kind == "invalid_value" and info.value.path.endswith("magic")
