//===- ReplayJournalTest.cpp - what a kept replay measured ----------------===//

#include "tia/Eval/ReplayJournal.h"
#include "tia/Testing/Assertions.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

using namespace tia;
using namespace tia::eval;
using tia::testing::errorText;

namespace {

class JournalTest : public ::testing::Test {
protected:
  void SetUp() override {
    llvm::SmallString<128> D;
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("tia-journal", D));
    Dir = std::string(D);
    Path = Dir + "/replay-journal.jsonl";
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Dir); }

  static llvm::json::Object settings(llvm::StringRef Build = "make") {
    return llvm::json::Object{{"build", Build}, {"modes", {"combined"}}};
  }
  void appendText(llvm::StringRef Text) {
    std::error_code EC;
    llvm::raw_fd_ostream OS(Path, EC, llvm::sys::fs::OF_Append);
    ASSERT_FALSE(EC);
    OS << Text;
  }
  std::string fileText() {
    auto Buf = llvm::MemoryBuffer::getFile(Path);
    return Buf ? (*Buf)->getBuffer().str() : "";
  }

  std::string Dir, Path;
};

/// A measure with every field set, none to its default.
CommitMeasure fullMeasure() {
  CommitMeasure M;
  M.Commit = std::string(40, 'c');
  M.Parent = std::string(40, 'p');
  M.Summary = "fix \"quotes\" | and pipes";
  M.Tests = 9;
  M.TestFiles = 3;
  M.Selected = 4;
  M.SelectedFiles = 2;
  M.Affected = 3;
  M.AffectedFiles = 1;
  M.AffectedSelected = 2;
  M.AffectedTests = {"gtest:A.a", "gtest:A.b", "gtest:B.c"};
  M.Missed = {{"gtest:B.c", "its coverage did not reach the change"}};
  M.ByFramework = {{"gtest", {5, 3, 3}}, {"lit", {4, 1, 0}}};
  M.ChangedElements = 7;
  M.Fallbacks = {"unindexed-file src/x.cpp"};
  M.SelectedAll = true;
  M.BuildSeconds = 1.5;
  M.IndexSeconds = 0.25;
  M.SelectSeconds = 0.125;
  M.CollectSeconds = 12;
  M.AllTestsSeconds = 10;
  M.SelectedTestsSeconds = 4.5;
  M.TestCommandRan = true;
  M.TestCommandExit = 2;
  return M;
}

void expectSameMeasure(const CommitMeasure &A, const CommitMeasure &B) {
  EXPECT_EQ(A.Commit, B.Commit);
  EXPECT_EQ(A.Parent, B.Parent);
  EXPECT_EQ(A.Summary, B.Summary);
  EXPECT_EQ(A.Tests, B.Tests);
  EXPECT_EQ(A.TestFiles, B.TestFiles);
  EXPECT_EQ(A.Selected, B.Selected);
  EXPECT_EQ(A.SelectedFiles, B.SelectedFiles);
  EXPECT_EQ(A.Affected, B.Affected);
  EXPECT_EQ(A.AffectedFiles, B.AffectedFiles);
  EXPECT_EQ(A.AffectedSelected, B.AffectedSelected);
  EXPECT_EQ(A.AffectedTests, B.AffectedTests);
  ASSERT_EQ(A.Missed.size(), B.Missed.size());
  for (size_t I = 0; I < A.Missed.size(); ++I) {
    EXPECT_EQ(A.Missed[I].Test, B.Missed[I].Test);
    EXPECT_EQ(A.Missed[I].Reason, B.Missed[I].Reason);
  }
  ASSERT_EQ(A.ByFramework.size(), B.ByFramework.size());
  for (const auto &[Framework, N] : A.ByFramework) {
    auto Other = B.ByFramework.find(Framework);
    ASSERT_NE(Other, B.ByFramework.end()) << Framework;
    EXPECT_EQ(N.Tests, Other->second.Tests) << Framework;
    EXPECT_EQ(N.Selected, Other->second.Selected) << Framework;
    EXPECT_EQ(N.Affected, Other->second.Affected) << Framework;
  }
  EXPECT_EQ(A.ChangedElements, B.ChangedElements);
  EXPECT_EQ(A.Fallbacks, B.Fallbacks);
  EXPECT_EQ(A.SelectedAll, B.SelectedAll);
  EXPECT_DOUBLE_EQ(A.BuildSeconds, B.BuildSeconds);
  EXPECT_DOUBLE_EQ(A.IndexSeconds, B.IndexSeconds);
  EXPECT_DOUBLE_EQ(A.SelectSeconds, B.SelectSeconds);
  EXPECT_DOUBLE_EQ(A.CollectSeconds, B.CollectSeconds);
  EXPECT_DOUBLE_EQ(A.AllTestsSeconds, B.AllTestsSeconds);
  EXPECT_DOUBLE_EQ(A.SelectedTestsSeconds, B.SelectedTestsSeconds);
  EXPECT_EQ(A.TestCommandRan, B.TestCommandRan);
  EXPECT_EQ(A.TestCommandExit, B.TestCommandExit);
}

JournalEntry entryOf(CommitMeasure M) {
  TestResult R;
  R.TestId = "gtest:A.a";
  R.Result = Outcome::Failed;
  R.Seconds = 0.5;
  R.Attempt = 1;
  R.Message = "expected 2, got 3";
  return {{R}, {std::move(M)}};
}

TEST(CommitJson, ReadsBackWhatItWrote) {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  llvm::json::OStream J(OS);
  writeCommitJson(J, fullMeasure());
  ASSERT_VALUE(V, llvm::json::parse(Text));
  ASSERT_VALUE(M, readCommitJson(*V));
  expectSameMeasure(*M, fullMeasure());
}

TEST(CommitJson, ReadsAReportWithoutFrameworkCountsAndRefusesBadOnes) {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  llvm::json::OStream J(OS);
  writeCommitJson(J, fullMeasure());
  ASSERT_VALUE(V, llvm::json::parse(Text));
  llvm::json::Object Older = *V->getAsObject();
  Older.erase("by_framework");
  ASSERT_VALUE(M, readCommitJson(llvm::json::Value(std::move(Older))));
  EXPECT_TRUE(M->ByFramework.empty());
  llvm::json::Object Bad = *V->getAsObject();
  (*Bad.getObject("by_framework"))["lit"] =
      llvm::json::Object{{"tests", 4}, {"selected", "one"}, {"affected", 0}};
  EXPECT_EQ(errorText(readCommitJson(llvm::json::Value(std::move(Bad)))),
            "a replayed commit's 'by_framework.lit.selected' is missing or not "
            "what the format says");
}

TEST(CommitJson, NamesTheFirstBadField) {
  ASSERT_VALUE(V, llvm::json::parse(R"({"commit": "c", "parent": 3})"));
  EXPECT_EQ(errorText(readCommitJson(*V)),
            "a replayed commit's 'parent' is missing or not what the format "
            "says");
}

TEST_F(JournalTest, ReadsBackTheCommitsOfAnEarlierRun) {
  {
    ASSERT_VALUE(J, ReplayJournal::open(Path, settings()));
    EXPECT_EQ(J->measuredCommits(), 0u);
    ASSERT_OK(J->record(std::string(40, 'b'), {{}, {}})); // a parent's map
    ASSERT_OK(J->record(std::string(40, 'c'), entryOf(fullMeasure())));
  }
  ASSERT_VALUE(J, ReplayJournal::open(Path, settings()));
  EXPECT_EQ(J->measuredCommits(), 1u);
  const JournalEntry *Base = J->find(std::string(40, 'b'));
  ASSERT_NE(Base, nullptr);
  EXPECT_TRUE(Base->Measures.empty());
  const JournalEntry *E = J->find(std::string(40, 'c'));
  ASSERT_NE(E, nullptr);
  ASSERT_EQ(E->Measures.size(), 1u);
  expectSameMeasure(E->Measures[0], fullMeasure());
  ASSERT_EQ(E->Results.size(), 1u);
  EXPECT_EQ(E->Results[0].TestId, "gtest:A.a");
  EXPECT_EQ(E->Results[0].Result, Outcome::Failed);
  EXPECT_DOUBLE_EQ(E->Results[0].Seconds, 0.5);
  EXPECT_EQ(E->Results[0].Attempt, 1u);
  EXPECT_EQ(E->Results[0].Message, "expected 2, got 3");
  EXPECT_EQ(J->find(std::string(40, 'd')), nullptr);
}

TEST_F(JournalTest, RefusesAnotherReplaysSettings) {
  { ASSERT_VALUE(J, ReplayJournal::open(Path, settings("make"))); }
  std::string Before = fileText();
  std::string Err = errorText(ReplayJournal::open(Path, settings("ninja")));
  EXPECT_NE(Err.find("was measured with another build"), std::string::npos)
      << Err;
  EXPECT_EQ(fileText(), Before);
}

TEST_F(JournalTest, DropsALastLineCutShort) {
  {
    ASSERT_VALUE(J, ReplayJournal::open(Path, settings()));
    ASSERT_OK(J->record(std::string(40, 'c'), entryOf(fullMeasure())));
  }
  std::string Whole = fileText();
  appendText(R"({"commit": "dddd", "resu)");
  {
    ASSERT_VALUE(J, ReplayJournal::open(Path, settings()));
    EXPECT_EQ(J->measuredCommits(), 1u);
    EXPECT_EQ(J->find("dddd"), nullptr);
  }
  // Removed, so that the next entry starts on a line of its own.
  EXPECT_EQ(fileText(), Whole);
}

TEST_F(JournalTest, RefusesAnEntryItCannotRead) {
  { ASSERT_VALUE(J, ReplayJournal::open(Path, settings())); }
  appendText("not json\n");
  std::string Err = errorText(ReplayJournal::open(Path, settings()));
  EXPECT_NE(Err.find("replay-journal.jsonl:2 is not an entry"),
            std::string::npos)
      << Err;
}

TEST_F(JournalTest, RefusesAnEntryWithAMeasureMissing) {
  {
    ASSERT_VALUE(J, ReplayJournal::open(Path, settings()));
    JournalEntry E = entryOf(fullMeasure());
    E.Measures.push_back(fullMeasure()); // two measures, one mode
    ASSERT_OK(J->record(std::string(40, 'c'), std::move(E)));
  }
  std::string Err = errorText(ReplayJournal::open(Path, settings()));
  EXPECT_NE(Err.find("replay-journal.jsonl:2 is not an entry"),
            std::string::npos)
      << Err;
}

TEST_F(JournalTest, RefusesAFileThatIsNoJournal) {
  appendText("{\"version\": 1}\n");
  std::string Err = errorText(ReplayJournal::open(Path, settings()));
  EXPECT_NE(Err.find("is not the journal of a tia eval replay"),
            std::string::npos)
      << Err;
}

TEST_F(JournalTest, RefusesAnotherVersion) {
  appendText("{\"journal\": \"tia eval replay\", \"version\": 2, "
             "\"settings\": {}}\n");
  std::string Err = errorText(ReplayJournal::open(Path, settings()));
  EXPECT_NE(Err.find("written by another version of tia"), std::string::npos)
      << Err;
}

} // namespace
