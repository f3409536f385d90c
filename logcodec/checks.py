"""Checkers that judge several inputs together, by name, for check vectors.

A format's vectors judge one byte string. Some rules span inputs: Inkless block
metadata against its object. A check vector file (`schemas/<family>/<name>.checks.yaml`,
rendered into `generated/vectors/`) names one of these checkers, gives its inputs and
lists exactly what it must find. Each checker takes its inputs as bytes, by name, and
returns the problems it finds as `LogcodecError`s (kind, offset, path), in order.
"""

from __future__ import annotations

from typing import Callable

from logcodec.runtime.errors import LogcodecError


def _inkless_validate(object: bytes, metadata: bytes) -> list[LogcodecError]:  # noqa: A002 (the table's name)
    """Inkless metadata (either form, recognised by content) against its object."""
    from logcodec import inkless_blocks  # noqa: PLC0415 (pulls in the codecs)

    return inkless_blocks.validate(object, inkless_blocks.load_metadata(metadata))


#: name -> checker(**inputs) -> findings
CHECKERS: dict[str, Callable[..., list[LogcodecError]]] = {
    "inkless.validate": _inkless_validate,
}


def run(name: str, inputs: dict[str, bytes]) -> list[LogcodecError]:
    """The findings of checker `name` on `inputs`; a problem reading the inputs is a finding too."""
    try:
        return list(CHECKERS[name](**inputs))
    except LogcodecError as exc:
        return [exc]
