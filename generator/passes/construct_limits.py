"""The construct back end's limits: what construct 2.10 cannot say, refused before it runs.

The construct definitions (`construct/`) read Kaitai's expressions over construct's context and
its structures: no streams as values, no `_io` or `_root` of a structure, no positional
instance read from another stream, case keys and root defaults that are literals. These passes
say so over the IR, and work out what the back end then reads: the name of each type in its
module (`local_names`), each case key as a literal (`case_literal`).
"""

from __future__ import annotations

from .. import expr as E
from ..problems import SchemaError
from ..schema import TypeDef, join_ypath, type_sites
from ..types import ref_tinfo, shown, type_of

_IO, _PARENT = E.Name("_io"), E.Name("_parent")


def local_names(types: list[TypeDef]) -> dict[int, str]:
    """Each type's name in its construct module: its own, or when two types share it, with the
    names of the types it is nested in (`outer__inner`)."""
    plain = [t.name for t in types]
    out = {}
    for t in types:
        name, scope = t.name, t.parent
        while plain.count(t.name) > 1 and scope is not None and scope.parent is not None:
            name, scope = f"{scope.name}__{name}", scope.parent
        out[id(t)] = name
    return out


def names(ctx) -> list:
    """No two types of a module have one construct name."""
    named = local_names(ctx.model.types)
    first, found = {}, []
    for t in ctx.model.types:
        name = named[id(t)]
        if name in first:
            found.append(ctx.problem(t.ypath, f"its construct name {name} is also that of {first[name] or '(top)'}"))
        else:
            first[name] = t.ypath
    return found


def streams(ctx) -> list:
    """A positional instance is read from its structure's stream (construct's `Pointer`), or
    from the root's when its structure is read there; at a position (`Pointer` needs one)."""
    model, found = ctx.model, []
    for t in model.types:
        for inst in t.instances:
            if inst.field is not None and inst.pos is None:
                found.append(ctx.problem(inst.ypath, "an instance read where the stream is (no `pos`) has no construct "
                                         "translation (construct's Pointer reads at a position)"))
                continue
            root_io = inst.io == E.Attr(E.Name("_root"), "_io") and model.in_root_stream(t)
            if inst.field is not None and inst.io is not None and not root_io:
                found.append(ctx.problem(f"{inst.ypath}.io", "a positional instance read from another stream has no "
                                         "construct translation (construct's Pointer reads the stream of the "
                                         "structure it is in)"))
    return found


def case_literal(key) -> str | None:
    """A switch case's key as a Python literal (an enum member by its label); None when it is not
    a literal."""
    if isinstance(key, E.EnumLit):
        return repr(key.value)
    if isinstance(key, (E.Num, E.Bool, E.Str)):
        return repr(key.value)
    if isinstance(key, E.ArrayLit) and all(isinstance(i, E.Num) and 0 <= i.value <= 255 for i in key.items):
        return repr(bytes(i.value for i in key.items))
    if isinstance(key, E.Unary) and key.op == "-" and isinstance(key.operand, E.Num):
        return repr(-key.operand.value)
    return None


def literals(ctx) -> list:
    """Switch case keys are literals (construct's `Switch` maps values), and so are the root's
    param defaults (keywords of parse and build)."""
    found = []
    for t in ctx.model.types:
        for f in [*t.seq, *(i.field for i in t.instances if i.field is not None)]:
            for (key, _), text in zip(f.type.cases, f.type.case_texts):
                if key is not None and case_literal(key) is None:
                    found.append(ctx.problem(join_ypath(f.ypath, f"type.cases.{text}"), "a switch case that is not a "
                                             "literal has no construct translation"))
    for i, p in enumerate(ctx.schema.root.params):
        if p.default is not None and not isinstance(p.default, (bool, int, float, str)):
            found.append(ctx.problem(join_ypath(ctx.schema.root.ypath, f"params[{i}].-lc-default"),
                                     f"a root param's -lc-default must be a literal, not {p.default!r}"))
    return found


def expressions(ctx) -> list:
    """Construct's context holds values and structures, not streams: no attribute of a stream
    passed as a value, of a value whose type is known only at run time (but `.to_i`), nor a
    structure's `_io` or `_root`."""
    found = []
    for t in ctx.model.types:
        streams = {id(inst.io) for inst in t.instances}  # not translated: `streams` judges them
        for ypath, node, _, f in type_sites(t):
            if id(node) in streams:
                continue
            extra = {"_index": "int"}  # known everywhere in construct's context
            if f is not None and ypath.endswith(("repeat-until", "valid.expr")):
                extra["_"] = ref_tinfo(f.type, f)
            names = ctx.model.names_of(t, extra)
            found += [ctx.problem(ypath, text) for n in E.walk(node) if (text := _untranslatable(n, names))]
    return found


def _untranslatable(n, names) -> str | None:
    """What construct cannot say of an attribute (None: it can)."""
    if not isinstance(n, E.Attr) or n.obj == _IO or n.name == "_parent":
        return None
    if n.name in ("_io", "_root"):
        return f"`.{n.name}` of a structure has no construct translation"
    if n.obj == _PARENT:
        return None
    try:
        ti = type_of(n.obj, names)
    except SchemaError:
        return None  # (the `types` pass says what is wrong there)
    if ti == "io" or (ti == "any" and n.name != "to_i"):
        return f"`.{n.name}` of a {shown(ti)} has no construct translation"
    return None
