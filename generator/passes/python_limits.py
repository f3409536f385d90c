"""The Python back end's limits: what its codecs cannot read or write yet, refused before it runs.

Each pass says, over the IR, what `python/` would otherwise find out halfway through writing a
module: positions it would count from the wrong place, bit fields it would read from the wrong
byte, bytes with no end, byte ranges and lengths its encoder cannot fill in. The rules follow the
code the back end writes (named in each), so that it is refused exactly what it cannot do.
"""

from __future__ import annotations

from .. import expr as E
from ..model import fields_of, primitive, refs_of, substream
from ..schema import Field, TypeDef, type_sites
from ..types import Names, type_of, user_of

_IO_POS = E.Attr(E.Name("_io"), "pos")
_PARENT, _IO = E.Name("_parent"), E.Name("_io")


def _one_by_one(t: TypeDef) -> bool:
    """Whether the back end reads the bit fields of `t` one by one (and writes no encoder)."""
    from ..python.translate import reads_bits_one_by_one  # noqa: PLC0415 (the back end's own rule; its package
    # imports the passes)

    return reads_bits_one_by_one(t)


def _plain(f: Field) -> bool:
    """A field read as it lies, without condition, count, size or processing: a run's candidate
    (`TypeEmitter.items`)."""
    return not (f.if_expr or f.repeat or f.size is not None or f.size_eos or f.process or f.contents)


def _in_run(t: TypeDef, f: Field) -> bool:
    """Whether `f` is part of a run of fixed fields, packed by one struct (`TypeEmitter.items`)."""
    return _plain(f) and (f.type.kind in ("int", "float") or f.type.kind == "bits" and not _one_by_one(t))


# ---------------------------------------------------------------- streams


def streams(ctx) -> list:
    """Positions (this repository's schemas: their decoders know where a type starts, which is
    its stream's start only for the root and for types read from a substream of their own): a
    positional instance's `pos` in a type read inline counts from where decoding is
    (`_io.pos + n`), `_io.pos` is read nowhere else there, and `_io.pos` is the only property of
    a stream they read."""
    if not ctx.schema.strict:
        return []
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


# ---------------------------------------------------------------- bits


def bit_layouts(ctx) -> list:
    """Bit fields are read in groups of whole bytes (`TypeEmitter.items`): the fields of one
    byte have one bit order, and bit fields that end a type without filling their last byte are
    refused where what follows the type may read the rest of that byte."""
    found = []
    for t in ctx.model.types:
        if _one_by_one(t):
            continue
        group: list[Field] = []  # the bit fields of the bytes being filled
        for f in t.seq:
            if not (_plain(f) and f.type.kind == "bits"):
                group = []  # a byte-aligned field: the bits left in the last byte are skipped
                continue
            if group and f.type.endian != group[0].type.endian:
                found.append(ctx.problem(f.ypath, "bit fields of both bit orders in one byte are not supported yet"))
            group.append(f)
            if sum(b.type.size for b in group) % 8 == 0:
                group = []
        if group:
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
    (`TypeEmitter.decode_unsized`); a switch's cases likewise."""
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


def byte_ranges(t: TypeDef) -> list[tuple[Field, str, str | None, str]]:
    """The byte ranges of a type's `-lc-size-of` (of more than one field) and `-lc-checksum`:
    (owner, first field id, last field id or None for the end of the type, "size"|"checksum")."""
    out = []
    for f in t.seq:
        if f.size_of and f.size_of[0] != f.size_of[1]:
            out.append((f, f.size_of[0], f.size_of[1], "size"))
        if f.checksum:
            out.append((f, f.checksum["from"], f.checksum["to"], "checksum"))
    return out


def deferred(t: TypeDef) -> set[str]:
    """The fields the encoder writes only once their range is written (`TypeEmitter.encoder`):
    a size before its range, a checksum."""
    index = {f.id: i for i, f in enumerate(t.seq)}
    return {owner.id for owner, first, _, kind in byte_ranges(t) if kind == "checksum" or index[owner.id] < index[first]}


def ranges(ctx) -> list:
    """A range ends after it starts; a field written after its range (a size before it, a
    checksum) is in a run of fixed fields, packed once the range is known, or a varint size
    written into its place; and its range closes (its last field is not one the encoder writes
    first, `remote_lengths`)."""
    found = []
    for t in ctx.model.types:
        index = {f.id: i for i, f in enumerate(t.seq)}
        for owner, first, last, _ in byte_ranges(t):
            if last is not None and index[last] < index[first]:
                found.append(ctx.problem(owner.ypath, "the range ends before it starts"))
        if _one_by_one(t):
            continue  # no encoder
        later = deferred(t)
        early = {f.id for f in t.seq if _fills(ctx, t, f)[0]}
        for f in t.seq:
            if f.id in later and not _in_run(t, f) and (primitive(f.type) is None or f.checksum):
                found.append(ctx.problem(f.ypath, "a derived field outside a run of fixed fields must be a varint "
                                         "size"))
        if any(owner.id in later and _in_run(t, owner) and last in early for owner, _, last, _ in byte_ranges(t)):
            found.append(ctx.problem(t.ypath, "a derived field's range never closes"))
    return found


# ---------------------------------------------------------------- lengths kept away


def remote_lengths(ctx) -> list:
    """`-lc-derived` lengths (a length in one type that a sized field of another reads): reached
    through `_parent.<field>` of the type that holds both, filled by a field that follows them
    and is in no range (its encoder runs first, `TypeEmitter.encode_early`); a size reads one."""
    found = []
    for t in ctx.model.types:
        if _one_by_one(t):
            continue
        index = {f.id: i for i, f in enumerate(t.seq)}
        marks = {first for _, first, _, _ in byte_ranges(t)} | {owner.id for owner, _, _, _ in byte_ranges(t)}
        later = deferred(t)
        for f in t.seq:
            filled, unreached = _fills(ctx, t, f)
            found += unreached
            if filled and (f.id in marks or _size_target(t, f) or any(index[n] > index[f.id] for n in filled)):
                found.append(ctx.problem(f.ypath, "fills -lc-derived lengths, so it must follow them and be in no "
                                         "checksum or size range"))
            names = ctx.model.names_of(t, {"_index": "int"} if f.repeat else None)  # as an element's size reads it
            if _size_checked(t, f, bool(filled), later) and len(_lengths_read(f.size, names)) > 1:
                found.append(ctx.problem(f.ypath, "a size reads two -lc-derived lengths"))
    return found


def _size_checked(t: TypeDef, f: Field, early: bool, later: set[str]) -> bool:
    """Whether the encoder checks the size of `f` against its bytes (`TypeEmitter.check_size_encode`):
    a sized field it writes itself, whose size reads no field written after its range (an early
    field is written before any is known to be)."""
    if f.size is None or f.contents is not None or f.id in later or (f.size_of is None and _size_target(t, f)):
        return False
    return early or not E.names(f.size) & later


def _fills(ctx, t: TypeDef, f: Field) -> tuple[set[str], list]:
    """The fields of `t` whose -lc-derived lengths the encoders of `f`'s elements fill in (the
    sizes of their fields read them as `_parent.<field>`), and the problems of those that are not
    reached so (`TypeEmitter.fills`)."""
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


def _size_target(t: TypeDef, f: Field) -> bool:
    """Whether `f` is the one field another's `-lc-size-of` measures (written first, to be measured)."""
    return any(g.size_of and g.size_of[0] == g.size_of[1] == f.id for g in t.seq) and not f.repeat


# ---------------------------------------------------------------- what an encoder writes


def encodable(ctx) -> list:
    """Bit fields are written in their groups of whole bytes: a bit field that is repeated,
    conditional or sized, or a switch's case of bits, has no encoder (`TypeEmitter.encode_content`)."""
    found = []
    for t in ctx.model.types:
        if _one_by_one(t):
            continue  # no encoder
        for f in t.seq:
            if not _in_run(t, f) and any(ref.kind == "bits" for ref in refs_of(f.type)):
                found.append(ctx.problem(f.ypath, "a bit field that is repeated, conditional, sized or a switch's "
                                         "case cannot be encoded yet"))
    return found
