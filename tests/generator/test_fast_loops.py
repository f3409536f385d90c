"""The fast element loops of every encoder that has them (`generator/python/fast_encode.py`, their
plans `generator/element_plans.py`) against the checked encoders alone: each schema whose module
writes a list's elements out is generated as it is and with no element plan, both run as Python.
Each valid golden vector's value encodes to the same bytes in both, or fails in both with the
same error (kind, offset, path and message): as decoded (its derived fields set), with its derived
fields taken out (what the fast loops take), as the tuple form of its elements, and with a field of
a list's element changed to a value of another kind. The Kafka message bodies are taken from the
frames' vectors, at the frame's version (their conditions on `api_version` are the loops' to
decide)."""

import copy
import dataclasses
import functools
import importlib
import importlib.util
import inspect
import re
import shutil
import sys
import sysconfig
import tempfile
from pathlib import Path

import logcodec.generated
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from logcodec.generated.kafka.messages.tagged_field import TaggedField
from logcodec.generator import element_plans
from logcodec.generator import expr as E
from logcodec.generator.python import ModuleEmitter
from logcodec.generator.reading import Loader, formats_under

import logcodec
from logcodec.runtime import native
from logcodec.runtime.errors import EncodeError
from tests.generator.rendered import SCHEMAS, pure_module
from tests.vectorfiles import all_tests, params

DOCUMENTS = formats_under(SCHEMAS)[1]  # the schemas made from Kafka's message specs
FRAMES = ("kafka.request", "kafka.response")
GENERATED = Path(logcodec.generated.__file__).parent
WRITTEN_OUT = re.compile(r"\bfo_\w+ = bool\(")  # a written-out loop's first line (`written_out_loop`)


def _schema_path(module_name: str) -> str:
    return module_name.removeprefix("logcodec.generated.").replace(".", "/") + ".ksy"


def _writes_out(module_name: str) -> bool:
    """Whether the shipped module's source has a written-out loop (rendering only those keeps this
    quick)."""
    source = GENERATED / (module_name.removeprefix("logcodec.generated.").replace(".", "/") + ".py")
    return bool(WRITTEN_OUT.search(source.read_text(encoding="utf-8")))


def _body_module(name: str) -> str:
    """The module of a frame's body by its name, also where its compiled build is in use (whose
    classes are of `_lcn_<id>_<hash>`)."""
    if name.startswith("_lcn_"):
        return "logcodec.generated.kafka.messages." + name.removeprefix("_lcn_").rsplit("_", 1)[0]
    return name


def _cases() -> list[tuple[str, str, bytes, dict, str]]:
    """(the module's name, the format the vector is of, its bytes, its params, the vector's id)
    of every valid vector whose value, or whose frame's body, a module with written-out loops
    encodes."""
    cases = []
    for fmt, test in all_tests("valid"):
        data, kw = bytes.fromhex(test["bytes"]), params(test)
        value = logcodec.decode(fmt, data, **kw)
        module = _body_module(type(value.body).__module__) if fmt in FRAMES else f"logcodec.generated.{fmt}"
        cases.append((module, fmt, data, kw, f"{fmt}:{test['tcId']}"))
    written_out = {name for name in {case[0] for case in cases} if _writes_out(name)}
    return [case for case in cases if case[0] in written_out]


CASES = _cases()


@functools.cache
def pair(module_name: str):
    """(the module as generated, the same schema generated with no element plan), pure Python."""
    schema = Loader(SCHEMAS, documents=DOCUMENTS).load(_schema_path(module_name))
    fast = ModuleEmitter(schema).render()
    plan = element_plans.element_plan
    element_plans.element_plan = lambda model, u, seen=frozenset(): None
    try:
        checked = ModuleEmitter(schema).render()
    finally:
        element_plans.element_plan = plan
    assert fast != checked and WRITTEN_OUT.search(fast) and not WRITTEN_OUT.search(checked)
    stem = module_name.rsplit(".", 1)[1]
    return pure_module(f"logcodec_test_fast_{stem}", fast), pure_module(f"logcodec_test_checked_{stem}", checked)


def encoded(fmt: str, data: bytes, kw: dict) -> tuple[bytes, dict]:
    """The bytes the module of the case decodes, and its params: the vector's, or its frame's
    body at the frame's version."""
    if fmt not in FRAMES:
        return data, kw
    frame = logcodec.decode(fmt, data, **kw)
    version = frame.header.request_api_version if fmt == "kafka.request" else kw["api_version"]
    body = importlib.import_module(_body_module(type(frame.body).__module__))
    return body.encode(logcodec.strip_derived(frame.body), api_version=version), {"api_version": version}


def outcome(module, value, kw):
    try:
        return module.encode(value, **kw)
    except EncodeError as exc:
        return ("error", exc.kind, exc.offset, exc.path, str(exc))


def test_the_formats_with_written_out_loops():
    """The comparison covers the lists the element plans write out: fixed-width numbers, counts
    under a version's condition, lists of numbers and of a type without a plan (a Kafka partition
    in a Metadata response), index entries, TANK's requests (a change that stopped writing them
    out would leave these tests nothing to compare)."""
    modules = {case[0] for case in CASES}
    assert {"logcodec.generated.kafka.messages.metadata_response", "logcodec.generated.kafka.offset_index",
            "logcodec.generated.kafka.time_index", "logcodec.generated.tank.request"} <= modules
    assert len(CASES) > 100


@pytest.mark.parametrize("module_name,fmt,data,kw", [c[:4] for c in CASES], ids=[c[4] for c in CASES])
def test_fast_and_checked_encoders_agree_on_vectors(module_name, fmt, data, kw):
    """Each module decodes the bytes to values of its own classes (a switch's case is checked
    against its module's class)."""
    data, kw = encoded(fmt, data, kw)
    outcomes = []
    for module in pair(module_name):
        value = module.decode(data, **kw)
        stripped = logcodec.strip_derived(value)
        as_tuples = module.decode(data, tuples=True, **kw) if "tuples" in inspect.signature(module.decode).parameters \
            else None
        outcomes.append([outcome(module, v, kw) for v in (stripped, value, as_tuples) if v is not None])
    fast, checked = outcomes
    assert isinstance(checked[0], bytes)
    assert fast == checked


def _elements(value, inside_list: bool = False):
    """Every value object held by a list somewhere in `value`, as (object, its field names)."""
    if isinstance(value, (list, tuple)):
        for item in value:
            yield from _elements(item, True)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        names = [f.name for f in dataclasses.fields(value)]
        if inside_list:
            yield value, names
        for name in names:
            yield from _elements(getattr(value, name))


ODD = [None, -1, 0, 1, 255, 256, 2**15, 2**31, -2**31 - 1, 2**63, 1.5, True, "x", b"x", b"", [], [1, "a"], (1,),
       [None], [2**40], (0, 0, 0)]


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_fast_and_checked_encoders_agree_on_changed_values(data):
    module_name, fmt, raw, kw, _ = data.draw(st.sampled_from(CASES))
    raw, kw = encoded(fmt, raw, kw)
    values = [logcodec.strip_derived(module.decode(raw, **kw)) for module in pair(module_name)]
    # the module's own values (a record batch inside is another module's, maybe compiled)
    elements = [[e for e in _elements(value) if type(e[0]).__module__ == module.__name__]
                for module, value in zip(pair(module_name), values)]
    if not elements[0]:
        return
    for _ in range(data.draw(st.integers(1, 3))):  # the same change in both modules' values
        k = data.draw(st.integers(0, len(elements[0]) - 1))
        name = data.draw(st.sampled_from(elements[0][k][1]))
        odd = data.draw(st.sampled_from(ODD))
        for found in elements:
            setattr(found[k][0], name, copy.deepcopy(odd))
    fast, checked = (outcome(module, value, kw) for module, value in zip(pair(module_name), values))
    assert fast == checked


# ---------------------------------------------------------------- the C companions' loops

#: Modules whose C loops run here too (each compiled once, a few seconds): counts and fields under
#: a version's conditions, lists of numbers and a list C takes empty only (Metadata's partitions),
#: fixed-width runs (an index's entries, TANK's partitions).
IN_C = ("logcodec.generated.kafka.messages.metadata_response", "logcodec.generated.kafka.offset_index",
        "logcodec.generated.tank.request")


@functools.cache
def with_c(module_name: str):
    """The module as generated, run as Python with its C companion compiled here in place of
    `_FAST` (as an install that built it has)."""
    if shutil.which((sysconfig.get_config_var("CC") or "cc").split()[0]) is None:
        pytest.skip("no C compiler")
    schema = Loader(SCHEMAS, documents=DOCUMENTS).load(_schema_path(module_name))
    emitter = ModuleEmitter(schema)
    source = emitter.render()
    assert emitter.companion is not None
    stem = module_name.rsplit(".", 1)[1]
    path = native.compile_companion(stem, emitter.companion.encode(), Path(tempfile.mkdtemp()), log=lambda m: None)
    name = path.name.split(".")[0]
    spec = importlib.util.spec_from_file_location(name, path)
    companion = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(companion)
    sys.modules[name] = companion
    module = pure_module(f"logcodec_test_c_{stem}", source)
    module._FAST = companion
    return module


C_CASES = [c for c in CASES if c[0] in IN_C]


def test_the_modules_with_c_loops():
    assert {c[0] for c in C_CASES} == set(IN_C)


@pytest.mark.parametrize("module_name,fmt,data,kw", [c[:4] for c in C_CASES], ids=[c[4] for c in C_CASES])
def test_c_and_checked_encoders_agree_on_vectors(module_name, fmt, data, kw):
    data, kw = encoded(fmt, data, kw)
    outcomes = []
    for module in (with_c(module_name), pair(module_name)[1]):
        value = module.decode(data, **kw)
        outcomes.append([outcome(module, v, kw) for v in (logcodec.strip_derived(value), value)])
    assert outcomes[0] == outcomes[1] and isinstance(outcomes[1][0], bytes)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_c_and_checked_encoders_agree_on_changed_values(data):
    module_name, fmt, raw, kw, _ = data.draw(st.sampled_from(C_CASES))
    raw, kw = encoded(fmt, raw, kw)
    modules = (with_c(module_name), pair(module_name)[1])
    values = [logcodec.strip_derived(module.decode(raw, **kw)) for module in modules]
    elements = [[e for e in _elements(value) if type(e[0]).__module__ == module.__name__]
                for module, value in zip(modules, values)]
    if not elements[0]:
        return
    for _ in range(data.draw(st.integers(1, 3))):
        k = data.draw(st.integers(0, len(elements[0]) - 1))
        name = data.draw(st.sampled_from(elements[0][k][1]))
        odd = data.draw(st.sampled_from(ODD))
        for found in elements:
            setattr(found[k][0], name, copy.deepcopy(odd))
    c_outcome, checked = (outcome(module, value, kw) for module, value in zip(modules, values))
    assert c_outcome == checked


def test_the_c_loops_run():
    """The C loop writes the Metadata response's partitions (a value its guards take), not the
    Python loops: its function is called, and gives the bytes (not None)."""
    module = with_c(IN_C[0])
    case = next(c for c in C_CASES if c[4].endswith("metadata_response_v12_filled"))
    raw, kw = encoded(*case[1:4])
    value = logcodec.strip_derived(module.decode(raw, **kw))
    assert any(t.partitions for t in value.topics)
    calls = []
    real = module._FAST

    class Spy:
        def __getattr__(self, name):
            function = getattr(real, name)

            def called(*args):
                result = function(*args)
                calls.append((name, result is not None))
                return result
            return called

    module._FAST = Spy()
    try:
        assert module.encode(value, **kw) == raw
    finally:
        module._FAST = real
    assert ("encode_metadata_response_topic_partitions", True) in calls


@pytest.mark.parametrize("runs", ["python", "c"])
def test_unknown_tags_of_an_element_go_to_its_checked_encoder(runs):
    """A Metadata partition's unknown tagged fields (a list of a type without a plan, which the
    fast loops write through its checked encoder and C takes empty only) encode as the checked
    encoder writes them, and a bad one fails as it fails."""
    module_name = IN_C[0]
    fast = pair(module_name)[0] if runs == "python" else with_c(module_name)
    checked = pair(module_name)[1]
    case = next(c for c in C_CASES if c[4].endswith("metadata_response_v12_filled"))
    raw, kw = encoded(*case[1:4])
    written = []
    for tags in ([TaggedField(tag=7, data=b"xy")], [TaggedField(tag=1), TaggedField(tag=9, data=b"z" * 200)],
                 [TaggedField(tag=-1)], [None], [(3, None, b"ab")]):
        outcomes = []
        for module in (fast, checked):
            value = logcodec.strip_derived(module.decode(raw, **kw))
            partitions = [p for t in value.topics for p in t.partitions]
            partitions[-1].tagged_fields = copy.deepcopy(tags)
            outcomes.append(outcome(module, value, kw))
        assert outcomes[0] == outcomes[1]
        written.append(outcomes[0])
    assert b"\x01\x07\x02xy" in written[0] and b"z" * 200 in written[1]  # (count, tag, size, data)
    assert written[2][:2] == written[3][:2] == ("error", "invalid_value")


@pytest.mark.parametrize("text,always", [
    ("v >= 9 or v <= 8", True),
    ("v >= 9 or v <= 7", False),
    ("not (v >= 5) or (v >= 9 or (v >= 5 and v <= 8))", True),
    ("not (v >= 5 and v <= 8) or v >= 6", False),
    ("(v >= 3 ? v >= 2 : v <= 2)", True),
    ("(v >= 3 ? v >= 4 : v <= 2)", False),
    ("v != 4 or v == 4", True),
    ("v >= 9 or w <= 8", False),  # two params: kept
    ("v >= 9 or v < 9.5", False),  # a float: kept
])
def test_a_check_that_always_holds_is_dropped(text, always):
    """A list's check that holds for every version (`element_plans._always`) is not tested by
    the loop; any other is kept."""
    assert element_plans._always(E.parse(text)) is always
