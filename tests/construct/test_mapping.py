"""The mapping between the two value models finds every kind of difference (so that agreement
means something) and gives construct what it builds from."""

import pytest

pytest.importorskip("construct")

from construct import Container, EnumIntegerString  # noqa: E402

import logcodec  # noqa: E402
from tests.construct.mapping import differences, to_construct  # noqa: E402
from tests.vectorfiles import all_tests  # noqa: E402


def a_value():
    fmt, test = next((f, t) for f, t in all_tests("valid") if f == "kafka.record_batch_v2")
    return logcodec.decode(fmt, bytes.fromhex(test["bytes"]), lazy=False)


def test_a_value_agrees_with_its_own_construct_form():
    value = a_value()
    assert differences(value, to_construct(value)) == []


@pytest.mark.parametrize("change,expected", [
    (lambda c: c.update({"base_offset": c["base_offset"] + 1}), ".base_offset"),
    (lambda c: c["attributes"].update({"compression": EnumIntegerString.new(1, "gzip")}), ".attributes.compression"),
    (lambda c: c["attributes"].update({"is_control": 1}), ".attributes.is_control"),  # a bool is not 1
    (lambda c: c["records"][0].update({"key": b"other"}), ".records[0].key"),
    (lambda c: c["records"].append(c["records"][0]), ".records"),
    (lambda c: c.pop("magic"), ".magic: missing"),
    (lambda c: c.update({"unexpected": 1}), ".unexpected: not in the Python value"),
])
def test_each_kind_of_difference_is_found(change, expected):
    value = a_value()
    co = to_construct(value)
    change(co)
    found = differences(value, co)
    assert len(found) == 1 and found[0].startswith(expected), found


def test_hidden_keys_are_not_part_of_the_value():
    value = a_value()
    co = to_construct(value)
    co["_io"], co["_p_depth"] = object(), 3
    assert differences(value, co) == []
    assert isinstance(co, Container) and isinstance(co["attributes"]["compression"], EnumIntegerString)
