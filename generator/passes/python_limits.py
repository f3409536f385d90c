"""The Python back end's limits: what its codecs cannot read or write yet, refused before it runs.

Each pass says, over the IR, what `python/` would otherwise find out halfway through writing a
module: positions it would count from the wrong place, bit fields it would read from the wrong
byte, bytes with no end, byte ranges and lengths its encoder cannot fill in. The rules follow the
code the back end writes (named in each), so that it is refused exactly what it cannot do.
"""

from __future__ import annotations

from .. import expr as E
from ..layout import TypePlan, parent_names, primitive, substream
from ..schema import Field, TypeDef, static_bits, type_sites
from ..types import Names, type_of, user_of
from ..walk import fields_of, refs_of

_IO_POS = E.Attr(E.Name("_io"), "pos")
_PARENT, _IO = E.Name("_parent"), E.Name("_io")


# ---------------------------------------------------------------- streams


def streams(ctx) -> list:
    """Positions (this repository's schemas: their decoders know where a type starts, which is
    its stream's start only for the root and for types read from a substream of their own): a
    positional instance's `pos` in a type read inline counts from where decoding is
    (`_io.pos + n`), `_io.pos` is read nowhere else there, and `_io.pos` is the only property of
    a stream they read."""
    if not ctx.schema.strict:
        return read_where_the_seq_is(ctx)
    model, found = ctx.model, []
    for t in model.types:
        found += [ctx.problem(ypath, f"`_io.{n.name}` is not supported (only `_io.pos`, in a positional "
                              "instance's `pos`)")
                  for ypath, e, _, _ in type_sites(t) for n in E.walk(e)
                  if isinstance(n, E.Attr) and n.obj == _IO and n.name != "pos"]
        if t.name not in model.read_inline or t is ctx.schema.root:
            continue
        for inst in t.instances:
            if inst.field is not None and _IO_POS not in E.walk(inst.pos):
                found.append(ctx.problem(f"{inst.ypath}.pos", "a position in a type read inside its holder's "
                                         "stream counts from that stream's start: not supported yet (use "
                                         "`_io.pos + n`, or give the type a size)"))
        exprs = [e for f in t.seq for e in f.expressions()] + [i.value for i in t.instances if i.value is not None]
        if any(_IO_POS in E.walk(e) for e in exprs):
            found.append(ctx.problem(t.ypath, "`_io.pos` in a type read inside its holder's stream is a position "
                                     "in that stream: not supported yet (give the type a size)"))
    return found


def read_where_the_seq_is(ctx) -> list:
    """A parse instance without `pos` reads where its stream is. Read once the seq is read (the
    codec reads it there, where the seq ended, each such instance after the last), it reads what
    Kaitai's parsers read when it reads nothing (a type of params and instances: elf's
    `flags_obj`), or when its type's stream is its own (the root's, a substream's): then nothing
    else moves that stream after the seq. Refused: one the seq itself reads (an expression of a
    field, through value instances or a child's `_parent.x`: Kaitai's parser would read the fields
    after it from where it ended), and one that reads bytes from a stream shared with other types
    or from another (`io`), where Kaitai's parser reads wherever their reads last left it."""
    found, model = [], ctx.model
    for t in model.types:
        read = names_the_seq_reads(t)
        owned = owns_its_stream(model, t)
        for inst in t.instances:
            if inst.field is None or inst.pos is not None:
                continue
            if inst.id in read:
                found.append(ctx.problem(inst.ypath, "an instance without `pos` that the seq reads would move the "
                                         "stream under the fields after it, as Kaitai's parsers do: not supported "
                                         "(give it a `pos`, `_io.pos` for where the seq is)"))
            elif not reads_nothing(inst.field) and (inst.io is not None or not owned):
                where = "another stream (`io`)" if inst.io is not None else "a stream its type shares with others"
                found.append(ctx.problem(inst.ypath, f"an instance without `pos` that reads bytes from {where} "
                                         "starts wherever other reads left that stream in Kaitai's parsers: not "
                                         "supported (give it a `pos`)"))
    return found


def owns_its_stream(model, t: TypeDef) -> bool:
    """Whether every value of `t` is read from a stream no other type reads: the root's, or a
    substream made for it (a size, a terminator, a process), never inline in another's."""
    if t.name in model.read_inline:
        return False
    return t is model.schema.root or t.name in model.read_apart


def reads_nothing(f: Field) -> bool:
    """Whether a field reads no byte, whatever the data: `size: 0`, or types of no seq fields
    (params and instances only) in each case."""
    if f.size is not None:
        return f.size == E.Num(0)
    if f.size_eos or f.terminator is not None or f.contents:
        return False
    return all(ref.kind == "user" and not ref.user.primitive and static_bits(ref.user) == 0 for ref in refs_of(f.type))


def names_the_seq_reads(t: TypeDef) -> set[str]:
    """The names a type's seq reads while it is read: its fields' expressions, the value
    instances those read (and so on), what the types of its fields read as `_parent.x`."""
    names = {n for f in t.seq for e in f.expressions() for n in E.names(e)}
    names |= {n for f in t.seq for ref in refs_of(f.type) if ref.kind == "user" for n in parent_names(ref.user)}
    values = {i.id: i for i in t.instances if i.field is None}
    todo = list(names & set(values))
    while todo:
        inst = values[todo.pop()]
        for e in (inst.value, inst.if_expr):
            for n in E.names(e) if e is not None else ():
                if n not in names:
                    names.add(n)
                    todo.extend([n] if n in values else [])
    return names


# ---------------------------------------------------------------- bits


def bit_layouts(ctx) -> list:
    """Bit fields are read in groups of whole bytes (the plan's bit groups, `layout._parts`): the
    fields of one byte have one bit order, and bit fields that end a type without filling their
    last byte are refused where what follows the type may read the rest of that byte."""
    found = []
    for t in ctx.model.types:
        groups = ctx.model.plan(t).bit_groups
        for group in groups:
            found += [ctx.problem(f.ypath, "bit fields of both bit orders in one byte are not supported yet")
                      for f in group.fields if f.type.endian != group.fields[0].type.endian]
        if groups and t.seq[-1] is groups[-1].fields[-1] and sum(f.type.size for f in groups[-1].fields) % 8:
            found += _bits_ending(ctx, t)
    return found


def _bits_ending(ctx, t: TypeDef) -> list:
    """The fields that read `t`, ending in part of a byte, inline, where the next field may read
    the rest of that byte (bits, or whatever follows the holder)."""
    found = []
    for holder in ctx.model.types:
        for i, f in enumerate(holder.seq):
            if substream(f) or not any(ref.kind == "user" and ref.user is t for ref in refs_of(f.type)):
                continue  # read from bytes of its own: the rest of the byte goes with them
            after = holder.seq[i + 1] if i + 1 < len(holder.seq) else None
            if after is None or after.type.kind == "bits":
                found.append(ctx.problem(f.ypath, f"bit fields at the end of {t.name} do not fill whole bytes, and "
                                         "what follows it may read the rest of that byte (not supported yet)"))
    return found


# ---------------------------------------------------------------- sizes


def sizes(ctx) -> list:
    """Bytes and text read without a size, a terminator or contents have no end
    (`Decoder.decode_unsized`); a switch's cases likewise."""
    found = []
    for t in ctx.model.types:
        for f in fields_of(t):
            if f.size is not None or f.size_eos or f.contents is not None or f.terminator is not None:
                continue
            for ref in refs_of(f.type):
                if ref.kind in ("bytes", "str"):
                    found.append(ctx.problem(f.ypath, f"a {ref.kind} field needs a size"))
                    break
    return found


# ---------------------------------------------------------------- ranges


def ranges(ctx) -> list:
    """A range ends after it starts; a field written after its range (a size before it, a
    checksum: the plan's `deferred`) is in a run of fixed fields, packed once the range is known,
    or a varint size written into its place; and its range closes (its last field is not one the
    encoder writes first, `remote_lengths`)."""
    found = []
    for t in ctx.model.types:
        plan = ctx.model.plan(t)
        found += [ctx.problem(r.owner.ypath, "the range ends before it starts") for r in plan.ranges
                  if r.last is not None and plan.index[r.last] < plan.index[r.first]]
        early = {f.id for f in t.seq if _fills(ctx, t, f)[0]}
        for f in t.seq:
            if f.id in plan.deferred and f.id not in plan.in_runs and (primitive(f.type) is None or f.checksum):
                found.append(ctx.problem(f.ypath, "a derived field outside a run of fixed fields must be a varint "
                                         "size"))
        if any(r.owner.id in plan.deferred and r.owner.id in plan.in_runs and r.last in early for r in plan.ranges):
            found.append(ctx.problem(t.ypath, "a derived field's range never closes"))
    return found


# ---------------------------------------------------------------- lengths kept away


def remote_lengths(ctx) -> list:
    """`-lc-derived` lengths (a length in one type that a sized field of another reads): reached
    through `_parent.<field>` of the type that holds both, filled by a field that follows them
    and is in no range (its encoder runs first, `Encoder.encode_early`); a size reads one."""
    found = []
    for t in ctx.model.types:
        plan = ctx.model.plan(t)
        for f in t.seq:
            filled, unreached = _fills(ctx, t, f)
            found += unreached
            if filled and (f.id in plan.marks or plan.is_size_target(f)
                           or any(plan.index[n] > plan.index[f.id] for n in filled)):
                found.append(ctx.problem(f.ypath, "fills -lc-derived lengths, so it must follow them and be in no "
                                         "checksum or size range"))
            names = ctx.model.names_of(t, {"_index": "int"} if f.repeat else None)  # as an element's size reads it
            if _size_checked(plan, f, bool(filled)) and len(_lengths_read(f.size, names)) > 1:
                found.append(ctx.problem(f.ypath, "a size reads two -lc-derived lengths"))
    return found


def _size_checked(plan: TypePlan, f: Field, early: bool) -> bool:
    """Whether the encoder checks the size of `f` against its bytes (`Encoder.check_size_encode`):
    a sized field it writes itself, whose size reads no field written after its range (an early
    field is written before any is known to be)."""
    if f.size is None or f.contents is not None or f.id in plan.deferred or (f.size_of is None and plan.is_size_target(f)):
        return False
    return early or not E.names(f.size) & plan.deferred


def _fills(ctx, t: TypeDef, f: Field) -> tuple[set[str], list]:
    """The fields of `t` whose -lc-derived lengths the encoders of `f`'s elements fill in (the
    sizes of their fields read them as `_parent.<field>`), and the problems of those that are not
    reached so (`Encoder.fills`)."""
    names, problems = set(), []
    for ref in refs_of(f.type):
        if ref.kind != "user" or primitive(ref) is not None:
            continue
        scope = Names(ref.user, t, not ctx.schema.strict, ctx.model.navigates, ctx.model.parents,
                      extra={"_index": "int"})
        for g in ref.user.seq:
            for node in _lengths_read(g.size, scope) if g.size is not None else ():
                root = _path_root(node)
                if root is None or t.field(root) is None:
                    problems.append(ctx.problem(g.ypath, "a -lc-derived length must be reached through "
                                                "`_parent.<field>` of the type that holds both", ref.user.schema))
                else:
                    names.add(root)
    return names, problems


def _lengths_read(node, names: Names) -> list[E.Attr]:
    """The `-lc-derived` fields of other types that an expression reads."""
    return [n for n in E.walk(node) if isinstance(n, E.Attr) and n.obj not in (_PARENT, _IO)
            and (user := user_of(type_of(n.obj, names))) is not None
            and (g := user.field(n.name)) is not None and g.filled_remotely]


def _path_root(node) -> str | None:
    """`x` for a path `_parent.x.y[i].z`; None for any other expression."""
    while isinstance(node, (E.Attr, E.Index)):
        if isinstance(node, E.Attr) and node.obj == _PARENT:
            return node.name
        node = node.obj
    return None


# ---------------------------------------------------------------- what an encoder writes


def encodable(ctx) -> list:
    """This repository's schemas read and write bit fields in groups of whole bytes, in
    straight-line code: a bit field there that is repeated, conditional or sized, or a switch's
    case of bits, is refused. (A user's schema reads and writes such a type's bits one by one,
    `reads_bits_one_by_one`.)"""
    found = []
    for t in ctx.model.types:
        plan = ctx.model.plan(t)
        if plan.bits_one_by_one:
            continue
        found += [ctx.problem(f.ypath, "a bit field that is repeated, conditional, sized or a switch's case is not "
                              "supported in schemas/ (bit fields there are read in whole bytes)")
                  for f in t.seq if f.id not in plan.in_runs and any(ref.kind == "bits" for ref in refs_of(f.type))]
    return found
