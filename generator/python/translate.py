"""Translate Kaitai expressions (generator.expr AST) into Python source.

Every expression is translated in a `Scope`: the type it belongs to and how
names map to the local variables of the generated function. The translator
tracks a static type for each sub-expression ("int", "bool", "bytes", "str",
("enum", Enum), ("user", TypeDef), ("list", elem)) so that `.size`, `.to_i`,
`.last`, enum literals and primitive `.value` accessors become plain Python.
"""

from __future__ import annotations

import codecs
import re

from .. import expr as E
from ..schema import (Field, SchemaError, TypeDef, TypeRef, field_static_bits, lookup_enum, lookup_type, static_bits,
                     type_sites)

_PY_BINARY = {"and": "and", "or": "or", "/": "//"}


def field_tinfo(f: Field):
    """The static type of a field's value as the value model holds it."""
    single = ref_tinfo(f.type, f)
    return ("list", single) if f.repeat else single


def ref_tinfo(ref: TypeRef, f: Field | None = None):
    if f is not None and f.enum is not None:
        return ("enum", f.enum)
    if ref.kind in ("int", "float"):
        return ref.kind
    if ref.kind == "bits":
        return "bool" if ref.size == 1 else "int"
    if ref.kind in ("bytes", "str"):
        return ref.kind
    if ref.kind == "user":
        if ref.user.primitive:
            return "int"
        return ("user", ref.user)
    return "any"


class Scope:
    """Maps the names an expression may read to Python code.

    `objects` (a user's schema): `_io`, `_parent` and `_root` are objects, as in Kaitai's
    parsers (`Nav`); else `_parent.x` is a value the holder passes and `_io.pos` the only
    stream property (this repository's codecs)."""

    def __init__(self, t: TypeDef, enum_class, parent: TypeDef | None = None, objects: "Nav | None" = None,
                 encoding: bool = False) -> None:
        self.t = t
        self.enum_class = enum_class  # Enum -> Python class name
        self.parent = parent  # the type that holds this one, for `_parent.x`
        self.objects = objects
        self.encoding = encoding
        self.extra: dict[str, tuple[str, object]] = {}  # "_", "_index"

    def name(self, n: str):
        if n in self.extra:
            return self.extra[n]
        if self.objects is not None and n in ("_parent", "_root", "_io"):
            return self.objects.name(self, n)
        for p in self.t.params:
            if p.id == n:
                return f"p_{n}", ("enum", p.enum) if p.enum is not None else param_tinfo(self.t, p.type_name)
        f = self.t.field(n)
        if f is not None:
            return f"v_{n}", field_tinfo(f)
        for inst in self.t.instances:
            if inst.id == n:
                return f"i_{n}", instance_tinfo(inst)
        raise SchemaError(f"{self.t.schema.path}: {self.t.ypath or '(top)'}: unknown name {n!r} in an expression")


def parent_tinfo(scope: Scope, name: str):
    parent = scope.parent
    if parent is None:
        raise SchemaError(f"{scope.t.schema.path}: {scope.t.ypath}: `_parent` in a type that has no single parent type")
    f = parent.field(name)
    if f is not None:
        return field_tinfo(f)
    for inst in parent.instances:
        if inst.id == name:
            return instance_tinfo(inst)
    raise SchemaError(f"{scope.t.schema.path}: {scope.t.ypath}: `_parent.{name}`: {parent.name} has no field {name!r}")


def parent_names(t: TypeDef, encoding: bool = False) -> list[str]:
    """The names a type reads through `_parent.x`, in a stable order.

    A decoder needs the names its reading expressions use; an encoder also those of
    the write-side `-lc-default` and `-lc-count-of` expressions.
    """
    found: set[str] = set()

    def walk(node):
        found.update(n.name for n in E.walk(node) if isinstance(n, E.Attr) and n.obj == E.Name("_parent"))

    for f in [*t.seq, *(i.field for i in t.instances if i.field is not None)]:
        for e in f.expressions(write_side=encoding):
            walk(e)
    for inst in t.instances:
        for e in (inst.value, inst.pos):
            if e is not None:
                walk(e)
    return sorted(found)


_inferring: set[int] = set()  # value instances whose type is being inferred (one may read another)


def _inference_nav(t: TypeDef):
    """Kaitai's objects for inferring a type (their holders unknown here): a user's schema only."""
    return None if t.schema.strict else Nav({}, True)


def instance_tinfo(inst):
    if inst.field is not None:
        return field_tinfo(inst.field)
    if inst.enum:
        return ("enum", inst.enum)
    guess = "bool" if value_kind(inst.value)["kind"] == "bool" else "int"
    if inst.owner is None or id(inst) in _inferring:
        return guess
    _inferring.add(id(inst))
    try:  # what its expression gives, as the translator types it (text, bytes, a list, a type ...)
        return _tr(inst.value, Scope(inst.owner, lambda enum: enum.name, None, _inference_nav(inst.owner)))[1]
    except SchemaError:  # reads what only the emitter resolves (`_parent`): the syntactic guess
        return guess
    finally:
        _inferring.discard(id(inst))


def instance_meta(inst) -> dict:
    """The value model's kind of a value instance (not an enum one): its inferred type."""
    ti = instance_tinfo(inst)
    if isinstance(ti, tuple) and ti[0] == "list":
        element = _meta_of(ti[1])
        return {**element, "list": True} if element else value_kind(inst.value)
    return _meta_of(ti) or value_kind(inst.value)


def _meta_of(ti) -> dict | None:
    if ti in ("str", "bytes", "bool", "float"):
        return {"kind": ti}
    if isinstance(ti, tuple) and ti[0] == "user" and not ti[1].unwrap and not ti[1].primitive:
        return {"kind": "user", "type": ti[1].class_name}
    return None  # an integer (or an enum read as one): value_kind says how wide


_BOOLEAN_OPS = {"==", "!=", "<", "<=", ">", ">=", "and", "or"}


def value_kind(node) -> dict:
    """The value model's kind of a value instance, read off its expression: a truth value,
    a 64-bit integer (`.as<u8>`, shown as a string in JSON like a u8 field) or an integer."""
    if isinstance(node, E.Ternary):
        return value_kind(node.then)
    if isinstance(node, E.Bool) or (isinstance(node, E.Unary) and node.op == "not") or (
            isinstance(node, E.Binary) and node.op in _BOOLEAN_OPS):
        return {"kind": "bool"}
    if isinstance(node, E.Cast) and node.type_name in ("u8", "s8"):
        return {"kind": "int", "wide": True}
    return {"kind": "int", "wide": False}


def reads_bits_one_by_one(t: TypeDef) -> bool:
    """A type with a bit field that is repeated, conditional or processed reads all its bit fields
    as Kaitai's streams do, one after the other from a buffer of bits, not in whole-byte groups."""
    return not t.schema.strict and any(
        f.type.kind == "bits" and (f.if_expr is not None or f.repeat or f.size is not None or f.process) for f in t.seq)


def param_tinfo(t: TypeDef, type_name: str):
    """The static type of a param, from its declared type."""
    name = type_name.strip()
    if name.endswith("[]"):
        return ("list", param_tinfo(t, name[:-2]))
    if name in ("bool", "str", "bytes", "io"):
        return name
    if re.match(r"^b1(be|le)?$", name):  # one bit is a truth value, as a b1 field's
        return "bool"
    if re.match(r"^f[48](be|le)?$", name):
        return "float"
    if name in ("", "struct", "any"):
        return "any" if name else "int"
    if re.match(r"^[us][1248](be|le)?$", name) or re.match(r"^b[0-9]+(be|le)?$", name):
        return "int"
    target, _ = lookup_type(t, name)
    if target is None:
        raise SchemaError(f"{t.schema.path}: {t.ypath or '(top)'}: unknown param type {type_name!r}")
    return ("user", target)


class Nav:
    """Kaitai's objects in the expressions of a user's schema. The decoder of a type holds
    `io0` (where its stream starts), `end` (where it ends) and `pos`; with `navigates`, also
    `parent` and `root` (`Node`s of the values being read, or the values being written)."""

    def __init__(self, parents: dict, navigates: bool) -> None:
        self.parents = parents  # type name -> the single type that holds it, or None
        self.navigates = navigates

    def parent_of(self, t: TypeDef):
        p = self.parents.get(t.name)
        return ("user", p) if p is not None else "kstruct"  # held by several types, or none: cast it

    def name(self, scope: Scope, n: str):
        if n == "_io":
            if scope.encoding:
                return "_rt.stream_only('_io', '')", "io"
            return "_rt.KStream(buf, io0, end, pos)", "io"
        if not self.navigates:
            raise SchemaError(f"{scope.t.schema.path}: {scope.t.ypath or '(top)'}: `{n}` is not known here")
        if n == "_parent":
            return "parent", self.parent_of(scope.t)
        return "root", ("user", scope.t.schema.root)

    def stream(self, scope: Scope, name: str):
        """`_io.pos`, `_io.size`, `_io.eof` of the type being read."""
        if scope.encoding:
            return f"_rt.stream_only('_io.{name}', '')", "bool" if name == "eof" else "int"
        eof = "(bl == 0 and pos >= end)" if reads_bits_one_by_one(scope.t) else "(pos >= end)"
        code = {"pos": "(pos - io0)", "size": "(end - io0)", "eof": eof}.get(name)
        if code is None:
            raise SchemaError(f"{scope.t.schema.path}: {scope.t.ypath or '(top)'}: a stream has no `.{name}`")
        return code, "bool" if name == "eof" else "int"


def translate(node, scope: Scope) -> str:
    return _tr(node, scope)[0]


def type_of(node, scope: Scope):
    """What an expression gives: "int", "str", "bytes", ("list", element), ("user", type), ..."""
    return _tr(node, scope)[1]


def _tr(node, scope: Scope):
    if isinstance(node, E.SizeOf):
        target, _ = lookup_type(scope.t, node.type_name)
        if target is None:
            raise SchemaError(f"{scope.t.schema.path}: {scope.t.ypath or '(top)'}: unknown type {node.type_name!r}")
        return _fixed_size(static_bits(target), node.bits, f"{node.type_name}", scope), "int"
    if isinstance(node, E.Name) and node.name == "_sizeof":
        return _fixed_size(static_bits(scope.t), False, scope.t.name, scope), "int"
    if isinstance(node, E.Attr) and node.name == "_sizeof":
        return _fixed_size(field_static_bits(_field_of(node.obj, scope)), False, "that field", scope), "int"
    if isinstance(node, E.Num):
        return repr(node.value), "float" if isinstance(node.value, float) else "int"
    if isinstance(node, E.Str):
        return repr(node.value), "str"
    if isinstance(node, E.Bool):
        return repr(node.value), "bool"
    if isinstance(node, E.Name):
        return scope.name(node.name)
    if isinstance(node, E.EnumLit):
        enum = _find_enum(scope.t, node.enum)
        if node.value not in enum.members.values():
            raise SchemaError(f"{scope.t.schema.path}: enum {enum.name} has no member {node.value!r}")
        return f"{scope.enum_class(enum)}.{node.value}", ("enum", enum)
    if isinstance(node, E.Unary):
        code, ti = _tr(node.operand, scope)
        if node.op == "not":
            if ti not in ("bool", "any"):
                raise SchemaError(f"{_where(scope)}: `not` of a {_shown(ti)} (a truth value is needed)")
            return f"(not {code})", "bool"
        return f"({node.op}{code})", ti
    if isinstance(node, E.Binary):
        left, lt = _tr(node.left, scope)
        right, rt = _tr(node.right, scope)
        op = _PY_BINARY.get(node.op, node.op)
        if node.op in ("==", "!=", "<", "<=", ">", ">="):
            if not comparable(lt, rt):
                raise SchemaError(f"{_where(scope)}: cannot compare a {_shown(lt)} and a {_shown(rt)}")
            if node.op not in ("==", "!=") and "enum" in (_head(lt), _head(rt)):
                raise SchemaError(f"{_where(scope)}: `{node.op}` on enums (compare their .to_i)")
            return f"({left} {op} {right})", "bool"
        if node.op in ("and", "or"):
            return f"({left} {op} {right})", "bool"
        if "float" in (lt, rt):  # Kaitai's arithmetic: float when either side is; `/` divides exactly then
            return f"({left} {node.op} {right})", "float"
        return f"({left} {op} {right})", lt
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
        target, _ = lookup_type(scope.t, node.type_name)  # `.as<other::its_type>`: read on as that type
        return (code, ("user", target)) if target is not None else (code, ti)
    if isinstance(node, E.Index):
        code, ti = _tr(node.obj, scope)
        index, _ = _tr(node.index, scope)
        elem = ti[1] if isinstance(ti, tuple) and ti[0] == "list" else "int"
        return f"{code}[{index}]", elem
    if isinstance(node, E.ArrayLit):
        if node.items and all(isinstance(i, E.Num) and isinstance(i.value, int) and 0 <= i.value <= 255
                              for i in node.items):
            return repr(bytes(i.value for i in node.items)), "bytes"  # a byte array, as Kaitai types it
        items = [_tr(i, scope)[0] for i in node.items]
        return f"[{', '.join(items)}]", ("list", "int")
    if isinstance(node, E.FString):  # text as is, numbers in decimal
        parts = [_tr(part, scope)[0] for part in node.parts]
        return ("(" + " + ".join(f"str({p})" for p in parts) + ")") if parts else "''", "str"
    if isinstance(node, E.Attr):
        return _attr(node, scope)
    if isinstance(node, E.Call):
        return _call(node, scope)
    raise SchemaError(f"unsupported expression node {node!r}")


def _fixed_size(bits: int | None, in_bits: bool, what: str, scope: Scope) -> str:
    """Kaitai's sizes are known when the schema is compiled: a literal, or an error."""
    if bits is None:
        raise SchemaError(f"{scope.t.schema.path}: {scope.t.ypath or '(top)'}: the size of {what} depends on the "
                          "data (sizeof and _sizeof need a fixed size)")
    return str(bits if in_bits else -(-bits // 8))


def _field_of(node, scope: Scope) -> Field:
    """The field a path names (`block1.a`), for `._sizeof`."""
    if isinstance(node, E.Name):
        f = scope.t.field(node.name)
    elif isinstance(node, E.Attr):
        _, ti = _tr(node.obj, scope)
        f = ti[1].field(node.name) if isinstance(ti, tuple) and ti[0] == "user" else None
    else:
        f = None
    if f is None:
        raise SchemaError(f"{scope.t.schema.path}: {scope.t.ypath or '(top)'}: `._sizeof` needs a path to a field")
    return f


def _where(scope: Scope) -> str:
    return f"{scope.t.schema.path}: {scope.t.ypath or '(top)'}"


def _head(ti) -> str:
    return ti[0] if isinstance(ti, tuple) else ti


def _shown(ti) -> str:
    if isinstance(ti, tuple):
        return f"{ti[0]} {ti[1].name if hasattr(ti[1], 'name') else _shown(ti[1])}"
    return {"kstruct": "structure of unknown type", "io": "stream"}.get(ti, ti)


def comparable(a, b) -> bool:
    """Whether Kaitai compares values of these types: numbers with numbers, an enum with its
    own enum, text with text and so on; a type known only at run time with anything."""
    if "any" in (a, b) or "kstruct" in (a, b):
        return True
    if a in ("int", "float") and b in ("int", "float"):
        return True
    if _head(a) == "enum" and _head(b) == "enum":
        return a[1] is b[1]
    if _head(a) in ("user", "list") and _head(a) == _head(b):
        return True
    return a == b


def remote_lengths(node, scope: Scope) -> list[tuple[str, E.Attr]]:
    """The `-lc-derived` fields of other types that an expression reads, as (code, node)."""
    found = []
    for n in E.walk(node):
        if isinstance(n, E.Attr) and n.obj != E.Name("_parent") and n.obj != E.Name("_io"):
            _, ti = _tr(n.obj, scope)
            f = ti[1].field(n.name) if isinstance(ti, tuple) and ti[0] == "user" else None
            if f is not None and f.filled_remotely:
                found.append((translate(n, scope), n))
    return found


def path_root(node) -> str | None:
    """`x` for a path `_parent.x.y[i].z`; None for any other expression."""
    while isinstance(node, (E.Attr, E.Index)):
        if isinstance(node, E.Attr) and node.obj == E.Name("_parent"):
            return node.name
        node = node.obj
    return None


def _call(node: E.Call, scope: Scope):
    """Kaitai's methods with arguments, on bytes and strings."""
    code, ti = _tr(node.obj, scope)
    args = [_tr(a, scope)[0] for a in node.args]
    if ti == "bytes" and node.name == "to_s" and (len(args) != 1 or not isinstance(node.args[0], E.Str)):
        raise SchemaError(f"{_where(scope)}: `.to_s(...)` takes one encoding, a string literal")
    if ti == "bytes" and node.name == "to_s" and len(args) == 1 and scope.objects is not None:
        return f"_rt.text({code}, {args[0]})", "str"  # an unknown encoding is a DecodeError when read
    if ti == "bytes" and node.name == "to_s" and len(args) == 1:
        if isinstance(node.args[0], E.Str):
            try:
                codecs.lookup(node.args[0].value)
            except LookupError:
                raise SchemaError(f"{scope.t.schema.path}: {scope.t.ypath or '(top)'}: unknown encoding "
                                  f"{node.args[0].value!r}") from None
        return f"str({code}, {args[0]})", "str"
    if ti == "str" and node.name == "to_i" and len(args) <= 1:
        return f"int({code}{', ' + args[0] if args else ''})", "int"
    if ti == "str" and node.name == "substring" and len(args) == 2:
        return f"{code}[{args[0]}:{args[1]}]", "str"
    raise SchemaError(f"{scope.t.schema.path}: {scope.t.ypath or '(top)'}: `.{node.name}(...)` on a {ti} is not "
                      "supported yet")


_DYNAMIC = {"size", "length", "first", "last", "min", "max", "reverse", "to_i", "to_s"}


def _object_attr(node: E.Attr, scope: Scope):
    """An attribute in a user's schema that only Kaitai's objects have, or of a value whose type
    is known only at run time; None when the typed rules below apply."""
    nav = scope.objects
    if node.obj == E.Name("_io"):
        return nav.stream(scope, node.name)
    if node.name in ("_parent", "_root", "_io"):
        code, ti = _tr(node.obj, scope)
        if _head(ti) not in ("user", "kstruct", "any"):
            raise SchemaError(f"{_where(scope)}: a {_shown(ti)} has no `{node.name}` (only structures do)")
        if node.name == "_io":
            if scope.encoding:
                return "_rt.stream_only('_io', '')", "io"
            return f"{code}._io", "io"
        if node.name == "_root":
            return f"{code}._root", ("user", scope.t.schema.root)
        return f"{code}._parent", nav.parent_of(ti[1]) if isinstance(ti, tuple) and ti[0] == "user" else "kstruct"
    code, ti = _tr(node.obj, scope)
    if ti == "io":
        if scope.encoding:
            return f"_rt.stream_only('_io.{node.name}', '')", "int"
        if node.name not in ("pos", "size", "eof"):
            raise SchemaError(f"{scope.t.schema.path}: {scope.t.ypath or '(top)'}: a stream has no `.{node.name}`")
        return f"{code}.{node.name}", "bool" if node.name == "eof" else "int"
    if ti == "kstruct":
        raise SchemaError(f"{_where(scope)}: `.{node.name}` of a structure whose type is not known here (a type held "
                          "by several types, or by none): name it with .as<type>")
    if ti == "any":
        if node.name in _DYNAMIC:
            return f"_rt.dyn({code}, {node.name!r})", "any"
        return f"{code}.{node.name}", "any"
    return None


def _attr(node: E.Attr, scope: Scope):
    if scope.objects is not None:
        found = _object_attr(node, scope)
        if found is not None:
            return found
    elif node.obj == E.Name("_io"):
        # The only stream property: where decoding is, from the start of this type (a positional
        # instance peeks ahead with `pos: _io.pos + N`, read where it is first needed).
        if node.name != "pos":
            raise SchemaError(f"{scope.t.schema.path}: {scope.t.ypath or '(top)'}: `_io.{node.name}` is not supported"
                              " (only `_io.pos`, in a positional instance's `pos`)")
        return "(pos - start)", "int"
    if node.obj == E.Name("_parent") and scope.objects is None:
        # `_parent.x` arrives as a hidden argument `pp_x`: the parent's own local, so that a
        # list being built is seen as far as it goes (`_parent.items[_index - 1]`).
        return f"pp_{node.name}", parent_tinfo(scope, node.name)
    code, ti = _tr(node.obj, scope)
    name = node.name
    if name == "to_i":
        return f"int({code})", "int"
    if ti == "int" and name == "to_s":
        return f"str({code})", "str"
    if ti == "str" and name == "reverse":
        return f"{code}[::-1]", "str"
    if ti == "bytes" and name in ("first", "last", "min", "max"):
        return {"first": f"{code}[0]", "last": f"{code}[-1]", "min": f"min({code})", "max": f"max({code})"}[name], "int"
    if isinstance(ti, tuple) and ti[0] == "list" and name in ("min", "max"):
        return f"{name}({code})", ti[1]
    if isinstance(ti, tuple) and ti[0] == "list":
        if name in ("size", "length"):
            return f"len({code})", "int"
        if name == "first":
            return f"{code}[0]", ti[1]
        if name == "last":
            return f"{code}[-1]", ti[1]
    if ti in ("bytes", "str") and name in ("size", "length"):
        return f"len({code})", "int"
    if ti == "int" and name == "value":
        return code, "int"  # a primitive's value is the primitive itself in the value model
    if isinstance(ti, tuple) and ti[0] == "user":
        t: TypeDef = ti[1]
        if t.unwrap and name == t.seq[0].id:
            return code, field_tinfo(t.seq[0])  # the value model holds the single field itself
        f = t.field(name)
        if f is not None:
            return f"{code}.{name}", field_tinfo(f)
        for inst in t.instances:
            if inst.id == name:
                # set by the decoder, or given as an input: None only in a half-built value
                return f"_cast(Any, {code}.{name})", instance_tinfo(inst)
        for p in t.params if not t.schema.strict else ():  # a user's values show their params
            if p.id == name:
                return f"{code}.{name}", ("enum", p.enum) if p.enum is not None else param_tinfo(t, p.type_name)
    shown = ti[0] + " " + getattr(ti[1], "name", str(ti[1])) if isinstance(ti, tuple) else ti
    raise SchemaError(f"{scope.t.schema.path}: {scope.t.ypath or '(top)'}: cannot translate `.{name}` on a {shown}")


def _find_enum(t: TypeDef, name: str):
    enum = lookup_enum(t, name)
    if enum is None:
        raise SchemaError(f"{t.schema.path}: {t.ypath or '(top)'}: unknown enum {name!r}")
    return enum


def check_types(t: TypeDef, scope: Scope) -> None:
    """Kaitai's type rules for every expression of a type, each error naming the expression's
    YAML path: conditions are truth values, sizes, counts and positions integers, `valid` and
    switch cases comparable with what they test, params given values of their types."""
    for ypath, node, want, f in type_sites(t):
        if f is not None and f.repeat:
            scope.extra["_index"] = ("i", "int")
        if f is not None and ypath.endswith(("repeat-until", "valid.expr")):
            scope.extra["_"] = ("x", ref_tinfo(f.type, f))
        try:
            got = type_of(node, scope)
            problem = _unwanted(got, want, f, scope)
        except SchemaError as exc:
            problem = re.sub(rf"^{re.escape(t.schema.path)}: (\(top\)|\S+): ", "", str(exc))
        finally:
            scope.extra.clear()
        if problem:
            raise SchemaError(f"{t.schema.path}: {ypath}: {problem}")


def _unwanted(got, want, f: Field | None, scope: Scope) -> str | None:
    """What is wrong with an expression of type `got` where `want` is asked (None: nothing)."""
    if want in ("bool", "int"):
        if got in (want, "any"):
            return None
        return f"is a {_shown(got)}; {'a truth value' if want == 'bool' else 'an integer'} is needed"
    if isinstance(want, tuple) and want[0] == "valid":
        expected = ref_tinfo(f.type, f)
    elif want == "case":
        expected = type_of(f.type.switch_on, scope)
    elif isinstance(want, tuple) and want[0] == "arg":
        p = want[1].params[want[2]]
        expected = ("enum", p.enum) if p.enum is not None else param_tinfo(want[1], p.type_name)
    else:
        return None
    if comparable(expected, got):
        return None
    return f"a {_shown(got)} where a {_shown(expected)} is compared or given"
