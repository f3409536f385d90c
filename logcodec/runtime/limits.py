"""Limits checked before anything is allocated.

A decoder never trusts a declared length: it checks it against the bytes that are
really there and against these limits, so that hostile input (a decompression bomb,
a count of two billion) ends in ``DecodeError(kind="limit_exceeded")`` instead of an
out-of-memory or a hang.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Limits:
    #: Largest output of one decompression, in bytes.
    max_decompressed_size: int = 64 * 1024 * 1024
    #: Largest number of elements of one repeated field whose elements may take no bytes.
    max_repeat: int = 1_000_000
    #: Deepest nesting of processed (decompressed) substreams, such as a compressed
    #: message set inside a compressed message set.
    max_nesting: int = 8


DEFAULT_LIMITS = Limits()
