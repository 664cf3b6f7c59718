#include "shapes.h"

int main() {
  shapes::Square s;
  return s.kind() == shapes::Kind::Square ? 0 : 1;
}
