"""An Inkless object's metadata, in either form `logcodec.inkless.blocks.load_metadata` reads (the
seed's binary `IKBM` or its YAML/JSON document; the shipped rows of Inkless's `files` and
`batches` tables as JSON), and the names that say which file is metadata: a sidecar
`<object>.metadata.bin|.yaml|.yml|.json`, or a document (`*.json`, `*.yaml`, `*.yml`) that
names its object(s) by key."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from logcodec.inkless.blocks import (
    SHIPPED,
    Extent,
    bytes_form,
    load_metadata,
    metadata_extents,
)
from logcodec.inkless.document import document_from_json
from logcodec.inkless.shipped import (
    SHIPPED_ROOT,
    ShippedMetadata,
    shipped_from_document,
)
from logcodec.runtime.errors import DecodeError

#: A sidecar's name: `<object>.metadata.<suffix>`, the metadata of the object beside it.
SIDECAR_SUFFIXES = ("bin", "yaml", "yml", "json")
SIDECAR = re.compile(r"^(?P<object>.+)\.metadata\.(?:bin|ya?ml|json)$")
#: Other metadata documents, which name their objects by key.
DOCUMENT_SUFFIXES = (".json", ".yaml", ".yml")


@dataclass
class Loaded:
    """The metadata of one object, from the file at `location`. Metadata split out of a shipped
    export of many files keeps the places of its rows in the export: `file_index` and
    `batch_indexes`, so that problems name `files[j]` and `batches[k]` as they are there."""

    location: str
    metadata: object
    key_path: str = "block_header.path"
    file_index: int | None = None
    batch_indexes: tuple = ()

    @property
    def object_key(self) -> str | None:
        if isinstance(self.metadata, ShippedMetadata):
            return self.metadata.file.object_key
        return self.metadata.block_header.path or None

    def place(self, path: str) -> str:
        """A path in the metadata value as a path in the file."""
        return path if self.file_index is None else _remap(path, self.file_index, self.batch_indexes)

    def extents(self) -> list[Extent]:
        extents = metadata_extents(self.metadata)
        return extents if self.file_index is None else [replace(e, path=self.place(e.path)) for e in extents]


def load_documents(location: str, raw: bytes) -> list["Loaded | DecodeError"]:
    """The metadata in a document that names its object(s): one value for the seed's forms and a
    one-file shipped document; for a shipped export with many `files` rows, one per file row with
    the `batches` rows of its `file_id` (a problem of one file's rows is that file's alone, and a
    batch row of no file is a problem of its own). A document that does not load raises."""
    if bytes_form(raw) != SHIPPED:
        return [Loaded(location, load_metadata(raw))]
    doc = document_from_json(raw.decode("utf-8"), root=SHIPPED_ROOT)
    files = doc.get("files") if isinstance(doc, dict) else None
    batches = doc.get("batches") if isinstance(doc, dict) else None
    if not (isinstance(files, list) and len(files) > 1 and isinstance(batches, list)
            and set(doc) == {"files", "batches"}):
        return [Loaded(location, shipped_from_document(doc), "files[0].object_key")]
    ids = [row.get("file_id") if isinstance(row, dict) else None for row in files]
    out: list[Loaded | DecodeError] = []
    for j, row in enumerate(files):
        if ids.count(ids[j]) > 1:
            out.append(DecodeError("invalid_value", f"file_id {ids[j]!r} is in {ids.count(ids[j])} files rows",
                                   None, f"files[{j}].file_id"))
            continue
        mine = tuple(k for k, b in enumerate(batches) if isinstance(b, dict) and b.get("file_id") == ids[j])
        try:
            metadata = shipped_from_document({"files": [row], "batches": [batches[k] for k in mine]})
        except DecodeError as exc:
            out.append(DecodeError(exc.kind, exc.detail, exc.offset, _remap(exc.path, j, mine)))
            continue
        out.append(Loaded(location, metadata, f"files[{j}].object_key", j, mine))
    for k, b in enumerate(batches):
        if not isinstance(b, dict) or b.get("file_id") not in ids:
            out.append(DecodeError("invalid_value", f"file_id {b.get('file_id') if isinstance(b, dict) else None!r} "
                                   "is in no files row", None, f"batches[{k}].file_id"))
    return out


def _remap(path: str, file_index: int, batch_indexes: tuple) -> str:
    """A path in a one-file document split from an export, as a path in the export."""
    path = re.sub(r"^files\[0\]", f"files[{file_index}]", path)
    return re.sub(r"^batches\[(\d+)\]", lambda m: f"batches[{batch_indexes[int(m.group(1))]}]", path)
