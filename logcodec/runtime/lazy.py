"""`LazyList`: the elements of a value's bulk, decoded when they are reached.

What `decode` gives, by default, for a root whose bulk can be read one element at a time (a
module's `ITERATED`, Kafka's records): the fields before it are read and checked when `decode`
returns (sizes, checksums, decompression, the bytes after the value); the elements are read as
a loop reaches them, the way the client libraries' batches read theirs, and none is kept. So a
batch read once costs no more than its elements one at a time, and never holds them all: the
collector has no tree of objects to walk, and memory stays that of one element.

Asking for more than a loop (an index, a slice, a comparison, a copy) reads the elements once and
keeps them: from then on the view is the list. Its length is the count the value declares where
it has one (a Kafka batch's `num_records`), which reads nothing: so `list(view)`, which asks the
length after taking the first loop, reads the elements once. An element's error (its kind, byte
offset and path as `decode(..., lazy=False)` raises it) comes from the loop or the call that
reaches it.

Such a value nested in another (a Kafka batch in a record set, or in a Fetch response) is read
the same way by the call that reads the outer value lazily (`nested_source`): its elements when a
loop reaches them. An element's error then needs the path from the outer value's root, and an
offset in the input, which the view does not know (errors get them on their way out of the
decoders, and those have returned): the view's loop reads the outer value again, lazily, and has
this view raise the error where it is made, so that it leaves the outer decoders as it would have
left them in `lazy=False`'s read (`renamed`).
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Sequence
from typing import Any

from logcodec.runtime.errors import DecodeError
from logcodec.runtime.limits import (
    CONTEXT,
    FOCUS,
    LAZY,
    TUPLES,
    VIEWS,
    Budget,
    Limits,
    budget,
)


class LazyList(Sequence):
    """A read-only sequence of decoded elements, read from the value's bytes as they are reached.

    `for x in view` reads each element as the loop reaches it and keeps none (a second loop reads
    them again); indexing, slicing and `==` read all of them once and keep them; `len` (and
    `bool`) is the count the value declares (`count`, where it has one: it reads nothing, and a
    loop that meets a bad element before the end raises its error), else it reads them too.
    Decoded elements are not kept by a loop, so a change made to one there is lost: build a
    changed value instead (`dataclasses.replace(batch, records=[...])`). Pickling and deep
    copies give a plain list."""

    __slots__ = ("_count", "_first", "_items", "_source")

    def __init__(self, first: Iterator[Any], source: tuple, count: int | None = None):
        self._first: Iterator[Any] | None = first  # the iterator the read made: the first loop's
        self._source = source  # where the value lies, for every later loop (`read_again`)
        self._items: list[Any] | None = None
        self._count = count  # how many elements the value says it holds (None: it does not say)

    def __iter__(self) -> Iterator[Any]:
        if self._items is not None:
            return iter(self._items)
        first, self._first = self._first, None
        return first if first is not None else read_again(*self._source)

    def loaded(self) -> list[Any]:
        """Every element, read once and kept (the list this view then is)."""
        if self._items is None:
            self._items = [*iter(self)]
        return self._items

    @property
    def is_loaded(self) -> bool:
        """Whether the elements were read and are kept (`loaded`)."""
        return self._items is not None

    def __len__(self) -> int:
        if self._items is None and self._count is not None and self._count >= 0:
            return self._count  # (a negative count is an error: the read says which)
        return len(self.loaded())

    def __getitem__(self, index):
        return self.loaded()[index]

    def __bool__(self) -> bool:
        return len(self) > 0

    def __eq__(self, other) -> bool:
        if isinstance(other, LazyList):
            other = other.loaded()
        if not isinstance(other, list):
            return NotImplemented
        return self.loaded() == other

    __hash__ = None  # type: ignore[assignment]  # as a list's

    def __repr__(self) -> str:
        try:
            return repr(self.loaded())
        except DecodeError as exc:
            return f"<LazyList: {exc}>"

    def __reduce__(self):
        return list, (self.loaded(),)


def read_again(decoder, buf: bytes, pos: int, limits: Limits, params: tuple, root: Any, index: int,
               tuples: bool) -> Iterator[Any]:
    """The elements of the value at `pos` read again (a view's loops but the first): its `_i_`
    decoder run with a budget of its own (which returns the header, an iterator and the end), or
    the loop of a list a lazy read views (`_v_`, a generator: the iterator itself); what the
    first read checked holds again (the same bytes). `root` and `index` name the value in errors, as the first read named it
    (index -1: not in a stream; `named_value`)."""
    try:
        read = decoder(buf, pos, len(buf), budget(limits, tuples), *params, root, index)
    except DecodeError as exc:
        raise named_value(exc, root, index) from None
    return read[1] if type(read) is tuple else read


def named_value(exc: DecodeError, root: Any, index: int) -> DecodeError:
    """An error of a value's elements, as its view's loop raises it: named from the value, `root`
    (`root[index]` in a stream); for a value nested in another that a call read lazily, `root` is
    where (`nested_source`), and the error is named from that call's root (`renamed`)."""
    if type(root) is str:
        return exc.within(root if index < 0 else f"{root}[{index}]")
    return renamed(exc, *root)


def as_list(items: Sequence[Any]) -> list[Any]:
    """A list of `items` for an encoder: a list as it is, a view's elements read once and kept
    (the same elements, none changed), any other sequence copied; None as it is (the encoder names
    it missing)."""
    if type(items) is list or items is None:
        return items  # type: ignore[return-value]
    if isinstance(items, LazyList):
        return items.loaded()
    return list(items)


def read_nested_lazily(lim: Budget, decoder, name: str, buf: bytes, limits: Limits, params: tuple, tuples: bool,
                       start: int = 0, index: int = -1) -> None:
    """Make `lim` the budget of a lazy read of the value at `start` of `buf` (by its root's
    `decoder`, `name` the format's): the values nested in it whose type a lazy read views are
    read as views (`nested_source`), and how to read it again is kept for their errors
    (`renamed`; `index` >= 0: the value's index in a stream)."""
    lim[LAZY] = 1
    lim[CONTEXT] = (decoder, name, buf, limits, params, tuples, start, index)
    lim[VIEWS] = 0


def nested_source(lim: Budget, decoder, buf: bytes, pos: int, params: tuple) -> tuple:
    """The `source` of the view of a value nested in a lazy read (`read_nested_lazily`), at `pos`
    of `buf`, read by its `_i_` decoder with `params`: as a root's, its `root` being what the
    outer call read and which of its views this is (`named_value`, `renamed`). In the read again
    that names an error of this view, the error is raised here instead."""
    made = lim[VIEWS]
    lim[VIEWS] = made + 1
    focus = lim[FOCUS]
    if focus is not None and focus[0] == made:
        raise copy.copy(focus[1])
    context = lim[CONTEXT]
    return decoder, buf, pos, context[3], params, (context, made), -1, lim[TUPLES] == 1


def renamed(exc: DecodeError, context: tuple, made: int) -> DecodeError:
    """The error `exc` of an element of a nested view (the `made`-th the read made, `context`
    what it read, `read_nested_lazily`), with its path from the root and its offset in the input:
    the outer value read again, lazily, with that view raising `exc` where it is made
    (`nested_source`), the decoders it leaves through name and place it as they would have in the
    eager read. (`exc` comes from the view's own loop, its path the value's, its offset in the
    bytes the value was read from, as the eager read's decoder of the value would raise it.)"""
    decoder, name, buf, limits, params, tuples, start, index = context
    lim = budget(limits, tuples)
    read_nested_lazily(lim, decoder, name, buf, limits, params, tuples, start, index)
    lim[FOCUS] = (made, exc)
    try:
        decoder(buf, start, len(buf), lim, *params)
    except DecodeError as whole:
        if whole.path.endswith(exc.path):
            root = name.split(".")[-1]
            return whole.within(root if index < 0 else f"{root}[{index}]")
    except RecursionError:
        pass
    return exc
