"""The C of the elements of a C companion's lists, one plan at a time (`layout.ElementPlan`): the
size and write passes of an element written (`Element`), from its tuple form or its value
object, and an element read back in either (`Reader`). A value object is an instance of the
module's own class, whose fields C reads and sets in their slots (`ValueClass`)."""

from __future__ import annotations

from ..element_plans import ElementPlan, Step
from ..python.shapes import ZigzagVarint, absent_varint, primitive_of
from ..schema import Field, TypeDef


def element_plans(plans: dict[str, ElementPlan]) -> list[ElementPlan]:
    """The plans, in name order, and those of their nested lists' elements, once a type, each
    after the types it nests: C declares a function before its use."""
    found: dict[str, ElementPlan] = {}

    def visit(plan: ElementPlan) -> None:
        for step in plan.steps:
            if step.kind == "list" and step.element is not None:
                visit(step.element)
        found.setdefault(plan.type.name, plan)

    for name in sorted(plans):
        visit(plans[name])
    return list(found.values())


class _Code:
    """The C of one element type's plan: its steps after its size prefix, when it has one ("tail")."""

    def __init__(self, plan: ElementPlan) -> None:
        self.plan = plan
        self.type: TypeDef = plan.type
        self.tail = plan.steps[0].kind == "tail"
        self.steps = plan.steps[1:] if self.tail else plan.steps
        # a value object's fields: every field of the seq, as its class declares them, in order
        self.slots: list[Field] = list(plan.type.seq)


class ValueClass(_Code):
    """Where C finds the fields of one element type's value objects: `lc_T_<type>`, the module's
    class (bound by `lc_classes`, the module's `_C_CLASSES`), and `lc_O_<type>`, the offset of
    each field's slot in an instance. `lc_new_<type>` makes an instance from its fields' values
    (references it takes), never tracked by the collector, as the compiled decoders release theirs
    (a value of such a schema holds no link back): it is allocated as the collector's objects are,
    but not put on its list, and every slot it has is set (`lc_bind` takes a class of those slots
    only), so nothing of it is left unset by not zeroing it. `index` is the class's place in
    `_C_CLASSES`, and so its pool's in `lc_pools` (`lc_pooled`)."""

    def __init__(self, plan: ElementPlan, index: int) -> None:
        super().__init__(plan)
        self.index = index

    def source(self) -> str:
        t, n = self.type.name, len(self.slots)
        names = ", ".join(f'"{f.id}"' for f in self.slots)
        texts = "".join(f"static PyObject *{_text_cache(self.type, f)}[16];  /* lc_cached_text */\n"
                        for f in self.slots if f.type.kind == "str")
        return (f"\n{texts}#define lc_T_{t} (lc_pools[{self.index}].type)  /* the bound class */\n"
                f"static Py_ssize_t lc_O_{t}[{n}];\n"
                f"static const char *const lc_N_{t}[{n}] = {{{names}}};\n"
                f"\nstatic PyObject *lc_new_{t}(PyObject **v) {{\n"
                f"    PyObject *o = lc_pooled(&lc_pools[{self.index}]);  /* never tracked */\n"
                "    if (o == NULL) return NULL;\n"
                f"    for (int i = 0; i < {n}; i++) *(PyObject **)((char *)o + lc_O_{t}[i]) = v[i];\n"
                "    return o;\n}\n")

    def maker(self) -> str:
        """`lc_make_<type>`, the module's `new_<type>(classes, *fields)`: a value object of the
        module's class made in C from its fields' values (in the order of its slots), never
        tracked by the collector, as a compiled build's decoders make one (`Decoder.return_value`):
        a call of the class would run its `__init__` as Python."""
        t, n = self.type.name, len(self.slots)
        return (f"\n/* (classes, *fields): a value object of the module's `{self.type.class_name}` (`new_{t}`). */\n"
                f"static PyObject *lc_make_{t}(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {{\n"
                f"    if (nargs != {n + 1} || !lc_classes(args[0])) {{\n"
                f"        PyErr_SetString(PyExc_TypeError, \"new_{t}: the module's classes and {n} fields expected\");\n"
                "        return NULL;\n    }\n"
                f"    PyObject *v[{n}];\n"
                f"    for (int i = 0; i < {n}; i++) {{ v[i] = args[i + 1]; Py_INCREF(v[i]); }}\n"
                f"    PyObject *o = lc_new_{t}(v);\n"
                f"    if (o == NULL) for (int i = 0; i < {n}; i++) Py_DECREF(v[i]);\n"
                "    return o;\n}\n")

    def bind(self) -> str:
        """The line of `lc_classes` that binds the class at `_C_CLASSES[index]`, and its pool."""
        t, i = self.type.name, self.index
        return (f"    if (!lc_bind(PyTuple_GET_ITEM(classes, {i}), &lc_pools[{i}], lc_O_{t}, lc_N_{t}, "
                f"{len(self.slots)})) return 0;\n")


class Element(_Code):
    """The size and write functions of one element type: `lc_body_<type>` gives the bytes of its
    fields (after its size, when its first field is one: "tail"), or -1 for a value it leaves to
    Python; `lc_write_<type>` writes the element, its size prefix included, given that body size."""

    def sized_written(self) -> str:
        t, c = self.type.name, conditions_param(self.plan)
        return (f"\nstatic Py_ssize_t lc_body_{t}(PyObject *e{c}) {{\n{self.body()}}}\n"
                f"\nstatic char *lc_write_{t}(PyObject *e, char *p, Py_ssize_t body{c}) {{\n{self.write()}}}\n")

    def source(self) -> str:
        return self.fields_source() + self.sized_written()

    def fields_source(self) -> str:
        """`lc_fields_<type>`: the element's fields into `f` (in the order of its value object's
        slots), from its tuple form (its derived fields NULL: computed) or its value object (a
        derived field None is NULL too); 0 for anything else, or a field not set."""
        t, form = self.type.name, self.plan.form
        at = {f.id: i for i, f in enumerate(self.slots)}
        lines = [f"\nstatic int lc_fields_{t}(PyObject *e, PyObject **f) {{\n",
                 f"    if (PyTuple_CheckExact(e) && PyTuple_GET_SIZE(e) == {len(form)}) {{\n"]
        lines += [f"        f[{at[f.id]}] = NULL;\n" for f in self.slots if f not in form]
        lines += [f"        f[{at[f.id]}] = PyTuple_GET_ITEM(e, {i});\n" for i, f in enumerate(form)]
        lines += ["        return 1;\n    }\n",
                  f"    if (lc_T_{t} == NULL || Py_TYPE(e) != lc_T_{t}) return 0;\n",
                  f"    for (int i = 0; i < {len(self.slots)}; i++)\n",
                  f"        if ((f[i] = *(PyObject **)((char *)e + lc_O_{t}[i])) == NULL) return 0;\n"]
        lines += [f"    if (f[{at[f.id]}] == Py_None) f[{at[f.id]}] = NULL;\n" for f in self.slots if f not in form]
        lines.append("    return 1;\n}\n")
        return "".join(lines)

    def fields(self, failed: str, derived: bool) -> str:
        """The element's fields by name (`lc_fields_<type>`), or `failed` returned; its derived
        fields too when `derived` (the size pass compares those given with what it computes)."""
        lines = [f"    PyObject *f[{len(self.slots)}];\n",
                 f"    if (!lc_fields_{self.type.name}(e, f)) return {failed};\n"]
        lines += [f"    PyObject *f_{f.id} = f[{i}];\n" for i, f in enumerate(self.slots)
                  if derived or f in self.plan.form]
        return "".join(lines)

    def body(self) -> str:
        out = [self.fields("-1", derived=True), "    Py_ssize_t size = 0;\n"]
        for step in self.steps:
            out.append(_Step(step, self.plan).size())
        if self.tail:
            size = self.plan.steps[0].field
            out.append(f"    if (size > {_max_value(size)}) return -1;\n")
            out.append(_given(size, "size"))
        out.append("    return size;\n")
        return "".join(out)

    def write(self) -> str:
        out = [self.fields("p", derived=False)]  # as the size pass found them
        if self.tail:
            out.append(f"    p = {_put(self.plan.steps[0].field, 'body')};\n")
        else:
            out.append("    (void)body;\n")
        for step in self.steps:
            out.append(_Step(step, self.plan).write())
        out.append("    return p;\n")
        return "".join(out)


class _Step:
    """One step of a plan, sized (`size`: adds to `size`, or returns -1) and written (`write`: at
    `p`); a step under a condition only where the loop's conditions (`c`, a bit each, in the
    order of the plan's `conditions`) say so, its fields None (or derived ones unset) elsewhere."""

    def __init__(self, step: Step, plan: ElementPlan) -> None:
        self.step, self.plan = step, plan
        self.f: Field = step.field
        self.v = f"f_{self.f.id}"

    def holds(self, cond) -> str:
        """The C test of one of the plan's conditions."""
        return f"(c & {1 << self.plan.conditions.index(cond)}ULL)"

    def size(self) -> str:
        code = self.unconditional_size()
        if self.step.cond is None:
            return code
        return f"    if ({self.holds(self.step.cond)}) {{\n{_indent(code)}    }} else {{\n{self.absent()}    }}\n"

    def write(self) -> str:
        code = self.unconditional_write()
        if self.step.cond is None:
            return code
        return f"    if ({self.holds(self.step.cond)}) {{\n{_indent(code)}    }}\n"

    def absent(self) -> str:
        """Where the step's condition is false: its fields None, its counts unset, or Python writes it."""
        s = self.step
        lines = [f"        if (f_{g.id} != Py_None) return -1;\n" for g in s.given]
        lines += [f"        if (f_{g.id} != NULL) return -1;\n" for g in s.counts]
        return "".join(lines)

    def unconditional_size(self) -> str:
        s, f, v = self.step, self.f, self.v
        if s.kind == "int":
            lo, hi = (-128, 127) if f.type.signed else (0, 255)
            return f"    {{ int64_t x; if (!lc_int({v}, {lo}, {hi}, &x)) return -1; size += 1; }}\n"
        if s.kind == "fixed":
            checks = "".join(f"        if (!lc_int(f_{g.id}, {_lowest(g)}, {_highest(g)}, &x)) return -1;\n"
                             for g in s.fields)
            return f"    {{\n        int64_t x;\n{checks}        size += {sum(g.type.size for g in s.fields)};\n    }}\n"
        if s.kind == "varint":
            return f"    {{ {_read(f, v, 'x')} size += {encoded_len(f, 'x')}; }}\n"
        if s.kind == "sized":
            return self.sized_size()
        return self.list_size()

    def list_size(self) -> str:
        """A list's counts (each under its condition, from its length `n`) and its elements: numbers
        in their range, elements sized by their own function, or none (a type C does not write)."""
        s, items = self.step, f"f_{self.step.target.id}"
        lines = [f"    {{\n        if (!PyList_CheckExact({items}) && !PyTuple_CheckExact({items})) return -1;\n",
                 f"        Py_ssize_t n = PySequence_Fast_GET_SIZE({items});\n"]
        for count in s.counts:
            code = (f"        if (n > {_max_count(count)}) return -1;\n    {_given(count, 'n')}"
                    f"        size += {_count_len(count, 'n')};\n")
            if (cond := s.count_condition(count)) is None:
                lines.append(code)
            else:
                lines.append(f"        if ({self.holds(cond)}) {{\n{_indent(code)}        }} "
                             f"else if (f_{count.id} != NULL) return -1;\n")
        if s.run is not None:
            ref = s.target.type
            lines.append(f"        for (Py_ssize_t i = 0; i < n; i++) {{\n            int64_t x;\n"
                         f"            if (!lc_int(PySequence_Fast_GET_ITEM({items}, i), {_lowest(s.target)}, "
                         f"{_highest(s.target)}, &x)) return -1;\n        }}\n"
                         f"        size += n * {ref.size};\n")
        elif s.element is None:
            lines.append("        if (n != 0) return -1;  /* a type C does not write: Python writes its elements */\n")
        else:
            u = s.element.type.name
            lines.append(f"        for (Py_ssize_t i = 0; i < n; i++) {{\n"
                         f"            Py_ssize_t b = lc_body_{u}(PySequence_Fast_GET_ITEM({items}, i));\n"
                         f"            if (b < 0 || b > PY_SSIZE_T_MAX / 4) return -1;\n"
                         f"            size += {_element_len(s.element, 'b')};\n        }}\n")
        lines.append("    }\n")
        return "".join(lines)

    def sized_size(self) -> str:
        s, length = self.step, self.f
        value = f"f_{s.target.id}"
        read = "lc_text" if s.target.type.kind == "str" else "lc_bytes"
        absent = ""
        if length.absent is not None:
            absent = (f"if ({value} == Py_None) {{\n    {_given(length, str(length.absent))}"
                      f"        size += {len(absent_varint(length))};\n    }} else ")
        return (f"    {absent}{{\n        Py_ssize_t n;\n"
                f"        if ({read}({value}, &n) == NULL || n > {_max_value(length)}) return -1;\n"
                f"    {_given(length, 'n')}"
                f"        size += {encoded_len(length, 'n')} + n;\n    }}\n")

    def unconditional_write(self) -> str:
        s, f, v = self.step, self.f, self.v
        if s.kind == "int":
            return f"    *p++ = (char)(PyLong_AsLongLong({v}) & 0xff);\n"
        if s.kind == "fixed":
            return "".join(f"    p = {_put_fixed(g, f'PyLong_AsLongLong(f_{g.id})')};\n" for g in s.fields)
        if s.kind == "varint":
            return f"    {{ {_read(f, v, 'x', checked=False)} p = {_put(f, 'x')}; }}\n"
        if s.kind == "sized":
            length, value = f, f"f_{s.target.id}"
            read = "lc_text" if s.target.type.kind == "str" else "lc_bytes"
            absent = ""
            if length.absent is not None:
                absent = f"if ({value} == Py_None) p = {_put(length, str(length.absent))}; else "
            return (f"    {absent}{{\n        Py_ssize_t n;\n        const char *b = {read}({value}, &n);\n"
                    f"        p = {_put(length, 'n')};\n        memcpy(p, b, (size_t)n);\n        p += n;\n    }}\n")
        return self.list_write()

    def list_write(self) -> str:
        s, items = self.step, f"f_{self.step.target.id}"
        lines = [f"    {{\n        Py_ssize_t n = PySequence_Fast_GET_SIZE({items});\n"]
        for count in s.counts:
            put = f"p = {_put_count(count, 'n')};"
            if (cond := s.count_condition(count)) is None:
                lines.append(f"        {put}\n")
            else:
                lines.append(f"        if ({self.holds(cond)}) {put}\n")
        if s.run is not None:
            lines.append(f"        for (Py_ssize_t i = 0; i < n; i++)\n"
                         f"            p = {_put_fixed(s.target, 'PyLong_AsLongLong(PySequence_Fast_GET_ITEM(' + items + ', i))')};\n")
        elif s.element is not None:
            u = s.element.type.name
            body = f"lc_body_{u}(x)" if s.element.steps[0].kind == "tail" else "0"
            lines.append(f"        for (Py_ssize_t i = 0; i < n; i++) {{\n"
                         f"            PyObject *x = PySequence_Fast_GET_ITEM({items}, i);\n"
                         f"            p = lc_write_{u}(x, p, {body});\n        }}\n")
        lines.append("    }\n")
        return "".join(lines)


def conditions_param(plan: ElementPlan) -> str:
    """The parameter of an element's functions that holds the loop's conditions, where it has some."""
    return ", uint64_t c" if plan.conditions else ""


def _indent(code: str) -> str:
    return "".join(f"    {line}\n" if line else "\n" for line in code.rstrip("\n").split("\n"))


def _lowest(f: Field) -> str:
    """The least value of a fixed-width integer field C takes."""
    if not f.type.signed:
        return "0"
    return "INT64_MIN" if f.type.size == 8 else f"{-(1 << (8 * f.type.size - 1))}LL"


def _highest(f: Field) -> str:
    """The greatest value of a fixed-width integer field C takes (an unsigned 8-byte one's past
    INT64_MAX is Python's to write)."""
    if f.type.size == 8:
        return "INT64_MAX"
    return f"{(1 << (8 * f.type.size - (1 if f.type.signed else 0))) - 1}LL"


def writes_fixed(plan: ElementPlan) -> bool:
    """Whether the plan's code writes a fixed-width integer (`_put_fixed`: the companion then
    defines `lc_put_fixed`)."""
    return any(step.kind == "fixed" or step.run is not None
               or (step.kind == "list" and any(primitive_of(count.type) is None for count in step.counts))
               for step in plan.steps)


def _put_fixed(f: Field, value: str) -> str:
    """Write the fixed-width integer `value` of field `f` (its width and byte order) at `p`."""
    return f"lc_put_fixed(p, (uint64_t)({value}), {f.type.size}, {1 if f.type.endian == 'le' else 0})"


def _max_count(f: Field) -> str:
    """The largest length a count field holds: its type's, less a varint's bias."""
    if primitive_of(f.type) is None:
        return _highest(f)
    bias = primitive_of(f.type).bias
    return f"({_max_value(f)} - {bias})" if bias else _max_value(f)


def _count_len(f: Field, n: str) -> str:
    """The bytes of the count `f` of a list of `n` elements."""
    prim = primitive_of(f.type)
    if prim is None:
        return str(f.type.size)
    return encoded_len(f, f"{n} + {prim.bias}" if prim.bias else n)


def _put_count(f: Field, n: str) -> str:
    prim = primitive_of(f.type)
    if prim is None:
        return _put_fixed(f, n)
    return _put(f, f"{n} + {prim.bias}" if prim.bias else n)


class Reader(_Code):
    """`lc_read_<type>`: one element from b[*pos:end] in its tuple form (or, `lc_value_<type>`, as
    a value object, every field set, derived ones too, and its lists lists of value objects), the
    position moved past it and the elements of its lists added to `*taken` (at most `budget` in
    all); NULL, nothing raised, for anything Python must read: a cut-off or non-canonical varint,
    a negative length or count, text that is not UTF-8, a size that disagrees, the budget
    exceeded. What it makes (the form and a list field's tuples, `ModuleEmitter.tuple_items`,
    which hold numbers, bytes, text and such tuples only; the value objects and their lists,
    whose schema's values hold no link back) is released from the collector, as CPython's
    collector does with such a tuple on its first pass."""

    def __init__(self, plan: ElementPlan, values: bool) -> None:
        super().__init__(plan)
        self.values = values
        self.fields = self.slots if values else plan.form

    @property
    def name(self) -> str:
        return f"lc_{'value' if self.values else 'read'}_{self.type.name}"

    def source(self) -> str:
        n = len(self.fields)
        lines = [f"\nstatic PyObject *{self.name}(const unsigned char *b, Py_ssize_t *pos, Py_ssize_t end, "
                 "Py_ssize_t budget, Py_ssize_t *taken) {\n",
                 f"    PyObject *v[{n}] = {{NULL}};\n", "    PyObject *out;\n"]
        index = {f.id: i for i, f in enumerate(self.fields)}
        if self.tail:
            size = self.plan.steps[0].field
            lines.append(f"    uint64_t size;\n    if (!{_get(size, 'size')}) return NULL;\n")
            lines.append("    Py_ssize_t start = *pos;\n")
            lines.append(self.kept(size, index, "lc_unzigzag(size)" if _zigzag(size) else "size", "    "))
        for step in self.steps:
            lines.append(self.read(step, index))
        if self.tail:
            check = "(uint64_t)(*pos - start) != size" if not _zigzag(size) else "*pos - start != lc_unzigzag(size)"
            lines.append(f"    if ({check}) goto fail;\n")
        if self.values:
            lines.append(f"    if ((out = lc_new_{self.type.name}(v)) == NULL) goto fail;\n")
        else:
            lines.append(f"    out = PyTuple_New({n});\n    if (out == NULL) goto fail;\n")
            lines.append(f"    for (int i = 0; i < {n}; i++) PyTuple_SET_ITEM(out, i, v[i]);\n")
            lines.append("    PyObject_GC_UnTrack(out);\n")
        lines.append(f"    return out;\nfail:\n    for (int i = 0; i < {n}; i++) Py_XDECREF(v[i]);\n"
                     "    return NULL;\n}\n")
        return "".join(lines)

    def kept(self, f: Field, index: dict[str, int], value: str, indent: str = "        ") -> str:
        """A derived field's value set, where the element keeps it (a value object does)."""
        if f.id not in index:
            return ""
        return f"{indent}if ((v[{index[f.id]}] = PyLong_FromLongLong((int64_t)({value}))) == NULL) goto fail;\n"

    def read(self, step: Step, index: dict[str, int]) -> str:
        f = step.field
        if step.kind == "int":
            byte = "(signed char)b[*pos]" if f.type.signed else "b[*pos]"
            return (f"    if (*pos >= end) goto fail;\n"
                    f"    v[{index[f.id]}] = PyLong_FromLong({byte});\n    *pos += 1;\n"
                    f"    if (v[{index[f.id]}] == NULL) goto fail;\n")
        if step.kind == "varint":
            make = "PyLong_FromLongLong(lc_unzigzag(x))" if _zigzag(f) else "PyLong_FromUnsignedLongLong(x)"
            return (f"    {{\n        uint64_t x;\n        if (!{_get(f, 'x')}) goto fail;\n"
                    f"        if ((v[{index[f.id]}] = {make}) == NULL) goto fail;\n    }}\n")
        number = "lc_unzigzag(x)" if _zigzag(f) else "(int64_t)x"
        if step.kind == "sized":
            target = step.target
            make = (f"lc_cached_text((const char *)b + *pos, n, {_text_cache(self.type, target)})"
                    if target.type.kind == "str" else "PyBytes_FromStringAndSize((const char *)b + *pos, n)")
            absent = (f"        if (n < 0) {{ Py_INCREF(Py_None); v[{index[target.id]}] = Py_None; }} else {{\n"
                      if f.absent is not None else "        if (n < 0) goto fail;\n        {\n")
            return (f"    {{\n        uint64_t x;\n        if (!{_get(f, 'x')}) goto fail;\n"
                    f"        int64_t n = {number};\n{self.kept(f, index, 'n')}{absent}"
                    f"            if (n > end - *pos) goto fail;\n"
                    f"            if ((v[{index[target.id]}] = {make}) == NULL) goto fail;\n"
                    f"            *pos += n;\n        }}\n    }}\n")
        items = index[step.target.id]
        made, put = ("PyList_New(n)", "PyList_SET_ITEM") if self.values else ("PyTuple_New(n)", "PyTuple_SET_ITEM")
        return (f"    {{\n        uint64_t x;\n        if (!{_get(f, 'x')}) goto fail;\n"
                f"        int64_t n = {number};\n"
                "        if (n < 0 || n > end - *pos || n > budget - *taken) goto fail;\n"
                f"        *taken += n;\n{self.kept(f, index, 'n')}"
                f"        if ((v[{items}] = {made}) == NULL) goto fail;\n"
                "        for (Py_ssize_t i = 0; i < n; i++) {\n"
                f"            PyObject *e = {Reader(step.element, self.values).name}(b, pos, end, budget, taken);\n"
                "            if (e == NULL) goto fail;\n"
                f"            {put}(v[{items}], i, e);\n        }}\n"
                f"        PyObject_GC_UnTrack(v[{items}]);\n    }}\n")


def _text_cache(t: TypeDef, f: Field) -> str:
    """The texts of field `f` of `t` read last (`lc_cached_text`)."""
    return f"lc_C_{t.name}_{f.id}"


def _given(f: Field, computed: str) -> str:
    """A derived field's check: the value a value object gives for it (`f_<id>`, NULL when
    none: computed) is an exact int equal to `computed`, or -1 is returned (Python's encoder
    compares them, and says what differs, or keeps one that may: a negative length of a null)."""
    return (f"    if (f_{f.id} != NULL) {{ int64_t g; if (!lc_int(f_{f.id}, INT64_MIN, INT64_MAX, &g) "
            f"|| g != (int64_t)({computed})) return -1; }}\n")


# ------------------------------------------------------------------ varints

def _zigzag(f: Field) -> bool:
    return type(primitive_of(f.type)) is ZigzagVarint  # an unsigned varint is its subclass


def _bits(f: Field) -> int:
    return primitive_of(f.type).bits


def _max_value(f: Field) -> str:
    """The largest value the varint field holds (lengths and counts are never negative)."""
    bits = _bits(f) - 1 if _zigzag(f) else _bits(f)
    return f"{(1 << bits) - 1}LL" if bits < 64 else "UINT64_MAX"


def _read(f: Field, v: str, x: str, checked: bool = True) -> str:
    """The varint field's value from `v` into `x`; when `checked`, -1 returned for a value that
    is not an exact int in its range."""
    bits = _bits(f)
    if _zigzag(f):
        if not checked:
            return f"int64_t {x} = (int64_t)PyLong_AsLongLong({v});"
        lo, hi = ("INT64_MIN", "INT64_MAX") if bits == 64 else (f"{-(1 << (bits - 1))}LL", f"{(1 << (bits - 1)) - 1}LL")
        return f"int64_t {x}; if (!lc_int({v}, {lo}, {hi}, &{x})) return -1;"
    bias = primitive_of(f.type).bias
    if bias:  # the varint holds the value plus its bias: `x` is that
        if not checked:
            return f"uint64_t {x} = (uint64_t)(PyLong_AsLongLong({v}) + {bias});"
        return (f"int64_t {x}_; if (!lc_int({v}, {-bias}, {(1 << min(bits, 62)) - 1 - bias}LL, &{x}_)) return -1; "
                f"uint64_t {x} = (uint64_t)({x}_ + {bias});")
    if not checked:
        return f"uint64_t {x} = (uint64_t)PyLong_AsUnsignedLongLong({v});"
    hi = "UINT64_MAX" if bits == 64 else f"{(1 << bits) - 1}ULL"
    return f"uint64_t {x}; if (!lc_uint({v}, {hi}, &{x})) return -1;"


def _get(f: Field, x: str) -> str:
    """The call reading the varint field's raw value into `x` (a C expression, 0 when Python must)."""
    prim = primitive_of(f.type)
    return f"lc_get_uvarint(b, pos, end, {prim.max_bytes}, {prim.bits}, &{x})"


def _encoded(f: Field, x: str) -> str:
    return f"lc_zigzag((int64_t)({x}))" if _zigzag(f) else f"(uint64_t)({x})"


def encoded_len(f: Field, x: str) -> str:
    return f"lc_uvarint_len({_encoded(f, x)})"


def _put(f: Field, x: str) -> str:
    return f"lc_put_uvarint(p, {_encoded(f, x)})"


def _element_len(plan: ElementPlan, b: str) -> str:
    """An element's bytes from its body size `b`: its size prefix added, for a "tail"."""
    if plan.steps[0].kind == "tail":
        return f"{encoded_len(plan.steps[0].field, b)} + {b}"
    return b
