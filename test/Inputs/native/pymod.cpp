// The pybind11 module _geom over the library.
#include "geom.h"
#include <pybind11/pybind11.h>

PYBIND11_MODULE(_geom, m) {
  m.def("area", &geom::area);
  m.def("perimeter", &geom::perimeter);
}
