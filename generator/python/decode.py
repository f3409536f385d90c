"""The checked decoder of a type, `_d_<type>(buf, pos, end, lim, *params) -> (value, pos)`: its
fields read in seq order, each read checked against `end` and the call's budget, every error a
DecodeError naming its kind, offset and path.

Here the function itself: its head and the locals it declares, the value it returns (a value
object, its tuple form, its columns, Kaitai's object for a user's schema), its lazy instances,
and the hooks its variants fill (`iterate.py`, `trace.py`). Its fields are read by `FieldReads`
(`decode_fields.py`), one element's content by `ContentReads` (`decode_content.py`), a list's
element written out in its loop by `WrittenOut`, the C companion's readers called by `CReaders`."""

from __future__ import annotations

from .. import expr as E
from ..layout import reads_bits
from ..schema import Field, TypeDef
from .code import EXPRESSION_ERRORS, Function, Lines, declared, indented
from .decode_content import ContentReads
from .decode_fields import FieldReads
from .readers import CReaders
from .typecode import TypeCode, own_root
from .written_out import WrittenOut

# A DecodeError passes on as raised; in a user's schema one raised where no offset was known (text
# that is not its encoding, `_rt.text`) is placed where the value being read is (`_rt.placed`).
DECODE_ERROR_PLACED = {False: ["    except _rt.DecodeError:", "        raise"],
                       True: ["    except _rt.DecodeError as exc:", "        raise _rt.placed(exc, pos)"]}


#: The locals a decoder declares where its code uses them, beside its fields' (`field_decls`): the
#: scratch integers and bytes of its reads, and where the type starts (`start`, what `_io.pos`
#: counts from).
SCRATCH_LOCALS = [(name, f"    {name}: int") for name in ("x", "y", "n", "count", "e", "p")] + [
    ("b2", "    b2: bytes"), ("start", "    start = pos")]


class Decoder(FieldReads, ContentReads, WrittenOut, CReaders, TypeCode):
    """Emits a type's decoder, `_d_<type>` (`decoder`). The decoders `decode_iter` calls are its
    variants (`iterate.py`), which override the hooks named here."""

    keeps_list = True  # a list's elements are kept in it (a generator hands each out instead)
    makes_views = True  # a lazy read's lists are views here (`decode_viewed`; a skipper's, a trace's are not)

    def decoder_of(self, u: TypeDef) -> Decoder:
        """The plain decoder of another type (an element written out in this one's code)."""
        return Decoder(self.m, u)

    def decoder(self) -> Function:
        """The decoder's function: its fields read, its value returned, the locals it uses declared."""
        t, c = self.t, self.new_body()
        self.lines, self.encoding, self.computed_instances = c, False, set()
        self.lazy_functions: list[str] = []  # the module's functions of its lazy instances (`lazy_function`)
        self.scope.encoding = False
        self.navigation_start(c)
        self.early_at = len(c.lines)  # where the value instances children may read go (`move_early`)
        self.decoding_starts(c)
        if self.m.nav is None:  # (a user's schema sets them on its value as it reads them)
            for fid in self.m.model.plan(t).keeps_raw:  # none where the field is not processed
                c(f"{c.local(f'w_{fid}')} = None")
        one_by_one = self.decode_seq(c)
        if self.unplaced_instances():
            c("cur = [pos]  # where this type's stream is, for its instances without `pos`: each moves it on")
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
        decls = declared(candidates, c.uses) + self.instance_decls(self.computed_instances)
        body = c.text()
        # A user's schema reads values that may be null (a switch no case matched, `parent: false`):
        # any of its expressions may fail on the input.
        if self.m.nav is not None or self.guarded_expressions():
            # Expressions over decoded values (an index into a list, a division) can fail on bad
            # input in Python's terms; they still end in a DecodeError.
            body = "\n".join(["    try:", indented(body),
                              *DECODE_ERROR_PLACED[self.m.nav is not None],
                              f"    except ({'AttributeError, NameError, ' if self.m.nav is not None else ''}"
                              f"{EXPRESSION_ERRORS}) as exc:",
                              "        raise _rt.invalid(f'an expression failed on this input: {exc}', pos, '') from None"])
        return Function("\n\n\n".join(["\n".join([head, doc, *decls, self.errors_raised(body)]), *self.lazy_functions]),
                        c.uses)

    def return_kaitai_object(self, c: Lines, one_by_one: bool) -> None:
        """A user's schema: the value object (made first, its fields set as they were read), with
        the instances its seq did not need computed when first read (`_rt.lazy`) by its `_lazy`,
        one function of the instance's name for all of them (`lazy_function`). While a seq that
        reads structures is read, its `_lazy` computes the value instances a child may read
        early, through `_parent` or `_root` (`move_early`), and no other: any other name not set
        yet is a field or instance not read yet (with no `_lazy`, an instance not set is None)."""
        t = self.t
        self.lazy = {i.id for i in t.instances} - self.computed_instances
        lazy = [inst for inst in t.instances if inst.id in self.lazy]
        early = [inst for inst in lazy if self.readable_early(inst, one_by_one)]
        if early:
            c(self.lazy_function(c, f"_lze_{t.name}", early, one_by_one, early=True))
            self.move_early(c, len(c.lines) - 1, f"me._lazy = _lze_{t.name}")
        elif self.navigates and t.instances and self.reads_structures():
            self.move_early(c, len(c.lines), "me._lazy = _rt.nothing_lazy")
        if len(lazy) > len(early):
            c(self.lazy_function(c, f"_lz_{t.name}", lazy, one_by_one))
            c(f"me._lazy = _lz_{t.name}")
        if self.m.keeps_io(t):  # Kaitai's `_io` of a value read: where its reading ended
            c("me._io.at = pos")
        c("return me, pos")

    def reads_structures(self) -> bool:
        """Whether the seq reads structures (its fields', or its instances'), which may read this
        one's instances through `_parent` or `_root` before it is read."""
        fields = [*self.t.seq, *(i.field for i in self.t.instances if i.id in self.computed_instances and i.field)]
        return any(ref.kind == "user" for f in fields for ref in [f.type, *(case for _, case in f.type.cases)])

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
        values += [f"{c.new_stream()}(buf, io0, end, pos)"] if self.m.exposes_io else []
        if self.m.tuple_decoded(t):
            form = self.m.tuple_items(t, [f"v_{f.id}" for f in self.m.tuple_form(t)])
            if t is self.m.columned:  # `decode_columns`: each field appended to its column
                with c.block("if cols is not None:"):
                    for i, v in enumerate(form):
                        c(f"cols[{i}].append({v})")
                    c("return None, pos")
            c(f"if as_tuple: return ({', '.join(form)}{',' if len(form) == 1 else ''}), pos")
        wires = self.m.model.plan(t).keeps_raw
        if self.made_by_new():
            self.object_made(c, t, "obj", values)
            self.wires_kept(c, "obj", wires)
            c("return obj, pos")
        else:
            made = f"{t.class_name}({', '.join(values)})"
            made = f"{c.untracked()}({made})" if self.m.untracks else made
            if self.m.build.compiled and t in self.m.c_classes:
                # the module's class, which C reads: made by its C companion where built (a call
                # of the class would run its `__init__` as Python), never tracked
                made = f"(_NEW_{t.name}(_C_CLASSES, {', '.join(values)}) if _NEW_{t.name} is not None else {made})"
            c(f"return {self.kept_on(c, made, wires)}, pos")

    @staticmethod
    def wires_kept(c: Lines, obj: str, wires: list[str]) -> None:
        """The bytes of processed fields as read (`w_<field>`, None where not processed) kept on
        the value `obj` (`TypePlan.keeps_raw`), which its encoder writes back."""
        for fid in wires:
            c(f"{obj}._wire_{fid} = {c.local(f'w_{fid}')}")

    def kept_on(self, c: Lines, made: str, wires: list[str]) -> str:
        """What to return for the value expression `made`: itself, or where `wires` name fields
        whose bytes as read it keeps, `obj`, made first with them set (`wires_kept`)."""
        if not wires:
            return made
        c(f"obj = {made}")
        self.wires_kept(c, "obj", wires)
        return "obj"

    # ------------------------------------------------------------ what a variant adds (nothing here)
    # The trace variant (`trace.py`) records where each field lies; the checked decoder does not.

    def new_body(self) -> Lines:
        """The lines of the decoder's body."""
        return Lines(self.m.build)

    def trace_param(self) -> str:
        return ""

    def trace_arg(self) -> str:
        return ""

    def lazy_reads(self) -> list[str]:
        """The decoder's locals its lazy instances' function reads besides the stream (`_at`)."""
        return []

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
            if one_by_one and (isinstance(part, list) or not reads_bits(part.type)):
                c("bb = 0; bl = 0")  # a byte-aligned field: the bits left in the last byte are skipped
            if isinstance(part, list):
                self.decode_run(c, part)
            else:
                self.decode_field(c, part)
        self.close_ranges_decode(c, None)
        return one_by_one

    def field_decls(self) -> list[tuple[str, str]]:
        """The declarations of the decoder's locals for the seq's fields (`v_`; a conditional one's
        is Any: its presence follows from conditions no type checker follows, and so is a user's
        switch's, `switch_untyped`), in order, then
        its list's elements that may be tuples (`_e`, untyped so that the list takes them uncast)
        and bit groups (`g_`, `decode_run`)."""
        t = self.t
        decls = [(f"v_{f.id}", f"    v_{f.id}: {'Any' if self.untyped_local(f) else self.m.local_type(f)}")
                 for f in t.seq]
        decls += [(f"_e{f.id}", f"    _e{f.id}: Any") for f in t.seq
                  if self.tuple_elements(f) or (f.repeat and self.m.switch_untyped(f))]
        decls += [(f"w_{fid}", f"    w_{fid}: Any") for fid in self.m.model.plan(t).keeps_raw]
        return decls + [(f"g_{f.id}", f"    g_{f.id}: int") for f in t.seq if f.type.kind == "bits"]

    def untyped_local(self, f: Field) -> bool:
        """Whether a field's local is typed `Any`: a conditional field's, a user's switch's, and a
        list's that a lazy read views (a list or a `LazyList`, `decode_viewed`)."""
        return (f.if_expr is not None or self.m.switch_untyped(f)
                or (self.makes_views and id(f) in self.m.model.viewed_lists))

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

    def move_early(self, c: Lines, start: int, line: str | None = None) -> None:
        """Move the code from `start` on (and `line`) before the seq: a value instance a child
        reads through `_root` or `_parent` while this type is read is computed then, as Kaitai's
        is (lvm2's `_root.sector_size`); one that reads a field not read yet fails there."""
        if line is not None:
            c(line)
        moved = c.lines[start:]
        del c.lines[start:]
        c.lines[self.early_at:self.early_at] = moved
        self.early_at += len(moved)

    def lazy_function(self, c: Lines, function: str, insts: list, one_by_one: bool, early: bool = False) -> str:
        """A user's schema: the instances the seq did not need (`insts`), computed when first read,
        as Kaitai's are, by the module's function `function(value, name)`, which sets the
        instance `name` on the value and gives it, or gives `_rt.NOT_LAZY` for another name (one
        function for all of them, not one each). It reads the fields, params and other instances
        off the value, and the stream as it was when the decoder set the value's `_at` (the line
        returned, which the decoder writes where it binds the function): a function of the module,
        not one made for every value, which would hold the value it computes for (a cycle).
        Compiled, the function reads a value read to its end (not `early`, while its seq is read)
        as its class: its fields and params are read in C, not looked up by name; its instances
        through the value seen as anything (`obj`)."""
        t = self.t
        lz = self.new_body()  # (a variant's kind of lines, as the decoder's own)
        # Compiled, a value read to its end is read as its class (`o`), its fields in C; its
        # instances through `obj`, the same value seen as anything: mypyc reads an attribute of a
        # value of its class in C, even through `cast(Any, o)`, and one not set yet raises there,
        # where only a read of the value seen as anything reaches `__getattr__`, which computes it.
        typed = self.m.build.compiled and not early
        self.scope.value_as_anything = "obj" if typed else "o"
        own = {f.id for f in t.seq} | {p.id for p in self.m.exposed_params(t)}
        saved_lines, saved_computed = self.lines, self.computed_instances
        self.lines = lz
        locals_: set[str] = set()  # the instances it computes
        for inst in insts:
            self.computed_instances, self.lazy_target = set(), inst.id
            # the fields, params and other instances read off the value as the expression reaches
            # them (Kaitai's order: `a and b` computes `b` only where `a` is true)
            self.scope.read_from_value = frozenset(own | {i.id for i in t.instances if i.id != inst.id})
            with lz.block(f"if name == {inst.id!r}:"):
                with lz.block("try:"):
                    self.need_instances(E.Name(inst.id))
                    lz(f"return i_{inst.id}")
                lz("except _rt.DecodeError as exc: raise _rt.placed(exc, pos)")
                # NameError: an instance whose value reads itself (Kaitai would recurse without end)
                with lz.block("except (AttributeError, IndexError, KeyError, ZeroDivisionError, TypeError, OverflowError, "
                              "ValueError, LookupError, NameError) as exc:"):
                    lz(f"raise _rt.invalid(f'an expression failed on this input: {{exc}}', pos, {inst.id!r}) from None")
            locals_ |= self.computed_instances
            self.lazy_target = None
        self.lines, self.computed_instances = saved_lines, saved_computed
        self.scope.read_from_value = frozenset()
        self.scope.value_as_anything = "o"
        # What the function reads besides the value: the stream, the budget, and where its code
        # names them, the value's parent and root (kept on the value for it alone).
        at = ["buf", "pos", "io0", "end", "lim"] + [n for n in ("parent", "root") if n in lz.uses.locals]
        at += ["bb", "bl"] if one_by_one else []
        at += ["cur"] if self.unplaced_instances() else []
        at += self.lazy_reads()
        head = [f"def {function}(o: {t.class_name if typed else 'Any'}, name: str) -> Any:",
                f'    """Computes the instance `name` of a value of `{t.name}`, not computed yet (`_rt.lazy`)."""',
                *self.instance_decls(locals_),
                f"    {', '.join(at)} = o._at",
                *(["    obj: Any = o"] if "obj" in lz.uses.locals else []),
                *(["    me = o"] if "me" in lz.uses.locals else [])]
        if "root" in at and own_root(t):  # its own root: not kept on itself (a cycle), but None
            head.append("    if root is None: root = o")
        self.lazy_functions.append("\n".join([*head, lz.text(), "    return _rt.NOT_LAZY"]))
        c.uses.module |= lz.uses.module
        stored = ["root if root is not me else None" if n == "root" and own_root(t) else n for n in at]
        return f"me._at = ({', '.join(stored)})"
