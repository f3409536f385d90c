"""The Spark side of the data sources: thin PySpark classes over `kafka` and `tank`.

Spark calls `schema()` and `reader().partitions()` on the driver (planning walks entry
headers only) and `reader().read(partition)` in the tasks, which decode their byte
ranges and yield Arrow batches of exactly the declared schema. Everything the classes
do is in the Spark-free modules, so a single Python process reads the same rows.
"""

from __future__ import annotations

from types import ModuleType

from pyspark.sql.datasource import DataSource, DataSourceReader, InputPartition

from logcodec.pipeline import inkless, kafka, tank
from logcodec.pipeline.plan import FileRange
from logcodec.pipeline.tables import spark_schema


class Ranges(InputPartition):
    """One input partition: the file ranges one task reads, in order."""

    def __init__(self, ranges: list[FileRange]) -> None:
        super().__init__(ranges)


class _LogReader(DataSourceReader):
    def __init__(self, fmt: ModuleType, options) -> None:
        self.fmt = fmt
        self.options = options

    def pushFilters(self, filters):
        """Filters Spark pushes down (PySpark 4.1+, with `spark.sql.python.filterPushdown.enabled`):
        what the format's `push` can use prunes the read; the filters returned are applied by Spark
        after the read, as it would without pushdown (offset and timestamp ranges only prune, so
        they are returned too)."""
        push = getattr(self.fmt, "push", None)
        if push is None:
            return filters
        self.options, rest = push(self.options, list(filters))
        return rest

    def partitions(self) -> list[Ranges]:
        return [Ranges(ranges) for ranges in self.fmt.plan(self.options)]

    def read(self, partition: InputPartition):
        # A plan with no partition (pushed filters pruned every file) reaches here as Spark's
        # default InputPartition(None): nothing to read.
        return self.fmt.read(partition.value or [], self.options)


class _LogSource(DataSource):
    fmt: ModuleType

    def _options(self):
        return self.fmt.parse_options(self.options)

    def schema(self):
        return spark_schema(self.fmt.schema(self._stream_options()[0]))

    def reader(self, schema) -> _LogReader:
        return _LogReader(self.fmt, self._options())

    def _stream_options(self):
        from logcodec.pipeline.stream import stream_options

        options, starting = stream_options(self.options)
        return self.fmt.parse_options(options), starting


class _TailedSource(_LogSource):
    def streamReader(self, schema):
        """`spark.readStream.format(...)`: the logs tailed (`stream.LogStreamReader`)."""
        from logcodec.pipeline.stream import LogStreamReader

        return LogStreamReader(self.fmt, *self._stream_options())


class KafkaSource(_TailedSource):
    """`spark.read.format("logcodec.kafka").load(PATH)`: Kafka log segments and record-set files
    (a file, or a directory searched recursively for `glob`, default `*.log`);
    `spark.readStream.format("logcodec.kafka")` tails them (`stream`)."""

    fmt = kafka

    @classmethod
    def name(cls) -> str:
        return "logcodec.kafka"


class TankSource(_TailedSource):
    """`spark.read.format("logcodec.tank").load(PATH)`: TANK partition directories
    (`<base>/<topic>/<partition>/`, or any directory above or at them);
    `spark.readStream.format("logcodec.tank")` tails them (`stream`)."""

    fmt = tank

    @classmethod
    def name(cls) -> str:
        return "logcodec.tank"


class InklessSource(_LogSource):
    """`spark.read.format("logcodec.inkless").load(PATH)`: Inkless objects with their metadata
    (seed or shipped form), under a local directory or `s3://bucket/prefix`; see `inkless`."""

    fmt = inkless

    @classmethod
    def name(cls) -> str:
        return "logcodec.inkless"


SOURCES = (KafkaSource, TankSource, InklessSource)
