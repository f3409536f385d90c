"""TANK beyond its codecs: a Produce response's statuses paired with the request's partitions,
and partition directories (segment files, their indexes) read whole. The codecs themselves are
`logcodec.codec("tank.bundle")` and its kin."""

from logcodec.tank.containers import (
           Partition,
           Segment,
           read_tank_partition,
           segment_files,
           tank_partition_json,
)
from logcodec.tank.pairing import ProduceAck, pair_produce

__all__ = ["ProduceAck", "pair_produce", "Partition", "Segment", "segment_files", "read_tank_partition",
           "tank_partition_json"]
