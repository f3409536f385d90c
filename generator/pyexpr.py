"""Kaitai expressions as Python expressions, for the back ends that write Python.

The codecs (`python/`) and the construct definitions (`construct/`) both evaluate Kaitai's
expressions as Python: literals, operators, indexing, the built-in methods of numbers, text,
bytes and lists are the same code in both. What differs is what a value is there: a name is a
local variable or a key of construct's context, a structure's member an attribute or a key, an
enum member a class attribute or construct's label. `PythonExpressions` writes the common part
and asks its subclass (each back end's `Scope`) for those.

What each part of an expression is comes from the type detector (`generator.types`), which
also applies Kaitai's type rules; `translate` runs it first, so the code here may assume the
rules hold (a `.size` is of something that has one).
"""

from __future__ import annotations

from . import expr as E
from .problems import SchemaError
from .schema import TypeDef
from .types import Names, enum_of, head, is_byte_array, static_size, type_of, user_of

_COMPARISONS = {"==", "!=", "<", "<=", ">", ">=", "and", "or"}
_INTEGER_OPS = {"and": "and", "or": "or", "/": "//"}  # Kaitai's `/` of integers is integer division


class PythonExpressions:
    """The translation of one type's expressions; `names` are the detector's names of that type."""

    names: Names

    def translate(self, node) -> str:
        self.type_of(node)  # Kaitai's type rules first: the code below assumes they hold
        return self.code(node)

    def type_of(self, node):
        """What an expression gives: "int", "str", "bytes", ("list", element), ("user", type), ..."""
        return type_of(node, self.names)

    def fail(self, message: str):
        self.names.fail(message)

    # ------------------------------------------------------------ what a back end says

    def name(self, n: str) -> str:
        raise NotImplementedError

    def enum_member(self, enum, member: str) -> str:
        raise NotImplementedError

    def member(self, code: str, t: TypeDef, name: str) -> str:
        """`.name` of a structure of type `t` (a field, an instance or a param)."""
        raise NotImplementedError

    def text(self, code: str, encoding: str) -> str:
        """Bytes as text in an encoding (`.to_s(encoding)`)."""
        return f"str({code}, {encoding})"

    def to_int(self, code: str, ti) -> str:
        """`.to_i` of a value of type `ti` (a number, text or an enum)."""
        return f"int({code})"

    # ------------------------------------------------------------ the common part

    def code(self, node) -> str:
        size = static_size(node, self.names)
        if size is not None:
            return size
        if isinstance(node, E.Num) and node.written_as_int is not None:
            return str(node.written_as_int)  # as Kaitai's Python parsers write it (an int there)
        if isinstance(node, (E.Num, E.Str, E.Bool)):
            return repr(node.value)
        if isinstance(node, E.Name):
            return self.name(node.name)
        if isinstance(node, E.EnumLit):
            return self.enum_member(enum_of(node, self.names), node.value)
        if isinstance(node, E.Unary):
            operand = self.code(node.operand)
            return f"(not {operand})" if node.op == "not" else f"({node.op}{operand})"
        if isinstance(node, E.Binary):
            return self.binary(node)
        if isinstance(node, E.Ternary):
            cond = self.code(node.cond)
            return f"({self.code(node.then)} if {cond} else {self.code(node.other)})"
        if isinstance(node, E.Cast):
            if node.type_name == "bytes" and isinstance(node.obj, E.ArrayLit) and not is_byte_array(node.obj):
                # `[a + 0x40, b].as<bytes>`: Kaitai packs the integers as bytes (each 0-255)
                return f"bytes({self.code(node.obj)})"
            return self.code(node.obj)
        if isinstance(node, E.Index):
            return f"{self.code(node.obj)}[{self.code(node.index)}]"
        if isinstance(node, E.ArrayLit):
            if is_byte_array(node):
                return repr(bytes(i.value for i in node.items))
            return f"[{', '.join(self.code(i) for i in node.items)}]"
        if isinstance(node, E.FString):  # text as is, numbers in decimal
            parts = [self.code(part) for part in node.parts]
            return ("(" + " + ".join(f"str({p})" for p in parts) + ")") if parts else "''"
        if isinstance(node, E.Attr):
            return self.attr(node)
        if isinstance(node, E.Call):
            return self.call(node)
        raise SchemaError(f"unsupported expression node {node!r}")

    def binary(self, node: E.Binary) -> str:
        left, right = self.code(node.left), self.code(node.right)
        floats = node.op not in _COMPARISONS and "float" in (self.type_of(node.left), self.type_of(node.right))
        # Kaitai's arithmetic: float when either side is (`/` divides exactly then), else `//`
        return f"({left} {node.op if floats else _INTEGER_OPS.get(node.op, node.op)} {right})"

    def call(self, node: E.Call) -> str:
        """Kaitai's methods with arguments, on bytes and text (the detector allows no others)."""
        code, args = self.code(node.obj), [self.code(a) for a in node.args]
        if node.name == "to_s":  # of bytes
            return self.text(code, args[0])
        if node.name == "to_i":  # of text, maybe in a base
            return f"int({code}{', ' + args[0] if args else ''})"
        return f"{code}[{args[0]}:{args[1]}]"  # substring

    def attr(self, node: E.Attr) -> str:
        """Kaitai's built-in attributes of numbers, text, bytes and lists, then a structure's."""
        code, ti, name = self.code(node.obj), self.type_of(node.obj), node.name
        if name == "to_i":
            return self.to_int(code, ti)
        if ti == "int" and name == "to_s":
            return f"str({code})"
        if ti == "str" and name == "reverse":
            return f"{code}[::-1]"
        if name in ("first", "last", "min", "max") and (ti == "bytes" or head(ti) == "list"):
            return {"first": f"{code}[0]", "last": f"{code}[-1]", "min": f"min({code})", "max": f"max({code})"}[name]
        if name in ("size", "length") and (ti in ("bytes", "str") or head(ti) == "list"):
            return f"len({code})"
        if ti == "int" and name == "value":
            return code  # a varint primitive is its value
        t = user_of(ti)
        if t is None:
            self.fail(f"`.{name}` on a {ti} cannot be translated")
        if t.byte_orders:  # the value is of one byte order's type; both have its members
            t = t.byte_orders[0]
        if t.unwrap and name == t.seq[0].id:
            return code  # an unwrapped type's value is its single field
        return self.member(code, t, name)
