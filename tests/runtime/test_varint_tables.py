"""The varint tables generated encoders take their parts from (`logcodec.runtime.primitives`),
checked against kafka-python's varint writer, and the values around the tables' edges
encoded by a generated encoder and read back by kafka-python; the generated modules' own
readers and writers of longer varints and checks of bit fields, held to the runtime's."""

import random
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from kafka.record.util import encode_varint

import logcodec
from logcodec import DecodeError, EncodeError
from logcodec.generated.kafka import record_batch_v2 as rb
from logcodec.generated.tank import bundle as tank_bundle
from logcodec.generator.loader import classes_of_module, load_rendered, stand_ins
from logcodec.runtime import native
from logcodec.runtime.primitives import (
    UNZIGZAG, UNZIGZAG2, VARINT, ZIGZAG, TextParts, check_bits, uvarint, uvarint_bytes, zigzag_wide,
)
from tests.thirdparty.kafka_libs import decode_kafka_python


def kafka_python_zigzag(value: int) -> bytes:
    out = bytearray()
    encode_varint(value, out.append)
    return bytes(out)


def test_zigzag_table_holds_each_small_value_at_its_own_index():
    assert len(ZIGZAG) == 16384
    for value in range(-8192, 8192):
        assert ZIGZAG[value] == kafka_python_zigzag(value), value


def test_unsigned_table_is_the_zigzag_of_half_its_index():
    # kafka-python writes zigzag varints only: an even unsigned value u is the zigzag of u / 2
    for u in range(0, 16384, 2):
        assert VARINT[u] == kafka_python_zigzag(u // 2), u


def test_unzigzag_table_holds_the_value_of_each_small_payload():
    # a one- or two-byte varint's payload: its 7 or 14 bits, as the decoders' inline paths gather them
    assert len(UNZIGZAG) == 16384
    for value in range(-8192, 8192):
        encoded = kafka_python_zigzag(value)
        payload = encoded[0] if len(encoded) == 1 else (encoded[0] & 127) | (encoded[1] << 7)
        assert UNZIGZAG[payload] == value, value


def test_two_byte_table_holds_the_value_of_each_two_byte_varint():
    # every two-byte zigzag varint kafka-python writes, at its bytes; None at every other pair
    # whose first byte says more follow (a second byte of 0 is overlong, one of 128 and up
    # says a third follows)
    assert len(UNZIGZAG2) == 256 and all(row is None for row in UNZIGZAG2[:128])
    two_byte = {}
    for value in range(-8192, 8192):
        encoded = kafka_python_zigzag(value)
        if len(encoded) == 2:
            two_byte[encoded] = value
    assert len(two_byte) == 16384 - 128
    for x in range(128, 256):
        assert len(UNZIGZAG2[x]) == 256
        for y in range(256):
            assert UNZIGZAG2[x][y] == two_byte.get(bytes((x, y))), (x, y)


def test_wide_varints_are_kafka_pythons():
    # past the tables: three bytes at once, longer ones byte by byte; and the fast encoders' helpers
    from logcodec.runtime.primitives import zigzag_wide
    for value in [*range(-2**20 - 3, -2**20 + 3), *range(-8200, -8190), *range(8190, 8200), *range(2**20 - 3, 2**20 + 3),
                  -2**31, 2**31 - 1, -2**63, 2**63 - 1, random.Random(1).randrange(-2**40, 2**40)]:
        zigzag = (value << 1) ^ (value >> 63)
        assert uvarint_bytes(zigzag) == kafka_python_zigzag(value), value
        assert zigzag_wide(value, 64) == kafka_python_zigzag(value), value
    for value in (2**31, -2**31 - 1, 1.5):
        with pytest.raises((OverflowError, TypeError)):
            zigzag_wide(value, 32)


EDGES = [-2**31, -2**31 + 1, -8193, -8192, -8191, -65, -64, -1, 0, 1, 63, 64, 8190, 8191, 8192, 8193, 2**31 - 1]


@pytest.mark.parametrize("delta", EDGES)
def test_values_at_the_tables_edges_are_read_back_by_kafka_python(delta):
    # timestamp_delta is a 64-bit zigzag varint, offset_delta a 32-bit one
    data = rb.build(base_offset=0, base_timestamp=2**40, max_timestamp=2**40 + max(delta, 0),
                    records=[(0, delta, delta, None, b"v", [])])
    [batch] = decode_kafka_python(data)
    [record] = batch["records"]
    assert (record["offset"], record["timestamp"]) == (delta, 2**40 + delta)
    assert rb.decode(data).records[0].offset_delta == delta


@pytest.mark.parametrize("offset_delta,timestamp_delta,field", [
    (2**31, 0, "offset_delta"), (-2**31 - 1, 0, "offset_delta"), (1.0, 0, ""),
    (0, 2**63, "timestamp_delta"), (0, -2**63 - 1, "timestamp_delta"), (0, 2.0, ""),
])
def test_values_past_the_tables_are_checked(offset_delta, timestamp_delta, field):
    # the second record is the last, whose offset_delta the batch's last_offset_delta takes
    with pytest.raises(logcodec.EncodeError) as caught:
        rb.build(base_timestamp=0, max_timestamp=0,
                 records=[(0, timestamp_delta, offset_delta, None, b"v", []), (0, 0, 1, None, b"v", [])])
    assert f"records[0].{field}".rstrip(".") in str(caught.value)


# ---------------------------------------------------------------- the modules' own helpers
# A generated module reads and writes the varints past its inline fast paths and tables, and
# checks its bit fields' values, with functions of its own (`_uvarint`, `_uvarint_bytes`,
# `_check_bits`), so that a compiled build runs them compiled. They must give what the
# runtime's give, on every build.

def builds_of(module) -> list:
    """The module's pure-Python build, and its compiled one when there is one."""
    with stand_ins([module.__name__]):  # the module itself stays the one imported
        pure = load_rendered(module.__name__, Path(module.__file__).read_text(), module.__file__)
    return [pure] + ([module] if module.NATIVE else [])


def module_builds(modules=(rb, tank_bundle)) -> list:
    return [pytest.param(b, id=f"{m.__name__.rsplit('.', 1)[-1]}-{'compiled' if b.NATIVE else 'pure'}")
            for m in modules for b in builds_of(m)]


def outcome(read, *args):
    try:
        return read(*args)
    except (DecodeError, EncodeError) as exc:
        return (type(exc), exc.kind, exc.offset, exc.detail, exc.path)
    except (TypeError, ValueError) as exc:
        return (type(exc), str(exc))


WIDE = [0, 1, 127, 128, 16383, 16384, 2**21 - 1, 2**21, 2**28 - 1, 2**28, 2**31 - 1, 2**31, 2**32 - 1, 2**32,
        2**35 - 1, 2**35, 2**49, 2**56 - 1, 2**56, 2**63 - 1, 2**63, 2**64 - 1, 2**64, 2**70]
MALFORMED = [b"", b"\x80", b"\xff\xff", b"\x80\x00", b"\x80\x80\x00", b"\xff\x80\x00", b"\x81\x00",
             b"\xff" * 4 + b"\x1f", b"\xff" * 4 + b"\x0f", b"\x80" * 5 + b"\x01", b"\xff" * 9 + b"\x01",
             b"\xff" * 9 + b"\x02", b"\xff" * 11, b"\x00", b"\x7f"]


@pytest.mark.parametrize("build", module_builds())
def test_a_module_reads_each_varint_as_the_runtime_does(build):
    inputs = [uvarint_bytes(v) for v in WIDE] + MALFORMED
    for data in inputs:
        for prefix in (b"", b"\x00\x00"):
            buf = prefix + data + b"\x05"
            for end in (len(buf), len(buf) - 1, len(prefix) + 2):
                for max_bytes, bits in ((5, 32), (10, 64), (3, 16), (2, 32)):
                    args = (buf, len(prefix), end, max_bytes, "f", bits)
                    assert outcome(build._uvarint, *args) == outcome(uvarint, *args), args


@pytest.mark.parametrize("build", module_builds())
def test_a_module_writes_each_varint_as_the_runtime_does(build):
    rng = random.Random(7)
    values = WIDE + [rng.getrandbits(rng.randrange(1, 65)) for _ in range(2000)]
    for value in values:
        assert build._uvarint_bytes(value) == uvarint_bytes(value), value


def test_records_whose_deltas_take_three_bytes_and_more_are_read_back_by_kafka_python():
    deltas = [8192, 2**13 + 5000, 2**20, 2**21, 2**27 + 3, 2**31 - 1]
    data = rb.build(base_offset=0, base_timestamp=0, max_timestamp=2**40,
                    records=[(0, d * 512, d, None, b"v", []) for d in deltas])
    [batch] = decode_kafka_python(data)
    assert [(r["offset"], r["timestamp"]) for r in batch["records"]] == [(d, d * 512) for d in deltas]
    assert [(r.offset_delta, r.timestamp_delta) for r in rb.decode(data).records] == [(d, d * 512) for d in deltas]


class Index:
    """An integer type of another library (numpy's, say): an int through `__index__`."""

    def __init__(self, n):
        self.n = n

    def __index__(self):
        return self.n


def test_a_bit_field_takes_integers_and_refuses_what_would_decode_otherwise():
    # The pure build: a compiled build's value classes take no value of another type at all
    # (mypyc checks each attribute's type when the object is made).
    pure = builds_of(rb)[0]
    assert pure.decode(pure.build(attributes=pure.Attributes(compression=Index(1)))).attributes.compression == 1
    for value in (1.5, 1.0, "1"):
        with pytest.raises(EncodeError) as caught:
            pure.build(attributes=pure.Attributes(compression=value))
        assert caught.value.kind == "invalid_value" and caught.value.path == "record_batch_v2.attributes.compression"
        assert "is not an integer" in str(caught.value)


@pytest.mark.parametrize("build", module_builds())
def test_a_module_checks_each_bit_field_value_as_the_runtime_does(build):
    values = [0, 1, 5, 7, 8, 255, 256, -1, -300, True, False, rb.Compression.zstd, rb.TimestampType.log_append_time,
              2**70, 2.0, 1.5, None, "3", b"x", Fraction(2), Fraction(3, 2), Index(3), Index(300)]
    for value in values:
        for bits in (1, 3, 9, 64):
            assert outcome(build._check_bits, value, bits, "f") == outcome(check_bits, value, bits, "f"), (value, bits)


@pytest.mark.parametrize("build", module_builds([rb]))
def test_an_encoder_takes_each_bit_field_value_as_the_runtime_does(build):
    # An encoder takes a value of the type its decoder gives (bool, int, the enum's member) that
    # fits without a call (`join_bits`); every value must come out as the runtime's check says.
    fields = {"reserved": 9, "has_delete_horizon": 1, "is_control": 1, "is_transactional": 1,
              "timestamp_type": 1, "compression": 3}
    values = [0, 1, 2, 5, 7, 8, 511, 512, -1, True, False, rb.Compression.zstd, rb.TimestampType.log_append_time,
              build.Compression.zstd, build.TimestampType.log_append_time, 2**70, 1.5, "1", Index(3), Index(600)]
    for name, bits in fields.items():
        for value in values:
            try:
                attributes = build.Attributes(**{name: value})
            except TypeError:  # a compiled build's class refuses a value of another type
                continue
            want = outcome(check_bits, value, bits, name)
            try:
                got = int(getattr(build.decode(build.build(attributes=attributes)).attributes, name))
            except EncodeError as exc:
                if exc.kind == "unknown_codec":  # an id that fits the bits but names no codec
                    assert (name, want) in {("compression", 5), ("compression", 6), ("compression", 7)}
                    continue
                got = (type(exc), exc.kind, exc.offset, exc.detail, exc.path.rsplit(".", 1)[-1])
            assert got == want, (name, value)


def compiled_source_as_python(module):
    """The source of the module's compiled build (`<format>_compiled.py`), run as Python: the code
    its compiled build runs."""
    path = native.compiled_source_file(Path(module.__file__))
    with stand_ins([module.__name__]):  # (it imports classes from the module: given them)
        return load_rendered(module.__name__, path.read_text(), str(path), classes_of_module(module))


@pytest.mark.parametrize("build", [*module_builds([rb]), pytest.param(compiled_source_as_python(rb), id="compiled-source")])
def test_each_build_reads_the_small_deltas_it_takes_from_a_table_or_computes(build):
    # Run as Python source, a module reads one- and two-byte zigzag varints from UNZIGZAG; the
    # source of its compiled build computes them, and has no table to read.
    interpreted = not build.NATIVE and not build.__file__.endswith("_compiled.py")
    # (a compiled build's names are set on its module, whose own stay: the build's are its module's)
    names = sys.modules[Path(build.NATIVE).name.split(".")[0]] if build.NATIVE else build
    assert hasattr(names, "_UNZIGZAG") is interpreted
    # ... and three-byte ones inline too when interpreted: 2^20 - 1 and -2^20 are the last
    deltas = [*range(-8192, 8192, 7), *EDGES, -8193, 8192, 2**20 - 1, -2**20, 2**20, -2**20 - 1, 123456, -99999]
    data = rb.build(base_offset=0, base_timestamp=2**40, max_timestamp=2**40 + 2**31,
                    records=[(0, d, d, None, b"v", []) for d in deltas])
    records = build.decode(data).records
    assert [(r.offset_delta, r.timestamp_delta) for r in records] == [(d, d) for d in deltas]


def test_a_build_is_made_only_from_the_compiled_source_written_with_its_module(tmp_path):
    source_file = Path(rb.__file__)
    source = source_file.read_bytes()
    compiled = native.read_compiled_source(source_file, source)
    assert b"_UNZIGZAG" not in compiled and b"_UNZIGZAG" in source
    (tmp_path / "record_batch_v2.py").write_bytes(source + b"# edited by hand\n")
    (tmp_path / "record_batch_v2_compiled.py").write_bytes(compiled)
    with pytest.raises(RuntimeError, match="was not generated with record_batch_v2.py as it is"):
        native.compile_file(rb.__name__, tmp_path / "record_batch_v2.py", tmp_path / "builds")
    (tmp_path / "record_batch_v2_compiled.py").unlink()
    with pytest.raises(RuntimeError, match="record_batch_v2_compiled.py is missing beside record_batch_v2.py"):
        native.compile_file(rb.__name__, tmp_path / "record_batch_v2.py", tmp_path / "builds")


class Text(str):
    """A str subclass: equal to its text, which TextParts must not keep under it."""


def test_text_parts_are_the_length_varint_and_the_encoded_text():
    parts = TextParts("utf-8", ZIGZAG, 8192, zigzag_wide, 32)
    for text in ("", "h1", "\u00e9t\u00e9", "k" * 64, "x" * 9000):
        data = text.encode()
        assert parts[text] == kafka_python_zigzag(len(data)) + data
    # kept: the short exact texts only; a long one is made again each time
    assert sorted(parts) == ["", "h1", "k" * 64, "\u00e9t\u00e9"]
    assert parts[Text("h2")] == b"\x04h2" and "h2" not in parts


def test_text_parts_keep_at_most_their_entries_and_raise_as_encode_does():
    parts = TextParts("latin-1", ZIGZAG, 8192, zigzag_wide, 32)
    for i in range(TextParts.ENTRIES + 50):
        assert parts[str(i)] == bytes((2 * len(str(i)),)) + str(i).encode()
    assert len(parts) == TextParts.ENTRIES
    with pytest.raises(UnicodeEncodeError):
        parts["\u20ac"]  # not Latin-1
    with pytest.raises(AttributeError):
        parts[b"bytes"]  # not text: the fast encoder leaves it to the checked one
    with pytest.raises(TypeError):
        parts[["a list"]]  # unhashable
    assert len(parts) == TextParts.ENTRIES
