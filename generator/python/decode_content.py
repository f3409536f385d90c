"""A decoder's reading of one element of a field into its value (mixed into `Decoder`), by what
bounds it and what it is: sized, processed, terminated or padded, contents, a fixed-width value,
a varint, bits, a structure (its decoder called, its errors placed), a switch, text; and the
bytes of a sized field beyond its value, which a user's schema carries back to its encoder."""

from __future__ import annotations

import codecs

from .. import expr as E
from ..layout import FLOAT_CODES, STRUCT_CODES, reads_bits, size_held_non_negative
from ..schema import Field, TypeRef
from .code import Lines
from .shapes import codec_arg, int_at, primitive_of


class ContentReads:
    """One element of a decoder's field (`Decoder`), read into its value."""

    def decode_element(self, c: Lines, f: Field, target: str, epath: str, wrap: str | None,
                       size: str | None = None, ref: TypeRef | None = None) -> None:
        """Read one element of `f` into `target`. `epath` is the path of errors raised here;
        `size`, its size computed beforehand; `ref`, one case of its switch (its type by default)."""
        ref = ref or f.type
        c.local(target)
        sized = f.size is not None or f.size_eos
        if sized and ref.kind == "switch" and any(case.kind in ("int", "float") for _, case in ref.cases):
            self.sized_switch_of_numbers(c, f, ref, target, epath, wrap, size)
            return
        if sized:
            c.local("e")
            if f.size_eos:
                c("e = end")
            else:
                n = size or self.expr(f.size)
                fixed = size is None and isinstance(f.size, E.Num) and type(f.size.value) is int and f.size.value >= 0
                if not fixed and not self.typed_int_local(n):  # a field's int (`v_len_key`) is read as it is
                    c(f"n = {n}")
                    n = c.local("n")
                if not fixed and not size_held_non_negative(f):
                    c(f"if {n} < 0: raise _rt.bad_length({n}, pos, {epath!r})")
                c(f"e = pos + {n}")
                c(f"if e > end: raise _rt.short(buf, pos, end, {n}, {epath!r})")
            self.checksum_at_extent(c, f)
            bounds = ("buf", "pos", "e")
            cut = f.pad_right is not None or f.terminator is not None
            if f.process and cut:  # as Kaitai: padding and terminator go first, then the processor
                c(f"bc = {c.helper('cut')}(buf[pos:e], {f.pad_right!r}, {f.terminator!r}, {f.include})")
            if f.process:
                name, args = f.process
                name = self.m.processor(name)
                extra = "".join(", " + self.expr(a) for a in args)
                if self.m.nav is not None and any(E.Name("_io") in E.walk(a) for a in args):
                    # Kaitai computes the arguments once the bytes are read (`_io.pos` is after them)
                    c(f"{c.local('x')}, pos = pos, e; pa = ({extra[2:]},); pos = x")
                    extra = ", *pa"
                passes = not cut and extra != ", *pa" and self.passes_through(f)
                if passes:  # the call, interpreted, is skipped for them
                    c(f"pt_{f.id} = {extra[2:]}")
                    c(f"if pt_{f.id} in _PASS_{name}: {c.local('b2')}, s2, e2 = buf, pos, e")
                    c("else:")
                    c.indent += 1
                    extra = f", pt_{f.id}"
                with c.block("try:"):
                    c(f"{c.local('b2')}, s2, e2 = {name}.decode({'bc, 0, len(bc)' if cut else 'buf, pos, e'}, lim{extra})")
                with c.block("except _rt.DecodeError as exc:"):
                    c(f"raise exc.within({epath!r})" if epath else "raise")
                if f.id in self.m.model.plan(self.t).keeps_raw and not self.encoding:
                    # the bytes as read, which encoding writes back while they give the content
                    kept = f"me._wire_{f.id}" if self.m.nav is not None else c.local(f"w_{f.id}")
                    c(f"{kept} = bytes(buf[pos:e])")
                if passes:
                    c.indent -= 1
                bounds = ("b2", "s2", "e2")
            read_from = "processed" if f.process else None
            if self.trimmed_structure(f) and not f.process:  # bytes and text trim themselves (decode_content)
                b, s, e = bounds
                c(f"{c.local('b2')} = {c.helper('cut')}({b}[{s}:{e}], {f.pad_right!r}, {f.terminator!r}, {f.include}); s2, e2 = 0, len(b2)")
                self.carry(c, f, f"{b}[{s} + len(b2):{e}]")
                bounds, read_from = ("b2", "s2", "e2"), "copy"
            self.content_begins(c, read_from)
            self.decode_content(c, f, ref, target, epath, wrap, bounds, trimmed=not f.process)
            self.content_ends(c, read_from)
            if f.contents is not None:  # a sized `contents`: Kaitai reads the size, then compares
                c(f"if {target} != {f.contents!r}: raise _rt.invalid('wrong magic', pos, {epath!r})")
            if ref.kind in ("bytes", "str", "user") and f.type.kind != "switch":
                self.check_valid(c, f, "pos", target, epath)  # `valid` on bytes, text and a structure, at the field
            c("pos = e")
        elif f.terminator is not None and self.trimmed_structure(f):
            # A structure read from the bytes up to its terminator, as from a substream; `pos`
            # stays at the field's start (errors inside point there) until the end is taken.
            c.locals(("b2", "e"))
            c(f"b2, e = {c.helper('read_term')}(buf, pos, end, {f.terminator!r}, {f.include}, {f.consume}, {f.eos_error}, "
              f"{epath!r})")
            self.carry_no_terminator(c, f, "e")
            c("s2, e2 = 0, len(b2)")
            if f.process:  # the bytes before the terminator, processed
                name, args = f.process
                extra = "".join(", " + self.expr(a) for a in args)
                with c.block("try:"):
                    c(f"b2, s2, e2 = {self.m.processor(name)}.decode(b2, 0, len(b2), lim{extra})")
                with c.block("except _rt.DecodeError as exc:"):
                    c(f"raise _rt.in_field(exc, pos, True).within({epath!r})" if epath else "raise _rt.in_field(exc, pos, True)")
            read_from = "processed" if f.process else "copy"
            self.content_begins(c, read_from)
            self.decode_content(c, f, ref, target, epath, wrap, ("b2", "s2", "e2"), trimmed=not f.process)
            self.content_ends(c, read_from)
            c("pos = e")
        elif f.contents is not None:
            n = len(f.contents)
            c.bound(f"if pos + {n} > end: raise _rt.short(buf, pos, end, {n}, {epath!r})")
            c(f"if buf[pos:pos + {n}] != {f.contents!r}: raise _rt.invalid('wrong magic', pos, {epath!r})")
            c(f"{target} = {f.contents!r}; pos += {n}")
        else:
            self.decode_unsized(c, f, ref, target, epath, wrap)
        if f.enum is not None and ref.kind in ("int", "bits") and (f.repeat or f.if_expr or f.size is not None):
            c(f"{target} = {self.m.enum_member(c, f.enum, target)}")

    def sized_switch_of_numbers(self, c: Lines, f: Field, ref: TypeRef, target: str, epath: str, wrap,
                                size: str | None) -> None:
        """A sized switch with a number among its cases: Kaitai's parser reads a number case where
        the stream is, as if the field had no size (the size takes no bytes then); the size bounds
        its other cases, and no case reads its bytes. So the switch goes first, each case sized or not."""
        def case(case_ref: TypeRef) -> None:
            if case_ref.kind in ("int", "float"):
                self.decode_unsized(c, f, case_ref, target, epath, wrap)
            else:
                self.decode_element(c, f, target, epath, wrap, size, case_ref)
        self.switch(c, f, ref, case, lambda: self.decode_element(c, f, target, epath, wrap, size, TypeRef("bytes")))

    def columns_arg(self, ref: TypeRef) -> str:
        """What an element's decoder is given for the columns of `decode_columns`: nothing here."""
        return ""

    def by_shifts(self, sizes: list[int]) -> bool:
        """Whether integers of these sizes, read together, are read by shifts of their bytes
        (`int_at`) and not by a struct: every one in a compiled build, which mypyc makes C; one of
        a byte or two alone in either (Kafka's attributes), cheaper than a struct's call and its
        tuple (compiled, 2.5 % of a 10-record batch's decoding; interpreted, 1 %)."""
        return self.m.build.compiled or (len(sizes) == 1 and sizes[0] <= 2)

    def decode_unsized(self, c: Lines, f: Field, ref: TypeRef, target: str, epath: str, wrap) -> None:
        """An element that no size bounds, read where it starts, by what it is: up to its
        terminator, a varint, a fixed-width number, bits one by one, a structure, a switch's case."""
        prim = primitive_of(ref)
        if f.terminator is not None and ref.kind in ("bytes", "str"):
            raw = "d" if ref.kind == "str" else target
            c(f"{raw}, pos = {c.helper('read_term')}(buf, pos, end, {f.terminator!r}, {f.include}, {f.consume}, {f.eos_error}, "
              f"{epath!r})")
            self.carry_no_terminator(c, f, "pos")
            if ref.kind == "str":
                # where the value starts: before pos by its length, and by a terminator consumed
                # but not in it (or after one in it but not consumed)
                taken = len(f.terminator) * (int(f.consume) - int(f.include))
                self.decode_text(c, ref, target, "d", f"pos - len(d) - {taken}" if taken else "pos - len(d)",
                                 epath, "buf")
            self.check_valid(c, f, "pos", target, epath)
        elif prim is not None:
            if f.valid:  # checked on the number, and named where the varint starts
                c(f"{c.local('at_varint')} = pos")
            prim.decode(c, target, epath)
            self.check_valid(c, f, "at_varint", target, epath)
        elif ref.kind in ("int", "float"):
            if ref.kind == "int" and ref.size == 1 and not ref.signed:
                c.bound(f"if pos >= end: raise _rt.short(buf, pos, end, 1, {epath!r})")
                c(f"{target} = buf[pos]; pos += 1")
            else:
                c.bound(f"if pos + {ref.size} > end: raise _rt.short(buf, pos, end, {ref.size}, {epath!r})")
                if ref.kind == "int" and self.by_shifts([ref.size]):
                    c(f"{target} = {int_at('buf', 'pos', ref.size, ref.signed, ref.endian)}; pos += {ref.size}")
                else:
                    code = STRUCT_CODES[(ref.size, ref.signed)] if ref.kind == "int" else FLOAT_CODES[ref.size]
                    name = self.m.struct((">" if ref.endian == "be" else "<") + code)
                    c(f"{target}, = {name}.unpack_from(buf, pos); pos += {ref.size}")
            self.check_valid(c, f, f"pos - {ref.size}", target, epath)
        elif ref.kind == "bits":  # one by one (reads_bits_one_by_one)
            c(f"{target}, pos, bb, bl = _rt.read_bits_{ref.endian}(buf, pos, end, {ref.size}, bb, bl, {epath!r})")
            if ref.size == 1:
                c(f"{target} = {target} != 0")
            elif f.enum is not None and not (f.repeat or f.if_expr or f.size is not None):
                c(f"{target} = {self.m.enum_member(c, f.enum, target)}")
            self.check_valid(c, f, "pos", target, epath)
        elif ref.kind == "user":
            args = self.call_args(ref, f=f) + self.as_tuple_arg(f) + self.columns_arg(ref)
            self.call_decoder(c, f"{target}, pos = _d_{ref.user.name}(buf, pos, end, lim{args}{self.trace_arg()})", wrap)
            if f.type.kind == "user":  # (a switch's `valid` reads the field, whatever its case)
                self.check_valid(c, f, "pos", target, epath)
        elif ref.kind == "switch":
            # No case for the value: an error in our formats; in a user's schema nothing is read and
            # the field is null, as Kaitai's parsers do.
            no_case = (self.no_case_raised(f, ref, epath) if self.t.schema.strict or f.no_case
                       else f"{target} = None")

            def case(case_ref: TypeRef) -> None:
                if self.plan.bits_one_by_one and reads_bits(ref) and case_ref.kind != "bits":
                    c("bb = 0; bl = 0")  # a byte-aligned case: the bits left in the last byte are skipped
                self.decode_unsized(c, f, case_ref, target, epath, wrap)
            self.switch(c, f, ref, case, lambda: c(no_case))

    def iterates(self, f: Field) -> bool:
        """Whether the field's elements are decoded when an iterator reaches them (`Iterator`)."""
        return False

    def decode_content(self, c: Lines, f: Field, ref: TypeRef, target: str, epath: str, wrap, bounds,
                       trimmed: bool = True) -> None:
        """Read `target` from bounds (buffer, start, end); bytes and text are cut at their padding
        and terminator here, unless `trimmed` is false (a processor's output: cut before it)."""
        b, s, e = bounds
        trimmed = trimmed and (f.pad_right is not None or f.terminator is not None)
        raw = f"{c.helper('cut')}({b}[{s}:{e}], {f.pad_right!r}, {f.terminator!r}, {f.include})" if trimmed else f"{b}[{s}:{e}]"
        if ref.kind == "bytes":
            c(f"{target} = {raw}")
            if trimmed:
                self.carry(c, f, f"{b}[{s} + len({target}):{e}]")
        elif ref.kind == "str":
            if trimmed:
                c(f"d = {raw}")
                self.carry(c, f, f"{b}[{s} + len(d):{e}]")
            self.decode_text(c, ref, target, "d" if trimmed else raw, s, epath, b)
        elif ref.kind == "user" and self.iterates(f):
            self.decode_later(c, f, ref, target, bounds)
        elif ref.kind == "user" and not primitive_of(ref):
            args = self.call_args(ref, s, f)
            call = f"{target}, {c.local('p')} = _d_{ref.user.name}({b}, {s}, {e}, lim{args}{self.as_tuple_arg(f)}{self.trace_arg()})"
            self.call_decoder(c, call, wrap, sized=True, processed=b != "buf", open_ended=f.size_eos)
            # A structure that leaves bytes of its size unread is an error in our formats; Kaitai's
            # parsers leave them, and so does a user's schema (they are not written back).
            if self.t.schema.strict:
                c(f"if p != {e}: raise {self.anchored(f'_rt.trailing({b}, p, {e}, {epath!r})', b)}")
            else:
                self.carry(c, f, f"{b}[p:{e}]")
        elif ref.kind == "switch":
            self.switch(c, f, ref, lambda case: self.decode_content(c, f, case, target, epath, wrap, bounds, trimmed),
                        lambda: c(f"{target} = {b}[{s}:{e}]"))
        else:
            # a fixed-width value in a sized field: read it at the start of the slice (of the
            # processed bytes, when there are)
            c(f"{c.local('p')}, end_outer = pos, end")
            if b != "buf":
                c(f"buf_outer, buf = buf, {b}")
            c(f"pos, end = {s}, {e}")
            self.decode_unsized(c, f, ref, target, epath, wrap)
            c(f"if pos != end: raise _rt.trailing(buf, pos, end, {epath!r})")
            c("pos, end = p, end_outer")
            if b != "buf":
                c("buf = buf_outer")

    def carry(self, c: Lines, f: Field, tail: str) -> None:
        if self.carries() and f in self.t.seq and not self.encoding:
            c(f"tail = {tail}")
            with c.block("if tail:"):
                self.carried(c, f, "tail")

    def carried(self, c: Lines, f: Field, tail: str) -> None:
        """Keep on the value the bytes `tail` of the sized field `f` that are not its value
        (`_carried`, made for the first: None before, which the class declares), which encoding
        gives back."""
        with c.block("if me._carried is None:"):
            c("me._carried = {}")
        c(f"me._carried[{self.carried_key(f)}] = {tail}")

    def carry_no_terminator(self, c: Lines, f: Field, after: str) -> None:
        """A value read up to a terminator that the end of the data came before (`eos-error:
        false`): an empty tail says so, and the encoder writes no terminator either."""
        if self.carries_terms() and not f.eos_error and f in self.t.seq and not self.encoding:
            term = f.terminator
            with c.block(f"if {after} >= end and buf[end - {len(term)}:end] != {term!r}:"):
                self.carried(c, f, "b''")

    def decode_text(self, c: Lines, ref: TypeRef, target: str, part: str, first: str, epath: str, b: str) -> None:
        """`target` = the bytes `part` as text; a bad byte is invalid_value at `first` (where
        `part` starts in `b`) plus its offset."""
        try:
            codec = codecs.lookup(ref.encoding)
        except LookupError:  # an instance of a user's schema (schema.py refuses the rest): an error when read
            c(f"raise _rt.invalid({f'unknown encoding {ref.encoding!r}'!r}, {first}, {epath!r})")
            return
        with c.block("try:"):
            c(f"{target} = {part}.decode({codec_arg(codec.name)})")
        with c.block("except UnicodeDecodeError as exc:"):
            error = f"_rt.invalid(f'not {ref.encoding}: {{exc.reason}}', {first} + exc.start, {epath!r})"
            c(f"raise {self.anchored(error, b)} from None")

    @staticmethod
    def anchored(error: str, b: str) -> str:
        """An error raised at an offset of `b`: when `b` holds processed (decompressed) bytes,
        that offset means nothing in the input, and the error is moved to the stored field."""
        return error if b == "buf" else f"_rt.in_field({error}, pos, b2 is not buf)"

    def call_decoder(self, c: Lines, call: str, wrap: str | None, sized: bool = False, processed: bool = False,
                     open_ended: bool = False) -> None:
        """Call a type's decoder; errors get this field's path, and leave a sized field re-anchored."""
        if wrap is None and not sized:
            c(call)
            return
        with c.block("try:"):
            c(call)
        with c.block("except _rt.DecodeError as exc:"):
            if sized:
                open_ended = ", e >= len(buf)" if open_ended else ""
                c(f"_rt.in_field(exc, pos, {'b2 is not buf' if processed else 'False'}{open_ended})")
            c(f"raise exc.within({wrap!r})" if wrap else "raise")
