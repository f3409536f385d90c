"""C companions: the fast element loops of a codec module (`fast_encode`), in C.

A list whose elements the Python encoder writes out (`FastEncoders.loop`, its `ElementPlan`) gets a C
function of the same loop, which a compiled build calls first: it takes the list of tuple forms
and returns the list's bytes, written into one buffer (a size pass, then a write pass), or None
for anything it does not take. It takes less than the Python fast loop: tuples only (a value
object is left to Python), exact `int`, `bytes`, `str` (UTF-8) and `list`/`tuple`, in the ranges
of the checked encoder. None hands the whole list to the Python loops, whose checked encoder says
what is wrong, if anything; so the C function never raises for a value and never accepts one the
checked encoder refuses, and what it accepts it encodes to the same bytes.

The root's bulk list of such elements (`CReaders.fast_reader`) also gets readers, the same
plan read back: its elements in their tuple form (`decode_<type>_<field>`), or appended to the
lists of `decode_columns` (`columns_<type>_<field>`), or None for any bytes the Python decoder
must read (it names the error). `tests/generator/test_fast_c.py` holds both ways to the Python
code.

The module's Python source names its companion by the SHA-256 of this C source (`_FAST`);
`logcodec accelerate` compiles it with the C compiler mypyc uses (`runtime.native`), and only a
build of exactly that source is loaded. The file is `generated/<family>/<format>_fast.c`.
"""

from __future__ import annotations

from pathlib import Path

import jinja2

from logcodec.runtime import native

from ..layout import ElementPlan
from .elements import Element, Reader, element_plans, encoded_len

TEMPLATES = jinja2.Environment(loader=jinja2.FileSystemLoader(Path(__file__).parent / "templates"),
                               undefined=jinja2.StrictUndefined, keep_trailing_newline=True)


def source_sha(source: str) -> str:
    """What the Python module names its companion's build by (`runtime.native.companion_sha`)."""
    return native.companion_sha(source.encode())


def columns_name(reader: str) -> str:
    """The name of the columns function beside the reader `decode_<type>_<field>`."""
    return reader.replace("decode_", "columns_", 1)


def render(header: str, module: str, loops: dict[str, ElementPlan], readers: dict[str, ElementPlan]) -> str:
    """The C source of one module's loops, the encoders' (`loops`) and the decoders' (`readers`),
    each a name and the plan of its elements (`layout.c_loops`, `c_readers`), in name order."""
    methods = [f'    {{"{name}", (PyCFunction)lc_{name}, METH_O, NULL}},' for name in sorted(loops)]
    for name in sorted(readers):
        methods += [f'    {{"{n}", (PyCFunction)(void (*)(void))lc_{n}, METH_FASTCALL, NULL}},'
                    for n in (name, columns_name(name))]
    return TEMPLATES.get_template("companion.c.j2").render(
        header=header, module=module,
        elements=[Element(plan).source() for plan in element_plans(loops)]
        + [Reader(plan).source() for plan in element_plans(readers)],
        loops=[{"name": name, "type": plan.type.name, "prefix_len": _prefix_len(plan)}
               for name, plan in sorted(loops.items())],
        readers=[{"name": name, "columns": columns_name(name), "type": plan.type.name, "fields": len(plan.form)}
                 for name, plan in sorted(readers.items())],
        methods="\n".join(methods))


def _prefix_len(plan: ElementPlan) -> str:
    """The bytes an element takes before its body's: its size's varint, where it has one."""
    return f"{encoded_len(plan.steps[0].field, 's')} + s" if plan.steps[0].kind == "tail" else "s"
