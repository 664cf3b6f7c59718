//===- Index.cpp - indexing a project into the store ----------------------===//
//
// Parses the translation units whose command, compiler or files changed
// since the last index (in parallel), skips the others, and stores their
// elements with the Python files' in one transaction (Index.h).
//
//===----------------------------------------------------------------------===//

#include "tia/Index/Index.h"
#include "tia/Support/Hash.h"
#include "tia/Support/Progress.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"
#include <chrono>
#include <map>
#include <mutex>
#include <set>

namespace tia {
namespace index {

namespace {

/// \p Path relative to \p Root when it lies below it; as given otherwise.
std::string relativeTo(llvm::StringRef Path, llvm::StringRef Root) {
  if (Path.starts_with(Root) && Path.size() > Root.size() + 1 &&
      Path[Root.size()] == '/')
    return Path.substr(Root.size() + 1).str();
  return Path.str();
}

/// Content hashes of project files, each file read once per run.
class HashCache {
public:
  /// std::nullopt when the file cannot be read (deleted since).
  std::optional<std::string> get(const std::string &Abs) {
    std::lock_guard<std::mutex> Lock(M);
    auto It = Hashes.find(Abs);
    if (It != Hashes.end())
      return It->second;
    std::optional<std::string> H;
    if (auto Buf = llvm::MemoryBuffer::getFile(Abs, /*IsText=*/false))
      H = gitBlobHash((*Buf)->getBuffer());
    Hashes[Abs] = H;
    return H;
  }

private:
  std::mutex M;
  std::map<std::string, std::optional<std::string>> Hashes;
};

/// The version of each compiler \p Commands name (compilerVersion()), by
/// its first argument; those that did not answer are left out.
std::map<std::string, std::string>
compilerVersions(const std::vector<CompileCommand> &Commands) {
  std::map<std::string, std::string> Out;
  for (const CompileCommand &Cmd : Commands)
    if (!Cmd.Arguments.empty() && !Out.count(Cmd.Arguments[0]))
      if (auto V = cpp::compilerVersion(Cmd.Arguments[0]))
        Out[Cmd.Arguments[0]] = *V;
  return Out;
}

/// Whether the compiler \p Old of an indexed command is the compiler \p New
/// of a current one at another path: the version recorded for \p Old is
/// the version \p New says it is.
bool sameCompiler(Store &S, const std::map<std::string, std::string> &Versions,
                  llvm::StringRef Old, llvm::StringRef New) {
  auto Now = Versions.find(New.str());
  if (Now == Versions.end())
    return false;
  auto Then = S.compilerVersion(Old);
  if (!Then) {
    llvm::consumeError(Then.takeError()); // Unknown: not the same; parse.
    return false;
  }
  return *Then && **Then == Now->second;
}

bool unchanged(
    const StoredTranslationUnit &TU, const CompileCommand &Cmd,
    llvm::StringRef Root, HashCache &Hashes,
    llvm::function_ref<bool(llvm::StringRef, llvm::StringRef)> SameCompiler) {
  if (!cpp::sameCompileCommand(TU.Command, Cmd, SameCompiler) ||
      TU.Dependencies.empty())
    return false;
  for (const FileVersionRef &D : TU.Dependencies) {
    std::optional<std::string> H = Hashes.get((Root + "/" + D.first).str());
    if (!H || *H != D.second)
      return false;
  }
  return true;
}

/// ", N critical names" for the summary; empty without any.
std::string criticalText(size_t N) {
  return N ? ", " + std::to_string(N) + " critical names" : std::string();
}

/// One index run, stage by stage: the Python files, the translation units
/// unchanged since the last index skipped and the others parsed in
/// parallel, then everything stored in one transaction.
class IndexRun {
public:
  IndexRun(Store &S, const IndexRequest &R, llvm::raw_ostream &Err)
      : S(S), R(R), Err(Err) {}

  llvm::Expected<IndexSummary> run() {
    auto Py = indexPythonFiles(S, R.Root, R.PythonFiles, R.Tracked, R.Python,
                               R.Quiet, Err);
    if (!Py)
      return Py.takeError();
    Sum.Python = std::move(*Py);
    if (llvm::Error E = forgetOlderGraphs())
      return E;
    if (llvm::Error E = skipUnchanged())
      return E;
    parseTranslationUnits();
    if (llvm::Error E = store())
      return E;
    warnOfErrors();
    Sum.Units = R.Units.size() - Sum.Unreadable;
    Sum.Parsed = Parsed.size();
    Sum.Unchanged = Skipped.size();
    return std::move(Sum);
  }

private:
  /// C++ file versions indexed by an older front end lack edges of the
  /// reference graph that static selection follows: parse them all again.
  llvm::Error forgetOlderGraphs() {
    auto GraphVersion = S.cppGraphVersion();
    if (!GraphVersion)
      return GraphVersion.takeError();
    if (*GraphVersion >= cpp::GraphVersion)
      return llvm::Error::success();
    auto Old = S.translationUnits();
    if (!Old)
      return Old.takeError();
    if (!Old->empty() && !R.Quiet)
      Err << "tia: note: parsing every translation unit again: the index was "
             "made by an older C++ front end (reference graph version "
          << *GraphVersion << ", now " << cpp::GraphVersion << ")\n";
    return S.transaction([&] { return S.forgetCppIndexes(); });
  }

  /// Splits the units into those to parse and those whose command,
  /// compiler and files are unchanged since the last index.
  llvm::Error skipUnchanged() {
    auto StoredTUs = S.translationUnits();
    if (!StoredTUs)
      return StoredTUs.takeError();
    for (StoredTranslationUnit &TU : *StoredTUs)
      Stored[TU.Path] = std::move(TU);
    HashCache Hashes;
    Compilers = compilerVersions(R.Units);
    auto SameCompiler = [&](llvm::StringRef Old, llvm::StringRef New) {
      return sameCompiler(S, Compilers, Old, New);
    };
    for (const CompileCommand &Cmd : R.Units) {
      auto It = Stored.find(relativeTo(Cmd.File, R.Root));
      if (It != Stored.end() &&
          unchanged(It->second, Cmd, R.Root, Hashes, SameCompiler))
        Skipped.push_back(&It->second);
      else
        ToParse.push_back(&Cmd);
    }
    return llvm::Error::success();
  }

  /// Parses ToParse in parallel (results land in their own slots). A
  /// translation unit that cannot be read (a stale entry, a generated file
  /// not made yet) is left out with a warning; a later change to it is a
  /// "not indexed" change, which selects all.
  void parseTranslationUnits() {
    std::vector<std::unique_ptr<llvm::Expected<TranslationUnitIndex>>> Results(
        ToParse.size());
    std::vector<double> ParseTimes(ToParse.size()); // balances --shard
    Progress Prog("indexing", ToParse.size(), Err, R.Quiet);
    {
      llvm::DefaultThreadPool Pool(llvm::hardware_concurrency(R.Jobs));
      for (size_t I = 0; I < ToParse.size(); ++I)
        Pool.async([&, I] {
          auto Began = std::chrono::steady_clock::now();
          Results[I] = std::make_unique<llvm::Expected<TranslationUnitIndex>>(
              cpp::indexTranslationUnit(*ToParse[I], R.FrontEnd));
          ParseTimes[I] = std::chrono::duration<double>(
                              std::chrono::steady_clock::now() - Began)
                              .count();
          Prog.step(relativeTo(ToParse[I]->File, R.Root));
        });
      Pool.wait();
    }
    Prog.finish();
    for (size_t I = 0; I < Results.size(); ++I) {
      auto &Result = Results[I];
      if (*Result) {
        Parsed.push_back(std::move(**Result));
        ParsedSeconds.push_back(ParseTimes[I]);
        continue;
      }
      ++Sum.Unreadable;
      Err << "tia: warning: skipped a translation unit: "
          << llvm::toString(Result->takeError()) << "\n";
    }
  }

  /// The files this revision of the index knows (path -> content hash),
  /// counting the elements and files parsed.
  llvm::Expected<std::map<std::string, std::string>> revisionFiles() {
    std::map<std::string, std::string> Files;
    if (R.Narrowed) {
      auto Previous = S.currentFiles();
      if (!Previous)
        return Previous.takeError();
      for (auto &[Path, Hash] : *Previous)
        Files[Path] = Hash;
    }
    for (const StoredTranslationUnit *TU : Skipped)
      for (const FileVersionRef &D : TU->Dependencies)
        Files[D.first] = D.second;
    for (const FileVersionRef &F : Sum.Python.Files)
      Files[F.first] = F.second;
    std::set<FileVersionRef> Counted;
    for (const TranslationUnitIndex &TU : Parsed) {
      for (const auto &D : TU.Dependencies)
        Files[D.first] = D.second;
      for (const FileIndex &F : TU.Files)
        if (Counted.insert({F.Path, F.ContentHash}).second) {
          ++Sum.FilesParsed;
          Sum.Elements += F.Elements.size();
        }
    }
    return Files;
  }

  /// Critical names follow the name graph: computed again when a Python
  /// file changed (or never were).
  llvm::Expected<bool> criticalNamesDue() {
    auto Previous = S.currentFiles();
    if (!Previous)
      return Previous.takeError();
    auto StoredCritical = S.criticalNames();
    if (!StoredCritical)
      return StoredCritical.takeError();
    Sum.CriticalNames = StoredCritical->size();
    std::vector<FileVersionRef> PyBefore;
    for (const FileVersionRef &F : *Previous)
      if (python::isPythonSource(F.first))
        PyBefore.push_back(F);
    std::vector<FileVersionRef> PyNow = Sum.Python.Files;
    std::sort(PyNow.begin(), PyNow.end());
    return !PyNow.empty() && (PyBefore != PyNow || StoredCritical->empty());
  }

  /// Stores everything in one transaction: the file indexes, the
  /// translation units (those gone from the database removed), the build,
  /// the revision, the shard record and the critical names.
  llvm::Error store() {
    auto Files = revisionFiles();
    if (!Files)
      return Files.takeError();
    auto Recompute = criticalNamesDue();
    if (!Recompute)
      return Recompute.takeError();
    return S.transaction([&]() -> llvm::Error {
      if (llvm::Error E = storeIndexes())
        return E;
      if (llvm::Error E = recordBuild())
        return E;
      std::vector<FileVersionRef> List(Files->begin(), Files->end());
      auto Rev = S.addRevision(R.Commit, R.Dirty, List);
      if (!Rev)
        return Rev.takeError();
      if (R.Shard) {
        if (llvm::Error E = S.putShardRecord(*R.Shard))
          return E;
      } else if (!R.Narrowed) {
        // The whole index now: no longer a share that collect refuses.
        if (llvm::Error E = S.forgetShardRecord("index"))
          return E;
      }
      if (R.PytestReading)
        if (llvm::Error E = S.rememberPytestSettings(R.PytestReading->first,
                                                     R.PytestReading->second))
          return E;
      return *Recompute ? storeCriticalNames() : llvm::Error::success();
    });
  }

  llvm::Error storeIndexes() {
    for (const FileIndex &F : Sum.Python.Parsed)
      if (llvm::Error E = S.putFileIndex(F))
        return E;
    for (size_t I = 0; I < Parsed.size(); ++I) {
      const TranslationUnitIndex &TU = Parsed[I];
      for (const FileIndex &F : TU.Files)
        if (llvm::Error E = S.putFileIndex(F))
          return E;
      StoredTranslationUnit Rec;
      Rec.Path = relativeTo(TU.Command.File, R.Root);
      Rec.Command = TU.Command;
      Rec.Dependencies = TU.Dependencies;
      Rec.ParseSeconds = ParsedSeconds[I];
      if (llvm::Error E = S.putTranslationUnit(Rec))
        return E;
    }
    if (R.Narrowed || R.BuildDir.empty())
      return llvm::Error::success();
    std::set<std::string> Live;
    for (const CompileCommand &Cmd : R.Units)
      Live.insert(relativeTo(Cmd.File, R.Root));
    for (auto &[Path, TU] : Stored)
      if (!Live.count(Path))
        if (llvm::Error E = S.removeTranslationUnit(Path))
          return E;
    return llvm::Error::success();
  }

  /// The front end's graph version, the build directory, the compilation
  /// database when every translation unit of it was indexed (a file none
  /// of them reads is then not part of this build: docs/Safety.md), and
  /// the compilers' versions.
  llvm::Error recordBuild() {
    if (llvm::Error E = S.setCppGraphVersion(cpp::GraphVersion))
      return E;
    if (llvm::Error E = S.recordBuildDir())
      return E;
    // A run that is not a whole share leaves no share record behind, so
    // that a merge cannot take an older one for this run's.
    if (!R.ShareOfWholeDatabase)
      if (llvm::Error E = S.forgetShareOfCompileDatabase())
        return E;
    // Nor may an older whole index's record stand for a run that made a
    // new revision of part of the database (a share, or units .tia.yaml
    // left out): the other units' files would be taken for files outside
    // the build. A narrowed run keeps the rest of the latest revision.
    if (!R.WholeDatabase && !R.Narrowed)
      if (llvm::Error E = S.setCompileDatabaseFingerprint(std::nullopt))
        return E;
    if ((R.WholeDatabase || R.ShareOfWholeDatabase) && !R.BuildDir.empty())
      if (auto Text = llvm::MemoryBuffer::getFile(R.BuildDir +
                                                  "/compile_commands.json"))
        if (llvm::Error E =
                R.WholeDatabase
                    ? S.recordCompileDatabase((*Text)->getBuffer())
                    : S.recordShareOfCompileDatabase((*Text)->getBuffer()))
          return E;
    for (const auto &[Program, Version] : Compilers)
      if (llvm::Error E = S.putCompilerVersion(Program, Version))
        return E;
    return llvm::Error::success();
  }

  llvm::Error storeCriticalNames() {
    auto Critical = select::computeCriticalNames(S, R.Static);
    if (!Critical)
      return Critical.takeError();
    Sum.CriticalNames = Critical->size();
    return S.putCriticalNames(*Critical);
  }

  void warnOfErrors() {
    for (const TranslationUnitIndex &TU : Parsed)
      if (TU.ErrorCount) {
        ++Sum.WithErrors;
        Err << "tia: warning: " << relativeTo(TU.Command.File, R.Root) << ": "
            << TU.ErrorCount << (TU.ErrorCount == 1 ? " error" : " errors")
            << ", indexed as far as clang got and marked incomplete (first: "
            << TU.FirstError << ")\n";
      }
    for (const std::string &Problem : Sum.Python.Incomplete)
      Err << "tia: warning: " << Problem
          << "; indexed as incomplete (tia selects all tests for a change to "
             "it)\n";
  }

  Store &S;
  const IndexRequest &R;
  llvm::raw_ostream &Err;
  IndexSummary Sum;
  std::map<std::string, StoredTranslationUnit> Stored; ///< by path
  std::map<std::string, std::string> Compilers;        ///< program -> version
  std::vector<const CompileCommand *> ToParse;
  std::vector<const StoredTranslationUnit *> Skipped;
  std::vector<TranslationUnitIndex> Parsed;
  std::vector<double> ParsedSeconds;
};

} // namespace

llvm::Expected<IndexSummary> indexProject(Store &S, const IndexRequest &R,
                                          llvm::raw_ostream &Err) {
  return IndexRun(S, R, Err).run();
}

std::string summaryLine(const IndexSummary &Sum, bool HasCpp, double Seconds) {
  const PythonIndexResult &Py = Sum.Python;
  std::string Incomplete;
  if (!Py.Incomplete.empty())
    Incomplete = llvm::formatv("{0} incomplete", Py.Incomplete.size());
  if (!HasCpp)
    return llvm::formatv("indexed {0} Python files ({1} parsed, {2} "
                         "unchanged) in {3:f1}s: {4} elements, {5} "
                         "tests{7}{6}",
                         Py.Files.size(), Py.Parsed.size(), Py.Unchanged,
                         Seconds, Py.Elements, Py.Tests,
                         Incomplete.empty() ? std::string() : "; " + Incomplete,
                         criticalText(Sum.CriticalNames));
  std::string Python;
  if (!Py.Files.empty())
    Python =
        llvm::formatv("; {0} Python files ({1} parsed, {2} unchanged): "
                      "{3} elements, {4} tests{6}{5}",
                      Py.Files.size(), Py.Parsed.size(), Py.Unchanged,
                      Py.Elements, Py.Tests,
                      Incomplete.empty() ? std::string() : ", " + Incomplete,
                      criticalText(Sum.CriticalNames))
            .str();
  return llvm::formatv(
      "indexed {0} translation units ({1} parsed, {2} "
      "unchanged) in {3:f1}s: {4} elements in {5} files "
      "parsed{6}{7}{8}",
      Sum.Units, Sum.Parsed, Sum.Unchanged, Seconds, Sum.Elements,
      Sum.FilesParsed,
      Sum.WithErrors ? llvm::formatv("; {0} with errors", Sum.WithErrors).str()
                     : std::string(),
      Sum.Unreadable ? llvm::formatv("; {0} skipped", Sum.Unreadable).str()
                     : std::string(),
      Python);
}

} // namespace index
} // namespace tia
