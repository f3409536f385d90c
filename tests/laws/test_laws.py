"""The laws (ARCHITECTURE.md, "The laws") on every golden vector of every format.

1. decode(encode(v)) == v
2. encode(decode(b)) == b, for canonical bytes and for another encoder's processed ones, which a
   decoded value keeps
3. without_derived(decode(encode(v))) == without_derived(v) for a value of non-canonical bytes
   that does not keep them (the encoder's own output)
and every invalid vector raises DecodeError of its kind.
"""

import dataclasses

import pytest
from logcodec.conformance.judge import formats_with_vectors

import logcodec
from logcodec.runtime.values import without_derived
from tests.vectorfiles import all_tests, ids, params

VALID = all_tests("valid")
INVALID = all_tests("invalid")


def carries_derived(value) -> bool:
    """Whether a value holds a field the encoder derives (a length, a count, a checksum)."""
    if isinstance(value, list):
        return any(carries_derived(v) for v in value)
    if not dataclasses.is_dataclass(value):
        return False
    for f in dataclasses.fields(value):
        v = getattr(value, f.name)
        if v is not None and (f.metadata.get("derived") or f.metadata.get("defaulted") or carries_derived(v)):
            return True
    return False


def test_there_are_vectors_of_every_result():
    assert len(VALID) > 30 and len(INVALID) > 30


def test_every_format_has_vectors():
    assert set(logcodec.formats()) == set(formats_with_vectors())


@pytest.mark.parametrize("fmt,test", VALID, ids=ids(VALID))
def test_decode_gives_the_expected_value(fmt, test):
    value = logcodec.decode(fmt, bytes.fromhex(test["bytes"]), **params(test))
    assert logcodec.to_json(value) == test["value"]


@pytest.mark.parametrize("fmt,test", VALID, ids=ids(VALID))
def test_law1_decode_of_encode_is_identity(fmt, test):
    root = params(test)
    value = logcodec.value_from_json(fmt, test["value"], **root)
    bare = without_derived(value)  # as a value built by hand: the encoder computes the derived fields
    assert (bare != value) == carries_derived(value)
    again = logcodec.decode(fmt, logcodec.encode(fmt, bare, **root), **root)
    if test["canonical"]:
        assert logcodec.decode(fmt, logcodec.encode(fmt, value, **root), **root) == value
        if "CarriedLength" in test["flags"]:
            # A length that says null otherwise than -1 is information the encoder cannot derive:
            # kept when carried, written as -1 when left None.
            assert without_derived(again) == bare and again != value
        else:
            assert again == value
    else:
        # Compressed bytes of another encoder: the lengths and the checksum may differ.
        assert without_derived(again) == bare


@pytest.mark.parametrize("fmt,test", VALID, ids=ids(VALID))
def test_law2_and_law3_reencoding(fmt, test):
    data, root = bytes.fromhex(test["bytes"]), params(test)
    decoded = logcodec.decode(fmt, data, **root)
    # A decoded value is written back byte for byte, canonical or not: the bytes of a processed
    # field as another encoder wrote them (its compression) are kept on the value and written
    # again while they give its content (`_wire_<field>`), read lazily or whole.
    assert logcodec.encode(fmt, decoded, **root) == data
    assert logcodec.encode(fmt, logcodec.decode(fmt, data, lazy=False, **root), **root) == data
    if not test["canonical"]:
        # The same value without the bytes as read (made from its JSON): the encoder's own
        # output, whose compressed bytes, lengths and checksums may differ.
        fresh = without_derived(logcodec.value_from_json(fmt, logcodec.to_json(decoded), **root))
        again = logcodec.decode(fmt, logcodec.encode(fmt, fresh, **root), **root)
        assert without_derived(again) == without_derived(decoded)


@pytest.mark.parametrize("fmt,test", INVALID, ids=ids(INVALID))
def test_invalid_vectors_raise_their_kind(fmt, test):
    with pytest.raises(logcodec.DecodeError) as info:
        logcodec.decode(fmt, bytes.fromhex(test["bytes"]), **params(test), lazy=False)
    assert info.value.kind == test["error"]
    assert info.value.offset is not None and 0 <= info.value.offset <= len(test["bytes"]) // 2
    assert info.value.path.startswith(fmt.split(".")[1])
