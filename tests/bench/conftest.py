"""The bench tests run the benchmarks in the test worker's process, whose heap holds every module
and value the tests before them made. The benchmarks collect garbage before each timed round
(`gc.collect`), and a full pass over that heap takes a large part of a second: so the objects there
before a test are frozen out of the collector's view while it runs (`gc.freeze`, undone after),
and its passes see only what the benchmark makes."""

from __future__ import annotations

import gc

import pytest


@pytest.fixture(autouse=True)
def heap_frozen():
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()
