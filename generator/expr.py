"""Kaitai Struct's expression language: tokenizer and Pratt parser.

Produces a small AST of tuples-as-dataclasses that the emitters translate into
target code. The grammar follows the Kaitai user guide (section "Expression
language"): literals, names, `_root`/`_parent`/`_io`/`_index`/`_`, unary and
binary operators with Kaitai's precedence, the ternary `? :`, attribute access,
method-like attributes (`.size`, `.length`, `.to_i`, `.as<T>`, ...), indexing,
enum literals `enum::value` and array literals.
"""

from __future__ import annotations

import keyword
import re
from decimal import Decimal
from dataclasses import dataclass, field, replace


class ExprError(Exception):
    """A syntax error in an expression; the loader adds the file and YAML path."""


def python_name(name: str) -> str:
    """A name of a schema (a field, an instance, a param, an enum member) as the IR holds it, and
    so every back end: a Python keyword gets a trailing underscore (`class_`, `not_`, `global_`),
    as PEP 8 spells it and the fix proposed for Kaitai's compiler does (kaitai_struct#90); the
    official 0.11 compiler writes the name as it is, which Python refuses to import. The loader
    names every declaration through here, and the parser every name an expression reads."""
    return name + "_" if keyword.iskeyword(name) else name


@dataclass(frozen=True)
class Num:
    value: int | float
    # A float literal Kaitai's Python parsers write as an integer: its digits after the point
    # are as many as its exponent (`24000.`, `3.25e2`: Java's BigDecimal prints such a number
    # without a point). It computes as a float in the type rules (`/` divides, not floors).
    written_as_int: int | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Str:
    value: str


@dataclass(frozen=True)
class Bool:
    value: bool


@dataclass(frozen=True)
class Name:
    name: str


@dataclass(frozen=True)
class EnumLit:
    enum: str  # possibly qualified: "type::enum"
    value: str


@dataclass(frozen=True)
class Unary:
    op: str
    operand: object


@dataclass(frozen=True)
class Binary:
    op: str
    left: object
    right: object


@dataclass(frozen=True)
class Ternary:
    cond: object
    then: object
    other: object


@dataclass(frozen=True)
class Attr:
    obj: object
    name: str


@dataclass(frozen=True)
class Call:
    """A method with arguments: `x.to_s("UTF-8")`, `s.substring(1, 3)`, `s.to_i(16)`."""
    obj: object
    name: str
    args: tuple


@dataclass(frozen=True)
class Cast:
    obj: object
    type_name: str


@dataclass(frozen=True)
class Index:
    obj: object
    index: object


@dataclass(frozen=True)
class ArrayLit:
    items: tuple


@dataclass(frozen=True)
class SizeOf:
    """`sizeof<type>` (bytes) or `bitsizeof<type>` (bits): a type's fixed size."""
    type_name: str
    bits: bool


@dataclass(frozen=True)
class FString:
    """An interpolated string `f"len={len_x}"`: text (Str) and expressions, joined as text."""
    parts: tuple


_TOKEN = re.compile(
    r"""
    (?P<ws>\s+)
  | (?P<float>[0-9][0-9_]*\.[0-9][0-9_]*(?:[eE][-+]?[0-9]+)?|[0-9][0-9_]*[eE][-+]?[0-9]+
      |[0-9][0-9_]*\.(?![A-Za-z_0-9.]))  # `24000.` as Python writes it; `1.to_s` is a method of 1
  | (?P<num>0[xX][0-9a-fA-F_]+|0[bB][01_]+|0[oO][0-7_]+|[0-9][0-9_]*)
  | (?P<fstr>f"(?:[^"\\]|\\.)*")
  | (?P<str>"(?:[^"\\]|\\.)*"|'[^']*')
  | (?P<name>[A-Za-z_][A-Za-z0-9_]*(?:::[A-Za-z_][A-Za-z0-9_]*)*)
  | (?P<op><<|>>|<=|>=|==|!=|[-+*/%&|^~<>?:.,()\[\]])
    """,
    re.VERBOSE,
)

# Binary operators by binding power, loosest first. Kaitai's grammar (Expressions.scala) is
# Python's: `or`, `and`, `not`, then every comparison at one level, then `|`, `^`, `&`, shifts,
# `+ -`, `* / %`; so `a & 1 == 1` is `(a & 1) == 1` and `not a == b` is `not (a == b)`.
_BINARY = {
    "or": 10, "and": 20,
    "==": 40, "!=": 40, "<": 40, "<=": 40, ">": 40, ">=": 40,
    "|": 50, "^": 60, "&": 70,
    "<<": 80, ">>": 80,
    "+": 90, "-": 90,
    "*": 100, "/": 100, "%": 100,
}
_TERNARY_POWER = 5
#: How deep expressions may nest: every walk of a tree (the type detector, the translators) recurses.
MOST_DEPTH = 100
_NOT_POWER = 30  # `not` takes a whole comparison
_UNARY_POWER = 110


# `.5`: a float where an operand begins (after an operand, `.` reads a member)
_LEADING_DOT_FLOAT = re.compile(r"\.[0-9][0-9_]*(?:[eE][-+]?[0-9]+)?")
_OPERAND_ENDS = {"name", "num", "float", "str", "fstr"}


def _scale(literal: str) -> int:
    """The scale of a float literal as Java's BigDecimal reads it: its digits after the point,
    less its exponent."""
    mantissa, _, exponent = literal.replace("_", "").lower().partition("e")
    return len(mantissa.partition(".")[2]) - int(exponent or 0)


def tokenize(text: str) -> list[tuple[str, str]]:
    tokens, pos = [], 0
    while pos < len(text):
        last_kind, last = tokens[-1] if tokens else ("op", "")
        after_operand = (last_kind in _OPERAND_ENDS and last not in ("and", "or", "not")) or last in (")", "]")
        m = None if after_operand else _LEADING_DOT_FLOAT.match(text, pos)
        if m is not None:
            pos = m.end()
            tokens.append(("float", m.group()))
            continue
        m = _TOKEN.match(text, pos)
        if not m:
            raise ExprError(f"unexpected character {text[pos]!r} at column {pos + 1}")
        pos = m.end()
        kind = m.lastgroup
        if kind != "ws":
            tokens.append((kind, m.group()))
    tokens.append(("end", ""))
    return tokens


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens = tokenize(text)
        self.i = 0
        self.depth = 0  # expressions being parsed, one inside the other

    def peek(self) -> tuple[str, str]:
        return self.tokens[self.i]

    def take(self, value: str | None = None) -> tuple[str, str]:
        tok = self.tokens[self.i]
        if value is not None and tok[1] != value:
            raise ExprError(f"expected {value!r} but found {repr(tok[1]) if tok[1] else 'the end'} in {self.text!r}")
        self.i += 1
        return tok

    def expression(self, power: int = 0):
        self.depth += 1
        if self.depth > MOST_DEPTH:
            raise ExprError(f"nested more than {MOST_DEPTH} levels deep in {_shortened(self.text)}")
        try:
            return self.operators(self.prefix(), power)
        finally:
            self.depth -= 1

    def operators(self, left, power: int):
        while True:
            kind, val = self.peek()
            if val == "?" and kind == "op" and power < _TERNARY_POWER:
                self.take()
                then = self.expression()
                self.take(":")
                left = Ternary(left, then, self.expression(_TERNARY_POWER - 1))
            elif val in _BINARY and kind in ("op", "name") and _BINARY[val] > power:
                self.take()
                left = Binary(val, left, self.expression(_BINARY[val]))
            else:
                return left

    def prefix(self):
        kind, val = self.take()
        if kind == "float":
            digits = val.replace("_", "")
            node = Num(float(digits), written_as_int=int(Decimal(digits)) if _scale(digits) == 0 else None)
        elif kind == "num":
            digits = val.replace("_", "")
            base = {"x": 16, "b": 2, "o": 8}.get(digits[1:2].lower(), 10) if digits[:1] == "0" else 10
            try:
                node = Num(int(digits[2:] if base != 10 else digits, base))
            except ValueError:
                raise ExprError(f"bad number {val!r} in {self.text!r}") from None
        elif kind == "str":
            node = Str(_unquote(val))
        elif kind == "fstr":
            node = _fstring(val[1:], self.text)
        elif kind == "name" and val in ("true", "false"):
            node = Bool(val == "true")
        elif kind == "name" and val == "not":
            node = Unary("not", self.expression(_NOT_POWER))
        elif kind == "name" and val in ("sizeof", "bitsizeof") and self.peek()[1] == "<":
            node = SizeOf(self.type_argument(), val == "bitsizeof")
        elif kind == "name" and "::" in val:
            enum, _, member = val.rpartition("::")
            node = EnumLit(enum, python_name(member))
        elif kind == "name":
            node = Name(python_name(val))
        elif val in ("-", "~", "+"):
            node = Unary(val, self.expression(_UNARY_POWER))
        elif val == "(":
            node = self.expression()
            self.take(")")
        elif val == "[":
            node = ArrayLit(self.listed("[", "]"))
        else:
            raise ExprError(f"unexpected {val!r} in {self.text!r}" if val else
                            f"{self.text!r} ends where an operand is needed" if self.text.strip() else "it is empty")
        return self.postfix(node)

    def postfix(self, node):
        while True:
            val = self.peek()[1]
            if val == ".":
                self.take()
                kind, name = self.take()
                if kind != "name":
                    raise ExprError(f"expected a name after '.' in {self.text!r}")
                if name == "as":
                    node = Cast(node, self.type_argument())
                elif self.peek()[1] == "(":
                    self.take("(")
                    node = Call(node, name, self.listed("(", ")"))
                else:
                    node = Attr(node, python_name(name))
            elif val == "[":
                self.take()
                index = self.expression()
                self.take("]")
                node = Index(node, index)
            else:
                return node

    def listed(self, opener: str, closer: str) -> tuple:
        """Expressions separated by commas up to `closer` (the opener already taken): the items
        of an array literal, the arguments of a method."""
        items = []
        while self.peek()[1] != closer:
            if self.peek()[0] == "end":
                raise ExprError(f"unclosed {opener} in {self.text!r}")
            items.append(self.expression())
            if self.peek()[1] == ",":
                self.take()
        self.take(closer)
        return tuple(items)

    def type_argument(self) -> str:
        self.take("<")
        parts = []
        while self.peek()[1] != ">":
            if self.peek()[0] == "end":
                raise ExprError(f"unclosed <...> in {self.text!r}")
            parts.append(self.take()[1])
        self.take(">")
        return "".join(parts)


def _shortened(text: str) -> str:
    return repr(text if len(text) <= 60 else text[:57] + "...")


def _unquote(token: str) -> str:
    if token[0] == "'":
        return token[1:-1]
    # Escapes as Python's; other characters as they are (UTF-8 bytes read back as Latin-1 would
    # turn "こんにちは" into mojibake).
    return token[1:-1].encode("ascii", "backslashreplace").decode("unicode_escape")


def _fstring(token: str, text: str) -> FString:
    """The parts of an f-string token (quotes included): text between `{expression}`s."""
    body, parts, pos = token[1:-1], [], 0
    while pos < len(body):
        brace = body.find("{", pos)
        if brace < 0:
            parts.append(Str(_unquote('"' + body[pos:] + '"')))
            break
        if brace > pos:
            parts.append(Str(_unquote('"' + body[pos:brace] + '"')))
        close = body.find("}", brace)
        if close < 0:
            raise ExprError(f"unclosed {{ in {text!r}")
        parts.append(parse(body[brace + 1:close]))
        pos = close + 1
    return FString(tuple(parts))


def parse(text) -> object:
    """Parse a Kaitai expression (YAML may hand us an int or bool directly)."""
    if isinstance(text, bool):
        return Bool(text)
    if isinstance(text, int):
        return Num(text)
    parser = _Parser(str(text))
    node = parser.expression()
    if parser.peek()[0] != "end":
        raise ExprError(f"unexpected {parser.peek()[1]!r} after the end of {text!r}")
    if _depth(node) > MOST_DEPTH:  # (a chain of operators or attributes nests as deep as it is long)
        raise ExprError(f"nested more than {MOST_DEPTH} levels deep in {_shortened(str(text))}")
    return node


def _depth(top) -> int:
    """How deep a tree nests, measured without recursion."""
    deepest, todo = 0, [(top, 1)]
    while todo:
        node, depth = todo.pop()
        deepest = max(deepest, depth)
        for value in vars(node).values():
            todo += [(item, depth + 1) for item in (value if isinstance(value, tuple) else (value,))
                     if hasattr(item, "__dataclass_fields__")]
    return deepest


def walk(node):
    """Every node of an expression tree, the node itself first."""
    yield node
    for value in vars(node).values():
        for item in value if isinstance(value, tuple) else (value,):
            if hasattr(item, "__dataclass_fields__"):
                yield from walk(item)


def substituted(node, values: dict[str, object]):
    """`node` with each bare name of `values` replaced by its expression (a type's param by the
    argument a caller gives it)."""
    if isinstance(node, Name):
        return values.get(node.name, node)
    changes = {}
    for key, value in vars(node).items():
        if isinstance(value, tuple):
            new = tuple(substituted(item, values) if hasattr(item, "__dataclass_fields__") else item for item in value)
        elif hasattr(value, "__dataclass_fields__"):
            new = substituted(value, values)
        else:
            continue
        if new != value:
            changes[key] = new
    return replace(node, **changes) if changes else node


def names(node) -> set[str]:
    """The bare names an expression reads (first component of every path). A path's `._sizeof`
    reads none: Kaitai knows it when it compiles (`footer.op._sizeof` does not read `footer`)."""
    if isinstance(node, Attr) and node.name == "_sizeof":
        return set()
    if isinstance(node, Name):
        return {node.name}
    found: set[str] = set()
    for value in vars(node).values():
        for item in value if isinstance(value, tuple) else (value,):
            if hasattr(item, "__dataclass_fields__"):
                found |= names(item)
    return found
