"""Static types of Kaitai expressions, and Kaitai's type rules: the type detector.

Every back end translates an expression knowing what each part of it is; this module says
what, once, for all of them (Kaitai's compiler has its `TypeDetector` apart from its
translators). A type ("tinfo") is one of "int", "float", "bool", "str", "bytes", "io" (a
stream), "any" (known only at run time), "kstruct" (a structure of unknown type),
("enum", Enum), ("user", TypeDef) or ("list", element).

`type_of(node, names)` gives an expression's type in a `Names`, the names of one type's
expressions, and raises `SchemaError` where Kaitai's rules refuse it: comparing what cannot be
compared, `not` of a number, `sizeof` of a type without a fixed size, a name nothing declares.
The `types` pass (`passes/common.py`) applies the rules to every expression of every type, each
problem naming its YAML path, before any back end translates one.
"""

from __future__ import annotations

import codecs
import re

from . import expr as E
from .problems import SchemaError, problem
from .schema import (Field, TypeDef, TypeRef, did_you_mean, field_static_bits, lookup_enum, lookup_type, sizeof_bits,
                     static_bits, visible_enums, visible_types)

_INTEGER = re.compile(r"^[us][1248](be|le)?$")


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
    if _INTEGER.match(name) or re.match(r"^b[0-9]+(be|le)?$", name):
        return "int"
    target, _ = lookup_type(t, name)
    if target is None:
        refuse(t, f"unknown param type {type_name!r}" + did_you_mean(name, visible_types(t)))
    return ("user", target)


def refuse(t: TypeDef, message: str):
    """Kaitai's rules refuse an expression of `t` (the `types` pass names the expression's path)."""
    raise SchemaError([problem(t.schema.marks, t.schema.path, t.ypath, message)])


def declared_param_tinfo(t: TypeDef, p):
    """A param's type: its enum, or what its declared type says."""
    return ("enum", p.enum) if p.enum is not None else param_tinfo(t, p.type_name)


def user_of(ti) -> TypeDef | None:
    """The type of a ("user", TypeDef) tinfo; None for any other."""
    return ti[1] if isinstance(ti, tuple) and ti[0] == "user" else None


def head(ti) -> str:
    return ti[0] if isinstance(ti, tuple) else ti


def shown(ti) -> str:
    if isinstance(ti, tuple):
        return f"{ti[0]} {ti[1].name if hasattr(ti[1], 'name') else shown(ti[1])}"
    return {"kstruct": "structure of unknown type", "io": "stream"}.get(ti, ti)


def comparable(a, b) -> bool:
    """Whether Kaitai compares values of these types: numbers with numbers, an enum with its
    own enum, text with text and so on; a type known only at run time with anything."""
    if "any" in (a, b) or "kstruct" in (a, b):
        return True
    if a in ("int", "float") and b in ("int", "float"):
        return True
    if head(a) == "enum" and head(b) == "enum":
        return a[1] is b[1]
    if head(a) in ("user", "list") and head(a) == head(b):
        return True
    return a == b


# ---------------------------------------------------------------- names


class Names:
    """The names the expressions of type `t` read, and their types.

    `objects` (a user's schema): `_io`, `_parent` and `_root` are Kaitai's objects, `_parent`
    of a type held by one type (`parents`: type name -> that type, or None) being that type;
    `navigates` says whether the schema reads `_parent` and `_root` at all. Without `objects`
    (this repository's schemas) `_parent.x` is a value the holder passes, `parent` its type.
    `extra` holds "_" and "_index" where they mean something (a repeat, a `valid` rule)."""

    def __init__(self, t: TypeDef, parent: TypeDef | None = None, objects: bool = False, navigates: bool = False,
                 parents: dict | None = None, extra: dict | None = None) -> None:
        self.t, self.parent = t, parent
        self.objects, self.navigates = objects, navigates
        self.parents = parents if parents is not None else {}
        self.extra = extra if extra is not None else {}

    def fail(self, message: str):
        refuse(self.t, message)

    def parent_of(self, t: TypeDef):
        """`_parent` of a value of type `t`: the type holding it, or a structure of unknown type."""
        p = self.parents.get(t.name)
        return ("user", p) if p is not None else "kstruct"

    def of(self, n: str):
        if n in self.extra:
            return self.extra[n]
        if self.objects and n in ("_parent", "_root", "_io"):
            if n == "_io":
                return "io"
            if not self.navigates:
                self.fail(f"`{n}` is not known here")
            return self.parent_of(self.t) if n == "_parent" else ("user", self.t.schema.root)
        for p in self.t.params:
            if p.id == n:
                return declared_param_tinfo(self.t, p)
        f = self.t.field(n)
        if f is not None:
            return field_tinfo(f)
        for inst in self.t.instances:
            if inst.id == n:
                return instance_tinfo(inst)
        self.fail(f"unknown name {n!r} in an expression" + did_you_mean(n, self.declared()))

    def declared(self) -> set[str]:
        """The names declared in this type: params, fields and instances (for "did you mean")."""
        return {p.id for p in self.t.params} | {f.id for f in self.t.seq} | {i.id for i in self.t.instances}

    def parent_field(self, name: str):
        """`_parent.x` in this repository's schemas: the type of the holder's `x`."""
        if self.parent is None:
            self.fail("`_parent` in a type that has no single parent type")
        found = member_tinfo(self.parent, name, params=False)
        if found is None:
            self.fail(f"`_parent.{name}`: {self.parent.name} has no field {name!r}"
                      + did_you_mean(name, {f.id for f in self.parent.seq}))
        return found


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


_inferring: set[int] = set()  # value instances whose type is being inferred (one may read another)


def instance_tinfo(inst):
    """An instance's type: its field's, its enum, or what its expression gives."""
    if inst.field is not None:
        return field_tinfo(inst.field)
    if inst.enum:
        return ("enum", inst.enum)
    guess = "bool" if value_kind(inst.value)["kind"] == "bool" else "int"
    if inst.owner is None or id(inst) in _inferring:
        return guess
    _inferring.add(id(inst))
    try:  # what its expression gives (text, bytes, a list, a type ...); its holders are not known here
        owner = inst.owner
        return type_of(inst.value, Names(owner, None, not owner.schema.strict, True))
    except SchemaError:  # reads what only a back end resolves (`_parent`): the syntactic guess
        return guess
    finally:
        _inferring.discard(id(inst))


def member_tinfo(t: TypeDef, name: str, params: bool = True):
    """The type of `.name` of a value of type `t` (a field, an instance or, shown on a user's
    values, a param), or None when it has none."""
    if t.byte_orders:  # its value is the type of one byte order, whose members both have
        return member_tinfo(t.byte_orders[0], name, params)
    if t.unwrap and name == t.seq[0].id:
        return field_tinfo(t.seq[0])  # the value model holds the single field itself
    f = t.field(name)
    if f is not None:
        return field_tinfo(f)
    for inst in t.instances:
        if inst.id == name:
            return instance_tinfo(inst)
    for p in t.params if params and not t.schema.strict else ():
        if p.id == name:
            return declared_param_tinfo(t, p)
    return None


# ---------------------------------------------------------------- the detector


def type_of(node, names: Names):
    """What an expression gives: "int", "str", "bytes", ("list", element), ("user", type), ..."""
    if isinstance(node, E.SizeOf):
        known, bits = sizeof_bits(names.t, node.type_name)
        if not known:
            names.fail(f"unknown type {node.type_name!r}" + did_you_mean(node.type_name, visible_types(names.t)))
        fixed_bits(bits, node.type_name, names)
        return "int"
    if isinstance(node, E.Name) and node.name == "_sizeof":
        fixed_bits(static_bits(names.t, as_kaitai=True), names.t.name, names)
        return "int"
    if isinstance(node, E.Attr) and node.name == "_sizeof":
        fixed_bits(field_static_bits(field_of(node.obj, names), as_kaitai=True), "that field", names)
        return "int"
    if isinstance(node, E.Num):
        return "float" if isinstance(node.value, float) else "int"
    if isinstance(node, (E.Str, E.FString)):
        for part in getattr(node, "parts", ()):
            type_of(part, names)
        return "str"
    if isinstance(node, E.Bool):
        return "bool"
    if isinstance(node, E.Name):
        return names.of(node.name)
    if isinstance(node, E.EnumLit):
        return ("enum", enum_of(node, names))
    if isinstance(node, E.Unary):
        ti = type_of(node.operand, names)
        if node.op == "not":
            if ti not in ("bool", "any"):
                names.fail(f"`not` of a {shown(ti)} (a truth value is needed)")
            return "bool"
        return ti
    if isinstance(node, E.Binary):
        return _binary(node, names)
    if isinstance(node, E.Ternary):
        type_of(node.cond, names)
        ti = type_of(node.then, names)
        type_of(node.other, names)
        return ti
    if isinstance(node, E.Cast):
        ti = type_of(node.obj, names)
        if _INTEGER.match(node.type_name):
            return "int"
        if node.type_name in ("str", "bytes", "bool"):
            return node.type_name
        target, _ = lookup_type(names.t, node.type_name)  # `.as<other::its_type>`: read on as that type
        if target is not None and head(ti) not in ("user", "kstruct", "any"):
            names.fail(f"cannot cast a {shown(ti)} to {node.type_name} (a structure can be, of a type not known here)")
        return ("user", target) if target is not None else ti
    if isinstance(node, E.Index):
        ti = type_of(node.obj, names)
        type_of(node.index, names)
        if head(ti) not in ("list", "bytes", "any"):  # (`446[0]` was written out, and failed when run)
            names.fail(f"a {shown(ti)} has no items to index (a list or bytes has)")
        return ti[1] if head(ti) == "list" else "int"
    if isinstance(node, E.ArrayLit):
        if is_byte_array(node):
            return "bytes"  # a byte array, as Kaitai types it
        for item in node.items:
            type_of(item, names)
        return ("list", "int")
    if isinstance(node, E.Attr):
        return _attr(node, names)
    if isinstance(node, E.Call):
        return _call(node, names)
    raise SchemaError(f"unsupported expression node {node!r}")


def is_byte_array(node: E.ArrayLit) -> bool:
    """`[1, 2, 0xff]`: integers 0-255 only, which Kaitai types as a byte array."""
    return bool(node.items) and all(isinstance(i, E.Num) and isinstance(i.value, int) and 0 <= i.value <= 255
                                    for i in node.items)


def enum_of(node: E.EnumLit, names: Names):
    """The enum an enum literal names, which must have that member."""
    enum = lookup_enum(names.t, node.enum)
    if enum is None:
        names.fail(f"unknown enum {node.enum!r}" + did_you_mean(node.enum, visible_enums(names.t)))
    if node.value not in enum.members.values():
        names.fail(f"enum {enum.name} has no member {node.value!r}" + did_you_mean(node.value, enum.members.values()))
    return enum


def _binary(node: E.Binary, names: Names):
    lt, rt = type_of(node.left, names), type_of(node.right, names)
    if node.op in ("==", "!=", "<", "<=", ">", ">="):
        if not comparable(lt, rt):
            names.fail(f"cannot compare a {shown(lt)} and a {shown(rt)}")
        if node.op not in ("==", "!=") and "enum" in (head(lt), head(rt)):
            names.fail(f"`{node.op}` on enums (compare their .to_i)")
        return "bool"
    if node.op in ("and", "or"):
        return "bool"
    if "float" in (lt, rt):  # Kaitai's arithmetic: float when either side is; `/` divides exactly then
        return "float"
    return lt


def fixed_bits(bits: int | None, what: str, names: Names) -> int:
    """Kaitai's sizes are known when the schema is compiled: a number of bits, or an error."""
    if bits is None:
        names.fail(f"the size of {what} depends on the data (sizeof and _sizeof need a fixed size)")
    return bits


def static_size(node, names: Names) -> str | None:
    """`sizeof<type>`, `bitsizeof<type>`, `_sizeof` and `x._sizeof` as the literal they are
    (Kaitai knows them when it compiles); None for any other expression."""
    if isinstance(node, E.SizeOf):
        bits = fixed_bits(sizeof_bits(names.t, node.type_name)[1], node.type_name, names)
        return str(bits if node.bits else -(-bits // 8))
    if isinstance(node, E.Name) and node.name == "_sizeof":
        return str(-(-fixed_bits(static_bits(names.t, as_kaitai=True), names.t.name, names) // 8))
    if isinstance(node, E.Attr) and node.name == "_sizeof":
        return str(-(-fixed_bits(field_static_bits(field_of(node.obj, names), as_kaitai=True), "that field", names) // 8))
    return None


def field_of(node, names: Names) -> Field:
    """The field a path names (`block1.a`), for `._sizeof`."""
    f = None
    if isinstance(node, E.Name):
        f = names.t.field(node.name)
    elif isinstance(node, E.Attr):
        user = user_of(type_of(node.obj, names))
        f = user.field(node.name) if user is not None else None
    if f is None:
        names.fail("`._sizeof` needs a path to a field")
    return f


def _call(node: E.Call, names: Names):
    """Kaitai's methods with arguments, on bytes and strings."""
    ti = type_of(node.obj, names)
    for a in node.args:
        type_of(a, names)
    n = len(node.args)
    if ti == "bytes" and node.name == "to_s":
        if n != 1 or not isinstance(node.args[0], E.Str):
            names.fail("`.to_s(...)` takes one encoding, a string literal")
        if "\x00" in node.args[0].value:  # no codec's name has one (codecs.lookup raises ValueError)
            names.fail(f"unknown encoding {node.args[0].value!r}")
        if not names.objects:  # a user's schema: an unknown encoding is a DecodeError when read
            try:
                codecs.lookup(node.args[0].value)
            except LookupError:
                names.fail(f"unknown encoding {node.args[0].value!r}")
        return "str"
    if ti == "str" and node.name == "to_i" and n <= 1:
        return "int"
    if ti == "str" and node.name == "substring" and n == 2:
        return "str"
    names.fail(f"`.{node.name}(...)` on a {shown(ti)} is not supported yet")


DYNAMIC = {"size", "length", "first", "last", "min", "max", "reverse", "to_i", "to_s"}
STREAM = {"pos": "int", "size": "int", "eof": "bool"}


def _object_attr(node: E.Attr, names: Names):
    """An attribute in a user's schema that only Kaitai's objects have, or of a value whose type
    is known only at run time; None when the typed rules apply."""
    if node.obj == E.Name("_io"):
        return _stream_attr(node.name, names)
    if node.name in ("_parent", "_root", "_io"):
        ti = type_of(node.obj, names)
        if head(ti) not in ("user", "kstruct", "any"):
            names.fail(f"a {shown(ti)} has no `{node.name}` (only structures do)")
        if node.name == "_io":
            return "io"
        if node.name == "_root":
            return ("user", names.t.schema.root)
        return names.parent_of(ti[1]) if head(ti) == "user" else "kstruct"
    ti = type_of(node.obj, names)
    if ti == "io":
        return _stream_attr(node.name, names)
    if ti == "kstruct":
        names.fail(f"`.{node.name}` of a structure whose type is not known here (a type held by several types, or "
                   "by none): name it with .as<type>")
    if ti == "any":
        return "any"
    return None


def _stream_attr(name: str, names: Names):
    if name not in STREAM:
        names.fail(f"a stream has no `.{name}`")
    return STREAM[name]


def _attr(node: E.Attr, names: Names):
    if names.objects:
        found = _object_attr(node, names)
        if found is not None:
            return found
    elif node.obj == E.Name("_io"):
        return _stream_attr(node.name, names)
    elif node.obj == E.Name("_parent"):
        return names.parent_field(node.name)
    ti = type_of(node.obj, names)
    name = node.name
    if name == "to_i":
        return "int"
    if ti == "int" and name == "to_s":
        return "str"
    if ti == "str" and name == "reverse":
        return "str"
    if ti == "bytes" and name in ("first", "last", "min", "max"):
        return "int"
    if head(ti) == "list":
        if name in ("min", "max", "first", "last"):
            return ti[1]
        if name in ("size", "length"):
            return "int"
    if ti in ("bytes", "str") and name in ("size", "length"):
        return "int"
    if ti == "int" and name == "value":
        return "int"  # a primitive's value is the primitive itself in the value model
    user = user_of(ti)
    found = member_tinfo(user, name) if user is not None else None
    if found is None and user is not None:
        names.fail(f"{user.name} has no field, instance or param {name!r}"
                   + did_you_mean(name, {f.id for f in user.seq} | {i.id for i in user.instances}))
    if found is None:
        names.fail(f"cannot translate `.{name}` on a {shown(ti)}")
    return found
