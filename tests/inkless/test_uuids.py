"""Kafka's UUID texts, Inkless object keys and the order of topic ids (logcodec.inkless)."""

import random
import uuid

import pytest

import logcodec
from logcodec import inkless
from tests.vectorfiles import vector_file

# Each checked by hand: 128 bits are 21 base64 characters and 2 bits, which the 22nd character
# carries in its top bits ("A" 000000, "Q" 010000, "w" 110000, "-" 62 and "_" 63 in base64url).
KNOWN = {
    "00000000000000000000000000000000": "AAAAAAAAAAAAAAAAAAAAAA",  # Kafka's Uuid.ZERO_UUID
    "00000000000000000000000000000001": "AAAAAAAAAAAAAAAAAAAAAQ",  # Uuid.ONE_UUID, the KRaft metadata topic's id
    "ffffffffffffffffffffffffffffffff": "_____________________w",
    "f8000000000000000000000000000000": "-AAAAAAAAAAAAAAAAAAAAA",  # Uuid.randomUuid never returns one starting "-"
    "0c9d7f3e5a1b4c2d8e4f6a7b8c9d0e1f": "DJ1_PlobTC2OT2p7jJ0OHw",  # the block of the metadata vectors
}


@pytest.mark.parametrize("hex_id,text", sorted(KNOWN.items()))
def test_base64url_known_values(hex_id, text):
    raw = bytes.fromhex(hex_id)
    assert inkless.uuid_to_base64url(raw) == text
    assert inkless.uuid_to_base64url(uuid.UUID(hex_id)) == text
    assert inkless.uuid_from_base64url(text) == raw


@pytest.mark.parametrize("text", ["UXyU9i5ARn6W00ON2taeWA", "H3KKO4NTRPaCWtEmm3vW7A"])
def test_kafkas_own_test_ids_round_trip(text):
    """Topic ids from Kafka's UuidTest and MessageTest."""
    raw = inkless.uuid_from_base64url(text)
    assert len(raw) == 16 and inkless.uuid_to_base64url(raw) == text


def test_random_ids_round_trip_and_use_the_url_alphabet():
    rnd = random.Random(5)
    for _ in range(2000):
        raw = rnd.randbytes(16)
        text = inkless.uuid_to_base64url(raw)
        assert len(text) == 22 and not set(text) & set("+/=")
        assert inkless.uuid_from_base64url(text) == raw


@pytest.mark.parametrize("text", [
    "AAAAAAAAAAAAAAAAAAAAAB",    # the 2 unused bits set (Java's decoder ignores them; we refuse a second spelling)
    "AAAAAAAAAAAAAAAAAAAAA",     # 21 characters
    "AAAAAAAAAAAAAAAAAAAAAAA",   # 23
    "AAAAAAAAAAAAAAAAAAAAAA==",  # padded
    "+AAAAAAAAAAAAAAAAAAAAA",    # the standard alphabet, not the URL-safe one
    "0c9d7f3e-5a1b-4c2d-8e4f-6a7b8c9d0e1f",
])
def test_base64url_refuses_other_texts(text):
    with pytest.raises(logcodec.DecodeError) as info:
        inkless.uuid_from_base64url(text)
    assert info.value.kind == "invalid_value"


def test_uuid_text():
    raw = bytes.fromhex("0c9d7f3e5a1b4c2d8e4f6a7b8c9d0e1f")
    assert inkless.uuid_text(raw) == "0c9d7f3e-5a1b-4c2d-8e4f-6a7b8c9d0e1f"
    assert inkless.uuid_from_text("0c9d7f3e-5a1b-4c2d-8e4f-6a7b8c9d0e1f") == raw
    for bad in ("0C9D7F3E-5A1B-4C2D-8E4F-6A7B8C9D0E1F", "{0c9d7f3e-5a1b-4c2d-8e4f-6a7b8c9d0e1f}",
                "urn:uuid:0c9d7f3e-5a1b-4c2d-8e4f-6a7b8c9d0e1f", "0c9d7f3e5a1b4c2d8e4f6a7b8c9d0e1f", 5):
        with pytest.raises(logcodec.DecodeError):
            inkless.uuid_from_text(bad)
    with pytest.raises(logcodec.EncodeError):
        inkless.uuid_text(b"\x00" * 15)


# ---------------------------------------------------------------- object keys

BLOCK = bytes.fromhex("0c9d7f3e5a1b4c2d8e4f6a7b8c9d0e1f")


def test_object_keys():
    assert inkless.object_key("inkless", BLOCK) == "inkless/DJ1_PlobTC2OT2p7jJ0OHw"
    assert inkless.object_key("a/b/c", BLOCK) == "a/b/c/DJ1_PlobTC2OT2p7jJ0OHw"
    assert inkless.object_key("", BLOCK) == "DJ1_PlobTC2OT2p7jJ0OHw"  # Inkless: an empty prefix adds no separator
    for key, prefix in [("inkless/DJ1_PlobTC2OT2p7jJ0OHw", "inkless"), ("a/b/c/DJ1_PlobTC2OT2p7jJ0OHw", "a/b/c"),
                        ("DJ1_PlobTC2OT2p7jJ0OHw", "")]:
        assert inkless.parse_object_key(key) == (prefix, BLOCK)


@pytest.mark.parametrize("prefix", ["/inkless", "inkless/", "/"])
def test_a_prefix_may_not_start_or_end_with_a_separator(prefix):
    with pytest.raises(logcodec.EncodeError):
        inkless.object_key(prefix, BLOCK)


@pytest.mark.parametrize("key", ["inkless/", "inkless/DJ1_PlobTC2OT2p7jJ0OH", "/x/DJ1_PlobTC2OT2p7jJ0OHw",
                                 "x//DJ1_PlobTC2OT2p7jJ0OHw"])
def test_bad_object_keys(key):
    with pytest.raises(logcodec.DecodeError) as info:
        inkless.parse_object_key(key)
    assert (info.value.kind, info.value.path) == ("invalid_value", "object_key")


def test_metadata_vectors_name_their_objects_by_block_id():
    """Every metadata vector whose path is `<prefix>/<22 characters>` names its own block id there."""
    seen = 0
    for group in vector_file("inkless.block_metadata")["testGroups"]:
        for t in group["tests"]:
            if t["result"] != "valid":
                continue
            header = t["value"]["block_header"]
            name = header["path"].rpartition("/")[2]
            if len(name) == 22 and header["path"].startswith("inkless/"):
                assert inkless.parse_object_key(header["path"]) == ("inkless", bytes.fromhex(header["id"]))
                seen += 1
    assert seen >= 3


# ---------------------------------------------------------------- topic id order

def ids(*hexes):
    return [bytes.fromhex(h) for h in hexes]


def test_kafkas_own_comparisons():
    """Kafka's UuidTest.testCompareUuids: (0,0) < (0,1) < (1,0)."""
    id00, id01, id10 = ids("0" * 32, "0" * 31 + "1", "0" * 15 + "1" + "0" * 16)
    assert inkless.compare_topic_ids(id00, id00) == 0
    assert inkless.compare_topic_ids(id00, id01) == -1 and inkless.compare_topic_ids(id01, id00) == 1
    assert inkless.compare_topic_ids(id00, id10) == -1 and inkless.compare_topic_ids(id10, id00) == 1
    assert inkless.compare_topic_ids(id01, id10) == -1 and inkless.compare_topic_ids(id10, id01) == 1


def test_each_half_is_a_signed_long():
    """Uuid.compareTo compares mostSignificantBits, then leastSignificantBits, each as a signed long."""
    neg_msb, pos_msb = ids("f0e1d2c3b4a5469788796a5b4c3d2e1f", "3a4b5c6d7e8f4a0b9c1d2e3f4a5b6c7d")
    assert inkless.compare_topic_ids(neg_msb, pos_msb) == -1  # -0x0f1e... < 0x3a4b...
    assert inkless.compare_topic_ids(neg_msb, pos_msb, unsigned=True) == 1  # byte order says the opposite
    # The low half is signed too: (0, Long.MIN_VALUE) < (0, 0) < (0, Long.MAX_VALUE).
    low_min, zero, low_max = ids("0" * 16 + "8" + "0" * 15, "0" * 32, "0" * 16 + "7" + "f" * 15)
    assert sorted([zero, low_max, low_min], key=inkless.topic_id_sort_key) == [low_min, zero, low_max]
    # ... so this is not the order of the 128 bits as one signed integer, where the low half is unsigned.
    as_int128 = lambda raw: int.from_bytes(raw, "big", signed=True)  # noqa: E731
    assert as_int128(low_min) > as_int128(zero)
    assert inkless.topic_id_sort_key(low_min) == (0, -(2**63))
    assert inkless.topic_id_sort_key(bytes.fromhex("ff" * 16)) == (-1, -1)


def test_signed_halves_are_byte_order_with_both_sign_bits_flipped():
    """An independent statement of the same order, checked on random ids."""
    rnd = random.Random(7)
    sample = [rnd.randbytes(16) for _ in range(3000)] + ids("0" * 32, "f" * 32, "8" + "0" * 31, "0" * 16 + "8" + "0" * 15)

    def flipped(raw: bytes) -> bytes:
        b = bytearray(raw)
        b[0] ^= 0x80
        b[8] ^= 0x80
        return bytes(b)

    assert sorted(sample, key=inkless.topic_id_sort_key) == sorted(sample, key=flipped)
    assert sorted(sample, key=lambda r: inkless.topic_id_sort_key(r, unsigned=True)) == sorted(sample)


def test_metadata_vectors_list_topic_partitions_in_inklesss_order():
    for tc_id in ("basic/several_partitions_metadata", "basic/every_codec_metadata"):
        test = next(t for g in vector_file("inkless.block_metadata")["testGroups"] for t in g["tests"] if t["tcId"] == tc_id)
        tps = logcodec.decode("inkless.block_metadata", bytes.fromhex(test["bytes"])).topic_partitions
        keys = [inkless.topic_partition_sort_key(tp.id, tp.partition) for tp in tps]
        assert keys == sorted(keys), tc_id
