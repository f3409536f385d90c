"""The golden vectors' words agree with what the vectors record.

A vector's comment, and the notes of its flags, may say what logcodec does with its bytes: that is
checked against what the vector records (a value, or the error logcodec raised). A file's source
says what checks its values besides logcodec: where nothing but logcodec and the Kaitai parser
compiled from the same schema does (no vector's bytes come from elsewhere, no third-party testee
passes any of them), the source says so, and only there. Where a valid vector's quirks excuse the
Kaitai parser, the source says the parser agrees except where quirks say otherwise.

Only what can be read mechanically is checked: claims whose subject is logcodec (or the decoder),
and clauses that start with "refused", "accepted" or "decoded" (their subject is the decoder).
"""

from __future__ import annotations

import json
import re

import pytest

from logcodec.conformance import matrix
from logcodec.conformance.impls import SHIPPED
from logcodec.conformance.judge import formats_with_vectors, vector_file

SUBJECT = r"(?:logcodec(?:'s (?:decoder|codecs?))?|the decoder)"
SAYS_ACCEPTED = re.compile(rf"\b{SUBJECT}\s+(?:accepts|reads|decodes|takes)\b|\b(?:accepted|read|decoded) by logcodec\b"
                           r"|(?:^|[;(]\s*)(?:accepted|decoded)\b", re.IGNORECASE)
SAYS_REFUSED = re.compile(rf"\b{SUBJECT}\s+(?:refuses|rejects)\b|\b(?:refused|rejected) by logcodec\b"
                          r"|(?:^|[;(]\s*)(?:refused|rejected)\b", re.IGNORECASE)
UNCHECKED = "No implementation that logcodec's authors did not write checks these values"
# Compiled by the official compiler from logcodec's own schemas: it checks the codecs against the
# schemas, not the schemas against the formats, so its agreement is no check from outside.
SAME_SCHEMAS = "kaitai"


def words_about(doc: dict, test: dict) -> list[str]:
    """The vector's comment and the descriptions of its flags."""
    return [test["comment"], *(doc["notes"][flag].get("description", "") for flag in test["flags"])]


def contradictions(doc: dict) -> list[str]:
    """Each vector whose words say logcodec accepts bytes it records an error for, or the reverse."""
    out = []
    for test in (t for g in doc["testGroups"] for t in g["tests"]):
        for text in words_about(doc, test):
            if "error" in test and SAYS_ACCEPTED.search(text):
                out.append(f"{test['tcId']} records {test['error']} but says {SAYS_ACCEPTED.search(text).group(0)!r}")
            if "error" not in test and SAYS_REFUSED.search(text):
                out.append(f"{test['tcId']} records a value but says {SAYS_REFUSED.search(text).group(0)!r}")
    return out


@pytest.mark.parametrize("fmt", formats_with_vectors())
def test_no_vector_says_logcodec_does_other_than_it_records(fmt):
    assert contradictions(vector_file(fmt)) == []


def test_a_contradiction_is_found():
    """The checker itself: the overlong varint's old note ("logcodec accepts it", recording
    invalid_value) is found, and so is a refusal claimed for a vector that records a value."""
    doc = {"notes": {}, "testGroups": [{"tests": [
        {"tcId": "a", "comment": "Written in five bytes; logcodec accepts it.", "flags": [], "error": "invalid_value"},
        {"tcId": "b", "comment": "Too large; refused before anything is allocated.", "flags": [], "value": {}},
        {"tcId": "c", "comment": "Java and kafka-python read it, but no encoder writes it.", "flags": [],
         "error": "invalid_value"},
    ]}]}
    assert [c.split()[0] for c in contradictions(doc)] == ["a", "b"]


def checked_from_outside(fmt: str) -> list[str]:
    """What checks a format's values besides logcodec: bytes made elsewhere (vectors with a
    provenance), and third-party testees that pass any of its cases in the recorded results."""
    doc = vector_file(fmt)
    made_elsewhere = [t["tcId"] for g in doc["testGroups"] for t in g["tests"] if "provenance" in t]
    testees = []
    for name, shipped in SHIPPED.items():
        results = json.loads((matrix.RESULTS / f"{name}.json").read_text())
        passed = sum(c["passed"] for key, c in results["counts"].items() if key.split(":")[0] == fmt)
        if not shipped.reference and name != SAME_SCHEMAS and passed:
            testees.append(name)
    return made_elsewhere[:1] + testees


@pytest.mark.parametrize("fmt", formats_with_vectors())
def test_a_file_says_when_nothing_outside_logcodec_checks_its_values(fmt):
    """And only then: a file that says so has no bytes made elsewhere and no third-party testee."""
    source = " ".join(vector_file(fmt)["source"].split())
    assert (UNCHECKED in source) == (not checked_from_outside(fmt)), (fmt, checked_from_outside(fmt))


def test_the_files_nothing_outside_checks_are_the_index_files_and_inkless_metadata():
    unchecked = [fmt for fmt in formats_with_vectors() if not checked_from_outside(fmt)]
    assert unchecked == ["inkless.block_metadata", "kafka.offset_index", "kafka.time_index"]


@pytest.mark.parametrize("fmt", formats_with_vectors())
def test_a_file_whose_vectors_excuse_the_kaitai_parser_says_so(fmt):
    doc = vector_file(fmt)
    excused = [t["tcId"] for g in doc["testGroups"] for t in g["tests"]
               if t["result"] == "valid" and "kaitai" in t.get("quirks", {})]
    source = " ".join(doc["source"].split())
    if excused:
        assert "except where a vector's quirks say otherwise" in source, (fmt, excused)
