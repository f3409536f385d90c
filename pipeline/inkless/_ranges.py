"""What an Inkless plan is made of: the ranges of objects that tasks read, and the problems found
while planning, which go out with them as error rows."""

from __future__ import annotations

from dataclasses import dataclass

from logcodec.runtime.errors import DecodeError

#: The largest value of an int32 column (`size`): an entry larger than that has none.
INT32_MAX = (1 << 31) - 1


@dataclass(frozen=True)
class Problem:
    """An error row found while planning: the error (kind, offset, path, detail) and what is
    known of where it lies."""

    error: tuple
    batch_offset: int | None = None
    topic: str | None = None
    topic_id: bytes | None = None
    partition: int | None = None
    entry: str | None = None


@dataclass(frozen=True)
class ObjectRange:
    """What one task reads of one object: the metadata entries `extents` (in byte order), whose
    bytes lie in [start, end) of the object (`object_size` bytes in all), and the `problems` found
    while planning, reported first. `file` is None for a problem with no object (metadata that
    names none). `file_ids`: instead of entries, the (first, last) ids of `files` rows of the
    control plane whose objects the task reads (`_control_plane.expand`)."""

    file: str | None
    metadata: str | None
    start: int = 0
    end: int = 0
    object_size: int = 0
    extents: tuple = ()
    problems: tuple = ()
    file_ids: tuple | None = None

    @property
    def size(self) -> int:
        """Bytes read, for `plan.pack`."""
        return self.end - self.start


def error_tuple(kind: str, offset: int | None, path: str, detail: str) -> tuple:
    """An `error` column's value (`tables.ERROR`'s order)."""
    return (kind, offset, path, detail)


def error_of(exc: DecodeError) -> tuple:
    """A finding's `error` column, its offset as it is (None: none)."""
    return (exc.kind, exc.offset, exc.path, exc.detail)
