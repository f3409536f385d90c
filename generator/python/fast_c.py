"""C companions: the fast element loops of a codec module (`fast_encode`), in C.

A list whose elements the Python encoder writes out (`FastEncoders.loop`, its `ElementPlan`) gets a C
function of the same loop, which a compiled build calls first: it takes the list of tuple forms
and returns the list's bytes, written into one buffer (a size pass, then a write pass), or None
for anything it does not take. It takes less than the Python fast loop: tuples only (a value
object is left to Python), exact `int`, `bytes`, `str` (UTF-8) and `list`/`tuple`, in the ranges
of the checked encoder. None hands the whole list to the Python loops, whose checked encoder says
what is wrong, if anything; so the C function never raises for a value and never accepts one the
checked encoder refuses, and what it accepts it encodes to the same bytes.

The root's bulk list of such elements (`CReaders.fast_reader`) also gets readers, the same
plan read back: its elements in their tuple form (`decode_<type>_<field>`), or appended to the
lists of `decode_columns` (`columns_<type>_<field>`), or None for any bytes the Python decoder
must read (it names the error). `tests/generator/test_fast_c.py` holds both ways to the Python
code.

The module's Python source names its companion by the SHA-256 of this C source (`_FAST`);
`logcodec accelerate` compiles it with the C compiler mypyc uses (`runtime.native`), and only a
build of exactly that source is loaded. The file is `generated/<family>/<format>_fast.c`.
"""

from __future__ import annotations

from logcodec.runtime import native

from ..layout import ElementPlan, Step
from ..schema import Field, TypeDef
from .shapes import ZigzagVarint, absent_varint, primitive_of

_PRELUDE = r"""/* {header} */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

/* The build names the module (its file name holds the hash of this source). */
#ifndef LC_MODULE_NAME
#define LC_MODULE_NAME "{module}"
#define LC_MODULE_INIT PyInit_{module}
#endif

static inline int lc_uvarint_len(uint64_t x) {{
    int n = 1;
    while (x >= 0x80) {{ x >>= 7; n++; }}
    return n;
}}

static inline char *lc_put_uvarint(char *p, uint64_t x) {{
    while (x >= 0x80) {{ *p++ = (char)(x | 0x80); x >>= 7; }}
    *p++ = (char)x;
    return p;
}}

static inline uint64_t lc_zigzag(int64_t v) {{ return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63); }}

/* An exact int in [lo, hi]; 0 (nothing raised) for anything else. */
static inline int lc_int(PyObject *o, int64_t lo, int64_t hi, int64_t *out) {{
    if (!PyLong_CheckExact(o)) return 0;
    int overflow;
    long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (overflow || (v == -1 && PyErr_Occurred())) {{ PyErr_Clear(); return 0; }}
    if (v < lo || v > hi) return 0;
    *out = (int64_t)v;
    return 1;
}}

/* An exact non-negative int up to hi. */
static inline int lc_uint(PyObject *o, uint64_t hi, uint64_t *out) {{
    if (!PyLong_CheckExact(o)) return 0;
    unsigned long long v = PyLong_AsUnsignedLongLong(o);
    if (v == (unsigned long long)-1 && PyErr_Occurred()) {{ PyErr_Clear(); return 0; }}
    if (v > hi) return 0;
    *out = (uint64_t)v;
    return 1;
}}

/* The canonical unsigned varint of at most `max` bytes and `bits` bits at b[*pos:end], the
   position moved past it; 0 for anything else (cut short, overlong, wider), which Python reads. */
static inline int lc_get_uvarint(const unsigned char *b, Py_ssize_t *pos, Py_ssize_t end, int max, int bits,
                                 uint64_t *out) {{
    uint64_t x = 0;
    for (int i = 0; i < max && *pos + i < end; i++) {{
        unsigned char c = b[*pos + i];
        if (i == 9 && (c & 0x7e)) return 0;  /* past 64 bits */
        x |= (uint64_t)(c & 0x7f) << (7 * i);
        if (c < 0x80) {{
            if ((c == 0 && i > 0) || (bits < 64 && (x >> bits))) return 0;
            *pos += i + 1;
            *out = x;
            return 1;
        }}
    }}
    return 0;
}}

static inline int64_t lc_unzigzag(uint64_t x) {{ return (int64_t)(x >> 1) ^ -(int64_t)(x & 1); }}

/* A reader's arguments (buf, pos, end, count, budget, ...): 1 when they are what the generated
   Python passes and hold; 0, nothing raised, for anything else (None for Python to read). */
static inline int lc_reader_args(PyObject *const *args, Py_ssize_t nargs, Py_ssize_t want, const unsigned char **b,
                                 Py_ssize_t *pos, Py_ssize_t *end, Py_ssize_t *count, Py_ssize_t *budget) {{
    if (nargs != want || !PyBytes_CheckExact(args[0])) return 0;
    *pos = PyLong_AsSsize_t(args[1]);
    *end = PyLong_AsSsize_t(args[2]);
    *count = PyLong_AsSsize_t(args[3]);
    *budget = PyLong_AsSsize_t(args[4]);
    if (PyErr_Occurred()) {{ PyErr_Clear(); return 0; }}
    if (*pos < 0 || *end < *pos || *end > PyBytes_GET_SIZE(args[0]) || *count < 0 || *count > *end - *pos) return 0;
    *b = (const unsigned char *)PyBytes_AS_STRING(args[0]);
    return 1;
}}

/* The bytes of an exact bytes or str (UTF-8) value; NULL (nothing raised) for anything else. */
static inline const char *lc_bytes(PyObject *o, Py_ssize_t *n) {{
    if (PyBytes_CheckExact(o)) {{ *n = PyBytes_GET_SIZE(o); return PyBytes_AS_STRING(o); }}
    return NULL;
}}

static inline const char *lc_text(PyObject *o, Py_ssize_t *n) {{
    if (!PyUnicode_CheckExact(o)) return NULL;
    const char *s = PyUnicode_AsUTF8AndSize(o, n);  /* kept in the str: the write pass finds it */
    if (s == NULL) PyErr_Clear();  /* a lone surrogate: the checked encoder names it */
    return s;
}}
"""

_ENTRY = r"""
static PyObject *lc_{name}(PyObject *self, PyObject *items) {{
    if (!PyList_CheckExact(items) && !PyTuple_CheckExact(items)) Py_RETURN_NONE;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(items);
    PyObject **elems = PySequence_Fast_ITEMS(items);
    Py_ssize_t *sizes = PyMem_Malloc(sizeof(Py_ssize_t) * (n ? n : 1));
    if (sizes == NULL) return PyErr_NoMemory();
    Py_ssize_t total = 0;
    for (Py_ssize_t i = 0; i < n; i++) {{
        Py_ssize_t s = lc_body_{type}(elems[i]);
        if (s < 0 || s > PY_SSIZE_T_MAX / 2 - total) {{ PyMem_Free(sizes); Py_RETURN_NONE; }}
        sizes[i] = s;
        total += {prefix_len};
    }}
    PyObject *out = PyBytes_FromStringAndSize(NULL, total);
    if (out == NULL) {{ PyMem_Free(sizes); return NULL; }}
    char *p = PyBytes_AS_STRING(out);
    /* Nothing between the passes runs Python code, so the list and its values are as sized. */
    for (Py_ssize_t i = 0; i < n; i++) p = lc_write_{type}(elems[i], p, sizes[i]);
    PyMem_Free(sizes);
    if (p != PyBytes_AS_STRING(out) + total) {{
        Py_DECREF(out);
        PyErr_SetString(PyExc_SystemError, "{name}: the write pass wrote another size than the size pass");
        return NULL;
    }}
    return out;
}}
"""

_DECODE_ENTRY = r"""
/* (the list of `count` elements from buf[pos:end] in their tuple form, the position after
   them, the elements their own lists took from `budget`), or None where Python must read them. */
static PyObject *lc_{name}(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {{
    const unsigned char *b;
    Py_ssize_t pos, end, count, budget;
    if (!lc_reader_args(args, nargs, 5, &b, &pos, &end, &count, &budget)) Py_RETURN_NONE;
    PyObject *items = PyList_New(count);
    if (items == NULL) return NULL;
    Py_ssize_t taken = 0;
    for (Py_ssize_t i = 0; i < count; i++) {{
        PyObject *x = lc_read_{type}(b, &pos, end, budget, &taken);
        if (x == NULL) {{
            Py_DECREF(items);  /* the elements not set are NULL, which a list's release skips */
            if (PyErr_Occurred() && PyErr_ExceptionMatches(PyExc_MemoryError)) return NULL;
            PyErr_Clear();  /* text that is not UTF-8: Python's decoder names it */
            Py_RETURN_NONE;
        }}
        PyList_SET_ITEM(items, i, x);
    }}
    return Py_BuildValue("(Nnn)", items, pos, taken);
}}
"""

_COLUMNS_ENTRY = r"""
/* The same elements, each field appended to its list in `cols` (one list per field of the tuple
   form, as `decode_columns` has them): (the position after them, the elements their own lists
   took), or None, the lists as they were, where Python must read them. */
static PyObject *lc_{name}(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {{
    const unsigned char *b;
    Py_ssize_t pos, end, count, budget;
    if (!lc_reader_args(args, nargs, 6, &b, &pos, &end, &count, &budget) || !PyList_CheckExact(args[5])
            || PyList_GET_SIZE(args[5]) != {fields})
        Py_RETURN_NONE;
    PyObject *cols[{fields}];
    Py_ssize_t before[{fields}];
    for (int k = 0; k < {fields}; k++) {{
        cols[k] = PyList_GET_ITEM(args[5], k);
        if (!PyList_CheckExact(cols[k])) Py_RETURN_NONE;
        before[k] = PyList_GET_SIZE(cols[k]);
    }}
    Py_ssize_t taken = 0;
    for (Py_ssize_t i = 0; i < count; i++) {{
        PyObject *x = lc_read_{type}(b, &pos, end, budget, &taken);
        int failed = x == NULL;
        for (int k = 0; k < {fields} && !failed; k++) failed = PyList_Append(cols[k], PyTuple_GET_ITEM(x, k)) < 0;
        Py_XDECREF(x);
        if (failed) {{
            PyObject *type, *value, *trace;
            PyErr_Fetch(&type, &value, &trace);
            for (int k = 0; k < {fields}; k++) PyList_SetSlice(cols[k], before[k], PY_SSIZE_T_MAX, NULL);
            if (type != NULL && PyErr_GivenExceptionMatches(type, PyExc_MemoryError)) {{
                PyErr_Restore(type, value, trace);
                return NULL;
            }}
            Py_XDECREF(type); Py_XDECREF(value); Py_XDECREF(trace);  /* text that is not UTF-8: Python names it */
            Py_RETURN_NONE;
        }}
    }}
    return Py_BuildValue("(nn)", pos, taken);
}}
"""

_MODULE = r"""
static PyMethodDef lc_methods[] = {{
{methods}
    {{NULL, NULL, 0, NULL}}
}};

static struct PyModuleDef lc_module = {{PyModuleDef_HEAD_INIT, LC_MODULE_NAME, NULL, -1, lc_methods}};

PyMODINIT_FUNC LC_MODULE_INIT(void) {{ return PyModule_Create(&lc_module); }}
"""


def source_sha(source: str) -> str:
    """What the Python module names its companion's build by (`runtime.native.companion_sha`)."""
    return native.companion_sha(source.encode())


def columns_name(reader: str) -> str:
    """The name of the columns function beside the reader `decode_<type>_<field>`."""
    return reader.replace("decode_", "columns_", 1)


def render(header: str, module: str, loops: dict[str, ElementPlan], readers: dict[str, ElementPlan]) -> str:
    """The C source of one module's loops, the encoders' (`loops`) and the decoders' (`readers`),
    each a name and the plan of its elements, in name order."""
    parts = [_PRELUDE.format(header=header, module=module)]
    parts += [_Element(plan).source() for plan in _element_plans(loops)]
    parts += [_Reader(plan).source() for plan in _element_plans(readers)]
    methods = []
    for name in sorted(loops):
        plan = loops[name]
        tail = plan.steps[0].kind == "tail"
        parts.append(_ENTRY.format(name=name, type=plan.type.name,
                                   prefix_len=f"{_encoded_len(plan.steps[0].field, 's')} + s" if tail else "s"))
        methods.append(f'    {{"{name}", (PyCFunction)lc_{name}, METH_O, NULL}},')
    for name in sorted(readers):
        plan = readers[name]
        columns = columns_name(name)
        parts.append(_DECODE_ENTRY.format(name=name, type=plan.type.name))
        parts.append(_COLUMNS_ENTRY.format(name=columns, type=plan.type.name, fields=len(plan.form)))
        methods += [f'    {{"{n}", (PyCFunction)(void (*)(void))lc_{n}, METH_FASTCALL, NULL}},' for n in (name, columns)]
    parts.append(_MODULE.format(methods="\n".join(methods)))
    return "".join(parts)


def _element_plans(plans: dict[str, ElementPlan]) -> list[ElementPlan]:
    """The plans, in name order, and those of their nested lists' elements, once a type, each
    after the types it nests: C declares a function before its use."""
    found: dict[str, ElementPlan] = {}

    def visit(plan: ElementPlan) -> None:
        for step in plan.steps:
            if step.kind == "list":
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


class _Element(_Code):
    """The size and write functions of one element type: `lc_body_<type>` gives the bytes of its
    fields (after its size, when its first field is one: "tail"), or -1 for a value it leaves to
    Python; `lc_write_<type>` writes the element, its size prefix included, given that body size."""

    def source(self) -> str:
        t = self.type.name
        return (f"\nstatic Py_ssize_t lc_body_{t}(PyObject *e) {{\n{self.body()}}}\n"
                f"\nstatic char *lc_write_{t}(PyObject *e, char *p, Py_ssize_t body) {{\n{self.write()}}}\n")

    def fields(self) -> str:
        """The element as its tuple form; its fields by name."""
        form = self.plan.form
        lines = [f"    if (!PyTuple_CheckExact(e) || PyTuple_GET_SIZE(e) != {len(form)}) return -1;\n"]
        lines += [f"    PyObject *f_{f.id} = PyTuple_GET_ITEM(e, {i});\n" for i, f in enumerate(form)]
        return "".join(lines)

    def body(self) -> str:
        out = [self.fields(), "    Py_ssize_t size = 0;\n"]
        for step in self.steps:
            out.append(_Step(step).size())
        if self.tail:
            out.append(f"    if (size > {_max_value(self.plan.steps[0].field)}) return -1;\n")
        out.append("    return size;\n")
        return "".join(out)

    def write(self) -> str:
        out = [f"    PyObject *f_{f.id} = PyTuple_GET_ITEM(e, {i});\n" for i, f in enumerate(self.plan.form)]
        if self.tail:
            out.append(f"    p = {_put(self.plan.steps[0].field, 'body')};\n")
        else:
            out.append("    (void)body;\n")
        for step in self.steps:
            out.append(_Step(step).write())
        out.append("    return p;\n")
        return "".join(out)


class _Step:
    """One step of a plan, sized (`size`: adds to `size`, or returns -1) and written (`write`: at `p`)."""

    def __init__(self, step: Step) -> None:
        self.step = step
        self.f: Field = step.field
        self.v = f"f_{self.f.id}"

    def size(self) -> str:
        s, f, v = self.step, self.f, self.v
        if s.kind == "int":
            lo, hi = (-128, 127) if f.type.signed else (0, 255)
            return f"    {{ int64_t x; if (!lc_int({v}, {lo}, {hi}, &x)) return -1; size += 1; }}\n"
        if s.kind == "varint":
            return f"    {{ {_read(f, v, 'x')} size += {_encoded_len(f, 'x')}; }}\n"
        if s.kind == "sized":
            return self.sized_size()
        # a count and the list it counts, each element sized by its own function
        items, u = f"f_{s.target.id}", s.element.type.name
        return (f"    {{\n        if (!PyList_CheckExact({items}) && !PyTuple_CheckExact({items})) return -1;\n"
                f"        Py_ssize_t n = PySequence_Fast_GET_SIZE({items});\n"
                f"        if (n > {_max_value(f)}) return -1;\n"
                f"        size += {_encoded_len(f, 'n')};\n"
                f"        for (Py_ssize_t i = 0; i < n; i++) {{\n"
                f"            Py_ssize_t b = lc_body_{u}(PySequence_Fast_GET_ITEM({items}, i));\n"
                f"            if (b < 0 || b > PY_SSIZE_T_MAX / 4) return -1;\n"
                f"            size += {_element_len(s.element, 'b')};\n"
                f"        }}\n    }}\n")

    def sized_size(self) -> str:
        s, length = self.step, self.f
        value = f"f_{s.target.id}"
        read = "lc_text" if s.target.type.kind == "str" else "lc_bytes"
        absent = ""
        if length.absent is not None:
            absent = f"if ({value} == Py_None) size += {len(absent_varint(length))}; else "
        return (f"    {absent}{{\n        Py_ssize_t n;\n"
                f"        if ({read}({value}, &n) == NULL || n > {_max_value(length)}) return -1;\n"
                f"        size += {_encoded_len(length, 'n')} + n;\n    }}\n")

    def write(self) -> str:
        s, f, v = self.step, self.f, self.v
        if s.kind == "int":
            return f"    *p++ = (char)(PyLong_AsLongLong({v}) & 0xff);\n"
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
        items, u = f"f_{s.target.id}", s.element.type.name
        body = f"lc_body_{u}(x)" if s.element.steps[0].kind == "tail" else "0"
        return (f"    {{\n        Py_ssize_t n = PySequence_Fast_GET_SIZE({items});\n"
                f"        p = {_put(f, 'n')};\n"
                f"        for (Py_ssize_t i = 0; i < n; i++) {{\n"
                f"            PyObject *x = PySequence_Fast_GET_ITEM({items}, i);\n"
                f"            p = lc_write_{u}(x, p, {body});\n        }}\n    }}\n")


class _Reader(_Code):
    """`lc_read_<type>`: one element from b[*pos:end] in its tuple form, the position moved past
    it and the elements of its lists added to `*taken` (at most `budget` in all); NULL, nothing
    raised, for anything Python must read: a cut-off or non-canonical varint, a negative length
    or count, text that is not UTF-8, a size that disagrees, the budget exceeded. Its tuples
    (the form, and a list field's, `ModuleEmitter.tuple_items`) hold numbers, bytes, text and
    such tuples only, and are released from the collector, as CPython's collector does with
    such a tuple on its first pass."""

    def source(self) -> str:
        t = self.type.name
        form = self.plan.form
        lines = [f"\nstatic PyObject *lc_read_{t}(const unsigned char *b, Py_ssize_t *pos, Py_ssize_t end, "
                 "Py_ssize_t budget, Py_ssize_t *taken) {\n",
                 f"    PyObject *v[{len(form)}] = {{NULL}};\n", "    PyObject *out;\n"]
        if self.tail:
            size = self.plan.steps[0].field
            lines.append(f"    uint64_t size;\n    if (!{_get(size, 'size')}) return NULL;\n")
            lines.append("    Py_ssize_t start = *pos;\n")
        for step in self.steps:
            lines.append(self.read(step, {f.id: i for i, f in enumerate(form)}))
        if self.tail:
            check = "(uint64_t)(*pos - start) != size" if not _zigzag(size) else "*pos - start != lc_unzigzag(size)"
            lines.append(f"    if ({check}) goto fail;\n")
        lines.append(f"    out = PyTuple_New({len(form)});\n    if (out == NULL) goto fail;\n")
        lines.append(f"    for (int i = 0; i < {len(form)}; i++) PyTuple_SET_ITEM(out, i, v[i]);\n")
        lines.append("    PyObject_GC_UnTrack(out);\n")
        lines.append(f"    return out;\nfail:\n    for (int i = 0; i < {len(form)}; i++) Py_XDECREF(v[i]);\n"
                     "    return NULL;\n}\n")
        return "".join(lines)

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
        if step.kind == "sized":
            target = step.target
            make = ("PyUnicode_DecodeUTF8((const char *)b + *pos, n, NULL)" if target.type.kind == "str"
                    else "PyBytes_FromStringAndSize((const char *)b + *pos, n)")
            absent = (f"        if (n < 0) {{ Py_INCREF(Py_None); v[{index[target.id]}] = Py_None; }} else {{\n"
                      if f.absent is not None else "        if (n < 0) goto fail;\n        {\n")
            return (f"    {{\n        uint64_t x;\n        if (!{_get(f, 'x')}) goto fail;\n"
                    f"        int64_t n = {'lc_unzigzag(x)' if _zigzag(f) else '(int64_t)x'};\n{absent}"
                    f"            if (n > end - *pos) goto fail;\n"
                    f"            if ((v[{index[target.id]}] = {make}) == NULL) goto fail;\n"
                    f"            *pos += n;\n        }}\n    }}\n")
        items, u = index[step.target.id], step.element.type.name
        return (f"    {{\n        uint64_t x;\n        if (!{_get(f, 'x')}) goto fail;\n"
                f"        int64_t n = {'lc_unzigzag(x)' if _zigzag(f) else '(int64_t)x'};\n"
                "        if (n < 0 || n > end - *pos || n > budget - *taken) goto fail;\n"
                "        *taken += n;\n"
                f"        if ((v[{items}] = PyTuple_New(n)) == NULL) goto fail;\n"
                "        for (Py_ssize_t i = 0; i < n; i++) {\n"
                f"            PyObject *e = lc_read_{u}(b, pos, end, budget, taken);\n"
                "            if (e == NULL) goto fail;\n"
                f"            PyTuple_SET_ITEM(v[{items}], i, e);\n        }}\n"
                f"        PyObject_GC_UnTrack(v[{items}]);\n    }}\n")


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


def _encoded_len(f: Field, x: str) -> str:
    return f"lc_uvarint_len({_encoded(f, x)})"


def _put(f: Field, x: str) -> str:
    return f"lc_put_uvarint(p, {_encoded(f, x)})"


def _element_len(plan: ElementPlan, b: str) -> str:
    """An element's bytes from its body size `b`: its size prefix added, for a "tail"."""
    if plan.steps[0].kind == "tail":
        return f"{_encoded_len(plan.steps[0].field, b)} + {b}"
    return b
