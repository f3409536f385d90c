"""Checkers that judge several inputs together, by name, for check vectors.

A format's vectors judge one byte string. Some rules span inputs: Inkless block
metadata against its object. A check vector file (`schemas/<family>/<name>.checks.yaml`,
rendered into `generated/vectors/`) names one of these checkers, gives its inputs and
lists exactly what it must find. Each checker takes its inputs as bytes, by name, and
returns the problems it finds as `LogcodecError`s (kind, offset, path), in order.

A checker's name is `<family>.<name>`: the family's package (`logcodec.<family>.checks`)
defines it in its `CHECKERS`, so each format keeps its own.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Callable

from logcodec._api import optional_module
from logcodec.runtime.errors import LogcodecError


def checker(name: str) -> Callable[..., list[LogcodecError]] | None:
    """The checker called `name` (`family.name`), or None when no format package defines it."""
    family, _, local = name.partition(".")
    if not family.isidentifier() or not local:
        return None
    module = optional_module(f"logcodec.{family}.checks")
    return None if module is None else getattr(module, "CHECKERS", {}).get(local)


def run(name: str, inputs: dict[str, bytes]) -> list[LogcodecError]:
    """The findings of checker `name` on `inputs`; a problem reading the inputs is a finding too."""
    found = checker(name)
    if found is None:
        raise KeyError(f"no checker {name!r}")
    try:
        return list(found(**inputs))
    except LogcodecError as exc:
        return [exc]


def page_examples(vectors: Path, file: str, first: str, second: str) -> list[dict]:
    """The tests of a check vector file (`file`, e.g. `kafka/conversation.checks.json`, under the
    served `vectors` folder) as examples of a paired format on the docs server's decode page: input
    `first` as the page's bytes, input `second` as its second input (`{second: {"hex": ...}}`), tests
    without both left out; none when the file is not served."""
    try:
        tests = json.loads((vectors / file).read_text())["tests"]
    except (OSError, ValueError, KeyError, TypeError):
        tests = []
    return [{"tcId": t["tcId"], "comment": t.get("comment", ""), "hex": t["inputs"][first],
             second: {"hex": t["inputs"][second]}}
            for t in tests if {first, second} <= set(t.get("inputs", {}))]
