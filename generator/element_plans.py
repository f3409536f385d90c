"""How a list's element is written out as straight-line code: the fast paths of the Python
encoders (`python.fast_encode`) and the C companion's loops and readers (`generator.c`) read one
`ElementPlan` of the element's type, made once here from its fields (`element_plan`); a type of
any other shape is left to its checked code."""

from __future__ import annotations

import codecs
from dataclasses import dataclass, field

from . import expr as E
from .layout import (
    FLOAT_CODES,
    STRUCT_CODES,
    NumberRun,
    number_run,
    parent_names,
    primitive,
    reads_bits_one_by_one,
    size_held_non_negative,
)
from .schema import Field, TypeDef


@dataclass
class Step:
    """One piece of a written-out element, in seq order."""

    kind: str  # "int" | "fixed" | "varint" | "sized" | "list" | "tail"
    owner: TypeDef  # the type whose field it is
    field: Field  # the field (for "fixed": the run's first; for "sized", "list" and "tail": the length or count)
    target: Field | None = None  # what a "sized" length measures, what a "list" count counts
    # a "list"'s element type written out (one with no params); None: a list of numbers (`run`),
    # or of a type without a plan, whose elements its checked encoder writes (`called`)
    element: ElementPlan | None = None
    cond: object | None = None  # the condition on the type's params it is written under (a version's)
    fields: list[Field] = field(default_factory=list)  # "fixed": the numbers of its one struct call
    code: str = ""  # "fixed": their struct format, byte order first
    counts: list[Field] = field(default_factory=list)  # "list": its counts, each under its own condition
    run: NumberRun | None = None  # "list": the list is of fixed-size numbers, one struct call

    @property
    def called(self) -> bool:
        """A "list" whose elements its element type's checked encoder writes (a type without a plan)."""
        return self.kind == "list" and self.element is None and self.run is None

    @property
    def given(self) -> list[Field]:
        """The fields of the value the step writes (not a length or count it computes): None
        where its condition is false."""
        written = self.fields or ([self.target] if self.kind == "list" else [self.field])
        return [f for f in written if not f.derived]

    def count_condition(self, count: Field):
        """The condition a "list"'s count is written under, besides the list's own; None where
        it is written wherever the list is."""
        return None if count.if_expr is None or count.if_expr == self.cond else count.if_expr


@dataclass
class ElementPlan:
    """How to write out one element type of a list as straight-line code (the fast paths of the
    encoders, the C companion's loops and readers): its steps, and the switches the caller must
    rule out. The shapes it takes (anything else leaves the type to its checked code):
    - an integer of one byte; a varint primitive (`zigzag_varint`, `uvarint`, `biased_uvarint`);
    - fixed-width numbers in a row, written by one `struct` call (`fixed`);
    - a varint length right before the bytes or text it measures (`-lc-size-of` that one
      field), the bytes null where the length is `-lc-absent` (`if: len >= 0`);
    - a switch on a param whose cases hold value types, encoded as its raw bytes where no case
      matches: the fast path runs only where the caller's argument picks no case;
    - counts right before the list they count (`-lc-count-of`), varints or fixed-width numbers:
      a list of numbers (one `struct` call), of a type of these shapes itself (written out
      inside) or of any other type without params (its elements by its checked encoder);
    - a varint size of all the fields after it, as the type's first field (`-lc-size-of` to the
      end);
    - any of these but a length or size under a condition on the type's params alone (a Kafka
      field's versions: `if: api_version >= 9`), which the loop decides once (`conditions`);
      where a list's count is chosen by such a condition (`repeat-expr: (api_version >= 9 ?
      num_x_compact.value : num_x)`), the loop runs only where the chosen count is written
      (`checks`)."""

    type: TypeDef
    steps: list[Step]
    guards: dict[str, list] = field(default_factory=dict)  # param id -> the case keys it must not match
    form: list[Field] = field(default_factory=list)  # the fields of its tuple form, in order
    conditions: list = field(default_factory=list)  # its steps' conditions on its params, each once, in order
    checks: list = field(default_factory=list)  # conditions on its params its loop runs under, besides the guards

    def add(self, step: Step) -> None:
        self.steps.append(step)
        for cond in (step.cond, *(c.if_expr for c in step.counts)):
            if cond is not None and cond not in self.conditions:
                self.conditions.append(cond)


def _plain(f: Field) -> bool:
    """Nothing on the field beyond its type, size, condition and the derived meanings a step takes."""
    return not (f.process or f.valid or f.enum or f.contents is not None or f.terminator is not None
                or f.pad_right is not None or f.size_eos or f.checksum or f.default is not None or f.present
                or f.partial_tail or f.filled_remotely or f.parent is not None)


def _decided(cond, params: set[str]) -> bool:
    """A condition the loop decides once: it reads the type's params alone (a version)."""
    return bool(E.names(cond)) and E.names(cond) <= params


def fixed_code(f: Field) -> str | None:
    """The `struct` code of a fixed-width number of a known byte order, or None."""
    ref = f.type
    if ref.kind == "int" and (ref.size, ref.signed) in STRUCT_CODES and (ref.size == 1 or ref.endian in ("be", "le")):
        return STRUCT_CODES[(ref.size, ref.signed)]
    if ref.kind == "float" and ref.size in FLOAT_CODES and ref.endian in ("be", "le"):
        return FLOAT_CODES[ref.size]
    return None


def element_plan(model, u: TypeDef, seen: frozenset = frozenset()) -> ElementPlan | None:
    """How to write out an element of type `u` of `model`'s schema as straight-line code, or None
    when some field has another shape (see `ElementPlan`)."""
    if (u.schema is not model.schema or not u.schema.strict or u.unwrap
            or u.instances or parent_names(u, True) or reads_bits_one_by_one(u) or u.name in seen
            or not model.tuple_form(u)):
        return None
    params = {p.id for p in u.params}
    plan, seq, i = ElementPlan(u, [], form=model.tuple_form(u)), u.seq, 0
    while i < len(seq):
        f, after = seq[i], seq[i + 1] if i + 1 < len(seq) else None
        cond = f.if_expr
        if not _plain(f) or (cond is not None and not _decided(cond, params)):
            return None
        if f.count_of is not None:
            j = i
            while j < len(seq) and seq[j].count_of is not None:
                j += 1
            counted = _counted(model, u, seq[i:j], seq[j] if j < len(seq) else None, params, seen)
            if counted is None:
                return None
            plan.add(counted[0])
            plan.checks += [check for check in counted[1] if check not in plan.checks and not _always(check)]
            i = j + 1
            continue
        prim, code = primitive(f.type), fixed_code(f)
        if f.repeat or (f.derived and (not f.size_of or prim is None)):  # derived: a varint length or size
            return None
        if code is not None and f.type.size == 1 and f.type.kind == "int":
            plan.add(Step("int", u, f, cond=cond))
        elif code is not None:
            _add_fixed(plan, Step("fixed", u, f, cond=cond, fields=[f],
                                  code=(">" if f.type.endian == "be" else "<") + code))
        elif prim is None:
            return None
        elif not f.size_of:
            plan.add(Step("varint", u, f, cond=cond))
        elif prim.bias or cond is not None:
            return None
        elif f.size_of[1] is None:
            if i != 0 or after is None or f.size_of[0] != after.id:
                return None
            plan.add(Step("tail", u, f))
        else:
            if after is None or f.size_of != (after.id, after.id) or not _sized_target(u, f, after, plan):
                return None
            plan.add(Step("sized", u, f, after))
            i += 1
        i += 1
    if set(plan.guards) | {n for cond in plan.conditions for n in E.names(cond)} != params:
        return None  # a param read elsewhere than a switch the loop can rule out or a condition it decides
    return plan


def _add_fixed(plan: ElementPlan, step: Step) -> None:
    """A fixed-width number: one more of the struct call before it, where it follows that one's
    last under the same condition, in the same byte order."""
    last = plan.steps[-1] if plan.steps else None
    seq = step.owner.seq
    if (last is not None and last.kind == "fixed" and last.cond == step.cond and last.code[0] == step.code[0]
            and seq.index(last.fields[-1]) + 1 == seq.index(step.field)):
        last.fields.append(step.field)
        last.code += step.code[1:]
    else:
        plan.add(step)


def _sized_target(u: TypeDef, length: Field, f: Field, plan: ElementPlan) -> bool:
    """The bytes or text `length` measures, read with that size alone: null only as the
    length's `-lc-absent` says (`if: len >= 0`); a switch only where no case matches."""
    if not _plain(f) or f.repeat or f.size is None or E.names(f.size) != {length.id}:
        return False
    if (f.if_expr is None) != (length.absent is None):
        return False
    if f.if_expr is not None and not size_held_non_negative(f):
        return False
    if length.absent is not None and not primitive(length.type).zigzag:
        return False
    ref = f.type
    if ref.kind == "switch":
        on = ref.switch_on
        params = {p.id: p for p in u.params}
        if (not isinstance(on, E.Name) or on.name not in params or any(k is None for k, _ in ref.cases)
                or not all(isinstance(k, (E.Bool, E.Num)) for k, _ in ref.cases)):
            return False
        keys = plan.guards.setdefault(on.name, [])
        keys += [k for k, _ in ref.cases if k not in keys]
        return True
    return ref.kind == "bytes" or (ref.kind == "str" and bool(ref.encoding))

def _counted(model, u: TypeDef, counts: list[Field], f: Field | None, params: set[str],
             seen: frozenset) -> tuple[Step, list] | None:
    """The step of the list `f` and the counts right before it, each a varint or a fixed-width
    number under its own condition, and the one its `repeat-expr` chooses (by a condition on
    params); with the conditions the loop must check (`_list_checks`)."""
    if (f is None or f.repeat != "expr" or f.size is not None or not _plain(f)
            or (f.if_expr is not None and not _decided(f.if_expr, params))):
        return None
    for count in counts:
        prim = primitive(count.type)
        if (not count.derived or count.count_of != E.Name(f.id) or count.repeat or count.size_of
                or (prim is None and (fixed_code(count) is None or count.type.kind != "int"))
                or (count.if_expr is not None and not _decided(count.if_expr, params))):
            return None
    chosen = _chosen(f.repeat_expr, {c.id: c for c in counts}, params)
    if chosen is None:
        return None
    run, element = number_run(f), None
    if run is None:
        if f.type.kind != "user" or f.type.args or primitive(f.type) is not None:
            return None
        element = element_plan(model, f.type.user, seen | {u.name})
        if element is not None and element.guards:
            return None
    return Step("list", u, counts[0], f, element, cond=f.if_expr, counts=list(counts), run=run), \
        _list_checks(f.if_expr, chosen, counts)


def _list_checks(written, chosen, counts: list[Field]) -> list:
    """What the loop's arguments must make true for a list's counts to agree with it: where the
    list is written (`written`, its condition), the count its `repeat-expr` chooses is written
    (`chosen`), and no count is written without the list (the checked encoder finds no list to
    count there)."""
    checks = []
    if written is None:
        if chosen != E.Bool(True):
            checks.append(chosen)
    else:
        if chosen not in (E.Bool(True), written):
            checks.append(E.Binary("or", E.Unary("not", written), chosen))
        for count in counts:
            if count.if_expr is None:
                checks.append(written)
            elif count.if_expr != written:
                checks.append(E.Binary("or", E.Unary("not", count.if_expr), written))
    return checks


def _always(check) -> bool:
    """Whether a check holds whatever its one param is (an integer, as a version): its comparisons
    of that param with numbers change only at those numbers, so it is tried just below, at and
    just above each. A check of anything else is kept (`_values` gives None)."""
    names = E.names(check)
    numbers = [n.value for n in E.walk(check) if isinstance(n, E.Num)]
    if len(names) != 1 or not all(isinstance(v, int) for v in numbers):
        return False
    (name,) = names
    points = {p for v in numbers for p in (v - 1, v, v + 1)} | {min(numbers, default=0) - 1, max(numbers, default=0) + 1}
    return all(_values(check, name, p) is True for p in points)


_COMPARE = {"<": int.__lt__, "<=": int.__le__, ">": int.__gt__, ">=": int.__ge__, "==": int.__eq__, "!=": int.__ne__}


def _values(node, name: str, at: int):
    """The value of a condition on the param `name` where it is `at`: a bool or an int, or None
    for an expression of another kind."""
    if isinstance(node, E.Name):
        return at if node.name == name else None
    if isinstance(node, E.Num):
        return node.value if isinstance(node.value, int) else None
    if isinstance(node, E.Bool):
        return node.value
    if isinstance(node, E.Unary) and node.op == "not":
        value = _values(node.operand, name, at)
        return None if not isinstance(value, bool) else not value
    if isinstance(node, E.Ternary):
        cond = _values(node.cond, name, at)
        return None if not isinstance(cond, bool) else _values(node.then if cond else node.other, name, at)
    if isinstance(node, E.Binary):
        left, right = _values(node.left, name, at), _values(node.right, name, at)
        if node.op in ("and", "or"):
            if not isinstance(left, bool) or not isinstance(right, bool):
                return None
            return (left and right) if node.op == "and" else (left or right)
        if node.op in _COMPARE and type(left) is int and type(right) is int:
            return _COMPARE[node.op](left, right)
    return None


def _chosen(expr, counts: dict[str, Field], params: set[str]):
    """When the count a list's `repeat-expr` chooses is written: its condition (true where it
    has none), through the conditions on params that choose it; None where the expression is
    anything but counts chosen by such conditions."""
    if isinstance(expr, E.Ternary):
        then, other = _chosen(expr.then, counts, params), _chosen(expr.other, counts, params)
        if then is None or other is None or not _decided(expr.cond, params):
            return None
        if then == expr.cond:  # the count under the very condition that chooses it
            return E.Binary("or", expr.cond, other)
        return E.Ternary(expr.cond, then, other)
    if isinstance(expr, E.Attr) and expr.name == "value" and isinstance(expr.obj, E.Name):
        count = counts.get(expr.obj.name)  # a varint's value
        if count is None or primitive(count.type) is None:
            return None
    else:
        count = counts.get(expr.name) if isinstance(expr, E.Name) else None
        if count is None:
            return None
    return E.Bool(True) if count.if_expr is None else count.if_expr


def c_takes(plan: ElementPlan) -> bool:
    """Whether the C companion writes this plan's elements (its loops): every shape but floats
    (fixed-width ones, or a list of them), with at most 64 conditions; text only in UTF-8 (the
    only text C takes), in its nested elements too. A list of a type without a plan C takes
    empty only (else Python writes the list)."""
    if len(plan.conditions) > 64:
        return False
    for step in plan.steps:
        if any(g.type.kind == "float" for g in step.fields):
            return False
        if step.kind == "sized" and step.target.type.kind == "str" and codecs.lookup(step.target.type.encoding).name != "utf-8":
            return False
        if step.kind == "list" and (step.run is not None and step.target.type.kind == "float"
                                    or step.element is not None and not c_takes(step.element)):
            return False
    return True


def c_reads(plan: ElementPlan) -> bool:
    """Whether the C companion reads this plan's elements (its readers): one-byte integers,
    unbiased varints, lengths and sizes, and lists of such elements after one such count, no
    condition (the shapes C reads); text only in UTF-8."""
    if plan.conditions or plan.checks or not c_takes(plan):
        return False
    for step in plan.steps:
        if step.kind == "fixed" or (step.kind == "varint" and primitive(step.field.type).bias):
            return False
        if step.kind == "list" and (step.element is None or len(step.counts) != 1
                                    or primitive(step.field.type) is None or primitive(step.field.type).bias
                                    or not c_reads(step.element)):
            return False
    return True


def list_plan(model, f: Field) -> ElementPlan | None:
    """The plan of the list `f`'s elements, where it is a plain list of a type with one whose
    guarded switches its arguments do not always pick a case of (a bool param whose cases take
    both values): the list a fast path writes out, behind the guard's tests."""
    u = f.type.user if f.repeat and f.type.kind == "user" else None
    if u is None or f.size is not None or f.process or f.terminator is not None:
        return None
    plan = element_plan(model, u)
    if plan is None:
        return None
    params = {p.id: p for p in plan.type.params}
    for name, keys in plan.guards.items():
        if params[name].type_name == "bool" and all(isinstance(k, E.Bool) for k in keys) and \
                {k.value for k in keys} == {True, False}:
            return None
    return plan


def c_loops(model, types: list[TypeDef]) -> dict[str, ElementPlan]:
    """The lists of `types` whose encoders call the C companion first, by the name of its function
    (`encode_<type>_<field>`): those with a plan C takes."""
    return {f"encode_{t.name}_{f.id}": plan for t in types for f in t.seq
            if f.repeat and (plan := list_plan(model, f)) is not None and c_takes(plan)}


def c_readers(model, bulk) -> dict[str, ElementPlan]:
    """The root's bulk list (`bulk.iterated_bulk`), whose decoders call the C companion's reader
    first, by its name (`decode_<type>_<field>`), where its elements decode to tuples and C takes
    their plan."""
    if bulk is None or not model.tuple_decoded(bulk.items.type.user):
        return {}
    plan = list_plan(model, bulk.items)
    return {f"decode_{bulk.holder.name}_{bulk.items.id}": plan} if plan is not None and c_reads(plan) else {}


__all__ = ["ElementPlan", "Step", "c_loops", "c_readers", "c_reads", "c_takes", "element_plan", "list_plan"]
