"""What is wrong with a schema, and where: problems, the error that carries them, and the place
of every YAML path of a file.

A problem is found by the loader or by a pass (`passes/`), which know the YAML path of what
they judge (`types.record.seq[4].size`); the place of that path in the file, its line and
column, comes from the marks PyYAML gives each node as it parses (`read_yaml`). Every problem
is one line, `file:line:column: yaml.path: text`, as compilers write theirs (law 7: no schema,
however broken, gets a traceback).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import yaml

ERROR, WARNING = "error", "warning"


@dataclass(frozen=True)
class Problem:
    """One problem of a schema: how bad (`severity`), in which file (relative to the schemas'
    root, as the schema's `path`), where (line and column from 1, None when unknown), at
    which YAML path ("" for the top of the file) and what."""

    severity: str
    file: str
    line: int | None
    column: int | None
    ypath: str | None
    text: str

    def __str__(self) -> str:
        parts = [self.file if self.line is None else f"{self.file}:{self.line}:{self.column}"]
        if self.ypath is not None:  # None: a problem of the file as a whole (not YAML, not readable)
            parts.append(self.ypath or "(top)")
        parts.append(f"warning: {self.text}" if self.severity == WARNING else self.text)
        return ": ".join(parts)


#: The problems a SchemaError's message shows (all of them are in `problems`).
MOST_SHOWN = 50


class SchemaError(Exception):
    """Schemas (or the files beside them) are malformed. `problems` lists each problem with its
    place; the message is all of them, one per line. A plain message (no schema to place it in,
    as a package name that is not one) has no problems of its own."""

    def __init__(self, problems: list[Problem] | str) -> None:
        self.problems = [] if isinstance(problems, str) else list(problems)
        shown = [str(p) for p in self.problems[:MOST_SHOWN]]
        if len(self.problems) > MOST_SHOWN:  # (a schema broken everywhere: the first ones say enough)
            shown.append(f"... and {len(self.problems) - MOST_SHOWN} more problems")
        super().__init__(problems if isinstance(problems, str) else "\n".join(shown))

    @property
    def lines(self) -> list[str]:
        return str(self).splitlines()


def errors(problems: list[Problem]) -> list[Problem]:
    return [p for p in problems if p.severity == ERROR]


def in_order(problems: list[Problem]) -> list[Problem]:
    """Problems as a reader meets them: by file (in the order the files were found), then by place."""
    files = list(dict.fromkeys(p.file for p in problems))
    return sorted(problems, key=lambda p: (files.index(p.file), p.line or 0, p.column or 0))


def yaml_text(value) -> str:
    """A YAML value as a schema writes it, for a message: `'text'`, `null`, `true`, `[1, a]`, not
    Python's reprs (`None`, `True`, `{'a': 1}`); cut short past 60 characters."""
    if isinstance(value, str):
        text = repr(value)
    else:
        try:
            text = yaml.safe_dump(value, default_flow_style=True, width=1 << 20).strip().removesuffix("...").strip()
        except (yaml.YAMLError, RecursionError):
            text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


# ---------------------------------------------------------------- places


class Marks:
    """The place (line, column, from 1) where each YAML path of one file is written: a mapping's
    entry where its key is, a list's item where it starts. A path the file does not have (a key
    that is missing, `seq[0].doc`) is placed at the nearest path above it that it has."""

    def __init__(self, places: dict[str, tuple[int, int]] | None = None) -> None:
        self.places = places or {}

    def place(self, ypath: str | None) -> tuple[int | None, int | None]:
        path = ypath or ""
        while path not in self.places and path:
            path = _parent_path(path)
        return self.places.get(path, (None, None))


def _parent_path(ypath: str) -> str:
    """`seq[1]` of `seq[1].size`, `seq` of `seq[1]`, "" of `meta`."""
    cut = max(ypath.rfind("."), ypath.rfind("["))
    return ypath[:max(cut, 0)]


def problem(marks: Marks, file: str, ypath: str | None, text: str, severity: str = ERROR) -> Problem:
    """A problem at `ypath` of `file`, placed by its marks."""
    line, column = marks.place(ypath)
    return Problem(severity, file, line, column, ypath, text)


class _Reader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # libyaml where built: ten times faster
    """YAML that refuses a key given twice in one mapping (PyYAML keeps the last one); given a
    list `repeats`, it keeps the last one and notes there where each repeat is (line, column
    from 1, key)."""

    repeats: list | None = None

    def construct_mapping(self, node, deep=False):
        seen = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=deep)
            if isinstance(key, (str, int, float, bool)) and key in seen:
                if self.repeats is not None:
                    self.repeats.append((key_node.start_mark.line + 1, key_node.start_mark.column + 1, key))
                    continue
                raise yaml.constructor.ConstructorError(
                    None, None, f"duplicate key {key!r}", key_node.start_mark)
            seen.add(key) if isinstance(key, (str, int, float, bool)) else None
        return super().construct_mapping(node, deep)


#: The nodes a document may have, counted once per path through its aliases: aliases of aliases
#: ("billion laughs") would otherwise make every walk of the schema run for ever.
MOST_NODES = 100_000
#: How deep a document may nest: what reads a schema walks it (and Python's recursion has a limit).
MOST_NESTING = 200


def read_yaml(text: bytes, repeats: list | None = None) -> tuple[object, Marks]:
    """The document of a file and the place of each of its YAML paths; raises yaml.YAMLError (also
    for an alias inside the node it names, aliases that expand past MOST_NODES, nesting deeper
    than MOST_NESTING, and a key given twice in one mapping, unless a list `repeats` is given:
    the last one counts then, and each repeat's place is noted there)."""
    reader = _Reader(text)
    reader.repeats = repeats
    try:
        node = reader.get_single_node()
        data = reader.construct_document(node) if node is not None else None
        places: dict[str, tuple[int, int]] = {"": (1, 1)}
        if node is not None:
            _mark(reader, node, places)
        return data, Marks(places)
    finally:
        reader.dispose()


def _mark(reader: _Reader, top, places: dict) -> None:
    """The place of every YAML path of a document, walked without recursion (a document may
    nest a thousand levels deep). A node reached through an alias is walked again at each path."""
    todo, seen, count = [(top, "", None, 0)], set(), 0  # (node, its path, what holds it, how deep)
    while todo:
        node, ypath, holder, depth = todo.pop()
        count += 1
        if id(node) in seen and _holds(holder, node):  # (only an alias reaches a node twice)
            raise yaml.MarkedYAMLError(problem="an alias inside the node it names (the schema would never end)",
                                       problem_mark=node.start_mark)
        seen.add(id(node))
        if depth > MOST_NESTING:
            raise yaml.MarkedYAMLError(problem=f"nested more than {MOST_NESTING} levels deep",
                                       problem_mark=node.start_mark)
        if count > MOST_NODES:
            raise yaml.MarkedYAMLError(problem=f"more than {MOST_NODES} nodes, counting those aliases repeat",
                                       problem_mark=node.start_mark)
        inner = (node, holder)
        if isinstance(node, yaml.MappingNode):
            for key_node, value_node in reversed(node.value):
                if not isinstance(key_node, yaml.ScalarNode):
                    continue  # a key that is not a scalar (refused where it is read)
                key = key_node.value if key_node.tag == _TEXT else reader.construct_object(key_node, deep=True)
                path = f"{ypath}.{key}" if ypath else str(key)
                todo.append((value_node, path, inner, depth + 1))
                places[path] = (key_node.start_mark.line + 1, key_node.start_mark.column + 1)
        elif isinstance(node, yaml.SequenceNode):
            for i in range(len(node.value) - 1, -1, -1):
                path = f"{ypath}[{i}]"
                todo.append((node.value[i], path, inner, depth + 1))
                places[path] = (node.value[i].start_mark.line + 1, node.value[i].start_mark.column + 1)


_TEXT = "tag:yaml.org,2002:str"


def _holds(holder, node) -> bool:
    """Whether `node` is among the nodes that hold the one being walked (`holder`: a chain of
    (node, its holder))."""
    while holder is not None:
        if holder[0] is node:
            return True
        holder = holder[1]
    return False


def yaml_problem(exc: yaml.YAMLError, text: bytes) -> tuple[int | None, int | None, str]:
    """A YAML error as a problem's line, column and text: what the parser found and where,
    without the parser's name for the input (`<byte string>`)."""
    if isinstance(exc, yaml.reader.ReaderError):  # a byte that is no text: its offset, not a mark
        at = min(max(exc.position, 0), len(text))
        line_start = text.rfind(b"\n", 0, at) + 1
        what = f"#x{exc.character:04x}" if isinstance(exc.character, int) else repr(exc.character)
        return text.count(b"\n", 0, at) + 1, at - line_start + 1, f"unacceptable character {what}: {exc.reason}"
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    found = getattr(exc, "problem", None) or re.sub(r'\s*in "<[^>]*>".*', "", str(exc), flags=re.S)
    return mark and mark.line + 1, mark and mark.column + 1, " ".join(str(found).split())
