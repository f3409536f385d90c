"""What a Kafka message spec says, read (`reading.py`): the IR of Kafka's JSON message language,
before it is turned into logcodec's model.

The language is Kafka's own (its generator's `MessageSpec`, `FieldSpec`, `StructSpec`): a message
(a request or response body, a header, or a data record) has `validVersions`, `flexibleVersions`
and fields; a field has a type, the versions it is in, the versions in which it may be null or is
tagged (and its tag), a default, and, for a struct or an array of structs, its own fields. Types
are written as Kafka writes them (`int32`, `[]string`, `[]FetchTopic`); `FieldType` reads one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

#: The types that are no struct, as the language names them (Kafka's `FieldType`).
PRIMITIVES = frozenset({"bool", "int8", "int16", "uint16", "int32", "uint32", "int64", "float64", "string",
                        "uuid", "bytes", "records"})
#: The primitive types a field may make nullable (`nullableVersions`), besides arrays and structs.
NULLABLE_PRIMITIVES = frozenset({"string", "bytes", "records"})
#: A struct's name, as the language writes one (and Kafka's generator makes a class of).
STRUCT_NAME = re.compile(r"[A-Z][A-Za-z0-9]*\Z")
#: A field's name, as Kafka's generator takes one (`FieldSpec.VALID_FIELD_NAMES`: `timeoutMs` too).
FIELD_NAME = re.compile(r"[A-Za-z][A-Za-z0-9]*\Z")
_RANGE = re.compile(r"(0|[1-9][0-9]{0,4})(?:(\+)|-(0|[1-9][0-9]{0,4}))?\Z")


@dataclass(frozen=True)
class Versions:
    """A range of versions, as the language writes one: `3+` (3 and up: `high` None), `1-3`,
    `2` (that one alone), or `none` (no version: `low` None)."""

    low: int | None
    high: int | None = None

    @classmethod
    def parse(cls, text: str) -> Versions | None:
        """The range `text` writes, or None when it is none of the forms above (a range whose
        end comes before its start included)."""
        if text == "none":
            return NONE
        m = _RANGE.match(text)
        if m is None:
            return None
        low = int(m[1])
        if m[2]:
            return cls(low)
        high = int(m[3]) if m[3] is not None else low
        return cls(low, high) if high >= low else None

    @property
    def empty(self) -> bool:
        return self.low is None

    def __contains__(self, version: int) -> bool:
        return self.low is not None and self.low <= version and (self.high is None or version <= self.high)

    def within(self, other: Versions) -> bool:
        """Whether every version of this range is one of `other`'s."""
        if self.empty:
            return True
        if other.empty or self.low < other.low:
            return False
        return other.high is None or (self.high is not None and self.high <= other.high)

    def __str__(self) -> str:
        if self.low is None:
            return "none"
        if self.high is None:
            return f"{self.low}+"
        return str(self.low) if self.high == self.low else f"{self.low}-{self.high}"


NONE = Versions(None)


@dataclass(frozen=True)
class FieldType:
    """A field's type as written: a primitive, a struct (by name), or an array of either."""

    text: str

    @property
    def is_array(self) -> bool:
        return self.text.startswith("[]")

    @property
    def element(self) -> str:
        """The type of an array's elements; the type itself for anything else."""
        return self.text[2:] if self.is_array else self.text

    @property
    def is_struct(self) -> bool:
        """Whether the type (or its elements) is a struct."""
        return self.element not in PRIMITIVES

    @property
    def may_be_null(self) -> bool:
        """Whether the language lets a field of this type be null in some versions."""
        return self.is_array or self.is_struct or self.text in NULLABLE_PRIMITIVES

    def well_formed(self) -> bool:
        element = self.element
        return element in PRIMITIVES or bool(STRUCT_NAME.match(element))


@dataclass
class FieldSpec:
    """One field of a message or struct (`path`: its JSON path in the file, for problems)."""

    name: str
    type: FieldType
    versions: Versions
    path: str
    about: str = ""
    nullable_versions: Versions = NONE
    tagged_versions: Versions = NONE
    tag: int | None = None
    default: str | int | bool | None = None
    ignorable: bool = False
    map_key: bool = False
    entity_type: str | None = None
    zero_copy: bool = False
    flexible_versions: Versions | None = None  # a field's own (`ClientId` of the request header: none)
    fields: list[FieldSpec] = field(default_factory=list)  # a struct's, or an array of structs'


@dataclass
class StructSpec:
    """A struct the message's fields share (`commonStructs`)."""

    name: str
    versions: Versions
    path: str
    fields: list[FieldSpec] = field(default_factory=list)


@dataclass
class MessageSpec:
    """One file of the language: a request or response body, a header, or a data record."""

    file: str
    name: str
    kind: str  # request, response, header or data
    valid_versions: Versions
    flexible_versions: Versions
    fields: list[FieldSpec]
    api_key: int | None = None
    deprecated_versions: Versions = NONE
    latest_version_unstable: bool = False
    listeners: list[str] = field(default_factory=list)
    common_structs: list[StructSpec] = field(default_factory=list)

    @property
    def versions(self) -> list[int]:
        """Every version the message has, in order."""
        v = self.valid_versions
        return [] if v.empty else list(range(v.low, (v.high if v.high is not None else v.low) + 1))
