"""The generator on a schema that is not a real format: every construct of the subset.

Generated into a temporary module (generated/ holds real formats only) and
checked against the official compiler's parser of the same schema.
"""

import pytest

from logcodec import DecodeError
from logcodec.generator import kaitai
from tests.generator.demo import SCHEMAS, compile_demo



@pytest.fixture(scope="module")
def tour():
    return compile_demo("feature_tour")


@pytest.fixture(scope="module")
def reference(tour):
    schema, _ = tour
    with kaitai.loaded(kaitai.sources(SCHEMAS, [schema])) as load:
        yield load("feature_tour").FeatureTour


SAMPLES = {
    "small": bytes.fromhex("4c43" "07" "02" "01" "0200" "feff" "05000000" "0300" "0000" "01ff" "0280"),
    "big": bytes.fromhex("4c43" "00" "01" "02" "0a00" "0000000000000102" "aabb" "0000"),
    "text": bytes.fromhex("4c43" "00" "03" "03" "0600" "68c3a96c6c6f" "0100" "0000"),
}


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_decode_matches_the_reference_and_round_trips(tour, reference, name):
    _, m = tour
    data = SAMPLES[name]
    ours = m.decode(data)
    theirs = reference.from_bytes(data)
    assert ours.flags.has_extra == theirs.flags.has_extra and ours.flags.level == theirs.flags.level
    assert ours.version == theirs.version and ours.kind == theirs.kind
    assert ours.extra == getattr(theirs, "extra", None)
    assert ours.words == theirs.words and ours.num_words == theirs.num_words
    assert ours.header_copy == theirs.header_copy == data[2] | data[3] << 8
    assert ours.magic_again == theirs.magic_again == b"LC"
    assert [(p.a, p.b) for p in ours.tail] == [(p.a, p.b) for p in theirs.tail]
    body = ours.body
    if name == "text":
        assert body.text == theirs.body.text == "héllo"
    else:
        assert body.value == theirs.body.value
    assert m.encode(ours) == data


def test_specific_values(tour):
    _, m = tour
    v = m.decode(SAMPLES["small"])
    assert (v.flags.has_extra, v.flags.level, v.flags.reserved) == (True, 3, 0)
    assert v.kind == m.Kind.small and v.body.value == -2 and v.extra == 5
    assert v.words == [3, 0] and v.tail[1].b == -128
    big = m.decode(SAMPLES["big"])
    assert big.body.value == 258 and big.body.rest == b"\xaa\xbb" and big.extra is None


@pytest.mark.parametrize("mutation,kind", [
    (lambda d: b"XX" + d[2:], "invalid_value"),            # contents
    (lambda d: d[:3] + b"\x00" + d[4:], "invalid_value"),   # valid min
    (lambda d: d[:3] + b"\x04" + d[4:], "invalid_value"),   # valid max
    (lambda d: d[:4] + b"\x09" + d[5:], "invalid_value"),   # valid any-of
    (lambda d: d[:5] + b"\x01\x00" + d[7:], "invalid_length"),  # body shorter than its type
    (lambda d: d[:5] + b"\x03\x00" + d[7:], "trailing_bytes"),  # body longer than its type
    (lambda d: d[:-1], "truncated"),                        # eos repeat with half a pair
    (lambda d: d[:15], "truncated"),                        # until repeat without its zero
])
def test_bad_input_raises_the_right_kind(tour, mutation, kind):
    _, m = tour
    with pytest.raises(DecodeError) as info:
        m.decode(mutation(SAMPLES["small"]))
    assert info.value.kind == kind


def test_encode_computes_the_size_and_checks_the_condition(tour):
    _, m = tour
    value = m.FeatureTour(flags=m.Flags(has_extra=False, level=1), version=2, kind=m.Kind.small,
                          body=m.SmallBody(value=7), words=[0], tail=[])
    data = m.encode(value)
    assert data == bytes.fromhex("4c43" "02" "02" "01" "0200" "0700" "0000")
    value.extra = 9
    with pytest.raises(Exception) as info:
        m.encode(value)
    assert info.value.kind == "invalid_value" and info.value.path.endswith("extra")
