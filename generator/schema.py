"""The intermediate representation (IR) of `.ksy` schemas: `Schema`, `TypeDef`, `Field`,
`Instance`, `Enum`, `TypeRef`; how names are looked up in it (Kaitai's scoping), every expression
of a type with its YAML path (`type_sites`) and fixed sizes (`static_bits`).

The loader (`reading.py`) reads a file into it; `resolve.py` then makes its references point at
the types and enums they name.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field

from . import expr as E
from .problems import Marks

# ---------------------------------------------------------------- the IR


@dataclass
class Enum:
    name: str
    members: dict[int, str]
    owner: "TypeDef"


@dataclass
class TypeRef:
    """What a field holds: exactly one of the kinds below."""

    kind: str  # "int" | "bits" | "float" | "bytes" | "str" | "user" | "switch"
    size: int = 0  # bytes for int/float, bits for bits
    signed: bool = False
    endian: str = "be"
    encoding: str = ""
    user: "TypeDef | None" = None
    args: tuple = ()  # parsed expressions for a user type's params
    switch_on: object = None
    switch_text: str = ""  # the switch-on expression as the schema writes it, for messages
    cases: list = field(default_factory=list)  # [(expr AST, TypeRef)]; default case has expr None
    case_texts: list = field(default_factory=list)  # each case's key as the schema writes it (its YAML path)


@dataclass
class Field:
    id: str
    ypath: str
    doc: str
    doc_ref: str
    type: TypeRef
    size: object = None  # expression
    size_eos: bool = False
    if_expr: object = None
    repeat: str = ""  # "" | "expr" | "eos" | "until"
    repeat_expr: object = None
    repeat_until: object = None
    process: tuple | None = None  # (name, [arg expressions])
    valid: dict | None = None  # {"eq"|"min"|"max"|"any-of"|"expr": expression(s)}
    enum: Enum | None = None
    contents: bytes | None = None
    # -lc- write-side meaning
    size_of: tuple | None = None  # (first field id, last field id or None = end of type)
    count_of: object = None  # expression naming a repeated field
    absent: int | None = None
    checksum: dict | None = None  # {"algorithm", "from", "to"}
    default: object = None  # expression
    present: str | None = None  # -lc-present: this flag says whether that (conditional) field is there
    partial_tail: bool = False  # -lc-partial-tail: a repeat-eos whose last element may be cut short
    filled_remotely: bool = False  # -lc-derived: a length another type's sized field reads, filled by its encoder
    keyed: dict | None = None  # -lc-keyed: named fields over these keyed entries, as written (`keyed.py`)
    # bytes and strings: read up to a terminator (or cut a sized field at one), strip padding
    terminator: bytes | None = None  # one byte, or a unit of zeros for `strz` in UTF-16/32
    consume: bool = True  # the terminator is skipped (else the next field starts with it)
    include: bool = False  # the terminator is part of the value
    eos_error: bool = True  # no terminator before the end is an error (else the value runs to the end)
    pad_right: int | None = None  # a sized field's trailing padding byte, stripped from the value
    parent: object = None  # Kaitai's `parent:`: what a user type sees as `_parent` (false: nothing)
    no_case: str = ""  # a switch no case matches is this error (else null, in a user's schema)
    broken: bool = False  # the loader reported a problem in it (its other checks would only repeat it)

    def expressions(self, write_side: bool = False) -> list:
        """The expressions a decoder evaluates for this field (and with `write_side`, those only
        an encoder does: -lc-default and -lc-count-of)."""
        exprs = [self.size, self.if_expr, self.repeat_expr, self.repeat_until, self.type.switch_on, *self.type.args,
                 *(a for _, c in self.type.cases for a in c.args), *(self.process[1] if self.process else ()),
                 *(v for rule in (self.valid or {}).values() for v in (rule if isinstance(rule, list) else [rule]))]
        if write_side:
            exprs += [self.default, self.count_of]
        return [e for e in exprs if e is not None]

    @property
    def derived(self) -> bool:
        """The encoder can compute this field when the value leaves it out."""
        return bool(self.size_of or self.count_of is not None or self.checksum or self.default is not None
                    or self.present or self.filled_remotely)


@dataclass
class Instance:
    id: str
    ypath: str
    doc: str
    value: object  # expression (value instances)
    enum: Enum | None = None
    pos: object = None  # expression (positional instances): where to read, from the start of the type; None
    # for a parse instance read where its stream is when first read
    field: "Field | None" = None  # what to read there (parse instances, at a `pos` or not)
    input: bool = False  # -lc-input: also part of the value the encoder reads (the wire fields derive from it)
    owner: "TypeDef | None" = None  # the type it belongs to (its expression's scope)
    if_expr: object = None  # a value instance's `if`: null when false
    io: object = None  # a positional instance's `io`: the stream it is read from (a user's schema)

    def expressions(self, write_side: bool = False) -> list:
        """The expressions computing this instance evaluates: its value, `if`, `pos` and `io`, and
        its field's (`Field.expressions`)."""
        exprs = [e for e in (self.value, self.pos, self.if_expr, self.io) if e is not None]
        return exprs + (self.field.expressions(write_side) if self.field is not None else [])


@dataclass
class Param:
    id: str
    type_name: str
    doc: str
    default: object = None  # -lc-default: a literal, for the root type's decode(..., name=default)
    enum: object = None  # an integer param's enum: its name, then (resolved) the Enum


@dataclass
class TypeDef:
    name: str
    ypath: str
    schema: "Schema"
    parent: "TypeDef | None"
    doc: str = ""
    doc_ref: str = ""
    endian: str = "be"
    bit_endian: str = "be"
    encoding: str = ""  # of its `str` fields that name none: its meta's, else its enclosing type's
    params: list[Param] = field(default_factory=list)
    seq: list[Field] = field(default_factory=list)
    instances: list[Instance] = field(default_factory=list)
    types: dict[str, "TypeDef"] = field(default_factory=dict)
    enums: dict[str, Enum] = field(default_factory=dict)
    unwrap: bool = False
    primitive: dict | None = None
    to_string: object = None  # Kaitai's `to-string`: the expression of a value's text (`str(value)`)
    # A type whose byte order is chosen at run time (`meta/endian` with `switch-on`): its value is
    # one of these, the type built for each byte order (little-endian first), whose members it has
    byte_orders: tuple = ()

    def __repr__(self) -> str:
        return f"<TypeDef {self.schema.path}:{self.name}>"

    @property
    def class_name(self) -> str:
        return "".join(part.capitalize() for part in self.name.split("_"))

    def walk(self):
        yield self
        for sub in self.types.values():
            yield from sub.walk()

    def field(self, fid: str) -> Field | None:
        return next((f for f in self.seq if f.id == fid), None)


@dataclass
class Schema:
    path: str  # relative to the schemas root (or its import folder), e.g. "kafka/record_batch_v2.ksy"
    family: str
    folder: str  # where its module lies in the generated package: "kafka", "kafka/messages" (a compiled package's name)
    id: str
    module: str  # the Python module it compiles to, e.g. "logcodec.generated.kafka.record_batch_v2"
    shown: str  # where it came from, for generated files' headers, e.g. "schemas/kafka/record_batch_v2.ksy"
    strict: bool  # this repository's rules: also, a sized structure must fill its size exactly
    title: str
    doc: str
    doc_ref: str
    raw: dict
    sha256: str
    root: TypeDef = None  # type: ignore[assignment]
    imports: list["Schema"] = field(default_factory=list)
    # the schemas loaded with it that import it: what they read of its values (`x._io`) it keeps
    importers: list["Schema"] = field(default_factory=list, repr=False, compare=False)
    source: str = ""  # the file it was read from
    text: str = ""  # its YAML, as read (a file's, or a document's: `Loader(documents=...)`)
    marks: Marks = field(default_factory=Marks, repr=False)  # where each YAML path of the file is written
    # `meta/-lc-fills-input`: the root takes the whole input, bytes after it are `trailing_bytes`
    # (our formats); without it, as in Kaitai, `decode` reads what the root describes and stops.
    fills_input: bool = False

    def __repr__(self) -> str:
        return f"<Schema {self.path}>"

    @property
    def format_name(self) -> str:
        return f"{self.family}.{self.id}"

    @property
    def is_format(self) -> bool:
        """Whether it is a format (a schema right under its family's folder), with a page, a
        registry entry and vectors; else a building block its formats import (a message spec's
        schema, under `<family>/messages/`)."""
        return self.folder == self.family

    def all_types(self):
        yield from self.root.walk()


# ---------------------------------------------------------------- helpers of the loader and the resolver

BUILTIN_TYPE = re.compile(r"^([us][1248](be|le)?|f[48](be|le)?|b[0-9]+(be|le)?|str|strz|bytes)$")


class Stop(Exception):
    """What is being read makes no sense past the problem just reported: its reader gives up on
    it (a field, a type, an instance) and the loader goes on with the next one."""


def join_ypath(base: str, key: str) -> str:
    if not base:
        return key
    return f"{base}{key}" if key.startswith("[") else f"{base}.{key}"


def lookup_type(t: TypeDef, name: str) -> tuple[TypeDef | None, str]:
    """The type a name means inside `t`, as Kaitai resolves it: the first part among the types
    nested in `t` and its enclosing types (or the schema's root), then the imported schemas;
    each further part (`a::b::c`) among the types nested in the one before. Returns the type, or
    None and the part that was not found."""
    head, *rest = name.split("::")
    found, scope = None, t
    while scope is not None and found is None:
        if head in scope.types:
            found = scope.types[head]
        elif scope.name == head and scope.parent is None:
            found = scope
        scope = scope.parent
    if found is None:
        found = next((imp.root for imp in t.schema.imports if imp.id == head), None)
    if found is None:
        return None, head
    for part in rest:
        if part not in found.types:
            return None, part
        found = found.types[part]
    return found, ""


def visible_types(t: TypeDef) -> set[str]:
    """The type names a plain name may mean inside `t` (for "did you mean"): the types nested in
    it and around it, the root's own name, the imported schemas."""
    names, scope = set(), t
    while scope is not None:
        names |= set(scope.types) | ({scope.name} if scope.parent is None else set())
        scope = scope.parent
    return names | {imp.id for imp in t.schema.imports}


def visible_enums(t: TypeDef) -> set[str]:
    """The enum names a plain name may mean inside `t`: its own and those of the types around it."""
    names, scope = set(), t
    while scope is not None:
        names |= set(scope.enums)
        scope = scope.parent
    return names


def lookup_enum(t: TypeDef, name: str) -> "Enum | None":
    """The enum a name means inside `t`: a plain name in `t` and its enclosing types, a qualified
    one (`type::enum`, `imported_schema::enum`) in the type the path before its last part names."""
    *path, last = name.split("::")
    if path:
        owner, _ = lookup_type(t, "::".join(path))
        return owner.enums.get(last) if owner is not None else None
    scope = t
    while scope is not None:
        if last in scope.enums:
            return scope.enums[last]
        scope = scope.parent
    return None


def is_vendor_key(key) -> bool:
    """Keys that start with `-` belong to other tools (`-webide-representation`), and Kaitai's
    compiler ignores them; ours (`-lc-`) are checked."""
    return isinstance(key, str) and key.startswith("-") and not key.startswith("-lc-")


def did_you_mean(name: str, known) -> str:
    """` (did you mean 'x'?)` for the closest known name, or nothing."""
    # (str: a name YAML read as a number or a boolean, `enums: {true: ...}`, is refused and still known)
    close = difflib.get_close_matches(str(name), sorted({str(k) for k in known}), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


def split_args(text: str) -> list[str]:
    """Split `a, f(b, c), d` on top-level commas."""
    args, depth, cur = [], 0, ""
    for ch in text:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == "," and depth == 0:
            args.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        args.append(cur.strip())
    return args


# The built-in types `sizeof<>` knows, as Kaitai's compiler does: numbers without a byte order
# (`s4`, not `s4le`), bits with or without one
_FIXED_BUILTIN = re.compile(r"^(?:[us]([1248])|f([48])|b([0-9]+)(?:be|le)?)$")


def sizeof_bits(t: TypeDef, type_name: str) -> tuple[bool, int | None]:
    """`sizeof<type_name>` inside `t`, in bits: whether the type exists, and its fixed size (None
    when it depends on the data). A built-in number (`s4`, `f8`, `b3`) has its width."""
    builtin = _FIXED_BUILTIN.match(type_name)
    if builtin:
        integer, floating, bits = builtin.groups()
        return True, int(integer or floating) * 8 if bits is None else int(bits)
    target, _ = lookup_type(t, type_name)
    return (False, None) if target is None else (True, static_bits(target, as_kaitai=True))


def static_bits(t: TypeDef, seen: frozenset = frozenset(), *, as_kaitai: bool = False) -> int | None:
    """A type's size in bits when the schema fixes it: the sum of its seq fields' fixed sizes;
    None when any of them depends on the data. `as_kaitai`: the size Kaitai's `sizeof<>` and
    `_sizeof` give (`field_static_bits`)."""
    if t.name in seen:
        return None
    total = 0
    for f in t.seq:
        bits = field_static_bits(f, seen | {t.name}, as_kaitai=as_kaitai)
        if bits is None:
            return None
        total += bits
    return total


def field_static_bits(f: Field, seen: frozenset = frozenset(), *, as_kaitai: bool = False) -> int | None:
    """A field's size in bits when the schema fixes it, else None. A `size` fixes it whatever
    ends the value inside (a terminator, padding). `as_kaitai`: the size Kaitai's compiler gives
    it for `sizeof<>` and `_sizeof` (`CalculateSeqSizes`), which counts a conditional field as
    if it were always there: a size, not a place."""
    if f.if_expr is not None and not as_kaitai:
        return None
    if f.repeat in ("eos", "until") or f.size_eos:
        return None
    count = 1
    if f.repeat == "expr":
        if not isinstance(f.repeat_expr, E.Num):
            return None
        count = f.repeat_expr.value
    if f.size is not None:
        return count * f.size.value * 8 if isinstance(f.size, E.Num) else None
    if f.terminator is not None:
        return None
    if f.contents is not None:
        return count * len(f.contents) * 8
    ref = f.type
    if ref.kind in ("int", "float"):
        return count * ref.size * 8
    if ref.kind == "bits":
        return count * ref.size
    if ref.kind == "user" and not ref.user.primitive:
        inner = static_bits(ref.user, seen, as_kaitai=as_kaitai)
        return None if inner is None else count * inner
    return None


def field_sites(f: Field) -> list[tuple[str, object, object]]:
    """Every expression of a field with its YAML path and the type Kaitai wants of it: "bool",
    "int", ("valid", kind) compared with the element, "case" compared with the switch-on value,
    ("arg", type, index) passed as a param, or None."""
    sites = [(join_ypath(f.ypath, "if"), f.if_expr, "bool"), (join_ypath(f.ypath, "size"), f.size, "int"),
             (join_ypath(f.ypath, "repeat-expr"), f.repeat_expr, "int"), (join_ypath(f.ypath, "repeat-until"), f.repeat_until, "bool")]
    for kind, rule in (f.valid or {}).items():
        if kind == "any-of":
            sites += [(join_ypath(f.ypath, f"valid.any-of[{i}]"), r, ("valid", kind)) for i, r in enumerate(rule)]
        elif kind != "in-enum":
            sites.append((join_ypath(f.ypath, f"valid.{kind}"), rule, "bool" if kind == "expr" else ("valid", kind)))
    if f.type.kind == "switch":
        sites.append((join_ypath(f.ypath, "type.switch-on"), f.type.switch_on, None))
        sites += [(join_ypath(f.ypath, f"type.cases.{text}"), key, "case")
                  for (key, _), text in zip(f.type.cases, f.type.case_texts) if key is not None]
    for ref in [f.type, *(c for _, c in f.type.cases)]:
        sites += [(join_ypath(f.ypath, "type"), a, ("arg", ref.user, i)) for i, a in enumerate(ref.args)]
    sites += [(join_ypath(f.ypath, "process"), a, None) for a in (f.process[1] if f.process else ())]
    sites += [(join_ypath(f.ypath, "parent"), f.parent, None), (f.ypath, f.default, None), (f.ypath, f.count_of, None)]
    return [(ypath, e, want) for ypath, e, want in sites if e is not None]


def type_sites(t: TypeDef) -> list[tuple[str, object, object, Field | None]]:
    """Every expression of a type: (YAML path, expression, wanted type, the field it belongs to).
    A wanted type is one of `field_sites`', or "str" (a `to-string`)."""
    sites = [(*site, f) for f in t.seq for site in field_sites(f)]
    if t.to_string is not None:
        sites.append((join_ypath(t.ypath, "to-string"), t.to_string, "str", None))
    for inst in t.instances:
        sites += [(join_ypath(inst.ypath, key), e, want, None) for key, e, want in
                  (("value", inst.value, None), ("pos", inst.pos, "int"), ("io", inst.io, None),
                   ("if", inst.if_expr, "bool"), ("enum", inst.value if inst.enum else None, "int")) if e is not None]
        if inst.field is not None:
            sites += [(*site, inst.field) for site in field_sites(inst.field)]
    return sites
