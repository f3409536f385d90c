"""The byte ranges of a value's fields as its codec's trace variant read them (`Trace.ranges`), for
what the generator draws from them: where truncated vectors are cut (`vectors.py`) and the docs'
annotated hex dumps (`docs/`).

Both go by fields as the schema writes them. A list's element is no field (its fields are), but
an element of an unwrapped type is its one field. A field has two spellings: its value path
(`records[0].key`, as canonical JSON and error paths name it, which leaves out an unwrapped
type's one field), and its path of schema fields (`records.items[0].key`, as Kaitai's objects
name it), which the vectors' comments use.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .schema import Field, Schema, TypeDef
from .walk import schema_closure

_STEP = re.compile(r"\.?([A-Za-z_]\w*)((?:\[\d+\])*)")  # a field of a value path, with its indices


@dataclass(frozen=True)
class Span:
    """Where a field lies in the input."""

    path: str  # its value path
    field_path: str  # its path of schema fields
    field: Field | None  # its IR field (None where the trace names a structure the schemas do not)
    start: int
    end: int


def field_spans(schema: Schema, trace) -> list[Span]:
    """The fields of a trace (`logcodec.runtime.trace.Trace`) that hold bytes of the input (not
    those of processed bytes, which have no place there), by where they start, the outermost of
    those that start together first: the order in which a page lays fields over the bytes, the
    innermost last."""
    types = {(member.module, t.class_name): t for member in schema_closure(schema) for t in member.all_types()}
    held = [(path, r[0], r[1]) for path, r in trace.ranges.items() if path and len(r) == 2 and r[1] > r[0]]
    spans = []
    for path, start, end in sorted(held, key=lambda s: (s[1], -s[2], s[0].count(".") + s[0].count("["))):
        field, field_path = _named(types, trace.classes, path)
        if not field_path.endswith("]"):  # an element, not a field
            spans.append(Span(path, field_path, field, start, end))
    return spans


def _named(types: dict[tuple[str, str], TypeDef], classes: dict[str, type], path: str) -> tuple[Field | None, str]:
    """The IR field at a value path and its path of schema fields. Each field is found in the type
    of the structure that holds it, as the trace recorded its class (`classes`, by value path);
    the unwrapped types on the way put their one field back in the path."""
    field, named = None, ""
    for step in _STEP.finditer(path):
        holder = classes.get(path[:step.start()])
        held_in = types.get((holder.__module__, holder.__name__)) if holder is not None else None
        field = held_in.field(step.group(1)) if held_in is not None else None
        if field is None:
            return None, path
        named = f"{named}.{field.id}" if named else field.id
        goes_in = step.group(2) or step.end() < len(path)
        while goes_in and not field.repeat and (unwrapped := _unwrapped(field)) is not None:
            field = unwrapped.seq[0]  # into `records`, an unwrapped type: `records[0]` is `records.items[0]`
            named += f".{field.id}"
        named += step.group(2)
        if step.group(2) and (unwrapped := _unwrapped(field)) is not None:
            field = unwrapped.seq[0]  # an element of an unwrapped type: `entries[0]` is `entries[0].body`
            named += f".{field.id}"
    return field, named


def _unwrapped(field: Field) -> TypeDef | None:
    """The unwrapped type a field (or each of its elements) is, if it is one."""
    user = field.type.user if field.type.kind == "user" else None
    return user if user is not None and user.unwrap else None
