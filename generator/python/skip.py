"""The skippers a lazy read calls (`Model.skipped_types`): `_s_<type>` finds where a value of the
type ends, its reads checked as its decoder checks them, and makes nothing of it: no value, no
list, no element. A lazy read skips the elements of a list it views (`Model.viewed_lists`) to
read what follows the list; a loop over the view reads them with their decoder. It is the
checked decoder (`Decoder`) with the hooks it names overridden."""

from __future__ import annotations

import functools

from ..layout import Item, NumberRun, number_run
from ..schema import Field, TypeDef, TypeRef
from ..walk import reads_of, refs_of
from .code import Function, Lines
from .decode import Decoder
from .shapes import primitive_of


class Skipper(Decoder):
    """`_s_<type>`: the type's reads, checked as its decoder's are; a list of a skipped type is
    skipped element by element, a run of numbers by its size, a number or bytes that nothing
    reads or checks (`unread`) by its size, and any other element or field is read as its
    decoder reads it (what a later field's size, count or condition reads must be read), then
    dropped."""

    keeps_list = False
    makes_views = False  # (a view's elements are skipped where a lazy read makes it)

    def decoder_head(self) -> tuple[str, str]:
        t = self.t
        params = f"buf: bytes, pos: int, end: int, lim: list[int]{self.params(typed=True)}"
        return (f"def _s_{t.name}({params}) -> int:",
                f'    """Skip one {t.name} of buf[pos:end] (a lazy read\'s view of a list of them): its reads\n'
                '    checked as its decoder checks them, nothing made; return the position after it."""')

    def return_value(self, c: Lines) -> None:
        c("return pos")

    @functools.cached_property
    def read_fields(self) -> set[str]:
        """The fields of the type whose values a skip reads: those its expressions read (a size, a
        count, a condition, an argument), those its ranges check (a length, a checksum) and those
        its parts read through `_parent`."""
        names = reads_of(self.t) | {owner.id for owner, *_ in self.plan.ranges}
        for f in self.t.seq:
            for ref in refs_of(f.type):
                if ref.kind == "user":
                    names |= set(self.parent_locals(ref.user))
        return names

    def unread(self, f: Field) -> bool:
        """Whether a skip may pass over the field's bytes without making its value: nothing reads
        it (`read_fields`), and no check (`valid`, `contents`, an enum's members) is made on it."""
        return f.id not in self.read_fields and not f.valid and f.contents is None and f.enum is None

    def keeps_value(self, f: Field) -> bool:
        return f.id in self.read_fields or self.builds_object  # else nothing reads it, absent or not

    def passes_over(self, f: Field, ref: TypeRef) -> bool:
        """Whether the skip passes over an element of `f` read as `ref` by its size alone (`unread`):
        a number, or bytes that no terminator or padding ends."""
        plain = ref.kind in ("int", "float") and primitive_of(ref) is None or (
            ref.kind == "bytes" and f.pad_right is None and f.terminator is None)
        return plain and self.unread(f)

    def decode_element(self, c: Lines, f: Field, target: str, epath: str, wrap: str | None,
                       size: str | None = None, ref: TypeRef | None = None) -> None:
        declared = target in c.uses.locals
        super().decode_element(c, f, target, epath, wrap, size, ref)
        if not declared and self.passes_over(f, ref or f.type):
            c.uses.locals.discard(target)  # never assigned: the function declares no local for it

    def read_run_values(self, c: Lines, run: list[Item], targets: list[str]) -> None:
        if any(item.bits or not self.unread(f) for item in run for f in item.fields):
            super().read_run_values(c, run, targets)
        # else: its bounds are checked, and `pos` moves past it

    def decode_unsized(self, c: Lines, f: Field, ref: TypeRef, target: str, epath: str, wrap) -> None:
        if ref.kind in ("int", "float") and self.passes_over(f, ref):
            c.bound(f"if pos + {ref.size} > end: raise _rt.short(buf, pos, end, {ref.size}, {epath!r})")
            c(f"pos += {ref.size}")
        else:
            super().decode_unsized(c, f, ref, target, epath, wrap)

    def decode_content(self, c: Lines, f: Field, ref: TypeRef, target: str, epath: str, wrap, bounds,
                       trimmed: bool = True) -> None:
        if not (ref.kind == "bytes" and self.passes_over(f, ref)):
            super().decode_content(c, f, ref, target, epath, wrap, bounds, trimmed)
        # else: bytes within bounds already checked, which nothing reads

    def inlined_element(self, f: Field):
        return None  # each element skipped by its type's skipper (`decode_listed`)

    def fast_reader(self, f: Field):
        return None  # (the C companion reads lists to make them)

    def untracks_tree(self, f: Field) -> bool:
        return False

    def number_run(self, f: Field) -> NumberRun | None:
        return number_run(f)  # kept by no list, but skipped by its size all the same

    def read_number_run(self, c: Lines, var: str, run: NumberRun) -> None:
        pass  # its size is checked against the bytes left before the run: `pos` moves past it

    def take_element(self, c: Lines, f: Field, var: str, elem: str) -> None:
        pass

    def read_tuples_asked(self, c: Lines, f: Field) -> None:
        pass  # no element is made

    @staticmethod
    def spend_elements(c: Lines, count: str, path: str) -> None:
        pass  # nothing is made: the loop over the view spends its elements

    def decode_listed(self, c: Lines, f: Field, elem: str) -> None:
        u = f.type.user if f.type.kind == "user" else None
        if u is not None and u in self.m.model.skipped_types:
            self.call_decoder(c, f"pos = _s_{u.name}(buf, pos, end, lim{self.call_args(f.type, f=f)})", None)
        else:
            super().decode_listed(c, f, elem)


def view_loop(m, t: TypeDef, f: Field) -> Function:
    """`_v_<type>_<field>`: the elements of a list a lazy read views (`Decoder.decode_viewed`),
    read one at a time by their decoder as a loop over the view reaches them (the view's source,
    `lazy.read_again`). `end` is where the holder's reads end, `count` the list's, and the rest
    the arguments of the element's decoder; an element's error comes out named as the eager read
    names it: with the field's path, then from the call's root (`named_value`)."""
    u, c = f.type.user, Lines(m.build, indent=1)
    d = Decoder(m, t)
    args = [f"a{i}" for i in range(len(d.element_args(f)))]
    tuples = d.tuple_elements(f)
    call = ", ".join(["buf", "pos", "end", "lim", *args, *(["elem_tuples"] if tuples else [])])
    c("i = 0")
    with c.block("try:"):
        with c.block("if count:"):
            Decoder.spend_elements(c, "count", f.id)
            if tuples:
                c(f"elem_tuples = lim[{c.budget('TUPLES')}] == 1")
            with c.block("for i in range(count):"):
                with c.block("try:"):
                    c(f"elem, pos = _d_{u.name}({call})")
                with c.block("except _rt.DecodeError as exc:"):
                    c(f'raise exc.within(f"{f.id}[{{i}}]")')
                if d.untracks_tree(f):  # as the list's loop takes them off: for a view a call keeps
                    c(f"if {c.untracked_tree()} is not None: {c.untracked_tree()}(elem)")
                c("yield elem")
    with c.block("except _rt.DecodeError as exc:"):
        c("raise _named_value(exc, root, index)")
    params = ", ".join(["buf: bytes", "pos: int", "_end: int", "lim: list[int]", "end: int", "count: int",
                        *(f"{a}: Any" for a in args), "root: Any", "index: int"])
    head = (f"def _v_{t.name}_{f.id}({params}) -> Iterator[Any]:\n"
            f'    """The elements of a {t.name}\'s `{f.id}` read one at a time, as a loop over its view\n'
            '    reaches them (`count` of them, before `end`); an error is named from the root of the lazy\n'
            '    read that made the view (`root`, `_named_value`)."""')
    return Function(head + "\n" + c.text(), c.uses)
