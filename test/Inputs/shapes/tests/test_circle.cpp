#include "shapes.h"

int main() {
  shapes::Circle c;
  return c.perimeter() == 12 ? 0 : 1;
}
