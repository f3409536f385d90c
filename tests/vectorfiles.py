"""The golden vector files of every format, for parametrised tests (read through the harness's loader)."""

from __future__ import annotations

from pathlib import Path

from logcodec.conformance.judge import formats_with_vectors, vector_file

ROOT = Path(__file__).resolve().parent.parent
__all__ = ["ROOT", "all_tests", "ids", "params", "vector_file"]


def all_tests(result: str | None = None):
    """(format name, test) for every vector of every format, optionally of one result."""
    return [(fmt, test) for fmt in formats_with_vectors() for group in vector_file(fmt)["testGroups"]
            for test in group["tests"] if result is None or test["result"] == result]


def ids(cases) -> list[str]:
    return [f"{fmt}:{t['tcId']}" for fmt, t in cases]


def params(test: dict) -> dict:
    """The root's params a vector is read with (a Kafka response's API key and version), by name."""
    return dict(test.get("params", {}))
