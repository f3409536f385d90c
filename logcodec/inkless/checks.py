"""Inkless's checkers for check vectors (see `logcodec.checks`): rules that judge several inputs
together."""

from __future__ import annotations

from typing import Callable

from logcodec.runtime.errors import LogcodecError

from .blocks import load_metadata, validate


def validate_block(object: bytes, metadata: bytes) -> list[LogcodecError]:  # noqa: A002 (the table's name)
    """Metadata (either form, recognised by content) against its object."""
    return validate(object, load_metadata(metadata))


#: checker name (after the family's `inkless.`) -> checker(**inputs) -> findings
CHECKERS: dict[str, Callable[..., list[LogcodecError]]] = {"validate": validate_block}
