#include "math.h"

int main() { return math::square(3) == 9 ? 0 : 1; }
