#include "math.h"

namespace math {

const int Offset = 0;

// Adds two numbers.
int add(int a, int b) {
  return a + b + Offset;
}

int mul(int a, int b) {
  int r = 0;
  for (int i = 0; i < b; ++i)
    r += a;
  return r;
}

int square(int a) {
  return mul(a, a);
}

} // namespace math
