"""The input partition of the pipeline's data sources, batch and streaming alike: the ranges one
task reads, in order (what a format's `plan` and `stream_ranges` pack)."""

from __future__ import annotations

from pyspark.sql.datasource import InputPartition


class Ranges(InputPartition):
    """One input partition: the ranges one task reads, in order."""

    def __init__(self, ranges: list) -> None:
        super().__init__(ranges)
