"""The varint tables generated encoders take their parts from (`logcodec.runtime.primitives`),
checked against kafka-python's varint writer, and the values around the tables' edges
encoded by a generated encoder and read back by kafka-python."""

import pytest
from kafka.record.util import encode_varint

import logcodec
from logcodec.generated.kafka import record_batch_v2 as rb
from logcodec.runtime.primitives import VARINT, ZIGZAG
from tests.thirdparty.kafka_libs import decode_kafka_python


def kafka_python_zigzag(value: int) -> bytes:
    out = bytearray()
    encode_varint(value, out.append)
    return bytes(out)


def test_zigzag_table_holds_each_small_value_at_its_own_index():
    assert len(ZIGZAG) == 16384
    for value in range(-8192, 8192):
        assert ZIGZAG[value] == kafka_python_zigzag(value), value


def test_unsigned_table_is_the_zigzag_of_half_its_index():
    # kafka-python writes zigzag varints only: an even unsigned value u is the zigzag of u / 2
    for u in range(0, 16384, 2):
        assert VARINT[u] == kafka_python_zigzag(u // 2), u


EDGES = [-2**31, -2**31 + 1, -8193, -8192, -8191, -65, -64, -1, 0, 1, 63, 64, 8190, 8191, 8192, 8193, 2**31 - 1]


@pytest.mark.parametrize("delta", EDGES)
def test_values_at_the_tables_edges_are_read_back_by_kafka_python(delta):
    # timestamp_delta is a 64-bit zigzag varint, offset_delta a 32-bit one
    data = rb.build(base_offset=0, base_timestamp=2**40, max_timestamp=2**40 + max(delta, 0),
                    records=[(0, delta, delta, None, b"v", [])])
    [batch] = decode_kafka_python(data)
    [record] = batch["records"]
    assert (record["offset"], record["timestamp"]) == (delta, 2**40 + delta)
    assert rb.decode(data).records[0].offset_delta == delta


@pytest.mark.parametrize("offset_delta,timestamp_delta,field", [
    (2**31, 0, "offset_delta"), (-2**31 - 1, 0, "offset_delta"), (1.0, 0, ""),
    (0, 2**63, "timestamp_delta"), (0, -2**63 - 1, "timestamp_delta"), (0, 2.0, ""),
])
def test_values_past_the_tables_are_checked(offset_delta, timestamp_delta, field):
    # the second record is the last, whose offset_delta the batch's last_offset_delta takes
    with pytest.raises(logcodec.EncodeError) as caught:
        rb.build(base_timestamp=0, max_timestamp=0,
                 records=[(0, timestamp_delta, offset_delta, None, b"v", []), (0, 0, 1, None, b"v", [])])
    assert f"records[0].{field}".rstrip(".") in str(caught.value)
