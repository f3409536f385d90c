"""One type as a construct: a `Struct` of its params and fields, a `FocusedSeq` for an unwrapped
type, a `BitStruct` for a type whose seq is one run of bit fields (`TypePlan.sole_bit_run`).

A `Struct`'s entries, in order: each param as a `Computed` (`param_key`); the structure's
stream where a checksum reads it; then the seq, walked by the plan (`Model.plan`): each bit run
as one hidden `BitStruct` (`bits.py`), each other field with its doc and its `valid`, each
preceded by the instances it reads (`instances.py`) and, where a checksum needs it, its offset
(`checksums.py`); the instances no field reads; the offset of the end; the checksums' patches.
"""

from __future__ import annotations

from ..layout import BitRun, TypePlan
from ..schema import Field, TypeDef
from . import checksums
from .bits import BitRuns
from .cexpr import param_key
from .context import Module, TypeContext
from .derived import field_doc
from .fields import Fields
from .instances import Instances
from .text import call, comment


class TypeEmitter:
    """The construct of one type of a module (see the module's docstring)."""

    def __init__(self, module: Module, t: TypeDef) -> None:
        self.cx = TypeContext(module, t)
        self.m, self.t, self.plan = module, t, self.cx.plan
        self.fields = Fields(self.cx)
        self.bits = BitRuns(self.fields)
        self.instances = Instances(self.fields)

    def construct(self) -> str:
        """The type's construct."""
        t, run = self.t, self.plan.sole_bit_run
        if t.unwrap:
            self.m.use("FocusedSeq")
            return call("FocusedSeq", [f'"{t.seq[0].id}",', *self.params(), *self.seq()])
        if run is not None and not t.instances:
            return self.bits.bit_struct(run, "this", self.params(), [self.fields.check(f) for f in t.seq if f.valid])
        self.m.use("Struct")
        return call("Struct", self.params() + self.seq())

    def params(self) -> list[str]:
        """Each param, a function of the holder's context, kept in the structure (`param_key`)."""
        if self.t.params:
            self.m.use("Computed")
        return [f'"{param_key(self.t, p.id)}" / Computed({p.id}),' for p in self.t.params]

    def seq(self) -> list[str]:
        """The entries of the type's seq, its instances and its checksums."""
        ranges, offsets = checksums.checksum_ranges(self.plan), checksums.offsets(self.plan)
        out = [checksums.stream(self.cx)] if ranges else []
        for piece in with_bit_runs(self.plan):
            fields = piece.fields if isinstance(piece, BitRun) else (piece,)
            for f in fields:
                out += self.instances.before(f)
            if fields[0].id in offsets:
                out.append(checksums.tell(self.cx, fields[0].id))
            out += self.bits.among_fields(piece) if isinstance(piece, BitRun) else self.field(piece)
        out += self.instances.rest()
        if checksums.END in offsets:
            out.append(checksums.tell(self.cx, checksums.END))
        for r in ranges:
            out += checksums.patch(self.fields, r)
        return out

    def field(self, f: Field) -> list[str]:
        """A field of the seq (not a bit field): its doc, its construct, its `valid`."""
        out = [*comment(field_doc(self.cx, f), ""), f'"{f.id}" / {self.fields.field(f)},']
        if f.valid:
            out.append(self.fields.check(f))
        if f.repeat == "eos" and not f.partial_tail:
            self.m.use("Terminated")
            out.append("Terminated,  # repeat-eos reads to the end: an element that fails is an error")
        return out


def with_bit_runs(plan: TypePlan) -> list[Field | BitRun]:
    """The seq with each of the plan's bit runs in place of its fields."""
    runs = {run.fields[0].id: run for run in plan.bit_runs}
    in_runs = {f.id for run in plan.bit_runs for f in run.fields}
    return [runs.get(f.id, f) for f in plan.type.seq if f.id in runs or f.id not in in_runs]
