"""Translate Kaitai expressions (generator.expr AST) into the Python of the codecs.

An expression is translated in a `Scope`: the type it belongs to and how names map to the
local variables of the generated function (`v_<field>`, `p_<param>`, `i_<instance>`,
`pp_<name>` for `_parent.<name>`). The common part of Kaitai-to-Python is
`generator.pyexpr.PythonExpressions`; what each part of an expression is comes from the type
detector (`generator.types`), which also applies Kaitai's type rules.
"""

from __future__ import annotations

from .. import expr as E
from ..layout import reads_bits_one_by_one
from ..pyexpr import PythonExpressions
from ..schema import TypeDef
from ..types import Names, user_of


class Bindings(dict):
    """`_` and `_index` where they mean something, as (code, type): the code for the translator,
    the type given on to the detector's names as well."""

    def __init__(self, types: dict) -> None:
        super().__init__()
        self.types = types

    def __setitem__(self, name: str, value: tuple) -> None:
        super().__setitem__(name, value)
        self.types[name] = value[1]

    def __delitem__(self, name: str) -> None:
        super().__delitem__(name)
        del self.types[name]

    def clear(self) -> None:
        super().clear()
        self.types.clear()


class Scope(PythonExpressions):
    """Maps the names an expression may read to Python code.

    `objects` (a user's schema): `_io`, `_parent` and `_root` are objects, as in Kaitai's
    parsers (`Nav`); else `_parent.x` is a value the holder passes and `_io.pos` the only
    stream property (this repository's codecs)."""

    def __init__(self, t: TypeDef, enum_class, parent: TypeDef | None = None, objects: "Nav | None" = None,
                 encoding: bool = False, tuple_form=None) -> None:
        self.t = t
        self.tuple_form = tuple_form  # TypeDef -> the fields of its tuple form, or None (an encoder's)
        self.enum_class = enum_class  # Enum -> Python class name
        self.parent = parent  # the type that holds this one, for `_parent.x`
        self.objects = objects
        self.encoding = encoding
        self.names = Names(t, parent, objects is not None, objects is not None and objects.navigates,
                           objects.parents if objects is not None else {})
        self.extra = Bindings(self.names.extra)  # "_", "_index"
        # Told of each local of the generated function that a translation reads, besides the
        # locals of names (`start`, where the type starts): the emitter records it (`Lines.local`).
        self.reads_local = lambda name: None
        # An instance of a user's schema read off a value seen as anything (`member`): what a
        # compiled build needs, and the interpreted build's codecs leave out (a call each).
        self.cast_objects = True
        # The instances read from the value as the expression reaches them (`o.x`, computed then
        # if it is lazy), not computed before it: in a lazy instance's code, where `a and b`
        # must not compute `b` when `a` is false, as Kaitai's parsers do not.
        self.read_from_value: frozenset[str] = frozenset()
        # What those instances are read off: the value seen as anything, whose read of an
        # instance not computed yet reaches `__getattr__` (`Decoder.lazy_function`).
        self.value_as_anything = "o"
        # A member of one of the module's own enums as a constant of the module (`Lines.enum_constant`),
        # where the emitter says so (a compiled build); else `Enum.member`.
        self.enum_constant = None
        # What makes a stream object (`_io`): the emitter's, which may be a module's own class.
        self.new_stream = lambda: "_rt.KStream"

    def name(self, n: str) -> str:
        if n in self.extra:
            return self.extra[n][0]
        self.names.of(n)  # known, or the detector says what is wrong
        if n in self.read_from_value:
            if any(i.id == n for i in self.t.instances):
                self.reads_local(self.value_as_anything)
                return f"{self.value_as_anything}.{n}"
            return f"o.{n}"
        if self.objects is not None and n in ("_parent", "_root", "_io"):
            return self.objects.name(self, n)
        if any(p.id == n for p in self.t.params):
            return f"p_{n}"
        return f"v_{n}" if self.t.field(n) is not None else f"i_{n}"

    def enum_member(self, enum, member: str) -> str:
        cls = self.enum_class(enum)
        if self.enum_constant is not None and enum.owner.schema is self.t.schema:
            return self.enum_constant(cls, member)
        return f"{cls}.{member}"

    def text(self, code: str, encoding: str) -> str:
        # In a user's schema an unknown encoding is a DecodeError when read.
        return f"_rt.text({code}, {encoding})" if self.objects is not None else f"str({code}, {encoding})"

    def member(self, code: str, t: TypeDef, name: str) -> str:
        # An instance is declared `X | None` (set by the decoder, or given as an input: None only
        # half-built), so it is cast for mypyc; but not on a value read from a hidden argument
        # (`pp_items[i - 1]`, declared Any), where the cast is a call of nothing when interpreted
        # (about 40 ns, 5 % of a TANK message: `_parent.items[_index - 1].timestamp`).
        if t.field(name) is None and any(inst.id == name for inst in t.instances) and not code.startswith("pp_"):
            # A user's schema's instance may not be computed yet: read from the value seen as
            # anything, which a compiled build's native class answers through `__getattr__`.
            if self.objects is not None:
                return f"_cast(Any, {code}).{name}" if self.cast_objects else f"{code}.{name}"
            return f"_cast(Any, {code}.{name})"
        return f"{code}.{name}"

    def element_field(self, node: E.Attr) -> str | None:
        """A field of a list's element, read by an encoder: the element may be a value object or
        its tuple form (`Model.tuple_form`), so it is read by `_rt.field_of`; None elsewhere."""
        if not self.encoding or self.tuple_form is None:
            return None
        obj = node.obj
        if not (isinstance(obj, E.Index) or (isinstance(obj, E.Attr) and obj.name in ("first", "last"))):
            return None
        t = user_of(self.type_of(obj))
        form = self.tuple_form(t) if t is not None else None
        if not form:
            return None
        # (`Model.tuple_form` gives no form to a type whose encoders read here what it has not.)
        at = [f.id for f in form].index(node.name)
        # The list seen as anything: a compiled build checks what it takes from a typed list, and
        # the list of a tuple form is a tuple.
        items = f'_cast(Any, {self.code(obj.obj)})'
        index = self.code(obj.index) if isinstance(obj, E.Index) else {"first": "0", "last": "-1"}[obj.name]
        return f"_rt.field_of({items}[{index}], {node.name!r}, {at})"

    def attr(self, node: E.Attr) -> str:
        if self.objects is not None:
            found = self.object_attr(node)
            if found is not None:
                return found
        elif node.obj == E.Name("_io"):
            # The only stream property: where decoding is, from the start of this type (a positional
            # instance peeks ahead with `pos: _io.pos + N`, read where it is first needed).
            self.reads_local("start")
            return "(pos - start)"
        elif node.obj == E.Name("_parent"):
            # `_parent.x` arrives as a hidden argument `pp_x`: the parent's own local, so that a
            # list being built is seen as far as it goes (`_parent.items[_index - 1]`).
            return f"pp_{node.name}"
        return self.element_field(node) or super().attr(node)

    def object_attr(self, node: E.Attr) -> str | None:
        """An attribute in a user's schema that only Kaitai's objects have, or of a value whose
        type is known only at run time; None when the typed rules apply."""
        if node.obj == E.Name("_io"):
            return self.objects.stream(self, node.name)
        if node.name in ("_parent", "_root", "_io"):
            if node.name == "_io" and self.encoding:
                return "_rt.stream_only('_io', '')"
            return f"{self.code(node.obj)}.{node.name}"
        ti = self.type_of(node.obj)
        if ti == "io":
            return f"_rt.stream_only('_io.{node.name}', '')" if self.encoding else f"{self.code(node.obj)}.{node.name}"
        if ti == "any":
            code = self.code(node.obj)
            return f"_rt.dyn({code}, {node.name!r})" if node.name in _DYNAMIC else f"{code}.{node.name}"
        return None


class ValueScope(Scope):
    """A type's expression read off one of its finished values, `self` (its `to-string`, in
    `__str__`): fields, instances (computed when first read) and params are the value's
    attributes; `_parent`, `_root` and `_io` the links Kaitai's objects have."""

    def name(self, n: str) -> str:
        if n in self.extra:
            return self.extra[n][0]
        self.names.of(n)  # known, or the detector says what is wrong
        return f"self.{n}"

    def object_attr(self, node: E.Attr) -> str | None:
        if node.obj == E.Name("_io"):
            return f"self._io.{node.name}"
        return super().object_attr(node)


class Nav:
    """Kaitai's objects in the expressions of a user's schema. The decoder of a type holds
    `io0` (where its stream starts), `end` (where it ends) and `pos`; with `navigates`, also
    `parent` and `root` (`Node`s of the values being read, or the values being written)."""

    def __init__(self, parents: dict, navigates: bool) -> None:
        self.parents = parents  # type name -> the single type that holds it, or None
        self.navigates = navigates

    @staticmethod
    def name(scope: Scope, n: str) -> str:
        if n == "_io":
            return "_rt.stream_only('_io', '')" if scope.encoding else f"{scope.new_stream()}(buf, io0, end, pos)"
        link = "parent" if n == "_parent" else "root"
        scope.reads_local(link)  # (a lazy instance's function keeps it where read: `lazy_function`)
        return link

    @staticmethod
    def stream(scope: Scope, name: str) -> str:
        """`_io.pos`, `_io.size`, `_io.eof` of the type being read."""
        if scope.encoding:
            return f"_rt.stream_only('_io.{name}', '')"
        eof = "(bl == 0 and pos >= end)" if reads_bits_one_by_one(scope.t) else "(pos >= end)"
        return {"pos": "(pos - io0)", "size": "(end - io0)", "eof": eof}[name]


def translate(node, scope: Scope) -> str:
    return scope.translate(node)


def type_of(node, scope: Scope):
    """What an expression gives: "int", "str", "bytes", ("list", element), ("user", type), ..."""
    return scope.type_of(node)


def remote_lengths(node, scope: Scope) -> list[tuple[str, E.Attr]]:
    """The `-lc-derived` fields of other types that an expression reads, as (code, node)."""
    found = []
    for n in E.walk(node):
        if isinstance(n, E.Attr) and n.obj != E.Name("_parent") and n.obj != E.Name("_io"):
            user = user_of(scope.type_of(n.obj))
            f = user.field(n.name) if user is not None else None
            if f is not None and f.filled_remotely:
                found.append((scope.translate(n), n))
    return found


def path_root(node) -> str | None:
    """`x` for a path `_parent.x.y[i].z`; None for any other expression."""
    while isinstance(node, (E.Attr, E.Index)):
        if isinstance(node, E.Attr) and node.obj == E.Name("_parent"):
            return node.name
        node = node.obj
    return None


_DYNAMIC = {"size", "length", "first", "last", "min", "max", "reverse", "to_i", "to_s"}
