//===- CoveragePy.cpp - importing coverage.py's per-test data -------------===//
//
// coverage.py records, per dynamic context, the lines of each file that
// ran. A context is a test (pytest-cov's "NODEID|run", "|setup",
// "|teardown", or coverage's own "module.Class.test_function"); the empty
// context is everything that ran outside a test: collection, and the
// import of every module the tests import.
//
// Module-level code runs once per process, in whichever context imported
// the module first, so what it covers says nothing about which tests
// depend on it. Such code (the lines of the empty context, and the module,
// class and variable elements of any context) is attributed through the
// import graph instead: to every test whose file imports the module,
// directly or through other modules.
//
//===----------------------------------------------------------------------===//

#include "ImportInternal.h"
#include "tia/Coverage/Coverage.h"
#include "tia/Store/CoveragePyData.h"
#include "tia/Store/Store.h"
#include "tia/Support/Error.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"
#include <algorithm>
#include <map>
#include <set>

namespace tia {
namespace coverage {

std::vector<unsigned> numbitsToLines(llvm::StringRef Numbits) {
  std::vector<unsigned> Lines;
  for (size_t Byte = 0; Byte < Numbits.size(); ++Byte) {
    unsigned char Bits = static_cast<unsigned char>(Numbits[Byte]);
    for (unsigned Bit = 0; Bit < 8; ++Bit)
      if (Bits & (1u << Bit))
        Lines.push_back(static_cast<unsigned>(Byte * 8 + Bit));
  }
  return Lines;
}

std::string nodeIdOfContext(llvm::StringRef Context) {
  if (!Context.contains("::"))
    return std::string();
  // pytest-cov appends the phase; a node id may itself hold '|' inside
  // its parameters ("test_x[a|b]"), so only a known phase is cut.
  for (llvm::StringRef Phase : {"|run", "|setup", "|teardown"})
    if (Context.ends_with(Phase))
      return Context.drop_back(Phase.size()).str();
  return Context.str();
}

namespace {

bool isDefinitionTime(const Element &E) {
  return E.Kind == ElementKind::Module || E.Kind == ElementKind::Class ||
         E.Kind == ElementKind::Variable;
}

/// The keys a line of \p F that ran stands for: the innermost element
/// holding it, except that the decorator and signature lines of a function
/// (before its body) run when the enclosing code defines the function, so
/// they go to that enclosing element. A one-line function ("def f(): ...")
/// cannot tell the two apart and goes to both.
void keysForLine(const FileIndex &F, unsigned Line,
                 std::vector<const Element *> &Out) {
  std::vector<const Element *> Holding;
  for (const Element &E : F.Elements)
    if (E.containsLine(Line))
      Holding.push_back(&E);
  // Innermost first. A module holds everything in its file, so among
  // elements of the same lines (a function spanning its whole file) the
  // module is the outer one.
  std::stable_sort(
      Holding.begin(), Holding.end(), [](const Element *A, const Element *B) {
        unsigned SpanA = A->EndLine - A->BeginLine;
        unsigned SpanB = B->EndLine - B->BeginLine;
        if (SpanA != SpanB)
          return SpanA < SpanB;
        return A->Kind != ElementKind::Module && B->Kind == ElementKind::Module;
      });
  for (const Element *E : Holding) {
    bool Function = E->BodyLine != 0;
    if (!Function || Line > E->BodyLine) {
      Out.push_back(E);
      return;
    }
    if (Line == E->BodyLine) {
      Out.push_back(E);
      if (E->BodyLine != E->BeginLine)
        return;
    }
    // A header line: the enclosing element defined the function.
  }
}

/// The index's Python files: their versions, modules and imports.
class ProjectGraph {
public:
  ProjectGraph(Store &S, llvm::StringRef Root) : S(S), Indexed(S, Root) {}

  llvm::Error load() {
    if (llvm::Error E = Indexed.load())
      return E;
    auto Modules = S.currentPythonModules();
    if (!Modules)
      return Modules.takeError();
    for (auto &[Path, Module] : *Modules) {
      ModuleOf[Path] = Module;
      PathsOf[Module].push_back(Path);
    }
    auto Imports = S.currentImports();
    if (!Imports)
      return Imports.takeError();
    for (auto &[Path, I] : *Imports)
      ImportsOf[Path].push_back(I);
    auto Defs = S.currentTestDefinitions();
    if (!Defs)
      return Defs.takeError();
    for (auto &[Path, T] : *Defs) {
      if (T.Framework != "pytest")
        continue;
      // coverage.py's test_function contexts name "module.Class.test".
      llvm::StringRef Rest = llvm::StringRef(T.Name).split("::").second;
      std::string Dotted = ModuleOf[Path];
      for (llvm::StringRef Part : llvm::split(Rest, "::"))
        Dotted += "." + Part.take_until([](char C) { return C == '['; }).str();
      TestOfFunction[Dotted] = "pytest:" + T.Name;
    }
    return llvm::Error::success();
  }

  std::string relative(llvm::StringRef File) const {
    return Indexed.relative(File);
  }

  llvm::Expected<const FileIndex *> fileIndex(llvm::StringRef Rel) {
    return Indexed.fileIndex(Rel);
  }

  /// The test id a context names; empty for the import-time context and
  /// for contexts that name no test.
  std::string testOfContext(llvm::StringRef Context) const {
    std::string NodeId = nodeIdOfContext(Context);
    if (!NodeId.empty())
      return "pytest:" + NodeId;
    auto It = TestOfFunction.find(Context.str());
    return It == TestOfFunction.end() ? std::string() : It->second;
  }

  /// The files a test in \p TestFile runs at import time: the file, its
  /// conftest.py files and packages, and all they import, transitively.
  const std::set<std::string> &importClosure(const std::string &TestFile) {
    auto Cached = Closures.find(TestFile);
    if (Cached != Closures.end())
      return Cached->second;
    std::set<std::string> Seen;
    std::vector<std::string> Work;
    auto Add = [&](const std::string &P) {
      if (Indexed.current().count(P) && Seen.insert(P).second)
        Work.push_back(P);
    };
    Add(TestFile);
    // pytest loads the conftest.py of every directory above a test.
    for (llvm::StringRef Dir = llvm::sys::path::parent_path(TestFile);;
         Dir = llvm::sys::path::parent_path(Dir)) {
      Add(Dir.empty() ? "conftest.py" : (Dir + "/conftest.py").str());
      if (Dir.empty())
        break;
    }
    while (!Work.empty()) {
      std::string P = Work.back();
      Work.pop_back();
      // Importing a module runs the __init__.py of its packages first.
      for (llvm::StringRef Dir = llvm::sys::path::parent_path(P); !Dir.empty();
           Dir = llvm::sys::path::parent_path(Dir))
        Add((Dir + "/__init__.py").str());
      auto It = ImportsOf.find(P);
      if (It == ImportsOf.end())
        continue;
      for (const ImportRecord &I : It->second) {
        // "import a.b.c" runs a, a.b and a.b.c; "from a.b import c" also
        // a.b.c when c is a module.
        llvm::StringRef M = I.Module;
        for (size_t Dot = M.find('.');; Dot = M.find('.', Dot + 1)) {
          addModule(M.take_front(Dot), Add);
          if (Dot == llvm::StringRef::npos)
            break;
        }
        if (!I.Name.empty() && I.Name != "*")
          addModule(I.Module + "." + I.Name, Add);
      }
    }
    return Closures[TestFile] = std::move(Seen);
  }

  /// The indexed file a node id's path names (pytest's rootdir may lie
  /// below the repository root).
  std::string fileOfNodeId(llvm::StringRef NodeId) const {
    llvm::StringRef Path = NodeId.split("::").first;
    if (Indexed.current().count(Path))
      return Path.str();
    std::string Match;
    for (const auto &Entry : Indexed.current()) {
      llvm::StringRef F = Entry.first;
      if (F.ends_with(Path) && F.size() > Path.size() &&
          F[F.size() - Path.size() - 1] == '/') {
        if (!Match.empty())
          return std::string();
        Match = Entry.first;
      }
    }
    return Match;
  }

private:
  template <typename AddFn> void addModule(llvm::StringRef Module, AddFn &Add) {
    auto It = PathsOf.find(Module.str());
    if (It != PathsOf.end())
      for (const std::string &P : It->second)
        Add(P);
  }

  Store &S;
  IndexedFiles Indexed;
  std::map<std::string, std::string> ModuleOf;
  std::map<std::string, std::vector<std::string>> PathsOf;
  std::map<std::string, std::vector<ImportRecord>> ImportsOf;
  std::map<std::string, std::string> TestOfFunction;
  std::map<std::string, std::set<std::string>> Closures;
};

/// One import of coverage.py data files: each context's lines mapped onto
/// the indexed elements, then the fixtures' locations and the import-time
/// rule added, all read before anything is stored.
class CoveragePyImport {
public:
  CoveragePyImport(Store &S, const ImportOptions &Options)
      : S(S), Options(Options), G(S, Options.ProjectRoot) {}

  llvm::Expected<ImportSummary> run(const std::vector<std::string> &Files) {
    if (llvm::Error E = G.load())
      return E;
    // Read and map everything first, so that a bad file writes nothing.
    for (const std::string &File : Files)
      if (llvm::Error E = readFile(File))
        return E;
    if (llvm::Error E = addExtraLocations())
      return E;
    applyImportTimeRule();
    auto Native =
        addFunctionHits(S, Options.ProjectRoot, Options.NativeHits, Keys);
    if (!Native)
      return Native.takeError();
    Summary.NativeLinks = *Native;
    // Only after the import-time rule, which reads every test's data: a
    // module's definition-time lines are what any test that imported it
    // ran.
    for (const std::string &Test : Options.Untrusted)
      Keys.erase(Test);
    if (llvm::Error E = storeCoverage(S, Keys, Options.Commit, Summary))
      return E;
    Summary.UnknownContexts.assign(Unknown.begin(), Unknown.end());
    return std::move(Summary);
  }

private:
  llvm::Error readFile(const std::string &File) {
    auto Data = readCoveragePyData(File);
    if (!Data)
      return Data.takeError();
    if (llvm::none_of(Data->Contexts,
                      [](const std::string &C) { return !C.empty(); }))
      return makeErrorf("{0} was recorded without test contexts: run pytest "
                        "--cov --cov-context=test, or set [run] "
                        "dynamic_context = test_function in the coverage "
                        "configuration",
                        File);
    std::vector<std::string> TestOf = testsOfContexts(*Data);
    for (auto &[Where, Lines] : linesRan(*Data)) {
      auto [FileI, ContextI] = Where;
      bool Outside = Data->Contexts[ContextI].empty();
      if (!Outside && TestOf[ContextI].empty())
        continue;
      std::string Rel = G.relative(Data->Files[FileI]);
      if (Rel.empty())
        continue;
      auto FI = G.fileIndex(Rel);
      if (!FI)
        return FI.takeError();
      if (!*FI)
        continue;
      std::vector<const Element *> Hit;
      for (unsigned Line : Lines)
        keysForLine(**FI, Line, Hit);
      for (const Element *E : Hit) {
        if (Outside || isDefinitionTime(*E))
          ImportTime[Rel].insert(E->Key);
        if (!Outside)
          Keys[TestOf[ContextI]].insert(E->Key);
      }
    }
    return llvm::Error::success();
  }

  /// The test of each context of \p Data ("": none, or one tia does not
  /// know, which is noted).
  std::vector<std::string> testsOfContexts(const CoveragePyData &Data) {
    std::vector<std::string> TestOf(Data.Contexts.size());
    for (size_t C = 0; C < Data.Contexts.size(); ++C) {
      const std::string &Name = Data.Contexts[C];
      if (Name.empty())
        continue;
      TestOf[C] = G.testOfContext(Name);
      if (TestOf[C].empty()) {
        Unknown.insert(Name);
        continue;
      }
      Keys[TestOf[C]]; // A test that ran no project line still ran.
      if (!TestFile.count(TestOf[C]))
        TestFile[TestOf[C]] =
            G.fileOfNodeId(llvm::StringRef(TestOf[C]).drop_front(7));
    }
    return TestOf;
  }

  /// (file, context) -> the lines that ran, from line data or arcs alike.
  static std::map<std::pair<size_t, size_t>, std::set<unsigned>>
  linesRan(const CoveragePyData &Data) {
    std::map<std::pair<size_t, size_t>, std::set<unsigned>> Ran;
    for (const CoveragePyData::LineBits &L : Data.Lines) {
      std::vector<unsigned> Lines = numbitsToLines(L.Numbits);
      Ran[{L.File, L.Context}].insert(Lines.begin(), Lines.end());
    }
    for (const CoveragePyData::Arc &A : Data.Arcs)
      for (int64_t Line : {A.From, A.To})
        if (Line > 0)
          Ran[{A.File, A.Context}].insert(static_cast<unsigned>(Line));
    return Ran;
  }

  /// Fixtures and other code the caller knows each test depends on.
  llvm::Error addExtraLocations() {
    for (const auto &[Test, Locations] : Options.ExtraLocations) {
      auto It = Keys.find(Test);
      if (It == Keys.end())
        continue;
      for (const auto &[Path, Line] : Locations) {
        auto FI = G.fileIndex(Path);
        if (!FI)
          return FI.takeError();
        if (!*FI)
          continue;
        std::vector<const Element *> Hit;
        keysForLine(**FI, Line, Hit);
        for (const Element *E : Hit)
          It->second.insert(E->Key);
      }
    }
    return llvm::Error::success();
  }

  /// A module's definition-time code ran for every test whose file
  /// imports it, directly or not.
  void applyImportTimeRule() {
    for (auto &[Test, Covered] : Keys) {
      const std::string &Path = TestFile[Test];
      if (Path.empty())
        continue;
      for (const std::string &Imported : G.importClosure(Path)) {
        auto It = ImportTime.find(Imported);
        if (It == ImportTime.end())
          continue;
        for (const std::string &Key : It->second)
          Summary.ImportTimeLinks += Covered.insert(Key).second;
      }
    }
  }

  Store &S;
  const ImportOptions &Options;
  ProjectGraph G;
  std::map<std::string, std::set<std::string>> Keys;       ///< test -> keys
  std::map<std::string, std::set<std::string>> ImportTime; ///< path -> keys
  std::map<std::string, std::string> TestFile;             ///< test -> path
  std::set<std::string> Unknown;                           ///< contexts
  ImportSummary Summary;
};

} // namespace

llvm::Expected<ImportSummary>
importCoveragePy(Store &S, const std::vector<std::string> &Files,
                 const ImportOptions &Options) {
  return CoveragePyImport(S, Options).run(Files);
}

} // namespace coverage
} // namespace tia
