"""The names of a construct module and the order of its definitions.

Each type's name is the construct passes' (`passes.construct_limits.local_names`). An enum's
class is named here, not by the model's `enum_names`: a construct module imports construct's
own names (`Enum`, `Flag`, `Struct`...), which an enum class must not shadow, and the first enum
of a name keeps it (the model prefixes every enum that shares a name).
"""

from __future__ import annotations

from ..schema import Schema, TypeDef
from ..walk import refs_of
from .text import pascal

#: construct's names that a module imports and an enum class would shadow.
RESERVED = {"Flag", "Enum", "Struct", "Bytes", "Array", "Switch", "Pass", "Const", "Check", "Computed"}


def enum_classes(types: list[TypeDef]) -> dict[int, str]:
    """The class name of each enum of `types` (by `id`): its name in PascalCase, prefixed with its
    type's where that name is taken (by an earlier enum or by construct)."""
    out: dict[int, str] = {}
    for t in types:
        for e in t.enums.values():
            cls = pascal(e.name)
            if cls in out.values() or cls in RESERVED:
                cls = pascal(t.name) + cls
            out[id(e)] = cls
    return out


def used_types(schema: Schema, t: TypeDef, seq_only: bool = False) -> list[TypeDef]:
    """The types of `schema` that the fields of `t` read (its positional instances' too, unless
    `seq_only`), varint primitives left out (they are construct's `VarInt`)."""
    fields = t.seq if seq_only else [*t.seq, *(i.field for i in t.instances if i.field is not None)]
    return [r.user for f in fields for r in refs_of(f.type)
            if r.kind == "user" and r.user.schema is schema and not r.user.primitive]


def cyclic_references(schema: Schema, types: list[TypeDef]) -> set[tuple[str, str]]:
    """(holder, held) names of the references of a seq that close a cycle of types: those are
    `LazyBound`, as the held type is defined after its holder."""
    edges = {t.name: {u.name for u in used_types(schema, t, seq_only=True)} for t in types}

    def reaches(a: str, b: str) -> bool:
        seen, todo = set(), [a]
        while todo:
            n = todo.pop()
            if n == b:
                return True
            if n not in seen:
                seen.add(n)
                todo.extend(edges.get(n, ()))
        return False

    return {(a, b) for a, targets in edges.items() for b in targets if reaches(b, a)}


def definition_order(schema: Schema, types: list[TypeDef]) -> list[TypeDef]:
    """Each type after the types it uses (a cycle is broken by `LazyBound`), the root last."""
    done: list[TypeDef] = []

    def visit(t: TypeDef, path: tuple) -> None:
        if t in done or t in path:
            return
        for u in used_types(schema, t):
            visit(u, (*path, t))
        done.append(t)

    for t in types:
        if t is not schema.root:
            visit(t, (schema.root,))
    done.append(schema.root)
    return done
