#include <gtest/gtest.h>
#include <thread>
TEST(Suite, Pass) { EXPECT_EQ(1, 1); }
TEST(Suite, Fail) { EXPECT_EQ(1, 2) << "a <message> & \"quotes\""; }
TEST(Suite, DISABLED_Off) {}
TEST(Suite, Skip) { GTEST_SKIP() << "not here"; }
class P : public ::testing::TestWithParam<int> {};
TEST_P(P, Even) { EXPECT_EQ(GetParam() % 2, 0); }
INSTANTIATE_TEST_SUITE_P(Nums, P, ::testing::Values(2, 3));
template <typename T> class Typed : public ::testing::Test {};
using Types = ::testing::Types<int, char>;
TYPED_TEST_SUITE(Typed, Types);
TYPED_TEST(Typed, Size) { EXPECT_GT(sizeof(TypeParam), 0u); }
