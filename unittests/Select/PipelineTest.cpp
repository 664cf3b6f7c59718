//===- PipelineTest.cpp - selectTests from a diff to tests ----------------===//
//
// selectTests and plan on a real repository (tia/Testing/TempRepo.h) and a
// ":memory:" store holding an index and two tests, for the changes that
// need no front end: what tia cannot reason about selects every test, what
// cannot change a test selects none.
//
//===----------------------------------------------------------------------===//

#include "tia/Git/Repository.h"
#include "tia/Select/Policy.h"
#include "tia/Select/Selection.h"
#include "tia/Store/Store.h"
#include "tia/Support/Hash.h"
#include "tia/Testing/Assertions.h"
#include "tia/Testing/TempRepo.h"

using namespace tia;
using namespace tia::select;

namespace {

class PipelineTest : public tia::testing::TempRepo {
protected:
  void SetUp() override {
    TempRepo::SetUp();
    init();
    write("lib.py", "def f():\n    return 1\n");
    Base = commit("base");
    auto Opened = Store::open(":memory:", Store::Mode::ReadWrite);
    ASSERT_TRUE(bool(Opened)) << llvm::toString(Opened.takeError());
    S = std::move(*Opened);
  }

  /// Records an index of the base and two known tests.
  void indexBase() {
    auto Rev = S->addRevision(
        Base, false, {{"lib.py", gitBlobHash("def f():\n    return 1\n")}});
    ASSERT_TRUE(bool(Rev)) << llvm::toString(Rev.takeError());
    ASSERT_OK(S->addTest("pytest:test_lib.py::test_a"));
    ASSERT_OK(S->addTest("pytest:test_lib.py::test_b"));
  }

  /// selectTests from the base to \p Head, in coverage mode.
  llvm::Expected<Selection> selectTo(llvm::StringRef Head) {
    auto Repo = git::Repository::discover(Dir);
    if (!Repo)
      return Repo.takeError();
    SelectOptions O;
    O.Base = Base;
    O.Head = Head.str();
    O.Mode = SelectionMode::Coverage;
    return selectTests(*Repo, *S, O);
  }

  /// The policy's plan from the base to \p Head, in coverage mode.
  llvm::Expected<Plan> planTo(llvm::StringRef Head,
                              llvm::StringRef AllRequestedBy = "") {
    auto Repo = git::Repository::discover(Dir);
    if (!Repo)
      return Repo.takeError();
    PolicyOptions O;
    O.Select.Base = Base;
    O.Select.Head = Head.str();
    O.Select.Mode = SelectionMode::Coverage;
    O.AllRequestedBy = AllRequestedBy.str();
    return plan(*Repo, *S, O);
  }

  /// Both tests covered lib.f at the base.
  void coverBase() {
    for (const char *Id :
         {"pytest:test_lib.py::test_a", "pytest:test_lib.py::test_b"})
      ASSERT_OK(S->putCoverage(Id, Base, {"py:lib:f"}));
  }

  std::string Base;
  std::unique_ptr<Store> S;
};

TEST_F(PipelineTest, AnUnknownFileSelectsEveryTestAsAFallback) {
  indexBase();
  write("settings.cfg", "level = 2\n");
  std::string Head = commit("settings");
  ASSERT_VALUE(Sel, selectTo(Head));
  ASSERT_EQ(Sel->Fallbacks.size(), 1u);
  EXPECT_EQ(Sel->Fallbacks[0].File, "settings.cfg");
  EXPECT_EQ(Sel->Fallbacks[0].Scope, FallbackScope::All);
  ASSERT_EQ(Sel->Tests.size(), 2u);
  for (const SelectedTest &T : Sel->Tests) {
    ASSERT_EQ(T.Reasons.size(), 1u) << T.Id;
    EXPECT_EQ(T.Reasons[0].Applied, Rule::Fallback) << T.Id;
    EXPECT_EQ(T.Reasons[0].FallbackIndex, 0u) << T.Id;
  }
  EXPECT_EQ(Sel->TotalTests, 2u);
}

TEST_F(PipelineTest, CoverageDataSelectsNoTest) {
  indexBase();
  write("run.gcda", "counters\n");
  std::string Head = commit("coverage data");
  ASSERT_VALUE(Sel, selectTo(Head));
  EXPECT_TRUE(Sel->Fallbacks.empty());
  EXPECT_TRUE(Sel->Tests.empty());
  ASSERT_EQ(Sel->Notes.size(), 1u);
  EXPECT_EQ(Sel->Notes[0].Kind, NoteKind::CoverageData);
  EXPECT_EQ(Sel->Files.size(), 1u);
}

TEST_F(PipelineTest, NoIndexIsAnError) {
  write("settings.cfg", "level = 2\n");
  std::string Head = commit("settings");
  EXPECT_EQ(tia::testing::errorText(selectTo(Head)),
            "no index in the database: run 'tia index' first");
}

TEST_F(PipelineTest, PlanPutsItsOwnFallbacksFirstAndKeepsReasonsOnThem) {
  indexBase();
  coverBase();
  write("settings.cfg", "level = 2\n");
  std::string Head = commit("settings");
  ASSERT_VALUE(P, planTo(Head, "--all"));
  const std::vector<Fallback> &F = P->Changes.Fallbacks;
  ASSERT_EQ(F.size(), 2u);
  EXPECT_EQ(F[0].Kind, FallbackKind::Requested);
  EXPECT_EQ(F[1].File, "settings.cfg");
  ASSERT_EQ(P->Selected.size(), 2u);
  for (const PlannedTest &T : P->Selected) {
    std::vector<size_t> Fallbacks;
    for (const TestReason &R : T.Reasons) {
      EXPECT_EQ(R.Kind, ReasonKind::Fallback) << T.Id;
      Fallbacks.push_back(R.Fallback);
    }
    EXPECT_EQ(Fallbacks, (std::vector<size_t>{0, 1})) << T.Id;
  }
  EXPECT_TRUE(P->NotSelected.empty());
  EXPECT_EQ(P->Quiet, QuietChange::None);
}

TEST_F(PipelineTest, PlanSelectsATestNeverCoveredAsNew) {
  indexBase();
  write("run.gcda", "counters\n");
  std::string Head = commit("coverage data");
  ASSERT_VALUE(P, planTo(Head));
  ASSERT_EQ(P->Selected.size(), 2u);
  EXPECT_TRUE(P->Selected[0].has(ReasonKind::NewTest));
}

TEST_F(PipelineTest, PlanForCoverageDataSelectsNothingAndSaysSo) {
  indexBase();
  coverBase();
  write("run.gcda", "counters\n");
  std::string Head = commit("coverage data");
  ASSERT_VALUE(P, planTo(Head));
  EXPECT_TRUE(P->Selected.empty());
  EXPECT_EQ(P->NotSelected.size(), 2u);
  EXPECT_EQ(P->TotalTests, 2u);
  EXPECT_EQ(P->Quiet, QuietChange::NoEffect);
}

} // namespace
