"""The seed's document form of Inkless block metadata (logcodec.inkless), in YAML and JSON.

Every valid `inkless.block_metadata` vector goes binary -> document -> text -> document ->
binary and comes back byte for byte; documents that break the form are refused with
`invalid_value` and the path of the broken place.
"""

import copy
import json
import uuid

import pytest

import logcodec
from logcodec import inkless
from tests.vectorfiles import all_tests, ids

FORMAT = "inkless.block_metadata"
VALID = [(f, t) for f, t in all_tests("valid") if f == FORMAT]


def test_there_are_metadata_vectors():
    assert len(VALID) >= 15


@pytest.mark.parametrize("fmt,test", VALID, ids=ids(VALID))
@pytest.mark.parametrize("form", ["yaml", "json"])
def test_binary_document_text_document_binary(fmt, test, form):
    data = bytes.fromhex(test["bytes"])
    value = logcodec.decode(fmt, data)
    doc = inkless.metadata_to_document(value)
    text = inkless.document_to_yaml(doc) if form == "yaml" else inkless.document_to_json(doc)
    again = inkless.document_from_yaml(text) if form == "yaml" else inkless.document_from_json(text)
    assert again == doc
    back = inkless.metadata_from_document(again)
    assert back == value  # complete, as decoding gives it
    assert logcodec.encode(fmt, back) == data
    # The shortcuts do the same.
    dump, load = (inkless.dump_yaml, inkless.load_yaml) if form == "yaml" else (inkless.dump_json, inkless.load_json)
    assert dump(value) == text
    assert logcodec.encode(fmt, load(text)) == data


@pytest.mark.parametrize("fmt,test", VALID, ids=ids(VALID))
def test_document_has_the_seeds_shape(fmt, test):
    value = logcodec.decode(fmt, bytes.fromhex(test["bytes"]))
    doc = inkless.metadata_to_document(value)
    assert [list(entry) for entry in doc] == [["block_header"], ["topic_partitions"]]
    assert [list(e) for e in doc[0]["block_header"]] == [[k] for k in ("id", "broker", "eventTimestamp", "path", "flags")]
    for i, entry in enumerate(doc[1]["topic_partitions"]):
        tp = entry["topic_partition"]
        assert list(tp) == ["id", "name", "partition", "batches"]
        assert tp["id"] == str(uuid.UUID(bytes=value.topic_partitions[i].id))
        for b in tp["batches"]:
            assert [list(e) for e in b["batch"]] == [["byte_offset"], ["size"], ["number_of_records"]]


SEED_YAML = """\
- block_header:
    - id: 0c9d7f3e-5a1b-4c2d-8e4f-6a7b8c9d0e1f
    - broker: 3
    - eventTimestamp: 1700000000250
    - path: inkless/DJ1_PlobTC2OT2p7jJ0OHw
    - flags: 0
- topic_partitions:
    - topic_partition:
        id: f0e1d2c3-b4a5-4697-8879-6a5b4c3d2e1f
        name: orders
        partition: 0
        batches:
          - batch:
              - byte_offset: 0
              - size: 107
              - number_of_records: 2
          - batch:
              - byte_offset: 107
              - size: 84
              - number_of_records: 1
    - topic_partition:
        id: f0e1d2c3-b4a5-4697-8879-6a5b4c3d2e1f
        name: orders
        partition: 1
        batches:
          - batch:
              - byte_offset: 191
              - size: 116
              - number_of_records: 3
    - topic_partition:
        id: 3a4b5c6d-7e8f-4a0b-9c1d-2e3f4a5b6c7d
        name: clicks
        partition: 0
        batches:
          - batch:
              - byte_offset: 307
              - size: 85
              - number_of_records: 2
          - batch:
              - byte_offset: 392
              - size: 94
              - number_of_records: 1
"""


def vector_bytes(tc_id: str) -> bytes:
    return bytes.fromhex(next(t for _, t in VALID if t["tcId"] == tc_id)["bytes"])


def test_yaml_written_by_hand_in_the_seeds_layout():
    """The document as a person writes it from the seed gives the vector's bytes, and is written back alike."""
    data = vector_bytes("basic/several_partitions_metadata")
    assert logcodec.encode(FORMAT, inkless.load_yaml(SEED_YAML)) == data
    assert inkless.dump_yaml(logcodec.decode(FORMAT, data)) == SEED_YAML


def test_flags_are_a_java_int():
    for tc_id, flags in [("flags/compressed", 1), ("flags/encrypted", 2), ("flags/compressed_and_encrypted", 3),
                         ("flags/undefined_bit_2", 4), ("flags/every_bit", -1), ("flags/sign_bit", -2**31)]:
        doc = inkless.metadata_to_document(logcodec.decode(FORMAT, vector_bytes(tc_id)))
        assert doc[0]["block_header"][4] == {"flags": flags}, tc_id


def test_keys_of_a_topic_partition_may_come_in_any_order():
    """topic_partition is a mapping in the seed (the other levels are lists, whose order counts)."""
    doc = inkless.document_from_yaml(SEED_YAML)
    tp = doc[1]["topic_partitions"][0]["topic_partition"]
    doc[1]["topic_partitions"][0]["topic_partition"] = dict(reversed(list(tp.items())))
    assert logcodec.encode(FORMAT, inkless.metadata_from_document(doc)) == vector_bytes("basic/several_partitions_metadata")


def test_a_value_built_by_hand():
    m = logcodec.codec(FORMAT)
    value = m.BlockMetadata(block_header=m.BlockHeader(
        id=bytes(16), broker=1, event_timestamp=5, path="p", flags=m.BlockFlags()), topic_partitions=[])
    doc = inkless.metadata_to_document(value)
    assert doc[0]["block_header"][4] == {"flags": 0}
    assert logcodec.encode(FORMAT, inkless.metadata_from_document(doc)) == logcodec.encode(FORMAT, value)


def test_a_value_that_cannot_be_encoded_has_no_document():
    value = logcodec.decode(FORMAT, vector_bytes("basic/several_partitions_metadata"))
    value.topic_partitions[1].id = b"short"
    with pytest.raises(logcodec.EncodeError) as info:
        inkless.metadata_to_document(value)
    assert (info.value.kind, info.value.path) == ("invalid_length", "block_metadata.topic_partitions[1].id")


# ---------------------------------------------------------------- bad documents

TP = "block_metadata.topic_partitions"


def edit(path_of, new):
    """A mutation that sets the item at a key path of the document (or deletes it for DELETE)."""
    def apply(doc):
        *head, last = path_of
        target = doc
        for k in head:
            target = target[k]
        if new is DELETE:
            del target[last]
        else:
            target[last] = new(target[last]) if callable(new) else new
        return doc
    return apply


DELETE = object()
H = (0, "block_header")
B0 = (1, "topic_partitions", 0, "topic_partition", "batches", 0, "batch")

BAD_DOCUMENTS = {
    "not_a_list": (lambda d: {"block_header": d[0]["block_header"]}, "block_metadata"),
    "missing_topic_partitions": (lambda d: d[:1], "block_metadata"),
    "extra_top_level_entry": (lambda d: d + [{"more": 1}], "block_metadata"),
    "top_level_swapped": (lambda d: d[::-1], "block_metadata[0]"),
    "header_not_a_list": (edit(H, lambda h: {k: v for e in h for k, v in e.items()}), "block_metadata.block_header"),
    "header_keys_out_of_order": (edit(H, lambda h: [h[0], h[2], h[1], h[3], h[4]]), "block_metadata.block_header[1]"),
    "header_key_missing": (edit(H, lambda h: h[:4]), "block_metadata.block_header"),
    "header_entry_with_two_keys": (edit(H + (1,), {"broker": 3, "rack": "a"}), "block_metadata.block_header[1]"),
    "id_upper_case": (edit(H + (0, "id"), "0C9D7F3E-5A1B-4C2D-8E4F-6A7B8C9D0E1F"), "block_metadata.block_header.id"),
    "id_without_hyphens": (edit(H + (0, "id"), "0c9d7f3e5a1b4c2d8e4f6a7b8c9d0e1f"), "block_metadata.block_header.id"),
    "id_as_base64url": (edit(H + (0, "id"), "DJ1_PlobTC2OT2p7jJ0OHw"), "block_metadata.block_header.id"),
    "broker_as_text": (edit(H + (1, "broker"), "3"), "block_metadata.block_header.broker"),
    "broker_as_boolean": (edit(H + (1, "broker"), True), "block_metadata.block_header.broker"),
    "broker_past_int": (edit(H + (1, "broker"), 2**31), "block_metadata.block_header.broker"),
    "timestamp_fraction": (edit(H + (2, "eventTimestamp"), 1.5), "block_metadata.block_header.eventTimestamp"),
    "timestamp_past_long": (edit(H + (2, "eventTimestamp"), 2**63), "block_metadata.block_header.eventTimestamp"),
    "timestamp_null": (edit(H + (2, "eventTimestamp"), None), "block_metadata.block_header.eventTimestamp"),
    "path_as_number": (edit(H + (3, "path"), 12), "block_metadata.block_header.path"),
    "path_too_long": (edit(H + (3, "path"), "p" * 32768), "block_metadata.block_header.path"),
    "path_lone_surrogate": (edit(H + (3, "path"), "a\ud800b"), "block_metadata.block_header.path"),
    "flags_past_int": (edit(H + (4, "flags"), 2**31), "block_metadata.block_header.flags"),
    "topic_partitions_not_a_list": (edit((1, "topic_partitions"), {}), TP),
    "entry_not_topic_partition": (edit((1, "topic_partitions", 0), lambda e: {"partition": e["topic_partition"]}), f"{TP}[0]"),
    "unknown_key": (edit((1, "topic_partitions", 1, "topic_partition", "leader"), 3), f"{TP}[1].topic_partition.leader"),
    "name_missing": (edit((1, "topic_partitions", 2, "topic_partition", "name"), DELETE), f"{TP}[2].topic_partition"),
    "topic_id_nil_text": (edit((1, "topic_partitions", 0, "topic_partition", "id"), "nil"), f"{TP}[0].topic_partition.id"),
    "partition_negative": (edit((1, "topic_partitions", 0, "topic_partition", "partition"), -1), f"{TP}[0].topic_partition.partition"),
    "batches_not_a_list": (edit((1, "topic_partitions", 0, "topic_partition", "batches"), None), f"{TP}[0].topic_partition.batches"),
    "batch_entry_wrong_key": (edit((1, "topic_partitions", 0, "topic_partition", "batches", 1), lambda e: {"range": e["batch"]}),
                              f"{TP}[0].topic_partition.batches[1]"),
    "batch_keys_out_of_order": (edit(B0, lambda b: b[::-1]), f"{TP}[0].topic_partition.batches[0].batch[0]"),
    "byte_offset_negative": (edit(B0 + (0, "byte_offset"), -1), f"{TP}[0].topic_partition.batches[0].batch.byte_offset"),
    "size_below_a_batch": (edit(B0 + (1, "size"), 60), f"{TP}[0].topic_partition.batches[0].batch.size"),
    "size_as_text": (edit(B0 + (1, "size"), "107"), f"{TP}[0].topic_partition.batches[0].batch.size"),
    "number_of_records_negative": (edit(B0 + (2, "number_of_records"), -1),
                                   f"{TP}[0].topic_partition.batches[0].batch.number_of_records"),
}


@pytest.mark.parametrize("name", sorted(BAD_DOCUMENTS))
def test_bad_documents_name_the_broken_place(name):
    mutate, path = BAD_DOCUMENTS[name]
    doc = mutate(copy.deepcopy(inkless.document_from_yaml(SEED_YAML)))
    with pytest.raises(logcodec.DecodeError) as info:
        inkless.metadata_from_document(doc)
    assert (info.value.kind, info.value.path, info.value.offset) == ("invalid_value", path, None), str(info.value)


BAD_TEXTS = {
    "yaml_syntax": ("yaml", "- block_header: [\n"),
    "yaml_duplicate_key": ("yaml", SEED_YAML.replace("        name: orders\n", "        name: orders\n        name: other\n", 1)),
    "json_syntax": ("json", '[{"block_header": '),
    "json_duplicate_key": ("json", '[{"block_header": [], "block_header": []}]'),
    "json_nan": ("json", '[{"block_header": [{"id": NaN}]}]'),
}


@pytest.mark.parametrize("name", sorted(BAD_TEXTS))
def test_bad_text_is_invalid_value(name):
    form, text = BAD_TEXTS[name]
    with pytest.raises(logcodec.DecodeError) as info:
        (inkless.load_yaml if form == "yaml" else inkless.load_json)(text)
    assert (info.value.kind, info.value.path) == ("invalid_value", "block_metadata")


def test_yaml_scalars_that_are_not_what_they_look_like():
    """YAML 1.1 reads an unquoted date as a date and `0x10` as 16; a date is not a timestamp."""
    text = SEED_YAML.replace("eventTimestamp: 1700000000250", "eventTimestamp: 2023-11-14")
    with pytest.raises(logcodec.DecodeError) as info:
        inkless.load_yaml(text)
    assert info.value.path == "block_metadata.block_header.eventTimestamp"
    assert inkless.load_yaml(SEED_YAML.replace("- flags: 0", "- flags: 0x3")).block_header.flags.compressed


def test_json_keeps_64_bit_integers_exact():
    value = logcodec.decode(FORMAT, vector_bytes("boundaries/largest_values"))
    text = inkless.dump_json(value)
    assert '"eventTimestamp": 9223372036854775807' in text and '"byte_offset": 9223372036854775807' in text
    assert json.loads(text)[0]["block_header"][2]["eventTimestamp"] == 2**63 - 1
    assert inkless.load_json(text) == value
