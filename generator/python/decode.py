"""The checked decoder of a type, `_d_<type>(buf, pos, end, lim, *params) -> (value, pos)`: its
fields read in seq order, each read checked against `end` and the call's budget, every error a
DecodeError naming its kind, offset and path."""

from __future__ import annotations

import codecs

from .. import expr as E
from ..layout import FLOAT_CODES, STRUCT_CODES, Item, size_held_non_negative
from ..model import min_size
from ..schema import Field, TypeDef, TypeRef
from ..types import field_tinfo
from .code import EXPRESSION_ERRORS, Function, Lines, declared, indented
from .readers import CReaders
from .shapes import codec_arg, primitive_of
from .typecode import TypeCode
from .written_out import WrittenOut


#: The locals a decoder declares where its code uses them, beside its fields' (`field_decls`): the
#: scratch integers and bytes of its reads, and where the type starts (`start`, what `_io.pos`
#: counts from).
SCRATCH_LOCALS = [(name, f"    {name}: int") for name in ("x", "y", "n", "count", "e", "p")] + [
    ("b2", "    b2: bytes"), ("start", "    start = pos")]


class Decoder(WrittenOut, CReaders, TypeCode):
    """Emits a type's decoder, `_d_<type>` (`decoder`). The decoders `decode_iter` calls are its
    variants (`iterate.py`), which override the hooks named here."""

    keeps_list = True  # a list's elements are kept in it (a generator hands each out instead)

    def decoder_of(self, u: TypeDef) -> Decoder:
        """The plain decoder of another type (an element written out in this one's code)."""
        return Decoder(self.m, u)

    def decoder(self) -> Function:
        t, c = self.t, self.new_body()
        self.lines, self.encoding, self.computed_instances = c, False, set()
        self.scope.encoding = False
        self.navigation_start(c)
        self.decoding_starts(c)
        if self.carries():
            c("carried: dict[Any, bytes] = {}")
        one_by_one = self.decode_seq(c)
        if self.m.nav is not None and not t.unwrap:
            self.return_kaitai_object(c, one_by_one)
        elif t.unwrap:
            for inst in t.instances:
                self.need_instances(E.Name(inst.id))
            self.return_unwrapped(c)
        else:
            self.return_value(c)
        head, doc = self.decoder_head()
        # Declared types make the module type-check, which lets mypyc compile it (logcodec accelerate).
        candidates = self.field_decls() + self.inlined_decls + SCRATCH_LOCALS
        decls = declared(candidates, c.uses)
        body = c.text()
        # A user's schema reads values that may be null (a switch no case matched, `parent: false`):
        # any of its expressions may fail on the input.
        if self.m.nav is not None or self.guarded_expressions():
            # Expressions over decoded values (an index into a list, a division) can fail on bad
            # input in Python's terms; they still end in a DecodeError.
            body = "\n".join(["    try:", indented(body),
                              "    except _rt.DecodeError:", "        raise",
                              f"    except ({'AttributeError, NameError, ' if self.m.nav is not None else ''}"
                              f"{EXPRESSION_ERRORS}) as exc:",
                              "        raise _rt.invalid(f'an expression failed on this input: {exc}', pos, '') from None"])
        return Function("\n".join([head, doc, *decls, self.errors_raised(body)]), c.uses)

    def return_kaitai_object(self, c: Lines, one_by_one: bool) -> None:
        """A user's schema: the value made as Kaitai's objects are, with its links and the
        instances its seq did not need computed when first read."""
        t = self.t
        self.lazy = {i.id for i in t.instances} - self.computed_instances
        for inst in t.instances:
            if inst.id in self.lazy:
                self.lazy_thunk(c, inst, one_by_one)
        values = [f"v_{f.id}" for f in t.seq] + [f"p_{p.id}" for p in self.m.exposed_params(t)]
        c.locals(values)
        values += ["_rt.KStream(buf, io0, end, pos)"] if self.m.exposes_io else []
        c(f"obj = {t.class_name}({', '.join(values)})")
        for inst in t.instances:
            if inst.id not in self.lazy:
                c(f"obj.{inst.id} = i_{inst.id}")
        if self.lazy:
            c(f"obj._lazy = {{{', '.join(f'{n!r}: _lazy_{n}' for n in sorted(self.lazy))}}}")
        if self.navigates:
            c("me._value = obj  # what children read later through _parent or _root (lazy instances)")
        if self.carries():
            c("if carried: obj._carried = carried")
        c("return obj, pos")

    def return_unwrapped(self, c: Lines) -> None:
        """An unwrapped type's decoder returns its one field's value."""
        c(f"return {c.local(f'v_{self.t.seq[0].id}')}, pos")

    def return_value(self, c: Lines) -> None:
        """The value made from the fields, instances and params read: its tuple form when asked,
        its fields appended to their columns (`decode_columns`), or its value object."""
        t = self.t
        for inst in t.instances:
            self.need_instances(E.Name(inst.id))
        values = [f"v_{f.id}" for f in t.seq] + [f"i_{i.id}" for i in t.instances]
        values += [f"p_{p.id}" for p in self.m.exposed_params(t)]
        c.locals(values)
        values += ["_rt.KStream(buf, io0, end, pos)"] if self.m.exposes_io else []
        if self.m.tuple_decoded(t):
            form = self.m.tuple_items(t, [f"v_{f.id}" for f in self.m.tuple_form(t)])
            if t is self.m.columned:  # `decode_columns`: each field appended to its column
                with c.block("if cols is not None:"):
                    for i, v in enumerate(form):
                        c(f"cols[{i}].append({v})")
                    c("return None, pos")
            c(f"if as_tuple: return ({', '.join(form)}{',' if len(form) == 1 else ''}), pos")
        if self.made_by_new():
            self.object_made(c, t, "obj", values)
            c("return obj, pos")
        else:
            c(f"return {t.class_name}({', '.join(values)}), pos")

    # ------------------------------------------------------------ what a variant adds (nothing here)
    # The trace variant (`trace.py`) records where each field lies; the checked decoder does not.

    def new_body(self) -> Lines:
        """The lines of the decoder's body."""
        return Lines(self.m.build)

    def trace_param(self) -> str:
        return ""

    def trace_arg(self) -> str:
        return ""

    def decoding_starts(self, c: Lines) -> None:
        pass

    def run_field_read(self, c: Lines, f: Field, off: int, size: int) -> None:
        pass

    def field_begins(self, c: Lines, f: Field) -> None:
        pass

    def field_ends(self, c: Lines, f: Field) -> None:
        pass

    def element_begins(self, c: Lines, f: Field, mark: bool = False) -> None:
        pass

    def element_ends(self, c: Lines, f: Field, elem: str) -> None:
        pass

    def element_cut(self, c: Lines) -> None:
        pass

    def offsets_moved(self, c: Lines, by: str) -> None:
        pass

    def content_begins(self, c: Lines, read_from: str | None) -> None:
        pass

    def content_ends(self, c: Lines, read_from: str | None) -> None:
        pass

    def checksum_held(self, c: Lines, start: str, end: str) -> None:
        pass

    def errors_raised(self, body: str) -> str:
        """The decoder's body, as it raises its errors (a generator's are re-anchored)."""
        return body

    def decode_seq(self, c: Lines) -> bool:
        """The reading of the seq's fields in order, and the checks of the ranges that end with the
        type; returns whether its bits are read one by one (`reads_bits_one_by_one`)."""
        one_by_one = self.plan.bits_one_by_one
        if one_by_one:
            c("bb = 0; bl = 0")
        for part in self.plan.parts:
            if one_by_one and (isinstance(part, list) or part.type.kind != "bits"):
                c("bb = 0; bl = 0")  # a byte-aligned field: the bits left in the last byte are skipped
            if isinstance(part, list):
                self.decode_run(c, part)
            else:
                self.decode_field(c, part)
        self.close_ranges_decode(c, None)
        return one_by_one

    def field_decls(self) -> list[tuple[str, str]]:
        """The declarations of the decoder's locals for the seq's fields (`v_`; a conditional one's
        is Any: its presence follows from conditions no type checker follows), in order, then
        its list's elements that may be tuples (`_e`, untyped so that the list takes them uncast)
        and bit groups (`g_`, `decode_run`)."""
        t = self.t
        decls = [(f"v_{f.id}", f"    v_{f.id}: {'Any' if f.if_expr is not None else self.m.local_type(f)}") for f in t.seq]
        decls += [(f"_e{f.id}", f"    _e{f.id}: Any") for f in t.seq if self.tuple_elements(f)]
        return decls + [(f"g_{f.id}", f"    g_{f.id}: int") for f in t.seq if f.type.kind == "bits"]

    def decoder_head(self) -> tuple[str, str]:
        """The decoder's `def` line and docstring."""
        t = self.t
        params = f"buf: bytes, pos: int, end: int, lim: list[int]{self.params(typed=True)}"
        columns = self.m.columned is not None
        cols = ", cols: list[list[Any]] | None = None" if columns else ""
        tupled = self.m.tuple_decoded(t)
        columned = t is self.m.columned
        head = (f"def _d_{t.name}({params}{', as_tuple: bool = False' if tupled else ''}{cols if columned else ''}"
                f"{self.trace_param()})"
                f" -> tuple[{self.m.encoded_type(t) if tupled else self.m.value_type(t)}{' | None' if columned else ''}, int]:")
        if columned:
            return head, (f'    """Decode one {t.name} from buf[pos:end]; return it (its tuple form when `as_tuple`; None\n'
                          '    when its fields are appended to `cols`, one list per field of the tuple form) and the\n'
                          '    position after it."""')
        if tupled:
            return head, (f'    """Decode one {t.name} from buf[pos:end]; return it (its tuple form when `as_tuple`)'
                          '\n    and the position after it."""')
        return head, f'    """Decode one {t.name} from buf[pos:end]; return it and the position after it."""'

    def lazy_thunk(self, c: Lines, inst, one_by_one: bool) -> None:
        """A user's schema: an instance the seq did not need is computed when first read, as
        Kaitai's are, from the stream as it was at the end of the type (bound as defaults)."""
        bits = ", bb: int = bb, bl: int = bl" if one_by_one else ""
        c(f"def _lazy_{inst.id}(o: Any, buf: Any = buf, pos: int = pos, io0: int = io0, end: int = end{bits}) -> Any:")
        c.indent += 1
        computed, self.lazy_target = set(self.computed_instances), inst.id
        with c.block("try:"):
            self.need_instances(E.Name(inst.id))
            c(f"return i_{inst.id}")
        c("except _rt.DecodeError: raise")
        # NameError: an instance whose value reads itself (Kaitai would recurse without end)
        with c.block("except (AttributeError, IndexError, KeyError, ZeroDivisionError, TypeError, OverflowError, "
                     "ValueError, LookupError, NameError) as exc:"):
            c(f"raise _rt.invalid(f'an expression failed on this input: {{exc}}', pos, {inst.id!r}) from None")
        c.indent -= 1
        self.computed_instances, self.lazy_target = computed, None

    def decode_run(self, c: Lines, run: list[Item]) -> None:
        self.prepare(f for item in run for f in item.fields)
        name, size = self.run_struct(run)
        entries, targets, off = [], [], 0
        for item in run:
            for f in item.fields:
                entries.append((f.id, off, item.size))
            # a bit group is read as one integer (`g_`, declared int so that a compiled build
            # shifts and masks it in C); one of a width no struct code has comes as bytes first
            group = "gb_" if item.bits and item.code.endswith("s") else "g_"
            targets.append(c.local(f"v_{item.fields[0].id}" if not item.bits else f"{group}{item.fields[0].id}"))
            off += item.size
        layout = self.m.layout(entries)
        c.bound(f"if pos + {size} > end: raise _rt.short_run(buf, pos, end, {layout})")
        if len(run) == 1 and run[0].code == "B":
            c(f"{targets[0]} = buf[pos]")
        elif len(run) == 1 and run[0].code == "b":
            c(f"{targets[0]} = (buf[pos] ^ 128) - 128")
        elif len(run) == 1 and run[0].code in ("H", "h"):
            # two bytes alone (Kafka's attributes): shifted together, cheaper than a struct's call
            # and its tuple (compiled, 2.5 % of a 10-record batch's decoding; interpreted, 1 %)
            first, second = ("buf[pos]", "buf[pos + 1]") if run[0].endian == "be" else ("buf[pos + 1]", "buf[pos]")
            value = f"({first} << 8) | {second}"
            c(f"{targets[0]} = {value if run[0].code == 'H' else f'(({value}) ^ 32768) - 32768'}")
        else:
            c(f"{', '.join(targets)}{',' if len(targets) == 1 else ''} = {name}.unpack_from(buf, pos)")
        off = 0
        for item in run:
            if item.bits and item.code.endswith("s"):
                g = item.fields[0].id
                c(f"{c.local(f'g_{g}')} = int.from_bytes(gb_{g}, {'big' if item.endian == 'be' else 'little'!r})")
            if item.bits:
                self.split_bits(c, item)
            for f in item.fields:
                if f.id in self.plan.marks:
                    c(f"s_{f.id} = pos + {off}" if off else f"s_{f.id} = pos")
                self.check_valid(c, f, f"pos + {off}")
                if f.enum is not None:
                    c(f"v_{f.id} = {self.m.enum_member(c, f.enum, f'v_{f.id}')}")
                self.run_field_read(c, f, off, item.size)
            off += item.size
        c(f"pos += {size}")
        for item in run:
            for f in item.fields:
                self.publish(c, f.id, f"v_{f.id}")
                self.close_ranges_decode(c, f.id)

    def split_bits(self, c: Lines, item: Item) -> None:
        """Each bit field of a group read as one unsigned integer (`g_`): a flag is its bit
        tested in place, the topmost field a shift alone (two operations fewer each, when
        interpreted)."""
        total = item.size * 8
        shift = total if item.endian == "be" else 0
        g = f"g_{item.fields[0].id}"
        for f in item.fields:
            n = f.type.size
            if item.endian == "be":
                shift -= n
                at = shift
            else:
                at, shift = shift, shift + n
            if n == 1:
                value = f"({g} & {1 << at:#x}) != 0"
            elif at + n == total:
                value = f"{g} >> {at}" if at else g
            else:
                value = f"({g} >> {at}) & {(1 << n) - 1:#x}" if at else f"{g} & {(1 << n) - 1:#x}"
            c(f"{c.local(f'v_{f.id}')} = {value}")

    def decode_field(self, c: Lines, f: Field) -> None:
        self.prepare([f])
        if f.id in self.plan.marks:
            c(f"s_{f.id} = pos")
        if f.if_expr is not None:
            c(f"if {self.expr(f.if_expr)}:")
            c.indent += 1
        self.field_begins(c, f)
        if f.repeat:
            self.decode_repeat(c, f)
        else:
            self.decode_element(c, f, f"v_{f.id}", f.id, wrap=f.id)
        self.field_ends(c, f)
        if f.if_expr is not None:
            c.indent -= 1
            with c.block("else:"):
                c(f"{c.local(f'v_{f.id}')} = None")
                # A checksum whose range ends with this sized field is checked at its extent,
                # inside the branch above; when the field is absent, its range ends here.
                if self.plan.is_sized(f.id):
                    self.checksum_at_extent(c, f, "pos")
        self.publish(c, f.id, f"v_{f.id}")
        self.close_ranges_decode(c, f.id)

    def decode_repeat(self, c: Lines, f: Field, var: str | None = None) -> None:
        var = var or f"v_{f.id}"
        if self.keeps_list:
            c(f"{c.local(var)} = []")
        if var == f"v_{f.id}":
            self.publish(c, f.id, var)  # seen by the elements as far as it goes
        elem = "_e" + f.id
        comp = 'f"[{i}]"' if self.t.unwrap else f'f"{f.id}[{{i}}]"'
        self.scope.extra["_index"] = ("i", "int")
        guarded = False  # the loop is inside `if count:`
        opened = 0
        try:
            if f.repeat == "expr":
                # The count has a name of its own: an element's size is `n`, and a compiled
                # (mypyc) `for` loop reads its bound again on every turn.
                c(f"{c.local('count')} = {self.expr(f.repeat_expr)}")
                path = "" if self.t.unwrap else f.id  # an unwrapped list is its parent's field
                # An empty list (a record without headers) skips the checks, the budget and the
                # loop: 12 opcodes of the 240 of a record without headers, interpreted.
                c("if count:")
                c.indent += 1
                guarded = True
                c(f"if count < 0: raise _rt.bad_length(count, pos, {path!r})")
                if min_size(f.type) > 0:
                    c(f"if count * {min_size(f.type)} > end - pos: raise _rt.short(buf, pos, end, count * {min_size(f.type)}, {path!r})")
                # Every element costs an object, however few bytes it takes: the whole count
                # comes out of the call's budget before the first one is built.
                self.spend_elements(c, "count", path)
                self.read_tuples_asked(c, f)
                c("i = 0")
                reader = self.fast_reader(f)
                if reader is not None:
                    opened = self.read_in_c(c, f, reader, var, path)
                    c.indent += opened
                with c.block("try:"):
                    with c.block(f"for i in range({self.loop_from(reader)}count):"):
                        c.local(elem)
                        self.element_begins(c, f)
                        self.decode_listed(c, f, elem)
                        self.take_element(c, f, var, elem)
                        self.element_ends(c, f, elem)
            elif f.partial_tail:
                self.decode_partial_tail(c, f, var, elem, comp)
                return
            else:
                self.read_tuples_asked(c, f)
                c("i = 0")
                with c.block("try:"):
                    bits = f.type.kind == "bits"  # read one by one: the end is where no bit is left
                    loop = "while True:" if f.repeat != "eos" else "while pos < end or bl > 0:" if bits else "while pos < end:"
                    with c.block(loop):
                        c.local(elem)
                        if f.repeat == "eos":
                            c("before = pos + bl" if bits else "before = pos")
                        self.spend_elements(c, "1", "")  # a loop whose count is known only at its end
                        self.element_begins(c, f)
                        self.decode_listed(c, f, elem)
                        self.take_element(c, f, var, elem)
                        self.element_ends(c, f, elem)
                        if f.repeat == "eos":  # would read empty elements forever (an `until` may end on one)
                            c(f"if {'pos + bl' if bits else 'pos'} == before: raise _rt.invalid('an element took no bytes; repeating it would never end', pos, '')")
                        if f.repeat == "until":
                            self.scope.extra["_"] = (elem, field_tinfo(f)[1])
                            c(f"if {self.expr(f.repeat_until)}: break")
                            del self.scope.extra["_"]
                        c("i += 1")
            with c.block("except _rt.DecodeError as exc:"):
                c(f"raise exc.within({comp})")
            c.indent -= opened  # the `else:` of a list read in C (`read_in_c`)
            if guarded:
                c.indent -= 1
        finally:
            del self.scope.extra["_index"]

    def typed_int_local(self, code: str) -> bool:
        """Whether `code` is the local of one of this type's fields declared `int` (`decoder`):
        a conditional field's is `Any`, whose compiled comparisons and sums go through the
        object protocol (TANK's messages, whose keys were read in place that way, decoded about
        8 % slower in `bench tank`'s bundle_100); the copy `n` is typed."""
        f = self.t.field(code[2:]) if code.startswith("v_") else None
        return f is not None and f.if_expr is None and self.m.local_type(f) == "int"

    def take_element(self, c: Lines, f: Field, var: str, elem: str) -> None:
        """An element decoded: appended to its list."""
        c(f"{c.local(var)}.append({self.element_of(f, elem)})")

    def loop_from(self, reader) -> str:
        """Where a list's loop starts counting, before `count` (`range`'s first argument)."""
        return ""

    def element_of(self, f: Field, elem: str) -> str:
        """An element as its list takes it: one that may be a tuple goes in untyped (a field's
        element is declared so; an instance's is cast, a call in pure Python)."""
        return f"_cast(Any, {elem})" if self.tuple_elements(f) and f not in self.t.seq else elem

    def decode_partial_tail(self, c: Lines, f: Field, var: str, elem: str, comp: str) -> None:
        """`repeat: eos` where the last element may be cut short by the end of the data (a fetch
        size): it is not an error, the loop stops at its start and the next field takes its bytes.

        The elements are read from a copy that ends where this field ends, so that running past
        that end is `truncated` (cut short) and not `invalid_length` (lengths that disagree);
        offsets in errors are moved back to the input's.
        """
        c("outer_buf, outer_end, base = buf, end, 0")
        with c.block("if end != len(buf):"):
            c("base = pos; buf = buf[pos:end]; pos, end = 0, end - pos")
        self.offsets_moved(c, "base")
        self.read_tuples_asked(c, f)
        c("i = 0; before = pos")
        with c.block("try:"):
            with c.block("while pos < end:"):
                c("before = pos")
                self.spend_elements(c, "1", "")  # a loop whose count is known only at its end
                self.element_begins(c, f, mark=True)
                self.decode_element(c, f, elem, "", wrap=None)
                c(f"{c.local(var)}.append({elem})")
                self.element_ends(c, f, elem)
                c("if pos == before: raise _rt.invalid('an element took no bytes; repeating it would never end', pos, '')")
                c("i += 1")
        with c.block("except _rt.DecodeError as exc:"):
            with c.block("if exc.kind != 'truncated':"):
                c("if exc.offset is not None: exc.offset += base")
                c(f"raise exc.within({comp})")
            self.element_cut(c)
            c("pos = before")
        self.offsets_moved(c, "-base")
        c("buf, end, pos = outer_buf, outer_end, pos + base")

    def decode_element(self, c: Lines, f: Field, target: str, epath: str, wrap: str | None,
                       size: str | None = None) -> None:
        """Read one element of `f` into `target`. `epath` is the path of errors raised here;
        `size`, its size computed beforehand."""
        ref = f.type
        c.local(target)
        sized = f.size is not None or f.size_eos
        if sized:
            c.local("e")
            if f.size_eos:
                c("e = end")
            else:
                n = size or self.expr(f.size)
                if not self.typed_int_local(n):  # a field's int (`v_len_key`) is read as it is, without a copy
                    c(f"n = {n}")
                    n = c.local("n")
                if not size_held_non_negative(f):
                    c(f"if {n} < 0: raise _rt.bad_length({n}, pos, {epath!r})")
                c(f"e = pos + {n}")
                c(f"if e > end: raise _rt.short(buf, pos, end, {n}, {epath!r})")
            self.checksum_at_extent(c, f)
            bounds = ("buf", "pos", "e")
            cut = f.pad_right is not None or f.terminator is not None
            if f.process and cut:  # as Kaitai: padding and terminator go first, then the processor
                c(f"bc = _rt.cut(buf[pos:e], {f.pad_right!r}, {f.terminator!r}, {f.include})")
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
                if passes:
                    c.indent -= 1
                bounds = ("b2", "s2", "e2")
            read_from = "processed" if f.process else None
            if self.trimmed_structure(f) and not f.process:  # bytes and text trim themselves (decode_content)
                b, s, e = bounds
                c(f"{c.local('b2')} = _rt.cut({b}[{s}:{e}], {f.pad_right!r}, {f.terminator!r}, {f.include}); s2, e2 = 0, len(b2)")
                self.carry(c, f, f"{b}[{s} + len(b2):{e}]")
                bounds, read_from = ("b2", "s2", "e2"), "copy"
            self.content_begins(c, read_from)
            self.decode_content(c, f, ref, target, epath, wrap, bounds, trimmed=not f.process)
            self.content_ends(c, read_from)
            if ref.kind in ("bytes", "str"):
                self.check_valid(c, f, "pos", target, epath)  # `valid` on bytes and text, at the field
            c("pos = e")
        elif f.terminator is not None and self.trimmed_structure(f):
            # A structure read from the bytes up to its terminator, as from a substream; `pos`
            # stays at the field's start (errors inside point there) until the end is taken.
            c.locals(("b2", "e"))
            c(f"b2, e = _rt.read_term(buf, pos, end, {f.terminator!r}, {f.include}, {f.consume}, {f.eos_error}, "
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

    def columns_arg(self, ref: TypeRef) -> str:
        """What an element's decoder is given for the columns of `decode_columns`: nothing here."""
        return ""

    def decode_unsized(self, c: Lines, f: Field, ref: TypeRef, target: str, epath: str, wrap) -> None:
        prim = primitive_of(ref)
        if f.terminator is not None and ref.kind in ("bytes", "str"):
            raw = "d" if ref.kind == "str" else target
            c(f"{raw}, pos = _rt.read_term(buf, pos, end, {f.terminator!r}, {f.include}, {f.consume}, {f.eos_error}, "
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
            prim.decode(c, target, epath)
        elif ref.kind in ("int", "float"):
            if ref.kind == "int" and ref.size == 1 and not ref.signed:
                c.bound(f"if pos >= end: raise _rt.short(buf, pos, end, 1, {epath!r})")
                c(f"{target} = buf[pos]; pos += 1")
            else:
                code = STRUCT_CODES[(ref.size, ref.signed)] if ref.kind == "int" else FLOAT_CODES[ref.size]
                name = self.m.struct((">" if ref.endian == "be" else "<") + code)
                c.bound(f"if pos + {ref.size} > end: raise _rt.short(buf, pos, end, {ref.size}, {epath!r})")
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
        elif ref.kind == "switch":
            # No case for the value: an error in our formats; in a user's schema nothing is read and
            # the field is null, as Kaitai's parsers do.
            no_case = (f"raise _rt.invalid({f.no_case or 'no case matches'!r}, pos, {epath!r})"
                       if self.t.schema.strict or f.no_case else f"{target} = None")
            self.switch(c, f, ref, lambda case: self.decode_unsized(c, f, case, target, epath, wrap),
                        lambda: c(no_case))

    def iterates(self, f: Field) -> bool:
        """Whether the field's elements are decoded when an iterator reaches them (`Iterator`)."""
        return False

    def decode_content(self, c: Lines, f: Field, ref: TypeRef, target: str, epath: str, wrap, bounds,
                       trimmed: bool = True) -> None:
        """Read `target` from bounds (buffer, start, end); bytes and text are cut at their padding
        and terminator here, unless `trimmed` is false (a processor's output: cut before it)."""
        b, s, e = bounds
        trimmed = trimmed and (f.pad_right is not None or f.terminator is not None)
        raw = f"_rt.cut({b}[{s}:{e}], {f.pad_right!r}, {f.terminator!r}, {f.include})" if trimmed else f"{b}[{s}:{e}]"
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
            c(f"if tail: carried[{self.carried_key(f)}] = tail")

    def carry_no_terminator(self, c: Lines, f: Field, after: str) -> None:
        """A value read up to a terminator that the end of the data came before (`eos-error:
        false`): an empty tail says so, and the encoder writes no terminator either."""
        if self.carries_terms() and not f.eos_error and f in self.t.seq and not self.encoding:
            term = f.terminator
            with c.block(f"if {after} >= end and buf[end - {len(term)}:end] != {term!r}:"):
                c(f"carried[{self.carried_key(f)}] = b''")

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

    def checksum_at_extent(self, c: Lines, f: Field, end: str = "e") -> None:
        """Verify a checksum as soon as the end of its range is known, before decompressing."""
        for owner, first, last, kind in self.plan.ranges:
            if kind == "checksum" and self.plan.range_last(last) == f.id:
                self.emit_checksum_check(c, owner, first, end)

    def emit_checksum_check(self, c: Lines, owner: Field, first: str, end: str) -> None:
        computed = f"{c.checksum(owner.checksum['algorithm'])}({c.helper('checked_bytes')}(buf, s_{first}, {end}))"
        c(f"if {computed} != v_{owner.id}:")
        c(f"    raise _rt.DecodeError('checksum_mismatch', f'stored {{v_{owner.id}:#010x}}, computed {{{computed}:#010x}}', s_{owner.id}, {owner.id!r})")
        self.checksum_held(c, f"s_{first}", end)

    def close_ranges_decode(self, c: Lines, fid: str | None) -> None:
        """After the last field of a range: check its size, and any checksum not checked yet."""
        for owner, first, last, kind in self.plan.ranges:
            if last != fid and not (fid is None and last is None):
                continue
            if kind == "size":
                with c.block(f"if pos - s_{first} != v_{owner.id}:"):
                    c(f"raise _rt.DecodeError('invalid_length', f'declares {{v_{owner.id}}} bytes, the content takes {{pos - s_{first}}}', s_{owner.id}, {owner.id!r})")
            elif not self.plan.is_sized(self.plan.range_last(last)):
                self.emit_checksum_check(c, owner, first, "pos")

    def read_positional(self, inst) -> None:
        """A positional instance: read at `pos` from the start of this type's stream (of this
        type, in our schemas), then come back. Read where first needed, so that `_io.pos` in its
        position is where decoding is then."""
        c = self.lines
        if self.m.nav is None:
            c("resume = pos")
            c(f"pos = {c.local('start')} + {self.expr(inst.pos)}")
            c(f"if pos < start: raise _rt.bad_length(pos - start, start, {inst.id!r})")
            self.decode_element(c, inst.field, f"i_{inst.id}", inst.id, wrap=inst.id)
            c("pos = resume")
            return
        # Kaitai's positional instance: at `pos` of its stream (`io`, or this type's), then back.
        # Its expressions read this type's `_io`, even when the bytes come from another stream.
        f = inst.field
        if f.if_expr is not None:
            c(f"if {self.expr(f.if_expr)}:")
            c.indent += 1
        c(f"{c.local('x')} = {self.expr(inst.pos)}")
        size = None
        if inst.io is not None and f.size is not None and not f.repeat:
            c(f"n0 = {self.expr(f.size)}")
            size = "n0"
        c("saved = (buf, pos, io0, end)")
        if inst.io is not None:
            c(f"st = {self.expr(inst.io)}")
            c("buf, io0, end = st.buf, st.start, st.end")
        c("pos = io0 + x")
        c(f"if x < 0 or pos > end: raise _rt.bad_length(x, io0, {inst.id!r})")
        if f.repeat:
            self.decode_repeat(c, f, f"i_{inst.id}")
        else:
            self.decode_element(c, f, f"i_{inst.id}", inst.id, wrap=inst.id, size=size)
        c("buf, pos, io0, end = saved")
        if f.if_expr is not None:
            c.indent -= 1
            c(f"else: {c.local(f'i_{inst.id}')} = None")
