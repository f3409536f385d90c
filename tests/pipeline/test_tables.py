"""Rows by column name (`tables.row_maker`, `run_maker`): each table declared once, its rows built
from that declaration, whatever order the columns are named in."""

import pyarrow as pa
import pytest

from logcodec.pipeline.tables import Repeat, record_batches, row_maker, run_maker

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
    assert run(2, offset=[5, 6], topic="t", headers=[["a"], []]) == [Repeat("t", 2), [5, 6], [["a"], []],
                                                                      Repeat(None, 2)]
    assert run(0, topic="t") == [Repeat("t", 0), Repeat(None, 0), Repeat(None, 0), Repeat(None, 0)]
    assert list(Repeat("t", 3)) == ["t", "t", "t"] and len(Repeat("t", 3)) == 3
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
    assert run_maker(schema)(2, n=[1, 2], list="x") == [[1, 2], Repeat("x", 2)]


def spelled_out(items):
    """The same rows with every Repeat given as the list it stands for."""
    return [item if isinstance(item, tuple) else [list(c) if isinstance(c, Repeat) else c for c in item]
            for item in items]


@pytest.mark.parametrize("order", ["runs", "row_first", "row_between", "row_last", "empty_runs"])
def test_repeated_values_make_the_same_arrow_columns_as_their_lists(order):
    """A column given only as Repeats becomes an Arrow column from its runs; one that also gets a
    row or a list is spelled out; either way the batch is what the lists would make."""
    row, run = row_maker(SCHEMA), run_maker(SCHEMA)
    runs = [run(2, topic="a", offset=[1, 2], headers=[["h"], []]), run(0, topic="z"),
            run(3, topic="b", offset=[3, 4, 5], value=b"v"), run(1, topic=None, offset=[6], headers=["x"])]
    runs[3][2] = Repeat(["x", "y"], 1)  # a nested column given as a Repeat too
    one = row(topic="r", offset=0, value=b"w")
    items = {"runs": runs, "row_first": [one, *runs], "row_between": [*runs[:2], one, *runs[2:]],
             "row_last": [*runs, one], "empty_runs": [run(0, topic="z"), run(0)]}[order]
    got = list(record_batches(items, SCHEMA))
    want = list(record_batches(spelled_out(items), SCHEMA))
    assert [b.to_pylist() for b in got] == [b.to_pylist() for b in want]
    assert all(b.schema == SCHEMA for b in got)
    if order == "runs":
        assert [r["topic"] for r in got[0].to_pylist()] == ["a", "a", "b", "b", "b", None]
