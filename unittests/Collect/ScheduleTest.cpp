//===- ScheduleTest.cpp - units started as ctest would start them --------===//

#include "CollectInternal.h"
#include "gtest/gtest.h"
#include <chrono>
#include <mutex>
#include <thread>

using namespace tia::collect;

namespace {

/// Runs \p Scheds (one unit each) on \p Jobs threads; each unit sleeps a
/// little. Returns the order units started and ended in ("+N", "-N") and
/// the most units that ran at once.
struct Trace {
  std::vector<std::string> Events;
  unsigned MaxAtOnce = 0;
};

Trace run(const std::vector<Schedule> &Scheds, unsigned Jobs) {
  std::vector<Unit> Units;
  for (size_t I = 0; I < Scheds.size(); ++I)
    Units.push_back({{I}, false, &Scheds[I]});
  Trace T;
  std::mutex M;
  unsigned Now = 0;
  runScheduled(Units, Jobs, [&](const Unit &U) {
    {
      std::lock_guard<std::mutex> L(M);
      T.Events.push_back("+" + std::to_string(U.Tests.front()));
      T.MaxAtOnce = std::max(T.MaxAtOnce, ++Now);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    std::lock_guard<std::mutex> L(M);
    T.Events.push_back("-" + std::to_string(U.Tests.front()));
    --Now;
  });
  return T;
}

size_t at(const Trace &T, const std::string &E) {
  return std::find(T.Events.begin(), T.Events.end(), E) - T.Events.begin();
}

TEST(ScheduleTest, UnitsRunSideBySide) {
  EXPECT_EQ(run({{}, {}, {}, {}}, 2).MaxAtOnce, 2u);
}

TEST(ScheduleTest, RunSerialRunsAlone) {
  Schedule Serial;
  Serial.RunSerial = true;
  Trace T = run({{}, Serial, {}, {}}, 4);
  EXPECT_EQ(at(T, "+1") + 1, at(T, "-1")) << "something ran beside it";
}

TEST(ScheduleTest, ProcessorsTakeJobs) {
  Schedule Wide;
  Wide.Processors = 2;
  Trace T = run({Wide, {}, Wide}, 2);
  EXPECT_EQ(T.MaxAtOnce, 1u);
  // A test wider than all the jobs still runs, alone.
  Wide.Processors = 8;
  EXPECT_EQ(run({Wide, {}}, 2).Events.size(), 4u);
}

TEST(ScheduleTest, ResourceLockKeepsTestsApart) {
  Schedule Db;
  Db.Locks = {"db"};
  Trace T = run({Db, Db, Db}, 3);
  EXPECT_EQ(T.MaxAtOnce, 1u);
}

TEST(ScheduleTest, FixturesOrderSetupTestsAndCleanup) {
  Schedule Setup, Test, Cleanup;
  Setup.Setup = {"server"};
  Test.Requires = {"server"};
  Cleanup.Cleanup = {"server"};
  // Listed in the worst order: the cleanup first, the setup last.
  Trace T = run({Cleanup, Test, Test, Setup}, 4);
  EXPECT_LT(at(T, "-3"), at(T, "+1"));
  EXPECT_LT(at(T, "-3"), at(T, "+2"));
  EXPECT_LT(at(T, "-1"), at(T, "+0"));
  EXPECT_LT(at(T, "-2"), at(T, "+0"));
}

} // namespace
