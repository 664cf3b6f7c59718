#include "shapes.h"

namespace shapes {

int Created = 0;
int Spare = 0;

int registerShape(const char *Name) {
  Created += Name[0] != 0;
  return Created;
}

static int Registered = registerShape("square");

Area Square::area() const {
  return static_cast<Area>(side) * side;
}

int Circle::perimeter() const {
  return DOUBLE(twice(r)) * 3;
}

int scaled(int v, int factor) {
  return v * factor;
}

#if SIDES_CHECK
int sides() { return 5; }
#else
int sides() { return 4; }
#endif

} // namespace shapes
