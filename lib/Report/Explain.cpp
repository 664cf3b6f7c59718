//===- Explain.cpp - why one test is or is not selected -------------------===//
//
// The chain from changed lines to an element to the test, the other rules
// that selected it, or why nothing did ("never recorded" against
// "recorded, depends on nothing changed").
//
//===----------------------------------------------------------------------===//

#include "tia/Report/Explain.h"
#include "tia/Report/Report.h"
#include "tia/Support/CommitId.h"
#include "tia/Support/Error.h"
#include "tia/Support/Plural.h"
#include "llvm/ADT/StringExtras.h"
#include <set>

namespace tia {
namespace report {

namespace {

using select::Plan;
using select::PlannedTest;
using select::ReasonKind;

std::string shortCommit(llvm::StringRef C) {
  return C.empty() ? std::string("-") : shortId(C);
}

std::string lineList(const std::vector<unsigned> &Lines) {
  std::vector<std::string> Parts;
  for (unsigned L : Lines)
    Parts.push_back(std::to_string(L));
  return llvm::join(Parts, ",");
}

std::string snapshotText(const Plan &P) {
  if (!P.Snapshot)
    return "the latest coverage";
  return "the coverage snapshot at " + shortCommit(P.Snapshot->Snapshot.Commit);
}

/// The chain of one reason, indented.
void chain(const Plan &P, const PlannedTest &T, const select::TestReason &R,
           llvm::raw_ostream &OS) {
  if (R.Kind != ReasonKind::Covers && R.Kind != ReasonKind::Related) {
    OS << "  " << describe(P, R) << "\n";
    return;
  }
  const select::ChangedElement &CE = P.Changes.Elements[R.Element];
  const Element &E = CE.Elem;
  std::string Range = E.File + ":" + std::to_string(E.BeginLine) + "-" +
                      std::to_string(E.EndLine);
  if (!CE.Cause.empty())
    OS << "  " << CE.Cause << "\n";
  else if (!CE.Lines.empty())
    OS << "  " << E.File << ": changed line"
       << (CE.Lines.size() > 1 ? "s " : " ") << lineList(CE.Lines)
       << (CE.Change == select::ElementChange::Deleted ? " of the base" : "")
       << "\n";
  else
    OS << "  " << E.File << ": changed\n";
  OS << "    -> " << select::changeName(CE.Change) << " " << E.Display << " ("
     << Range << ")\n";
  if (R.Kind == ReasonKind::Related)
    OS << "    -> may take the calls of an element " << T.Id << " covers (it "
       << R.Detail << ")\n";
  else if (R.By == select::Evidence::Static)
    OS << "    -> reached by " << T.Id << " in the static analysis ("
       << R.Detail << ")\n";
  else if (R.By == select::Evidence::Source)
    OS << "    -> in the code of " << T.Id << " itself\n";
  else if (!R.Through.empty())
    OS << "    -> in " << R.Through << ", which " << T.Id
       << (llvm::StringRef(R.Through).starts_with("program ") ? " ran"
                                                              : " loaded")
       << " and ran it in " << snapshotText(P) << "\n";
  else
    OS << "    -> covered by " << T.Id << " in " << snapshotText(P) << "\n";
  if (!R.AtImport.empty())
    OS << "    -> it runs at import: " << R.AtImport << "\n";
}

/// Whether definition \p D stands for test \p Id: the same name, or for
/// GoogleTest and Catch2, an instance of it in any binary.
bool defines(const TestDefinition &D, llvm::StringRef Id) {
  std::optional<CaseId> C = parseCaseId(Id);
  if (!C || caseFrameworkName(C->Framework) != D.Framework)
    return Id == D.Framework + ":" + D.Name;
  return select::caseNameMatches(C->Framework, C->Name, D.Name);
}

/// Where test \p Id is defined in the head, "FILE:LINE", as selection sees
/// it: the changed test files' definitions, else the index's for the files
/// the change leaves alone. Empty when no definition names it.
llvm::Expected<std::string> definitionOf(const Plan &P, Store &S,
                                         llvm::StringRef Id) {
  for (const select::TestFileChange &T : P.Changes.TestFiles)
    for (const TestDefinition &D : T.New)
      if (defines(D, Id))
        return T.Path + ":" + std::to_string(D.BeginLine);
  std::set<std::string> Changed;
  for (const select::ChangedFile &F : P.Changes.Files) {
    Changed.insert(F.Path);
    Changed.insert(F.OldPath);
  }
  auto Indexed = S.currentTestDefinitions();
  if (!Indexed)
    return Indexed.takeError();
  for (const auto &[File, D] : *Indexed)
    if (!Changed.count(File) && defines(D, Id))
      return File + ":" + std::to_string(D.BeginLine);
  return std::string();
}

/// Why a test with no coverage was not selected as new: the static analysis
/// that decides it (as the policy does) found no change reaching it. Empty
/// when neither analysis decides it.
std::string staticDecision(const Plan &P, llvm::StringRef Id) {
  if (P.Changes.GraphDecided.count(Id.str()))
    return "the C++ reference graph decides it: no changed element is "
           "reachable from it";
  bool OnlyPython =
      llvm::all_of(P.Changes.Elements, [](const select::ChangedElement &E) {
        return llvm::StringRef(E.Elem.Key).starts_with("py:");
      });
  if (Id.starts_with("pytest:") && OnlyPython &&
      P.Changes.Mode != select::SelectionMode::Coverage)
    return "Python's static analysis decides it (every changed element is "
           "Python): no changed name reaches it";
  return "";
}

/// The changed elements, at most ten, each "  changed, RELATION: ...".
void listChanges(const Plan &P, llvm::StringRef Relation,
                 llvm::raw_ostream &Out) {
  size_t Shown = 0;
  for (const select::ChangedElement &CE : P.Changes.Elements) {
    if (Shown++ == 10) {
      Out << "  ... and " << P.Changes.Elements.size() - 10
          << " more changed elements\n";
      break;
    }
    Out << "  changed, " << Relation << ": " << select::changeName(CE.Change)
        << " "
        << (isFunctionKind(CE.Elem.Kind) ? std::string()
                                         : kindName(CE.Elem.Kind).str() + " ")
        << CE.Elem.Display << " (" << CE.Elem.File << ":" << CE.Elem.BeginLine
        << "-" << CE.Elem.EndLine << ")\n";
  }
}

/// Why a test with no coverage in the snapshot is not selected: what tia
/// knows of it (a definition, earlier records, or nothing), the analysis
/// that decided it, or the fallback that runs every test anyway.
llvm::Error explainUnrecorded(const Plan &P, Store &S, llvm::StringRef Id,
                              llvm::raw_ostream &Out) {
  auto Where = definitionOf(P, S, Id);
  if (!Where)
    return Where.takeError();
  auto Known = S.tests();
  if (!Known)
    return Known.takeError();
  bool Earlier =
      llvm::any_of(*Known, [&](const TestRecord &T) { return T.Id == Id; });
  if (!Where->empty())
    Out << Id << " is not selected: known from its definition at " << *Where
        << ", with no coverage recorded\n";
  else if (Earlier)
    Out << Id << " is not selected: known, with no coverage in "
        << snapshotText(P) << "\n";
  else
    Out << Id << " is not selected: never recorded (tia has no coverage, "
        << "results or definition of it): check the id with 'tia dump "
           "tests', or collect its coverage\n";
  std::string Decision = staticDecision(P, Id);
  if ((!Where->empty() || Earlier) && !Decision.empty()) {
    Out << "  " << Decision << "\n";
    listChanges(P, "not reached by it", Out);
  }
  const std::vector<select::Fallback> &Fs = P.Changes.Fallbacks;
  auto All = llvm::find_if(Fs, [](const select::Fallback &F) {
    return F.Scope == select::FallbackScope::All;
  });
  if (All != Fs.end())
    Out << "  every test runs anyway: "
        << describe(P, {ReasonKind::Fallback, select::NoIndex,
                        static_cast<size_t>(All - Fs.begin()), "", ""})
        << "\n";
  return llvm::Error::success();
}

} // namespace

llvm::Expected<std::string> findTest(const Plan &P, llvm::StringRef Wanted) {
  std::vector<std::string> All;
  for (const PlannedTest &T : P.Selected)
    All.push_back(T.Id);
  for (const PlannedTest &T : P.Cut)
    All.push_back(T.Id);
  llvm::append_range(All, P.NotSelected);
  llvm::append_range(All, P.Undefined);
  if (llvm::is_contained(All, Wanted))
    return Wanted.str();
  std::vector<std::string> Endings;
  for (const std::string &Id : All) {
    llvm::StringRef R = Id;
    if (R.size() > Wanted.size() && R.ends_with(Wanted) &&
        (R[R.size() - Wanted.size() - 1] == ':'))
      Endings.push_back(Id);
  }
  llvm::sort(Endings);
  if (Endings.size() == 1)
    return Endings.front();
  if (Endings.size() > 1)
    return makeErrorf("'{0}' could be {1}: give the whole test id", Wanted,
                      llvm::join(Endings, ", "));
  return Wanted.str();
}

llvm::Error explainTest(const Plan &P, Store &S, llvm::StringRef Id,
                        llvm::raw_ostream &Out) {
  auto InList = [&](const std::vector<PlannedTest> &L) {
    return llvm::find_if(L, [&](const PlannedTest &T) { return T.Id == Id; });
  };
  auto Sel = InList(P.Selected);
  if (Sel != P.Selected.end()) {
    Out << Id << " is selected (" << (Sel - P.Selected.begin()) + 1 << " of "
        << P.Selected.size() << " in run order):\n";
    for (const select::TestReason &R : Sel->Reasons)
      chain(P, *Sel, R, Out);
    return llvm::Error::success();
  }
  auto Cut = InList(P.Cut);
  if (Cut != P.Cut.end()) {
    Out << Id << " is selected but the budget left it out (it would run "
        << P.Selected.size() + (Cut - P.Cut.begin()) + 1 << " of "
        << P.Selected.size() + P.Cut.size() << "):\n";
    for (const select::TestReason &R : Cut->Reasons)
      chain(P, *Cut, R, Out);
    return llvm::Error::success();
  }

  if (llvm::is_contained(P.Undefined, Id)) {
    Out << Id
        << " is not selected: the head does not define it (deleted or "
           "renamed since its coverage was recorded); pytest would "
           "stop on its id\n";
    return llvm::Error::success();
  }
  if (P.Changes.Mode == select::SelectionMode::Static) {
    Out << Id
        << " is not selected: in static mode no changed element is "
           "reached from its code (Python: by the names it uses; C++: "
           "along the reference graph)\n";
    listChanges(P, "not reached from it", Out);
    for (const std::string &N : P.Changes.ModeNotes)
      Out << "  " << N << "\n";
    return llvm::Error::success();
  }

  std::vector<std::string> Covered;
  bool Recorded = false;
  if (P.Snapshot) {
    auto Members = S.snapshotTests(P.Snapshot->Snapshot.Id);
    if (!Members)
      return Members.takeError();
    Recorded =
        llvm::any_of(*Members, [&](const TestRecord &T) { return T.Id == Id; });
    if (Recorded) {
      auto Keys = S.coverageOf(Id, P.Snapshot->Snapshot.Id);
      if (!Keys)
        return Keys.takeError();
      Covered = std::move(*Keys);
    }
  }
  if (!Recorded)
    return explainUnrecorded(P, S, Id, Out);
  Out << Id << " is not selected: recorded (it covers " << Covered.size()
      << " element" << pluralS(Covered.size()) << " in " << snapshotText(P)
      << "), depends on nothing changed\n";
  listChanges(P, "not covered by it", Out);
  for (const select::Note &N : P.Changes.Notes)
    Out << "  no effect: " << N.File << ": " << N.Text << "\n";
  return llvm::Error::success();
}

} // namespace report
} // namespace tia
