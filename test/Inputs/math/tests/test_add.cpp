#include "math.h"

int main() { return math::add(2, 3) == 5 ? 0 : 1; }
