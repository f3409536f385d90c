"""The trace variant of a codec module (`<module>_trace`): its checked decoders, which also tell a
`Trace` (`logcodec.runtime.trace`) where each field lies as they read it, as Kaitai's `--read-pos`
makes its parsers keep `_debug`. The docs server's decode page, the inspector and detection read
byte ranges from it: the code that reads the bytes says where they were.

It is the checked decoder (`Decoder`) with the hooks it names filled in; no list's element is
written out, no fast path or C companion is called (a trace is for showing a value, not for speed),
and its values are the codec module's own classes, imported from it.
"""

from __future__ import annotations

from .. import expr as E
from ..schema import Field, TypeDef
from .code import Lines, tidy
from .decode import Decoder
from .emit import TEMPLATES, ModuleEmitter, module_declarations, root_params, used_by


class TraceModule(ModuleEmitter):
    """Renders a schema's trace module."""

    def __init__(self, schema) -> None:
        super().__init__(schema)
        self.bulk = self.columned = self.header = None  # no `decode_iter` or `decode_header` here
        self.rendered = list(self.types)
        self.c_loops, self.c_readers = {}, {}

    @property
    def module(self) -> str:
        return trace_module(self.schema.module)

    def render(self) -> str:
        functions = [TraceDecoder(self, t).decoder() for t in self.types]
        own_enums = [self.model.enum_name(e) for t in self.types for e in t.enums.values()]
        root = self.schema.root
        uses = used_by(functions)
        return tidy(TEMPLATES.get_template("trace.py.j2").render(
            schema=self.schema, main_module=self.schema.module, functions=[f.text for f in functions], root=root,
            main_names=[t.class_name for t in self.types if not t.unwrap] + own_enums
            + [name for name, _ in self.tuple_aliases()],
            structs=sorted(self.structs.items(), key=lambda kv: int(kv[1][2:])), layouts=self.layouts,
            processors=sorted(self.processors), user_processors=sorted(self.user_processors.items()),
            passthroughs=sorted(self.passthroughs), imports=self.import_lines(), late_imports=self.late_imports(),
            root_params=root_params(root),
            **module_declarations(uses, own_enums),
        ))

    def import_lines(self) -> list[dict]:
        """Another schema's types come with their trace decoders (from its trace module), their
        classes and enums with the values (from its codec module)."""
        decoders = {trace_module(imp.module): [f"_d_{t.name}" for t in self.model.used_from(imp)]
                    for imp in self.model.imported}
        values = {imp.module: [t.class_name for t in self.model.used_from(imp)] for imp in self.model.imported}
        for module, enums in self.enum_imports.items():
            values.setdefault(module, []).extend(sorted(enums))
        return [{"module": module, "names": ", ".join(names)} for module, names in [*values.items(), *decoders.items()]
                if names]


def trace_module(module: str) -> str:
    """The name of a codec module's trace variant."""
    return f"{module}_trace"


class TraceDecoder(Decoder):
    """A type's decoder that records each field's range: `tr.begin` and `tr.end` around a field,
    `tr.leaf` for each field of a run of fixed fields, `tr.element` for a list's elements, `tr.enter`
    and `tr.leave` around processed bytes, `tr.vouch` for a checksum that holds."""

    def decoder_of(self, u: TypeDef) -> Decoder:
        return TraceDecoder(self.m, u)

    def new_body(self) -> Lines:
        return Lines(self.m.build, pair_table=True)

    def inlined_element(self, f: Field) -> TypeDef | None:
        return None  # each element read by its type's decoder, which records its fields

    makes_views = False  # a trace shows every field where it lies

    def made_by_new(self) -> bool:
        return False

    def number_run(self, f: Field) -> None:
        return None  # each number read and recorded on its own

    def untracks_tree(self, f: Field) -> bool:
        return False  # a trace's values are shown once, not kept

    def fast_reader(self, f: Field) -> tuple[str, list[str]] | None:
        return None

    # ------------------------------------------------------------ the hooks

    def trace_param(self) -> str:
        return ", tr: Any = None"

    def trace_arg(self) -> str:
        return ", tr=tr"

    def lazy_reads(self) -> list[str]:
        return ["tr"]  # the record the instances computed later are traced into too

    def decoding_starts(self, c: Lines) -> None:
        if not self.t.unwrap:
            c(f"tr.kind({self.t.class_name})")

    def run_field_read(self, c: Lines, f: Field, off: int, size: int) -> None:
        """A field of a run of fixed fields, checked (a bit field: the whole bytes of its group)."""
        if not self.t.unwrap:  # (an unwrapped type's one field is its holder's)
            c(f"tr.leaf({f.id!r}, pos + {off}, pos + {off + size}, v_{f.id}{self.flags(f)})")

    def field_begins(self, c: Lines, f: Field) -> None:
        if not self.t.unwrap:
            c(f"tr.begin({f.id!r}, pos, end)")

    def field_ends(self, c: Lines, f: Field) -> None:
        if not self.t.unwrap:
            c(f"tr.end(pos, v_{f.id}{self.flags(f)})")

    def element_begins(self, c: Lines, f: Field, mark: bool = False) -> None:
        if mark:
            c("tr_mark = tr.mark()")
        c("tr.element(i, pos, end)")

    def element_ends(self, c: Lines, f: Field, elem: str) -> None:
        c(f"tr.end(pos, {elem}{self.flags(f, element=True)})")

    def element_cut(self, c: Lines) -> None:
        c("tr.cut(tr_mark)")

    def offsets_moved(self, c: Lines, by: str) -> None:
        c(f"tr.shift({by})")

    def content_begins(self, c: Lines, read_from: str | None) -> None:
        if read_from == "processed":
            c("tr.enter(b2 is not buf)")
        elif read_from == "copy":  # a copy of the field's bytes, which start at `pos`
            c("tr.shift(pos)")

    def content_ends(self, c: Lines, read_from: str | None) -> None:
        if read_from == "processed":
            c("tr.leave()")
        elif read_from == "copy":
            c("tr.shift(-pos)")

    def checksum_held(self, c: Lines, start: str, end: str) -> None:
        c(f"tr.vouch({start}, {end})")

    def flags(self, f: Field, element: bool = False) -> str:
        """What a field's range is evidence of (`logcodec.runtime.trace`): a rule checks it, a length
        read from the input sizes it (each element's, in a list), or it holds the bytes of a list's
        cut-off last element (it follows a `-lc-partial-tail` list)."""
        flags = []
        if not element and (f.contents is not None or f.valid):
            flags.append("RULE")
        if f.size is not None and not isinstance(f.size, E.Num) and element == bool(f.repeat):
            flags.append("FRAMED")
        at = self.plan.index.get(f.id)
        if not element and at and self.t.seq[at - 1].partial_tail and self.t.seq[at] is f:
            flags.append("TAIL")
        return f", {' | '.join(flags)}" if flags else ""
