//===- Findings.cpp - what a review sees on the diff ----------------------===//
//
// The findings the sarif, codequality and github formats put on the lines
// of a pull request: the changed functions no test reaches (the Markdown
// report's "Untested changes"), the changes that made tia run every test,
// and, when asked, the changed functions a selected test reaches. Each
// carries a fingerprint that stays the same while what it is about does, so
// that a code-scanning service matches it across commits instead of
// opening it again.
//
//===----------------------------------------------------------------------===//

#include "ReportInternal.h"
#include "tia/Support/Hash.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

namespace tia {
namespace report {

namespace {

using select::ChangedElement;
using select::FunctionReach;
using select::Plan;

/// How many tests a covered finding names.
constexpr size_t NamedTests = 5;

std::string pathText(const std::vector<std::string> &Path) {
  return llvm::join(Path, " -> ");
}

/// The changed lines of \p CE as one range; its whole extent when none.
std::pair<unsigned, unsigned> changedRange(const ChangedElement &CE) {
  if (CE.Lines.empty())
    return {CE.Elem.BeginLine, CE.Elem.EndLine};
  return {CE.Lines.front(), CE.Lines.back()};
}

/// A finding about changed element \p CE, without its message.
Finding atElement(FindingRule Rule, FindingLevel Level,
                  const ChangedElement &CE) {
  Finding F;
  F.Rule = Rule;
  F.Level = Level;
  F.File = CE.Elem.File;
  std::tie(F.StartLine, F.EndLine) = changedRange(CE);
  // The element's identity and its tokens: the same while the function
  // is the same, whatever moves around it.
  F.Fingerprint = gitBlobHash(
      (ruleInfo(Rule).Id + "\n" + CE.Elem.Key + "\n" + CE.Elem.Hash).str());
  return F;
}

Finding untested(const Plan &P, const FunctionReach &R, const WriteOptions &O) {
  const ChangedElement &CE = P.Changes.Elements[R.Element];
  Finding F = atElement(FindingRule::Untested, O.Levels.Untested, CE);
  F.Title = "Untested change: " + CE.Elem.Display;
  F.Message = CE.Elem.Display + " changed, and no test reaches it";
  if (!R.Trigger.empty())
    F.Message += "; it " + R.Trigger;
  F.Message += ".";
  F.Paths = R.Paths;
  if (F.Paths.empty())
    F.Message += " No public entry point reaches it.";
  else
    F.Message +=
        " It is reachable from " +
        plural(R.EntryPoints, "public entry point", "public entry points") +
        "; the shortest path: " + pathText(F.Paths.front().Displays) + ".";
  return F;
}

/// The selected tests whose reasons name changed element \p Element.
std::vector<std::string> testsReaching(const Plan &P, size_t Element) {
  std::vector<std::string> Ids;
  for (const select::PlannedTest &T : P.Selected)
    for (const select::TestReason &R : T.Reasons)
      if (R.Element == Element && (R.Kind == select::ReasonKind::Covers ||
                                   R.Kind == select::ReasonKind::Related)) {
        Ids.push_back(T.Id);
        break;
      }
  return Ids;
}

Finding covered(const Plan &P, const FunctionReach &R, const WriteOptions &O) {
  const ChangedElement &CE = P.Changes.Elements[R.Element];
  Finding F = atElement(FindingRule::Covered, O.Levels.Covered, CE);
  std::vector<std::string> Ids = testsReaching(P, R.Element);
  F.Title = "Tested change: " + CE.Elem.Display;
  F.Message =
      CE.Elem.Display + " changed; " +
      plural(Ids.size(), "selected test reaches", "selected tests reach") +
      " it (" + llvm::join(R.By, ", ") + ")";
  if (!Ids.empty()) {
    std::vector<std::string> Named(
        Ids.begin(), Ids.begin() + std::min(Ids.size(), NamedTests));
    F.Message += ": " + llvm::join(Named, ", ");
    if (Ids.size() > NamedTests)
      F.Message += llvm::formatv(" and {0} more", Ids.size() - NamedTests);
  }
  F.Message += ".";
  return F;
}

Finding selectsAll(const select::Fallback &Fb, const WriteOptions &O) {
  Finding F;
  F.Rule = FindingRule::SelectsAll;
  F.Level = O.Levels.SelectsAll;
  F.File = Fb.File;
  F.Title = "Every test runs: " + select::fallbackName(Fb.Kind).str();
  F.Message = "tia selected every test because of this change (" +
              fallbackText(Fb) + ").";
  F.Fingerprint = gitBlobHash((ruleInfo(F.Rule).Id + "\n" +
                               select::fallbackName(Fb.Kind) + "\n" + Fb.File)
                                  .str());
  return F;
}

} // namespace

const RuleInfo &ruleInfo(FindingRule R) {
  static const RuleInfo Rules[] = {
      {"TIA001", "untested-change", "A changed function that no test reaches",
       "Add a test that runs it, through one of the public entry points "
       "named in the call paths, or check that it is dead code."},
      {"TIA002", "selects-every-test", "A change that made tia run every test",
       "tia cannot tell which tests this change affects (a build file, a "
       "file no front end reads, a change outside functions), so every test "
       "runs: see docs/Safety.md for the rule and how to narrow it."},
      {"TIA003", "tested-change",
       "A changed function that selected tests reach",
       "Nothing to do: the tests named run it."},
  };
  return Rules[static_cast<size_t>(R)];
}

llvm::StringRef levelName(FindingLevel L) {
  switch (L) {
  case FindingLevel::Note:
    return "note";
  case FindingLevel::Warning:
    return "warning";
  case FindingLevel::Error:
    return "error";
  }
  return "warning";
}

std::optional<FindingLevel> parseFindingLevel(llvm::StringRef Name) {
  for (FindingLevel L :
       {FindingLevel::Note, FindingLevel::Warning, FindingLevel::Error})
    if (Name == levelName(L))
      return L;
  return std::nullopt;
}

FindingLevels findingLevels(const config::ReportConfig &C) {
  FindingLevels L;
  L.Untested = parseFindingLevel(C.Untested).value_or(L.Untested);
  L.SelectsAll = parseFindingLevel(C.SelectsAll).value_or(L.SelectsAll);
  L.Covered = parseFindingLevel(C.Covered).value_or(L.Covered);
  return L;
}

std::vector<Finding> findings(const Plan &P, const WriteOptions &O) {
  std::vector<Finding> Out;
  auto OnHead = [&](const FunctionReach &R) {
    return P.Changes.Elements[R.Element].Change !=
           select::ElementChange::Deleted;
  };
  for (const FunctionReach &R : P.Changes.Reach)
    if (!R.reached() && OnHead(R))
      Out.push_back(untested(P, R, O));
  for (const select::Fallback &F : P.Changes.Fallbacks)
    if (F.Scope == select::FallbackScope::All && !F.File.empty())
      Out.push_back(selectsAll(F, O));
  if (O.CoveredFindings)
    for (const FunctionReach &R : P.Changes.Reach)
      if (R.reached() && OnHead(R))
        Out.push_back(covered(P, R, O));
  return Out;
}

} // namespace report
} // namespace tia
