"""The list elements that interpreted decoders write out (`Decoder.inlined_element`), read
without checking each read of a few bytes against the end and read again by their decoder when
anything fails (`read_then_checked`), and the value objects they make with `_new` and a store
per field (`element_made`, and `made_by_new` in the decoders of elements not written out),
against decoders that call each element's decoder and its class: every schema of ours whose
module does either is generated as it is and without them, both run as Python, and each decodes
the golden vectors and bytes changed from them to the same value (as objects and as tuples) or
fails with the same error (kind, offset, path and message), under any budget of elements."""

import dataclasses
import enum
import inspect

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from logcodec.generator.python import ModuleEmitter
from logcodec.generator.python.decode import Decoder
from logcodec.generator.reading import Loader, formats_under
from logcodec.runtime.errors import DecodeError
from logcodec.runtime.limits import DEFAULT_LIMITS, Limits
from tests.generator.rendered import SCHEMAS, pure_module
from tests.vectorfiles import all_tests

FORMATS = sorted({fmt for fmt, _ in all_tests()})
DOCUMENTS = formats_under(SCHEMAS)[1]  # the schemas made from Kafka's message specs


def _pair(fmt: str):
    """(the module as generated, the same schema generated with no element written out and every
    value made by its class), both pure Python; None when the two are the same source."""
    schema = Loader(SCHEMAS, documents=DOCUMENTS).load(fmt.replace(".", "/") + ".ksy")
    written = ModuleEmitter(schema).render()
    inlined, made_by_new = Decoder.inlined_element, Decoder.made_by_new
    Decoder.inlined_element = lambda self, f: None
    Decoder.made_by_new = lambda self: False
    try:
        called = ModuleEmitter(schema).render()
    finally:
        Decoder.inlined_element, Decoder.made_by_new = inlined, made_by_new
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


def outcome(module, data: bytes, tuples: bool, limits: Limits = DEFAULT_LIMITS):
    try:
        return plain(module.decode(data, limits=limits, tuples=True, lazy=False) if tuples else module.decode(data, limits=limits, lazy=False))
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

    # A budget of elements near what the input holds: an element read again must not pay twice
    @settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
    @given(data=changed(_seeds(fmt)), tuples=st.sampled_from(modes),
           limits=st.one_of(st.just(DEFAULT_LIMITS), st.builds(Limits, max_elements=st.integers(0, 40))))
    def alike(data, tuples, limits):
        assert outcome(written, data, tuples, limits) == outcome(called, data, tuples, limits)

    alike()


def test_an_element_read_again_pays_its_elements_once():
    """A record whose headers were read before it failed (its length is one byte longer than
    its fields) is read again by its decoder, under a budget that holds every record and header
    exactly: the error is the record's, not a budget exceeded by its headers taken twice."""
    written, called = PAIRS["kafka.record_batch_v2"]
    records = [(0, 0, n, b"k", b"v", [("a", b"1"), ("b", b"2")]) for n in range(3)]
    parts = [written.encode_part("record", r, is_control=False) for r in records]
    last = len(parts[0]) + len(parts[1])  # where the last record starts: its length, one byte
    data = bytearray(b"".join(parts))
    data[last] += 2  # zigzag: one byte more than its fields take
    limits = Limits(max_elements=3 + 6)  # the records, and two headers each
    for module in (written, called):
        with pytest.raises(DecodeError) as caught:
            module.decode_part("record_list", bytes(data), num_records=3, is_control=False, limits=limits)
        assert (caught.value.kind, caught.value.path) == ("invalid_length", "record_list[2].len_record")


def test_an_element_read_past_the_end_is_read_again():
    """Records read from the start of bytes that end one byte before the last record's last
    field (its last header's null value, a length of -1): that byte is there to read, but past
    the end the list was given, so the record is read again, checked, and found to run past it."""
    written, called = PAIRS["kafka.record_batch_v2"]
    records = [(0, 0, n, b"k", b"v", [("a", None)]) for n in range(3)]
    data = b"".join(written.encode_part("record", r, is_control=False) for r in records)
    for module in (written, called):
        with pytest.raises(DecodeError) as caught:
            module.decode_part("record_list", data, end=len(data) - 1, num_records=3, is_control=False)
        assert (caught.value.kind, caught.value.offset, caught.value.path) == (
            "invalid_length", len(data) - 1, "record_list[2].headers[0].len_value")


def test_an_element_that_holds_a_budgeted_value_is_not_read_twice():
    """A produce request's partition holds a bundle, whose decoder takes its messages from the
    budget: were the partition written out and read again after its bundle was read (here: a
    byte after the bundle's messages, inside its length), the bundle would be paid twice, and a
    budget that holds every element once would end in `limit_exceeded` where its decoder finds
    the byte left over. Such an element is not written out (`spends_budget`)."""
    from logcodec.generated.tank import bundle as tank_bundle

    written, called = PAIRS["tank.request"]
    bundle = tank_bundle.encode(tank_bundle.Bundle(messages=[tank_bundle.Message(timestamp=1, content=b"x")]))
    partition = written.ProducePartition(partition=0, bundle=tank_bundle.decode(bundle))
    topic = written.encode_part("produce_topic", written.ProduceTopic(name="t", partitions=[partition]),
                              with_seqnum=False)
    at = topic.index(bundle)  # the bundle's length is the byte before it
    assert topic[at - 1] == len(bundle) < 127
    data = topic[:at - 1] + bytes([len(bundle) + 1]) + bundle + b"\0" + topic[at + len(bundle):]

    def fits(n: int) -> bool:
        try:
            called.decode_part("produce_topic", topic, with_seqnum=False, limits=Limits(max_elements=n))
        except DecodeError:
            return False
        return True

    need = next(n for n in range(1, 20) if fits(n))  # the elements the topic takes, each once
    for module in (written, called):
        with pytest.raises(DecodeError) as caught:
            module.decode_part("produce_topic", data, with_seqnum=False, limits=Limits(max_elements=need))
        assert (caught.value.kind, caught.value.path) == ("trailing_bytes", "produce_topic.partitions[0].bundle.messages")


def test_an_element_whose_expression_fails_is_read_again():
    """A TANK message reads the message before it (`_parent.items[_index - 1]`), and its decoder
    turns an expression that fails on the input into a DecodeError. Written out, the expression
    fails in Python's terms (an IndexError: the first message says its timestamp is the one
    before it), and the message is read again by its decoder: the same error, at the same place."""
    written, called = PAIRS["tank.bundle"]
    messages = [written.Message(timestamp=5, content=c) for c in (b"a", b"b")]  # b's timestamp: a's
    params = {"num_messages": 2, "is_sparse": False, "first_seq_num": 0, "last_seq_num_delta": 0}
    data = written.encode_part("message_set", messages, **params)
    first = len(written.encode_part("message", messages[0], idx=0, **params, parent_items=messages))
    assert written.decode_part("message_set", data, **params)[0][1].timestamp == 5
    swapped = data[first:] + data[:first]
    errors = []
    for module in (written, called):
        with pytest.raises(DecodeError) as caught:
            module.decode_part("message_set", swapped, **params)
        errors.append((caught.value.kind, caught.value.offset, caught.value.path, str(caught.value)))
    assert errors[0] == errors[1]
    assert errors[0][:3] == ("invalid_value", 3, "message_set[0]")  # where its fields end: flags, length, content


TREE = """
meta: {id: tree, title: A tree, endian: le}
doc: A tree of nodes, each holding a list of its own type.
doc-ref: https://example.com/tree
seq:
  - {id: root_node, type: node, doc: The root., doc-ref: https://example.com/tree}
types:
  node:
    doc: A value and the nodes below it.
    doc-ref: https://example.com/tree
    seq:
      - {id: value, type: u1, doc: Its value., doc-ref: https://example.com/tree}
      - {id: num_children, type: u1, -lc-count-of: children, doc: How many nodes below., doc-ref: https://example.com/tree}
      - {id: children, type: node, repeat: expr, repeat-expr: num_children, doc: The nodes below., doc-ref: https://example.com/tree}
"""


def test_a_type_that_holds_a_list_of_itself_is_not_written_out_in_itself(tmp_path):
    """A strict schema's node that lists nodes: its list's loop calls the node's decoder (writing
    it out inside itself would never end), and the tree reads and writes back."""
    (tmp_path / "demo").mkdir()
    (tmp_path / "demo" / "tree.ksy").write_text(TREE)
    module = pure_module("logcodec_test_written_tree", ModuleEmitter(Loader(tmp_path).load("demo/tree.ksy")).render())
    data = bytes([1, 2, 2, 0, 3, 1, 4, 0])  # 1 -> (2, 3 -> (4))
    tree = module.decode(data, lazy=False)
    assert [c.value for c in tree.root_node.children] == [2, 3]
    assert tree.root_node.children[1].children[0].value == 4
    assert module.encode(tree) == data
