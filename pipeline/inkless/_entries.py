"""The bytes of one Inkless range and its metadata entries, checked as `logcodec.inkless.blocks`'
own validator checks them, with one ranged read per range; shared by the record, batch and
validation rows."""

from __future__ import annotations

from collections.abc import Iterator

from logcodec.pipeline.inkless._options import InklessOptions
from logcodec.pipeline.inkless._ranges import ObjectRange
from logcodec.pipeline.inkless._storage import read_bytes

from logcodec.inkless.blocks import check_extent
from logcodec.runtime.errors import DecodeError


class _Window:
    """The bytes [start, end) of an object of `size` bytes, indexed as the whole object: what the
    per-entry checks slice stays within the ranges the task read."""

    def __init__(self, data: bytes, start: int, size: int) -> None:
        self.data, self.start, self.size = data, start, size

    def __len__(self) -> int:
        return self.size

    def __getitem__(self, item):
        if not isinstance(item, slice) or item.step is not None:
            raise TypeError("an object window is sliced, not indexed")
        lo, hi = max(item.start or 0, 0), min(self.size if item.stop is None else item.stop, self.size)
        if hi <= lo:
            return b""
        if lo < self.start or hi > self.start + len(self.data):
            raise IndexError(f"bytes [{lo}, {hi}) are outside the range read, [{self.start}, "
                             f"{self.start + len(self.data)})")
        return self.data[lo - self.start:hi - self.start]


def checked_extents(r: ObjectRange, options: InklessOptions, tuples: bool = False) -> Iterator[tuple]:
    """(entry, the range's bytes, findings, batches) for each metadata entry of a range, as
    `check_extent` finds them (records as tuples with `tuples`: rows take them as columns), with
    one ranged read for the whole range."""
    if not r.extents:
        return
    window = _Window(read_bytes(r.file, options.s3, r.start, r.end), r.start, r.object_size)
    for ext in r.extents:
        findings, found = check_extent(window, ext, tuples)
        yield ext, window, findings, found


def fail(r: ObjectRange, error: tuple) -> None:
    """Raise an error row's error (`mode=failfast`), naming the object (or the metadata)."""
    kind, offset, path, detail = error
    raise DecodeError(kind, f"{r.file or r.metadata}: {detail}", offset, path)
