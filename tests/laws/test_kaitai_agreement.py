"""Law 4, first part: the official Kaitai compiler's parser agrees on every valid vector.

The reference parsers in generated/kaitai/ are the compiler's own output; we
only walk their objects beside ours. The walk is generic: it follows our value
model's field metadata, so it needs no per-format code.
"""

import dataclasses
from enum import IntEnum

import pytest
from kaitaistruct import KaitaiStructError
from logcodec.conformance.testees.kaitai import parse, parsers, unwrapped_value
from logcodec.generated import kaitai as reference
from logcodec.runtime.values import value_fields

import logcodec
from tests.vectorfiles import all_tests, ids

# every format the official compiler made a parser of: those of the schemas that are files, and
# those a second front end made from Kafka's message specs (generated/kaitai/translated)
PARSED = parsers()
VALID = [(f, t) for f, t in all_tests("valid") if f in PARSED and "kaitai" not in t.get("quirks", {})]
KNOWN = [(f, t) for f, t in all_tests("valid") if f in PARSED and "kaitai" in t.get("quirks", {})]
INVALID = [(f, t) for f, t in all_tests("invalid") if f in PARSED]


def compare(ours, theirs, path="") -> None:
    """Assert that a Kaitai object holds the same data as our value, field by field."""
    theirs = unwrapped_value(theirs, {type(ours).__name__})  # a type our value model unwraps
    for f in value_fields(ours):
        mine = getattr(ours, f.name)
        other = getattr(theirs, f.name, None)
        where = f"{path}.{f.name}"
        if mine is None:
            assert other is None, where
            continue
        if f.metadata.get("list") and not isinstance(other, list):
            other = other.items  # an unwrapped type: the list is its single field
        if f.metadata.get("list"):
            assert len(mine) == len(other), where
            for i, (a, b) in enumerate(zip(mine, other)):
                compare_scalar(a, b, f"{where}[{i}]")
        else:
            compare_scalar(mine, other, where)


def compare_scalar(mine, other, where) -> None:
    if dataclasses.is_dataclass(mine):
        compare(mine, other, where)
    elif isinstance(mine, bool):
        assert other is mine, where
    elif isinstance(mine, int):
        value = other.value if hasattr(other, "value") and not isinstance(other, IntEnum) else other
        assert int(value) == int(mine), where
        if isinstance(mine, IntEnum):
            assert isinstance(other, IntEnum) and other.name == mine.name, where
    else:
        assert other == mine, where


@pytest.mark.parametrize("fmt,test", VALID, ids=ids(VALID))
def test_reference_parser_agrees(fmt, test):
    data, params = bytes.fromhex(test["bytes"]), test.get("params", {})
    theirs = parse(fmt, data, params)
    assert theirs._io.pos() == len(data), "the reference parser stopped early"
    compare(logcodec.decode(fmt, data, **params), theirs)


def test_the_protocols_frames_have_parsers_of_their_own():
    """The Kafka frames' parsers are a folder of their own: their modules' names (`request`,
    `response`) are TANK's in the first folder, and each loads the one of its own folder."""
    assert PARSED["kafka.request"].__name__.endswith(".translated")
    assert PARSED["tank.request"] is reference
    kafka, tank = (PARSED[f].load("request") for f in ("kafka.request", "tank.request"))
    assert kafka is not tank and hasattr(kafka.Request, "RequestHeader") and hasattr(tank.Request, "MsgId")


@pytest.mark.parametrize("fmt,test", KNOWN, ids=ids(KNOWN))
def test_the_reference_parser_fails_where_a_vector_says_it_does(fmt, test):
    """A vector whose quirks explain why the official parser cannot read it: the quirk must
    still hold (a stale explanation fails), and our decoder reads the bytes."""
    data = bytes.fromhex(test["bytes"])
    logcodec.decode(fmt, data, **test.get("params", {}))
    with pytest.raises((KaitaiStructError, EOFError, ValueError)):
        parse(fmt, data, test.get("params", {}))


def test_the_comparison_has_teeth():
    fmt, test = next((f, t) for f, t in VALID if t["tcId"] == "headers/many_headers")
    data = bytes.fromhex(test["bytes"])
    ours = logcodec.decode(fmt, data)
    ours.records[0].headers[1].key = "changed"
    with pytest.raises(AssertionError):
        compare(ours, reference.parse(reference.FORMATS[fmt], data))


TRUNCATED = [(f, t) for f, t in INVALID if t["error"] == "truncated"]


@pytest.mark.parametrize("fmt,test", TRUNCATED, ids=ids(TRUNCATED))
def test_reference_parser_also_refuses_truncated_input(fmt, test):
    with pytest.raises((KaitaiStructError, EOFError, ValueError)):
        parse(fmt, bytes.fromhex(test["bytes"]), test.get("params", {}))
