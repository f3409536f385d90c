"""Derived fields in construct's own means: computed when building, read as they are when parsing.

`-lc-size-of` and `-lc-count-of` are `Rebuild`: a size measured from the value of the field
it measures where that is bytes or text, else by building the range it measures (the plan's
`measures`) with `_lc.built_size`; a count is the length of the list. A checksum is a
placeholder (`Rebuild(..., 0)`) that `checksums.py` patches. `-lc-default` and `-lc-present`
are `Default`: used when the value leaves the field None.
"""

from __future__ import annotations

from ..layout import Range
from ..schema import Field
from .context import TypeContext


def derived(cx: TypeContext, f: Field, c: str, base: str) -> str:
    """The construct `c` of a field, computed on build where the field is derived."""
    m, measured = cx.m, cx.plan.measures.get(f.id)
    if measured is not None and measured.owner is f:  # a seq field (a positional instance is only peeked)
        m.use("Rebuild")
        return f"Rebuild({c}, lambda this: {size_of(cx, measured, base)})"
    if f.count_of is not None:
        m.use("Rebuild")
        return f"Rebuild({c}, lambda this: len({cx.expr(f.count_of, base)}))"
    if f.checksum:
        m.use("Rebuild")
        return f"Rebuild({c}, 0)"
    if f.default is not None:
        m.use("Default")
        return f"Default({c}, {cx.fn(f.default, base)})"
    if f.present:
        m.use("Default")
        if f.absent is not None:
            return f'Default({c}, lambda this: 1 if {base}["{f.present}"] is not None else {f.absent!r})'
        return f'Default({c}, lambda this: {base}["{f.present}"] is not None)'
    return c


def size_of(cx: TypeContext, measured: Range, base: str) -> str:
    """The size a `-lc-size-of` field is built with: the length of the bytes or text it measures,
    else what its range takes built; a length `-lc-absent` says when the field is None."""
    f, first, last = measured.owner, measured.first, measured.last
    target = cx.t.field(first)
    if first == last and target.process is None and target.type.kind in ("bytes", "str") and not target.repeat:
        value = f'{base}["{first}"]'
        size = f"len({value}.encode({target.type.encoding!r}))" if target.type.kind == "str" else f"len({value})"
    else:
        cx.m.runtime = True
        size = f'_lc.built_size({base}, "{first}"' + (f', "{last}")' if last else ")")
    if f.absent is not None:
        cx.m.runtime = True
        return f'{size} if {base}["{first}"] is not None else _lc.absent_length({base}, "{f.id}", {f.absent})'
    return size


def field_doc(cx: TypeContext, f: Field) -> str:
    """A field's doc, with what construct makes of it when it is derived or defaulted."""
    doc = " ".join(f.doc.split())
    notes = []
    measured = cx.plan.measures.get(f.id)
    if measured is not None:
        first, last = measured.first, measured.last
        notes.append(f"derived: the size of {first}" + (f" to {last}" if last and last != first else
                                                          " to the end" if last is None else ""))
    if f.count_of is not None:
        notes.append("derived: a count")
    if f.checksum:
        notes.append("derived: 0 until the checksum is patched in at the end")
    if f.default is not None:
        notes.append("default when None")
    if f.present:
        notes.append(f"default: whether {f.present} is there")
    if f.filled_remotely:
        notes.append("built as given: construct cannot compute a length another structure measures")
        cx.m.limit("A length that a field of another structure measures (`-lc-derived`) is built as given: a "
                   "construct computes only from its own context and its holders'.")
    return doc + (f" ({'; '.join(notes)})" if notes else "")
