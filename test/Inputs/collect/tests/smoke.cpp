// A test program without GoogleTest: ctest runs it, its exit code decides.
#include "shapes/shapes.h"

int main() { return shapes::Square(2).area() == 4 ? 0 : 1; }
