"""Limits checked before anything is allocated.

A decoder never trusts a declared length: it checks it against the bytes that are
really there and against these limits, so that hostile input (a decompression bomb,
a count of two billion, millions of tiny records in a small compressed payload) ends
in ``DecodeError(kind="limit_exceeded")`` instead of an out-of-memory or a hang.

Limits apply to one call of ``decode`` or ``decode_stream``: everything that call
builds, across all its fields and nested values, comes out of one :class:`Budget`.
"""

from __future__ import annotations

from dataclasses import dataclass

from logcodec.runtime.errors import DecodeError


@dataclass(frozen=True, slots=True)
class Limits:
    #: Largest output of one decompression, in bytes.
    max_decompressed_size: int = 64 * 1024 * 1024
    #: Largest output of all decompressions of one call together, in bytes (a fetch
    #: response of many compressed batches, a compressed wrapper inside a record set).
    max_decompressed_total: int = 256 * 1024 * 1024
    #: Most elements of repeated fields (records, headers, messages, entries, ...) that
    #: one call builds, all repeated fields together. A decoded element costs a Python
    #: object of about 100-300 bytes, so the default keeps a call under about 300 MB.
    max_elements: int = 1_000_000
    #: Deepest nesting of processed (decompressed) substreams, such as a compressed
    #: message set inside a compressed message set.
    max_nesting: int = 8


DEFAULT_LIMITS = Limits()


class Budget:
    """What one decode call may still build: made from :class:`Limits` by the entry point,
    spent by generated decoders before they build anything (elements) and by the codec
    tables before they decompress (bytes)."""

    __slots__ = ("limits", "elements", "decompressed", "tuples")

    def __init__(self, limits: Limits = DEFAULT_LIMITS, tuples: bool = False) -> None:
        self.limits = limits
        self.elements = limits.max_elements
        self.decompressed = limits.max_decompressed_total
        #: The call asked for the elements of lists in their tuple form, where their type has one.
        self.tuples = tuples

    def too_many(self, count: int, pos: int, path: str) -> DecodeError:
        """The error for `count` more elements than the budget has left; also puts back what
        a caller took before checking, so that the budget never reads negative."""
        self.elements = max(self.elements, 0)
        total = self.limits.max_elements
        return DecodeError("limit_exceeded", f"{count} more elements, but only {self.elements} are left of "
                           f"the {total} that one decode may build (Limits.max_elements)", pos, path)

    def decompression_room(self) -> int:
        """The most bytes the next decompression may produce."""
        return min(self.limits.max_decompressed_size, self.decompressed)

    def spend_decompressed(self, size: int) -> None:
        self.decompressed -= size

    def explain_decompression_limit(self, err: DecodeError) -> None:
        """Name the limit a decompression ran into, when it was what is left of the total."""
        if self.decompressed < self.limits.max_decompressed_size:
            err.detail += (f" (what was left of the {self.limits.max_decompressed_total} bytes that all "
                           "decompressions of one decode may produce, Limits.max_decompressed_total)")


def budget(limits: Limits | Budget, tuples: bool = False) -> Budget:
    """A fresh budget for `limits`; a budget is passed on as it is (a nested decode spends
    from its caller's, and gives what its caller asked for)."""
    return limits if isinstance(limits, Budget) else Budget(limits, tuples)
