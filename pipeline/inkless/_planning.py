"""The plan of an Inkless read, on the driver: each object with its metadata (`_pairing`), as
ranges of metadata entries. An object is one unit of work; one larger than `splitBytes` is cut
between metadata entries into pieces of about `splitBytes`, each read with one ranged GET;
small objects share an input partition (`plan.pack`).

What `logcodec.inkless.blocks.validate` reports of an object and needs only its metadata and its
size (overlapping ranges, dead bytes, a `files` size or `file_id` that disagrees, a partition's
offsets out of order) is found here, and goes out with the object's first range
(`object_findings`); what needs the object's bytes is found by the task that reads them."""

from __future__ import annotations

from logcodec.pipeline.inkless._metadata import Loaded
from logcodec.pipeline.inkless._options import InklessOptions
from logcodec.pipeline.inkless._pairing import pair
from logcodec.pipeline.inkless._ranges import (
    INT32_MAX,
    ObjectRange,
    Problem,
    error_of,
    error_tuple,
)
from logcodec.pipeline.plan import pack

from logcodec.inkless.blocks import (
    Extent,
    object_file_findings,
    overlap_findings,
    partition_order_findings,
    uncovered_ranges,
)
from logcodec.inkless.shipped import ShippedMetadata
from logcodec.runtime.errors import DecodeError

_HEADER = 12  # a batch's offset and length fields: what a seed range's check reads past a short range


def plan(options: InklessOptions) -> list[list[ObjectRange]]:
    """The input partitions of a read: each object with its metadata (large objects cut between
    metadata entries), and a range of error rows for each object or metadata that cannot be paired."""
    objects, paired, problems = pair(options)
    units = []
    for location, obj in objects.items():
        if location not in paired:
            units.append(ObjectRange(location, None, object_size=obj.size, problems=(Problem(error_tuple(
                "invalid_value", None, "metadata", "no metadata for this object: expected a sidecar "
                f"{obj.name}.metadata.bin|yaml|json or a document naming its key")),)))
        elif paired[location] is not None:
            units += object_ranges(location, obj.size, paired[location], options)
    return pack(problems + units, options.split_bytes)


def object_ranges(location: str, size: int, loaded: Loaded, options: InklessOptions) -> list[ObjectRange]:
    """The ranges of one object: its metadata entries in byte order, cut into pieces of about
    `splitBytes`; the first carries the object-wide problems."""
    extents = loaded.extents()
    problems = tuple(_problem(f, extents) for f in object_findings(size, loaded, extents, options.allow_dead_bytes))
    groups: list[list[Extent]] = [[]]
    first = furthest = 0  # of the group being filled: its first start (they come in order), its furthest end
    for ext in sorted(extents, key=lambda e: e.start):
        if groups[-1] and min(furthest, size) - min(first, size) >= options.split_bytes:
            groups.append([])
        first, furthest = (first, max(furthest, ext.end)) if groups[-1] else (ext.start, ext.end)
        groups[-1].append(ext)
    ranges = []
    for i, group in enumerate(groups):
        start = min(min((e.start for e in group), default=0), size)
        end = min(max((e.end + _HEADER for e in group), default=0), size)  # a seed check reads a header past a short range
        ranges.append(ObjectRange(location, loaded.location, start, max(start, end), size, tuple(group),
                                  problems if i == 0 else ()))
    return ranges


def object_findings(size: int, loaded: Loaded, extents: list[Extent], allow_dead_bytes: bool) -> list[DecodeError]:
    """What `validate` reports of an object that needs only its size and its metadata, not its
    bytes: a shipped `files` row that disagrees (size, file_id), a partition's rows out of offset
    order, overlapping ranges, and (unless allowed) dead bytes."""
    findings = []
    if isinstance(loaded.metadata, ShippedMetadata):
        file_findings = object_file_findings(_Sized(size), loaded.metadata)
        for f in file_findings:
            f.path = loaded.place(f.path)
        findings += file_findings + partition_order_findings(extents)
    findings += overlap_findings(extents)
    if not allow_dead_bytes:
        findings += [DecodeError("trailing_bytes", f"bytes [{start}, {end}) ({end - start}) are covered by no "
                                 "metadata entry (dead bytes)", start, "object")
                     for start, end in uncovered_ranges(size, extents)]
    findings.sort(key=lambda f: -1 if f.offset is None else f.offset)
    return findings


class _Sized:
    """Stands for an object's bytes where only their number is used."""

    def __init__(self, size: int) -> None:
        self._size = size

    def __len__(self) -> int:
        return self._size


def _problem(finding: DecodeError, extents: list[Extent]) -> Problem:
    """An object-wide finding as a row, with the entry it names when it names one."""
    entry = next((e for e in extents if finding.path == e.path or finding.path.startswith(e.path + ".")), None)
    if entry is None:
        return Problem(error_of(finding), finding.offset)
    return Problem(error_of(finding), finding.offset, entry.topic, entry.topic_id, entry.partition, entry.path)


def byte_layout(options: InklessOptions) -> dict[str, dict[str, int]]:
    """How each object's bytes divide by its metadata alone, for the validation job's accounting
    (`validate.summarize`): {object: {"size", "dead", "overlap", "past_end"}}. `dead`: bytes no
    entry covers; `overlap`: bytes covered more than once, counted once for each entry after the
    first; `past_end`: bytes entries claim beyond the object's end. The rows of a validation read
    give every entry's bytes as valid or quarantined, so that size = valid + quarantined + dead -
    overlap - past_end. An entry too large for the `size` column (its row has none) counts as dead."""
    sizes: dict[str, int] = {}
    claimed: dict[str, list[Extent]] = {}
    for partition in plan(options):
        for r in partition:
            if r.file is None:
                continue  # metadata that names no object
            sizes[r.file] = max(sizes.get(r.file, 0), r.object_size)
            claimed.setdefault(r.file, []).extend(e for e in r.extents if e.size <= INT32_MAX)
    return {file: divide_bytes(size, claimed[file]) for file, size in sizes.items()}


def divide_bytes(size: int, extents: list[Extent]) -> dict[str, int]:
    """How an object of `size` bytes divides by its entries (`byte_layout`'s counts of one object)."""
    dead = sum(end - start for start, end in uncovered_ranges(size, extents))  # the validator's dead bytes
    within = sum(min(e.end, size) - min(e.start, size) for e in extents)
    return {"size": size, "dead": dead, "overlap": within - (size - dead),
            "past_end": sum(e.size for e in extents) - within}
