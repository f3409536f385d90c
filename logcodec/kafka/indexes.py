"""Kafka's index files beside each log segment, `<base offset>.index` and `.timeindex`, read
through their schemas (`kafka.offset_index`, `kafka.time_index`) as a reader needs them."""

from __future__ import annotations

from dataclasses import replace

from logcodec._api import codec
from logcodec.runtime.limits import DEFAULT_LIMITS


def index_entries(format_name: str, raw: bytes) -> list:
    """The entries of an index file of format `kafka.offset_index` or `kafka.time_index`, up to
    the zeros of a preallocated file's tail and any partial last entry (a crash mid-write): the
    bytes up to the last non-zero one, rounded up to whole entries, decoded at once. Zero entries
    before that are kept: a reader stops where the entries stop ascending. (An all-zero entry is
    never a real one: Kafka writes the first only after `index.interval.bytes` of the segment.)
    The element budget is the file's whole entries (a full 10 MiB index holds 1,310,720, more than
    the default)."""
    module = codec(format_name)
    size = module.SIZES["entry"]
    end = min(-(-len(raw.rstrip(b"\0")) // size) * size, len(raw) // size * size)
    limits = replace(DEFAULT_LIMITS, max_elements=max(DEFAULT_LIMITS.max_elements, end // size))
    return module.decode(raw[:end], limits=limits).entries
