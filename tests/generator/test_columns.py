"""`decode_iter` and `decode_columns` come from the model, not from a format: a test schema whose
root ends in a list type of its own (`demo/log_block.ksy`) gets both, and they agree with `decode`
and with the official compiler's parser, value for value and error for error."""

import pytest

import logcodec
from logcodec.generator import kaitai
from tests.generator.demo import SCHEMAS, compile_demo


@pytest.fixture(scope="module")
def block():
    return compile_demo("log_block")


def value(m):
    return m.LogBlock(block_id=7, entries=[m.Entry(level=1, name="a", tags=[m.Tag(key=1, value=2), m.Tag(key=3, value=4)]),
                                           m.Entry(level=3, name="bé", tags=[]), m.Entry(level=2, name="", tags=[])])


def error_of(call):
    try:
        call()
    except logcodec.DecodeError as exc:
        return exc.kind, exc.offset, exc.path, exc.detail
    return None


def test_columns_are_the_entries_decode_gives_and_the_reference_reads(block):
    schema, m = block
    data = m.encode(value(m))
    header, columns = m.decode_columns(data, tuples=True)
    assert m.COLUMNS == m.TUPLE_FORMS["Entry"] == ("level", "name", "tags")
    assert header == m.decode_part(m.HEADER, data)[0] == m.LogBlockHeader(block_id=7, num_entries=3)
    assert columns == {"level": [1, 3, 2], "name": ["a", "bé", ""], "tags": [((1, 2), (3, 4)), (), ()]}
    assert list(zip(*columns.values())) == m.decode(data, tuples=True).entries
    with kaitai.loaded(kaitai.sources(SCHEMAS, [schema])) as load:
        from kaitaistruct import BytesIO, KaitaiStream

        theirs = load("log_block").LogBlock(KaitaiStream(BytesIO(data)))
        assert [e.name for e in theirs.entries.items] == columns["name"]
        assert [tuple((t.key, t.value) for t in e.tags) for e in theirs.entries.items] == columns["tags"]


@pytest.mark.parametrize("cut", ["entry", "name", "utf8", "budget", "trailing"])
def test_columns_fail_as_decode_fails(block, cut):
    _, m = block
    data = bytearray(m.encode(value(m)))
    limits = logcodec.Limits()
    if cut == "entry":
        data = data[:-2]  # the last entry cut short
    elif cut == "name":
        data[data.index(b"b\xc3") - 1] = 40  # a name longer than the bytes left
    elif cut == "utf8":
        data[data.index(b"\xc3")] = 0xFF
    elif cut == "budget":
        limits = logcodec.Limits(max_elements=3)  # 3 entries and 2 tags
    else:
        data += b"\0"  # an entry's worth of bytes too few for one more: left over after the last
    expected = error_of(lambda: m.decode(bytes(data), limits=limits, lazy=False))
    assert expected is not None
    assert error_of(lambda: m.decode_columns(bytes(data), limits=limits)) == expected
    assert error_of(lambda: list(m.decode_iter(bytes(data), limits=limits)[1])) == expected
