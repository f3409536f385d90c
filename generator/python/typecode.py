"""What every emitter of one type's functions shares: its expressions translated to Python, its
value instances computed where first read, its params and what it reads through `_parent`, its
switches and `valid` rules, and the runs of fixed fields its seq falls into."""

from __future__ import annotations

from logcodec import processors as named_processors

from .. import expr as E
from ..bulk import Bulk
from ..layout import (
    Item,
    parent_names,
    reads_stream,
)
from ..model import navigates
from ..problems import SchemaError
from ..schema import Field, TypeDef, TypeRef
from ..types import ref_tinfo
from .code import Lines
from .translate import Scope, translate, type_of

#: The local in which a written-out element counts the elements it took from the call's budget
#: (`spend_elements`), which are given back if it is read again (`WrittenOut.read_then_checked`).
ELEMENTS_TAKEN = "elems_taken"


class TypeCode:
    """The code of one type of a module (`ModuleEmitter`): the base of its decoders and encoder."""

    lines: "Lines | None" = None  # where on-demand instances are written (the function being emitted)
    encoding = False  # an encoder (its expressions read the value, not the bytes)

    def __init__(self, module, t: TypeDef, bulk: Bulk | None = None) -> None:
        """`bulk`: emit the decoder `decode_iter` calls instead, for the root (`_i_<root>`, which
        reads the fields before the bulk and hands the list out as an iterator) or for the bulk's
        own list type (`_g_<list>`, a generator of its elements)."""
        self.m, self.t = module, t
        self.bulk = bulk  # the root's list that `decode_iter` reads one element at a time (its variants')
        self.scope = Scope(t, module.enum_class, module.parents.get(t.name), module.nav, tuple_form=module.tuple_form)
        self.scope.reads_local = self.reads_local
        self.scope.cast_objects = module.build.compiled
        if module.build.compiled:
            self.scope.enum_constant = self.enum_constant
        self.scope.new_stream = self.new_stream
        self.encoding = False
        self.computed_instances: set[str] = set()
        self.lazy: set[str] = set()  # instances computed when first read (a user's schema)
        self.lazy_target: str | None = None  # the one a lazy instances' function computes (`lazy_function`)
        self.inlined_decls: list[str] = []  # the locals of the elements written out in a loop (`decode_listed`)
        self.inlined_guarded = False  # one of those, written out in turn, has guarded expressions
        self.written_in: frozenset[int] = frozenset()  # the types whose written-out code this one's is in
        self.tuples_read = False  # written out in a loop that has read `elem_tuples`
        self.plan = module.model.plan(t)  # how the seq is read and written (`layout`)

    def expr(self, node) -> str:
        self.need_instances(node)
        return translate(node, self.scope)

    def enum_constant(self, enum_class: str, member: str) -> str:
        """A member of the module's enum in the function being written, as a module constant
        (`Lines.enum_constant`), where the code is written to lines; else `Enum.member`."""
        if self.lines is None:
            return f"{enum_class}.{member}"
        return self.lines.enum_constant(enum_class, member)

    def new_stream(self) -> str:
        """What makes a stream object (Kaitai's `_io`) in the function being written
        (`Lines.new_stream`)."""
        return "_rt.KStream" if self.lines is None else self.lines.new_stream()

    def reads_local(self, name: str) -> None:
        """An expression translated for the function being written reads the local `name`
        (`Scope.reads_local`): recorded on its lines."""
        if self.lines is not None:
            self.lines.local(name)

    def stream_bound(self, node) -> bool:
        """An encoder's expression that reads the stream the value was decoded from
        (`layout.reads_stream`), which the encoder does not have: it goes by the value instead."""
        return self.encoding and node is not None and reads_stream(node, self.t)

    def prepare(self, fields) -> None:
        """Before a field is emitted (at the function's top level), compute the instances it reads
        (an encoder evaluates no expression that reads the stream: `stream_bound`)."""
        for f in fields:
            for e in f.expressions(write_side=self.encoding):
                if not self.stream_bound(e):
                    self.need_instances(e)
            if self.navigates and not self.encoding:  # the instances a child reads as `_parent.x`
                # computed now, unless the child can compute one when it reads it (`readable_early`),
                # as Kaitai's does: a child that never reads it never fails on it (elf's
                # `is_string_table_linked` of a section whose link is out of range)
                read_by_seq = self.instances_the_seq_reads()
                early = {i.id for i in self.t.instances
                         if i.id not in read_by_seq and self.readable_early(i, self.plan.bits_one_by_one)}
                mine = {i.id for i in self.t.instances} - early
                for ref in [f.type, *(case for _, case in f.type.cases)]:
                    if ref.kind == "user" and not ref.user.schema.strict:
                        for name in sorted(set(parent_names(ref.user)) & mine):
                            self.need_instances(E.Name(name))

    def need_instances(self, node) -> None:
        """Compute, just before their first use, the value instances an expression reads."""
        if self.lines is None:
            return
        for name in sorted(E.names(node)):
            inst = next((i for i in self.t.instances if i.id == name), None)
            if inst is None or name in self.computed_instances:
                continue
            if name in self.scope.read_from_value:  # computed (once) by the value, where the expression reads it
                continue
            if self.encoding and inst.input:
                continue  # read from the value, at the top
            if self.encoding and inst.field is not None:
                if self.m.nav is None:
                    continue  # read from the value, at the top
                # A user's schema: read from the value where first needed, not before; a lazy
                # instance that no expression reads is not decoded (it may not decode at all).
                self.computed_instances.add(name)
                self.lines(f"{self.lines.local(f'i_{name}')} = v.{name}")
                continue
            self.computed_instances.add(name)
            if inst.field is None:
                value = self.expr(inst.value)
                if inst.enum is not None:  # the member its value names (or the bare integer), as a field's
                    value = self.m.enum_member(self.lines, inst.enum, value)
                if inst.if_expr is not None:
                    value = f"({value}) if {self.expr(inst.if_expr)} else None"
                self.lines(f"{self.lines.local(f'i_{name}')} = {value}")
            else:
                self.read_positional(inst)
            self.publish(self.lines, inst.id, f"i_{name}")

    def instances_the_seq_reads(self) -> set[str]:
        """The instances this type's seq computes as it is read: those its fields' expressions
        name, and those the instances they name read, and so on."""
        insts = {i.id: i for i in self.t.instances}
        todo = [n for f in self.t.seq for e in f.expressions(write_side=False) for n in E.names(e) if n in insts]
        found: set[str] = set()
        while todo:
            name = todo.pop()
            if name in found:
                continue
            found.add(name)
            todo += [n for e in insts[name].expressions() for n in E.names(e) if n in insts]
        return found

    def unplaced_instances(self) -> bool:
        """Whether the type has instances read from its own stream without `pos` (a user's schema's)."""
        return any(i.field is not None and i.pos is None and i.io is None for i in self.t.instances)

    def readable_early(self, inst, one_by_one: bool) -> bool:
        """A value instance that does not read this type's stream (`_io.pos` is where the type
        ends once it is read), in a type whose children see it (`move_early`)."""
        if not self.navigates or inst.field is not None or one_by_one or self.unplaced_instances():
            return False
        reads = E.names(inst.value) | (E.names(inst.if_expr) if inst.if_expr is not None else set())
        return "_io" not in reads

    @property
    def navigates(self) -> bool:
        return self.m.nav is not None and self.m.nav.navigates

    @property
    def builds_object(self) -> bool:
        """A decoder of a user's schema that makes its value object first and reads its fields
        into it, as Kaitai's parsers do (`navigation_start`); an unwrapped type's value is its
        field's, which has its own."""
        return self.m.nav is not None and not self.encoding and not self.t.unwrap

    def publish(self, c: Lines, name: str, var: str) -> None:
        """Set a value just read on the value object (a user's schema), where the children see it
        through `_parent` and `_root`."""
        if self.builds_object:  # (an instance computed when first read: on the value read, `o`)
            c(f"{'me' if self.lazy_target is None else 'o'}.{name} = {c.local(var)}")

    @property
    def hidden(self) -> list[str]:
        """`_parent.x` values this type reads, passed in as `pp_x` (in our schemas)."""
        return parent_names(self.t, self.encoding) if self.m.nav is None else []

    def params(self, typed: bool = False) -> str:
        hidden = "".join(f", pp_{n}: Any" if typed else f", pp_{n}" for n in self.hidden)
        if not typed:
            return "".join(f", p_{p.id}" for p in self.t.params) + hidden
        params = "".join(f", p_{p.id}: {self.m.param_annotation(p)}" for p in self.t.params) + hidden
        if self.m.nav is not None:  # Kaitai's objects: where the stream starts, the parent and the root
            # (a decoder sets them on the value it makes; an encoder needs them where an
            # expression reads them)
            params += "" if self.encoding else ", io0: int = -1"
            params += ", parent: Any = None, root: Any = None" if self.navigates or not self.encoding else ""
        return params

    def as_tuple_arg(self, f: Field) -> str:
        """`, elem_tuples` for an element of a list whose type decodes to its tuple form when the
        caller asks (`decode(..., tuples=True)`); nothing elsewhere: a single field is an object."""
        return ", elem_tuples" if self.tuple_elements(f) else ""

    @staticmethod
    def listed_user(f: Field) -> TypeDef | None:
        """The type of a list's elements, when the field is a list of a user type."""
        return f.type.user if f.repeat and f.type.kind == "user" else None

    def takes_tuples(self, f: Field) -> bool:
        """The elements of this list may be given to its encoder in their tuple form."""
        return (u := self.listed_user(f)) is not None and bool(self.m.tuple_form(u))

    def tuple_elements(self, f: Field) -> bool:
        """The elements of this list may come in their tuple form."""
        return (u := self.listed_user(f)) is not None and self.m.tuple_decoded(u)

    def read_tuples_asked(self, c: Lines, f: Field) -> None:
        """Before a list's loop: whether the call asked for tuples, read once (an element written
        out in a loop that has read it reads that: `tuples_read`)."""
        if self.tuple_elements(f) and not self.tuples_read:
            c(f"elem_tuples = lim[{c.budget('TUPLES')}] == 1")

    def call_args(self, ref: TypeRef, io0: str = "io0", f: Field | None = None) -> str:
        """A user type's params, then what it reads through `_parent` (this type's own locals);
        in a user's schema, its stream's start, its parent and the root."""
        args = "".join(", " + self.expr(a) for a in ref.args)
        callee = ref.user.schema
        if callee.strict:
            return args + "".join(f", {local}" for local in self.parent_locals(ref.user).values())
        if not self.encoding:
            args += f", {io0}"
        if navigates(callee) or not self.encoding:
            # A type of another schema starts a tree of its own, as Kaitai's parsers call it (with
            # its stream only): no `_parent`, and it is its own `_root` if it is its schema's root.
            own_tree = (self.navigates or not self.encoding) and callee is self.t.schema
            parent = ("parent" if self.t.unwrap else "me") if own_tree else "None"
            if f is not None and f.parent is not None:  # Kaitai's `parent:` key: another parent, or none
                parent = "None" if f.parent == E.Bool(False) else self.expr(f.parent)
            for link in (parent, "root" if own_tree else "None"):
                if link in ("me", "parent", "root"):
                    self.reads_local(link)  # (a lazy instance's function binds it where read)
            args += f", {parent}, {'root' if own_tree else 'None'}"
        return args

    def navigation_start(self, c: Lines) -> None:
        """A user's schema: the stream's start; a decoder's value object, made blank, with its
        links, stream and params set (`builds_object`), which its fields are read into; an
        encoder's `Node`, the value seen with its parent and root as while it was read."""
        if self.m.nav is None:
            return
        if not self.encoding:
            c("if io0 < 0: io0 = pos")
        if self.encoding:
            if self.navigates:
                c("me = _rt.Node(); me._value = v; me._parent = parent")
                c("if root is None: root = me")
                c("me._root = root")
            return
        if not self.builds_object:
            return
        t = self.t
        if self.m.build.compiled:  # mypyc's native class cannot be made without its `__init__`
            c(f"me = {t.class_name}(_blank=True)")
        else:
            c(f"me = {c.new_object()}({t.class_name})")
        if own_root(t):  # at the top: its own root, as Kaitai's root type is
            c("if root is None: root = me")
        if self.m.links_kept:  # (`link_readers`: else only the decoder and its lazy instances hold them)
            c("me._parent = parent")
            c("me._root = root")
        if self.m.keeps_io(t):  # where reading is once it ends: set then (`return_kaitai_object`)
            c(f"me._io = {c.new_stream()}(buf, io0, end, pos)")
        for p in self.m.exposed_params(t):
            c(f"me.{p.id} = p_{p.id}")

    @staticmethod
    def run_format(run: list[Item]) -> tuple[str, int]:
        """The struct format of a run of fixed fields (one byte order), and its size; the module
        declares the struct where its code calls it (`ModuleEmitter.struct`)."""
        return (">" if run[0].endian == "be" else "<") + "".join(i.code for i in run), sum(i.size for i in run)

    def guarded_expressions(self) -> bool:
        """Whether an expression of this type can fail on bad input (indexing, division, a
        conversion: text that is no number, bytes that are not the encoding, min of nothing)."""
        found = []

        def fallible(n) -> bool:
            if isinstance(n, (E.Index, E.Call)) or (isinstance(n, E.Binary) and n.op in ("/", "%")):
                return True
            if not (isinstance(n, E.Attr) and n.name in ("to_i", "first", "last", "min", "max")):
                return False
            try:  # text to a number, or an element of what may be empty
                kind = type_of(n.obj, self.scope)
            except SchemaError:
                return True
            return kind in ("str", "bytes") or (isinstance(kind, tuple) and kind[0] == "list")

        def walk(node):
            found.extend(n for n in E.walk(node) if fallible(n))

        for f in self.t.seq:
            for e in f.expressions():
                walk(e)
        for inst in self.t.instances:
            for e in (inst.value, inst.pos):
                if e is not None:
                    walk(e)
        return bool(found)

    def check_valid(self, c: Lines, f: Field, at: str, var: str | None = None, path: str | None = None,
                    error: str = "_rt.invalid") -> None:
        """Emit the checks of `valid`; a decoder raises DecodeError, an encoder (error=_rt.invalid_encode) EncodeError."""
        if not f.valid:
            return
        var = var or f"v_{f.id}"
        path = f.id if path is None else path
        for kind, rule in f.valid.items():
            if kind in ("eq", "min", "max"):
                bound = self.expr(rule)
                op, said = {"eq": ("!=", "must be"), "min": ("<", "must be at least"), "max": (">", "must be at most")}[kind]
                if E.names(rule):  # a computed bound: the error says its value, computed again
                    c(f"if {var} {op} {bound}: raise {error}(repr({var}) + {' ' + said + ' '!r} + repr({bound}), "
                      f"{at}, {path!r})")
                    continue
                cond, what = f"{var} {op} {bound}", f"{said} {bound}"
            elif kind == "in-enum":  # a member's value (before or after enum_value made it one)
                cond, what = f"{var} not in {self.m.enum_class(f.enum)}._value2member_map_", "is not in the enum"
            elif kind == "any-of":
                options = ", ".join(self.expr(r) for r in rule)
                cond, what = f"{var} not in ({options},)", f"must be one of {options}"
            else:
                self.scope.extra["_"] = (var, ref_tinfo(f.type, f))
                cond, what = f"not ({self.expr(rule)})", "breaks its rule"
                del self.scope.extra["_"]
            if "'" in what or "{" in what:  # a rule with text or bytes in it: no f-string around it
                c(f"if {cond}: raise {error}(repr({var}) + {' ' + what!r}, {at}, {path!r})")
            else:
                c(f"if {cond}: raise {error}(f'{{{var}!r}} {what}', {at}, {path!r})")

    def parent_locals(self, u: TypeDef) -> dict[str, str]:
        """What a type reads through `_parent` (`pp_x`), as this type's locals that a call of it
        passes (`call_args`): a field's value, or an instance's."""
        return {name: f"v_{name}" if self.t.field(name) is not None else f"i_{name}"
                for name in parent_names(u, self.encoding)}

    @staticmethod
    def spend_elements(c: Lines, count: str, path: str) -> None:
        """Take `count` elements out of the call's budget: from its reserve, a small int that is
        written back without allocating (`limits.RESERVE`), else through `take_elements`."""
        reserved = c.budget("ELEMENTS_RESERVED")
        with c.block(f"if (left := lim[{reserved}] - {count}) >= 0:"):
            c(f"lim[{reserved}] = left")
        with c.block("else:"):
            c(f"{c.limits_call('take_elements')}(lim, {count}, pos, {path!r})")
        if c.unbounded:  # given back if the element is read again (`read_then_checked`)
            c(f"{c.local(ELEMENTS_TAKEN)} += {count}")

    def instance_decls(self, computed: set[str]) -> list[str]:
        """A user's schema: the declarations of the locals of the instances a function computes
        (`computed`), untyped: what an instance holds is the input's to say (a switch's case,
        null where its condition fails), as in Kaitai's Python parsers; their inferred types
        would not type-check there, which a compiled build needs."""
        if self.m.nav is None:
            return []
        repeated = {i.id for i in self.t.instances if i.field is not None and i.field.repeat}
        return [decl for name in sorted(computed)
                for decl in [f"    i_{name}: Any"] + ([f"    _e{name}: Any"] if name in repeated else [])]

    def carries(self) -> bool:
        """A user's schema keeps the bytes of a sized field that are not its value (what a
        structure left unread, what follows a terminator), so that encoding gives them back."""
        return self.m.nav is not None and not self.t.unwrap and carries_bytes(self.t)

    def carried_key(self, f: Field) -> str:
        return f"({f.id!r}, i)" if f.repeat else repr(f.id)

    def carries_terms(self) -> bool:
        return self.m.nav is not None and any(f.terminator is not None and not f.eos_error for f in self.t.seq)

    @staticmethod
    def trimmed_structure(f: Field) -> bool:
        """A structure (not bytes or text) read from bytes cut at a terminator or padding."""
        return (f.terminator is not None or f.pad_right is not None) and f.type.kind not in ("bytes", "str")

    def switch(self, c: Lines, f: Field, ref: TypeRef, emit_case, emit_default, value: str | None = None) -> None:
        if self.encoding and value is not None and self.selects_on_peek(ref):
            self.switch_by_class(c, ref, emit_case, emit_default, value)
            return
        on = self.expr(ref.switch_on)
        if not on.isidentifier():
            c(f"on_{f.id} = {on}")
            on = f"on_{f.id}"
        # A switch on a bool tests it (the interpreter pays for a comparison with True).
        boolean = type_of(ref.switch_on, self.scope) == "bool" and all(
            isinstance(key, E.Bool) for key, _ in ref.cases if key is not None)
        first, default = True, None
        for key, case in ref.cases:
            if key is None:
                default = case
                continue
            test = (on if key.value else f"not {on}") if boolean else f"{on} == {self.expr(key)}"
            with c.block(f"{'if' if first else 'elif'} {test}:"):
                emit_case(case)
            first = False
        with c.block("else:" if not first else "if True:"):
            if default is not None:
                emit_case(default)
            else:
                emit_default()

    def no_case_raised(self, f: Field, ref: TypeRef, epath: str, error: str = "_rt.invalid", at: str = "pos") -> str:
        """The error of an unsized switch that no case matches, where that is one (a format of ours,
        or a field with its own text, `Field.no_case`); a decoder raises DecodeError, an encoder
        (error=_rt.invalid_encode, at=None) EncodeError. Without its own text, it names each
        number or truth value the switch's expression reads, with its value, so that what was
        not matched shows ("no case matches: api_key is 3, api_version is 13")."""
        if f.no_case:
            return f"raise {error}({f.no_case!r}, {at}, {epath!r})"
        read = dict.fromkeys(n.name for n in E.walk(ref.switch_on)
                             if isinstance(n, E.Name) and type_of(n, self.scope) in ("int", "bool"))
        if not read:
            return f"raise {error}('no case matches', {at}, {epath!r})"
        said = ", ".join(f"{name} is {{{self.expr(E.Name(name))}!r}}" for name in read)
        return f"raise {error}(f{'no case matches: ' + said!r}, {at}, {epath!r})"

    def selects_on_peek(self, ref: TypeRef) -> bool:
        """Whether a switch selects on a positional instance (a byte read ahead) or on the stream
        (`stream_bound`): an encoder has no bytes to read it from, and picks the case from the
        value's class instead."""
        peeks = {i.id for i in self.t.instances if i.field is not None}
        return bool(E.names(ref.switch_on) & peeks) or self.stream_bound(ref.switch_on)

    def switch_by_class(self, c: Lines, ref: TypeRef, emit_case, emit_default, value: str) -> None:
        cases = list(dict.fromkeys(case.user.name for _, case in ref.cases if case.kind == "user"))
        by_name = {case.user.name: case for _, case in ref.cases if case.kind == "user"}
        first = True
        for name in cases:
            case = by_name[name]
            with c.block(f"{'if' if first else 'elif'} isinstance({value}, {case.user.class_name}):"):
                emit_case(case)
            first = False
        with c.block("else:" if not first else "if True:"):
            emit_default()

    def passes_through(self, f: Field) -> bool:
        """Whether the processor of `f` takes one argument and lists the values of it for which it
        returns its input unchanged (`passthrough`: a codec table's "none"), so that its decoder
        and encoder test the argument against that set (`_PASS_<name>`, declared for it here)
        before calling it."""
        name, args = f.process
        if len(args) != 1 or not named_processors.passes_through(name):
            return False
        self.m.passthroughs.add(self.m.processor(name))
        return True


def carries_bytes(t: TypeDef) -> bool:
    """Whether a value of `t` read by a user's schema keeps bytes of its sized fields that are not
    their values (`TypeCode.carries`; the class declares where, `_carried`)."""
    return any(f.size is not None or f.size_eos or (f.terminator is not None and not f.eos_error) for f in t.seq)


def own_root(t: TypeDef) -> bool:
    """Whether a value of `t` made with no root given is its own `_root`: the schema's root type
    (either byte order's, where the root's is chosen at run time), as Kaitai's parsers make only
    it; another type of a schema another one imports gets none."""
    root = t.schema.root
    return t is root or any(t is v for v in root.byte_orders)
