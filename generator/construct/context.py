"""What the definitions of one construct module share while they are written.

`Module`: the schema, its model (the construct passes accepted it), the names of its types and
enums, and what its definitions use, gathered as they are written: construct's names, the
runtime's helpers, processors, other schemas' modules, and what construct cannot express (said
once each in the module's docstring). `TypeContext`: one type's plan and its expressions.
"""

from __future__ import annotations

from ..layout import TypePlan
from ..model import Model
from ..passes import checked
from ..passes.construct_limits import local_names
from ..schema import Schema, TypeDef
from .cexpr import Scope, translate
from .naming import cyclic_references, enum_classes


class Module:
    """One schema's construct module as it is written (see the module's docstring)."""

    def __init__(self, schema: Schema) -> None:
        self.schema = schema
        self.model: Model = checked(schema, "construct").model
        self.enum_classes = enum_classes(self.model.types)
        self.local_names = local_names(self.model.types)
        self.lazy = cyclic_references(schema, self.model.types)
        self.names: set[str] = set()  # construct's names used
        self.runtime = False  # uses logcodec.runtime.constructs (as `_lc`)
        self.processor_imports: set[tuple[str, str]] = set()  # (module, name)
        self.limits: dict[str, None] = {}  # what construct cannot express, in order, once each
        self.modules: dict[str, Schema] = {}  # imported schemas, by their module's name here

    def use(self, *names: str) -> None:
        """Note construct's names that a definition uses (the module imports them)."""
        self.names.update(names)

    def limit(self, text: str) -> None:
        """Note something construct cannot express here (the module's docstring says it, once)."""
        self.limits[text] = None

    def runtime_in(self, code: str) -> str:
        """`code`, noting the runtime's helpers where it calls them."""
        if "_lc." in code:
            self.runtime = True
        return code

    def module_alias(self, schema: Schema) -> str:
        """The name under which another schema's module is imported here."""
        self.modules[schema.id] = schema
        return schema.id

    def enum_class(self, enum) -> str:
        """The class of an enum, through its module where another schema defines it."""
        if enum.owner.schema is not self.schema:
            return f"{self.module_alias(enum.owner.schema)}.{Module(enum.owner.schema).enum_classes[id(enum)]}"
        return self.enum_classes[id(enum)]

    def type_name(self, t: TypeDef) -> str:
        """The module-level name of a type in its own module: its construct, or with params the
        function making it."""
        if t is t.schema.root:
            return f"make_{t.name}" if t.params else t.name
        if t.schema is not self.schema:
            return Module(t.schema).local_names[id(t)]
        return self.local_names[id(t)]


class TypeContext:
    """One type of a module as its definition is written: its plan (`Model.plan`), and its
    expressions translated over construct's context (`cexpr`)."""

    def __init__(self, module: Module, t: TypeDef) -> None:
        self.m, self.t = module, t
        self.plan: TypePlan = module.model.plan(t)

    def scope(self, base: str = "this", extra: dict | None = None) -> Scope:
        """The type's names as a function sees them, its context at `base`."""
        return Scope(self.t, base, self.m.enum_class, self.m.model, extra)

    def expr(self, node, base: str = "this", extra: dict | None = None) -> str:
        """An expression of the type, as Python over its context at `base`."""
        return self.m.runtime_in(translate(node, self.scope(base, extra)))

    def fn(self, node, base: str = "this") -> str:
        """An expression as a function of the context (what construct calls)."""
        return f"lambda this: {self.expr(node, base)}"
