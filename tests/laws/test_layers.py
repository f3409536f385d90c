"""The layers (issue 36, ARCHITECTURE.md "Layers"): no import cycle between our modules, each room
imports only the rooms the table lets it, the runtime imports nothing of ours beyond itself, no
profiling hook outside the tests, and rendered source becomes a module in one place only
(`logcodec.generator.loader`).

What counts as an import, read from the source with `ast`:
- every `import` and `from ... import`, wherever it stands: at the top of a module, inside a
  function, under `if TYPE_CHECKING:`. A lazy import inside a function counts: the function cannot
  run without the other module, so a cycle through it ties the two modules as any other does (it
  only hides the cycle from the interpreter at import time). An annotation-only import counts too:
  the code names the other module's types;
- `importlib.import_module("a.literal.name")`.
What does not: a name computed at run time (the registries' `logcodec.<family>.checks`, a user's
processor): that is how a lower module finds a higher one without naming it. An import names the
module it names: the packages above it, which Python runs first, are not counted (a package's
`__init__` that re-exports its modules would otherwise be in a cycle with each of them).
"""

from __future__ import annotations

import ast
import re
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

from logcodec._api import FORMAT_PACKAGES

ROOT = Path(__file__).resolve().parents[2]
#: Each import package and its folder (pyproject's `package-dir`): the modules these tests read.
PACKAGE_DIR = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-dir"]
SKIPPED_FOLDERS = {"__pycache__", "node_modules"}

# ---------------------------------------------------------------- allowances
# Each is named, says why, and must still be needed: one that no longer is fails its test, so
# that the lists can only shrink (as the conformance runner's expected failures).

#: Import cycles allowed for now, each the modules that may import each other in it.
ALLOWED_CYCLES: dict[str, set[str]] = {}

#: Files that may install a profiling or tracing hook (`sys.setprofile`, `sys.settrace`) outside
#: tests: none (the decode page's ranges come from the trace variant of the generated decoders).
ALLOWED_HOOKS: set[str] = set()

#: The one loader of rendered source: the only file that runs source it is given.
LOADER = "generator/loader.py"

#: Other files that turn source text into code (`exec`, `eval`, `compile`), each with why. None
#: runs a generated module: that is the loader's.
ALLOWED_EXEC = {
    # The row and run builders of the pipeline's tables: one small function per declared table,
    # its column names (checked to be identifiers) as keyword-only parameters, because it builds a
    # row faster than one that reads them out of **kwargs (a Kafka record row given 8 columns:
    # 0.83 us against 1.25, 1.88 with the names checked). Not a generated module, and the
    # pipeline imports no generator.
    "pipeline/tables.py",
}

#: Where exec and hooks are looked for: everything of ours that runs, the tests included.
SOURCE_FOLDERS = ("logcodec", "generator", "generated", "conformance", "pipeline", "tests", "fuzz", "bench")


# ---------------------------------------------------------------- reading the imports


def our_modules(root: Path = ROOT, package_dir: dict[str, str] = PACKAGE_DIR) -> dict[str, Path]:
    """Every module of the import packages, by dotted name (a package by its `__init__.py`)."""
    modules = {}
    for package, folder in package_dir.items():
        for path in sorted((root / folder).rglob("*.py")):
            parts = path.relative_to(root / folder).with_suffix("").parts
            if SKIPPED_FOLDERS.intersection(parts):
                continue
            if parts[-1] == "__init__":
                parts = parts[:-1]
            modules.setdefault(".".join((package, *parts)), path)
    return modules


def _known(name: str, modules: dict[str, Path]) -> str | None:
    """`name` if it is one of ours, else the nearest package of ours above it (`import a.b.x` where
    `x` is a name in `a/b/__init__.py`), else None (not ours)."""
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def _imported(module: str, node: ast.AST, modules: dict[str, Path]) -> Iterator[str]:
    """The modules of ours that one node imports."""
    if isinstance(node, ast.Import):
        for alias in node.names:
            if (found := _known(alias.name, modules)) is not None:
                yield found
    elif isinstance(node, ast.ImportFrom):
        if node.level:  # relative to this module's package
            package = module.split(".")
            if modules[module].name != "__init__.py":
                package = package[:-1]
            base = ".".join(package[:len(package) - node.level + 1] + ([node.module] if node.module else []))
        else:
            base = node.module or ""
        for alias in node.names:  # `from a import b` imports the module a.b where there is one
            submodule = f"{base}.{alias.name}"
            if (found := submodule if submodule in modules else _known(base, modules)) is not None:
                yield found
    elif (name := _imported_by_name(node)) is not None and (found := _known(name, modules)) is not None:
        yield found


def _imported_by_name(node: ast.AST) -> str | None:
    """The literal name of an `importlib.import_module("...")` call; None for any other node, and for a
    name computed at run time."""
    if not (isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant)):
        return None
    called = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", None)
    name = node.args[0].value
    return name if called == "import_module" and isinstance(name, str) else None


def import_graph(modules: dict[str, Path]) -> dict[str, dict[str, int]]:
    """Each module's imports of ours, with the line of the first."""
    graph: dict[str, dict[str, int]] = {}
    for module, path in modules.items():
        graph[module] = {}
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            for target in _imported(module, node, modules):
                if target != module:
                    graph[module].setdefault(target, node.lineno)
    return graph


def cycles(graph: dict[str, dict[str, int]]) -> list[set[str]]:
    """The import cycles: each set of modules of which every one imports every other, directly or
    not (a strongly connected component of more than one module; Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for target in graph.get(module, ()):
            if target not in index:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            component = {stack.pop()}
            while module not in component:
                component.add(stack.pop())
            if len(component) > 1:
                found.append(component)

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return found


def describe(cycle: set[str], graph: dict[str, dict[str, int]], modules: dict[str, Path]) -> str:
    """A cycle as its imports, each with where it is written."""
    return "; ".join(f"{modules[a].relative_to(ROOT)}:{line} imports {b}"
                     for a in sorted(cycle) for b, line in sorted(graph[a].items()) if b in cycle)


MODULES = our_modules()


@pytest.fixture(scope="module")
def graph() -> dict[str, dict[str, int]]:
    """Our import graph, read once by the worker that runs these tests (parsing every module, the
    46 MB of `generated/` included, takes half a minute: not at collection, where each worker
    would)."""
    return import_graph(MODULES)


# ---------------------------------------------------------------- the laws


def test_no_import_cycles(graph):
    found = cycles(graph)
    unallowed = [describe(c, graph, MODULES) for c in found
                 if not any(c <= allowed for allowed in ALLOWED_CYCLES.values())]
    assert unallowed == [], "import cycles:\n" + "\n".join(unallowed)
    in_cycles = set().union(*found)
    stale = {name: sorted(allowed - in_cycles) for name, allowed in ALLOWED_CYCLES.items() if allowed - in_cycles}
    assert stale == {}, "these modules are in no cycle any more: take them out of ALLOWED_CYCLES"


def test_the_runtime_imports_nothing_of_ours_beyond_itself(graph):
    """Neither the generator nor a format package nor the API: generated code and a user's compiled
    package import the runtime alone."""
    found = [f"{MODULES[m].relative_to(ROOT)}:{line} imports {target}"
             for m in MODULES if room_of(m) == "runtime"
             for target, line in graph[m].items() if room_of(target) != "runtime"]
    assert found == [], "\n".join(found)


# ---------------------------------------------------------------- rooms


#: The tools at the top: they put every room together.
TOOLS = {"logcodec.cli", "logcodec.__main__", "logcodec.docserver"}


def room_of(module: str) -> str:
    """The room of the layers table (ARCHITECTURE.md, "Layers") that a module stands in."""
    parts = module.split(".")
    if any(module == tool or module.startswith(f"{tool}.") for tool in TOOLS):  # a tool's package is one tool
        return "tools"
    if module == "logcodec.spans":
        return "spans"
    if len(parts) > 1 and parts[1] in FORMAT_PACKAGES:
        return "codec tables" if parts[2:3] == ["codecs"] else "format packages"
    if len(parts) > 1 and parts[1] in ("runtime", "generated", "generator", "conformance", "pipeline"):
        return parts[1]
    return "API"


def layers_table() -> dict[str, set[str]]:
    """ARCHITECTURE.md's layers table: each room and the rooms it may import (its own always)."""
    text = (ROOT / "ARCHITECTURE.md").read_text()
    assert "\n## Layers\n" in text, "ARCHITECTURE.md has no section \"Layers\""
    section = text.split("\n## Layers\n", 1)[1].split("\n## ", 1)[0]
    rooms = {}
    for row in re.findall(r"^\|(.+)\|$", section, re.MULTILINE)[2:]:  # after the header and its rule
        room, _modules, may = (cell.strip() for cell in row.split("|"))
        rooms[room] = set() if may == "nothing of ours" else {r.strip() for r in may.split(",")}
    return {room: set(rooms) if may == {"every room"} else may for room, may in rooms.items()}


def test_each_room_imports_only_what_the_layers_table_lets_it(graph):
    table = layers_table()
    assert set(table) == {room_of(m) for m in MODULES}  # the table names every room, and no other
    found = [f"{MODULES[m].relative_to(ROOT)}:{line}: {room_of(m)} imports {room_of(target)} ({target})"
             for m in sorted(MODULES) for target, line in graph[m].items()
             if room_of(target) not in table[room_of(m)] | {room_of(m)}]
    assert found == [], "\n".join(found)


# ---------------------------------------------------------------- hooks and exec


HOOKS = ("setprofile", "settrace", "setprofile_all_threads", "settrace_all_threads")
RUNS_SOURCE = ("exec", "eval", "compile")
#: Text that any source naming a hook, or calling one of RUNS_SOURCE, holds: the name as a word, and
#: for a call the name, then blanks, comments or continued lines, then its parenthesis.
MAY_HOOK = re.compile(r"\b(?:" + "|".join(HOOKS) + r")\b")
MAY_RUN_SOURCE = re.compile(r"\b(?:" + "|".join(RUNS_SOURCE) + r")(?:\s|\\\n|#[^\n]*)*\(")


def _python_files(folders, may_hold: re.Pattern) -> Iterator[tuple[str, ast.AST]]:
    """The files of `folders` whose text `may_hold` what is looked for, parsed. A file whose text
    does not match has no node that could: parsing only the others keeps the walk over
    `generated/`'s 46 MB of modules (minutes) to the files that matter."""
    for folder in folders:
        for path in sorted((ROOT / folder).rglob("*.py")):
            if not SKIPPED_FOLDERS.intersection(path.parts):
                text = path.read_text()
                if may_hold.search(text):
                    yield path.relative_to(ROOT).as_posix(), ast.parse(text, str(path))


def _hooks(tree: ast.AST) -> Iterator[int]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in HOOKS:
            yield node.lineno


def _runs_source(tree: ast.AST) -> Iterator[int]:
    """Where source text becomes code: the built-ins `exec`, `eval` and `compile`."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in RUNS_SOURCE:
            yield node.lineno


def test_no_profiling_hook_outside_the_tests():
    found = {path: list(_hooks(tree)) for path, tree in _python_files((f for f in SOURCE_FOLDERS if f != "tests"), MAY_HOOK)}
    assert {path for path, lines in found.items() if lines} == ALLOWED_HOOKS


def test_rendered_source_becomes_a_module_in_the_loader_only():
    found = {path: list(_runs_source(tree)) for path, tree in _python_files(SOURCE_FOLDERS, MAY_RUN_SOURCE)}
    assert {path for path, lines in found.items() if lines} == {LOADER} | ALLOWED_EXEC


# ---------------------------------------------------------------- the reader itself


@pytest.fixture
def package(tmp_path):
    """A package `pkg` of its own in a folder, written from {relative path: source}."""
    def make(files: dict[str, str]) -> dict[str, dict[str, int]]:
        for rel, source in files.items():
            (tmp_path / "pkg" / rel).parent.mkdir(parents=True, exist_ok=True)
            (tmp_path / "pkg" / rel).write_text(source)
        return import_graph(our_modules(tmp_path, {"pkg": "pkg"}))
    return make


def test_a_lazy_import_ties_two_modules_as_any_other(package):
    graph = package({"__init__.py": "", "a.py": "from pkg import b\n",
                     "b.py": "def f():\n    from . import a\n    return a\n"})
    assert graph["pkg.b"] == {"pkg.a": 2}
    assert cycles(graph) == [{"pkg.a", "pkg.b"}]


def test_the_reader_resolves_each_form_of_import(package):
    graph = package({
        "__init__.py": "from .sub import mod\n",
        "sub/__init__.py": "",
        "sub/mod.py": ("import importlib\nfrom typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                       "    from ..other import Name\nimport pkg.sub\nfrom .. import leaf\n"
                       "importlib.import_module('pkg.leaf2')\nimportlib.import_module(f'pkg.{1}')\nimport os\n"),
        "other.py": "", "leaf.py": "", "leaf2.py": "",
    })
    assert graph["pkg"] == {"pkg.sub.mod": 1}
    assert graph["pkg.sub.mod"] == {"pkg.other": 4, "pkg.sub": 5, "pkg.leaf": 6, "pkg.leaf2": 7}
    assert cycles(graph) == []
