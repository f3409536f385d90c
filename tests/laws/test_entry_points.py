"""Hand-written code reaches bytes through the generated modules' public entry points (`decode_part`,
`encode_part`, `entry_size`, `entry_bounds`, `entry_content`, `checksums_hold`, `checksums_filled`),
never through their private decoders and encoders, nor with wire layouts of its own."""

import re
from pathlib import Path

import pytest
from logcodec.generated import FORMATS
from logcodec.generated.kafka import record_batch_v2 as rb
from logcodec.generated.kafka import record_set as rs

from logcodec import DecodeError

ROOT = Path(__file__).resolve().parents[2]
HAND_WRITTEN = ["logcodec", "pipeline", "conformance", "bench", "fuzz"]
# A generated module's private names: its per-type decoders and encoders, its precompiled structs
# and field layouts (`_d_record`, `_e_header`, `_S0`, `_L3`), reached through a module.
PRIVATE = re.compile(r"\.\s*(_[de]_[a-z][a-z0-9_]*|_[SL][0-9]+)\b")


def test_no_hand_written_code_calls_a_private_generated_name():
    found = []
    for folder in HAND_WRITTEN:
        for path in sorted((ROOT / folder).rglob("*.py")):
            for n, line in enumerate(path.read_text().splitlines(), 1):
                if PRIVATE.search(line):
                    found.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    assert found == []


# A schema's wire layout written by hand: a `struct` format, or bytes read at literal offsets.
BYTES = r"(data|raw|buf|entry|head|out|chunk|payload|blob|view|body|stored|window)"
WIRE = [
    re.compile(r"\bstruct\.(Struct|pack|unpack|iter_unpack|pack_into|unpack_from|calcsize)\("),
    re.compile(r"\bint\.from_bytes\(\s*\w+\[\s*\d*\s*:\s*\d*\s*\]"),
    re.compile(rf"\b{BYTES}\[\s*\d+\s*\]"),
    re.compile(rf"\b{BYTES}\[\s*\d*\s*:\s*\d+\s*\]|\b{BYTES}\[\s*\d+\s*:\s*\]"),
]
# Hand-written code that may: the runtime (compression frames, bits; it names no format), the
# conformance testees and example testees (other implementations, on purpose), and what is left
# of the debt, each with why (issue 14). A new line of this kind anywhere else fails.
WIRE_EXEMPT_FOLDERS = ("logcodec/runtime/", "conformance/testees/", "conformance/examples/")
WIRE_DEBT = {
    ("logcodec/inkless/document.py", "int.from_bytes(raw[:8]"): "a UUID as the two longs of the shipped rows, not a wire field",
}


def test_no_hand_written_code_writes_a_wire_layout_of_its_own():
    found, used = [], set()
    for folder in ("logcodec", "pipeline", "conformance"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if rel.startswith(WIRE_EXEMPT_FOLDERS):
                continue
            for n, line in enumerate(path.read_text().splitlines(), 1):
                if any(p.search(line) for p in WIRE):
                    debt = [key for key in WIRE_DEBT if key[0] == rel and key[1] in line]
                    used.update(debt)
                    if not debt:
                        found.append(f"{rel}:{n}: {line.strip()}")
    assert found == []
    assert used == set(WIRE_DEBT), "a debt paid: take it off WIRE_DEBT"


def test_the_wire_check_finds_what_the_pipeline_wrote_before():
    for line in ['_HEAD = struct.Struct(">qi")', "out[17:21] = crc32c(bytes(out[21:])).to_bytes(4, 'big')",
                 'length = int.from_bytes(data[8:12], "big", signed=True)', "return names(entry[22] & 0x07).name"]:
        assert any(p.search(line) for p in WIRE), line
    assert not any(p.search("head = data[pos:pos + rb.HEADER_MAX]") for p in WIRE)


def test_the_check_finds_a_private_call():
    assert PRIVATE.search("    _rb._e_control_record_key(part, out)")
    assert PRIVATE.search("x = _rs._d_record_set_entry(data, pos, end, Budget())")
    assert not PRIVATE.search("_rb.encode_part('control_record_key', part)")


def test_every_module_decodes_and_encodes_each_of_its_types_by_name():
    import importlib

    for name, module_name in FORMATS.items():
        module = importlib.import_module(module_name)
        assert module.PARTS and module.ROOT.__name__ and name.split(".")[1] in module.PARTS


def test_a_part_is_read_where_it_lies_and_written_back():
    key = rb.ControlRecordKey(version=0, type=rb.ControlType.commit)
    data = rb.encode_part("control_record_key", key)
    assert data == bytes([0, 0, 0, 1])
    assert rb.decode_part("control_record_key", b"xx" + data + b"yy", pos=2, end=6) == (key, 6)


def test_a_part_cut_short_is_a_decode_error_naming_the_part_and_the_offset_in_the_input():
    batch = rb.encode(rb.RecordBatchV2(records=[rb.Record(key=b"k", value=b"v")]))
    entry, after = rs.decode_part("record_set_entry", b"xyz" + batch + b"!", pos=3)
    assert after == 3 + len(batch) and entry == rb.decode(batch)
    with pytest.raises(DecodeError) as err:
        rs.decode_part("record_set_entry", b"xyz" + batch[:40], pos=3)
    assert err.value.kind == "truncated" and err.value.path.startswith("record_set_entry")
    assert 3 <= err.value.offset <= 43


def test_an_unknown_part_names_the_ones_there_are():
    with pytest.raises(ValueError, match="has no type 'nope'; it has attributes, control_record_key"):
        rb.decode_part("nope", b"")
    with pytest.raises(ValueError, match=r"no bytes \[5:2\]"):
        rb.decode_part("attributes", b"\x00\x00", pos=5, end=2)


def test_a_part_takes_what_it_reads_by_name():
    """A type's params, and the fields of its parent it reads, are given by name; a param with a
    default may be left out, and one missing or unknown is a TypeError naming what the type takes."""
    from logcodec.generated.tank import bundle as tb

    record = rb.Record(key=b"k", value=b"v")
    data = rb.encode_part("record", record, is_control=False)
    assert rb.decode_part("record", data, is_control=False)[0] == rb.decode(rb.encode(
        rb.RecordBatchV2(records=[record]))).records[0]
    with pytest.raises(TypeError, match="'record' takes is_control: missing is_control"):
        rb.decode_part("record", data)
    with pytest.raises(TypeError, match="'record' takes is_control: no param is_ctrl"):
        rb.encode_part("record", record, is_control=False, is_ctrl=True)
    header = tb.encode(tb.Bundle(messages=[tb.Message(timestamp=1, content=b"a")]))
    assert tb.decode_part(tb.HEADER, header)[0] == tb.decode_part(tb.HEADER, header, base_seq_num=0)[0]


def test_entries_are_framed_by_their_headers_alone():
    one = rb.encode(rb.RecordBatchV2(records=[rb.Record(key=b"k", value=b"v")]))
    two = rb.encode(rb.RecordBatchV2(base_offset=1, records=[rb.Record(value=b"x" * 300)]))
    log = one + two + two[:30]
    assert rs.ENTRY == "record_set_entry" and rs.entry_size(log, len(one)) == len(two)
    assert rs.entry_bounds(log) == ([(0, len(one)), (len(one), len(one) + len(two))], len(one) + len(two))
    # a cut header, and a size below the smallest entry (a legacy message's 14 bytes)
    with pytest.raises(DecodeError) as cut:
        rs.entry_size(log[:10])
    assert cut.value.kind == "truncated"
    with pytest.raises(DecodeError) as small:
        rs.entry_size(bytes(8) + (13).to_bytes(4, "big") + bytes(13))
    assert (small.value.kind, small.value.offset) == ("invalid_length", 8)
    assert rs.entry_bounds(bytes(8) + (13).to_bytes(4, "big") + bytes(13)) == ([], 0)


def test_a_varint_framed_entry_is_sized_from_its_varint():
    from logcodec.generated.tank import segment_log as sl

    assert sl.ENTRY == "entry" and sl.ENTRY_HEADER == 5  # a uvarint of 32 bits takes 5 bytes at most
    data = bytes([0x81, 0x01]) + bytes(129) + bytes([3]) + bytes(2)
    assert sl.entry_size(data) == 131 and sl.entry_bounds(data) == ([(0, 131)], 131)


def test_checksums_are_checked_where_they_lie_without_decoding():
    from logcodec.generated.kafka import message_set as ms

    batch = bytearray(rb.encode(rb.RecordBatchV2(records=[rb.Record(key=b"k", value=b"v")])))
    legacy = bytearray(ms.encode(ms.MessageSet(entries=[ms.Entry(message=ms.Message(value=b"v"))])))
    log = bytes(legacy + batch)
    assert rs.checksums_hold(log) is True and rs.checksums_hold(log, len(legacy)) is True
    assert rb.checksums_hold(bytes(batch)) is True and ms.checksums_hold(bytes(legacy)) is True
    batch[-1] ^= 1  # a record's byte: CRC-32C covers it
    legacy[-1] ^= 1  # the value's byte: CRC-32 covers it
    assert rs.checksums_hold(bytes(batch)) is False and rs.checksums_hold(bytes(legacy)) is False
    batch[-1] ^= 1
    batch[0] ^= 1  # the base offset lies outside the CRC
    assert rs.checksums_hold(bytes(batch)) is True
    assert rs.checksums_hold(bytes(batch[:-1])) is None  # cut short


def test_a_header_is_decoded_without_the_bulk_after_it():
    from logcodec.generated.tank import bundle as tb

    batch = rb.encode(rb.RecordBatchV2(base_offset=7, attributes=rb.Attributes(compression=rb.Compression.gzip),
                                       records=[rb.Record(key=b"k", value=b"v")]))
    header, _ = rb.decode_part(rb.HEADER, batch[:rb.HEADER_MAX])  # the records' bytes are not there: not read
    assert (header.base_offset, header.attributes.compression, header.num_records) == (7, rb.Compression.gzip, 1)
    assert rb.HEADER_MAX == 61 and not hasattr(header, "records")
    sparse = tb.encode(tb.Bundle(is_sparse=True, messages=[tb.Message(seq_num=40, timestamp=1, content=b"a"),
                                                          tb.Message(seq_num=45, timestamp=2, content=b"b")]))
    h, _ = tb.decode_part(tb.HEADER, sparse[:tb.HEADER_MAX])
    assert (h.is_sparse, h.first_seq_num, h.num_messages, h.last_seq_num_delta) == (True, 40, 2, 4)
    with pytest.raises(DecodeError) as cut:
        rb.decode_part(rb.HEADER, batch[:30])
    assert cut.value.kind == "truncated"


def test_what_a_length_measures_lies_where_the_header_says():
    from logcodec.generated.tank import segment_log as sl

    data = bytes([0x81, 0x01]) + bytes(129)
    assert sl.entry_content(data) == (2, 131)
    assert sl.entry_content(bytes([0])) == (1, 1)  # however few it declares (entry_size refuses it)
    with pytest.raises(DecodeError) as small:
        sl.entry_size(bytes([0]))
    assert small.value.kind == "invalid_length"
    assert rs.entry_content(bytes(8) + (20).to_bytes(4, "big"), 0) == (12, 32)


def test_a_patched_header_is_written_back_with_its_checksums_computed_anew():
    batch = rb.encode(rb.RecordBatchV2(base_offset=3, records=[rb.Record(key=b"k", value=b"v")]))
    header, _ = rb.decode_part(rb.HEADER, batch)
    header.max_timestamp = 1_700_000_000_000  # under the CRC
    patched = rb.encode_part(rb.HEADER, header) + batch[rb.HEADER_MAX:]
    assert rb.checksums_hold(patched) is False
    fixed = rb.checksums_filled(patched)
    assert rb.checksums_hold(fixed) is True and rb.decode(fixed).max_timestamp == 1_700_000_000_000
    assert rb.checksums_filled(batch) == batch and rs.checksums_filled(b"xx" + batch, 2) == batch
