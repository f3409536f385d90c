"""Reading files from a local directory or S3-compatible object storage (`s3://bucket/prefix`),
through `pyarrow.fs` (LocalFileSystem, S3FileSystem): listing them, and ranged reads."""

from __future__ import annotations

import functools
import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import pyarrow.fs as pafs
from logcodec.pipeline.inkless._metadata import SIDECAR, SIDECAR_SUFFIXES
from logcodec.pipeline.inkless._options import S3Config


@functools.lru_cache(maxsize=8)
def _s3_filesystem(config: S3Config) -> pafs.FileSystem:
    try:
        from pyarrow.fs import S3FileSystem
    except ImportError:  # a pyarrow built without S3 (the PyPI wheels have it)
        raise RuntimeError("this pyarrow was built without S3 support: install the pyarrow wheel from PyPI") from None
    kwargs: dict = {"region": config.region} if config.region else {}
    if config.endpoint:
        kwargs.update(endpoint_override=config.endpoint, scheme=config.scheme)
    if config.anonymous:
        kwargs["anonymous"] = True
    elif config.access_key is not None:
        kwargs.update(access_key=config.access_key, secret_key=config.secret_key, session_token=config.session_token)
    return S3FileSystem(**kwargs)


def filesystem(location: str, s3: S3Config) -> tuple[pafs.FileSystem, str]:
    """The filesystem of a location and the path in it: `s3://bucket/key` (as `bucket/key`) or a
    local path (made absolute)."""
    if location.startswith("s3://"):
        return _s3_filesystem(s3), location[len("s3://"):].rstrip("/")
    local = location.removeprefix("file://")
    if "://" in local:
        raise ValueError(f"{location}: expected a local path or s3://bucket/prefix")
    return pafs.LocalFileSystem(), os.path.abspath(local)


def _location(fs: pafs.FileSystem, path: str) -> str:
    return f"s3://{path}" if fs.type_name == "s3" else path


@dataclass(frozen=True)
class Listed:
    location: str  # a local path or s3://bucket/key
    name: str      # its last component
    size: int


def list_files(location: str, s3: S3Config) -> list[Listed]:
    """The files at or under a location (recursively), by location; for the location of a file,
    the file and its sidecar metadata, if any."""
    fs, path = filesystem(location, s3)
    info = fs.get_file_info(path)
    if info.type == pafs.FileType.File:  # one object: with its sidecar, if there is one
        infos = [info] + [i for i in fs.get_file_info([f"{path}.metadata.{ext}" for ext in SIDECAR_SUFFIXES])
                          if i.type == pafs.FileType.File and not SIDECAR.match(info.base_name)]
    elif info.type == pafs.FileType.Directory:
        infos = [i for i in fs.get_file_info(pafs.FileSelector(path, recursive=True)) if i.type == pafs.FileType.File]
    else:
        raise FileNotFoundError(f"no such file, directory or prefix: {location}")
    return sorted((Listed(_location(fs, i.path), i.base_name, i.size) for i in infos), key=lambda f: f.location)


def read_bytes(location: str, s3: S3Config, start: int = 0, end: int | None = None) -> bytes:
    """Bytes [start, end) of a file (to its end when `end` is None): one ranged read."""
    fs, path = filesystem(location, s3)
    with fs.open_input_file(path) as f:
        size = f.size()
        stop = size if end is None else min(end, size)
        return f.read_at(max(stop - start, 0), start) if stop > start else b""


def read_all(locations: list[str], s3: S3Config) -> dict[str, bytes]:
    """The bytes of each metadata file, read a few at a time (from object storage, each read is a
    round trip)."""
    if len(locations) < 2:
        return {loc: read_bytes(loc, s3) for loc in locations}
    with ThreadPoolExecutor(max_workers=min(16, len(locations))) as pool:
        return dict(zip(locations, pool.map(lambda loc: read_bytes(loc, s3), locations)))
