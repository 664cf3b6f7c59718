#include "calc/geometry.h"

#include <gtest/gtest.h>

#include <ostream>

namespace calc {
// Lets GoogleTest print a Vector in failure messages.
void PrintTo(const Vector &V, std::ostream *OS) {
  *OS << "(" << V.x() << ", " << V.y() << ")";
}
} // namespace calc

namespace {

using calc::Vector;

TEST(VectorTest, Addition) {
  EXPECT_EQ(Vector(1.5, -2) + Vector(0.25, 4), Vector(1.75, 2));
}

TEST(VectorTest, Equality) {
  EXPECT_TRUE(Vector(3, 4) == Vector(3, 4));
  EXPECT_TRUE(Vector(3, 4) != Vector(4, 3));
}

TEST(VectorTest, Length) {
  EXPECT_DOUBLE_EQ(Vector(3, 4).length(), 5.0);
  EXPECT_DOUBLE_EQ(Vector(0, 0).length(), 0.0);
}

TEST(ClampTest, IntAndDouble) {
  EXPECT_EQ(calc::clamp(-3, 0, 10), 0);
  EXPECT_EQ(calc::clamp(7, 0, 10), 7);
  EXPECT_EQ(calc::clamp(12, 0, 10), 10);
  EXPECT_DOUBLE_EQ(calc::clamp(0.5, 0.0, 0.25), 0.25);
}

} // namespace
