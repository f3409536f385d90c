"""Entry points shared by every generated module: one value, or values laid end to end.

No call here touches Python's cyclic garbage collector, or any other state of the process: a
library must not change its host's global state behind its back (of two threads decoding at
once, a pause would be the first to finish turning it on for both).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Generic, TypeVar

from logcodec.runtime.errors import DecodeError, EncodeError, UnsupportedRead
from logcodec.runtime.lazy import read_nested_lazily
from logcodec.runtime.limits import DEFAULT_BUDGETS, DEFAULT_LIMITS, Limits, budget

_Item = TypeVar("_Item")


@dataclass(slots=True)
class Stream(Generic[_Item]):
    """What `decode_stream` found: the complete values, the bytes they took, and why it stopped.

    `partial` is the `truncated` error of a last value cut off by the end of the
    input (normal for fetch responses and segments being written), else None.
    """

    items: list[_Item] = field(default_factory=list)
    consumed: int = 0
    partial: DecodeError | None = None


def as_bytes(data) -> bytes:
    """The input of a decode as bytes (a copy of a bytearray or memoryview); anything else is a TypeError."""
    if isinstance(data, bytes):
        return data
    if isinstance(data, (bytearray, memoryview)):
        return bytes(data)
    raise TypeError(f"decode takes bytes, bytearray or memoryview, not {type(data).__name__}")


def decode_prefix(decoder, name: str, data, limits: Limits, *params, tuples: bool = False, lazy: bool = False):
    """One value from the start of `data`, and the bytes it took (what follows is not read, as
    Kaitai's parsers leave it). `tuples`: the elements of lists whose type has a tuple form come
    as tuples (the module's TUPLE_FORMS). `lazy`: the values nested in it whose type a lazy read
    views are read as views (`lazy.read_nested_lazily`). A compiled build runs its own copy of
    this entry and of `decode_one` (`templates/module.py.j2`): what changes here changes there."""
    # The entry of every decode, where a small input spends a third of its time: what the calls
    # below would do is done here when it is one test (bytes given).
    buf = data if type(data) is bytes else as_bytes(data)
    try:
        lim = DEFAULT_BUDGETS[1 if tuples else 0].copy() if limits is DEFAULT_LIMITS else budget(limits, tuples)
        if lazy:
            read_nested_lazily(lim, decoder, name, buf, limits, params, tuples)
        return decoder(buf, 0, len(buf), lim, *params)
    except DecodeError as exc:
        raise exc.within(name.split(".")[-1]) from None
    except RecursionError:
        raise DecodeError("limit_exceeded", "nesting too deep", 0, name.split(".")[-1]) from None


def decode_one(decoder, name: str, data, limits: Limits, *params, tuples: bool = False, lazy: bool = False):
    buf = as_bytes(data)
    value, pos = decode_prefix(decoder, name, buf, limits, *params, tuples=tuples, lazy=lazy)
    ends_at(buf, pos, name)
    return value


def ends_at(buf: bytes, pos: int, name: str) -> None:
    """One value was asked for: nothing may follow where it ends."""
    if pos != len(buf):
        raise DecodeError("trailing_bytes", f"{len(buf) - pos} bytes after the end of the value", pos,
                          name.split(".")[-1])


def decode_stream(decoder, name: str, data, limits: Limits, *params, tuples: bool = False,
                  lazy: bool = False) -> Stream:
    """Values laid end to end (a module's `decode_stream`), all from one budget; `lazy`: as
    `decode_prefix` reads one."""
    buf = as_bytes(data)
    result = Stream()
    items, pos, end = result.items, 0, len(buf)
    spent = budget(limits, tuples)  # one budget for all the values: the stream holds them all
    try:
        # The hot loop of a log of small values: no `*params` call when there are none (it
        # builds a tuple each time), and the stream's fields set once, at the end.
        while pos < end:
            if lazy:
                read_nested_lazily(spent, decoder, name, buf, limits, params, tuples, pos, len(items))
            value, pos = decoder(buf, pos, end, spent, *params) if params else decoder(buf, pos, end, spent)
            items.append(value)
    except DecodeError as exc:  # `pos` is still where the failed value starts
        _stopped(result, exc, name)
    result.consumed = pos
    return result


def _stopped(result: Stream, exc: DecodeError, name: str) -> None:
    """A stream's value failed: a cut-off one ends the stream (`partial`), any other error is raised."""
    exc.within(f"{name.split('.')[-1]}[{len(result.items)}]")
    if exc.kind != "truncated":
        raise exc
    result.partial = exc


def decode_iter(decoder, name: str, data, limits: Limits, *params, tuples: bool = False) -> tuple:
    """One value whose bulk's elements come one at a time (a module's `decode_iter`): `decoder`
    is its `_i_` decoder, read as `decode_prefix` reads any, which returns the header, an
    iterator of the elements and the end (it takes the value's name and index -1, for the path of
    its elements' errors)."""
    buf = as_bytes(data)
    header, elements, pos = decode_prefix(decoder, name, buf, limits, *params, name.split(".")[-1], -1,
                                          tuples=tuples)
    ends_at(buf, pos, name)
    return header, elements


def decode_lazy(decoder, viewed, name: str, data, limits: Limits, *params, tuples: bool = False,
                prefix: bool = False):
    """One value whose bulk is read when iterated (a module's `decode`, `lazy` as it is by
    default): `decoder` is its `_i_` decoder, read as `decode_iter` reads it, and `viewed(header,
    elements, source)` the root's value with a `LazyList` of `elements` (its first loop) as its
    bulk, read again from `source` (`lazy.read_again`'s arguments) by a later loop. With `prefix`, the value
    and the bytes it took (`decode_prefix`), else the value, nothing after it."""
    buf = as_bytes(data)
    root = name.split(".")[-1]
    header, elements, pos = decode_prefix(decoder, name, buf, limits, *params, root, -1, tuples=tuples)
    value = viewed(header, elements, (decoder, buf, 0, limits, params, root, -1, tuples))
    if prefix:
        return value, pos
    ends_at(buf, pos, name)
    return value


def decode_columns(decoder, name: str, data, limits: Limits, fields: tuple[str, ...], *params,
                   tuples: bool = False) -> tuple:
    """One value whose bulk's elements are decoded column by column (a module's
    `decode_columns`): `decoder` is its `_i_` decoder, given one list per field of an element's
    tuple form (`fields`), whose iterator then yields nothing: run to its end, it appends each
    element's fields to their lists. Elements are read before what follows the value is checked,
    as `decode` reads them; lists inside an element come as `tuples` asks."""
    buf = as_bytes(data)
    root = name.split(".")[-1]
    try:
        columns: list[list] = [[] for _ in fields]
        header, elements, pos = decode_prefix(decoder, name, buf, limits, *params, root, -1, columns,
                                              tuples=tuples)
        for _ in elements:  # none: the iterator fills the columns
            raise AssertionError("an iterator given columns yielded an element")
        ends_at(buf, pos, name)
        return header, dict(zip(fields, columns))
    except RecursionError:
        raise DecodeError("limit_exceeded", "nesting too deep", 0, root) from None


def decode_stream_iter(decoder, name: str, data, limits: Limits, *params, tuples: bool = False,
                       viewed=None) -> Stream:
    """Values laid end to end, each as `decode_iter` reads one: the items are (header, elements)
    pairs, and a cut-off last value is reported in `partial`, as `decode_stream` does. The
    decoder gets the root's name and the value's index, for the path of its elements' errors.
    With `viewed` (a module's lazy `decode_stream`), each item is the value `decode_lazy` gives,
    `viewed(header, elements, source)`: its first loop spends from the stream's one budget, a
    later loop from one of its own."""
    buf = as_bytes(data)
    root = name.split(".")[-1]
    result = Stream()
    items, pos, end = result.items, 0, len(buf)
    spent = budget(limits, tuples)  # one budget for all the values, as decode_stream's
    try:
        while pos < end:  # as decode_stream's loop
            index = len(items)
            header, elements, after = decoder(buf, pos, end, spent, *params, root, index) if params \
                else decoder(buf, pos, end, spent, root, index)
            if viewed is None:
                items.append((header, elements))
            else:
                items.append(viewed(header, elements, (decoder, buf, pos, limits, params, root, index, tuples)))
            pos = after
    except DecodeError as exc:
        _stopped(result, exc, name)
    except RecursionError:
        raise DecodeError("limit_exceeded", "nesting too deep", pos, f"{root}[{len(items)}]") from None
    result.consumed = pos
    return result


def decode_part(parts: dict, fmt: str, name: str, data, pos: int, end: int | None, limits: Limits,
                params: dict, tuples: bool = False):
    """One value of the schema's type `name` (a module's `decode_part`): read from data[pos:end]
    where it lies (offsets in errors count from the start of `data`), given the type's params by
    name; returns the value and the position after it."""
    decoder, args = _part(parts, fmt, name, params, encoding=False)
    buf = as_bytes(data)
    end = len(buf) if end is None else end
    if not 0 <= pos <= end <= len(buf):
        raise ValueError(f"no bytes [{pos}:{end}] in {len(buf)} bytes")
    try:
        return decoder(buf, pos, end, budget(limits, tuples), *args)
    except DecodeError as exc:
        raise exc.within(name) from None
    except RecursionError:
        raise DecodeError("limit_exceeded", "nesting too deep", pos, name) from None


def encode_part(parts: dict, fmt: str, name: str, value, params: dict) -> bytes:
    """The bytes of one value of the schema's type `name` (a module's `encode_part`), given the
    type's params by name."""
    encoder, args = _part(parts, fmt, name, params, encoding=True)
    out: list = []
    try:
        encoder(value, out, *args)
    except EncodeError as exc:
        raise exc.within(name) from None
    return b"".join(out)


def _part(parts: dict, fmt: str, name: str, given: dict, encoding: bool) -> tuple:
    """The decoder (or encoder) of the schema's type `name` and what it takes after the bytes (the
    value), in its order, from the keywords a call gave over the defaults of the params that have
    one (the module's `_PARTS`); an unknown type is a ValueError naming the types, a param missing
    or unknown a TypeError naming those the type takes."""
    try:
        decoder, encoder, decoded_names, encoded_names, defaults = parts[name]
    except KeyError:
        raise ValueError(f"{fmt} has no type {name!r}; it has {', '.join(sorted(parts))}") from None
    names = encoded_names if encoding else decoded_names
    params = {**defaults, **given}
    if params.keys() != set(names):
        takes = f"takes {', '.join(names)}" if names else "takes no params"
        missing = [n for n in names if n not in params]
        unknown = sorted(set(params) - set(names))
        wrong = "; ".join(filter(None, (missing and f"missing {', '.join(missing)}",
                                        unknown and f"no param {', '.join(unknown)}")))
        raise TypeError(f"{fmt} type {name!r} {takes}: {wrong}")
    return (encoder if encoding else decoder), tuple(params[n] for n in names)


def unsupported(fmt: str, read: str, why: str, reads: tuple[str, ...]) -> UnsupportedRead:
    """The error of a read a format does not offer (see `UnsupportedRead`)."""
    return UnsupportedRead(f"{fmt} offers no {read}: {why}. Its reads: {', '.join(reads)}")
