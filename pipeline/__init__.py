"""logcodec on Apache Spark: Kafka and TANK logs and Inkless objects as DataFrames.

    >>> from logcodec.pipeline import local_session                      # doctest: +SKIP
    >>> spark = local_session()              # local[*], quiet, loopback; data sources registered
    >>> df = spark.read.format("logcodec.kafka").load("/var/lib/kafka/data")
    >>> spark.read.format("logcodec.tank").option("rows", "bundle").load("/var/lib/tank")
    >>> spark.read.format("logcodec.inkless").load("s3://bucket/inkless")   # objects + metadata

On a session made elsewhere, `register(spark)` adds the data sources. Jobs: `validate`
(`logcodec pipeline validate`) and `conformance` (`logcodec pipeline conformance`). The data
sources' options:
`rows` (`record`, or `batch` / `bundle`, or `validation`: the validation job's
results, see `validate`), `mode` (`permissive` or `failfast`),
`splitBytes`, `glob` (Kafka), `topic`, `partition`. The readers themselves
(`logcodec.pipeline.kafka`, `.tank`, `.inkless`) need pyarrow but not Spark, so one Python
process can read the same rows: `kafka.read(ranges, options)` for each planned
partition of `kafka.plan(options)`. Each is a format of the one protocol written down in
`formats` (`registry.formats()` gives them), which is all the data sources and the jobs use.
"""

from __future__ import annotations

from logcodec.pipeline.session import local_session, register

__all__ = ["register", "local_session"]
