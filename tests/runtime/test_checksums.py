"""The checksum an encoder computes over the parts of a range (`checksum_of_parts`) is the
checksum of those parts joined, whether it sums them one by one or joins them first."""

import random
import zlib

import pytest
from crc32c import crc32c

from logcodec.runtime.primitives import JOIN_BEFORE_CHECKSUM, checksum_of_parts


@pytest.mark.parametrize("algorithm", [crc32c, zlib.crc32], ids=["crc32c", "crc32"])
@pytest.mark.parametrize("count", [0, 1, 3, JOIN_BEFORE_CHECKSUM, JOIN_BEFORE_CHECKSUM + 1, 200])
def test_the_checksum_of_parts_is_the_checksum_of_their_bytes(algorithm, count):
    rng = random.Random(count)
    head = [b"placeholder", rng.randbytes(5)]
    parts = [rng.randbytes(rng.randrange(0, 40)) for _ in range(count)]
    out = head + parts
    assert checksum_of_parts(algorithm, out, len(head)) == algorithm(b"".join(parts))
    # the parts may be joined into one, but the bytes and the parts before them are the same
    assert out[:len(head)] == head and b"".join(out[len(head):]) == b"".join(parts)
    assert len(out) == len(head) + (1 if count > JOIN_BEFORE_CHECKSUM else count)


@pytest.mark.parametrize("size", [100, 4000, 4200, 20_000], ids=lambda n: f"{n}_bytes")  # copies, then views
def test_a_batch_checksum_is_checked_over_a_copy_or_a_view_alike(size):
    # A decoder hands the checksum a copy of a short range and a view of a long one
    # (`_checked_bytes`, in every module that checks one): both hold the range's bytes, and a
    # wrong stored checksum is refused with the same error either way.
    from logcodec import DecodeError
    from logcodec.generated.kafka import record_batch_v2 as rb

    data = bytearray(rb.build(records=[(0, 0, 0, None, bytes(size - 68), [])]))
    assert bytes(rb._checked_bytes(bytes(data), 21, len(data))) == data[21:]
    stored = int.from_bytes(data[17:21], "big")
    data[-1] ^= 1
    with pytest.raises(DecodeError) as caught:
        rb.decode(bytes(data))
    assert caught.value.kind == "checksum_mismatch" and caught.value.offset == 17
    assert f"stored {stored:#010x}, computed {crc32c(bytes(data[21:])):#010x}" in caught.value.detail
