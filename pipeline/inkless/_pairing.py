"""Pairing each Inkless object with its metadata, on the driver, from the names of the files under
the load path (and the `metadata` option's):

- `<name>.metadata.bin|.yaml|.yml|.json` is the metadata of the object `<name>` beside it
  (a sidecar, either form; the key written inside it does not matter);
- any other `*.json`, `*.yaml` or `*.yml` file, and every file under the `metadata` option's
  path, is a metadata document that names its object(s) by object key: the seed's
  `block_header.path`, the shipped form's `files[].object_key` (an export of the two tables may
  hold many `files` rows, each with the `batches` rows of its `file_id`). A key names the object
  under the load path whose location ends with `/<key>` (Inkless keys are `<prefix>/<uuid>`);
- every other file is an object.

Whatever cannot be paired is a problem, never dropped: metadata that does not load, a key that
names no object (or several), a second metadata for an object that has one."""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

from logcodec.pipeline.inkless._metadata import (
    DOCUMENT_SUFFIXES,
    SIDECAR,
    Loaded,
    load_documents,
)
from logcodec.pipeline.inkless._options import InklessOptions
from logcodec.pipeline.inkless._ranges import (
    ObjectRange,
    Problem,
    error_of,
    error_tuple,
)
from logcodec.pipeline.inkless._storage import Listed, list_files, read_all

from logcodec.inkless.blocks import load_metadata
from logcodec.runtime.errors import DecodeError


class Pairing(NamedTuple):
    objects: dict[str, Listed]             # object location -> the object
    paired: dict[str, Loaded | None]       # object location -> its metadata (None: it did not load)
    problems: list[ObjectRange]            # what could not be paired, as ranges of error rows


def pair(options: InklessOptions) -> Pairing:
    """The objects under the load path, the metadata each is paired with, and the problems."""
    documents = list_files(options.metadata, options.s3) if options.metadata else []
    apart = {f.location for f in documents}
    listed = [f for f in list_files(options.path, options.s3) if f.location not in apart]
    sidecars = [f for f in listed if SIDECAR.match(f.name)]
    documents += [f for f in listed if f.name.lower().endswith(DOCUMENT_SUFFIXES) and not SIDECAR.match(f.name)]
    metadata_files = {f.location for f in sidecars} | {f.location for f in documents}
    objects = {f.location: f for f in listed if f.location not in metadata_files}
    raw = read_all([f.location for f in sidecars + documents], options.s3)
    pairing = Pairing(objects, {}, [])
    _pair_sidecars(pairing, sidecars, raw)
    _pair_documents(pairing, documents, raw, options.path)
    return pairing


def _pair_sidecars(pairing: Pairing, sidecars: list[Listed], raw: Mapping[str, bytes]) -> None:
    """Each sidecar with the object beside it."""
    objects, paired, problems = pairing
    for f in sidecars:
        name = SIDECAR.match(f.name).group("object")
        target = f.location[: len(f.location) - len(f.name)] + name
        if target not in objects:
            problems.append(ObjectRange(None, f.location, problems=(Problem(error_tuple(
                "invalid_value", None, "metadata", f"the sidecar of {name!r}, which is not there")),)))
            continue
        try:
            paired[target] = Loaded(f.location, load_metadata(raw[f.location]))
        except DecodeError as exc:
            problems.append(ObjectRange(target, f.location, object_size=objects[target].size,
                                        problems=(Problem(error_of(exc)),)))
            paired[target] = None


def _pair_documents(pairing: Pairing, documents: list[Listed], raw: Mapping[str, bytes], path: str) -> None:
    """The metadata in each document with the object its key names, if it has none yet."""
    objects, paired, problems = pairing
    suffixes = _suffix_index(objects)
    for f in documents:
        try:
            loaded = load_documents(f.location, raw[f.location])
        except DecodeError as exc:
            problems.append(ObjectRange(None, f.location, problems=(Problem(error_of(exc)),)))
            continue
        for item in loaded:
            if isinstance(item, DecodeError):
                problems.append(ObjectRange(None, f.location, problems=(Problem(error_of(item)),)))
                continue
            key = item.object_key
            found = suffixes.get(key.removeprefix("s3://").strip("/"), []) if key else []
            if len(found) == 1 and found[0] not in paired:
                paired[found[0]] = item
                continue
            detail = ("names no object (its key is empty)" if not key else
                      f"object key {key!r} names no object under {path}" if not found else
                      f"object key {key!r} names {len(found)} objects: {', '.join(found)}" if len(found) > 1 else
                      f"{found[0]} already has its metadata in "
                      f"{paired[found[0]].location if paired[found[0]] else 'a sidecar'}; this is left unread")
            problems.append(ObjectRange(found[0] if len(found) == 1 else None, f.location, problems=(Problem(
                error_tuple("invalid_value", None, item.key_path, detail)),)))


def _suffix_index(objects: Mapping[str, Listed]) -> dict[str, list[str]]:
    """Every trailing run of path components of each object's location -> the objects it ends."""
    index: dict[str, list[str]] = {}
    for location in objects:
        parts = location.removeprefix("s3://").strip("/").split("/")
        for i in range(len(parts)):
            index.setdefault("/".join(parts[i:]), []).append(location)
    return index
