"""Translate Kaitai expressions (generator.expr AST) into Python over construct's context.

A construct definition evaluates expressions in functions of the context, `lambda this: ...`.
Names are read by key (`this["items"]`: a Container's attributes would find its methods
first), a type's params are keys of its structure (`param_key`), `_parent` is the enclosing
structure's context (`this._`), `_index` the repetition's index, an enum literal is the
member's label (`_lc.label`: a parsed enum field is a label that is also its integer; `==` and
`!=` compare labels as text, so that a label given to build compares too), `.to_i` of an enum
goes through its IntEnum class. The rest (operators, built-in methods, `/` of integers as integer
division) is the codecs' own Python (`generator.pyexpr`), and what each part is the type
detector's (`generator.types`).

`base` is where the current type's context is, seen from the function: `this` in the
type's own structure, `this._` from a structure nested in it (a group of bit fields, or the
type a field's arguments are given to).
"""

from __future__ import annotations

from .. import expr as E
from ..pyexpr import PythonExpressions
from ..schema import TypeDef
from ..types import Names, head


class Scope(PythonExpressions):
    """The names of one type, and where its context is (`base`). What each name and expression
    is comes from the type detector (`names`); `_index` is known everywhere, as `this._index`."""

    def __init__(self, t: TypeDef, base: str, enum_class, model, extra: dict | None = None) -> None:
        self.t, self.base, self.enum_class, self.model = t, base, enum_class, model
        self.parent = model.holder(t)
        self.extra = extra or {}  # "_" (a valid rule's or repeat-until's element), as (code, type)
        self.names = Names(t, self.parent, objects=not t.schema.strict, navigates=model.navigates,
                           parents=model.parents, extra={"_index": "int", **{k: v[1] for k, v in self.extra.items()}})

    def fail(self, message: str):
        # What construct cannot say is refused before this back end runs, by the passes of its
        # limits (`passes/construct_limits.py`): reaching this is their bug, not the schema's.
        raise AssertionError(f"{self.t.schema.path}: {self.t.ypath or '(top)'}: {message} (not refused by the "
                             "construct passes)")

    def name(self, n: str) -> str:
        if n in self.extra:
            return self.extra[n][0]
        if n == "_index":
            return f"{self.base}._index"
        if n == "_root":
            return f"{self.base}._root"
        if n == "_parent":
            return f"{self.base}._"  # the enclosing structure's context
        self.names.of(n)  # known, or the detector says what is wrong
        if any(p.id == n for p in self.t.params):
            return f'{self.base}["{param_key(self.t, n)}"]'
        return f'{self.base}["{n}"]'

    def enum_member(self, enum, member: str) -> str:
        return f"_lc.label({self.enum_class(enum)}.{member})"

    def binary(self, node: E.Binary) -> str:
        if node.op in ("==", "!=") and isinstance(node.right, E.EnumLit):
            # a label is compared as text: a parsed enum field is its label, as is one given to build
            return f"({self.code(node.left)} {node.op} {node.right.value!r})"
        return super().binary(node)

    def to_int(self, code: str, ti) -> str:
        if head(ti) == "enum":
            return f"_lc.to_int({code}, {self.enum_class(ti[1])})"
        return f"int({code})"

    def member(self, code: str, t: TypeDef | None, name: str) -> str:
        """A name of a structure of type `t` (a value, or a context `code`): a field, an instance
        or a param (Kaitai shows a type's params as attributes of its values)."""
        if t is None:
            self.fail(f"`_parent.{name}`: the holder's type is not known")
        if t.field(name) is not None or any(i.id == name for i in t.instances):
            return f'{code}["{name}"]'
        if any(p.id == name for p in t.params):
            return f'{code}["{param_key(t, name)}"]'
        self.fail(f"`.{name}`: {t.name} has no field, instance or param {name!r}")

    def attr(self, node: E.Attr) -> str:
        if node.obj == E.Name("_io"):
            if node.name == "pos":
                return f"{self.base}._io.tell()"
            if node.name in ("size", "eof"):
                return f"_lc.io_{node.name}({self.base})"
            self.fail(f"`_io.{node.name}` has no construct translation")
        if node.name == "_parent":
            return f"{self.code(node.obj)}._"  # the enclosing structure's context
        if node.obj == E.Name("_parent"):  # this repository's schemas type only `_parent.x`, not `_parent`
            return self.member(self.code(node.obj), self.parent, node.name)
        return super().attr(node)


def param_key(t: TypeDef, name: str) -> str:
    """Where a type's param is kept in its structure: under its name in a user's schema (Kaitai
    shows params as attributes of values), hidden (`_p_<name>`) in this repository's, whose
    params are their holder's arguments and no part of the value."""
    return f"_p_{name}" if t.schema.strict else name


def translate(node, scope: Scope) -> str:
    return scope.translate(node)


def reads(node) -> set[str]:
    """The bare names an expression reads (fields, params, instances of its own type)."""
    return {n.name for n in E.walk(node) if isinstance(n, E.Name)} if node is not None else set()


def reads_parent_field(node, field_id: str) -> bool:
    """Whether an expression reads `_parent.<field_id>` (an element reading its list)."""
    return node is not None and any(isinstance(n, E.Attr) and n.obj == E.Name("_parent") and n.name == field_id
                                    for n in E.walk(node))
