"""TANK's composite formats (see `logcodec.composites`): a partition directory."""

from __future__ import annotations

from pathlib import Path

from logcodec.composites import Composite


def _read_partition(path: Path) -> tuple[list[dict], list]:
    # (imported on use: `logcodec --help` loads no codec)
    from .containers import tank_partition_json

    return tank_partition_json(path), []


COMPOSITES = (
    Composite("tank.partition", "TANK partition directory", "a partition directory: segment files and indexes",
              _read_partition, path="directory"),
)
