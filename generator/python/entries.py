"""The entry points of a module whose schema lays framed values end to end (`model.Model.entry`):
the size of the entry at a position, from its header alone, and the entry boundaries of a buffer.
Logs (Kafka segments, TANK segments, Inkless objects) are walked with them, so that no
hand-written code reads a length field at an offset of its own."""

from __future__ import annotations

from ..model import frame, primitive
from ..schema import TypeDef

_CODES = {(1, False): "B", (1, True): "b", (2, False): "H", (2, True): "h",
          (4, False): "I", (4, True): "i", (8, False): "Q", (8, True): "q"}


def entry_source(entry: TypeDef | None) -> str:
    """Python source of `ENTRY`, `entry_size` and `entry_bounds`; empty when nothing is framed."""
    if entry is None:
        return ""
    fr = frame(entry)
    length, at = fr.length, fr.at
    prim = primitive(length.type)
    if prim is not None:
        header = at + prim.max_bytes
        read = [f"    n, after = _rt.uvarint(data, pos + {at}, end, {prim.max_bytes}, {length.id!r}, {prim.bits})",
                "    size = after - pos + n"]
        if prim.zigzag:
            read.insert(1, "    n = (n >> 1) ^ -(n & 1)")
    else:
        width = length.type.size
        header = at + width
        fmt = (">" if length.type.endian == "be" else "<") + _CODES[(width, length.type.signed)]
        read = [f"    if pos + {header} > end:",
                f"        raise _rt.short(data, pos, end, {header}, {length.id!r})",
                f"    (n,) = _struct.unpack_from({fmt!r}, data, pos + {at})",
                f"    size = {header} + n"]
    return "\n".join([
        "",
        "",
        f"#: The type of the values laid end to end in a log of this format; `entry_size` reads one's",
        f"#: size from its first {header} bytes at the most (`ENTRY_HEADER`).",
        f"ENTRY = {entry.name!r}",
        f"ENTRY_HEADER = {header}",
        "",
        "",
        "def entry_size(data: Any, pos: int = 0, end: int | None = None) -> int:",
        f'    """The bytes the {entry.name} at data[pos:end] takes, read from its header alone (its',
        f"    `{length.id}`), whether or not they are all there. DecodeError: `truncated` when the",
        f"    header is cut short, `invalid_length` when it declares less than the {fr.least} bytes",
        f'    the smallest {entry.name} holds after it."""',
        "    end = len(data) if end is None else end",
        *read,
        f"    if n < {fr.least}:",
        f'        raise _rt.DecodeError("invalid_length", f"declares {{n}} bytes, the smallest {entry.name} holds '
        f'{fr.least}", pos + {at}, {length.id!r})',
        "    return size",
        "",
        "",
        "def entry_bounds(data: Any, pos: int = 0, end: int | None = None) -> tuple[list[tuple[int, int]], int]:",
        f'    """(start, end) of each whole {entry.name} from `pos` on, by their headers alone, and where',
        "    the walk stopped: at `end`, or at an entry whose header is cut short, declares too few",
        '    bytes or runs past `end` (`entry_size` there says which)."""',
        "    end = len(data) if end is None else end",
        "    bounds: list[tuple[int, int]] = []",
        "    while pos < end:",
        "        try:",
        "            size = entry_size(data, pos, end)",
        "        except _rt.DecodeError:",
        "            break",
        "        if pos + size > end:",
        "            break",
        "        bounds.append((pos, pos + size))",
        "        pos += size",
        "    return bounds, pos",
    ])
