"""The model: what every back end, the JSON Schemas and the docs read of a schema, worked out once.

Kaitai's own compiler runs precompile passes between loading a schema and its per-language back
ends, which then only translate. This is what those passes (`passes/`) build: the `parents` pass
makes the model, the others check the schema with it, and `passes.model_of(schema)` gives it
for a schema they accepted. It answers, for one loaded and resolved schema (`schema.py`):

- which types hold each type (`holder`: Kaitai's `_parent` when one type holds it), and which
  type owns each seq field;
- the class name of each enum, its own or, when two types of a module have an enum of one
  name, prefixed with its owner's, as the official compiler nests it;
- the value model: the kind of every field, instance and param (`field_meta`, `instance_meta`),
  the dict the generated classes carry as field metadata and the runtime's canonical JSON,
  the JSON Schemas and the docs read;
- the `-lc-primitive` types (`primitive`): what a varint is, whatever a back end makes of it;
- whether a user's schema reads Kaitai's objects (`navigates`).

Nothing here writes code: `python/` and `construct/` turn the model into their targets.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace

from . import expr as E
from .bulk import Bulk, header_of, iterated_bulk
from .element_plans import c_loops, c_readers
from .layout import TypePlan, plan_type, primitive, substream
from .schema import Field, Schema, TypeDef, TypeRef, field_static_bits
from .types import Names, instance_tinfo, type_of, user_of, value_kind

# ---------------------------------------------------------------- walking a schema


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


def _is_number(node) -> bool:
    """Whether an expression is a number literal (`-1` too)."""
    return isinstance(node, E.Num) or isinstance(node, E.Unary) and isinstance(node.operand, E.Num)


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


def navigates(schema: Schema) -> bool:
    """Whether a user's schema (or one it imports) reads `_parent` or `_root`, or gives a field
    another parent: then its values are shown to their children as they are read."""
    return False if schema.strict else Model.of(schema).navigates


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


# ---------------------------------------------------------------- the model


class Model:
    @classmethod
    def of(cls, schema: Schema) -> "Model":
        """The model of a schema, made once (by the `parents` pass; `passes.model_of` gives it for a
        schema the passes accepted). Unchecked here: what the model of one schema asks of another
        (an imported schema's enum names, whether it navigates) the passes have checked there."""
        found = schema.__dict__.get("_model")
        if found is None:
            found = schema.__dict__["_model"] = cls(schema)
        return found

    def __init__(self, schema: Schema) -> None:
        self.schema = schema
        self.types = [t for t in schema.all_types() if not t.primitive]
        self.enum_names = enum_names(self.types)
        # Another schema's root type used here comes from that schema's module.
        self.imported = [imp for imp in schema.imports if not imp.root.primitive]
        self.owners = {id(f): t for t in self.types for f in t.seq}  # the type of each seq field
        self.parents = self.holders()
        self.navigates = not schema.strict and self.reads_objects()
        # Types some field reads inside its holder's stream (not from a substream of its own).
        self.read_inline = {ref.user.name for t in self.types for f in fields_of(t) if not substream(f)
                            for ref in refs_of(f.type) if ref.kind == "user"}
        self.read_apart = {ref.user.name for t in self.types for f in fields_of(t) if substream(f)
                           for ref in refs_of(f.type) if ref.kind == "user"}
        # What the annotating passes (`passes.PASSES`: value kinds, tuple forms, frames, layouts)
        # work out for every type, in their order, by the id of the field, instance or type; the
        # accessors below read it (and work out, once, what a pass has not: another schema's).
        self.kinds: dict[int, dict] = {}
        self.tuple_forms: dict[int, list[Field] | None] = {}
        self.frames: dict[int, Frame | None] = {}
        self.plans: dict[int, TypePlan] = {}
        self.views: dict[int, list] = {}  # each type's keyed views (`keyed.plan_views`)

    # ------------------------------------------------------------ bulk lists and headers

    @functools.cached_property
    def header(self) -> TypeDef | None:
        """The root's fields before its bulk (`header_of`), decoded and encoded on their own
        (`decode_header`): this repository's schemas, whose values are plain."""
        return header_of(self.schema.root) if self.schema.strict else None

    @functools.cached_property
    def acyclic_values(self) -> bool:
        """Whether a decoded value can take part in no cycle: a schema of ours (`strict`), whose
        values hold their fields and nothing else, so that a value is a tree. Not a user's, even
        one that reads no `_parent` or `_root`: a value with lazy instances keeps, for them, the
        root its decoder was given (`_at`: tga's footer), and once an instance reads a child
        under it, the root holds the child that holds the root."""
        return self.schema.strict

    @functools.cached_property
    def bulk(self) -> Bulk | None:
        """The root's bulk list read one element at a time (`decode_iter`), where it can be."""
        return iterated_bulk(self.schema.root) if self.header is not None else None

    @functools.cached_property
    def lazy_bulk(self) -> Bulk | None:
        """The bulk a lazy read hands out as a view (`LazyList`): the one `decode_iter` hands out,
        where the fields before it are all the root's value holds besides it (a header with
        instances would hold values the root's class does not take in order: such a root is read
        whole)."""
        return self.bulk if self.bulk is not None and not header_of(self.schema.root).instances else None

    @functools.cached_property
    def nested_views(self) -> list[str]:
        """The schemas, by format name, that a value of this one may hold below its root and whose
        bulk a lazy read views (a Kafka batch in a record set): a lazy read of this one reads their
        values as views too."""
        return sorted(s.format_name for s in schema_closure(self.schema) if s is not self.schema and not s.root.primitive
                      and Model.of(s).lazy_bulk is not None)

    @functools.cached_property
    def viewed_lists(self) -> dict[int, TypeDef]:
        """The lists a lazy read gives as views (`LazyList`), by the id of their field, with their
        element type: where a lazy read meets one, it finds where the list ends by skipping its
        elements (`skipped_types`), and reads them when a loop reaches them; so a big list of
        small values (a Metadata response's topics) is never a tree of objects held at once.
        A counted list of a structure of this schema, in a format of ours (`strict`), in a type
        no list holds (`outside_lists`: a view's loop reads an element's lists with it) that is
        no list type of its own (the root's bulk is viewed already), that no expression of its
        holder reads, not keyed (its named fields read it), whose elements take the same
        arguments (not the index) and hold no value a lazy read views (a Kafka batch: a view's
        loop reads its elements as `lazy=False` reads them), and that a skipper can pass
        (`skip_closure`)."""
        if not self.schema.strict or self.navigates:
            return {}
        bulk = self.lazy_bulk
        viewed = {}
        for t in self.outside_lists:
            if t.unwrap:  # a list type of its own (a Kafka batch's records): its bulk, or a value read whole
                continue
            keyed = {id(v.entries) for v in self.keyed_views(t)}
            read = reads_of(t)
            for f in t.seq:
                u = f.type.user if f.type.kind == "user" else None
                if (f.repeat == "expr" and u is not None and u.schema is self.schema and not u.unwrap
                        and f.size is None and not f.size_eos and not f.process and id(f) not in keyed
                        and f.id not in read
                        and not (bulk is not None and f is bulk.field) and not self.holds_views(u)
                        and not {n for a in f.type.args for n in E.names(a)} & {"_index", "_"}
                        and least_element_bytes(f, t) > 0 and self.skip_closure(u) is not None):
                    viewed[id(f)] = u
        return viewed

    @functools.cached_property
    def outside_lists(self) -> list[TypeDef]:
        """The types of this schema whose values are held by no list: the root, and those its
        fields hold, one value each, down to the first list (not through the root's bulk)."""
        found: dict[str, TypeDef] = {}
        todo = [self.schema.root]
        while todo:
            t = todo.pop()
            if t.name in found or t.schema is not self.schema or t.primitive:
                continue
            found[t.name] = t
            for f in t.seq:
                if not f.repeat:
                    todo += [ref.user for ref in refs_of(f.type) if ref.kind == "user"]
        return [t for t in self.types if t.name in found]

    def holds_views(self, t: TypeDef) -> bool:
        """Whether a value of `t` may hold a value another schema's lazy read views (a Kafka batch
        in a record set)."""
        views = set(self.nested_views)
        seen, todo = set(), [t]
        while todo:
            u = todo.pop()
            if u.name in seen:
                continue
            seen.add(u.name)
            for f in fields_of(u):
                for ref in refs_of(f.type):
                    if ref.kind == "user" and not ref.user.primitive:
                        if ref.user.schema is not self.schema:
                            if ref.user.schema.format_name in views or Model.of(ref.user.schema).nested_views:
                                return True
                        else:
                            todo.append(ref.user)
        return False

    def skip_closure(self, u: TypeDef) -> dict[str, TypeDef] | None:
        """The types a skipper of `u` skips (`skipped_types`): `u`, and the elements of its lists
        of this schema's types, in turn; None where a skipper cannot make nothing of a list: one
        that an expression reads (its size, an element), whose loop reads its elements (a
        `repeat-until`), or whose elements may take no byte (a skip spends no element of the
        budget: the bytes left bound its loops)."""
        found: dict[str, TypeDef] = {}
        todo = [u]
        while todo:
            t = todo.pop(0)
            if t.name in found:
                continue
            found[t.name] = t
            read = reads_of(t)
            for f in t.seq:
                if f.repeat and (f.repeat == "until" or f.id in read or least_element_bytes(f, t) == 0):
                    return None  # (a skip spends no budget: its loops are bounded by the bytes left)
                if f.repeat and f.type.kind == "user" and f.type.user.schema is self.schema and not f.type.user.primitive:
                    todo.append(f.type.user)
        return found

    @functools.cached_property
    def skipped_types(self) -> list[TypeDef]:
        """The types whose values a lazy read skips (`_s_<type>`: where a value ends, nothing made):
        the elements of the lists it views (`viewed_lists`), and those of this schema's lists in
        them, which their skipper skips in turn (`skip_closure`)."""
        found: dict[str, TypeDef] = {}
        for u in self.viewed_lists.values():
            found.update(self.skip_closure(u) or {})
        return [t for t in self.types if t.name in found]

    @functools.cached_property
    def columned(self) -> TypeDef | None:
        """The bulk's element type, read column by column (`decode_columns`): one with a tuple form."""
        element = self.bulk.items.type.user if self.bulk is not None else None
        return element if element is not None and self.tuple_decoded(element) else None

    @functools.cached_property
    def rendered(self) -> list[TypeDef]:
        """The types that have a decoder and an encoder: the schema's, and the root's header."""
        return [*self.types, *([self.header] if self.header is not None else [])]

    @functools.cached_property
    def companion_lists(self) -> tuple[dict, dict]:
        """The lists whose loops the C companion writes, and those it reads, by the name of its
        function (`element_plans.c_loops`, `c_readers`)."""
        return c_loops(self, self.rendered), c_readers(self, self.bulk)

    def plan(self, t: TypeDef) -> TypePlan:
        """How `t`'s seq is read and written (`layout.plan_type`), planned once for every emitter."""
        if id(t) not in self.plans:
            self.plans[id(t)] = plan_type(t)
        return self.plans[id(t)]

    def wire_kept(self, t: TypeDef) -> list[str]:
        """The processed fields whose bytes as read a decoded value of `t` keeps (`_wire_<field>`,
        `TypePlan.keeps_raw`). The root's header keeps its bulk's: `decode_iter` reads them, and a
        lazy read's value takes them from it."""
        if t is self.header and self.bulk is not None:
            return [fid for fid in self.plan(self.schema.root).keeps_raw if fid == self.bulk.field.id]
        return self.plan(t).keeps_raw

    def keyed_views(self, t: TypeDef) -> list:
        """The named fields over `t`'s keyed lists (`keyed.plan_views`), planned by the `keyed
        views` pass for each type of the schema (none for another schema's)."""
        return self.views.get(id(t), [])

    def frame(self, t: TypeDef) -> Frame | None:
        """How a value of `t` says how many bytes it takes (`frame`), worked out once."""
        if id(t) not in self.frames:
            self.frames[id(t)] = frame(t)
        return self.frames[id(t)]

    def holders(self) -> dict[str, TypeDef | None]:
        """The type that holds each type (its `_parent`), by type name; None when several do."""
        parents: dict[str, TypeDef | None] = {}

        def hold(user: TypeDef, holder: TypeDef | None) -> None:
            if parents.setdefault(user.name, holder) is not holder:
                parents[user.name] = None

        held_as_parent = []  # (type, holder): `parent: _parent` gives the type its holder's parent
        for t in self.types:
            for f in fields_of(t):
                for ref in refs_of(f.type):
                    if ref.kind == "user" and not ref.user.primitive:
                        if f.parent == E.Name("_parent"):
                            held_as_parent.append((ref.user, t))
                        elif f.parent is None:
                            hold(ref.user, t)
                        # `parent: false` (none), or another value: that value's type, not known here
        for user, holder in held_as_parent:
            hold(user, parents.get(holder.name))
        return parents

    def reads_objects(self) -> bool:
        """Whether this schema or one it imports reads `_parent` or `_root`, or gives a field
        another parent."""
        names = {"_parent", "_root"}
        types = [t for s in schema_closure(self.schema) for t in s.all_types()]
        return any(f.parent is not None for t in types for f in t.seq) or any(
            (isinstance(n, E.Name) and n.name in names) or (isinstance(n, E.Attr) and n.name in names)
            for t in types for e in type_expressions(t) for n in E.walk(e))

    def in_root_stream(self, t: TypeDef) -> bool:
        """Whether every value of `t` is read from the root's own stream: `t` is the root, or no
        field reads it from a substream and the one type holding it is in the root's stream."""
        seen = set()
        while t is not self.schema.root:
            if t.name in self.read_apart or t.name in seen or self.holder(t) is None:
                return False
            seen.add(t.name)
            t = self.holder(t)
        return True

    def holder(self, t: TypeDef) -> TypeDef | None:
        """The one type that holds `t`, or None (held by several, or by none)."""
        return self.parents.get(t.name)

    def names_of(self, t: TypeDef, extra: dict | None = None) -> Names:
        """The names the expressions of `t` read, as the type detector and the back ends see them:
        Kaitai's objects in a user's schema, values passed down in this repository's."""
        return Names(t, self.holder(t), not self.schema.strict, self.navigates, self.parents, extra)

    # ------------------------------------------------------------ tuple forms

    @functools.cached_property
    def listed_types(self) -> set[str]:
        """The names of this schema's types that some field repeats."""
        return {f.type.user.name for u in self.types for f in u.seq
                if f.repeat and f.type.kind == "user" and f.type.user.schema is self.schema}

    def tuple_form(self, t: TypeDef) -> list[Field] | None:
        """The fields of a type's tuple form (`find_tuple_form`), worked out once."""
        if id(t) not in self.tuple_forms:
            self.tuple_forms[id(t)] = self.find_tuple_form(t)
        return self.tuple_forms[id(t)]

    def find_tuple_form(self, t: TypeDef) -> list[Field] | None:
        """The fields of a type's tuple form (`tuple_fields`), which its encoder takes in place of
        a value object in a list: for the elements of a list (a type of this schema some field
        repeats: another schema decides for its own types); none in a user's schema that reads
        Kaitai's objects (an encoder there sees the value's holder and carried bytes, which a
        tuple has not), nor for a type of which an encoder reads in a list what its tuple has not."""
        if t.name not in self.listed_types or not self.schema.strict or t.schema is not self.schema:
            return None
        form = tuple_fields(t)
        given = {f.id for f in form or ()}
        if any(u is t and name not in given for u, name in self.encoders_element_reads):
            return None  # a tuple form has no derived fields, nor instances, to read
        return form

    def tuple_decoded(self, t: TypeDef) -> bool:
        """Whether a list's elements of type `t` come as tuples when a decode asks for them
        (`tuples=True`): a type with a tuple form whose values no decoder reads back in a list
        (`items[_index - 1].x`, a `repeat-until`), and not the root."""
        if not self.tuple_form(t) or t is self.schema.root:
            return False
        until = any(f.repeat == "until" and f.type.kind == "user" and f.type.user is t for u in self.types for f in u.seq)
        return not until and all(u is not t for u, _ in self.decoders_element_reads)

    @functools.cached_property
    def encoders_element_reads(self) -> list[tuple[TypeDef, str]]:
        return self.element_reads(write_side=True)

    @functools.cached_property
    def decoders_element_reads(self) -> list[tuple[TypeDef, str]]:
        return self.element_reads(write_side=False)

    def element_reads(self, write_side: bool) -> list[tuple[TypeDef, str]]:
        """(type, name) of every field or instance an expression reads of a list's element
        (`items.last.x`, `_parent.items[_index - 1].x`): the encoders' expressions (`write_side`:
        defaults, sizes, counts), or the decoders'; the instances' either way (an encoder may
        compute one)."""
        found = []
        for u in self.types:
            names = Names(u, self.parents.get(u.name), extra={"_index": "int"})
            exprs = [e for f in u.seq for e in f.expressions(write_side=write_side)]
            exprs += [f.parent for f in u.seq if f.parent is not None]
            for inst in u.instances:
                exprs += [e for e in (inst.value, inst.pos, inst.if_expr, inst.io) if e is not None]
                exprs += inst.field.expressions(write_side=write_side) if inst.field is not None else []
            for n in (n for e in exprs for n in E.walk(e)):
                if isinstance(n, E.Attr) and (isinstance(n.obj, E.Index) or (
                        isinstance(n.obj, E.Attr) and n.obj.name in ("first", "last"))):
                    t = user_of(type_of(n.obj, names))
                    if t is not None:
                        found.append((t, n.name))
        return found

    def enum_name(self, enum) -> str:
        """An enum's class name in the module of the schema that declares it."""
        owner = enum.owner.schema
        return (self if owner is self.schema else Model.of(owner)).enum_names[id(enum)]

    def used_from(self, imp: Schema) -> list[TypeDef]:
        """The types of an imported schema that this one uses (its root, or `schema::type`)."""
        used = {}
        for t in self.types:
            for f in fields_of(t):
                for ref in refs_of(f.type):
                    if ref.kind == "user" and ref.user.schema is imp:
                        used[ref.user.name] = ref.user
        return list(used.values()) or [imp.root]

    # ------------------------------------------------------------ the value model

    def field_meta(self, f: Field) -> dict:
        """The kind of a field's value (`kind_of_field`), worked out once."""
        if id(f) not in self.kinds:
            self.kinds[id(f)] = self.kind_of_field(f)
        return self.kinds[id(f)]

    def kind_of_field(self, f: Field) -> dict:
        """The kind of a field's value: `kind` (int, bool, float, bytes, str, enum, user, switch)
        and what it needs (`wide`, `enum`, `type`, `cases`), `list` when repeated, `derived`
        (computed on encode) or `defaulted` (computed only when left out), `optional`."""
        m = self.element_meta(f.type, f)
        if f.repeat:
            m = {**m, "list": True}
        if f.partial_tail:  # the next field holds the bytes of a last element cut short
            m["partial_tail"] = True
        if f.derived:
            # "derived": a function of the rest of the value; "defaulted": computed only when left
            # out (it may carry information, as last_offset_delta does for an empty batch).
            m["defaulted" if f.default is not None else "derived"] = True
        if f.if_expr is not None:
            m["optional"] = True
        return m

    def element_meta(self, ref: TypeRef, f: Field) -> dict:
        prim = primitive(ref)
        if f.enum is not None:
            return {"kind": "enum", "enum": self.enum_name(f.enum)}
        if prim is not None:
            return {"kind": "int", "wide": prim.wide}
        if ref.kind == "int":
            return {"kind": "int", "wide": ref.size == 8}
        if ref.kind == "bits":
            return {"kind": "bool"} if ref.size == 1 else {"kind": "int", "wide": ref.size > 53}
        if ref.kind == "float":
            return {"kind": "float"}
        if ref.kind in ("bytes", "str"):
            return {"kind": ref.kind}
        if ref.kind == "user":
            if ref.user.unwrap:
                inner = ref.user.seq[0]
                m = self.element_meta(inner.type, inner)
                return {**m, "list": bool(inner.repeat)}
            return {"kind": "user", "type": ref.user.class_name}
        if ref.kind == "switch":
            return self.switch_meta(ref, f)
        raise AssertionError(f"no value model for {ref.kind}")  # (a TypeRef has no other kind)

    def switch_meta(self, ref: TypeRef, f: Field) -> dict:
        """A switch's cases. When it switches on a field of the same type (or a field of one of
        its structures: `header.api_key`), each case also says which value of that field selects
        it (`when`), so that a value built from JSON takes the case its selector names even where
        two cases have the same fields."""
        selector = self.switch_selector(ref, f)
        cases = []
        for key, case in ref.cases:
            m = self.element_meta(case, f)
            if selector is not None and key is not None:
                m = {**m, "when": case_value(key, selector[1].enum)}
            cases.append(m)
        if not any(k is None for k, _ in ref.cases):
            cases.append({"kind": "bytes"})
        meta = {"kind": "switch", "cases": cases}
        if selector is not None:
            meta["on"] = selector[0]
        return meta

    def switch_selector(self, ref: TypeRef, f: Field) -> tuple[str, Field] | None:
        """The field (or value instance, or param: a value built from JSON is given the root's) a
        switch selects on, and its path from the switch's type (`on`, or `header.api_key` through
        a structure that is not repeated), when the expression is such a field, or `c ? field : k`
        where k is a number that selects no case (where c is false, the switch holds no case to
        build from JSON), and the case keys are all literals."""
        owner, path = self.owners.get(id(f)), []
        node = ref.switch_on
        if isinstance(node, E.Ternary) and _is_number(node.other) and all(k not in (None, node.other) for k, _ in ref.cases):
            node = node.then
        while isinstance(node, E.Attr):
            path.insert(0, node.name)
            node = node.obj
        if not isinstance(node, E.Name) or owner is None:
            return None
        value_instances = [i for i in owner.instances if i.value is not None]
        on = owner.field(node.name) or (None if path else next(
            (d for d in [*value_instances, *owner.params] if d.id == node.name), None))
        for name in path:
            inner = on.type.user if on is not None and on.type.kind == "user" and not on.repeat else None
            on = inner.field(name) if inner is not None else None
        if on is None or any(k is not None and case_value(k, on.enum) is None for k, _ in ref.cases):
            return None
        return ".".join([node.name, *path]), on

    def instance_meta(self, inst) -> dict:
        """The kind of an instance's value (`kind_of_instance`), worked out once."""
        if id(inst) not in self.kinds:
            self.kinds[id(inst)] = self.kind_of_instance(inst)
        return self.kinds[id(inst)]

    def kind_of_instance(self, inst) -> dict:
        """The kind of an instance's value: a positional instance's field's, an enum, or what
        its expression gives (`instance_tinfo`); `instance`, and `input` when it is given on
        input rather than computed."""
        if inst.field is not None:
            meta = self.field_meta(inst.field)
        elif inst.enum:
            meta = {"kind": "enum", "enum": self.enum_name(inst.enum)}
        else:
            meta = value_instance_meta(inst)
        return {**meta, "instance": True, **({"input": True} if inst.input else {})}

    def entry(self) -> TypeDef | None:
        """The type of the values a log of this schema lays end to end, each framed (`frame`): the
        root itself, or the element type of the root's one repeated field."""
        root = self.schema.root
        if self.frame(root) is not None:
            return root
        repeated = [f for f in root.seq if f.repeat]
        if len(repeated) == 1 and repeated[0].type.kind == "user" and self.frame(repeated[0].type.user) is not None:
            return repeated[0].type.user
        return None

    def enums_named(self, f: Field) -> list:
        """The enums a field's value model names (its own, or through an unwrapped type)."""
        found = [f.enum] if f.enum is not None else []
        for ref in refs_of(f.type):
            if ref.kind == "user" and ref.user.unwrap:
                found += self.enums_named(ref.user.seq[0])
        return found


def value_instance_meta(inst) -> dict:
    """The value model's kind of a value instance (not an enum one): its inferred type."""
    ti = instance_tinfo(inst)
    if isinstance(ti, tuple) and ti[0] == "list":
        element = _meta_of(ti[1])
        return {**element, "list": True} if element else value_kind(inst.value)
    return _meta_of(ti) or value_kind(inst.value)


def _meta_of(ti) -> dict | None:
    if ti in ("str", "bytes", "bool", "float"):
        return {"kind": ti}
    user = user_of(ti)
    if user is not None and not user.unwrap and not user.primitive:
        return {"kind": "user", "type": user.class_name}
    return None  # an integer (or an enum read as one): value_kind says how wide

