"""Kaitai Struct expressions, parsed as the official compiler parses them.

The grammar follows the compiler's `exprlang/Expressions.scala` (a Python-like
grammar, not C's): loosest first, `a ? b : c`, `or`, `and`, `not`, one
comparison (`==`, `!=`, `<`, `<=`, `>`, `>=`, not chained), `|`, `^`, `&`,
`<<`/`>>`, `+`/`-`, `*`/`/`/`%`, unary `-`/`~`/`+`, then postfix trailers
(`.name`, `.as<type>`, `[index]`, `(args)`). Atoms: integers (decimal, `0x`,
`0o`, `0b`, with `_`), floats (`1.5`, `1e3`, `1.5e-3`), strings (`"..."` with
escapes, `'...'` raw; adjacent literals concatenate), `true`/`false`, names,
enum literals (`[::]a::b::enum::label`), `sizeof<T>`, `bitsizeof<T>` and array
literals.

This is the suite runner's own parser: `generator/expr.py` (the generator's)
lacks float literals, calls with arguments, `sizeof<>`/`bitsizeof<>`, and it
ranks operators in C's order (`==` binding tighter than `&`, `not` tighter than
`==`), where Kaitai ranks them as Python does; the runner must not depend on
what it measures, so it has its own.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


class ExprSyntaxError(ValueError):
    """An expression the grammar does not accept."""


@dataclass(frozen=True)
class Int:
    value: int


@dataclass(frozen=True)
class Float:
    value: float


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
class EnumByLabel:
    type_path: tuple  # ("enum_1", "main_obj"); empty when the enum is named alone
    enum: str
    label: str
    absolute: bool = False

    def text(self) -> str:
        return "::".join((*self.type_path, self.enum, self.label))


@dataclass(frozen=True)
class Unary:
    op: str  # "-", "~", "not"
    operand: object


@dataclass(frozen=True)
class Binary:
    op: str
    left: object
    right: object


@dataclass(frozen=True)
class Compare:
    op: str
    left: object
    right: object


@dataclass(frozen=True)
class BoolOp:
    op: str  # "and" / "or"
    operands: tuple


@dataclass(frozen=True)
class IfExp:
    cond: object
    then: object
    other: object


@dataclass(frozen=True)
class Attribute:
    obj: object
    name: str


@dataclass(frozen=True)
class Call:
    func: object  # an Attribute: the method
    args: tuple


@dataclass(frozen=True)
class Subscript:
    obj: object
    index: object


@dataclass(frozen=True)
class CastToType:
    obj: object
    type_name: str  # "u1", "bytes", "a::b", "x[]"


@dataclass(frozen=True)
class SizeOf:
    type_name: str
    bits: bool


@dataclass(frozen=True)
class List:
    items: tuple


_TOKEN = re.compile(
    r"""
    (?P<ws>\s+|\#[^\n]*)
  | (?P<float>(?:[0-9][0-9_]*\.[0-9][0-9_]*(?:[eE][-+]?[0-9]+)?)|(?:[0-9][0-9_]*[eE][-+]?[0-9]+))
  | (?P<int>0[xX][0-9a-fA-F_]+|0[bB][01_]+|0[oO][0-7_]+|[0-9][0-9_]*)
  | (?P<str>"(?:[^"\\]|\\.)*"|'[^']*')
  | (?P<name>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<op>::|<<|>>|<=|>=|==|!=|[-+*/%&|^~<>?:.,()\[\]])
    """,
    re.VERBOSE | re.DOTALL,
)

_ESCAPES = {"a": "\a", "b": "\b", "t": "\t", "n": "\n", "v": "\v", "f": "\f", "r": "\r", "e": "\x1b",
            "'": "'", '"': '"', "\\": "\\"}


def _unescape(body: str) -> str:
    out, i = [], 0
    while i < len(body):
        c = body[i]
        if c != "\\":
            out.append(c)
            i += 1
            continue
        nxt = body[i + 1]
        if nxt in _ESCAPES:
            out.append(_ESCAPES[nxt])
            i += 2
        elif nxt == "u":
            out.append(chr(int(body[i + 2:i + 6], 16)))
            i += 6
        elif nxt in "01234567":
            m = re.match(r"[0-7]{1,3}", body[i + 1:])
            out.append(chr(int(m.group(), 8)))
            i += 1 + len(m.group())
        else:
            raise ExprSyntaxError(f"unknown escape \\{nxt}")
    return "".join(out)


def tokenize(text: str) -> list[tuple[str, str]]:
    tokens, pos = [], 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m:
            raise ExprSyntaxError(f"unexpected character {text[pos]!r} at column {pos + 1} of {text!r}")
        pos = m.end()
        if m.lastgroup != "ws":
            tokens.append((m.lastgroup, m.group()))
    tokens.append(("end", ""))
    return tokens


_COMPARE = ("==", "!=", "<", "<=", ">", ">=")
# The binary chains below comparison, loosest first (Expressions.scala: expr, xor_expr, ...).
_CHAINS = (("|",), ("^",), ("&",), ("<<", ">>"), ("+", "-"), ("*", "/", "%"))


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens = tokenize(text)
        self.i = 0

    def peek(self, k: int = 0) -> tuple[str, str]:
        return self.tokens[min(self.i + k, len(self.tokens) - 1)]

    def take(self, value: str | None = None) -> tuple[str, str]:
        tok = self.tokens[self.i]
        if value is not None and tok[1] != value:
            raise ExprSyntaxError(f"expected {value!r} but found {tok[1] or 'the end'!r} in {self.text!r}")
        self.i += 1
        return tok

    def at_op(self, *ops: str) -> bool:
        kind, val = self.peek()
        return kind == "op" and val in ops

    def at_word(self, word: str) -> bool:
        return self.peek() == ("name", word)

    # test: or_test ('?' test ':' test)?
    def test(self):
        cond = self.or_test()
        if self.at_op("?"):
            self.take()
            then = self.test()
            self.take(":")
            return IfExp(cond, then, self.test())
        return cond

    def or_test(self):
        items = [self.and_test()]
        while self.at_word("or"):
            self.take()
            items.append(self.and_test())
        return items[0] if len(items) == 1 else BoolOp("or", tuple(items))

    def and_test(self):
        items = [self.not_test()]
        while self.at_word("and"):
            self.take()
            items.append(self.not_test())
        return items[0] if len(items) == 1 else BoolOp("and", tuple(items))

    def not_test(self):
        if self.at_word("not"):
            self.take()
            return Unary("not", self.not_test())
        return self.comparison()

    def comparison(self):
        left = self.chain(0)
        if self.at_op(*_COMPARE):
            op = self.take()[1]
            return Compare(op, left, self.chain(0))
        return left

    def chain(self, level: int):
        if level == len(_CHAINS):
            return self.factor()
        left = self.chain(level + 1)
        while self.at_op(*_CHAINS[level]):
            op = self.take()[1]
            left = Binary(op, left, self.chain(level + 1))
        return left

    def factor(self):
        if self.at_op("+"):
            self.take()
            return self.factor()
        if self.at_op("-", "~"):
            op = self.take()[1]
            return Unary(op, self.factor())
        return self.power()

    def power(self):
        node = self.atom()
        while True:
            if self.at_op("("):
                self.take()
                args = []
                while not self.at_op(")"):
                    args.append(self.test())
                    if not self.at_op(")"):
                        self.take(",")
                self.take(")")
                node = Call(node, tuple(args))
            elif self.at_op("["):
                self.take()
                index = self.test()
                self.take("]")
                node = Subscript(node, index)
            elif self.at_op(".") and self.peek(1) == ("name", "as") and self.peek(2) == ("op", "<"):
                self.take()
                self.take()
                node = CastToType(node, self.type_name())
            elif self.at_op("."):
                self.take()
                kind, name = self.take()
                if kind != "name":
                    raise ExprSyntaxError(f"expected a name after '.' in {self.text!r}")
                node = Attribute(node, name)
            else:
                return node

    def type_name(self) -> str:
        self.take("<")
        parts = []
        while not self.at_op(">"):
            kind, val = self.take()
            if kind == "end":
                raise ExprSyntaxError(f"unclosed <...> in {self.text!r}")
            parts.append(val)
        self.take(">")
        return "".join(parts)

    def atom(self):
        kind, val = self.peek()
        if kind == "op" and val == "[":
            self.take()
            items = []
            while not self.at_op("]"):
                items.append(self.test())
                if not self.at_op("]"):
                    self.take(",")
            self.take("]")
            return List(tuple(items))
        if kind == "op" and val == "(":
            self.take()
            node = self.test()
            self.take(")")
            return node
        if kind == "op" and val == "::" or kind == "name" and self.peek(1) == ("op", "::"):
            absolute = kind == "op"
            if absolute:
                self.take()
            names = [self.take()[1]]
            while self.at_op("::"):
                self.take()
                k, n = self.take()
                if k != "name":
                    raise ExprSyntaxError(f"expected a name after '::' in {self.text!r}")
                names.append(n)
            if len(names) < 2:
                raise ExprSyntaxError(f"an enum literal needs enum::label in {self.text!r}")
            return EnumByLabel(tuple(names[:-2]), names[-2], names[-1], absolute)
        if kind == "name" and val in ("sizeof", "bitsizeof") and self.peek(1) == ("op", "<"):
            self.take()
            return SizeOf(self.type_name(), val == "bitsizeof")
        if kind == "str":
            parts = []
            while self.peek()[0] == "str":
                tok = self.take()[1]
                parts.append(tok[1:-1] if tok[0] == "'" else _unescape(tok[1:-1]))
            return Str("".join(parts))
        self.take()
        if kind == "name":
            if val == "true":
                return Bool(True)
            if val == "false":
                return Bool(False)
            return Name(val)
        if kind == "float":
            return Float(float(val.replace("_", "")))
        if kind == "int":
            digits = val.replace("_", "")
            base = {"x": 16, "b": 2, "o": 8}.get(digits[1:2].lower(), 10) if len(digits) > 1 else 10
            return Int(int(digits[2:] if base != 10 else digits, base))
        raise ExprSyntaxError(f"unexpected {val or 'end'!r} in {self.text!r}")


def parse(text) -> object:
    """Parse a Kaitai expression; YAML may hand over a bool, an int or a float directly."""
    if isinstance(text, bool):
        return Bool(text)
    if isinstance(text, int):
        return Int(text)
    if isinstance(text, float):
        return Float(text)
    parser = _Parser(str(text).strip())
    node = parser.test()
    if parser.peek()[0] != "end":
        raise ExprSyntaxError(f"unexpected {parser.peek()[1]!r} after the end of {text!r}")
    return node
