"""Straight-line encoders of a list's elements, for the common case, with the checked encoder
behind them.

A list's loop calls its element type's encoder (`_e_<type>`) once an element: that encoder
checks each field on its way (missing, out of range, a derived value that disagrees), appends
each part to the output and counts its bytes. For the types whose fields are all of a few plain
shapes, the loop of the interpreted build (`code.Build`) first tries the element written out as
one expression of table reads per field, joined once, and falls back on the checked encoder for that element on any Python error
(a value of the wrong type, out of a table's range, a derived field given). So the checked
encoder alone says what is wrong with a value, and what the fast path accepts it encodes to the
same bytes.

The shapes (anything else leaves the type to its checked encoder):
- an integer of one byte; a varint primitive (`zigzag_varint`, `uvarint`);
- a varint length right before the bytes or text it measures (`-lc-size-of` that one field),
  the bytes null where the length is `-lc-absent` (`if: len >= 0`);
- a switch on a param whose cases hold value types, encoded as its raw bytes where no case
  matches: the fast loop runs only where the caller's argument picks no case;
- a varint count right before the list it counts (`-lc-count-of`), of a type of these shapes
  itself, written out inside;
- a varint size of all the fields after it, as the type's first field (`-lc-size-of` to the end).

A value object whose derived fields are set (a decoded one) is left to the checked encoder,
which compares them; a tuple form has none. A text and its length come as one part from a
table of the module by the text (`_TEXT_<type>_<field>`, `runtime.TextParts`), which encodes
a text it does not hold and keeps the short ones: a header's key repeats. What it gains and
costs is measured in ARCHITECTURE.md ("Fast encoders").
"""

from __future__ import annotations

from .. import expr as E
from ..element_plans import ElementPlan, Step, list_plan
from ..layout import STRUCT_CODES
from ..schema import Field, TypeDef
from .shapes import (
    PYTHON_ERRORS,
    ZigzagVarint,
    absent_varint,
    codec_name,
    primitive_of,
)


class FastEncoders:
    """The fast element loops of one type's encoder (`Encoder`, with its scope and module).
    Their locals: `f_<type>_<field>` (an element's fields), `fp_`, `fj_`, `fq_<type>` (its parts,
    joined, its size), `fe_<type>` (a nested element), `ln` (the last length taken)."""

    def __init__(self, owner) -> None:
        self.owner = owner
        self.m = owner.m
        self.declared: dict[str, str] = {}  # the part lists' declarations by name, for the encoder's head

    # ------------------------------------------------------------ the loop

    def loop(self, c, f: Field, items: str, slow) -> bool:
        """The list `f`'s loop over `items`: its C companion's loop first, where it has one, then
        (in the interpreted build) its elements written out, each falling back on `slow` (which
        emits the checked encoder's call for `x_<f>`), else the checked encoder's loop. False,
        and nothing emitted, when its element type has no plan, the caller's arguments pick a
        case always, or the build has neither loop for it.

        The compiled build has no written-out loop: there it was 1.3-2.4x slower than the checked
        encoder's (mypyc runs the checked one's typed locals as C; the fast one's values are
        untyped)."""
        planned = self.planned(f)
        if planned is None:
            return False
        plan, guard = planned
        in_c = f"encode_{self.owner.t.name}_{f.id}"
        in_c = in_c if in_c in self.m.c_loops else None
        written_out = not self.m.build.compiled
        if in_c is None and not written_out:
            return False
        decided = []
        for k, cond in enumerate(plan.conditions):  # decided once, before the loops
            name = c.local(self.decided_name(plan, k))
            self.declared[name] = f"    {name}: bool"
            c(f"{name} = {self.in_caller(plan, f, cond)}")
            decided.append(name)
        branch = "if"
        if in_c is not None:
            # Its C companion first, where built: the list's bytes, or None for the loops below;
            # the conditions go as one number, a bit each
            args = [items, "_C_CLASSES"]
            if decided:
                args.append(" + ".join(f"({1 << k} if {name} else 0)" for k, name in enumerate(decided)))
            call = f"(fr := _FAST.{in_c}({', '.join(args)})) is not None"
            with c.block(f"if {' and '.join(['_FAST is not None', *guard, call])}:"):
                c(f"{self.owner.out}.append(fr)")
                if self.owner.out == "out":
                    c("w += len(fr)")
            branch = "elif"
        if written_out:
            self.written_out_loop(c, branch, plan, guard, f, items, slow)
        with c.block("else:"):
            with c.block(f"for i, x_{f.id} in enumerate({items}):"):
                slow(c)
        return True

    def written_out_loop(self, c, branch: str, plan: ElementPlan, guard: list[str], f: Field, items: str,
                         slow) -> None:
        """The loop of `loop` whose elements are written out, where the list's form allows it."""
        # A list that starts with a decoded value (its derived fields set) is left to the checked
        # encoder whole, which compares them, rather than failing over element by element.
        # A type without derived fields has nothing to compare: any list goes.
        derived = next((g.id for g in plan.type.seq if g.derived), None)
        tests = [*guard, f"isinstance({items}, (list, tuple))"]  # a tuple form's list is a tuple
        if derived is not None:
            tests.append(f"(not {items} or isinstance({items}[0], tuple) or getattr({items}[0], {derived!r}, None) is None)")
        with c.block(f"{branch} {' and '.join(tests)}:"):
            # A list of value objects reads each element as one, with no test of its form (40 ns
            # of a Kafka record's 800, interpreted): a tuple among them fails over to the checked
            # encoder (AttributeError). Tuple forms, or both mixed, are told apart one by one.
            objects = f"fo_{f.id}"
            c(f"{objects} = bool({items}) and not isinstance({items}[0], tuple)")
            elem = f"x_{f.id}"
            with c.block(f"for i, {elem} in enumerate({items}):"):
                with c.block("try:"):
                    self.top(c, plan, elem, objects)
                # (a nested element's checked encoder, where the plan calls one, raises EncodeError
                # with a path from that element: the checked encoder names it from here)
                caught = PYTHON_ERRORS[:-1] + ", _rt.EncodeError)" if _calls(plan) else PYTHON_ERRORS
                with c.block(f"except {caught}:"):
                    c("# a value the fast path does not take: the checked encoder says what is wrong, if anything")
                    slow(c)

    def reader(self, f: Field) -> tuple[str, list[str]] | None:
        """The C companion's reader of the list `f` (the module's `c_readers`, `element_plans.c_readers`)
        and the tests the caller's arguments must pass for it (the fast loop's `guard`); None
        where it has none."""
        name = f"decode_{self.owner.t.name}_{f.id}"
        return (name, self.guard(self.m.c_readers[name], f)) if name in self.m.c_readers else None

    def planned(self, f: Field) -> tuple[ElementPlan, list[str]] | None:
        """The plan of the list `f`'s elements (`element_plans.list_plan`) and the tests its caller's
        arguments must pass (`guard`); None where it has none."""
        plan = list_plan(self.m.model, f)
        return None if plan is None else (plan, self.guard(plan, f))

    def guard(self, plan: ElementPlan, f: Field) -> list[str]:
        """What the loop's arguments must be for no guarded switch to pick a case (the tests of
        the checked encoder's switch, `TypeCode.switch`; `list_plan` leaves out the lists whose
        arguments always pick one)."""
        args = dict(zip((p.id for p in plan.type.params), f.type.args))
        params = {p.id: p for p in plan.type.params}
        tests = []
        for name, keys in plan.guards.items():
            arg = self.owner.expr(args[name])
            arg = arg if arg.isidentifier() else f"({arg})"
            if params[name].type_name == "bool" and all(isinstance(k, E.Bool) for k in keys):
                values = {k.value for k in keys}
                tests.append(f"not {arg}" if values == {True} else f"{arg}")
            else:
                tests += [f"{arg} != {self.owner.expr(k)}" for k in keys]
        return tests + [self.in_caller(plan, f, check) for check in plan.checks]

    def in_caller(self, plan: ElementPlan, f: Field, node) -> str:
        """An expression of the plan's params (a condition, a check) in the caller's scope: each
        param is the argument the list `f` gives it."""
        code = self.owner.expr(E.substituted(node, dict(zip((p.id for p in plan.type.params), f.type.args))))
        return code if code.isidentifier() or (code.startswith("(") and code.endswith(")")) else f"({code})"

    @staticmethod
    def decided_name(plan: ElementPlan, k: int) -> str:
        """The local holding the plan's `k`th condition, decided before the loop."""
        return f"fc_{plan.type.name}_{k}"

    # ------------------------------------------------------------ an element

    def top(self, c, plan: ElementPlan, elem: str, objects: str) -> None:
        """One element of the loop's list, appended to the output as one joined part."""
        self.reads(c, plan, elem, objects)
        u = plan.type
        parts = f"fp_{u.name}"
        steps = plan.steps[1:] if plan.steps[0].kind == "tail" else plan.steps
        if len(steps) == 1 and steps[0].cond is None and steps[0].kind in ("int", "fixed", "varint"):
            single: list[str] = []  # one part, joined to nothing (an index entry's numbers)
            self.step(c, plan, steps[0], single, None, parts, objects)
            c(f"fj_{u.name} = {single[0]}")
        else:
            self.parts(c, plan, steps, parts, fresh=True, objects=objects)
            c(f"fj_{u.name} = b''.join({parts})")
            self.declare_parts(c, parts)
        counted = self.owner.out == "out"
        if plan.steps[0].kind == "tail":
            c(f"fq_{u.name} = {self.length(c, plan.steps[0].field, f'fj_{u.name}')}")
            c(f"{self.owner.out} += (fq_{u.name}, fj_{u.name})")
            if counted:
                c(f"w += len(fq_{u.name}) + ln")
        else:
            c(f"{self.owner.out}.append(fj_{u.name})")
            if counted:
                c(f"w += len(fj_{u.name})")

    def nested(self, c, plan: ElementPlan, elem: str, into: str, objects: str) -> None:
        """One element of a list inside a written-out element: its parts added to `into`."""
        self.reads(c, plan, elem, objects)
        u = plan.type
        if plan.steps[0].kind == "tail":
            parts = f"fp_{u.name}"
            self.parts(c, plan, plan.steps[1:], parts, fresh=True, objects=objects)
            c(f"fj_{u.name} = b''.join({parts})")
            c(f"{into} += ({self.length(c, plan.steps[0].field, f'fj_{u.name}')}, fj_{u.name})")
            self.declare_parts(c, parts)
        else:
            self.parts(c, plan, plan.steps, into, fresh=False, objects=objects)

    def reads(self, c, plan: ElementPlan, elem: str, objects: str) -> None:
        """The element's fields into locals: from its tuple form, or from a value object whose
        derived fields are all unset (else the checked encoder takes it); the tuple test is
        skipped where `objects` (the loop's local) says the list holds value objects."""
        u = plan.type
        form = self.m.tuple_form(u)
        names = [self.local(u, g) for g in form]
        with c.block(f"if not {objects} and isinstance({elem}, tuple):"):
            c(", ".join(names) + ("," if len(names) == 1 else "") + f" = {elem}")
        derived = [g.id for g in u.seq if g.derived]
        with c.block("elif " + " and ".join(f"{elem}.{g} is None" for g in derived) + ":" if derived else "else:"):
            for name, g in zip(names, form):
                c(f"{name} = {elem}.{g.id}")
        if derived:
            with c.block("else:"):
                c("raise TypeError('derived fields given')  # the checked encoder compares them")

    @staticmethod
    def local(u: TypeDef, f: Field) -> str:
        return f"f_{u.name}_{f.id}"

    def declare_parts(self, c, parts: str) -> None:
        """A list of an element's parts, which the encoder's head declares (`declared`)."""
        self.declared[c.local(parts)] = f"    {parts}: list[Any]"

    def parts(self, c, plan: ElementPlan, steps: list[Step], into: str, fresh: bool, objects: str) -> None:
        """The parts of `steps`, added to the list `into` (made here when `fresh`); a step under a
        condition in a block of its own, whose fields are None where it is false."""
        pending: list[str] = []

        def flush() -> None:
            nonlocal fresh
            if fresh:
                c(f"{into} = [{', '.join(pending)}]")
            else:
                self.add(c, into, pending)
            fresh = False
            pending.clear()

        for step in steps:
            if step.cond is None:
                self.step(c, plan, step, pending, flush, into, objects)
                continue
            flush()
            with c.block(f"if {self.decided(plan, step.cond)}:"):
                inner: list[str] = []
                self.step(c, plan, step, inner, lambda inner=inner: self.add(c, into, inner), into, objects)
                self.add(c, into, inner)
            given = [self.local(step.owner, g) for g in step.given]
            with c.block(f"elif {' or '.join(f'{g} is not None' for g in given)}:"):
                c("raise TypeError('set, but its condition is false')  # the checked encoder says so")
        flush()

    @staticmethod
    def add(c, into: str, parts: list[str]) -> None:
        """Add `parts` to the list `into`, and forget them."""
        if len(parts) == 1:
            c(f"{into}.append({parts[0]})")
        elif parts:
            c(f"{into} += ({', '.join(parts)})")
        parts.clear()

    def decided(self, plan: ElementPlan, cond) -> str:
        """The local holding a condition of the plan, decided before the loop (`loop`)."""
        return self.decided_name(plan, plan.conditions.index(cond))

    def step(self, c, plan: ElementPlan, step: Step, pending: list[str], flush, into: str, objects: str) -> None:
        """The parts of one step, added to `pending` (`flush` adds those pending to `into`)."""
        value = self.local(step.owner, step.field)
        if step.kind == "int":
            pending.append(self.byte(c, step.field, value))
        elif step.kind == "fixed":
            pending.append(f"{self.m.struct(step.code)}.pack({', '.join(self.local(step.owner, g) for g in step.fields)})")
        elif step.kind == "varint":
            pending.append(self.varint(c, step.field, value))
        elif step.kind == "sized":
            pending += self.sized(c, step)
        elif step.kind == "list":
            self.listed(c, plan, step, pending, flush, into, objects)

    def listed(self, c, plan: ElementPlan, step: Step, pending: list[str], flush, into: str, objects: str) -> None:
        """A list and its counts: one varint count (`length`), or the counts each under its
        condition, from its length (`ln`); then its numbers in one call, or its elements."""
        items = self.local(step.owner, step.target)
        count = step.field
        if len(step.counts) == 1 and count.if_expr is None and self.unbiased_varint(count):
            pending.append(self.length(c, count, items))
        else:
            flush()
            c(f"ln = len({items})")
            for count in step.counts:
                if (cond := step.count_condition(count)) is None:
                    pending.append(self.count(c, count))
                else:
                    flush()
                    with c.block(f"if {self.decided(plan, cond)}:"):
                        c(f"{into}.append({self.count(c, count)})")
        if step.run is not None:
            pending.append(f"{self.m.number_runs(step.run.code)}[ln].pack(*{items})")
            return
        flush()
        u = step.target.type.user
        elem = f"fe_{u.name}"
        # an empty list (a record without headers) makes no iterator: 16 ns of the 630 of
        # such a record, interpreted
        with c.block(f"if {items}:"), c.block(f"for {elem} in {items}:"):
            if step.element is None:  # a type without a plan: its checked encoder adds its parts
                c(f"_e_{u.name}({elem}, {into})")
            else:
                self.nested(c, step.element, elem, into, objects)

    @staticmethod
    def unbiased_varint(f: Field) -> bool:
        prim = primitive_of(f.type)
        return prim is not None and not prim.bias

    # ------------------------------------------------------------ parts

    @staticmethod
    def byte(c, f: Field, value: str) -> str:
        """A one-byte integer, from the table of every byte."""
        table = c.table("BYTE")
        if f.type.signed:
            return f"({table}[{value} & 255] if -128 <= {value} <= 127 else _rt.beyond_table({value}))"
        return f"({table}[{value}] if 0 <= {value} <= 255 else _rt.beyond_table({value}))"

    def varint(self, c, f: Field, value: str) -> str:
        """A varint from its table; past it, computed (OverflowError where it does not fit)."""
        table, small, wide, bits = self.table(f)
        bias = primitive_of(f.type).bias
        low = -small if table == "ZIGZAG" else 0
        if bias:  # the varint holds the value plus its bias
            return (f"({c.table(table)}[{value} + {bias}] if {low - bias} <= {value} < {small - bias} "
                    f"else _rt.{wide}({value} + {bias}, {bits}))")
        return f"({c.table(table)}[{value}] if {low} <= {value} < {small} else _rt.{wide}({value}, {bits}))"

    def length(self, c, f: Field, measured: str) -> str:
        """The varint `f` holding len(`measured`), which is never negative; `ln` is then that length."""
        table, small, wide, bits = self.table(f)
        return f"({c.table(table)}[ln] if (ln := len({measured})) < {small} else _rt.{wide}(ln, {bits}))"

    def count(self, c, f: Field) -> str:
        """The count `f` of the list whose length is `ln`: a varint (biased or not) from its
        table, or a fixed-width number."""
        prim = primitive_of(f.type)
        if prim is None:
            code = STRUCT_CODES[(f.type.size, f.type.signed)]
            return f"{self.m.struct(('>' if f.type.endian == 'be' else '<') + code)}.pack(ln)"
        table, small, wide, bits = self.table(f)
        n = f"ln + {prim.bias}" if prim.bias else "ln"
        return f"({c.table(table)}[{n}] if ln < {small - prim.bias} else _rt.{wide}({n}, {bits}))"

    @staticmethod
    def table(f: Field) -> tuple[str, int, str, int]:
        """The runtime's table of a varint field's small values (those the width allows, at their
        own index: `code.TABLES`), the bound of its range, the runtime's function for the rest,
        and its width."""
        prim = primitive_of(f.type)
        if type(prim) is ZigzagVarint:  # an unsigned varint is its subclass
            return "ZIGZAG", min(8192, 1 << (prim.bits - 1)), "zigzag_wide", prim.bits
        return "VARINT", min(16384, 1 << prim.bits), "varint_wide", prim.bits

    def sized(self, c, step: Step) -> list[str]:
        """A length and the bytes or text it measures: two parts (the length's `-lc-absent` and
        b"" where it may be null), or one for text, from the field's remembered parts."""
        length, target = step.field, step.target
        value = self.local(step.owner, target)
        absent = absent_varint(length)
        if target.type.kind == "str":
            part = f"{self.text_parts(c, step)}[{value}]"
            return [part if absent is None else f"({absent!r} if {value} is None else {part})"]
        # Bytes are taken only as `bytes`, anything else left to the checked encoder: len() of an
        # array counts its items. Where it may be null, `bytes` is tested first: a present value
        # pays one test, not a None test and a type test. The bytes stay a part of their own:
        # joined to their length here, a 100-byte value would be copied once more (55 ns of a
        # Kafka record's 800, interpreted).
        if absent is None:
            return [self.length(c, length, f"({value} if type({value}) is bytes else _rt.not_bytes({value}))"), value]
        prefix = (f"({self.length(c, length, value)} if type({value}) is bytes else "
                  f"{absent!r} if {value} is None else _rt.not_bytes({value}))")
        return [prefix, f"{value} or b''"]

    def text_parts(self, c, step: Step) -> str:
        """The module's table of a text field's parts, its length and its encoded text joined,
        by value (`runtime.TextParts`): a text such as a header's key repeats, and one lookup
        then stands for an encode, a length and its varint."""
        name = c.text_parts(step.owner.name, step.target.id)
        table, small, wide, bits = self.table(step.field)
        self.m.text_parts[name] = (f"_rt.TextParts({codec_name(step.target.type.encoding)!r}, "
                                   f"_rt.{table}, {small}, _rt.{wide}, {bits})")
        return name


def _calls(plan: ElementPlan) -> bool:
    """Whether the plan, or a plan nested in it, writes a list's elements by their checked encoder."""
    return any(step.called or (step.element is not None and _calls(step.element)) for step in plan.steps)
