"""The passes: named analyses, run in a declared order over a loaded schema, before any back end.

Loading makes the IR (`schema.py`, `resolve.py`). The passes then annotate it (the model,
`model.py`: who holds each type, the value kinds...) and judge it: each returns its problems
(`problems.Problem`: severity, file, line, column, YAML path, text), and every problem of every
schema is reported together, before any back end runs. A back end translates only what the
passes accepted, and refuses nothing itself: what it cannot translate is a pass that knows its
limits (`target`), run for that back end only.

A pass runs only if the passes it `needs` found no error in the schema (a type rule can only be
checked on names that resolve); none runs on a schema whose loading found an error, or one that
imports such a schema (as Kaitai's compiler stops after its type resolution's problems).

`PASSES` is the order. `checked(schema, target)` runs them once per schema (and target) and
raises `SchemaError` with the problems; `model_of` and each back end ask for it first, so no
back end ever sees a schema the passes refused. `check_all` runs them over schemas loaded
together and reports the problems of all of them at once.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ..model import Model
from ..problems import Problem, SchemaError, errors, in_order, problem
from ..reading import Loader
from ..schema import Schema
from . import common, construct_limits, python_limits


@dataclass
class Context:
    """What a pass sees: the schema, the model the passes build, and where problems go."""

    schema: Schema
    model: object = None  # the `Model`, from the `parents` pass on

    def problem(self, ypath: str, text: str, schema: Schema | None = None) -> Problem:
        """A problem at `ypath` of this schema (or of `schema`, one it imports)."""
        at = schema or self.schema
        return problem(at.marks, at.path, ypath, text)


@dataclass(frozen=True)
class Pass:
    name: str
    run: Callable[[Context], list[Problem]]
    needs: tuple[str, ...] = ()  # the passes whose errors stop this one
    target: str | None = None  # the back end whose limits it knows; None: it holds for every back end


PASSES = [
    Pass("parents", common.parents),
    Pass("classes", common.class_names),
    Pass("primitives", common.primitives),
    Pass("types", common.type_rules),
    Pass("value kinds", common.value_kinds, ("primitives", "types")),
    Pass("tuple forms", common.tuple_forms, ("types",)),
    Pass("keyed views", common.keyed_views, ("primitives", "types")),
    Pass("bulk", common.bulk_lists, ("types",)),
    Pass("frames", common.frames, ("primitives",)),
    Pass("layouts", common.layouts, ("primitives",)),
    Pass("streams", python_limits.streams, ("types",), target="python"),
    Pass("bits", python_limits.bit_layouts, target="python"),
    Pass("sizes", python_limits.sizes, target="python"),
    Pass("ranges", python_limits.ranges, ("primitives", "types"), target="python"),
    Pass("remote lengths", python_limits.remote_lengths, ("primitives", "types"), target="python"),
    Pass("encodable", python_limits.encodable, target="python"),
    Pass("construct names", construct_limits.names, target="construct"),
    Pass("construct streams", construct_limits.streams, target="construct"),
    Pass("construct literals", construct_limits.literals, target="construct"),
    Pass("construct expressions", construct_limits.expressions, ("types",), target="construct"),
]
TARGETS = ("python", "construct")


@dataclass
class Analysis:
    """The passes' work on one schema: the model, the problems, which passes ran and which of
    them failed, and which targets' passes have run."""

    context: Context
    problems: list[Problem] = field(default_factory=list)
    ran: list[str] = field(default_factory=list)
    failed: set[str] = field(default_factory=set)
    done: set[str | None] = field(default_factory=set)  # None: the passes every target needs
    running: bool = False

    @property
    def model(self):
        return self.context.model


def analysis_of(schema: Schema) -> Analysis:
    found = schema.__dict__.get("_analysis")
    if found is None:
        found = schema.__dict__["_analysis"] = Analysis(Context(schema))
    return found


def run(schema: Schema, target: str | None = None) -> Analysis:
    """Run the passes of `target` (None: those every target needs) on a schema, once; re-entrant
    (a pass that reads the model of the schema being analysed gets it as it stands)."""
    analysis = analysis_of(schema)
    if analysis.running:
        return analysis
    analysis.running = True
    try:
        for goal in [None, target] if target is not None else [None]:
            if goal not in analysis.done:
                analysis.done.add(goal)
                for p in PASSES:
                    if p.target == goal and not analysis.failed & set(p.needs):
                        analysis.ran.append(p.name)
                        # (a problem found twice, at one site's two arguments, is said once)
                        found = list(dict.fromkeys(q for q in p.run(analysis.context) if q not in analysis.problems))
                        analysis.problems += found
                        if errors(found):
                            analysis.failed.add(p.name)
    finally:
        analysis.running = False
    return analysis


def checked(schema: Schema, target: str | None = None) -> Analysis:
    """The analysis of a schema the passes (of `target`) accept; SchemaError with its problems
    otherwise. While the passes run on it, what they have so far."""
    analysis = analysis_of(schema)
    if analysis.running:
        return analysis
    run(schema, target)
    found = errors(analysis.problems)
    if found:
        raise SchemaError(in_order(found))
    return analysis


def model_of(schema: Schema) -> Model:
    """The model of a schema the passes accept (`Model`, which they build); SchemaError with their
    problems otherwise."""
    return checked(schema).model


def check_all(schemas: list[Schema], targets: tuple[str, ...]) -> None:
    """Run the passes of `targets` over schemas loaded together (and those they import), each
    after the schemas it imports; SchemaError with the problems of all of them. A schema that
    imports one with errors is not analysed (its problems would only repeat them)."""
    found, refused = [], set()
    for schema in imports_first(schemas):
        if any(id(imp) in refused for imp in schema.imports):
            refused.add(id(schema))
            continue
        for target in targets:
            run(schema, target)
        own = errors(analysis_of(schema).problems)
        if own:
            refused.add(id(schema))
            found += own
    if found:
        raise SchemaError(in_order(found))


def load_checked(loader: Loader, rels: list[str], targets: tuple[str, ...]) -> list[Schema]:
    """Load these schemas (and what they import) and run the passes of `targets` on every one
    that loaded without error (nor imports one that did); SchemaError with every problem found,
    of loading and of the passes, together."""
    for rel in rels:
        loader.read(rel)
    found = errors(loader.problems_in(rels))
    broken = {p.file for p in found}
    sound = [s for s in loader.loaded.values() if not loader.closure([s.path]) & broken]
    try:
        check_all(sound, targets)
    except SchemaError as exc:
        found += exc.problems
    if found:
        raise SchemaError(in_order(found))
    return [loader.loaded[rel.replace("\\", "/")] for rel in rels]


def imports_first(schemas: list[Schema]) -> list[Schema]:
    out, seen = [], set()

    def visit(s: Schema) -> None:
        if id(s) not in seen:
            seen.add(id(s))
            for imp in s.imports:
                visit(imp)
            out.append(s)

    for s in schemas:
        visit(s)
    return out

