"""Testee: kafka-python's record classes (``kafka.record``), formats kafka.record_batch_v2,
kafka.message_set (decode, and encode with ``LegacyRecordBatchBuilder``) and kafka.record_set (decode);
its protocol classes (``kafka.protocol``), formats kafka.request and kafka.response (see kafka_protocol).

Decoding: ``MemoryRecords`` frames the input (``valid_bytes()`` tells a trailing partial batch),
``DefaultRecordBatch`` checks the CRC and parses; its ``ControlRecord`` parses control keys.
Encoding: ``DefaultRecordBatchBuilder``; producer state through ``set_producer_state``, whose
assertions (a transactional batch needs a producer id; a producer id needs an epoch and a
base sequence) make such a value unsupported. It writes partition_leader_epoch 0.
Legacy messages: ``MemoryRecords`` picks ``LegacyRecordBatch`` by magic; the header and the inner
offsets as written come from its own ``_read_header`` and ``_read_all_headers``.
See kafka_common and kafka_legacy for the translation rules.

    python -m logcodec.conformance.testees.kafka_python
"""

from __future__ import annotations

from functools import partial

from logcodec.conformance.testee import Implementation, Unsupported, main_guard
from logcodec.conformance.testees import kafka_protocol
from logcodec.conformance.testees.kafka_common import (
    KafkaLibrary,
    decode_record_set,
    encode_record_set,
    implementation,
    record_set_unsupported,
)


def _set_producer_state(builder, producer_id, epoch, sequence, transactional):
    try:
        builder.set_producer_state(producer_id, epoch, sequence, transactional)
    except AssertionError as exc:
        raise Unsupported(f"kafka-python set_producer_state refuses producer id {producer_id}, epoch {epoch}, "
                          f"base sequence {sequence}, transactional {transactional}: {exc}") from None


def build() -> Implementation:
    """Its record classes (kafka_common, kafka_legacy) and its protocol classes (kafka_protocol)."""
    lib = _library()
    impl = implementation(lib)
    proto = kafka_protocol.protocol(partial(decode_record_set, lib), partial(encode_record_set, lib))
    impl.handlers.update(kafka_protocol.handlers(proto))
    impl.unsupported_fields.update(kafka_protocol.unsupported_fields(proto, record_set_unsupported(lib)))
    return impl


def _library() -> KafkaLibrary:
    import kafka
    from kafka.record.default_records import (
        DefaultRecordBatch,
        DefaultRecordBatchBuilder,
    )
    from kafka.record.legacy_records import LegacyRecordBatchBuilder
    from kafka.record.memory_records import MemoryRecords
    from logcodec.conformance.testees.kafka_legacy import (
        LibraryLegacy,
        header_from_python_batch,
        inner_offsets_from_python_batch,
    )

    return KafkaLibrary(
        name="kafka-python", version=kafka.__version__,
        memory_records=MemoryRecords, batch_cls=DefaultRecordBatch, builder_cls=DefaultRecordBatchBuilder,
        set_producer_state=_set_producer_state,
        control_key=lambda record: (record.version, record.type),  # kafka.record.default_records.ControlRecord
        leader_epoch=lambda batch: batch.leader_epoch,
        written_leader_epoch=0, empty_batch_timestamp=0,
        valid_bytes=lambda records: records.valid_bytes(),
        legacy=LibraryLegacy(header_from_python_batch, inner_offsets_from_python_batch, LegacyRecordBatchBuilder),
    )


if __name__ == "__main__":
    main_guard(build)
