//===- ReportInternal.h - what the report files share -----------*- C++ -*-===//

#ifndef TIA_LIB_REPORT_REPORTINTERNAL_H
#define TIA_LIB_REPORT_REPORTINTERNAL_H

#include "tia/Report/Report.h"
#include "tia/Select/Policy.h"
#include "llvm/Support/JSON.h"
#include <string>
#include <vector>

namespace tia {
namespace report {

/// "1 test", "2 tests".
std::string plural(size_t N, llvm::StringRef One, llvm::StringRef Many);

/// The first 12 hex digits of a commit; "-" for none.
std::string shortCommit(llvm::StringRef Commit);

/// "FILE:BEGIN-END" of a changed element.
std::string where(const select::ChangedElement &CE);

/// "all tests (KIND): FILE: DETAIL", or "tests of N translation units
/// (KIND): FILE: DETAIL" for a scoped fallback.
std::string fallbackText(const select::Fallback &F);

/// "modified class Shape at FILE:BEGIN-END" (no kind for a function).
std::string uncoveredText(const select::ChangedElement &CE);

/// How many selected tests a change to \p Path selected (by an element of
/// it or a fallback it caused).
unsigned testsOfFile(const select::Plan &P, llvm::StringRef Path);

/// Free text for JSON: bytes that are not UTF-8 become U+FFFD.
std::string jsonText(llvm::StringRef Text);

/// The "untested_changes" and "change_coverage" members of the JSON output.
void jsonUntested(llvm::json::OStream &J, const select::Plan &P);
/// The "Untested changes" and "Change coverage" sections of the Markdown
/// output.
void markdownUntested(llvm::raw_ostream &OS, const select::Plan &P);

//===----------------------------------------------------------------------===//
// Findings (Findings.cpp): what the sarif, codequality and github formats
// put on the diff
//===----------------------------------------------------------------------===//

/// The kinds of finding, in the order of the SARIF rules.
enum class FindingRule { Untested, SelectsAll, Covered };

/// A rule as SARIF and GitLab name it.
struct RuleInfo {
  llvm::StringRef Id;    ///< "TIA001"
  llvm::StringRef Name;  ///< "untested-change"
  llvm::StringRef Short; ///< one line
  llvm::StringRef Help;  ///< what to do
};
const RuleInfo &ruleInfo(FindingRule R);

/// One finding, at a file of the head (repository-relative).
struct Finding {
  FindingRule Rule = FindingRule::Untested;
  FindingLevel Level = FindingLevel::Warning;
  std::string File;
  /// 1-based and inclusive; 1 and 1 for a finding about a whole file.
  unsigned StartLine = 1, EndLine = 1;
  std::string Title;   ///< short, for a GitHub annotation's title
  std::string Message; ///< for people, one paragraph
  /// Untested: the shortest call paths from public entry points, each
  /// ending at the changed function.
  std::vector<select::CallPath> Paths;
  /// Stays the same while what it is about does not change.
  std::string Fingerprint;
};

/// The findings of \p P, untested changes first, in the plan's order.
std::vector<Finding> findings(const select::Plan &P, const WriteOptions &O);

/// "note", "warning" or "error".
llvm::StringRef levelName(FindingLevel L);

} // namespace report
} // namespace tia

#endif // TIA_LIB_REPORT_REPORTINTERNAL_H
