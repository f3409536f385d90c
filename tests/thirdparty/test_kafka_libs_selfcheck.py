"""Self-check of the third-party adapters: every library builds, every library decodes,
and the neutral forms must match the spec and each other.  Known library limitations are
strict xfails with the real reason, so a library fixing them shows up as XPASS -> failure."""
import struct
from pathlib import Path

import pytest
from kafka.record.util import calc_crc32c

from tests.thirdparty import kafka_libs as kl

LIBS = ["kafka-python", "aiokafka-c", "aiokafka-py"]
LEADER_EPOCH_WRITTEN = {"kafka-python": 0, "aiokafka-c": -1, "aiokafka-py": -1}
LEADER_EPOCH_EXPOSED = {"kafka-python"}


def rec(offset, ts, key=b"k", value=b"v", headers=()):
    return {"offset": offset, "timestamp": ts, "key": key, "value": value, "headers": list(headers)}


MANY_HEADERS = [("z", b"1"), ("a", b"2"), ("", b"empty key"), ("null", None), ("empty", b""),
                ("dup", b"x"), ("dup", b"y"), ("ключ-ü", b"\x00\xff"), ("a", None)]
CASES = {
    "empty_batch": [],
    "no_headers": [rec(0, 1_700_000_000_000)],
    "one_header": [rec(0, 1_700_000_000_000, headers=[("h", b"v")])],
    "many_headers": [rec(0, 1_700_000_000_000, headers=MANY_HEADERS)],
    "null_key_value": [rec(0, 5, key=None, value=None, headers=[("n", None)])],
    "empty_key_value": [rec(0, 5, key=b"", value=b"")],
    "negative_ts_deltas": [rec(0, 1000), rec(1, 999), rec(2, -5), rec(3, 1000 + 2**41), rec(4, 1000 - 2**41)],
    "offset_gaps": [rec(0, 1), rec(3, 2), rec(4, 3), rec(1000, 4)],
    "large_multi_block": [rec(i, 10 + i, key=b"%d" % i, value=bytes([i]) * 1500,
                              headers=[("i", b"%d" % i)] * (i % 3)) for i in range(40)],
}
PRODUCERS = {
    "no_producer": dict(is_transactional=False, producer_id=-1, producer_epoch=-1, base_sequence=-1),
    "transactional": dict(is_transactional=True, producer_id=2**40 + 5, producer_epoch=3,
                          base_sequence=2**31 - 10, base_offset=123_456_789),
}
PAD = b"padding so that every codec shrinks the batch " * 8

# aiokafka's Cython builder (default_records.pyx) differs from the two Python builders:
AIOKAFKA_C_EMPTY_BATCH = pytest.mark.xfail(strict=True, reason=(
    "aiokafka-c builder: an empty batch gets first/max timestamp -1 (Java's NO_TIMESTAMP; the Python "
    "builders write 0) and is compressed even though that makes it larger"))
AIOKAFKA_C_NO_FALLBACK = pytest.mark.xfail(strict=True, reason=(
    "aiokafka-c builder always compresses; it lacks the Python builders' 'keep uncompressed if "
    "compression does not shrink it' fallback"))
AIOKAFKA_C_TS_SENTINEL = pytest.mark.xfail(strict=True, reason=(
    "aiokafka-c builder uses first_timestamp == -1 as 'no record yet', so a first record with "
    "timestamp -1 is forgotten: the next record becomes the base and record 0 decodes with its timestamp"))


def make_spec(codec, case, producer):
    records = [dict(r) for r in CASES[case]]
    if codec != "none" and records:  # deterministic: compression must really pay off
        records.append(rec(records[-1]["offset"] + 1, records[0]["timestamp"], value=PAD))
    return {"compression": codec, "records": records, **PRODUCERS[producer]}


def expected(spec, data, builder, decoder):
    recs, base = spec["records"], spec.get("base_offset", 0)
    ts = [r["timestamp"] for r in recs]
    return {
        "base_offset": base,
        "partition_leader_epoch": LEADER_EPOCH_WRITTEN[builder] if decoder in LEADER_EPOCH_EXPOSED else None,
        "magic": 2, "crc": struct.unpack_from(">I", data, 17)[0],
        "compression": spec["compression"] if recs else "none",  # empty payload never shrinks
        "timestamp_type": 0, "is_transactional": spec["is_transactional"], "is_control": False,
        "last_offset_delta": recs[-1]["offset"] if recs else 0,
        "base_timestamp": ts[0] if recs else 0, "max_timestamp": max(ts) if recs else 0,
        "producer_id": spec["producer_id"], "producer_epoch": spec["producer_epoch"],
        "base_sequence": spec["base_sequence"],
        "records": [{"offset": base + r["offset"], "timestamp": r["timestamp"], "key": r["key"],
                     "value": r["value"], "headers": [list(h) for h in r["headers"]]} for r in recs],
    }


def without_epoch(batches):
    return [{k: v for k, v in b.items() if k != "partition_leader_epoch"} for b in batches]


def decode_all(data, codec="none"):
    out = {}
    for name, (decode, _) in kl.LIBRARIES.items():
        if codec in kl.CODECS[name]:
            out[name] = decode(data)
    return out


def build(lib, spec):
    if spec["compression"] not in kl.CODECS[lib]:
        pytest.skip(f"{lib} cannot build {spec['compression']} here")
    return kl.LIBRARIES[lib][1](spec)


def patch_attributes(data, attrs):
    """Rewrite attributes (inside the CRC) and re-seal the batch with the library CRC-32C."""
    buf = bytearray(data)
    struct.pack_into(">h", buf, 21, attrs)
    struct.pack_into(">I", buf, 17, calc_crc32c(bytes(buf[21:])))
    return bytes(buf)


# ---------------------------------------------------------------- environment

def test_all_three_libraries_present():
    assert kl.AIOKAFKA_C_IMPORT_ERROR is None
    assert list(kl.LIBRARIES) == LIBS
    assert Path(__import__(kl.AiokafkaCBatch.__module__, fromlist=["x"]).__file__).suffix == ".so"
    from aiokafka.record import default_records
    assert kl.AiokafkaCBatch is getattr(default_records, "_DefaultRecordBatchCython", kl.AiokafkaCBatch)
    assert kl._DefaultRecordBatchPy.__module__ == "aiokafka.record.default_records"


@pytest.mark.parametrize("lib", LIBS)
def test_all_codecs_available_here(lib):
    assert kl.CODECS[lib] == set(kl.ALL_CODECS)


def test_aiokafka_py_memory_records_hands_out_cython_batches():
    # Why decode_aiokafka_py does its own framing instead of using _MemoryRecordsPy.
    from aiokafka.record import default_records
    from aiokafka.record.memory_records import _MemoryRecordsPy
    from aiokafka.util import NO_EXTENSIONS
    data = kl.build_aiokafka_py({"compression": "none", "records": [rec(0, 1)]})
    got = type(_MemoryRecordsPy(data).next_batch())
    assert got is default_records.DefaultRecordBatch
    assert got is (kl._DefaultRecordBatchPy if NO_EXTENSIONS else kl.AiokafkaCBatch)


# ---------------------------------------------------------------- the matrix

@pytest.mark.parametrize("producer", PRODUCERS)
@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("codec", kl.ALL_CODECS)
@pytest.mark.parametrize("builder", LIBS)
def test_build_then_decode_everywhere(builder, codec, case, producer, request):
    if builder == "aiokafka-c" and case == "empty_batch":
        request.applymarker(AIOKAFKA_C_EMPTY_BATCH)
    spec = make_spec(codec, case, producer)
    data = build(builder, spec)
    decoded = decode_all(data, codec)
    assert len(decoded) == len(LIBS)
    for decoder, batches in decoded.items():
        assert batches == [expected(spec, data, builder, decoder)], f"{builder} -> {decoder}"
    forms = [without_epoch(b) for b in decoded.values()]
    assert all(f == forms[0] for f in forms)


@pytest.mark.parametrize("producer", PRODUCERS)
@pytest.mark.parametrize("case", CASES)
def test_uncompressed_builders_are_byte_identical_except_leader_epoch(case, producer, request):
    if case == "empty_batch":
        request.applymarker(AIOKAFKA_C_EMPTY_BATCH)
    spec = make_spec("none", case, producer)
    outs = {lib: build(lib, spec) for lib in LIBS}
    assert len({o[:12] + o[16:] for o in outs.values()}) == 1
    assert {lib: struct.unpack_from(">i", o, 12)[0] for lib, o in outs.items()} == LEADER_EPOCH_WRITTEN


def test_concatenated_batches_from_all_builders():
    data, specs = b"", []
    for i, lib in enumerate(LIBS):
        spec = make_spec(kl.ALL_CODECS[i + 1], "many_headers", "no_producer")
        spec["base_offset"] = 10 * i
        specs.append(spec)
        data += build(lib, spec)
    for decoder, batches in decode_all(data, "gzip").items():
        assert [b["base_offset"] for b in batches] == [0, 10, 20]
        assert [b["compression"] for b in batches] == ["gzip", "snappy", "lz4"]
        assert [b["records"] for b in batches] == [expected(s, data, "kafka-python", decoder)["records"] for s in specs]


@pytest.mark.parametrize("lib", ["kafka-python", pytest.param("aiokafka-c", marks=AIOKAFKA_C_NO_FALLBACK), "aiokafka-py"])
def test_tiny_batch_silently_falls_back_to_no_compression(lib):
    for codec in ("gzip", "snappy", "lz4", "zstd"):
        data = build(lib, {"compression": codec, "records": [rec(0, 1)]})
        assert [b["compression"] for b in kl.LIBRARIES[lib][0](data)] == ["none"]


@pytest.mark.parametrize("codec", [pytest.param("snappy", marks=pytest.mark.xfail(strict=True, reason=(
    "aiokafka-c writes an empty snappy batch as a bare 16-byte xerial header; every decoder here "
    "(itself included) only detects xerial framing when len > 16, so it tries raw snappy and fails"))),
    *[c for c in kl.ALL_CODECS if c != "snappy"]])
def test_aiokafka_c_empty_batch_exact_behaviour(codec):
    """Pins what AIOKAFKA_C_EMPTY_BATCH / AIOKAFKA_C_NO_FALLBACK describe."""
    data = kl.build_aiokafka_c({"compression": codec, "records": []})
    for batches in decode_all(data).values():
        (b,) = batches
        assert (b["compression"], b["base_timestamp"], b["max_timestamp"], b["records"]) == (codec, -1, -1, [])


@pytest.mark.parametrize("lib", ["kafka-python", pytest.param("aiokafka-c", marks=AIOKAFKA_C_TS_SENTINEL), "aiokafka-py"])
def test_first_record_timestamp_minus_one(lib):
    spec = {"compression": "none", "is_transactional": False, "producer_id": -1, "producer_epoch": -1,
            "base_sequence": -1, "records": [rec(0, -1), rec(1, 5)]}
    data = build(lib, spec)
    for decoder, batches in decode_all(data).items():
        assert batches == [expected(spec, data, lib, decoder)]


# ---------------------------------------------------------------- decoder behaviour on patched batches

def test_partition_leader_epoch_is_outside_crc():
    data = bytearray(build("aiokafka-py", make_spec("none", "no_headers", "no_producer")))
    struct.pack_into(">i", data, 12, 77)
    decoded = decode_all(bytes(data))
    assert {n: b[0]["partition_leader_epoch"] for n, b in decoded.items()} == {
        "kafka-python": 77, "aiokafka-c": None, "aiokafka-py": None}


def test_log_append_time_records_take_max_timestamp():
    spec = make_spec("none", "negative_ts_deltas", "no_producer")
    data = patch_attributes(build("kafka-python", spec), 0x08)
    for batches in decode_all(data).values():
        (b,) = batches
        assert b["timestamp_type"] == 1
        assert {r["timestamp"] for r in b["records"]} == {1000 + 2**41} == {b["max_timestamp"]}


def test_control_batch_decodes_everywhere():
    spec = {"compression": "none", "is_transactional": True, "producer_id": 9, "producer_epoch": 1,
            "base_sequence": 0, "records": [rec(0, 7, key=b"\x00\x00\x00\x01", value=b"\x00\x00\x00\x00\x00\x05")]}
    data = patch_attributes(build("aiokafka-py", spec), 0x30)
    forms = [without_epoch(b) for b in decode_all(data).values()]
    assert forms[0][0]["is_control"] and forms[0][0]["is_transactional"]
    assert all(f == forms[0] for f in forms)


def test_malformed_control_key_kafka_python_disagrees():
    """kafka-python parses every control-batch key as int16 version + int16 type and
    lets struct.error escape; both aiokafka decoders return the raw record."""
    spec = {"compression": "none", "records": [rec(0, 7, key=b"\x01", value=None)]}
    data = patch_attributes(build("aiokafka-py", spec), 0x30)
    with pytest.raises(struct.error):
        kl.decode_kafka_python(data)
    assert kl.decode_aiokafka_c(data) == kl.decode_aiokafka_py(data)


@pytest.mark.parametrize("lib", LIBS)
def test_bad_crc_and_truncation_rejected(lib):
    decode = kl.LIBRARIES[lib][0]
    data = build(lib, make_spec("none", "many_headers", "no_producer"))
    with pytest.raises(ValueError, match="CRC"):
        decode(data[:-1] + bytes([data[-1] ^ 1]))
    with pytest.raises(ValueError, match="too short"):  # MemoryRecords alone would silently stop
        decode(data + data[:-1])


# ---------------------------------------------------------------- builder limitations (strict xfails)

@pytest.mark.parametrize("lib", LIBS)
@pytest.mark.xfail(strict=True, raises=NotImplementedError,
                   reason="no client builder can set timestamp type LogAppendTime (broker-set bit)")
def test_build_log_append_time(lib):
    build(lib, {**make_spec("none", "no_headers", "no_producer"), "timestamp_type": 1})


KP_STATE_ASSERTS = pytest.mark.xfail(
    strict=True, raises=AssertionError,
    reason="kafka-python DefaultRecordBatchBuilder.set_producer_state asserts transactional => "
           "producer_id != -1 and producer_id != -1 => epoch, sequence != -1; aiokafka accepts")


@pytest.mark.parametrize("lib", [pytest.param("kafka-python", marks=KP_STATE_ASSERTS), "aiokafka-c", "aiokafka-py"])
@pytest.mark.parametrize("state", [dict(is_transactional=True, producer_id=-1, producer_epoch=-1, base_sequence=-1),
                                   dict(is_transactional=False, producer_id=5, producer_epoch=-1, base_sequence=-1)],
                         ids=["transactional_without_pid", "pid_without_epoch_and_sequence"])
def test_build_unusual_producer_state(lib, state):
    spec = {"compression": "none", "records": [rec(0, 1)], **state}
    data = build(lib, spec)
    for decoder, batches in decode_all(data).items():
        assert batches == [expected(spec, data, lib, decoder)]


@pytest.mark.parametrize("lib", ["kafka-python", pytest.param("aiokafka-c", marks=pytest.mark.xfail(
    strict=True, reason="aiokafka C builder accepts offset delta 2**31 and wraps last_offset_delta "
                        "to -2**31 (int32 overflow); no decoder notices")), "aiokafka-py"])
def test_offset_delta_beyond_int32_is_refused(lib):
    spec = {"compression": "none", "records": [rec(0, 1), rec(2**31, 2)]}
    with pytest.raises(struct.error):
        build(lib, spec)


@pytest.mark.parametrize("lib", LIBS)
def test_header_value_types(lib):
    """BUILD_WITH_HEADER_QUIRKS: the C builder wants exactly bytes/list; Python ones are lax."""
    spec = {"compression": "none", "records": [rec(0, 1, headers=[("h", bytearray(b"x"))])]}
    if lib == "aiokafka-c":
        with pytest.raises(TypeError, match="Expected bytes"):
            build(lib, spec)
    else:
        assert kl.decode_aiokafka_py(build(lib, spec))[0]["records"][0]["headers"] == [["h", b"x"]]
    with pytest.raises((TypeError, AttributeError)):
        build(lib, {"compression": "none", "records": [rec(0, 1, headers=[(b"h", b"x")])]})
