"""`-lc-checksum` in construct: the checksum is built as 0 where it lies (`derived.py`), and
patched in at the end of the structure by a `Pointer` to it, over the bytes between two offsets
remembered while the structure was read or built (`Tell`); parsing checks it there too.

The ranges are the plan's (`TypePlan.ranges`, of kind "checksum"): an offset is remembered
(`_at_<field>`) where a range starts, where it ends (the start of the field after it, or
`_at_end`) and where its checksum lies. (The sizes of ranges need no offsets here: construct
measures them by building, `derived.py`.)
"""

from __future__ import annotations

from ..layout import Range, TypePlan
from .context import TypeContext
from .fields import Fields

#: The runtime's function of each checksum algorithm.
FUNCTIONS = {"crc32c": "_lc.crc32c", "crc32": "_lc.crc32"}
#: Where the offset of the end of the structure is remembered.
END = "_end"


def checksum_ranges(plan: TypePlan) -> list[Range]:
    """The ranges the type's checksums cover, in seq order."""
    return [r for r in plan.ranges if r.kind == "checksum"]


def offsets(plan: TypePlan) -> set[str]:
    """The fields whose offset a checksum needs (`END`: the end of the structure)."""
    wanted = set()
    for r in checksum_ranges(plan):
        wanted |= {r.owner.id, r.first, plan.range_end(r) or END}
    return wanted


def at(fid: str) -> str:
    """Where the offset of a field (or `END`) is remembered."""
    return f"_at_{fid.lstrip('_')}"


def tell(cx: TypeContext, fid: str) -> str:
    """Remember the offset of a field (or `END`)."""
    cx.m.use("Tell")
    return f'"{at(fid)}" / Tell,'


def stream(cx: TypeContext) -> str:
    """The structure's stream, kept where the checksums read the bytes they cover."""
    cx.m.runtime = True
    return '"_stream" / _lc.Stream,  # where the checksums read the bytes they cover'


def patch(fields: Fields, r: Range) -> list[str]:
    """The checksum of a range, written over its placeholder once the range's bytes are known
    (and compared with it when parsing)."""
    cx, f = fields.cx, r.owner
    end = at(cx.plan.range_end(r) or END)
    cx.m.use("Pointer", "Checksum")
    cx.m.runtime = True
    algorithm = f.checksum["algorithm"]
    note = (f"# {f.id}: {algorithm} of the bytes from {r.first} to {r.last or 'the end'}, written (and checked "
            "when parsing) once they are known")
    checksum = (f"Checksum({fields.scalar(f.type)}, {FUNCTIONS[algorithm]}, "
                f'lambda this: _lc.span(this, this["{at(r.first)}"], this["{end}"]))')
    return [note, f'"_patch_{f.id}" / Pointer(lambda this: this["{at(f.id)}"], {checksum}),']
