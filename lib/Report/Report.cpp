//===- Report.cpp - selection outputs -------------------------------------===//

#include "tia/Report/Report.h"
#include "llvm/Support/JSON.h"
#include <map>

namespace tia {
namespace report {

using select::ChangedElement;
using select::Fallback;
using select::Reason;
using select::Selection;

namespace {

std::string plural(size_t N, llvm::StringRef One, llvm::StringRef Many) {
  return std::to_string(N) + " " + (N == 1 ? One : Many).str();
}

std::string linesText(const std::vector<unsigned> &Lines) {
  std::string Out;
  for (unsigned L : Lines) {
    if (!Out.empty())
      Out += ",";
    Out += std::to_string(L);
  }
  return Out;
}

std::string where(const ChangedElement &CE) {
  return CE.Elem.File + ":" + std::to_string(CE.Elem.BeginLine) + "-" +
         std::to_string(CE.Elem.EndLine);
}

std::string fallbackText(const Fallback &F) {
  std::string Out =
      F.Scope == select::FallbackScope::All
          ? "all tests"
          : "tests of " + plural(F.TranslationUnits.size(), "translation unit",
                                 "translation units");
  return Out + " (" + select::fallbackName(F.Kind).str() + "): " + F.File +
         ": " + F.Detail;
}

std::string describe(const Selection &Sel, const Reason &R) {
  if (R.Element == static_cast<size_t>(-1)) {
    std::string Out = fallbackText(Sel.Fallbacks[R.FallbackIndex]);
    if (!R.Via.empty())
      Out += "; test " + R.Via;
    return Out;
  }
  const ChangedElement &CE = Sel.Elements[R.Element];
  std::string What =
      select::changeName(CE.Change).str() + " " +
      (isFunctionKind(CE.Elem.Kind) ? std::string()
                                    : kindName(CE.Elem.Kind).str() + " ") +
      CE.Elem.Display + " at " + where(CE);
  std::string Out;
  if (R.Via.empty())
    Out = "covers " + What;
  else if (R.Applied == select::Rule::SameName ||
           (R.Applied == select::Rule::Covers && !R.Via.empty()))
    Out = What + " may now be called instead: test " + R.Via;
  else
    Out = What + " (" + select::ruleName(R.Applied).str() + "): test " + R.Via;
  if (!CE.Lines.empty())
    Out += std::string(" (changed line") + (CE.Lines.size() > 1 ? "s " : " ") +
           linesText(CE.Lines) +
           (CE.Change == select::ElementChange::Deleted ? " of the base" : "") +
           ")";
  return Out;
}

} // namespace

void writeIds(const Selection &Sel, llvm::raw_ostream &OS) {
  for (const select::SelectedTest &T : Sel.Tests)
    OS << T.Id << "\n";
}

void writeJson(const Selection &Sel, llvm::raw_ostream &OS) {
  llvm::json::OStream J(OS, 2);
  J.object([&] {
    J.attribute("version", 1);
    J.attribute("base", Sel.BaseCommit);
    J.attribute("diff_base", Sel.DiffBase);
    if (Sel.HeadCommit.empty())
      J.attribute("head", nullptr);
    else
      J.attribute("head", Sel.HeadCommit);
    J.attribute("selects_all", Sel.selectsAll());
    J.attribute("total_tests", static_cast<int64_t>(Sel.TotalTests));
    J.attribute("selected_tests", static_cast<int64_t>(Sel.Tests.size()));
    J.attributeArray("tests", [&] {
      for (const select::SelectedTest &T : Sel.Tests)
        J.object([&] {
          J.attribute("id", T.Id);
          J.attributeArray("reasons", [&] {
            for (const Reason &R : T.Reasons)
              J.object([&] {
                J.attribute("rule", select::ruleName(R.Applied));
                if (R.Element == static_cast<size_t>(-1)) {
                  J.attribute("kind", "fallback");
                  J.attribute("fallback",
                              static_cast<int64_t>(R.FallbackIndex));
                  if (!R.Via.empty())
                    J.attribute("via", R.Via);
                  return;
                }
                J.attribute("kind", R.Via.empty() ? "covers" : "related");
                J.attribute("element", static_cast<int64_t>(R.Element));
                if (!R.Via.empty())
                  J.attribute("via", R.Via);
              });
          });
        });
    });
    J.attributeArray("changed_elements", [&] {
      for (const ChangedElement &CE : Sel.Elements)
        J.object([&] {
          J.attribute("key", CE.Elem.Key);
          J.attribute("display", CE.Elem.Display);
          J.attribute("kind", kindName(CE.Elem.Kind));
          J.attribute("change", select::changeName(CE.Change));
          J.attribute("file", CE.Elem.File);
          J.attribute("begin_line", static_cast<int64_t>(CE.Elem.BeginLine));
          J.attribute("end_line", static_cast<int64_t>(CE.Elem.EndLine));
          J.attributeArray("lines", [&] {
            for (unsigned L : CE.Lines)
              J.value(static_cast<int64_t>(L));
          });
        });
    });
    J.attributeArray("uncovered_elements", [&] {
      for (size_t I : Sel.Uncovered)
        J.value(static_cast<int64_t>(I));
    });
    J.attributeArray("fallbacks", [&] {
      for (const Fallback &F : Sel.Fallbacks)
        J.object([&] {
          J.attribute("kind", select::fallbackName(F.Kind));
          J.attribute("file", F.File);
          J.attribute("detail", F.Detail);
          J.attribute("scope", select::scopeName(F.Scope));
          if (F.Scope != select::FallbackScope::All)
            J.attributeArray("translation_units", [&] {
              for (const std::string &TU : F.TranslationUnits)
                J.value(TU);
            });
        });
    });
    J.attributeArray("notes", [&] {
      for (const select::Note &N : Sel.Notes)
        J.object([&] {
          J.attribute("file", N.File);
          J.attribute("text", N.Text);
        });
    });
  });
  OS << "\n";
}

void writeExplain(const Selection &Sel, llvm::raw_ostream &OS) {
  for (const select::SelectedTest &T : Sel.Tests) {
    OS << T.Id << "\n";
    for (const Reason &R : T.Reasons)
      OS << "  " << describe(Sel, R) << "\n";
  }
  for (size_t I : Sel.Uncovered)
    OS << "no test covers " << select::changeName(Sel.Elements[I].Change) << " "
       << (isFunctionKind(Sel.Elements[I].Elem.Kind)
               ? std::string()
               : kindName(Sel.Elements[I].Elem.Kind).str() + " ")
       << Sel.Elements[I].Elem.Display << " at " << where(Sel.Elements[I])
       << "\n";
  for (const select::Note &N : Sel.Notes)
    OS << "selects nothing: " << N.File << ": " << N.Text << "\n";
}

void writeSummary(const Selection &Sel, llvm::raw_ostream &OS) {
  std::map<std::string, size_t> ByChange;
  for (const ChangedElement &CE : Sel.Elements)
    ++ByChange[select::changeName(CE.Change).str()];
  for (auto &[Change, N] : ByChange)
    OS << "  " << Change << ": " << plural(N, "element", "elements") << "\n";
  if (!Sel.Uncovered.empty())
    OS << "  uncovered: "
       << plural(Sel.Uncovered.size(), "changed element", "changed elements")
       << " no test covers\n";
  for (const select::Note &N : Sel.Notes)
    OS << "  no effect: " << N.File << ": " << N.Text << "\n";
  for (const Fallback &F : Sel.Fallbacks)
    OS << "  " << fallbackText(F) << "\n";

  OS << "selected ";
  size_t All = 0;
  for (const Fallback &F : Sel.Fallbacks)
    All += F.Scope == select::FallbackScope::All;
  if (Sel.selectsAll())
    OS << "all " << plural(Sel.TotalTests, "test", "tests")
       << ": tia cannot reason about " << plural(All, "change", "changes");
  else
    OS << Sel.Tests.size() << " of " << plural(Sel.TotalTests, "test", "tests")
       << " for "
       << plural(Sel.Elements.size(), "changed element", "changed elements")
       << " in " << plural(Sel.ChangedFiles, "changed file", "changed files");
  OS << "\n";
}

} // namespace report
} // namespace tia
