"""The entry points of a module whose schema lays framed values end to end (`model.Model.entry`):
the size of the entry at a position, from its header alone, and the entry boundaries of a buffer.
Logs (Kafka segments, TANK segments, Inkless objects) are walked with them, so that no
hand-written code reads a length field at an offset of its own."""

from __future__ import annotations

from .. import expr as E
from ..layout import STRUCT_CODES, primitive
from ..schema import TypeDef, field_static_bits
from ..walk import frame


def entry_source(entry: TypeDef | None) -> str:
    """Python source of `ENTRY`, `ENTRY_HEADER`, `entry_content`, `entry_size` and `entry_bounds`;
    empty when nothing is framed."""
    if entry is None:
        return ""
    fr = frame(entry)
    length, at = fr.length, fr.at
    prim = primitive(length.type)
    if prim is not None:
        header = at + prim.max_bytes
        read = [f"    n, start = _rt.uvarint(data, {_at(at)}, end, {prim.max_bytes}, {length.id!r}, {prim.bits})"]
        if prim.zigzag:
            read.append("    n = (n >> 1) ^ -(n & 1)")
        if prim.bias:
            read.append(f"    n -= {prim.bias}")
    else:
        width = length.type.size
        header = at + width
        fmt = (">" if length.type.endian == "be" else "<") + STRUCT_CODES[(width, length.type.signed)]
        read = [f"    if pos + {header} > end:",
                f"        raise _rt.short(data, pos, end, {header}, {length.id!r})",
                f"    (n,) = _struct.unpack_from({fmt!r}, data, {_at(at)})",
                f"    start = pos + {header}"]
    return "\n".join([
        "",
        "",
        "#: The type of the values laid end to end in a log of this format; `entry_size` reads one's",
        f"#: size from its first {header} bytes at the most (`ENTRY_HEADER`).",
        f"ENTRY = {entry.name!r}",
        f"ENTRY_HEADER = {header}",
        "",
        "",
        "def entry_content(data: Any, pos: int = 0, end: int | None = None) -> tuple[int, int]:",
        f'    """Where what the `{length.id}` of the {entry.name} at data[pos:end] measures lies, (start,',
        "    end) in `data`, as its header says (whether or not the bytes are there, and however few it",
        '    declares). DecodeError (`truncated`) when the header is cut short."""',
        "    end = len(data) if end is None else end",
        *read,
        "    return start, start + n",
        "",
        "",
        "def entry_size(data: Any, pos: int = 0, end: int | None = None) -> int:",
        f'    """The bytes the {entry.name} at data[pos:end] takes, read from its header alone (its',
        f"    `{length.id}`), whether or not they are all there. DecodeError: `truncated` when the",
        f"    header is cut short, `invalid_length` when it declares fewer bytes ({fr.least}) than",
        f'    the smallest {entry.name} holds after it."""',
        "    start, stop = entry_content(data, pos, end)",
        f"    if stop - start < {fr.least}:",
        f'        raise _rt.DecodeError("invalid_length", f"declares {{stop - start}} bytes, the smallest {entry.name} '
        f'holds {fr.least}", {_at(at)}, {length.id!r})',
        "    return stop - pos",
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


def _at(at: int) -> str:
    """Where a fixed offset lies in `data`: `pos`, or `pos + N`."""
    return f"pos + {at}" if at else "pos"


def checksum_source(entry: TypeDef | None) -> str:
    """Python source of `checksums_hold`: every `-lc-checksum` of an entry checked against its
    bytes without decoding it, where the schema places the checksums and what they cover at fixed
    offsets (a switch of entry types by a selector at a fixed offset included); empty otherwise."""
    plan = _checks(entry, 0) if entry is not None and frame(entry) is not None else None
    if not plan:
        return ""
    lines = [
        "",
        "",
        "def checksums_hold(data: Any, pos: int = 0) -> bool | None:",
        f'    """Whether the stored checksums of the {entry.name} at data[pos:] match the bytes they cover,',
        "    read at their places without decoding the entry; None when the entry is cut short",
        '    (`entry_size` says it runs past the end) or its header cannot be read."""',
        "    try:",
        "        end = pos + entry_size(data, pos)",
        "    except _rt.DecodeError:",
        "        return None",
        "    if end > len(data):",
        "        return None",
        *_check_lines(plan, "    "),
        "",
        "",
        "def checksums_filled(data: Any, pos: int = 0) -> bytes:",
        f'    """The {entry.name} at data[pos:] with every stored checksum computed anew from the bytes',
        "    it covers and written at its place (after patching what a checksum covers); DecodeError",
        '    when the entry is cut short."""',
        "    size = entry_size(data, pos)",
        "    if pos + size > len(data):",
        "        raise _rt.short(data, pos, len(data), size, '')",
        "    out = bytearray(data[pos:pos + size])",
        "    pos, end = 0, size",
        *_fill_lines(plan, "    "),
        "    return bytes(out)",
    ]
    return "\n".join(lines)


def _fill_lines(plan, pad: str) -> list[str]:
    """The writes of a plan (`_checks`): each checksum computed over `out` and packed at its place."""
    if plan and plan[0][0] == "switch":
        _, at, fmt, cases = plan[0]
        lines = [f"{pad}(selector,) = _struct.unpack_from({fmt!r}, out, {_at(at)})"]
        groups: dict = {}
        for key, checks in cases:
            if key is not None:
                groups.setdefault(repr(checks), (checks, []))[1].append(key)
        for k, (checks, keys) in enumerate(groups.values()):
            lines.append(f"{pad}{'if' if k == 0 else 'elif'} selector in {tuple(keys)!r}:")
            lines += _fill_lines(checks, pad + "    ") or [f"{pad}    pass"]
        default = next((checks for key, checks in cases if key is None), None)
        if default is not None:
            body = _fill_lines(default, pad + ("    " if groups else "")) or [f"{pad}    pass"]
            lines += [f"{pad}else:", *body] if groups else body
        return lines
    return [f"{pad}_struct.pack_into({fmt!r}, out, {_at(at)}, _rt.CHECKSUMS[{algorithm!r}](memoryview(out)[{_at(start)}:end]))"
            for at, fmt, algorithm, start in plan]


def _checks(t: TypeDef, base: int):
    """What `checksums_hold` checks in a value of `t` at `base`: a list of (stored at, struct
    format, algorithm, covered from) for checksums running to the end of the value, or
    [("switch", selector at, its format, [(key or None, checks)])] for an unwrapped switch; None
    when some checksum is not at a fixed place."""
    if t.unwrap and len(t.seq) == 1 and t.seq[0].type.kind == "switch":
        return _switch_checks(t, base)
    own, nested, offsets, at = [], [], {}, base
    for i, f in enumerate(t.seq):
        offsets[f.id] = at
        if f.checksum is not None:
            own.append(f)
        if i == len(t.seq) - 1 and f.type.kind == "user" and not f.type.user.primitive and not f.repeat \
                and f.if_expr is None:
            nested = _checks(f.type.user, at)  # the last field ends where the value ends
            if nested is None:
                return None
            break
        bits = field_static_bits(f)
        if bits is None or bits % 8 or f.if_expr is not None:
            break
        at += bits // 8
    plan = []
    for f in own:
        ck = f.checksum
        if ck.get("from") not in offsets or ck.get("to") not in (None, t.seq[-1].id) or f.type.kind != "int":
            return None
        fmt = (">" if f.type.endian == "be" else "<") + STRUCT_CODES[(f.type.size, f.type.signed)]
        plan.append((offsets[f.id], fmt, ck["algorithm"], offsets[ck["from"]]))
    return plan + nested


def _switch_checks(t: TypeDef, base: int):
    switch = t.seq[0].type
    on = switch.switch_on
    inst = next((i for i in t.instances if isinstance(on, E.Name) and i.id == on.name), None)
    if inst is None or inst.field is None or inst.field.type.kind != "int":
        return None
    pos = inst.pos  # `_io.pos + N`: the selector N bytes into the value
    if not (isinstance(pos, E.Binary) and pos.op == "+" and pos.left == E.Attr(E.Name("_io"), "pos")
            and isinstance(pos.right, E.Num)):
        return None
    cases = []
    for key, ref in switch.cases:
        if key is not None and not isinstance(key, E.Num):
            return None
        checks = _checks(ref.user, base) if ref.kind == "user" and not ref.user.primitive else None
        if checks is None:
            return None
        cases.append((None if key is None else key.value, checks))
    sel = inst.field.type
    fmt = (">" if sel.endian == "be" else "<") + STRUCT_CODES[(sel.size, sel.signed)]
    return [("switch", base + pos.right.value, fmt, cases)]


def _check_lines(plan, pad: str) -> list[str]:
    """The checks of a plan (`_checks`), each returning False at a mismatch, then the answer."""
    if plan and plan[0][0] == "switch":
        _, at, fmt, cases = plan[0]
        lines = [f"{pad}(selector,) = _struct.unpack_from({fmt!r}, data, pos + {at})"]
        groups: dict = {}  # cases with the same checks, under one test of the selector
        for key, checks in cases:
            if key is not None:
                groups.setdefault(repr(checks), (checks, []))[1].append(key)
        for k, (checks, keys) in enumerate(groups.values()):
            lines.append(f"{pad}{'if' if k == 0 else 'elif'} selector in {tuple(keys)!r}:")
            lines += _check_lines(checks, pad + "    ")
        default = next((checks for key, checks in cases if key is None), None)
        if default is None:
            lines += [f"{pad}return None  # a selector no case takes: the entry does not decode"]
        elif groups:
            lines += [f"{pad}else:", *_check_lines(default, pad + "    ")]
        else:
            lines += _check_lines(default, pad)
        return lines
    lines = []
    for at, fmt, algorithm, start in plan:
        lines.append(f"{pad}(stored,) = _struct.unpack_from({fmt!r}, data, pos + {at})")
        lines.append(f"{pad}if stored != _rt.CHECKSUMS[{algorithm!r}](memoryview(data)[pos + {start}:end]):")
        lines.append(f"{pad}    return False")
    return lines + [f"{pad}return True"]
