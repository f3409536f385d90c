"""What the validation job needs to pick and check a path of Inkless objects: a sidecar says
which files are Inkless's (`claim`), any path may hold objects (`check_path`), and each object's
bytes divide by its metadata (`listed_files`)."""

from __future__ import annotations

from pathlib import Path

from logcodec.pipeline.formats import Claim
from logcodec.pipeline.inkless._metadata import SIDECAR, SIDECAR_SUFFIXES
from logcodec.pipeline.inkless._options import InklessOptions
from logcodec.pipeline.inkless._sources import byte_layout


def claim(file: Path) -> Claim | None:
    """A sidecar (`<object>.metadata.bin|yaml|yml|json`), or an object with its sidecar beside it,
    by NAME."""
    if SIDECAR.match(file.name):
        return Claim.NAME
    if any(file.with_name(f"{file.name}.metadata.{suffix}").is_file() for suffix in SIDECAR_SUFFIXES):
        return Claim.NAME
    return None


def check_path(path: Path) -> None:
    """Any directory, and any object, may be read (what cannot be paired with metadata is reported
    by the read itself, as rows); a sidecar is metadata, read with its object."""
    sidecar = SIDECAR.match(path.name) if path.is_file() else None
    if sidecar:
        raise ValueError(f"{path} is the metadata of {sidecar.group('object')}: give the object, or the directory "
                         f"that holds both")


def listed_files(options: InklessOptions) -> dict[str, dict[str, int]]:
    """{object: how its bytes divide by its metadata alone} (`byte_layout`)."""
    return byte_layout(options)
