"""Limits checked before anything is allocated.

A decoder never trusts a declared length: it checks it against the bytes that are
really there and against these limits, so that hostile input (a decompression bomb,
a count of two billion, millions of tiny records in a small compressed payload) ends
in ``DecodeError(kind="limit_exceeded")`` instead of an out-of-memory or a hang.

Limits apply to one call of ``decode`` or ``decode_stream``: everything that call
builds, across all its fields and nested values, comes out of one budget (`budget`).
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

#: Most bytes an encoder pads one sized field with after its value (zeros, the pad byte or the
#: terminator's): a size declared far past the value (a u4 length of 4 GB over a few bytes) is
#: refused before the padding is built, as a decoder refuses a declared length before it
#: allocates. Encoders take no `Limits`, so this bound is fixed (the largest decompression's).
MAX_PADDING = DEFAULT_LIMITS.max_decompressed_size


#: A decode call's budget is a list of ints, at these indexes. A list, because the generated
#: decoders spend from it for each list they decode: compiled, they index a list in C, where an
#: attribute of a Python object is a lookup in its type (that cost a compiled Kafka record with
#: headers about a sixth of its decode time); the interpreter indexes a plain list nearly as
#: fast as it reads a slot. Each generated module declares the indexes it uses as constants
#: of its own, which mypyc compiles in.
ELEMENTS_LEFT = 0  #: the elements the call may still build
TUPLES = 1  #: 1 when the call asked for the elements of lists in their tuple form
DECOMPRESSED_LEFT = 2  #: the bytes all the call's decompressions may still produce
MAX_DECOMPRESSED = 3  #: Limits.max_decompressed_size
MAX_ELEMENTS = 4  #: Limits.max_elements, for messages
MAX_DECOMPRESSED_TOTAL = 5  #: Limits.max_decompressed_total, for messages
ELEMENTS_RESERVED = 6  #: elements taken out of ELEMENTS_LEFT ahead of need, at most RESERVE
#: 1 when the call reads lazily the values nested in its value whose type a lazy read views (a
#: Kafka batch in a record set or a Fetch response: `runtime.lazy.nested_source`), 0 when whole
LAZY = 7
#: In a read again that names a nested view's element error (`runtime.lazy.renamed`): which view
#: (by the order the call made them) raises which error; None otherwise. Read by the runtime
#: only, as CONTEXT and VIEWS are: compiled decoders read the other places, as ints.
FOCUS = 8
#: What a lazy call read, to read it again (`runtime.lazy.read_nested_lazily`), or None
CONTEXT = 9
#: How many nested views the call made so far
VIEWS = 10

#: How many elements `take_elements` moves out of ELEMENTS_LEFT ahead of need, for the decoders
#: to spend list after list from ELEMENTS_RESERVED. The reserve stays within the small ints
#: CPython keeps made (up to 256), so writing it back allocates nothing, where writing back
#: the large counter allocated an int for every list (compiled, a Kafka record with headers
#: decoded 1.5 % faster with the reserve, A/B). Reserved elements count as spent: `too_many`
#: adds them back.
RESERVE = 256

#: What one decode call may still build: made from :class:`Limits` by the entry point, spent by
#: generated decoders before they build anything (elements) and by the codec tables before they
#: decompress (bytes).
Budget = list


def budget(limits: Limits | Budget = DEFAULT_LIMITS, tuples: bool = False) -> Budget:
    """A fresh budget for `limits`, its nested values read whole; a budget is passed on as it is
    (a nested decode spends from its caller's, and gives what its caller asked for)."""
    if isinstance(limits, list):
        return limits
    # The reserve is filled from the start: a small file's first list would otherwise take its
    # elements through `take_elements`, an interpreted call from a compiled decoder.
    reserve = min(RESERVE, limits.max_elements)
    return [limits.max_elements - reserve, int(tuples), limits.max_decompressed_total, limits.max_decompressed_size,
            limits.max_elements, limits.max_decompressed_total, reserve, 0, None, None, 0]


#: A fresh budget of the default limits, by `tuples` (False, True), for an entry point to copy:
#: a small file's decode spent a tenth of its compiled time making its budget by the call above.
DEFAULT_BUDGETS = (budget(DEFAULT_LIMITS, False), budget(DEFAULT_LIMITS, True))


def take_elements(lim: Budget, count: int, pos: int, path: str) -> None:
    """Spend `count` elements that the reserve does not hold (a generated decoder spends from
    ELEMENTS_RESERVED itself while it can): what is left, reserve included, pays for them and
    refills the reserve; too few left is `too_many`."""
    left = elements_left(lim) - count
    if left < 0:
        raise too_many(lim, count, pos, path)
    reserve = min(RESERVE, left)
    lim[ELEMENTS_LEFT] = left - reserve
    lim[ELEMENTS_RESERVED] = reserve


def elements_left(lim: Budget) -> int:
    """The elements the call may still build, the reserve included."""
    return lim[ELEMENTS_LEFT] + lim[ELEMENTS_RESERVED]


def too_many(lim: Budget, count: int, pos: int, path: str) -> DecodeError:
    """The error for `count` more elements than the budget has left."""
    return DecodeError("limit_exceeded", f"{count} more elements, but only {elements_left(lim)} are left of the "
                       f"{lim[MAX_ELEMENTS]} that one decode may build (Limits.max_elements)", pos, path)


def decompression_room(lim: Budget) -> int:
    """The most bytes the next decompression may produce."""
    return min(lim[MAX_DECOMPRESSED], lim[DECOMPRESSED_LEFT])


def spend_decompressed(lim: Budget, size: int) -> None:
    lim[DECOMPRESSED_LEFT] -= size


def explain_decompression_limit(lim: Budget, err: DecodeError) -> None:
    """Name the limit a decompression ran into, when it was what is left of the total."""
    if lim[DECOMPRESSED_LEFT] < lim[MAX_DECOMPRESSED]:
        err.detail += (f" (what was left of the {lim[MAX_DECOMPRESSED_TOTAL]} bytes that all "
                       "decompressions of one decode may produce, Limits.max_decompressed_total)")
