"""Keyed views (`-lc-keyed`): named fields over a list of keyed entries, planned once for every
back end.

A list whose elements each hold a key and a value chosen by a switch on that key (Kafka's tagged
fields: a tag, then the bytes of the field that tag names) keeps its entries as they were read, in
their order, unknown keys among them, so that a value is written back byte for byte. A schema may
name the entries it knows:

    - id: tagged_fields
      type: tagged_entry
      repeat: expr
      repeat-expr: num_tagged_fields.value
      -lc-keyed:
        key: tag          # the element's field holding the key
        value: data       # the element's field holding the value: a switch on the key
        fields:
          leader_epoch: {key: 1, default: -1}

Each named field is then a view of the holder's value: it reads the field of the same name in
the case its key selects, from the last entry with that key (a later entry replaces an earlier
one, as Java reads them), or `default` where there is none. Setting it puts one entry of that key
among the others in key order, or takes it out when the value is the default: a field at its
default is not written (Kafka's rule for tagged fields); the holder's count of the entries is then
left to the encoder.

`default` is written as the view's value: a number, text, true/false, null, a list (of its
elements, or of the bytes of a `bytes` field), or a mapping of a user type's fields, each by
the same rules (its derived fields left out, computed on encode). `plan_views` checks a
schema's keyed fields, each problem at its YAML path, and gives `KeyedView`s.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import expr as E
from .schema import Field, TypeDef, join_ypath
from .vocabulary import LOWER_SNAKE
from .walk import case_value

KEY = "-lc-keyed"


@dataclass(frozen=True)
class Default:
    """A view's default, typed by the field it stands for: `kind` is int, bool, float, str,
    bytes, null, list (`value` a tuple of Defaults) or user (`user` the type, `value` a tuple
    of (field id, Default))."""

    kind: str
    value: object = None
    user: TypeDef | None = None


@dataclass(frozen=True)
class KeyedView:
    """One named field over `holder`'s keyed list `entries`: the entries whose `key_field` is
    `key` hold it as field `member` of their `value_field`, a value of `case`."""

    id: str
    key: int
    default: Default
    holder: TypeDef
    entries: Field
    element: TypeDef
    key_field: Field
    value_field: Field
    case: TypeDef
    member: Field
    count: Field | None  # the holder's field that counts the entries (`-lc-count-of`), if any


def plan_views(model, t: TypeDef, problem) -> list[KeyedView]:
    """The keyed views of `t`'s fields, in the order the schema names them; each problem of their
    `-lc-keyed` reported through `problem(ypath, text)` (the field's views then left out)."""
    views: list[KeyedView] = []
    for f in t.seq:
        if f.keyed is not None:
            views += _field_views(model, t, f, f.keyed, join_ypath(f.ypath, KEY), problem)
    taken, kept = {g.id for g in t.seq} | {i.id for i in t.instances}, []
    for v in views:
        if v.id in taken:
            problem(join_ypath(v.entries.ypath, f"{KEY}.fields.{v.id}"),
                    f"`{v.id}` is also a field, instance or view of {t.name}")
        else:
            kept.append(v)
            taken.add(v.id)
    return kept


def _field_views(model, t: TypeDef, f: Field, raw, at: str, problem) -> list[KeyedView]:
    if not isinstance(raw, dict) or not isinstance(raw.get("fields"), dict):
        problem(at, "is a mapping of `key`, `value` and `fields` (each a named field: {key, default})")
        return []
    unknown = set(raw) - {"key", "value", "fields"}
    if unknown:
        problem(join_ypath(at, min(unknown)), "unknown key (`key`, `value` and `fields` are)")
        return []
    if not (f.repeat and f.type.kind == "user"):
        problem(at, "is for a repeated field of a user type: its entries")
        return []
    element = f.type.user
    key_field, value_field = element.field(str(raw.get("key"))), element.field(str(raw.get("value")))
    if key_field is None or model.field_meta(key_field).get("kind") != "int" or key_field.repeat:
        problem(join_ypath(at, "key"), f"names no integer field of {element.name}")
        return []
    if value_field is None or value_field.type.kind != "switch" or value_field.repeat \
            or not E.names(value_field.type.switch_on) & {key_field.id}:
        problem(join_ypath(at, "value"), f"names no field of {element.name} that switches on `{key_field.id}`")
        return []
    cases = {case_value(key, None): ref for key, ref in value_field.type.cases if key is not None}
    views = []
    for vid, spec in raw["fields"].items():
        where = join_ypath(at, f"fields.{vid}")
        if not isinstance(vid, str) or not LOWER_SNAKE.match(vid):
            problem(where, "a named field needs a lower_snake name")
            continue
        view = _view(model, t, f, element, key_field, value_field, cases, E.python_name(vid), spec, where, problem)
        if view is not None:
            views.append(view)
    return views


def _view(model, t, f, element, key_field, value_field, cases, vid, spec, where, problem) -> KeyedView | None:
    if not isinstance(spec, dict) or set(spec) - {"key", "default"} or "key" not in spec:
        problem(where, "is {key, default}: the entry's key, and the value where there is no entry")
        return None
    key = spec["key"]
    ref = cases.get(key) if type(key) is int else None
    if ref is None or ref.kind != "user":
        problem(join_ypath(where, "key"), f"{key!r} is no case of `{value_field.id}` that reads a user type")
        return None
    member = ref.user.field(vid)
    if member is None:
        problem(where, f"{ref.user.name}, the case of key {key}, has no field `{vid}`")
        return None
    default = to_default(model, member, spec.get("default"), join_ypath(where, "default"), problem)
    if default is None:
        return None
    count = next((g for g in t.seq if g.count_of is not None and E.names(g.count_of) == {f.id}), None)
    return KeyedView(vid, key, default, t, f, element, key_field, value_field, ref.user, member, count)


def to_default(model, f: Field, raw, where: str, problem, element: bool = False) -> Default | None:
    """`raw` as a value of field `f` (of one of its elements, with `element`); None, with a
    problem, where it cannot be one."""
    meta = model.field_meta(f)
    if raw is None:
        return Default("null")
    if meta.get("list") and not element:
        if not isinstance(raw, list):
            problem(where, "is a list, as the field is")
            return None
        items = [to_default(model, f, x, f"{where}[{i}]", problem, True) for i, x in enumerate(raw)]
        return None if None in items else Default("list", tuple(items))
    kind = meta["kind"]
    if kind == "user" and isinstance(raw, dict):
        return _user_default(model, f.type.user, raw, where, problem)
    if kind == "bytes" and isinstance(raw, list) and all(type(b) is int and 0 <= b < 256 for b in raw):
        return Default("bytes", bytes(raw))
    wanted = {"int": int, "bool": bool, "float": (int, float), "str": str}.get(kind)
    if wanted is None or isinstance(raw, bool) is not (kind == "bool") or not isinstance(raw, wanted):
        problem(where, f"{raw!r} is no value of a {kind} field")
        return None
    return Default(kind, float(raw) if kind == "float" else raw)


def _user_default(model, user: TypeDef, raw: dict, where: str, problem) -> Default | None:
    fields = []
    for fid, value in raw.items():
        g = user.field(str(fid))
        if g is None or g.derived:
            problem(join_ypath(where, str(fid)), f"{user.name} has no field `{fid}` that is not derived")
            return None
        d = to_default(model, g, value, join_ypath(where, str(fid)), problem)
        if d is None:
            return None
        fields.append((g.id, d))
    return Default("user", tuple(fields), user)
