"""`decode_columns` (ARCHITECTURE.md, "Decoding column by column"): a root's bulk decoded into one
list per field of its elements' tuple form agrees with `decode`, value for value and error for
error, in the same order of checks.

Every format whose module offers `decode_columns` is held to `decode` on all its vectors, in both
forms: the header is `decode_part(HEADER)`'s, the columns are the bulk's elements transposed, and an
invalid vector raises the same error (kind, offset, path, detail).
"""

import pytest
from logcodec.generated.kafka import record_batch_v2 as rb

import logcodec
from logcodec import Limits
from tests.laws.test_iterating import RECORDS, batch, error_of, with_bad_record
from tests.vectorfiles import all_tests, ids

COLUMNED = sorted(fmt for fmt in logcodec.formats() if "decode_columns" in logcodec.codec(fmt).READS)
VALID = [(fmt, test) for fmt, test in all_tests("valid") if fmt in COLUMNED]
INVALID = [(fmt, test) for fmt, test in all_tests("invalid") if fmt in COLUMNED]


def transposed(elements: list, fields) -> dict:
    """The columns of elements in their tuple form, by field name."""
    return {name: [e[i] for e in elements] for i, name in enumerate(fields)}


def test_the_kafka_batch_is_read_column_by_column():
    assert COLUMNED == ["kafka.record_batch_v2"]  # the one format whose bulk's elements have a tuple form
    assert rb.COLUMNS == rb.TUPLE_FORMS["Record"] == ("attributes", "timestamp_delta", "offset_delta", "key", "value",
                                                      "headers")
    assert len(VALID) > 10 and len(INVALID) > 10


@pytest.mark.parametrize("fmt,test", VALID, ids=ids(VALID))
def test_columns_are_the_elements_decode_gives(fmt, test):
    module = logcodec.codec(fmt)
    data = bytes.fromhex(test["bytes"])
    header, columns = module.decode_columns(data, tuples=True)
    assert header == module.decode_part(module.HEADER, data)[0]
    elements = getattr(module.decode(data, tuples=True), module.ITERATED)
    assert list(columns) == list(module.COLUMNS)
    assert columns == transposed(elements, module.COLUMNS)
    assert all(type(column) is list for column in columns.values())
    objects = getattr(module.decode(data), module.ITERATED)
    if objects:  # the columns are the fields of the elements' tuple form
        assert module.COLUMNS == module.TUPLE_FORMS[type(objects[0]).__name__]
    # without `tuples`, a list inside an element holds the objects `decode` gives, in a tuple
    _, as_objects = module.decode_columns(data)
    assert as_objects == {name: [_as_tuple(getattr(e, name)) for e in objects] for name in module.COLUMNS}


def _as_tuple(field):
    return tuple(field) if isinstance(field, list) else field


@pytest.mark.parametrize("fmt,test", INVALID, ids=ids(INVALID))
def test_columns_raise_the_error_decode_raises(fmt, test):
    module = logcodec.codec(fmt)
    data = bytes.fromhex(test["bytes"])
    expected = error_of(lambda: module.decode(data, lazy=False))
    assert expected is not None and expected[0] == test["error"]
    assert error_of(lambda: module.decode_columns(data)) == expected


def test_records_and_their_headers_come_without_an_object_each():
    header, columns = rb.decode_columns(batch(RECORDS, base_offset=7), tuples=True)
    assert header.base_offset == 7 and header.num_records == len(RECORDS)
    assert columns == transposed(RECORDS, rb.COLUMNS)
    assert columns["headers"][2] == (("h", b"x"), ("h", b"x"))  # a list inside an element: a tuple of tuples


def test_a_bad_record_is_raised_before_bytes_after_the_value_as_decode_raises_it():
    data = with_bad_record(3) + b"after"
    expected = error_of(lambda: rb.decode(data, lazy=False))
    assert expected[2].startswith("record_batch_v2.records[3]")
    assert error_of(lambda: rb.decode_columns(data)) == expected
    assert error_of(lambda: rb.decode_columns(batch(RECORDS) + b"\0"))[0] == "trailing_bytes"


@pytest.mark.parametrize("codec", list(rb.Compression), ids=lambda c: c.name)
def test_compressed_records_come_as_columns(codec):
    data = batch(RECORDS, attributes=rb.Attributes(compression=codec))
    header, columns = rb.decode_columns(data, tuples=True)
    assert header.attributes.compression == codec
    assert columns == transposed(RECORDS, rb.COLUMNS)


@pytest.mark.parametrize("max_elements", [3, 5, 8])
def test_the_element_budget_is_spent_as_decode_spends_it(max_elements):
    # 5 records and 4 headers: every element counts, in a column or not
    data = batch(RECORDS, attributes=rb.Attributes(compression=rb.Compression.gzip))
    expected = error_of(lambda: rb.decode(data, limits=Limits(max_elements=max_elements), lazy=False))
    assert expected[0] == "limit_exceeded"
    assert error_of(lambda: rb.decode_columns(data, limits=Limits(max_elements=max_elements))) == expected
    assert rb.decode_columns(data, limits=Limits(max_elements=9))[1]["value"] == [r[4] for r in RECORDS]


def test_an_empty_batch_has_empty_columns():
    header, columns = rb.decode_columns(batch([]))
    assert header.num_records == 0
    assert columns == {name: [] for name in rb.COLUMNS}


def test_a_control_batch_gives_its_markers_in_the_columns():
    marker = (0, 0, 0, rb.ControlRecordKey(version=0, type=rb.ControlType(1)),
              rb.ControlRecordValue(version=0, coordinator_epoch=5), [])
    data = batch([marker], attributes=rb.Attributes(is_control=True, is_transactional=True))
    header, columns = rb.decode_columns(data)
    assert header.attributes.is_control
    assert columns["key"] == [marker[3]] and columns["value"] == [marker[4]]
