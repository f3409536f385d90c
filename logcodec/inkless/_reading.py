"""What both document forms of Inkless metadata (the seed's and the shipped rows) check a value with:
integer ranges, and the one error a bad document raises (`invalid_value`, at the value's path)."""

from __future__ import annotations

from logcodec.runtime.errors import DecodeError

S32 = (-(1 << 31), (1 << 31) - 1)
S64 = (-(1 << 63), (1 << 63) - 1)


def bad(path: str, detail: str):
    raise DecodeError("invalid_value", detail, None, path)


def kind_of(v) -> str:
    return {dict: "a mapping", list: "a list", str: "text", bool: "a boolean", type(None): "null",
            float: "a fraction"}.get(type(v), type(v).__name__)


def checked_int(v, path: str, lo: int, hi: int) -> int:
    if type(v) is not int:  # bool is an int in Python, and not a number here
        bad(path, f"must be an integer, not {kind_of(v)} ({v!r})")
    if not lo <= v <= hi:
        bad(path, f"{v} is out of range [{lo}, {hi}]")
    return v
