"""The checked encoder of a type, `_e_<type>(value, out, *params) -> int`.

An encoder appends bytes-like parts to the list `out` and returns how many bytes it appended
(`w`); `encode` joins the parts once. Keys and values go in as they are, without copies. A
derived field known only after its range (a size written before its range, a checksum) gets a
placeholder part that is filled in place once the range is written.

Here the function itself (its head, its locals, the value or tuple form it reads) and the derived
values: counts, sizes and defaults known from the value, fields encoded early to fill lengths
kept before them, and the sizes and checksums computed as their ranges close. Its fields are
written by `FieldWrites` (`encode_fields.py`), a list's elements first by the fast loops of
`FastEncoders` (`fast_encode.py`).
"""

from __future__ import annotations

from contextlib import contextmanager

from ..layout import reads_bits
from ..schema import Field
from .code import Function, Lines, declared
from .encode_fields import FieldWrites
from .fast_encode import FastEncoders
from .iterate import viewed
from .shapes import PYTHON_ERRORS, primitive_of
from .translate import Scope, path_root, remote_lengths
from .typecode import TypeCode


#: The locals an encoder declares where its code uses them, beside its fields' (`encoder`): the bytes
#: of the part being written, a varint's value, the bytes written so far and a derived value.
SCRATCH_LOCALS = [("d", "    d: bytes"), ("x", "    x: int"), ("w", "    w: int"), ("actual", "    actual: int")]


class Encoder(FieldWrites, TypeCode):
    """Emits a type's encoder (`encoder`)."""

    encoding = True

    def encoder(self) -> Function:
        """The encoder's function: the value's fields (or its tuple form's) read, the derived ones
        computed, every field written, the locals it uses declared."""
        t, c = self.t, Lines(self.m.build, 2)
        self.lines, self.encoding, self.computed_instances = c, True, set()
        self.scope.encoding = True
        self.deferred, self.computed = set(), set()
        self.pending_runs: list[tuple] = []  # (placeholder index, struct format, values, deferred ids, layout)
        self.varint_sizes: set[str] = set()  # deferred sizes written as a varint placeholder
        self.out = "out"
        self.fast = FastEncoders(self)
        c(f"{c.local('w')} = 0")
        if self.plan.bits_one_by_one:
            c("bb = 0; bl = 0  # bits written one by one, not yet a whole byte (`bl` of them)")
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
                c(f"v_{f.id} = _rt.as_list(v.{f.id})" if viewed(self.m, t, f) else f"v_{f.id} = v.{f.id}")
            for inst in t.instances:  # -lc-input instances are part of the value; others are computed
                # (an unwrapped value has no instances; a user's schema's are read where first needed)
                if inst.input or (inst.field is not None and not t.unwrap and self.m.nav is None):
                    c(f"i_{inst.id} = v.{inst.id}")
        early = self.encode_early(c)
        self.encode_upfront(c)
        self.deferred |= self.plan.deferred  # (the fields encoded early, above, know none of them)
        for part in self.plan.parts:
            if self.plan.bits_one_by_one and (isinstance(part, list) or not reads_bits(part.type)):
                self.complete_bits(c, part[0].fields[0].id if isinstance(part, list) else part.id)
            if isinstance(part, list):
                self.encode_run(c, part)
            elif part.id in early:
                self.put(c, c.local(f"b_{part.id}"), typed=True)
            else:
                self.encode_field(c, part)
        if self.plan.bits_one_by_one:
            self.complete_bits(c, None)
        self.close_ranges_encode(c, None)
        c("return w")
        head = f"def _e_{t.name}(v: {self.m.encoded_type(t)}, out: list[Any]{self.params(typed=True)}) -> int:"
        doc = f'    """Append the parts of a {t.name} to `out`; return how many bytes they hold."""'
        # A list whose elements may be value objects or tuples is untyped: a compiled loop over a
        # typed list checks each element for the one type (and a cast is a call in pure Python).
        # So is a list of a type with a tuple form, which gives it as a tuple.
        candidates = [(f"v_{f.id}", f"    v_{f.id}: Any") for f in t.seq
                      if f.if_expr is not None or self.takes_tuples(f) or self.m.switch_untyped(f)
                      or (form and self.m.field_meta(f).get("list"))]
        # A field's bytes, or None; untyped, because a cast is a call in pure Python and the
        # compiled build checks an untyped value where it becomes `d: bytes` all the same.
        candidates += [(f"b_{f.id}", f"    b_{f.id}: Any") for f in t.seq]
        candidates += [(f"t_{f.id}", f"    t_{f.id}: list[Any]") for f in t.seq]
        candidates += SCRATCH_LOCALS + sorted(self.fast.declared.items(), key=lambda item: item[1])
        body = [head, doc, *declared(candidates, c.uses), *self.instance_decls(self.computed_instances), "    try:", c.text(),
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
                # a flag, or a marker whose `-lc-absent` says "not there" (Kafka's -1 for a null struct)
                there = f"v_{f.present} is not None"
                c(f"if v_{f.id} is None: v_{f.id} = {there if f.absent is None else f'1 if {there} else {f.absent!r}'}")
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

    def mark(self, c: Lines, fid: str, off: int = 0) -> None:
        if fid in self.plan.marks:
            c(f"s_{fid} = w + {off}" if off else f"s_{fid} = w")
        if fid in self.plan.checksum_starts:
            c(f"i_{fid} = len(out)")

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
            index, fmt, values, deferred, layout = run
            if deferred <= self.computed:
                self.pack(c, fmt, values, layout, 0, into=index)
                self.pending_runs.remove(run)
