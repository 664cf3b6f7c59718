//===- EvalTest.cpp - the measures and mutations of tia eval --------------===//

#include "tia/Eval/Mutants.h"
#include "tia/Eval/SelectionReplay.h"
#include "tia/Store/Store.h"
#include "llvm/Support/JSON.h"
#include "gtest/gtest.h"

using namespace tia;
using namespace tia::eval;

namespace {

std::string mutate(llvm::StringRef Line, MutationOperator Op,
                   bool Python = false) {
  return mutateLine(Line, Op, Python).value_or("<none>");
}

TEST(MutateLine, NegatesCppConditions) {
  EXPECT_EQ(mutate("  if (Value < Low)", MutationOperator::NegateCondition),
            "  if (!(Value < Low))");
  EXPECT_EQ(mutate("  while (f(a) && b) {", MutationOperator::NegateCondition),
            "  while (!(f(a) && b)) {");
  // The condition goes on past the line: left alone.
  EXPECT_EQ(mutate("  if (a &&", MutationOperator::NegateCondition), "<none>");
  // "elif"-like words inside identifiers are no keywords.
  EXPECT_EQ(mutate("  verify (x);", MutationOperator::NegateCondition),
            "<none>");
}

TEST(MutateLine, NegatesPythonConditions) {
  EXPECT_EQ(
      mutate("    if not words:", MutationOperator::NegateCondition, true),
      "    if not (not words):");
  EXPECT_EQ(mutate("    elif a == b:", MutationOperator::NegateCondition, true),
            "    elif not (a == b):");
}

TEST(MutateLine, SwapsTheFirstOperator) {
  EXPECT_EQ(mutate("  return X * Other.X + Y;", MutationOperator::SwapOperator),
            "  return X / Other.X + Y;");
  EXPECT_EQ(
      mutate("  return X == O.X && Y == O.Y;", MutationOperator::SwapOperator),
      "  return X != O.X && Y == O.Y;");
  EXPECT_EQ(mutate("  x += 1;", MutationOperator::SwapOperator), "<none>");
  EXPECT_EQ(mutate("    return a and b", MutationOperator::SwapOperator, true),
            "    return a or b");
}

TEST(MutateLine, ChangesIntegerConstants) {
  EXPECT_EQ(mutate("  return Sum / 2;", MutationOperator::ChangeConstant),
            "  return Sum / 3;");
  // Not a part of a name, a float or a suffixed literal.
  EXPECT_EQ(
      mutate("  return v2 * 0.5f + 1u;", MutationOperator::ChangeConstant),
      "<none>");
}

TEST(MutateLine, RemovesAssignmentsAndCalls) {
  EXPECT_EQ(mutate("    Sum += V;", MutationOperator::RemoveStatement), "    ");
  EXPECT_EQ(mutate("    Out.push_back(x);", MutationOperator::RemoveStatement),
            "    ");
  EXPECT_EQ(mutate("    ++I;", MutationOperator::RemoveStatement), "    ");
  // Declarations and returns stay: removing them breaks the build.
  EXPECT_EQ(mutate("    double Sum = 0;", MutationOperator::RemoveStatement),
            "<none>");
  EXPECT_EQ(mutate("    return f(x);", MutationOperator::RemoveStatement),
            "<none>");
  EXPECT_EQ(mutate("        self.counts = {}",
                   MutationOperator::RemoveStatement, true),
            "        pass");
}

TEST(MutateLine, LeavesCommentsAndStringsAlone) {
  EXPECT_EQ(mutate("  // if (a) b = 1;", MutationOperator::ChangeConstant),
            "<none>");
  EXPECT_EQ(mutate("  s = \"a + b\";", MutationOperator::SwapOperator),
            "<none>");
  EXPECT_EQ(mutate("    x = 1  # one", MutationOperator::ChangeConstant, true),
            "<none>");
}

TEST(MutateElement, SkipsTheSignatureAndTriesOperatorsInTurn) {
  Element E;
  E.File = "src/a.cpp";
  E.Display = "f(int)";
  E.BeginLine = 1;
  E.EndLine = 4;
  llvm::StringRef Text = "int f(int a = 1) {\n"
                         "  if (a)\n"
                         "    return a + 2;\n"
                         "}\n";
  auto M = mutateElement(Text, E, /*FirstOp=*/0);
  ASSERT_TRUE(M);
  EXPECT_EQ(M->Line, 2u);
  EXPECT_EQ(M->After, "  if (!(a))");
  M = mutateElement(Text, E, /*FirstOp=*/2);
  ASSERT_TRUE(M);
  EXPECT_EQ(M->Line, 3u);
  EXPECT_EQ(M->After, "    return a + 3;");
  EXPECT_EQ(applyMutation(Text, *M), "int f(int a = 1) {\n"
                                     "  if (a)\n"
                                     "    return a + 3;\n"
                                     "}\n");
}

TEST(MutateElement, OneLineFunctionsOnlyAfterTheBrace) {
  Element E;
  E.File = "src/a.cpp";
  E.BeginLine = E.EndLine = 1;
  auto M = mutateElement("int g(int a = 5) { return a * 2; }\n", E, 1);
  ASSERT_TRUE(M);
  EXPECT_EQ(M->After, "int g(int a = 5) { return a / 2; }");
}

TEST(Spread, EvenlyAndAll) {
  EXPECT_EQ(spread(6, 3), (std::vector<size_t>{0, 2, 4}));
  EXPECT_EQ(spread(2, 5), (std::vector<size_t>{0, 1}));
  EXPECT_TRUE(spread(0, 3).empty());
}

TEST(SelectionIncludes, DefinitionsStandForInstances) {
  std::vector<std::string> Sel = {"gtest:*:VectorTest.Length",
                                  "gtest:calc_test:Param.Case",
                                  "pytest:tests/t.py::test_x", "ctest:plain"};
  EXPECT_TRUE(selectionIncludes(Sel, "gtest:geometry_test:VectorTest.Length"));
  EXPECT_TRUE(selectionIncludes(Sel, "gtest:calc_test:Inst/Param.Case/2"));
  EXPECT_FALSE(selectionIncludes(Sel, "gtest:other_test:Inst/Param.Case/2"));
  EXPECT_TRUE(selectionIncludes(Sel, "pytest:tests/t.py::test_x[1]"));
  EXPECT_FALSE(selectionIncludes(Sel, "pytest:tests/t.py::test_xy"));
  EXPECT_TRUE(selectionIncludes(Sel, "ctest:plain"));
  EXPECT_FALSE(selectionIncludes(Sel, "ctest:plain2"));
}

TEST(TestFileOf, FromTheStoreElseTheId) {
  llvm::StringMap<std::string> Files;
  Files["gtest:a_test:S.N"] = "tests/a_test.cpp";
  EXPECT_EQ(testFileOf("gtest:a_test:S.N", Files), "tests/a_test.cpp");
  EXPECT_EQ(testFileOf("gtest:b_test:S.M", Files), "b_test");
  EXPECT_EQ(testFileOf("pytest:tests/t.py::C::test", Files), "tests/t.py");
  EXPECT_EQ(testFileOf("ctest:x", Files), "ctest:x");
}

TEST(Figures, PerCommitAndTotal) {
  CommitMeasure A;
  A.Tests = 10;
  A.Selected = 4;
  A.AffectedSelected = 2;
  A.AllTestsSeconds = 10;
  A.SelectedTestsSeconds = 4;
  A.IndexSeconds = 1;
  A.SelectSeconds = 1;
  A.CollectSeconds = 12; // 2 seconds beyond the plain run
  EXPECT_DOUBLE_EQ(A.testReduction(), 0.6);
  EXPECT_DOUBLE_EQ(*A.precision(), 0.5);
  EXPECT_DOUBLE_EQ(A.overheadSeconds(), 4);
  EXPECT_DOUBLE_EQ(*A.timeReduction(), 0.2);
  EXPECT_DOUBLE_EQ(*A.timeReductionWithoutCollection(), 0.4);
  CommitMeasure B;
  B.Tests = 10;
  B.Missed.push_back({"ctest:x", "why"});
  EXPECT_FALSE(B.precision());
  EXPECT_FALSE(B.timeReduction());

  ReplayReport R;
  R.Commits = {A, B};
  EXPECT_DOUBLE_EQ(R.testReduction(), 0.8);
  EXPECT_DOUBLE_EQ(*R.precision(), 0.5);
  EXPECT_DOUBLE_EQ(*R.safeReduction(), 0.5);
  EXPECT_EQ(R.missed(), 1u);
  EXPECT_EQ(percent(R.safeReduction()), "50.0%");
  EXPECT_EQ(percent(std::nullopt), "-");
}

TEST(Reports, SeveralModesAgainstOneGroundTruth) {
  CommitMeasure C;
  C.Commit = "0123456789abcdef0123456789abcdef01234567";
  C.Summary = "change";
  C.Tests = 4;
  C.TestFiles = 2;
  C.Affected = 1;
  C.AffectedTests = {"gtest:t:A.B"};
  CommitMeasure Static = C;
  Static.Selected = 3;
  Static.SelectedFiles = 2;
  Static.AffectedSelected = 1;
  CommitMeasure Coverage = C;
  Coverage.Missed.push_back({"gtest:t:A.B", "a reason"});

  ReplayReport R;
  R.Mode = "static";
  R.Commits = {Static};
  std::string One;
  llvm::raw_string_ostream OneOS(One);
  writeReplayJson(R, OneOS);
  EXPECT_NE(One.find("\"mode\": \"static\""), std::string::npos);
  EXPECT_EQ(One.find("\"modes\""), std::string::npos);

  ReplayReport Other = R;
  Other.Mode = "coverage";
  Other.Commits = {Coverage};
  R.Others.push_back(Other);
  std::string Json;
  llvm::raw_string_ostream JsonOS(Json);
  writeReplayJson(R, JsonOS);
  auto Parsed = llvm::json::parse(Json);
  ASSERT_TRUE(bool(Parsed)) << llvm::toString(Parsed.takeError());
  const llvm::json::Object &Top = *Parsed->getAsObject();
  EXPECT_EQ(*Top.getString("mode"), "static");
  EXPECT_EQ(*Top.getObject("total")->getInteger("selected"), 3);
  const llvm::json::Array &Modes = *Top.getArray("modes");
  ASSERT_EQ(Modes.size(), 2u);
  EXPECT_EQ(*Modes[0].getAsObject()->getString("mode"), "static");
  const llvm::json::Object &Cov = *Modes[1].getAsObject();
  EXPECT_EQ(*Cov.getString("mode"), "coverage");
  EXPECT_EQ(*Cov.getObject("total")->getInteger("missed"), 1);
  EXPECT_EQ(*Cov.getObject("total")->getInteger("affected"), 1);

  std::string Md;
  llvm::raw_string_ostream MdOS(Md);
  writeReplayMarkdown(R, MdOS);
  EXPECT_NE(
      Md.find("| `0123456789ab` | change | 4 (2) | 1 | 3 (2) | 0 (0) | 0 | "
              "**1** |"),
      std::string::npos)
      << Md;
  EXPECT_NE(Md.find("- coverage, `0123456789ab` `gtest:t:A.B`: a reason"),
            std::string::npos)
      << Md;
  EXPECT_NE(replaySummary(R).find("; coverage: TestR 100.0%"),
            std::string::npos)
      << replaySummary(R);
}

Element function(llvm::StringRef Key) {
  Element E;
  E.Key = Key.str();
  E.Display = Key.drop_front(4).str() + "()";
  E.File = "src/a.cpp";
  return E;
}

TEST(Measure, GroundTruthFromBothSnapshotsAndFailures) {
  auto S = Store::open(":memory:", Store::Mode::ReadWrite);
  ASSERT_TRUE(bool(S)) << llvm::toString(S.takeError());
  Store &St = **S;
  // At the parent: t1 runs f, t2 runs g, t3 nothing changed; at the commit
  // t3 also reaches f.
  ASSERT_FALSE(bool(St.putCoverage("ctest:t1", "p", {"cpp:f"})));
  ASSERT_FALSE(bool(St.putCoverage("ctest:t2", "p", {"cpp:g"})));
  ASSERT_FALSE(bool(St.putCoverage("ctest:t3", "p", {"cpp:h"})));
  ASSERT_FALSE(bool(St.putCoverage("ctest:t4", "p", {"cpp:h"})));
  ASSERT_FALSE(bool(St.putCoverage("ctest:t1", "c", {"cpp:f"})));
  ASSERT_FALSE(bool(St.putCoverage("ctest:t3", "c", {"cpp:f", "cpp:h"})));
  auto Snaps = St.coverageSnapshots();
  ASSERT_TRUE(bool(Snaps));
  ASSERT_EQ(Snaps->size(), 2u);

  select::Plan P;
  select::ChangedElement F;
  F.Elem = function("cpp:f");
  select::ChangedElement G;
  G.Change = select::ElementChange::Deleted;
  G.Elem = function("cpp:g");
  P.Changes.Elements = {F, G};
  P.Selected.push_back({"ctest:t1", {}});

  Observed O;
  O.ParentSnapshot = (*Snaps)[1].Id;
  O.CommitSnapshot = (*Snaps)[0].Id;
  for (const char *T : {"ctest:t1", "ctest:t2", "ctest:t3", "ctest:t4"})
    O.ParentResults.push_back({T, Outcome::Passed, 1});
  O.CommitResults = O.ParentResults;
  O.CommitResults[3].Result = Outcome::Failed;

  CommitMeasure M;
  ASSERT_FALSE(bool(measure(St, P, O, {}, M)));
  EXPECT_EQ(M.Tests, 4u);
  EXPECT_EQ(M.Selected, 1u);
  EXPECT_EQ(M.AffectedTests,
            (std::vector<std::string>{"ctest:t1", "ctest:t2", "ctest:t3",
                                      "ctest:t4"}));
  EXPECT_EQ(M.AffectedSelected, 1u);
  ASSERT_EQ(M.Missed.size(), 3u);
  EXPECT_EQ(M.Missed[0].Test, "ctest:t2");
  EXPECT_EQ(M.Missed[0].Reason, "covered g() at the parent, which the commit "
                                "deleted, yet was not selected (a budget?)");
  EXPECT_EQ(M.Missed[1].Reason,
            "reaches f() (modified) only at the commit: its coverage at the "
            "parent does not include it");
  EXPECT_EQ(M.Missed[2].Reason,
            "fails at the commit after passing at the parent, but runs no "
            "element the commit changed");
  EXPECT_EQ(M.AllTestsSeconds, 4);
  EXPECT_EQ(M.SelectedTestsSeconds, 1);

  // A commit that changed only another file (its changes came from an
  // earlier commit the coverage lies behind) affects only t4, which fails.
  O.CommitFiles = std::set<std::string>{"CHANGELOG.md"};
  CommitMeasure Alone;
  ASSERT_FALSE(bool(measure(St, P, O, {}, Alone)));
  EXPECT_EQ(Alone.AffectedTests, (std::vector<std::string>{"ctest:t4"}));
}

} // namespace
