"""Testee: aiokafka's Cython record classes, formats kafka.record_batch_v2, kafka.message_set (decode,
and encode with the C ``LegacyRecordBatchBuilder``) and kafka.record_set (decode).

The classes are imported from ``aiokafka.record._crecords`` directly, so the testee fails at
startup when the extension is missing instead of silently testing the Python fallback.
Decoding: the C ``MemoryRecords`` frames the input, the C ``DefaultRecordBatch`` checks the CRC
and parses; control keys go through ``aiokafka.record.control_record.ControlRecord.parse``.
The batch has no partition-leader-epoch accessor. Encoding: the C ``DefaultRecordBatchBuilder``,
which writes partition_leader_epoch -1 and, for an empty batch, timestamps -1.
Legacy messages: the C ``MemoryRecords`` picks the C ``LegacyRecordBatch``, which checks the CRC,
decompresses and yields the records; it keeps the message header in C fields, so the header and the
inner offsets as written are read by aiokafka's own pure-Python ``_LegacyRecordBatchPy`` over the
same entry's bytes. See kafka_common and kafka_legacy for the translation rules.

    python -m logcodec.conformance.testees.aiokafka_c
"""

from __future__ import annotations

from logcodec.conformance.testee import Implementation, main_guard


def build() -> Implementation:
    import aiokafka
    from aiokafka.record._crecords.default_records import DefaultRecordBatch, DefaultRecordBatchBuilder
    from aiokafka.record._crecords.legacy_records import LegacyRecordBatchBuilder
    from aiokafka.record._crecords.memory_records import MemoryRecords
    from aiokafka.record.control_record import ControlRecord
    from aiokafka.record.legacy_records import _LegacyRecordBatchPy

    from logcodec.conformance.testees.kafka_common import KafkaLibrary, implementation
    from logcodec.conformance.testees.kafka_legacy import python_twin

    return implementation(KafkaLibrary(
        name="aiokafka-c", version=aiokafka.__version__,
        memory_records=MemoryRecords, batch_cls=DefaultRecordBatch, builder_cls=DefaultRecordBatchBuilder,
        set_producer_state=lambda b, pid, epoch, seq, tx: b.set_producer_state(pid, epoch, seq),
        control_key=lambda record: (lambda c: (c.version, c.type_))(ControlRecord.parse(record.key)),
        leader_epoch=None,
        written_leader_epoch=-1, empty_batch_timestamp=-1,
        legacy=python_twin(_LegacyRecordBatchPy, LegacyRecordBatchBuilder),
    ))


if __name__ == "__main__":
    main_guard(build)
