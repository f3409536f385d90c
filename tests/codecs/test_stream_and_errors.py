"""Several batches in one buffer, a partial last batch, and the shape of errors."""

import pytest

import logcodec
from logcodec.generated.kafka import record_batch_v2 as rb
from tests.thirdparty.kafka_libs import decode_kafka_python

FORMAT = "kafka.record_batch_v2"


def batch(base_offset: int, n: int, codec=rb.Compression.none) -> bytes:
    records = [rb.Record(offset_delta=i, key=b"k%d" % i, value=b"v" * 50,
                         headers=[rb.Header(key="h", value=b"%d" % i)]) for i in range(n)]
    return logcodec.encode(FORMAT, rb.RecordBatchV2(base_offset=base_offset, attributes=rb.Attributes(compression=codec),
                                                    records=records))


def test_concatenated_batches_come_out_in_order():
    parts = [batch(0, 3), batch(3, 2, rb.Compression.gzip), batch(5, 4, rb.Compression.zstd)]
    stream = logcodec.decode_stream(FORMAT, b"".join(parts))
    assert [b.base_offset for b in stream.items] == [0, 3, 5]
    assert stream.consumed == sum(map(len, parts)) and stream.partial is None
    # kafka-python reads the same buffer to the same offsets.
    assert [r["offset"] for b in decode_kafka_python(b"".join(parts)) for r in b["records"]] == list(range(9))


@pytest.mark.parametrize("cut", [1, 11, 12, 30, 61, 70, -1])
def test_a_partial_last_batch_is_reported_not_raised(cut):
    first, second = batch(0, 2), batch(2, 3)
    data = first + second[:cut]
    stream = logcodec.decode_stream(FORMAT, data)
    assert [b.base_offset for b in stream.items] == [0]
    assert stream.consumed == len(first)
    assert stream.partial is not None and stream.partial.kind == "truncated"
    assert stream.partial.path.startswith("record_batch_v2[1]")


def test_a_corrupt_batch_in_the_middle_raises_with_its_index():
    parts = [batch(0, 1), bytearray(batch(1, 1)), batch(2, 1)]
    parts[1][-2] ^= 0xFF
    with pytest.raises(logcodec.DecodeError) as info:
        logcodec.decode_stream(FORMAT, b"".join(map(bytes, parts)), lazy=False)
    assert info.value.kind == "checksum_mismatch"
    assert info.value.path == "record_batch_v2[1].crc"
    assert info.value.offset == len(parts[0]) + 17


def test_error_names_kind_offset_and_nested_path():
    value = rb.RecordBatchV2(records=[rb.Record(value=b"x"), rb.Record(offset_delta=1, value=b"y", headers=[
        rb.Header(key="ok", value=b"1"), rb.Header(key="bad", value=b"2")])])
    data = bytearray(logcodec.encode(FORMAT, value))
    key_at = data.index(b"bad")
    data[key_at] = 0xFF
    from logcodec.runtime.primitives import crc32c
    data[17:21] = crc32c(bytes(data[21:])).to_bytes(4, "big")
    with pytest.raises(logcodec.DecodeError) as info:
        logcodec.decode(FORMAT, bytes(data), lazy=False)
    err = info.value
    assert (err.kind, err.offset, err.path) == ("invalid_value", key_at, "record_batch_v2.records[1].headers[1].key")
    assert "invalid_value at offset" in str(err)


def test_errors_inside_compressed_records_point_at_the_compressed_field():
    value = rb.RecordBatchV2(attributes=rb.Attributes(compression=rb.Compression.gzip),
                             records=[rb.Record(value=b"x" * 100)])
    good = logcodec.encode(FORMAT, value)
    # Claim two records where the compressed data holds one, with a valid CRC.
    bad = bytearray(good)
    bad[57:61] = (2).to_bytes(4, "big")
    from logcodec.runtime.primitives import crc32c
    bad[17:21] = crc32c(bytes(bad[21:])).to_bytes(4, "big")
    with pytest.raises(logcodec.DecodeError) as info:
        logcodec.decode(FORMAT, bytes(bad), lazy=False)
    assert info.value.kind == "invalid_length" and info.value.offset == 61
    assert info.value.path.startswith("record_batch_v2.records") and "decompressed" in info.value.detail


def test_limits_are_configurable():
    value = rb.RecordBatchV2(attributes=rb.Attributes(compression=rb.Compression.zstd),
                             records=[rb.Record(value=bytes(2_000_000))])
    data = logcodec.encode(FORMAT, value)
    assert logcodec.decode(FORMAT, data).records[0].value == bytes(2_000_000)
    with pytest.raises(logcodec.DecodeError) as info:
        logcodec.decode(FORMAT, data, limits=logcodec.Limits(max_decompressed_size=1_000_000), lazy=False)
    assert info.value.kind == "limit_exceeded"


def test_encode_errors_name_the_field():
    with pytest.raises(logcodec.EncodeError) as info:
        logcodec.encode(FORMAT, rb.RecordBatchV2(last_offset_delta=0, records=[rb.Record(offset_delta=2**31)]))
    assert info.value.path == "record_batch_v2.records[0].offset_delta"
    with pytest.raises(logcodec.EncodeError) as info:
        logcodec.encode(FORMAT, rb.RecordBatchV2(records=[rb.Record(headers=[rb.Header(key="a", len_key=5)])]))
    assert info.value.path == "record_batch_v2.records[0].headers[0].len_key"
    with pytest.raises(logcodec.EncodeError) as info:
        logcodec.encode(FORMAT, rb.RecordBatchV2(num_records=3, records=[rb.Record()]))
    assert (info.value.kind, info.value.path) == ("invalid_length", "record_batch_v2.num_records")
    with pytest.raises(logcodec.EncodeError) as info:
        logcodec.encode(FORMAT, rb.RecordBatchV2(magic=1))
    assert info.value.path == "record_batch_v2.magic"


def test_a_changed_decoded_value_needs_its_derived_fields_cleared():
    decoded = logcodec.decode(FORMAT, batch(0, 2))
    decoded.records[0].value = b"longer value than before"
    with pytest.raises(logcodec.EncodeError) as info:
        logcodec.encode(FORMAT, decoded)
    assert info.value.kind == "invalid_length" and "strip_derived" in info.value.detail
    again = logcodec.decode(FORMAT, logcodec.encode(FORMAT, logcodec.strip_derived(decoded)))
    assert again.records[0].value == b"longer value than before"


def test_json_round_trip_of_a_value():
    value = logcodec.decode(FORMAT, batch(7, 2, rb.Compression.lz4))
    doc = logcodec.to_json(value)
    assert doc["base_offset"] == "7" and doc["attributes"]["compression"] == "lz4"
    assert logcodec.value_from_json(FORMAT, doc) == value
    with pytest.raises(logcodec.EncodeError):
        logcodec.value_from_json(FORMAT, {**doc, "surprise": 1})


def test_the_top_level_calls_take_what_the_module_calls_take():
    # `logcodec.decode` and `decode_stream` pass the module's options by name: the root's
    # parameters (a TANK bundle's sequence numbers count from the `base_seq_num` its segment
    # gives) and the form of the elements; one the module does not take is a TypeError.
    from logcodec.generated.tank import bundle as tb

    message = tb.Message(timestamp=1700000000000, content=b"x")
    data = tb.encode(tb.Bundle(codec=0, messages=[message, message]))
    assert [m.seq_num for m in logcodec.decode("tank.bundle", data, base_seq_num=100).messages] == [100, 101]
    records = logcodec.decode(FORMAT, batch(0, 2), tuples=True).records
    offset_delta = rb.TUPLE_FORMS["Record"].index("offset_delta")
    assert all(type(r) is tuple for r in records) and [r[offset_delta] for r in records] == [0, 1]
    stream = logcodec.decode_stream(FORMAT, batch(0, 2) + batch(2, 1), tuples=True)
    assert [[type(r) for r in b.records] for b in stream.items] == [[tuple, tuple], [tuple]]
    with pytest.raises(TypeError, match="base_seq"):
        logcodec.decode("tank.bundle", data, base_seq=100)


READS = ("decode", "decode_prefix", "decode_stream", "decode_iter", "decode_columns", "decode_part")


@pytest.mark.parametrize("fmt", logcodec.formats())
def test_every_module_has_every_read_and_one_it_cannot_offer_says_so(fmt):
    """Each module has the same calls, with the same keywords; a read its format cannot offer
    raises UnsupportedRead (a TypeError, not a DecodeError: the call is wrong, not the bytes),
    naming the reads it offers, whatever the bytes."""
    module = logcodec.codec(fmt)
    assert all(callable(getattr(module, name)) for name in READS)
    assert set(module.READS) >= {"decode", "decode_prefix", "decode_stream", "decode_part"}
    refused = [(name, {}) for name in ("decode_iter", "decode_columns") if name not in module.READS]
    if "decode_iter" not in module.READS:
        refused.append(("decode_stream", {"iterate": True}))
    given = {name: 0 for name in module.REQUIRED_PARAMS}  # the root's params the bytes do not say
    for name, options in refused:
        with pytest.raises(logcodec.UnsupportedRead, match=f"{fmt} offers no .*Its reads: decode, decode_prefix"):
            getattr(module, name)(b"\0" * 64, tuples=True, limits=logcodec.Limits(), **options, **given)
    assert issubclass(logcodec.UnsupportedRead, TypeError) and not issubclass(logcodec.UnsupportedRead,
                                                                              logcodec.LogcodecError)
