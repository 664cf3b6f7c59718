//===- Ordering.cpp - the policy's pure parts -----------------------------===//
//
// Run order, budgets, GoogleTest name patterns and compile command
// differences: functions over plain data, unit-tested without git or a
// database.
//
//===----------------------------------------------------------------------===//

#include "tia/Select/Policy.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

namespace tia {
namespace select {

llvm::StringRef reasonName(ReasonKind K) {
  switch (K) {
  case ReasonKind::Covers:
    return "covers";
  case ReasonKind::Related:
    return "related";
  case ReasonKind::Fallback:
    return "fallback";
  case ReasonKind::PreviouslyFailing:
    return "previously-failing";
  case ReasonKind::NewTest:
    return "new-test";
  case ReasonKind::ChangedTest:
    return "changed-test";
  }
  return "covers";
}

bool PlannedTest::has(ReasonKind K) const {
  return llvm::any_of(Reasons,
                      [&](const TestReason &R) { return R.Kind == K; });
}

double Plan::selectedSeconds() const {
  double Sum = 0;
  for (const PlannedTest &T : Selected)
    Sum += T.Seconds;
  return Sum;
}

namespace {

/// Durations in steps that double from 0.1 s ([0, 0.1), [0.1, 0.2),
/// [0.2, 0.4), ...): tests within one step run in the order of their ids,
/// so that the timing noise of fast tests does not reorder them from one
/// run to the next, while a 1 s test still runs before a 10 s one.
int durationStep(double Seconds) {
  if (!(Seconds >= 0.1))
    return 0;
  return 1 + static_cast<int>(std::floor(std::log2(Seconds / 0.1)));
}

} // namespace

void orderTests(std::vector<PlannedTest> &Tests) {
  auto Key = [](const PlannedTest &T) {
    return std::make_tuple(
        !T.PreviouslyFailing, -static_cast<int64_t>(T.ChangedElementsCovered),
        -T.FailureRate, durationStep(T.Seconds), llvm::StringRef(T.Id));
  };
  std::stable_sort(Tests.begin(), Tests.end(),
                   [&](const PlannedTest &A, const PlannedTest &B) {
                     return Key(A) < Key(B);
                   });
}

void applyBudget(Plan &P, bool EvenWhenAll) {
  if (!P.Limits.active())
    return;
  if (P.selectsAll() && !EvenWhenAll) {
    P.BudgetIgnored = true;
    return;
  }
  size_t Keep = P.Selected.size();
  if (P.Limits.MaxTests)
    Keep = std::min<size_t>(Keep, P.Limits.MaxTests);
  if (P.Limits.Seconds > 0) {
    double Sum = 0;
    for (size_t I = 0; I < Keep; ++I) {
      Sum += P.Selected[I].Seconds;
      if (I > 0 && Sum > P.Limits.Seconds) {
        Keep = I;
        break;
      }
    }
  }
  P.Cut.assign(std::make_move_iterator(P.Selected.begin() + Keep),
               std::make_move_iterator(P.Selected.end()));
  P.Selected.resize(Keep);
}

bool gtestNameMatches(llvm::StringRef Full, llvm::StringRef Pattern) {
  auto [PatternSuite, PatternName] = Pattern.split('.');
  auto [Suite, Name] = Full.split('.');
  // Value-parameterized names end in "/<index or name>".
  if (Name.split('/').first != PatternName)
    return false;
  // Suites carry an instantiation prefix ("Inst/Suite") or, when typed, a
  // type suffix ("Suite/0"); both for typed, parameterized ones.
  llvm::SmallVector<llvm::StringRef, 3> Parts;
  Suite.split(Parts, '/');
  return llvm::is_contained(Parts, PatternSuite);
}

bool caseNameMatches(CaseFramework F, llvm::StringRef Full,
                     llvm::StringRef Definition) {
  if (F == CaseFramework::GTest)
    return gtestNameMatches(Full, Definition);
  if (F == CaseFramework::Doctest)
    return doctestTemplateName(Full) == Definition;
  if (F == CaseFramework::Boost)
    return boostDefinitionName(Full) == Definition;
  // TEMPLATE_TEST_CASE's instances are "name - Type".
  return Full == Definition ||
         (Full.starts_with(Definition) &&
          Full.substr(Definition.size()).starts_with(" - "));
}

std::string commandDifference(const CompileCommand &Old,
                              const CompileCommand &New) {
  if (Old.Directory != New.Directory)
    return "its directory changed from " + Old.Directory + " to " +
           New.Directory;
  std::map<llvm::StringRef, int> Count;
  for (const std::string &A : New.Arguments)
    ++Count[A];
  for (const std::string &A : Old.Arguments)
    --Count[A];
  std::vector<std::string> Added, Removed;
  for (auto &[Arg, N] : Count) {
    for (int I = 0; I < N; ++I)
      Added.push_back(Arg.str());
    for (int I = 0; I < -N; ++I)
      Removed.push_back(Arg.str());
  }
  auto List = [](const std::vector<std::string> &Args) {
    std::vector<std::string> Shown(
        Args.begin(), Args.begin() + std::min<size_t>(3, Args.size()));
    std::string Out = llvm::join(Shown, " ");
    if (Args.size() > 3)
      Out += " and " + std::to_string(Args.size() - 3) + " more";
    return Out;
  };
  std::string Out;
  if (!Added.empty())
    Out = "added " + List(Added);
  if (!Removed.empty())
    Out += (Out.empty() ? "" : "; ") + std::string("removed ") + List(Removed);
  if (Out.empty())
    Out = "its arguments were reordered";
  return Out;
}

} // namespace select
} // namespace tia
