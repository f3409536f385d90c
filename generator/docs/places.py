"""Where things are on the docs site: a type's section on its page (`anchor`), a link to it from any
page (`type_href`), an enum's section, and a schema's own YAML at an IR path (`raw_at`). The pages
(`docs/__init__.py`) and their diagrams (`diagram.py`) both link by these."""

from __future__ import annotations

import re

from ..schema import Schema, TypeDef


def raw_at(raw, ypath: str):
    """The schema's own YAML at an IR `ypath` (`types.record.seq[4]`)."""
    for part in re.findall(r"[^.\[\]]+|\[\d+\]", ypath):
        raw = raw[int(part[1:-1])] if part.startswith("[") else raw[part]
    return raw


def anchor(t: TypeDef) -> str:
    """The id of a type's section on its page (`type-record`, `type-batch-record` for a nested one)."""
    chain = []
    while t.parent is not None:
        chain.append(t.name)
        t = t.parent
    return "type-" + ("-".join(reversed(chain)) or t.name)


def type_href(t: TypeDef, page: Schema) -> str:
    """A link to a type's section: on this page, or on the page of the schema that defines it (a
    building block, which has no page, at its YAML beside the pages)."""
    if t.schema is page:
        return "#" + anchor(t)
    if not t.schema.is_format:
        return f"../{t.schema.path}"
    return f"../{t.schema.family}/{t.schema.id}.html#{anchor(t)}"


def enum_anchor(e) -> str:
    """The id of an enum's section on its page."""
    return "enum-" + anchor(e.owner)[5:] + "-" + e.name
