"""Random values of a compiled schema, made by walking its IR, for the encoder to turn into inputs.

`ValueMaker(schema, module).make(rng)` returns a value of the schema's root built from the
generated module's classes: integers within their type (biased to small numbers, boundaries,
enum members and the constants the schema compares the field with), unknown enum values now and
then, strings in their encoding, bytes of the sizes the schema's expressions give, lists of the
counts they give, switch cases, optional fields as their `if` says. It knows no format: what it
knows of one is what the IR says.

Sizes and counts are expressions of earlier fields. The maker evaluates them on the value built
so far (`Evaluator`, Kaitai's semantics); when the result is unusable (too large, negative, not
computable), it picks a small size or count and *solves* the expression for it, setting the
field it reads (`len_body` for `size: len_body - 4`). A switch picks a case and solves its
`switch-on` the same way. Where nothing works it raises `Unbuildable`; where the value it built
is still inconsistent, the encoder says so (`EncodeError`), and both are counted, not hidden.
Fields the encoder derives (`Field.derived`) are left None.
"""

from __future__ import annotations

import codecs
import math
import random
import struct
from dataclasses import dataclass, field

from logcodec.generator import expr as E

MAX_SIZE = 64        # bytes of a sized field the maker picks itself
MAX_COUNT = 4        # elements of a list the maker picks itself
MAX_EVAL_SIZE = 4096  # the largest size or count taken from the schema's expressions as they are
MAX_DEPTH = 12       # nesting of user types
UNTIL_TRIES = 24     # candidates for a `repeat-until` list's last element
MAX_OBJECTS = 2000   # values of user types in one value: nested lists multiply
ASCII = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ._-/"
WIDE = "éüßçøÅ€中文字Ωж"


class Unbuildable(Exception):
    """No value of the schema could be built this time (a count or size the maker cannot meet)."""


class EvalError(Exception):
    """An expression could not be evaluated on the value built so far."""


@dataclass
class Scope:
    """A value under construction: its type, its object, the scopes above it and its params."""

    typedef: object
    obj: object
    parent: Scope | None
    params: dict = field(default_factory=dict)
    locals: dict = field(default_factory=dict)  # `_` and `_index`
    partial: dict = field(default_factory=dict)  # a list being built, as far as it goes
    done: set = field(default_factory=set)  # the seq fields set so far

    @property
    def root(self) -> Scope:
        scope = self
        while scope.parent is not None:
            scope = scope.parent
        return scope


class ValueMaker:
    """Values of one compiled schema. `modules` maps a schema id to its generated module (the
    schema's own and those of the schemas it imports)."""

    def __init__(self, schema, modules: dict) -> None:
        self.schema, self.modules = schema, modules
        self.enums = _enums(schema)
        self.hints = _hints(schema)
        self.literals = _literals(schema)
        self.scopes: dict[int, Scope] = {}  # id(object) -> its scope, to read a child's instances

    # ------------------------------------------------------------------ building

    def make(self, rng: random.Random, params: dict | None = None):
        self.rng, self.scopes, self.depth = rng, {}, 0
        return self.build_type(self.schema.root, None, dict(params or {}))

    def cls_of(self, typedef):
        module = self.modules[typedef.schema.id]
        try:
            return getattr(module, typedef.class_name)
        except AttributeError:  # a type the back end splits (an endianness chosen at run time)
            raise Unbuildable(f"no class {typedef.class_name} in {module.__name__}") from None

    def build_type(self, typedef, parent: Scope | None, params: dict):
        if self.depth > MAX_DEPTH:
            raise Unbuildable(f"nested deeper than {MAX_DEPTH} at {typedef.name}")
        if len(self.scopes) >= MAX_OBJECTS:
            raise Unbuildable(f"more than {MAX_OBJECTS} objects")
        obj = self.cls_of(typedef).__new__(self.cls_of(typedef))
        for f in typedef.seq:  # every field present, None until set (the encoder reads them all)
            object.__setattr__(obj, f.id, None)
        for name, value in params.items():  # the value carries its params, as a decoded one does
            object.__setattr__(obj, name, value)
        object.__setattr__(obj, "_parent", parent.obj if parent else None)
        object.__setattr__(obj, "_root", parent.root.obj if parent else obj)
        scope = Scope(typedef, obj, parent, params)
        self.scopes[id(obj)] = scope
        self.depth += 1
        try:
            for f in typedef.seq:
                object.__setattr__(obj, f.id, self.build_field(scope, f))
                scope.done.add(f.id)
        finally:
            self.depth -= 1
        self.set_instances(scope)
        return obj

    def set_instances(self, scope: Scope) -> None:
        """Give the value its value instances, as a decoded one has them: the encoder reads them
        (a switch on one, a size computed by one) and a value built by hand has no stream to
        compute them from (logcodec's `lazy` gives None there)."""
        for inst in scope.typedef.instances:
            if inst.value is not None and inst.if_expr is None:
                value = self.try_eval(inst.value, scope)
                if value is not None:
                    object.__setattr__(scope.obj, inst.id, value)

    def build_field(self, scope: Scope, f):
        if f.derived and self.rng.random() < 0.8:
            return None  # the encoder computes it
        if f.if_expr is not None:
            present = self.try_eval(f.if_expr, scope)
            if not isinstance(present, bool):
                present = self.rng.random() < 0.6
            if not present:
                return None
        if not f.repeat:
            return self.build_one(scope, f)
        items = scope.partial[f.id] = []  # the elements so far, which later ones may read
        try:
            if f.repeat == "expr":
                count = self.measure(scope, f.repeat_expr, lambda: self.small_count(), MAX_COUNT * 4)
                for i in range(count):
                    items.append(self.build_item(scope, f, i))
            elif f.repeat == "eos":
                for i in range(self.small_count()):
                    items.append(self.build_item(scope, f, i))
            else:
                self.build_until(scope, f, items)
        finally:
            del scope.partial[f.id]
        return items

    def build_item(self, scope: Scope, f, index: int):
        scope.locals["_index"] = index
        return self.build_one(scope, f)

    def build_until(self, scope: Scope, f, items: list) -> None:
        wanted = self.small_count() + 1
        for i in range(wanted + UNTIL_TRIES):
            item = self.build_item(scope, f, len(items))
            scope.locals["_"] = item
            stop = self.try_eval(f.repeat_until, scope)
            if stop is True:
                items.append(item)
                return
            if i < wanted - 1:
                items.append(item)  # keep going: the list is not long enough yet
            elif i >= wanted + UNTIL_TRIES // 2:  # drawing has not ended it: set what the condition reads
                item = self.force(f.repeat_until, scope, item)
                scope.locals["_"] = item
                if self.try_eval(f.repeat_until, scope) is True:
                    items.append(item)
                    return
        raise Unbuildable(f"{f.ypath}: no element ends the list (repeat-until)")

    def force(self, cond, scope: Scope, item, wanted: bool = True):
        """Try to make `cond` (read on the element `item`, as `_`) give `wanted`, by solving for
        what it compares; returns the element (a new one where `_` itself is compared)."""
        if isinstance(cond, E.Unary) and cond.op == "not":
            return self.force(cond.operand, scope, item, not wanted)
        if isinstance(cond, E.Binary) and cond.op in ("or", "and") and (cond.op == "or") == wanted:
            return self.force(cond.left, scope, item, wanted)  # one side does it
        if isinstance(cond, E.Binary) and cond.op == "and":
            item = self.force(cond.left, scope, item, wanted)
            scope.locals["_"] = item
            return self.force(cond.right, scope, item, wanted)
        if isinstance(cond, E.Binary) and cond.op == "==" and wanted:
            for var, other in ((cond.left, cond.right), (cond.right, cond.left)):
                target = self.try_eval(other, scope)
                if target is None:
                    continue
                if var == E.Name("_"):
                    return target
                if self.solve(var, target, scope):
                    return item
            return item
        if isinstance(cond, (E.Name, E.Attr)):
            self.solve(cond, wanted, scope)
        return item

    def build_one(self, scope: Scope, f):
        if f.contents is not None:
            return bytes(f.contents)
        ref = f.type
        if ref.kind == "switch":
            ref = self.pick_case(scope, f)
            if ref is None:  # no case matches and there is no default: raw bytes, if sized
                return self.build_raw(scope, f) if (f.size is not None or f.size_eos) else None
        return self.build_element(scope, f, ref)

    def build_element(self, scope: Scope, f, ref):
        """One value of `ref` for field `f`, meeting its `valid` where that can be met by drawing
        again (up to 16 times) or by taking the value `eq`/`any-of` names."""
        valid = f.valid or {}
        if valid.get("eq") is not None or valid.get("any-of"):
            node = valid["eq"] if valid.get("eq") is not None else self.rng.choice(valid["any-of"])
            value = self.try_eval(node, scope)
            if value is not None and ref.kind != "user":
                return bool(value) if ref.kind == "bits" and ref.size == 1 and isinstance(value, bool) else value
        value = None
        for _ in range(16 if valid else 1):
            value = self.build_plain(scope, f, ref)
            if not valid or self.is_valid(valid, value, scope):
                break
        return value

    def is_valid(self, valid: dict, value, scope: Scope) -> bool:
        scope.locals["_"] = value
        for rule, node in valid.items():
            if rule in ("eq", "any-of"):
                continue
            bound = self.try_eval(node, scope)
            if bound is None:
                continue
            try:
                ok = (bound is True) if rule == "expr" else (value >= bound if rule == "min" else value <= bound)
            except TypeError:
                ok = True
            if not ok:
                return False
        return True

    def build_plain(self, scope: Scope, f, ref):
        kind = ref.kind
        if kind in ("int", "bits"):
            return self.build_int(scope, f, ref)
        if kind == "float":
            return self.build_float(ref)
        if kind == "bytes":
            return self.build_raw(scope, f)
        if kind == "str":
            return self.build_str(scope, f, ref)
        if kind == "user":
            return self.build_user(scope, f, ref)
        raise Unbuildable(f"{f.ypath}: no values of kind {kind}")

    def build_user(self, scope: Scope, f, ref):
        params = {p.id: self.eval_or(arg, scope, 0) for p, arg in zip(ref.user.params, ref.args)}
        value = self.build_type(ref.user, scope, params)
        if f.size is not None and not f.process:
            length = self.encoded_length(ref.user, value, params)
            if length is not None:
                self.meet(scope, f.size, length)
            size = self.try_eval(f.size, scope)
            if isinstance(size, int) and not 0 <= size <= MAX_EVAL_SIZE:
                raise Unbuildable(f"{f.ypath}: a size of {size}, which the value cannot fill")
        return value

    def encoded_length(self, typedef, value, params: dict) -> int | None:
        """How many bytes the encoder writes for `value` of `typedef` alone, or None when it cannot
        be encoded alone (it reads its parent, or it is inconsistent)."""
        module = self.modules[typedef.schema.id]
        try:
            return len(module.encode_part(typedef.name, value, **{p.id: params.get(p.id) for p in typedef.params}))
        except Exception:  # noqa: BLE001 - not measurable alone: the size stays as evaluated
            return None

    # ------------------------------------------------------------------ leaves

    def build_int(self, scope: Scope, f, ref) -> int | bool:
        bits = ref.size if ref.kind == "bits" else ref.size * 8
        signed = ref.kind == "int" and ref.signed
        lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
        valid = f.valid or {}
        low, high = self.try_eval(valid.get("min"), scope), self.try_eval(valid.get("max"), scope)
        lo = max(lo, low) if isinstance(low, int) else lo
        hi = min(hi, high) if isinstance(high, int) else hi
        value = self.pick_int(f, lo, hi)
        if ref.kind == "bits" and bits == 1 and f.enum is None:
            return bool(value & 1)
        return value

    def pick_int(self, f, lo: int, hi: int) -> int:
        rng = self.rng
        if hi < lo:
            return lo
        roll = rng.random()
        if f.enum is not None and f.enum.members and roll < 0.75:
            members = [v for v in f.enum.members if lo <= v <= hi]
            if members:
                return rng.choice(members)
        hints = [v for v in self.hints.get(f.id, ()) if lo <= v <= hi]
        if hints and roll < 0.5:
            return rng.choice(hints)
        if roll < 0.7:
            return max(lo, min(hi, rng.randrange(0, 17)))
        if roll < 0.85:
            return rng.choice([v for v in (lo, lo + 1, hi - 1, hi, 0, 1, -1, 0x7F, 0x80, 0xFF, 0x100)
                               if lo <= v <= hi] or [lo])
        return rng.randint(lo, hi)

    def build_float(self, ref) -> float:
        rng = self.rng
        value = rng.choice((0.0, -0.0, 1.0, -1.5, 0.5, 1e10, -2.25e-5, math.inf, -math.inf)) \
            if rng.random() < 0.4 else rng.uniform(-1e6, 1e6)
        if ref.size == 4:  # the nearest single: what a decoder reads back
            value = struct.unpack("<f", struct.pack("<f", value))[0]
        return value

    def build_raw(self, scope: Scope, f) -> bytes:
        size = self.field_size(scope, f)
        if size is None:  # up to a terminator, or to the end of the stream
            data = self.rand_bytes(self.rng.randrange(0, 12))
            if f.terminator is not None and len(f.terminator) == 1:
                data = data.replace(f.terminator, b"")
            return data
        if f.terminator is not None or f.pad_right is not None:
            data = self.rand_bytes(self.rng.randrange(0, size + 1))
            for stop in filter(None, (f.terminator, bytes([f.pad_right]) if f.pad_right is not None else None)):
                data = data.replace(stop, b"") if len(stop) == 1 else data
            return data
        return self.rand_bytes(size)

    def rand_bytes(self, n: int) -> bytes:
        literals = self.literals.get(n)
        if literals and self.rng.random() < 0.4:
            return self.rng.choice(literals)
        roll = self.rng.random()
        if roll < 0.15:
            return bytes(n)
        if roll < 0.25:
            return bytes([self.rng.randrange(256)]) * n
        return self.rng.randbytes(n)

    def build_str(self, scope: Scope, f, ref) -> str:
        encoding = _python_encoding(ref.encoding)
        unit = len("a".encode(encoding, errors="ignore")) or 1
        size = self.field_size(scope, f)
        if size is not None and (f.terminator is not None or f.pad_right is not None):
            size = self.rng.randrange(0, size // unit + 1) * unit
        target = size if size is not None else self.rng.randrange(0, 12) * unit
        literals = [t for t in self.literals.get(target, ()) if _decodes(t, encoding)]
        if literals and self.rng.random() < 0.4:
            return self.rng.choice(literals).decode(encoding)
        if target % unit:
            raise Unbuildable(f"{f.ypath}: {target} bytes is no whole number of {ref.encoding} characters")
        chars, used = [], 0
        while used < target:
            c = self.rng.choice(WIDE) if self.rng.random() < 0.15 else self.rng.choice(ASCII)
            try:
                width = len(c.encode(encoding))
            except (UnicodeError, LookupError):
                c, width = "a", unit
            if used + width > target:
                c, width = "a", unit
            chars.append(c)
            used += width
        return "".join(chars)

    # ------------------------------------------------------------------ sizes, counts, cases

    def field_size(self, scope: Scope, f) -> int | None:
        """The bytes a sized field takes (None: not sized, or sized by the end of its stream, where
        the maker picks)."""
        if f.size_eos:
            return self.rng.randrange(0, MAX_SIZE // 4)
        if f.size is None:
            return None
        return self.measure(scope, f.size, lambda: self.rng.choice((0, 1, 2, 4, 8, 16, self.rng.randrange(MAX_SIZE))),
                            MAX_EVAL_SIZE)

    def measure(self, scope: Scope, node, pick, limit: int) -> int:
        """A size or count: the expression's value when usable, else one picked and solved for."""
        value = self.try_eval(node, scope)
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= limit:
            return value
        wanted = pick()
        if self.solve(node, wanted, scope):
            return wanted
        raise Unbuildable(f"a size or count of {value!r}, and nothing to set to make it {wanted}")

    def meet(self, scope: Scope, node, wanted: int) -> None:
        """Make a size expression give `wanted` where it does not already."""
        if self.try_eval(node, scope) != wanted:
            self.solve(node, wanted, scope)

    def small_count(self) -> int:
        return self.rng.choice((0, 1, 1, 2, 2, 3, MAX_COUNT))

    def pick_case(self, scope: Scope, f):
        """The case of a switch: one drawn at random and its selector solved for, most of the
        time; otherwise (or when that cannot be solved) the one the selector gives."""
        ref = f.type
        if self.rng.random() < 0.75:
            key, case = self.rng.choice(ref.cases)
            if key is None:
                return case
            wanted = self.try_eval(key, scope)
            if wanted is not None and self.solve(ref.switch_on, wanted, scope):
                return case
        on = self.try_eval(ref.switch_on, scope)
        default = None
        for key, case in ref.cases:
            if key is None:
                default = case
            elif on is not None and _same(self.try_eval(key, scope), on):
                return case
        return default

    def solve(self, node, wanted, scope: Scope) -> bool:
        """Set the one field `node` reads so that it evaluates to `wanted`; False when the
        expression is not of a form solved here (a field, plus or minus or times a constant, a
        cast) or the value found does not fit."""
        if isinstance(node, E.Cast):
            return self.solve(node.obj, wanted, scope)
        if isinstance(node, E.Binary) and node.op in ("+", "-", "*") and isinstance(wanted, int):
            for var, const, left in ((node.left, node.right, True), (node.right, node.left, False)):
                c = self.try_eval(const, scope)
                if not isinstance(c, int) or isinstance(c, bool):
                    continue
                if node.op == "+":
                    inner = wanted - c
                elif node.op == "-":
                    inner = wanted + c if left else c - wanted
                elif c and wanted % c == 0:
                    inner = wanted // c
                else:
                    continue
                if self.solve(var, inner, scope):
                    return True
            return False
        target, name = self.settable(node, scope)
        if target is None:
            return False
        f = target.typedef.field(name)
        if f.type.kind not in ("int", "bits") or f.repeat or f.if_expr is not None:
            return False
        if isinstance(wanted, bool) and f.type.kind == "bits" and f.type.size == 1:
            object.__setattr__(target.obj, name, wanted)
            return True
        bits = f.type.size if f.type.kind == "bits" else f.type.size * 8
        signed = f.type.kind == "int" and f.type.signed
        lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
        if isinstance(wanted, bool) or not isinstance(wanted, int) or not lo <= wanted <= hi:
            return False
        object.__setattr__(target.obj, name, wanted)
        return True

    def settable(self, node, scope: Scope):
        """The scope and name of the seq field that `node` names, if it is one already set."""
        if isinstance(node, E.Name):
            if node.name in scope.done:
                return scope, node.name
            return None, None
        if isinstance(node, E.Attr):
            try:
                holder = self.eval(node.obj, scope)
            except EvalError:
                return None, None
            inner = holder if isinstance(holder, Scope) else self.scopes.get(id(holder))
            if inner is not None and node.name in inner.done:
                return inner, node.name
        return None, None

    # ------------------------------------------------------------------ expressions

    def try_eval(self, node, scope: Scope):
        if node is None:
            return None
        try:
            value = self.eval(node, scope)
        except (EvalError, ArithmeticError, TypeError, ValueError, IndexError, KeyError, AttributeError,
                RecursionError):
            return None
        return self.obj_of(value)

    def eval_or(self, node, scope: Scope, default):
        value = self.try_eval(node, scope)
        return default if value is None else value

    def obj_of(self, value):
        return value.obj if isinstance(value, Scope) else value

    def eval(self, node, scope: Scope):
        if isinstance(node, (E.Num, E.Str, E.Bool)):
            return node.value
        if isinstance(node, E.Name):
            return self.name(node.name, scope)
        if isinstance(node, E.EnumLit):
            return self.enum_value(node)
        if isinstance(node, E.Attr):
            if node.obj == E.Name("_io") and node.name == "eof":
                return False  # while building, the stream goes on
            if node.name == "_sizeof" and isinstance(node.obj, E.Name) and node.obj.name in scope.done:
                return self.field_sizeof(scope, scope.typedef.field(node.obj.name))
            return self.attr(self.eval(node.obj, scope), node.name)
        if isinstance(node, E.Call):
            args = [self.obj_of(self.eval(a, scope)) for a in node.args]
            return _method(self.obj_of(self.eval(node.obj, scope)), node.name, args)
        if isinstance(node, E.Cast):
            return self.eval(node.obj, scope)
        if isinstance(node, E.Index):
            return self.obj_of(self.eval(node.obj, scope))[self.obj_of(self.eval(node.index, scope))]
        if isinstance(node, E.ArrayLit):
            items = [self.obj_of(self.eval(i, scope)) for i in node.items]
            return bytes(items) if all(isinstance(i, int) and 0 <= i <= 255 for i in items) else items
        if isinstance(node, E.Unary):
            v = self.obj_of(self.eval(node.operand, scope))
            return {"not": lambda: not v, "-": lambda: -v, "~": lambda: ~v, "+": lambda: v}[node.op]()
        if isinstance(node, E.Ternary):
            cond = self.obj_of(self.eval(node.cond, scope))
            return self.eval(node.then if cond else node.other, scope)
        if isinstance(node, E.Binary):
            return self.binary(node, scope)
        if isinstance(node, E.SizeOf):
            sizes = getattr(self.modules[self.schema.id], "SIZES", {})
            if node.type_name not in sizes:
                raise EvalError(f"sizeof<{node.type_name}>")
            return sizes[node.type_name] * (8 if node.bits else 1)
        if isinstance(node, E.FString):
            return "".join(str(self.obj_of(self.eval(p, scope))) for p in node.parts)
        raise EvalError(f"cannot evaluate {type(node).__name__}")

    def field_sizeof(self, scope: Scope, f) -> int:
        """`field._sizeof` of a seq field already built: the bytes it takes."""
        value = getattr(scope.obj, f.id)
        if f.repeat or f.type.kind == "switch":
            raise EvalError(f"{f.id}._sizeof")
        if f.type.kind in ("int", "float"):
            return f.type.size
        if f.size is not None:
            return self.eval(f.size, scope)
        if isinstance(value, (bytes, bytearray)) and f.terminator is None:
            return len(value)
        if f.type.kind == "user" and value is not None:
            return self.attr(value, "_sizeof")
        raise EvalError(f"{f.id}._sizeof")

    def binary(self, node, scope: Scope):
        op = node.op
        a = self.obj_of(self.eval(node.left, scope))
        if op == "and":
            return bool(a) and bool(self.obj_of(self.eval(node.right, scope)))
        if op == "or":
            return bool(a) or bool(self.obj_of(self.eval(node.right, scope)))
        b = self.obj_of(self.eval(node.right, scope))
        if op == "==":
            return _same(a, b)
        if op == "!=":
            return not _same(a, b)
        if op == "/":
            return a // b if isinstance(a, int) and isinstance(b, int) else a / b
        if op == "%" and isinstance(a, float):
            return math.fmod(a, b)
        ops = {"+": lambda: a + b, "-": lambda: a - b, "*": lambda: a * b, "%": lambda: a % b,
               "<": lambda: a < b, "<=": lambda: a <= b, ">": lambda: a > b, ">=": lambda: a >= b,
               "<<": lambda: a << b if b < 4096 else _too_big(), ">>": lambda: a >> b,
               "&": lambda: a & b, "|": lambda: a | b, "^": lambda: a ^ b}
        if op not in ops:
            raise EvalError(f"operator {op}")
        return ops[op]()

    def name(self, name: str, scope: Scope):
        if name in scope.locals:
            return scope.locals[name]
        if name == "_parent":
            if scope.parent is None:
                raise EvalError("_parent of the root")
            return scope.parent
        if name == "_root":
            return scope.root
        if name == "_io":
            raise EvalError("_io is not known while building")
        return self.attr(scope, name)

    def attr(self, holder, name: str):
        scope = holder if isinstance(holder, Scope) else self.scopes.get(id(holder))
        if scope is None:
            return _method(holder, name, [])
        if name == "_parent":
            return self.name("_parent", scope)
        if name == "_root":
            return scope.root
        if name == "_sizeof" and holder is not scope:  # a child built already: what it encodes to
            length = self.encoded_length(scope.typedef, scope.obj, scope.params)
            if length is None:
                raise EvalError(f"_sizeof of {scope.typedef.name}")
            return length
        if name in scope.params:
            return scope.params[name]
        if name in scope.done:
            return getattr(scope.obj, name)
        if name in scope.partial:
            return scope.partial[name]
        for inst in scope.typedef.instances:
            if inst.id == name and inst.value is not None:
                return self.eval(inst.value, Scope(scope.typedef, scope.obj, scope.parent, scope.params,
                                                   done=scope.done))
        raise EvalError(f"{name} is not known yet in {scope.typedef.name}")

    def enum_value(self, node) -> int:
        short = node.enum.rpartition("::")[2]
        for enum in self.enums.get(short, ()):
            for value, member in enum.members.items():
                if member == node.value:
                    return value
        raise EvalError(f"enum literal {node.enum}::{node.value}")


def _too_big():
    raise EvalError("a shift too large to build")


def _same(a, b) -> bool:
    if isinstance(a, (bytes, bytearray)) and isinstance(b, list):
        b = bytes(b) if all(isinstance(x, int) and 0 <= x <= 255 for x in b) else b
    return a == b


def _method(v, name: str, args: list):
    if name in ("length", "size") and isinstance(v, (str, bytes, bytearray, list)):
        return len(v)
    if name in ("first", "last", "min", "max") and isinstance(v, (bytes, list)) and len(v):
        return {"first": v[0], "last": v[-1], "min": min(v), "max": max(v)}[name]
    if name == "to_i":
        if isinstance(v, str):
            return int(v, args[0] if args else 10)
        if isinstance(v, (int, float)):
            return int(v)
    if name == "to_s" and isinstance(v, (bytes, bytearray)) and args:
        return bytes(v).decode(_python_encoding(str(args[0])))
    if name == "to_s" and isinstance(v, int):
        return str(v)
    if name == "reverse" and isinstance(v, (str, bytes)):
        return v[::-1]
    if name == "substring" and isinstance(v, str) and len(args) == 2:
        return v[args[0]:args[1]]
    raise EvalError(f".{name} of {type(v).__name__}")


def _python_encoding(name: str) -> str:
    try:
        return codecs.lookup(name).name
    except LookupError:
        return {"ASCII": "ascii"}.get(name.upper(), "latin-1")


def _enums(schema) -> dict[str, list]:
    """Every enum of the schema and of the schemas it imports, by its own name."""
    out: dict[str, list] = {}
    seen, todo = set(), [schema]
    while todo:
        s = todo.pop()
        if s.id in seen:
            continue
        seen.add(s.id)
        todo.extend(s.imports)
        for t in s.all_types():
            for name, enum in t.enums.items():
                out.setdefault(name, []).append(enum)
    return out


def _hints(schema) -> dict[str, set]:
    """The integers each field name is compared with anywhere in the schema (a switch's case
    keys, `==`/`!=`/`<`... with a literal), and their neighbours: values that take other paths."""
    hints: dict[str, set] = {}

    def note(target, value) -> None:
        name = target.name if isinstance(target, (E.Name, E.Attr)) else None
        if name and isinstance(value, int) and not isinstance(value, bool):
            hints.setdefault(name, set()).update((value, value - 1, value + 1))

    for t in schema.all_types():
        exprs = [e for f in t.seq for e in f.expressions()] + [i.value for i in t.instances if i.value is not None]
        for f in t.seq:
            if f.type.kind == "switch":
                for key, _ in f.type.cases:
                    if isinstance(key, E.Num):
                        note(f.type.switch_on, key.value)
        for e in exprs:
            for n in E.walk(e):
                if isinstance(n, E.Binary) and n.op in ("==", "!=", "<", "<=", ">", ">="):
                    for var, lit in ((n.left, n.right), (n.right, n.left)):
                        if isinstance(lit, E.Num):
                            note(var, lit.value)
    return hints


def _decodes(data: bytes, encoding: str) -> bool:
    try:
        data.decode(encoding)
    except (UnicodeError, LookupError):
        return False
    return True


def _literals(schema) -> dict[int, list[bytes]]:
    """The strings and byte arrays the schema's expressions name (a chunk type it switches on, a
    magic it checks), by length in bytes (UTF-8): a bytes or str field of that length draws one
    now and then."""
    found: set[bytes] = set()
    for t in schema.all_types():
        exprs = [e for f in t.seq for e in f.expressions()] + [i.value for i in t.instances if i.value is not None]
        exprs += [key for f in t.seq if f.type.kind == "switch" for key, _ in f.type.cases if key is not None]
        for e in exprs:
            for n in E.walk(e):
                if isinstance(n, E.Str):
                    found.add(n.value.encode("utf-8", errors="replace"))
                elif isinstance(n, E.ArrayLit) and all(isinstance(i, E.Num) and isinstance(i.value, int)
                                                       and 0 <= i.value <= 255 for i in n.items):
                    found.add(bytes(i.value for i in n.items))
    out: dict[int, list[bytes]] = {}
    for lit in sorted(found):
        out.setdefault(len(lit), []).append(lit)
    return out
