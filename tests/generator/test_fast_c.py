"""The C companion of the Kafka record batch module (`generator/python/fast_c.py`) against the
Python code: compiled here from the generated C source, and put in place of `_FAST` in the
module as generated, run as Python, whose outcomes are compared with those of the same schema
generated with no fast loop at all (`test_fast_encode`). Every list of records encodes to the
same bytes in both, or fails in both with the same error; every batch, its records' bytes
changed here and there, decodes to the same records in both, or fails with the same error. The
C code only ever takes what the Python code takes, to the same bytes or records, and leaves the
rest to it (it returns None, never raises)."""

import dataclasses
import gc
import importlib.util
import shutil
import sys
import sysconfig

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from logcodec.generator.python import ModuleEmitter
from logcodec.generator.reading import Loader
from logcodec.runtime import native
from logcodec.runtime.errors import DecodeError, EncodeError
from logcodec.runtime.limits import Limits
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


def test_the_c_loops_take_plain_tuples(companion, with_c, modules):
    """Plain records as tuples are written by C (not left to Python), to the checked bytes."""
    _, checked = modules
    recs = [r(checked) for r in PLAIN if isinstance(r(checked), tuple)]
    data = companion.encode_record_list_items(recs, with_c._C_CLASSES)
    assert data is not None
    out = []
    checked._e_record_list(recs, out, len(recs), False)
    assert data == b"".join(out)
    headers = [("h", b"1"), ("\u00e9", None), ("", b"")]
    out = []
    checked._e_record((0, 0, 0, None, None, headers), out, False)
    in_c = companion.encode_record_headers(headers, with_c._C_CLASSES)
    assert in_c is not None and b"".join(out).endswith(in_c)


def plain_objects(m):
    """Plain records as value objects of module `m`: built (derived fields None), and as a decode
    gives them (derived fields set)."""
    built = [m.Record(attributes=0, timestamp_delta=5, offset_delta=1, value=b"x" * 300),
             m.Record(attributes=-1, timestamp_delta=-9000, offset_delta=10_000, key=b"",
                      headers=[m.Header(key="\u00e9", value=b""), m.Header(key="k")])]
    return built, m.decode(m.build(records=built), lazy=False).records


def test_the_c_loops_take_value_objects_of_the_module(companion, with_c, modules):
    """Value objects of the module's own classes are written by C, built or decoded, to the
    checked encoder's bytes; a derived field that disagrees, another class (a subclass too) or a
    field not set is left to Python."""
    _, checked = modules
    built, decoded = plain_objects(with_c)
    expected = []
    checked._e_record_list(plain_objects(checked)[0], expected, 2, False)
    for recs in (built, decoded):
        assert companion.encode_record_list_items(recs, with_c._C_CLASSES) == b"".join(expected)
    assert companion.encode_record_list_items(plain_objects(checked)[0], with_c._C_CLASSES) is None

    class Subclass(with_c.Header):
        __slots__ = ()

    wrong = [with_c.Record(key=b"k", len_key=2), with_c.Record(headers=[Subclass(key="k")]),
             with_c.Record(headers=[with_c.Header(key="k")], num_headers=2), with_c.Record(len_record=99),
             with_c.Record(value=None, len_value=0)]
    unset = with_c.Record()
    del unset.attributes
    for record in [*wrong, unset]:
        assert companion.encode_record_list_items([record], with_c._C_CLASSES) is None, record
    assert companion.encode_record_list_items(built, (with_c.Header,)) is None  # not the module's classes
    kept = with_c.Record(value=None, len_value=-2)  # a negative length of a null, kept: Python writes it
    assert companion.encode_record_list_items([kept], with_c._C_CLASSES) is None


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
def test_the_c_loops_leave_the_rest_to_python(companion, with_c, items):
    assert companion.encode_record_list_items(items, with_c._C_CLASSES) is None


def decoded(module, data, limits, how):
    """What `decode` (or `decode_iter`, its records read in turn, or `decode_columns`) gives for
    `data` in tuple form: the records, or the error as its fields; `values` and `iter values`,
    value objects, as the tuples of their fields (the modules' classes are each their own)."""
    try:
        if how in ("values", "iter values"):
            records = (module.decode_iter(data, limits=limits)[1] if how == "iter values"
                       else module.decode(data, limits=limits, lazy=False).records)
            return [dataclasses.astuple(r) for r in records]
        if how == "iter":
            header, records = module.decode_iter(data, limits=limits, tuples=True)
            return [*records]
        if how == "columns":
            header, columns = module.decode_columns(data, limits=limits, tuples=True)
            return columns
        return module.decode(data, limits=limits, tuples=True, lazy=False).records
    except DecodeError as exc:
        return ("error", exc.kind, exc.offset, exc.path, str(exc))


@st.composite
def mutated_batches(draw):
    """A batch of plain records built by the checked module, some bytes of its records replaced,
    its CRC made right again (so that the records are read), and a budget of elements."""
    recs = draw(st.lists(plain_records(), max_size=5))
    return recs, draw(st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 255)), max_size=3)), \
        draw(st.sampled_from([None, 1, 2, 5, 20]))


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=mutated_batches(), how=st.sampled_from(["decode", "iter", "columns", "values", "iter values"]))
def test_c_and_python_decoders_agree(with_c, modules, case, how):
    """The C reader gives what the Python decoder gives, value or error, or leaves it to Python."""
    _, checked = modules
    recs, changes, max_elements = case
    try:
        data = checked.build(records=[r for r in recs])
    except EncodeError:
        return  # a record past some range: nothing to decode
    data = bytearray(data)
    for at, byte in changes:
        if len(data) > 61:
            data[61 + at % (len(data) - 61)] = byte  # in the records, after the batch's fixed fields
    data = checked.checksums_filled(bytes(data))
    limits = Limits() if max_elements is None else Limits(max_elements=max_elements)
    assert decoded(with_c, data, limits, how) == decoded(checked, data, limits, how)


def test_the_c_reader_reads_plain_records(companion, modules):
    """Plain records are read by C, not left to Python: the same tuples as Python's decoder,
    released from the collector at once (they hold no list: `test_tuple_form`)."""
    _, checked = modules
    recs = [(0, 5, 1, None, b"x" * 300, ()), (-1, -9000, 10_000, b"", None, (("\u00e9", b""), ("k", None)))]
    data = checked.build(records=recs)
    assert checked.decode(data, tuples=True, lazy=False).records == recs
    got = companion.decode_record_list_items(data, 61, len(data), len(recs), 10, None)
    assert got is not None and got[0] == recs and got[1:] == (len(data), 2)
    assert not any(gc.is_tracked(x) for r in got[0] for x in (r, r[5], *r[5]))
    assert companion.decode_record_list_items(data, 61, len(data), len(recs), 1, None) is None  # two headers, budget one
    columns = [[1], [], [], [], [], []]  # a column that already holds something keeps it
    assert companion.columns_record_list_items(data, 61, len(data), len(recs), 10, columns) == (len(data), 2)
    assert columns == [[1, *(r[0] for r in recs)], *([r[k] for r in recs] for k in range(1, 6))]
    assert companion.columns_record_list_items(data, 61, len(data), len(recs), 1, columns) is None
    assert columns == [[1, *(r[0] for r in recs)], *([r[k] for r in recs] for k in range(1, 6))]  # as they were


def test_the_c_reader_makes_value_objects_of_the_module(companion, with_c, modules):
    """Given the module's classes, the C reader makes value objects of them, every field set as
    the Python decoder sets it (derived ones too), released from the collector at once (their
    schema's values hold no link back); not given classes it takes, it reads nothing."""
    _, checked = modules
    built, _ = plain_objects(checked)
    data = checked.build(records=built)
    got = companion.decode_record_list_items(data, 61, len(data), 2, 10, with_c._C_CLASSES)
    assert got is not None and got[1:] == (len(data), 2)
    assert [type(r) for r in got[0]] == [with_c.Record] * 2 and type(got[0][1].headers[0]) is with_c.Header
    assert [dataclasses.astuple(r) for r in got[0]] == [dataclasses.astuple(r) for r in checked.decode(data, lazy=False).records]
    assert not any(gc.is_tracked(x) for r in got[0] for x in (got[0], r, r.headers, *r.headers))
    again = companion.decode_record_list_items(data, 61, len(data), 2, 10, with_c._C_CLASSES)[0]
    assert again[1].headers[1].key is got[0][1].headers[1].key == "k"  # an ASCII text read before: one object
    assert again[1].headers[0].key == "\u00e9"

    @dataclasses.dataclass(slots=True)
    class Wider:  # a header's fields as slots, and one more, which C would leave unset
        len_key: int
        key: str
        len_value: int
        value: bytes
        more: int

    for classes in ((with_c.Record, with_c.Header), (with_c.Header,), (with_c.Header, dict), "classes",
                    (Wider, with_c.Record)):
        assert companion.decode_record_list_items(data, 61, len(data), 2, 10, classes) is None


@pytest.mark.parametrize("record", [
    b"\x0e\x00\x80\x00\x00\x01\x01\x00",  # an overlong varint (a timestamp delta of 0 in two bytes)
    b"\x1e\x00" + b"\xff" * 9 + b"\x02" + b"\x00\x01\x01\x00",  # a varint past 64 bits
    b"\x0c\x00\x00\x00\x01\x01\x02",  # a header count that the bytes cannot hold
    b"\x0e\x00\x00\x00\x01\x01\x02\x03",  # a header whose key length is negative
    b"\x10\x00\x00\x00\x01\x01\x02\x02\xff",  # a header key that is not UTF-8
    b"\x0a\x00\x00\x00\x01\x01\x00",  # a record length that disagrees with its fields
    b"\x0c\x00\x00\x00\x01\x01",  # cut short
])
def test_the_c_reader_leaves_the_rest_to_python(companion, with_c, record):
    assert companion.decode_record_list_items(b"\x0c\x00\x00\x00\x01\x01\x00", 0, 7, 1, 10, None)[0] == [
        (0, 0, 0, None, None, ())]  # the plain record these are made from
    widest = b"\x1e\x00" + b"\xff" * 9 + b"\x01" + b"\x00\x01\x01\x00"  # the widest timestamp delta there is
    assert companion.decode_record_list_items(widest, 0, len(widest), 1, 10, None)[0] == [(0, -2**63, 0, None, None, ())]
    for classes in (None, with_c._C_CLASSES):
        assert companion.decode_record_list_items(record, 0, len(record), 1, 10, classes) is None


def test_the_bound_classes_release_what_they_hold(companion, with_c, modules):
    """C releases the instances of the classes it binds (`lc_dealloc`, in place of CPython's
    release of a class of slots): every field's reference goes, a subclass's own slots and its
    `__del__` included, and a class with a finalizer of its own is not bound at all."""
    _, checked = modules
    data = checked.build(records=[(0, 0, 0, b"k", b"v" * 100, [("h", b"x" * 100)])])
    items = companion.decode_record_list_items(data, 61, len(data), 1, 10, with_c._C_CLASSES)[0]
    value, header_value = items[0].value, items[0].headers[0].value
    before = sys.getrefcount(value), sys.getrefcount(header_value)
    del items
    assert (sys.getrefcount(value), sys.getrefcount(header_value)) == (before[0] - 1, before[1] - 1)

    released = []

    class Noted(with_c.Record):
        __slots__ = ("note",)

        def __del__(self):
            released.append(self.note)

    payload, note = object(), object()
    record = Noted(value=payload)
    record.note = note
    held = sys.getrefcount(payload), sys.getrefcount(note)
    del record
    assert released == [note]
    released.clear()
    assert (sys.getrefcount(payload), sys.getrefcount(note)) == (held[0] - 1, held[1] - 1)

    @dataclasses.dataclass(slots=True)
    class Finalized:  # a header's slots, and a finalizer
        len_key: int
        key: str
        len_value: int
        value: bytes

        def __del__(self):
            pass

    assert companion.decode_record_list_items(data, 61, len(data), 1, 10, (with_c.Record, Finalized)) is None


def test_released_instances_are_made_again_from_the_pools(companion, with_c, modules):
    """A bound class's released instances are kept (`lc_pools`, at most `LC_KEEP` = 512 each) and
    filled again by the next decode: the objects it gives hold their own fields, stay off the
    collector's list, and hold their class as any instance does; the memory kept stays within the
    pools' bound, however many objects were released; a subclass's instances are not kept; and a
    class bound in another's place frees what the pools kept of the one before."""
    _, checked = modules
    data = checked.build(records=[(0, i, i, b"k%d" % i, b"v" * i, [("h", b"x%d" % i)]) for i in range(2_000)])

    def decoded(classes=with_c._C_CLASSES, count=2_000):
        return companion.decode_record_list_items(data, 61, len(data), count, 10_000, classes)[0]

    decoded()  # 4,000 objects released at once: 512 of each class kept
    gc.collect()  # (instances that earlier tests left in cycles, whose release would count here)
    record_refs, blocks = sys.getrefcount(with_c.Record), None
    for _ in range(4):
        again = decoded()
        assert [(r.offset_delta, r.key, r.value, [(h.key, h.value) for h in r.headers]) for r in again] == [
            (i, b"k%d" % i, b"v" * i, [("h", b"x%d" % i)]) for i in range(2_000)]
        assert all(type(r) is with_c.Record and not gc.is_tracked(r) for r in again)
        assert all(type(h) is with_c.Header and not gc.is_tracked(h) for r in again for h in r.headers)
        refs = sys.getrefcount(with_c.Record)  # (outside the assert, whose rewriting holds what it shows)
        assert refs == record_refs + 2_000
        del again
        # (after a first round, which also fills CPython's free lists of the tuples made here)
        blocks = sys.getallocatedblocks() if blocks is None else blocks
    refs = sys.getrefcount(with_c.Record)
    assert refs == record_refs
    # Nothing kept beyond the pools: a leak of one object a record would be 6,000 blocks over the
    # rounds. (Not 0: threads other tests of the worker left running, Spark's gateway's, allocate too.)
    assert abs(sys.getallocatedblocks() - blocks) < 1_000

    class Sub(with_c.Record):
        __slots__ = ("note",)

    held = decoded()  # the pools emptied
    subs = [Sub(value=b"x") for _ in range(600)]
    peak = sys.getallocatedblocks()
    del subs
    assert sys.getallocatedblocks() <= peak - 600  # released as CPython releases them, none kept
    del held  # the pools full again

    other = (dataclasses.make_dataclass("OtherHeader", ["len_key", "key", "len_value", "value"], slots=True),
             dataclasses.make_dataclass("OtherRecord", [f.name for f in dataclasses.fields(with_c.Record)],
                                        slots=True))
    gc.collect()
    kept = sys.getallocatedblocks()
    records = decoded(other, count=2)  # bound in place of the module's classes
    assert [(type(r), r.value, [type(h) for h in r.headers]) for r in records] == [
        (other[1], b"", [other[0]]), (other[1], b"v", [other[0]])]
    del records
    assert kept - sys.getallocatedblocks() >= 900  # the 1,024 objects the pools kept are freed
    assert all(type(r) is with_c.Record for r in decoded())
