//===- Untested.cpp - untested changes and change coverage ----------------===//
//
// What a reviewer needs when a change is not covered: per changed C++
// function whether a test reaches it and, for those none reaches, the
// public entry points and shortest call paths that lead to it; and the
// share of changed lines the selected tests covered (docs/Formats.md).
//
//===----------------------------------------------------------------------===//

#include "ReportInternal.h"
#include "tia/Support/Quote.h"
#include "llvm/Support/FormatVariadic.h"

namespace tia {
namespace report {

namespace {

std::string pathText(const select::CallPath &P) {
  std::string Out;
  for (const std::string &D : P.Displays)
    Out += (Out.empty() ? "" : " -> ") + D;
  return Out;
}

std::string percent(unsigned Part, unsigned Whole) {
  return llvm::formatv("{0:F1}%", Whole ? 100.0 * Part / Whole : 0.0).str();
}

std::string tick(llvm::StringRef Text) {
  if (Text.contains('`'))
    return "`` " + Text.str() + " ``";
  return "`" + Text.str() + "`";
}

} // namespace

void jsonUntested(llvm::json::OStream &J, const select::Plan &P) {
  const select::Selection &C = P.Changes;
  J.attributeArray("untested_changes", [&] {
    for (const select::FunctionReach &R : C.Reach)
      J.object([&] {
        const select::ChangedElement &CE = C.Elements[R.Element];
        J.attribute("element", static_cast<int64_t>(R.Element));
        J.attribute("display", jsonText(CE.Elem.Display));
        J.attribute("change", select::changeName(CE.Change));
        J.attribute("reached", R.reached());
        J.attributeArray("by", [&] {
          for (const std::string &B : R.By)
            J.value(B);
        });
        if (!R.Trigger.empty())
          J.attribute("trigger", jsonText(R.Trigger));
        if (R.reached())
          return;
        J.attribute("entry_points", static_cast<int64_t>(R.EntryPoints));
        J.attributeArray("paths", [&] {
          for (const select::CallPath &Path : R.Paths)
            J.array([&] {
              for (const std::string &D : Path.Displays)
                J.value(jsonText(D));
            });
        });
      });
  });
  J.attributeObject("change_coverage", [&] {
    const select::ChangeCoverage &CC = C.Coverage;
    J.attribute("known", CC.Known);
    J.attribute("lines", static_cast<int64_t>(CC.Lines));
    J.attribute("covered", static_cast<int64_t>(CC.Covered));
    J.attributeArray("files", [&] {
      for (const select::FileChangeCoverage &F : CC.Files)
        J.object([&] {
          J.attribute("path", jsonPath(F.Path));
          J.attribute("lines", static_cast<int64_t>(F.Lines));
          J.attribute("covered", static_cast<int64_t>(F.Covered));
        });
    });
  });
}

void markdownUntested(llvm::raw_ostream &OS, const select::Plan &P) {
  const select::Selection &C = P.Changes;
  bool Any = llvm::any_of(
      C.Reach, [](const select::FunctionReach &R) { return !R.reached(); });
  const select::ChangeCoverage &CC = C.Coverage;
  // The list of selected tests ends without a blank line.
  if ((Any || (CC.Known && CC.Lines)) && !P.Selected.empty())
    OS << "\n";
  if (Any) {
    OS << "### Untested changes\n\n";
    for (const select::FunctionReach &R : C.Reach) {
      if (R.reached())
        continue;
      const select::ChangedElement &CE = C.Elements[R.Element];
      OS << "- " << tick(CE.Elem.Display) << " at " << tick(where(CE))
         << ": no test reaches it";
      if (!R.Trigger.empty())
        OS << "; it " << R.Trigger;
      OS << ".";
      if (R.Paths.empty()) {
        OS << " No public entry point reaches it.\n";
        continue;
      }
      OS << " Reachable from "
         << plural(R.EntryPoints, "public entry point", "public entry points")
         << ":\n";
      for (const select::CallPath &Path : R.Paths)
        OS << "  - " << tick(pathText(Path)) << "\n";
    }
    OS << "\n";
  }
  if (CC.Known && CC.Lines) {
    OS << "### Change coverage\n\n"
       << "The selected tests covered " << CC.Covered << " of "
       << plural(CC.Lines, "changed line", "changed lines") << " ("
       << percent(CC.Covered, CC.Lines) << ") in the last collect.\n\n"
       << "| File | Changed lines | Covered |\n|---|---:|---:|\n";
    for (const select::FileChangeCoverage &F : CC.Files)
      OS << "| " << tick(F.Path) << " | " << F.Lines << " | " << F.Covered
         << " (" << percent(F.Covered, F.Lines) << ") |\n";
    OS << "\n";
  }
}

} // namespace report
} // namespace tia
