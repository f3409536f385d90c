"""A root's bulk: the list at its end that its reads can hand out one element at a time
(`decode_iter`, the lazy read's view), and its header, the fields before it.

Worked out from the schema alone (`Model.bulk`, `Model.lazy_bulk` read it): which field is the
bulk, which list type holds its elements, and which header field, if any, counts them.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from . import expr as E
from .schema import Field, TypeDef


def header_of(t: TypeDef) -> TypeDef | None:
    """The header of a type: a type of its seq fields before the first bulk one (repeated,
    processed, or running to the end), without what they say of the fields left out (sizes,
    counts, checksums, defaults), with the value instances that read only them. Decoding it reads
    what a value says of itself without its bulk (a batch's attributes, a bundle's counts). None
    when the bulk comes first, or there is none."""
    cut = next((i for i, f in enumerate(t.seq) if f.repeat or f.process or f.size_eos), None)
    name = f"{t.name}_header"
    if not cut or t.unwrap or any(u.name == name for u in t.schema.all_types()):
        return None
    seq = [replace(f, size_of=None, count_of=None, checksum=None, default=None, present=None, filled_remotely=False)
           for f in t.seq[:cut]]
    known = {f.id for f in seq} | {p.id for p in t.params}
    instances = []
    for inst in t.instances:  # in order: an instance may read one kept before it
        if inst.field is None and {n.name for n in E.walk(inst.value) if isinstance(n, E.Name)} <= known:
            instances.append(inst)
            known.add(inst.id)
    return replace(t, name=name, seq=seq, instances=instances, types={}, enums={}, parent=t,
                   doc=f"The fields of a {t.name} before its {t.seq[cut].id}.")


@dataclass(frozen=True)
class Bulk:
    """A root's bulk as a list its elements can be read from one at a time (`iterated_bulk`):
    the root's field, the list's own type, and that type's repeated field; `count`, the field of
    the header that says how many elements there are, where one does (a Kafka batch's
    `num_records`), which a lazy read's view gives as its length without reading them."""

    field: Field
    holder: TypeDef
    items: Field
    count: str | None = None


def iterated_bulk(t: TypeDef) -> Bulk | None:
    """The root's bulk when its elements can be decoded one at a time, after the rest of the value
    (`decode_iter`): the header's last field is followed by one last field of a known size (so
    that its end, and any checksum over it, is known before an element is read), whose type is a
    list of its own (`-lc-unwrap`, one repeated field, counted or to the end) of a structure that
    does not read the elements before it. None otherwise: such a value is decoded whole."""
    header = header_of(t)
    if header is None or len(header.seq) != len(t.seq) - 1:
        return None
    f = t.seq[-1]
    if f.repeat or f.if_expr is not None or (f.size is None and not f.size_eos) or f.type.kind != "user":
        return None
    holder = f.type.user
    if not holder.unwrap or holder.instances or len(holder.seq) != 1:
        return None
    items = holder.seq[0]
    if items.repeat not in ("expr", "eos") or items.partial_tail or items.if_expr is not None \
            or items.type.kind != "user" or items.terminator is not None:
        return None
    if {inst.id for inst in t.instances} - {inst.id for inst in header.instances}:
        return None  # an instance that reads the bulk would need the whole list
    element = items.type.user
    reads = [e for g in element.seq for e in g.expressions()] + [
        e for inst in element.instances for e in (inst.value, inst.pos) if e is not None]
    if any(isinstance(n, E.Attr) and n.obj == E.Name("_parent") and n.name == items.id
           for e in reads for n in E.walk(e)):
        return None  # an element that reads the list so far needs it kept
    return Bulk(f, holder, items, _counted_by(header, f, holder, items))


def _counted_by(header: TypeDef, f: Field, holder: TypeDef, items: Field) -> str | None:
    """The header field whose value is the bulk's count: the list's count is one of its type's
    params, and the root passes it a header field as it is. None for any other count."""
    if items.repeat != "expr" or not isinstance(items.repeat_expr, E.Name):
        return None
    params = [p.id for p in holder.params]
    if items.repeat_expr.name not in params or len(f.type.args) != len(params):
        return None
    arg = f.type.args[params.index(items.repeat_expr.name)]
    fields = {g.id for g in header.seq}
    return arg.name if isinstance(arg, E.Name) and arg.name in fields else None
