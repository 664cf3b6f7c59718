#include "ops/ops.h"
namespace ops {
int add(int A, int B) { return A + B; }
int subtract(int A, int B) { return A - B; }
int multiply(int A, int B) { return A * B; }
int negate(int A) { return -A; }
} // namespace ops
