"""`_parent` references, -lc-input instances, conditional defaults and root params, on a test schema.

Checked against the official compiler's parser of the same schema, and in both directions:
decoding resolves the carried values; encoding a value that gives only the resolved values
chooses the compact form itself.
"""

import pytest

from logcodec.generator import kaitai
from tests.generator.demo import SCHEMAS, compile_demo

# three entries: stamp 1000 written, stamp carried, stamp 2000 written
DATA = bytes.fromhex("03" "00" "e803000000000000" "0a" "01" "0b" "00" "d007000000000000" "0c")


@pytest.fixture(scope="module")
def carried():
    return compile_demo("carried")


def test_decode_resolves_carried_values_like_the_reference(carried):
    schema, m = carried
    value = m.decode(DATA, base=100)
    assert [e.stamp for e in value.entries] == [1000, 1000, 2000]
    assert [e.stamp_written for e in value.entries] == [1000, None, 2000]
    assert [e.same_stamp for e in value.entries] == [False, True, False]
    assert value.last_number == 103 and m.decode(DATA).last_number == 3  # the param's default
    with kaitai.loaded(kaitai.sources(SCHEMAS, [schema])) as load:
        from kaitaistruct import BytesIO, KaitaiStream

        theirs = load("carried").Carried(100, KaitaiStream(BytesIO(DATA)))
        assert [e.stamp for e in theirs.entries] == [1000, 1000, 2000]
        assert theirs.last_number == 103


def test_encode_chooses_the_compact_form_from_the_resolved_values(carried):
    _, m = carried
    entries = [m.Entry(stamp=1000, payload=10), m.Entry(stamp=1000, payload=11), m.Entry(stamp=2000, payload=12)]
    assert m.encode(m.Carried(entries=entries)) == DATA
    assert m.encode(m.decode(DATA)) == DATA


def test_a_value_that_contradicts_itself_is_refused(carried):
    _, m = carried
    entries = [m.Entry(stamp=1000, payload=1), m.Entry(same_stamp=False, stamp_written=None, stamp=1000, payload=2)]
    value = m.Carried(entries=entries)
    data = m.encode(value)  # same_stamp given as False: the stamp is written again, as asked
    assert data == bytes.fromhex("02" "00" "e803000000000000" "01" "00" "e803000000000000" "02")
    with pytest.raises(Exception) as info:
        m.encode(m.Carried(entries=[m.Entry(same_stamp=True, stamp_written=5, stamp=5, payload=1)]))
    assert info.value.kind == "invalid_value" and info.value.path.endswith("stamp_written")


def test_bad_input_ends_in_a_decode_error(carried):
    from hypothesis import given, settings, strategies as st

    from logcodec import DecodeError

    _, m = carried
    with pytest.raises(DecodeError) as info:  # the first entry claims the previous entry's stamp
        m.decode(bytes.fromhex("01" "01" "0a"))
    assert info.value.kind == "invalid_value"

    @settings(max_examples=300, deadline=None)
    @given(st.binary(max_size=40))
    def fuzz(data):
        try:
            m.decode(data)
        except DecodeError:
            pass

    fuzz()
