"""The validator (logcodec.inkless.blocks.validate): metadata of either form checked against its object.
A corrupted block is caught with the right error kind, at the right byte offset, naming the metadata
entry; anything else done to object or metadata gives findings, never another exception."""

import copy
import dataclasses

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import logcodec
from logcodec.generated.kafka import record_batch_v2 as rb
from logcodec.inkless.blocks import BlockBuilder, dead_bytes, read_records, validate
from logcodec.inkless.shipped import ShippedMetadata
from tests.thirdparty.kafka_libs import LIBRARIES

BLOCK_ID = bytes.fromhex("0c9d7f3e5a1b4c2d8e4f6a7b8c9d0e1f")


def batch(n: int, base_timestamp: int = 1_700_000_000_000) -> bytes:
    return rb.encode(rb.RecordBatchV2(base_timestamp=base_timestamp, max_timestamp=base_timestamp + n - 1, records=[
        rb.Record(offset_delta=i, timestamp_delta=i, key=b"k%d" % i, value=b"v" * 20) for i in range(n)]))


def kafka_python_batch(n: int) -> bytes:
    _, build = LIBRARIES["kafka-python"]
    return build({"compression": "gzip", "records": [
        {"offset": i, "timestamp": 1_700_000_000_000 + i, "key": b"kp%d" % i, "value": b"x" * 30} for i in range(n)]})


@pytest.fixture(scope="module")
def block():
    """Two partitions of one topic and one of another; "orders"/0 has three batches, so its
    shipped row is coalesced, and the seed form lists them one by one."""
    b = BlockBuilder(clock=lambda: 1_700_000_000_250, new_block_id=lambda: BLOCK_ID)
    b.add("orders", 0, batch(2))
    b.add("orders", 1, kafka_python_batch(3))
    b.add("orders", 0, batch(1) + kafka_python_batch(2))
    b.add("clicks", 0, batch(4))
    (closed,) = b.flush()
    assert validate(closed.data, closed.seed_metadata) == validate(closed.data, closed.shipped_metadata) == []
    return closed


def seed_entries(block):
    """(path, byte offset, size) of every batch the seed metadata lists."""
    return [(f"topic_partitions[{i}].batches[{j}]", b.byte_offset, b.size)
            for i, tp in enumerate(block.seed_metadata.topic_partitions) for j, b in enumerate(tp.batches)]


def shipped_entries(block):
    return [(f"batches[{i}]", r.byte_offset, r.byte_size) for i, r in enumerate(block.shipped_metadata.batches)]


def metadata_of(block, form):
    return copy.deepcopy(block.seed_metadata if form == "seed" else block.shipped_metadata)


def entries_of(block, form):
    return seed_entries(block) if form == "seed" else shipped_entries(block)


def only(findings):
    assert len(findings) == 1, [str(f) for f in findings]
    return findings[0]


def test_the_fixture_has_a_coalesced_row(block):
    assert len(seed_entries(block)) == 5 and len(shipped_entries(block)) == 3


# ---------------------------------------------------------------- corruption of the object

@pytest.mark.parametrize("form", ["seed", "shipped"])
@pytest.mark.parametrize("entry", range(3))
def test_a_flipped_byte_inside_a_batch_is_a_checksum_mismatch_at_that_range(block, form, entry):
    path, start, size = entries_of(block, form)[entry]
    data = bytearray(block.data)
    data[start + size - 3] ^= 0x40  # in the last record, under the CRC
    finding = only(validate(bytes(data), metadata_of(block, form)))
    assert finding.kind == "checksum_mismatch"
    assert start <= finding.offset < start + size
    assert finding.path.startswith(path + ".record_batch_v2") and finding.path.endswith(".crc")


def test_a_flipped_byte_in_a_coalesced_rows_second_batch_names_that_batch(block):
    rows = block.shipped_metadata.batches
    inside = [[(s, n) for _, s, n in seed_entries(block) if r.byte_offset <= s < r.byte_offset + r.byte_size]
              for r in rows]
    coalesced = next(i for i, batches in enumerate(inside) if len(batches) == 3)
    second_start, second_size = inside[coalesced][1]
    data = bytearray(block.data)
    data[second_start + second_size - 1] ^= 1
    finding = only(validate(bytes(data), block.shipped_metadata))
    assert (finding.kind, finding.path) == ("checksum_mismatch", f"batches[{coalesced}].record_batch_v2[1].crc")
    assert finding.offset == second_start + 17  # where the stored CRC is


@pytest.mark.parametrize("form", ["seed", "shipped"])
def test_a_truncated_object_leaves_ranges_past_its_end(block, form):
    cut = len(block.data) - 10
    findings = validate(block.data[:cut], metadata_of(block, form))
    past = [(p, s) for p, s, n in entries_of(block, form) if s + n > cut]
    ranges = [(f.path, f.offset) for f in findings if f.kind == "invalid_length" and "past the end" in f.detail]
    assert ranges == past
    if form == "shipped":  # the file row says how big the object was
        assert ("invalid_length", "files[0].size", cut) in [(f.kind, f.path, f.offset) for f in findings]


def test_strict_mode_raises_the_first_finding(block):
    data = bytearray(block.data)
    for _, start, size in seed_entries(block)[-2:]:
        data[start + size - 1] ^= 1
    findings = validate(bytes(data), block.seed_metadata)
    assert len(findings) == 2 and findings[0].offset < findings[1].offset
    with pytest.raises(logcodec.DecodeError) as info:
        validate(bytes(data), block.seed_metadata, strict=True)
    assert (info.value.kind, info.value.offset, info.value.path) == (
        findings[0].kind, findings[0].offset, findings[0].path)


# ---------------------------------------------------------------- corruption of the metadata

def seed_batches(meta):
    """(path, batch) of every batch a seed metadata value lists."""
    return [(f"topic_partitions[{i}].batches[{j}]", b)
            for i, tp in enumerate(meta.topic_partitions) for j, b in enumerate(tp.batches)]


def test_shuffled_seed_sizes_no_longer_match_the_batches(block):
    meta = metadata_of(block, "seed")
    (path_a, a), (path_b, b) = next((x, y) for x in seed_batches(meta) for y in seed_batches(meta)
                                    if x[1].size < y[1].size)
    a.size, b.size = b.size, a.size
    findings = validate(block.data, meta)
    sizes = {(f.kind, f.path, f.offset) for f in findings if f.path.endswith(".size")}
    assert sizes == {("invalid_length", f"{path_a}.size", a.byte_offset), ("invalid_length", f"{path_b}.size", b.byte_offset)}


def test_shuffled_seed_offsets_point_at_other_batches(block):
    meta = metadata_of(block, "seed")
    (path_a, a), (path_b, b) = next((x, y) for x in seed_batches(meta) for y in seed_batches(meta)
                                    if x[1].size != y[1].size)
    a.byte_offset, b.byte_offset = b.byte_offset, a.byte_offset
    findings = validate(block.data, meta)
    named = {f.path for f in findings}
    assert any(p.startswith(path_a) for p in named) and any(p.startswith(path_b) for p in named)
    assert all(f.kind in ("invalid_length", "invalid_value", "trailing_bytes") for f in findings)


def test_shuffled_shipped_offsets_are_caught_at_the_moved_rows(block):
    meta = metadata_of(block, "shipped")
    meta.batches[0].byte_offset, meta.batches[1].byte_offset = meta.batches[1].byte_offset, meta.batches[0].byte_offset
    findings = validate(block.data, meta)
    assert {f.path.split(".")[0] for f in findings} >= {"batches[0]", "batches[1]"}
    assert all(f.kind in ("invalid_length", "invalid_value", "trailing_bytes") for f in findings)


@pytest.mark.parametrize("form", ["seed", "shipped"])
def test_overlapping_ranges_are_invalid_length(block, form):
    meta = metadata_of(block, form)
    if form == "seed":  # the first batch listed again, as a second batch of its partition
        tp = meta.topic_partitions[0]
        tp.batches.append(copy.deepcopy(tp.batches[0]))
        later = f"topic_partitions[0].batches[{len(tp.batches) - 1}]"
        start = tp.batches[0].byte_offset
    else:  # the first row grows into the second
        meta.batches[0].byte_size += 5
        later, start = "batches[1]", meta.batches[1].byte_offset
    overlaps = [f for f in validate(block.data, meta) if "overlaps" in f.detail]
    assert [(f.kind, f.path, f.offset) for f in overlaps] == [("invalid_length", later, start)]


def test_a_record_count_that_disagrees_is_invalid_value(block):
    meta = metadata_of(block, "seed")
    meta.topic_partitions[1].batches[0].number_of_records += 1
    finding = only(validate(block.data, meta))
    assert (finding.kind, finding.path, finding.offset) == (
        "invalid_value", "topic_partitions[1].batches[0].number_of_records",
        meta.topic_partitions[1].batches[0].byte_offset)


@pytest.mark.parametrize("change", [+1, -1])
def test_a_coalesced_row_that_does_not_fill_its_offsets_is_invalid_value(block, change):
    meta = metadata_of(block, "shipped")
    row = max(range(len(meta.batches)), key=lambda i: meta.batches[i].last_offset - meta.batches[i].base_offset)
    meta.batches[row].last_offset += change
    finding = only(validate(block.data, meta))
    assert (finding.kind, finding.path, finding.offset) == ("invalid_value", f"batches[{row}].last_offset",
                                                            meta.batches[row].byte_offset)
    with pytest.raises(logcodec.DecodeError):  # the reader refuses the row too, as Inkless's fetch does
        read_records(block.data, meta, topic_id=meta.batches[row].topic_id, partition=meta.batches[row].partition)


def test_a_row_cut_inside_a_batch_is_invalid_length(block):
    meta = metadata_of(block, "shipped")
    meta.batches[0].byte_size -= 7
    findings = validate(block.data, meta)
    assert ("invalid_length", "batches[0]") in [(f.kind, f.path) for f in findings]
    assert [f.kind for f in findings if f.path == "object"] == ["trailing_bytes"]


@pytest.mark.parametrize("field,value", [("magic", 1), ("batch_max_timestamp", 5), ("file_id", 9)])
def test_other_row_columns_that_disagree_with_the_object_are_invalid_value(block, field, value):
    meta = metadata_of(block, "shipped")
    setattr(meta.batches[2], field, value)
    finding = only(validate(block.data, meta))
    assert (finding.kind, finding.path, finding.offset) == ("invalid_value", f"batches[2].{field}",
                                                            meta.batches[2].byte_offset)


def test_rows_of_a_partition_with_overlapping_offsets_are_invalid_value():
    b = BlockBuilder(clock=lambda: 0, coalesce=False, new_block_id=lambda: BLOCK_ID)
    b.add("t", 0, batch(2) + batch(2))
    (two,) = b.flush()
    meta = copy.deepcopy(two.shipped_metadata)
    meta.batches[1].base_offset -= 1
    meta.batches[1].last_offset -= 1
    finding = only(validate(two.data, meta))
    assert (finding.kind, finding.path) == ("invalid_value", "batches[1].base_offset")


def test_dead_bytes_are_reported_as_trailing_bytes(block):
    meta = metadata_of(block, "shipped")
    removed = meta.batches.pop(1)  # as if the control plane had rejected it
    finding = only(validate(block.data, meta))
    assert (finding.kind, finding.path, finding.offset) == ("trailing_bytes", "object", removed.byte_offset)
    assert dead_bytes(block.data, meta) == [(removed.byte_offset, removed.byte_offset + removed.byte_size)]
    assert validate(block.data, meta, allow_dead_bytes=True) == []


def test_bytes_after_the_last_batch_are_dead(block):
    seed = metadata_of(block, "seed")
    finding = only(validate(block.data + b"\x00" * 9, seed))
    assert (finding.kind, finding.offset) == ("trailing_bytes", len(block.data))


# ---------------------------------------------------------------- never anything but findings

FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                      HealthCheck.function_scoped_fixture])


@FUZZ
@given(flips=st.lists(st.tuples(st.integers(0, 10_000), st.integers(1, 255)), max_size=4),
       cut=st.integers(0, 10_000), form=st.sampled_from(["seed", "shipped"]))
def test_any_corruption_of_the_object_gives_findings_not_exceptions(block, unchecked, flips, cut, form):
    data = bytearray(block.data[:cut])
    for pos, mask in flips:
        if data:
            data[pos % len(data)] ^= mask
    findings = validate(bytes(data), metadata_of(block, form))
    assert all(isinstance(f, logcodec.DecodeError) and f.kind in logcodec.KINDS for f in findings)
    changed = [i for i, (x, y) in enumerate(zip(data, block.data)) if x != y]
    noticeable = len(data) != len(block.data) or any(i not in unchecked for i in changed)
    assert bool(findings) == noticeable


@pytest.fixture(scope="module")
def unchecked(block):
    """Bytes outside every CRC that nothing else checks: each batch's base offset (Inkless's are
    placeholders, replaced on read) and partition leader epoch."""
    return {s + k for _, s, _ in seed_entries(block) for k in [*range(0, 8), *range(12, 16)]}


@FUZZ
@given(entry=st.integers(0, 4), field=st.sampled_from(["byte_offset", "size", "number_of_records"]),
       delta=st.integers(-200, 200).filter(bool))
def test_any_change_to_a_seed_entry_is_found(block, entry, field, delta):
    meta = metadata_of(block, "seed")
    batches = [b for tp in meta.topic_partitions for b in tp.batches]
    setattr(batches[entry], field, max(0, getattr(batches[entry], field) + delta))
    changed = meta != block.seed_metadata
    findings = validate(block.data, meta)
    assert all(f.kind in logcodec.KINDS for f in findings)
    assert bool(findings) == changed


@FUZZ
@given(row=st.integers(0, 2), field=st.sampled_from(["byte_offset", "byte_size", "base_offset", "last_offset"]),
       delta=st.integers(-200, 200).filter(bool))
def test_any_change_to_a_shipped_row_is_found(block, row, field, delta):
    meta = metadata_of(block, "shipped")
    setattr(meta.batches[row], field, max(0, getattr(meta.batches[row], field) + delta))
    changed = meta != block.shipped_metadata
    findings = validate(block.data, meta)
    assert isinstance(meta, ShippedMetadata) and all(f.kind in logcodec.KINDS for f in findings)
    assert bool(findings) == changed


@pytest.mark.parametrize("form", ["seed", "shipped"])
@pytest.mark.parametrize("value", [-1, -(1 << 63), (1 << 63) - 1, (1 << 31), 0])
def test_absurd_integers_in_any_entry_field_give_findings_not_exceptions(block, form, value):
    # Rows built in code skip the checks a loaded document gets: byte_size -1 once raised ValueError.
    meta = metadata_of(block, form)
    entries = meta.batches if form == "shipped" else [b for tp in meta.topic_partitions for b in tp.batches]
    fields = [f.name for f in dataclasses.fields(entries[0]) if type(getattr(entries[0], f.name)) is int]
    assert {"byte_offset"} <= set(fields)
    for field in fields:
        if getattr(entries[0], field) == value:
            continue
        changed = copy.deepcopy(meta)
        target = changed.batches[0] if form == "shipped" else changed.topic_partitions[0].batches[0]
        setattr(target, field, value)
        findings = validate(block.data, changed)
        assert all(isinstance(f, logcodec.DecodeError) and f.kind in logcodec.KINDS for f in findings)
        if field in ("byte_offset", "byte_size", "size"):  # where the batches are: always checked
            assert findings, field
