/* The runtime's one C helper, which a compiled build (`logcodec accelerate`, a wheel build)
   compiles beside the codecs and their C companions.

   `untracked(o)` takes `o` off the list of objects Python's cyclic garbage collector walks, and
   returns it. A compiled decoder of a schema whose values hold no links back (no `_parent`, no
   `_root`: this repository's formats) calls it on each value object and list as it makes them:
   such a value can take part in no cycle, so the collector has nothing to find in it, yet each
   tracked object made counts towards its next pass, and every pass walks them all again (a
   compiled decode of Kafka records spent more time there than in decoding, 1.7x the time of
   the same decode with the collector off). Reference counting still frees them. A cycle that
   code builds through such a value later (a record put in its own headers list) is not
   collected, as with msgspec's `gc=False` structs.

   `untracked_tree(o)` does it for `o` and for every list, tuple and value object below it,
   down to what is already untracked. An interpreted decoder of such a schema (Kafka's protocol
   bodies, which a compiled build leaves interpreted) calls it on each element of a list that
   holds lists or values of its own, as it makes it: the collector then neither walks them nor
   moves them to its older generations, whose full passes walk every object of the process
   (a Metadata response of 10,000 partitions decoded in 16 ms instead of 47, `bench kafka-protocol`).

   The collector itself is left alone: no call of the library turns it off. */
#include <Python.h>
#include <structmember.h>

/* Deeper than any value a decoder's budget lets it make: what lies below stays tracked. */
#define LC_DEEPEST 1000

static PyObject *lc_untracked(PyObject *self, PyObject *o) {
    if (PyObject_IS_GC(o) && PyObject_GC_IsTracked(o))
        PyObject_GC_UnTrack(o);
    Py_INCREF(o);
    return o;
}

/* A value object: an instance of a class written in Python (a heap type) whose fields are
   slots, without a `__dict__` (an enum member has one, and is shared: it is left alone). */
static int lc_is_value(PyTypeObject *t) {
    return (t->tp_flags & Py_TPFLAGS_HEAPTYPE) && t->tp_dictoffset == 0 && t->tp_members != NULL;
}

static void lc_untrack_below(PyObject *o, int depth) {
    if (depth > LC_DEEPEST || !PyObject_IS_GC(o) || !PyObject_GC_IsTracked(o))
        return;
    if (PyList_CheckExact(o)) {
        PyObject_GC_UnTrack(o);
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(o); i++)
            lc_untrack_below(PyList_GET_ITEM(o, i), depth + 1);
    } else if (PyTuple_CheckExact(o)) {
        PyObject_GC_UnTrack(o);
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(o); i++)
            lc_untrack_below(PyTuple_GET_ITEM(o, i), depth + 1);
    } else if (lc_is_value(Py_TYPE(o))) {
        PyObject_GC_UnTrack(o);
        for (PyTypeObject *t = Py_TYPE(o); t != NULL && lc_is_value(t); t = t->tp_base)
            for (PyMemberDef *m = t->tp_members; m->name != NULL; m++)
                if (m->type == T_OBJECT_EX) {
                    PyObject *v = *(PyObject **)((char *)o + m->offset);
                    if (v != NULL)
                        lc_untrack_below(v, depth + 1);
                }
    }
}

static PyObject *lc_untracked_tree(PyObject *self, PyObject *o) {
    lc_untrack_below(o, 0);
    Py_INCREF(o);
    return o;
}

static PyMethodDef lc_methods[] = {
    {"untracked", lc_untracked, METH_O, NULL},
    {"untracked_tree", lc_untracked_tree, METH_O, NULL},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef lc_module = {PyModuleDef_HEAD_INIT, LC_MODULE_NAME, NULL, -1, lc_methods};

PyMODINIT_FUNC LC_MODULE_INIT(void) { return PyModule_Create(&lc_module); }
