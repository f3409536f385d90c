"""Walking a schema: the facts of its types that need no model, read by the model (`model.py`),
the passes and the back ends: the types a field refers to, the fewest and most bytes a value
takes, how a value says its own size (`frame`), which schemas hold which (`schema_closure`), the
names a type's expressions read, the class name of each enum."""

from __future__ import annotations

from dataclasses import dataclass, replace

from . import expr as E
from .layout import primitive
from .schema import Field, Schema, TypeDef, TypeRef, field_static_bits


def refs_of(ref: TypeRef) -> list[TypeRef]:
    """A field's type, or each case of a switch."""
    return [c for _, c in ref.cases] if ref.kind == "switch" else [ref]


def fields_of(t: TypeDef) -> list[Field]:
    """A type's seq fields, then the fields of its positional instances."""
    return [*t.seq, *(i.field for i in t.instances if i.field is not None)]


def spends_budget(t: TypeDef, seen: set[int] | None = None) -> bool:
    """Whether decoding a value of `t` takes from the call's budget (`Limits`): it has a list
    (its elements are counted) or a processed field (its decompressed bytes), or holds a type
    that has (`calls_spending`)."""
    seen = set() if seen is None else seen
    if id(t) in seen:  # a type that holds itself is decided by its other fields
        return False
    seen.add(id(t))
    return any(f.repeat or f.process or calls_spending(f.type, seen) for f in fields_of(t))


def calls_spending(ref: TypeRef, seen: set[int] | None = None) -> bool:
    """Whether reading a field of type `ref` (any case of a switch) calls a decoder that takes
    from the call's budget (`spends_budget`). A primitive (a varint) is read as a number."""
    return any(r.kind == "user" and primitive(r) is None and spends_budget(r.user, seen) for r in refs_of(ref))


@dataclass(frozen=True)
class Frame:
    """How a value of a type says, in its first bytes, how many bytes it takes: the length field
    `length` at the fixed offset `at` measures everything after it to the end of the type, which
    takes at least `least` bytes. Logs lay such values end to end (Kafka batches, TANK entries)."""

    length: Field
    at: int
    least: int


def frame(t: TypeDef) -> Frame | None:
    """The frame of a type: its own, that of the one type an unwrapped type holds, or the common
    frame of every case of the switch an unwrapped type is (the least of their least sizes)."""
    if t.unwrap and len(t.seq) == 1 and not t.seq[0].repeat:
        refs = refs_of(t.seq[0].type)
        frames = [frame(r.user) if r.kind == "user" and not r.user.primitive else None for r in refs]
        if not frames or None in frames or t.seq[0].type.kind == "switch" and not any(
                k is None for k, _ in t.seq[0].type.cases):
            return None  # a case without a frame, or bytes no case takes
        first = frames[0]
        if any((f.at, f.length.type) != (first.at, first.length.type) for f in frames):
            return None
        return Frame(first.length, first.at, min(f.least for f in frames))
    at = 0
    for i, f in enumerate(t.seq):
        bits = field_static_bits(f)
        measured = t.seq[i + 1:]
        if f.size_of and measured and f.size_of[0] == measured[0].id and f.size_of[1] in (None, t.seq[-1].id):
            width = field_static_bits(f)
            if f.if_expr is None and not f.repeat and (width is not None and f.type.kind == "int" or primitive(f.type)):
                return Frame(f, at, sum(least_bytes(g) for g in measured))
            return None
        if bits is None or bits % 8 or f.if_expr is not None:
            return None
        at += bits // 8
    return None


def fixed_offsets(t: TypeDef) -> list[tuple[str, int]]:
    """(field id, byte offset) of each seq field of `t` that lies at the same place in every value:
    the fields up to the first one whose size varies, is conditional, is repeated (even a fixed
    number of times) or leaves a partial byte, that one included. What hand-written code asks
    instead of counting bytes itself."""
    found, at = [], 0
    for f in t.seq:
        found.append((f.id, at))
        bits = field_static_bits(f)
        if bits is None or bits % 8 or f.if_expr is not None or f.repeat:
            break
        at += bits // 8
    return [(name, offset) for name, offset in found if name]


def min_size(ref: TypeRef, measuring: frozenset = frozenset(), unmatched_reads_nothing: bool = False) -> int:
    """The fewest bytes one element of this type can take (0 when unknown). A type met again
    inside itself (`measuring`, a recursive type: a Python object holding a tuple of objects)
    counts for nothing there, which keeps the answer a lower bound and the walk finite. A switch
    whose value no case matches reads nothing where `unmatched_reads_nothing` (`reads_nothing`)."""
    if primitive(ref) is not None:
        return 1
    if ref.kind in ("int", "float"):
        return ref.size
    if ref.kind == "user":
        if id(ref.user) in measuring:
            return 0
        inside = measuring | {id(ref.user)}
        total = 0
        for f in ref.user.seq:
            if f.if_expr is None and not f.repeat and f.size is None and not f.size_eos and f.type.kind != "bits":
                total += min_size(f.type, inside, reads_nothing(f, ref.user))
        bits = sum(f.type.size for f in ref.user.seq if f.type.kind == "bits")
        return total + bits // 8
    if ref.kind == "switch":
        if unmatched_reads_nothing and all(key is not None for key, _ in ref.cases):
            return 0
        return min((min_size(c, measuring) for _, c in ref.cases), default=0)
    return 0


def reads_nothing(f: Field, owner: TypeDef) -> bool:
    """Whether a switch field of `owner` reads nothing when no case matches, as in Kaitai's parsers
    (its value is null), where this repository's schemas refuse the value."""
    return not owner.schema.strict and not f.no_case


def least_element_bytes(f: Field, owner: TypeDef) -> int:
    """The fewest bytes one element of the list `f` of `owner` takes (0 when unknown)."""
    return min_size(f.type, unmatched_reads_nothing=reads_nothing(f, owner))


def least_bytes(f: Field) -> int:
    """The fewest bytes a field takes: a structure at least its type's, sized or not."""
    if f.if_expr is not None or f.repeat:
        return 0
    if f.type.kind == "user" and not f.type.user.primitive:
        return min_size(f.type)
    bits = field_static_bits(f)
    return 0 if bits is None else bits // 8


def tuple_fields(t: TypeDef) -> list[Field] | None:
    """The fields of a type's tuple form, in order: its seq fields but those the encoder computes
    (`Field.derived`: sizes, counts, checksums, defaults). In a list of a repeated field, an
    encoder takes such a tuple in place of a value object: a producer builds no object per
    element. None for a type without one: an unwrapped type (its value is its one field's),
    one with an instance the value gives (`-lc-input`), one whose lengths another type's
    encoder fills in (`-lc-derived`: it sets them on the value), one with no field to give."""
    if t.unwrap or any(inst.input for inst in t.instances) or any(f.filled_remotely for f in t.seq):
        return None
    return [f for f in t.seq if not f.derived] or None


def max_size(t: TypeDef, seen: frozenset = frozenset()) -> int | None:
    """The most bytes a value of `t` takes (every optional field there, every varint at its
    longest); None when the schema bounds it by nothing but the data."""
    if t.name in seen:
        return None
    total = bits = 0
    for f in t.seq:
        if f.type.kind == "bits" and not f.repeat:
            bits += f.type.size
            continue
        total, bits = total + -(-bits // 8), 0  # a byte-aligned field: the bits before end their byte
        prim = primitive(f.type)
        if prim is not None and not f.repeat:
            total += prim.max_bytes
        elif f.type.kind == "user" and f.size is None and not f.repeat:
            inner = max_size(f.type.user, seen | {t.name})
            if inner is None:
                return None
            total += inner
        elif (fixed := field_static_bits(replace(f, if_expr=None))) is not None:
            total += fixed // 8
        else:
            return None
    return total + -(-bits // 8)


def type_expressions(t: TypeDef) -> list:
    """Every expression of a type: its fields', its instances' and their fields', its `to-string`."""
    exprs = [e for f in t.seq for e in f.expressions(write_side=True)]
    exprs += [f.parent for f in t.seq if f.parent is not None]
    exprs += [t.to_string] if t.to_string is not None else []
    for inst in t.instances:
        exprs += inst.expressions(write_side=True)
    return exprs


def reads_of(t: TypeDef) -> set[str]:
    """The names a decoder of `t` reads in its expressions (not an encoder's: a count's
    `-lc-count-of` reads its list)."""
    exprs = [e for f in t.seq for e in f.expressions()] + [e for i in t.instances for e in i.expressions()]
    return {n for e in exprs for n in E.names(e)}


def schema_closure(schema: Schema, edges: tuple[str, ...] = ("imports",)) -> list[Schema]:
    """A schema and every schema it imports, directly or not; with `edges=("importers",)`, every
    schema loaded with it that imports it, directly or not; with both, every schema compiled with
    it that holds its values or whose values it holds."""
    seen: dict[int, Schema] = {}
    todo = [schema]
    while todo:
        s = todo.pop()
        if id(s) not in seen:
            seen[id(s)] = s
            todo.extend(other for edge in edges for other in getattr(s, edge))
    return list(seen.values())


def with_imports(schemas: list[Schema]) -> list[Schema]:
    """The schemas and every schema they import (each once), but the primitive ones."""
    out, seen = [], set()
    for s in schemas:
        for member in schema_closure(s):
            if id(member) not in seen and not member.root.primitive:
                seen.add(id(member))
                out.append(member)
    return out


def enum_names(types: list[TypeDef]) -> dict[int, str]:
    """The class name of each enum of these types (one module's), by the enum's id: its own
    name, or when two types each have an enum of that name (`container1::animal`), or a type's
    class has it (enum `key_flags` beside type `key_flags`), prefixed with its owner's, as the
    official compiler nests it in its owner's class."""
    plain = [name for t in types for name in t.enums]
    type_classes = {t.class_name for t in types}
    out = {}
    for t in types:
        for enum in t.enums.values():
            name = "".join(p.capitalize() for p in enum.name.split("_"))
            taken = plain.count(enum.name) > 1 or name in type_classes
            out[id(enum)] = t.class_name + name if taken else name
    return out


def case_value(key, enum) -> int | None:
    """The integer a switch case's key stands for (an enum member or a number)."""
    if isinstance(key, E.Num):
        return key.value
    if isinstance(key, E.EnumLit) and enum is not None:
        return next((v for v, name in enum.members.items() if name == key.value), None)
    return None
