#include "shapes/shapes.h"
#include "gtest/gtest.h"

TEST(Shapes, SquareArea) { EXPECT_EQ(shapes::Square(3).area(), 9); }

TEST(Shapes, Doubled) { EXPECT_EQ(shapes::doubled(2), 4); }

TEST(Shapes, Halved) { EXPECT_EQ(shapes::halved(8), 4); }

TEST(Shapes, Registered) { EXPECT_EQ(shapes::registeredCount(), 3); }

class Prepared : public testing::Test {
protected:
  static void SetUpTestSuite() { shapes::prepare(); }
};

TEST_F(Prepared, First) { EXPECT_EQ(shapes::halved(4), 2); }

TEST_F(Prepared, Second) { EXPECT_EQ(shapes::doubled(1.5), 3.0); }

template <typename T> class Typed : public testing::Test {};
using Types = testing::Types<int, double>;
TYPED_TEST_SUITE(Typed, Types);

TYPED_TEST(Typed, Doubles) { EXPECT_EQ(shapes::doubled(TypeParam(1)), 2); }

class Sides : public testing::TestWithParam<int> {};

TEST_P(Sides, Area) { EXPECT_GT(shapes::Square(GetParam()).area(), 0); }

INSTANTIATE_TEST_SUITE_P(Small, Sides, testing::Values(1, 2));
