"""Translate Kaitai expressions (generator.expr AST) into Python over construct's context.

A construct definition evaluates expressions in functions of the context, `lambda this: ...`.
Names are read by key (`this["items"]`: a Container's attributes would find its methods
first), a type's params are keys of its structure (`param_key`), `_parent` is the enclosing
structure's context (`this._`), `_index` the repetition's index, an enum literal is the
member's label (`_lc.label`: a parsed enum field is a label that is also its integer; `==` and
`!=` compare labels as text, so that a label given to build compares too), `.to_i` of an enum
goes through its IntEnum class, `/` is integer division.

`base` is where the current type's context is, seen from the function: `this` in the
type's own structure, `this._` from a structure nested in it (a group of bit fields, or the
type a field's arguments are given to).
"""

from __future__ import annotations

import re

from .. import expr as E
from ..python.translate import field_tinfo, instance_tinfo
from ..schema import SchemaError, TypeDef, lookup_enum, lookup_type

_BINARY = {"and": "and", "or": "or", "/": "//"}
_COMPARISONS = {"==", "!=", "<", "<=", ">", ">=", "and", "or"}


class Scope:
    """The names of one type, and where its context is (`base`)."""

    def __init__(self, t: TypeDef, base: str, enum_class, parent_of, extra: dict | None = None) -> None:
        self.t, self.base, self.enum_class, self.parent_of = t, base, enum_class, parent_of
        self.parent = parent_of(t)
        self.extra = extra or {}  # "_" (a valid rule's or repeat-until's element), as (code, type)

    def fail(self, message: str):
        raise SchemaError(f"{self.t.schema.path}: {self.t.ypath or '(top)'}: {message}")

    def name(self, n: str):
        if n in self.extra:
            return self.extra[n]
        if n == "_index":
            return f"{self.base}._index", "int"
        if n == "_root":
            root = self.t
            while root.parent is not None:
                root = root.parent
            return f"{self.base}._root", ("user", root)
        for p in self.t.params:
            if p.id == n:
                return f'{self.base}["{param_key(self.t, n)}"]', param_tinfo(self.t, p)
        f = self.t.field(n)
        if f is not None:
            return f'{self.base}["{n}"]', field_tinfo(f)
        for inst in self.t.instances:
            if inst.id == n:
                return f'{self.base}["{n}"]', instance_tinfo(inst)
        self.fail(f"unknown name {n!r} in an expression")


def param_key(t: TypeDef, name: str) -> str:
    """Where a type's param is kept in its structure: under its name in a user's schema (Kaitai
    shows params as attributes of values), hidden (`_p_<name>`) in this repository's, whose
    params are their holder's arguments and no part of the value."""
    return f"_p_{name}" if t.schema.strict else name


def param_tinfo(t: TypeDef, p):
    """A param's static type, from its `type`: a user type, a list (`[]`), text, bytes, a bool
    or (anything else) an integer."""
    name = p.type_name.strip()
    if name.endswith("[]"):
        inner = type("P", (), {"type_name": name[:-2]})
        return ("list", param_tinfo(t, inner))
    if name in ("bool", "str", "bytes"):
        return name
    target, _ = lookup_type(t, name) if name and not re.match(r"^([us][1248]|f[48]|b[0-9]+)(be|le)?$", name) else (None, "")
    return ("user", target) if target is not None else "int"


def translate(node, scope: Scope) -> str:
    return _tr(node, scope)[0]


def _tr(node, scope: Scope):
    if isinstance(node, E.Num):
        return repr(node.value), "int"
    if isinstance(node, E.Str):
        return repr(node.value), "str"
    if isinstance(node, E.Bool):
        return repr(node.value), "bool"
    if isinstance(node, E.Name):
        return scope.name(node.name)
    if isinstance(node, E.EnumLit):
        enum = lookup_enum(scope.t, node.enum)
        if enum is None or node.value not in enum.members.values():
            scope.fail(f"unknown enum member {node.enum}::{node.value}")
        return f"_lc.label({scope.enum_class(enum)}.{node.value})", ("enum", enum)
    if isinstance(node, E.Unary):
        code, ti = _tr(node.operand, scope)
        return (f"(not {code})", "bool") if node.op == "not" else (f"({node.op}{code})", ti)
    if isinstance(node, E.Binary) and node.op in ("==", "!=") and isinstance(node.right, E.EnumLit):
        # a label is compared as text: a parsed enum field is its label, as is one given to build
        left, _ = _tr(node.left, scope)
        _tr(node.right, scope)  # checks the member
        return f"({left} {node.op} {node.right.value!r})", "bool"
    if isinstance(node, E.Binary):
        left, lt = _tr(node.left, scope)
        right, _ = _tr(node.right, scope)
        ti = "bool" if node.op in _COMPARISONS else lt
        return f"({left} {_BINARY.get(node.op, node.op)} {right})", ti
    if isinstance(node, E.Ternary):
        cond, _ = _tr(node.cond, scope)
        then, ti = _tr(node.then, scope)
        other, _ = _tr(node.other, scope)
        return f"({then} if {cond} else {other})", ti
    if isinstance(node, E.Cast):
        code, ti = _tr(node.obj, scope)
        if re.match(r"^[us][1248](be|le)?$", node.type_name):
            return code, "int"
        if node.type_name in ("str", "bytes", "bool"):
            return code, node.type_name
        target, _ = lookup_type(scope.t, node.type_name)
        return (code, ("user", target)) if target is not None else (code, ti)
    if isinstance(node, E.Index):
        code, ti = _tr(node.obj, scope)
        index, _ = _tr(node.index, scope)
        return f"{code}[{index}]", ti[1] if isinstance(ti, tuple) and ti[0] == "list" else "int"
    if isinstance(node, E.ArrayLit):
        if node.items and all(isinstance(i, E.Num) and isinstance(i.value, int) and 0 <= i.value <= 255
                              for i in node.items):
            return repr(bytes(i.value for i in node.items)), "bytes"
        return f"[{', '.join(_tr(i, scope)[0] for i in node.items)}]", ("list", "int")
    if isinstance(node, E.Attr):
        return _attr(node, scope)
    if isinstance(node, E.Call):
        return _call(node, scope)
    scope.fail(f"unsupported expression {node!r}")


def _call(node: E.Call, scope: Scope):
    code, ti = _tr(node.obj, scope)
    args = [_tr(a, scope)[0] for a in node.args]
    if ti == "bytes" and node.name == "to_s" and len(args) == 1:
        return f"str({code}, {args[0]})", "str"
    if ti == "str" and node.name == "to_i" and len(args) <= 1:
        return f"int({code}{', ' + args[0] if args else ''})", "int"
    if ti == "str" and node.name == "substring" and len(args) == 2:
        return f"{code}[{args[0]}:{args[1]}]", "str"
    scope.fail(f"`.{node.name}(...)` on a {ti} has no construct translation")


def _attr(node: E.Attr, scope: Scope):
    if node.obj == E.Name("_io"):
        if node.name == "pos":
            return f"{scope.base}._io.tell()", "int"
        if node.name in ("size", "eof"):
            return f"_lc.io_{node.name}({scope.base})", "int" if node.name == "size" else "bool"
        scope.fail(f"`_io.{node.name}` has no construct translation")
    if node.obj == E.Name("_parent") or (isinstance(node.obj, E.Attr) and node.obj.name == "_parent"):
        code, parent = _parent(node.obj, scope)
        if node.name == "_parent":
            return f"{code}._", ("context", scope.parent_of(parent))
        return _member(code, parent, node.name, scope)
    code, ti = _tr(node.obj, scope)
    name = node.name
    if isinstance(ti, tuple) and ti[0] == "context":
        return _member(code, ti[1], name, scope)
    if name == "to_i":
        if isinstance(ti, tuple) and ti[0] == "enum":
            return f"_lc.to_int({code}, {scope.enum_class(ti[1])})", "int"
        return f"int({code})", "int"
    if ti == "int" and name == "to_s":
        return f"str({code})", "str"
    if ti == "str" and name == "reverse":
        return f"{code}[::-1]", "str"
    if ti == "bytes" and name in ("first", "last", "min", "max"):
        return {"first": f"{code}[0]", "last": f"{code}[-1]", "min": f"min({code})", "max": f"max({code})"}[name], "int"
    if isinstance(ti, tuple) and ti[0] == "list":
        if name in ("size", "length"):
            return f"len({code})", "int"
        if name in ("first", "last"):
            return f"{code}[{0 if name == 'first' else -1}]", ti[1]
        if name in ("min", "max"):
            return f"{name}({code})", ti[1]
    if ti in ("bytes", "str") and name in ("size", "length"):
        return f"len({code})", "int"
    if ti == "int" and name == "value":
        return code, "int"  # a varint primitive is its value
    if isinstance(ti, tuple) and ti[0] == "user":
        t: TypeDef = ti[1]
        if t.unwrap and name == t.seq[0].id:
            return code, field_tinfo(t.seq[0])  # an unwrapped type's value is its single field
        return _member(code, t, name, scope)
    shown = ti[0] + " " + getattr(ti[1], "name", str(ti[1])) if isinstance(ti, tuple) else ti
    scope.fail(f"cannot translate `.{name}` on a {shown}")


def _parent(node, scope: Scope):
    """`_parent`, `_parent._parent`, ...: the context's code and the type it belongs to."""
    if not isinstance(node, E.Attr) and node != E.Name("_parent"):
        scope.fail("`._parent` of a value has no construct translation (only `_parent` of the structure)")
    if node == E.Name("_parent"):
        if scope.parent is None:
            scope.fail("`_parent` in a type that no type holds")
        return f"{scope.base}._", scope.parent
    code, t = _parent(node.obj, scope)
    up = scope.parent_of(t)
    if up is None:
        scope.fail(f"`_parent._parent`: no type holds {t.name}")
    return f"{code}._", up


def _member(code: str, t: TypeDef | None, name: str, scope: Scope):
    """A name of a structure of type `t` (a value, or a context `code`): a field, an instance or a
    param (Kaitai shows a type's params as attributes of its values)."""
    if t is None:
        scope.fail(f"`_parent.{name}`: the holder's type is not known")
    f = t.field(name)
    if f is not None:
        return f'{code}["{name}"]', field_tinfo(f)
    inst = next((i for i in t.instances if i.id == name), None)
    if inst is not None:
        return f'{code}["{name}"]', instance_tinfo(inst)
    p = next((p for p in t.params if p.id == name), None)
    if p is not None:
        return f'{code}["{param_key(t, name)}"]', param_tinfo(t, p)
    scope.fail(f"`.{name}`: {t.name} has no field, instance or param {name!r}")


def reads(node) -> set[str]:
    """The bare names an expression reads (fields, params, instances of its own type)."""
    return {n.name for n in E.walk(node) if isinstance(n, E.Name)} if node is not None else set()


def reads_parent_field(node, field_id: str) -> bool:
    """Whether an expression reads `_parent.<field_id>` (an element reading its list)."""
    return node is not None and any(isinstance(n, E.Attr) and n.obj == E.Name("_parent") and n.name == field_id
                                    for n in E.walk(node))
