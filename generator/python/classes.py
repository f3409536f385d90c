"""The value classes of a generated module: each type's dataclass (`class.py.j2`), its
attributes and their annotations, defaults and docstrings, and the tuple forms' types. A part of
`ModuleEmitter`, which holds the schema, its model and the build these read."""

from __future__ import annotations

import re
from pathlib import Path

import jinja2

from .. import expr as E
from ..schema import Field, TypeDef
from ..walk import fields_of, schema_closure, type_expressions
from .code import docstring, factory_call
from .iterate import viewed
from .translate import ValueScope
from .typecode import carries_bytes, own_root
from .views import views_source

TEMPLATES = jinja2.Environment(
    loader=jinja2.FileSystemLoader(Path(__file__).parent / "templates"),
    undefined=jinja2.StrictUndefined, keep_trailing_newline=True, trim_blocks=True, lstrip_blocks=True,
)
TEMPLATES.filters["pyrepr"] = repr


class ValueClasses:
    """The declarations of a module's value classes (mixed into `ModuleEmitter`: `schema`,
    `model`, `build`, `nav`, `parents`, `io_kept` and its enum imports are the emitter's)."""

    def class_source(self, t: TypeDef) -> str:
        form = self.tuple_form(t)
        said = f"\n\nTuple form, in a list: ({', '.join(f.id for f in form)}{',' if len(form) == 1 else ''})." if form else ""
        reasons = self.model.plan(t).not_canonical
        wires = [f"_wire_{fid}" for fid in self.model.wire_kept(t)]  # the bytes of processed fields as read
        if reasons:
            said += "\n\nEncoding may give other bytes than those decoded: " + "; ".join(reasons) + "."
        return TEMPLATES.get_template("class.py.j2").render(
            t=t, doc=docstring(t.doc + (f"\n\nSee {t.doc_ref}" if t.doc_ref else "") + said, 1),
            # a user's schema: an instance not computed yet is computed when read, and a field not
            # read yet (of a value being decoded) is an error
            lazy=self.nav is not None,
            to_string=self.to_string(t),
            views=views_source(self, self.model.keyed_views(t)),
            view_names=[v.id for v in self.model.keyed_views(t)],
            # no __dict__ (15 % less memory a decoded Kafka record, pure Python), but where a user's
            # schema's values get carried bytes and computed instances set on them after they are made
            slots=self.nav is None,
            # the compiled build's decoder makes a blank value through `__init__` (mypyc's native
            # classes have no other way), whose fields it then sets (`navigation_start`)
            blank_init=self.build.compiled and self.nav is not None,
            fields=self.attribute_decls(t),
            # a compiled build's native class has no class attribute to fall back on: its
            # `__init__` sets the attributes a decoder reads before it may have set them
            set_none=[d["id"] for d in self.kaitai_decls(t) if d in (_LAZY_DECL, _CARRIED_DECL)] + wires,
            # a decoder sets them after it made the value; one made otherwise has none
            wires=wires,
            # a compiled build's class computes its lazy instances itself, not through the runtime
            computes=self.build.compiled and self.nav is not None and bool(t.instances),
        )

    def attribute_decls(self, t: TypeDef) -> list[dict]:
        """The declarations of the attributes of `t`'s value class: its fields, instances, params
        and a user's schema's links."""
        seq = [self.field_decl(t, f) for f in t.seq]
        if self.nav is not None:  # no class attribute: a field a decoder has not set yet is not read (`_rt.lazy`)
            seq = [{**d, "default": ""} for d in seq]
        decls = (seq + [self.instance_decl(i) for i in t.instances]
                 + [self.param_decl(p) for p in self.exposed_params(t)]
                 + ([_IO_DECL] if self.keeps_io(t) else []) + self.kaitai_decls(t)
                 + [_wire_decl(fid) for fid in self.model.wire_kept(t)])
        named = builtin_calls(decls)
        uses_builtins = named != decls
        if self.untyped_attributes():
            named = [{**d, "annotation": "Any", "param": re.sub(r":[^=]*=", ": Any =", d["param"], count=1)}
                     for d in named]
        else:
            qualified = qualified_builtins(named)
            uses_builtins |= qualified != named
            named = qualified
        if uses_builtins:
            self.builtins_named.add(t.name)  # the module imports `builtins` for them
        return named

    def keeps_io(self, t: TypeDef) -> bool:
        """Whether a value of `t` keeps the stream it was read from (Kaitai's `_io`, made for each
        value it is set on: it costs), as an expression reads it (`stream_keepers`)."""
        return self.io_kept is None or t.name in self.io_kept

    def stream_keepers(self) -> set[str] | None:
        """The types whose values keep their stream, by name, as the expressions of this schema
        and of those importing it read one: `_root._io` a root's (ttf's tables, read at offsets of
        the file), `_parent._io` that of the one type that holds the reader; any other (an
        importer's `_parent.strings._io` in pcf_font, `_parent._parent._io`, a holder not known,
        `_io` in `to-string`): every type's (None)."""
        schema = self.schema
        own = list(schema.all_types())
        # `parent:` another value: the holders (`parents`) do not say which type it is
        parent_given = any(f.parent not in (None, E.Name("_parent"), E.Bool(False)) for t in own for f in fields_of(t))
        if any(n == E.Name("_io") for t in own if t.to_string is not None for n in E.walk(t.to_string)):
            return None
        kept: set[str] = set()
        for s in [schema, *(i for i in schema_closure(schema, ("importers",)) if i is not schema)]:
            for t in s.all_types():
                for n in (n for e in type_expressions(t) for n in E.walk(e)):
                    if not (isinstance(n, E.Attr) and n.name == "_io") or (s is not schema and n.obj in (
                            E.Name("_root"), E.Name("_parent"))):  # an importer's own values
                        continue
                    if n.obj == E.Name("_root"):
                        kept.update(u.name for u in own if own_root(u))
                        continue
                    holder = self.parents.get(t.name) if n.obj == E.Name("_parent") and not parent_given else None
                    if holder is None:
                        return None
                    kept.add(holder.name)
        return kept

    def link_readers(self) -> bool:
        """Whether a user's schema's values keep Kaitai's `_parent` and `_root`: only where an
        expression reads a link off a value (`_parent._parent`, `_root._parent`, a `to-string`
        naming either), in this schema or in any it is compiled with (they hold each other's
        values: its imports and importers, and theirs). A decoder holds its own parent and root while it reads, and so do the lazy
        instances it leaves: kept on the values, the links would make every structure a cycle
        with its children, which only the cyclic collector frees (a fifth of a compiled decode
        of au's three files)."""
        for s in schema_closure(self.schema, ("imports", "importers")):
            for t in s.all_types():
                if t.to_string is not None and any(
                        n in (E.Name("_parent"), E.Name("_root")) for n in E.walk(t.to_string)):
                    return True
                if any(isinstance(n, E.Attr) and n.name in ("_parent", "_root")
                       for e in type_expressions(t) for n in E.walk(e)):
                    return True
        return False

    def untyped_attributes(self) -> bool:
        """Whether the value classes' attributes are Any, in the compiled build of a user's schema:
        what each holds is the input's to say (an instance of another kind than inferred, null
        where a field is absent, a switch's case), as in Kaitai's Python parsers, which a native
        class's typed attribute would check and refuse where pure Python takes it."""
        return self.build.compiled and self.nav is not None

    def kaitai_decls(self, t: TypeDef) -> list[dict]:
        """What a user's schema's decoder sets on a value of `t` besides its fields, declared: its
        links, and where it has them, what computes its lazy instances and the bytes it carries."""
        if self.nav is None:
            return []
        return _LINK_DECLS + ([_LAZY_DECL, _AT_DECL] if t.instances else []) + ([_CARRIED_DECL] if carries_bytes(t) else [])

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

    def to_string(self, t: TypeDef) -> str | None:
        """The code of a type's `to-string`, read off the value (`__str__`); None without one."""
        if t.to_string is None:
            return None
        return ValueScope(t, self.enum_class, self.parents.get(t.name), self.nav).translate(t.to_string)

    def param_decl(self, p) -> dict:
        """A param as an attribute: set by the decoder, not in JSON, ignored by the encoder and
        by equality (the holder passes it again)."""
        meta = {"kind": "any", "param": True}
        return {"id": p.id, "annotation": "Any", "default": "default=None, compare=False", "meta": meta,
                "param": f"{p.id}: Any = None", "init": p.id,
                "doc": docstring(p.doc + " A param, given by the holder.", 1)}

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
                    "meta": meta, "param": "", "init": "", "doc": docstring(inst.doc + " Computed when first read.", 1)}
        return {"id": inst.id, "annotation": annotation, "default": "default=None" + ("" if inst.input else ", compare=False"),
                "meta": meta, "param": f"{inst.id}: {annotation} = None", "init": inst.id,
                "doc": docstring(inst.doc + " Computed on decode.", 1)}

    def field_decl(self, t: TypeDef, f: Field) -> dict:
        meta = self.field_meta(f)
        annotation, default = self.annotation(f, t), self.default(f)
        factory = default.startswith("default_factory=")
        return {"id": f.id, "annotation": annotation, "default": default, "meta": meta,
                # the explicit __init__ (compiled natively by mypyc): a factory default is None in the signature
                "param": f"{f.id}: {annotation}{' | None' if factory else ''} = {'None' if factory else default[8:]}",
                "init": self.init_value(f, f.id),
                "doc": docstring(f.doc + (" Derived: computed on encode when left None." if f.derived else ""), 1)}

    def init_value(self, f: Field, given: str) -> str:
        """What `__init__` sets the field `f` to when given `given`: a field whose default is made
        by a factory (an empty list) gets a new one for None."""
        default = self.default(f)
        if default.startswith("default_factory="):
            return f"{given} if {given} is not None else {factory_call(default)}"
        return given

    def annotation(self, f: Field, t: TypeDef | None = None) -> str:
        """The type of a value-model field of `t`: derived fields may be None until encoded; a
        view of a lazy read is a Sequence (`viewed`)."""
        local = self.local_type(f)
        if t is not None and viewed(self, t, f):
            local = "Sequence" + local[len("list"):]
        return f"{local} | None" if f.derived and not local.endswith(" | None") else local

    def local_type(self, f: Field) -> str:
        """The type of a field's local variable in a decoder, where derived fields are always set:
        a list whose elements may come in their tuple form holds either (`tuple_alias`)."""
        m = self.field_meta(f)
        base = self._annotation(m)
        if m.get("list"):
            alias = self.tuple_alias(self.listed_type(f))
            base = f"list[{base} | {alias}]" if alias else f"list[{base}]"
        if f.if_expr is not None or m["kind"] == "switch":
            base = f"{base} | None"
        return base

    @staticmethod
    def listed_type(f: Field) -> TypeDef | None:
        """The type of the elements of a list field (repeated, or of a list type of its own)."""
        if f.type.kind != "user":
            return None
        if f.repeat:
            return f.type.user
        inner = f.type.user.seq[0] if f.type.user.unwrap else None
        return inner.type.user if inner is not None and inner.repeat and inner.type.kind == "user" else None

    def tuple_alias(self, t: TypeDef | None) -> str | None:
        """The name of the type of `t`'s tuple form (`<Class>Tuple`, `tuple_aliases`), where a
        decode may give its elements as tuples (`tuple_decoded`): a type of this schema."""
        if t is None or t.schema is not self.schema or not self.tuple_decoded(t):
            return None
        return f"{t.class_name}Tuple"

    def tuple_aliases(self) -> list[tuple[str, str]]:
        """Each tuple form's type, typed item by item, as `(name, type)`: a list inside one is a
        tuple (of tuple forms, where its elements have one); those another names come first."""
        done: dict[str, str] = {}
        declaring: set[str] = set()  # a form that holds itself, inside itself: a runtime alias cannot name it

        def declare(t: TypeDef) -> None:
            name = self.tuple_alias(t)
            if name is None or name in done or name in declaring:
                return
            declaring.add(name)
            items = []
            for f in self.tuple_form(t):
                if self.field_meta(f).get("list"):
                    inner = self.listed_type(f)
                    if inner is not None:
                        declare(inner)
                    element = self.tuple_alias(inner) or self._annotation(self.field_meta(f))
                    items.append(f"tuple[{'Any' if element in declaring else element}, ...]")
                else:
                    items.append(self.annotation(f))
            done[name] = f"tuple[{', '.join(items)}]"
            declaring.discard(name)

        for t in self.types:
            declare(t)
        return list(done.items())

    def switch_untyped(self, f: Field) -> bool:
        """Whether the locals of a field's value are untyped (Any), in a user's schema: a switch,
        whose case follows from the input, and whose expressions and encoder assume the case they
        need (an offset read as u4 or u8, or as bytes where no case matched), as Kaitai's dynamic
        targets do, which its union would not type-check; and a structure, or a list of them, whose
        instances are computed when first read (`__getattr__`), which a compiled build's native
        class answers only to a read of the value seen as anything."""
        return self.nav is not None and self.field_meta(f)["kind"] in ("switch", "user")

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
        if f.contents is not None:  # the one value it may hold, which the encoder checks
            return f"default={f.contents!r}"
        if f.valid and "eq" in f.valid and isinstance(f.valid["eq"], E.Num):
            return f"default={f.valid['eq'].value!r}"
        kind = m["kind"]
        if kind == "user":
            return f"default_factory=lambda: {m['type']}()"
        if kind == "enum" and not f.enum.members:
            return "default=0"  # (an enum without members: its number, as a value no member names)
        if kind == "enum":
            first = min(f.enum.members)
            return f"default={m['enum']}.{f.enum.members[first]}"
        return "default=" + {"int": "0", "bool": "False", "float": "0.0", "bytes": "b''", "str": "''"}[kind]


# A user's schema whose expressions read the values' streams: every value keeps its `_io`.
_IO_DECL = {"id": "_io", "annotation": "Any", "default": "default=None, compare=False, repr=False",
            "meta": {"kind": "any", "param": True}, "param": "_io: Any = None", "init": "_io",
            "doc": docstring("The stream the value was read from (Kaitai's `_io`).", 1)}

# A user's schema: computes the instances of a value not computed yet (`_rt.lazy`).
_LAZY_DECL = {"id": "_lazy", "annotation": "Any", "default": "default=None, init=False, compare=False, repr=False",
              "meta": {"kind": "any", "param": True}, "param": "", "init": "",
              "doc": docstring("Computes an instance not computed yet, by name, when first read.", 1)}

# A user's schema: what its lazy instances read besides the value (`Decoder.lazy_function`).
_AT_DECL = {"id": "_at", "annotation": "Any", "default": "default=None, init=False, compare=False, repr=False",
            "meta": {"kind": "any", "param": True}, "param": "", "init": "",
            "doc": docstring("The stream, budget and links the lazy instances read, as they were when the value was read.", 1)}

# A user's schema: the bytes of sized fields that are not their values, which encoding writes back.
_CARRIED_DECL = {"id": "_carried", "annotation": "Any", "default": "default=None, init=False, compare=False, repr=False",
                 "meta": {"kind": "any", "param": True}, "param": "", "init": "",
                 "doc": docstring("The bytes read past the values of sized fields, by field: encoding gives them back.", 1)}

def _wire_decl(fid: str) -> dict:
    """The bytes of a processed field as read, which a decoded value keeps (`TypePlan.keeps_raw`)."""
    return {"id": f"_wire_{fid}", "annotation": "Any", "default": "default=None, init=False, compare=False, repr=False",
            "meta": {"kind": "any", "param": True}, "param": "", "init": "",
            "doc": docstring(f"The bytes of `{fid}` as read, before its processor: encoding writes them back while "
                             "they still give its content.", 1)}


#: Builtin names a value class's annotations use, which a field of the same name would shadow there.
_BUILTIN_TYPES = ("bytes", "int", "str", "float", "bool", "list", "tuple")


def qualified_builtins(decls: list[dict]) -> list[dict]:
    """The declarations of a class's attributes, with the builtin types their annotations name
    written `_builtins.<name>` where an attribute of the class has that name (Kaitai's gif has a
    field `bytes`: inside its class body, `bytes` is that field, not the type)."""
    shadowed = {d["id"] for d in decls} & set(_BUILTIN_TYPES)
    if not shadowed:
        return decls
    pattern = re.compile(r"(?<![\w.])(" + "|".join(sorted(shadowed)) + r")\b")

    def qualify(text: str) -> str:
        return pattern.sub(r"_builtins.\1", text)

    out = []
    for d in decls:
        name, colon, rest = d["param"].partition(": ")
        out.append({**d, "annotation": qualify(d["annotation"]),
                    "param": name + colon + qualify(rest) if colon else d["param"]})
    return out


def builtin_calls(decls: list[dict]) -> list[dict]:
    """The declarations, with a call of a builtin that `__init__`'s parameter of the same name
    shadows (`list()`, the default of dex's field `list`) written `_builtins.<name>()`."""
    shadowed = {d["id"] for d in decls} & set(_BUILTIN_TYPES)
    if not shadowed:
        return decls
    call = re.compile(r"(?<![\w.])(" + "|".join(sorted(shadowed)) + r")\(")
    return [{**d, "init": call.sub(r"_builtins.\1(", d["init"])} for d in decls]


# A user's schema: a value knows its holder and its root, set when it is made, as Kaitai's objects
# do, where an expression reads them off a value (`link_readers`); not part of the value (no JSON,
# no equality, no encoding).
_LINK_DECLS = [
    {"id": name, "annotation": "Any", "default": "default=None, init=False, compare=False, repr=False",
     "meta": {"kind": "any", "param": True}, "param": "", "init": "", "doc": docstring(doc, 1)}
    for name, doc in (("_parent", "The structure that holds this one (Kaitai's `_parent`), None for the root; kept "
                                  "only where the schema reads it off a value, else None."),
                      ("_root", "The root of the schema this value's type belongs to (Kaitai's `_root`); kept "
                                "only where the schema reads it off a value, else None."))
]
