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

   The collector itself is left alone: no call of the library turns it off. */
#include <Python.h>

static PyObject *lc_untracked(PyObject *self, PyObject *o) {
    if (PyObject_IS_GC(o) && PyObject_GC_IsTracked(o))
        PyObject_GC_UnTrack(o);
    Py_INCREF(o);
    return o;
}

static PyMethodDef lc_methods[] = {
    {"untracked", lc_untracked, METH_O, NULL},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef lc_module = {PyModuleDef_HEAD_INIT, LC_MODULE_NAME, NULL, -1, lc_methods};

PyMODINIT_FUNC LC_MODULE_INIT(void) { return PyModule_Create(&lc_module); }
