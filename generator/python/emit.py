"""Emit a Python codec module for one schema.

The module has an IntEnum per enum, a slotted dataclass per type, and for each
type a decode function `_d_<type>(buf, pos, end, lim, *params) -> (value, pos)`
and an encode function `_e_<type>(value, out, *params)` that appends to a
bytearray. The bodies are straight-line Python: one precompiled `struct.Struct`
per run of fixed fields, inline varint fast paths, slices of the input for byte
fields, explicit bounds checks whose failures go to `logcodec.runtime.primitives`.

The emitter knows Kaitai constructs and the `-lc-` extensions, never a format.
"""

from __future__ import annotations

import codecs
import re
import subprocess
import textwrap
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import jinja2
from ruff.__main__ import find_ruff_bin

from logcodec import processors as named_processors
from logcodec.runtime import limits
from logcodec.runtime.primitives import CHECKSUMS

from .. import expr as E
from ..model import (Bulk, calls_spending, fixed_offsets, header_of, iterated_bulk, max_size, min_size, model_of,
                     navigates, schema_closure, type_expressions)
from ..passes import checked
from ..schema import Field, Schema, SchemaError, TypeDef, TypeRef, static_bits
from ..types import field_tinfo, ref_tinfo
from . import fast_c
from .entries import checksum_source, entry_source
from .fast_encode import FastEncoders
from .shapes import PYTHON_ERRORS, codec_arg, primitive_of, size_held_non_negative
from .translate import Nav, Scope, parent_names, path_root, reads_bits_one_by_one, remote_lengths, translate, type_of

#: What an expression over decoded values (an index into a list, a division, a conversion) may
#: raise on bad input in Python's terms: a decoder turns these into a DecodeError, and a
#: written-out element that has such expressions is read again by its decoder on them.
EXPRESSION_ERRORS = "IndexError, KeyError, ZeroDivisionError, TypeError, OverflowError, ValueError"

_STRUCT_CODES = {(1, False): "B", (1, True): "b", (2, False): "H", (2, True): "h",
                 (4, False): "I", (4, True): "i", (8, False): "Q", (8, True): "q"}
_FLOAT_CODES = {4: "f", 8: "d"}
_BIT_GROUP_CODES = {1: "B", 2: "H", 4: "I", 8: "Q"}

TEMPLATES = jinja2.Environment(
    loader=jinja2.FileSystemLoader(Path(__file__).parent / "templates"),
    undefined=jinja2.StrictUndefined, keep_trailing_newline=True, trim_blocks=True, lstrip_blocks=True,
)
TEMPLATES.filters["pyrepr"] = repr


class Lines:
    """An indented block of generated source."""

    def __init__(self, indent: int = 1, interpreted: bool = False, unbounded: bool = False) -> None:
        self.lines: list[str] = []
        self.indent = indent
        self.interpreted = interpreted  # only ever run interpreted (inside `if _INTERPRETED:`)
        # A written-out element's code (`TypeEmitter.read_then_checked`): its reads of a few
        # bytes are not checked against `end` one by one, but once after the element, which
        # its type's decoder reads again, checking each, when that or anything else fails.
        self.unbounded = unbounded

    def __call__(self, line: str) -> None:
        self.lines.append("    " * self.indent + line)

    @contextmanager
    def block(self, header: str):
        self(header)
        self.indent += 1
        yield
        self.indent -= 1

    def text(self) -> str:
        return "\n".join(self.lines)

    def bound(self, check: str) -> None:
        """A statement that checks that a read of a few bytes ends before `end` (none where
        unbounded)."""
        if not self.unbounded:
            self(check)

    def before_end(self, test: str) -> str:
        """`test` as a condition's first term, checking that a byte it reads lies before `end`
        (nothing where unbounded)."""
        return "" if self.unbounded else f"{test} and "


@dataclass
class Item:
    """One entry of a fixed run: a field, or a group of bit fields read as one integer."""

    fields: list[Field]
    code: str  # struct code
    size: int  # bytes
    endian: str
    bits: bool = False


# ---------------------------------------------------------------- module


class ModuleEmitter:
    def __init__(self, schema: Schema) -> None:
        self.schema = schema
        checked(schema, "python")  # the passes refuse what this back end cannot write
        self.model = model_of(schema)
        self.types = self.model.types
        self.structs: dict[str, str] = {}  # format -> name
        self.layouts: list[str] = []
        self.processors: set[tuple[str, str]] = set()  # (module, name) of the named ones it calls
        self.passthroughs: set[str] = set()  # named processors whose pass-through arguments it checks
        self.user_processors: dict[str, str] = {}  # a.b.my_fx -> module-level name
        self.enum_imports: dict[str, set[str]] = {}  # module -> enum classes imported from it
        self.parents = self.model.parents
        self.fast_loops: dict = {}  # name -> Plan: the list loops its C companion writes (`fast_c`)
        self.fast_readers: dict = {}  # name -> Plan: the lists its C companion reads
        self.text_parts: dict[str, str] = {}  # name -> how it is made: the fast encoders' text tables
        self.companion: str | None = None  # that companion's C source, once rendered
        # A user's schema reads `_io`, `_parent` and `_root` as Kaitai's objects; ours keep to
        # plain values (`_parent.x` passed in, `_io.pos` in a type read from its own stream).
        self.nav = None if schema.strict else Nav(self.parents, navigates(schema))
        self.exposes_io = self.nav is not None and any(
            isinstance(n, E.Attr) and n.name == "_io" and n.obj != E.Name("_root")
            for s in schema_closure(schema) for t in s.all_types() for e in type_expressions(t) for n in E.walk(e))
        # The root's bulk read one element at a time (`decode_iter`), where the model allows it;
        # and column by column (`decode_columns`) where its elements have a tuple form.
        self.bulk = iterated_bulk(self.schema.root) if self.nav is None and header_of(self.schema.root) is not None else None
        element = self.bulk.items.type.user if self.bulk is not None else None
        self.columned = element if element is not None and self.tuple_decoded(element) else None

    def enum_member(self, enum, value: str) -> str:
        """The member of `enum` whose value is `value` (the bare integer when it has none, as
        Kaitai does). An enum of this schema has a dictionary of its members here, which a
        compiled build reads in C; another schema's goes through the runtime."""
        if enum.owner.schema is self.schema:
            return f"_{self.model.enum_name(enum)}_BY_VALUE.get({value}, {value})"
        return f"_rt.enum_value({self.enum_class(enum)}, {value})"

    def enum_class(self, enum) -> str:
        """An enum's class name here; another schema's enum (`other::animal`) is imported from
        its module."""
        if enum.owner.schema is not self.schema:
            self.enum_imports.setdefault(enum.owner.schema.module, set()).add(self.model.enum_name(enum))
        return self.model.enum_name(enum)

    def field_meta(self, f: Field) -> dict:
        """The model's value kind of a field; the enums it names are imported where foreign."""
        for enum in self.model.enums_named(f):
            self.enum_class(enum)
        return self.model.field_meta(f)

    def import_lines(self) -> list[dict]:
        """What the module imports from other schemas' modules: their types it uses, and enums."""
        names = {imp.module: [n for t in self.model.used_from(imp) for n in (t.class_name, f"_d_{t.name}", f"_e_{t.name}")]
                 for imp in self.model.imported}
        for module, enums in self.enum_imports.items():
            names.setdefault(module, []).extend(sorted(enums))
        return [{"module": module, "names": ", ".join(found)} for module, found in names.items()]

    def processor(self, name: str) -> str:
        """The module-level name of a `process:`: the runtime's, or the user's own (imported
        by the module, as Kaitai's Python parsers import it)."""
        module = named_processors.module_of(name)
        if module is not None:
            self.processors.add((module, name))
            return name
        self.user_processors[name] = "_fx_" + name.replace(".", "__")
        return self.user_processors[name]

    def tuple_form(self, t: TypeDef) -> list[Field] | None:
        """The fields of a type's tuple form, which its encoder takes in a list (`Model.tuple_form`)."""
        return self.model.tuple_form(t)

    def tuple_items(self, t: TypeDef, values: list[str]) -> list[str]:
        """The items of `t`'s tuple form, or of its columns, from its fields' values: a list
        field's as a tuple. A tuple form then holds nothing mutable, which CPython's collector
        leaves untracked after its first pass, and the C companion's readers release at once: a
        Kafka record that held its headers' list was an object the collector walked, and each
        record a list more (compiled `decode(..., tuples=True)` 0.70x aiokafka's C extension
        with them, 1.14x without, `bench kafka`)."""
        return [f"tuple({v})" if self.model.field_meta(f).get("list") else v
                for f, v in zip(self.tuple_form(t), values)]

    def tuple_decoded(self, t: TypeDef) -> bool:
        """Whether a list's elements of type `t` decode to tuples when asked (`Model.tuple_decoded`)."""
        return self.model.tuple_decoded(t)

    def encoded_type(self, t: TypeDef) -> str:
        """What a type's encoder takes: its value, or its tuple form."""
        value = self.value_type(t)
        return f"{value} | tuple[Any, ...]" if self.tuple_form(t) else value

    def struct(self, fmt: str) -> str:
        if fmt not in self.structs:
            self.structs[fmt] = f"_S{len(self.structs)}"
        return self.structs[fmt]

    def layout(self, entries) -> str:
        text = repr(tuple(entries))
        if text not in self.layouts:  # one declaration for a run two decoders read (`_d_` and `_i_`)
            self.layouts.append(text)
        return f"_L{self.layouts.index(text)}"

    def render(self) -> str:
        # The root's header (`model.header_of`), decoded and encoded on its own (`decode_header`):
        # this repository's schemas, whose values are plain.
        header = header_of(self.schema.root) if self.nav is None else None
        rendered = [*self.types, *([header] if header is not None else [])]
        classes = [self.class_source(t) for t in rendered if not t.unwrap]
        functions = []
        for t in rendered:
            functions.append(TypeEmitter(self, t).decoder())
            functions.append(TypeEmitter(self, t).encoder())
        bulk = self.bulk
        if bulk is not None:
            functions.append(TypeEmitter(self, bulk.holder, bulk).decoder())
            functions.append(TypeEmitter(self, self.schema.root, bulk).decoder())
        enums = [
            {"name": self.enum_class(e), "members": sorted(e.members.items()), "doc": f"Enum `{e.name}` of {t.name}."}
            for t in self.types for e in t.enums.values()
        ]
        root = self.schema.root
        if self.fast_loops or self.fast_readers:  # registered by the functions just emitted
            banner = (f"Generated by logcodec from {self.schema.shown} (sha256 {self.schema.sha256[:16]}): the C "
                      "companion of its Python codec. Do not edit: change the schema and generate again.")
            self.companion = fast_c.render(banner, f"{self.schema.id}_fast", self.fast_loops, self.fast_readers)

        def used(name: str) -> bool:
            """The functions use `name`: the module declares or imports it only then."""
            return any(name in f for f in functions)

        return _tidy(TEMPLATES.get_template("module.py.j2").render(
            schema=self.schema, enums=enums, classes=classes, functions=functions,
            structs=sorted(self.structs.items(), key=lambda kv: int(kv[1][2:])),
            layouts=self.layouts, processors=sorted(self.processors), root=root,
            user_processors=sorted(self.user_processors.items()), passthroughs=sorted(self.passthroughs),
            imports=self.import_lines(), late_imports=any(s is self.schema for imp in self.schema.imports for s in schema_closure(imp)),
            root_params="".join(f", {p.id}: {'bool' if p.type_name == 'bool' else 'int'}"
                                + (f" = {p.default!r}" if p.default is not None else "") for p in root.params),
            root_args="".join(f", {p.id}" for p in root.params),
            root_param_types=[(p.id, "bool" if p.type_name == "bool" else "int") for p in root.params],
            root_class=root.class_name, doc=_docstring(self.schema.doc, 0), links=self.nav is not None,
            build_params=self.build_params(root) if self.nav is None and not root.unwrap else None,
            tuple_forms=[(t.class_name, [f.id for f in form]) for t in self.types if (form := self.tuple_form(t))],
            **self.tuples_option(),
            part_types=rendered, header=header, entry_code=entry_source(self.model.entry()),
            offsets=[(f"{t.name}.{name}", at) for t in rendered if not t.unwrap for name, at in fixed_offsets(t)],
            sizes=[(t.name, bits // 8) for t in rendered if not t.unwrap and not t.primitive
                   and (bits := static_bits(t)) and bits % 8 == 0],
            header_bulk=root.seq[len(header.seq)].id if header else "", header_max=header and max_size(header),
            iterated=bulk and {"field": bulk.field.id,
                               "element": self.encoded_type(bulk.items.type.user)},
            columned=self.columned and {"element": self.columned.class_name,
                                        "fields": tuple(f.id for f in self.tuple_form(self.columned))},
            header_args="(" + "".join(f"{p.id}, " for p in root.params).rstrip(" ") + ")",
            checksum_code=checksum_source(self.model.entry()),
            tables=[(name, kind) for name, kind in (("BYTE", "bytes"), ("VARINT", "bytes"), ("ZIGZAG", "bytes"),
                                                    ("UNZIGZAG", "int"), ("UNZIGZAG2", "Any")) if used(f"_{name}[")],
            interpreted=used("_INTERPRETED"),
            object_new=used("_new("),
            text_parts=[(name, made) for name, made in sorted(self.text_parts.items()) if used(name)],
            helpers=[name for name in ("uvarint", "uvarint_bytes", "check_bits", "checked_bytes") if used(f"_{name}(")],
            checksums=[name for name in sorted(CHECKSUMS) if used(f"_{name}(") or used(f"(_{name}, ")],
            enums_by_value=[e["name"] for e in enums if used(f"_{e['name']}_BY_VALUE.")],
            budget_items=[(name, getattr(limits, name)) for name in ("ELEMENTS_RESERVED", "TUPLES")
                          if used(f"lim[_{name}]")],
            take_elements=used("_take_elements("),
            elements_left=used("_elements_left("),
            fast_sha=self.companion and fast_c.source_sha(self.companion),
        ))

    def tuples_option(self) -> dict:
        """The `tuples=` keyword of the decode entry points, where some list's elements can come
        as tuples (`tuple_decoded`): its parameter, argument and docstring sentence."""
        names = [t.class_name for t in self.types if self.tuple_decoded(t)]
        if not names:
            return {"tuples_param": "", "tuples_arg": "", "tuples_doc": ""}
        return {"tuples_param": ", tuples: bool = False", "tuples_arg": ", tuples=tuples",
                "tuples_doc": "\n\n" + textwrap.fill(
                    f"With `tuples`, the elements of lists of {', '.join(names)} come in their tuple form "
                    "(`TUPLE_FORMS`; a list inside one comes as a tuple), as `encode` also takes them: no "
                    "object for each.",
                    84, initial_indent="    ", subsequent_indent="    ") + "\n    "}

    def build_params(self, t: TypeDef) -> list[dict]:
        """`build`'s keyword parameters, the fields of the root's value (`field_decl`): a list of a
        type with a tuple form takes tuples too, passed on as they are (`arg`)."""
        params = []
        for f in t.seq:
            decl = self.field_decl(t, f)
            param, arg = decl["param"], f.id
            listed = f if f.repeat else None
            if f.type.kind == "user" and f.type.user.unwrap and not f.repeat:
                listed = f.type.user.seq[0] if f.type.user.seq[0].repeat else None  # a list type of its own
            if listed is not None and listed.type.kind == "user" and self.tuple_form(listed.type.user):
                element = listed.type.user.class_name
                param = param.replace(f"list[{element}]", f"list[{element} | tuple[Any, ...]]", 1)
                arg = f"_cast(Any, {f.id})"
            params.append({"name": f"`{f.id}`", "param": param, "arg": arg, "tupled": arg != f.id})
        return params

    def class_source(self, t: TypeDef) -> str:
        form = self.tuple_form(t)
        said = f"\n\nTuple form, in a list: ({', '.join(f.id for f in form)}{',' if len(form) == 1 else ''})." if form else ""
        return TEMPLATES.get_template("class.py.j2").render(
            t=t, doc=_docstring(t.doc + (f"\n\nSee {t.doc_ref}" if t.doc_ref else "") + said, 1),
            lazy=bool(t.instances) and self.nav is not None,
            # no __dict__ (15 % less memory a decoded Kafka record, pure Python), but where a user's
            # schema's values get Kaitai's links and carried bytes set on them after they are made
            slots=self.nav is None,
            fields=[self.field_decl(t, f) for f in t.seq] + [self.instance_decl(i) for i in t.instances]
            + [self.param_decl(p) for p in self.exposed_params(t)] + ([_IO_DECL] if self.exposes_io else [])
            + ([] if self.nav is None else _LINK_DECLS),
        )

    @staticmethod
    def exposed_params(t: TypeDef) -> list:
        """A user's schema shows a type's params as attributes of its values, as Kaitai's parsers
        do (`pass_ints.nums`); ours are arguments the holder gives, not part of the value."""
        return [] if t.schema.strict or t.unwrap else list(t.params)

    @staticmethod
    def param_annotation(p) -> str:
        kind = p.type_name.strip()
        if kind == "bool":
            return "bool"
        return "int" if kind == "" or re.match(r"^([us][1248]|b[0-9]+)(be|le)?$", kind) else "Any"

    def param_decl(self, p) -> dict:
        """A param as an attribute: set by the decoder, not in JSON, ignored by the encoder and
        by equality (the holder passes it again)."""
        meta = {"kind": "any", "param": True}
        return {"id": p.id, "annotation": "Any", "default": "default=None, compare=False", "meta": meta,
                "param": f"{p.id}: Any = None", "init": p.id,
                "doc": _docstring(p.doc + " A param, given by the holder.", 1)}

    def instance_decl(self, inst) -> dict:
        """An instance: computed by the decoder, ignored by the encoder and by equality."""
        if inst.field is not None:
            annotation = self.local_type(inst.field).removesuffix(" | None") + " | None"
        else:
            if inst.enum:
                self.enum_class(inst.enum)
            annotation = self._annotation(self.model.instance_meta(inst)) + " | None"
        meta = self.model.instance_meta(inst)
        if self.nav is not None:  # a user's schema: lazy, set by the decoder (or on first use), not given
            return {"id": inst.id, "annotation": annotation, "default": "init=False, compare=False, repr=False",
                    "meta": meta, "param": "", "init": "", "doc": _docstring(inst.doc + " Computed when first read.", 1)}
        return {"id": inst.id, "annotation": annotation, "default": "default=None" + ("" if inst.input else ", compare=False"),
                "meta": meta, "param": f"{inst.id}: {annotation} = None", "init": inst.id,
                "doc": _docstring(inst.doc + " Computed on decode.", 1)}

    def field_decl(self, t: TypeDef, f: Field) -> dict:
        meta = self.field_meta(f)
        annotation, default = self.annotation(f), self.default(f)
        factory = default.startswith("default_factory=")
        return {"id": f.id, "annotation": annotation, "default": default, "meta": meta,
                # the explicit __init__ (compiled natively by mypyc): a factory default is None in the signature
                "param": f"{f.id}: {annotation}{' | None' if factory else ''} = {'None' if factory else default[8:]}",
                "init": self.init_value(f, f.id),
                "doc": _docstring(f.doc + (" Derived: computed on encode when left None." if f.derived else ""), 1)}

    def init_value(self, f: Field, given: str) -> str:
        """What `__init__` sets the field `f` to when given `given`: a field whose default is made
        by a factory (an empty list) gets a new one for None."""
        default = self.default(f)
        if default.startswith("default_factory="):
            return f"{given} if {given} is not None else {_factory_call(default)}"
        return given

    def annotation(self, f: Field) -> str:
        """The type of a value-model field: derived fields may be None until encoded."""
        local = self.local_type(f)
        return f"{local} | None" if f.derived and not local.endswith(" | None") else local

    def local_type(self, f: Field) -> str:
        """The type of a field's local variable in a decoder, where derived fields are always set."""
        m = self.field_meta(f)
        base = self._annotation(m)
        if m.get("list"):
            base = f"list[{base}]"
        if f.if_expr is not None or m["kind"] == "switch":
            base = f"{base} | None"
        return base

    def value_type(self, t: TypeDef) -> str:
        """What a type's decoder returns: its class, or the single field of an unwrapped type."""
        return self.local_type(t.seq[0]) if t.unwrap else t.class_name

    def _annotation(self, m: dict) -> str:
        kind = m["kind"]
        if kind == "enum":
            return f"{m['enum']} | int"
        if kind == "user":
            return m["type"]
        if kind == "switch":
            return " | ".join(dict.fromkeys(self._annotation(c) for c in m["cases"]))
        return {"int": "int", "bool": "bool", "float": "float", "bytes": "bytes", "str": "str"}[kind]

    def default(self, f: Field) -> str:
        """Keyword arguments of `dataclasses.field` for the default of `f`."""
        m = self.field_meta(f)
        if f.derived or f.if_expr is not None or m["kind"] == "switch":
            return "default=None"
        if m.get("list"):
            return "default_factory=list"
        if f.valid and "eq" in f.valid and isinstance(f.valid["eq"], E.Num):
            return f"default={f.valid['eq'].value!r}"
        kind = m["kind"]
        if kind == "user":
            return f"default_factory=lambda: {m['type']}()"
        if kind == "enum":
            first = min(f.enum.members)
            return f"default={m['enum']}.{f.enum.members[first]}"
        return "default=" + {"int": "0", "bool": "False", "float": "0.0", "bytes": "b''", "str": "''"}[kind]


def _factory_call(default: str) -> str:
    """`default_factory=list` -> `list()`; `default_factory=lambda: X()` -> `X()`."""
    factory = default.removeprefix("default_factory=")
    return factory.removeprefix("lambda: ") if factory.startswith("lambda: ") else f"{factory}()"


def _tidy(source: str) -> str:
    """The module as a careful hand would lay it out: `ruff format` (black's style, in a few
    milliseconds; its version pinned by the project so that `logcodec generate --check` is
    stable), 120 columns as the rest of the code base, no configuration file consulted."""
    done = subprocess.run([find_ruff_bin(), "format", "--isolated", "--line-length", "120", "--target-version",
                           "py311", "-"], input=source, capture_output=True, text=True, check=False)
    if done.returncode != 0:  # the emitter wrote what is not Python: a generator bug, shown with the source
        raise RuntimeError(f"ruff format refused a generated module: {done.stderr.strip()}\n{source}")
    return done.stdout


def _indented(text: str) -> str:
    """A function body's lines one level deeper (inside a `try:`)."""
    return "\n".join("    " + line if line else line for line in text.split("\n"))


def _docstring(text: str, indent: int) -> str:
    """The docstring of a schema's `doc`; nothing when it has none (a user's schema needs none)."""
    text = text.strip().replace('"""', "'''").replace("\\", "\\\\")
    if not text:
        return ""
    pad = "    " * indent
    if "\n" not in text and len(text) < 90 and not text.endswith('"'):  # a quote would end the docstring
        return f'{pad}"""{text}"""'
    body = "\n".join(textwrap.fill(p, 88 - len(pad), initial_indent=pad, subsequent_indent=pad) if p.strip() else ""
                     for p in text.split("\n"))
    return f'{pad}"""\n{body}\n{pad}"""'


# ---------------------------------------------------------------- per type


class TypeEmitter:
    lines: "Lines | None" = None  # where on-demand instances are written (the function being emitted)

    def __init__(self, module: ModuleEmitter, t: TypeDef, bulk: Bulk | None = None) -> None:
        """`bulk`: emit the decoder `decode_iter` calls instead, for the root (`_i_<root>`, which
        reads the fields before the bulk and hands the list out as an iterator) or for the bulk's
        own list type (`_g_<list>`, a generator of its elements)."""
        self.m, self.t = module, t
        self.bulk = bulk
        self.iterating = bulk is not None and t is not bulk.holder  # the root's `_i_` decoder
        self.yielding = bulk is not None and t is bulk.holder  # the list type's `_g_` generator
        self.scope = Scope(t, module.enum_class, module.parents.get(t.name), module.nav, tuple_form=module.tuple_form)
        self.encoding = False
        self.computed_instances: set[str] = set()
        self.lazy: set[str] = set()  # instances computed when first read (a user's schema)
        self.lazy_target: str | None = None
        self.inlined_decls: list[str] = []  # the locals of the elements written out in a loop (`decode_listed`)
        self.inlined_guarded = False  # one of those, written out in turn, has guarded expressions
        self.written_in: frozenset[int] = frozenset()  # the types whose written-out code this one's is in
        self.tuples_read = False  # written out in a loop that has read `elem_tuples`
        # byte ranges used by -lc-size-of and -lc-checksum: (owner field, first id, last id or None)
        self.ranges = []
        for f in t.seq:
            if f.size_of and f.size_of[0] != f.size_of[1]:
                self.ranges.append((f, f.size_of[0], f.size_of[1], "size"))
            if f.checksum:
                self.ranges.append((f, f.checksum["from"], f.checksum["to"], "checksum"))
        self.marks = {r[1] for r in self.ranges} | {r[0].id for r in self.ranges}
        self.checksum_starts = {r[1] for r in self.ranges if r[3] == "checksum"}
        self.index = {f.id: i for i, f in enumerate(t.seq)}

    def expr(self, node) -> str:
        self.need_instances(node)
        return translate(node, self.scope)

    def prepare(self, fields) -> None:
        """Before a field is emitted (at the function's top level), compute the instances it reads."""
        for f in fields:
            for e in f.expressions(write_side=self.encoding):
                self.need_instances(e)
            if self.navigates and not self.encoding:  # the instances a child reads as `_parent.x`
                mine = {i.id for i in self.t.instances}
                for ref in [f.type, *(case for _, case in f.type.cases)]:
                    if ref.kind == "user" and not ref.user.schema.strict:
                        for name in sorted(set(parent_names(ref.user)) & mine):
                            self.need_instances(E.Name(name))

    def need_instances(self, node) -> None:
        """Compute, just before their first use, the value instances an expression reads."""
        if self.lines is None:
            return
        for name in sorted(E.names(node)):
            inst = next((i for i in self.t.instances if i.id == name), None)
            if inst is None or name in self.computed_instances:
                continue
            if name in self.lazy and name != self.lazy_target:  # computed (once) by the value
                self.computed_instances.add(name)
                self.lines(f"i_{name} = o.{name}")
                continue
            if self.encoding and (inst.input or inst.field is not None):
                continue  # read from the value
            self.computed_instances.add(name)
            if inst.field is None:
                value = self.expr(inst.value)
                if inst.enum is not None:  # the member its value names (or the bare integer), as a field's
                    value = self.m.enum_member(inst.enum, value)
                if inst.if_expr is not None:
                    value = f"({value}) if {self.expr(inst.if_expr)} else None"
                self.lines(f"i_{name} = {value}")
            else:
                self.read_positional(inst)
            self.publish(self.lines, inst.id, f"i_{name}")

    @property
    def navigates(self) -> bool:
        return self.m.nav is not None and self.m.nav.navigates

    def publish(self, c: Lines, name: str, var: str) -> None:
        """Show a value just read to the children through `_parent` and `_root` (a user's schema)."""
        if self.navigates and not self.encoding:
            c(f"me.{name} = {var}")

    def read_positional(self, inst) -> None:
        """A positional instance: read at `pos` from the start of this type's stream (of this
        type, in our schemas), then come back. Read where first needed, so that `_io.pos` in its
        position is where decoding is then."""
        c = self.lines
        if self.m.nav is None:
            c("resume = pos")
            c(f"pos = start + {self.expr(inst.pos)}")
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
        c(f"x = {self.expr(inst.pos)}")
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
            c(f"else: i_{inst.id} = None")

    @property
    def hidden(self) -> list[str]:
        """`_parent.x` values this type reads, passed in as `pp_x` (in our schemas)."""
        return parent_names(self.t, self.encoding) if self.m.nav is None else []

    def params(self, typed: bool = False) -> str:
        hidden = "".join(f", pp_{n}: Any" if typed else f", pp_{n}" for n in self.hidden)
        if not typed:
            return "".join(f", p_{p.id}" for p in self.t.params) + hidden
        params = "".join(f", p_{p.id}: {self.m.param_annotation(p)}" for p in self.t.params) + hidden
        if self.m.nav is not None:  # Kaitai's objects: where the stream starts, the parent and the root
            params += "" if self.encoding else ", io0: int = -1"
            params += ", parent: Any = None, root: Any = None" if self.navigates else ""
        return params

    def as_tuple_arg(self, f: Field) -> str:
        """`, elem_tuples` for an element of a list whose type decodes to its tuple form when the
        caller asks (`decode(..., tuples=True)`); nothing elsewhere: a single field is an object."""
        return ", elem_tuples" if self.tuple_elements(f) else ""

    @staticmethod
    def listed_user(f: Field) -> TypeDef | None:
        """The type of a list's elements, when the field is a list of a user type."""
        return f.type.user if f.repeat and f.type.kind == "user" else None

    def takes_tuples(self, f: Field) -> bool:
        """The elements of this list may be given to its encoder in their tuple form."""
        return (u := self.listed_user(f)) is not None and bool(self.m.tuple_form(u))

    def tuple_elements(self, f: Field) -> bool:
        """The elements of this list may come in their tuple form."""
        return (u := self.listed_user(f)) is not None and self.m.tuple_decoded(u)

    def read_tuples_asked(self, c: Lines, f: Field) -> None:
        """Before a list's loop: whether the call asked for tuples, read once (an element written
        out in a loop that has read it reads that: `tuples_read`)."""
        if self.tuple_elements(f) and not self.tuples_read:
            c("elem_tuples = lim[_TUPLES] == 1")

    def call_args(self, ref: TypeRef, io0: str = "io0", f: Field | None = None) -> str:
        """A user type's params, then what it reads through `_parent` (this type's own locals);
        in a user's schema, its stream's start, its parent and the root."""
        args = "".join(", " + self.expr(a) for a in ref.args)
        callee = ref.user.schema
        if callee.strict:
            return args + "".join(f", {local}" for local in self.parent_locals(ref.user).values())
        if not self.encoding:
            args += f", {io0}"
        if navigates(callee):
            parent = "me" if self.navigates else "None"
            if f is not None and f.parent is not None:  # Kaitai's `parent:` key: another parent, or none
                parent = "None" if f.parent == E.Bool(False) else self.expr(f.parent)
            args += f", {parent}, {'root' if self.navigates else 'None'}"
        return args

    def navigation_start(self, c: Lines) -> None:
        """A user's schema: the stream's start, and the `Node` children see as `_parent`."""
        if self.m.nav is None:
            return
        if not self.encoding:
            c("if io0 < 0: io0 = pos")
        if not self.navigates:
            return
        if self.encoding:  # the value, seen with its parent and root as while it was read
            c("me = _rt.Node(); me._value = v; me._parent = parent")
            c("if root is None: root = me")
            c("me._root = root")
            return
        c("me = _rt.Node(); me._parent = parent; me._io = _rt.KStream(buf, io0, end, pos)")
        c("if root is None: root = me")
        c("me._root = root")
        for p in self.t.params:
            c(f"me.{p.id} = p_{p.id}")

    # ------------------------------------------------------------ grouping

    def items(self):
        """Split the seq into fixed runs (lists of Item) and single fields."""
        out, run, bits = [], [], []
        one_by_one = reads_bits_one_by_one(self.t)
        for f in self.t.seq:
            plain = not (f.if_expr or f.repeat or f.size is not None or f.size_eos or f.process or f.contents)
            if plain and f.type.kind == "bits" and not one_by_one:
                bits.append(f)
                if sum(b.type.size for b in bits) % 8 == 0:
                    run = self.add_to_run(out, run, self.bit_group(bits))
                    bits = []
                continue
            if bits:  # a byte-aligned field: the bits left in the last byte are skipped, as in Kaitai
                run = self.add_to_run(out, run, self.bit_group(bits))
                bits = []
            if plain and f.type.kind in ("int", "float"):
                code = _STRUCT_CODES[(f.type.size, f.type.signed)] if f.type.kind == "int" else _FLOAT_CODES[f.type.size]
                endian = f.type.endian if f.type.size > 1 else (run[-1].endian if run else "be")
                if run and (run[-1].endian != endian or f.id in self.checksum_starts):
                    out.append(run)
                    run = []
                run.append(Item([f], code, f.type.size, endian))
                continue
            if run:
                out.append(run)
                run = []
            out.append(f)
        if bits:
            run = self.add_to_run(out, run, self.bit_group(bits))
        if run:
            out.append(run)
        return out

    @staticmethod
    def add_to_run(out: list, run: list[Item], item: Item) -> list[Item]:
        """Add a bit group to the run, or start a new run when its byte order differs (one
        struct format has one byte order); returns the run to go on with."""
        if run and item.size > 1 and run[0].endian != item.endian:  # run[0]'s order is the struct's
            out.append(run)
            run = []
        run.append(item)
        return run

    @staticmethod
    def bit_group(bits: list[Field]) -> Item:
        """Bit fields read as one integer from the whole bytes they take (the last one's unused
        bits skipped): a struct code where one fits, else bytes made an integer."""
        size = -(-sum(b.type.size for b in bits) // 8)
        endian = "be" if bits[0].type.endian == "be" else "le"
        return Item(bits, _BIT_GROUP_CODES.get(size, f"{size}s"), size, endian, True)

    def run_struct(self, run: list[Item]) -> tuple[str, int]:
        fmt = (">" if run[0].endian == "be" else "<") + "".join(i.code for i in run)
        return self.m.struct(fmt), sum(i.size for i in run)

    # ------------------------------------------------------------ decode

    def decoder(self) -> str:
        t, c = self.t, Lines()
        self.lines, self.encoding, self.computed_instances = c, False, set()
        self.scope.encoding = False
        self.navigation_start(c)
        if self.carries():
            c("carried: dict[Any, bytes] = {}")
        one_by_one = self.decode_seq(c)
        if self.m.nav is not None and not t.unwrap:
            self.lazy = {i.id for i in t.instances} - self.computed_instances
            for inst in t.instances:
                if inst.id in self.lazy:
                    self.lazy_thunk(c, inst, one_by_one)
            values = [f"v_{f.id}" for f in t.seq] + [f"p_{p.id}" for p in self.m.exposed_params(t)]
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
        elif t.unwrap:
            for inst in t.instances:
                self.need_instances(E.Name(inst.id))
            if self.yielding:  # the bytes after the last element, checked when it has been handed out
                c("if pos != end: raise _rt.trailing(buf, pos, end, '')")
            else:
                c(f"return v_{t.seq[0].id}, pos")
        elif self.iterating:
            header = header_of(t)
            for inst in header.instances:
                self.need_instances(E.Name(inst.id))
            values = [f"v_{f.id}" for f in header.seq] + [f"i_{i.id}" for i in header.instances]
            c(f"return {header.class_name}({', '.join(values)}), v_{self.bulk.field.id}, pos")
        else:
            for inst in t.instances:
                self.need_instances(E.Name(inst.id))
            values = [f"v_{f.id}" for f in t.seq] + [f"i_{i.id}" for i in t.instances]
            values += [f"p_{p.id}" for p in self.m.exposed_params(t)]
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
                with c.block("if _INTERPRETED:"):
                    self.object_made(c, t, "obj", values)
                    c("return obj, pos")
            c(f"return {t.class_name}({', '.join(values)}), pos")
        head, doc = self.decoder_head()
        # Declared types make the module type-check, which lets mypyc compile it (logcodec accelerate).
        decls = self.field_decls()
        if self.iterating:
            decls[len(t.seq) - 1] = f"    v_{self.bulk.field.id}: Iterator[Any]"  # the last field's
        decls += self.inlined_decls
        decls += ["    x: int", "    y: int", "    n: int", "    count: int", "    e: int", "    p: int", "    b2: bytes", "    start = pos"]
        decls = used_only(decls, c.text())
        # A user's schema reads values that may be null (a switch no case matched, `parent: false`):
        # any of its expressions may fail on the input.
        if self.m.nav is None and not self.guarded_expressions() and not self.yielding:
            return "\n".join([head, doc, *decls, c.text()])
        body = c.text()
        if self.m.nav is not None or self.guarded_expressions():
            # Expressions over decoded values (an index into a list, a division) can fail on bad
            # input in Python's terms; they still end in a DecodeError.
            body = "\n".join(["    try:", _indented(body),
                              "    except _rt.DecodeError:", "        raise",
                              f"    except ({'AttributeError, NameError, ' if self.m.nav is not None else ''}"
                              f"{EXPRESSION_ERRORS}) as exc:",
                              "        raise _rt.invalid(f'an expression failed on this input: {exc}', pos, '') from None"])
        if self.yielding:
            # An element's error leaves the generator as the root's decoder would have raised it:
            # re-anchored at the stored field (`in_field`), with the field's and the value's path.
            body = "\n".join(["    try:", _indented(body), "    except _rt.DecodeError as exc:",
                              "        _rt.in_field(exc, at, processed, open_ended)",
                              "        raise exc.within(field_id).within(root if index < 0 else f'{root}[{index}]')"])
        return "\n".join([head, doc, *decls, body])

    def decode_seq(self, c: Lines) -> bool:
        """The reading of the seq's fields in order, and the checks of the ranges that end with the
        type; returns whether its bits are read one by one (`reads_bits_one_by_one`)."""
        one_by_one = reads_bits_one_by_one(self.t)
        if one_by_one:
            c("bb = 0; bl = 0")
        for part in self.items():
            if one_by_one and (isinstance(part, list) or part.type.kind != "bits"):
                c("bb = 0; bl = 0")  # a byte-aligned field: the bits left in the last byte are skipped
            if isinstance(part, list):
                self.decode_run(c, part)
            else:
                self.decode_field(c, part)
        self.close_ranges_decode(c, None)
        return one_by_one

    def field_decls(self) -> list[str]:
        """The declarations of the decoder's locals for the seq's fields (`v_`; a conditional one's
        is Any: its presence follows from conditions no type checker follows), in order, then
        its list's elements that may be tuples (`_e`, untyped so that the list takes them uncast)
        and bit groups (`g_`, `decode_run`)."""
        t = self.t
        decls = [f"    v_{f.id}: {'Any' if f.if_expr is not None else self.m.local_type(f)}" for f in t.seq]
        decls += [f"    _e{f.id}: Any" for f in t.seq if self.tuple_elements(f)]
        return decls + [f"    g_{f.id}: int" for f in t.seq if f.type.kind == "bits"]

    def inline_decoder(self, kept: set[str]) -> tuple[list[str], list[str], list[str], list[str]]:
        """This type's decoder as statements for its list's loop (`decode_listed`), which reads
        from `buf[pos:end]` as a call would: its lines, the declarations of its locals, and the
        names of its fields' and value instances' values and of its tuple form's. Its locals, its
        params (but those in `kept`, which the caller passes as its own of the same name) and its
        loops' counters and what it reads through `_parent` (`pp_items`, bound by `written_out`
        as the caller's local a call would pass: `parent_locals`) are named after the type
        (`header_v_key`, `record_i`, `message_pp_items`), apart from the caller's; only code
        refers to them (error paths name the bare field ids)."""
        t, c = self.t, Lines(indent=0, interpreted=True, unbounded=True)
        self.lines, self.encoding, self.computed_instances = c, False, set()
        self.scope.encoding = False
        self.decode_seq(c)
        for inst in t.instances:  # where its decoder computes them: after the fields
            self.need_instances(E.Name(inst.id))
        names = [f"{prefix}{f.id}" for f in t.seq for prefix in ("v_", "g_", "gb_", "s_", "on_", "_e")]
        names += [f"i_{inst.id}" for inst in t.instances]
        names += [f"p_{p.id}" for p in t.params if p.id not in kept] + [f"pp_{n}" for n in self.hidden]
        names += ["i", "count", "before"]
        own = re.compile(rf"(?<![.\w])({'|'.join(map(re.escape, names))})\b")
        rename = lambda text: own.sub(rf"{t.name}_\1", text)  # noqa: E731
        form = self.m.tuple_form(t) if self.m.tuple_decoded(t) else []
        # typed as its decoder's: a list of the holder's values, whose fields may be None, is Any there
        decls = self.field_decls() + [f"    {name}: Any" for name in names if name.startswith(("i_", "pp_"))]
        return ([rename(line) for line in c.lines], [rename(d) for d in decls] + self.inlined_decls,
                [f"{t.name}_v_{f.id}" for f in t.seq] + [f"{t.name}_i_{inst.id}" for inst in t.instances],
                [f"{t.name}_v_{f.id}" for f in form])

    def decoder_head(self) -> tuple[str, str]:
        """The decoder's `def` line and docstring."""
        t = self.t
        params = f"buf: bytes, pos: int, end: int, lim: list[int]{self.params(typed=True)}"
        columns = self.m.columned is not None
        cols = ", cols: list[list[Any]] | None = None" if columns else ""
        if self.iterating:
            return (f"def _i_{t.name}({params}, root: str, index: int{cols}) -> tuple[{header_of(t).class_name}, Iterator[Any], int]:",
                    f'    """Decode the fields of one {t.name} before its {self.bulk.field.id} and check the value as a\n'
                    '    whole (`decode_iter`); return them, an iterator of the elements, and the position after\n'
                    '    the value. Errors raised by the iterator name the value as `root`, or `root[index]` in a\n'
                    '    stream (`index` >= 0).' + (' With `cols`, the iterator yields nothing: it appends each\n'
                    '    element\'s fields to their columns (`decode_columns`).' if columns else '') + '"""')
        if self.yielding:
            return (f"def _g_{t.name}(\n    {params}, at: int, processed: bool, open_ended: bool, field_id: str, root: str,"
                    f" index: int{cols}\n) -> Iterator[Any]:",
                    f'    """Decode the elements of one {t.name} from buf[pos:end] one at a time (`decode_iter`),\n'
                    '    then check that no bytes are left. An error is raised as from the field `field_id`, which\n'
                    '    starts at `at` (of the input, when `processed` bytes are read here), of the value `root`\n'
                    '    (`root[index]` in a stream).' + (' With `cols`, it yields nothing: each element\'s fields\n'
                    '    are appended to their columns (`decode_columns`).' if columns else '') + '"""')
        tupled = self.m.tuple_decoded(t)
        columned = t is self.m.columned
        head = (f"def _d_{t.name}({params}{', as_tuple: bool = False' if tupled else ''}{cols if columned else ''})"
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

    def guarded_expressions(self) -> bool:
        """Whether an expression of this type can fail on bad input (indexing, division, a
        conversion: text that is no number, bytes that are not the encoding, min of nothing)."""
        found = []

        def fallible(n) -> bool:
            if isinstance(n, (E.Index, E.Call)) or (isinstance(n, E.Binary) and n.op in ("/", "%")):
                return True
            if not (isinstance(n, E.Attr) and n.name in ("to_i", "first", "last", "min", "max")):
                return False
            try:  # text to a number, or an element of what may be empty
                kind = type_of(n.obj, self.scope)
            except SchemaError:
                return True
            return kind in ("str", "bytes") or (isinstance(kind, tuple) and kind[0] == "list")

        def walk(node):
            found.extend(n for n in E.walk(node) if fallible(n))

        for f in self.t.seq:
            for e in f.expressions():
                walk(e)
        for inst in self.t.instances:
            for e in (inst.value, inst.pos):
                if e is not None:
                    walk(e)
        return bool(found)

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
            targets.append(f"v_{item.fields[0].id}" if not item.bits else f"{group}{item.fields[0].id}")
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
                c(f"g_{g} = int.from_bytes(gb_{g}, {'big' if item.endian == 'be' else 'little'!r})")
            if item.bits:
                self.split_bits(c, item)
            for f in item.fields:
                if f.id in self.marks:
                    c(f"s_{f.id} = pos + {off}" if off else f"s_{f.id} = pos")
                self.check_valid(c, f, f"pos + {off}")
                if f.enum is not None:
                    c(f"v_{f.id} = {self.m.enum_member(f.enum, f'v_{f.id}')}")
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
            c(f"v_{f.id} = {value}")

    def check_valid(self, c: Lines, f: Field, at: str, var: str | None = None, path: str | None = None,
                    error: str = "_rt.invalid") -> None:
        """Emit the checks of `valid`; a decoder raises DecodeError, an encoder (error=_rt.invalid_encode) EncodeError."""
        if not f.valid:
            return
        var = var or f"v_{f.id}"
        path = f.id if path is None else path
        for kind, rule in f.valid.items():
            if kind == "eq":
                cond, what = f"{var} != {self.expr(rule)}", f"must be {self.expr(rule)}"
            elif kind == "min":
                cond, what = f"{var} < {self.expr(rule)}", f"must be at least {self.expr(rule)}"
            elif kind == "max":
                cond, what = f"{var} > {self.expr(rule)}", f"must be at most {self.expr(rule)}"
            elif kind == "in-enum":  # a member's value (before or after enum_value made it one)
                cond, what = f"{var} not in {self.m.enum_class(f.enum)}._value2member_map_", "is not in the enum"
            elif kind == "any-of":
                options = ", ".join(self.expr(r) for r in rule)
                cond, what = f"{var} not in ({options},)", f"must be one of {options}"
            else:
                self.scope.extra["_"] = (var, ref_tinfo(f.type, f))
                cond, what = f"not ({self.expr(rule)})", "breaks its rule"
                del self.scope.extra["_"]
            if "'" in what or "{" in what:  # a rule with text or bytes in it: no f-string around it
                c(f"if {cond}: raise {error}(repr({var}) + {' ' + what!r}, {at}, {path!r})")
            else:
                c(f"if {cond}: raise {error}(f'{{{var}!r}} {what}', {at}, {path!r})")

    def decode_field(self, c: Lines, f: Field) -> None:
        self.prepare([f])
        if f.id in self.marks:
            c(f"s_{f.id} = pos")
        if f.if_expr is not None:
            c(f"if {self.expr(f.if_expr)}:")
            c.indent += 1
        if f.repeat:
            self.decode_repeat(c, f)
        else:
            self.decode_element(c, f, f"v_{f.id}", f.id, wrap=f.id)
        if f.if_expr is not None:
            c.indent -= 1
            with c.block("else:"):
                c(f"v_{f.id} = None")
                # A checksum whose range ends with this sized field is checked at its extent,
                # inside the branch above; when the field is absent, its range ends here.
                if self.is_sized(f.id):
                    self.checksum_at_extent(c, f, "pos")
        self.publish(c, f.id, f"v_{f.id}")
        self.close_ranges_decode(c, f.id)

    def decode_repeat(self, c: Lines, f: Field, var: str | None = None) -> None:
        var = var or f"v_{f.id}"
        if not self.yielding:
            c(f"{var} = []")
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
                c(f"count = {self.expr(f.repeat_expr)}")
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
                    with c.block(f"for i in range({'i, ' if reader is not None and self.yielding else ''}count):"):
                        self.decode_listed(c, f, elem)
                        self.take_element(c, f, var, elem)
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
                        if f.repeat == "eos":
                            c("before = pos + bl" if bits else "before = pos")
                        self.spend_elements(c, "1", "")  # a loop whose count is known only at its end
                        self.decode_listed(c, f, elem)
                        self.take_element(c, f, var, elem)
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

    def fast_reader(self, f: Field) -> tuple[str, list[str]] | None:
        """The C companion's reader of a root's bulk list (`FastEncoders.reader`), a list long
        enough for a call of C to pay; None for the other lists."""
        bulk = self.m.bulk
        if bulk is None or self.t is not bulk.holder or f is not bulk.items or not self.tuple_elements(f):
            return None
        return FastEncoders(self).reader(f)

    def read_in_c(self, c: Lines, f: Field, reader: tuple[str, list[str]], var: str, path: str) -> int:
        """Before a list's loop: the C companion reads its elements, where it is built and the
        caller asked for tuples; where it reads nothing (any doubt about the bytes), the loop reads
        them. A generator asks it for 64 at a time and hands out each, or, given columns
        (`decode_columns`), for all of them into their columns; a decoder of the whole list asks
        once and skips the loop, whose `else:` is opened here (returns the indent it adds)."""
        name, guard = reader
        tests = " and ".join(["_FAST is not None", "elem_tuples", *(["cols is None"] if self.yielding else []), *guard])
        call = f"_FAST.{name}(buf, pos, end, {{}}, _elements_left(lim))"
        if self.yielding:
            with c.block(f"if {tests}:"):
                with c.block(f"while i < count and (fd := {call.format('min(count - i, 64)')}) is not None:"):
                    c("chunk, pos, taken = fd")
                    self.spend_elements(c, "taken", path)
                    c("i += len(chunk)")
                    c("yield from chunk")
            if self.m.columned is not None:  # `decode_columns`: all of them, into their columns
                columns = " and ".join(["_FAST is not None", "cols is not None", *guard])
                call = f"_FAST.{fast_c.columns_name(name)}(buf, pos, end, count, _elements_left(lim), cols)"
                with c.block(f"elif {columns} and (fd := {call}) is not None:"):
                    c("pos, taken = fd")
                    self.spend_elements(c, "taken", path)
                    c("i = count")
            return 0
        with c.block(f"if {tests} and (fd := {call.format('count')}) is not None:"):
            c(f"{var}, pos, taken = fd")
            self.spend_elements(c, "taken", path)
        c("else:")
        return 1

    def typed_int_local(self, code: str) -> bool:
        """Whether `code` is the local of one of this type's fields declared `int` (`decoder`):
        a conditional field's is `Any`, whose compiled comparisons and sums go through the
        object protocol (TANK's messages, whose keys were read in place that way, decoded about
        8 % slower in `bench tank`'s bundle_100); the copy `n` is typed."""
        f = self.t.field(code[2:]) if code.startswith("v_") else None
        return f is not None and f.if_expr is None and self.m.local_type(f) == "int"

    def decode_listed(self, c: Lines, f: Field, elem: str) -> None:
        """Read one element of the list `f` into `elem` (or, in `decode_columns`, into its
        columns): when interpreted, its type's decoder written out here (`inlined_element`);
        compiled, and for the other types, a call of it."""
        u = self.inlined_element(f)
        if u is None:
            self.decode_element(c, f, elem, "", wrap=None)
            return
        args = {param.id: self.expr(arg) for param, arg in zip(u.params, f.type.args)}
        kept = {name for name, arg in args.items() if arg == f"p_{name}"}
        child = self.writing_out(u)
        child.tuples_read = self.tuple_elements(f)  # `read_tuples_asked` read it before this loop
        lines, decls, values, form = child.inline_decoder(kept)
        guarded = child.guarded_expressions() or child.inlined_guarded
        if c.interpreted:  # already inside `if _INTERPRETED:` (an element written out itself)
            self.written_out(c, f, u, elem, args, kept, lines, values, form)
            self.inlined_guarded |= guarded  # the outer element's fallback catches what they raise
        else:
            with c.block("if _INTERPRETED:"):
                self.read_then_checked(c, f, u, elem, args, kept, lines, values, form, guarded)
            with c.block("else:"):
                self.decode_element(c, f, elem, "", wrap=None)
        self.inlined_decls += [d for d in decls if d not in self.inlined_decls]

    def parent_locals(self, u: TypeDef) -> dict[str, str]:
        """What a type reads through `_parent` (`pp_x`), as this type's locals that a call of it
        passes (`call_args`): a field's value, or an instance's."""
        return {name: f"v_{name}" if self.t.field(name) is not None else f"i_{name}"
                for name in parent_names(u, self.encoding)}

    def read_then_checked(self, c: Lines, f: Field, u: TypeDef, elem: str, args: dict, kept: set,
                          lines: list[str], values: list[str], form: list[str], guarded: bool) -> None:
        """A written-out element (`decode_listed`) read without checking its reads of a few bytes
        (a varint's, a fixed field's) against `end` one by one (`Lines.unbounded`): after it,
        `pos` must not have passed `end`. A read past `end` that passes it, or past the input
        (IndexError, struct.error), or any DecodeError, and the element is read again by its
        type's decoder, which checks each read and names what is wrong: so a value read both
        ways is the same, and so is an error. The elements taken from the budget inside it
        (`spend_elements`) are given back first. Where an expression of it may fail on the input
        (`guarded`: an index, a division), its decoder turns Python's error into a DecodeError;
        here any of those errors reads the element again the same way.

        Each check that passes reads a byte below where the element ends, so none of them could
        have failed where `pos` ends at or before `end`. Reads whose length comes from the input
        are still checked first, so that no copy is made of bytes beyond `end`. Interpreted, the
        checks were 5-9 % of a Kafka record's decoding (four two-byte varints, A/B)."""
        spends = any("elems_taken += " in line for line in lines)
        c("elem_at = pos")
        if spends:
            c("elems_taken = 0")
        with c.block("try:"):
            self.written_out(c, f, u, elem, args, kept, lines, values, form, check_end=True)
        caught = f"{EXPRESSION_ERRORS if guarded else 'IndexError'}, _struct.error, _rt.DecodeError"
        with c.block(f"except ({caught}):"):
            if spends:
                c("lim[_ELEMENTS_RESERVED] += elems_taken")
            c("pos = elem_at")
            self.decode_element(c, f, elem, "", wrap=None)

    def written_out(self, c: Lines, f: Field, u: TypeDef, elem: str, args: dict, kept: set, lines: list[str],
                    values: list[str], form: list[str], check_end: bool = False) -> None:
        """The statements of `decode_listed`'s written-out element: its params bound, its decoder's
        lines, and the element made (or, in `decode_columns`, its fields appended); with
        `check_end`, between the two, the check that its reads ended before `end`
        (`read_then_checked`)."""
        for name, arg in args.items():
            if name not in kept:
                c(f"{u.name}_p_{name} = {arg}")
        for name, local in self.parent_locals(u).items():
            c(f"{u.name}_pp_{name} = {local}")
        for line in lines:
            c(line)
        if check_end:
            c("if pos > end: raise IndexError  # read again, checked")
        if self.yielding and u is self.m.columned:  # as the element's decoder returns (`decoder`)
            with c.block("if cols is not None:"):
                for i, v in enumerate(self.m.tuple_items(u, form)):
                    c(f"cols[{i}].append({v})")
            with c.block("else:"):
                self.element_made(c, f, u, elem, values, form)
        else:
            self.element_made(c, f, u, elem, values, form)

    def element_made(self, c: Lines, f: Field, u: TypeDef, elem: str, values: list[str], form: list[str]) -> None:
        """A written-out element made from its fields' values: its tuple form when asked, else its
        value object, made without a call of its class (`_new`, then a store per field, as its
        `__init__` would): the call of a Python `__init__` costs more than its stores (a Kafka
        record's 200 ns against 130, `timeit`)."""
        if self.tuple_elements(f):
            with c.block("if elem_tuples:"):
                c(f"{elem} = ({', '.join(self.m.tuple_items(u, form))}{',' if len(form) == 1 else ''})")
            with c.block("else:"):
                self.object_made(c, u, elem, values)
        else:
            self.object_made(c, u, elem, values)

    def object_made(self, c: Lines, u: TypeDef, elem: str, values: list[str]) -> None:
        """`elem = _new(Class)`, then its seq's fields set to `values` and its instances (a
        value each after those) to the rest, as its `__init__` sets them."""
        c(f"{elem} = _new({u.class_name})")
        for g, value in zip(u.seq, values):  # only a conditional field's value may be None
            c(f"{elem}.{g.id} = {self.m.init_value(g, value) if g.if_expr is not None else value}")
        for inst, value in zip(u.instances, values[len(u.seq):]):
            c(f"{elem}.{inst.id} = {value}")

    def made_by_new(self) -> bool:
        """Whether this type's decoder makes its value by `_new` when interpreted, as a written-out
        element is made (`element_made`): a type of our formats whose decoder a list's loop calls
        once per element, as it does not write it out (a TANK segment's entry, which holds a
        bundle: `inlined_element`). Made so, a TANK message decoded 11 % faster in pure Python,
        before messages were written out."""
        t = self.t
        plain = self.m.nav is None and t.schema.strict and not self.m.exposed_params(t) and not self.m.exposes_io
        return plain and any(
            self.listed_user(f) is t and TypeEmitter(self.m, holder).inlined_element(f) is None
            for holder in self.m.types for f in holder.seq)

    def inlined_element(self, f: Field) -> TypeDef | None:
        """The type of a list's elements whose decoder the list's loop writes out when it runs
        interpreted. One of this schema's types (an imported one's module has its helpers), of
        our formats, read where the list reads it: no size, process or terminator of the field;
        no positional instance or bit read one by one of its own. Its value instances are
        computed after its fields, as its decoder computes them; what it reads through `_parent`
        is the loop's own local (`parent_locals`: the list read so far, where a TANK message
        reads the one before it), which a generator (`yielding`) does not keep. Its own lists'
        elements may be written out in turn, but not in a type's own code (`writing_out`). It
        calls no decoder that takes from the call's budget (`spends_budget`: a TANK segment's
        entry, which holds a bundle) and processes no field of its own: what the element took is
        given back before it is read again (`read_then_checked`), so only the counts it takes
        itself may be spent in it, lest a budget spent twice report another error than its
        decoder would.

        The interpreter pays for a call, the tuple it returns and a value object's `__init__`
        (`element_made`). Written out, a Kafka record's headers decoded 5 % faster in pure
        Python; the records written out in the batch's decoder too, 7-10 % faster as tuples and
        5-7 % as objects (and 7-9 % more with the objects made by `_new`); in the batch's
        generator, 2-4 %. That costs about 1,000 lines of generated code over our formats.
        Compiled, the call stays (`_INTERPRETED` is False there): with the headers inlined,
        records without headers decoded 4-7 % slower; with the records inlined in the
        generator, whose locals mypyc keeps in the generator's object, 4-10 % slower."""
        u = self.listed_user(f)
        if (u is None or u.schema is not self.t.schema or not u.schema.strict or self.m.nav is not None
                or f.size is not None or f.size_eos or f.process or f.terminator is not None
                or any(inst.field is not None for inst in u.instances) or reads_bits_one_by_one(u)
                or (self.yielding and parent_names(u)) or u is self.t or id(u) in self.written_in):
            return None
        child = self.writing_out(u)
        for g in u.seq:
            if g.process:
                return None
            inlined = child.inlined_element(g) if g.repeat else None  # checked in turn
            if inlined is None and calls_spending(g.type):
                return None
        return u

    def writing_out(self, u: TypeDef) -> TypeEmitter:
        """The emitter of a type written out in this one's code: a type that holds itself (a
        tree's nodes) is not written out inside itself, which would never end."""
        child = TypeEmitter(self.m, u)
        child.written_in = self.written_in | {id(self.t)}
        return child

    def take_element(self, c: Lines, f: Field, var: str, elem: str) -> None:
        """An element decoded: appended to its list, or handed out by the generator (`_g_`),
        unless its fields went to their columns (`decode_columns`)."""
        if not self.yielding:
            c(f"{var}.append({self.element_of(f, elem)})")
        elif self.m.columned is not None:
            with c.block("if cols is None:"):
                c(f"yield {elem}")
        else:
            c(f"yield {elem}")

    def element_of(self, f: Field, elem: str) -> str:
        """An element as its list takes it: one that may be a tuple goes in untyped (a field's
        element is declared so; an instance's is cast, a call in pure Python)."""
        return f"_cast(Any, {elem})" if self.tuple_elements(f) and f not in self.t.seq else elem

    @staticmethod
    def spend_elements(c: Lines, count: str, path: str) -> None:
        """Take `count` elements out of the call's budget: from its reserve, a small int that is
        written back without allocating (`limits.RESERVE`), else through `take_elements`."""
        with c.block(f"if (left := lim[_ELEMENTS_RESERVED] - {count}) >= 0:"):
            c("lim[_ELEMENTS_RESERVED] = left")
        with c.block("else:"):
            c(f"_take_elements(lim, {count}, pos, {path!r})")
        if c.unbounded:  # given back if the element is read again (`read_then_checked`)
            c(f"elems_taken += {count}")

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
        self.read_tuples_asked(c, f)
        c("i = 0; before = pos")
        with c.block("try:"):
            with c.block("while pos < end:"):
                c("before = pos")
                self.spend_elements(c, "1", "")  # a loop whose count is known only at its end
                self.decode_element(c, f, elem, "", wrap=None)
                c(f"{var}.append({elem})")
                c("if pos == before: raise _rt.invalid('an element took no bytes; repeating it would never end', pos, '')")
                c("i += 1")
        with c.block("except _rt.DecodeError as exc:"):
            with c.block("if exc.kind != 'truncated':"):
                c("if exc.offset is not None: exc.offset += base")
                c(f"raise exc.within({comp})")
            c("pos = before")
        c("buf, end, pos = outer_buf, outer_end, pos + base")

    def decode_element(self, c: Lines, f: Field, target: str, epath: str, wrap: str | None,
                       size: str | None = None) -> None:
        """Read one element of `f` into `target`. `epath` is the path of errors raised here;
        `size`, its size computed beforehand."""
        ref = f.type
        sized = f.size is not None or f.size_eos
        if sized:
            if f.size_eos:
                c("e = end")
            else:
                n = size or self.expr(f.size)
                if not self.typed_int_local(n):  # a field's int (`v_len_key`) is read as it is, without a copy
                    c(f"n = {n}")
                    n = "n"
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
                    c(f"x, pos = pos, e; pa = ({extra[2:]},); pos = x")
                    extra = ", *pa"
                passes = not cut and extra != ", *pa" and self.passes_through(f)
                if passes:  # the call, interpreted, is skipped for them
                    c(f"pt_{f.id} = {extra[2:]}")
                    c(f"if pt_{f.id} in _PASS_{name}: b2, s2, e2 = buf, pos, e")
                    c("else:")
                    c.indent += 1
                    extra = f", pt_{f.id}"
                with c.block("try:"):
                    c(f"b2, s2, e2 = {name}.decode({'bc, 0, len(bc)' if cut else 'buf, pos, e'}, lim{extra})")
                with c.block("except _rt.DecodeError as exc:"):
                    c(f"raise exc.within({epath!r})" if epath else "raise")
                if passes:
                    c.indent -= 1
                bounds = ("b2", "s2", "e2")
            if self.trimmed_structure(f) and not f.process:  # bytes and text trim themselves (decode_content)
                b, s, e = bounds
                c(f"b2 = _rt.cut({b}[{s}:{e}], {f.pad_right!r}, {f.terminator!r}, {f.include}); s2, e2 = 0, len(b2)")
                self.carry(c, f, f"{b}[{s} + len(b2):{e}]")
                bounds = ("b2", "s2", "e2")
            self.decode_content(c, f, ref, target, epath, wrap, bounds, trimmed=not f.process)
            if ref.kind in ("bytes", "str"):
                self.check_valid(c, f, "pos", target, epath)  # `valid` on bytes and text, at the field
            c("pos = e")
        elif f.terminator is not None and self.trimmed_structure(f):
            # A structure read from the bytes up to its terminator, as from a substream; `pos`
            # stays at the field's start (errors inside point there) until the end is taken.
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
            self.decode_content(c, f, ref, target, epath, wrap, ("b2", "s2", "e2"), trimmed=not f.process)
            c("pos = e")
        elif f.contents is not None:
            n = len(f.contents)
            c.bound(f"if pos + {n} > end: raise _rt.short(buf, pos, end, {n}, {epath!r})")
            c(f"if buf[pos:pos + {n}] != {f.contents!r}: raise _rt.invalid('wrong magic', pos, {epath!r})")
            c(f"{target} = {f.contents!r}; pos += {n}")
        else:
            self.decode_unsized(c, f, ref, target, epath, wrap)
        if f.enum is not None and ref.kind in ("int", "bits") and (f.repeat or f.if_expr or f.size is not None):
            c(f"{target} = {self.m.enum_member(f.enum, target)}")

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
                code = _STRUCT_CODES[(ref.size, ref.signed)] if ref.kind == "int" else _FLOAT_CODES[ref.size]
                name = self.m.struct((">" if ref.endian == "be" else "<") + code)
                c.bound(f"if pos + {ref.size} > end: raise _rt.short(buf, pos, end, {ref.size}, {epath!r})")
                c(f"{target}, = {name}.unpack_from(buf, pos); pos += {ref.size}")
            self.check_valid(c, f, f"pos - {ref.size}", target, epath)
        elif ref.kind == "bits":  # one by one (reads_bits_one_by_one)
            c(f"{target}, pos, bb, bl = _rt.read_bits_{ref.endian}(buf, pos, end, {ref.size}, bb, bl, {epath!r})")
            if ref.size == 1:
                c(f"{target} = {target} != 0")
            elif f.enum is not None and not (f.repeat or f.if_expr or f.size is not None):
                c(f"{target} = {self.m.enum_member(f.enum, target)}")
            self.check_valid(c, f, "pos", target, epath)
        elif ref.kind == "user":
            args = self.call_args(ref, f=f) + self.as_tuple_arg(f)
            if self.yielding and ref.user is self.m.columned:
                args += ", cols"
            self.call_decoder(c, f"{target}, pos = _d_{ref.user.name}(buf, pos, end, lim{args})", wrap)
        elif ref.kind == "switch":
            # No case for the value: an error in our formats; in a user's schema nothing is read and
            # the field is null, as Kaitai's parsers do.
            no_case = (f"raise _rt.invalid({f.no_case or 'no case matches'!r}, pos, {epath!r})"
                       if self.t.schema.strict or f.no_case else f"{target} = None")
            self.switch(c, f, ref, lambda case: self.decode_unsized(c, f, case, target, epath, wrap),
                        lambda: c(no_case))

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
        elif ref.kind == "user" and self.iterating and f is self.bulk.field:
            # Its elements are decoded when the iterator reaches them; a generator's errors come
            # out of it as this field's (see `_g_`).
            open_ended = "e >= len(buf)" if f.size_eos else "False"
            processed = "False" if b == "buf" else f"{b} is not buf"
            cols = ", cols" if self.m.columned is not None else ""
            c(f"{target} = _g_{ref.user.name}({b}, {s}, {e}, lim{self.call_args(ref, s, f)}, pos, {processed}, "
              f"{open_ended}, {f.id!r}, root, index{cols})")
        elif ref.kind == "user" and not primitive_of(ref):
            args = self.call_args(ref, s, f)
            call = f"{target}, p = _d_{ref.user.name}({b}, {s}, {e}, lim{args}{self.as_tuple_arg(f)})"
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
            c("p, end_outer = pos, end")
            if b != "buf":
                c(f"buf_outer, buf = buf, {b}")
            c(f"pos, end = {s}, {e}")
            self.decode_unsized(c, f, ref, target, epath, wrap)
            c(f"if pos != end: raise _rt.trailing(buf, pos, end, {epath!r})")
            c("pos, end = p, end_outer")
            if b != "buf":
                c("buf = buf_outer")

    def carries(self) -> bool:
        """A user's schema keeps the bytes of a sized field that are not its value (what a
        structure left unread, what follows a terminator), so that encoding gives them back."""
        return self.m.nav is not None and any(f.size is not None or f.size_eos or (f.terminator is not None
                                                                                and not f.eos_error) for f in self.t.seq)

    def carried_key(self, f: Field) -> str:
        return f"({f.id!r}, i)" if f.repeat else repr(f.id)

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

    def carries_terms(self) -> bool:
        return self.m.nav is not None and any(f.terminator is not None and not f.eos_error for f in self.t.seq)

    @staticmethod
    def trimmed_structure(f: Field) -> bool:
        """A structure (not bytes or text) read from bytes cut at a terminator or padding."""
        return (f.terminator is not None or f.pad_right is not None) and f.type.kind not in ("bytes", "str")

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

    def switch(self, c: Lines, f: Field, ref: TypeRef, emit_case, emit_default, value: str | None = None) -> None:
        if self.encoding and value is not None and self.selects_on_peek(ref):
            self.switch_by_class(c, ref, emit_case, emit_default, value)
            return
        on = self.expr(ref.switch_on)
        if not on.isidentifier():
            c(f"on_{f.id} = {on}")
            on = f"on_{f.id}"
        # A switch on a bool tests it (the interpreter pays for a comparison with True).
        boolean = type_of(ref.switch_on, self.scope) == "bool" and all(
            isinstance(key, E.Bool) for key, _ in ref.cases if key is not None)
        first, default = True, None
        for key, case in ref.cases:
            if key is None:
                default = case
                continue
            test = (on if key.value else f"not {on}") if boolean else f"{on} == {self.expr(key)}"
            with c.block(f"{'if' if first else 'elif'} {test}:"):
                emit_case(case)
            first = False
        with c.block("else:" if not first else "if True:"):
            if default is not None:
                emit_case(default)
            else:
                emit_default()

    def selects_on_peek(self, ref: TypeRef) -> bool:
        """Whether a switch selects on a positional instance (a byte read ahead): an encoder has
        no bytes to read it from, and picks the case from the value's class instead."""
        peeks = {i.id for i in self.t.instances if i.field is not None}
        return bool(E.names(ref.switch_on) & peeks)

    def switch_by_class(self, c: Lines, ref: TypeRef, emit_case, emit_default, value: str) -> None:
        cases = list(dict.fromkeys(case.user.name for _, case in ref.cases if case.kind == "user"))
        by_name = {case.user.name: case for _, case in ref.cases if case.kind == "user"}
        first = True
        for name in cases:
            case = by_name[name]
            with c.block(f"{'if' if first else 'elif'} isinstance({value}, {case.user.class_name}):"):
                emit_case(case)
            first = False
        with c.block("else:" if not first else "if True:"):
            emit_default()

    def checksum_at_extent(self, c: Lines, f: Field, end: str = "e") -> None:
        """Verify a checksum as soon as the end of its range is known, before decompressing."""
        for owner, first, last, kind in self.ranges:
            if kind == "checksum" and self.range_last(last) == f.id:
                self.emit_checksum_check(c, owner, first, end)

    def range_last(self, last):
        return last if last is not None else self.t.seq[-1].id

    def emit_checksum_check(self, c: Lines, owner: Field, first: str, end: str) -> None:
        algo = owner.checksum["algorithm"]
        c(f"if _{algo}(_checked_bytes(buf, s_{first}, {end})) != v_{owner.id}:")
        c(f"    raise _rt.DecodeError('checksum_mismatch', f'stored {{v_{owner.id}:#010x}}, computed {{_{algo}(_checked_bytes(buf, s_{first}, {end})):#010x}}', s_{owner.id}, {owner.id!r})")

    def close_ranges_decode(self, c: Lines, fid: str | None) -> None:
        """After the last field of a range: check its size, and any checksum not checked yet."""
        for owner, first, last, kind in self.ranges:
            if last != fid and not (fid is None and last is None):
                continue
            if kind == "size":
                with c.block(f"if pos - s_{first} != v_{owner.id}:"):
                    c(f"raise _rt.DecodeError('invalid_length', f'declares {{v_{owner.id}}} bytes, the content takes {{pos - s_{first}}}', s_{owner.id}, {owner.id!r})")
            elif not self.is_sized(self.range_last(last)):
                self.emit_checksum_check(c, owner, first, "pos")

    def is_sized(self, fid: str) -> bool:
        f = self.t.field(fid)
        return f.size is not None or f.size_eos

    # ------------------------------------------------------------ encode
    #
    # An encoder appends bytes-like parts to the list `out` and returns how many
    # bytes it appended (`w`); `encode` joins the parts once. Keys and values go
    # in as they are, without copies. A derived field known only after its range
    # (a size written before its range, a checksum) gets a placeholder part that is
    # filled in place once the range is written.

    def encoder(self) -> str:
        t, c = self.t, Lines(2)
        self.lines, self.encoding, self.computed_instances = c, True, set()
        self.scope.encoding = True
        if reads_bits_one_by_one(t):
            head = f"def _e_{t.name}(v: {self.m.encoded_type(t)}, out: list[Any]{self.params(typed=True)}) -> int:"
            return "\n".join([head, "    _rt.no_encoder('bit fields repeated or conditional (not supported yet)', '')",
                              "    return 0"])
        self.deferred, self.computed = set(), set()
        self.pending_runs: list[tuple] = []  # (placeholder index, struct, values, deferred ids, layout)
        self.varint_sizes: set[str] = set()  # deferred sizes written as a varint placeholder
        self.out = "out"
        self.fast = FastEncoders(self)
        c("w = 0")
        self.navigation_start(c)
        if self.carries():
            c("carried = getattr(v, '_carried', None) or {}  # bytes of sized fields that are not their values")
        form = self.m.tuple_form(t)
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
        for owner, first, last, kind in self.ranges:
            if self.index[owner.id] < self.index[first] or kind == "checksum":
                self.deferred.add(owner.id)
        for part in self.items():
            if isinstance(part, list):
                self.encode_run(c, part)
            elif part.id in early:
                self.put(c, f"b_{part.id}", typed=True)
            else:
                self.encode_field(c, part)
        self.close_ranges_encode(c, None)
        c("return w")
        head = f"def _e_{t.name}(v: {self.m.encoded_type(t)}, out: list[Any]{self.params(typed=True)}) -> int:"
        doc = f'    """Append the parts of a {t.name} to `out`; return how many bytes they hold."""'
        # A list whose elements may be value objects or tuples is untyped: a compiled loop over a
        # typed list checks each element for the one type (and a cast is a call in pure Python).
        decls = [f"    v_{f.id}: Any" for f in t.seq if f.if_expr is not None or self.takes_tuples(f)]
        # A field's bytes, or None; untyped, because a cast is a call in pure Python and the
        # compiled build checks an untyped value where it becomes `d: bytes` all the same.
        decls += [f"    b_{f.id}: Any" for f in t.seq] + [f"    t_{f.id}: list[Any]" for f in t.seq]
        decls += ["    d: bytes", "    x: int", "    w: int", "    actual: int", *sorted(self.fast.declared)]
        decls = used_only(decls, c.text())
        body = [head, doc, *decls, "    try:", c.text(),
                "    except _rt.EncodeError:", "        raise",
                f"    except {PYTHON_ERRORS} as exc:",
                "        raise _rt.wrap_encode(exc, '') from None"]
        return "\n".join(body)

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
                    root = path_root(node)
                    names.add(root)
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
            c(f"b_{f.id} = d")
            early.add(f.id)
        return early

    def put(self, c: Lines, part: str, size: int | None = None, typed: bool = False) -> None:
        """Append a part; count its bytes when it goes to this type's own output. A `typed` part
        needs no cast to become `d: bytes` (it is bytes, or untyped)."""
        if self.out != "out":
            c(f"{self.out}.append({part})")
        elif size is not None:
            c(f"out.append({part}); w += {size}")
        elif part == "d":
            c("out.append(d); w += len(d)")
        else:
            c(f"d = {part}" if typed else f"d = _cast(bytes, {part})")
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
                c(f"b_{target.id} = None")
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
        c(f"actual = {actual}")
        c(f"if v_{f.id} is None: v_{f.id} = actual")
        c(f"elif v_{f.id} != actual: raise _rt.mismatch({f.id!r}, v_{f.id}, actual)")

    @contextmanager
    def temporary(self, c: Lines, name: str):
        """Encode into a part list of its own, whose bytes are then joined into `d`."""
        outer, self.out = self.out, name
        c(f"{name} = []")
        yield
        self.out = outer
        c(f"d = b''.join({name})")

    def encode_to_bytes(self, c: Lines, f: Field, var: str) -> None:
        """Encode the single element of a field (before any if) into a bytes object `var` (a
        `b_` local, untyped)."""
        ref = f.type
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
            if self.passes_through(f):  # as the decoder skips the call for a "none" codec
                c(f"pt_{f.id} = {extra[2:]}")
                c(f"if pt_{f.id} not in _PASS_{name}: d = _cast(bytes, {name}.encode(d, pt_{f.id}))")
            else:
                c(f"d = _cast(bytes, {name}.encode(d{extra}))")

    def passes_through(self, f: Field) -> bool:
        """Whether the processor of `f` takes one argument and lists the values of it for which it
        returns its input unchanged (`passthrough`: a codec table's "none"), so that its decoder
        and encoder test the argument against that set (`_PASS_<name>`, declared for it here)
        before calling it."""
        name, args = f.process
        if len(args) != 1 or not named_processors.passes_through(name):
            return False
        self.m.passthroughs.add(self.m.processor(name))
        return True

    def mark(self, c: Lines, fid: str, off: int = 0) -> None:
        if fid in self.marks:
            c(f"s_{fid} = w + {off}" if off else f"s_{fid} = w")
        if fid in self.checksum_starts:
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
            value = self.join_bits(item) if item.bits else f"v_{item.fields[0].id}"
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
                part = f"_BYTE[{values[0]}]"
                c(f"if not 0 <= {values[0]} <= 255: raise ValueError('out of range')")
            elif single and code == "b":
                part = f"_BYTE[{values[0]} & 255]"
                c(f"if not -128 <= {values[0]} <= 127: raise ValueError('out of range')")
            else:
                part = f"{name}.pack({', '.join(values)})"
            if into:
                c(f"out[{into}] = {part}")
            else:
                self.put(c, part, size)
        with c.block("except (_struct.error, TypeError, ValueError) as exc:"):
            c(f"raise _rt.range_error(exc, ({', '.join(values)},), {layout}) from None")

    def join_bits(self, item: Item) -> str:
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
            value = f"(v_{f.id} if type(v_{f.id}) is {kind}{fits} else _check_bits(v_{f.id}, {n}, {f.id!r}))"
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
        if f.size_of is None and self.is_size_target(f):
            self.put(c, f"b_{f.id}", typed=True)
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

    def is_size_target(self, f: Field) -> bool:
        return any(g.size_of and g.size_of[0] == g.size_of[1] == f.id for g in self.t.seq) and not f.repeat

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
            code = _STRUCT_CODES[(ref.size, ref.signed)] if ref.kind == "int" else _FLOAT_CODES[ref.size]
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
        ending = [r for r in self.ranges if r[2] == fid or (fid is None and r[2] is None)]
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
            algo = owner.checksum["algorithm"]
            c(f"actual = _rt.checksum_of_parts(_{algo}, out, i_{first})")
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


def used_only(decls: list[str], body: str) -> list[str]:
    """The declarations of locals (`    name: type`, `    name = value`) that the body uses."""
    words = set(re.findall(r"(?<![.\w])[A-Za-z_][A-Za-z0-9_]*", body))  # not an attribute (`exc.start`)
    return [d for d in decls if re.match(r"\s*([A-Za-z_][A-Za-z0-9_]*)", d).group(1) in words]


def name_fmt(ref: TypeRef, code: str) -> str:
    return (">" if ref.endian == "be" else "<") + code



# A user's schema whose expressions read the values' streams: every value keeps its `_io`.
_IO_DECL = {"id": "_io", "annotation": "Any", "default": "default=None, compare=False, repr=False",
            "meta": {"kind": "any", "param": True}, "param": "_io: Any = None", "init": "_io",
            "doc": _docstring("The stream the value was read from (Kaitai's `_io`).", 1)}

# A user's schema: every value knows its holder and its root once decoded, as Kaitai's objects
# do (`_rt.linked`); not part of the value (no JSON, no equality, no encoding).
_LINK_DECLS = [
    {"id": name, "annotation": "Any", "default": "default=None, init=False, compare=False, repr=False",
     "meta": {"kind": "any", "param": True}, "param": "", "init": "", "doc": _docstring(doc, 1)}
    for name, doc in (("_parent", "The structure that holds this one (Kaitai's `_parent`), None for the root."),
                      ("_root", "The root of the schema this value's type belongs to (Kaitai's `_root`)."))
]
