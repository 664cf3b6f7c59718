/* The CPython module _cgeom: C code with a method table. */
#include <Python.h>

static double twice(double V) { return 2 * V; }

static PyObject *cgeom_twice(PyObject *Self, PyObject *Args) {
  double V;
  if (!PyArg_ParseTuple(Args, "d", &V))
    return NULL;
  return PyFloat_FromDouble(twice(V));
}

static PyMethodDef Methods[] = {{"twice", cgeom_twice, METH_VARARGS, ""},
                                {NULL, NULL, 0, NULL}};

static struct PyModuleDef Module = {PyModuleDef_HEAD_INIT, "_cgeom", NULL, -1,
                                    Methods};

PyMODINIT_FUNC PyInit__cgeom(void) { return PyModule_Create(&Module); }
