"""Where an Inkless cluster's objects are, for the tools that read metadata from its control
plane: a local directory, or S3-compatible object storage (`s3://bucket/prefix`). An object is
found by its key (`files.object_key`) under that root.

S3 is read through `pyarrow.fs.S3FileSystem` (the pipeline extra brings pyarrow); the endpoint is
`endpoint`, else `AWS_ENDPOINT_URL_S3` or `AWS_ENDPOINT_URL`, else AWS; credentials and region come
from AWS's default chain (environment, `~/.aws`, an instance role).
"""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import urlsplit


class StorageError(Exception):
    """Storage that cannot be reached or read: one line saying why."""


class ObjectStore:
    """Objects by key under a root: `size(key)` (None when there is no such object) and
    `read(key, start, end)` (one ranged read)."""

    def __init__(self, location: str, *, endpoint: str | None = None) -> None:
        self.location = location
        if location.startswith("s3://"):
            self._fs, self._root = _s3(endpoint), location[len("s3://"):].strip("/")
        elif "://" in location.removeprefix("file://"):
            raise StorageError(f"{location}: objects are in a local directory or under s3://bucket/prefix")
        else:
            root = Path(location.removeprefix("file://"))
            if not root.is_dir():
                raise StorageError(f"{location}: no such directory")
            self._fs, self._root = None, str(root.resolve())

    def _path(self, key: str) -> str:
        return f"{self._root}/{key.lstrip('/')}" if self._root else key

    def where(self, key: str) -> str:
        """The location of the object of a key (a path, or s3://bucket/key)."""
        return self._path(key) if self._fs is None else f"s3://{self._path(key)}"

    def size(self, key: str) -> int | None:
        if self._fs is None:
            try:
                return os.stat(self._path(key)).st_size
            except FileNotFoundError:
                return None
        import pyarrow.fs as pafs

        try:
            info = self._fs.get_file_info(self._path(key))
        except OSError as exc:
            raise StorageError(f"{self.where(key)}: {exc}") from None
        return info.size if info.type == pafs.FileType.File else None

    def read(self, key: str, start: int = 0, end: int | None = None) -> bytes:
        """Bytes [start, end) of an object (to its end when `end` is None)."""
        try:
            if self._fs is None:
                with open(self._path(key), "rb") as f:
                    f.seek(start)
                    return f.read(-1 if end is None else max(end - start, 0))
            with self._fs.open_input_file(self._path(key)) as f:
                stop = f.size() if end is None else min(end, f.size())
                return f.read_at(max(stop - start, 0), start) if stop > start else b""
        except OSError as exc:
            raise StorageError(f"{self.where(key)}: {exc}") from None


def _s3(endpoint: str | None):
    try:
        from pyarrow.fs import S3FileSystem
    except ImportError:
        raise StorageError("reading s3:// needs pyarrow: pip install 'logcodec[pipeline]'") from None
    endpoint = endpoint or os.environ.get("AWS_ENDPOINT_URL_S3") or os.environ.get("AWS_ENDPOINT_URL")
    kwargs: dict = {}
    if endpoint:
        parts = urlsplit(endpoint if "://" in endpoint else f"https://{endpoint}")
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise StorageError(f"S3 endpoint {endpoint!r}: expected http(s)://host[:port]")
        kwargs.update(endpoint_override=parts.netloc, scheme=parts.scheme)
    region = os.environ.get("AWS_REGION") or os.environ.get("AWS_DEFAULT_REGION")
    if region:
        kwargs["region"] = region
    return S3FileSystem(**kwargs)
