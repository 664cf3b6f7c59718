// _geom: the library's functions, for Python.
#include "geomkit/geom.h"
#include <pybind11/pybind11.h>

PYBIND11_MODULE(_geom, m) {
  m.doc() = "geomkit's rectangles";
  m.def("area", &geom::area, "The area of a W by H rectangle");
  m.def("perimeter", &geom::perimeter, "The perimeter of a W by H rectangle");
}
