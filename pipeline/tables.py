"""The tables the data sources return: columns declared once, in Arrow types.

Spark checks every Arrow batch a Python data source yields against the schema it
declared, type for type (`binary`, not `large_binary`; `int64` for `long`), and
refuses the read otherwise. So each table is declared here once, as an Arrow
schema; the Spark schema is derived from it (`spark_schema`), and the rows are
turned into batches of exactly that schema (`record_batches`). Nothing in this
module needs Spark, so the same rows serve a single Python process too.
"""

from __future__ import annotations

import gc
import itertools
import keyword
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager

import pyarrow as pa
import pyarrow.compute as pc

from logcodec.runtime.errors import DecodeError
from logcodec.runtime.stream import collector_paused

#: Rows per Arrow batch at most: per-batch costs (Spark's hand-over of each batch to the JVM
#: among them) vanish; 16,384 read a Kafka segment about 4% faster on Spark than 4,096.
ROWS_PER_BATCH = 16384
#: Bytes of keys and values per Arrow batch at most: records of a MB each make batches of a
#: few records, not of 16,384 MB.
BYTES_PER_BATCH = 16 << 20

HEADERS = pa.list_(pa.struct([("key", pa.string()), ("value", pa.binary())]))

#: Why an entry could not be read. Null on every row that decoded; on a row for a bad
#: batch or bundle: the `logcodec.KINDS` kind, the absolute byte offset in the file where
#: the problem starts, the field path and a readable detail. The validation job
#: quarantines these rows (and those whose re-encoding does not give them back).
ERROR = pa.struct([("kind", pa.string()), ("offset", pa.int64()), ("path", pa.string()), ("detail", pa.string())])


def error_value(exc: DecodeError, base: int) -> tuple:
    """The `error` column of a DecodeError raised while decoding bytes that start at file offset `base`."""
    return (exc.kind, base + (exc.offset or 0), exc.path, exc.detail)


#: What the validation job finds (`rows=validation`, Kafka, TANK and Inkless alike;
#: `pipeline.validate`): one row per batch or bundle, `status` valid or quarantined, and one
#: finding row (`status` null: it is no batch, and is counted apart) for each TANK index entry
#: that the log contradicts (`entry` = index, `error_path` = index) and each Inkless metadata
#: problem that concerns no single entry's bytes (`entry` = metadata).
VALIDATION_SCHEMA = pa.schema([
    ("format", pa.string()),            # kafka, tank or inkless
    ("topic", pa.string()),
    ("partition", pa.int32()),
    ("file", pa.string()),              # the log file (an index finding: the index file)
    ("offset", pa.int64()),             # byte offset of the batch or bundle in it (of the index entry)
    ("size", pa.int32()),               # its bytes, framing included (null when the framing is broken)
    ("entry", pa.string()),             # record_batch, legacy_message, bundle, index; null if unknown
    ("status", pa.string()),            # valid or quarantined (null for an index finding)
    ("error_kind", pa.string()),        # a logcodec.KINDS kind, or reencode_mismatch / reencode_failed
    ("error_offset", pa.int64()),       # absolute byte offset in `file` where the problem starts
    ("error_path", pa.string()),        # the field path (index for an index finding)
    ("detail", pa.string()),
    ("record_count", pa.int32()),       # records or messages (null when it did not decode)
    ("codec", pa.string()),
    ("reencode", pa.string()),          # identical, equivalent, mismatch, failed (null: not decoded)
    ("topic_id", pa.string()),          # Inkless: the topic id (8-4-4-4-12 hex); the shipped form names no topic
    ("metadata", pa.string()),          # Inkless: the metadata file that places the batch
    ("metadata_entry", pa.string()),    # Inkless: its entry, `batches[3]`, `topic_partitions[0].batches[2]`
])


def row_maker(schema: pa.Schema) -> Callable[..., tuple]:
    """`row(**columns)`: a row of `schema`, a tuple in its column order, from the columns named;
    a column not named is null, a name that is no column is a TypeError. It is one plain
    function per table (keyword-only parameters), so that naming the columns costs a reader
    no more than writing the tuple by hand."""
    return _compiled(schema, "row(*, {params})", "({names},)")


class Repeat:
    """A column of a run that holds one value `n` times (a batch's topic, producer id, codec...),
    kept as that until its Arrow column is made: Arrow repeats it from the value, without a
    Python list of `n` of them to convert one by one."""

    __slots__ = ("value", "n")

    def __init__(self, value, n: int) -> None:
        self.value, self.n = value, n

    def __eq__(self, other) -> bool:
        return isinstance(other, Repeat) and (self.value, self.n) == (other.value, other.n)

    def __repr__(self) -> str:
        return f"Repeat({self.value!r}, {self.n})"

    def __iter__(self):
        return iter([self.value] * self.n)

    def __len__(self) -> int:
        return self.n


def run_maker(schema: pa.Schema) -> Callable[..., list]:
    """`run(n, **columns)`: `n` rows of `schema` given as columns, in its column order, as
    `record_batches` takes them (a decoded batch's records, with no tuple per record). A list is
    the column itself (so a column of lists, like headers, is given as its list of lists); any
    other value is the column `Repeat(value, n)`; a column not named is `n` nulls."""
    return _compiled(schema, "run(__n, *, {params})", "[{columns}]")


def _compiled(schema: pa.Schema, signature: str, body: str) -> Callable:
    """A function of the table's column names, compiled once: `{params}` are the names as
    keyword-only parameters defaulting to None, `{names}` the names in order, `{columns}` each
    name as a column of `__n` values (names of its own start with `__`, which no column does)."""
    names = schema.names
    if not all(name.isidentifier() and not keyword.iskeyword(name) and not name.startswith("__") for name in names):
        raise ValueError(f"column names must be identifiers, no keyword and none starting with __: {names}")
    columns = ", ".join(f"{n} if {n}.__class__ is __list else __repeat({n}, __n)" for n in names)
    source = (f"def {signature.format(params=', '.join(f'{n}=None' for n in names))}:\n"
              f"    return {body.format(names=', '.join(names), columns=columns)}\n")
    scope: dict = {"__list": list, "__repeat": Repeat}
    exec(source, scope)  # noqa: S102 (the source is made of the declared column names only)
    return next(v for k, v in scope.items() if not k.startswith("__"))


def error_columns(error: tuple) -> dict:
    """A validation row's four error columns from an error 4-tuple (`error_value`, `ERROR`'s order)."""
    kind, offset, path, detail = error
    return {"error_kind": kind, "error_offset": offset, "error_path": path, "detail": detail}


#: A row of VALIDATION_SCHEMA, by column name.
validation_row = row_maker(VALIDATION_SCHEMA)


def record_batches(items: Iterable[tuple | list], schema: pa.Schema, rows_per_batch: int = ROWS_PER_BATCH,
                   bytes_per_batch: int = BYTES_PER_BATCH) -> Iterator[pa.RecordBatch]:
    """Rows as Arrow batches of exactly `schema`. Each item is one row (a tuple in the schema's
    column order) or a run of rows given as columns (a list of one list of values per column:
    a decoded batch's records, with no tuple per record). A batch is cut once it holds
    `rows_per_batch` rows, or once its binary columns (keys, values) hold `bytes_per_batch`
    bytes, so that a batch of large records stays a few MB in memory (a run given as columns is
    never split: it adds at most one decoded batch more). Made with the collector paused
    (`_paused_between_batches`)."""
    def batches() -> Iterator[pa.RecordBatch]:
        columns = _Columns(schema, rows_per_batch, bytes_per_batch)
        for item in items:
            if isinstance(item, tuple):
                columns.append(item)
            else:
                columns.extend(item)
            if columns.full:
                yield columns.take()
        if columns.rows:
            yield columns.take()
    return _paused_between_batches(batches())


class _Columns:
    """An Arrow batch of `schema` in the making, column by column: rows added one at a time
    (`append`) or many at once as columns (`extend`, for a decoded batch of records), until it
    is `full` (`rows_per_batch` rows, or `bytes_per_batch` bytes of keys and values). A column
    given only as `Repeat`s in a batch stays as its runs, and becomes an Arrow column from them
    (`_repeated`); once a row or a list comes, its runs are spelled out into its list."""

    def __init__(self, schema: pa.Schema, rows_per_batch: int = ROWS_PER_BATCH,
                 bytes_per_batch: int = BYTES_PER_BATCH) -> None:
        self.schema, self.most_rows, self.most_bytes = schema, rows_per_batch, bytes_per_batch
        self.blobs = [i for i, f in enumerate(schema) if f.type == pa.binary()]
        self._start()

    def _start(self) -> None:
        self.columns: list[list] = [[] for _ in self.schema]
        # A column's runs so far, as their values and their lengths (two lists: Arrow takes each
        # whole); None once the column is spelled out.
        self.runs: list[tuple[list, list[int]] | None] = [([], []) for _ in self.schema]
        self.rows = self.bytes = 0

    @property
    def full(self) -> bool:
        return self.rows >= self.most_rows or self.bytes >= self.most_bytes

    def _spell_out(self, i: int) -> list:
        """Column `i` as a list, its runs so far spelled out into it."""
        runs = self.runs[i]
        if runs is not None:
            for value, n in zip(*runs):
                self.columns[i].extend([value] * n)
            self.runs[i] = None
        return self.columns[i]

    def append(self, row: tuple) -> None:
        for i, value in enumerate(row):
            (self.columns[i] if self.runs[i] is None else self._spell_out(i)).append(value)
        self.rows += 1
        for i in self.blobs:
            if row[i] is not None:
                self.bytes += len(row[i])

    def extend(self, columns: list) -> None:
        """Rows given as one list of values (or one `Repeat`) per column, all of the same length."""
        for i, values in enumerate(columns):
            if values.__class__ is Repeat and (runs := self.runs[i]) is not None:
                if values.n:  # run ends must grow (see _repeated)
                    runs[0].append(values.value)
                    runs[1].append(values.n)
            else:
                (self.columns[i] if self.runs[i] is None else self._spell_out(i)).extend(values)
        self.rows += len(columns[0])
        for i in self.blobs:
            values = columns[i]
            if values.__class__ is Repeat:
                self.bytes += len(values.value) * values.n if values.value is not None else 0
            else:
                self.bytes += sum(map(len, filter(None, values)))

    def take(self) -> pa.RecordBatch:
        """The batch of the rows so far; the builder starts again empty."""
        numbers: dict[tuple, pa.Array] = {}  # the columns of a batch's runs share their lengths
        arrays = [pa.array(values, type=f.type) if runs is None else _repeated(*runs, f.type, numbers)
                  for values, runs, f in zip(self.columns, self.runs, self.schema)]
        batch = pa.RecordBatch.from_arrays(arrays, schema=self.schema)
        self._start()
        return batch


def _repeated(values: list, lengths: list[int], type_: pa.DataType, numbers: dict) -> pa.Array:
    """The Arrow column of runs, `values` each repeated by `lengths` (none 0): the values taken by each row's
    run number, which Arrow spells out from the runs' ends (run-end decoding), once for the
    columns whose runs have the same lengths (`numbers`, by lengths). A column of a file's path,
    16,384 rows in 164 runs, took 0.16 ms so, 0.95 ms from a Python list of its rows, 1.3 ms by
    run-end decoding the strings themselves."""
    if not lengths:
        return pa.array([], type_)
    key = tuple(lengths)
    which = numbers.get(key)
    if which is None:
        ends = pa.array(list(itertools.accumulate(lengths)), pa.int32())
        which = numbers[key] = pc.run_end_decode(
            pa.RunEndEncodedArray.from_arrays(ends, pa.array(range(len(lengths)), pa.int32())))
    return pa.array(values, type_).take(which)


def _paused_between_batches(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
    """`batches`, each made with the cyclic garbage collector paused (`_collector_paused`):
    decoding allocates millions of short-lived containers (decoded values, records, rows) that
    reference counting frees, and the collector's passes over them took a quarter of the
    reading time (measured on v2 batches of 100 records). It runs again before each batch is
    handed on, so the caller's code never runs with it paused."""
    while True:
        with _collector_paused():
            batch = next(batches, None)
        if batch is None:
            return
        yield batch


@contextmanager
def _collector_paused():
    """The cyclic garbage collector off for the block, back as it was after (it may have been
    off already; `collector_paused`, which each decode call does by itself). Anything cyclic
    made meanwhile is collected by its next pass."""
    paused = collector_paused()
    try:
        yield
    finally:
        if paused:
            gc.enable()


def spark_schema(schema: pa.Schema):
    """The Spark StructType whose Arrow form (as Spark computes it) is `schema`."""
    from pyspark.sql import types as T

    scalars = {pa.int8(): T.ByteType(), pa.int16(): T.ShortType(), pa.int32(): T.IntegerType(),
               pa.int64(): T.LongType(), pa.bool_(): T.BooleanType(), pa.string(): T.StringType(),
               pa.binary(): T.BinaryType()}

    def convert(t: pa.DataType):
        if t in scalars:
            return scalars[t]
        if pa.types.is_list(t):
            return T.ArrayType(convert(t.value_type))
        if pa.types.is_struct(t):
            return T.StructType([T.StructField(f.name, convert(f.type)) for f in t])
        raise TypeError(f"no Spark type for Arrow {t}")

    return T.StructType([T.StructField(f.name, convert(f.type)) for f in schema])
