"""The embedded Spark session: local by default, quiet, bound to loopback, with our data sources.

What it sets, and why (measured on these machines, see the README's Pipeline section):
- `PYSPARK_PYTHON` = this interpreter, unless set: otherwise workers start the system
  Python, which cannot import logcodec or its codecs.
- for a `local[...]` master, `SPARK_LOCAL_IP` and the driver's bind address and host =
  127.0.0.1: otherwise Spark binds to the external interface.
- no UI, no console progress bar, and log4j2 at level `error` (`log4j2.properties` here):
  a job's own output stays readable.
- `spark.sql.python.filterPushdown.enabled`: Spark hands the data sources the query's filters
  (`pushFilters`), so that a query for one partition or an offset range reads only that.
- for a `local[...]` master, the parallel garbage collector in the JVM (`-XX:+UseParallelGC`):
  there the JVM shares the cores with the Python workers, and it spent about a fifth less
  CPU per row than with the default G1 while Spark read a 256 MB Kafka segment (CPU times
  from /proc, paired runs).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path

LOG4J2 = Path(__file__).with_name("log4j2.properties")


def local_session(master: str = "local[*]", app_name: str = "logcodec", conf: Mapping[str, str] | None = None):
    """A SparkSession for `master` (any master URL; `local[*]` uses every core) with the
    logcodec data sources registered."""
    from pyspark.sql import SparkSession

    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    local = master.startswith("local")
    if local:
        os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    java_options = f"-Dlog4j2.configurationFile={LOG4J2}" + (" -XX:+UseParallelGC" if local else "")
    builder = (SparkSession.builder.master(master).appName(app_name)
               .config("spark.ui.enabled", "false")
               .config("spark.ui.showConsoleProgress", "false")
               .config("spark.driver.extraJavaOptions", java_options)
               # the data sources' pushFilters: topic, partition, offset and timestamp filters prune reads
               .config("spark.sql.python.filterPushdown.enabled", "true"))
    if local:
        builder = builder.config("spark.driver.bindAddress", "127.0.0.1").config("spark.driver.host", "127.0.0.1")
    for key, value in (conf or {}).items():
        builder = builder.config(key, value)
    spark = builder.getOrCreate()
    register(spark)
    return spark


def register(spark, ship: bool | None = None) -> None:
    """Make `logcodec.kafka`, `logcodec.tank` and `logcodec.inkless` known to `spark.read.format(...)`
    (and `spark.readStream.format(...)` for Kafka and TANK). First, unless `ship` is False, the
    logcodec package goes to the executors as a zip (`ship.ship`): by default (None) when the master
    is not `local[...]` or `spark.logcodec.ship` is true, always when `ship` is True."""
    from logcodec.pipeline import ship as shipping
    from logcodec.pipeline.sources import SOURCES

    if ship is not False:
        shipping.ship(spark, force=bool(ship))
    for source in SOURCES:
        spark.dataSource.register(source)
