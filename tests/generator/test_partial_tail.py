"""`-lc-partial-tail`: a `repeat: eos` whose last element may be cut short is not an error.

The schema puts the repeated field inside a sized field with a byte after it, so the
decoder must stop at the cut element, hand its bytes to the next field and go on after
the sized field; errors inside elements keep offsets in the whole input.
"""

import pytest

from logcodec import DecodeError
from logcodec.generator import kaitai
from logcodec.generator.problems import SchemaError
from logcodec.generator.reading import Loader
from tests.generator.demo import SCHEMAS, compile_demo

WHOLE = bytes.fromhex("06" "02aabb" "01cc" "00" "ee")  # chunk: [aabb], [cc], [] ; trailer ee
CUT = bytes.fromhex("06" "02aabb" "05ccdd" "ee")  # the second entry says 5 bytes, the chunk holds 2


@pytest.fixture(scope="module")
def module():
    return compile_demo("partial_tail")[1]


@pytest.fixture(scope="module")
def reference():
    schema = Loader(SCHEMAS).load("demo/partial_tail.ksy")
    with kaitai.loaded(kaitai.sources(SCHEMAS, [schema])) as load:
        yield load("partial_tail").PartialTail


def test_whole_entries_leave_the_tail_empty_as_the_reference_parser_does(module, reference):
    ours, theirs = module.decode(WHOLE), reference.from_bytes(WHOLE)
    assert [e.data for e in ours.chunk.entries] == [e.data for e in theirs.chunk.entries] == [b"\xaa\xbb", b"\xcc", b""]
    assert ours.chunk.partial == theirs.chunk.partial == b""
    assert ours.trailer == theirs.trailer == 0xEE
    assert module.encode(ours) == WHOLE


def test_a_cut_last_entry_is_kept_as_bytes_and_decoding_goes_on(module, reference):
    ours = module.decode(CUT)
    assert [e.data for e in ours.chunk.entries] == [b"\xaa\xbb"]
    assert ours.chunk.partial == bytes.fromhex("05ccdd")
    assert ours.trailer == 0xEE
    assert module.encode(ours) == CUT
    with pytest.raises(EOFError):  # the official runtime cannot stop at a cut element
        reference.from_bytes(CUT)


def test_a_cut_length_byte_is_partial_too(module):
    data = bytes.fromhex("01" "02" "ee")  # the length byte says 2, nothing follows in the chunk
    assert module.decode(data).chunk.partial == b"\x02"


def test_other_errors_inside_an_element_are_errors_at_input_offsets(module):
    data = bytes.fromhex("06" "02aabb" "ff0000" "ee")  # 0xff breaks `valid: max: 100`
    with pytest.raises(DecodeError) as info:
        module.decode(data)
    assert info.value.kind == "invalid_value"
    assert info.value.offset == 4 and info.value.path == "partial_tail.chunk.entries[1].len_data"


def test_the_input_ending_inside_the_chunk_is_still_truncated(module):
    with pytest.raises(DecodeError) as info:
        module.decode(CUT[:4])
    assert info.value.kind == "truncated"


def test_the_partial_bytes_need_a_size_eos_field_after(tmp_path):
    text = (SCHEMAS / "demo" / "partial_tail.ksy").read_text()
    broken = text.replace("      - id: partial\n        size-eos: true\n", "      - id: partial\n        size: 1\n")
    assert broken != text
    (tmp_path / "demo").mkdir()
    (tmp_path / "demo" / "partial_tail.ksy").write_text(broken)
    with pytest.raises(SchemaError, match="partial-tail"):
        Loader(tmp_path).load("demo/partial_tail.ksy")
