"""Rows by column name (`tables.row_maker`, `run_maker`): each table declared once, its rows built
from that declaration, whatever order the columns are named in."""

import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from logcodec.pipeline.tables import Plus, Repeat, Run, record_batches, row_maker, run_maker

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
    two = run(2, offset=[5, 6], topic="t", headers=[["a"], []])
    assert two == ["t", [5, 6], [["a"], []], None] and two.n == 2  # a value not a list: every row's
    empty = run(0, topic="t")
    assert empty == ["t", None, None, None] and empty.n == 0
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
    assert run_maker(schema)(2, n=[1, 2], list="x") == [[1, 2], "x"]


def spelled_out(items):
    """The same rows with every column of a run given as the list it stands for."""
    return [item if isinstance(item, tuple) else [list(c) if isinstance(c, (Repeat, Plus)) else c
                                                  if isinstance(c, list) else [c] * item.n for c in item]
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


INT64_MAX = (1 << 63) - 1


@pytest.mark.parametrize("order", ["plus", "row_first", "row_between", "repeat_between", "list_last", "empty_plus"])
def test_sums_make_the_same_arrow_columns_as_their_lists(order):
    """A column given only as Plus runs becomes an Arrow column from its deltas and bases; one
    that also gets a row, a Repeat or a list is spelled out; either way the batch is what the
    lists of the sums would make."""
    row, run = row_maker(SCHEMA), run_maker(SCHEMA)
    runs = [run(2, offset=Plus(100, [0, 1])), run(0, offset=Plus(7, [])), run(3, offset=Plus(-5, (4, -1, 2))),
            run(1, offset=Plus(INT64_MAX, [2]))]
    one = row(offset=0)
    items = {"plus": runs, "row_first": [one, *runs], "row_between": [*runs[:2], one, *runs[2:]],
             "repeat_between": [*runs[:3], run(2, offset=9), *runs[3:]], "list_last": [*runs, run(1, offset=[3])],
             "empty_plus": [run(0, offset=Plus(1, []))]}[order]
    got = list(record_batches(items, SCHEMA))
    want = list(record_batches(spelled_out(items), SCHEMA))
    assert [b.to_pylist() for b in got] == [b.to_pylist() for b in want]
    assert all(b.schema == SCHEMA for b in got)
    if order == "plus":
        assert [r["offset"] for r in got[0].to_pylist()] == [100, 101, -1, -6, -3, -(1 << 63) + 1]


def test_a_sum_past_int64_wraps_around_as_javas_long_arithmetic():
    """Kafka computes a record's timestamp as base + delta in a Java long: the sum wraps. Python's
    does not, and an int64 column could not hold it."""
    assert list(Plus(INT64_MAX, [0, 1, (1 << 62)])) == [INT64_MAX, -(1 << 63), -(1 << 63) + (1 << 62) - 1]
    assert list(Plus(-(1 << 63), [-1])) == [INT64_MAX]
    assert Plus(10, [3, -2, 0]).bounds() == (8, 13)
    assert Plus(INT64_MAX, [0, 1]).bounds() == (-(1 << 63), INT64_MAX)  # the wrapped sum is the least
    assert Repeat(5, 3).bounds() == (5, 5)


def test_a_column_of_one_value_in_every_run_is_filled_in_as_its_lists_make_it():
    """Runs that all hold one value are filled in by Arrow (a null, a string, an int, a bool), or
    taken as other runs are (a list); either way the batch is what the lists would make."""
    schema = pa.schema([("s", pa.string()), ("i", pa.int64()), ("b", pa.bool_()), ("l", pa.list_(pa.string())),
                        ("e", pa.struct([("kind", pa.string())])), ("v", pa.binary())])
    run = run_maker(schema)
    runs = [run(n, s="t", i=-1, b=False, l=("x",), v=[b"%d" % k for k in range(n)]) for n in (3, 0, 2, 1)]
    got = list(record_batches(runs, schema))
    want = list(record_batches(spelled_out(runs), schema))
    assert [b.to_pylist() for b in got] == [b.to_pylist() for b in want]
    assert got[0].column("i").to_pylist() == [-1] * 6 and got[0].column("e").null_count == 6


@pytest.mark.parametrize("given", ["row", "list", "repeat", "runs"])
def test_an_integer_past_an_int64_column_wraps_into_it(given):
    """A u64 (TANK's timestamps and sequence numbers) or a sum past int64 is its low 64 bits read
    as a long, as Java reads it, however the column is given; a refusal would end the read."""
    row, run = row_maker(SCHEMA), run_maker(SCHEMA)
    big = [(1 << 64) - 1, 1 << 63, None, -(1 << 63) - 1]
    items = {"row": [row(offset=v) for v in big], "list": [run(4, offset=big)],
             "repeat": [run(2, offset=(1 << 64) - 2)], "runs": [run(1, offset=(1 << 64) - 2), run(1, offset=1 << 63)]}[given]
    (batch,) = record_batches(items, SCHEMA)
    want = {"repeat": [-2, -2], "runs": [-2, -(1 << 63)]}.get(given, [-1, -(1 << 63), None, INT64_MAX])
    assert batch.column("offset").to_pylist() == want


@st.composite
def _runs(draw, n: int) -> Run:
    """A run of `n` rows of SCHEMA whose columns come in any of the forms a run takes: a list of
    values, a value every row holds, a Repeat, a Plus (offsets)."""
    values = {"topic": st.sampled_from(["a", "b", None]), "offset": st.integers(-(1 << 63), (1 << 63) - 1),
              "headers": st.lists(st.sampled_from(["x", "y"]), max_size=2),
              "value": st.one_of(st.none(), st.binary(max_size=3))}
    columns = {}
    for name in SCHEMA.names:
        form = draw(st.sampled_from(["list", "value", "repeat"] + (["plus"] if name == "offset" else [])))
        if form == "list":
            columns[name] = draw(st.lists(values[name], min_size=n, max_size=n))
        elif form == "plus":
            columns[name] = Plus(draw(values["offset"]), draw(st.lists(st.integers(-(1 << 40), 1 << 40),
                                                                       min_size=n, max_size=n)))
        elif form == "repeat":
            columns[name] = Repeat(draw(values[name]), n)
        else:  # a list every row holds is given as a tuple (a list is the column)
            value = draw(values[name])
            columns[name] = tuple(value) if isinstance(value, list) else value
    return run_maker(SCHEMA)(n, **columns)


ITEMS = st.lists(st.one_of(st.just((None,) * 4), st.integers(0, 4).flatmap(_runs)), max_size=8)


@settings(max_examples=300, deadline=None)
@given(items=ITEMS, rows_per_batch=st.integers(1, 6))
def test_any_mix_of_rows_and_runs_makes_what_their_lists_make(items, rows_per_batch):
    """Rows, lists, values every row holds, Repeats and Plus sums, in any order and across Arrow
    batches cut small: the batches are what the same rows spelled out as lists make."""
    got = [b.to_pylist() for b in record_batches(items, SCHEMA, rows_per_batch=rows_per_batch)]
    want = [b.to_pylist() for b in record_batches(spelled_out(items), SCHEMA, rows_per_batch=rows_per_batch)]
    assert got == want
