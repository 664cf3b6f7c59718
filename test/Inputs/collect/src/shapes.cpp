#include "shapes/shapes.h"

namespace shapes {

Square::Square(int Side) : Side(Side) {}

int Square::area() const { return Side * Side; }

static int registerShapes() { return 3; }

static int Registered = registerShapes();

int registeredCount() { return Registered; }

int prepare() { return 1; }

} // namespace shapes
