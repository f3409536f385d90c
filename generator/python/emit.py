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

import hashlib
import textwrap

from logcodec import processors as named_processors
from logcodec.runtime import limits, native

from .. import c as c_companion
from ..layout import parent_names
from ..model import navigates
from ..passes import checked, model_of
from ..schema import Field, Schema, TypeDef, static_bits
from ..walk import fields_of, fixed_offsets, max_size, refs_of, schema_closure
from .classes import TEMPLATES, ValueClasses
from .code import (
    BUDGET_ITEMS,
    HELPERS,
    INTERPRETED,
    TABLES,
    Build,
    Function,
    Lines,
    Uses,
    docstring,
    tidy,
)
from .decode import Decoder
from .encode import Encoder
from .entries import checksum_source, entry_source
from .iterate import Generator, Iterator, NestedView, lazy_doc, nested_doc
from .skip import Skipper, view_loop
from .translate import Nav

# ---------------------------------------------------------------- module


def root_params(root: TypeDef) -> str:
    """The root's params as keyword-only parameters of the module's reads and `encode`."""
    return "".join(f", {p.id}: {'bool' if p.type_name == 'bool' else 'int'}"
                   + (f" = {p.default!r}" if p.default is not None else "") for p in root.params)


class ModuleEmitter(ValueClasses):
    def __init__(self, schema: Schema, build: Build = INTERPRETED) -> None:
        self.schema = schema
        self.build = build  # the module, or the source of its compiled build (`code.Build`)
        self.model = checked(schema, "python").model  # the passes refuse what this back end cannot write
        self.types = self.model.types
        self.structs: dict[str, str] = {}  # format -> name
        self.runs: dict[str, str] = {}  # a number's format -> the name of its NumberRuns
        self.layouts: list[str] = []
        self.processors: set[tuple[str, str]] = set()  # (module, name) of the named ones it calls
        self.passthroughs: set[str] = set()  # named processors whose pass-through arguments it checks
        self.user_processors: dict[str, str] = {}  # a.b.my_fx -> module-level name
        self.enum_imports: dict[str, set[str]] = {}  # module -> enum classes imported from it
        self.builtins_named: set[str] = set()  # types whose attributes name a builtin they shadow
        self.parents = self.model.parents
        self.text_parts: dict[str, str] = {}  # name -> how it is made: the fast encoders' text tables
        self.companion: str | None = None  # the C companion's source, once rendered
        # A user's schema reads `_io`, `_parent` and `_root` as Kaitai's objects; ours keep to
        # plain values (`_parent.x` passed in, `_io.pos` in a type read from its own stream).
        self.nav = None if schema.strict else Nav(self.parents, navigates(schema))
        # The types whose values keep their stream (Kaitai's `_io`), by name (None: every type).
        self.io_kept = self.stream_keepers() if self.nav is not None else set()
        self.exposes_io = self.io_kept is None or bool(self.io_kept)
        # Whether the values keep Kaitai's `_parent` and `_root` (`link_readers`).
        self.links_kept = self.nav is not None and self.link_readers()
        # The root's bulk read one element at a time (`decode_iter`), column by column
        # (`decode_columns`), its header (`decode_header`), and the lists of the C companion: the
        # model's (its bulk lists and headers, and the plans).
        self.bulk, self.columned, self.header = self.model.bulk, self.model.columned, self.model.header
        self.rendered = self.model.rendered
        self.c_loops, self.c_readers = self.model.companion_lists
        # the types whose value objects it makes and reads: one class each, which the C companion is given
        self.c_classes = c_companion.value_types(self.c_loops, self.c_readers)

    def enum_member(self, c: Lines, enum, value: str) -> str:
        """The member of `enum` whose value is `value` (the bare integer when it has none, as
        Kaitai does), in code written to `c`. An enum of this schema has a dictionary of its
        members here, which a compiled build reads in C; another schema's goes through the runtime."""
        if enum.owner.schema is self.schema:
            return f"{c.enum_by_value(self.model.enum_name(enum))}.get({value}, {value})"
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

    @property
    def untracks(self) -> bool:
        """Whether the decoders take each value object and list they make off the cyclic
        collector's list (`Lines.untracked`): a compiled build (whose runtime helper does it in
        C) of a schema whose values make no cycle (`Model.acyclic_values`). The collector would
        walk each of them at every pass the decode sets off, and at every full pass after (a
        compiled decode of Kafka records took 1.7x as long with them tracked); a pure build's
        cannot be helped."""
        return self.build.compiled and self.model.acyclic_values

    @property
    def untracks_trees(self) -> bool:
        """Whether the decoders take a list's elements off the collector's list with what they
        hold (`Lines.untracked_tree`, where the runtime's C helper is built): an interpreted build
        (a compiled one untracks each value it makes) of a schema whose values make no cycle, as
        Kafka's protocol bodies are in a compiled install (ARCHITECTURE.md: the collector)."""
        return not self.build.compiled and self.model.acyclic_values

    def tuple_form(self, t: TypeDef) -> list[Field] | None:
        """The fields of a type's tuple form, which its encoder takes in a list (`Model.tuple_form`)."""
        return self.model.tuple_form(t)

    def tuple_items(self, t: TypeDef, values: list[str]) -> list[str]:
        """The items of `t`'s tuple form, or of its columns, from its fields' values: a list
        field's as a tuple. A tuple form then holds nothing mutable, which CPython's collector
        leaves untracked after its first pass, and the C companion's readers release at once: a
        Kafka record that held its headers' list was an object the collector walked, and each
        record a list more (compiled `decode(..., tuples=True)` 0.70x aiokafka's C extension
        with them, 1.14x without, `bench kafka`). A conditional list absent is None, as in the
        value object."""
        return [(f"tuple({v})" if f.if_expr is None else f"(None if {v} is None else tuple({v}))")
                if self.model.field_meta(f).get("list") else v
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

    def number_runs(self, code: str) -> str:
        """The module's `_rt.NumberRuns` of one number format: the structs of its runs, by count."""
        if code not in self.runs:
            self.runs[code] = f"_N{len(self.runs)}"
        return self.runs[code]

    def layout(self, entries) -> str:
        text = repr(tuple(entries))
        if text not in self.layouts:  # one declaration for a run two decoders read (`_d_` and `_i_`)
            self.layouts.append(text)
        return f"_L{self.layouts.index(text)}"

    def render(self, module_source: str | None = None) -> str:
        """The module's source; for the compiled build, its source given the module's own
        (`module_source`), which its header names by hash: the build is named by both."""
        if self.build.compiled != (module_source is not None):
            raise ValueError("the source of a compiled build is rendered for its module's source, and only it")
        header, rendered = self.header, self.rendered
        # a compiled build takes from its module the classes C makes (`c_classes`), as it does enums
        classes = [self.class_source(t) for t in rendered
                   if not t.unwrap and not (self.build.compiled and t in self.c_classes)]
        functions: list[Function] = []
        lazy = self.model.lazy_bulk
        for t in rendered:
            functions.append((NestedView if t is self.schema.root and lazy else Decoder)(self, t).decoder())
            functions.append(Encoder(self, t).encoder())
        functions += [Skipper(self, t).decoder() for t in self.model.skipped_types]
        views = [(t, f) for t in self.types for f in t.seq if id(f) in self.model.viewed_lists]
        functions += [view_loop(self, t, f) for t, f in views]
        viewed_lists = tuple(f"{t.name}.{f.id}" for t, f in views)
        bulk = self.bulk
        if bulk is not None:
            functions.append(Generator(self, bulk.holder, bulk).decoder())
            functions.append(Iterator(self, self.schema.root, bulk).decoder())
        enums = [
            {"name": self.enum_class(e), "members": sorted(e.members.items()), "doc": f"Enum `{e.name}` of {t.name}."}
            for t in self.types for e in t.enums.values()
        ]
        root = self.schema.root
        if self.c_loops or self.c_readers:  # named by the hash of its source (the C back end's)
            self.companion = c_companion.render_companion(self.schema)
        uses = used_by(functions)
        nested = self.model.nested_views
        no_bulk = f"{root.name} does not end with a list of a known size, read after the fields before it"
        untupled = f", limits: Limits = DEFAULT_LIMITS{root_params(root)}"
        return tidy(TEMPLATES.get_template("module.py.j2").render(
            schema=self.schema, enums=enums, classes=classes,
            builtins_named=bool(self.builtins_named),
            functions=[f.text for f in functions],
            structs=sorted(self.structs.items(), key=lambda kv: int(kv[1][2:])),
            number_runs=sorted(self.runs.items(), key=lambda kv: int(kv[1][2:])),
            layouts=self.layouts, processors=sorted(self.processors), root=root,
            user_processors=sorted(self.user_processors.items()), passthroughs=sorted(self.passthroughs),
            imports=self.import_lines(), late_imports=self.late_imports(),
            root_params=root_params(root),
            # the keywords of every read: `read_params`; without `tuples`, where an overload types it
            read_params_untupled=untupled, read_params=f"{untupled}, tuples: bool = False",
            reads=self.reads(),
            not_iterated=no_bulk,
            not_columned=f"the elements of its {bulk.field.id} have no tuple form" if bulk is not None else no_bulk,
            part_params={t.name: self.part_params(t) for t in rendered},
            root_args="".join(f", {p.id}" for p in root.params),
            root_kwargs="".join(f", {p.id}={p.id}" for p in root.params),
            root_param_types=[(p.id, "bool" if p.type_name == "bool" else "int") for p in root.params],
            required_params=[p.id for p in root.params if p.default is None],
            imported_modules=sorted({s.module for s in self.schema.imports if not s.root.primitive}),
            root_class=root.class_name, doc=docstring(self.schema.doc, 0),
            not_canonical=[f"{t.name}: {reason}" for t in self.types for reason in self.model.plan(t).not_canonical],
            decided_by_stream=[f"`{t.name}.{fid}`" for t in self.types for fid in self.model.plan(t).decided_by_stream],
            build_params=self.build_params(root) if self.nav is None and not root.unwrap else None,
            tuple_forms=[(t.class_name, [f.id for f in form]) for t in self.types if (form := self.tuple_form(t))],
            **self.tuples_option(), lazy_read=lazy is not None,
            lazy_doc=nested_doc(nested, viewed_lists) if nested or views else lazy_doc(lazy),
            nested_lazy=bool(nested) or bool(views), nested_views=tuple(nested), views=bool(views),
            viewed_lists=viewed_lists,
            part_types=rendered, header=header, entry_code=entry_source(self.model.entry()),
            header_wires=self.model.wire_kept(header) if header is not None else [],
            offsets=[(f"{t.name}.{name}", at) for t in rendered if not t.unwrap for name, at in fixed_offsets(t)],
            sizes=[(t.name, bits // 8) for t in rendered if not t.unwrap and not t.primitive
                   and (bits := static_bits(t)) and bits % 8 == 0],
            header_bulk=root.seq[len(header.seq)].id if header else "", header_max=header and max_size(header),
            iterated=bulk and {"field": bulk.field.id, "count": bulk.count,
                               "element": self.value_type(bulk.items.type.user),
                               "tuple": self.tuple_alias(bulk.items.type.user)},
            tuple_aliases=self.tuple_aliases(),
            columned=self.columned and {"element": self.columned.class_name,
                                        "fields": tuple(f.id for f in self.tuple_form(self.columned))},
            checksum_code=checksum_source(self.model.entry()),
            compiled_for=module_source is not None and {
                "file": f"{self.schema.id}.py", "module": self.schema.module,
                "sha256": hashlib.sha256(module_source.encode()).hexdigest()},
            text_parts=[(name, made) for name, made in sorted(self.text_parts.items()) if name in uses.named("text")],
            **module_declarations(uses, [e["name"] for e in enums]),
            fast_sha=self.companion and c_companion.source_sha(self.companion),
            c_classes=[t.class_name for t in self.c_classes],
            makers=[t.name for t in self.c_classes] if self.build.compiled else [],
            untracked_sha=native.companion_sha(native.UNTRACKED_C.read_bytes()),
        ))

    def late_imports(self) -> bool:
        """Whether this schema and one it imports import each other: the imports then come last."""
        return any(s is self.schema for imp in self.schema.imports for s in schema_closure(imp))

    def tuples_option(self) -> dict:
        """The `tuples=` keyword every read takes: the argument that passes it on, and its
        docstring sentence, which names the types whose elements it makes tuples
        (`tuple_decoded`), its schema's and those it imports."""
        names = list(dict.fromkeys(t.class_name for t in self.reached_types() if model_of(t.schema).tuple_decoded(t)))
        said = (f"With `tuples`, the elements of lists of {', '.join(names)} come in their tuple form "
                "(`TUPLE_FORMS`; a list inside one comes as a tuple), as `encode` also takes them: no "
                "object for each." if names else
                "No list of this format has a tuple form (`TUPLE_FORMS`): `tuples` changes nothing.")
        return {"tuples_arg": ", tuples=tuples",
                "tuples_doc": "\n\n" + textwrap.fill(said, 84, initial_indent="    ", subsequent_indent="    ")
                + "\n    "}

    def part_params(self, t: TypeDef) -> tuple[tuple[str, ...], tuple[str, ...], dict]:
        """What `decode_part` and `encode_part` take by name for a type (`_PARTS`): its params,
        then the `_parent` fields its decoder, and its encoder, read (as `parent_<field>`), and
        the defaults of the params that have one."""
        own = tuple(p.id for p in t.params)
        hidden = [parent_names(t, encoding) if self.nav is None else [] for encoding in (False, True)]
        return (*(own + tuple(f"parent_{n}" for n in names) for names in hidden),
                {p.id: p.default for p in t.params if p.default is not None})

    def reached_types(self) -> list[TypeDef]:
        """The schema's types, then those its values hold of the schemas it imports (whose own
        models say what their types' tuple forms are, `model_of`)."""
        seen = {id(t): t for t in self.types}
        todo = list(self.types)
        while todo:
            for f in fields_of(todo.pop()):
                for ref in refs_of(f.type):
                    if ref.kind == "user" and id(ref.user) not in seen:
                        seen[id(ref.user)] = ref.user
                        todo.append(ref.user)
        return list(seen.values())

    def reads(self) -> tuple[str, ...]:
        """The reads the module offers (`READS`): all of them but those its root cannot give."""
        offered = ["decode", "decode_prefix", "decode_stream"]
        if self.bulk is not None:
            offered += ["decode_stream(iterate=True)", "decode_iter"]
        if self.columned is not None:
            offered.append("decode_columns")
        return (*offered, "decode_part")

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



def used_by(functions: list[Function]) -> Uses:
    """What the functions of a module use, together (`Uses`)."""
    uses = Uses()
    for function in functions:
        uses.update(function.uses)
    return uses


def module_declarations(uses: Uses, enums: list[str]) -> dict:
    """The module-level tables, helpers, checksum functions, enum dictionaries, budget places,
    functions of the runtime's limits and `_new` that the module's functions use (`uses`), which
    it declares or imports only then, in the order it declares them."""
    return {
        "tables": [(name, kind) for name, kind in TABLES.items() if name in uses.named("table")],
        "helpers": [name for name in HELPERS if name in uses.named("helper")],
        "checksums": sorted(uses.named("checksum")),
        "enums_by_value": [name for name in enums if name in uses.named("enum")],
        "enum_constants": sorted(tuple(name.split(".")) for name in uses.named("member")),
        "budget_items": [(name, getattr(limits, name)) for name in BUDGET_ITEMS if name in uses.named("budget")],
        "take_elements": "take_elements" in uses.named("limits"),
        "elements_left": "elements_left" in uses.named("limits"),
        "object_new": bool(uses.named("new")),
        "untracked": bool(uses.named("untracked")),
        "untracked_tree": bool(uses.named("untracked_tree")),
    }
