"""One field as a construct: its value (a number, bytes or text, a structure, a switch of them),
then what the seq says around it (derived, repeated, conditional), and its `valid` as a `Check`.

`base` is where the field's own structure's context is, seen from the function being written:
`this` in the structure itself, `this._` from a structure nested in it (a group of bit fields).
"""

from __future__ import annotations

from logcodec import processors as named_processors

from ..layout import primitive
from ..passes.construct_limits import case_literal
from ..schema import Field, TypeRef
from ..types import field_tinfo
from ..walk import refs_of
from .cexpr import reads, reads_parent_field
from .context import TypeContext
from .derived import derived


class Fields:
    """The constructs of one type's fields (`TypeContext`)."""

    def __init__(self, cx: TypeContext) -> None:
        self.cx, self.m, self.t = cx, cx.m, cx.t

    def field(self, f: Field, base: str = "this") -> str:
        """The whole construct of a field: its value, derived, repeated, conditional."""
        c = derived(self.cx, f, self.element(f, base), base)
        if f.repeat:
            c = self.repeat(f, c, base)
        if f.if_expr is not None:
            self.m.use("If")
            c = f"If({self.cx.fn(f.if_expr, base)}, {c})"
        return c

    # ------------------------------------------------------------ lists

    def repeat(self, f: Field, c: str, base: str) -> str:
        """A list of elements `c`: as many as counted, to the end, or until one says so."""
        if reads_own_list(f):
            self.m.runtime = True
            c = f'_lc.Remembered("{f.id}", {c})'
            self.m.limit("An element that reads the elements before it (`_parent.x[_index - 1]`) is wrapped in "
                         "`_lc.Remembered`: construct's `Array`, `GreedyRange` and `RepeatUntil` keep the elements "
                         "read so far to themselves.")
        if f.repeat == "expr":
            self.m.use("Array")
            return f"Array({self.cx.fn(f.repeat_expr, base)}, {c})"
        if f.repeat == "eos":
            self.m.use("GreedyRange")
            return f"GreedyRange({c})"
        self.m.use("RepeatUntil")
        until = self.cx.expr(f.repeat_until, base, {"_": ("obj_", element_tinfo(f))})
        return f"RepeatUntil(lambda obj_, lst_, this: {until}, {c})"

    # ------------------------------------------------------------ values

    def element(self, f: Field, base: str) -> str:
        """The construct of one value of a field (an element, when it is repeated)."""
        ref = f.type
        if f.contents is not None:
            self.m.use("Const")
            return f"Const({f.contents!r})"
        if ref.kind in ("int", "float", "bits"):
            c = self.scalar(ref, f.enum is not None)
            if f.enum is not None:
                self.m.use("Enum")
                c = f"Enum({c}, {self.m.enum_class(f.enum)})"
            return c
        if ref.kind in ("bytes", "str"):
            plain = f.process is None and f.terminator is None and f.pad_right is None
            if plain and f.size is not None:
                self.m.use("Bytes")
                inner, size = f"Bytes({self.cx.fn(f.size, base)})", None
            else:
                self.m.use("GreedyBytes")
                inner, size = "GreedyBytes", f.size
        else:
            inner, size = self.structure(f, ref, base), f.size
        if f.process:
            inner = self.processed(f, inner, base)
        if f.terminator is not None:
            inner = self.terminated(f, inner)
        if f.pad_right is not None:
            self.m.use("NullStripped")
            inner = f"NullStripped({inner}, pad={bytes([f.pad_right])!r})"
        if size is not None and f.pad_right not in (None, 0):  # construct pads with zeros
            self.m.runtime = True
            inner = f"_lc.PaddedTo({self.cx.fn(size, base)}, {inner}, {bytes([f.pad_right])!r})"
        elif size is not None:
            self.m.use("FixedSized")
            inner = f"FixedSized({self.cx.fn(size, base)}, {inner})"
        if ref.kind == "str":
            self.m.use("StringEncoded")
            inner = f"StringEncoded({inner}, {ref.encoding!r})"
        return inner

    def terminated(self, f: Field, inner: str) -> str:
        """Bytes up to a terminator; within a size, a missing terminator is no error (Kaitai's)."""
        require = f.eos_error and f.size is None and not f.size_eos
        name = "NullTerminated"
        if f.include or not f.consume:  # construct would write the terminator again
            name, self.m.runtime = "_lc.Terminated", True
        else:
            self.m.use("NullTerminated")
        return f"{name}({inner}, term={f.terminator!r}, include={f.include}, consume={f.consume}, require={require})"

    def processed(self, f: Field, inner: str, base: str) -> str:
        """Bytes through a `process:`: the processor `logcodec.processors` names, else a user's."""
        name, args = f.process
        self.m.runtime = True
        self.m.limit("`process:` is `_lc.Processed`, calling the processor that `logcodec.processors` names "
                     "(construct's `Compressed` knows no format's codec table); decompression is bounded "
                     "by logcodec's default limits.")
        arglist = ", ".join(self.cx.expr(a, base) for a in args)
        module = named_processors.module_of(name)
        if module is None:  # a user's own, through UserProcessor (Kaitai's naming)
            self.m.processor_imports.add(("logcodec.runtime.processors", "UserProcessor"))
            proc = f"UserProcessor({name!r})"
        else:
            self.m.processor_imports.add((module, name))
            proc = f"_fx_{name}"  # apart from the schema's own names, which are lower_snake ids
        return f"_lc.Processed({inner}, {proc}" + (f", lambda this: [{arglist}])" if args else ")")

    def scalar(self, ref: TypeRef, enum: bool = False) -> str:
        """A number: construct's integer, float or flag of that width and byte order, or bits."""
        if ref.kind == "int":
            order = "b" if ref.endian == "be" or ref.size == 1 else "l"
            name = f"Int{ref.size * 8}{'s' if ref.signed else 'u'}{order}"
        elif ref.kind == "float":
            name = f"Float{ref.size * 8}{'b' if ref.endian == 'be' else 'l'}"
        elif ref.size == 1 and not enum:
            name = "Flag"
        else:
            self.m.use("BitsInteger")
            return f"BitsInteger({ref.size})"
        self.m.use(name)
        return name

    # ------------------------------------------------------------ structures and switches

    def structure(self, f: Field, ref: TypeRef, base: str) -> str:
        """A field of a user type, or a switch of cases."""
        if ref.kind == "user":
            return self.user_type(ref)
        key = self.cx.expr(ref.switch_on, base)
        cases, default = [], None
        for k, case in ref.cases:
            code = self.case(case)
            if k is None:
                default = code
            else:
                cases.append((case_literal(k), code))
        if default is None:
            default = "GreedyBytes" if f.size is not None or f.size_eos or f.process else "Pass"
            self.m.use(default)
        self.m.use("Switch")
        choices = ", ".join(f"{k}: {c}" for k, c in cases)
        switch = f"Switch(lambda this: {key}, {{{choices}}}, default={default})"
        if self.selects_on_peek(ref):
            self.m.use("IfThenElse", "Select")
            self.m.limit("A case chosen by a byte read ahead is chosen so when parsing; building tries the "
                         "cases in turn (`Select`), as the value does not hold that byte.")
            tried = list(dict.fromkeys([c for _, c in cases] + [default]))
            return f"IfThenElse(lambda this: this._parsing, {switch}, Select({', '.join(tried)}))"
        return switch

    def case(self, ref: TypeRef) -> str:
        """A switch case's construct: a user type, or a number, bytes or text (to the end of the
        field's bytes)."""
        if ref.kind == "user":
            return self.user_type(ref)
        if ref.kind in ("int", "float", "bits"):
            return self.scalar(ref)
        self.m.use("GreedyBytes")
        if ref.kind == "str":
            self.m.use("StringEncoded")
            return f"StringEncoded(GreedyBytes, {ref.encoding!r})"
        return "GreedyBytes"

    def selects_on_peek(self, ref: TypeRef) -> bool:
        """Whether a switch is on a positional instance: a byte read ahead, which no value holds."""
        peeks = {i.id for i in self.t.instances if i.field is not None}
        return bool(reads(ref.switch_on) & peeks)

    def user_type(self, ref: TypeRef) -> str:
        """The construct of a user type given its arguments (each a function of this type's
        context, seen from inside the held structure); a varint primitive is construct's."""
        prim = primitive(ref)
        if prim is not None:
            name = "ZigZag" if prim.zigzag else "VarInt"
            self.m.use(name)
            self.m.limit("A varint is construct's `VarInt` (`ZigZag` when zigzag-encoded): it does not bound the "
                         "number of bytes by the schema's width nor refuse an overlong encoding, which the Python "
                         "codecs refuse.")
            if prim.bias:  # the number held is the value plus the bias
                self.m.use("ExprAdapter")
                return f"ExprAdapter({name}, lambda obj, ctx: obj - {prim.bias}, lambda obj, ctx: obj + {prim.bias})"
            return name
        u, m = ref.user, self.m
        name = m.type_name(u) if u.schema is m.schema else f"{m.module_alias(u.schema)}.{m.type_name(u)}"
        if u.params:
            scope = self.cx.scope("this._")
            args = m.runtime_in(", ".join(f"lambda this: {scope.translate(a)}" for a in ref.args))
            name = f"{name}({args})"
        if u.schema is m.schema and ((self.t.name, u.name) in m.lazy or u is m.schema.root):
            m.use("LazyBound")
            return f"LazyBound(lambda: {name})"
        return name

    # ------------------------------------------------------------ valid

    def check(self, f: Field, base: str = "this") -> str:
        """Kaitai's `valid`, a `Check` after the field; of each element of a repeated field."""
        self.m.use("Check")
        value = "obj_" if f.repeat else f'{base}["{f.id}"]'
        rules = []
        for kind, rule in f.valid.items():
            if kind == "eq":
                rules.append(f"{value} == {self.cx.expr(rule, base)}")
            elif kind == "min":
                rules.append(f"{value} >= {self.cx.expr(rule, base)}")
            elif kind == "max":
                rules.append(f"{value} <= {self.cx.expr(rule, base)}")
            elif kind == "any-of":
                rules.append(f"{value} in ({', '.join(self.cx.expr(r, base) for r in rule)},)")
            elif kind == "in-enum":  # construct's Enum gives a label for a member, the bare integer else
                self.m.runtime = True
                rules.append(f"_lc.is_member({value})")
            else:
                rules.append(self.cx.expr(rule, base, {"_": (value, element_tinfo(f))}))
        test = " and ".join(rules)
        if f.repeat:
            test = f'all({test} for obj_ in {base}["{f.id}"])'
        if f.if_expr is not None:
            test = f'{base}["{f.id}"] is None or ({test})'
        return f"Check(lambda this: {test}),  # valid"


def element_tinfo(f: Field):
    """What one element of a field is, to the type detector (the field's own type if not a list)."""
    ti = field_tinfo(f)
    return ti[1] if isinstance(ti, tuple) and ti[0] == "list" else ti


def reads_own_list(f: Field) -> bool:
    """Whether the elements of the list `f` read it (`_parent.<f>`): the elements before them."""
    for ref in refs_of(f.type):
        if ref.kind == "user" and not ref.user.primitive:
            u = ref.user
            exprs = [e for g in u.seq for e in g.expressions(write_side=True)]
            exprs += [i.value for i in u.instances if i.value is not None]
            if any(reads_parent_field(e, f.id) for e in exprs):
                return True
    return False
