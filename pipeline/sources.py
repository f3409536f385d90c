"""The Spark side of the data sources: one thin PySpark class for each registered format.

Spark calls `schema()` and `reader().partitions()` on the driver (planning walks entry
headers only) and `reader().read(partition)` in the tasks, which decode their byte
ranges and yield Arrow batches of exactly the declared schema. Everything the classes
do is in the formats' Spark-free packages, reached through the protocol
(`formats.LogFormat`), so a single Python process reads the same rows.

The classes are made from the registry (`data_source`): `logcodec.<name>` for each format,
a class named after it (`KafkaSource` for `kafka`), with a stream reader when the format is
`Tailing`, and `pushFilters` when it is `Pushdown`.
"""

from __future__ import annotations

from typing import Any, ClassVar

from logcodec.pipeline.formats import LogFormat, Pushdown, Tailing
from logcodec.pipeline.partitions import Ranges
from logcodec.pipeline.registry import formats
from logcodec.pipeline.tables import spark_schema
from pyspark.sql.datasource import DataSource, DataSourceReader, InputPartition


class LogReader(DataSourceReader):
    """Plans a read on the driver and reads its partitions in the tasks, through the format."""

    def __init__(self, fmt: LogFormat, options: Any) -> None:
        self.fmt = fmt
        self.options = options

    def partitions(self) -> list[Ranges]:
        return [Ranges(ranges) for ranges in self.fmt.plan(self.options)]

    def read(self, partition: InputPartition):
        # A plan with no partition (pushed filters pruned every file) reaches here as Spark's
        # default InputPartition(None): nothing to read.
        return self.fmt.read(partition.value or [], self.options)


class PushdownReader(LogReader):
    """The reader of a `Pushdown` format. Only it defines `pushFilters`: Spark refuses to read
    through a reader that does while the session has pushdown turned off."""

    def __init__(self, fmt: Pushdown, options: Any) -> None:
        super().__init__(fmt, options)
        self.fmt: Pushdown = fmt

    def pushFilters(self, filters):
        """Filters Spark pushes down (PySpark 4.1+, with `spark.sql.python.filterPushdown.enabled`):
        what the format's `push` can use prunes the read; the filters returned are applied by Spark
        after the read, as it would without pushdown (offset and timestamp ranges only prune, so
        they are returned too)."""
        self.options, rest = self.fmt.push(self.options, list(filters))
        return rest


class LogSource(DataSource):
    """`spark.read.format("logcodec.<name>")` of the format `fmt`."""

    fmt: ClassVar[LogFormat]

    @classmethod
    def name(cls) -> str:
        return f"logcodec.{cls.fmt.name}"

    def schema(self):
        return spark_schema(self.fmt.schema(self._stream_options()[0]))

    def reader(self, schema) -> LogReader:
        options = self.fmt.parse_options(self.options)
        return PushdownReader(self.fmt, options) if isinstance(self.fmt, Pushdown) else LogReader(self.fmt, options)

    def _stream_options(self):
        from logcodec.pipeline.stream import stream_options

        options, starting = stream_options(self.options)
        return self.fmt.parse_options(options), starting


class TailedSource(LogSource):
    """The data source of a `Tailing` format: `spark.readStream.format(...)` tails its logs too."""

    def streamReader(self, schema):
        """`spark.readStream.format(...)`: the logs tailed (`stream.LogStreamReader`)."""
        from logcodec.pipeline.stream import LogStreamReader

        return LogStreamReader(self.fmt, *self._stream_options())


def data_source(fmt: LogFormat) -> type[LogSource]:
    """The data source class of a format, named after it (`kafka`: `KafkaSource`), documented by
    the format's class. It must be found as this module's attribute of that name: Spark pickles
    it by reference, and each executor makes it again from the registry when it imports this module."""
    base = TailedSource if isinstance(fmt, Tailing) else LogSource
    name = f"{fmt.name.capitalize()}Source"
    return type(name, (base,), {"fmt": fmt, "__doc__": type(fmt).__doc__, "__module__": __name__,
                                "__qualname__": name})


SOURCES = tuple(data_source(fmt) for fmt in formats())
globals().update((source.__name__, source) for source in SOURCES)
