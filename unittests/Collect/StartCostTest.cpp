//===- StartCostTest.cpp - what starting a process per case cost ----------===//

#include "CollectInternal.h"
#include "gtest/gtest.h"

using namespace tia;
using namespace tia::collect;

namespace {

/// \p Count processes of \p Seconds each.
ProcessTimes processes(unsigned Count, double Seconds,
                       CaseFramework F = CaseFramework::GTest) {
  ProcessTimes T;
  T.Framework = F;
  for (unsigned I = 0; I < Count; ++I)
    T.add(Seconds);
  return T;
}

TEST(StartCostTest, ASlowStartThatIsMostOfTheRunGivesTheFix) {
  std::map<std::string, ProcessTimes> Per = {
      {"/b/tests/db_test", processes(229, 14.5)}};
  std::string Note =
      startCostNote(Per, {{"/b/tests/db_test", 14.0}}, 1700, 2, false);
  EXPECT_EQ(Note,
            "tia: note: 229 cases of 1 binary ran one process each; a process "
            "of db_test takes 14.0s to start, 53m26s in all (94% of the run's "
            "process time)\n"
            "tia: hint: link tia's listener so that the cases of db_test "
            "share one process: tia_add_coverage(db_test) in its "
            "CMakeLists.txt (docs/Collection.md, \"With tia's CMake "
            "helper\")\n");
}

TEST(StartCostTest, TheFixNamesTheFrameworkAndTheCostliestBinary) {
  std::map<std::string, ProcessTimes> Per = {
      {"/b/a_test", processes(3, 1)},
      {"/b/spec_test", processes(10, 2, CaseFramework::Catch2)}};
  std::string Note = startCostNote(Per, {}, 20, 1, false);
  EXPECT_NE(Note.find("13 cases of 2 binaries"), std::string::npos) << Note;
  EXPECT_NE(Note.find("tia_add_coverage(spec_test FRAMEWORK catch2)"),
            std::string::npos)
      << Note;
}

TEST(StartCostTest, ACheapStartIsANoteWithoutAFix) {
  std::map<std::string, ProcessTimes> Per = {{"/b/t", processes(20, 3)}};
  std::string Note = startCostNote(Per, {{"/b/t", 0.1}}, 60, 1, false);
  EXPECT_NE(Note.find("takes 0.1s to start, 2.0s in all (3%"),
            std::string::npos)
      << Note;
  EXPECT_EQ(Note.find("hint"), std::string::npos) << Note;
}

TEST(StartCostTest, NothingWorthALine) {
  // Under a second in all, or one case alone in its process.
  EXPECT_EQ(startCostNote({{"/b/t", processes(5, 0.1)}}, {}, 1, 1, false), "");
  EXPECT_EQ(startCostNote({{"/b/t", processes(1, 30)}}, {}, 30, 1, false), "");
}

TEST(StartCostTest, ProcessPerTestIsItsOwnCause) {
  std::string Note =
      startCostNote({{"/b/t", processes(10, 2)}}, {}, 20, 1, true);
  EXPECT_NE(Note.find("without --process-per-test"), std::string::npos) << Note;
}

} // namespace
