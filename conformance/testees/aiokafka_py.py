"""Testee: aiokafka's pure-Python record classes, formats kafka.record_batch_v2, kafka.message_set
(decode, and encode with ``_LegacyRecordBatchBuilderPy``) and kafka.record_set (decode); its
protocol classes, formats kafka.request and kafka.response (see aiokafka_protocol).

The process sets AIOKAFKA_NO_EXTENSIONS=1 before aiokafka is imported, so that every helper
the Python classes call (varints, CRC-32C) and the pure ``MemoryRecords`` (which instantiates
the module-global ``DefaultRecordBatch``) are Python too; startup fails if that did not take.
Decoding: ``_MemoryRecordsPy`` frames, ``_DefaultRecordBatchPy`` checks the CRC and parses;
control keys go through ``aiokafka.record.control_record.ControlRecord.parse``. The batch has no
partition-leader-epoch accessor. Encoding: ``_DefaultRecordBatchBuilderPy``, which writes
partition_leader_epoch -1. Legacy messages: ``_LegacyRecordBatchPy``, whose ``_read_header`` and
``_read_all_headers`` give the header and the inner offsets as written. See kafka_common and
kafka_legacy for the translation rules.

    python -m logcodec.conformance.testees.aiokafka_py
"""

from __future__ import annotations

import os
import sys
from functools import partial

from logcodec.conformance.testee import Implementation, main_guard


def build() -> Implementation:
    if "aiokafka" not in sys.modules:
        os.environ["AIOKAFKA_NO_EXTENSIONS"] = "1"
    import aiokafka
    from aiokafka.record import default_records, memory_records, util
    from aiokafka.record.control_record import ControlRecord
    from aiokafka.record.default_records import _DefaultRecordBatchBuilderPy, _DefaultRecordBatchPy
    from aiokafka.record.legacy_records import LegacyRecordBatch, _LegacyRecordBatchBuilderPy, _LegacyRecordBatchPy
    from aiokafka.record.memory_records import _MemoryRecordsPy

    if not (default_records.DefaultRecordBatch is _DefaultRecordBatchPy and memory_records.MemoryRecords
            is _MemoryRecordsPy and util.decode_varint is util.decode_varint_py
            and util.calc_crc32c is util.calc_crc32c_py and LegacyRecordBatch is _LegacyRecordBatchPy):
        raise RuntimeError("aiokafka was imported with its C extension; run this testee in its own process")

    from logcodec.conformance.testees import aiokafka_protocol
    from logcodec.conformance.testees.kafka_common import (
        KafkaLibrary, decode_record_set, encode_record_set, implementation, record_set_unsupported,
    )
    from logcodec.conformance.testees.kafka_legacy import (
        LibraryLegacy, header_from_python_batch, inner_offsets_from_python_batch,
    )

    lib = KafkaLibrary(
        name="aiokafka-py", version=aiokafka.__version__,
        memory_records=_MemoryRecordsPy, batch_cls=_DefaultRecordBatchPy, builder_cls=_DefaultRecordBatchBuilderPy,
        set_producer_state=lambda b, pid, epoch, seq, tx: b.set_producer_state(pid, epoch, seq),
        control_key=lambda record: (lambda c: (c.version, c.type_))(ControlRecord.parse(record.key)),
        leader_epoch=None,
        written_leader_epoch=-1, empty_batch_timestamp=0,
        legacy=LibraryLegacy(header_from_python_batch, inner_offsets_from_python_batch,
                             _LegacyRecordBatchBuilderPy),
    )
    impl = implementation(lib)
    # its protocol classes (pure Python either way), records through the record classes above
    proto = aiokafka_protocol.protocol(partial(decode_record_set, lib), partial(encode_record_set, lib))
    impl.handlers.update(aiokafka_protocol.handlers(proto))
    impl.unsupported_fields.update(aiokafka_protocol.unsupported_fields(proto, record_set_unsupported(lib)))
    return impl


if __name__ == "__main__":
    main_guard(build)
