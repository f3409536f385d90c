"""The fast element loops of the encoders (`generator/python/fast_encode.py`) against the checked
encoders alone: the Kafka record batch module as generated, and the same schema generated with no
fast loop, both run as Python (the fast loops run interpreted only). Every list of records either encodes to the same bytes in both, or fails in both with
the same error (kind, offset, path and message): the fast path only ever takes a value the checked
encoder takes, to the same bytes, and leaves every other value to it."""

from array import array
from collections import namedtuple

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from logcodec.generator import element_plans
from logcodec.generator.python import ModuleEmitter
from logcodec.generator.reading import Loader

from logcodec.runtime.errors import EncodeError
from tests.generator.rendered import SCHEMAS, pure_module


def fast_and_checked(schema) -> tuple[str, str]:
    """The module of `schema` as generated, and generated with no fast loop (no type has a plan)."""
    fast = ModuleEmitter(schema).render()
    plan = element_plans.element_plan
    element_plans.element_plan = lambda model, u, seen=frozenset(): None
    try:
        return fast, ModuleEmitter(schema).render()
    finally:
        element_plans.element_plan = plan


@pytest.fixture(scope="module")
def modules():
    """(the module as generated, the same schema generated without fast loops), both pure Python."""
    fast, checked = fast_and_checked(Loader(SCHEMAS).load("kafka/record_batch_v2.ksy"))
    assert "isinstance(x_items, tuple)" in fast and "isinstance(x_items, tuple)" not in checked
    modules = (pure_module("logcodec_test_fast_record_batch_v2", fast),
               pure_module("logcodec_test_checked_record_batch_v2", checked))
    assert modules[0]._FAST is None  # the Python loops, not the C companion's (`test_fast_c`)
    return modules


def outcome(module, records, is_control=False):
    """The bytes `build` makes of `records` (each a function of the module, as its value classes
    are its own), or the error it raises, as its fields."""
    attributes = module.Attributes(is_control=is_control)
    try:
        return module.build(attributes=attributes, records=[r(module) for r in records])
    except EncodeError as exc:
        return ("error", exc.kind, exc.offset, exc.path, str(exc))


Pair = namedtuple("Pair", "key value")
INTS = st.one_of(
    st.integers(-10, 10), st.sampled_from([127, 128, -128, -129, 255, 256, 8191, 8192, -8192, -8193, 2**20, -2**20,
                                           2**31 - 1, 2**31, -2**31, -2**31 - 1, 2**63 - 1, 2**63, -2**63 - 1]),
    st.integers(), st.sampled_from([1.0, 9000.0, True, False, None, "1"]))
BLOBS = st.one_of(st.none(), st.binary(max_size=40), st.sampled_from([b"x" * 8191, b"y" * 8192, b"z" * 20000]),
                  st.binary(max_size=8).map(bytearray), st.binary(max_size=8).map(memoryview),
                  st.lists(st.integers(-2**31, 2**31 - 1), max_size=3).map(lambda ns: array("i", ns)),
                  st.sampled_from(["text", 5, [1, 2]]))


class Text(str):
    """A str subclass, which the fast encoders' text tables (`TextParts`) take but do not keep."""


KEYS = st.one_of(st.text(max_size=12), st.sampled_from(["\ud800", "k" * 9000, None, b"bytes", 3, Text("h1"), ["h"]]))


@st.composite
def headers(draw):
    key, value = draw(KEYS), draw(BLOBS)
    shape = draw(st.sampled_from(["tuple", "object", "namedtuple", "list", "short", "decoded", "wrong"]))
    if shape == "tuple":
        return lambda m: (key, value)
    if shape == "namedtuple":
        return lambda m: Pair(key, value)
    if shape == "list":
        return lambda m: [key, value]
    if shape == "short":
        return lambda m: (key,)
    if shape == "object":
        return lambda m: m.Header(key=key, value=value)
    real = isinstance(key, str) and isinstance(value, (bytes, type(None)))
    len_key = len(key.encode("utf-8", "replace")) if real else 1
    len_value = (len(value) if value is not None else -1) if real else 1
    if shape == "wrong":
        len_key += 1
    return lambda m: m.Header(len_key=len_key, key=key, len_value=len_value, value=value)


@st.composite
def records(draw):
    attributes, ts, od = draw(INTS), draw(INTS), draw(INTS)
    key, value = draw(BLOBS), draw(BLOBS)
    hs = draw(st.lists(headers(), max_size=3))
    shape = draw(st.sampled_from(["tuple", "tuple", "object", "decoded", "wrong", "short"]))

    def heads(m):
        return [h(m) for h in hs]
    if shape == "tuple":
        return lambda m: (attributes, ts, od, key, value, heads(m))
    if shape == "short":
        return lambda m: (attributes, ts, od, key, value)
    if shape == "object":
        return lambda m: m.Record(attributes=attributes, timestamp_delta=ts, offset_delta=od, key=key, value=value,
                                  headers=heads(m))
    # a decoded record's derived fields, right (len_record left to the encoder) or wrong
    len_key = len(key) if isinstance(key, bytes) else -1
    return lambda m: m.Record(attributes=attributes, timestamp_delta=ts, offset_delta=od, key=key, value=value,
                              headers=heads(m), len_key=len_key + (shape == "wrong"), num_headers=len(hs))


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(recs=st.lists(records(), max_size=4), is_control=st.booleans())
def test_fast_and_checked_encoders_agree(modules, recs, is_control):
    fast, checked = modules
    assert outcome(fast, recs, is_control) == outcome(checked, recs, is_control)


PLAIN = [
    lambda m: (0, 0, 0, b"k", b"v", [("h", b"1"), ("h2", None)]),
    lambda m: (0, 5, 1, None, b"x" * 9000, []),
    lambda m: (-1, -9000, 10_000, b"", None, [("\u00e9", b"")]),
    lambda m: m.Record(attributes=0, timestamp_delta=2**40, offset_delta=3, key=None, value=None,
                       headers=[m.Header(key="a", value=b"b"), ("c", None)]),
]


def test_plain_records_encode_and_decode_back(modules):
    """Records the fast loops take: the same bytes as the checked encoder's, which decode to them."""
    fast, checked = modules
    data = outcome(fast, PLAIN)
    assert isinstance(data, bytes) and data == outcome(checked, PLAIN)
    batch = fast.decode(data, tuples=True)
    got = [(r[1], r[2], r[3], r[4], list(r[5])) for r in batch.records]
    assert got == [(0, 0, b"k", b"v", [("h", b"1"), ("h2", None)]), (5, 1, None, b"x" * 9000, []),
                   (-9000, 10_000, b"", None, [("\u00e9", b"")]), (2**40, 3, None, None, [("a", b"b"), ("c", None)])]


def test_bytes_like_values_encode_as_their_bytes(modules):
    """A bytes field takes any bytes-like value as the bytes it holds, its length counted in bytes
    (an array of 4-byte ints: 4 a number), and refuses anything else naming the field; both
    the fast loop (which leaves all but `bytes` to the checked encoder) and the checked one."""
    fast, checked = modules
    for value in (array("i", [1, -2]), memoryview(array("i", [7])), memoryview(b"ab"), bytearray(b"cd")):
        for module in (fast, checked):
            data = outcome(module, [lambda m, v=value: (0, 0, 0, None, v, [("h", v)])])
            [record] = module.decode(data, tuples=True).records
            assert record[4] == bytes(value) and list(record[5]) == [("h", bytes(value))]
    for value in ("text", [1, 2]):
        errors = {outcome(module, [lambda m, v=value: (0, 0, 0, None, None, [("h", b"1"), ("h", v)])])
                  for module in (fast, checked)}
        assert errors == {("error", "invalid_value", None, "record_batch_v2.records[0].headers[1].value",
                           f"invalid_value in record_batch_v2.records[0].headers[1].value: "
                           f"{type(value).__name__} is not bytes")}


# A text that may be null, in a list's element: Kafka's records have none (a header's key is
# never null), a user's schema may.
NAMES_KSY = """\
meta:
  id: names
  title: A counted list of entries, each an optional name and a tag
  endian: le
  imports:
    - ../common/zigzag_varint
    - ../common/uvarint
doc: A count, then that many entries (a test of the fast encoders' null text).
seq:
  - id: num_entries
    type: uvarint(32)
    doc: How many entries follow.
    -lc-count-of: entries
  - id: entries
    type: entry
    repeat: expr
    repeat-expr: num_entries.value
    doc: The entries.
types:
  entry:
    doc: One entry.
    seq:
      - id: len_name
        type: zigzag_varint(32)
        doc: Length of the name in bytes, or -1 when there is none.
        -lc-size-of: name
        -lc-absent: -1
      - id: name
        type: str
        size: len_name.value
        if: len_name.value >= 0
        encoding: UTF-8
        doc: The name, if any.
      - id: tag
        type: u1
        doc: A tag.
"""


@pytest.fixture(scope="module")
def names_modules(tmp_path_factory):
    """The names schema as generated and without fast loops (`modules`), both pure Python."""
    root = tmp_path_factory.mktemp("schemas")
    (root / "common").mkdir()
    for path in (SCHEMAS / "common").glob("*.ksy"):
        (root / "common" / path.name).write_text(path.read_text())
    (root / "demo").mkdir()
    (root / "demo" / "names.ksy").write_text(NAMES_KSY)
    fast, checked = fast_and_checked(Loader(root).load("demo/names.ksy"))
    assert "_TEXT_entry_name[" in fast and "_TEXT_entry_name" not in checked
    return (pure_module("logcodec_test_fast_names", fast), pure_module("logcodec_test_checked_names", checked))


@st.composite
def entries(draw):
    name, tag = draw(KEYS), draw(INTS)
    shape = draw(st.sampled_from(["tuple", "object", "decoded"]))
    if shape == "tuple":
        return lambda m: (name, tag)
    if shape == "object":
        return lambda m: m.Entry(name=name, tag=tag)
    return lambda m: m.Entry(len_name=len(name) if isinstance(name, str) else -1, name=name, tag=tag)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(items=st.lists(entries(), max_size=4))
def test_fast_and_checked_encoders_agree_on_null_text(names_modules, items):
    fast, checked = names_modules
    outcomes = []
    for module in (fast, checked):
        try:
            outcomes.append(module.build(entries=[e(module) for e in items]))
        except EncodeError as exc:
            outcomes.append(("error", exc.kind, exc.offset, exc.path, str(exc)))
    assert outcomes[0] == outcomes[1]
    if isinstance(outcomes[0], bytes):
        given = [e(fast) for e in items]
        decoded = fast.decode(outcomes[0], tuples=True).entries
        assert [name for name, _ in decoded] == [v[0] if isinstance(v, tuple) else v.name for v in given]


def test_the_fast_loops_take_plain_records_of_either_form(modules, monkeypatch):
    """Plain records, as value objects or tuple forms, never reach the checked encoder (so the
    comparisons above are not vacuous); a tuple in a list of value objects does, alone."""
    fast, _ = modules
    checked_calls = []
    checked = fast._e_record
    monkeypatch.setattr(fast, "_e_record", lambda v, *args: checked_calls.append(v) or checked(v, *args))

    def objects(m):
        return [m.Record(timestamp_delta=i, offset_delta=i, key=b"k", value=None,
                         headers=[m.Header(key="h", value=b"v")]) for i in range(3)]
    tuples = [lambda m, i=i: (0, i, i, b"k", None, [("h", b"v")]) for i in range(3)]
    data = outcome(fast, [lambda m, r=r: r for r in objects(fast)])
    assert isinstance(data, bytes) and checked_calls == []
    assert outcome(fast, tuples) == data and checked_calls == []
    mixed = objects(fast)
    mixed[1] = (0, 1, 1, b"k", None, [("h", b"v")])
    assert outcome(fast, [lambda m, r=r: r for r in mixed]) == data and checked_calls == [mixed[1]]
