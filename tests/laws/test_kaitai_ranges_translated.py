"""Where each field lies in Kafka's protocol frames, against the official compiler's debug parsers
of the schemas a second front end made from Kafka's message specs (`kaitai.translated`), as
test_kaitai_ranges.py holds the others: a module of its own, since the two sets of debug parsers
have modules of the same names (`request`, `response`), which one process loads one set at a
time (`kaitai.loaded`)."""

from __future__ import annotations

import pytest
from logcodec.generated.kaitai import translated as reference
from logcodec.generator import kaitai
from logcodec.generator.build import load_schemas

from tests.laws.test_kaitai_ranges import SCHEMAS, ranges_agree
from tests.vectorfiles import all_tests, ids

VALID = [(f, t) for f, t in all_tests("valid") if f in reference.FORMATS and "kaitai" not in t.get("quirks", {})]


@pytest.fixture(scope="module")
def debug_parsers():
    """A loader of the translations' debug parsers by schema id, and the schemas by format name."""
    schemas = {s.format_name: s for s in load_schemas(SCHEMAS)}
    with kaitai.loaded(kaitai.translated_sources(SCHEMAS, list(schemas.values()), debug=True)) as load:
        yield load, schemas


def test_every_frame_is_compared():
    assert {f for f, _ in VALID} == {"kafka.request", "kafka.response"} and len(VALID) > 1000


@pytest.mark.parametrize("fmt,test", VALID, ids=ids(VALID))
def test_the_frames_trace_ranges_are_the_kaitai_debug_parsers(debug_parsers, fmt, test):
    ranges_agree(debug_parsers, fmt, test)
