"""An encoder's writing of its type's fields (mixed into `Encoder`): a run of fixed fields (one
struct, bit groups joined, packed at once or once its derived values are known), a field present
or not and the list it may be, one element by what bounds it (sized, processed, terminated,
padded) and by what it is (a fixed-width value, a varint, bytes, text, a structure's encoder, a
switch's case), each value checked against what the schema says of it."""

from __future__ import annotations

from .. import expr as E
from ..layout import (
    FLOAT_CODES,
    STRUCT_CODES,
    Item,
    number_run,
    reads_bits,
    reads_to_its_end,
)
from ..schema import Field, TypeRef
from .code import Lines
from .shapes import PYTHON_ERRORS, codec_arg, primitive_of
from .translate import remote_lengths


class FieldWrites:
    """The fields of an encoder (`Encoder`), written in order."""

    def encode_field(self, c: Lines, f: Field) -> None:
        """A field that is no part of a run: missing or set against its condition, a placeholder
        for a size written before its range, else its value; the ranges it closes computed."""
        self.prepare([f])
        self.mark(c, f.id)
        if f.id in self.deferred:
            # a size written as a varint before its range: a placeholder part, filled when the range closes
            c(f"a_{f.id} = len(out)")
            c("out.append(b'')")
            self.varint_sizes.add(f.id)
            self.close_ranges_encode(c, f.id)
            return
        if f.if_expr is not None and self.stream_bound(f.if_expr):
            # whether the decoder read it depends on the stream (`_io.eof`): the value says
            with c.block(f"if v_{f.id} is not None:"):
                self.encode_value(c, f)
        elif f.if_expr is not None:
            with c.block(f"if {self.expr(f.if_expr)}:"):
                c(f"if v_{f.id} is None: raise _rt.missing({f.id!r})")
                self.encode_value(c, f)
            c(f"elif v_{f.id} is not None: raise _rt.invalid_encode('is set, but its condition is false', None, {f.id!r})")
        elif self.m.nav is not None and f.type.kind == "switch" and not f.repeat and all(k is not None for k, _ in f.type.cases):
            # Kaitai's null when no case matches: nothing is written, where no case matches
            if not self.stream_bound(f.type.switch_on):  # (else no case to check it against: the value says)
                with c.block(f"if v_{f.id} is None:"):
                    keys = ", ".join(self.expr(k) for k, _ in f.type.cases)
                    c(f"if {self.expr(f.type.switch_on)} in ({keys},): raise _rt.missing({f.id!r})")
            with c.block(f"if v_{f.id} is not None:" if self.stream_bound(f.type.switch_on) else "else:"):
                self.encode_value(c, f)
        else:
            if not f.derived and (f.contents is None or f.repeat):  # (contents left None: the schema's)
                c(f"if v_{f.id} is None: raise _rt.missing({f.id!r})")
            self.encode_value(c, f)
        self.close_ranges_encode(c, f.id)

    def encode_value(self, c: Lines, f: Field) -> None:
        """A field's value: its element, or its list's elements (by a fast loop where it has one),
        each element's errors naming its index."""
        if f.repeat:
            if f.repeat == "expr" and not self.stream_bound(f.repeat_expr):
                c(f"if len(v_{f.id}) != {self.expr(f.repeat_expr)}: raise _rt.mismatch({f.id!r}, {self.expr(f.repeat_expr)}, len(v_{f.id}))")
            comp = 'f"[{i}]"' if self.t.unwrap else f'f"{f.id}[{{i}}]"'
            c("i = 0")
            self.scope.extra["_index"] = ("i", "int")
            items = f"v_{f.id}"
            if self.takes_tuples(f) and f not in self.t.seq:  # a field's list is declared untyped
                items = f"_cast(Any, {items})"  # value objects or tuples, in a list or a tuple form's tuple: unchecked
            def slow(c: Lines) -> None:
                self.encode_element(c, f, f"x_{f.id}", "", wrap=None)

            def each(c: Lines) -> None:
                with c.block(f"for i, x_{f.id} in enumerate({items}):"):
                    slow(c)
            run = number_run(f)
            with c.block("try:"):
                if run is not None:
                    # the whole list in one call (an empty one writes nothing); on any doubt, each
                    # number on its own names the one at fault
                    with c.block(f"if {items}:"):
                        with c.block("try:"):
                            c(f"{c.local('d')} = {self.m.number_runs(run.code)}[len({items})].pack(*{items})")
                        with c.block("except (_struct.error, TypeError, ValueError, OverflowError):"):
                            each(c)
                        with c.block("else:"):
                            self.put(c, "d")
                elif not self.fast.loop(c, f, items, slow):
                    each(c)
            del self.scope.extra["_index"]
            with c.block("except _rt.EncodeError as exc:"):
                c(f"raise exc.within({comp})")
            # an element of the wrong type, which a compiled build finds when it passes it on
            with c.block(f"except {PYTHON_ERRORS} as exc:"):
                c(f"raise _rt.wrap_encode(exc, {comp}) from None")
        else:
            self.encode_element(c, f, f"v_{f.id}", f.id, wrap=f.id)

    def encode_element(self, c: Lines, f: Field, var: str, epath: str, wrap) -> None:
        """One element of `f` (the local `var`), by what bounds it: a length's target already
        encoded, contents, a size (padded, processed, with carried bytes), a terminator, or
        nothing (`encode_content`)."""
        if f.valid and not self.checks_valid_in_content(f):
            self.check_valid_encode(c, f, var, epath)
        if f.size_of is None and self.plan.is_size_target(f):
            self.put(c, c.local(f"b_{f.id}"), typed=True)
            return
        if f.contents is not None:
            c(f"if {var} is not None and {var} != {f.contents!r}: raise _rt.contents_differ({var}, {f.contents!r}, {epath!r})")
            self.put(c, repr(f.contents), len(f.contents))
            return
        # (a structure read to the end of its stream in a user's schema: written with what it left unread)
        tail_eos = f.size_eos and self.carries() and f.type.kind in ("user", "switch")
        if f.process or ((f.size is not None or f.size_eos) and self.trimmed_structure(f)) or (
                f.size is not None and f.type.kind not in ("bytes", "str")) or tail_eos:
            with self.temporary(c, f"t_{f.id}"):
                self.encode_content(c, f, f.type, var, epath, wrap)
            # A number case of a sized switch is written as it is: its decoder ignores the size.
            numbers = f.type.kind == "switch" and not f.process and f.size is not None and any(
                case.kind in ("int", "float") for _, case in f.type.cases)
            if numbers:
                c(f"if type({var}) is not int and type({var}) is not float:")
                c.indent += 1
            if self.carries() and f in self.t.seq and f.type.kind in ("user", "switch") and not self.trimmed_structure(f):
                size = "None" if f.size is None or self.stream_bound(f.size) else self.expr(f.size)
                # zero padding only where the structure's decoder does not read it (it would be another value)
                pads = "" if self.pads_safely(f) else ", pad=False"
                c(f"d = _rt.with_tail(d, {size}, carried.get({self.carried_key(f)}){pads})")
            self.process_encode(c, f)
            if f.process and f.terminator is not None and f.size is None and not f.size_eos:
                c(f"d = _rt.terminated(d, {f.terminator!r}, {f.include}, {f.consume}, {epath!r})")
            elif self.trimmed_structure(f) or (f.process and (f.pad_right is not None or f.terminator is not None)):
                self.fill(c, f, epath)
            self.check_size_encode(c, f, "len(d)", epath)
            if numbers:
                c.indent -= 1
            self.put(c, "d")
            return
        if f.terminator is not None and self.trimmed_structure(f):
            with self.temporary(c, f"t_{f.id}"):
                self.encode_content(c, f, f.type, var, epath, wrap)
            self.put_terminated(c, f, epath)
            return
        if f.size is not None or (f.size_eos and (f.pad_right is not None or f.terminator is not None)):
            c(f"d = {var}.encode({codec_arg(f.type.encoding)})" if f.type.kind == "str" else f"d = _cast(bytes, {var})")
            if f.pad_right is not None or f.terminator is not None:
                self.fill(c, f, epath)
            self.check_size_encode(c, f, "len(d)", epath)
            self.put(c, "d")
            return
        if f.terminator is not None and f.type.kind in ("bytes", "str"):
            c(f"d = {var}.encode({codec_arg(f.type.encoding)})" if f.type.kind == "str" else f"d = _cast(bytes, {var})")
            self.put_terminated(c, f, epath)
            return
        self.encode_content(c, f, f.type, var, epath, wrap)

    @staticmethod
    def pads_safely(f: Field) -> bool:
        """Whether zeros after a sized structure's bytes, up to its size, decode to the same value:
        no case of it reads on to the end of its stream (`reads_to_its_end`)."""
        refs = [f.type] if f.type.kind == "user" else [case for _, case in f.type.cases]
        return not any(ref.kind == "user" and reads_to_its_end(ref.user) for ref in refs)

    def fill(self, c: Lines, f: Field, epath: str) -> None:
        """Pad or terminate `d` to the field's size, with the bytes a decode carried past its value
        where it kept them (`_carried`)."""
        size = "None" if f.size is None or self.stream_bound(f.size) else self.expr(f.size)
        tail = f", carried.get({self.carried_key(f)})" if self.carries() and f in self.t.seq else ""
        c(f"d = _rt.fill(d, {size}, {f.pad_right!r}, {f.terminator!r}, {f.include}, {epath!r}{tail})")

    def put_terminated(self, c: Lines, f: Field, epath: str) -> None:
        """A value read up to its terminator; none when the data had ended before it."""
        if self.carries_terms() and not f.eos_error and f in self.t.seq:
            c(f"if carried.get({self.carried_key(f)}) != b'':")
            c.indent += 1
        c(f"d = _rt.terminated(d, {f.terminator!r}, {f.include}, {f.consume}, {epath!r})")
        if self.carries_terms() and not f.eos_error and f in self.t.seq:
            c.indent -= 1
        self.put(c, "d")

    def check_size_encode(self, c: Lines, f: Field, actual: str, epath: str) -> None:
        """Check that the bytes written for `f` are as many as its size says, or fill in a length
        kept away from it (`-lc-derived`)."""
        if f.size is None or E.names(f.size) & self.deferred or self.stream_bound(f.size):
            return  # (a size the stream gives: the stream the bytes written make)
        size = self.expr(f.size)
        remote = remote_lengths(f.size, self.scope)
        if remote:
            # A length kept away from what it measures (before it, in another type): filled in here,
            # in the copy of its owner that the type holding both made for this encode.
            c(f"declared = {size}")  # read once: a path through the holder's value
            with c.block("if declared is None:"):
                c(f"{remote[0][0]} = {actual}")
            c(f"elif {actual} != declared: raise _rt.size_disagrees({epath!r}, declared, {actual})")
            return
        hint = self.underived_length(f)
        c(f"if {actual} != {size}: raise _rt.size_disagrees({epath!r}, {size}, {actual}{f', {hint!r}, {f.id!r}' if hint else ''})")

    def underived_length(self, f: Field) -> str:
        """The field of this type that a size reads, where the encoder does not compute it: a plain
        Kaitai length, which the value must carry (an error names it, and how a schema derives it)."""
        if f.repeat or not isinstance(f.size, E.Name):  # (each element's size: no one length to set)
            return ""
        length = self.t.field(f.size.name)
        return length.id if length is not None and not length.derived else ""

    def case_class_check(self, f: Field, ref: TypeRef, var: str, path: str) -> str:
        """The test that a switch's value holds the class of the case its selector chose (a value
        of another case's class would be written by the wrong encoder); none where the case was
        chosen by the value's class, or where a tuple form may stand for the value."""
        if f.type.kind != "switch" or ref.user.unwrap or self.selects_on_peek(f.type) or self.tuple_elements(f):
            return ""
        name = ref.user.class_name
        return (f"if not isinstance({var}, {name}): "
                f"raise _rt.wrong_case({var}, {name!r}, {f.type.switch_text!r}, {path!r})")

    def encode_content(self, c: Lines, f: Field, ref: TypeRef, var: str, epath: str, wrap) -> None:
        """`var` written as what `ref` is: a varint, a fixed-width number, bytes, text, a
        structure by its encoder, a switch's case (raw bytes where no case matches)."""
        prim = primitive_of(ref)
        if prim is not None:
            prim.encode(c, var, epath)
            self.put(c, "d")
        elif ref.kind in ("int", "float"):
            code = STRUCT_CODES[(ref.size, ref.signed)] if ref.kind == "int" else FLOAT_CODES[ref.size]
            self.check_valid_encode(c, f, var, epath)
            fmt = (">" if ref.endian == "be" else "<") + code
            self.pack(c, fmt, [var], self.m.layout([(epath, name_fmt(ref, code))]), ref.size)
        elif ref.kind == "bytes":
            self.put(c, self.bytes_given(var, epath))
        elif ref.kind == "str":
            self.put(c, f"{var}.encode({codec_arg(ref.encoding)})")
        elif ref.kind == "user":
            args = self.call_args(ref, f=f)
            check = self.case_class_check(f, ref, var, "" if wrap else epath)
            if f.type.kind == "switch":  # the case was chosen by the switch: tell the type checker
                var = f"_cast({self.m.value_type(ref.user)!r}, {var})"
            call = f"_e_{ref.user.name}({var}, {self.out}{args})"
            call = f"w += {call}" if self.out == "out" else call
            if wrap:
                with c.block("try:"):
                    if check:
                        c(check)
                    c(call)
                with c.block("except _rt.EncodeError as exc:"):
                    c(f"raise exc.within({wrap!r})")
            else:
                if check:
                    c(check)
                c(call)
        elif ref.kind == "bits":  # read one by one (`reads_bits_one_by_one`): written after the bits pending
            self.check_valid_encode(c, f, var, epath)
            value = f"{c.helper('check_bits')}({var}, {ref.size}, {epath!r})"
            c(f"{c.local('d')}, bb, bl = _rt.write_bits_{ref.endian}({value}, {ref.size}, bb, bl)")
            self.put(c, "d")
        elif ref.kind == "switch":
            default_ref = TypeRef("bytes")

            def case(case_ref: TypeRef) -> None:
                if self.plan.bits_one_by_one and reads_bits(ref) and case_ref.kind != "bits":
                    self.complete_bits(c, f.id)  # a byte-aligned case, as the decoder skips the bits left
                self.encode_content(c, f, case_ref, var, epath, wrap)

            def no_case() -> None:
                # As the decoder: an error where it raises one, else raw bytes. (A switch the
                # encoder picks by the value's class, `selects_on_peek`, has cases for classes:
                # another value is written as the raw bytes it must be.)
                unsized = f.size is None and not f.size_eos and not self.selects_on_peek(ref)
                if unsized and (self.t.schema.strict or f.no_case):
                    c(self.no_case_raised(f, ref, epath, "_rt.invalid_encode", "None"))
                else:
                    self.encode_content(c, f, default_ref, var, epath, wrap)
            self.switch(c, f, ref, case, no_case, value=var)

    def complete_bits(self, c: Lines, fid: str | None) -> None:
        """Before the byte-aligned field `fid` (None: the end of the type) of a type whose bits are
        written one by one: the bits pending completed to a byte with zero bits, written."""
        order = self.plan.bit_order_before(fid)
        with c.block("if bl:"):
            c(f"{c.local('d')} = _rt.bits_tail(bb, bl, {order!r}); bb = 0; bl = 0")
            self.put(c, "d")

    def encode_to_bytes(self, c: Lines, f: Field, var: str) -> None:
        """Encode the single element of a field (before any if) into a bytes object `var` (a
        `b_` local, untyped)."""
        ref = f.type
        c.local(var)
        if ref.kind == "bytes" and not f.process:
            c(f"{var} = {self.bytes_given(f'v_{f.id}', f.id)}")
            return
        if ref.kind == "str" and not f.process:
            c(f"{var} = v_{f.id}.encode({codec_arg(ref.encoding)})")
            return
        if ref.kind == "switch" and not f.process and not any(k is None for k, _ in ref.cases):
            # raw bytes unless a case matches: only the cases are encoded
            def case(case_ref):
                with self.temporary(c, f"t_{f.id}"):
                    self.encode_content(c, f, case_ref, f"v_{f.id}", f.id, wrap=f.id)
                c(f"{var} = d")
            self.switch(c, f, ref, case, lambda: c(f"{var} = {self.bytes_given(f'v_{f.id}', f.id)}"), value=f"v_{f.id}")
            return
        with self.temporary(c, f"t_{f.id}"):
            self.encode_content(c, f, ref, f"v_{f.id}", f.id, wrap=f.id)
        self.process_encode(c, f)
        c(f"{var} = d")

    @staticmethod
    def bytes_given(var: str, epath: str) -> str:
        """The bytes a bytes field is given: `bytes`, else the runtime's copy of a bytes-like
        value (measured in bytes, not in items) or its error naming the field. Unchecked, a str
        or a list went into the output's parts and failed only when they were joined, as
        "sequence item 11: expected a bytes-like object", at an index that depends on the parts."""
        return f"{var} if type({var}) is bytes else _rt.bytes_value({var}, {epath!r})"

    def process_encode(self, c: Lines, f: Field) -> None:
        """`d`, a processed field's bytes, through its processor (skipped for the arguments it
        passes through)."""
        if f.process:
            name, args = f.process
            name = self.m.processor(name)
            extra = "".join(", " + self.expr(a) for a in args)
            c.local("d")
            if self.passes_through(f):  # as the decoder skips the call for a "none" codec
                c(f"pt_{f.id} = {extra[2:]}")
                extra = f", pt_{f.id}"
                c(f"if pt_{f.id} not in _PASS_{name}: d = {self.processed(f, name, extra)}")
            else:
                c(f"d = {self.processed(f, name, extra)}")

    def processed(self, f: Field, name: str, extra: str) -> str:
        """The bytes of the processed field `f` whose content is `d`: those a decode kept where they
        still give it (`TypePlan.keeps_raw`: another encoder's compression, written back byte for
        byte), else the processor's output."""
        made = f"_cast(bytes, {name}.encode(d{extra}))"
        if f.id not in self.m.model.plan(self.t).keeps_raw:
            return made
        return f"_rt.written_again(getattr(v, '_wire_{f.id}', None), d, {name}{extra}) or {made}"

    def encode_run(self, c: Lines, run: list[Item]) -> None:
        """A run of fixed fields packed at once, each checked first; packed later where a derived
        field of it is known only once its range is written (`close_ranges_encode`)."""
        self.prepare(f for item in run for f in item.fields)
        fmt, size = self.run_format(run)
        values, off, deferred = [], 0, set()
        for item in run:
            for f in item.fields:
                self.mark(c, f.id, off)
                if f.id in self.deferred:
                    deferred.add(f.id)
                elif not f.derived:
                    c(f"if v_{f.id} is None: raise _rt.missing({f.id!r})")
                self.check_valid_encode(c, f, f"v_{f.id}")
            value = self.join_bits(c, item) if item.bits else f"v_{item.fields[0].id}"
            if item.bits and not any(f.id in self.deferred for f in item.fields):
                c(f"g_{item.fields[0].id} = {value}")  # one name for the group, packed and named in errors
                value = f"g_{item.fields[0].id}"
            if item.bits and item.code.endswith("s"):
                value = f"{value}.to_bytes({item.size}, {'big' if item.endian == 'be' else 'little'!r})"
            values.append(value)
            off += item.size
        layout = self.m.layout([(item.fields[0].id, (">" if item.endian == "be" else "<") + item.code) for item in run])
        if deferred:
            # packed once the derived values are known (close_ranges_encode)
            index = f"a_{run[0].fields[0].id}"
            c(f"{index} = len(out)")
            self.put(c, "b''", size)
            self.pending_runs.append((index, fmt, values, deferred, layout))
        else:
            self.pack(c, fmt, values, layout, size)
        for item in run:
            for f in item.fields:
                self.close_ranges_encode(c, f.id)

    def pack(self, c: Lines, fmt: str, values: list[str], layout: str, size: int, into: str | None = None) -> None:
        """`values` packed by the struct of format `fmt` (one byte from the table of bytes, and then
        no struct is declared), appended or set in place of a placeholder (`into`); a value out of
        range is an error naming its field."""
        single, code = len(values) == 1, fmt[1:]
        with c.block("try:"):
            if single and code == "B":
                part = f"{c.table('BYTE')}[{values[0]}]"
                c(f"if not 0 <= {values[0]} <= 255: raise ValueError('out of range')")
            elif single and code == "b":
                part = f"{c.table('BYTE')}[{values[0]} & 255]"
                c(f"if not -128 <= {values[0]} <= 127: raise ValueError('out of range')")
            else:
                part = f"{self.m.struct(fmt)}.pack({', '.join(values)})"
            if into:
                c(f"out[{into}] = {part}")
            else:
                self.put(c, part, size)
        with c.block("except (_struct.error, TypeError, ValueError) as exc:"):
            c(f"raise _rt.range_error(exc, ({', '.join(values)},), {layout}) from None")

    def join_bits(self, c: Lines, item: Item) -> str:
        """The integer of a bit group, its fields shifted into place (each checked to fit)."""
        parts = []
        for f, at in item.bit_positions():
            n = f.type.size
            # A value of the type the decoder gives (a bool, an int, the enum's member) that fits
            # is taken as it is; any other goes to `_check_bits`. Interpreted, its call was 16 % of
            # the opcodes of a Kafka batch's own fields (six bit fields), and this a third of that.
            kind = self.m.enum_class(f.enum) if f.enum is not None else "bool" if n == 1 else "int"
            fits = "" if kind == "bool" else f" and 0 <= v_{f.id} < {1 << n}"
            value = f"(v_{f.id} if type(v_{f.id}) is {kind}{fits} else {c.helper('check_bits')}(v_{f.id}, {n}, {f.id!r}))"
            parts.append(f"({value} << {at})" if at else value)
        return "(" + " | ".join(parts) + ")"

    def check_valid_encode(self, c: Lines, f: Field, var: str, epath: str | None = None) -> None:
        """`valid` of the value given, before it is written (an element's path is its index, which
        the list's handler prefixes); not a rule that reads the stream (`stream_bound`)."""
        rules = (v for rule in (f.valid or {}).values() for v in (rule if isinstance(rule, list) else [rule]))
        if any(self.stream_bound(r) for r in rules if not isinstance(r, str)):
            return
        self.check_valid(c, f, "None", var, f.id if epath is None else epath, error="_rt.invalid_encode")

    @staticmethod
    def checks_valid_in_content(f: Field) -> bool:
        """Whether `encode_content` checks `valid` of the field's element itself: numbers and
        bits, as they are packed. Any other element (bytes, text, a structure, a switch's value)
        is checked in `encode_element`, before it is bounded."""
        return primitive_of(f.type) is None and f.type.kind in ("int", "float", "bits")


def name_fmt(ref: TypeRef, code: str) -> str:
    return (">" if ref.endian == "be" else "<") + code
