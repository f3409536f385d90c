"""The tables the data sources return: columns declared once, in Arrow types.

Spark checks every Arrow batch a Python data source yields against the schema it
declared, type for type (`binary`, not `large_binary`; `int64` for `long`), and
refuses the read otherwise. So each table is declared here once, as an Arrow
schema; the Spark schema is derived from it (`spark_schema`), and the rows are
turned into batches of exactly that schema (`record_batches`). Nothing in this
module needs Spark, so the same rows serve a single Python process too.
"""

from __future__ import annotations

import array
import itertools
import keyword
from collections.abc import Callable, Iterable, Iterator, Sequence

import pyarrow as pa
import pyarrow.compute as pc

from logcodec.runtime.errors import DecodeError

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
    return _compiled(schema, "row(*, {params})", "return ({names},)")


class Run(list):
    """`n` rows given as columns (`run_maker`), one for each column of the schema, in its order:
    a list is the column's values, and so is a `Plus`; any other value is every row's (a
    `Repeat` says so of a list too). No object is made for a value the rows repeat."""

    __slots__ = ("n",)


class Repeat:
    """A column of a run that holds one value `n` times, said outright (a run from `run_maker`
    gives such a value as it is: a batch's topic, producer id, codec...). Either way it is kept
    as that until its Arrow column is made: Arrow repeats it from the value, without a Python
    list of `n` of them to convert one by one."""

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

    def bounds(self) -> tuple:
        """The least and the greatest value (as `Plus.bounds`)."""
        return self.value, self.value


class Plus:
    """A column of a run whose values are `base` plus each of `deltas` (a Kafka batch's offsets
    and timestamps: the batch's base and each record's delta), kept as that until its Arrow
    column is made: Arrow adds them, with no Python int made for each sum. The column is an
    int64 one, and a sum past its range wraps around, as Kafka's own reader computes it (Java's
    `long` arithmetic): a batch whose timestamp deltas overflow reads as Kafka reads it, where a
    Python sum could not become an int64."""

    __slots__ = ("base", "deltas")

    def __init__(self, base: int, deltas: Sequence[int]) -> None:
        self.base, self.deltas = base, deltas

    def __eq__(self, other) -> bool:
        return isinstance(other, Plus) and (self.base, self.deltas) == (other.base, other.deltas)

    def __repr__(self) -> str:
        return f"Plus({self.base!r}, {self.deltas!r})"

    def __iter__(self):
        base = self.base
        return (_wrapped(base + d) for d in self.deltas)

    def __len__(self) -> int:
        return len(self.deltas)

    def bounds(self) -> tuple[int, int]:
        """The least and the greatest value (the run must not be empty)."""
        low, high = self.base + min(self.deltas), self.base + max(self.deltas)
        if _INT64_MIN <= low and high <= _INT64_MAX:
            return low, high
        values = list(self)  # some sums wrap around: their order is not the deltas'
        return min(values), max(values)


_INT64_MIN, _INT64_MAX = -(1 << 63), (1 << 63) - 1


def _wrapped(x: int) -> int:
    """`x` wrapped around into int64, as Arrow's (and Java's) addition gives it."""
    return x if _INT64_MIN <= x <= _INT64_MAX else (x - _INT64_MIN) % (1 << 64) + _INT64_MIN


def run_maker(schema: pa.Schema) -> Callable[..., Run]:
    """`run(n, **columns)`: `n` rows of `schema` given as columns (a `Run`), as `record_batches`
    takes them (a decoded batch's records, with no tuple per record). A list is the column
    itself (so a column of lists, like headers, is given as its list of lists), and so is a
    `Plus`; any other value is every row's (an empty list of every row is a tuple, `()`); a
    column not named is null."""
    return _compiled(schema, "run(__n, *, {params})", "__run = __Run(({names},)); __run.n = __n; return __run")


def _compiled(schema: pa.Schema, signature: str, body: str) -> Callable:
    """A function of the table's column names, compiled once: `{params}` are the names as
    keyword-only parameters defaulting to None, `{names}` the names in order (names of its own
    start with `__`, which no column does)."""
    names = schema.names
    if not all(name.isidentifier() and not keyword.iskeyword(name) and not name.startswith("__") for name in names):
        raise ValueError(f"column names must be identifiers, no keyword and none starting with __: {names}")
    source = (f"def {signature.format(params=', '.join(f'{n}=None' for n in names))}:\n"
              f"    {body.format(names=', '.join(names))}\n")
    scope: dict = {"__Run": Run}
    exec(source, scope)  # noqa: S102 (the source is made of the declared column names only)
    return next(v for k, v in scope.items() if not k.startswith("__"))


def column_bounds(column) -> tuple:
    """The least and the greatest value of a run's column (`Run`; not empty)."""
    if column.__class__ is list:
        return min(column), max(column)
    if column.__class__ in (Plus, Repeat):
        return column.bounds()
    return column, column


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
    never split: it adds at most one decoded batch more)."""
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


class _Columns:
    """An Arrow batch of `schema` in the making, column by column: rows added one at a time
    (`append`) or many at once as columns (`extend`, for a decoded batch of records), until it
    is `full` (`rows_per_batch` rows, or `bytes_per_batch` bytes of keys and values). A column
    given only as values every row of a run holds (`Run`, `Repeat`) keeps one for each run, and
    becomes an Arrow column from them and the runs' lengths (`_Runs`); one given only as
    `Plus`es keeps a base for each run and the deltas, which Arrow adds. Once a column gets
    anything else, it is spelled out into a list of its values."""

    def __init__(self, schema: pa.Schema, rows_per_batch: int = ROWS_PER_BATCH,
                 bytes_per_batch: int = BYTES_PER_BATCH) -> None:
        self.schema, self.most_rows, self.most_bytes = schema, rows_per_batch, bytes_per_batch
        self.blobs = [i for i, f in enumerate(schema) if f.type == pa.binary()]
        self._start()

    def _start(self) -> None:
        # What each column holds so far: None (nothing yet), Repeat (the value each run repeats)
        # or Plus (each run's base), one for each run in `firsts` (a Plus column's deltas in
        # `columns`), or list (its values, in `columns`).
        self.kinds: list[type | None] = [None] * len(self.schema)
        self.columns: list[list] = [[] for _ in self.schema]
        self.firsts: list[list] = [[] for _ in self.schema]
        # The rows of each run (none 0): the same for every column kept as runs, which has had
        # every run of the batch (a row spells out every column).
        self.lengths: list[int] = []
        self.rows = self.bytes = 0

    @property
    def full(self) -> bool:
        return self.rows >= self.most_rows or self.bytes >= self.most_bytes

    def _spell_out(self, i: int) -> list:
        """Column `i` as the list of its values, its runs so far spelled out into it."""
        kind, firsts = self.kinds[i], self.firsts[i]
        if kind is Repeat:
            column = self.columns[i]
            for value, n in zip(firsts, self.lengths):
                column.extend([value] * n)
        elif kind is Plus:
            deltas, at = self.columns[i], 0
            column = self.columns[i] = []
            for base, n in zip(firsts, self.lengths):
                column.extend(Plus(base, deltas[at:at + n]))
                at += n
        self.kinds[i], self.firsts[i] = list, []
        return self.columns[i]

    def append(self, row: tuple) -> None:
        kinds = self.kinds
        for i, value in enumerate(row):
            (self.columns[i] if kinds[i] is list else self._spell_out(i)).append(value)
        self.rows += 1
        for i in self.blobs:
            if row[i] is not None:
                self.bytes += len(row[i])

    def extend(self, columns: list) -> None:
        """Rows given as columns (a `Run`, or a list of columns whose first is a list, a `Repeat`
        or a `Plus`, all of the same length)."""
        n = columns.n if columns.__class__ is Run else len(columns[0])
        if not n:
            return
        self.lengths.append(n)
        kinds, firsts, lists = self.kinds, self.firsts, self.columns
        for i, values in enumerate(columns):  # the hot loop of a read: the common cases first
            cls = values.__class__
            if cls is list:
                if kinds[i] is list:
                    lists[i].extend(values)
                    continue
            elif cls is Plus:
                if kinds[i] is Plus:
                    firsts[i].append(values.base)
                    lists[i].extend(values.deltas)
                    continue
            elif kinds[i] is Repeat:
                firsts[i].append(values.value if cls is Repeat else values)
                continue
            self._add(i, values, n)
        self.rows += n
        for i in self.blobs:
            values = columns[i]
            cls = values.__class__
            if cls is list:
                self.bytes += sum(map(len, filter(None, values)))
            elif cls is not Plus:
                value = values.value if cls is Repeat else values
                self.bytes += len(value) * n if value is not None else 0

    def _add(self, i: int, values, n: int) -> None:
        """The run's column `i` (of `n` rows), of another kind than the column so far (or the first)."""
        cls = values.__class__
        kind = cls if cls is list or cls is Plus else Repeat
        value = values.value if cls is Repeat else values
        if self.kinds[i] is None:
            self.kinds[i] = kind
        elif self.kinds[i] is not kind:
            self._spell_out(i)
            kind = list
        if kind is Repeat:
            self.firsts[i].append(value)
        elif kind is Plus:
            self.firsts[i].append(values.base)
            self.columns[i].extend(values.deltas)
        elif cls is list or cls is Plus:
            self.columns[i].extend(values)  # a Plus spelled out: its sums
        else:
            self.columns[i].extend([value] * n)

    def take(self) -> pa.RecordBatch:
        """The batch of the rows so far; the builder starts again empty."""
        runs = _Runs(self.lengths)
        arrays = [_array(kind, values, firsts, f.type, runs)
                  for kind, values, firsts, f in zip(self.kinds, self.columns, self.firsts, self.schema)]
        batch = pa.RecordBatch.from_arrays(arrays, schema=self.schema)
        self._start()
        return batch


def _array(kind: type | None, values: list, firsts: list, type_: pa.DataType, runs: "_Runs") -> pa.Array:
    """The Arrow column of a column kept as `kind` (`_Columns`)."""
    if kind is Repeat:
        return runs.repeated(firsts, type_)
    if kind is Plus:  # Arrow's add wraps around, as Plus says
        return pc.add(_arrow(values, type_), runs.repeated(firsts, type_))
    return _arrow(values, type_)


def _arrow(values: list, type_: pa.DataType) -> pa.Array:
    """`pa.array(values, type_)`, where an integer past an int64 column's range wraps around into
    it: its low 64 bits read as a Java `long` reads them (a TANK timestamp or sequence number is
    a u64; Kafka adds a batch's bases in a `long`, `Plus`)."""
    if type_ == _INT64:
        try:  # made by C's conversion, with no check of each value's type by Arrow (a third faster)
            ints = array.array("q", values)
        except (TypeError, OverflowError):
            pass  # a null, or an integer past int64: Arrow's conversion below
        else:
            return pa.Array.from_buffers(_INT64, len(ints), [None, pa.py_buffer(ints)])
    try:
        return pa.array(values, type=type_)
    except OverflowError:
        if type_ != _INT64:
            raise
        return pa.array([None if v is None else _wrapped(v) for v in values], type=type_)


_INT64 = pa.int64()


class _Runs:
    """The runs of an Arrow batch: their lengths, and the run number of each row, made once for
    all the columns kept as runs."""

    def __init__(self, lengths: list[int]) -> None:
        self.lengths = lengths
        self._which: pa.Array | None = None

    def repeated(self, values: list, type_: pa.DataType) -> pa.Array:
        """The Arrow column of `values`, one for each run, each repeated by its run's length:
        the values taken by each row's run number, which Arrow spells out from the runs' ends
        (run-end decoding). A column of a file's path, 16,384 rows in 164 runs, took 0.16 ms
        so, 0.95 ms from a Python list of its rows, 1.3 ms by run-end decoding the strings
        themselves."""
        if not values:
            return pa.array([], type_)
        if values.count(values[0]) == len(values):
            # One value in every run (a file's topic, a producer id, no error): Arrow fills it in,
            # 16,384 rows in 7-60 us where taking them took 30-140 us; but a list or struct value
            # fills in slower than it is taken (28 ms).
            if values[0] is None:
                return pa.nulls(sum(self.lengths), type_)
            if not pa.types.is_nested(type_):
                return pa.nulls(sum(self.lengths), type_).fill_null(_arrow(values[:1], type_)[0])
        if self._which is None:
            ends = pa.array(list(itertools.accumulate(self.lengths)), pa.int32())
            self._which = pc.run_end_decode(
                pa.RunEndEncodedArray.from_arrays(ends, pa.array(range(len(self.lengths)), pa.int32())))
        return _arrow(values, type_).take(self._which)


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
