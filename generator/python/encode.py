"""The checked encoder of a type, `_e_<type>(value, out, *params) -> int`.

An encoder appends bytes-like parts to the list `out` and returns how many bytes it appended
(`w`); `encode` joins the parts once. Keys and values go in as they are, without copies. A
derived field known only after its range (a size written before its range, a checksum) gets a
placeholder part that is filled in place once the range is written.
"""

from __future__ import annotations

from contextlib import contextmanager

from .. import expr as E
from ..layout import (
    FLOAT_CODES,
    STRUCT_CODES,
    Item,
)
from ..schema import Field, TypeRef
from .code import Function, Lines, declared
from .fast_encode import FastEncoders
from .shapes import PYTHON_ERRORS, codec_arg, primitive_of
from .translate import Scope, path_root, remote_lengths
from .typecode import TypeCode


#: The locals an encoder declares where its code uses them, beside its fields' (`encoder`): the bytes
#: of the part being written, a varint's value, the bytes written so far and a derived value.
SCRATCH_LOCALS = [("d", "    d: bytes"), ("x", "    x: int"), ("w", "    w: int"), ("actual", "    actual: int")]


class Encoder(TypeCode):
    """Emits a type's encoder (`encoder`)."""

    encoding = True

    def encoder(self) -> Function:
        t, c = self.t, Lines(self.m.build, 2)
        self.lines, self.encoding, self.computed_instances = c, True, set()
        self.scope.encoding = True
        if self.plan.bits_one_by_one:
            head = f"def _e_{t.name}(v: {self.m.encoded_type(t)}, out: list[Any]{self.params(typed=True)}) -> int:"
            return Function("\n".join([head, "    _rt.no_encoder('bit fields repeated or conditional (not supported yet)', '')",
                                       "    return 0"]), c.uses)
        self.deferred, self.computed = set(), set()
        self.pending_runs: list[tuple] = []  # (placeholder index, struct, values, deferred ids, layout)
        self.varint_sizes: set[str] = set()  # deferred sizes written as a varint placeholder
        self.out = "out"
        self.fast = FastEncoders(self)
        c(f"{c.local('w')} = 0")
        self.navigation_start(c)
        if self.carries():
            c("carried = getattr(v, '_carried', None) or {}  # bytes of sized fields that are not their values")
        form = self.m.tuple_form(t)
        c.locals(f"v_{f.id}" for f in t.seq)  # each field's value, from the value or its tuple form
        if t.unwrap:
            c(f"v_{t.seq[0].id} = v")
        elif form:
            # The value object's fields first: their types are the locals' (mypyc reads them typed).
            with c.block("if not isinstance(v, tuple):"):
                for f in t.seq:
                    c(f"v_{f.id} = v.{f.id}")
            with c.block("else:  # the tuple form: the fields but the derived ones, in order"):
                c(", ".join(f"v_{f.id}" for f in form) + ("," if len(form) == 1 else "") + " = v")
                for f in t.seq:
                    if f.derived:
                        c(f"v_{f.id} = None")
        else:
            for f in t.seq:
                c(f"v_{f.id} = v.{f.id}")
            for inst in t.instances:  # -lc-input instances are part of the value; others are computed
                if inst.input or (inst.field is not None and not t.unwrap):  # an unwrapped value has no instances
                    c(f"i_{inst.id} = v.{inst.id}")
        early = self.encode_early(c)
        self.encode_upfront(c)
        self.deferred |= self.plan.deferred  # (the fields encoded early, above, know none of them)
        for part in self.plan.parts:
            if isinstance(part, list):
                self.encode_run(c, part)
            elif part.id in early:
                self.put(c, c.local(f"b_{part.id}"), typed=True)
            else:
                self.encode_field(c, part)
        self.close_ranges_encode(c, None)
        c("return w")
        head = f"def _e_{t.name}(v: {self.m.encoded_type(t)}, out: list[Any]{self.params(typed=True)}) -> int:"
        doc = f'    """Append the parts of a {t.name} to `out`; return how many bytes they hold."""'
        # A list whose elements may be value objects or tuples is untyped: a compiled loop over a
        # typed list checks each element for the one type (and a cast is a call in pure Python).
        candidates = [(f"v_{f.id}", f"    v_{f.id}: Any") for f in t.seq if f.if_expr is not None or self.takes_tuples(f)]
        # A field's bytes, or None; untyped, because a cast is a call in pure Python and the
        # compiled build checks an untyped value where it becomes `d: bytes` all the same.
        candidates += [(f"b_{f.id}", f"    b_{f.id}: Any") for f in t.seq]
        candidates += [(f"t_{f.id}", f"    t_{f.id}: list[Any]") for f in t.seq]
        candidates += SCRATCH_LOCALS + sorted(self.fast.declared.items(), key=lambda item: item[1])
        body = [head, doc, *declared(candidates, c.uses), "    try:", c.text(),
                "    except _rt.EncodeError:", "        raise",
                f"    except {PYTHON_ERRORS} as exc:",
                "        raise _rt.wrap_encode(exc, '') from None"]
        return Function("\n".join(body), c.uses)

    def fills(self, f: Field) -> set[str]:
        """The fields of this type (passed as `_parent.x`) whose -lc-derived lengths the encoders
        of `f`'s elements fill in: the sizes of their fields read them."""
        names = set()
        for ref in [f.type, *(case for _, case in f.type.cases)]:
            if ref.kind != "user" or primitive_of(ref):
                continue
            scope = Scope(ref.user, self.m.enum_class, self.t, self.m.nav, encoding=True)
            scope.extra["_index"] = ("i", "int")  # only translated to find the types on the way
            for g in ref.user.seq:
                for _, node in remote_lengths(g.size, scope) if g.size is not None else ():
                    names.add(path_root(node))
        return names

    def encode_early(self, c: Lines) -> set[str]:
        """Encode first the fields whose elements fill in -lc-derived lengths of earlier fields
        (a Consume response's chunk lengths sit in its header), into copies of those fields, so
        that the caller's value is left as it was. Returns the ids encoded here."""
        early = set()
        for f in self.t.seq:
            filled = self.fills(f)
            if not filled:
                continue
            for name in sorted(filled):
                c(f"v_{name} = _rt.copy_value(v_{name})  # {f.id} fills in its -lc-derived lengths")
            with self.temporary(c, f"t_{f.id}"):
                self.encode_field(c, f)
            c(f"{c.local(f'b_{f.id}')} = d")
            early.add(f.id)
        return early

    def put(self, c: Lines, part: str, size: int | None = None, typed: bool = False) -> None:
        """Append a part; count its bytes when it goes to this type's own output. A `typed` part
        needs no cast to become `d: bytes` (it is bytes, or untyped)."""
        if part == "d":
            c.local("d")
        if self.out != "out":
            c(f"{self.out}.append({part})")
        elif size is not None:
            c(f"out.append({part}); w += {size}")
        elif part == "d":
            c("out.append(d); w += len(d)")
        else:
            c(f"{c.local('d')} = {part}" if typed else f"{c.local('d')} = _cast(bytes, {part})")
            c("out.append(d); w += len(d)")

    def encode_upfront(self, c: Lines) -> None:
        """Derived values known from the value alone, in field order (a condition may read an earlier one):
        counts, sizes of single fields, presence flags and defaults."""
        for f in self.t.seq:
            if not (f.count_of is not None or (f.size_of and f.size_of[0] == f.size_of[1]) or f.present
                    or f.default is not None):
                continue
            self.prepare([f])
            guard = f.if_expr is not None and f.default is None
            if guard:  # a conditional size or count is computed only where it is present
                c(f"if {self.expr(f.if_expr)}:")
                c.indent += 1
            if f.count_of is not None:
                self.assign_or_check(c, f, self.length_or_absent(c, f, self.expr(f.count_of)))
            elif f.size_of and f.size_of[0] == f.size_of[1]:
                target = self.t.field(f.size_of[0])
                c(f"{c.local(f'b_{target.id}')} = None")
                with c.block(f"if v_{target.id} is not None:"):
                    self.encode_to_bytes(c, target, f"b_{target.id}")
                if f.absent is not None and target.if_expr is not None:
                    # A carried length that also leaves its target absent (Kafka reads any
                    # negative length as null) is written back as it was, not as -lc-absent.
                    with c.block(f"if b_{target.id} is not None or v_{f.id} is None or {self.expr(target.if_expr)}:"):
                        self.assign_or_check(c, f, self.length_or_absent(c, f, f"b_{target.id}"))
                else:
                    self.assign_or_check(c, f, self.length_or_absent(c, f, f"b_{target.id}"))
            elif f.present:
                c(f"if v_{f.id} is None: v_{f.id} = v_{f.present} is not None")
            else:
                # a conditional field gets its default only where it is present
                cond = f" and {self.expr(f.if_expr)}" if f.if_expr is not None else ""
                c(f"if v_{f.id} is None{cond}: v_{f.id} = {self.expr(f.default)}")
            if guard:
                c.indent -= 1

    def length_or_absent(self, c: Lines, f: Field, target: str) -> str:
        """The length of `target`; when it is None, `-lc-absent` or else a missing-field error."""
        if f.absent is not None:
            return f"(len({target}) if {target} is not None else {f.absent!r})"
        c(f"if {target} is None: raise _rt.missing({f.id!r})")
        return f"len({target})"

    def assign_or_check(self, c: Lines, f: Field, actual: str) -> None:
        c(f"{c.local('actual')} = {actual}")
        c(f"if v_{f.id} is None: v_{f.id} = actual")
        c(f"elif v_{f.id} != actual: raise _rt.mismatch({f.id!r}, v_{f.id}, actual)")

    @contextmanager
    def temporary(self, c: Lines, name: str):
        """Encode into a part list of its own, whose bytes are then joined into `d`."""
        outer, self.out = self.out, name
        c(f"{c.local(name)} = []")
        yield
        self.out = outer
        c(f"{c.local('d')} = b''.join({name})")

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
        if f.process:
            name, args = f.process
            name = self.m.processor(name)
            extra = "".join(", " + self.expr(a) for a in args)
            c.local("d")
            if self.passes_through(f):  # as the decoder skips the call for a "none" codec
                c(f"pt_{f.id} = {extra[2:]}")
                c(f"if pt_{f.id} not in _PASS_{name}: d = _cast(bytes, {name}.encode(d, pt_{f.id}))")
            else:
                c(f"d = _cast(bytes, {name}.encode(d{extra}))")

    def mark(self, c: Lines, fid: str, off: int = 0) -> None:
        if fid in self.plan.marks:
            c(f"s_{fid} = w + {off}" if off else f"s_{fid} = w")
        if fid in self.plan.checksum_starts:
            c(f"i_{fid} = len(out)")

    def encode_run(self, c: Lines, run: list[Item]) -> None:
        self.prepare(f for item in run for f in item.fields)
        name, size = self.run_struct(run)
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
            self.pending_runs.append((index, name, values, deferred, layout))
        else:
            self.pack(c, name, values, layout, size)
        for item in run:
            for f in item.fields:
                self.close_ranges_encode(c, f.id)

    def pack(self, c: Lines, name: str, values: list[str], layout: str, size: int, into: str | None = None) -> None:
        single = len(values) == 1 and name in self.m.structs.values()
        code = next(fmt for fmt, n in self.m.structs.items() if n == name)[1:]
        with c.block("try:"):
            if single and code == "B":
                part = f"{c.table('BYTE')}[{values[0]}]"
                c(f"if not 0 <= {values[0]} <= 255: raise ValueError('out of range')")
            elif single and code == "b":
                part = f"{c.table('BYTE')}[{values[0]} & 255]"
                c(f"if not -128 <= {values[0]} <= 127: raise ValueError('out of range')")
            else:
                part = f"{name}.pack({', '.join(values)})"
            if into:
                c(f"out[{into}] = {part}")
            else:
                self.put(c, part, size)
        with c.block("except (_struct.error, TypeError, ValueError) as exc:"):
            c(f"raise _rt.range_error(exc, ({', '.join(values)},), {layout}) from None")

    def join_bits(self, c: Lines, item: Item) -> str:
        total, parts = item.size * 8, []
        shift = total if item.endian == "be" else 0
        for f in item.fields:
            n = f.type.size
            if item.endian == "be":
                shift -= n
                at = shift
            else:
                at, shift = shift, shift + n
            # A value of the type the decoder gives (a bool, an int, the enum's member) that fits
            # is taken as it is; any other goes to `_check_bits`. Interpreted, its call was 16 % of
            # the opcodes of a Kafka batch's own fields (six bit fields), and this a third of that.
            kind = self.m.enum_class(f.enum) if f.enum is not None else "bool" if n == 1 else "int"
            fits = "" if kind == "bool" else f" and 0 <= v_{f.id} < {1 << n}"
            value = f"(v_{f.id} if type(v_{f.id}) is {kind}{fits} else {c.helper('check_bits')}(v_{f.id}, {n}, {f.id!r}))"
            parts.append(f"({value} << {at})" if at else value)
        return "(" + " | ".join(parts) + ")"

    def check_valid_encode(self, c: Lines, f: Field, var: str) -> None:
        self.check_valid(c, f, "None", var, f.id, error="_rt.invalid_encode")

    def encode_field(self, c: Lines, f: Field) -> None:
        self.prepare([f])
        self.mark(c, f.id)
        if f.id in self.deferred:
            # a size written as a varint before its range: a placeholder part, filled when the range closes
            c(f"a_{f.id} = len(out)")
            c("out.append(b'')")
            self.varint_sizes.add(f.id)
            self.close_ranges_encode(c, f.id)
            return
        if f.if_expr is not None:
            with c.block(f"if {self.expr(f.if_expr)}:"):
                c(f"if v_{f.id} is None: raise _rt.missing({f.id!r})")
                self.encode_value(c, f)
            c(f"elif v_{f.id} is not None: raise _rt.invalid_encode('is set, but its condition is false', None, {f.id!r})")
        elif self.m.nav is not None and f.type.kind == "switch" and not f.repeat and all(k is not None for k, _ in f.type.cases):
            # Kaitai's null when no case matches: nothing is written, where no case matches
            with c.block(f"if v_{f.id} is None:"):
                keys = ", ".join(self.expr(k) for k, _ in f.type.cases)
                c(f"if {self.expr(f.type.switch_on)} in ({keys},): raise _rt.missing({f.id!r})")
            with c.block("else:"):
                self.encode_value(c, f)
        else:
            if not f.derived:
                c(f"if v_{f.id} is None: raise _rt.missing({f.id!r})")
            self.encode_value(c, f)
        self.close_ranges_encode(c, f.id)

    def encode_value(self, c: Lines, f: Field) -> None:
        if f.repeat:
            if f.repeat == "expr":
                c(f"if len(v_{f.id}) != {self.expr(f.repeat_expr)}: raise _rt.mismatch({f.id!r}, {self.expr(f.repeat_expr)}, len(v_{f.id}))")
            comp = 'f"[{i}]"' if self.t.unwrap else f'f"{f.id}[{{i}}]"'
            c("i = 0")
            self.scope.extra["_index"] = ("i", "int")
            items = f"v_{f.id}"
            if self.takes_tuples(f) and f not in self.t.seq:  # a field's list is declared untyped
                items = f"_cast(Any, {items})"  # value objects or tuples, in a list or a tuple form's tuple: unchecked
            def slow(c: Lines) -> None:
                self.encode_element(c, f, f"x_{f.id}", "", wrap=None)
            with c.block("try:"):
                if not self.fast.loop(c, f, items, slow):
                    with c.block(f"for i, x_{f.id} in enumerate({items}):"):
                        slow(c)
            del self.scope.extra["_index"]
            with c.block("except _rt.EncodeError as exc:"):
                c(f"raise exc.within({comp})")
            # an element of the wrong type, which a compiled build finds when it passes it on
            with c.block(f"except {PYTHON_ERRORS} as exc:"):
                c(f"raise _rt.wrap_encode(exc, {comp}) from None")
        else:
            self.encode_element(c, f, f"v_{f.id}", f.id, wrap=f.id)

    def encode_element(self, c: Lines, f: Field, var: str, epath: str, wrap) -> None:
        if f.size_of is None and self.plan.is_size_target(f):
            self.put(c, c.local(f"b_{f.id}"), typed=True)
            return
        if f.contents is not None:
            self.put(c, repr(f.contents), len(f.contents))
            return
        if f.process or ((f.size is not None or f.size_eos) and self.trimmed_structure(f)) or (
                f.size is not None and f.type.kind not in ("bytes", "str")):
            with self.temporary(c, f"t_{f.id}"):
                self.encode_content(c, f, f.type, var, epath, wrap)
            if self.carries() and f in self.t.seq and f.type.kind in ("user", "switch") and not self.trimmed_structure(f):
                size = "None" if f.size is None else self.expr(f.size)
                c(f"d = _rt.with_tail(d, {size}, carried.get({self.carried_key(f)}))")
            self.process_encode(c, f)
            if f.process and f.terminator is not None and f.size is None and not f.size_eos:
                c(f"d = _rt.terminated(d, {f.terminator!r}, {f.include}, {f.consume}, {epath!r})")
            elif self.trimmed_structure(f) or (f.process and (f.pad_right is not None or f.terminator is not None)):
                size = "None" if f.size is None else self.expr(f.size)
                tail = f", carried.get({self.carried_key(f)})" if self.carries() and f in self.t.seq else ""
                c(f"d = _rt.fill(d, {size}, {f.pad_right!r}, {f.terminator!r}, {f.include}, {epath!r}{tail})")
            self.check_size_encode(c, f, "len(d)", epath)
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
                size = "None" if f.size is None else self.expr(f.size)
                tail = f", carried.get({self.carried_key(f)})" if self.carries() and f in self.t.seq else ""
                c(f"d = _rt.fill(d, {size}, {f.pad_right!r}, {f.terminator!r}, {f.include}, {epath!r}{tail})")
            self.check_size_encode(c, f, "len(d)", epath)
            self.put(c, "d")
            return
        if f.terminator is not None and f.type.kind in ("bytes", "str"):
            c(f"d = {var}.encode({codec_arg(f.type.encoding)})" if f.type.kind == "str" else f"d = _cast(bytes, {var})")
            self.put_terminated(c, f, epath)
            return
        self.encode_content(c, f, f.type, var, epath, wrap)

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
        if f.size is None or E.names(f.size) & self.deferred:
            return
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
        prim = primitive_of(ref)
        if prim is not None:
            prim.encode(c, var, epath)
            self.put(c, "d")
        elif ref.kind in ("int", "float"):
            code = STRUCT_CODES[(ref.size, ref.signed)] if ref.kind == "int" else FLOAT_CODES[ref.size]
            name = self.m.struct((">" if ref.endian == "be" else "<") + code)
            self.check_valid_encode(c, f, var)
            self.pack(c, name, [var], self.m.layout([(epath, name_fmt(ref, code))]), ref.size)
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
        elif ref.kind == "switch":
            default_ref = TypeRef("bytes")
            self.switch(c, f, ref, lambda case: self.encode_content(c, f, case, var, epath, wrap),
                        lambda: self.encode_content(c, f, default_ref, var, epath, wrap), value=var)

    def close_ranges_encode(self, c: Lines, fid: str | None) -> None:
        """After the last field of a range: sizes first, then runs they complete, then checksums."""
        ending = [r for r in self.plan.ranges if r[2] == fid or (fid is None and r[2] is None)]
        for owner, first, _last, kind in ending:
            if kind != "size":
                continue
            self.assign_or_check(c, owner, f"w - s_{first}")
            if owner.id in self.varint_sizes:
                primitive_of(owner.type).encode(c, f"v_{owner.id}", owner.id)
                c(f"out[a_{owner.id}] = d; w += len(d)")
            self.computed.add(owner.id)
        self.pack_ready_runs(c)
        for owner, first, _last, kind in ending:
            if kind != "checksum":
                continue
            c(f"{c.local('actual')} = _rt.checksum_of_parts({c.checksum(owner.checksum['algorithm'])}, out, i_{first})")
            c(f"if v_{owner.id} is None: v_{owner.id} = actual")
            c(f"elif v_{owner.id} != actual: raise _rt.stale_checksum({owner.id!r}, v_{owner.id}, actual)")
            self.computed.add(owner.id)
        self.pack_ready_runs(c)

    def pack_ready_runs(self, c: Lines) -> None:
        for run in list(self.pending_runs):
            index, name, values, deferred, layout = run
            if deferred <= self.computed:
                self.pack(c, name, values, layout, 0, into=index)
                self.pending_runs.remove(run)


def name_fmt(ref: TypeRef, code: str) -> str:
    return (">" if ref.endian == "be" else "<") + code
