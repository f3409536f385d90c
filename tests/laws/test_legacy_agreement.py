"""Law 4 for Kafka's legacy message sets: kafka-python and aiokafka (C and pure Python) agree.

Every valid kafka.message_set vector decodes alike in each library; message sets built by
each library's own builder (magic 0 and 1, every codec it supports) decode with our codec
to the records they were built from; and what our encoder writes decodes in every library.
"""

import pytest

import logcodec
from tests.thirdparty.kafka_legacy_libs import LIBRARIES, UNSUPPORTED
from tests.vectorfiles import all_tests, ids

FORMAT = "kafka.message_set"
VALID = [(f, t) for f, t in all_tests("valid") if f == FORMAT]
RECORDS = [(0, 1700000000000, None, b""), (1, 1700000000001, b"k1", b"value-1" * 20), (2, -1, b"", b"x")]


def ours(data: bytes) -> list[tuple]:
    """Our records in the adapters' neutral form (a timestamp of -1 has no type)."""
    return [(r.offset, r.timestamp, None if r.timestamp == -1 else r.timestamp_type, r.key, r.value)
            for r in logcodec.kafka.legacy_records(logcodec.decode(FORMAT, data))]


def test_there_are_legacy_vectors():
    assert len(VALID) >= 15


@pytest.mark.parametrize("library", sorted(LIBRARIES))
@pytest.mark.parametrize("fmt,test", VALID, ids=ids(VALID))
def test_library_decodes_every_valid_vector_alike(library, fmt, test):
    if (library, 0, 3) in UNSUPPORTED and "BrokenLz4HeaderChecksum" in test["flags"]:
        pytest.skip(f"{library} cannot read magic-0 lz4")
    data = bytes.fromhex(test["bytes"])
    decode, _ = LIBRARIES[library]
    assert decode(data) == ours(data)


@pytest.mark.parametrize("codec", [0, 1, 2, 3])
@pytest.mark.parametrize("magic", [0, 1])
@pytest.mark.parametrize("library", sorted(LIBRARIES))
def test_library_builds_decode_to_their_inputs_and_ours_decode_in_every_library(library, magic, codec):
    if (library, magic, codec) in UNSUPPORTED:
        pytest.skip(f"{library} cannot write magic {magic} with codec {codec}")
    _, build = LIBRARIES[library]
    data = build(magic, codec, RECORDS)
    got = ours(data)
    expected = [(o, (ts if magic else None), (None if not magic or ts == -1 else 0), k, v) for o, ts, k, v in RECORDS]
    assert got == expected
    value = logcodec.decode(FORMAT, data)
    assert int(value.entries[0].message.attributes.compression) == codec
    mine = logcodec.encode(FORMAT, logcodec.strip_derived(value))
    for name, (decode, _) in LIBRARIES.items():
        if (name, magic, codec) not in UNSUPPORTED:
            assert decode(mine) == expected, name


def test_magic_one_wrapper_offsets_are_resolved_as_java_does():
    """A wrapper at offset 12 over inner offsets 0..2: absolute 10..12; at offset 1 the base
    would be negative, so the inner offsets stay (Java's rule; kafkajs would report -1)."""
    tests = {t["tcId"]: bytes.fromhex(t["bytes"]) for _, t in VALID}
    assert [r[0] for r in ours(tests["compressed/v1_gzip"])] == [10, 11, 12]
    assert [r[0] for r in ours(tests["compressed/v1_negative_base"])] == [0, 2]
    appended = ours(tests["compressed/v1_negative_base"])
    assert {r[1] for r in appended} == {1700000005000} and {r[2] for r in appended} == {1}
