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
