//===- RecordTest.cpp - the record of an observed run ---------------------===//

#include "tia/Observe/Record.h"
#include "gtest/gtest.h"

using namespace tia;
using namespace tia::observe;

namespace {

select::PlannedTest planned(llvm::StringRef Id, bool FromDefinition = false) {
  select::PlannedTest T;
  T.Id = Id.str();
  T.FromDefinition = FromDefinition;
  T.Reasons.push_back({});
  return T;
}

/// Selects a and the definition Suite.Case, cuts b, knows c.
select::Plan samplePlan() {
  select::Plan P;
  P.Selected = {planned("ctest:a"), planned("gtest:*:Suite.Case", true)};
  P.Cut = {planned("ctest:b")};
  P.NotSelected = {"ctest:c", "gtest:*:Other.Case"};
  P.Limits.MaxTests = 2;
  P.TotalTests = 4;
  return P;
}

TestResult result(llvm::StringRef Id, Outcome O, double Seconds,
                  unsigned Attempt = 0) {
  TestResult R;
  R.TestId = Id.str();
  R.Result = O;
  R.Seconds = Seconds;
  R.Attempt = Attempt;
  return R;
}

TEST(Fate, FollowsThePlan) {
  select::Plan P = samplePlan();
  EXPECT_EQ(fateOf(P, "ctest:a"), Fate::Selected);
  EXPECT_EQ(fateOf(P, "gtest:bin:Inst/Suite.Case/0"), Fate::Selected);
  EXPECT_EQ(fateOf(P, "gtest:bin:Suite.Other"), Fate::Unknown);
  EXPECT_EQ(fateOf(P, "gtest:bin:Other.Case/1"), Fate::NotSelected);
  EXPECT_EQ(fateOf(P, "gtest:bin:Other.Cases"), Fate::Unknown);
  EXPECT_EQ(fateOf(P, "ctest:b"), Fate::Cut);
  EXPECT_EQ(fateOf(P, "ctest:c"), Fate::NotSelected);
  EXPECT_EQ(fateOf(P, "ctest:d"), Fate::Unknown);
}

TEST(Fate, UnknownTestsRunOnlyInTheExclusionForm) {
  EXPECT_TRUE(wouldRun(Fate::Unknown, /*Exclusion=*/true));
  EXPECT_FALSE(wouldRun(Fate::Unknown, /*Exclusion=*/false));
  EXPECT_FALSE(wouldRun(Fate::Cut, true));
  EXPECT_FALSE(wouldRun(Fate::NotSelected, true));
}

TEST(MakeRecord, CountsTheRunAndExplainsWhatWouldNotRun) {
  select::Plan P = samplePlan();
  RecordInput In;
  In.Runner = "ctest";
  In.Results = {result("ctest:a", Outcome::Failed, 1),
                result("ctest:b", Outcome::Failed, 2),
                result("ctest:c", Outcome::Passed, 4),
                result("ctest:c", Outcome::Failed, 8, 1),
                result("ctest:d", Outcome::Passed, 16)};
  std::vector<std::string> Explained;
  In.Explain = [&](const select::Plan &, llvm::StringRef Id,
                   llvm::raw_ostream &OS) {
    Explained.push_back(Id.str());
    OS << Id << " is not selected\n  because\n";
    return llvm::Error::success();
  };
  std::vector<ModePlan> Modes = {
      {select::SelectionMode::Coverage, &P, ""},
      {select::SelectionMode::Static, nullptr, "no graph"}};
  auto R = makeRecord(Modes, In);
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  EXPECT_EQ(R->Mode, "coverage");
  EXPECT_EQ(R->Tests, 4u);
  EXPECT_DOUBLE_EQ(R->Seconds, 31);
  ASSERT_EQ(R->Modes.size(), 2u);
  EXPECT_EQ(R->Modes[0].WouldRun, 2u); // a, and d that tia does not know
  EXPECT_DOUBLE_EQ(R->Modes[0].WouldRunSeconds, 17);
  EXPECT_EQ(R->Modes[0].CutRun, 1u);
  EXPECT_EQ(R->Modes[1].Error, "no graph");
  ASSERT_EQ(R->Failures.size(), 3u);
  EXPECT_EQ(R->Failures[0].Id, "ctest:a");
  EXPECT_TRUE(R->Failures[0].Why.empty());
  EXPECT_EQ(R->Failures[1].Fates.at("coverage"), Fate::Cut);
  EXPECT_EQ(R->Failures[2].Why,
            (std::vector<std::string>{"ctest:c is not selected", "  because"}));
  EXPECT_EQ(Explained, (std::vector<std::string>{"ctest:b", "ctest:c"}));
}

TEST(RecordJson, ReadsBackWhatItWrote) {
  Record R;
  R.Mode = "combined";
  R.Runner = "pytest";
  R.Exclusion = false;
  R.Base = "b";
  R.Head = "h";
  R.ChangedFiles = {"x.py"};
  R.Tests = 3;
  R.Seconds = 1.5;
  ModeRecord M;
  M.Mode = "combined";
  M.Summary = "selected 1 of 3 tests";
  M.Fallbacks = {{"trigger", "setup.py", "a build file", "all"}};
  M.Selected = {{"pytest:t.py::a", {"covers", "fallback (trigger)"}}};
  M.Cut = {"pytest:t.py::b"};
  M.MaxTests = 1;
  M.WouldRun = 1;
  M.WouldRunSeconds = 0.25;
  R.Modes = {M, ModeRecord{"static", "no graph"}};
  R.Failures = {{"pytest:t.py::b", {{"combined", Fate::Cut}}, {"cut"}}};
  auto Back = parseRecord(recordJson(R), RecordVersion);
  ASSERT_TRUE(bool(Back)) << llvm::toString(Back.takeError());
  EXPECT_EQ(recordJson(*Back), recordJson(R));
  EXPECT_FALSE(Back->Exclusion);
  EXPECT_EQ(Back->Modes[1].Error, "no graph");
  EXPECT_EQ(Back->Failures[0].Fates.at("combined"), Fate::Cut);
}

TEST(RecordJson, RefusesOtherVersionsAndDamage) {
  auto Newer = parseRecord("{}", RecordVersion + 1);
  ASSERT_FALSE(bool(Newer));
  EXPECT_EQ(llvm::toString(Newer.takeError()),
            "its record has version 2, this tia reads version 1: use the tia "
            "that observed it");
  auto Damaged = parseRecord(R"({"mode": 3})", RecordVersion);
  ASSERT_FALSE(bool(Damaged));
  EXPECT_EQ(llvm::toString(Damaged.takeError()),
            "its record is damaged: 'mode' is missing or of the wrong type");
  auto NotJson = parseRecord("{", RecordVersion);
  ASSERT_FALSE(bool(NotJson));
  EXPECT_TRUE(llvm::StringRef(llvm::toString(NotJson.takeError()))
                  .starts_with("its record is not JSON: "));
}

/// A count that is no whole number an unsigned holds is damage: casting
/// 1e20 to unsigned is undefined (UBSan's float-cast-overflow).
TEST(RecordJson, RefusesACountOutOfRange) {
  Record R;
  R.Modes = {ModeRecord{"combined"}};
  std::string Json = recordJson(R);
  std::string Huge = Json;
  Huge.replace(Huge.find("\"max_tests\":0"), 13, "\"max_tests\":1e20");
  auto Parsed = parseRecord(Huge, RecordVersion);
  ASSERT_FALSE(bool(Parsed));
  EXPECT_EQ(llvm::toString(Parsed.takeError()),
            "its record is damaged: 'max_tests' is not a count");
}

/// Seconds that are not finite (1e400 reads as infinity) would write back
/// as "INF", which is no JSON.
TEST(RecordJson, RefusesSecondsThatAreNotFinite) {
  std::string Json = recordJson(Record());
  Json.replace(Json.find("\"seconds\":0.000"), 15, "\"seconds\":1e400");
  auto Parsed = parseRecord(Json, RecordVersion);
  ASSERT_FALSE(bool(Parsed));
  EXPECT_EQ(llvm::toString(Parsed.takeError()),
            "its record is damaged: 'seconds' is not a number of seconds");
}

/// recordJson wrote 1e200 seconds through a 32-byte buffer, cut short to
/// another number: what was read no longer wrote back the same.
TEST(RecordJson, RefusesSecondsItCannotWriteBack) {
  std::string Json = recordJson(Record());
  Json.replace(Json.find("\"seconds\":0.000"), 15, "\"seconds\":1e200");
  auto Parsed = parseRecord(Json, RecordVersion);
  ASSERT_FALSE(bool(Parsed));
  EXPECT_EQ(llvm::toString(Parsed.takeError()),
            "its record is damaged: 'seconds' is not a number of seconds");
}

} // namespace
