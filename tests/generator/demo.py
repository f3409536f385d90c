"""The test schemas of `tests/generator/schemas/demo/`, compiled by the generator into modules."""

import importlib.util
import sys
from pathlib import Path

from logcodec.generator.python import ModuleEmitter
from logcodec.generator.schema import Loader

SCHEMAS = Path(__file__).parent / "schemas"


def compile_demo(name: str):
    """The loaded schema `demo/<name>.ksy` and its generated module, importable as
    `logcodec_test_<name>` (its value classes must be findable by module name)."""
    schema = Loader(SCHEMAS).load(f"demo/{name}.ksy")
    spec = importlib.util.spec_from_loader(f"logcodec_test_{name}", loader=None)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    exec(compile(ModuleEmitter(schema).render(), f"{name}.py", "exec"), module.__dict__)
    return schema, module
