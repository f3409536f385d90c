"""Formats read from more than one byte string: a directory of files (a TANK partition), an
object with its metadata (an Inkless block), or both sides of a connection (a Kafka client's
requests and the broker's responses).

They are not codecs (`logcodec.codec` knows none of them), but `logcodec formats` lists them,
`logcodec decode --format NAME` reads them and the docs server's decode page offers those that
take a second input. A family's package defines its own in `logcodec.<family>.composites`, as
`COMPOSITES`, so that neither this module nor the command line names a format.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from logcodec._api import FORMAT_PACKAGES, optional_module


@dataclass(frozen=True)
class Composite:
    """One such format: what its input is, and how it is read."""

    name: str  # `family.name`, as `logcodec formats` lists it
    title: str
    takes: str  # what the command line's FILE is, in a few words
    #: read(path, **others) -> (the canonical JSON value, findings: LogcodecErrors where the inputs
    #: disagree); `others` are the bytes of the other inputs, by name
    read: Callable[..., tuple[object, list]]
    path: str = "file"  # what FILE is: "file", "directory", or "file or directory"
    others: tuple[str, ...] = ()  # the other inputs' names, each a file option of `decode` (--metadata FILE)
    optional: tuple[str, ...] = ()  # those of `others` that may be left out (`read` then does without)
    #: page(inspectors) -> the decode page's reader of this format over the docs server's
    #: inspectors (`name`, `title`, `needs`, `examples`, `decode`), or None where it cannot read it
    page: Callable[[list], object] | None = None


def composites() -> dict[str, Composite]:
    """Every composite format of the format packages, by name."""
    found: dict[str, Composite] = {}
    for family in FORMAT_PACKAGES:
        if (module := optional_module(f"logcodec.{family}.composites")) is not None:
            found.update({c.name: c for c in module.COMPOSITES})
    return dict(sorted(found.items()))


def pages(inspectors: list) -> dict[str, object]:
    """The decode page's readers of the composite formats that take a second input, by name."""
    out = {}
    for c in composites().values():
        reader = c.page(inspectors) if c.page is not None else None
        if reader is not None:
            out[c.name] = reader
    return out
