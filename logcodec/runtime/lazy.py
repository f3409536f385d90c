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
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from logcodec.runtime.errors import DecodeError
from logcodec.runtime.limits import Limits, budget


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


def read_again(decoder, buf: bytes, pos: int, limits: Limits, params: tuple, root: str, index: int,
               tuples: bool) -> Iterator[Any]:
    """The elements of the value at `pos` read again (a view's later loops): its `_i_` decoder run
    with a budget of its own; what the first read checked holds again (the same bytes). `root`
    and `index` name the value in errors, as the first read named it (index -1: not in a stream)."""
    try:
        return decoder(buf, pos, len(buf), budget(limits, tuples), *params, root, index)[1]
    except DecodeError as exc:
        raise exc.within(root if index < 0 else f"{root}[{index}]") from None


def as_list(items: Sequence[Any]) -> list[Any]:
    """A list of `items` for an encoder: a list as it is, a view's elements read once and kept
    (the same elements, none changed), any other sequence copied; None as it is (the encoder names
    it missing)."""
    if type(items) is list or items is None:
        return items  # type: ignore[return-value]
    if isinstance(items, LazyList):
        return items.loaded()
    return list(items)
