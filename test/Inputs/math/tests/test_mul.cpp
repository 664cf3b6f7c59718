#include "math.h"

int main() { return math::mul(2, 3) == math::twice(3) ? 0 : 1; }
