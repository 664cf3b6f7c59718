#include "shapes.h"

int main() {
  shapes::Square s;
  s.side = 2;
  return s.area() == 4 ? 0 : 1;
}
