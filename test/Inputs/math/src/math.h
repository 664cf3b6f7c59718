#ifndef MATH_H
#define MATH_H

namespace math {

int add(int a, int b);
int mul(int a, int b);
int square(int a);

// Used by mul's test only.
inline int twice(int a) {
  return a * 2;
}

} // namespace math

#endif
