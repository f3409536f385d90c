"""Instances as construct reads them: eagerly, in the structure, before the first field that
reads them (construct has no lazy field in a `Struct`; Kaitai computes an instance on first use).

A value instance is `Computed` (an `-lc-input` one taken from the value when building); a
positional one is `Peek(Pointer(...))`, read at its position in the structure's own stream
without moving on (another stream is refused by the construct passes).
"""

from __future__ import annotations

from ..schema import Field
from .cexpr import reads
from .fields import Fields
from .text import comment


class Instances:
    """One type's instances, each placed once (its `Fields`)."""

    def __init__(self, fields: Fields) -> None:
        self.fields, self.cx, self.m = fields, fields.cx, fields.m
        self.placed: set[str] = set()

    def before(self, f: Field) -> list[str]:
        """The instances a field reads that are not placed yet, placed before it."""
        read = set().union(*(reads(e) for e in f.expressions(write_side=False))) if f.expressions() else set()
        return [line for n in sorted(read) for line in self.named(n)]

    def named(self, name: str) -> list[str]:
        """The instance of that name, unless it is placed already (a name may be a field's)."""
        inst = next((i for i in self.cx.t.instances if i.id == name), None)
        return self.instance(inst) if inst is not None else []

    def instance(self, inst) -> list[str]:
        """An instance, after the instances it reads; nothing when it is placed already."""
        if inst.id in self.placed:
            return []
        self.placed.add(inst.id)
        out = []
        for n in sorted(reads(inst.value) | reads(inst.pos) | reads(inst.if_expr)):
            out += self.named(n)
        out += comment(" ".join(inst.doc.split()), "") if inst.doc.strip() else []
        if inst.field is not None:
            self.m.use("Peek", "Pointer")
            c = f"Peek(Pointer({self.cx.fn(inst.pos)}, {self.fields.field(inst.field)}))"
            if inst.field.valid:
                return [*out, f'"{inst.id}" / {c},', self.fields.check(inst.field)]
        else:
            self.m.use("Computed")
            value = self.cx.expr(inst.value)
            if inst.input:
                value = f'this["{inst.id}"] if this._building else {value}'
            c = f"Computed(lambda this: {value})"
            if inst.enum is not None:
                self.m.use("Enum")
                c = f"Enum({c}, {self.m.enum_class(inst.enum)})"
            if inst.if_expr is not None:
                self.m.use("If")
                c = f"If({self.cx.fn(inst.if_expr)}, {c})"
        out.append(f'"{inst.id}" / {c},')
        return out

    def rest(self) -> list[str]:
        """The instances no field reads, at the end of the structure."""
        return [line for inst in self.cx.t.instances for line in self.instance(inst)]
