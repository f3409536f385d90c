"""Limits budget one decode call: every repeated element and every decompressed byte it
builds, across all fields and nested values, before they are built (issue 11, defect 2).

The inputs are made by the generated encoders, so no wire layout is written here.
"""

import subprocess
import sys
import textwrap

import pytest

import logcodec
from logcodec.generated.kafka import record_batch_v2 as rb
from logcodec.generated.tank import bundle as tb
from logcodec.runtime.limits import ELEMENTS_LEFT, ELEMENTS_RESERVED, RESERVE, TUPLES, budget, elements_left, take_elements

TINY = rb.Record(key=None, value=None, headers=[])  # 7 bytes on the wire, an object when decoded


def kafka_batch(records, codec=rb.Compression.zstd, base_offset=0) -> bytes:
    return rb.encode(rb.RecordBatchV2(base_offset=base_offset, attributes=rb.Attributes(compression=codec),
                                      records=records))


def tank_bundle(n: int) -> bytes:
    message = tb.Message(timestamp=1700000000000, content=b"")
    return tb.encode(tb.Bundle(codec=1, messages=[message] * n))  # codec 1: snappy


def limit_error(fmt: str, data: bytes, limits: logcodec.Limits) -> logcodec.DecodeError:
    with pytest.raises(logcodec.DecodeError) as info:
        logcodec.decode(fmt, data, limits=limits, lazy=False)
    assert info.value.kind == "limit_exceeded"
    assert 0 <= info.value.offset <= len(data)
    return info.value


def test_a_count_over_the_budget_is_refused_before_any_element_is_built():
    data = kafka_batch([TINY] * 101)
    assert len(logcodec.decode("kafka.record_batch_v2", data, limits=logcodec.Limits(max_elements=101), lazy=False).records) == 101
    err = limit_error("kafka.record_batch_v2", data, logcodec.Limits(max_elements=100))
    assert err.path == "record_batch_v2.records" and "Limits.max_elements" in err.detail
    assert "101 more elements, but only 100 are left of the 100 that one decode may build" in err.detail
    assert err.offset == 61  # the stored (compressed) records, not an offset of the decompressed bytes


def test_a_budget_is_an_exact_list():
    # Decoders index it on every list (typed list[int], compiled in C); a subclass would take
    # the interpreter's slow path for each item (about twice the time of a slot, measured).
    lim = budget(logcodec.Limits(max_elements=7), tuples=True)
    assert type(lim) is list
    assert (elements_left(lim), lim[TUPLES]) == (7, 1) and budget(lim) is lim


def test_a_budget_starts_with_its_reserve_filled():
    # A small file's first list spends from the reserve, without a call of `take_elements`.
    lim = budget(logcodec.Limits(max_elements=1000))
    assert (lim[ELEMENTS_LEFT], lim[ELEMENTS_RESERVED]) == (1000 - RESERVE, RESERVE)
    lim = budget(logcodec.Limits(max_elements=7))
    assert (lim[ELEMENTS_LEFT], lim[ELEMENTS_RESERVED]) == (0, 7)


def test_the_budget_spans_every_repeated_field_of_the_call():
    # 60 records with one header each: 120 elements, where no single list exceeds 100.
    records = [rb.Record(offset_delta=i, key=None, value=b"v", headers=[rb.Header(key="h", value=b"")])
               for i in range(60)]
    data = kafka_batch(records, rb.Compression.none)
    assert len(logcodec.decode("kafka.record_batch_v2", data, limits=logcodec.Limits(max_elements=120), lazy=False).records) == 60
    limit_error("kafka.record_batch_v2", data, logcodec.Limits(max_elements=119))


def test_elements_spent_from_the_reserve_count_to_the_last_one():
    # 400 records with one header each (800 elements) take the reserve through several refills
    # (limits.RESERVE at a time); the budget still ends exactly at its limit, and the error
    # counts the reserve's elements as left.
    assert 800 > 2 * RESERVE
    records = [rb.Record(offset_delta=i, key=None, value=b"v", headers=[rb.Header(key="h", value=b"")])
               for i in range(400)]
    data = kafka_batch(records, rb.Compression.none)
    assert len(logcodec.decode("kafka.record_batch_v2", data, limits=logcodec.Limits(max_elements=800), lazy=False).records) == 400
    err = limit_error("kafka.record_batch_v2", data, logcodec.Limits(max_elements=799))
    assert err.path == "record_batch_v2.records[399].headers"
    assert "1 more elements, but only 0 are left of the 799" in err.detail
    lim = budget(logcodec.Limits(max_elements=1000))
    take_elements(lim, 10, 0, "")
    assert (lim[ELEMENTS_LEFT], lim[ELEMENTS_RESERVED]) == (1000 - 10 - RESERVE, RESERVE)


def test_a_stream_spends_one_budget_for_all_its_values():
    data = kafka_batch([TINY] * 40) + kafka_batch([TINY] * 40, base_offset=40)
    limits = logcodec.Limits(max_elements=79)
    for batch in (data[:len(data) // 2], data[len(data) // 2:]):
        logcodec.decode("kafka.record_batch_v2", batch, limits=limits, lazy=False)  # each alone fits
    with pytest.raises(logcodec.DecodeError) as info:
        logcodec.decode_stream("kafka.record_batch_v2", data, limits=limits, lazy=False)
    assert info.value.kind == "limit_exceeded" and info.value.path.startswith("record_batch_v2[1]")


def test_an_element_by_element_loop_stops_at_the_budget():
    # A legacy message set's entries repeat to the end of the input: no count to check first.
    value = logcodec.value_from_json("kafka.message_set", {"entries": [
        {"offset": str(i), "message": {"magic": 0, "attributes": {"reserved": 0, "timestamp_type": "create_time",
                                                                  "compression": "none"}, "timestamp": None, "key": None, "value": ""}}
        for i in range(10)]})
    data = logcodec.encode("kafka.message_set", value)
    assert len(logcodec.decode("kafka.message_set", data, limits=logcodec.Limits(max_elements=10)).entries) == 10
    err = limit_error("kafka.message_set", data, logcodec.Limits(max_elements=9))
    assert err.path == "message_set.entries[9]"


def test_all_decompressions_of_a_call_share_the_total():
    mib = 1 << 20
    one = kafka_batch([rb.Record(key=None, value=bytes(mib), headers=[])], rb.Compression.gzip)
    fetched = b"".join(kafka_batch([rb.Record(key=None, value=bytes(mib), headers=[])], rb.Compression.gzip,
                                   base_offset=i) for i in range(3))
    limits = logcodec.Limits(max_decompressed_size=2 * mib, max_decompressed_total=int(2.5 * mib))
    logcodec.decode("kafka.record_batch_v2", one, limits=limits, lazy=False)
    with pytest.raises(logcodec.DecodeError) as info:
        logcodec.decode("kafka.record_set", fetched, limits=limits)
    err = info.value
    assert err.kind == "limit_exceeded" and "Limits.max_decompressed_total" in err.detail
    assert err.path.startswith("record_set.entries[2]")


def test_a_snappy_bundle_of_more_messages_than_the_budget_is_refused():
    data = tank_bundle(1001)
    assert len(tb.decode(data, limits=logcodec.Limits(max_elements=1001)).messages) == 1001
    err = limit_error("tank.bundle", data, logcodec.Limits(max_elements=1000))
    assert err.path == "bundle.messages"


def test_the_xerial_limit_message_names_the_configured_limit():
    from logcodec.runtime.compression import snappy_compress, snappy_decompress
    packed = snappy_compress(bytes(100_000))  # four xerial blocks
    with pytest.raises(logcodec.DecodeError) as info:
        snappy_decompress(packed, 50_000)
    assert info.value.kind == "limit_exceeded" and "exceeds 50000 bytes" in info.value.detail


# The amplification inputs of issue 11 at the default limits, each decoded in a fresh process
# so that its peak memory is its own: just over the budget ends in limit_exceeded, just under
# it is decoded, in bounded memory.
# The peak is VmHWM: ru_maxrss would carry over this process's peak through fork and exec.
_PEAK = textwrap.dedent("""
    import re, sys, logcodec
    data = sys.stdin.buffer.read()
    try:
        value = logcodec.decode(sys.argv[1], data, lazy=False)
        outcome = "accepted"
    except logcodec.DecodeError as exc:
        outcome = exc.kind
    with open("/proc/self/status") as status:
        print(outcome, re.search(r"VmHWM:\\s*(\\d+) kB", status.read()).group(1))
""")


def decode_in_child(fmt: str, data: bytes) -> tuple[str, int]:
    done = subprocess.run([sys.executable, "-c", _PEAK, fmt], input=data, capture_output=True, check=True)
    outcome, peak_kib = done.stdout.split()
    return outcome.decode(), int(peak_kib) // 1024


@pytest.mark.parametrize("fmt,build", [
    ("kafka.record_batch_v2", lambda n: kafka_batch([TINY] * n)),
    ("tank.bundle", tank_bundle),
])
def test_default_limits_bound_amplification(fmt, build):
    elements = logcodec.DEFAULT_LIMITS.max_elements
    assert decode_in_child(fmt, build(elements + 1))[0] == "limit_exceeded"
    outcome, peak_mib = decode_in_child(fmt, build(elements))
    assert outcome == "accepted" and peak_mib < 400, peak_mib
