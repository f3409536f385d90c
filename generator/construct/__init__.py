"""The construct back end: construct 2.10 definitions of a schema, from the same IR as the
Python codecs (`logcodec generate` writes them to `generated/construct/<family>/<id>.py`,
`logcodec compile --target construct` to a package of the user's).

One module per schema. Each type becomes a construct: a `Struct` (a `FocusedSeq` for an
unwrapped type, a `BitStruct` for a type of bit fields only), a constant when it has no params,
else a function of the params (each a function of the holder's context); the root is exposed
under the schema's id. The `-lc-` keys map to construct's own means: `-lc-size-of` and
`-lc-count-of` to `Rebuild`, `-lc-default` and `-lc-present` to `Default`, `-lc-checksum` to a
`Checksum` written by a `Pointer` at the end of its range (the bytes it covers come after it).
`process:` goes through the processor `logcodec.processors` names (`constructs.Processed`). What construct
cannot say is listed in each module's docstring and at the field concerned; what it cannot
translate at all, the passes of its limits (`passes/construct_limits.py`) refuse before it runs.

The back end knows Kaitai constructs and the `-lc-` keys, never a format.
"""

from __future__ import annotations

import keyword
import textwrap
from pathlib import Path

import jinja2

from logcodec import processors as named_processors

from ..layout import primitive
from ..model import refs_of
from ..passes import checked
from ..passes.construct_limits import case_literal, local_names
from ..schema import Field, Schema, TypeDef, TypeRef
from ..types import field_tinfo
from .cexpr import Scope, param_key, reads, reads_parent_field, translate

TEMPLATES = jinja2.Environment(
    loader=jinja2.FileSystemLoader(Path(__file__).parent / "templates"),
    undefined=jinja2.StrictUndefined, keep_trailing_newline=True, trim_blocks=True, lstrip_blocks=True,
)

_CHECKSUMS = {"crc32c": "_lc.crc32c", "crc32": "_lc.crc32"}
_WIDTH = 100


def render_module(schema: Schema, header: str) -> str:
    """The construct module of one schema."""
    return ModuleEmitter(schema).render(header)


def _comment(text: str, indent: str) -> list[str]:
    lines = []
    for para in text.strip().splitlines() or [""]:
        wrapped = textwrap.wrap(para, _WIDTH - len(indent) - 2) or [""]
        lines += [f"{indent}# {w}".rstrip() for w in wrapped]
    return lines


def _pascal(name: str) -> str:
    return "".join(p.capitalize() for p in name.split("_"))


class ModuleEmitter:
    def __init__(self, schema: Schema) -> None:
        self.schema = schema
        self.model = checked(schema, "construct").model
        self.types = self.model.types
        self.names: set[str] = set()  # construct names used
        self.runtime = False  # uses logcodec.runtime.constructs
        self.processor_imports: set[tuple[str, str]] = set()  # (module, name)
        self.limits: dict[str, None] = {}  # what construct cannot express, in order, once each
        self.enum_classes: dict[int, str] = {}
        self.modules: dict[str, Schema] = {}  # imported schemas by their module alias
        for t in self.types:
            for e in t.enums.values():
                cls = _pascal(e.name)
                if cls in self.enum_classes.values() or cls in _RESERVED:
                    cls = _pascal(t.name) + cls
                self.enum_classes[id(e)] = cls
        self.local_names = local_names(self.types)
        self.lazy = self.cyclic_types()

    # ------------------------------------------------------------ names

    def parent_of(self, t: TypeDef) -> TypeDef | None:
        """The type holding `t`, for `_parent`: the model's, when one type holds it."""
        return self.model.holder(t)

    def use(self, *names: str) -> None:
        self.names.update(names)

    def enum_class(self, enum) -> str:
        if enum.owner.schema is not self.schema:
            alias = self.module_alias(enum.owner.schema)
            return f"{alias}.{_EnumNames(enum.owner.schema).of(enum)}"
        return self.enum_classes[id(enum)]

    def module_alias(self, schema: Schema) -> str:
        self.modules[schema.id] = schema
        return schema.id

    def cyclic_types(self) -> set[tuple[str, str]]:
        """(holder, held) pairs of type references that close a cycle: those are `LazyBound`."""
        edges = {t.name: {r.user.name for f in t.seq for r in refs_of(f.type)
                          if r.kind == "user" and r.user.schema is self.schema and not r.user.primitive}
                 for t in self.types}

        def reaches(a: str, b: str) -> bool:
            seen, todo = set(), [a]
            while todo:
                n = todo.pop()
                if n == b:
                    return True
                if n not in seen:
                    seen.add(n)
                    todo.extend(edges.get(n, ()))
            return False

        return {(a, b) for a, targets in edges.items() for b in targets if reaches(b, a)}

    # ------------------------------------------------------------ module

    def render(self, header: str) -> str:
        order = self.definition_order()
        definitions = [self.definition(t) for t in order]
        root = self.schema.root
        root_params = ", ".join(f"{p.id}=..." for p in root.params)
        enums = [{"name": self.enum_classes[id(e)], "members": [(_member(n), v) for v, n in e.members.items()],
                  "doc": f'    """{e.name} of {t.name}."""'}
                 for t in self.types for e in t.enums.values()]
        imports = [self.import_line(s) for _, s in sorted(self.modules.items())]
        runtime = []
        if self.runtime:
            runtime.append("from logcodec.runtime import constructs as _lc")
        runtime += [f"from {module} import {name}" + ("" if name == "UserProcessor" else f" as _fx_{name}")
                    for module, name in sorted(self.processor_imports)]
        return TEMPLATES.get_template("module.py.j2").render(
            header=header, title=self.schema.title, shown=self.schema.shown, root=self.schema.id,
            doc=self.schema.doc + (f"\n\nSee {self.schema.doc_ref}" if self.schema.doc_ref else ""),
            root_params=root_params, limits=list(self.limits), enums=enums, imports=imports,
            runtime="\n".join(runtime), construct_names=_import_list(sorted(self.names)), definitions=definitions,
        )

    def import_line(self, schema: Schema) -> str:
        if schema.family == self.schema.family:
            return f"from . import {schema.id}"
        return f"from ..{schema.family} import {schema.id}"

    def definition_order(self) -> list[TypeDef]:
        """Each type after the types it uses (a cycle is broken by `LazyBound`), the root last."""
        done: list[TypeDef] = []

        def visit(t: TypeDef, path: tuple) -> None:
            if t in done or t in path:
                return
            for f in [*t.seq, *(i.field for i in t.instances if i.field is not None)]:
                for r in refs_of(f.type):
                    if r.kind == "user" and r.user.schema is self.schema and not r.user.primitive:
                        visit(r.user, (*path, t))
            done.append(t)

        for t in self.types:
            if t is not self.schema.root:
                visit(t, (self.schema.root,))
        done.append(self.schema.root)
        return done

    # ------------------------------------------------------------ types

    def type_name(self, t: TypeDef) -> str:
        """The module-level name of a type: its construct, or with params the function making it."""
        if t is t.schema.root:
            return f"make_{t.name}" if t.params else t.name
        if t.schema is not self.schema:
            return ModuleEmitter(t.schema).local_names[id(t)]
        return self.local_names[id(t)]

    def definition(self, t: TypeDef) -> str:
        body = TypeEmitter(self, t).construct()
        doc = t.doc + (f"\n\nSee {t.doc_ref}" if t.doc_ref else "")
        name = self.type_name(t)
        if not t.params:
            return "\n".join([*_comment(doc, ""), f"{name} = {body}"])
        args = ", ".join(p.id for p in t.params)
        pdoc = "\n".join(textwrap.fill(f"{p.id}: {' '.join(p.doc.split())}", _WIDTH, initial_indent="    ",
                                        subsequent_indent="        ") for p in t.params)
        text = (f'def {name}({args}):\n    """{_doc_lines(doc, "    ")}\n\n    Params, each a function of the context '
                f'of the structure being read (`this._` is its holder\'s):\n{pdoc}\n    """\n    return {_indent(body, "    ")}')
        if t is t.schema.root:
            defaults = ", ".join(self.root_param(p) for p in t.params)
            text += (f"\n\n\n# The root, its params given as keywords of parse and build"
                     f"{' (or their defaults)' if any(p.default is not None for p in t.params) else ''}.\n"
                     f"{t.name} = {name}({defaults})")
        return text

    @staticmethod
    def root_param(p) -> str:
        if p.default is not None:
            return f'lambda this: this._.get("{p.id}", {p.default!r})'
        return f'lambda this: this._["{p.id}"]'

    def reference(self, holder: TypeDef, ref: TypeRef) -> str:
        """The construct of a field of a user type, given its arguments."""
        t = ref.user
        prim = primitive(ref)
        if prim is not None:
            name = "ZigZag" if prim.zigzag else "VarInt"
            self.use(name)
            self.limits["A varint is construct's `VarInt` (`ZigZag` when zigzag-encoded): it does not bound the "
                        "number of bytes by the schema's width nor refuse an overlong encoding, which the Python "
                        "codecs refuse."] = None
            return name
        name = self.type_name(t)
        if t.schema is not self.schema:
            name = f"{self.module_alias(t.schema)}.{name}"
        if t.params:
            scope = Scope(holder, "this._", self.enum_class, self.model)
            args = ", ".join(f"lambda this: {translate(a, scope)}" for a in ref.args)
            self.runtime |= "_lc." in args
            code = f"{name}({args})"
        else:
            code = name
        if t.schema is self.schema and ((holder.name, t.name) in self.lazy or t is self.schema.root):
            self.use("LazyBound")
            return f"LazyBound(lambda: {code})"
        return code


class _EnumNames:
    """The enum class names of another schema's module (as its own emitter names them)."""

    def __init__(self, schema: Schema) -> None:
        self.emitter = ModuleEmitter(schema)

    def of(self, enum) -> str:
        return self.emitter.enum_classes[id(enum)]


class TypeEmitter:
    def __init__(self, module: ModuleEmitter, t: TypeDef) -> None:
        self.m, self.t = module, t
        self.parent = module.parent_of(t)
        self.emitted: set[str] = set()  # instances already placed
        self.bit_groups = 0

    def scope(self, base: str = "this", extra: dict | None = None) -> Scope:
        return Scope(self.t, base, self.m.enum_class, self.m.model, extra)

    def expr(self, node, base: str = "this", extra: dict | None = None) -> str:
        code = translate(node, self.scope(base, extra))
        if "_lc." in code:
            self.m.runtime = True
        return code

    def fn(self, node, base: str = "this") -> str:
        return f"lambda this: {self.expr(node, base)}"

    # ------------------------------------------------------------ the whole type

    def construct(self) -> str:
        t = self.t
        if t.unwrap:
            self.m.use("FocusedSeq")
            entries = self.params() + self.fields(t.seq)
            return _call("FocusedSeq", [f'"{t.seq[0].id}",', *entries])
        if (t.seq and all(f.type.kind == "bits" for f in t.seq) and not t.instances
                and len({f.type.endian for f in t.seq}) == 1):
            return self.bit_struct(t.seq, "this", self.params(), [self.check(f) for f in t.seq if f.valid])
        self.m.use("Struct")
        return _call("Struct", self.params() + self.fields(t.seq))

    def params(self) -> list[str]:
        if self.t.params:
            self.m.use("Computed")
        return [f'"{param_key(self.t, p.id)}" / Computed({p.id}),' for p in self.t.params]

    def fields(self, seq: list[Field]) -> list[str]:
        t, out = self.t, []
        checksums = [f for f in seq if f.checksum]
        positions = self.positions(seq, checksums)
        if checksums:
            self.m.runtime = True
            out.append('"_stream" / _lc.Stream,  # where the checksums read the bytes they cover')
        i = 0
        while i < len(seq):
            f = seq[i]
            if f.type.kind == "bits":
                run = [f]
                while (i + len(run) < len(seq) and seq[i + len(run)].type.kind == "bits"
                       and seq[i + len(run)].type.endian == f.type.endian):  # a new bit order starts a new byte
                    run.append(seq[i + len(run)])
                for g in run:
                    out += self.instances_for(g)
                if f.id in positions:
                    out.append(self.tell(f.id))
                out += self.bit_group(run)
                i += len(run)
                continue
            out += self.instances_for(f)
            if f.id in positions:
                out.append(self.tell(f.id))
            out += _comment(self.field_doc(f), "")
            out.append(f'"{f.id}" / {self.field(f)},')
            if f.valid:
                out.append(self.check(f))
            if f.repeat == "eos" and not f.partial_tail:
                self.m.use("Terminated")
                out.append("Terminated,  # repeat-eos reads to the end: an element that fails is an error")
            i += 1
        for inst in t.instances:
            out += self.instance(inst)
        if "_end" in positions:
            out.append(self.tell("_end"))
        for f in checksums:
            out += self.checksum_patch(f, seq)
        return out

    def positions(self, seq: list[Field], checksums: list[Field]) -> set[str]:
        """The fields whose start a checksum needs (`_at_<id>`), and `_end`."""
        wanted = set()
        ids = [f.id for f in seq]
        for f in checksums:
            wanted |= {f.id, f.checksum["from"] or ids[0]}
            last = f.checksum["to"]
            wanted.add("_end" if last is None or ids.index(last) == len(ids) - 1 else ids[ids.index(last) + 1])
        return wanted

    def tell(self, fid: str) -> str:
        self.m.use("Tell")
        return f'"_at_{fid.lstrip("_")}" / Tell,'

    def checksum_patch(self, f: Field, seq: list[Field]) -> list[str]:
        ids = [g.id for g in seq]
        first = f.checksum["from"] or ids[0]
        last = f.checksum["to"]
        end = "_at_end" if last is None or ids.index(last) == len(ids) - 1 else f"_at_{ids[ids.index(last) + 1]}"
        self.m.use("Pointer", "Checksum")
        self.m.runtime = True
        algo = _CHECKSUMS[f.checksum["algorithm"]]
        return [f"# {f.id}: {f.checksum['algorithm']} of the bytes from {first} to {last or 'the end'}, written "
                "(and checked when parsing) once they are known",
                f'"_patch_{f.id}" / Pointer(lambda this: this["_at_{f.id}"], Checksum({self.scalar(f.type)}, {algo}, '
                f'lambda this: _lc.span(this, this["_at_{first}"], this["{end}"]))),']

    def field_doc(self, f: Field) -> str:
        doc = " ".join(f.doc.split())
        notes = []
        if f.size_of:
            first, last = f.size_of
            notes.append(f"derived: the size of {first}" + (f" to {last}" if last and last != first else
                                                              " to the end" if last is None else ""))
        if f.count_of is not None:
            notes.append("derived: a count")
        if f.checksum:
            notes.append("derived: 0 until the checksum is patched in at the end")
        if f.default is not None:
            notes.append("default when None")
        if f.present:
            notes.append(f"default: whether {f.present} is there")
        if f.filled_remotely:
            notes.append("built as given: construct cannot compute a length another structure measures")
            self.m.limits["A length that a field of another structure measures (`-lc-derived`) is built as given: a "
                          "construct computes only from its own context and its holders'."] = None
        return doc + (f" ({'; '.join(notes)})" if notes else "")

    # ------------------------------------------------------------ fields

    def field(self, f: Field, base: str = "this") -> str:
        c = self.element(f, base)
        c = self.derived(f, c, base)
        if f.repeat:
            c = self.repeat(f, c, base)
        if f.if_expr is not None:
            self.m.use("If")
            c = f"If({self.fn(f.if_expr, base)}, {c})"
        return c

    def derived(self, f: Field, c: str, base: str) -> str:
        if f.size_of:
            self.m.use("Rebuild")
            return f"Rebuild({c}, lambda this: {self.size_of(f, base)})"
        if f.count_of is not None:
            self.m.use("Rebuild")
            return f"Rebuild({c}, lambda this: len({self.expr(f.count_of, base)}))"
        if f.checksum:
            self.m.use("Rebuild")
            return f"Rebuild({c}, 0)"
        if f.default is not None:
            self.m.use("Default")
            return f"Default({c}, {self.fn(f.default, base)})"
        if f.present:
            self.m.use("Default")
            return f'Default({c}, lambda this: {base}["{f.present}"] is not None)'
        return c

    def size_of(self, f: Field, base: str) -> str:
        first, last = f.size_of
        target = self.t.field(first)
        if first == last and target.process is None and target.type.kind in ("bytes", "str") and not target.repeat:
            value = f'{base}["{first}"]'
            size = f"len({value}.encode({target.type.encoding!r}))" if target.type.kind == "str" else f"len({value})"
        else:
            self.m.runtime = True
            size = f'_lc.built_size({base}, "{first}"' + (f', "{last}")' if last else ")")
        if f.absent is not None:
            self.m.runtime = True
            return f'{size} if {base}["{first}"] is not None else _lc.absent_length({base}, "{f.id}", {f.absent})'
        return size

    def repeat(self, f: Field, c: str, base: str) -> str:
        if self.element_reads_list(f):
            self.m.runtime = True
            c = f'_lc.Remembered("{f.id}", {c})'
            self.m.limits["An element that reads the elements before it (`_parent.x[_index - 1]`) is wrapped in "
                          "`_lc.Remembered`: construct's `Array`, `GreedyRange` and `RepeatUntil` keep the elements "
                          "read so far to themselves."] = None
        if f.repeat == "expr":
            self.m.use("Array")
            return f"Array({self.fn(f.repeat_expr, base)}, {c})"
        if f.repeat == "eos":
            self.m.use("GreedyRange")
            return f"GreedyRange({c})"
        self.m.use("RepeatUntil")
        elem = self.element_tinfo(f)
        until = self.expr(f.repeat_until, base, {"_": ("obj_", elem)})
        return f"RepeatUntil(lambda obj_, lst_, this: {until}, {c})"

    def element_tinfo(self, f: Field):
        ti = field_tinfo(f)
        return ti[1] if isinstance(ti, tuple) and ti[0] == "list" else ti

    def element_reads_list(self, f: Field) -> bool:
        for ref in refs_of(f.type):
            if ref.kind == "user" and not ref.user.primitive:
                u = ref.user
                exprs = [e for g in u.seq for e in g.expressions(write_side=True)]
                exprs += [i.value for i in u.instances if i.value is not None]
                if any(reads_parent_field(e, f.id) for e in exprs):
                    return True
                if u.unwrap:  # `_parent.<list>` of the unwrapped type's elements reads its own list
                    continue
        return False

    def element(self, f: Field, base: str) -> str:
        ref = f.type
        if f.contents is not None:
            self.m.use("Const")
            return f"Const({f.contents!r})"
        if ref.kind in ("int", "float", "bits"):
            c = self.scalar(ref, f.enum is not None)
            if f.enum is not None:
                self.m.use("Enum")
                c = f"Enum({c}, {self.m.enum_class(f.enum)})"
            return c
        if ref.kind in ("bytes", "str"):
            plain = f.process is None and f.terminator is None and f.pad_right is None
            if plain and f.size is not None:
                self.m.use("Bytes")
                inner = f"Bytes({self.fn(f.size, base)})"
                f_size = None
            else:
                self.m.use("GreedyBytes")
                inner, f_size = "GreedyBytes", f.size
        else:
            inner, f_size = self.reference(f, ref, base), f.size
        if f.process:
            inner = self.processed(f, inner, base)
        if f.terminator is not None:  # within a size, a missing terminator is no error (Kaitai's)
            require = f.eos_error and f.size is None and not f.size_eos
            terminated = "NullTerminated"
            if f.include or not f.consume:  # construct would write the terminator again
                terminated, self.m.runtime = "_lc.Terminated", True
            else:
                self.m.use("NullTerminated")
            inner = (f"{terminated}({inner}, term={f.terminator!r}, include={f.include}, consume={f.consume}, "
                     f"require={require})")
        if f.pad_right is not None:
            self.m.use("NullStripped")
            inner = f"NullStripped({inner}, pad={bytes([f.pad_right])!r})"
        if f_size is not None and f.pad_right not in (None, 0):  # construct pads with zeros
            self.m.runtime = True
            inner = f"_lc.PaddedTo({self.fn(f_size, base)}, {inner}, {bytes([f.pad_right])!r})"
        elif f_size is not None:
            self.m.use("FixedSized")
            inner = f"FixedSized({self.fn(f_size, base)}, {inner})"
        if ref.kind == "str":
            self.m.use("StringEncoded")
            inner = f"StringEncoded({inner}, {ref.encoding!r})"
        return inner

    def processed(self, f: Field, inner: str, base: str) -> str:
        name, args = f.process
        self.m.runtime = True
        self.m.limits["`process:` is `_lc.Processed`, calling the processor that `logcodec.processors` names "
                      "(construct's `Compressed` knows no format's codec table); decompression is bounded "
                      "by logcodec's default limits."] = None
        arglist = ", ".join(self.expr(a, base) for a in args)
        # a named processor from the module that defines it, a user's own through UserProcessor (Kaitai's naming)
        module = named_processors.module_of(name)
        if module is None:
            self.m.processor_imports.add(("logcodec.runtime.processors", "UserProcessor"))
            proc = f"UserProcessor({name!r})"
        else:
            self.m.processor_imports.add((module, name))
            proc = f"_fx_{name}"  # apart from the schema's own names, which are lower_snake ids
        return f"_lc.Processed({inner}, {proc}" + (f", lambda this: [{arglist}])" if args else ")")

    def reference(self, f: Field, ref: TypeRef, base: str) -> str:
        if ref.kind == "user":
            return self.m.reference(self.t, ref)
        # a switch
        key = self.expr(ref.switch_on, base)
        cases, default = [], None
        for k, case in ref.cases:
            code = self.case_construct(case)
            if k is None:
                default = code
            else:
                cases.append((case_literal(k), code))
        if default is None:
            sized = f.size is not None or f.size_eos or f.process
            self.m.use("GreedyBytes" if sized else "Pass")
            default = "GreedyBytes" if sized else "Pass"
        self.m.use("Switch")
        switch = "Switch(lambda this: " + key + ", {" + ", ".join(f"{k}: {c}" for k, c in cases) + f"}}, default={default})"
        if self.selects_on_peek(ref):
            self.m.use("IfThenElse", "Select")
            self.m.limits["A case chosen by a byte read ahead is chosen so when parsing; building tries the "
                          "cases in turn (`Select`), as the value does not hold that byte."] = None
            choices = list(dict.fromkeys([c for _, c in cases] + [default]))
            return f"IfThenElse(lambda this: this._parsing, {switch}, Select({', '.join(choices)}))"
        return switch

    def case_construct(self, ref: TypeRef) -> str:
        """A switch case's construct: a user type, or a number, bytes or text (to the end of
        the field's bytes)."""
        if ref.kind == "user":
            return self.m.reference(self.t, ref)
        if ref.kind in ("int", "float", "bits"):
            return self.scalar(ref)
        self.m.use("GreedyBytes")
        if ref.kind == "str":
            self.m.use("StringEncoded")
            return f"StringEncoded(GreedyBytes, {ref.encoding!r})"
        return "GreedyBytes"

    def selects_on_peek(self, ref: TypeRef) -> bool:
        peeks = {i.id for i in self.t.instances if i.field is not None}
        return bool(reads(ref.switch_on) & peeks)

    def scalar(self, ref: TypeRef, enum: bool = False) -> str:
        if ref.kind == "int":
            name = f"Int{ref.size * 8}{'s' if ref.signed else 'u'}{'b' if ref.endian == 'be' or ref.size == 1 else 'l'}"
        elif ref.kind == "float":
            name = f"Float{ref.size * 8}{'b' if ref.endian == 'be' else 'l'}"
        elif ref.size == 1 and not enum:
            name = "Flag"
        else:
            self.m.use("BitsInteger")
            return f"BitsInteger({ref.size})"
        self.m.use(name)
        return name

    def check(self, f: Field, base: str = "this") -> str:
        """Kaitai's `valid`, a `Check` after the field; of each element of a repeated field."""
        self.m.use("Check")
        value = "obj_" if f.repeat else f'{base}["{f.id}"]'
        elem = self.element_tinfo(f)
        rules = []
        for kind, rule in f.valid.items():
            if kind == "eq":
                rules.append(f"{value} == {self.expr(rule, base)}")
            elif kind == "min":
                rules.append(f"{value} >= {self.expr(rule, base)}")
            elif kind == "max":
                rules.append(f"{value} <= {self.expr(rule, base)}")
            elif kind == "any-of":
                rules.append(f"{value} in ({', '.join(self.expr(r, base) for r in rule)},)")
            elif kind == "in-enum":  # construct's Enum gives a label for a member, the bare integer else
                self.m.runtime = True
                rules.append(f"_lc.is_member({value})")
            else:
                rules.append(self.expr(rule, base, {"_": (value, elem)}))
        test = " and ".join(rules)
        if f.repeat:
            test = f'all({test} for obj_ in {base}["{f.id}"])'
        if f.if_expr is not None:
            test = f'{base}["{f.id}"] is None or ({test})'
        return f"Check(lambda this: {test}),  # valid"

    # ------------------------------------------------------------ bits

    def bit_struct(self, run: list[Field], base: str, head: list[str], tail: list[str]) -> str:
        """A `BitStruct` of bit fields (most significant first); little-endian bit order reads
        the group as a little-endian integer from its least significant bit, which is the same
        fields in reverse order in the byte-swapped group."""
        self.m.use("BitStruct")
        little = run[0].type.endian == "le"
        fields = []
        for f in reversed(run) if little else run:
            fields += _comment(self.field_doc(f), "")
            fields.append(f'"{f.id}" / {self.field(f, base)},')
        total = sum(f.type.size for f in run)
        if total % 8:  # the next field starts at the next byte, as in Kaitai
            self.m.use("Padding")
            pad = f"Padding({8 - total % 8}),  # to the end of the byte"
            fields = [pad, *fields] if little else [*fields, pad]
            total += 8 - total % 8
        c = _call("BitStruct", head + fields + tail)
        if little and total > 8:
            self.m.use("ByteSwapped")
            c = f"ByteSwapped({c})"
        return c

    def bit_group(self, run: list[Field]) -> list[str]:
        """Bit fields among others: a hidden `BitStruct` rebuilt from the fields, which are
        copied out of it so that the value is flat."""
        name = f"_bits_{self.bit_groups}"
        self.bit_groups += 1
        self.m.use("Rebuild", "Computed")
        group = self.bit_struct(run, "this._", [], [])
        ids = ", ".join(f'"{f.id}"' for f in run) + ("," if len(run) == 1 else "")  # a tuple, even of one name
        out = [f'"{name}" / Rebuild({group}, lambda this: {{name: this.get(name) for name in ({ids})}}),']
        for f in run:
            out.append(f'"{f.id}" / Computed(lambda this: this["{name}"]["{f.id}"]),')
            if f.valid:
                out.append(self.check(f))
        return out

    # ------------------------------------------------------------ instances

    def instances_for(self, f: Field) -> list[str]:
        """The instances a field reads, placed before it (Kaitai computes them on first use)."""
        out = []
        for n in sorted(set().union(*(reads(e) for e in f.expressions(write_side=False))) if f.expressions() else ()):
            inst = next((i for i in self.t.instances if i.id == n), None)
            if inst is not None:
                out += self.instance(inst)
        return out

    def instance(self, inst) -> list[str]:
        if inst.id in self.emitted:
            return []
        self.emitted.add(inst.id)
        out = []
        deps = reads(inst.value) | reads(inst.pos) | reads(inst.if_expr)
        for n in sorted(deps):
            other = next((i for i in self.t.instances if i.id == n), None)
            if other is not None:
                out += self.instance(other)
        out += _comment(" ".join(inst.doc.split()), "") if inst.doc.strip() else []
        if inst.field is not None:
            # (another stream than the structure's own, which Pointer reads, is refused by its pass)
            self.m.use("Peek", "Pointer")
            c = f"Peek(Pointer({self.fn(inst.pos)}, {self.field(inst.field)}))"
            if inst.field.valid:
                out.append(f'"{inst.id}" / {c},')
                return out + [self.check(inst.field)]
        else:
            self.m.use("Computed")
            value = self.expr(inst.value)
            if inst.input:
                value = f'this["{inst.id}"] if this._building else {value}'
            c = f"Computed(lambda this: {value})"
            if inst.enum is not None:
                self.m.use("Enum")
                c = f"Enum({c}, {self.m.enum_class(inst.enum)})"
            if inst.if_expr is not None:
                self.m.use("If")
                c = f"If({self.fn(inst.if_expr)}, {c})"
        out.append(f'"{inst.id}" / {c},')
        return out


# ---------------------------------------------------------------- helpers

_RESERVED = {"Flag", "Enum", "Struct", "Bytes", "Array", "Switch", "Pass", "Const", "Check", "Computed"}


def _member(name: str) -> str:
    return name + "_" if keyword.iskeyword(name) else name


def _call(name: str, entries: list[str]) -> str:
    if not entries:
        return f"{name}()"
    body = "\n".join(textwrap.indent(e, "    ") for e in entries)
    return f"{name}(\n{body}\n)"


def _indent(text: str, prefix: str) -> str:
    first, *rest = text.split("\n")
    return "\n".join([first, *(prefix + line if line else line for line in rest)])


def _doc_lines(text: str, indent: str) -> str:
    return textwrap.indent(text.strip(), indent).lstrip()


def _import_list(names: list[str]) -> str:
    text = ", ".join(names)
    if len(text) < _WIDTH - 25:
        return text
    lines, line = [], ""
    for n in names:
        if len(line) + len(n) + 2 > _WIDTH - 4:
            lines.append(line.rstrip())
            line = ""
        line += n + ", "
    lines.append(line.rstrip())
    return "(\n" + "\n".join("    " + ln for ln in lines) + "\n)"


# ---------------------------------------------------------------- packages


def render_generated(schemas: list[Schema], header: str) -> dict[str, str]:
    """The files of `generated/construct/`: a module per schema, by family."""
    files = {"construct/__init__.py": header + '"""construct 2.10 definitions of every format, by family '
             '(ARCHITECTURE.md, "The construct back end")."""\n'}
    families: dict[str, list[Schema]] = {}
    for schema in schemas:
        families.setdefault(schema.family, []).append(schema)
        files[f"construct/{schema.family}/{schema.id}.py"] = render_module(schema, header)
    for family, members in families.items():
        names = ", ".join(repr(s.id) for s in members)
        files[f"construct/{family}/__init__.py"] = (header + f'"""construct definitions of the {family} family."""'
                                                    f"\n\n__all__ = [{names}]\n")
    return files


def render_package(schemas: list[Schema], header: str) -> dict[str, str]:
    """The files of a package of `logcodec compile --target construct`: a module per schema."""
    files = {f"{s.id}.py": render_module(s, header) for s in schemas}
    names = ", ".join(repr(s.id) for s in schemas)
    files["__init__.py"] = (header + f'"""construct 2.10 definitions compiled from {len(schemas)} Kaitai Struct '
                            f'schema(s): each module exposes its root under the schema\'s id."""\n\n__all__ = [{names}]\n')
    return files
