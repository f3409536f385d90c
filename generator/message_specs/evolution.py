"""What changed between two sets of Kafka message specs, version by version, and which changes
break the wire (`logcodec diff OLD NEW`).

A version of a message is judged by its wire layout, as Kafka's own evolution checker and buf's
`breaking` rules judge theirs: the fields it writes in order (names do not travel: a renamed
field is no wire change), each one's wire type (a string or array is compact in a flexible
version), whether it may be null, the layout of a struct's fields, and the tagged fields by tag.
Whatever changes the bytes of a version both sets have is wire-breaking: a version dropped, a
field added, removed, retyped or moved in an existing version, a version made flexible, a tag
renumbered, nullability changed. A version added, a tagged field added, a rename, a default or
`ignorable` changed is reported and breaks nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..changes import Change, shown
from .spec import FieldSpec, MessageSpec, StructSpec


@dataclass(frozen=True)
class Slot:
    """One field as a version writes it: its name and path, wire type, nullability, default, and
    the layout of its struct (`inner`), for comparison."""

    name: str
    path: str
    wire: str
    nullable: bool
    default: object
    ignorable: bool
    inner: Layout | None = None

    def shape(self) -> tuple:
        """What travels: the wire type, nullability and the struct's shape, not the names."""
        return (self.wire, self.nullable, self.inner.shape() if self.inner else None)


@dataclass(frozen=True)
class Layout:
    """The fields a version writes: in order, then tagged by tag."""

    fields: tuple[Slot, ...]
    tagged: tuple[tuple[int, Slot], ...] = field(default=())

    def shape(self) -> tuple:
        return tuple(s.shape() for s in self.fields), tuple((t, s.shape()) for t, s in self.tagged)


def layout(spec: MessageSpec, version: int, flexible: bool | None = None) -> Layout:
    """The wire layout of `spec`'s `version`; as if flexible or not when `flexible` says."""
    structs = {s.name: s for s in spec.common_structs}
    flexible = version in spec.flexible_versions if flexible is None else flexible
    return _layout(spec.fields, version, flexible, structs, "")


def _layout(fields: list[FieldSpec], version: int, flexible: bool, structs: dict[str, StructSpec], at: str) -> Layout:
    plain, tagged = [], []
    for f in fields:
        if version not in f.versions:
            continue
        path = f"{at}.{f.name}" if at else f.name
        compact = flexible if f.flexible_versions is None else version in f.flexible_versions
        inner = None
        if f.type.is_struct:
            own = f.fields or (structs[f.type.element].fields if f.type.element in structs else [])
            inner = _layout(own, version, flexible, structs, path + ("[]" if f.type.is_array else ""))
        wire = f.type.text if not f.type.is_struct else ("[]struct" if f.type.is_array else "struct")
        if compact and (f.type.is_array or f.type.text in ("string", "bytes", "records")):
            wire = "compact " + wire  # its length or count a varint: other bytes
        slot = Slot(f.name, path, wire, version in f.nullable_versions, f.default, f.ignorable, inner)
        if version in f.tagged_versions:
            tagged.append((f.tag, slot))
        else:
            plain.append(slot)
    return Layout(tuple(plain), tuple(sorted(tagged, key=lambda t: t[0])))


def diff(old: list[MessageSpec], new: list[MessageSpec]) -> list[Change]:
    """Every change from `old` to `new`, message by message (in name order), the same change in
    several versions given once with all of them."""
    olds, news = {s.name: s for s in old}, {s.name: s for s in new}
    found: list[tuple[str, int | None, str, str, bool]] = []
    for name in sorted(olds.keys() | news.keys()):
        a, b = olds.get(name), news.get(name)
        if b is None:
            found.append((name, None, "", "message removed", True))
            continue
        if a is None:
            found.append((name, None, "", f"message added (versions {b.valid_versions})", False))
            continue
        found += _message_changes(a, b)
    return _grouped(found)


def _message_changes(a: MessageSpec, b: MessageSpec) -> list[tuple[str, int | None, str, str, bool]]:
    name, out = a.name, []
    if (a.kind, a.api_key) != (b.kind, b.api_key):
        out.append((name, None, "", f"{a.kind} {a.api_key} became {b.kind} {b.api_key}", True))
    before, after = set(a.versions), set(b.versions)
    out += [(name, v, "", "version dropped", True) for v in sorted(before - after)]
    out += [(name, v, "", "version added", False) for v in sorted(after - before)]
    for v in sorted(before & after):
        flexible = v in a.flexible_versions
        if flexible != (v in b.flexible_versions):
            # (every string and array of the version changes with it: said once, the rest compared as before)
            out.append((name, v, "", "made flexible" if v in b.flexible_versions else "no longer flexible", True))
        changes = layout_changes(layout(a, v), layout(b, v, flexible))
        out += [(name, v, path, what, breaking) for path, what, breaking in changes]
    return out


def layout_changes(a: Layout, b: Layout) -> list[tuple[str, str, bool]]:
    """The changes from layout `a` to `b` of one version: by position where the fields still
    line up (so that a rename is one), by name otherwise; tagged fields by tag."""
    out: list[tuple[str, str, bool]] = []
    if len(a.fields) == len(b.fields) and all(x.name == y.name or x.shape() == y.shape()
                                              for x, y in zip(a.fields, b.fields)):
        for x, y in zip(a.fields, b.fields):
            out += _slot_changes(x, y, renamed_ok=True)
    else:
        by_name = {s.name: s for s in b.fields}
        olds = {s.name for s in a.fields}
        for x in a.fields:
            y = by_name.get(x.name)
            out += [(x.path, f"removed ({x.wire})", True)] if y is None else _slot_changes(x, y, renamed_ok=False)
        out += [(y.path, f"added ({y.wire})", True) for y in b.fields if y.name not in olds]
        kept_a = [s.name for s in a.fields if s.name in by_name]
        kept_b = [s.name for s in b.fields if s.name in olds]
        if kept_a != kept_b:
            out.append(("", "fields reordered", True))
    tags_a, tags_b = dict(a.tagged), dict(b.tagged)
    for tag in sorted(tags_a.keys() | tags_b.keys()):
        x, y = tags_a.get(tag), tags_b.get(tag)
        if y is None:
            out.append((x.path, f"tagged field {tag} removed ({x.wire})", False))
        elif x is None:
            out.append((y.path, f"tagged field {tag} added ({y.wire})", False))
        else:
            out += _slot_changes(x, y, renamed_ok=True)
    return out


def _slot_changes(x: Slot, y: Slot, renamed_ok: bool) -> list[tuple[str, str, bool]]:
    out = []
    if x.name != y.name and renamed_ok:
        out.append((y.path, f"renamed from {x.name}", False))
    if x.wire != y.wire:
        out.append((y.path, f"retyped {x.wire} -> {y.wire}", True))
    if x.nullable != y.nullable:
        out.append((y.path, "made nullable" if y.nullable else "no longer nullable", True))
    if x.default != y.default:
        out.append((y.path, f"default {shown(x.default)} -> {shown(y.default)}", False))
    if x.ignorable != y.ignorable:
        out.append((y.path, "made ignorable" if y.ignorable else "no longer ignorable", False))
    if x.inner is not None and y.inner is not None:
        out += layout_changes(x.inner, y.inner)
    elif (x.inner is None) != (y.inner is None) and x.wire == y.wire:
        out.append((y.path, "struct changed", True))
    return out


def _grouped(found: list[tuple[str, int | None, str, str, bool]]) -> list[Change]:
    """One change for each (message, path, what), with every version it holds in."""
    versions: dict[tuple[str, str, str, bool], list[int]] = {}
    for message, v, path, what, breaking in found:
        versions.setdefault((message, path, what, breaking), [])
        if v is not None:
            versions[(message, path, what, breaking)].append(v)
    return [Change(message, tuple(vs), path, what, breaking) for (message, path, what, breaking), vs in versions.items()]
