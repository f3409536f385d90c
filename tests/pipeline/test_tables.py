"""Rows by column name (`tables.row_maker`, `run_maker`): each table declared once, its rows built
from that declaration, whatever order the columns are named in."""

import pyarrow as pa
import pytest

from logcodec.pipeline.tables import record_batches, row_maker, run_maker

SCHEMA = pa.schema([("topic", pa.string()), ("offset", pa.int64()), ("headers", pa.list_(pa.string())),
                    ("value", pa.binary())])


def test_a_row_is_its_columns_in_declared_order_and_nulls():
    row = row_maker(SCHEMA)
    assert row(value=b"v", topic="t") == ("t", None, None, b"v")
    assert row() == (None,) * 4
    with pytest.raises(TypeError):
        row(topics="t")  # a name that is no column


def test_a_run_takes_lists_as_columns_and_repeats_the_rest():
    run = run_maker(SCHEMA)
    assert run(2, offset=[5, 6], topic="t", headers=[["a"], []]) == [["t", "t"], [5, 6], [["a"], []], [None, None]]
    assert run(0, topic="t") == [[], [], [], []]
    with pytest.raises(TypeError):
        run(1, partition=0)


def test_rows_and_runs_make_one_arrow_table():
    row, run = row_maker(SCHEMA), run_maker(SCHEMA)
    (batch,) = record_batches([row(topic="a", offset=1), run(2, topic="b", offset=[2, 3], value=[b"x", None])], SCHEMA)
    assert batch.to_pylist() == [
        {"topic": "a", "offset": 1, "headers": None, "value": None},
        {"topic": "b", "offset": 2, "headers": None, "value": b"x"},
        {"topic": "b", "offset": 3, "headers": None, "value": None}]


@pytest.mark.parametrize("name", ["not a name", "class", "__n"])
def test_column_names_must_be_identifiers_of_their_own(name):
    with pytest.raises(ValueError, match="identifiers"):
        row_maker(pa.schema([(name, pa.string())]))


def test_columns_named_like_builtins_still_work():
    schema = pa.schema([("n", pa.int64()), ("list", pa.string())])
    assert run_maker(schema)(2, n=[1, 2], list="x") == [[1, 2], ["x", "x"]]
