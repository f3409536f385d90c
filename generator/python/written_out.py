"""A list's element written out in its loop (in the interpreted build only): its type's decoder as statements,
with its reads checked once after it, and read again by that decoder on any doubt."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .. import expr as E
from ..layout import (
    parent_names,
    reads_bits_one_by_one,
)
from ..schema import Field, TypeDef
from ..walk import calls_spending
from .code import EXPRESSION_ERRORS, Lines, Uses
from .typecode import ELEMENTS_TAKEN


@dataclass
class WrittenElement:
    """A type's decoder as statements for a list's loop (`WrittenOut.inline_decoder`), its names
    apart from the caller's: its lines and what they use (`Uses`, its locals named as in the
    lines), the declarations of its locals (which the caller declares where they are used), and
    the names of its fields' and value instances' values and of its tuple form's."""

    lines: list[str]
    uses: Uses
    locals: list[tuple[str, str]]
    values: list[str]
    form: list[str]


class WrittenOut:
    """The written-out elements of a decoder (mixed into `Decoder`)."""

    def inline_decoder(self, kept: set[str]) -> WrittenElement:
        """This type's decoder as statements for its list's loop (`decode_listed`), which reads
        from `buf[pos:end]` as a call would. Its locals, its params (but those in `kept`, which
        the caller passes as its own of the same name) and its loops' counters and what it reads
        through `_parent` (`pp_items`, bound by `written_out` as the caller's local a call would
        pass: `parent_locals`) are named after the type (`header_v_key`, `record_i`,
        `message_pp_items`), apart from the caller's; only code refers to them (error paths
        name the bare field ids)."""
        t, c = self.t, Lines(self.m.build, indent=0, unbounded=True, pair_table=True)
        self.lines, self.encoding, self.computed_instances = c, False, set()
        self.scope.encoding = False
        self.decode_seq(c)
        for inst in t.instances:  # where its decoder computes them: after the fields
            self.need_instances(E.Name(inst.id))
        names = [f"{prefix}{f.id}" for f in t.seq for prefix in ("v_", "g_", "gb_", "s_", "on_", "_e")]
        names += [f"i_{inst.id}" for inst in t.instances]
        names += [f"p_{p.id}" for p in t.params if p.id not in kept] + [f"pp_{n}" for n in self.hidden]
        names += ["i", "count", "before"]
        own = re.compile(rf"(?<![.\w])({'|'.join(map(re.escape, names))})\b")
        rename = lambda text: own.sub(rf"{t.name}_\1", text)  # noqa: E731
        renamed = set(names)
        rename_local = lambda name: f"{t.name}_{name}" if name in renamed else name  # noqa: E731
        uses = Uses()
        uses.update(c.uses, rename_local)
        form = self.m.tuple_form(t) if self.m.tuple_decoded(t) else []
        # typed as its decoder's: a list of the holder's values, whose fields may be None, is Any there
        decls = self.field_decls() + [(name, f"    {name}: Any") for name in names if name.startswith(("i_", "pp_"))]
        return WrittenElement(
            [rename(line) for line in c.lines], uses,
            [(rename_local(name), rename(line)) for name, line in decls] + self.inlined_decls,
            [f"{t.name}_v_{f.id}" for f in t.seq] + [f"{t.name}_i_{inst.id}" for inst in t.instances],
            [f"{t.name}_v_{f.id}" for f in form])

    def decode_listed(self, c: Lines, f: Field, elem: str) -> None:
        """Read one element of the list `f` into `elem` (or, in `decode_columns`, into its
        columns): in the interpreted build, its type's decoder written out here
        (`inlined_element`); in the compiled build, and for the other types, a call of it."""
        u = self.inlined_element(f)
        if u is None:
            self.decode_element(c, f, elem, "", wrap=None)
            return
        args = {param.id: self.expr(arg) for param, arg in zip(u.params, f.type.args)}
        kept = {name for name, arg in args.items() if arg == f"p_{name}"}
        child = self.writing_out(u)
        child.tuples_read = self.tuple_elements(f)  # `read_tuples_asked` read it before this loop
        element = child.inline_decoder(kept)
        guarded = child.guarded_expressions() or child.inlined_guarded
        if c.unbounded:  # inside an element written out itself, which is read again on any doubt
            self.written_out(c, f, u, elem, args, kept, element)
            self.inlined_guarded |= guarded  # the outer element's fallback catches what they raise
        else:
            self.read_then_checked(c, f, u, elem, args, kept, element, guarded)
        self.inlined_decls += [d for d in element.locals if d not in self.inlined_decls]

    def read_then_checked(self, c: Lines, f: Field, u: TypeDef, elem: str, args: dict, kept: set,
                          element: WrittenElement, guarded: bool) -> None:
        """A written-out element (`decode_listed`) read without checking its reads of a few bytes
        (a varint's, a fixed field's) against `end` one by one (`Lines.unbounded`): after it,
        `pos` must not have passed `end`. A read past `end` that passes it, or past the input
        (IndexError, struct.error), or any DecodeError, and the element is read again by its
        type's decoder, which checks each read and names what is wrong: so a value read both
        ways is the same, and so is an error. The elements taken from the budget inside it
        (`spend_elements`, counted in `ELEMENTS_TAKEN`) are given back first. Where an expression
        of it may fail on the input (`guarded`: an index, a division), its decoder turns Python's
        error into a DecodeError; here any of those errors reads the element again the same way.

        Each check that passes reads a byte below where the element ends, so none of them could
        have failed where `pos` ends at or before `end`. Reads whose length comes from the input
        are still checked first, so that no copy is made of bytes beyond `end`. Interpreted, the
        checks were 5-9 % of a Kafka record's decoding (four two-byte varints, A/B)."""
        spends = ELEMENTS_TAKEN in element.uses.locals
        c("elem_at = pos")
        if spends:
            c(f"{ELEMENTS_TAKEN} = 0")
        with c.block("try:"):
            self.written_out(c, f, u, elem, args, kept, element, check_end=True)
        caught = f"{EXPRESSION_ERRORS if guarded else 'IndexError'}, _struct.error, _rt.DecodeError"
        with c.block(f"except ({caught}):"):
            if spends:
                c(f"lim[{c.budget('ELEMENTS_RESERVED')}] += {ELEMENTS_TAKEN}")
            c("pos = elem_at")
            self.decode_element(c, f, elem, "", wrap=None)

    def written_out(self, c: Lines, f: Field, u: TypeDef, elem: str, args: dict, kept: set,
                    element: WrittenElement, check_end: bool = False) -> None:
        """The statements of `decode_listed`'s written-out element: its params bound, its decoder's
        lines, and the element made (or, in `decode_columns`, its fields appended); with
        `check_end`, between the two, the check that its reads ended before `end`
        (`read_then_checked`)."""
        for name, arg in args.items():
            if name not in kept:
                c(f"{u.name}_p_{name} = {arg}")
        for name, local in self.parent_locals(u).items():
            c(f"{c.local(f'{u.name}_pp_{name}')} = {local}")
        c.include(element.lines, element.uses)
        if check_end:
            c("if pos > end: raise IndexError  # read again, checked")
        self.element_made(c, f, u, elem, element.values, element.form)

    def element_made(self, c: Lines, f: Field, u: TypeDef, elem: str, values: list[str], form: list[str]) -> None:
        """A written-out element made from its fields' values: its tuple form when asked, else its
        value object, made without a call of its class (`_new`, then a store per field, as its
        `__init__` would): the call of a Python `__init__` costs more than its stores (a Kafka
        record's 200 ns against 130, `timeit`)."""
        if self.tuple_elements(f):
            with c.block("if elem_tuples:"):
                c(f"{elem} = ({', '.join(self.m.tuple_items(u, form))}{',' if len(form) == 1 else ''})")
            with c.block("else:"):
                self.object_made(c, u, elem, values)
        else:
            self.object_made(c, u, elem, values)

    def object_made(self, c: Lines, u: TypeDef, elem: str, values: list[str]) -> None:
        """`elem = _new(Class)`, then its seq's fields set to `values` and its instances (a
        value each after those) to the rest, as its `__init__` sets them."""
        c(f"{c.local(elem)} = {c.new_object()}({u.class_name})")
        for g, value in zip(u.seq, values):  # only a conditional field's value may be None
            c(f"{elem}.{g.id} = {self.m.init_value(g, value) if g.if_expr is not None else value}")
        for inst, value in zip(u.instances, values[len(u.seq):]):
            c(f"{elem}.{inst.id} = {value}")

    def made_by_new(self) -> bool:
        """Whether this type's decoder makes its value by `_new` (in the interpreted build), as a
        written-out element is made (`element_made`): a type of our formats whose decoder a
        list's loop calls once per element, as it does not write it out (a TANK segment's entry,
        which holds a bundle: `inlined_element`). Made so, a TANK message decoded 11 % faster in
        pure Python, before messages were written out."""
        t = self.t
        if self.m.build.compiled:  # mypyc compiles the class's `__init__`: its call is cheap
            return False
        plain = self.m.nav is None and t.schema.strict and not self.m.exposed_params(t) and not self.m.exposes_io
        return plain and any(
            self.listed_user(f) is t and self.decoder_of(holder).inlined_element(f) is None
            for holder in self.m.types for f in holder.seq)

    def inlined_element(self, f: Field) -> TypeDef | None:
        """The type of a list's elements whose decoder the list's loop writes out in the
        interpreted build. One of this schema's types (an imported one's module has its helpers), of
        our formats, read where the list reads it: no size, process or terminator of the field;
        no positional instance or bit read one by one of its own. Its value instances are
        computed after its fields, as its decoder computes them; what it reads through `_parent`
        is the loop's own local (`parent_locals`: the list read so far, where a TANK message
        reads the one before it), which a generator (`keeps_list` false) does not keep. Its own lists'
        elements may be written out in turn, but not in a type's own code (`writing_out`). It
        calls no decoder that takes from the call's budget (`spends_budget`: a TANK segment's
        entry, which holds a bundle) and processes no field of its own: what the element took is
        given back before it is read again (`read_then_checked`), so only the counts it takes
        itself may be spent in it, lest a budget spent twice report another error than its
        decoder would.

        The interpreter pays for a call, the tuple it returns and a value object's `__init__`
        (`element_made`). Written out, a Kafka record's headers decoded 5 % faster in pure
        Python; the records written out in the batch's decoder too, 7-10 % faster as tuples and
        5-7 % as objects (and 7-9 % more with the objects made by `_new`); in the batch's
        generator, 2-4 %. That costs about 1,000 lines of generated code over our formats.
        The compiled build keeps the call: with the headers inlined, records without headers
        decoded 4-7 % slower; with the records inlined in the generator, whose locals mypyc keeps
        in the generator's object, 4-10 % slower."""
        u = self.listed_user(f)
        if (self.m.build.compiled or u is None or u.schema is not self.t.schema or not u.schema.strict or self.m.nav is not None
                or f.size is not None or f.size_eos or f.process or f.terminator is not None
                or any(inst.field is not None for inst in u.instances) or reads_bits_one_by_one(u)
                or (not self.keeps_list and parent_names(u)) or u is self.t or id(u) in self.written_in):
            return None
        child = self.writing_out(u)
        for g in u.seq:
            if g.process:
                return None
            inlined = child.inlined_element(g) if g.repeat else None  # checked in turn
            if inlined is None and calls_spending(g.type):
                return None
        return u

    def writing_out(self, u: TypeDef):
        """The emitter of a type written out in this one's code: a type that holds itself (a
        tree's nodes) is not written out inside itself, which would never end."""
        child = self.decoder_of(u)
        child.written_in = self.written_in | {id(self.t)}
        return child
