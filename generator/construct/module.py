"""A schema's construct module: its docstring (with what construct cannot express there), its
imports (only what its definitions use), an `IntEnum` per enum, and a definition per type, each
after the types it uses, the root last under the schema's id (`templates/module.py.j2`).

A type without params is a constant; with params, a function of them that makes its construct
(each param a function of the context of the structure being read). A root with params is also
made once under the schema's id, its params read from the keywords of `parse` and `build`.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import jinja2

from ..schema import Schema, TypeDef
from .context import Module
from .naming import definition_order
from .structs import TypeEmitter
from .text import WIDTH, comment, docstring_body, import_list, indent_rest

TEMPLATES = jinja2.Environment(
    loader=jinja2.FileSystemLoader(Path(__file__).parent / "templates"),
    undefined=jinja2.StrictUndefined, keep_trailing_newline=True, trim_blocks=True, lstrip_blocks=True,
)


class ModuleEmitter:
    """The construct module of one schema (see the module's docstring)."""

    def __init__(self, schema: Schema) -> None:
        self.schema = schema
        self.module = Module(schema)

    def render(self, header: str) -> str:
        """The module's source, under `header`."""
        m, schema = self.module, self.schema
        definitions = [self.definition(t) for t in definition_order(schema, m.model.types)]
        enums = [{"name": m.enum_classes[id(e)], "members": [(n, v) for v, n in e.members.items()],
                  "doc": f'    """{e.name} of {t.name}."""'}
                 for t in m.model.types for e in t.enums.values()]
        runtime = ["from logcodec.runtime import constructs as _lc"] if m.runtime else []
        runtime += [f"from {module} import {name}" + ("" if name == "UserProcessor" else f" as _fx_{name}")
                    for module, name in sorted(m.processor_imports)]
        return TEMPLATES.get_template("module.py.j2").render(
            header=header, title=schema.title, shown=schema.shown, root=schema.id,
            doc=schema.doc + (f"\n\nSee {schema.doc_ref}" if schema.doc_ref else ""),
            root_params=", ".join(f"{p.id}=..." for p in schema.root.params), limits=list(m.limits), enums=enums,
            imports=[self.import_line(s) for _, s in sorted(m.modules.items())],
            runtime="\n".join(runtime), construct_names=import_list(sorted(m.names)), definitions=definitions,
        )

    def import_line(self, schema: Schema) -> str:
        """The import of another schema's module: beside this one, or in its family's package."""
        if schema.family == self.schema.family:
            return f"from . import {schema.id}"
        return f"from ..{schema.family} import {schema.id}"

    def definition(self, t: TypeDef) -> str:
        """A type's definition, after its doc: a constant, or a function of its params."""
        body = TypeEmitter(self.module, t).construct()
        doc = t.doc + (f"\n\nSee {t.doc_ref}" if t.doc_ref else "")
        name = self.module.type_name(t)
        if not t.params:
            return "\n".join([*comment(doc, ""), f"{name} = {body}"])
        args = ", ".join(p.id for p in t.params)
        pdoc = "\n".join(textwrap.fill(f"{p.id}: {' '.join(p.doc.split())}", WIDTH, initial_indent="    ",
                                        subsequent_indent="        ") for p in t.params)
        text = (f'def {name}({args}):\n    """{docstring_body(doc, "    ")}\n\n    Params, each a function of the '
                f'context of the structure being read (`this._` is its holder\'s):\n{pdoc}\n    """\n'
                f'    return {indent_rest(body, "    ")}')
        if t is t.schema.root:
            defaults = ", ".join(root_param(p) for p in t.params)
            text += (f"\n\n\n# The root, its params given as keywords of parse and build"
                     f"{' (or their defaults)' if any(p.default is not None for p in t.params) else ''}.\n"
                     f"{t.name} = {name}({defaults})")
        return text


def root_param(p) -> str:
    """A root's param, read from the keywords of `parse` and `build` (or its default)."""
    if p.default is not None:
        return f'lambda this: this._.get("{p.id}", {p.default!r})'
    return f'lambda this: this._["{p.id}"]'
