"""The construct back end against the Python codecs, on every valid golden vector
(ARCHITECTURE.md, "The construct back end"): the construct definitions in generated/construct/
parse each vector to the same value, field by field (tests/construct/mapping.py), and build
each canonical vector back to its bytes, from the decoded value and from the value without its
derived fields (which construct computes: `Rebuild`, `Default`, `Checksum`)."""

import dataclasses
import importlib
from pathlib import Path

import pytest

pytest.importorskip("construct")

import logcodec  # noqa: E402
from logcodec.generator.reading import load_all  # noqa: E402
from logcodec.runtime.values import without_derived  # noqa: E402
from tests.construct.mapping import differences, to_construct  # noqa: E402
from tests.vectorfiles import ROOT, all_tests, ids  # noqa: E402

#: The formats with construct definitions: not yet Kafka's protocol frames, whose messages'
#: definitions are still to come (issue 39)
DEFINED = {f"{p.parent.name}.{p.stem}" for p in (Path(ROOT) / "generated" / "construct").glob("*/*.py")
           if p.name != "__init__.py"}
VALID = [(fmt, t) for fmt, t in all_tests("valid") if fmt in DEFINED]
CANONICAL = [(fmt, t) for fmt, t in VALID if t["canonical"]]

# Lengths that a field of another structure measures (`-lc-derived`): construct computes from its
# own context and its holders' only, so they are given when building (the docs say so).
REMOTE = {(t.class_name, f.id) for s in load_all(ROOT / "schemas") for t in s.all_types() for f in t.seq
          if f.filled_remotely}


def definition(fmt: str):
    family, name = fmt.split(".")
    return getattr(importlib.import_module(f"logcodec.generated.construct.{family}.{name}"), name)


def bare(value):
    """The value as a user builds it: derived fields and computed instances left out (None),
    except lengths measured by another structure."""
    if isinstance(value, list):
        return [bare(v) for v in value]
    if not dataclasses.is_dataclass(value):
        return value
    stripped = without_derived(value)
    return dataclasses.replace(stripped, **{
        f.name: getattr(value, f.name) if (type(value).__name__, f.name) in REMOTE
        else None if getattr(stripped, f.name) is None else bare(getattr(value, f.name))
        for f in dataclasses.fields(value) if not f.metadata.get("param")})


def test_every_format_has_construct_definitions():
    """But Kafka's protocol frames so far."""
    assert DEFINED == set(logcodec.formats()) - {"kafka.request", "kafka.response"}


@pytest.mark.parametrize("fmt,test", VALID, ids=ids(VALID))
def test_construct_parses_every_valid_vector_to_the_codecs_value(fmt, test):
    data, params = bytes.fromhex(test["bytes"]), test.get("params", {})
    assert differences(logcodec.decode(fmt, data, lazy=False, **params), definition(fmt).parse(data, **params)) == []


@pytest.mark.parametrize("fmt,test", CANONICAL, ids=ids(CANONICAL))
def test_construct_builds_every_canonical_vector_back(fmt, test):
    data, params = bytes.fromhex(test["bytes"]), test.get("params", {})
    assert definition(fmt).build(to_construct(logcodec.decode(fmt, data, lazy=False, **params)), **params) == data


@pytest.mark.parametrize("fmt,test", CANONICAL, ids=ids(CANONICAL))
def test_construct_builds_back_what_it_parsed(fmt, test):
    data, params = bytes.fromhex(test["bytes"]), test.get("params", {})
    assert definition(fmt).build(definition(fmt).parse(data, **params), **params) == data


@pytest.mark.parametrize("fmt,test", CANONICAL, ids=ids(CANONICAL))
def test_construct_computes_the_derived_fields(fmt, test):
    if "CarriedLength" in test["flags"]:
        pytest.skip("a negative length other than -1 is information, not derived: built when carried (above)")
    data, params = bytes.fromhex(test["bytes"]), test.get("params", {})
    assert definition(fmt).build(to_construct(bare(logcodec.decode(fmt, data, lazy=False, **params))), **params) == data


NON_CANONICAL = [(fmt, t) for fmt, t in VALID if not t["canonical"]]


@pytest.mark.parametrize("fmt,test", NON_CANONICAL, ids=ids(NON_CANONICAL))
def test_construct_writes_non_canonical_vectors_as_the_same_value(fmt, test):
    """Another encoder's compressed bytes: construct writes its own (the runtime's codecs), which
    the Python codec reads as the same value, lengths and checksums aside (law 3's twin)."""
    params = test.get("params", {})
    value = logcodec.decode(fmt, bytes.fromhex(test["bytes"]), lazy=False, **params)
    built = definition(fmt).build(to_construct(bare(value)), **params)
    assert without_derived(logcodec.decode(fmt, built, lazy=False, **params)) == without_derived(value)
