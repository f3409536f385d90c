"""Evaluate `.kst` asserts against a parsed object tree, with Kaitai's semantics.

`actual` is an expression on the parsed root (names are field and instance ids,
read as attributes); `expected` is an expression without a root. How the
official test translator judges them (its Python spec generator):

- `expected: null` (the name `null`) asserts the value is absent (`None`);
- a float on either side is compared to 6 decimal places (`assertAlmostEqual`);
- an array literal against a byte array compares bytes; against an array,
  element by element;
- anything else is `==`.

Kaitai is typed where Python is not, so this evaluator is stricter than
Python's `==` in three places, each of which a typed target would catch:
a bool is not an integer (`true` != 1), an enum is not an integer (an enum
field that comes back as a bare int, or an int as an enum member, fails), and a
string is not bytes.

Integer semantics: `/` on integers is floor division and `%` takes the sign of
the divisor (the Python translator emits `//` and `%`; the other targets call
`KaitaiStream.mod`, and the suite's `expr_int_div`/`expr_mod` expect exactly
this). Integers are unbounded (the suite's 64-bit values are exact).

An implementation plugs in through an `Access` object: how to read an
attribute, and what `_io`, `_parent` and `_root` are. Anything the evaluator
cannot do raises `Unsupported` (the spec is then reported `unsupported`).
"""

from __future__ import annotations

import enum
import math

from . import kexpr as K

PLACES = 6  # assertAlmostEqual's default, as the official Python specs use


class Unsupported(Exception):
    """The evaluator or the implementation under test lacks what the assert needs."""


class EvalError(Exception):
    """Evaluating an expression raised (an index out of range, a missing field, ...)."""


class EnumConst:
    """An enum literal of `expected`, resolved through the schemas (not the implementation)."""

    def __init__(self, text: str, value: int) -> None:
        self.text, self.value = text, value

    def __repr__(self) -> str:
        return f"{self.text} ({self.value})"


class Access:
    """How the evaluator sees an implementation's objects. Override per implementation."""

    def is_struct(self, value) -> bool:
        return not isinstance(value, (int, float, str, bytes, bytearray, list, tuple, enum.Enum, type(None)))

    def attr(self, obj, name: str):
        for candidate in (name, name + "_"):  # a Python keyword as an id gets a trailing _
            try:
                return getattr(obj, candidate)
            except AttributeError:
                continue
        raise EvalError(f"{type(obj).__name__} has no attribute {name!r}")

    def special(self, obj, name: str):
        """`_io`, `_parent`, `_root` of an object."""
        raise Unsupported(f"`{name}` is not exposed")

    def io_attr(self, io, name: str):
        raise Unsupported(f"`_io.{name}` is not exposed")

    def is_io(self, value) -> bool:
        return False


class Evaluator:
    def __init__(self, access: Access, enums) -> None:
        self.access = access
        self.enums = enums  # callable: kexpr.EnumByLabel -> int (raises KeyError)

    def eval(self, node, this=None):
        A = self.access
        if isinstance(node, (K.Int, K.Float, K.Str, K.Bool)):
            return node.value
        if isinstance(node, K.Name):
            if node.name == "null" and this is None:
                return None
            if this is None:
                raise EvalError(f"name {node.name!r} outside of an object")
            if node.name in ("_io", "_parent", "_root"):
                return A.special(this, node.name)
            if node.name == "_index" or node.name == "_":
                raise Unsupported(f"`{node.name}` outside of a type")
            return A.attr(this, node.name)
        if isinstance(node, K.EnumByLabel):
            try:
                return EnumConst(node.text(), self.enums(node))
            except KeyError as e:
                raise EvalError(f"enum literal {node.text()}: {e}") from None
        if isinstance(node, K.List):
            return [self.eval(item, this) for item in node.items]
        if isinstance(node, K.Attribute):
            return self.attribute(self.eval(node.obj, this), node.name, ())
        if isinstance(node, K.Call):
            if not isinstance(node.func, K.Attribute):
                raise Unsupported("a call of something that is not a method")
            args = tuple(self.eval(a, this) for a in node.args)
            return self.attribute(self.eval(node.func.obj, this), node.func.name, args)
        if isinstance(node, K.Subscript):
            obj, index = self.eval(node.obj, this), self.eval(node.index, this)
            if not isinstance(obj, (list, tuple, bytes, bytearray)):
                raise EvalError(f"[{index}] on {type(obj).__name__}")
            if not isinstance(index, int) or isinstance(index, bool) or index < 0:
                raise EvalError(f"bad index {index!r}")
            try:
                return obj[index]
            except IndexError:
                raise EvalError(f"index {index} out of range (size {len(obj)})") from None
        if isinstance(node, K.CastToType):
            return self.cast(self.eval(node.obj, this), node.type_name)
        if isinstance(node, K.Unary):
            v = self.eval(node.operand, this)
            if node.op == "not":
                return not _bool(v)
            if node.op == "-":
                return -_num(v)
            if node.op == "~":
                return ~_int(v)
        if isinstance(node, K.Binary):
            return binary(node.op, self.eval(node.left, this), self.eval(node.right, this))
        if isinstance(node, K.Compare):
            return compare(node.op, self.eval(node.left, this), self.eval(node.right, this))
        if isinstance(node, K.BoolOp):
            if node.op == "and":
                return all(_bool(self.eval(x, this)) for x in node.operands)
            return any(_bool(self.eval(x, this)) for x in node.operands)
        if isinstance(node, K.IfExp):
            return self.eval(node.then if _bool(self.eval(node.cond, this)) else node.other, this)
        if isinstance(node, K.SizeOf):
            raise Unsupported("sizeof<>/bitsizeof<> in a spec")
        raise Unsupported(f"expression node {type(node).__name__}")

    # --- methods and attributes by the value's type ---------------------------------------
    def attribute(self, v, name: str, args: tuple):
        A = self.access
        if name in ("_io", "_parent", "_root") and not args:
            return A.special(v, name)
        if A.is_io(v):
            return A.io_attr(v, name)
        if isinstance(v, enum.Enum):
            if name == "to_i":
                return int(v.value)
            raise Unsupported(f"enum method {name}")
        if isinstance(v, EnumConst):
            if name == "to_i":
                return v.value
            raise Unsupported(f"enum method {name}")
        if isinstance(v, bool):
            if name == "to_i":
                return int(v)
            raise Unsupported(f"bool method {name}")
        if isinstance(v, int):
            if name == "to_s":
                if args and args[0] != 10:
                    return _to_radix(v, args[0])
                return str(v)
            if name == "to_i":
                return v
            raise Unsupported(f"integer method {name}")
        if isinstance(v, float):
            if name == "to_i":
                return int(v)  # truncates toward zero, as every target does
            raise Unsupported(f"float method {name}")
        if isinstance(v, str):
            if name == "length":
                return len(v)
            if name == "reverse":
                return v[::-1]
            if name == "substring":
                return v[args[0]:args[1]]
            if name == "to_s":
                return v
            if name == "to_i":
                radix = args[0] if args else 10
                try:
                    return int(v, radix)
                except ValueError as e:
                    raise KaitaiConversionError(str(e)) from None
            raise Unsupported(f"string method {name}")
        if isinstance(v, (bytes, bytearray)):
            if name in ("size", "length"):
                return len(v)
            if name in ("first", "last", "min", "max"):
                return _seq_pick(v, name)
            if name == "to_s":
                if not args:
                    raise Unsupported("bytes.to_s without an encoding")
                return bytes(v).decode(_py_encoding(args[0]))
            raise Unsupported(f"byte-array method {name}")
        if isinstance(v, (list, tuple)):
            if name in ("size", "length"):
                return len(v)
            if name in ("first", "last", "min", "max"):
                return _seq_pick(v, name)
            raise Unsupported(f"array method {name}")
        if v is None:
            raise EvalError(f".{name} of null")
        if A.is_struct(v):
            if args:
                raise Unsupported(f"call of {name} on an object")
            return A.attr(v, name)
        raise Unsupported(f".{name} on {type(v).__name__}")

    def cast(self, v, type_name: str):
        t = type_name.lstrip(":")
        if t.endswith("[]"):
            return list(v)
        if t == "bytes":
            if isinstance(v, (list, tuple)):
                return bytes(v)
            return v
        if t in ("f4", "f8", "f4le", "f4be", "f8le", "f8be"):
            return float(v)
        if t in ("str", "bool") or _is_int_type(t):
            return v
        return v  # a user type: the value is that object already (a downcast of a switch)


class KaitaiConversionError(ValueError):
    """`.to_i` of a string that is not a number (Kaitai's ConversionError)."""


def _is_int_type(t: str) -> bool:
    import re
    return bool(re.fullmatch(r"[us][1248](le|be)?|b\d+(le|be)?", t))


def _bool(v) -> bool:
    if not isinstance(v, bool):
        raise EvalError(f"expected a boolean, got {v!r}")
    return v


def _num(v):
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        if isinstance(v, enum.Enum):
            raise EvalError("arithmetic on an enum")
        raise EvalError(f"expected a number, got {v!r}")
    return v


def _int(v) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or isinstance(v, enum.Enum):
        raise EvalError(f"expected an integer, got {v!r}")
    return v


def _to_radix(v: int, radix: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    if v == 0:
        return "0"
    sign, v, out = "-" if v < 0 else "", abs(v), []
    while v:
        v, d = divmod(v, radix)
        out.append(digits[d])
    return sign + "".join(reversed(out))


def _seq_pick(v, name):
    if not len(v):
        raise EvalError(f".{name} of an empty array")
    return {"first": lambda: v[0], "last": lambda: v[-1], "min": lambda: min(v), "max": lambda: max(v)}[name]()


def _py_encoding(name: str) -> str:
    return {"ASCII": "ascii", "UTF-8": "utf-8", "UTF8": "utf-8"}.get(str(name).upper(), str(name))


def binary(op: str, a, b):
    if op == "+" and isinstance(a, str) and isinstance(b, str):
        return a + b
    if op == "+" and isinstance(a, (bytes, bytearray)) and isinstance(b, (bytes, bytearray)):
        return bytes(a) + bytes(b)
    if op in ("+", "-", "*", "/", "%") and (isinstance(a, float) or isinstance(b, float)):
        a, b = _num(a), _num(b)
        return {"+": a + b, "-": a - b, "*": a * b}[op] if op in "+-*" else (a / b if op == "/" else math.fmod(a, b))
    a, b = _int(a), _int(b)
    if op == "+":
        return a + b
    if op == "-":
        return a - b
    if op == "*":
        return a * b
    if op == "/":
        return a // b  # floor division, as the official Python output (expr_int_div expects it)
    if op == "%":
        return a % b  # the result has the divisor's sign (KaitaiStream.mod in other targets)
    if op == "<<":
        return a << b
    if op == ">>":
        return a >> b
    if op == "&":
        return a & b
    if op == "|":
        return a | b
    if op == "^":
        return a ^ b
    raise Unsupported(f"operator {op}")


def compare(op: str, a, b):
    if op == "==":
        return equal(a, b)[0]
    if op == "!=":
        return not equal(a, b)[0]
    a, b = _plain(a), _plain(b)
    return {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[op]


def _plain(v):
    if isinstance(v, enum.Enum):
        return v.value
    if isinstance(v, EnumConst):
        return v.value
    if isinstance(v, bytearray):
        return bytes(v)
    return v


def _kind(v) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, (enum.Enum, EnumConst)):
        return "enum"
    if isinstance(v, int):
        return "int"
    if isinstance(v, float):
        return "float"
    if isinstance(v, str):
        return "str"
    if isinstance(v, (bytes, bytearray)):
        return "bytes"
    if isinstance(v, (list, tuple)):
        return "array"
    return "object"


def equal(actual, expected) -> tuple[bool, str]:
    """Kaitai equality of an actual value and an expected one; (equal, why not)."""
    ka, ke = _kind(actual), _kind(expected)
    if ke == "null" or ka == "null":
        return actual is expected, "" if actual is expected else f"{ka} vs {ke}"
    if ke == "enum" or ka == "enum":
        if ka != ke:
            return False, f"{'an enum member' if ka == 'enum' else 'a ' + ka}, expected {'an enum member' if ke == 'enum' else 'a ' + ke}"
        ok = _plain(actual) == _plain(expected)
        return ok, "" if ok else "different enum values"
    if ka == "float" or ke == "float":
        if {ka, ke} - {"int", "float"}:
            return False, f"a {ka}, expected a {ke}"
        if actual == expected or (math.isnan(actual) and math.isnan(expected)):
            return True, ""
        ok = round(abs(expected - actual), PLACES) == 0
        return ok, "" if ok else f"differ beyond {PLACES} decimal places"
    if ka == "bytes" and ke == "array":
        if not all(isinstance(x, int) and not isinstance(x, bool) and 0 <= x <= 255 for x in expected):
            return False, "a byte array, expected an array with non-byte items"
        expected, ke = bytes(expected), "bytes"
    if ka == "array" and ke == "bytes":
        actual, ka = bytes(actual), "bytes"  # an array of u1 against a byte-array literal
    if ka == "array" and ke == "array":
        if len(actual) != len(expected):
            return False, f"{len(actual)} items, expected {len(expected)}"
        for i, (x, y) in enumerate(zip(actual, expected)):
            ok, why = equal(x, y)
            if not ok:
                return False, f"item {i}: {why or 'differs'}"
        return True, ""
    if ka != ke:
        return False, f"a {ka}, expected a {ke}"
    ok = bytes(actual) == bytes(expected) if ka == "bytes" else actual == expected
    return ok, ""


def short(v, limit: int = 120) -> str:
    """A value for the report: bytes as a hex list, objects by class name."""
    if isinstance(v, (bytes, bytearray)):
        text = "[" + ", ".join(f"0x{b:02x}" for b in v) + "]"
    elif isinstance(v, enum.Enum):
        text = f"{type(v).__name__}.{v.name} ({v.value})"
    elif isinstance(v, (list, tuple)):
        text = "[" + ", ".join(short(x, 40) for x in v) + "]"
    elif _kind(v) == "object":
        text = f"<{type(v).__name__}>"
    else:
        text = repr(v)
    return text if len(text) <= limit else text[: limit - 3] + "..."
