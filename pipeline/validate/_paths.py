"""What the validation job is given, checked before Spark starts: which format PATH holds (the
formats' claims on its files), whether a read can find anything there, the Spark master URL, and
the files a read of PATH covers. A problem is a `UsageError` (the command exits with status 2)."""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping
from pathlib import Path

from logcodec.pipeline.formats import Claim, LogFormat
from logcodec.pipeline.registry import format_named, formats


class UsageError(ValueError):
    """PATH or an option cannot be used (the command exits with status 2)."""


def detect_format(path: Path) -> str:
    """The name of the format that PATH holds, from what each format claims of its files
    (`LogFormat.claim`: their names, where they lie, their first bytes). A file is read by the
    format that claims it most, else by the first that reads such a path (`check_path`). Under a
    directory, each file is claimed by the format that claims it most; the path holds the formats
    that claim files by more than READABLE, or, when none does, the first that finds a file it can
    read. UsageError when it holds none, or more than one."""
    if not path.exists():
        raise UsageError(f"no such file or directory: {path}")
    if path.is_file():
        return _file_format(path)
    found: dict[str, Path] = {}      # format -> the first file it claims
    readable: dict[str, Path] = {}   # format -> the first file it can only read
    for directory, subdirs, names in os.walk(path):
        subdirs.sort()
        for name in sorted(names):
            file = Path(directory) / name
            claimed = _claimant(file)
            if claimed is not None:
                fmt, claim = claimed
                (readable if claim is Claim.READABLE else found).setdefault(fmt.name, file)
        if len(found) > 1:
            kinds = " and ".join(f"{f.title} ({found[f.name]})" for f in formats() if f.name in found)
            raise UsageError(f"{path} holds {kinds}: validate them apart, or give --format")
    if found:
        return next(iter(found))
    if readable:
        return next(f.name for f in formats() if f.name in readable)
    raise UsageError(f"no {_either(f.files for f in formats())} under {path}")


def _claimant(file: Path) -> tuple[LogFormat, Claim] | None:
    """The format that claims `file` most (the first registered of those that claim it as much),
    and how; None when no format claims it."""
    best: tuple[LogFormat, Claim] | None = None
    for fmt in formats():
        claim = fmt.claim(file)
        if claim is not None and (best is None or claim > best[1]):
            best = (fmt, claim)
    return best


def _file_format(path: Path) -> str:
    claimed = _claimant(path)
    if claimed is not None:
        return claimed[0].name
    for fmt in formats():
        try:
            fmt.check_path(path)
        except ValueError:
            continue
        return fmt.name
    raise UsageError(f"{path} is no file of {_either(f.files for f in formats())}")


def check_path(path: Path | str, fmt: str) -> str:
    """The format to read `path` with (`auto`: `detect_format`); UsageError when there is nothing to
    read (the format's `check_path`). A location in object storage (`s3://`) is read by the format
    that reads object storage; it is not listed here."""
    if is_remote(path):
        return _remote_format(str(path), fmt)
    path = Path(path)
    names = [f.name for f in formats()]
    if fmt != "auto" and fmt not in names:
        raise UsageError(f"unknown format {fmt!r}; expected {', '.join(names)} or auto")
    if not path.exists():
        raise UsageError(f"no such file or directory: {path}")
    name = detect_format(path) if fmt == "auto" else fmt
    try:
        format_named(name).check_path(path)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    return name


def _remote_format(location: str, fmt: str) -> str:
    remote = [f for f in formats() if f.object_storage]
    if fmt == "auto" and len(remote) == 1:
        return remote[0].name
    if fmt in [f.name for f in remote]:
        return fmt
    raise UsageError(f"{location}: only {_either(f.title for f in remote)} are read from object storage, not {fmt}")


def is_remote(path: Path | str) -> bool:
    return str(path).startswith("s3://")


def listed_files(fmt: str, path, options: Mapping[str, str] | None = None) -> Mapping[str, int | Mapping[str, int]]:
    """{file: size} of every file a read of `path` with the format `fmt` covers, empty ones included
    (they yield no row, and are listed all the same); for a format whose metadata places its
    entries, how each file's bytes divide by it (`LogFormat.listed_files`)."""
    reader = format_named(fmt)
    return reader.listed_files(reader.parse_options({**(options or {}), "path": str(path)}))


_MASTER = re.compile(r"^(local(\[[^\]]+\])?|local-cluster\[[^\]]+\]|yarn|(spark|k8s)://.+)$")


def check_master(master: str | None) -> None:
    """UsageError for a master URL that Spark refuses (it would say so only after starting a JVM)."""
    if master is not None and not _MASTER.match(master):
        raise UsageError(f"--master {master!r}: expected local, local[N], local[*], spark://HOST:PORT, "
                         f"k8s://URL or yarn")


def _either(things: Iterable[str]) -> str:
    """`a`, `a or b`, `a, b or c`."""
    things = list(things)
    return " or ".join(things) if len(things) < 3 else f"{', '.join(things[:-1])} or {things[-1]}"
