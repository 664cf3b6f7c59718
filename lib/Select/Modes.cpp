//===- Modes.cpp - how the selection mode maps elements to tests ----------===//

#include "Modes.h"
#include "ModuleSource.h"
#include "PythonSelect.h"
#include "PythonStatic.h"
#include "tia/Store/Store.h"
#include "llvm/Support/FormatVariadic.h"
#include <set>

namespace tia {
namespace select {

llvm::StringRef evidenceName(Evidence E) {
  switch (E) {
  case Evidence::Coverage:
    return "coverage";
  case Evidence::Static:
    return "static";
  case Evidence::Source:
    return "source";
  case Evidence::Fallback:
    return "fallback";
  }
  return "coverage";
}

namespace {

/// The static and combined modes applied to a selection: the tests static
/// analysis decides drop the coverage reasons it replaces and get its hits.
class ModeRun {
public:
  ModeRun(const SelectOptions &O, Selection &Sel,
          std::map<std::string, std::vector<Reason>> &ByTest, StaticAnswer &A,
          const std::vector<TestRecord> &Tests)
      : Combined(O.Mode == SelectionMode::Combined), Sel(Sel), ByTest(ByTest),
        A(A), Tests(Tests) {
    for (const TestRecord &T : Tests) {
      if (T.CoveredElements > 0 || !T.CoverageCommit.empty())
        Mapped.insert(T.Id);
      if (std::optional<std::string> F = pytestFunctionId(T.Id))
        InstancesOf[*F].push_back(T.Id);
    }
  }

  /// Counts the tests static analysis knows that the store does not (a
  /// parametrized function is counted as its instances).
  void countTests(std::set<std::string> &Known) {
    for (const std::string &T : A.Tests)
      if (!InstancesOf.count(T))
        Sel.TotalTests += Known.insert(T).second;
  }

  /// The tests static analysis decides drop the coverage reasons it
  /// replaces: all of them (static mode, no or stale coverage), or those
  /// for new Python elements (the same-named rule), which it decides
  /// better.
  void dropReplacedReasons() {
    for (const std::string &Test : A.Tests) {
      bool Coverage = usesCoverage(Test);
      // A parametrized function counts as its instances, which are listed
      // too.
      if (!InstancesOf.count(Test))
        ++(Coverage ? ByCoverage : ByStatic);
      auto It = ByTest.find(Test);
      if (It == ByTest.end())
        continue;
      llvm::erase_if(It->second, [&](const Reason &R) {
        if (R.By != Evidence::Coverage || R.Element == NoIndex)
          return false;
        const ChangedElement &CE = Sel.Elements[R.Element];
        if (!isPythonElement(CE.Elem))
          return false;
        return !Coverage || CE.Change == ElementChange::Added ||
               byNames(CE, Test);
      });
    }
  }

  /// Name-bound changes reach, besides what static analysis finds, the
  /// tests that covered a function using one of their names, for the
  /// tests whose coverage reasons byNames dropped.
  llvm::Error addUserCoverage(Store &S, const SelectOptions &O) {
    for (size_t I = 0; I < Sel.Elements.size(); ++I) {
      const ChangedElement &CE = Sel.Elements[I];
      auto Bound = A.NameBound.find(CE.Elem.Key);
      if (Bound == A.NameBound.end() || CE.Change != ElementChange::Modified)
        continue;
      ++NameBoundElements;
      std::vector<std::string> &Users = Sel.NameBoundUsers[I];
      for (const auto &[Key, Via] : Bound->second.Users) {
        Users.push_back(Key);
        auto Covering = O.Snapshot ? S.testsCovering(Key, *O.Snapshot)
                                   : S.testsCovering(Key);
        if (!Covering)
          return Covering.takeError();
        for (const std::string &T : *Covering) {
          if (!byNames(CE, T))
            continue;
          std::string Why = "covers " + Via;
          std::vector<Reason> &Rs = ByTest[T];
          if (llvm::none_of(Rs, [&](const Reason &R) {
                return R.Element == I && R.Via == Why;
              }))
            Rs.push_back({I, NoIndex, std::move(Why), Rule::VariableUse,
                          Evidence::Coverage});
        }
      }
    }
    return llvm::Error::success();
  }

  /// A test that covers a changed element may have run it only because it
  /// runs when a module is imported (a package that installs a default at
  /// import): when static analysis reaches it from import-time code, its
  /// chain goes with the coverage reason.
  void noteImportChain(const StaticHit &H,
                       const std::map<std::string, size_t> &IndexOf) {
    llvm::StringRef Chain = H.Chain;
    if (!Chain.starts_with("module code of ") &&
        !Chain.contains("(runs at import"))
      return;
    auto It = IndexOf.find(H.Elem.Key);
    auto Rs = ByTest.find(H.Test);
    if (It == IndexOf.end() || Rs == ByTest.end())
      return;
    for (Reason &R : Rs->second)
      if (R.Element == It->second && R.By == Evidence::Coverage &&
          R.Via.empty() && R.AtImport.empty())
        R.AtImport = H.Chain;
  }

  /// "module code of pkg uses install -> ..." names where the statement
  /// is: "module code of pkg (src/pkg/__init__.py:4) uses install -> ...".
  llvm::Error placeImportStatements(ModuleSource &Source) {
    std::map<std::pair<std::string, std::string>, std::string> Placed;
    for (auto &[Test, Rs] : ByTest) {
      llvm::StringRef File = llvm::StringRef(Test).split("::").first;
      File.consume_front("pytest:");
      for (Reason &R : Rs) {
        if (R.AtImport.empty())
          continue;
        auto Key = std::make_pair(R.AtImport, File.str());
        auto It = Placed.find(Key);
        if (It == Placed.end()) {
          auto Where = Source.place(R.AtImport, File);
          if (!Where)
            return Where.takeError();
          It = Placed.emplace(Key, std::move(*Where)).first;
        }
        R.AtImport = It->second;
      }
    }
    return llvm::Error::success();
  }

  /// Static analysis' hits, for the tests it decides (and, in combined
  /// mode, for new nodes).
  void addStaticHits() {
    std::map<std::string, size_t> IndexOf;
    for (size_t I = 0; I < Sel.Elements.size(); ++I)
      IndexOf.emplace(Sel.Elements[I].Elem.Key, I);
    for (const StaticHit &H : A.Hits) {
      if (usesCoverage(H.Test) && !H.NewNode &&
          !(A.NameBound.count(H.Elem.Key) && A.Evidenced.count(H.Test))) {
        noteImportChain(H, IndexOf);
        continue;
      }
      auto It = IndexOf.find(H.Elem.Key);
      if (It == IndexOf.end()) {
        // A node changed where the element did not (the import of a name
        // it uses changed): the element counts as modified.
        It = IndexOf.emplace(H.Elem.Key, Sel.Elements.size()).first;
        Sel.Elements.push_back({H.Change, H.Elem, {}});
      }
      std::vector<Reason> &Rs = ByTest[H.Test];
      bool Have = llvm::any_of(Rs, [&](const Reason &R) {
        return R.Element == It->second && R.By == Evidence::Static;
      });
      if (!Have)
        Rs.push_back(
            {It->second, NoIndex, H.Chain, Rule::NameUse, Evidence::Static});
    }
    for (auto It = ByTest.begin(); It != ByTest.end();)
      It = It->second.empty() ? ByTest.erase(It) : std::next(It);
  }

  /// Selecting all selects the tests known from their source too (the
  /// store's tests get their fallback reasons from the caller).
  void selectSourceTestsOnFallback() {
    if (!Sel.selectsAll())
      return;
    for (const std::string &T : A.Tests)
      if (!Mapped.count(T) &&
          llvm::none_of(Tests, [&](const TestRecord &R) { return R.Id == T; }))
        for (size_t F = 0; F < Sel.Fallbacks.size(); ++F)
          if (Sel.Fallbacks[F].Scope == FallbackScope::All)
            ByTest[T].push_back(
                {NoIndex, F, "", Rule::Fallback, Evidence::Fallback});
  }

  /// Changed elements no test reaches, by any evidence.
  void markUncovered() {
    std::vector<bool> Reached(Sel.Elements.size(), false);
    for (auto &[Test, Rs] : ByTest)
      for (const Reason &R : Rs)
        if (R.Element != NoIndex)
          Reached[R.Element] = true;
    Sel.Uncovered.clear();
    for (size_t I = 0; I < Sel.Elements.size(); ++I)
      if (!Reached[I] && Sel.Elements[I].Change != ElementChange::Added)
        Sel.Uncovered.push_back(I);
  }

  void addNotes() {
    for (std::string &N : A.Notes)
      Sel.ModeNotes.push_back(std::move(N));
    if (Combined && NameBoundElements)
      Sel.ModeNotes.push_back(llvm::formatv(
          "combined: {0} changed {1} names: what uses the names decides "
          "(name analysis, and coverage of the code using them)",
          NameBoundElements,
          NameBoundElements == 1 ? "element only rebinds"
                                 : "elements only rebind"));
    if (Combined && !A.Tests.empty())
      Sel.ModeNotes.push_back(llvm::formatv(
          "combined: {0} Python tests by coverage (static for new elements), "
          "{1} by static analysis ({2} with coverage older than a change to "
          "what they ran)",
          ByCoverage, ByStatic, A.StaleCoverage.size()));
  }

private:
  /// The static analysis names test functions; pytest runs (and collect
  /// covers) a parametrized function's instances.
  bool covered(const std::string &Test) const {
    if (Mapped.count(Test))
      return true;
    auto It = InstancesOf.find(Test);
    return It != InstancesOf.end() &&
           llvm::all_of(It->second,
                        [&](const std::string &I) { return Mapped.count(I); });
  }

  /// In combined mode, a test whose coverage is current and whose runtime
  /// evidence is complete keeps its coverage.
  bool usesCoverage(const std::string &Test) const {
    return Combined && covered(Test) && !A.StaleCoverage.count(Test) &&
           !A.IncompleteEvidence.count(Test);
  }

  /// A module- or class-level binding that only binds a name reaches a
  /// test through what uses the name, not through the import that ran it,
  /// where the test's coverage would decide and its runtime evidence says
  /// what it reached by name dynamically.
  bool byNames(const ChangedElement &CE, const std::string &Test) const {
    return CE.Change == ElementChange::Modified &&
           A.NameBound.count(CE.Elem.Key) && usesCoverage(Test) &&
           A.Evidenced.count(Test);
  }

  bool Combined;
  unsigned NameBoundElements = 0;
  Selection &Sel;
  std::map<std::string, std::vector<Reason>> &ByTest;
  StaticAnswer &A;
  const std::vector<TestRecord> &Tests;
  std::set<std::string> Mapped; ///< tests with coverage
  std::map<std::string, std::vector<std::string>> InstancesOf;
  unsigned ByCoverage = 0, ByStatic = 0;
};

} // namespace

llvm::Error applyMode(git::Repository &Repo, Store &S, const SelectOptions &O,
                      const std::vector<git::FileChange> &Changes,
                      const std::vector<FileIndex> &OldVersions,
                      const std::vector<FileIndex> &NewVersions, Selection &Sel,
                      std::map<std::string, std::vector<Reason>> &ByTest,
                      std::set<std::string> &Known) {
  Sel.Mode = O.Mode;
  if (O.Mode == SelectionMode::Coverage)
    return llvm::Error::success();
  std::optional<std::string> Head;
  if (!Sel.HeadCommit.empty())
    Head = Sel.HeadCommit;
  StaticRequest Req{
      Repo,         S,           O,
      Sel.DiffBase, Head,        Changes,
      OldVersions,  NewVersions, O.Mode == SelectionMode::Combined};
  auto A = selectPythonStatic(Req);
  if (!A)
    return A.takeError();
  for (Fallback &F : A->Fallbacks)
    Sel.Fallbacks.push_back(std::move(F));
  auto Tests = S.sharedTests();
  if (!Tests)
    return Tests.takeError();
  ModeRun Run(O, Sel, ByTest, *A, **Tests);
  Run.countTests(Known);
  Run.dropReplacedReasons();
  if (llvm::Error E = Run.addUserCoverage(S, O))
    return E;
  Run.addStaticHits();
  ModuleSource Source(Repo, S, Head, NewVersions);
  if (llvm::Error E = Run.placeImportStatements(Source))
    return E;
  Run.selectSourceTestsOnFallback();
  Run.markUncovered();
  Run.addNotes();
  return llvm::Error::success();
}

} // namespace select
} // namespace tia
