"""The decoders `decode_iter` and `decode_columns` call (`bulk.iterated_bulk`): the root's fields
before its bulk list, with an iterator of that list (`Iterator`, `_i_<root>`), and the list's
elements one at a time (`Generator`, `_g_<list type>`), or into their columns. Each is the
checked decoder (`Decoder`) with the hooks it names overridden."""

from __future__ import annotations

import textwrap

from .. import c as c_companion
from .. import expr as E
from ..bulk import Bulk, header_of
from ..schema import Field, TypeRef
from .code import Lines, indented
from .decode import Decoder
from .readers import c_form


def viewed(m, t, f: Field) -> bool:
    """Whether field `f` of type `t` may hold a view in a decoded value (a `LazyList`, which a
    lazy read gives: `Model.lazy_bulk`, `Model.viewed_lists`). Its class types it as a `Sequence`,
    and its encoder reads it as a list (`_rt.as_list`)."""
    bulk = m.model.lazy_bulk
    return (bulk is not None and t is m.schema.root and f.id == bulk.field.id) or id(f) in m.model.viewed_lists


def lazy_doc(bulk: Bulk | None) -> str:
    """The docstring sentence of the `lazy` keyword of a module's decode, decode_prefix and
    decode_stream."""
    if bulk is None:
        said = ("`lazy` changes nothing here: this format has no list that is read when a loop "
                "reaches it; everything is read and checked before this returns.")
    else:
        field = bulk.field.id
        said = (f"The {field} are read when a loop reaches them (`lazy`, the default): `{field}` is a "
                "`LazyList`, which keeps none of them unless asked for more than a loop (`len`, an "
                "index, `==`: then all, once); an element's error comes from the loop that reaches "
                "it. Everything before them (sizes, checksums, decompression, the bytes after the "
                f"value) is checked before this returns. With `lazy=False`, every element is read, "
                "checked and kept first.")
    return "\n\n" + textwrap.fill(said, 84, initial_indent="    ", subsequent_indent="    ")


def nested_doc(viewed: list[str], lists: tuple[str, ...] = ()) -> str:
    """The docstring sentence of the `lazy` keyword of a module whose values nest viewed ones, or
    hold lists a lazy read views (`lists`, as `type.field`)."""
    parts = []
    if lists:
        parts.append(f"the lists {', '.join(f'`{name}`' for name in lists)} are views (a `LazyList`): "
                     "their elements are skipped, checked as they are read, and read when a loop "
                     "reaches them")
    if viewed:
        values = " and ".join(f"`{name}`" for name in viewed)
        parts.append(f"the {values} values inside are read as their own `decode` reads them: the "
                     "elements of each view when a loop reaches them")
    said = (f"In a lazy read (`lazy`, the default), {'; '.join(parts)}. An element's error comes "
            "from the loop that reaches it, with its whole path. Everything else is checked before "
            "this returns. With `lazy=False`, every element is read, checked and kept first.")
    return "\n\n" + textwrap.fill(said, 84, initial_indent="    ", subsequent_indent="    ")


class NestedView(Decoder):
    """`_d_<root>` of a root whose bulk a lazy read views (`Model.lazy_bulk`). Read inside another
    value that a call reads lazily (the budget's LAZY), its bulk is a view: a `LazyList` whose first
    loop is the bulk's generator (`_g_`, as `_i_` makes it) and whose later loops read the value
    again (`_i_`), made where the view's errors can be named from the call's root
    (`runtime.lazy.nested_source`). The rest of the value is read as the eager read reads it, in
    this one function: no header value is made and copied (`_viewed`, a root's lazy read)."""

    def decoding_starts(self, c: Lines) -> None:
        # Made before anything of the value is read: the read again that names an error of this
        # view raises it here, where no field's handler adds to its path.
        args = self.params()
        params = f"({args[2:]},)" if args else "()"
        c(f"lz_source = _nested_source(lim, _i_{self.t.name}, buf, pos, {params}) if lim[{c.budget('LAZY')}] else None")

    def untyped_local(self, f: Field) -> bool:
        return f is self.m.model.lazy_bulk.field or super().untyped_local(f)  # (a list or a `LazyList`)

    def decode_content(self, c: Lines, f: Field, ref: TypeRef, target: str, epath: str, wrap, bounds,
                       trimmed: bool = True) -> None:
        bulk = self.m.model.lazy_bulk
        if not (ref.kind == "user" and f is bulk.field):
            super().decode_content(c, f, ref, target, epath, wrap, bounds, trimmed)
            return
        with c.block("if lz_source is not None:"):
            first = generator_call(self, f, ref, bounds, "lz_source[5], -1")
            count = f", v_{bulk.count}" if bulk.count else ""
            c(f"{target} = _LazyList({first}, lz_source{count})")
        with c.block("else:"):
            super().decode_content(c, f, ref, target, epath, wrap, bounds, trimmed)


def generator_call(d: Decoder, f: Field, ref: TypeRef, bounds, root_index: str) -> str:
    """The call of the bulk `f`'s generator (`_g_`) from decoder `d`: its elements in `bounds`
    (buffer, start, end), each error raised as the field's of the value `root_index` names."""
    b, s, e = bounds
    open_ended = "e >= len(buf)" if f.size_eos else "False"
    processed = "False" if b == "buf" else f"{b} is not buf"
    return (f"_g_{ref.user.name}({b}, {s}, {e}, lim{d.call_args(ref, s, f)}, pos, {processed}, {open_ended}, "
            f"{f.id!r}, {root_index})")


class Iterator(Decoder):
    """`_i_<root>`: the fields before the bulk list, and an iterator of its elements."""

    def __init__(self, module, t, bulk: Bulk) -> None:
        super().__init__(module, t, bulk)

    def return_value(self, c: Lines) -> None:
        header = header_of(self.t)
        for inst in header.instances:
            self.need_instances(E.Name(inst.id))
        values = [f"v_{f.id}" for f in header.seq] + [f"i_{i.id}" for i in header.instances]
        kept_by = self.m.model.header  # (the model's header type, whose class declares them)
        wires = self.m.model.wire_kept(kept_by) if kept_by is not None and kept_by.name == header.name else []
        # the bulk's bytes as read, which a lazy read's value takes (`_viewed`)
        made = self.kept_on(c, f"{header.class_name}({', '.join(values)})", wires)
        c(f"return {made}, v_{self.bulk.field.id}, pos")

    def field_decls(self) -> list[tuple[str, str]]:
        decls = super().field_decls()
        name = f"v_{self.bulk.field.id}"
        decls[len(self.t.seq) - 1] = (name, f"    {name}: Iterator[Any]")  # the last field's
        return decls

    def decoder_head(self) -> tuple[str, str]:
        t = self.t
        params = f"buf: bytes, pos: int, end: int, lim: list[int]{self.params(typed=True)}"
        columns = self.m.columned is not None
        cols = ", cols: list[list[Any]] | None = None" if columns else ""
        return (f"def _i_{t.name}({params}, root: Any, index: int{cols}) -> tuple[{header_of(t).class_name}, Iterator[Any], int]:",
                f'    """Decode the fields of one {t.name} before its {self.bulk.field.id} and check the value as a\n'
                '    whole (`decode_iter`); return them, an iterator of the elements, and the position after\n'
                '    the value. Errors raised by the iterator name the value as `root`, or `root[index]` in a\n'
                '    stream (`index` >= 0), or from the outer value that holds it (`_named_value`).'
                + (' With `cols`, the iterator yields nothing: it appends each\n'
                   '    element\'s fields to their columns (`decode_columns`).' if columns else '') + '"""')

    def iterates(self, f: Field) -> bool:
        return f is self.bulk.field

    def decode_later(self, c: Lines, f: Field, ref: TypeRef, target: str, bounds) -> None:
        """The bulk field: its elements are decoded when the iterator reaches them; a generator's
        errors come out of it as this field's (see `_g_`)."""
        cols = ", cols" if self.m.columned is not None else ""
        c(f"{target} = {generator_call(self, f, ref, bounds, 'root, index' + cols)}")


class Generator(Decoder):
    """`_g_<list type>`: the elements of the bulk list handed out one at a time (or appended to
    their columns), then the check that no bytes are left."""

    keeps_list = False

    def __init__(self, module, t, bulk: Bulk) -> None:
        super().__init__(module, t, bulk)

    def return_unwrapped(self, c: Lines) -> None:
        c("if pos != end: raise _rt.trailing(buf, pos, end, '')")  # checked once the last element is handed out

    def errors_raised(self, body: str) -> str:
        # An element's error leaves the generator as the root's decoder would have raised it:
        # re-anchored at the stored field (`in_field`), with the field's and the value's path.
        return "\n".join(["    try:", indented(body), "    except _rt.DecodeError as exc:",
                          "        _rt.in_field(exc, at, processed, open_ended)",
                          "        raise _named_value(exc.within(field_id), root, index)"])

    def decoder_head(self) -> tuple[str, str]:
        t = self.t
        params = f"buf: bytes, pos: int, end: int, lim: list[int]{self.params(typed=True)}"
        columns = self.m.columned is not None
        cols = ", cols: list[list[Any]] | None = None" if columns else ""
        return (f"def _g_{t.name}(\n    {params}, at: int, processed: bool, open_ended: bool, field_id: str, root: Any,"
                f" index: int{cols}\n) -> Iterator[Any]:",
                f'    """Decode the elements of one {t.name} from buf[pos:end] one at a time (`decode_iter`),\n'
                '    then check that no bytes are left. An error is raised as from the field `field_id`, which\n'
                '    starts at `at` (of the input, when `processed` bytes are read here), of the value `root`\n'
                '    (`root[index]` in a stream; `_named_value`).' + (' With `cols`, it yields nothing: each element\'s fields\n'
                '    are appended to their columns (`decode_columns`).' if columns else '') + '"""')

    def take_element(self, c: Lines, f: Field, var: str, elem: str) -> None:
        """An element decoded is handed out, unless its fields went to their columns."""
        if self.m.columned is not None:
            with c.block("if cols is None:"):
                c(f"yield {elem}")
        else:
            c(f"yield {elem}")

    def loop_from(self, reader) -> str:
        return "i, " if reader is not None else ""  # after the elements the C companion read

    def columns_arg(self, ref: TypeRef) -> str:
        return ", cols" if ref.user is self.m.columned else ""

    def element_made(self, c: Lines, f: Field, u, elem: str, values: list[str], form: list[str]) -> None:
        if u is not self.m.columned:
            super().element_made(c, f, u, elem, values, form)
            return
        with c.block("if cols is not None:"):  # as the element's decoder returns (`decoder`)
            for i, v in enumerate(self.m.tuple_items(u, form)):
                c(f"cols[{i}].append({v})")
        with c.block("else:"):
            super().element_made(c, f, u, elem, values, form)

    def read_in_c(self, c: Lines, f: Field, reader: tuple[str, list[str]], var: str, path: str) -> int:
        """The C companion reads 64 elements at a time, each handed out; given columns
        (`decode_columns`), all of them into their columns, where lists inside an element come as
        tuples (`tuples`): its readers make them so."""
        name, guard = reader
        tests = " and ".join(["_FAST is not None", "cols is None", *guard])
        call = f"_FAST.{name}(buf, pos, end, min(count - i, 64), {c.limits_call('elements_left')}(lim), {c_form()})"
        with c.block(f"if {tests}:"):
            with c.block(f"while i < count and (fd := {call}) is not None:"):
                c("chunk, pos, taken = fd")
                self.spend_elements(c, "taken", path)
                c("i += len(chunk)")
                c("yield from chunk")
        if self.m.columned is not None:  # `decode_columns`: all of them, into their columns
            columns = " and ".join(["_FAST is not None", "elem_tuples", "cols is not None", *guard])
            call = (f"_FAST.{c_companion.columns_name(name)}(buf, pos, end, count, {c.limits_call('elements_left')}(lim), "
                    "cols)")
            with c.block(f"elif {columns} and (fd := {call}) is not None:"):
                c("pos, taken = fd")
                self.spend_elements(c, "taken", path)
                c("i = count")
        return 0
