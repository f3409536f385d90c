"""The layout keeps its rooms apart (issue 14): the runtime and the generator name no format, a
format's helpers, codec tables and checkers live in its package, and no module reaches into
another's private names."""

import ast
import importlib
import re
from pathlib import Path

import logcodec
from logcodec import processors
from logcodec._api import FORMAT_PACKAGES
from logcodec.runtime.processors import BUILTIN

ROOT = Path(__file__).resolve().parents[2]
FORMAT_NAME = re.compile("|".join(FORMAT_PACKAGES), re.IGNORECASE)


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def _names_and_strings(tree: ast.AST):
    """Every identifier a module defines or uses, and every string it computes with (docstrings,
    which may cite a format as an example, and comments are left out)."""
    docs = _docstrings(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            yield node.lineno, node.id
        elif isinstance(node, ast.Attribute):
            yield node.lineno, node.attr
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            yield node.lineno, node.name
        elif isinstance(node, ast.arg):
            yield node.lineno, node.arg
        elif isinstance(node, ast.ImportFrom):
            yield node.lineno, node.module or ""
            yield from ((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.Import):
            yield from ((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            yield node.lineno, node.value


def test_the_runtime_and_the_generator_name_no_format():
    found = []
    for folder in ("logcodec/runtime", "generator"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            for line, text in _names_and_strings(ast.parse(path.read_text())):
                if FORMAT_NAME.search(text):
                    found.append(f"{path.relative_to(ROOT)}:{line}: {text[:80]!r}")
    assert found == []


def _private_imports(path: Path):
    """`from M import _x` where M is one of ours: a private name of another module. A package's
    private module (`from ._reading import bad`) is the way to share within a package."""
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").startswith("logcodec")):
            for alias in node.names:
                if alias.name.startswith("_") and not alias.name.startswith("__"):
                    yield node.lineno, f"from {'.' * node.level}{node.module or ''} import {alias.name}"


def test_no_module_imports_a_private_name_of_another():
    found = [f"{path.relative_to(ROOT)}:{line}: {text}"
             for folder in ("logcodec", "pipeline", "conformance", "generator")
             for path in sorted((ROOT / folder).rglob("*.py"))
             for line, text in _private_imports(path)]
    assert found == []


def test_the_top_level_package_exports_the_generic_api_only():
    assert not [name for name in logcodec.__all__ if FORMAT_NAME.search(name)]
    for package in FORMAT_PACKAGES:  # and each format's package is reached through it
        assert getattr(logcodec, package) is importlib.import_module(f"logcodec.{package}")


def test_each_codec_table_lives_in_its_formats_package():
    named = processors.named()
    assert set(BUILTIN) <= set(named)
    outside = {name: module for name, module in named.items()
               if name not in BUILTIN and not any(module == f"logcodec.{p}.codecs" for p in FORMAT_PACKAGES)}
    assert outside == {}
    # every processor the repository's schemas name is found there (a strict load refuses the others)
    used = {m.group(1) for path in (ROOT / "schemas").rglob("*.ksy")
            for m in re.finditer(r"process:\s*([a-z_][a-z0-9_.]*)", path.read_text())}
    assert used and used <= set(named)
    assert {named[name] for name in used} >= {"logcodec.kafka.codecs", "logcodec.tank.codecs"}
