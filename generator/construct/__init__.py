"""The construct back end: construct 2.10 definitions of a schema, from the same IR, model and
plans as the Python codecs (`logcodec generate` writes them to
`generated/construct/<family>/<id>.py`, `logcodec compile --target construct` to a package of
the user's).

One module per schema. Each type becomes a construct: a `Struct` (a `FocusedSeq` for an
unwrapped type, a `BitStruct` for a type of bit fields only), a constant when it has no params,
else a function of the params (each a function of the holder's context); the root is exposed
under the schema's id. The `-lc-` keys map to construct's own means: `-lc-size-of` and
`-lc-count-of` to `Rebuild`, `-lc-default` and `-lc-present` to `Default`, `-lc-checksum` to a
`Checksum` written by a `Pointer` at the end of its range (the bytes it covers come after it).
`process:` goes through the processor `logcodec.processors` names (`constructs.Processed`). What construct
cannot say is listed in each module's docstring and at the field concerned; what it cannot
translate at all, the passes of its limits (`passes/construct_limits.py`) refuse before it runs.

The layout of each type (its ranges, its runs of bit fields) is the plan's (`Model.plan`,
`layout.py`), which the Python codecs read too. The modules, by concern: `module.py` (a
schema's module), `structs.py` (a type), `fields.py` (a field), `bits.py` (bit runs),
`derived.py` (derived fields), `checksums.py`, `instances.py`; `context.py` (what a module's
definitions share), `naming.py`, `text.py` (how the source is laid out), `cexpr.py`
(expressions).

The back end knows Kaitai constructs and the `-lc-` keys, never a format.
"""

from __future__ import annotations

from ..schema import Schema
from ..walk import schema_closure
from .module import ModuleEmitter


def render_module(schema: Schema, header: str) -> str:
    """The construct module of one schema."""
    return ModuleEmitter(schema).render(header)


def render_generated(schemas: list[Schema], header: str) -> dict[str, str]:
    """The files of `generated/construct/`: a module per schema, by family; not yet for a format
    that imports building blocks (the message specs' frames: their 175 messages' modules, in a
    folder of their own, are still to come)."""
    files = {"construct/__init__.py": header + '"""construct 2.10 definitions of every format, by family '
             '(ARCHITECTURE.md, "The construct back end")."""\n'}
    families: dict[str, list[Schema]] = {}
    for schema in schemas:
        if not all(s.is_format or s.root.primitive for s in schema_closure(schema)):
            continue
        families.setdefault(schema.family, []).append(schema)
        files[f"construct/{schema.family}/{schema.id}.py"] = render_module(schema, header)
    for family, members in families.items():
        names = ", ".join(repr(s.id) for s in members)
        files[f"construct/{family}/__init__.py"] = (header + f'"""construct definitions of the {family} family."""'
                                                    f"\n\n__all__ = [{names}]\n")
    return files


def render_package(schemas: list[Schema], header: str) -> dict[str, str]:
    """The files of a package of `logcodec compile --target construct`: a module per schema."""
    files = {f"{s.id}.py": render_module(s, header) for s in schemas}
    names = ", ".join(repr(s.id) for s in schemas)
    files["__init__.py"] = (header + f'"""construct 2.10 definitions compiled from {len(schemas)} Kaitai Struct '
                            f'schema(s): each module exposes its root under the schema\'s id."""\n\n'
                            f"__all__ = [{names}]\n")
    return files
