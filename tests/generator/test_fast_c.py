"""The C companion of the Kafka record batch module (`generator/python/fast_c.py`) against the
checked encoders: compiled here from the generated C source, and put in place of `_FAST` in
the module as generated, run as Python, whose outcomes are compared with those of the same
schema generated with no fast loop at all (`test_fast_encode`). Every list of records encodes
to the same bytes in both, or fails in both with the same error: the C loop only ever takes
what the checked encoder takes, to the same bytes, and leaves the rest to it (it returns None,
never raises)."""

import importlib.util
import shutil
import sys
import sysconfig

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from logcodec.generator.python import ModuleEmitter
from logcodec.generator.schema import Loader
from logcodec.runtime import native
from tests.generator.rendered import SCHEMAS, pure_module
from tests.generator.test_fast_encode import PLAIN, modules, outcome, records  # noqa: F401 (a fixture)


@pytest.fixture(scope="module")
def companion(tmp_path_factory):
    """The generated C companion, compiled into a temporary folder and loaded."""
    if shutil.which((sysconfig.get_config_var("CC") or "cc").split()[0]) is None:
        pytest.skip("no C compiler")
    emitter = ModuleEmitter(Loader(SCHEMAS).load("kafka/record_batch_v2.ksy"))
    emitter.render()
    source = emitter.companion.encode()
    path = native.compile_companion("record_batch_v2", source, tmp_path_factory.mktemp("fast_c"), log=lambda m: None)
    name = path.name.split(".")[0]
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    sys.modules[name] = module
    return module


@pytest.fixture(scope="module")
def with_c(companion):
    """The module as generated, its C loops in place (as a compiled build has them)."""
    module = pure_module("logcodec_test_fast_c_record_batch_v2", ModuleEmitter(
        Loader(SCHEMAS).load("kafka/record_batch_v2.ksy")).render())
    module._FAST = companion
    return module


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(recs=st.lists(records(), max_size=4), is_control=st.booleans())
def test_c_and_checked_encoders_agree(with_c, modules, recs, is_control):
    _, checked = modules
    assert outcome(with_c, recs, is_control) == outcome(checked, recs, is_control)


EDGES = st.one_of(st.integers(-10, 10), st.integers(-2**64, 2**64),
                  st.sampled_from([-129, -128, 127, 128, 255, 256, -8193, 8192, 2**31 - 1, 2**31, -2**31, -2**31 - 1,
                                   2**63 - 1, 2**63, -2**63, -2**63 - 1]))
PLAIN_HEADERS = st.lists(st.tuples(st.one_of(st.text(max_size=6), st.just("\ud800")),
                                   st.one_of(st.none(), st.binary(max_size=6))), max_size=3)


@st.composite
def plain_records(draw):
    """Records in the shapes the C loop takes, their numbers at and past the edges of each range."""
    return (draw(EDGES), draw(EDGES), draw(EDGES), draw(st.one_of(st.none(), st.binary(max_size=6))),
            draw(st.one_of(st.none(), st.binary(max_size=6))), draw(PLAIN_HEADERS))


@settings(max_examples=400, deadline=None)
@given(recs=st.lists(plain_records(), max_size=3))
def test_c_and_checked_encoders_agree_at_the_edges(with_c, modules, recs):
    _, checked = modules
    assert outcome(with_c, [lambda m, r=r: r for r in recs]) == outcome(checked, [lambda m, r=r: r for r in recs])


def test_the_c_loops_take_plain_tuples(companion, modules):
    """Plain records as tuples are written by C (not left to Python), to the checked bytes."""
    _, checked = modules
    recs = [r(checked) for r in PLAIN if isinstance(r(checked), tuple)]
    data = companion.record_list_items(recs)
    assert data is not None
    out = []
    checked._e_record_list(recs, out, len(recs), False)
    assert data == b"".join(out)
    headers = [("h", b"1"), ("\u00e9", None), ("", b"")]
    out = []
    checked._e_record((0, 0, 0, None, None, headers), out, False)
    assert companion.record_headers(headers) is not None and b"".join(out).endswith(companion.record_headers(headers))


@pytest.mark.parametrize("items", [
    [(0, 0, 0, b"k", b"v", [("\ud800", b"1")])],  # a lone surrogate: not UTF-8
    [(True, 0, 0, None, None, [])],  # a bool is an int to Python, not to the C loop
    [(-129, 0, 0, None, None, [])],  # past each field's range
    [(128, 0, 0, None, None, [])],
    [(0, -2**63 - 1, 0, None, None, [])],
    [(0, 2**63, 0, None, None, [])],  # past the 64-bit range
    [(0, 0, 2**31, None, None, [])],  # past the 32-bit range
    [(0, 0, -2**31 - 1, None, None, [])],
    [(0, 0, 0, bytearray(b"k"), None, [])],  # bytes-like, not bytes
    [(0, 0, 0, None, None, [("h", b"1", 2)])],  # a header of three
    [(0, 0, 0, None, None, "h")],  # headers that are no list
    [(0, 0, 0, None, None)],  # a short record
    [[0, 0, 0, None, None, []]],  # a list, not a tuple
    "records",
])
def test_the_c_loops_leave_the_rest_to_python(companion, items):
    assert companion.record_list_items(items) is None
