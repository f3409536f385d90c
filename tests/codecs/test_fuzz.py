"""Law 5: any input is either decoded or raises DecodeError, in bounded time and memory."""

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import logcodec
from fuzz.worker import columns_disagreement, iter_disagreement
from tests.vectorfiles import all_tests, params

# (format, bytes, the root's params), of every vector; a format is fuzzed with random bytes with its
# first vector's params (a Kafka response: the API it answers)
SEEDS = [(fmt, bytes.fromhex(t["bytes"]), params(t)) for fmt, t in all_tests() if len(t["bytes"]) < 20_000]
FORMATS = sorted({fmt: root for fmt, _, root in reversed(SEEDS)}.items())
FUZZ = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def decode_or_error(fmt, data, root=None):
    root = root or {}
    try:
        value = logcodec.decode(fmt, data, **root, lazy=False)
    except logcodec.DecodeError as exc:
        assert exc.kind in logcodec.KINDS and exc.offset is not None
        value = exc
    iterated_as_decoded(fmt, data, value, root)
    try:
        stream = logcodec.decode_stream(fmt, data, **root, lazy=False)
        assert stream.consumed <= len(data)
    except logcodec.DecodeError as exc:
        assert exc.kind in logcodec.KINDS


def iterated_as_decoded(fmt, data, decoded, root):
    """Where the format has `decode_iter` and `decode_columns`, reading the elements one at a
    time, and column by column, gives what `decode` gave: the same elements, or the same error
    (`fuzz.worker.iter_disagreement`, `columns_disagreement`)."""
    module = logcodec.codec(fmt)
    disagreement = iter_disagreement(module, data, decoded, root)
    assert disagreement is None, disagreement
    disagreement = columns_disagreement(module, data, decoded, root)
    assert disagreement is None, disagreement


@FUZZ
@given(fmt_and_params=st.sampled_from(FORMATS), data=st.binary(max_size=300))
def test_random_bytes(fmt_and_params, data):
    fmt, root = fmt_and_params
    decode_or_error(fmt, data, root)


@FUZZ
@given(seed=st.sampled_from(SEEDS), rnd=st.randoms(use_true_random=False), edits=st.integers(1, 8))
def test_mutated_vectors(seed, rnd: random.Random, edits):
    fmt, data, root = seed
    buf = bytearray(data)
    for _ in range(edits):
        op = rnd.randrange(4)
        at = rnd.randrange(len(buf) + 1)
        if op == 0 and buf:
            buf[min(at, len(buf) - 1)] = rnd.randrange(256)
        elif op == 1:
            buf[at:at] = bytes(rnd.randrange(256) for _ in range(rnd.randrange(1, 6)))
        elif op == 2:
            del buf[at:at + rnd.randrange(1, 6)]
        else:
            del buf[at:]
    decode_or_error(fmt, bytes(buf), root)


@FUZZ
@given(seed=st.sampled_from(SEEDS), rnd=st.randoms(use_true_random=False))
def test_mutated_vectors_with_fixed_checksum(seed, rnd: random.Random):
    """Mutations behind a recomputed CRC-32C reach the fields the checksum guards."""
    from logcodec.runtime.primitives import crc32c

    fmt, data, root = seed
    if len(data) < 62 or data[16] != 2:
        return
    buf = bytearray(data)
    for _ in range(rnd.randrange(1, 4)):
        buf[rnd.randrange(21, len(buf))] = rnd.randrange(256)
    buf[17:21] = crc32c(bytes(buf[21:])).to_bytes(4, "big")
    decode_or_error(fmt, bytes(buf), root)


def test_a_value_with_bytes_left_inside_and_after_it_agrees():
    # decode finds the bytes left after the records first; decode_iter, the bytes after the
    # value (at the call): both are right, and the check says they agree (a fuzz finding once).
    from logcodec.generated.kafka import record_batch_v2 as rb
    from logcodec.runtime.primitives import crc32c

    data = bytearray(rb.build(records=[(0, 0, 0, b"k", b"v", [])]))
    data += b"\0\0\0"  # inside the batch, after its records
    data[8:12] = (int.from_bytes(data[8:12], "big") + 3).to_bytes(4, "big")
    data[17:21] = crc32c(bytes(data[21:])).to_bytes(4, "big")
    data = bytes(data) + b"after"
    try:
        rb.decode(data, lazy=False)
    except logcodec.DecodeError as exc:
        decoded = exc
    assert decoded.path == "record_batch_v2.records" and decoded.kind == "trailing_bytes"
    assert iter_disagreement(rb, data, decoded, {}) is None
    assert iter_disagreement(rb, data, logcodec.DecodeError("trailing_bytes", "", 61, "record_batch_v2.crc"), {})
    # decode_columns reads the records before it checks what follows the value, as decode does
    assert columns_disagreement(rb, data, decoded, {}) is None
    assert columns_disagreement(rb, data, logcodec.DecodeError("trailing_bytes", "", len(data) - 5, "record_batch_v2"), {})
