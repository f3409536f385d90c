"""The one error family of logcodec.

Every decoder and encoder raises only these. An error names its ``kind`` (one of
:data:`KINDS`, a language-neutral list that the conformance harness compares
across implementations), the byte ``offset`` where the problem starts and the
field ``path`` (``record_batch_v2.records[3].headers[0].key``).
"""

from __future__ import annotations

from typing import Self

#: The documented error kinds, with what each means. The list is closed: a new
#: kind is a change to the conformance protocol, not a local decision.
KINDS: dict[str, str] = {
    "truncated": "the input ends before the field does",
    "invalid_length": "a declared length or count is negative, or runs past the end of its enclosing field",
    "checksum_mismatch": "a stored checksum differs from the one computed over its range",
    "invalid_value": "a field breaks a rule of the format (a magic number, a `valid` constraint, an over-long varint)",
    "unknown_codec": "a compression codec id that the format does not define",
    "corrupt_compressed": "compressed data that its codec cannot decompress",
    "limit_exceeded": "a size or depth above the configured limits, refused before allocation",
    "trailing_bytes": "bytes left over after a structure that should fill its space exactly",
}


class LogcodecError(ValueError):
    """Base of the family: a problem with the bytes or the value, never a bug report."""

    __slots__ = ("kind", "offset", "path", "detail")

    def __init__(self, kind: str, detail: str, offset: int | None = None, path: str = "") -> None:
        if kind not in KINDS:
            raise AssertionError(f"unknown error kind {kind!r}")
        self.kind = kind
        self.detail = detail
        self.offset = offset
        self.path = path
        super().__init__(kind, detail, offset, path)

    def within(self, component: str) -> Self:
        """Prefix ``component`` to the field path as the error travels up the type tree (an
        empty one, a nested value's name in a lazy read, prefixes nothing)."""
        if not component:
            return self
        if not self.path:
            self.path = component
        elif self.path.startswith("["):
            self.path = component + self.path
        else:
            self.path = f"{component}.{self.path}"
        return self

    def to_json(self) -> dict:
        return {"kind": self.kind, "offset": self.offset, "path": self.path, "detail": self.detail}

    def __str__(self) -> str:
        where = f" at offset {self.offset}" if self.offset is not None else ""
        field = f" in {self.path}" if self.path else ""
        return f"{self.kind}{where}{field}: {self.detail}"

    def __reduce__(self):  # survives pickling (multiprocessing, Spark executors)
        return (self.__class__, (self.kind, self.detail, self.offset, self.path))


class DecodeError(LogcodecError):
    """The bytes are not a valid instance of the format."""


class EncodeError(LogcodecError):
    """The value cannot be encoded: a field out of range, or derived fields that disagree."""


class UnsupportedRead(TypeError):
    """A format does not offer the read asked for (`decode_iter` of a format whose root holds no
    list to hand out one element at a time, say): a mistake in the call, not in the bytes, and so
    outside the `LogcodecError` family. Every generated module has every read; the ones its
    format cannot offer raise this, naming the reads it can (the module's `READS`)."""
