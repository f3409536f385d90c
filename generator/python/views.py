"""The Python of a type's keyed views (`keyed.KeyedView`): a property per named field, read from
the last entry of its key, set by putting one entry of that key in key order (`_rt.put_keyed`),
or none at the default. The plan decides what each view is; this module only writes it."""

from __future__ import annotations

from ..keyed import Default, KeyedView
from .code import docstring


def views_source(emitter, views: list[KeyedView]) -> list[str]:
    """The code of each view of a class (getter and setter), indented for its class body."""
    return [_view_source(emitter, v) for v in views]


def _view_source(emitter, v: KeyedView) -> str:
    model = emitter.model
    # (a compiled build of a user's schema types no attribute: the input says what each holds)
    annotation = "Any" if emitter.untyped_attributes() else emitter.field_decl(v.case, v.member)["annotation"]
    default = default_code(v.default)
    key_at, value_at = _positions(model.tuple_form(v.element), v.key_field.id, v.value_field.id)
    member_at, = _positions(model.tuple_form(v.case), v.member.id)
    entry_key = _read("entry", v.key_field.id, key_at)
    found = _read(_read("entry", v.value_field.id, value_at), v.member.id, member_at)
    at_default = {"null": f"value is {default}", "user": f"_rt.at_default(value, {default})"}.get(
        v.default.kind, f"value == {default}")
    doc = (f"{v.member.doc}\n\n" if v.member.doc else "") + (
        f"The entry of key {v.key} in `{v.entries.id}` (the last, if several), else the default: {default}. "
        f"Set (or given to `__init__`, or to `dataclasses.replace`), it is the one entry of key {v.key}, "
        "in key order; at the default, none"
        + (f" (and `{v.count.id}` is counted on encode)." if v.count is not None else "."))
    return "\n".join([
        "    @property",
        f"    def {v.id}(self) -> {annotation}:",
        docstring(doc, 2),
        f"        for entry in reversed(self.{v.entries.id} or ()):",
        f"            if {entry_key} == {v.key}:",
        f"                return {found}",
        f"        return {default}",
        "",
        f"    @{v.id}.setter",
        f"    def {v.id}(self, value: {annotation}) -> None:",
        (f"        entry = None if {at_default} else {v.element.class_name}("
         f"{v.key_field.id}={v.key}, {v.value_field.id}={v.case.class_name}({v.member.id}=value))"),
        (f"        self.{v.entries.id} = _rt.put_keyed(self.{v.entries.id}, entry, {v.key}, "
         f"{v.key_field.id!r}, {key_at if key_at is not None else 'None'})"),
        *([f"        self.{v.count.id} = None  # (counted on encode)"] if v.count is not None else []),
    ])


def _positions(form, *ids: str) -> list[int | None]:
    """Where each field is in a tuple form (None: the type has none, its values are objects)."""
    order = [f.id for f in form] if form else []
    return [order.index(i) if i in order else None for i in ids]


def _read(value: str, name: str, at: int | None) -> str:
    """Field `name` of `value`: an object's attribute, or item `at` of its tuple form too."""
    return f"{value}.{name}" if at is None else f"_rt.field_of({value}, {name!r}, {at})"


def default_code(d: Default) -> str:
    """A view's default as a Python expression (a new object each time it runs)."""
    if d.kind == "null":
        return "None"
    if d.kind == "list":
        return "[" + ", ".join(default_code(x) for x in d.value) + "]"
    if d.kind == "user":
        return f"{d.user.class_name}(" + ", ".join(f"{fid}={default_code(x)}" for fid, x in d.value) + ")"
    return repr(d.value)
