"""The decode API's `inkless.block_with_metadata`: an Inkless object read through its metadata and
checked against it as `logcodec inkless validate` checks it. The expected findings are the check
vectors' (written by hand in schemas/inkless/block_validation.checks.yaml); the expected values are
the golden vectors' and the batches a test built itself."""

from __future__ import annotations

import base64
import json
import re
import urllib.request

import pytest
from logcodec.generated.kafka import record_batch_v2 as rb

import logcodec
from logcodec.inkless import blocks as inkless_blocks
from logcodec.inkless import document as inkless
from logcodec.inkless.blocks import BlockBuilder

from .conftest import SMALL_LIMIT, VECTORS, vector_case
from .test_server import post

NAME = "inkless.block_with_metadata"
CHECKS = json.loads((VECTORS / "inkless" / "block_validation.checks.json").read_text())["tests"]
BLOCK_ID = bytes.fromhex("0c9d7f3e5a1b4c2d8e4f6a7b8c9d0e1f")


def check(name: str) -> dict:
    return next(t for t in CHECKS if t["tcId"] == name)


def at(value, path: str):
    """The node of a JSON value at a path (`a[1].b`); KeyError or IndexError when there is none."""
    for name, index in re.findall(r"([A-Za-z_]\w*)|\[(\d+)\]", path):
        value = value[name] if name else value[int(index)]
    return value


def batch(keys: list[bytes], compression: str = "none") -> bytes:
    return rb.encode(rb.RecordBatchV2(
        base_timestamp=1_700_000_000_000, max_timestamp=1_700_000_000_000 + len(keys) - 1,
        attributes=rb.Attributes(compression=rb.Compression[compression]),
        records=[rb.Record(offset_delta=i, timestamp_delta=i, key=k, value=b"v" * 12) for i, k in enumerate(keys)]))


@pytest.fixture(scope="module")
def block():
    """Three partitions; orders/0 gets two requests, so its shipped row is coalesced, and one batch
    is gzip-compressed."""
    b = BlockBuilder(clock=lambda: 1_700_000_000_250, new_block_id=lambda: BLOCK_ID, next_offsets={("orders", 0): 40})
    b.add("orders", 0, batch([b"o0-a", b"o0-b"]))
    b.add("orders", 1, batch([b"o1-a", b"o1-b", b"o1-c"], "gzip"))
    b.add("orders", 0, batch([b"o0-c"]))
    b.add("clicks", 0, batch([b"c0-a"]))
    (closed,) = b.flush()
    return closed


def shipped_text(block) -> str:
    return inkless_blocks.dump_metadata(block.shipped_metadata, "json").decode()


# ---------------------------------------------------------------- the check vectors


@pytest.mark.parametrize("t", [t for t in CHECKS if t["tcId"] != "not_metadata"], ids=lambda t: t["tcId"])
def test_each_check_vector_gives_its_findings_each_naming_a_node_of_the_value(base, t):
    status, answer = post(base, {"format": NAME, "hex": t["inputs"]["object"], "metadata": {"hex": t["inputs"]["metadata"]}})
    assert status == 200, answer
    assert answer["error"] is None and answer["format"] == NAME and answer["size"] == len(t["inputs"]["object"]) // 2
    assert [(f["kind"], f["path"], f["offset"]) for f in answer["findings"]] == \
        [(f["kind"], f["path"], f["offset"]) for f in t["findings"]]
    for f in answer["findings"]:
        at(answer["value"], f["path"])  # the tree has the node the finding names
        assert f["detail"]


def test_metadata_that_is_none_gets_a_message(base):
    t = check("not_metadata")
    status, answer = post(base, {"format": NAME, "hex": t["inputs"]["object"], "metadata": {"hex": t["inputs"]["metadata"]}})
    assert status == 400 and answer["message"].startswith("the metadata does not load: invalid_value")


def test_a_clean_block_is_its_golden_vectors_laid_out_by_its_metadata(base):
    t = check("clean")
    block = vector_case("inkless.batch_block", where=lambda v: v["tcId"] == "basic/several_partitions")
    meta = vector_case("inkless.block_metadata", where=lambda v: v["tcId"] == "basic/several_partitions_metadata")
    assert (t["inputs"]["object"], t["inputs"]["metadata"]) == (block["bytes"], meta["bytes"])
    status, answer = post(base, {"format": NAME, "hex": block["bytes"], "metadata": {"hex": meta["bytes"]}})
    assert status == 200 and answer["findings"] == [] and answer["metadata"] == {"form": "seed", "entries": 5}
    value, ranges = answer["value"], answer["ranges"]
    entries = [(f"topic_partitions[{i}].batches[{j}]", tp, b) for i, tp in enumerate(meta["value"]["topic_partitions"])
               for j, b in enumerate(tp["batches"])]
    assert len(entries) == len(block["value"]["batches"])
    for (path, tp, entry), stored in zip(entries, block["value"]["batches"], strict=True):
        start, size = int(entry["byte_offset"]), entry["size"]
        # The metadata as the golden vector has it, each entry holding the batch it points at.
        got = at(value, path)
        assert {k: v for k, v in got.items() if k != "record_batch_v2"} == entry
        assert got["record_batch_v2"] == stored
        assert ranges[path] == ranges[path + ".record_batch_v2"] == [start, start + size]
        assert ranges[path + ".record_batch_v2.crc"] == [start + 17, start + 21]  # (a v2 batch's CRC is at 17)
        assert answer["labels"][path].startswith(f"{tp['name']}/{tp['partition']} · ")
        assert f"bytes {start}–{start + size - 1}" in answer["labels"][path]
    assert value["object"] == {"size": len(block["bytes"]) // 2, "dead_bytes": []}
    assert ranges["topic_partitions[0]"] == [0, 191]  # its two batches, end to end
    # The text of the batches' bytes fields, under their entries too.
    assert answer["texts"] and all(p.startswith("topic_partitions[") and ".record_batch_v2.records[" in p
                                   and bytes.fromhex(at(value, p)).decode() == text for p, text in answer["texts"].items())


def test_auto_detection_picks_it_when_metadata_is_given(base):
    t = check("crc_mismatch")
    status, answer = post(base, {"format": "auto", "hex": t["inputs"]["object"], "metadata": {"hex": t["inputs"]["metadata"]}})
    assert status == 200 and answer["format"] == NAME and answer["detected"] and answer["candidates"] == [NAME]
    assert [f["kind"] for f in answer["findings"]] == ["checksum_mismatch"]
    # Without metadata the same bytes are detected as a format of one input.
    status, answer = post(base, {"format": "auto", "hex": t["inputs"]["object"]})
    assert status == 200 and answer["format"] != NAME and "findings" not in answer


def test_a_damaged_batch_is_a_finding_at_its_crc_and_the_fields_before_it_stay(base):
    t = check("crc_mismatch")
    status, answer = post(base, {"format": NAME, "hex": t["inputs"]["object"], "metadata": {"hex": t["inputs"]["metadata"]}})
    assert status == 200
    (finding,) = answer["findings"]
    path = "topic_partitions[0].batches[1].record_batch_v2"
    assert finding["path"] == path + ".crc" and answer["ranges"][finding["path"]] == [finding["offset"], finding["offset"] + 4]
    stored = at(answer["value"], path)  # what decoded before the CRC failed, with the CRC the bytes hold
    assert stored["crc"] == int(finding["detail"].split()[1].rstrip(","), 16) and "records" not in stored
    assert at(answer["value"], "topic_partitions[0].batches[0].record_batch_v2")["records"]  # the others are whole


def test_metadata_in_text_forms_reads_as_the_binary(base):
    t = check("count_disagrees")
    meta = inkless_blocks.load_metadata(bytes.fromhex(t["inputs"]["metadata"]))
    binary = post(base, {"format": NAME, "hex": t["inputs"]["object"], "metadata": {"hex": t["inputs"]["metadata"]}})[1]
    for text in (inkless.dump_yaml(meta), inkless.dump_json(meta)):
        for spec in ({"text": text}, text, {"base64": base64.b64encode(text.encode()).decode()},
                     {"hex": text.encode().hex(), "form": "seed"}):
            status, answer = post(base, {"format": NAME, "hex": t["inputs"]["object"], "metadata": spec})
            assert status == 200 and answer == binary, spec


# ---------------------------------------------------------------- a block built here, shipped rows


def test_a_shipped_block_maps_each_record_to_its_bytes(base, block):
    status, answer = post(base, {"format": NAME, "hex": block.data.hex(), "metadata": {"text": shipped_text(block)}})
    assert status == 200 and answer["findings"] == [] and answer["metadata"]["form"] == "shipped"
    rows = block.shipped_metadata.batches
    assert len(rows) == 3 and answer["metadata"]["entries"] == 3  # orders/0's two batches share a row
    keys = {}
    for i, row in enumerate(rows):
        batches = answer["value"]["batches"][i]["record_batch_v2"]
        assert answer["ranges"][f"batches[{i}]"] == [row.byte_offset, row.byte_offset + row.byte_size]
        assert f"offsets {row.base_offset}–{row.last_offset}" in answer["labels"][f"batches[{i}]"]
        for k, b in enumerate(batches):
            for r, record in enumerate(b["records"]):
                path = f"batches[{i}].record_batch_v2[{k}].records[{r}].key"
                rng = answer["ranges"][path]
                if len(rng) == 2:  # plain records: the key's bytes in the object
                    keys[bytes.fromhex(record["key"])] = block.data[rng[0]:rng[1]]
                else:  # compressed: the key's place in the decompressed records, whose bytes are in the object
                    outer = answer["ranges"][rng[2]]
                    assert rng[2] == f"batches[{i}].record_batch_v2[{k}].records"
                    assert outer[0] >= row.byte_offset and outer[1] <= row.byte_offset + row.byte_size
                    keys[bytes.fromhex(record["key"])] = "compressed"
    assert keys == {b"o0-a": b"o0-a", b"o0-b": b"o0-b", b"o0-c": b"o0-c", b"c0-a": b"c0-a",
                    b"o1-a": "compressed", b"o1-b": "compressed", b"o1-c": "compressed"}
    assert "offsets 40–42" in answer["labels"]["batches[" + str(
        next(i for i, r in enumerate(rows) if r.partition == 0 and r.base_offset == 40)) + "]"]


def test_a_shipped_block_with_a_dropped_row_and_a_changed_byte(base, block):
    doc = json.loads(shipped_text(block))
    dropped = doc["batches"].pop()
    data = bytearray(block.data)
    first = doc["batches"][0]
    data[first["byte_offset"] + 30] ^= 0xFF  # inside the first batch's CRC range
    status, answer = post(base, {"format": NAME, "hex": data.hex(), "metadata": json.dumps(doc)})
    assert status == 200
    kinds = {(f["kind"], f["path"]) for f in answer["findings"]}
    assert ("checksum_mismatch", "batches[0].record_batch_v2[0].crc") in kinds
    assert ("trailing_bytes", "object") in kinds
    start, end = dropped["byte_offset"], dropped["byte_offset"] + dropped["byte_size"]
    assert answer["value"]["object"]["dead_bytes"] == [[start, end]] and answer["ranges"]["object.dead_bytes[0]"] == [start, end]
    dead = next(f for f in answer["findings"] if f["kind"] == "trailing_bytes")
    assert dead["offset"] == start
    # Dead bytes allowed, as `logcodec inkless validate --allow-dead-bytes` allows them.
    status, answer = post(base, {"format": NAME, "hex": data.hex(), "metadata": {"text": json.dumps(doc), "allow_dead_bytes": True}})
    assert [f["kind"] for f in answer["findings"]] == ["checksum_mismatch"]


def test_a_range_past_the_end_or_past_a_cut_object(base, block):
    text = shipped_text(block)
    cut = block.data[:-10]
    status, answer = post(base, {"format": NAME, "hex": cut.hex(), "metadata": text})
    assert status == 200
    last = len(block.shipped_metadata.batches) - 1
    assert {(f["kind"], f["path"]) for f in answer["findings"]} >= {("invalid_length", "files[0].size"),
                                                                     ("invalid_length", f"batches[{last}]")}
    assert answer["ranges"][f"batches[{last}]"][1] == len(cut)  # clipped to the object


# ---------------------------------------------------------------- bad input


# The block header of a real document, then a thousand partitions each with a thousand batches,
# in 31 kB: aliases of one partition, and of one batch.
YAML_BOMB = inkless.dump_yaml(inkless_blocks.load_metadata(bytes.fromhex(CHECKS[0]["inputs"]["metadata"]))).split(
    "- topic_partitions:")[0] + """- topic_partitions:
    - topic_partition: &tp
        id: f0e1d2c3-b4a5-4697-8879-6a5b4c3d2e1f
        name: orders
        partition: 0
        batches: [&b {batch: [{byte_offset: 0}, {size: 107}, {number_of_records: 2}]}""" + ", *b" * 1000 + "]\n" + \
    "    - topic_partition: *tp\n" * 1000


@pytest.mark.parametrize("body, status, words", [
    ({"format": NAME, "hex": "00" * 61}, 400, "needs its block metadata too"),
    ({"format": "kafka.record_batch_v2", "hex": "00" * 61, "metadata": {"hex": "00"}}, 400, "goes with inkless.block_with_metadata"),
    ({"format": NAME, "hex": "00" * 61, "metadata": {"hex": ""}}, 400, "the metadata is empty"),
    ({"format": NAME, "hex": "00" * 61, "metadata": {"text": "  \n"}}, 400, "the metadata is empty"),
    ({"format": NAME, "hex": "00" * 61, "metadata": {"hex": "494b4"}}, 400, "the metadata has an odd number of hex digits"),
    ({"format": NAME, "hex": "00" * 61, "metadata": {"hex": "49zz"}}, 400, "the metadata is not hex"),
    ({"format": NAME, "hex": "00" * 61, "metadata": {"base64": "@@"}}, 400, "the metadata is neither hex nor base64"),
    ({"format": NAME, "hex": "00" * 61, "metadata": {"hex": "ff00"}}, 400, "the metadata does not load"),
    ({"format": NAME, "hex": "00" * 61, "metadata": {"hex": "494b424d01"}}, 400, "does not load: truncated"),
    ({"format": NAME, "hex": "00" * 61, "metadata": "- block_header:\n    - broker: x\n"}, 400, "does not load: invalid_value"),
    ({"format": NAME, "hex": "00" * 61, "metadata": "[" * 5000}, 400, "does not load"),
    ({"format": NAME, "hex": "00" * 61, "metadata": "- " * 5000 + "x"}, 400, "nested more than 64 deep"),
    ({"format": NAME, "hex": "00" * 61, "metadata": "{\"files\": []}"}, 400, "does not load"),
    ({"format": NAME, "hex": "00" * 61, "metadata": YAML_BOMB}, 400, "an alias (*name)"),
    ({"format": NAME, "hex": "00" * 61, "metadata": {"text": "[]", "form": "shipped"}}, 400, "not the shipped form"),
    ({"format": NAME, "hex": "00" * 61, "metadata": {"text": "[]", "form": "other"}}, 400, "seed or shipped"),
    ({"format": NAME, "hex": "00" * 61, "metadata": {"text": "[]", "hex": "00"}}, 400, "one of"),
    ({"format": NAME, "hex": "00" * 61, "metadata": {"txt": "[]"}}, 400, "has no 'txt'"),
    ({"format": NAME, "hex": "00" * 61, "metadata": {"text": 5}}, 400, "must be a string"),
    ({"format": NAME, "hex": "00" * 61, "metadata": {"text": "[]", "allow_dead_bytes": "yes"}}, 400, "true or false"),
    ({"format": NAME, "hex": "00" * 61, "metadata": 7}, 400, "\"metadata\" is"),
    ({"format": NAME, "hex": "zz", "metadata": "[]"}, 400, "the input is not hex"),
    ({"format": NAME, "hex": "", "metadata": "[]"}, 400, "the input is empty"),
    ({"format": NAME, "hex": "00" * 61, "metadata": "a" * (SMALL_LIMIT + 1)}, 413, "the metadata is"),
    ({"format": NAME, "hex": "00" * 61, "metadata": {"hex": "00" * (SMALL_LIMIT + 1)}}, 413, "the metadata is"),
])
def test_bad_input_gets_a_message(base, body, status, words):
    got, answer = post(base, body)
    assert (got, words in answer.get("message", "")) == (status, True), answer


def test_metadata_that_disagrees_with_every_byte_is_findings_not_a_failure(base, block):
    """The metadata of one block against another block's bytes, and against zeros."""
    other = check("clean")["inputs"]["object"]
    for data in (other, "00" * len(block.data), block.data[:61].hex()):
        for text in (shipped_text(block), inkless.dump_yaml(block.seed_metadata)):
            status, answer = post(base, {"format": NAME, "hex": data, "metadata": text})
            assert status == 200 and answer["findings"], answer
            for f in answer["findings"]:
                at(answer["value"], f["path"].split(".record_batch_v2")[0])


def test_formats_lists_it_with_its_second_input_and_examples(base):
    with urllib.request.urlopen(base + "api/formats", timeout=30) as r:
        info = json.load(r)
    (paired,) = [f for f in info["formats"] if f.get("needs") and f["name"] == NAME]
    assert paired["name"] == NAME and paired["needs"]["key"] == "metadata"
    assert [e["tcId"] for e in paired["examples"]] == [t["tcId"] for t in CHECKS]
    assert paired["examples"][0]["metadata"] == {"hex": check("clean")["inputs"]["metadata"]}


def test_entries_that_read_the_object_over_and_over_are_refused(base):
    """A few entries naming the same batch are overlap findings; many are refused, before any is decoded."""
    t = check("clean")
    m = logcodec.codec("inkless.block_metadata")

    def repeated(times: int) -> str:
        meta = m.decode(bytes.fromhex(t["inputs"]["metadata"]))
        clicks = meta.topic_partitions[2]
        clicks.batches, clicks.num_batches = [clicks.batches[0], *[clicks.batches[1]] * times], None
        return m.encode(meta).hex()

    status, answer = post(base, {"format": NAME, "hex": t["inputs"]["object"], "metadata": {"hex": repeated(3)}})
    assert status == 200
    assert [(f["kind"], f["path"]) for f in answer["findings"]] == [
        ("invalid_length", "topic_partitions[2].batches[2]"), ("invalid_length", "topic_partitions[2].batches[3]")]
    status, answer = post(base, {"format": NAME, "hex": t["inputs"]["object"], "metadata": {"hex": repeated(20)}})
    assert status == 413 and "more than 2 times over" in answer["message"]
