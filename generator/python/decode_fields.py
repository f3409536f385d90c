"""A decoder's reading of its type's fields in seq order (mixed into `Decoder`): a run of fixed
fields (one struct, bit groups split), a field and the list it may be (counted, until a
condition, to the end, or with a partial last element), a positional instance, and the checks of
the ranges a field closes (a size, a checksum)."""

from __future__ import annotations

from ..layout import STRUCT_CODES, Item, NumberRun, number_run
from ..schema import Field
from ..types import field_tinfo
from ..walk import least_element_bytes
from .code import Lines
from .shapes import int_at

#: (bytes, signed) of each struct code of an integer: a run of them a compiled build reads by shifts.
INT_CODES = {code: key for key, code in STRUCT_CODES.items()}
#: The fewest numbers of a run a compiled build reads by one struct call, not by shifts (`read_number_run`).
SHORT_RUN = 8


class FieldReads:
    """The fields of a decoder (`Decoder`), read in order; one element's content is `ContentReads`'."""

    def decode_run(self, c: Lines, run: list[Item]) -> None:
        """A run of fixed fields read at once, checked once against `end`: by one struct (a byte or
        two alone by hand), each bit group as one integer split into its fields. The instances a
        field's check reads are computed after the run is read, before that check: they may read
        the run's fields (pif's header checks its bits per pixel against its image type)."""
        size = sum(item.size for item in run)
        entries, targets, off = [], [], 0
        for item in run:
            for f in item.fields:
                entries.append((f.id, off, item.size))
            # a bit group is read as one integer (`g_`, declared int so that a compiled build
            # shifts and masks it in C); one of a width no struct code has comes as bytes first
            group = "gb_" if item.bits and item.code.endswith("s") else "g_"
            targets.append(f"v_{item.fields[0].id}" if not item.bits else f"{group}{item.fields[0].id}")
            off += item.size
        layout = self.m.layout(entries)
        c.bound(f"if pos + {size} > end: raise _rt.short_run(buf, pos, end, {layout})")
        self.read_run_values(c, run, targets)
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
                self.prepare([f])
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

    def read_run_values(self, c: Lines, run: list[Item], targets: list[str]) -> None:
        """The values of a run's fields into `targets` (its bounds checked): by shifts, or by one
        struct."""
        targets = [c.local(target) for target in targets]
        if all(item.code in INT_CODES for item in run) and self.by_shifts([item.size for item in run]):
            at = 0
            for item, target in zip(run, targets):
                c(f"{target} = {int_at('buf', 'pos', *INT_CODES[item.code], item.endian, at)}")
                at += item.size
        else:
            name = self.m.struct(self.run_format(run)[0])
            c(f"{', '.join(targets)}{',' if len(targets) == 1 else ''} = {name}.unpack_from(buf, pos)")

    def split_bits(self, c: Lines, item: Item) -> None:
        """Each bit field of a group read as one unsigned integer (`g_`): a flag is its bit
        tested in place, the topmost field a shift alone (two operations fewer each, when
        interpreted)."""
        total = item.size * 8
        g = f"g_{item.fields[0].id}"
        for f, at in item.bit_positions():
            n = f.type.size
            if n == 1:
                value = f"({g} & {1 << at:#x}) != 0"
            elif at + n == total:
                value = f"{g} >> {at}" if at else g
            else:
                value = f"({g} >> {at}) & {(1 << n) - 1:#x}" if at else f"{g} & {(1 << n) - 1:#x}"
            c(f"{c.local(f'v_{f.id}')} = {value}")

    def decode_field(self, c: Lines, f: Field) -> None:
        """A field that is no part of a run: its element or list, under its condition (None where
        false), shown to its children, and the ranges it closes checked."""
        self.prepare([f])
        if f.id in self.plan.marks:
            c(f"s_{f.id} = pos")
        if f.if_expr is not None:
            c(f"if {self.expr(f.if_expr)}:")
            c.indent += 1
        self.field_begins(c, f)
        if f.repeat and self.makes_views and id(f) in self.m.model.viewed_lists:
            self.decode_viewed(c, f)
        elif f.repeat:
            self.decode_repeat(c, f)
        else:
            self.decode_element(c, f, f"v_{f.id}", f.id, wrap=f.id)
        self.field_ends(c, f)
        if f.if_expr is not None:
            c.indent -= 1
            # A checksum whose range ends with this sized field is checked at its extent,
            # inside the branch above; when the field is absent, its range ends here.
            closes_checksum = self.plan.is_sized(f.id) and bool(self.checksums_ending_with(f))
            keeps = self.keeps_value(f)
            if keeps or closes_checksum:
                with c.block("else:"):
                    if keeps:
                        c(f"{c.local(f'v_{f.id}')} = None")
                    if closes_checksum:
                        self.checksum_at_extent(c, f, "pos")
        self.publish(c, f.id, f"v_{f.id}")
        self.close_ranges_decode(c, f.id)

    def decode_viewed(self, c: Lines, f: Field) -> None:
        """A list a lazy read views (`Model.viewed_lists`): in a lazy read (the budget's LAZY), its
        elements skipped (`_s_<type>`, checked as they are read), and the field a `LazyList`
        whose loop reads them (`_v_<type>_<field>`), made where its errors are named from the
        call's root (`nested_source`); else read as any list."""
        var, u = f"v_{f.id}", f.type.user
        args = "".join(f", {a}" for a in self.element_args(f))
        with c.block(f"if lim[{c.budget('LAZY')}]:"):
            c(f"{c.local('count')} = {self.expr(f.repeat_expr)}")
            self.count_checked(c, f, f.id, negative=True)
            reader = f"_v_{self.t.name}_{f.id}"
            c(f"lz_source = _nested_source(lim, {reader}, buf, pos, (end, count{args}))")
            # its first loop spends the call's budget, as the eager read does (the later ones their own)
            c(f"lz_first = {reader}(buf, pos, end, lim, end, count{args}, lz_source[5], -1)")
            c("i = 0")
            with c.block("try:"):
                with c.block("for i in range(count):"):
                    c(f"pos = _s_{u.name}(buf, pos, end, lim{args})")
            with c.block("except _rt.DecodeError as exc:"):
                c(f'raise exc.within(f"{f.id}[{{i}}]")')
            c(f"{c.local(var)} = _LazyList(lz_first, lz_source, count)")
        with c.block("else:"):
            self.decode_repeat(c, f)

    def count_checked(self, c: Lines, f: Field, path: str, negative: bool) -> None:
        """The checks of a list's `count` before anything is read or made: not negative (where
        that is an error, `negative`), and no more elements than the bytes left can hold."""
        if negative:
            c(f"if count < 0: raise _rt.bad_length(count, pos, {path!r})")
        least = least_element_bytes(f, self.t)
        if least > 0:
            c(f"if count * {least} > end - pos: raise _rt.short(buf, pos, end, count * {least}, {path!r})")

    def element_args(self, f: Field) -> list[str]:
        """The arguments this type's decoder gives the decoder of an element of the list `f`."""
        ref = f.type  # (a format of ours: a type's params, then what it reads of this one)
        return [self.expr(a) for a in ref.args] + list(self.parent_locals(ref.user).values())

    def decode_repeat(self, c: Lines, f: Field, var: str | None = None) -> None:
        """The list `f` into `var` (its field's local by default): counted, until a condition, to
        the end of the stream, or to a partial last element; each element's errors name its index."""
        var = var or f"v_{f.id}"
        if self.keeps_list:
            c(f"{c.local(var)} = {c.untracked() + '([])' if self.m.untracks else '[]'}")
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
                # A negative count is an error in our formats; in a user's schema the list is
                # empty, as Kaitai's parser loops over `range(count)`.
                strict = self.t.schema.strict
                c("if count:" if strict else "if count > 0:")
                c.indent += 1
                guarded = True
                self.count_checked(c, f, path, strict)
                # Every element costs an object, however few bytes it takes: the whole count
                # comes out of the call's budget before the first one is built.
                self.spend_elements(c, "count", path)
                run = self.number_run(f)
                if run is not None:  # the whole list in one call: its bytes are there (above)
                    self.read_number_run(c, var, run)
                    c(f"pos += count * {run.size}")
                    c.indent -= 1
                    return
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

    def read_number_run(self, c: Lines, var: str, run: NumberRun) -> None:
        """A list's `count` numbers read in one call, into the list `var` (`number_run`). A compiled
        build reads a short run's integers by shifts (`int_at`): below 8 of them, that is faster
        than the struct's call and tuple (3 ints, compiled: 105 ns against 188; 10: 347 against 274)."""
        whole = f"{c.local(var)}.extend({self.m.number_runs(run.code)}[count].unpack_from(buf, pos))"
        if not (self.m.build.compiled and run.code[1:] in INT_CODES):
            c(whole)
            return
        size, signed = INT_CODES[run.code[1:]]
        endian = "be" if run.code[0] == ">" else "le"
        with c.block(f"if count < {SHORT_RUN}:"):
            c(f"{c.local('p')} = pos")
            with c.block("for _ in range(count):"):
                c(f"{var}.append({int_at('buf', 'p', size, signed, endian)})")
                c(f"p += {size}")
        with c.block("else:"):
            c(whole)

    def number_run(self, f: Field) -> NumberRun | None:
        """How the list `f` reads in one call (`layout.number_run`), where its elements are kept in
        it and no element's read is shown (a trace's, which shows each)."""
        return number_run(f) if self.keeps_list else None

    def typed_int_local(self, code: str) -> bool:
        """Whether `code` is the local of one of this type's fields declared `int` (`decoder`):
        a conditional field's is `Any`, whose compiled comparisons and sums go through the
        object protocol (TANK's messages, whose keys were read in place that way, decoded about
        8 % slower in `bench tank`'s bundle_100); the copy `n` is typed."""
        f = self.t.field(code[2:]) if code.startswith("v_") else None
        return f is not None and f.if_expr is None and self.m.local_type(f) == "int"

    def take_element(self, c: Lines, f: Field, var: str, elem: str) -> None:
        """An element decoded: appended to its list. An element of a switch that no case matches
        (None, in a user's schema) is left out, as Kaitai's parser appends only in a case."""
        if self.skips_unmatched(f):
            c(f"if {elem} is not None: {c.local(var)}.append({self.element_of(f, elem)})")
            return
        if self.untracks_tree(f):
            c(f"if {c.untracked_tree()} is not None: {c.untracked_tree()}({elem})")
        c(f"{c.local(var)}.append({self.element_of(f, elem)})")

    def untracks_tree(self, f: Field) -> bool:
        """Whether an element of the list `f` is taken off the collector's list with what it
        holds (`ModuleEmitter.untracks_trees`): one that holds a list or a value of its own, in
        a list of a type that is no list's element (whose list takes it off, with this one)."""
        u = f.type.user if f.type.kind == "user" else None
        return (self.m.untracks_trees and u is not None and not u.primitive
                and self.t.name not in self.m.model.listed_types
                and any(g.repeat or g.type.kind == "switch" or (g.type.kind == "user" and not g.type.user.primitive)
                        for g in u.seq))

    def skips_unmatched(self, f: Field) -> bool:
        """Whether `f` is a list of a switch whose value may match no case, in a user's schema."""
        ref = f.type
        return (ref.kind == "switch" and not self.t.schema.strict and not f.no_case
                and all(key is not None for key, _ in ref.cases))

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
            if self.m.nav is not None:  # Kaitai's objects: the stream's start moves with the copy
                c("io0 -= base")
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
        if self.m.nav is not None:
            c("io0 += base")

    def keeps_value(self, f: Field) -> bool:
        """Whether the field's value is kept in its local (`v_<id>`), None where it is absent."""
        return True

    def checksums_ending_with(self, f: Field) -> list[tuple[Field, str]]:
        """(checksum field, first field of its range) of each checksum whose range ends with `f`."""
        return [(owner, first) for owner, first, last, kind in self.plan.ranges
                if kind == "checksum" and self.plan.range_last(last) == f.id]

    def checksum_at_extent(self, c: Lines, f: Field, end: str = "e") -> None:
        """Verify a checksum as soon as the end of its range is known, before decompressing."""
        for owner, first in self.checksums_ending_with(f):
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
        # Kaitai's parse instance: at `pos` of its stream (`io`, or this type's), then back. Its
        # expressions read this type's `_io`, even when the bytes come from another stream.
        # Without `pos`, where that stream is: this type's, where its seq ended, or where the last
        # such instance read ended (`cur`: Kaitai's parser neither seeks nor comes back; the seq
        # itself reads none, the `streams` pass); another's, where it was when it was taken.
        f = inst.field
        if f.if_expr is not None:
            c(f"if {self.expr(f.if_expr)}:")
            c.indent += 1
        if inst.pos is not None:
            c(f"{c.local('x')} = {self.expr(inst.pos)}")
        size = None
        if inst.io is not None and f.size is not None and not f.repeat:
            c(f"n0 = {self.expr(f.size)}")
            size = "n0"
        c("saved = (buf, pos, io0, end)")
        if inst.io is not None:
            c(f"st = {self.expr(inst.io)}")
            c("buf, io0, end = st.buf, st.start, st.end")
        if inst.pos is not None:
            c("pos = io0 + x")
            c(f"if x < 0: raise _rt.bad_length(x, io0, {inst.id!r})")
            # Kaitai's parser seeks past the end of its stream unhindered, and reads nothing there
            # (an empty `size`); from the end, a read of nothing still succeeds, and any other fails.
            c("if pos > end: pos = end")
        elif inst.io is not None:
            c("pos = st.at")
        else:
            c("pos = cur[0]")
        if f.repeat:
            self.decode_repeat(c, f, f"i_{inst.id}")
        else:
            self.decode_element(c, f, f"i_{inst.id}", inst.id, wrap=inst.id, size=size)
        if inst.pos is None and inst.io is None:
            c("cur[0] = pos")
        c("buf, pos, io0, end = saved")
        if f.if_expr is not None:
            c.indent -= 1
            c(f"else: {c.local(f'i_{inst.id}')} = None")

