"""Testees: third-party implementations behind the testee protocol (conformance/PROTOCOL.md).

Each module runs as ``python -m logcodec.conformance.testees.<module>`` and answers for one
implementation, using only that implementation's own encoder and decoder; the adapters
translate between its objects and logcodec's canonical JSON and hold no codec logic.

* ``kafka_python``: kafka-python's ``DefaultRecordBatch`` / ``DefaultRecordBatchBuilder``.
* ``aiokafka_c``: aiokafka's Cython record classes (``aiokafka.record._crecords``).
* ``aiokafka_py``: aiokafka's pure-Python record classes (run with AIOKAFKA_NO_EXTENSIONS=1).
* ``kaitai``: the official Kaitai Struct compiler's Python parsers in generated/kaitai
  (decode only, every format).

``kafka_common`` holds the translation shared by the three Kafka libraries. Nothing here
is imported by this package's ``__init__`` on purpose: ``aiokafka_py`` must set its
environment before aiokafka is first imported.
"""
