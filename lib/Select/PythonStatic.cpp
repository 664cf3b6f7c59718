//===- PythonStatic.cpp - static selection of Python tests ----------------===//

#include "PythonStatic.h"
#include "NameRTS.h"
#include "tia/Python/FrontEnd.h"
#include "tia/Store/Store.h"
#include "tia/Support/Error.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ThreadPool.h"
#include <map>
#include <mutex>

namespace tia {
namespace select {

using namerts::FileEvidence;
using namerts::FileOutcome;
using namerts::Graph;
using namerts::GraphFile;
using namerts::NodeChange;

namespace {

/// Files that select nothing wherever they change (see Paths.h).
bool isInert(llvm::StringRef Path) {
  llvm::StringRef Ext = llvm::sys::path::extension(Path);
  llvm::StringRef Name = llvm::sys::path::filename(Path);
  return Ext == ".pyc" || Path.contains("__pycache__/") || Ext == ".profraw" ||
         Ext == ".profdata" || Ext == ".gcda" || Ext == ".gcno" ||
         Name == ".coverage" || Name.starts_with(".coverage.");
}

/// Finds the Python versions a graph needs: the store's, else parsed from
/// git's blob (or the work tree).
class Versions {
public:
  Versions(git::Repository &Repo, Store &S, const python::FrontEndOptions &O)
      : Repo(Repo), S(S), O(O) {}

  /// The version of \p Path with blob \p Blob in a tree where \p IsFile
  /// says which files exist. \p Full: with its elements (not only the
  /// graph). std::nullopt when it cannot be read.
  llvm::Expected<std::optional<FileIndex>>
  get(llvm::StringRef Path, llvm::StringRef Blob,
      llvm::function_ref<bool(llvm::StringRef)> IsFile, bool Full) {
    auto Stored =
        Full ? S.getFileIndex(Path, Blob) : S.getPythonGraph(Path, Blob);
    if (!Stored)
      return Stored.takeError();
    // A version stored before tia kept name graphs has none: parse it.
    if (*Stored && (*Stored)->Python &&
        (!(*Stored)->Complete || !(*Stored)->Python->Nodes.empty()))
      return Stored;
    auto Text = Repo.readBlob(Blob);
    if (!Text) {
      llvm::consumeError(Text.takeError());
      auto Buf = llvm::MemoryBuffer::getFile(Repo.workdir() + "/" + Path.str(),
                                             /*IsText=*/false);
      if (!Buf)
        return std::nullopt;
      Text = (*Buf)->getBuffer().str();
    }
    std::string Module = python::moduleName(Path, IsFile);
    auto FI = python::indexFile(Path, Module, *Text, O);
    if (!FI)
      return FI.takeError();
    ++Parsed;
    return std::optional<FileIndex>(std::move(*FI));
  }

  unsigned Parsed = 0;

private:
  git::Repository &Repo;
  Store &S;
  const python::FrontEndOptions &O;
};

/// Node id -> index, for one version.
std::map<std::string, size_t> byId(const std::vector<NameNode> &Nodes) {
  std::map<std::string, size_t> Out;
  for (size_t I = 0; I < Nodes.size(); ++I)
    Out.emplace(Nodes[I].Id, I);
  return Out;
}

bool usesName(const NameNode &N, llvm::StringRef Name) {
  llvm::SmallVector<llvm::StringRef, 16> Uses;
  llvm::StringRef(N.Uses).split(Uses, ' ', -1, false);
  return llvm::is_contained(Uses, ("n:" + Name).str());
}

/// A binding whose base version ran code at import (`X = compute()` now
/// `X = 4`) no longer runs it: that is a change at import, not only of
/// what the name holds, so the head version does not count as pure.
void keepBaseEffects(const NameNode &Base, NameNode &Head) {
  if (Head.Kind == "variable" && !llvm::is_contained(Base.Flags, "pure"))
    llvm::erase_if(Head.Flags,
                   [](const std::string &F) { return F == "pure"; });
}

/// Marks in \p GF (the head version \p New of a file) what changed since
/// \p Old: new and modified nodes, nodes using a name whose import
/// changed, and the deleted nodes, appended as tombstones.
void compare(const FileIndex &Old, const FileIndex &New, GraphFile &GF) {
  const std::vector<NameNode> &O = Old.Python->Nodes;
  std::map<std::string, size_t> OldIds = byId(O), NewIds = byId(GF.Nodes);
  GF.Changes.assign(GF.Nodes.size(), NodeChange::None);
  GF.ChangeNotes.assign(GF.Nodes.size(), "");
  GF.HeaderChanged.assign(GF.Nodes.size(), 0);
  for (size_t I = 0; I < GF.Nodes.size(); ++I) {
    auto It = OldIds.find(GF.Nodes[I].Id);
    if (It == OldIds.end())
      GF.Changes[I] = NodeChange::Added;
    else if (O[It->second].Checksum != GF.Nodes[I].Checksum) {
      GF.Changes[I] = NodeChange::Modified;
      GF.HeaderChanged[I] =
          O[It->second].HeaderChecksum != GF.Nodes[I].HeaderChecksum;
      keepBaseEffects(O[It->second], GF.Nodes[I]);
    }
  }
  // A name whose import changed means something else where it is used.
  std::map<std::string, std::set<std::pair<std::string, std::string>>> OldB,
      NewB;
  for (const NameBinding &B : Old.Python->Bindings)
    OldB[B.Local].insert({B.Module, B.Name});
  for (const NameBinding &B : New.Python->Bindings)
    NewB[B.Local].insert({B.Module, B.Name});
  std::set<std::string> Locals;
  for (auto &[L, T] : OldB)
    if (NewB[L] != T)
      Locals.insert(L);
  for (auto &[L, T] : NewB)
    if (OldB[L] != T)
      Locals.insert(L);
  for (const std::string &L : Locals)
    for (size_t I = 0; I < GF.Nodes.size(); ++I) {
      if (GF.Changes[I] != NodeChange::None)
        continue;
      bool Hit =
          L == "*" ? GF.Nodes[I].Kind == "module" : usesName(GF.Nodes[I], L);
      if (Hit) {
        GF.Changes[I] = NodeChange::Modified;
        GF.ChangeNotes[I] = L == "*" ? "a star import changed"
                                     : "the import of " + L + " changed";
      }
    }
  for (size_t I = 0; I < O.size(); ++I)
    if (!NewIds.count(O[I].Id)) {
      GF.Nodes.push_back(O[I]);
      GF.Changes.push_back(NodeChange::Deleted);
      GF.ChangeNotes.push_back("");
      GF.HeaderChanged.push_back(0);
    }
}

/// The test files' tests: definitions of the head, with the parametrized
/// ids the store knows for them.
struct TestsOfFile {
  std::vector<std::string> Names; ///< node ids to propagate for
  std::map<std::string, std::vector<std::string>> Ids; ///< name -> test ids
};

std::string baseOf(llvm::StringRef NodeId) {
  return NodeId.split('[').first.str();
}

/// What changed between two commits, as far as evidence recorded at the
/// first needs to know.
struct Staleness {
  bool All = false; ///< something tia cannot follow changed
  std::string Why;  ///< for All
  std::set<std::pair<std::string, std::string>> Nodes; ///< (path, node id)
  std::set<std::string> Keys;                          ///< changed element keys
};

llvm::Expected<Staleness> staleness(git::Repository &Repo, Store &S,
                                    Versions &V, llvm::StringRef From,
                                    llvm::StringRef To,
                                    const SelectOptions &O) {
  Staleness Out;
  auto Changes = Repo.diff(From, To);
  if (!Changes) {
    Out.All = true;
    Out.Why = llvm::toString(Changes.takeError());
    return Out;
  }
  std::set<std::string, std::less<>> FromFiles, ToFiles;
  bool Listed = false;
  auto List = [&]() -> llvm::Error {
    if (Listed)
      return llvm::Error::success();
    Listed = true;
    for (auto [Side, Set] :
         {std::pair<llvm::StringRef, decltype(&FromFiles)>{From, &FromFiles},
          {To, &ToFiles}}) {
      auto Files = Repo.treeFiles(Side);
      if (!Files)
        return Files.takeError();
      for (auto &[P, B] : *Files)
        Set->insert(P);
    }
    return llvm::Error::success();
  };
  for (const git::FileChange &C : *Changes) {
    llvm::StringRef Shown = C.NewPath.empty() ? C.OldPath : C.NewPath;
    if (isInert(Shown))
      continue;
    bool Py =
        python::isPythonSource(C.OldPath) || python::isPythonSource(C.NewPath);
    if (!Py || C.Binary) {
      if (O.Included && !O.Included(Shown))
        continue;
      Out.All = true;
      Out.Why = Shown.str() + " changed";
      return Out;
    }
    if (llvm::Error E = List())
      return E;
    std::optional<FileIndex> Old, New;
    if (!C.OldPath.empty()) {
      auto Got = V.get(
          C.OldPath, C.OldBlob,
          [&](llvm::StringRef P) { return FromFiles.count(P); }, true);
      if (!Got)
        return Got.takeError();
      Old = std::move(*Got);
    }
    if (!C.NewPath.empty()) {
      auto Got = V.get(
          C.NewPath, C.NewBlob,
          [&](llvm::StringRef P) { return ToFiles.count(P); }, true);
      if (!Got)
        return Got.takeError();
      New = std::move(*Got);
    }
    if ((Old && !Old->Complete) || (New && !New->Complete)) {
      Out.All = true;
      Out.Why = Shown.str() + " did not parse";
      return Out;
    }
    FileComparison Cmp =
        compareVersions(Old ? &*Old : nullptr, New ? &*New : nullptr, {}, {});
    for (const ChangedElement &CE : Cmp.Elements)
      Out.Keys.insert(CE.Elem.Key);
    if (New) {
      GraphFile GF;
      GF.Nodes = New->Python->Nodes;
      if (Old)
        compare(*Old, *New, GF);
      else
        GF.Changes.assign(GF.Nodes.size(), NodeChange::Added);
      for (size_t I = 0; I < GF.Nodes.size(); ++I)
        if (GF.Changes[I] == NodeChange::Added ||
            GF.Changes[I] == NodeChange::Modified)
          Out.Nodes.insert({C.NewPath, GF.Nodes[I].Id});
    }
  }
  return Out;
}

/// What the files without runtime evidence cost: critical-name pruning
/// needs the calls `tia collect --pytest` records, so without them every
/// test file that can reach a changed critical name is selected.
std::string withoutEvidence(size_t TestFiles, size_t WithEvidence) {
  if (WithEvidence >= TestFiles)
    return std::string();
  return llvm::formatv(" ({0} without: they are not pruned by critical "
                       "names; run tia collect --pytest to record it)",
                       TestFiles - WithEvidence)
      .str();
}

/// Why runtime evidence of a test, or of every test of a file ("*": of
/// every file), is incomplete.
struct IncompleteEvidence {
  std::map<std::string, std::string> Tests; ///< "pytest:<node id>" -> why
  std::map<std::string, std::string> Files; ///< test file or "*" -> why
};

/// What the current runs of the test files (\p RunOf) say they could not
/// observe: child processes they could not trace ("untraced": node id, a
/// tab, what ran; no node id: outside a test) and tests that did not pass
/// ("failed": their run stopped short).
IncompleteEvidence incompleteEvidence(
    const std::map<std::string, const RuntimeEvidence *> &RunOf) {
  IncompleteEvidence Out;
  std::set<const RuntimeEvidence *> Current;
  for (auto &[File, Run] : RunOf)
    Current.insert(Run);
  for (const RuntimeEvidence *Run : Current)
    for (const RuntimeEvidence::Access &Acc : Run->Accesses) {
      llvm::StringRef Test;
      std::string Why;
      if (Acc.Kind == "untraced") {
        auto [T, What] = llvm::StringRef(Acc.Value).split('\t');
        Test = T;
        Why = "runs a child process tia could not trace (" + What.str() + ")";
      } else if (Acc.Kind == "failed") {
        Test = Acc.Value;
        Why = "did not pass when collected, so its run stopped short";
      } else {
        continue;
      }
      if (Test.empty())
        Out.Files.emplace(Acc.Scope, Why);
      else
        Out.Tests.emplace("pytest:" + Test.str(), Why);
    }
  return Out;
}

/// Why the evidence of \p Test is incomplete; empty when it is not.
std::string incompleteWhy(const IncompleteEvidence &Inc,
                          const std::string &Test) {
  auto T = Inc.Tests.find(Test);
  if (T != Inc.Tests.end())
    return T->second;
  std::string File =
      llvm::StringRef(Test).drop_front(7).split("::").first.str();
  for (const std::string &Scope : {File, std::string("*")}) {
    auto F = Inc.Files.find(Scope);
    if (F != Inc.Files.end())
      return F->second;
  }
  return std::string();
}

std::string join(const std::set<std::string> &Items) {
  return llvm::join(Items.begin(), Items.end(), ", ");
}

/// One static selection, stage by stage: the head's name graph with what
/// changed in it, the tests of each test file, their runtime evidence and
/// whether it still holds, propagation per test file, and the hits as
/// elements.
class StaticRun {
public:
  explicit StaticRun(const StaticRequest &R)
      : R(R), O(R.Options), V(R.Repo, R.S, O.Python) {
    for (const FileIndex &F : R.NewVersions)
      if (F.Python)
        NewOf[F.Path] = &F;
    for (const FileIndex &F : R.OldVersions)
      if (F.Python)
        OldOf[F.Path] = &F;
    for (const git::FileChange &C : R.Changes)
      if (!C.NewPath.empty())
        ChangeOf[C.NewPath] = &C;
  }

  llvm::Expected<StaticAnswer> run() {
    std::vector<GraphFile> Files;
    if (llvm::Error E = addHeadFiles(Files))
      return E;
    markImportChanges(Files);
    fallBackOnRegistries(Files);
    if (llvm::Error E = buildGraph(std::move(Files)))
      return E;
    if (llvm::Error E = findTests())
      return E;
    if (llvm::Error E = readEvidence())
      return E;
    if (llvm::Error E = markStaleCoverage())
      return E;
    assignEvidence();
    propagate();
    findNameBound();
    neverPruneIncomplete();
    summarize();
    return std::move(A);
  }

private:
  /// The head's Python files and their blobs: the diff base's, with the
  /// change applied.
  llvm::Expected<std::map<std::string, std::string>> headBlobs() {
    auto Tree = R.Repo.treeFiles(R.DiffBase);
    if (!Tree)
      return Tree.takeError();
    std::map<std::string, std::string> Head;
    for (auto &[P, B] : *Tree)
      if (wanted(P))
        Head[P] = B;
    for (const git::FileChange &C : R.Changes) {
      if (!C.OldPath.empty() && python::isPythonSource(C.OldPath))
        Head.erase(C.OldPath);
      if (!C.NewPath.empty() && wanted(C.NewPath))
        Head[C.NewPath] = C.NewBlob;
    }
    return Head;
  }

  bool wanted(llvm::StringRef P) const {
    return python::isPythonSource(P) && (!O.Included || O.Included(P));
  }

  /// The graph's files: every head file that parsed (a changed one with
  /// its changes against its base version), then the deleted files and
  /// those moved to another module name, whose base nodes stay as
  /// tombstones under their old names.
  llvm::Error addHeadFiles(std::vector<GraphFile> &Files) {
    auto Head = headBlobs();
    if (!Head)
      return Head.takeError();
    std::set<std::string, std::less<>> HeadPaths;
    for (auto &[P, B] : *Head)
      HeadPaths.insert(P);
    auto IsHeadFile = [&](llvm::StringRef P) {
      return HeadPaths.count(P) != 0;
    };
    std::vector<const git::FileChange *> Moved;
    Loaded.reserve(Head->size()); // the versions parsed here stay put
    for (auto &[Path, Blob] : *Head) {
      const FileIndex *FI = nullptr;
      auto It = NewOf.find(Path);
      if (It != NewOf.end() && !It->second->Python->Nodes.empty()) {
        FI = It->second;
      } else {
        auto Got = V.get(Path, Blob, IsHeadFile, false);
        if (!Got)
          return Got.takeError();
        if (!*Got)
          continue;
        Loaded.push_back(std::move(**Got));
        FI = &Loaded.back();
      }
      if (!FI->Complete || !FI->Python)
        continue; // a change to it selects all; nothing to reach in it
      Files.push_back(headFile(Path, *FI, Moved));
    }
    for (const git::FileChange &C : R.Changes)
      if (C.Status == git::ChangeStatus::Deleted &&
          python::isPythonSource(C.OldPath))
        Moved.push_back(&C);
    for (const git::FileChange *C : Moved) {
      auto Old = OldOf.find(C->OldPath);
      if (Old == OldOf.end() || !Old->second->Complete)
        continue;
      GraphFile GF;
      GF.Path = C->OldPath;
      GF.Module = Old->second->Python->Module;
      GF.BaseOnly = true;
      GF.Nodes = Old->second->Python->Nodes;
      GF.Changes.assign(GF.Nodes.size(), NodeChange::Deleted);
      GF.Bindings = Old->second->Python->Bindings;
      Files.push_back(std::move(GF));
    }
    return llvm::Error::success();
  }

  /// The graph file of head version \p FI at \p Path, compared with its
  /// base version when it changed; a changed file whose module name
  /// changed goes to \p Moved.
  GraphFile headFile(const std::string &Path, const FileIndex &FI,
                     std::vector<const git::FileChange *> &Moved) {
    GraphFile GF;
    GF.Path = Path;
    GF.Module = FI.Python->Module;
    GF.Nodes = FI.Python->Nodes;
    GF.Bindings = FI.Python->Bindings;
    GF.Imports = FI.Python->Imports;
    GF.Tests = FI.Tests;
    auto C = ChangeOf.find(Path);
    if (C == ChangeOf.end())
      return GF;
    const git::FileChange &Ch = *C->second;
    auto Old = Ch.OldPath.empty() ? OldOf.end() : OldOf.find(Ch.OldPath);
    bool SameModule = Old != OldOf.end() && Old->second->Complete &&
                      Old->second->Python->Module == GF.Module;
    if (SameModule) {
      compare(*Old->second, FI, GF);
    } else {
      GF.Changes.assign(GF.Nodes.size(), NodeChange::Added);
      if (Old != OldOf.end() && Old->second->Complete)
        Moved.push_back(&Ch);
    }
    return GF;
  }

  /// A module that starts or stops importing a project module with code
  /// at import time changes what runs in every test that imports it.
  void markImportChanges(std::vector<GraphFile> &Files) const {
    std::map<std::string, const GraphFile *> ByModule;
    for (const GraphFile &GF : Files)
      if (!GF.BaseOnly)
        ByModule[GF.Module] = &GF;
    auto RunsCode = [&](const std::string &M) {
      auto It = ByModule.find(M);
      return It != ByModule.end() &&
             llvm::any_of(It->second->Nodes, [](const NameNode &N) {
               return N.Kind == "module" && !N.Uses.empty();
             });
    };
    for (GraphFile &GF : Files) {
      auto C = ChangeOf.find(GF.Path);
      if (GF.BaseOnly || C == ChangeOf.end() || C->second->OldPath.empty())
        continue;
      auto Old = OldOf.find(C->second->OldPath);
      if (Old == OldOf.end() || !Old->second->Complete)
        continue;
      std::set<std::string> Before, After;
      for (const ImportRecord &I : Old->second->Python->Imports)
        Before.insert(I.Module);
      for (const ImportRecord &I : GF.Imports)
        After.insert(I.Module);
      std::set<std::string> Diff;
      for (const std::string &M : Before)
        if (!After.count(M) && RunsCode(M))
          Diff.insert(M);
      for (const std::string &M : After)
        if (!Before.count(M) && RunsCode(M))
          Diff.insert(M);
      if (Diff.empty())
        continue;
      for (size_t I = 0; I < GF.Nodes.size(); ++I)
        if (GF.Nodes[I].Kind == "module" && GF.Changes[I] == NodeChange::None) {
          GF.Changes[I] = NodeChange::Modified;
          GF.ChangeNotes[I] = "it now imports or no longer imports " +
                              join(Diff) + ", which run code at import";
        }
    }
  }

  /// A changed registry decorator may register anything, anywhere.
  void fallBackOnRegistries(const std::vector<GraphFile> &Files) {
    std::set<std::string> Registries;
    for (const GraphFile &GF : Files)
      for (const NameNode &N : GF.Nodes)
        for (const std::string &D : N.Decorators) {
          llvm::SmallVector<llvm::StringRef, 4> Parts;
          llvm::StringRef(D).split(Parts, '.');
          for (llvm::StringRef P : Parts)
            for (const std::string &K : O.Static.RegistryKeywords)
              if (llvm::StringRef(P.lower()).contains(
                      llvm::StringRef(K).lower()))
                Registries.insert(P.str());
        }
    for (const GraphFile &GF : Files)
      for (size_t I = 0; I < GF.Nodes.size(); ++I)
        if (GF.Changes.size() > I && GF.Changes[I] != NodeChange::None &&
            GF.Nodes[I].Kind == "function" &&
            Registries.count(GF.Nodes[I].Name)) {
          A.Fallbacks.push_back(
              {FallbackKind::Registry, GF.Path,
               "registry decorator " + GF.Nodes[I].Name + " " +
                   namerts::nodeChangeName(GF.Changes[I]).str() + " (line " +
                   std::to_string(GF.Nodes[I].BeginLine) +
                   "): what it registers may run from any test"});
          break;
        }
  }

  llvm::Error buildGraph(std::vector<GraphFile> Files) {
    auto Critical = R.S.criticalNames();
    if (!Critical)
      return Critical.takeError();
    GO.RegistryKeywords = O.Static.RegistryKeywords;
    GO.TestFunctionPatterns = O.Static.TestFunctionPatterns;
    GO.ContextMatching = O.Static.ContextMatching;
    if (O.Static.CriticalPruning)
      for (auto &[Name, Gain] : *Critical)
        GO.CriticalNames.push_back(Name);
    G.emplace(std::move(Files), GO);
    return llvm::Error::success();
  }

  /// The tests of each test file: its definitions' and the stored ids of
  /// their instances; and the commit each stored test's coverage is from.
  llvm::Error findTests() {
    auto Stored = R.S.sharedTests();
    if (!Stored)
      return Stored.takeError();
    std::map<std::string, std::vector<std::string>> StoredByFile;
    for (const TestRecord &T : **Stored) {
      llvm::StringRef Id = T.Id;
      if (!Id.consume_front("pytest:"))
        continue;
      StoredByFile[Id.split("::").first.str()].push_back(Id.str());
      if (T.CoveredElements > 0 || !T.CoverageCommit.empty())
        CoverageCommit[T.Id] = T.CoverageCommit;
    }
    TestFiles = G->testFiles();
    TestsOf.resize(TestFiles.size());
    for (size_t I = 0; I < TestFiles.size(); ++I) {
      const GraphFile &GF = G->file(TestFiles[I]);
      TestsOfFile &T = TestsOf[I];
      for (const TestDefinition &D : GF.Tests) {
        T.Names.push_back(D.Name);
        T.Ids[D.Name].push_back("pytest:" + D.Name);
      }
      for (const std::string &Id : StoredByFile[GF.Path]) {
        auto It = T.Ids.find(baseOf(Id));
        if (It != T.Ids.end() &&
            !llvm::is_contained(It->second, "pytest:" + Id))
          It->second.push_back("pytest:" + Id);
      }
      for (auto &[Name, Ids] : T.Ids)
        A.Tests.insert(Ids.begin(), Ids.end());
    }
    return llvm::Error::success();
  }

  /// Runtime evidence, and whether it still holds at the diff base: the
  /// graph's nodes changed since each commit the evidence or the coverage
  /// was recorded at.
  llvm::Error readEvidence() {
    auto Runs = R.S.runtimeEvidence();
    if (!Runs)
      return Runs.takeError();
    this->Runs = std::move(*Runs);
    for (const RuntimeEvidence &Run : this->Runs) {
      for (const std::string &F : Run.TestFiles)
        RunOf[F] = &Run;
      for (const RuntimeEvidence::Access &Acc : Run.Accesses)
        if (Acc.Scope == "*")
          addAccess(Acc, Shared);
    }
    std::set<std::string> Commits;
    for (auto &[F, Run] : RunOf)
      if (Run->Commit != R.DiffBase)
        Commits.insert(Run->Commit);
    if (R.CheckCoverage)
      for (auto &[Test, Commit] : CoverageCommit)
        if (!Commit.empty() && Commit != R.DiffBase)
          Commits.insert(Commit);
    for (const std::string &C : Commits) {
      auto St = staleness(R.Repo, R.S, V, C, R.DiffBase, O);
      if (!St)
        return St.takeError();
      std::vector<uint8_t> Marks(G->numNodes(), 0);
      for (uint32_t N = 0; N < G->numNodes(); ++N) {
        auto [F, I] = G->where(N);
        if (St->Nodes.count({G->file(F).Path, G->file(F).Nodes[I].Id}))
          Marks[N] = 1;
      }
      StaleMarks[C] = std::move(Marks);
      StaleAt[C] = std::move(*St);
    }
    return llvm::Error::success();
  }

  static void addAccess(const RuntimeEvidence::Access &Acc, FileEvidence &E) {
    if (Acc.Kind == "name")
      E.Names.insert(Acc.Value);
    else if (Acc.Kind == "import")
      E.Imports.insert(Acc.Value);
    else if (Acc.Kind == "call")
      E.Invoked.insert(Acc.Value);
  }

  /// Coverage that predates a change to what it ran does not say what the
  /// test reaches now.
  llvm::Error markStaleCoverage() {
    if (!R.CheckCoverage)
      return llvm::Error::success();
    for (auto &[Test, Commit] : CoverageCommit) {
      if (Commit.empty() || Commit == R.DiffBase)
        continue;
      const Staleness &St = StaleAt[Commit];
      if (St.All) {
        A.StaleCoverage.insert(Test);
        continue;
      }
      if (St.Keys.empty())
        continue;
      auto Keys = R.S.coverageOf(Test);
      if (!Keys)
        return Keys.takeError();
      if (llvm::any_of(*Keys,
                       [&](const std::string &K) { return St.Keys.count(K); }))
        A.StaleCoverage.insert(Test);
    }
    return llvm::Error::success();
  }

  /// Each test file's evidence: what its run accessed, and what every run
  /// shared; present only when its file ran in a process of its own, and
  /// not when every node may have changed since.
  void assignEvidence() {
    Evidence.resize(TestFiles.size());
    for (size_t I = 0; I < TestFiles.size(); ++I) {
      FileEvidence &E = Evidence[I];
      E.Names = Shared.Names;
      E.Imports = Shared.Imports;
      E.Invoked = Shared.Invoked;
      const std::string &Path = G->file(TestFiles[I]).Path;
      auto It = RunOf.find(Path);
      if (It == RunOf.end())
        continue;
      const RuntimeEvidence &Run = *It->second;
      for (const RuntimeEvidence::Access &Acc : Run.Accesses)
        if (Acc.Scope == Path)
          addAccess(Acc, E);
      if (!Run.Isolated)
        continue;
      E.Present = true;
      E.Probed.insert(Run.Probed.begin(), Run.Probed.end());
      if (Run.Commit != R.DiffBase) {
        if (StaleAt[Run.Commit].All) {
          E.Present = false;
          ++StaleEvidence;
          continue;
        }
        E.Stale = &StaleMarks[Run.Commit];
      }
      ++WithEvidence;
    }
  }

  /// Propagation, one test file per task; then the hits as elements.
  void propagate() {
    std::vector<FileOutcome> Outcomes(TestFiles.size());
    {
      llvm::DefaultThreadPool Pool(llvm::hardware_concurrency(O.Static.Jobs));
      for (size_t I = 0; I < TestFiles.size(); ++I)
        Pool.async([&, I] {
          Outcomes[I] = G->select(TestFiles[I], Evidence[I], TestsOf[I].Names);
        });
      Pool.wait();
    }
    for (size_t I = 0; I < TestFiles.size(); ++I) {
      const FileOutcome &Out = Outcomes[I];
      Stale += Out.EvidenceStale;
      if (Evidence[I].Present && !Out.EvidenceStale)
        for (auto &[Name, Ids] : TestsOf[I].Ids)
          A.Evidenced.insert(Ids.begin(), Ids.end());
      if (!Out.Shared.empty())
        for (const std::string &Name : TestsOf[I].Names)
          addHit(I, Name, Out.Shared.front());
      for (auto &[Name, H] : Out.Tests)
        addHit(I, Name, H);
      if (Out.Whole)
        for (const std::string &Name : Out.ByFile)
          addHit(I, Name, *Out.Whole);
    }
  }

  /// The changed elements whose every changed node is a variable that only
  /// binds a name (Graph::importWideWhy), with the code that uses them.
  void findNameBound() {
    std::map<std::string, bool> Bound; // element key -> so far
    std::map<std::string, std::vector<uint32_t>> Variables;
    for (uint32_t N = 0; N < G->numNodes(); ++N) {
      if (G->change(N) == NodeChange::None)
        continue;
      const NameNode &Node = nodeOf(N);
      bool Binds = G->isVariable(N) && G->importWideWhy(N).empty();
      auto [It, New] = Bound.emplace(Node.Key, Binds);
      It->second = It->second && Binds;
      if (Binds)
        Variables[Node.Key].push_back(N);
    }
    for (auto &[Key, Binds] : Bound) {
      if (!Binds)
        continue;
      NameBoundChange &C = A.NameBound[Key];
      for (uint32_t V : Variables[Key])
        for (uint32_t U : G->nameUsers(V))
          C.Users.push_back({nodeOf(U).Key,
                             G->display(U) + ", which uses " + nodeOf(V).Name});
    }
  }

  const NameNode &nodeOf(uint32_t N) const {
    auto [F, I] = G->where(N);
    return G->file(F).Nodes[I];
  }

  /// Test \p Name of test file \p File reached \p H: a hit for each of its
  /// ids.
  void addHit(size_t File, const std::string &Name, const namerts::Hit &H) {
    auto It = TestsOf[File].Ids.find(Name);
    if (It == TestsOf[File].Ids.end())
      return;
    StaticHit SH;
    elementOf(H.Node, SH);
    SH.Chain = H.Chain;
    auto [F, N] = G->where(H.Node);
    if (!G->file(F).ChangeNotes.empty() && !G->file(F).ChangeNotes[N].empty())
      SH.Chain += " (" + G->file(F).ChangeNotes[N] + ")";
    for (const std::string &Id : It->second) {
      SH.Test = Id;
      A.Hits.push_back(SH);
    }
  }

  /// From node \p N to the element that holds it (the version's element
  /// of its key, else a module element made up from the node).
  void elementOf(uint32_t N, StaticHit &H) const {
    auto [F, I] = G->where(N);
    const GraphFile &GF = G->file(F);
    const NameNode &Node = GF.Nodes[I];
    NodeChange C = G->change(N);
    H.NewNode = C == NodeChange::Added;
    const FileIndex *Version = nullptr;
    if (C == NodeChange::Deleted) {
      for (auto &[P, FI] : OldOf)
        if (FI->Python && FI->Python->Module == GF.Module)
          Version = FI;
    } else {
      auto It = NewOf.find(GF.Path);
      Version = It != NewOf.end() ? It->second : nullptr;
    }
    H.Change = C == NodeChange::Deleted ? ElementChange::Deleted
               : C == NodeChange::Added ? ElementChange::Added
                                        : ElementChange::Modified;
    if (Version)
      for (const Element &E : Version->Elements)
        if (E.Key == Node.Key) {
          H.Elem = E;
          return;
        }
    H.Elem.Key = Node.Key;
    H.Elem.Kind = ElementKind::Module;
    H.Elem.Display = G->display(N);
    H.Elem.File = GF.Path;
    H.Elem.BeginLine = Node.BeginLine;
    H.Elem.EndLine = Node.EndLine;
  }

  /// A test whose run tia could not observe in full may reach any change:
  /// it is never pruned (the first changed node stands for the change).
  void neverPruneIncomplete() {
    IncompleteEvidence Inc = incompleteEvidence(RunOf);
    std::optional<uint32_t> Changed;
    for (uint32_t N = 0; N < G->numNodes() && !Changed; ++N)
      if (G->change(N) != NodeChange::None)
        Changed = N;
    for (const std::string &Test : A.Tests) {
      std::string Why = incompleteWhy(Inc, Test);
      if (Why.empty())
        continue;
      A.IncompleteEvidence.insert(Test);
      if (!Changed)
        continue;
      StaticHit SH;
      elementOf(*Changed, SH);
      SH.Test = Test;
      SH.Chain = "the test " + Why +
                 ": its runtime evidence is incomplete, so static analysis "
                 "never prunes it";
      A.Hits.push_back(std::move(SH));
    }
    if (!A.IncompleteEvidence.empty())
      A.Notes.push_back(llvm::formatv(
          "static: {0} Python tests with incomplete runtime evidence (a "
          "child process not traced, or not passing when collected): never "
          "pruned",
          A.IncompleteEvidence.size()));
  }

  void summarize() {
    if (TestFiles.empty())
      return;
    A.Notes.push_back(llvm::formatv(
        "static: {0} Python test files, {1} with runtime evidence{2}{5}; {3} "
        "critical names; {4} files parsed",
        TestFiles.size(), WithEvidence - Stale,
        Stale + StaleEvidence
            ? llvm::formatv(" ({0} more with evidence older than a change "
                            "they reach: not pruned)",
                            Stale + StaleEvidence)
                  .str()
            : std::string(),
        GO.CriticalNames.size(), V.Parsed,
        withoutEvidence(TestFiles.size(), WithEvidence)));
  }

  const StaticRequest &R;
  const SelectOptions &O;
  StaticAnswer A;
  Versions V;
  std::map<std::string, const FileIndex *> NewOf, OldOf;
  std::map<std::string, const git::FileChange *> ChangeOf;
  std::vector<FileIndex> Loaded; ///< head versions parsed here
  namerts::GraphOptions GO;
  std::optional<Graph> G;
  std::vector<uint32_t> TestFiles;
  std::vector<TestsOfFile> TestsOf; ///< by test file
  /// Test id -> the commit its coverage was collected at.
  std::map<std::string, std::string> CoverageCommit;
  std::vector<RuntimeEvidence> Runs;
  std::map<std::string, const RuntimeEvidence *> RunOf; ///< by test file
  FileEvidence Shared; ///< what ran outside every test file (scope "*")
  std::map<std::string, Staleness> StaleAt;
  std::map<std::string, std::vector<uint8_t>> StaleMarks;
  std::vector<FileEvidence> Evidence; ///< by test file
  unsigned WithEvidence = 0, StaleEvidence = 0, Stale = 0;
};

} // namespace

llvm::Expected<StaticAnswer> selectPythonStatic(const StaticRequest &R) {
  return StaticRun(R).run();
}

} // namespace select
} // namespace tia
