"""Inkless metadata from its control plane: the `metadata` option is a `postgresql://` URL, and the
load path is where the objects are (a directory or `s3://bucket/prefix`, under which each `files`
row's `object_key` lies).

No process holds every row of a large control plane:

- the driver reads `files` in keyset pages (file id, key, size only: no `batches` rows) and cuts
  the ids into ranges of about `splitBytes` of objects (`file_id_ranges`); each range is one unit
  of work, an `ObjectRange` that carries the ids and no entries;
- each task reads the rows of its range from the database itself (`expand`: pages of files with
  their batches, through `logcodec.inkless.control_plane`), one object at a time, and checks each
  object as the file-metadata path checks it (`_planning.object_ranges`);
- what the control plane says against itself (a high watermark the batches disagree with, offsets
  with a gap or overlapping across objects, a file marked `deleting` whose batches remain) is found
  on the driver by queries that return only the rows that disagree (`control_plane_findings`);
- the validation job's accounting (`byte_layout`) pages through the rows on the driver, one page
  of objects at a time.

The objects listed under the load path that no `files` row names are rows with their error, as an
object without metadata is in the file-metadata path. psycopg must be installed wherever this runs
(the driver and the executors: the postgres extra, which the pipeline extra includes).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from logcodec.pipeline.inkless._metadata import Loaded
from logcodec.pipeline.inkless._options import InklessOptions
from logcodec.pipeline.inkless._planning import divide_bytes, object_ranges
from logcodec.pipeline.inkless._ranges import (
    INT32_MAX,
    ObjectRange,
    Problem,
    error_of,
    error_tuple,
)
from logcodec.pipeline.inkless._storage import list_files
from logcodec.pipeline.plan import pack

from logcodec.inkless import control_plane as cp


def uses_control_plane(options: InklessOptions) -> bool:
    return cp.is_database_url(options.metadata)


def _root(options: InklessOptions) -> str:
    """The location objects' keys are under, as `list_files` spells locations."""
    from logcodec.pipeline.inkless._storage import filesystem

    fs, path = filesystem(options.path, options.s3)
    return f"s3://{path}" if fs.type_name == "s3" else path


def _open(options: InklessOptions) -> cp.ControlPlane:
    try:
        return cp.ControlPlane(options.metadata)
    except cp.ControlPlaneError as exc:
        raise ValueError(str(exc)) from None  # the job's usage error: one line, before any task runs


def check_options(options: InklessOptions) -> None:
    """A control plane named by the `metadata` option can be connected to and is Inkless's (else
    ValueError saying why, naming what is missing); before any Spark job starts."""
    if uses_control_plane(options):
        _open(options).close()


def plan_from_control_plane(options: InklessOptions) -> list[list[ObjectRange]]:
    """The input partitions: ranges of file ids (read by the tasks), a row for each object no
    `files` row names, and the control plane's own findings."""
    root = _root(options)
    listed = {f.location[len(root) + 1:]: f for f in list_files(options.path, options.s3)}
    metadata = cp.redacted(options.metadata)
    with _open(options) as plane:
        units = [ObjectRange(None, metadata, 0, size, size, file_ids=ids)
                 for ids, size in file_id_ranges(plane, options.split_bytes, listed)]
        units += [ObjectRange(f.location, None, object_size=f.size, problems=(Problem(error_tuple(
            "invalid_value", None, "metadata", f"no files row of the control plane names object key {key!r}")),))
            for key, f in sorted(listed.items())]
        units += [_control_plane_problem(f, root, metadata) for f in cp.control_plane_findings(plane)]
    return pack(units, options.split_bytes)


def file_id_ranges(plane: cp.ControlPlane, split_bytes: int, listed: dict) -> Iterator[tuple[tuple[int, int], int]]:
    """((first, last) file id, bytes of their objects) of each run of files of about `split_bytes`,
    paging through `files` by id; each key met is taken out of `listed` (what is left names no row)."""
    first, last, size = None, None, 0
    for row in plane.file_sizes():
        listed.pop(row["object_key"], None)
        first = row["file_id"] if first is None else first
        last, size = row["file_id"], size + row["size"]
        if size >= split_bytes:
            yield (first, last), size
            first, size = None, 0
    if first is not None:
        yield (first, last), size


def _control_plane_problem(finding: cp.Finding, root: str, metadata: str) -> ObjectRange:
    """A finding of the control plane as a row: of its object when it names one."""
    location = None if finding.object_key is None else f"{root}/{finding.object_key}"
    entry = finding.path.split(".", 1)[0] if finding.path.startswith("batches[") else None
    return ObjectRange(location, metadata, problems=(Problem(error_of(finding.error), finding.error.offset,
                                                             entry=entry),))


def expand(r: ObjectRange, options: InklessOptions) -> Iterator[ObjectRange]:
    """In a task: the objects of a range of file ids, each a whole-object range with its entries
    and the problems its metadata and size show (as `_planning.object_ranges` makes them), read
    from the control plane a page at a time."""
    root = _root(options)
    with _open(options) as plane:
        names = plane.topic_names()  # the shipped rows name topics by id; `logs` has their names
        for stored in plane.files(file_ids=r.file_ids):
            location = f"{root}/{stored.object_key}"
            if stored.load_error is not None:
                yield ObjectRange(location, r.metadata, problems=(Problem(error_of(stored.load_error)),))
                continue
            size = _object_size(location, options)
            if size is None:
                yield ObjectRange(location, r.metadata, problems=(Problem(error_tuple(
                    "truncated", 0, f"files[file_id={stored.file_id}]", f"the object is not in storage, but its "
                    f"files row says {stored.size} bytes and {len(stored.batch_ids)} batches row(s) point into it")),))
                continue
            loaded = _RowsLoaded(stored, r.metadata, names)
            whole = replace(options, split_bytes=max(size, 1) + 1)  # an object a task reads whole
            yield from object_ranges(location, size, loaded, whole)


def _object_size(location: str, options: InklessOptions) -> int | None:
    """The size of an object (None: there is none), with the read's own storage settings."""
    import pyarrow.fs as pafs
    from logcodec.pipeline.inkless._storage import filesystem

    fs, path = filesystem(location, options.s3)
    info = fs.get_file_info(path)
    return info.size if info.type == pafs.FileType.File else None


class _RowsLoaded(Loaded):
    """One object's rows as loaded metadata whose paths name rows by id."""

    def __init__(self, stored: cp.StoredFile, location: str, topic_names: dict | None = None) -> None:
        super().__init__(location, stored.metadata, f"files[file_id={stored.file_id}].object_key")
        self.stored, self.topic_names = stored, topic_names or {}

    def place(self, path: str) -> str:
        return self.stored.row_path(path)

    def extents(self):
        from logcodec.inkless.blocks import metadata_extents

        return [replace(e, path=self.place(e.path), topic=self.topic_names.get(e.topic_id))
                for e in metadata_extents(self.metadata)]


def byte_layout_from_control_plane(options: InklessOptions) -> dict[str, dict[str, int]]:
    """How each object's bytes divide by its rows (`_planning.byte_layout`'s counts), paging
    through the control plane on the driver: {object: {"size", "dead", "overlap", "past_end"}}."""
    root = _root(options)
    sizes = {f.location: f.size for f in list_files(options.path, options.s3)}
    layout = {}
    with _open(options) as plane:
        for stored in plane.files():
            location = f"{root}/{stored.object_key}"
            if location not in sizes or stored.load_error is not None:
                continue  # a row of its own, reading no bytes
            extents = _RowsLoaded(stored, "").extents()
            layout[location] = divide_bytes(sizes[location], [e for e in extents if e.size <= INT32_MAX])
    for location, size in sizes.items():  # objects no row names: all their bytes are dead
        layout.setdefault(location, divide_bytes(size, []))
    return layout

