"""The hand-written runtime that generated codecs import: errors, limits,
checksums, varints and compression. Small named primitives, no format logic
beyond the codec tables of each family."""

from logcodec.runtime.errors import KINDS, DecodeError, EncodeError, LogcodecError
from logcodec.runtime.limits import DEFAULT_LIMITS, Limits

__all__ = ["KINDS", "DecodeError", "EncodeError", "LogcodecError", "Limits", "DEFAULT_LIMITS"]
