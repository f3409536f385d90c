"""The testees shipped with logcodec, runnable by name (`logcodec conformance run --impl NAME`)."""

from __future__ import annotations

import importlib.util
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
EXPECTED = HERE / "expected"


@dataclass(frozen=True)
class Shipped:
    name: str
    command: tuple[str, ...]
    what: str
    needs_module: str = ""  # the Python modules the testee imports, separated by spaces
    needs_path: str = ""  # a file the testee needs (relative to conformance/)
    # The golden vectors' expected values are this testee's own output (logcodec's codecs made them), so
    # its results are the reference the others are judged against, a check of the vectors and the
    # harness, not a conformance result: the results page and its matrix set it apart.
    reference: bool = False

    def missing(self) -> str | None:
        """Why this testee cannot run here, or None."""
        for module in self.needs_module.split():
            if _find(module) is None:
                return f"Python package {module!r} is not installed"
        if self.command[1:2] == ("-m",) and _find(self.command[2]) is None:  # an incomplete install
            return f"its module {self.command[2]} is not installed"
        if self.command[0] == "node" and shutil.which("node") is None:
            return "node is not installed"
        if self.command[0] == "node" and not Path(self.command[1]).exists():
            return f"{self.command[1]} is missing"
        if self.needs_path and not (HERE / self.needs_path).exists():
            folder = (HERE / self.needs_path).parent.parent
            return f"{HERE.name}/{self.needs_path} is missing (npm ci --prefix {folder})"
        if not self.expected_failures.exists():
            return f"its expected-failure list {self.expected_failures} is missing"
        return None

    @property
    def expected_failures(self) -> Path:
        return EXPECTED / f"{self.name}.yaml"


def _find(module: str):
    try:
        return importlib.util.find_spec(module)
    except ImportError:  # a parent package is missing
        return None


def _py(module: str) -> tuple[str, ...]:
    return (sys.executable, "-m", module)


SHIPPED = {s.name: s for s in [
    Shipped("logcodec", (sys.executable, "-m", "logcodec", "testee"),
            "logcodec's own codecs (all formats): the reference, whose output the golden vectors' expected values are",
            reference=True),
    Shipped("kaitai", _py("logcodec.conformance.testees.kaitai"),
            "the official Kaitai Struct compiler's Python parsers (decode only, all formats)", "kaitaistruct"),
    Shipped("kafka-python", _py("logcodec.conformance.testees.kafka_python"),
            "kafka-python's DefaultRecordBatch and DefaultRecordBatchBuilder, and its protocol message classes (requests and responses)",
            "kafka xxhash"),  # xxhash: kafka-python's magic-0 lz4 (the KAFKA-3160 header checksum)
    Shipped("aiokafka-c", _py("logcodec.conformance.testees.aiokafka_c"),
            "aiokafka's Cython record batch classes", "aiokafka"),
    Shipped("aiokafka-py", _py("logcodec.conformance.testees.aiokafka_py"),
            "aiokafka's pure-Python record batch classes, and its protocol classes (requests and responses)", "aiokafka"),
    Shipped("confluent-kafka", _py("logcodec.conformance.testees.confluent_kafka"),
            "librdkafka (through confluent-kafka) consuming from and producing to a fake broker on 127.0.0.1",
            "confluent_kafka"),
    Shipped("kafkajs", ("node", str(HERE / "testees" / "kafkajs" / "testee.js")),
            "kafkajs's RecordBatch encoder and decoder, and its response decoders (Node.js)", needs_path="testees/kafkajs/node_modules/kafkajs"),
]}
