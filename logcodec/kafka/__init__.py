"""Apache Kafka beyond its codecs: records as a client sees them (absolute offsets, resolved
timestamps) from record batches and legacy message sets, and a captured connection's requests
paired with their responses (a folder of captured connections too). The codecs themselves are `logcodec.codec("kafka.record_batch_v2")`
and its kin."""

from logcodec.kafka.conversation import Capture, Conversation, Exchange, Stray, read_capture, read_conversation
from logcodec.kafka.records import (
    Record,
    batch_columns,
    batch_records,
    delta_columns,
    kafka_records,
    legacy_records,
)

__all__ = ["Record", "kafka_records", "legacy_records", "batch_records", "batch_columns", "delta_columns",
           "read_conversation", "Conversation", "Exchange", "Stray", "read_capture", "Capture"]
