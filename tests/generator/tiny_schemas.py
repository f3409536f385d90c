"""Tiny schemas written in a test: each compiled in memory into a package of its own, and read by
the official compiler's parser of the same schema on the same bytes, where a test compares the two.
"""

from __future__ import annotations

import contextlib
import itertools
import textwrap
from pathlib import Path

import pytest

from logcodec.generator import kaitai
from logcodec.generator.compile import load
from logcodec.generator.in_memory import load_modules
from tests.kaitai_suite.official import available

_WHY_NO_OFFICIAL = available()

#: Marks a test that runs the official compiler's parser: skipped, saying why, where it cannot run
#: (no Node.js, no `kaitai-struct-compiler` in node_modules, no `kaitaistruct` runtime).
needs_official = pytest.mark.skipif(_WHY_NO_OFFICIAL is not None, reason=f"the official compiler: {_WHY_NO_OFFICIAL}")

_PACKAGES = itertools.count()


def package_name() -> str:
    """A package name no module of this process has yet: compiled schemas must not meet."""
    return f"tiny_schemas_{next(_PACKAGES)}"


def compiled(tmp_path: Path, text: str, name: str = "user", others: dict[str, str] | None = None,
             strict: bool = False):
    """The schema `text`, written as `<name>.ksy` in `tmp_path` (with `others`, the schemas it
    imports, by file name there) and loaded, and its codec module compiled in memory; `strict`,
    under this repository's rules (`Schema.strict`), as a format of ours."""
    for rel, body in {**(others or {}), f"{name}.ksy": text}.items():
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(body))
    (schema,), _ = load([tmp_path / f"{name}.ksy"], package_name(), (str(tmp_path),), strict=strict)
    return schema, load_modules([schema])[schema.module]


def _root_class(schema_id: str) -> str:
    """The class the official compiler's Python parser names a schema's root type by."""
    return "".join(part.capitalize() for part in schema_id.split("_"))


@contextlib.contextmanager
def _official_parser(tmp_path: Path, schema):
    """The official compiler's parser of `schema` (and of the schemas in `tmp_path` it imports),
    imported while the block runs: a call of `data` and the root's `params` gives its object."""
    from kaitaistruct import BytesIO, KaitaiStream

    with kaitai.loaded(kaitai.sources(tmp_path, [schema])) as import_module:
        root_class = getattr(import_module(schema.id), _root_class(schema.id))
        yield lambda data, *params: root_class(*params, KaitaiStream(BytesIO(data)))


def official(tmp_path: Path, schema, data: bytes, *params, read=lambda root: root):
    """What `read` finds in the official compiler's parser's object of `data` (the object itself
    unless told), its root given `params` first; `read` runs while the parser is imported, as an
    instance read on first use may need."""
    with _official_parser(tmp_path, schema) as parse:
        return read(parse(data, *params))


def official_error(tmp_path: Path, schema, data: bytes) -> str | None:
    """The name of the error the official compiler's parser raises on `data`, or None."""
    with _official_parser(tmp_path, schema) as parse:
        try:
            parse(data)
        except Exception as exc:  # the official runtime's errors share no base class of ours
            return type(exc).__name__
    return None
