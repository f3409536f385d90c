"""Generated modules rendered in a test (a schema generated otherwise than `logcodec generate`
does, to compare the two) and run as Python."""

from pathlib import Path

from logcodec.generator.loader import load_rendered

SCHEMAS = Path(__file__).resolve().parents[2] / "schemas"


def pure_module(name: str, source: str):
    """`source` run as Python, never swapped for a compiled build (nor given its C companion,
    `_FAST` None: a test may set one): the paths these tests compare run interpreted only
    (`_INTERPRETED`), and a compiled build's own type checks word some errors otherwise."""
    return load_rendered(name, source, f"{name}.py")
