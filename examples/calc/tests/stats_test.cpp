#include "calc/stats.h"

#include <gtest/gtest.h>

namespace {

TEST(StatsTest, Mean) {
  EXPECT_DOUBLE_EQ(calc::mean({1, 2, 3, 4}), 2.5);
  EXPECT_DOUBLE_EQ(calc::mean({}), 0.0);
}

TEST(StatsTest, Median) {
  EXPECT_DOUBLE_EQ(calc::median({5, 1, 3}), 3.0);
  EXPECT_DOUBLE_EQ(calc::median({4, 1, 3, 2}), 2.5);
  EXPECT_DOUBLE_EQ(calc::median({}), 0.0);
}

TEST(StatsTest, Variance) {
  EXPECT_DOUBLE_EQ(calc::variance({2, 4, 4, 4, 5, 5, 7, 9}), 4.0);
  EXPECT_DOUBLE_EQ(calc::variance({42}), 0.0);
}

class RunningStatsTest : public ::testing::Test {
protected:
  void SetUp() override {
    for (double Value : {1.0, 2.0, 6.0})
      Stats.add(Value);
  }

  calc::RunningStats Stats;
};

TEST_F(RunningStatsTest, AddAndMean) {
  EXPECT_EQ(Stats.count(), 3u);
  EXPECT_DOUBLE_EQ(Stats.mean(), 3.0);
  Stats.add(3.0);
  EXPECT_DOUBLE_EQ(Stats.mean(), 3.0);
}

TEST_F(RunningStatsTest, Reset) {
  Stats.reset();
  EXPECT_EQ(Stats.count(), 0u);
  EXPECT_DOUBLE_EQ(Stats.mean(), 0.0);
}

} // namespace
