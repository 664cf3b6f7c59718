#include "shapes/shapes.h"
#include "gtest/gtest.h"
#include <cstdlib>

// HALFWAY_FAIL=1 makes Halfway.Both fail after its first half: the coverage
// of that run stops before halved().
TEST(Halfway, Both) {
  EXPECT_EQ(shapes::doubled(1), 2);
  if (std::getenv("HALFWAY_FAIL"))
    FAIL() << "told to fail half-way";
  EXPECT_EQ(shapes::halved(2), 1);
}

// Covers halved() only.
TEST(Halfway, Halves) { EXPECT_EQ(shapes::halved(4), 2); }
