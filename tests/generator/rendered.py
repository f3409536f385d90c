"""Generated modules rendered in a test (a schema generated otherwise than `logcodec generate`
does, to compare the two) and run as Python."""

import importlib.util
import sys
from pathlib import Path

from logcodec.runtime.native import PURE_KEY

SCHEMAS = Path(__file__).resolve().parents[2] / "schemas"


def pure_module(name: str, source: str):
    """`source` run as Python, never swapped for a compiled build: the paths these tests compare
    run interpreted only (`_INTERPRETED`), and a compiled build's own type checks word some
    errors otherwise."""
    source = source.replace("_native.accelerate(globals())", "")
    spec = importlib.util.spec_from_loader(name, loader=None)
    module = importlib.util.module_from_spec(spec)
    module.__dict__[PURE_KEY] = True  # no C companion either (`_FAST` None): a test may set one
    sys.modules[spec.name] = module
    exec(compile(source, f"{name}.py", "exec"), module.__dict__)
    return module
