//===- CppStatic.cpp - static selection for C++, untested changes ---------===//
//
// A C++ test's entry points: for a GoogleTest case (found in the AST), the
// elements inside its definition and the elements of its file outside
// every test definition (fixtures, helpers, file-scope variables); for a
// test program (a test whose source file is known, or a ctest:NAME whose
// translation unit is NAME.cpp and defines main), every element of its
// file. A test reaches
// a changed element when one of its entry points does in the reference
// graph (tia/Select/Graph.h). A test with no known source keeps its
// coverage evidence, or is selected as never covered: tia cannot tell what
// it runs.
//
//===----------------------------------------------------------------------===//

#include "CppStatic.h"
#include "PythonEntries.h"
#include "SelectInternal.h"
#include "tia/Git/Repository.h"
#include "tia/Select/Changes.h"
#include "tia/Select/Graph.h"
#include "tia/Store/Store.h"
#include "tia/Support/CommitId.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"

namespace tia {
namespace select {

namespace {

bool isCppKey(llvm::StringRef Key) { return Key.starts_with("cpp:"); }

/// "Suite.Name" of a recorded GoogleTest name: "Prefix/Suite.Name/2" ->
/// "Suite.Name".
std::string plainTestName(llvm::StringRef Full) {
  auto [Suite, Name] = Full.split('.');
  if (size_t Slash = Suite.find('/'); Slash != llvm::StringRef::npos)
    Suite = Suite.drop_front(Slash + 1);
  Name = Name.split('/').first;
  return (Suite + "." + Name).str();
}

struct TestEntry {
  std::vector<std::string> Keys;
  std::string Where; ///< "tests/a.cpp:12-15", for notes
};

/// Joins a path's displays; a long one keeps its ends.
std::string showPath(const CallPath &P) {
  std::vector<std::string> D = P.Displays;
  if (D.size() > 6) {
    D.erase(D.begin() + 3, D.end() - 2);
    D.insert(D.begin() + 3, "...");
  }
  std::string Out;
  for (const std::string &S : D)
    Out += (Out.empty() ? "" : " -> ") + S;
  return Out;
}

class CppGraphSelection {
public:
  CppGraphSelection(const git::Repository &Repo, Store &S,
                    const SelectOptions &O,
                    const std::vector<FileIndex> &OldVersions,
                    const std::vector<FileIndex> &NewVersions, Selection &Sel,
                    std::map<std::string, std::vector<Reason>> &ByTest)
      : Repo(Repo), S(S), O(O), OldVersions(OldVersions),
        NewVersions(NewVersions), Sel(Sel), ByTest(ByTest) {}

  llvm::Error run() {
    for (size_t I = 0; I < Sel.Elements.size(); ++I)
      if (isCppKey(Sel.Elements[I].Elem.Key))
        Changed.push_back(I);
    if (!Changed.empty()) {
      auto Version = S.cppGraphVersion();
      if (!Version)
        return Version.takeError();
      Stale = *Version < cpp::GraphVersion;
      if (Sel.Mode != SelectionMode::Coverage) {
        if (!Stale)
          if (llvm::Error E = checkInStep())
            return E;
        if (llvm::Error E = ensureGraph())
          return E;
        if (Stale)
          Sel.ModeNotes.push_back(
              (modeName(Sel.Mode) +
               ": the index was made by an older C++ front end whose "
               "reference graph lacks edges: C++ tests keep their coverage "
               "evidence (run 'tia index' to parse again)")
                  .str());
        else if (!OutOfStep.empty())
          Sel.ModeNotes.push_back(outOfStepNote());
        else if (llvm::Error E = decide())
          return E;
      }
      if (llvm::Error E = describeReach())
        return E;
    }
    return changeCoverage();
  }

private:
  /// Loads the graph and the tests' entry points on first use: the
  /// coverage mode needs them only for a changed function no test covers.
  llvm::Error ensureGraph() {
    if (GraphLoaded)
      return llvm::Error::success();
    GraphLoaded = true;
    if (llvm::Error E = loadGraph())
      return E;
    return findEntries();
  }

  llvm::Error loadGraph() {
    auto G = ReferenceGraph::load(S);
    if (!G)
      return G.takeError();
    Graph = std::move(*G);
    for (const FileIndex &F : BaseVersions)
      Graph.add(F);
    for (const FileIndex &F : OldVersions)
      if (isCppSource(F.Path))
        Graph.add(F);
    for (const FileIndex &F : NewVersions)
      if (isCppSource(F.Path))
        Graph.add(F);
    return llvm::Error::success();
  }

  /// The graph holds the latest index's version of every file outside the
  /// change. Where that is not the version at the change's base (the
  /// index ran at another commit, or on a work tree with edits), a call
  /// added or removed in such a file is missing from the graph, so a test
  /// could reach a changed element and not be seen to. Finds those C++
  /// files: indexed ones whose content differs from the base's (or that
  /// the base lacks while the index's commit had them), and ones the
  /// base has and the index's commit had not.
  llvm::Error checkInStep() {
    std::set<std::string> InChange;
    for (const ChangedFile &F : Sel.Files) {
      InChange.insert(F.Path);
      InChange.insert(F.OldPath);
    }
    auto Indexed = S.currentFiles();
    if (!Indexed)
      return Indexed.takeError();
    auto IndexCommit = S.currentCommit();
    if (!IndexCommit)
      return IndexCommit.takeError();
    IndexedAt = IndexCommit->value_or("");
    if (!IndexedAt.empty() && !Repo.hasCommit(IndexedAt)) {
      OutOfStep.push_back("(the index's commit " + shortId(IndexedAt) +
                          ", which this repository lacks)");
      return llvm::Error::success();
    }
    auto AtBase = Repo.treeFiles(Sel.DiffBase);
    if (!AtBase)
      return AtBase.takeError();
    std::map<std::string, std::string> Base(AtBase->begin(), AtBase->end());
    // The index's commit's tree, when it is another commit than the base
    // (at the base, a file the base lacks was not in that tree either).
    std::map<std::string, std::string> AtIndex;
    if (!IndexedAt.empty() && IndexedAt != Sel.DiffBase) {
      auto Files = Repo.treeFiles(IndexedAt);
      if (!Files)
        return Files.takeError();
      AtIndex.insert(Files->begin(), Files->end());
    }
    std::set<std::string> Differ;
    std::set<std::string> Seen;
    for (const auto &[Path, Hash] : *Indexed) {
      Seen.insert(Path);
      if (!isCppSource(Path) || InChange.count(Path))
        continue;
      auto It = Base.find(Path);
      // Not in the base and not in the index's commit: a generated or
      // untracked file, of which git knows nothing.
      if (It == Base.end() ? AtIndex.count(Path) != 0 : It->second != Hash)
        Differ.insert(Path);
    }
    if (!AtIndex.empty())
      for (const auto &[Path, Blob] : Base)
        if (isCppSource(Path) && !InChange.count(Path) && !Seen.count(Path) &&
            !AtIndex.count(Path))
          Differ.insert(Path);
    // The base's version of such a file is often in the store already (the
    // index ran at the base before it moved on to another branch): the
    // graph takes it instead. A file the base lacks leaves the graph.
    for (const std::string &Path : Differ) {
      auto It = Base.find(Path);
      if (It == Base.end()) {
        FileIndex Gone;
        Gone.Path = Path;
        BaseVersions.push_back(std::move(Gone));
        continue;
      }
      auto Stored = S.getFileIndex(Path, It->second);
      if (!Stored)
        return Stored.takeError();
      if (*Stored)
        BaseVersions.push_back(std::move(**Stored));
      else
        OutOfStep.push_back(Path);
    }
    return llvm::Error::success();
  }

  std::string outOfStepNote() const {
    std::string List;
    for (size_t I = 0; I < OutOfStep.size() && I < 3; ++I)
      List += (I ? ", " : "") + OutOfStep[I];
    if (OutOfStep.size() > 3)
      List += ", ...";
    std::string Base = shortId(Sel.DiffBase);
    return llvm::formatv(
        "{0}: the index{1} differs from the change's base {2} in {3} C++ "
        "{5} outside the change ({4}), whose calls the reference graph may "
        "lack: C++ tests keep their coverage evidence, or are "
        "selected when never covered (run 'tia index' at {2})",
        modeName(Sel.Mode),
        IndexedAt.empty() ? std::string()
                          : " (made at " + shortId(IndexedAt) + ")",
        Base, OutOfStep.size(), List, OutOfStep.size() == 1 ? "file" : "files");
  }

  /// The entry points of every C++ test tia can place: GoogleTest cases by
  /// their definitions, other tests by their program's file.
  llvm::Error findEntries() {
    std::map<std::string, std::string> FileOf;
    if (llvm::Error E = loadCppTests(FileOf))
      return E;
    auto Defs = headGTestDefinitions();
    if (!Defs)
      return Defs.takeError();
    std::set<std::string> Placed = placeGTestCases(*Defs);
    placeTestPrograms(Placed, FileOf);
    dropEmptyEntries();
    // Static mode only: combined keeps a never-covered Python test new.
    if (Sel.Mode == SelectionMode::Static)
      return placePythonTests();
    return llvm::Error::success();
  }

  /// Python tests that were never collected (a database only indexed): each
  /// test's entries are where its code may enter C or C++ (PythonEntries.h):
  /// the initialisers of the extension modules it imports, and the
  /// bindings whose Python names it uses; the graph goes on from them. A
  /// test importing none reaches no C or C++: its entry is empty, and a
  /// C++ change does not select it. Tests with coverage keep it (it also
  /// holds what the programs they ran covered).
  llvm::Error placePythonTests() {
    auto Python = PythonEntries::load(S, NewVersions);
    if (!Python)
      return Python.takeError();
    for (auto &[Id, Path] : Python->tests()) {
      if (PyMapped.count(Id) || Entries.count(Id))
        continue;
      auto Keys = Python->entriesOf(Id, Graph);
      if (!Keys)
        return Keys.takeError();
      TestEntry E;
      E.Where = Path;
      E.Keys = std::move(*Keys);
      Entries[Id] = std::move(E);
    }
    return llvm::Error::success();
  }

  /// The C++ tests (CppTests), those with coverage (Mapped), and the file
  /// each test's information names (\p FileOf).
  llvm::Error loadCppTests(std::map<std::string, std::string> &FileOf) {
    auto Tests = S.sharedTests();
    if (!Tests)
      return Tests.takeError();
    for (const TestRecord &T : **Tests) {
      if (llvm::StringRef(T.Id).starts_with("pytest:")) {
        if (T.CoveredElements > 0 || !T.CoverageCommit.empty())
          PyMapped.insert(T.Id);
        continue;
      }
      CppTests.insert(T.Id);
      if (T.CoveredElements > 0 || !T.CoverageCommit.empty())
        Mapped.insert(T.Id);
    }
    auto Infos = S.testInfos();
    if (!Infos)
      return Infos.takeError();
    for (const TestInfo &T : *Infos)
      if (!T.File.empty())
        FileOf[T.Id] = T.File;
    return llvm::Error::success();
  }

  /// GoogleTest definitions of the head, by file: the stored ones, with the
  /// changed files' new versions instead.
  llvm::Expected<std::map<std::string, std::vector<TestDefinition>>>
  headGTestDefinitions() {
    auto Stored = S.currentTestDefinitions();
    if (!Stored)
      return Stored.takeError();
    std::set<std::string> ChangedPaths;
    for (const FileIndex &F : BaseVersions)
      ChangedPaths.insert(F.Path);
    for (const FileIndex &F : OldVersions)
      ChangedPaths.insert(F.Path);
    for (const FileIndex &F : NewVersions)
      ChangedPaths.insert(F.Path);
    std::map<std::string, std::vector<TestDefinition>> Defs;
    for (auto &[Path, D] : *Stored)
      if (D.Framework == "gtest" && !ChangedPaths.count(Path))
        Defs[Path].push_back(D);
    for (const FileIndex &F : BaseVersions)
      for (const TestDefinition &D : F.Tests)
        if (D.Framework == "gtest")
          Defs[F.Path].push_back(D);
    for (const FileIndex &F : NewVersions)
      for (const TestDefinition &D : F.Tests)
        if (D.Framework == "gtest")
          Defs[F.Path].push_back(D);
    return Defs;
  }

  /// Each GoogleTest case's entry: the elements inside its definition and
  /// those of its file outside every definition (fixtures, helpers).
  /// Returns the tests placed.
  std::set<std::string> placeGTestCases(
      const std::map<std::string, std::vector<TestDefinition>> &Defs) {
    std::map<std::string, std::vector<std::string>> IdsByName;
    for (const std::string &Id : CppTests) {
      llvm::StringRef Rest = Id;
      if (Rest.consume_front("gtest:"))
        IdsByName[plainTestName(Rest.split(':').second)].push_back(Id);
    }
    std::set<std::string> Placed;
    for (auto &[Path, List] : Defs) {
      std::vector<const ReferenceGraph::Node *> Elements =
          Graph.elementsOf(Path);
      auto Inside = [&](const ReferenceGraph::Node *N,
                        const TestDefinition &D) {
        return N->BeginLine >= D.BeginLine && N->EndLine <= D.EndLine;
      };
      std::vector<std::string> Shared;
      for (const ReferenceGraph::Node *N : Elements)
        if (llvm::none_of(
                List, [&](const TestDefinition &D) { return Inside(N, D); }))
          Shared.push_back(N->Key);
      for (const TestDefinition &D : List) {
        TestEntry E;
        E.Where = Path + ":" + std::to_string(D.BeginLine);
        for (const ReferenceGraph::Node *N : Elements)
          if (Inside(N, D))
            E.Keys.push_back(N->Key);
        llvm::append_range(E.Keys, Shared);
        std::vector<std::string> Ids = IdsByName[D.Name];
        if (Ids.empty())
          Ids.push_back("gtest:*:" + D.Name);
        // The same Suite.Name in several files (binaries): a test reaches
        // what any of them holds.
        for (const std::string &Id : Ids) {
          Placed.insert(Id);
          auto [It, New] = Entries.try_emplace(Id, E);
          if (!New)
            llvm::append_range(It->second.Keys, E.Keys);
        }
      }
    }
    return Placed;
  }

  /// The other C++ tests' entries: their program's whole file, the one
  /// their information names or, for a ctest test, the one program source
  /// of its name. A test with neither is unplaced.
  void placeTestPrograms(const std::set<std::string> &Placed,
                         const std::map<std::string, std::string> &FileOf) {
    std::set<std::string> Files;
    for (const std::string &F : Graph.files())
      Files.insert(F);
    std::map<std::string, std::vector<std::string>> ByStem;
    for (const std::string &F : Files)
      if (llvm::StringRef(F).ends_with(".cpp") ||
          llvm::StringRef(F).ends_with(".cc") ||
          llvm::StringRef(F).ends_with(".cxx"))
        ByStem[llvm::sys::path::stem(F).str()].push_back(F);
    for (const std::string &Id : CppTests) {
      if (Placed.count(Id))
        continue;
      std::string File;
      auto It = FileOf.find(Id);
      if (It != FileOf.end() && Files.count(It->second)) {
        File = It->second;
      } else if (llvm::StringRef(Id).starts_with("ctest:")) {
        // A guess by name, trusted only for a program's source: a library
        // file that happens to share the test's name says nothing of what
        // the test runs.
        auto Stem = ByStem.find(Id.substr(6));
        if (Stem != ByStem.end() && Stem->second.size() == 1 &&
            llvm::any_of(Graph.elementsOf(Stem->second.front()),
                         [](const ReferenceGraph::Node *N) {
                           return isFunctionKind(N->Kind) &&
                                  qualifiedName(N->Display) == "main";
                         }))
          File = Stem->second.front();
      }
      if (File.empty()) {
        Unplaced.push_back(Id);
        continue;
      }
      TestEntry E;
      E.Where = File;
      for (const ReferenceGraph::Node *N : Graph.elementsOf(File))
        E.Keys.push_back(N->Key);
      Entries[Id] = std::move(E);
    }
  }

  /// A test whose file holds no element the graph knows (its parse failed,
  /// say) cannot be decided by the graph: it keeps its coverage, or is
  /// selected as never covered.
  void dropEmptyEntries() {
    for (auto It = Entries.begin(); It != Entries.end();)
      if (It->second.Keys.empty()) {
        Unplaced.push_back(It->first);
        It = Entries.erase(It);
      } else {
        ++It;
      }
  }

  /// Reachers of changed element I, computed once.
  const std::map<std::string, std::string> &reachers(size_t I) {
    auto It = Reachers.find(I);
    if (It != Reachers.end())
      return It->second;
    const Element &E = Sel.Elements[I].Elem;
    return Reachers[I] = Graph.reachersOf({E.Key, detail::referenceKey(E)});
  }

  /// The shortest path from one of \p T's entry points to element I.
  std::optional<CallPath> reach(const TestEntry &T, size_t I) {
    const auto &Next = reachers(I);
    std::optional<CallPath> Best;
    for (const std::string &K : T.Keys)
      if (Next.count(K)) {
        CallPath P = Graph.path(Next, K);
        if (!Best || P.Keys.size() < Best->Keys.size())
          Best = std::move(P);
      }
    return Best;
  }

  llvm::Error decide() {
    bool Static = Sel.Mode == SelectionMode::Static;
    unsigned ByGraph = 0, PythonByGraph = 0, Added = 0;
    for (auto &[Id, Entry] : Entries) {
      bool Decided = Static || !Mapped.count(Id);
      if (Decided) {
        Sel.GraphDecided.insert(Id);
        ++(llvm::StringRef(Id).starts_with("pytest:") ? PythonByGraph
                                                      : ByGraph);
        // Static evidence replaces the coverage of C++ elements.
        auto It = ByTest.find(Id);
        if (It != ByTest.end())
          llvm::erase_if(It->second, [&](const Reason &R) {
            return R.By == Evidence::Coverage && R.Element != NoIndex &&
                   isCppKey(Sel.Elements[R.Element].Elem.Key);
          });
      }
      for (size_t I : Changed) {
        if (!Decided && Sel.Elements[I].Change != ElementChange::Added)
          continue;
        std::optional<CallPath> P = reach(Entry, I);
        if (!P)
          continue;
        std::vector<Reason> &Rs = ByTest[Id];
        if (llvm::any_of(Rs, [&](const Reason &R) {
              return R.Element == I && R.Applied == Rule::Reaches;
            }))
          continue;
        Rs.push_back(
            {I, NoIndex, showPath(*P), Rule::Reaches, Evidence::Static});
        ++Added;
      }
    }
    for (auto It = ByTest.begin(); It != ByTest.end();)
      It = It->second.empty() ? ByTest.erase(It) : std::next(It);

    if (!Static && !ByGraph && !Added)
      return llvm::Error::success();
    // Changed elements no test reaches, by any evidence.
    std::set<size_t> Reached;
    for (auto &[Test, Rs] : ByTest)
      for (const Reason &R : Rs)
        if (R.Element != NoIndex)
          Reached.insert(R.Element);
    Sel.Uncovered.clear();
    for (size_t I = 0; I < Sel.Elements.size(); ++I)
      if (!Reached.count(I) && Sel.Elements[I].Change != ElementChange::Added)
        Sel.Uncovered.push_back(I);

    if (Static || ByGraph)
      Sel.ModeNotes.push_back(llvm::formatv(
          "{0}: {1} C++ tests decided by the reference graph{2}",
          modeName(Sel.Mode), ByGraph,
          Static ? std::string()
                 : llvm::formatv(", {0} by coverage (the graph for new "
                                 "elements)",
                                 Entries.size() - ByGraph - PythonByGraph)
                       .str()));
    if (PythonByGraph)
      Sel.ModeNotes.push_back(llvm::formatv(
          "{0}: {1} Python tests never collected decided by the reference "
          "graph from the extension modules they import (PyInit_NAME) and "
          "the bindings whose Python names they use; the programs they run "
          "are not seen before 'tia collect --pytest'",
          modeName(Sel.Mode), PythonByGraph));
    if (!Unplaced.empty()) {
      std::string List;
      for (size_t I = 0; I < Unplaced.size() && I < 3; ++I)
        List += (I ? ", " : "") + Unplaced[I];
      if (Unplaced.size() > 3)
        List += ", ...";
      Sel.ModeNotes.push_back(llvm::formatv(
          "{0}: {1} C++ tests have no known source or no element in it "
          "({2}): they keep their "
          "coverage evidence, or are selected when never covered",
          modeName(Sel.Mode), Unplaced.size(), List));
    }
    return llvm::Error::success();
  }

  /// Whether \p E lies in a test definition of its file's head version (a
  /// TEST's body): the test itself, which is selected when it changes, not
  /// code a test should reach.
  bool isTestCode(const Element &E) const {
    for (const TestFileChange &F : Sel.TestFiles)
      if (F.Path == E.File)
        return llvm::any_of(F.New, [&](const TestDefinition &D) {
          return D.BeginLine <= E.BeginLine && E.EndLine <= D.EndLine;
        });
    return false;
  }

  llvm::Error describeReach() {
    auto Public = [&](llvm::StringRef P) {
      return O.PublicHeader ? O.PublicHeader(P) : isDefaultPublicHeader(P);
    };
    for (size_t I : Changed) {
      const ChangedElement &CE = Sel.Elements[I];
      if (!isFunctionKind(CE.Elem.Kind) ||
          CE.Change == ElementChange::Deleted || isTestCode(CE.Elem))
        continue;
      FunctionReach R;
      R.Element = I;
      std::set<std::string> By;
      for (auto &[Test, Rs] : ByTest)
        for (const Reason &Re : Rs)
          if (Re.Element == I && Re.By != Evidence::Fallback)
            By.insert(evidenceName(Re.By).str());
      if (By.empty() && !Stale && OutOfStep.empty()) {
        if (llvm::Error E = ensureGraph())
          return E;
        for (auto &[Id, Entry] : Entries)
          if (reach(Entry, I)) {
            By.insert("static");
            break;
          }
      }
      R.By.assign(By.begin(), By.end());
      if (!R.reached())
        if (llvm::Error E = ensureGraph())
          return E;
      if (const ReferenceGraph::Node *N = Graph.node(CE.Elem.Key))
        R.Trigger = ReferenceGraph::trigger(*N);
      else
        R.Trigger = ReferenceGraph::trigger(
            {CE.Elem.Key, CE.Elem.Kind, CE.Elem.Display, CE.Elem.File});
      if (!R.reached()) {
        const auto &Next = reachers(I);
        std::vector<CallPath> Paths;
        for (const auto &[Key, Step] : Next)
          if (Graph.isEntryPoint(Key, Public))
            Paths.push_back(Graph.path(Next, Key));
        std::sort(Paths.begin(), Paths.end(),
                  [](const CallPath &A, const CallPath &B) {
                    return std::make_pair(A.Keys.size(), A.Displays) <
                           std::make_pair(B.Keys.size(), B.Displays);
                  });
        R.EntryPoints = Paths.size();
        if (Paths.size() > 5)
          Paths.resize(5);
        R.Paths = std::move(Paths);
      }
      Sel.Reach.push_back(std::move(R));
    }
    return llvm::Error::success();
  }

  /// Changed lines of changed functions, and those a selected test covered
  /// in the latest coverage.
  llvm::Error changeCoverage() {
    auto Tests = S.sharedTests();
    if (!Tests)
      return Tests.takeError();
    Sel.Coverage.Known = llvm::any_of(
        **Tests, [](const TestRecord &T) { return T.CoveredElements > 0; });
    std::map<std::string, FileChangeCoverage> Files;
    for (const ChangedElement &CE : Sel.Elements) {
      if (!isFunctionKind(CE.Elem.Kind) || CE.Lines.empty())
        continue;
      FileChangeCoverage &F = Files[CE.Elem.File];
      F.Path = CE.Elem.File;
      F.Lines += CE.Lines.size();
      auto Covering = S.testsCovering(CE.Elem.Key);
      if (!Covering)
        return Covering.takeError();
      bool Covered = llvm::any_of(*Covering, [&](const std::string &T) {
        auto It = ByTest.find(T);
        return It != ByTest.end() && !It->second.empty();
      });
      if (Covered || (Sel.selectsAll() && !Covering->empty()))
        F.Covered += CE.Lines.size();
    }
    for (auto &[Path, F] : Files) {
      Sel.Coverage.Lines += F.Lines;
      Sel.Coverage.Covered += F.Covered;
      Sel.Coverage.Files.push_back(std::move(F));
    }
    return llvm::Error::success();
  }

  const git::Repository &Repo;
  Store &S;
  const SelectOptions &O;
  const std::vector<FileIndex> &OldVersions;
  const std::vector<FileIndex> &NewVersions;
  Selection &Sel;
  std::map<std::string, std::vector<Reason>> &ByTest;

  ReferenceGraph Graph;
  bool GraphLoaded = false;
  bool Stale = false;
  std::string IndexedAt;
  /// C++ files outside the change whose indexed version is not the base's:
  /// the base's versions found in the store, and the paths of the others.
  std::vector<FileIndex> BaseVersions;
  std::vector<std::string> OutOfStep;
  std::vector<size_t> Changed;
  std::set<std::string> CppTests, Mapped;
  std::map<std::string, TestEntry> Entries;
  /// Python tests with coverage: the graph never decides them.
  std::set<std::string> PyMapped;
  std::vector<std::string> Unplaced;
  std::map<size_t, std::map<std::string, std::string>> Reachers;
};

} // namespace

llvm::Error applyCppGraph(const git::Repository &Repo, Store &S,
                          const SelectOptions &O,
                          const std::vector<FileIndex> &OldVersions,
                          const std::vector<FileIndex> &NewVersions,
                          Selection &Sel,
                          std::map<std::string, std::vector<Reason>> &ByTest) {
  return CppGraphSelection(Repo, S, O, OldVersions, NewVersions, Sel, ByTest)
      .run();
}

} // namespace select
} // namespace tia
