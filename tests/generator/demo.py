"""The test schemas of `tests/generator/schemas/demo/`, compiled by the generator into modules."""

from pathlib import Path

from logcodec.generator.loader import load_rendered
from logcodec.generator.render import render_module
from logcodec.generator.reading import Loader

SCHEMAS = Path(__file__).parent / "schemas"


def compile_demo(name: str):
    """The loaded schema `demo/<name>.ksy` and its generated module, importable as
    `logcodec_test_<name>` (its value classes must be findable by module name)."""
    schema = Loader(SCHEMAS).load(f"demo/{name}.ksy")
    return schema, load_rendered(f"logcodec_test_{name}", render_module(schema), f"{name}.py")
