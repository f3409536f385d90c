"""`decode_iter`, `decode_stream(..., iterate=True)` and the lazy reads (ARCHITECTURE.md, "Decoding one
element at a time", "Lazy reads"): a root's bulk handed out as an iterator, or as the `LazyList` a
default `decode` gives, agrees with `decode(..., lazy=False)`, value for value and error for error.

Every format whose module offers `decode_iter` is held to the eager `decode` on all its vectors: the
header is `decode_part(HEADER)`'s, the elements are the bulk's, in both forms (objects and
`tuples=True`), and an invalid vector raises the same error (kind, offset, path, detail), at the call
or while iterating.
"""

import copy
import dataclasses
import pickle

import pytest
from logcodec.generated.kafka import record_batch_v2 as rb

import logcodec
from logcodec import DecodeError, Limits
from logcodec.runtime.lazy import LazyList
from tests.vectorfiles import all_tests, ids

ITERATING = sorted(fmt for fmt in logcodec.formats() if "decode_iter" in logcodec.codec(fmt).READS)
VALID = [(fmt, test) for fmt, test in all_tests("valid") if fmt in ITERATING]
INVALID = [(fmt, test) for fmt, test in all_tests("invalid") if fmt in ITERATING]


def error_of(call):
    """The DecodeError `call()` raises, as a comparable tuple; None when it raises none."""
    try:
        call()
    except DecodeError as exc:
        return exc.kind, exc.offset, exc.path, exc.detail
    return None


def test_the_kafka_batch_is_read_one_record_at_a_time():
    assert "kafka.record_batch_v2" in ITERATING and rb.ITERATED == "records"
    # the header holds every field of the value but the one iterated
    header = {f.name for f in dataclasses.fields(rb.RecordBatchV2Header)}
    assert [f.name for f in dataclasses.fields(rb.RecordBatchV2) if f.name not in header] == [rb.ITERATED]
    assert len(VALID) > 10 and len(INVALID) > 10


@pytest.mark.parametrize("tuples", [False, True], ids=["objects", "tuples"])
@pytest.mark.parametrize("fmt,test", VALID, ids=ids(VALID))
def test_iterating_gives_the_header_and_the_elements_decode_gives(fmt, test, tuples):
    module = logcodec.codec(fmt)
    data = bytes.fromhex(test["bytes"])
    header, elements = module.decode_iter(data, tuples=tuples)
    assert header == module.decode_part(module.HEADER, data)[0]
    assert list(elements) == getattr(module.decode(data, tuples=tuples, lazy=False), module.ITERATED)


@pytest.mark.parametrize("tuples", [False, True], ids=["objects", "tuples"])
@pytest.mark.parametrize("fmt,test", VALID, ids=ids(VALID))
def test_a_lazy_read_gives_the_value_the_eager_read_gives(fmt, test, tuples):
    module = logcodec.codec(fmt)
    data = bytes.fromhex(test["bytes"])
    eager = module.decode(data, tuples=tuples, lazy=False)
    view = getattr(module.decode(data, tuples=tuples), module.ITERATED)
    assert isinstance(view, LazyList) and not view.is_loaded
    assert list(iter(view)) == list(iter(view)) == getattr(eager, module.ITERATED)  # each loop reads them anew
    assert not view.is_loaded
    assert module.decode(data, tuples=tuples) == eager  # `==` reads them once, and keeps them
    assert encoded(lambda: module.encode(module.decode(data, tuples=tuples))) == encoded(lambda: module.encode(eager))


def encoded(call):
    """What `call()` encodes, or the EncodeError it raises as a comparable tuple (a non-canonical
    vector's value may carry a derived field the encoder does not write back)."""
    try:
        return call()
    except logcodec.EncodeError as exc:
        return exc.kind, exc.path, exc.detail


#: The reads that hand the bulk out as it is reached: each element, read to the end.
ONE_AT_A_TIME = {"decode_iter": lambda module, data: list(module.decode_iter(data)[1]),
                 "lazy decode": lambda module, data: list(getattr(module.decode(data), module.ITERATED))}


@pytest.mark.parametrize("read", sorted(ONE_AT_A_TIME))
@pytest.mark.parametrize("fmt,test", INVALID, ids=ids(INVALID))
def test_iterating_raises_the_error_the_eager_decode_raises(fmt, test, read):
    module = logcodec.codec(fmt)
    data = bytes.fromhex(test["bytes"])
    expected = error_of(lambda: module.decode(data, lazy=False))
    assert expected is not None and expected[0] == test["error"]
    assert error_of(lambda: ONE_AT_A_TIME[read](module, data)) == expected


@pytest.mark.parametrize("fmt", ITERATING)
def test_a_stream_iterated_gives_what_decode_stream_gives(fmt):
    module = logcodec.codec(fmt)
    entries = [bytes.fromhex(t["bytes"]) for f, t in VALID if f == fmt]
    data = b"".join(entries) + entries[-1][: len(entries[-1]) // 2]  # a cut-off last value
    whole = module.decode_stream(data, tuples=True, lazy=False)
    lazy = module.decode_stream(data, iterate=True, tuples=True)
    assert len(lazy.items) == len(whole.items) == len(entries)
    for (header, elements), value, entry in zip(lazy.items, whole.items, entries):
        assert list(elements) == getattr(value, module.ITERATED)
        assert header == module.decode_part(module.HEADER, entry)[0]
    assert lazy.consumed == whole.consumed
    assert error_of(lambda: _raise(lazy.partial)) == error_of(lambda: _raise(whole.partial)) is not None


def _raise(exc):
    raise exc


def batch(records, **fields) -> bytes:
    return rb.build(records=records, **fields)


# as `tuples=True` gives them back: a list field of a tuple form comes as a tuple
RECORDS = [(0, i, i, b"k%d" % i, b"v" * i, (("h", b"x"),) * (i % 3)) for i in range(5)]


def with_bad_record(index: int) -> bytes:
    """A batch of RECORDS whose record `index` declares a wrong length, behind a good CRC."""
    data = bytearray(batch(RECORDS))
    pos = 61
    for _ in range(index):  # each record starts with its zigzag length (one byte here)
        length = data[pos] >> 1
        pos += 1 + length
    data[pos] += 2  # one byte longer than it is
    data[17:21] = rb._rt.crc32c(bytes(data[21:])).to_bytes(4, "big")
    return bytes(data)


def test_an_element_error_comes_when_the_iteration_reaches_it():
    data = with_bad_record(3)
    header, elements = rb.decode_iter(data, tuples=True)  # the value as a whole is sound
    assert header.num_records == 5
    assert [next(elements) for _ in range(3)] == RECORDS[:3]
    with pytest.raises(DecodeError) as caught:
        next(elements)
    assert caught.value.path.startswith("record_batch_v2.records[3]")
    assert error_of(lambda: _raise(caught.value)) == error_of(lambda: rb.decode(data, lazy=False))


def test_a_bad_checksum_or_size_is_raised_by_the_call():
    data = bytearray(batch(RECORDS))
    data[-1] ^= 1
    with pytest.raises(DecodeError) as caught:
        rb.decode_iter(bytes(data))
    assert caught.value.kind == "checksum_mismatch" and caught.value.path == "record_batch_v2.crc"
    with pytest.raises(DecodeError) as caught:
        rb.decode_iter(batch(RECORDS) + b"\0")
    assert caught.value.kind == "trailing_bytes"


@pytest.mark.parametrize("codec", list(rb.Compression), ids=lambda c: c.name)
def test_compressed_records_are_iterated(codec):
    data = batch(RECORDS, attributes=rb.Attributes(compression=codec))
    header, elements = rb.decode_iter(data, tuples=True)
    assert header.attributes.compression == codec
    assert list(elements) == RECORDS


def test_an_error_in_a_compressed_batch_points_at_its_records_field():
    data = bytearray(batch(RECORDS, attributes=rb.Attributes(compression=rb.Compression.gzip)))
    expected = error_of(lambda: rb.decode(bytes(data), limits=Limits(max_elements=3), lazy=False))
    assert expected[0] == "limit_exceeded" and expected[2].startswith("record_batch_v2.records")
    header, elements = rb.decode_iter(bytes(data), limits=Limits(max_elements=3))
    assert error_of(lambda: list(elements)) == expected


def test_the_element_budget_holds_across_a_stream():
    data = batch(RECORDS) * 3
    stream = rb.decode_stream(data, iterate=True, limits=Limits(max_elements=20))  # 9 elements a batch: 5 records, 4 headers
    assert len(list(stream.items[0][1])) == 5
    assert len(list(stream.items[1][1])) == 5
    with pytest.raises(DecodeError) as caught:
        list(stream.items[2][1])
    assert caught.value.kind == "limit_exceeded" and caught.value.path.startswith("record_batch_v2[2].records")


def test_an_error_in_a_stream_names_its_value():
    bad = with_bad_record(1)
    stream = rb.decode_stream(batch(RECORDS) + bad, iterate=True)
    assert len(list(stream.items[0][1])) == 5
    with pytest.raises(DecodeError) as caught:
        list(stream.items[1][1])
    assert caught.value.path.startswith("record_batch_v2[1].records[1]")


def test_an_empty_batch_has_no_elements():
    header, elements = rb.decode_iter(batch([]))
    assert header.num_records == 0 and list(elements) == []


def test_a_lazy_stream_gives_what_the_eager_stream_gives():
    bad = with_bad_record(1)
    data = batch(RECORDS) + bad + batch(RECORDS)[:30]
    expected = error_of(lambda: rb.decode_stream(data, lazy=False))  # the eager stream raises it...
    assert expected[2].startswith("record_batch_v2[1].records[1]")
    lazy = rb.decode_stream(data)
    assert len(lazy.items) == 2 and lazy.consumed == len(data) - 30 and lazy.partial.kind == "truncated"
    assert list(lazy.items[0].records) == rb.decode(batch(RECORDS), lazy=False).records
    assert error_of(lambda: list(lazy.items[1].records)) == expected  # ...the lazy one at its loop


def test_a_view_read_again_takes_a_budget_of_its_own():
    records = rb.decode(batch(RECORDS), limits=Limits(max_elements=9)).records  # 5 records, 4 headers
    assert len(list(records)) == len(list(records)) == 5
    with pytest.raises(DecodeError) as caught:
        list(rb.decode(batch(RECORDS), limits=Limits(max_elements=8)).records)
    assert caught.value.kind == "limit_exceeded"


def test_a_view_has_the_length_its_batch_declares_and_list_reads_it_once(monkeypatch):
    """`len` is the batch's `num_records`, read from its header: no record is read, and a
    record's error still comes from the loop that reaches it. `list(view)` asks the length after
    taking the first loop, which then reads the records: once, no second read."""
    from logcodec.runtime import lazy

    bad = rb.decode(with_bad_record(3)).records
    assert len(bad) == 5 and bad and not bad.is_loaded
    expected = error_of(lambda: rb.decode(with_bad_record(3), lazy=False))
    assert expected[2].startswith("record_batch_v2.records[3]") and error_of(lambda: list(bad)) == expected
    again = []
    monkeypatch.setattr(lazy, "read_again", lambda *a: again.append(a) or iter(()))
    records = rb.decode(batch(RECORDS)).records
    assert len(records) == 5 and not records.is_loaded
    assert [r.key for r in list(records)] == [b"k%d" % i for i in range(5)] and not again


def test_a_view_kept_is_the_list_its_loops_then_give():
    records = rb.decode(batch(RECORDS)).records
    assert records[2].key == b"k2" and records.is_loaded and len(records) == 5
    assert all(a is b for a, b in zip(records, records.loaded()))  # the same objects, no new read
    assert records[1:3] == records.loaded()[1:3] and records == records.loaded()
    with pytest.raises(TypeError):
        hash(records)


def test_a_view_copies_pickles_and_strips_as_a_list():
    value = rb.decode(batch(RECORDS))
    for copied in (copy.deepcopy(value), pickle.loads(pickle.dumps(value))):
        assert type(copied.records) is list and copied == value
    stripped = logcodec.strip_derived(rb.decode(batch(RECORDS)))
    assert type(stripped.records) is list and stripped.records[0].len_record is None
    assert rb.encode(stripped) == batch(RECORDS)


def test_a_view_that_cannot_be_read_says_so_in_its_repr():
    records = rb.decode(with_bad_record(3)).records
    assert repr(records).startswith("<LazyList: ") and "records[3]" in repr(records)


def test_lazy_changes_nothing_where_nothing_is_iterated():
    tank = logcodec.codec("tank.bundle")
    data = tank.encode(tank.Bundle(messages=[tank.Message(timestamp=1, content=b"m%d" % i) for i in range(3)]))
    assert "decode_iter" not in tank.READS
    value = tank.decode(data)
    assert type(value.messages) is list and value == tank.decode(data, lazy=False)
