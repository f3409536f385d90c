"""How a list's element is written out as straight-line code: the fast paths of the Python
encoders (`python.fast_encode`) and the C companion's loops and readers (`generator.c`) read one
`ElementPlan` of the element's type, made once here from its fields (`element_plan`); a type of
any other shape is left to its checked code."""

from __future__ import annotations

import codecs
from dataclasses import dataclass, field

from . import expr as E
from .layout import (
    parent_names,
    primitive,
    reads_bits_one_by_one,
    size_held_non_negative,
)
from .schema import Field, TypeDef


@dataclass
class Step:
    """One piece of a written-out element, in seq order."""

    kind: str  # "int" | "varint" | "sized" | "list" | "tail"
    owner: TypeDef  # the type whose field it is
    field: Field  # the field (for "sized", "list" and "tail": the length or count)
    target: Field | None = None  # what a "sized" length measures, what a "list" count counts
    element: ElementPlan | None = None  # a "list"'s element type (one with no params)


@dataclass
class ElementPlan:
    """How to write out one element type of a list as straight-line code (the fast paths of the
    encoders, the C companion's loops and readers): its steps, and the switches the caller must
    rule out. The shapes it takes (anything else leaves the type to its checked code):
    - an integer of one byte; a varint primitive (`zigzag_varint`, `uvarint`; not `biased_uvarint`);
    - a varint length right before the bytes or text it measures (`-lc-size-of` that one
      field), the bytes null where the length is `-lc-absent` (`if: len >= 0`);
    - a switch on a param whose cases hold value types, encoded as its raw bytes where no case
      matches: the fast path runs only where the caller's argument picks no case;
    - a varint count right before the list it counts (`-lc-count-of`), of a type of these
      shapes itself, written out inside;
    - a varint size of all the fields after it, as the type's first field (`-lc-size-of` to the
      end)."""

    type: TypeDef
    steps: list[Step]
    guards: dict[str, list] = field(default_factory=dict)  # param id -> the case keys it must not match
    form: list[Field] = field(default_factory=list)  # the fields of its tuple form, in order


def _plain(f: Field) -> bool:
    """Nothing on the field beyond its type, size, condition and the derived meanings a step takes."""
    return not (f.process or f.valid or f.enum or f.contents is not None or f.terminator is not None
                or f.pad_right is not None or f.size_eos or f.checksum or f.default is not None or f.present
                or f.partial_tail or f.filled_remotely or f.parent is not None)


def element_plan(model, u: TypeDef, seen: frozenset = frozenset()) -> ElementPlan | None:
    """How to write out an element of type `u` of `model`'s schema as straight-line code, or None
    when some field has another shape (see `ElementPlan`)."""
    if (u.schema is not model.schema or not u.schema.strict or u.unwrap
            or u.instances or parent_names(u, True) or reads_bits_one_by_one(u) or u.name in seen
            or not model.tuple_form(u)):
        return None
    plan, seq, i = ElementPlan(u, [], form=model.tuple_form(u)), u.seq, 0
    while i < len(seq):
        f, after = seq[i], seq[i + 1] if i + 1 < len(seq) else None
        if not _plain(f) or (f.repeat and not f.count_of):
            return None
        prim = primitive(f.type)
        if f.type.kind == "int" and f.type.size == 1 and not f.derived and f.if_expr is None and not f.repeat:
            plan.steps.append(Step("int", u, f))
        elif prim is None or prim.bias or f.if_expr is not None or f.repeat:
            return None
        elif f.size_of and f.size_of[1] is None:
            if i != 0 or after is None or f.size_of[0] != after.id:
                return None
            plan.steps.append(Step("tail", u, f))
        elif f.size_of:
            if after is None or f.size_of != (after.id, after.id) or not _sized_target(u, f, after, plan):
                return None
            plan.steps.append(Step("sized", u, f, after))
            i += 1
        elif f.count_of is not None:
            element = _listed(model, u, f, after, seen)
            if element is None:
                return None
            plan.steps.append(Step("list", u, f, after, element))
            i += 1
        elif not f.derived:
            plan.steps.append(Step("varint", u, f))
        else:
            return None
        i += 1
    if set(plan.guards) != {p.id for p in u.params}:
        return None  # a param read elsewhere than a switch the loop can rule out
    return plan

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

def _listed(model, u: TypeDef, count: Field, f: Field | None, seen: frozenset) -> ElementPlan | None:
    """The element plan of the list `count` counts, when it comes right after it."""
    if (f is None or E.names(count.count_of) != {f.id} or f.repeat != "expr" or E.names(f.repeat_expr) != {count.id}
            or f.if_expr is not None or f.size is not None or f.type.kind != "user" or f.type.args
            or primitive(f.type) is not None or not _plain(f)):
        return None
    element = element_plan(model, f.type.user, seen | {u.name})
    return None if element is None or element.guards else element


def c_takes(plan: ElementPlan) -> bool:
    """Whether the C companion writes and reads this plan's elements: its text, and its nested
    elements' text, is UTF-8 (the only text C takes)."""
    for step in plan.steps:
        if step.kind == "sized" and step.target.type.kind == "str" and codecs.lookup(step.target.type.encoding).name != "utf-8":
            return False
        if step.kind == "list" and not c_takes(step.element):
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
    return {f"decode_{bulk.holder.name}_{bulk.items.id}": plan} if plan is not None and c_takes(plan) else {}


__all__ = ["ElementPlan", "Step", "c_loops", "c_readers", "c_takes", "element_plan", "list_plan"]
