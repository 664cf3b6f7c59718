//===- ProgressTest.cpp - progress of long work ---------------------------===//

#include "tia/Support/Progress.h"
#include "gtest/gtest.h"
#include <chrono>
#include <cstdlib>
#include <thread>

using namespace tia;

namespace {

/// Progress lines written to a string: no terminal, as in CI.
struct LogProgress : ::testing::Test {
  void SetUp() override { ::setenv("TIA_HEARTBEAT_SECONDS", "0.05", 1); }
  void TearDown() override { ::unsetenv("TIA_HEARTBEAT_SECONDS"); }

  std::string Text;
  llvm::raw_string_ostream OS{Text};
};

TEST_F(LogProgress, QuarterLinesWithoutATerminal) {
  {
    Progress P("running", 4, OS, /*Quiet=*/false);
    for (const char *What : {"a", "b", "c", "d"})
      P.step(What);
    P.finish();
  }
  EXPECT_NE(Text.find("[1/4] running ("), std::string::npos) << Text;
  EXPECT_NE(Text.find("[4/4] running ("), std::string::npos) << Text;
}

TEST_F(LogProgress, AHeartbeatNamesTheLongestRunningWhileNothingEnds) {
  {
    Progress P("running", 3, OS, /*Quiet=*/false);
    P.startHeartbeat();
    P.started("slow");
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    P.started("quick");
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    P.finish();
  }
  EXPECT_NE(Text.find("[0/3] running ("), std::string::npos) << Text;
  EXPECT_NE(Text.find("still running slow ("), std::string::npos) << Text;
  // The longest running comes first.
  EXPECT_LT(Text.find("slow ("), Text.find("quick (")) << Text;
}

TEST_F(LogProgress, WhatEndedIsNoLongerNamed) {
  {
    Progress P("running", 2, OS, /*Quiet=*/false);
    P.startHeartbeat();
    P.started("done");
    P.step("done");
    P.started("other");
    P.ended("other");
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    P.finish();
  }
  EXPECT_EQ(Text.find("still running"), std::string::npos) << Text;
  EXPECT_NE(Text.find("[1/2] running ("), std::string::npos) << Text;
}

TEST_F(LogProgress, NoHeartbeatUnlessAsked) {
  {
    Progress P("merging", 2, OS, /*Quiet=*/false);
    P.started("slow");
    std::this_thread::sleep_for(std::chrono::milliseconds(150));
    P.finish();
  }
  EXPECT_EQ(Text, "");
}

TEST_F(LogProgress, QuietPrintsNothing) {
  {
    Progress P("running", 2, OS, /*Quiet=*/true);
    P.startHeartbeat();
    P.started("slow");
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    P.step("slow");
  }
  EXPECT_EQ(Text, "");
}

} // namespace
