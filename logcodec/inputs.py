"""Input given as text: hex digits, as the command line's `--hex` and the docs server's `"hex"`
take them, with one message for each way it can be wrong.

Hex text may hold whitespace anywhere (a dump's line breaks and spaces) and start with `0x`.
"""

from __future__ import annotations

import base64
import binascii
import re

_HEX = re.compile(r"[0-9a-fA-F]*")
_SPACE = re.compile(r"\s+")


class InputError(ValueError):
    """Input that is not what it was given as (not hex, not text): the message says what is wrong
    and where."""


class InputTooLarge(InputError):
    """Input over the size a reader takes."""


def hex_text(data: bytes, what: str = "the input") -> str:
    """The text of bytes given as hex: ASCII, or an error naming the first byte that is not."""
    try:
        return data.decode("ascii")
    except UnicodeDecodeError as exc:
        raise InputError(f"{what} is not hex text: byte {data[exc.start]:#04x} at offset {exc.start} is not "
                         "ASCII (binary input is read as it is, without --hex)") from None


def hex_bytes(text: str, what: str = "the input") -> bytes:
    """The bytes that hex text spells, or an error naming the first character that is not a hex
    digit (its place in the text as given: line and column), or an odd count of digits."""
    digits = _SPACE.sub("", text)
    prefixed = digits[:2].lower() == "0x"
    if prefixed:
        digits = digits[2:]
    if not digits:
        raise InputError(f"{what} is empty: no hex digits")
    if _HEX.fullmatch(digits) is None:
        raise InputError(f"{what} is not hex: {_first_not_hex(text, prefixed)} (hex digits are 0-9 and a-f)")
    if len(digits) % 2:
        raise InputError(f"{what} has an odd number of hex digits ({len(digits)}): each byte takes two")
    return bytes.fromhex(digits)


def _first_not_hex(text: str, prefixed: bool) -> str:
    """Where the first character of `text` that is neither a hex digit nor whitespace is."""
    start = text.lower().index("0x") + 2 if prefixed else 0
    at = next(i for i in range(start, len(text)) if not (text[i].isspace() or _HEX.fullmatch(text[i])))
    line = text.count("\n", 0, at) + 1
    column = at - (text.rfind("\n", 0, at) + 1) + 1
    return f"{text[at]!r} at line {line}, column {column}" if "\n" in text.rstrip() else \
        f"{text[at]!r} at character {column}"


def hex_digits(text: str) -> int:
    """How many bytes hex text spells at most (its characters but whitespace and `0x`, halved), to
    refuse an input over a limit before it is converted."""
    text = _SPACE.sub("", text)
    return (len(text) - (2 if text[:2].lower() == "0x" else 0)) // 2


def spec_bytes(body: dict, max_bytes: int, what: str = "the input") -> bytes:
    """The bytes a JSON request gives as `{"hex": TEXT}` or `{"base64": TEXT}` (the docs server's
    inputs), or an error saying what is wrong (`what`: the input, the metadata); InputTooLarge
    over `max_bytes`, judged before the text is converted."""
    if "hex" in body and "base64" in body:
        raise InputError("give either \"hex\" or \"base64\", not both")
    if "hex" in body:
        text = body["hex"]
        if not isinstance(text, str):
            raise InputError("\"hex\" must be a string of hex digits")
        if not text.strip():
            raise InputError(f"{what} is empty: paste hex or base64, or drop a file")
        if hex_digits(text) > max_bytes:
            raise InputTooLarge(f"{what} is {hex_digits(text):,} bytes; the limit is {max_bytes:,}")
        return hex_bytes(text, what)
    if "base64" in body:
        text = body["base64"]
        if not isinstance(text, str):
            raise InputError("\"base64\" must be a string")
        text = _SPACE.sub("", text)
        if not text:
            raise InputError(f"{what} is empty: paste hex or base64, or drop a file")
        if len(text) * 3 // 4 > max_bytes:
            raise InputTooLarge(f"{what} is about {len(text) * 3 // 4:,} bytes; the limit is {max_bytes:,}")
        try:
            return base64.b64decode(text + "=" * (-len(text) % 4), altchars=b"-_" if "-" in text or "_" in text else None,
                                    validate=True)
        except (binascii.Error, ValueError):
            raise InputError(f"{what} is neither hex nor base64: base64 uses A-Z, a-z, 0-9, + and / (or - and _), and = at the end") from None
    raise InputError("the body needs \"hex\" (or \"base64\") with the input bytes")
