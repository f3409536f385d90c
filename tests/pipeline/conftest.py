"""Fixtures of the pipeline tests: the corpus, built once, and ONE local Spark session.

A Spark session costs about 8 s and each new kind of query a few more, so every Spark
test shares the session below (`local[2]`, loopback, no UI, quiet logs, this
interpreter for the workers), made by the same `local_session` the jobs use.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.pipeline import corpus

CAPTURES = Path(__file__).resolve().parents[3] / "shared" / "corpus" / "tank-captures"


@pytest.fixture(scope="session")
def kafka_corpus(tmp_path_factory) -> dict[str, Path]:
    return corpus.write_kafka_corpus(tmp_path_factory.mktemp("kafka"))


@pytest.fixture(scope="session")
def tank_corpus(tmp_path_factory) -> Path:
    return corpus.write_tank_corpus(tmp_path_factory.mktemp("tank"))


@pytest.fixture(scope="session")
def validation_corpus(tmp_path_factory) -> dict:
    return corpus.write_validation_corpus(tmp_path_factory.mktemp("validation"))


@pytest.fixture(scope="session")
def tank_captures() -> Path:
    if not CAPTURES.exists():
        pytest.skip(f"TANK captures not found at {CAPTURES}")
    return CAPTURES


@pytest.fixture(scope="session")
def spark():
    pytest.importorskip("pyspark")
    from logcodec.pipeline import local_session

    session = local_session("local[2]", app_name="logcodec-tests", conf={
        "spark.sql.shuffle.partitions": "1",
        "spark.pyspark.python": sys.executable,  # the workers import logcodec from this venv
    })
    yield session
    session.stop()
