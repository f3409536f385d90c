"""Which planner a read's metadata calls for: files and documents beside or apart from the objects
(`_planning`), or Inkless's control plane when the `metadata` option is a `postgresql://` URL
(`_control_plane`)."""

from __future__ import annotations

from logcodec.pipeline.inkless._control_plane import (
    byte_layout_from_control_plane,
    plan_from_control_plane,
    uses_control_plane,
)
from logcodec.pipeline.inkless._options import InklessOptions
from logcodec.pipeline.inkless._planning import byte_layout as byte_layout_from_files
from logcodec.pipeline.inkless._planning import plan as plan_from_files
from logcodec.pipeline.inkless._ranges import ObjectRange


def plan(options: InklessOptions) -> list[list[ObjectRange]]:
    """The input partitions of a read (see `_planning.plan`, `_control_plane.plan_from_control_plane`)."""
    return plan_from_control_plane(options) if uses_control_plane(options) else plan_from_files(options)


def byte_layout(options: InklessOptions) -> dict[str, dict[str, int]]:
    """How each object's bytes divide by its metadata (see `_planning.byte_layout`)."""
    return byte_layout_from_control_plane(options) if uses_control_plane(options) else byte_layout_from_files(options)
