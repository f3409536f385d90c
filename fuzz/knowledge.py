"""What the campaign knows about a format: only what its schema says, read through the generator's IR.

Nothing here names a field of a particular format or its position on the wire. The engines ask
for "the declared checksums", "the byte order", "whether varints occur", "the root fields whose
place is fixed" and "the fields that count a repeated field", and the IR answers for each format.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from logcodec.generator import expr as E
from logcodec.generator.reading import load_all
from logcodec.generator.schema import Field, Schema, TypeDef, TypeRef

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class ChecksumField:
    """A field that `-lc-checksum` declares: what guards what."""

    type_name: str
    field_id: str
    algorithm: str  # "crc32" | "crc32c"
    width: int
    endian: str
    from_id: str
    from_follows: bool  # the covered range starts right after the checksum field


@dataclass(frozen=True)
class IntField:
    """A whole-byte integer of the root type at a place that no earlier field moves."""

    field_id: str
    offset: int
    width: int
    signed: bool
    endian: str


@dataclass(frozen=True)
class CountField:
    """A root field that says how many elements a repeated field has (-lc-count-of, or a
    -lc-default computed from `.size`): an integer of `width` bytes, or a varint."""

    field_id: str
    width: int  # 0 for a varint
    signed: bool
    endian: str
    varint: str  # "" | "uvarint" | "zigzag_varint"


@dataclass
class FormatFacts:
    name: str
    endian: str
    checksums: list[ChecksumField] = field(default_factory=list)
    varints: set[str] = field(default_factory=set)  # primitive varint kinds the format uses
    fixed_ints: list[IntField] = field(default_factory=list)
    counts: list[CountField] = field(default_factory=list)
    processes: set[str] = field(default_factory=set)  # codec tables named by `process:`
    stream_root: bool = False  # the root is a sequence of whole entries (repeat: eos): entries concatenate

    def checksum_named(self, field_id: str) -> ChecksumField | None:
        return next((c for c in self.checksums if c.field_id == field_id), None)


@lru_cache(maxsize=1)
def schemas() -> dict[str, Schema]:
    return {s.format_name: s for s in load_all(ROOT / "schemas")}


@lru_cache(maxsize=None)
def facts(format_name: str) -> FormatFacts:
    schema = schemas()[format_name]
    out = FormatFacts(format_name, schema.root.endian)
    for t in _reachable_types(schema):
        if t.primitive:
            out.varints.add(t.primitive["name"])
            continue
        for i, f in enumerate(t.seq):
            if f.checksum:
                out.checksums.append(_checksum_field(t, i, f))
            if f.process:
                out.processes.add(f.process[0])
    out.fixed_ints = _fixed_ints(schema.root)
    out.counts = _count_fields(schema.root)
    first = schema.root.seq[0] if schema.root.seq else None
    out.stream_root = bool(first and first.repeat == "eos")
    return out


def _reachable_types(schema: Schema):
    seen: set[str] = set()
    stack = [schema]
    while stack:
        s = stack.pop()
        if s.path in seen:
            continue
        seen.add(s.path)
        yield from s.all_types()
        stack.extend(s.imports)


def _checksum_field(t: TypeDef, index: int, f: Field) -> ChecksumField:
    following = t.seq[index + 1].id if index + 1 < len(t.seq) else None
    return ChecksumField(t.name, f.id, f.checksum["algorithm"], f.type.size, f.type.endian,
                         f.checksum["from"], following == f.checksum["from"])


def static_size(ref: TypeRef, f: Field | None = None) -> int | None:
    """Bytes a field always takes, or None when that depends on the data."""
    if f is not None and (f.if_expr is not None or f.repeat or f.size is not None or f.size_eos):
        return None
    if ref.kind in ("int", "float"):
        return ref.size
    if ref.kind == "user" and ref.user is not None and not ref.user.primitive:
        return _static_type_size(ref.user)
    return None


def _static_type_size(t: TypeDef) -> int | None:
    bits, total = 0, 0
    for f in t.seq:
        if f.if_expr is not None or f.repeat:
            return None
        if f.type.kind == "bits":
            bits += f.type.size
            continue
        if bits % 8:
            return None
        size = static_size(f.type, f)
        if size is None:
            return None
        total += size
    return None if bits % 8 else total + bits // 8


def _fixed_ints(root: TypeDef) -> list[IntField]:
    """Whole-byte integers of the root type up to the first field whose size varies."""
    out, pos, bits = [], 0, 0
    for f in root.seq:
        if f.type.kind == "bits" and f.if_expr is None and not f.repeat:
            bits += f.type.size
            continue
        if bits % 8:
            break
        pos, bits = pos + bits // 8, 0
        size = static_size(f.type, f)
        if size is None:
            break
        if f.type.kind == "int":
            out.append(IntField(f.id, pos, size, f.type.signed, f.type.endian))
        pos += size
    return out


def _counts_elements(f: Field) -> bool:
    if f.count_of is not None:
        return True
    return f.default is not None and any(isinstance(n, E.Attr) and n.name == "size" for n in E.walk(f.default))


def _count_fields(root: TypeDef) -> list[CountField]:
    out = []
    for f in root.seq:
        if not _counts_elements(f):
            continue
        if f.type.kind == "int":
            out.append(CountField(f.id, f.type.size, f.type.signed, f.type.endian, ""))
        elif f.type.kind == "user" and f.type.user is not None and f.type.user.primitive:
            out.append(CountField(f.id, 0, False, root.endian, f.type.user.primitive["name"]))
    return out


def int_bytes(count: CountField, value: int) -> bytes:
    """The wire form of `value` in a count field, by the field's declared type."""
    from logcodec.runtime.primitives import uvarint_bytes

    if count.varint == "uvarint":
        return uvarint_bytes(value)
    if count.varint == "zigzag_varint":
        return uvarint_bytes(zigzag(value))
    return value.to_bytes(count.width, "little" if count.endian == "le" else "big", signed=count.signed)


def zigzag(value: int) -> int:
    """The zigzag transform the zigzag_varint schema documents (0, -1, 1, -2 -> 0, 1, 2, 3)."""
    return value * 2 if value >= 0 else -value * 2 - 1
