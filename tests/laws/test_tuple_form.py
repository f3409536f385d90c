"""The tuple form (ARCHITECTURE.md, "Building values"): in a list, an encoder takes a tuple of
a value's fields, but the derived ones, in schema order, in place of the value object; each
module's `build` takes the root's fields as keywords and passes such lists on; and
`decode(..., tuples=True)` gives a list's elements in that form, a list field of which comes as a
tuple: a tuple form holds nothing mutable."""

import copy
import dataclasses
import gc

import pytest
from logcodec.generated.kafka import record_batch_v2 as rb

import logcodec
from logcodec.runtime.values import without_derived
from tests.thirdparty.kafka_libs import decode_kafka_python
from tests.vectorfiles import all_tests, ids, params

VALID = all_tests("valid")


def tuple_decoding(fmt):
    """The module of a format whose decode can give its own types' list elements as tuples (its
    `TUPLE_FORMS`), else None."""
    module = logcodec.codec(fmt)
    return module if module.TUPLE_FORMS else None


def as_tuples(value, forms: dict, counter: list):
    """`value` with each element of a list whose class has a tuple form (`forms`, the module's
    TUPLE_FORMS) given as that tuple, inside out; `counter[0]` counts the tuples made."""
    if isinstance(value, list):
        out = []
        for item in value:
            item = as_tuples(item, forms, counter)
            names = forms.get(type(item).__name__)
            if names is not None:
                counter[0] += 1
                item = tuple(getattr(item, n) for n in names)
            out.append(item)
        return out
    if not dataclasses.is_dataclass(value):
        return value
    value = copy.copy(value)
    for f in dataclasses.fields(value):
        setattr(value, f.name, as_tuples(getattr(value, f.name), forms, counter))
    return value


def tuples_made(fmt, test) -> int:
    counter = [0]
    as_tuples(logcodec.value_from_json(fmt, test["value"], **params(test)), logcodec.codec(fmt).TUPLE_FORMS, counter)
    return counter[0]


WITH_LISTS = [(fmt, test) for fmt, test in VALID if tuples_made(fmt, test)]  # the others would give no tuple


@pytest.mark.parametrize("fmt,test", WITH_LISTS, ids=ids(WITH_LISTS))
def test_a_value_whose_list_elements_are_tuples_encodes_to_the_same_bytes(fmt, test):
    module = logcodec.codec(fmt)
    bare = without_derived(logcodec.value_from_json(fmt, test["value"], **params(test)))
    tupled = as_tuples(bare, module.TUPLE_FORMS, [0])
    assert logcodec.encode(fmt, tupled, **params(test)) == logcodec.encode(fmt, bare, **params(test))


def test_the_vectors_do_give_tuples_to_every_format_family():
    made = {}
    for fmt, test in WITH_LISTS:
        made[fmt.split(".")[0]] = made.get(fmt.split(".")[0], 0) + tuples_made(fmt, test)
    assert made.keys() == {"kafka", "tank", "inkless", "net"} and all(n > 10 for n in made.values()), made


def test_build_takes_records_and_headers_as_tuples_and_kafka_python_reads_them():
    data = rb.build(base_offset=100, base_timestamp=1_000, max_timestamp=1_007, producer_id=-1, producer_epoch=-1,
                    base_sequence=-1, attributes=rb.Attributes(compression=rb.Compression.zstd),
                    records=[(0, 0, 0, b"k0", b"v0", [("h", b"x"), ("n", None)]),
                             rb.Record(timestamp_delta=7, offset_delta=1, value=b"v1"),
                             (0, 3, 2, None, None, [rb.Header(key="o", value=b"")])])
    [batch] = decode_kafka_python(data)
    assert [(r["offset"], r["timestamp"], r["key"], r["value"], r["headers"]) for r in batch["records"]] == [
        (100, 1_000, b"k0", b"v0", [["h", b"x"], ["n", None]]),
        (101, 1_007, None, b"v1", []),
        (102, 1_003, None, None, [["o", b""]]),
    ]
    assert batch["last_offset_delta"] == 2  # computed from the last record, a tuple


@pytest.mark.parametrize("record,detail", [
    ((0, 0, 0, b"k"), "not enough values to unpack"),
    ((0, "soon", 0, b"k", b"v", []), ""),
    ((0, 0, 0, b"k", b"v", [("h",)]), "not enough values to unpack"),
    (5, ""),
])
def test_a_malformed_tuple_is_an_encode_error_naming_the_element(record, detail):
    with pytest.raises(logcodec.EncodeError) as caught:
        rb.build(records=[record, rb.Record(value=b"fine")])
    assert caught.value.kind == "invalid_value"
    assert caught.value.path.startswith("record_batch_v2.records[0]")
    assert detail in caught.value.detail


TUPLED = [(fmt, test) for fmt, test in VALID if tuple_decoding(fmt)]


@pytest.mark.parametrize("fmt,test", TUPLED, ids=ids(TUPLED))
def test_decoding_to_tuples_gives_the_tuple_form_of_the_value_and_encodes_back(fmt, test):
    module = tuple_decoding(fmt)
    data, root = bytes.fromhex(test["bytes"]), params(test)
    value = module.decode(data, **root, lazy=False)
    tupled = module.decode(data, tuples=True, **root, lazy=False)
    same_but_tuples(value, tupled, module.TUPLE_FORMS)
    assert module.encode(without_derived(tupled), **root) == module.encode(without_derived(value), **root)


def same_but_tuples(value, tupled, forms: dict, in_form: bool = False) -> int:
    """Assert that `tupled` is `value` with some list elements in their tuple form (`forms`),
    the lists of a tuple form as tuples (`in_form`: `tupled` is a field of one); return how
    many tuple forms."""
    if isinstance(value, list):
        assert type(tupled) is (tuple if in_form else list) and len(tupled) == len(value)
        return sum(same_but_tuples(v, t, forms) for v, t in zip(value, tupled))
    if isinstance(tupled, tuple) and not isinstance(value, tuple):
        names = forms[type(value).__name__]
        assert len(tupled) == len(names)
        return 1 + sum(same_but_tuples(getattr(value, n), t, forms, in_form=True) for n, t in zip(names, tupled))
    if dataclasses.is_dataclass(value):
        assert type(tupled) is type(value)
        return sum(same_but_tuples(getattr(value, f.name), getattr(tupled, f.name), forms)
                   for f in dataclasses.fields(value))
    assert tupled == value
    return 0


def test_kafka_frames_decode_to_tuples_and_encode_back():
    # A frame's own types have no tuple form (`TUPLE_FORMS` is empty): its bodies' have, in their
    # modules. A list a version leaves out (`tagged_fields` before the flexible versions) is None.
    frames = [(fmt, test) for fmt, test in VALID if fmt in ("kafka.request", "kafka.response")]
    assert len(frames) > 1000
    for fmt, test in frames:
        data, root = bytes.fromhex(test["bytes"]), params(test)
        tupled = logcodec.decode(fmt, data, tuples=True, lazy=False, **root)
        value = logcodec.decode(fmt, data, lazy=False, **root)
        assert logcodec.encode(fmt, without_derived(tupled), **root) == logcodec.encode(fmt, without_derived(value), **root)


def test_every_family_has_vectors_that_decode_to_tuples():
    made = {}
    for fmt, test in VALID:
        if module := tuple_decoding(fmt):
            data, root = bytes.fromhex(test["bytes"]), params(test)
            family = fmt.split(".")[0]
            made[family] = made.get(family, 0) + same_but_tuples(
                module.decode(data, lazy=False, **root), module.decode(data, tuples=True, lazy=False, **root),
                module.TUPLE_FORMS)
    assert made.keys() == {"kafka", "tank", "inkless", "net"} and all(n > 10 for n in made.values()), made


def test_a_batch_decoded_to_tuples_holds_records_and_headers_as_tuples():
    data = rb.build(records=[(0, 5, 0, b"k", b"v", [("h", b"x")]), (0, 6, 1, None, b"w", ())])
    records = rb.decode(data, tuples=True).records
    assert records == [(0, 5, 0, b"k", b"v", (("h", b"x"),)), (0, 6, 1, None, b"w", ())]
    assert rb.decode_stream(data, tuples=True).items[0].records == records
    assert [r for _, rs in rb.decode_stream(data, iterate=True, tuples=True).items for r in rs] == records
    assert isinstance(rb.decode(data).records[0], rb.Record)  # objects unless asked


def test_decoded_tuple_forms_are_left_alone_by_the_collector():
    """A tuple form holds numbers, bytes, text and tuples of those: nothing the cyclic collector
    must walk, which its passes find, a level of tuples each (a C companion's reader says so at
    once)."""
    data = rb.build(records=[(0, i, i, b"k", None, [("h", b"x"), ("i", None)]) for i in range(100)])
    records = rb.decode(data, tuples=True, lazy=False).records
    for _ in range(3):  # a header, the headers, the record
        gc.collect()
    assert not any(gc.is_tracked(r) or gc.is_tracked(r[5]) for r in records)
    # a value object's list: tracked in a pure build; a compiled one makes it untracked (tests/runtime/test_collector.py)
    assert all(gc.is_tracked(r.headers) == (rb.NATIVE is None) for r in rb.decode(data, lazy=False).records)
