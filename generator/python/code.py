"""Generated Python as it is written: indented blocks of statements (`Lines`), the declarations a
function's body uses, docstrings from a schema's `doc`, and the layout of a whole module (`tidy`)."""

from __future__ import annotations

import re
import subprocess
import textwrap
from contextlib import contextmanager

from ruff.__main__ import find_ruff_bin

#: What an expression over decoded values (an index into a list, a division, a conversion) may
#: raise on bad input in Python's terms: a decoder turns these into a DecodeError, and a
#: written-out element that has such expressions is read again by its decoder on them.
EXPRESSION_ERRORS = "IndexError, KeyError, ZeroDivisionError, TypeError, OverflowError, ValueError"



class Lines:
    """An indented block of generated source."""

    def __init__(self, indent: int = 1, interpreted: bool = False, unbounded: bool = False) -> None:
        self.lines: list[str] = []
        self.indent = indent
        self.interpreted = interpreted  # only ever run interpreted (inside `if _INTERPRETED:`)
        # A written-out element's code (`WrittenOut.read_then_checked`): its reads of a few
        # bytes are not checked against `end` one by one, but once after the element, which
        # its type's decoder reads again, checking each, when that or anything else fails.
        self.unbounded = unbounded

    def __call__(self, line: str) -> None:
        self.lines.append("    " * self.indent + line)

    @contextmanager
    def block(self, header: str):
        self(header)
        self.indent += 1
        yield
        self.indent -= 1

    def text(self) -> str:
        return "\n".join(self.lines)

    def bound(self, check: str) -> None:
        """A statement that checks that a read of a few bytes ends before `end` (none where
        unbounded)."""
        if not self.unbounded:
            self(check)

    def before_end(self, test: str) -> str:
        """`test` as a condition's first term, checking that a byte it reads lies before `end`
        (nothing where unbounded)."""
        return "" if self.unbounded else f"{test} and "


def factory_call(default: str) -> str:
    """`default_factory=list` -> `list()`; `default_factory=lambda: X()` -> `X()`."""
    factory = default.removeprefix("default_factory=")
    return factory.removeprefix("lambda: ") if factory.startswith("lambda: ") else f"{factory}()"


def tidy(source: str) -> str:
    """The module as a careful hand would lay it out: `ruff format` (black's style, in a few
    milliseconds; its version pinned by the project so that `logcodec generate --check` is
    stable), 120 columns as the rest of the code base, no configuration file consulted."""
    done = subprocess.run([find_ruff_bin(), "format", "--isolated", "--line-length", "120", "--target-version",
                           "py311", "-"], input=source, capture_output=True, text=True, check=False)
    if done.returncode != 0:  # the emitter wrote what is not Python: a generator bug, shown with the source
        raise RuntimeError(f"ruff format refused a generated module: {done.stderr.strip()}\n{source}")
    return done.stdout


def indented(text: str) -> str:
    """A function body's lines one level deeper (inside a `try:`)."""
    return "\n".join("    " + line if line else line for line in text.split("\n"))


def docstring(text: str, indent: int) -> str:
    """The docstring of a schema's `doc`; nothing when it has none (a user's schema needs none)."""
    text = text.strip().replace('"""', "'''").replace("\\", "\\\\")
    if not text:
        return ""
    pad = "    " * indent
    if "\n" not in text and len(text) < 90 and not text.endswith('"'):  # a quote would end the docstring
        return f'{pad}"""{text}"""'
    body = "\n".join(textwrap.fill(p, 88 - len(pad), initial_indent=pad, subsequent_indent=pad) if p.strip() else ""
                     for p in text.split("\n"))
    return f'{pad}"""\n{body}\n{pad}"""'


def used_only(decls: list[str], body: str) -> list[str]:
    """The declarations of locals (`    name: type`, `    name = value`) that the body uses."""
    words = set(re.findall(r"(?<![.\w])[A-Za-z_][A-Za-z0-9_]*", body))  # not an attribute (`exc.start`)
    return [d for d in decls if re.match(r"\s*([A-Za-z_][A-Za-z0-9_]*)", d).group(1) in words]
