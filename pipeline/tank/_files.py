"""Where TANK logs lie and how they are told apart: a base directory holds `<topic>/<partition>/`
folders of segment files (`logcodec.tank.containers`); and what the validation job needs to pick
and check a path (`claim`, `check_path`, `listed_files`)."""

from __future__ import annotations

import re
from pathlib import Path

from logcodec.pipeline.formats import Claim
from logcodec.pipeline.plan import ReadOptions, partition_number

from logcodec.tank.containers import segment_files

#: The names TANK gives segments and no one else does: the active one `<first>_<secs>.log`, a
#: rolled one `<first>-<last>_<secs>.ilog`.
_SEGMENT_NAME = re.compile(r"^\d+(?:-\d+_\d+\.ilog|_\d+\.log|-\d+\.ilog)$")


def partition_directories(path: Path) -> list[Path]:
    """Every directory at or under `path` that holds segment files, in a stable order."""
    if not path.is_dir():
        raise FileNotFoundError(f"not a directory: {path} (TANK reads partition directories)")
    found = [d for d in [path, *sorted(p for p in path.rglob("*") if p.is_dir())] if segment_files(d)]
    return found


def labels(directory: Path, options: ReadOptions) -> tuple[str | None, int | None]:
    """The topic and partition on the rows of a partition directory: the `topic` and `partition`
    options where given, else its parent's name and its own."""
    return (options.topic if options.topic is not None else directory.parent.name,
            options.partition if options.partition is not None else partition_number(directory.name))


def claim(file: Path) -> Claim | None:
    """A segment by its NAME (`.ilog`, or a name only TANK gives); by its LAYOUT, a `.log` file that
    is not empty, named by a number in a directory named by a number (a partition's)."""
    if file.suffix == ".ilog" or _SEGMENT_NAME.match(file.name):
        return Claim.NAME
    if file.suffix == ".log" and file.stem.isdigit() and file.parent.name.isdigit() and file.stat().st_size:
        return Claim.LAYOUT
    return None


def check_path(path: Path) -> None:
    """TANK reads partition directories: a directory with segment files at or below it."""
    if path.is_file():
        if claim(path) is Claim.NAME:
            raise ValueError(f"{path} is a TANK segment: give its partition directory (TANK reads directories)")
        raise ValueError(f"{path} is a file: TANK reads partition directories")
    if not partition_directories(path):
        raise ValueError(f"no TANK segments under {path}")


def listed_files(options: ReadOptions) -> dict[str, int]:
    """{segment file: size} of every segment of every partition directory under the path."""
    return {str(s.path): s.path.stat().st_size for d in partition_directories(Path(options.path))
            for s in segment_files(d)}
