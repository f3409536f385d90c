"""`logcodec.kafka.delta_columns` and `batch_columns`: a decoded v2 batch's records as columns,
whichever form the batch came in, agree with the columns `decode_columns` reads from the bytes."""

import pytest

from logcodec.generated.kafka import record_batch_v2 as rb
from logcodec.kafka import batch_columns, batch_records, delta_columns

RECORDS = [(0, 3 * i, i, b"k%d" % i if i % 2 else None, b"v" * i, [("h", b"%d" % i)] * (i % 3)) for i in range(6)]
DATA = rb.build(base_offset=100, base_timestamp=1_000, max_timestamp=1_015, records=RECORDS)


@pytest.mark.parametrize("form", ["tuples", "objects", "mixed"])
def test_delta_columns_are_the_columns_decode_columns_reads(form):
    _, expected = rb.decode_columns(DATA, tuples=True)
    batch = rb.decode(DATA, tuples=form == "tuples")
    if form == "mixed":  # a value built by hand may hold both forms
        objects = rb.decode(DATA).records
        batch.records = [objects[i] if i % 2 else tuple(r) for i, r in enumerate(rb.decode(DATA, tuples=True).records)]
    assert delta_columns(batch) == expected
    assert expected["headers"][2] == (("h", b"2"), ("h", b"2"))


def test_an_empty_batch_has_empty_columns():
    assert delta_columns(rb.decode(rb.build(records=[]), tuples=True)) == {name: [] for name in rb.COLUMNS}


@pytest.mark.parametrize("timestamp_type", [0, 1])
def test_batch_columns_add_the_bases_as_batch_records_gives_them(timestamp_type):
    data = rb.build(base_offset=100, base_timestamp=1_000, max_timestamp=1_015, records=RECORDS,
                    attributes=rb.Attributes(timestamp_type=rb.TimestampType(timestamp_type)))
    offsets, timestamps, ts_type, keys, values, headers = batch_columns(rb.decode(data, tuples=True))
    assert offsets == [100 + i for i in range(6)] and ts_type == timestamp_type
    assert timestamps == ([1_000 + 3 * i for i in range(6)] if timestamp_type == 0 else [1_015] * 6)
    assert keys == [r[3] for r in RECORDS] and values == [r[4] for r in RECORDS]
    records = batch_records(rb.decode(data))
    assert [(r.offset, r.timestamp, r.key, r.value, r.headers) for r in records] == \
        list(zip(offsets, timestamps, keys, values, headers))
