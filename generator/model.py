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

from . import expr as E
from .bulk import Bulk, header_of, iterated_bulk
from .element_plans import c_loops, c_readers
from .layout import TypePlan, plan_type, primitive, substream
from .schema import Field, Schema, TypeDef, TypeRef
from .types import Names, instance_tinfo, type_of, user_of, value_kind
from .walk import (
    Frame,
    case_value,
    enum_names,
    fields_of,
    frame,
    least_element_bytes,
    reads_of,
    refs_of,
    schema_closure,
    tuple_fields,
    type_expressions,
)

# ---------------------------------------------------------------- helpers


def _is_number(node) -> bool:
    """Whether an expression is a number literal (`-1` too)."""
    return isinstance(node, E.Num) or isinstance(node, E.Unary) and isinstance(node.operand, E.Num)


def navigates(schema: Schema) -> bool:
    """Whether a user's schema (or one it imports) reads `_parent` or `_root`, or gives a field
    another parent: then its values are shown to their children as they are read."""
    return False if schema.strict else Model.of(schema).navigates


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

