"""The passes every back end needs: the model, class names, primitives and Kaitai's type rules."""

from __future__ import annotations

from ..keyed import plan_views
from ..layout import primitive_problem
from ..model import Model
from ..problems import SchemaError
from ..schema import Field, join_ypath, type_sites
from ..types import Names, comparable, declared_param_tinfo, ref_tinfo, shown, type_of
from ..walk import fields_of, refs_of


def parents(ctx) -> list:
    """The model (`model.py`): who holds each type (Kaitai's `_parent`), which type owns each
    field, which types are read inline or from a substream, whether a user's schema reads
    Kaitai's objects; the value kinds and the rest it works out on demand."""
    ctx.model = Model.of(ctx.schema)
    return []


def value_kinds(ctx) -> list:
    """The value model (`Model.kinds`): the kind of every field and instance's value (`field_meta`,
    `instance_meta`), which the generated classes carry as field metadata and canonical JSON, the
    JSON Schemas and the docs read."""
    for t in ctx.model.types:
        for f in fields_of(t):
            ctx.model.field_meta(f)
        for inst in t.instances:
            ctx.model.instance_meta(inst)
    return []


def tuple_forms(ctx) -> list:
    """The tuple form of each type whose values a list holds (`Model.tuple_forms`): the fields an
    encoder takes as a tuple in place of a value object, and a decoder gives on asking."""
    for t in ctx.model.types:
        ctx.model.tuple_form(t)
    return []


def keyed_views(ctx) -> list:
    """The named fields over keyed lists (`-lc-keyed`, `keyed.plan_views`): each names an
    integer key, a value that switches on it, and for each view a case that has its field and a
    default of that field's kind."""
    found = []
    for t in ctx.model.types:
        ctx.model.views[id(t)] = plan_views(ctx.model, t, lambda ypath, text: found.append(ctx.problem(ypath, text)))
    return found


def bulk_lists(ctx) -> list:
    """The root's bulk list and header (`Model.header`, `bulk`, `columned`): the fields before the
    bulk, decoded and encoded alone; the bulk read one element at a time, or column by column."""
    _ = ctx.model.columned  # (works out `bulk`, which works out `header`)
    return []


def frames(ctx) -> list:
    """How each type's values say how many bytes they take (`Model.frames`), and the type a log
    of this schema lays end to end, each framed (`Model.entry`)."""
    for t in ctx.model.types:
        ctx.model.frame(t)
    ctx.model.entry()
    return []


def layouts(ctx) -> list:
    """Each type's plan (`Model.plans`, `layout.plan_type`): its runs of fixed fields, bit groups,
    byte ranges and the fields written after them; every emitter reads it."""
    for t in ctx.model.rendered:
        ctx.model.plan(t)
    return []


def class_names(ctx) -> list:
    """Each type and enum is a class of one module (with the subtypes of imported schemas it
    uses): no two may have one name."""
    model, schema = ctx.model, ctx.schema
    named = [(t.class_name, t.ypath) for t in model.types]
    named += [(model.enum_names[id(e)], join_ypath(t.ypath, f"enums.{e.name}")) for t in model.types for e in t.enums.values()]
    imported = {}  # imported subtypes share the namespace: where this schema first uses each
    for t in model.types:
        for f in t.seq:
            for ref in refs_of(f.type):
                if ref.kind == "user" and ref.user.schema is not schema and not ref.user.primitive \
                        and ref.user is not ref.user.schema.root:
                    imported.setdefault(ref.user.class_name, join_ypath(f.ypath, "type"))
    named += sorted(imported.items())
    first, found = {}, []
    for name, ypath in named:
        if name in first:
            found.append(ctx.problem(ypath, f"its class name {name} is also that of {first[name] or '(top)'}"))
        else:
            first[name] = ypath
    return found


def primitives(ctx) -> list:
    """A field of a `-lc-primitive` type names a known primitive, with its width as a literal."""
    return [ctx.problem(join_ypath(f.ypath, "type"), message) for t in ctx.model.types for f in fields_of(t)
            for ref in refs_of(f.type) if ref.kind == "user" and ref.user.primitive
            and (message := primitive_problem(ref)) is not None]


def type_rules(ctx) -> list:
    """Kaitai's type rules for every expression of every type, each problem naming the
    expression's YAML path: conditions are truth values, sizes, counts and positions integers,
    `valid` and switch cases comparable with what they test, params given values of their
    types, names and members that exist."""
    found = []
    for t in ctx.model.types:
        names = ctx.model.names_of(t)
        for ypath, node, want, f in type_sites(t):
            if f is not None and f.repeat and not ypath.endswith("repeat-expr"):  # the count comes before the loop
                names.extra["_index"] = "int"
            if f is not None and ypath.endswith(("repeat-until", "valid.expr")):
                names.extra["_"] = ref_tinfo(f.type, f)
            try:
                wrong = _unwanted(type_of(node, names), want, f, names)
            except SchemaError as exc:
                wrong = exc.problems[0].text if exc.problems else str(exc)
            finally:
                names.extra.clear()
            if wrong:
                found.append(ctx.problem(ypath, wrong))
    return found


_WANTED = {"bool": "a truth value", "int": "an integer", "str": "text"}


def _unwanted(got, want, f: Field | None, names: Names) -> str | None:
    """What is wrong with an expression of type `got` where `want` is asked (None: nothing)."""
    if want in ("bool", "int", "str"):
        if got in (want, "any"):
            return None
        return f"is a {shown(got)}; {_WANTED[want]} is needed"
    if isinstance(want, tuple) and want[0] == "valid":
        expected = ref_tinfo(f.type, f)
    elif want == "case":
        expected = type_of(f.type.switch_on, names)
    elif isinstance(want, tuple) and want[0] == "arg":
        expected = declared_param_tinfo(want[1], want[1].params[want[2]])
    else:
        return None
    if comparable(expected, got):
        return None
    return f"a {shown(got)} where a {shown(expected)} is compared or given"
