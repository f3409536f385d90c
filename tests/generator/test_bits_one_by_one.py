"""Bit fields of a user's schema read and written one by one, as Kaitai's streams do: repeated,
conditional, a switch's case (BCD digits, SQLite's 24- and 48-bit integers, PIF's colour tables).

Each schema is decoded as the official compiler's parser decodes it, and its values are encoded
back to the same bytes: the bits left in a byte before a byte-aligned field, or at the end of the
type, are written as zero bits where a reader skips them.
"""

from __future__ import annotations

import pytest

from logcodec import EncodeError

from .tiny_schemas import compiled, needs_official, official

DIGITS = """
meta: {id: digits}
params:
  - {id: num_digits, type: u1}
  - {id: bits_per_digit, type: u1}
seq:
  - id: digits
    type: {switch-on: bits_per_digit, cases: {4: b4, 8: u1}}
    repeat: expr
    repeat-expr: num_digits
  - {id: after, type: u1}
"""

FLAGS = """
meta: {id: flags, bit-endian: BIT_ENDIAN}
seq:
  - {id: has_x, type: b1}
  - {id: x, type: b3, if: has_x}
  - {id: y, type: b5}
  - {id: small, type: b2, repeat: expr, repeat-expr: 3}
  - {id: z, type: u1}
  - {id: tail, type: b3}
"""

RUN_CHECKED = """
meta: {id: run_checked}
seq:
  - {id: kind, type: u1}
  - {id: count, type: u1, valid: {max: limit}}
instances:
  limit: {value: 'kind == 1 ? 10 : 2'}
"""

@needs_official
@pytest.mark.parametrize("num_digits,bits,data", [(4, 4, "1234" "07"), (3, 4, "1230" "07"), (2, 8, "0102" "07")])
def test_repeated_switch_of_bits_decodes_as_kaitai_and_encodes_back(tmp_path, num_digits, bits, data):
    schema, m = compiled(tmp_path, DIGITS, "digits")
    data = bytes.fromhex(data)
    value = m.decode(data, num_digits=num_digits, bits_per_digit=bits)
    theirs = official(tmp_path, schema, data, num_digits, bits)
    assert (value.digits, value.after) == (theirs.digits, theirs.after)
    assert m.encode(value, num_digits=num_digits, bits_per_digit=bits) == data


# With `x` (15 bits before `z`) and without it (12 bits); the bits skipped before `z` and after
# `tail` are zero but in the last input of each order, which decodes the same and encodes with
# zero bits there.
@needs_official
@pytest.mark.parametrize("bit_endian,data", [("be", "f5a2" "09" "a0"), ("be", "35a0" "09" "a0"), ("be", "ffff" "00" "ff"),
                                             ("le", "f523" "09" "05"), ("le", "3403" "09" "05"), ("le", "ffff" "00" "ff")])
def test_conditional_and_repeated_bit_fields_decode_as_kaitai_and_encode_back(tmp_path, bit_endian, data):
    schema, m = compiled(tmp_path, FLAGS.replace("BIT_ENDIAN", bit_endian), "flags")
    data = bytes.fromhex(data)
    value = m.decode(data)
    theirs = official(tmp_path, schema, data)
    for name in ("has_x", "y", "small", "z", "tail"):
        assert getattr(value, name) == getattr(theirs, name), name
    assert value.x == getattr(theirs, "x", None)
    encoded = m.encode(value)
    assert m.decode(encoded) == value
    assert encoded == data or data.startswith(b"\xff\xff")


def test_a_bit_field_value_that_does_not_fit_is_an_encode_error_naming_it(tmp_path):
    _, m = compiled(tmp_path, DIGITS, "digits")
    value = m.decode(bytes.fromhex("1234" "07"), num_digits=4, bits_per_digit=4)
    value.digits[1] = 16
    with pytest.raises(EncodeError) as caught:
        m.encode(value, num_digits=4, bits_per_digit=4)
    assert caught.value.kind == "invalid_value" and caught.value.path.endswith("digits[1]")


def test_a_check_of_a_run_reads_an_instance_of_the_fields_just_read(tmp_path):
    # The instance reads `kind`, read in the same run as `count` (pif's header, android_sparse's
    # chunk header): it is computed once the run is read.
    _, m = compiled(tmp_path, RUN_CHECKED, "run_checked")
    assert m.decode(bytes([1, 9])).count == 9
    with pytest.raises(Exception, match="must be at most"):
        m.decode(bytes([0, 9]))
