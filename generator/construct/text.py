"""How the construct modules' source is laid out: comments, calls of many entries, imports.

The modules are not run through a formatter (they are construct definitions, short lines of
`"name" / construct,`), so what they look like is decided here.
"""

from __future__ import annotations

import textwrap

#: The width the modules' lines are wrapped to.
WIDTH = 100


def comment(text: str, indent: str) -> list[str]:
    """`text` as comment lines, wrapped, each paragraph apart."""
    lines = []
    for para in text.strip().splitlines() or [""]:
        wrapped = textwrap.wrap(para, WIDTH - len(indent) - 2) or [""]
        lines += [f"{indent}# {w}".rstrip() for w in wrapped]
    return lines


def call(name: str, entries: list[str]) -> str:
    """A call of `name` with one entry a line (each already ending in a comma)."""
    if not entries:
        return f"{name}()"
    body = "\n".join(textwrap.indent(e, "    ") for e in entries)
    return f"{name}(\n{body}\n)"


def indent_rest(text: str, prefix: str) -> str:
    """`text` with every line but the first indented (the first follows code already written)."""
    first, *rest = text.split("\n")
    return "\n".join([first, *(prefix + line if line else line for line in rest)])


def docstring_body(text: str, indent: str) -> str:
    """A docstring's text, its lines after the first indented."""
    return textwrap.indent(text.strip(), indent).lstrip()


def import_list(names: list[str]) -> str:
    """The names of a `from construct import ...`, in parentheses over lines when they are many."""
    text = ", ".join(names)
    if len(text) < WIDTH - 25:
        return text
    lines, line = [], ""
    for n in names:
        if len(line) + len(n) + 2 > WIDTH - 4:
            lines.append(line.rstrip())
            line = ""
        line += n + ", "
    lines.append(line.rstrip())
    return "(\n" + "\n".join("    " + ln for ln in lines) + "\n)"


def pascal(name: str) -> str:
    """`lower_snake` as `PascalCase`, a class name."""
    return "".join(p.capitalize() for p in name.split("_"))
