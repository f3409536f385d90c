"""The layout of each type, planned once (`Model.plan`) and read by every emitter of it.

A type's plan says how its seq is read and written, whatever the target:

- `parts`: the seq cut into runs of fixed fields, read and written as one (`Item`s: a field,
  or bit fields read as one integer from the whole bytes they take), and single fields;
- `ranges`: the byte ranges that derived fields measure or check (`-lc-size-of` a span of
  fields, `-lc-checksum`), and so the fields whose offsets are remembered (`marks`) and the
  derived fields an encoder can fill in only after their range (`deferred`);
- `bits_one_by_one`: whether its bit fields are read one after the other, as Kaitai's streams
  read them, rather than in whole-byte groups.

The straight-line code of a list's elements (the fast paths of the encoders, and the C
companion's loops and readers) has plans of its own: `ElementPlan`, made by `element_plan`.

Facts of the IR that more than one back end asks (what a type reads through `_parent`, whether
its bits are read one by one) are here too. Nothing here writes code.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from . import expr as E
from .schema import Field, SchemaError, TypeDef

#: The `struct` code of each fixed-width field, by (bytes, signed) and for floats by bytes: how a
#: run of fixed fields is described, one character a field.
STRUCT_CODES = {(1, False): "B", (1, True): "b", (2, False): "H", (2, True): "h",
                (4, False): "I", (4, True): "i", (8, False): "Q", (8, True): "q"}
FLOAT_CODES = {4: "f", 8: "d"}
#: A group of bit fields read as one unsigned integer of these bytes (other widths come as bytes).
BIT_GROUP_CODES = {1: "B", 2: "H", 4: "I", 8: "Q"}


@dataclass
class Item:
    """One entry of a fixed run: a field, or a group of bit fields read as one integer."""

    fields: list[Field]
    code: str  # struct code
    size: int  # bytes
    endian: str
    bits: bool = False


class Range(NamedTuple):
    """The fields from `first` to `last` (None: the end of the type) that a derived field
    (`owner`) measures (`kind` "size") or checks (`kind` "checksum")."""

    owner: Field
    first: str
    last: str | None
    kind: str


@dataclass
class TypePlan:
    """How one type's seq is read and written (see the module's docstring)."""

    type: TypeDef
    parts: list[list[Item] | Field]
    ranges: list[Range]
    marks: set[str]  # fields whose offset a range needs: where it starts, and its owner's
    checksum_starts: set[str]  # the first fields of checksum ranges
    index: dict[str, int]  # seq position of each field
    deferred: set[str]  # derived fields an encoder fills in after their range is written
    bits_one_by_one: bool

    def range_last(self, last: str | None) -> str:
        """The last field of a range (None, the end of the type, is its last field)."""
        return last if last is not None else self.type.seq[-1].id

    def is_sized(self, fid: str) -> bool:
        """The field's bytes have a size (given, or to the end of its stream)."""
        f = self.type.field(fid)
        return f.size is not None or f.size_eos

    def is_size_target(self, f: Field) -> bool:
        """A field another one's `-lc-size-of` measures alone (so encoded before its length)."""
        return any(g.size_of and g.size_of[0] == g.size_of[1] == f.id for g in self.type.seq) and not f.repeat


def plan_type(t: TypeDef, holders: list[TypeDef]) -> TypePlan:
    """The plan of `t`; `holders`, the types of its module (what may hold it)."""
    ranges = []
    for f in t.seq:
        if f.size_of and f.size_of[0] != f.size_of[1]:
            ranges.append(Range(f, f.size_of[0], f.size_of[1], "size"))
        if f.checksum:
            ranges.append(Range(f, f.checksum["from"], f.checksum["to"], "checksum"))
    index = {f.id: i for i, f in enumerate(t.seq)}
    for r in ranges:
        if r.last is not None and index[r.last] < index[r.first]:
            raise SchemaError(f"{t.schema.path}: {r.owner.ypath}: the range ends before it starts")
    checksum_starts = {r.first for r in ranges if r.kind == "checksum"}
    deferred = {r.owner.id for r in ranges if index[r.owner.id] < index[r.first] or r.kind == "checksum"}
    return TypePlan(t, _parts(t, checksum_starts, holders), ranges, {r.first for r in ranges} | {r.owner.id for r in ranges},
                    checksum_starts, index, deferred, reads_bits_one_by_one(t))


# ---------------------------------------------------------------- runs of fixed fields


def _parts(t: TypeDef, checksum_starts: set[str], holders: list[TypeDef]) -> list[list[Item] | Field]:
    """Split the seq into fixed runs (lists of Item) and single fields."""
    out, run, bits = [], [], []
    one_by_one = reads_bits_one_by_one(t)
    for f in t.seq:
        plain = not (f.if_expr or f.repeat or f.size is not None or f.size_eos or f.process or f.contents)
        if plain and f.type.kind == "bits" and not one_by_one:
            if bits and f.type.endian != bits[0].type.endian:
                raise SchemaError(f"{t.schema.path}: {f.ypath}: bit fields of both bit orders in one "
                                  "byte are not supported yet")
            bits.append(f)
            if sum(b.type.size for b in bits) % 8 == 0:
                run = _add_to_run(out, run, _bit_group(bits))
                bits = []
            continue
        if bits:  # a byte-aligned field: the bits left in the last byte are skipped, as in Kaitai
            run = _add_to_run(out, run, _bit_group(bits))
            bits = []
        if plain and f.type.kind in ("int", "float"):
            code = STRUCT_CODES[(f.type.size, f.type.signed)] if f.type.kind == "int" else FLOAT_CODES[f.type.size]
            endian = f.type.endian if f.type.size > 1 else (run[-1].endian if run else "be")
            if run and (run[-1].endian != endian or f.id in checksum_starts):
                out.append(run)
                run = []
            run.append(Item([f], code, f.type.size, endian))
            continue
        if run:
            out.append(run)
            run = []
        out.append(f)
    if bits:
        _check_bits_end_here(t, holders)
        run = _add_to_run(out, run, _bit_group(bits))
    if run:
        out.append(run)
    return out


def _add_to_run(out: list, run: list[Item], item: Item) -> list[Item]:
    """Add a bit group to the run, or start a new run when its byte order differs (one struct
    format has one byte order); returns the run to go on with."""
    if run and item.size > 1 and run[0].endian != item.endian:  # run[0]'s order is the struct's
        out.append(run)
        run = []
    run.append(item)
    return run


def _bit_group(bits: list[Field]) -> Item:
    """Bit fields read as one integer from the whole bytes they take (the last one's unused bits
    skipped): a struct code where one fits, else bytes made an integer."""
    size = -(-sum(b.type.size for b in bits) // 8)
    endian = "be" if bits[0].type.endian == "be" else "le"
    return Item(bits, BIT_GROUP_CODES.get(size, f"{size}s"), size, endian, True)


def _check_bits_end_here(t: TypeDef, holders: list[TypeDef]) -> None:
    """Bit fields that end a type leave the rest of their byte unread. Kaitai's parsers would go
    on reading bits there if the field after this type's were bits too; refuse that (and a type
    that is the last field of its holder) rather than read other values."""
    for holder in holders:
        for i, f in enumerate(holder.seq):
            if not any(ref.kind == "user" and ref.user is t for ref in [f.type, *(c for _, c in f.type.cases)]):
                continue
            if substream(f):  # read from bytes of its own: the rest of the byte goes with them
                continue
            after = holder.seq[i + 1] if i + 1 < len(holder.seq) else None
            if after is None or after.type.kind == "bits":
                raise SchemaError(f"{t.schema.path}: bit fields at the end of {t.name} do not fill "
                                  "whole bytes, and what follows it may read the rest of that byte (not supported yet)")


# ---------------------------------------------------------------- facts of the IR


def parent_names(t: TypeDef, encoding: bool = False) -> list[str]:
    """The names a type reads through `_parent.x`, in a stable order.

    A decoder needs the names its reading expressions use; an encoder also those of
    the write-side `-lc-default` and `-lc-count-of` expressions.
    """
    found: set[str] = set()

    def walk(node):
        found.update(n.name for n in E.walk(node) if isinstance(n, E.Attr) and n.obj == E.Name("_parent"))

    for f in [*t.seq, *(i.field for i in t.instances if i.field is not None)]:
        for e in f.expressions(write_side=encoding):
            walk(e)
    for inst in t.instances:
        for e in (inst.value, inst.pos):
            if e is not None:
                walk(e)
    return sorted(found)


def substream(f: Field) -> bool:
    """Whether a field's type is read from a stream of its own (its size, process, terminator)."""
    return f.size is not None or f.size_eos or bool(f.process) or f.terminator is not None or f.pad_right is not None


def reads_bits_one_by_one(t: TypeDef) -> bool:
    """A type with a bit field that is repeated, conditional or processed reads all its bit fields
    as Kaitai's streams do, one after the other from a buffer of bits, not in whole-byte groups."""
    return not t.schema.strict and any(
        f.type.kind == "bits" and (f.if_expr is not None or f.repeat or f.size is not None or f.process) for f in t.seq)


__all__ = ["STRUCT_CODES", "FLOAT_CODES", "BIT_GROUP_CODES", "Item", "Range", "TypePlan", "plan_type", "parent_names",
           "reads_bits_one_by_one", "substream"]
