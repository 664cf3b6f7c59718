//===- PredictTest.cpp - features, causes, metrics, the booster -----------===//
//
// The history tests script a real repository with `git fast-import` (exact
// authors and dates), then read it back through firstParentHistory and the
// history replay's state.
//
//===----------------------------------------------------------------------===//

#include "PredictInternal.h"
#include "tia/Testing/Assertions.h"
#include "tia/Testing/MemoryStore.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"
#include <cmath>

using namespace tia;
using namespace tia::predict;
using tia::testing::errorText;

namespace {

constexpr int64_t T0 = 1767225600; // 2026-01-01

/// One scripted commit: who, when, and the files it writes.
struct Scripted {
  std::string Author;
  int64_t Time;
  std::vector<std::pair<std::string, std::string>> Files;
};

/// A repository made from scripted commits on main, checked out.
class ScriptedRepo {
public:
  explicit ScriptedRepo(const std::vector<Scripted> &Commits) {
    EXPECT_FALSE(llvm::sys::fs::createUniqueDirectory("tia-predict", Dir));
    std::string Stream;
    llvm::raw_string_ostream OS(Stream);
    for (size_t I = 0; I != Commits.size(); ++I) {
      const Scripted &C = Commits[I];
      std::string Who = C.Author + " <" + C.Author + "@example.invalid> " +
                        std::to_string(C.Time) + " +0000\n";
      OS << "commit refs/heads/main\nmark :" << I + 1 << "\nauthor " << Who
         << "committer " << Who << "data 2\nc\n";
      if (I)
        OS << "from :" << I << "\n";
      for (const auto &[Path, Content] : C.Files)
        OS << "M 100644 inline " << Path << "\ndata " << Content.size() << "\n"
           << Content << "\n";
    }
    OS.flush();
    llvm::SmallString<128> Input;
    EXPECT_FALSE(
        llvm::sys::fs::createTemporaryFile("tia-predict", "fi", Input));
    {
      std::error_code EC;
      llvm::raw_fd_ostream Out(Input, EC);
      Out << Stream;
    }
    run({"init", "-q", "-b", "main", Dir.str().str()}, std::nullopt);
    run({"-C", Dir.str().str(), "fast-import", "--quiet"}, Input.str());
    run({"-C", Dir.str().str(), "checkout", "-q", "-f", "main"}, std::nullopt);
    llvm::sys::fs::remove(Input);
  }
  ~ScriptedRepo() { llvm::sys::fs::remove_directories(Dir); }

  std::optional<git::Repository> open() {
    auto R = git::Repository::discover(Dir);
    if (!R) {
      ADD_FAILURE() << errorText(R.takeError());
      return std::nullopt;
    }
    return std::move(*R);
  }

private:
  void run(std::vector<std::string> Args,
           std::optional<llvm::StringRef> StdinFile) {
    auto Git = llvm::sys::findProgramByName("git");
    ASSERT_TRUE(bool(Git));
    Args.insert(Args.begin(), "git");
    std::vector<llvm::StringRef> Argv(Args.begin(), Args.end());
    std::vector<llvm::StringRef> Env = {"GIT_CONFIG_NOSYSTEM=1",
                                        "GIT_CONFIG_GLOBAL=/dev/null",
                                        "HOME=/nonexistent"};
    std::optional<llvm::StringRef> Redirects[] = {StdinFile, std::nullopt,
                                                  std::nullopt};
    std::string Msg;
    int Rc = llvm::sys::ExecuteAndWait(*Git, Argv, Env, Redirects, 60, 0, &Msg);
    ASSERT_EQ(Rc, 0) << llvm::join(Args, " ") << ": " << Msg;
  }

  llvm::SmallString<128> Dir;
};

using tia::testing::openMemory;

TEST(PredictTest, DirectoryDistanceCountsStepsThroughTheCommonAncestor) {
  EXPECT_EQ(directoryDistance("net/tests/a_test.cpp", "net/src/a.cpp"), 2u);
  EXPECT_EQ(directoryDistance("net/tests/a_test.cpp", "net/tests/b.cpp"), 0u);
  EXPECT_EQ(directoryDistance("net/tests/a_test.cpp", "db/src/x/y.cpp"), 5u);
  EXPECT_EQ(directoryDistance("a_test.cpp", "README.md"), 0u);
  EXPECT_EQ(parentDir("a/b/c.cpp"), "a/b");
  EXPECT_EQ(parentDir("c.cpp"), "");
}

TEST(PredictTest, ExtensionClasses) {
  EXPECT_EQ(extensionClass("src/a.cpp"), 1u);
  EXPECT_EQ(extensionClass("include/a.hpp"), 2u);
  EXPECT_EQ(extensionClass("pkg/a.py"), 3u);
  EXPECT_EQ(extensionClass("CMakeLists.txt"), 4u);
  EXPECT_EQ(extensionClass("conf/a.yaml"), 5u);
  EXPECT_EQ(extensionClass("logo.png"), 6u);
}

TEST(PredictTest, TopCutsParseAndCount) {
  std::optional<TopCut> Count = parseTopCut("20");
  ASSERT_TRUE(Count);
  EXPECT_EQ(Count->Count, 20u);
  EXPECT_EQ(topCount(*Count, 100), 20u);
  EXPECT_EQ(topCount(*Count, 5), 5u);
  std::optional<TopCut> Percent = parseTopCut("10%");
  ASSERT_TRUE(Percent);
  EXPECT_EQ(Percent->Spelled, "10%");
  EXPECT_EQ(topCount(*Percent, 100), 10u);
  // A share rounds up: 10% of 8 tests keeps one.
  EXPECT_EQ(topCount(*Percent, 8), 1u);
  for (const char *Bad : {"0", "-3", "2.5", "0%", "101%", "x", "%", ""})
    EXPECT_FALSE(parseTopCut(Bad)) << Bad;
  // Keeping 2 of 8 tests reads the curve at 25%.
  Ranking R;
  EXPECT_FALSE(cutConfidence(R, 2, 8));
  R.Model.emplace();
  R.Model->Curve.assign(101, 0.0);
  R.Model->Curve[25] = 0.9;
  EXPECT_EQ(cutConfidence(R, 2, 8), 0.9);
}

TEST(PredictTest, ApfdAndRecall) {
  // n = 4, failures at positions 1 and 3: 1 - 4/8 + 1/8.
  EXPECT_DOUBLE_EQ(apfd({true, false, true, false}), 0.625);
  EXPECT_DOUBLE_EQ(apfd({false, false, false, true}), 1 - 4.0 / 4 + 1.0 / 8);
  EXPECT_TRUE(std::isnan(apfd({false, false})));
  std::vector<bool> F = {true,  false, false, false, false,
                         false, false, false, false, true};
  EXPECT_DOUBLE_EQ(recallAt(F, 0.1), 0.5);
  EXPECT_DOUBLE_EQ(recallAt(F, 0.5), 0.5);
  EXPECT_DOUBLE_EQ(recallAt(F, 1.0), 1.0);
  EXPECT_DOUBLE_EQ(recallAt(F, 0.0), 0.0);
}

TEST(PredictTest, FirstParentHistoryCountsLinesAndKeepsAuthorsAndTimes) {
  ScriptedRepo Repo(
      {{"ada", T0, {{"src/a.cpp", "int a;\n"}}},
       {"ken",
        T0 + 100,
        {{"src/a.cpp", "int a;\nint b;\nint c;\n"}, {"README.md", "hi\n"}}}});
  auto R = Repo.open();
  ASSERT_TRUE(R);
  ASSERT_VALUE(H, git::firstParentHistory(*R, "HEAD"));
  ASSERT_EQ(H->size(), 2u);
  EXPECT_EQ((*H)[0].AuthorEmail, "ada@example.invalid");
  EXPECT_EQ((*H)[0].Time, T0);
  EXPECT_TRUE((*H)[0].Parents.empty());
  ASSERT_EQ((*H)[0].Files.size(), 1u);
  EXPECT_EQ((*H)[0].Files[0].Status, git::ChangeStatus::Added);
  EXPECT_EQ((*H)[0].Files[0].Added, 1u);
  const auto &Second = (*H)[1].Files;
  ASSERT_EQ(Second.size(), 2u);
  EXPECT_EQ(Second[0].path(), "README.md");
  EXPECT_EQ(Second[1].path(), "src/a.cpp");
  EXPECT_EQ(Second[1].Status, git::ChangeStatus::Modified);
  EXPECT_EQ(Second[1].Added, 2u);
  EXPECT_EQ(Second[1].Deleted, 0u);
  ASSERT_VALUE(Recent, git::firstParentHistory(*R, "HEAD", T0 + 50));
  EXPECT_EQ(Recent->size(), 1u);
  ASSERT_VALUE(Time, git::commitTime(*R, "HEAD~1"));
  EXPECT_EQ(*Time, T0);
}

TEST(PredictTest, FileFeaturesCountAuthorsAndChangesInTheirWindows) {
  constexpr int64_t D = Day;
  ScriptedRepo Repo({{"ada", T0, {{"src/a.cpp", "1\n"}}},
                     {"ken", T0 + 10 * D, {{"src/a.cpp", "2\n"}}},
                     {"ada", T0 + 20 * D, {{"src/a.cpp", "3\n"}}},
                     {"ada", T0 + 21 * D, {{"src/a.cpp", "4\n"}}}});
  auto R = Repo.open();
  ASSERT_TRUE(R);
  ASSERT_VALUE(H, git::firstParentHistory(*R, "HEAD"));
  HistoryState State({});
  for (size_t I = 0; I + 1 < H->size(); ++I)
    State.absorbCommit((*H)[I]);
  // The last commit, as of its time: 3 changes before it, by 2 authors.
  std::vector<ChangedFile> F =
      State.fileFeatures(H->back().Files, H->back().Time);
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0].Path, "src/a.cpp");
  EXPECT_EQ(F[0].Values[FStatus], 3); // modified
  EXPECT_EQ(F[0].Values[FAdded], 1);
  EXPECT_EQ(F[0].Values[FDeleted], 1);
  EXPECT_EQ(F[0].Values[FAuthors], 2);
  EXPECT_EQ(F[0].Values[FChanges3], 1);  // day 20
  EXPECT_EQ(F[0].Values[FChanges14], 2); // days 10 and 20
  EXPECT_EQ(F[0].Values[FChanges56], 3);
}

TEST(PredictTest, TestFeaturesSeeOnlyThePast) {
  HistoryState State({{"t:Net", "net/tests/net_test.cpp"}});
  ChangedFile NetSrc{"net/src/net.cpp", {3, 4, 1, 1, 0, 0, 0}};
  ChangedFile UiSrc{"ui/src/ui.cpp", {3, 1, 0, 1, 0, 0, 0}};
  // Day 0 it fails with net/src changed; day 1 it passes with ui changed.
  State.absorbOutcomes(T0, {{"t:Net", true, 2.0}}, {NetSrc});
  State.absorbOutcomes(T0 + Day, {{"t:Net", false, 4.0}}, {UiSrc});

  ChangeFeatures C;
  C.Files = {NetSrc, UiSrc}; // sorted by path
  auto Row = State.row(C, "t:Net", T0 + 2 * Day, nullptr);
  EXPECT_FLOAT_EQ(Row[CFailRate7], 0.5);
  EXPECT_FLOAT_EQ(Row[CFailRateAll], 0.5);
  EXPECT_EQ(Row[CRuns28], 2);
  EXPECT_EQ(Row[CFailedLast], 0);
  EXPECT_FLOAT_EQ(Row[CDuration], 3.0);
  EXPECT_FLOAT_EQ(Row[CCofailFileRate], 1.0); // failed at net's only change
  EXPECT_FLOAT_EQ(Row[CCofailDirRate], 1.0);
  EXPECT_EQ(Row[CFiles], 2);
  EXPECT_EQ(Row[CAdded], 5);
  // Nearest changed file first: net/src is 2 steps from net/tests.
  EXPECT_EQ(Row[CCross], 2);
  EXPECT_EQ(Row[CCross + 1], 1); // a C++ source
  EXPECT_EQ(Row[CCross + 2 + FAdded], 4);
  EXPECT_EQ(Row[CCross + CrossWidth], 4); // ui/src
  EXPECT_TRUE(std::isnan(Row[CCross + 2 * CrossWidth]));
  EXPECT_TRUE(std::isnan(Row[CCoveredModified]));

  // As of day 0 itself nothing is known yet: no leakage from the run.
  auto Before = State.row(C, "t:Net", T0, nullptr);
  EXPECT_TRUE(std::isnan(Before[CFailRate7]));
  EXPECT_TRUE(std::isnan(Before[CFailedLast]));

  Evidence Ev{3, true};
  auto WithEvidence = State.row(C, "t:Net", T0 + 2 * Day, &Ev);
  EXPECT_EQ(WithEvidence[CCoveredModified], 3);
  EXPECT_EQ(WithEvidence[CSelected], 1);
}

TEST(PredictTest, MergedChangesAddUpLinesAndKeepAdded) {
  git::CommitInfo A, B;
  git::FileStat Added;
  Added.Status = git::ChangeStatus::Added;
  Added.NewPath = "a.cpp";
  Added.Added = 3;
  A.Files = {Added};
  git::FileStat Modified;
  Modified.Status = git::ChangeStatus::Modified;
  Modified.OldPath = Modified.NewPath = "a.cpp";
  Modified.Added = 1;
  Modified.Deleted = 2;
  git::FileStat Other = Modified;
  Other.OldPath = Other.NewPath = "b.cpp";
  B.Files = {Modified, Other};
  auto M = mergeChanges({&A, &B});
  ASSERT_EQ(M.size(), 2u);
  EXPECT_EQ(M[0].path(), "a.cpp");
  EXPECT_EQ(M[0].Status, git::ChangeStatus::Added);
  EXPECT_EQ(M[0].Added, 4u);
  EXPECT_EQ(M[0].Deleted, 2u);
  EXPECT_EQ(M[1].path(), "b.cpp");
}

TEST(PredictTest, DocumentationAndCommentOnlyChangesAreNoCauses) {
  ScriptedRepo Repo(
      {{"ada",
        T0,
        {{"src/a.cpp", "int f() { return 1; }\n"},
         {"pkg/m.py", "def f():\n    return 1\n"},
         {"README.md", "a\n"}}},
       {"ada",
        T0 + 1,
        {{"src/a.cpp", "// why\nint f() {\n  return 1; // one\n}\n"},
         {"pkg/m.py", "# why\n\ndef f():\n    return 1  \n"},
         {"README.md", "b\n"}}},
       {"ada",
        T0 + 2,
        {{"src/a.cpp", "int f() { return 2; }\n"},
         {"pkg/m.py", "def f():\n    return 2\n"}}}});
  auto R = Repo.open();
  ASSERT_TRUE(R);
  auto S = openMemory();
  ASSERT_TRUE(S);
  auto C = config::parseConfig("", ".tia.yaml");
  ASSERT_TRUE(bool(C)) << errorText(C.takeError());
  CauseFilter Filter(*R, *S, C->Predict);
  ASSERT_VALUE(H, git::firstParentHistory(*R, "HEAD"));
  ASSERT_EQ(H->size(), 3u);
  std::vector<std::string> Second, Third;
  for (const git::FileStat &F : (*H)[1].Files) {
    ASSERT_VALUE(Why, Filter.whyIgnored(F));
    Second.push_back(F.path() + ": " + Why->value_or("cause"));
  }
  for (const git::FileStat &F : (*H)[2].Files) {
    ASSERT_VALUE(Why, Filter.whyIgnored(F));
    Third.push_back(F.path() + ": " + Why->value_or("cause"));
  }
  EXPECT_EQ(Second,
            std::vector<std::string>({"README.md: documentation",
                                      "pkg/m.py: comments or layout only",
                                      "src/a.cpp: comments or layout only"}));
  EXPECT_EQ(Third,
            std::vector<std::string>({"pkg/m.py: cause", "src/a.cpp: cause"}));
}

TEST(PredictTest, BoosterLearnsAndRoundTrips) {
  // Column 0 decides the label; column 1 is noise.
  SparseRows X;
  std::vector<float> Y;
  for (int I = 0; I != 200; ++I) {
    X.startRow();
    bool Fails = I % 10 == 0;
    X.add(0, Fails ? 1 : 0);
    X.add(1, I % 7);
    Y.push_back(Fails);
  }
  BoostParams P;
  P.MaxDepth = 2;
  P.Rounds = 20;
  auto B = Booster::train(X, Y, 2, P);
  ASSERT_TRUE(bool(B)) << errorText(B.takeError());
  ASSERT_VALUE(Json, B->save());
  auto Loaded = Booster::load(*Json);
  ASSERT_TRUE(bool(Loaded)) << errorText(Loaded.takeError());
  ASSERT_VALUE(Scores, Loaded->predict(X.slice(0, 2), 2));
  ASSERT_EQ(Scores->size(), 2u);
  EXPECT_GT((*Scores)[0], 0.8);
  EXPECT_LT((*Scores)[1], 0.2);
  EXPECT_FALSE(bool(Booster::load("not a model")));
  llvm::consumeError(Booster::load("not a model").takeError());
}

TEST(PredictTest, HyperparametersParseAndPrint) {
  ASSERT_VALUE(P, BoostParams::parse("max_depth=4 eta=0.2 rounds=30"));
  EXPECT_EQ(P->describe(), "max_depth=4 eta=0.2 rounds=30 min_child_weight=1");
  EXPECT_EQ(errorText(BoostParams::parse("depth=4")),
            "bad hyperparameters 'depth=4': unknown key 'depth' (known: "
            "max_depth, eta, rounds, min_child_weight)");
  EXPECT_EQ(errorText(BoostParams::parse("eta=2")),
            "bad hyperparameters 'eta=2': 'eta=2' is out of range");
}

TEST(PredictTest, EvidenceFromASelectionCountsDistinctElements) {
  select::Selection Sel;
  select::SelectedTest A{"t:A",
                         {{0, static_cast<size_t>(-1), ""},
                          {1, static_cast<size_t>(-1), ""},
                          {1, static_cast<size_t>(-1), "covers overload"}}};
  select::SelectedTest B{"t:B", {{static_cast<size_t>(-1), 0, ""}}};
  Sel.Tests = {A, B};
  llvm::StringMap<Evidence> E = evidenceFrom(Sel);
  ASSERT_EQ(E.size(), 2u);
  EXPECT_EQ(E["t:A"].CoveredModified, 2u);
  EXPECT_TRUE(E["t:A"].Selected);
  EXPECT_EQ(E["t:B"].CoveredModified, 0u); // selected by a fallback
  EXPECT_TRUE(E["t:B"].Selected);
}

TEST(PredictTest, MetadataRoundTripsAndRejectsOtherLayouts) {
  ModelMeta M;
  M.Since = 42;
  M.Vocabulary = {"a.cpp", "b/c.cpp"};
  M.Summary.Samples = 10;
  M.Summary.Curve = {0, 0.5, 1};
  ASSERT_VALUE(Back, decodeMeta(encodeMeta(M)));
  EXPECT_EQ(Back->Since, 42);
  EXPECT_EQ(Back->Vocabulary, M.Vocabulary);
  EXPECT_EQ(Back->Summary.Samples, 10u);
  EXPECT_EQ(Back->Summary.Curve, M.Summary.Curve);
  EXPECT_EQ(errorText(decodeMeta("{\"fixed_columns\": 1}")),
            "the stored model's metadata is malformed: it has another feature "
            "layout (run 'tia train' again)");
}

} // namespace

namespace {

predict::Row rowTaking(const std::string &Test, float Seconds) {
  predict::Row R;
  R.Fixed.fill(NAN);
  R.Fixed[predict::CDuration] = Seconds;
  R.Test = Test;
  return R;
}

} // namespace

// Durations order the tests in steps: a few milliseconds of a loaded
// machine do not reorder quick tests (their names do), seconds do.
TEST(PredictTest, HeuristicOrderTakesDurationsInSteps) {
  std::vector<predict::Row> Rows = {
      rowTaking("a_slow", 3.0), rowTaking("b_quick", 0.004),
      rowTaking("c_quicker", 0.001), rowTaking("d_never_run", NAN),
      rowTaking("e_mid", 0.5)};
  std::vector<size_t> Order = predict::heuristicOrder(Rows);
  std::vector<std::string> Names;
  for (size_t I : Order)
    Names.push_back(Rows[I].Test);
  EXPECT_EQ(Names, (std::vector<std::string>{"b_quick", "c_quicker", "e_mid",
                                             "a_slow", "d_never_run"}));
}
