"""Inkless's composite formats (see `logcodec.composites`): an object read through its metadata."""

from __future__ import annotations

from pathlib import Path

from logcodec.composites import Composite

# (Its reader is imported on use: `logcodec --help` loads no codec.)
NAME, TITLE = "inkless.block_with_metadata", "Inkless block with metadata"


def _read_block(path: Path, metadata: bytes) -> tuple[dict, list]:
    """The object at `path` through its metadata (either form, told by content), and where they
    disagree."""
    from logcodec.runtime.errors import DecodeError

    from .paired import BlockWithMetadata

    reader = BlockWithMetadata(NAME, TITLE)
    answer = reader.decode_with(Path(path).read_bytes(), reader.load(metadata, None))
    return answer["value"], [DecodeError(f["kind"], f["detail"], f["offset"], f["path"]) for f in answer["findings"]]


def _page(inspectors: list):
    from .paired import BlockWithMetadata

    return BlockWithMetadata.over(inspectors, NAME, TITLE)


COMPOSITES = (
    Composite(NAME, TITLE, "an object; its metadata with --metadata FILE", _read_block, others=("metadata",),
              page=_page),
)
