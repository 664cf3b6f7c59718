// geom_check: a C++ test of the library, run by ctest.
#include "geom.h"

int main() { return geom::perimeter(1, 2) == 6 ? 0 : 1; }
