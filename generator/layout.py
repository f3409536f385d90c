"""The layout of each type, planned once (`Model.plan`) and read by every emitter of it.

A type's plan says how its seq is read and written, whatever the target:

- `parts`: the seq cut into runs of fixed fields, read and written as one (`Item`s: a field,
  or bit fields read as one integer from the whole bytes they take), and single fields;
- `ranges`: the byte ranges that derived fields measure or check (`-lc-size-of` a span of
  fields, `-lc-checksum`), and so the fields whose offsets are remembered (`marks`) and the
  derived fields an encoder can fill in only after their range (`deferred`); where each range
  ends (`range_end`); the range each `-lc-size-of` measures, one field or a span (`measures`);
- `bits_one_by_one`: whether its bit fields are read one after the other, as Kaitai's streams
  read them, rather than in whole-byte groups;
- `bit_runs`: the bit fields as Kaitai's stream reads them, each run from one buffer of bits
  between two byte-aligned reads. The back ends cut them differently, on purpose: the Python
  codecs read the plain ones in groups of whole bytes, one integer each (`bit_groups`, items of
  `parts`), for `struct`; construct reads each run as one `BitStruct`, bit by bit (and so needs
  no `bits_one_by_one`).

The straight-line code of a list's elements (the fast paths of the encoders, and the C
companion's loops and readers) has plans of its own (`element_plans`).

Facts of the IR that more than one back end asks (what a type reads through `_parent`, whether
its bits are read one by one) are here too. Nothing here writes code.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import NamedTuple

from . import expr as E
from .problems import yaml_text
from .schema import Field, TypeDef, TypeRef

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

    def bit_positions(self) -> list[tuple[Field, int]]:
        """Each bit field of a group with the shift of its lowest bit in the group's integer: in
        big-endian bit order the first field takes the top bits, in little-endian the lowest."""
        out, shift = [], self.size * 8 if self.endian == "be" else 0
        for f in self.fields:
            if self.endian == "be":
                shift -= f.type.size
                out.append((f, shift))
            else:
                out.append((f, shift))
                shift += f.type.size
        return out


class Range(NamedTuple):
    """The fields from `first` to `last` (None: the end of the type) that a derived field
    (`owner`) measures (`kind` "size") or checks (`kind` "checksum")."""

    owner: Field
    first: str
    last: str | None
    kind: str


@dataclass(frozen=True)
class BitRun:
    """Bit fields that follow one another in the seq with one bit order: read from one buffer of
    bits that starts at a byte, the rest of its last byte skipped when a byte-aligned field (or
    a bit field of the other order) comes. With little-endian bit order the first field holds
    the least significant bits of the bytes read as a little-endian integer."""

    fields: tuple[Field, ...]

    @property
    def endian(self) -> str:
        """The bit order, "be" or "le"."""
        return self.fields[0].type.endian

    @property
    def width(self) -> int:
        """The bits of its fields, each counted once (an element's, for a repeated field)."""
        return sum(f.type.size for f in self.fields)

    @property
    def padding(self) -> int:
        """The bits skipped to the end of the last byte (of `width`)."""
        return -self.width % 8

    @property
    def size(self) -> int:
        """The whole bytes it takes (of `width`)."""
        return (self.width + self.padding) // 8


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

    def bit_order_before(self, fid: str | None) -> str:
        """In a type whose bits are read one by one, the bit order of the bits that may be left
        in a byte before the field `fid` (None: the end of the type): that of the nearest field
        before it that reads bits. The encoder completes that byte with zero bits there, in that
        order, where the decoder skips the rest of it."""
        before = self.type.seq if fid is None else self.type.seq[:self.index[fid]]
        return next((bits_of(f.type)[0].endian for f in reversed(before) if reads_bits(f.type)), "be")

    @functools.cached_property
    def not_canonical(self) -> list[str]:
        """Why bytes that decode to a value of this type may differ from those its encoder writes
        for that value (`encode(decode(b)) != b`), one reason a line; empty where the value
        determines its bytes. The emitters say them in the type's docstring, `encode`'s and the
        docs. (Bytes a user's schema's decoder carries on the value, `_carried`, are written back:
        padding, what a sized structure left unread, what follows a terminator.)"""
        t, reasons = self.type, []
        for f in t.seq:
            if f.id in self.keeps_raw:
                reasons.append(f"`{f.id}` is processed (`{f.process[0]}`): a decoded value keeps the bytes read "
                               f"(`_wire_{f.id}`) and is written with them while they still give its content, "
                               "but a value built or changed gets its encoder's output, which may differ from "
                               "another encoder's")
            elif f.process and f.process[0] not in BIJECTIVE_PROCESSORS:
                reasons.append(f"`{f.id}` is processed (`{f.process[0]}`): its encoder's output, which may differ "
                               "from the bytes read")
            if (t.schema.strict or f.process) and f.size is not None and (f.pad_right is not None
                                                                        or f.terminator is not None):
                reasons.append(f"the bytes of `{f.id}` after its value are written as padding")
        singles = [f.id for f in t.seq if any(r.kind == "float" and r.size == 4
                                              for r in (f.type, *(case for _, case in f.type.cases)))]
        if singles:
            reasons.append(f"a signaling NaN in a 4-byte float ({', '.join(f'`{i}`' for i in singles)}) is written as "
                           "the quiet NaN Python's float makes of it")
        if self.bits_one_by_one or any(run.padding for run in self.bit_runs):
            reasons.append("bits left in a byte before a byte-aligned field, or at the end, are written as zero bits")
        positioned = [i.id for i in t.instances if i.pos is not None and not i.input]
        if positioned:
            reasons.append(f"instances read at a position ({', '.join(f'`{i}`' for i in positioned)}) are not "
                           "written: the encoder writes the seq's bytes only")
        return reasons

    @functools.cached_property
    def keeps_raw(self) -> list[str]:
        """The processed fields whose bytes as read a decoded value keeps (`_wire_<field>`): those
        a processor that is not bijective (a compression) takes whole (sized, not cut by padding
        or a terminator first, not repeated). Another encoder's output is not ours, so the encoder
        writes the kept bytes back where they still give the field's content (the processor reads
        them again and the content written now is the same), and processes the content itself
        otherwise: a decoded value is written back byte for byte, a changed one as given."""
        return [f.id for f in self.type.seq
                if f.process and f.process[0] not in BIJECTIVE_PROCESSORS and (f.size is not None or f.size_eos)
                and f.pad_right is None and f.terminator is None and not f.repeat]

    @functools.cached_property
    def decided_by_stream(self) -> list[str]:
        """The fields whose presence, size, count, case or `valid` the decoder decides by the
        stream (`reads_stream`: `_io.eof`, `_io.size`, `_io.pos`). The encoder has no stream: it
        goes by the value there, then decodes what it wrote to check that the stream those bytes
        make decides as the value did (the module's `encode` says so)."""
        return [f.id for f in self.type.seq
                if any(reads_stream(e, self.type) for e in (f.if_expr, f.size, f.repeat_expr, f.type.switch_on)
                       if e is not None)
                or any(reads_stream(r, self.type) for rule in (f.valid or {}).values()
                       for r in (rule if isinstance(rule, list) else [rule]) if not isinstance(r, str))]

    @functools.cached_property
    def in_runs(self) -> set[str]:
        """The fields read and written in runs of fixed fields (packed together, by one struct)."""
        return {g.id for part in self.parts if isinstance(part, list) for item in part for g in item.fields}

    @property
    def bit_groups(self) -> list[Item]:
        """The groups of bit fields read as one integer, in seq order."""
        return [item for part in self.parts if isinstance(part, list) for item in part if item.bits]

    def range_end(self, r: Range) -> str | None:
        """The field right after a range's last one, which starts where the range ends (None: the
        range ends the type)."""
        after = self.index[self.range_last(r.last)] + 1
        return self.type.seq[after].id if after < len(self.type.seq) else None

    @functools.cached_property
    def measures(self) -> dict[str, Range]:
        """The range each `-lc-size-of` field measures, by the field's id: a span of fields (also
        one of `ranges`) or a single field (`is_size_target`, whose own bytes say its length)."""
        return {f.id: Range(f, f.size_of[0], f.size_of[1], "size") for f in self.type.seq if f.size_of}

    @functools.cached_property
    def bit_runs(self) -> list[BitRun]:
        """The runs of bit fields, in seq order (see `BitRun`): bit fields one after another, a
        change of bit order starting a new run (at a new byte)."""
        runs: list[list[Field]] = []
        for prev, f in zip([None, *self.type.seq], self.type.seq):
            if f.type.kind != "bits":
                continue
            if prev is not None and prev.type.kind == "bits" and prev.type.endian == f.type.endian:
                runs[-1].append(f)
            else:
                runs.append([f])
        return [BitRun(tuple(run)) for run in runs]

    @property
    def sole_bit_run(self) -> BitRun | None:
        """The bit run that is the whole seq, where it is one (None: it is not)."""
        runs = self.bit_runs
        return runs[0] if len(runs) == 1 and len(runs[0].fields) == len(self.type.seq) else None


def plan_type(t: TypeDef) -> TypePlan:
    """The plan of `t` (of a schema the passes accepted: they refuse what no plan is made for)."""
    ranges = []
    for f in t.seq:
        if f.size_of and f.size_of[0] != f.size_of[1]:
            ranges.append(Range(f, f.size_of[0], f.size_of[1], "size"))
        if f.checksum:
            ranges.append(Range(f, f.checksum["from"], f.checksum["to"], "checksum"))
    index = {f.id: i for i, f in enumerate(t.seq)}
    checksum_starts = {r.first for r in ranges if r.kind == "checksum"}
    deferred = {r.owner.id for r in ranges if index[r.owner.id] < index[r.first] or r.kind == "checksum"}
    return TypePlan(t, _parts(t, checksum_starts), ranges, {r.first for r in ranges} | {r.owner.id for r in ranges},
                    checksum_starts, index, deferred, reads_bits_one_by_one(t))


# ---------------------------------------------------------------- varint primitives


@dataclass(frozen=True)
class Primitive:
    """A `-lc-primitive` type: a varint of `bits` bits, zigzag-encoded or not, holding its value
    plus `bias` (a biased varint's encoded 0 is -1)."""

    name: str
    bits: int
    zigzag: bool
    bias: int = 0

    @property
    def max_bytes(self) -> int:
        """The most bytes a value of this width takes (7 bits per byte)."""
        return (self.bits + 6) // 7

    @property
    def wide(self) -> bool:
        """Wider than a JSON number holds exactly (shown as a decimal string)."""
        return self.bits > 53


#: each primitive's (zigzag, bias)
_PRIMITIVES = {"zigzag_varint": (True, 0), "uvarint": (False, 0), "biased_uvarint": (False, 1)}


def primitive(ref: TypeRef) -> Primitive | None:
    """The primitive a field's type is, or None for any other type (of a schema the passes
    accepted: `primitive_problem` says what they refuse)."""
    if ref.kind != "user" or not ref.user.primitive:
        return None
    name = ref.user.primitive["name"]
    return Primitive(name, ref.args[0].value, *_PRIMITIVES[name])


def primitive_problem(ref: TypeRef) -> str | None:
    """What is wrong with a reference to a `-lc-primitive` type (None: nothing)."""
    spec = ref.user.primitive
    name = spec.get("name") if isinstance(spec, dict) else None
    if name not in _PRIMITIVES:
        return f"unknown -lc-primitive {yaml_text(name)}: one of {', '.join(sorted(_PRIMITIVES))}"
    if len(ref.args) != 1 or not isinstance(ref.args[0], E.Num):
        return f"{name} takes its width in bits as a literal"
    return None


# ---------------------------------------------------------------- runs of fixed fields


def _parts(t: TypeDef, checksum_starts: set[str]) -> list[list[Item] | Field]:
    """Split the seq into fixed runs (lists of Item) and single fields."""
    out, run, bits = [], [], []
    one_by_one = reads_bits_one_by_one(t)
    for f in t.seq:
        plain = not (f.if_expr or f.repeat or f.size is not None or f.size_eos or f.process or f.contents)
        if plain and f.type.kind == "bits" and not one_by_one:
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


# ---------------------------------------------------------------- runs of numbers


@dataclass(frozen=True)
class NumberRun:
    """A counted list of fixed-size numbers read in one `struct` call of `count` of them (a
    Kafka partition's replica ids): `code` is one element's format with its byte order."""

    code: str
    size: int


def number_run(f: Field) -> NumberRun | None:
    """How the counted list `f` reads as one run of numbers, or None when an element is more than
    a fixed-size number in a known byte order (an enum, a `valid`, a size, a process...), which
    its own read must check or convert."""
    ref = f.type
    if f.repeat != "expr" or ref.kind not in ("int", "float") or ref.endian not in ("be", "le"):
        return None
    if f.enum or f.valid or f.size is not None or f.size_eos or f.process or f.contents is not None \
            or f.terminator is not None or f.pad_right is not None:
        return None
    code = STRUCT_CODES[(ref.size, ref.signed)] if ref.kind == "int" else FLOAT_CODES[ref.size]
    return NumberRun((">" if ref.endian == "be" else "<") + code, ref.size)


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


def size_held_non_negative(f: Field) -> bool:
    """The field is read only when its size is not negative: its condition says so (`if: x >= 0`
    with `size: x`, Kafka's nullable keys and values), and its decoder need not check again."""
    cond, zero = f.if_expr, E.Num(0)
    return f.size is not None and isinstance(cond, E.Binary) and (
        (cond.op == ">=" and cond.left == f.size and cond.right == zero)
        or (cond.op == "<=" and cond.left == zero and cond.right == f.size))


def substream(f: Field) -> bool:
    """Whether a field's type is read from a stream of its own (its size, process, terminator)."""
    return f.size is not None or f.size_eos or bool(f.process) or f.terminator is not None or f.pad_right is not None


#: Kaitai's processors that map bytes to bytes one to one, so that their input is the only one
#: that gives their output (the others, compressors, may write other bytes than those read).
BIJECTIVE_PROCESSORS = frozenset({"xor", "rol", "ror"})


def reads_to_its_end(t: TypeDef) -> bool:
    """Whether decoding `t` may read on to the end of its stream (a field of `size-eos` or
    `repeat: eos`, a terminator it need not find, `_io.size` or `_io.eof`), itself or through a
    structure it reads from the same stream: then bytes after those its value is written to, as
    zero padding of a `size` that says more, would decode to another value."""
    seen: set[str] = set()

    def reads(u: TypeDef) -> bool:
        if u.name in seen or u.primitive:
            return False
        seen.add(u.name)
        for f in u.seq:
            if f.size is not None or f.size_eos or f.process:
                if f.size_eos:
                    return True
                continue  # a stream of its own: its end is its size's
            if f.repeat == "eos" or (f.terminator is not None and not f.eos_error):
                return True
            if any(reads(ref.user) for ref in (f.type, *(case for _, case in f.type.cases)) if ref.kind == "user"):
                return True
        return any(isinstance(n, E.Attr) and n.name in ("size", "eof") and n.obj == E.Name("_io")
                   for e in (*(e for f in u.seq for e in f.expressions()),
                             *(e for i in u.instances for e in (i.value, i.pos) if e is not None))
                   for n in E.walk(e))

    return reads(t)


def reads_stream(node, t: TypeDef) -> bool:
    """Whether an expression of `t` depends on the stream its value was read from: it reads a
    property of an `_io` (its own, `_parent._io`, `_root._io`...), or a value instance of `t`
    that does (`save_pos: {value: _io.pos}`). An encoder has no such stream (the bytes it writes
    make it), so where a decoder decides by such an expression, the encoder goes by the value
    (a field's presence, a switch's case) and checks nothing (a size, a count, a `valid`)."""
    seen: set[str] = set()

    def reads(e) -> bool:
        if any(isinstance(n, E.Name) and n.name == "_io" or isinstance(n, E.Attr) and n.name == "_io"
               for n in E.walk(e)):
            return True
        for name in E.names(e):
            inst = next((i for i in t.instances if i.id == name and i.field is None), None)
            if inst is not None and name not in seen:
                seen.add(name)
                if any(x is not None and reads(x) for x in (inst.value, inst.if_expr)):
                    return True
        return False

    return node is not None and reads(node)


def reads_bits(ref: TypeRef) -> bool:
    """Whether a field of this type may read bits: a bit field, or a switch with a case of bits."""
    return ref.kind == "bits" or (ref.kind == "switch" and any(case.kind == "bits" for _, case in ref.cases))


def bits_of(ref: TypeRef) -> list[TypeRef]:
    """The bit types a field of this type may read: itself, or a switch's cases of bits."""
    return [ref] if ref.kind == "bits" else [case for _, case in ref.cases if case.kind == "bits"]


def reads_bits_one_by_one(t: TypeDef) -> bool:
    """A type of a user's schema with a bit field that is repeated, conditional, sized, processed
    or a switch's case reads all its bit fields as Kaitai's streams do, one after the other from a
    buffer of bits, not in whole-byte groups (and writes them so)."""
    return not t.schema.strict and any(
        reads_bits(f.type) and (f.type.kind == "switch" or f.if_expr is not None or f.repeat or f.size is not None
                                or f.size_eos or f.process or f.contents is not None)
        for f in t.seq)


__all__ = ["STRUCT_CODES", "FLOAT_CODES", "BIT_GROUP_CODES", "Item", "Range", "BitRun", "TypePlan", "plan_type",
           "NumberRun", "number_run", "parent_names",
           "BIJECTIVE_PROCESSORS", "reads_to_its_end", "reads_stream", "reads_bits", "bits_of", "reads_bits_one_by_one", "substream",
           "size_held_non_negative", "Primitive", "primitive"]
