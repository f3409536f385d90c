"""Generated Python as it is written: indented blocks of statements (`Lines`) that record what
they use as they are written (`Uses`: the module's declarations and the function's locals that
the code needs), docstrings from a schema's `doc`, and the layout of a whole module (`tidy`)."""

from __future__ import annotations

import subprocess
import textwrap
from contextlib import contextmanager
from dataclasses import dataclass

from ruff.__main__ import find_ruff_bin

from logcodec.runtime.primitives import CHECKSUMS

#: What an expression over decoded values (an index into a list, a division, a conversion) may
#: raise on bad input in Python's terms: a decoder turns these into a DecodeError, and a
#: written-out element that has such expressions is read again by its decoder on them.
EXPRESSION_ERRORS = "IndexError, KeyError, ZeroDivisionError, TypeError, OverflowError, ValueError"


@dataclass(frozen=True)
class Build:
    """Which build of a codec module the back end writes: the module itself, which runs as Python
    source (`INTERPRETED`), or the source that mypyc compiles into its compiled build
    (`COMPILED`, `<format>_compiled.py` beside the module; `logcodec accelerate` and a wheel
    build compile it, and the module loads the build). Where the two run different code faster
    (the interpreter reads a table faster than it computes, compiled code the other way round;
    list elements written out in their loop, value objects made by `_new`, the fast encoders'
    loops), each build's code is its own: neither holds the other's, nor a test of which it is.

    Whether a schema is one of ours or a user's (`Schema.strict`: the house rules, Kaitai's
    objects) is not part of it: that is the schema's, which the model reads, and every build of
    a module follows it."""

    compiled: bool


INTERPRETED = Build(compiled=False)
COMPILED = Build(compiled=True)


#: The runtime's tables a module declares where its code reads one (`Lines.table`), with the
#: type of their items, in the order the module declares them.
TABLES = {"BYTE": "bytes", "VARINT": "bytes", "ZIGZAG": "bytes", "UNZIGZAG": "int", "UNZIGZAG2": "Any"}
#: The helpers a module defines where its code calls one (`Lines.helper`; `templates/helpers.py.j2`).
HELPERS = ("uvarint", "uvarint_bytes", "check_bits", "checked_bytes", "read_term", "cut", "KStream")
#: The places in a call's budget (`lim`, `runtime.limits`) a module names where its code reads one
#: (`Lines.budget`).
BUDGET_ITEMS = ("ELEMENTS_RESERVED", "TUPLES", "LAZY")
#: What a module imports from `runtime.limits` where its code calls it (`Lines.limits_call`).
LIMITS_CALLS = ("take_elements", "elements_left")


class Uses:
    """What code needs declared, recorded as it is written (`Lines`): the module-level names it
    refers to, as (kind, name) (`Lines.table`, `helper`, `checksum`...), and the locals of its
    function (`Lines.local`). A module declares, and a function's head, only what is recorded
    here: nothing is found by reading the code back."""

    def __init__(self) -> None:
        self.module: set[tuple[str, str]] = set()
        self.locals: set[str] = set()

    def update(self, other: Uses, rename=None) -> None:
        """Add what `other` records; its locals through `rename` (name -> name) where given."""
        self.module |= other.module
        self.locals |= other.locals if rename is None else {rename(name) for name in other.locals}

    def named(self, kind: str) -> set[str]:
        """The names of one kind that the code uses."""
        return {name for k, name in self.module if k == kind}


class Function:
    """A function of a generated module: its source and what it uses (`Uses`), which the module
    declares for it."""

    def __init__(self, text: str, uses: Uses) -> None:
        self.text, self.uses = text, uses


class Lines:
    """An indented block of generated source, and what it uses (`uses`).

    The code a module or a function must declare for it is named only through this buffer: a
    table, a helper, a checksum function, an enum's dictionary, a place in the budget, a
    function of the runtime's limits, `_new` and a text table each come from a method that records
    the use as it gives the name, and a local that the function's head may declare is recorded by
    `local` where the code assigns or reads it."""

    def __init__(self, build: Build, indent: int = 1, unbounded: bool = False, pair_table: bool = False) -> None:
        self.lines: list[str] = []
        self.build = build  # the build whose code this is
        self.indent = indent
        # A two-byte zigzag varint is read at both its bytes from the table of every pair
        # (`UNZIGZAG2`): in a written-out element and in the trace variant, code that the
        # generator first wrote for the interpreter alone (`shapes.ZigzagVarint.decode`).
        self.pair_table = pair_table
        # A written-out element's code (`WrittenOut.read_then_checked`): its reads of a few
        # bytes are not checked against `end` one by one, but once after the element, which
        # its type's decoder reads again, checking each, when that or anything else fails.
        self.unbounded = unbounded
        self.uses = Uses()

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

    def include(self, lines: list[str], uses: Uses, rename=None) -> None:
        """Lines written elsewhere (a written-out element's), at this indent, with what they use
        (their locals through `rename`, as their text was renamed)."""
        for line in lines:
            self(line)
        self.uses.update(uses, rename)

    def bound(self, check: str) -> None:
        """A statement that checks that a read of a few bytes ends before `end` (none where
        unbounded)."""
        if not self.unbounded:
            self(check)

    def before_end(self, test: str) -> str:
        """`test` as a condition's first term, checking that a byte it reads lies before `end`
        (nothing where unbounded)."""
        return "" if self.unbounded else f"{test} and "

    # ------------------------------------------------------------ names that are declared for the code

    def local(self, name: str) -> str:
        """The local `name`, recorded as one the code assigns or reads (which the function's head
        declares where it has a declaration for it)."""
        self.uses.locals.add(name)
        return name

    def locals(self, names) -> None:
        """Record that the code assigns or reads these locals (`local`)."""
        self.uses.locals.update(names)

    def _module_name(self, kind: str, name: str, known, code: str) -> str:
        if known is not None and name not in known:
            raise ValueError(f"no {kind} {name!r} is declared by a module")  # an emitter's bug
        self.uses.module.add((kind, name))
        return code

    def table(self, name: str) -> str:
        """The module's copy of the runtime's table `name` (`TABLES`)."""
        return self._module_name("table", name, TABLES, f"_{name}")

    def helper(self, name: str) -> str:
        """The module's helper function `name` (`HELPERS`)."""
        return self._module_name("helper", name, HELPERS, f"_{name}")

    def new_stream(self) -> str:
        """What makes Kaitai's `_io` of a value being read: the runtime's class; in a compiled
        build, the module's native copy of it (`_KStream`), which is made in C where the runtime's
        runs its Python `__init__` (a fifth of the compiled decode of wav's small files)."""
        return self.helper("KStream") if self.build.compiled else "_rt.KStream"

    def checksum(self, algorithm: str) -> str:
        """The module's name of the checksum function of `algorithm` (`runtime.primitives.CHECKSUMS`)."""
        return self._module_name("checksum", algorithm, CHECKSUMS, f"_{algorithm}")

    def enum_by_value(self, enum_class: str) -> str:
        """The module's dictionary of the members of its enum `enum_class` by value."""
        return self._module_name("enum", enum_class, None, f"_{enum_class}_BY_VALUE")

    def enum_constant(self, enum_class: str, member: str) -> str:
        """A member of the module's enum `enum_class` as a constant of the module: a compiled build
        reads it in C, where `Enum.member` is a look-up in the class (the enum is the module's,
        not compiled: a switch over 150 members of code_6502 ran 4x slower by look-ups)."""
        return self._module_name("member", f"{enum_class}.{member}", None, f"_{enum_class}__{member}")

    def budget(self, item: str) -> str:
        """The module's name of a place in the call's budget (`BUDGET_ITEMS`)."""
        return self._module_name("budget", item, BUDGET_ITEMS, f"_{item}")

    def limits_call(self, name: str) -> str:
        """A function of `runtime.limits` (`LIMITS_CALLS`), as the module imports it."""
        return self._module_name("limits", name, LIMITS_CALLS, f"_{name}")

    def new_object(self) -> str:
        """`_new`: makes a value object without calling its class."""
        return self._module_name("new", "_new", None, "_new")

    def untracked(self) -> str:
        """`_untracked`: takes a value object or list just made off the cyclic collector's list,
        and returns it (`runtime.native.untracker`; a compiled build of a schema whose values
        hold no links back, `ModuleEmitter.untracks`)."""
        return self._module_name("untracked", "_untracked", None, "_untracked")

    def untracked_tree(self) -> str:
        """`_untracked_tree`: takes a value and every list and value below it off the cyclic
        collector's list (`runtime.native.tree_untracker`), or None without the runtime's C
        helper (an interpreted build of a schema whose values hold no links back,
        `ModuleEmitter.untracks_trees`)."""
        return self._module_name("untracked_tree", "_untracked_tree", None, "_untracked_tree")

    def text_parts(self, type_name: str, field_id: str) -> str:
        """The module's table of the parts of the text field `field_id` of `type_name` by value,
        which the module makes as the fast encoders say (`FastEncoders.text_parts`)."""
        name = f"_TEXT_{type_name}_{field_id}"
        return self._module_name("text", name, None, name)


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


def declared(candidates: list[tuple[str, str]], uses: Uses) -> list[str]:
    """The declarations, of (local, declaration) `candidates` in order, of the locals that the code
    recorded in `uses` assigns or reads."""
    return [line for name, line in candidates if name in uses.locals]
