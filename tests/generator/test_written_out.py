"""The list elements that interpreted decoders write out (`TypeEmitter.inlined_element`), and
the value objects they make with `_new` and a store per field (`element_made`, and `made_by_new`
in the decoders of elements not written out), against decoders that call each element's
decoder and its class: every schema of ours whose module does either is generated as it is and
without them, both run as Python, and each decodes the golden vectors and bytes changed from
them to the same value (as objects and as tuples) or fails with the same error (kind, offset,
path and message)."""

import dataclasses
import enum
import inspect

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from logcodec.generator.python import ModuleEmitter
from logcodec.generator.python.emit import TypeEmitter
from logcodec.generator.schema import Loader
from logcodec.runtime.errors import DecodeError
from tests.generator.rendered import SCHEMAS, pure_module
from tests.vectorfiles import all_tests

FORMATS = sorted({fmt for fmt, _ in all_tests()})


def _pair(fmt: str):
    """(the module as generated, the same schema generated with no element written out and every
    value made by its class), both pure Python; None when the two are the same source."""
    schema = Loader(SCHEMAS).load(fmt.replace(".", "/") + ".ksy")
    written = ModuleEmitter(schema).render()
    inlined, made_by_new = TypeEmitter.inlined_element, TypeEmitter.made_by_new
    TypeEmitter.inlined_element = lambda self, f: None
    TypeEmitter.made_by_new = lambda self: False
    try:
        called = ModuleEmitter(schema).render()
    finally:
        TypeEmitter.inlined_element, TypeEmitter.made_by_new = inlined, made_by_new
    if written == called:
        return None
    assert "_new(" in written and "_new(" not in called
    stem = fmt.replace(".", "_")
    return (pure_module(f"logcodec_test_written_{stem}", written),
            pure_module(f"logcodec_test_called_{stem}", called))


PAIRS = {fmt: pair for fmt in FORMATS if (pair := _pair(fmt)) is not None}
# (format, tuples): as objects, and as tuples where the module's decode takes `tuples=`
MODES = [(fmt, tuples) for fmt, (written, _) in sorted(PAIRS.items())
         for tuples in (False, True) if not tuples or "tuples" in inspect.signature(written.decode).parameters]


def test_the_formats_that_write_elements_out():
    """The comparison covers the formats with lists of structures (a change that stopped writing
    them out, or making them by `_new`, would make the other tests compare a module with itself)."""
    assert {"kafka.record_batch_v2", "tank.request", "tank.response", "inkless.block_metadata", "tank.bundle",
            "tank.segment_log"} <= set(PAIRS)


def plain(value):
    """A decoded value as plain data, the same for both modules' classes (a value object as its
    class's name and its fields)."""
    if dataclasses.is_dataclass(value):
        return (type(value).__name__, tuple((f.name, plain(getattr(value, f.name))) for f in dataclasses.fields(value)))
    if isinstance(value, enum.Enum):
        return (type(value).__name__, value.value)
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, [plain(v) for v in value])
    return value


def outcome(module, data: bytes, tuples: bool):
    try:
        return plain(module.decode(data, tuples=True) if tuples else module.decode(data))
    except DecodeError as exc:
        return ("error", exc.kind, exc.offset, exc.path, str(exc))


def _seeds(fmt: str) -> list[bytes]:
    return [bytes.fromhex(t["bytes"]) for f, t in all_tests() if f == fmt]


@pytest.mark.parametrize("fmt,tuples", MODES, ids=[f"{fmt}-{'tuples' if t else 'objects'}" for fmt, t in MODES])
def test_vectors_decode_alike(fmt, tuples):
    written, called = PAIRS[fmt]
    seeds = _seeds(fmt)
    outcomes = [outcome(written, data, tuples) for data in seeds]
    assert outcomes == [outcome(called, data, tuples) for data in seeds]
    assert any(o[0] != "error" for o in outcomes)


@st.composite
def changed(draw, seeds):
    """A seed with a few bytes replaced, cut short, or with bytes put in or taken out."""
    data = bytearray(draw(st.sampled_from(seeds)))
    for _ in range(draw(st.integers(1, 3))):
        how = draw(st.sampled_from(["set", "cut", "insert", "delete"]))
        at = draw(st.integers(0, max(len(data) - 1, 0)))
        if how == "set" and data:
            data[at] = draw(st.sampled_from([0, 1, 0x7F, 0x80, 0xFF, draw(st.integers(0, 255))]))
        elif how == "cut":
            del data[at:]
        elif how == "insert":
            data[at:at] = draw(st.binary(min_size=1, max_size=3))
        elif data:
            del data[at]
    return bytes(data)


@pytest.mark.parametrize("fmt", sorted(PAIRS))
def test_changed_bytes_decode_alike(fmt):
    written, called = PAIRS[fmt]
    modes = [tuples for f, tuples in MODES if f == fmt]

    @settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
    @given(data=changed(_seeds(fmt)), tuples=st.sampled_from(modes))
    def alike(data, tuples):
        assert outcome(written, data, tuples) == outcome(called, data, tuples)

    alike()
