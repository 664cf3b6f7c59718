//===- ChooseTest.cpp - which discovered tests a collect runs -------------===//

#include "CollectInternal.h"
#include "gtest/gtest.h"

using namespace tia;
using namespace tia::collect;

namespace {

DiscoveredTest test(llvm::StringRef Id) {
  DiscoveredTest T;
  T.Id = Id.str();
  return T;
}

std::vector<std::string> ids(const std::vector<DiscoveredTest> &Tests) {
  std::vector<std::string> Out;
  for (const DiscoveredTest &T : Tests)
    Out.push_back(T.Id);
  return Out;
}

TEST(ChooseTest, AnIncrementalRunKeepsTheFixturesOfWhatRuns) {
  DiscoveredTest Uses = test("ctest:uses_db");
  Uses.Sched.Requires = {"db"};
  DiscoveredTest Make = test("ctest:make_db");
  Make.Sched.Setup = {"db"};
  DiscoveredTest Drop = test("ctest:drop_db");
  Drop.Sched.Cleanup = {"db"};
  std::vector<DiscoveredTest> Tests = {Uses, Make, Drop, test("ctest:other")};
  CarryOver Carry{{"ctest:make_db", "ctest:drop_db", "ctest:other"}, 1, true};
  std::string Notes;
  llvm::raw_string_ostream Err(Notes);
  EXPECT_EQ(leaveOut(Tests, Carry, Err, /*Quiet=*/false), 1u);
  EXPECT_EQ(ids(Tests),
            (std::vector<std::string>{"ctest:uses_db", "ctest:make_db",
                                      "ctest:drop_db"}));
  EXPECT_NE(Notes.find("running ctest:make_db too: it sets up fixture db, "
                       "which a test the change affects requires"),
            std::string::npos)
      << Notes;

  // When the test that requires it is carried too, so are its fixtures.
  std::vector<DiscoveredTest> Idle = {Uses, Make, Drop};
  CarryOver All{{"ctest:uses_db", "ctest:make_db", "ctest:drop_db"}, 1, true};
  EXPECT_EQ(leaveOut(Idle, All, Err, /*Quiet=*/true), 3u);
  EXPECT_TRUE(Idle.empty());
}

} // namespace
