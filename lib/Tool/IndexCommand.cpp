//===- IndexCommand.cpp - tia index ---------------------------------------===//
//
// Parses the translation units of a compilation database (in parallel,
// skipping those whose command and files are unchanged since the last
// index) and stores their elements, all in one transaction.
//
//===----------------------------------------------------------------------===//

#include "CommandsInternal.h"
#include "PythonInternal.h"
#include "tia/Cpp/FrontEnd.h"
#include "tia/Select/Static.h"
#include "tia/Support/Error.h"
#include "tia/Support/Hash.h"
#include "tia/Support/Progress.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"
#include <chrono>
#include <map>
#include <mutex>
#include <set>

namespace tia {
namespace tool {

namespace {

bool isBelow(llvm::StringRef Path, llvm::StringRef Dir) {
  return isAtOrBelow(Path, Dir);
}

std::string relativeTo(llvm::StringRef Path, llvm::StringRef Root) {
  if (isBelow(Path, Root) && Path.size() > Root.size())
    return Path.substr(Root.size() + 1).str();
  return Path.str();
}

llvm::Expected<std::string> findBuildDir(const Context &C,
                                         llvm::StringRef Given) {
  if (!Given.empty()) {
    std::string Dir = absolutePath(Given, C.WorkingDir);
    // Accept the file itself too: -p build/compile_commands.json.
    if (llvm::sys::path::filename(Dir) == "compile_commands.json" &&
        !llvm::sys::fs::is_directory(Dir))
      return llvm::sys::path::parent_path(Dir).str();
    return Dir;
  }
  for (llvm::StringRef Dir :
       {C.WorkingDir + "/build", C.Root + "/build", C.WorkingDir, C.Root}) {
    if (llvm::sys::fs::exists(Dir + "/compile_commands.json"))
      return absolutePath(Dir, "/");
  }
  return makeError("no compile_commands.json in ./build or .: configure with "
                   "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON and pass -p BUILD_DIR");
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

/// Keeps the database's folder out of git's view, so that the database is
/// never mistaken for a change.
void ignoreDatabaseDir(const Context &C) {
  llvm::StringRef Dir = llvm::sys::path::parent_path(C.DbPath);
  if (Dir != C.Root + "/.tia")
    return;
  std::string Ignore = (Dir + "/.gitignore").str();
  if (llvm::sys::fs::exists(Ignore))
    return;
  std::error_code EC;
  llvm::raw_fd_ostream OS(Ignore, EC);
  if (!EC)
    OS << "# tia's database; not for version control\n*\n";
}

/// ", N critical names" for the summary; empty without any.
std::string criticalText(size_t N) {
  return N ? ", " + std::to_string(N) + " critical names" : std::string();
}

/// One `tia index`, stage by stage: the translation units to index (and
/// the Python files), those unchanged since the last index skipped, the
/// others parsed in parallel, then everything stored in one transaction.
class IndexRun {
public:
  IndexRun(const GlobalOptions &G, const IndexOptions &O, Context &Ctx,
           llvm::raw_ostream &Err)
      : G(G), O(O), Ctx(Ctx), Err(Err) {}

  llvm::Error run() {
    auto Start = std::chrono::steady_clock::now();
    if (llvm::Error E = chooseWork())
      return E;
    auto Opened = Store::open(Ctx.DbPath, Store::Mode::ReadWrite);
    if (!Opened)
      return Opened.takeError();
    S = std::move(*Opened);
    if (llvm::Error E = anchorPaths(*S, Ctx, BuildDirPath))
      return E;
    ignoreDatabaseDir(Ctx);
    auto Indexed = indexPythonFiles(Ctx, *S, PyFiles, G.Quiet, Err);
    if (!Indexed)
      return Indexed.takeError();
    Py = std::move(*Indexed);
    if (llvm::Error E = forgetOlderGraphs())
      return E;
    if (llvm::Error E = skipUnchanged())
      return E;
    parseTranslationUnits();
    if (llvm::Error E = store())
      return E;
    warnOfErrors();
    if (!G.Quiet)
      summarize(std::chrono::duration<double>(
                    std::chrono::steady_clock::now() - Start)
                    .count());
    return llvm::Error::success();
  }

private:
  /// What to index: the compilation database's translation units in the
  /// project, narrowed by .tia.yaml and the PATHs given (each must match
  /// something), the Python files, and this machine's share of them.
  llvm::Error chooseWork() {
    // C++ needs a compilation database; a repository with only Python
    // files has none, and that is fine unless -p named one.
    std::vector<CompileCommand> Commands;
    auto BuildDir = findBuildDir(Ctx, O.BuildDir);
    if (BuildDir) {
      BuildDirPath = *BuildDir;
      auto Loaded = cpp::loadCompilationDatabase(*BuildDir);
      if (!Loaded)
        return Loaded.takeError();
      Commands = std::move(*Loaded);
    } else if (!O.BuildDir.empty()) {
      return BuildDir.takeError();
    }
    FE.ProjectRoot = Ctx.Root;
    if (!G.ResourceDir.empty())
      FE.ResourceDir = G.ResourceDir;
    if (!BuildDirPath.empty() && BuildDirPath != Ctx.Root &&
        isBelow(BuildDirPath, Ctx.Root))
      FE.ExcludedDirs.push_back(BuildDirPath);

    for (const std::string &P : O.Paths)
      Paths.push_back(absolutePath(P, Ctx.WorkingDir));
    std::vector<bool> PathUsed(Paths.size(), false);
    keepProjectUnits(Commands, PathUsed);
    auto Listed = listPythonFiles(Ctx, Paths);
    if (!Listed)
      return Listed.takeError();
    PyFiles = std::move(*Listed);
    for (size_t I = 0; I < Paths.size(); ++I)
      for (const std::string &F : PyFiles)
        if (isBelow(Ctx.Root + "/" + F, Paths[I]))
          PathUsed[I] = true;
    if (Wanted.empty() && Paths.empty() && PyFiles.empty()) {
      if (!BuildDir)
        return makeError(llvm::toString(BuildDir.takeError()) +
                         " (nor any Python file tracked by git to index)");
      return makeErrorf("{0}/compile_commands.json has no translation unit "
                        "below {1}, nor is there any Python file tracked by "
                        "git: configure the project there, or run tia inside "
                        "the repository it builds",
                        BuildDirPath, Ctx.Root);
    }
    llvm::consumeError(BuildDir.takeError()); // Python only: no C++ to index.
    for (size_t I = 0; I < Paths.size(); ++I)
      if (!PathUsed[I])
        return makeErrorf("{0} matches no translation unit in "
                          "{1}/compile_commands.json and no Python file git "
                          "tracks: check the path or re-run cmake",
                          O.Paths[I],
                          BuildDirPath.empty() ? "." : BuildDirPath);
    return keepShare();
  }

  /// Keeps in Wanted the translation units of \p Commands in the project,
  /// outside the build directory, included by .tia.yaml and below one of
  /// the PATHs (marking those used in \p PathUsed).
  void keepProjectUnits(std::vector<CompileCommand> &Commands,
                        std::vector<bool> &PathUsed) {
    for (CompileCommand &Cmd : Commands) {
      if (!isBelow(Cmd.File, Ctx.Root))
        continue;
      if (llvm::any_of(FE.ExcludedDirs, [&](const std::string &D) {
            return isBelow(Cmd.File, D);
          }))
        continue;
      if (!Ctx.Config.isIncluded(relativeTo(Cmd.File, Ctx.Root))) {
        ConfigLeftOut = true;
        continue;
      }
      bool Match = Paths.empty();
      for (size_t I = 0; I < Paths.size(); ++I)
        if (isBelow(Cmd.File, Paths[I]))
          Match = PathUsed[I] = true;
      if (Match)
        Wanted.push_back(std::move(Cmd));
    }
  }

  /// --shard: this machine's share. Python files are indexed whole in
  /// share 1 (the name graph's critical names need them all).
  llvm::Error keepShare() {
    if (!O.Shard)
      return llvm::Error::success();
    auto P = keepIndexShare(Ctx, O, Wanted, !PyFiles.empty(), Err, G.Quiet);
    if (!P)
      return P.takeError();
    Plan = std::move(*P);
    if (O.Shard->K != 1)
      PyFiles.clear();
    return llvm::Error::success();
  }

  /// C++ file versions indexed by an older front end lack edges of the
  /// reference graph that static selection follows: parse them all again.
  llvm::Error forgetOlderGraphs() {
    auto GraphVersion = S->cppGraphVersion();
    if (!GraphVersion)
      return GraphVersion.takeError();
    if (*GraphVersion >= cpp::GraphVersion)
      return llvm::Error::success();
    auto Old = S->translationUnits();
    if (!Old)
      return Old.takeError();
    if (!Old->empty() && !G.Quiet)
      Err << "tia: note: parsing every translation unit again: the index was "
             "made by an older C++ front end (reference graph version "
          << *GraphVersion << ", now " << cpp::GraphVersion << ")\n";
    return S->transaction([&] { return S->forgetCppIndexes(); });
  }

  /// Splits Wanted into the units to parse and those whose command,
  /// compiler and files are unchanged since the last index.
  llvm::Error skipUnchanged() {
    auto StoredTUs = S->translationUnits();
    if (!StoredTUs)
      return StoredTUs.takeError();
    for (StoredTranslationUnit &TU : *StoredTUs)
      Stored[TU.Path] = std::move(TU);
    HashCache Hashes;
    Compilers = compilerVersions(Wanted);
    auto SameCompiler = [&](llvm::StringRef Old, llvm::StringRef New) {
      return sameCompiler(*S, Compilers, Old, New);
    };
    for (const CompileCommand &Cmd : Wanted) {
      auto It = Stored.find(relativeTo(Cmd.File, Ctx.Root));
      if (It != Stored.end() &&
          unchanged(It->second, Cmd, Ctx.Root, Hashes, SameCompiler))
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
    Progress Prog("indexing", ToParse.size(), Err, G.Quiet);
    {
      llvm::DefaultThreadPool Pool(llvm::hardware_concurrency(O.Jobs));
      for (size_t I = 0; I < ToParse.size(); ++I)
        Pool.async([&, I] {
          auto Began = std::chrono::steady_clock::now();
          Results[I] = std::make_unique<llvm::Expected<TranslationUnitIndex>>(
              cpp::indexTranslationUnit(*ToParse[I], FE));
          ParseTimes[I] = std::chrono::duration<double>(
                              std::chrono::steady_clock::now() - Began)
                              .count();
          Prog.step(relativeTo(ToParse[I]->File, Ctx.Root));
        });
      Pool.wait();
    }
    Prog.finish();
    for (size_t I = 0; I < Results.size(); ++I) {
      auto &R = Results[I];
      if (*R) {
        Parsed.push_back(std::move(**R));
        ParsedSeconds.push_back(ParseTimes[I]);
        continue;
      }
      ++Unreadable;
      Err << "tia: warning: skipped a translation unit: "
          << llvm::toString(R->takeError()) << "\n";
    }
  }

  /// The files this revision of the index knows (path -> content hash),
  /// counting the elements and files parsed.
  llvm::Expected<std::map<std::string, std::string>> revisionFiles() {
    std::map<std::string, std::string> Files;
    if (!Paths.empty()) {
      auto Previous = S->currentFiles();
      if (!Previous)
        return Previous.takeError();
      for (auto &[Path, Hash] : *Previous)
        Files[Path] = Hash;
    }
    for (const StoredTranslationUnit *TU : Skipped)
      for (const FileVersionRef &D : TU->Dependencies)
        Files[D.first] = D.second;
    for (const FileVersionRef &F : Py.Files)
      Files[F.first] = F.second;
    std::set<FileVersionRef> Counted;
    for (const TranslationUnitIndex &TU : Parsed) {
      for (const auto &D : TU.Dependencies)
        Files[D.first] = D.second;
      for (const FileIndex &F : TU.Files)
        if (Counted.insert({F.Path, F.ContentHash}).second) {
          ++FilesParsed;
          Elements += F.Elements.size();
        }
    }
    return Files;
  }

  /// Critical names follow the name graph: computed again when a Python
  /// file changed (or never were).
  llvm::Expected<bool> criticalNamesDue() {
    auto Previous = S->currentFiles();
    if (!Previous)
      return Previous.takeError();
    auto StoredCritical = S->criticalNames();
    if (!StoredCritical)
      return StoredCritical.takeError();
    CriticalCount = StoredCritical->size();
    std::vector<FileVersionRef> PyBefore;
    for (const FileVersionRef &F : *Previous)
      if (python::isPythonSource(F.first))
        PyBefore.push_back(F);
    std::vector<FileVersionRef> PyNow = Py.Files;
    std::sort(PyNow.begin(), PyNow.end());
    return !PyNow.empty() && (PyBefore != PyNow || StoredCritical->empty());
  }

  /// Stores everything in one transaction: the file indexes, the
  /// translation units (those gone from the database removed), the build,
  /// the revision, the shard record and the critical names.
  llvm::Error store() {
    auto Head = Ctx.Repo
                    ? Ctx.Repo->headCommit()
                    : llvm::Expected<std::optional<std::string>>(std::nullopt);
    if (!Head)
      return Head.takeError();
    bool Dirty = false;
    if (Ctx.Repo) {
      auto D = Ctx.Repo->isDirty();
      if (!D)
        return D.takeError();
      Dirty = *D;
    }
    auto Files = revisionFiles();
    if (!Files)
      return Files.takeError();
    auto Recompute = criticalNamesDue();
    if (!Recompute)
      return Recompute.takeError();
    std::string Commit = Head->value_or("");
    return S->transaction([&]() -> llvm::Error {
      if (llvm::Error E = storeIndexes())
        return E;
      if (llvm::Error E = recordBuild())
        return E;
      std::vector<FileVersionRef> List(Files->begin(), Files->end());
      auto Rev = S->addRevision(Commit, Dirty, List);
      if (!Rev)
        return Rev.takeError();
      if (Plan)
        if (llvm::Error E = S->putShardRecord(
                shardRecordOf("index", *Plan, *O.Shard, Commit)))
          return E;
      return *Recompute ? storeCriticalNames() : llvm::Error::success();
    });
  }

  llvm::Error storeIndexes() {
    for (const FileIndex &F : Py.Parsed)
      if (llvm::Error E = S->putFileIndex(F))
        return E;
    for (size_t I = 0; I < Parsed.size(); ++I) {
      const TranslationUnitIndex &TU = Parsed[I];
      for (const FileIndex &F : TU.Files)
        if (llvm::Error E = S->putFileIndex(F))
          return E;
      StoredTranslationUnit Rec;
      Rec.Path = relativeTo(TU.Command.File, Ctx.Root);
      Rec.Command = TU.Command;
      Rec.Dependencies = TU.Dependencies;
      Rec.ParseSeconds = ParsedSeconds[I];
      if (llvm::Error E = S->putTranslationUnit(Rec))
        return E;
    }
    if (!Paths.empty() || BuildDirPath.empty())
      return llvm::Error::success();
    std::set<std::string> Live;
    for (const CompileCommand &Cmd : Wanted)
      Live.insert(relativeTo(Cmd.File, Ctx.Root));
    for (auto &[Path, TU] : Stored)
      if (!Live.count(Path))
        if (llvm::Error E = S->removeTranslationUnit(Path))
          return E;
    return llvm::Error::success();
  }

  /// The front end's graph version, the build directory, the compilation
  /// database when every translation unit of it was indexed (a file none
  /// of them reads is then not part of this build: docs/Safety.md), and
  /// the compilers' versions.
  llvm::Error recordBuild() {
    if (llvm::Error E = S->setCppGraphVersion(cpp::GraphVersion))
      return E;
    if (llvm::Error E = S->recordBuildDir())
      return E;
    if (Paths.empty() && !O.Shard && !ConfigLeftOut && !BuildDirPath.empty())
      if (auto Text = llvm::MemoryBuffer::getFile(BuildDirPath +
                                                  "/compile_commands.json"))
        if (llvm::Error E = S->recordCompileDatabase((*Text)->getBuffer()))
          return E;
    for (const auto &[Program, Version] : Compilers)
      if (llvm::Error E = S->putCompilerVersion(Program, Version))
        return E;
    return llvm::Error::success();
  }

  llvm::Error storeCriticalNames() {
    auto PyOptions = pythonOptions(Ctx);
    if (!PyOptions)
      return PyOptions.takeError();
    select::StaticOptions SO = staticOptions(Ctx, *PyOptions);
    SO.Jobs = O.Jobs;
    auto Critical = select::computeCriticalNames(*S, SO);
    if (!Critical)
      return Critical.takeError();
    CriticalCount = Critical->size();
    return S->putCriticalNames(*Critical);
  }

  void warnOfErrors() {
    for (const TranslationUnitIndex &TU : Parsed)
      if (TU.ErrorCount) {
        ++TUsWithErrors;
        Err << "tia: warning: " << relativeTo(TU.Command.File, Ctx.Root)
            << ": " << TU.ErrorCount
            << (TU.ErrorCount == 1 ? " error" : " errors")
            << ", indexed as far as clang got and marked incomplete (first: "
            << TU.FirstError << ")\n";
      }
    for (const std::string &Problem : Py.Incomplete)
      Err << "tia: warning: " << Problem
          << "; indexed as incomplete (tia selects all tests for a change to "
             "it)\n";
  }

  void summarize(double Seconds) {
    std::string Incomplete;
    if (!Py.Incomplete.empty())
      Incomplete = llvm::formatv("{0} incomplete", Py.Incomplete.size());
    if (Wanted.empty() && BuildDirPath.empty()) {
      Err << llvm::formatv(
          "indexed {0} Python files ({1} parsed, {2} "
          "unchanged) in {3:f1}s: {4} elements, {5} "
          "tests{7}{6}\n",
          Py.Files.size(), Py.Parsed.size(), Py.Unchanged, Seconds,
          Py.Elements, Py.Tests,
          Incomplete.empty() ? std::string() : "; " + Incomplete,
          criticalText(CriticalCount));
      return;
    }
    std::string Python;
    if (!Py.Files.empty())
      Python = llvm::formatv("; {0} Python files ({1} parsed, {2} unchanged): "
                             "{3} elements, {4} tests{6}{5}",
                             Py.Files.size(), Py.Parsed.size(), Py.Unchanged,
                             Py.Elements, Py.Tests,
                             Incomplete.empty() ? std::string() : ", " + Incomplete,
                             criticalText(CriticalCount))
                   .str();
    Err << llvm::formatv(
        "indexed {0} translation units ({1} parsed, {2} "
        "unchanged) in {3:f1}s: {4} elements in {5} files "
        "parsed{6}{7}{8}\n",
        Wanted.size() - Unreadable, Parsed.size(), Skipped.size(), Seconds,
        Elements, FilesParsed,
        TUsWithErrors ? llvm::formatv("; {0} with errors", TUsWithErrors).str()
                      : std::string(),
        Unreadable ? llvm::formatv("; {0} skipped", Unreadable).str()
                   : std::string(),
        Python);
  }

  const GlobalOptions &G;
  const IndexOptions &O;
  Context &Ctx;
  llvm::raw_ostream &Err;
  std::unique_ptr<Store> S;
  std::string BuildDirPath; ///< empty: no compilation database
  cpp::FrontEndOptions FE;
  std::vector<std::string> Paths; ///< the PATHs given, absolute
  std::vector<CompileCommand> Wanted;
  bool ConfigLeftOut = false; ///< .tia.yaml's paths exclude a unit
  std::vector<std::string> PyFiles;
  std::optional<shard::ShardPlan> Plan;
  PythonIndexResult Py;
  std::map<std::string, StoredTranslationUnit> Stored; ///< by path
  std::map<std::string, std::string> Compilers;        ///< program -> version
  std::vector<const CompileCommand *> ToParse;
  std::vector<const StoredTranslationUnit *> Skipped;
  std::vector<TranslationUnitIndex> Parsed;
  std::vector<double> ParsedSeconds;
  unsigned Unreadable = 0, Elements = 0, FilesParsed = 0, TUsWithErrors = 0;
  size_t CriticalCount = 0;
};

} // namespace

llvm::Error runIndex(const GlobalOptions &G, const IndexOptions &O,
                     llvm::raw_ostream &Out, llvm::raw_ostream &Err) {
  auto Ctx = makeContext(G, /*NeedGit=*/false);
  if (!Ctx)
    return Ctx.takeError();
  return IndexRun(G, O, *Ctx, Err).run();
}

//===----------------------------------------------------------------------===//
// Command line
//===----------------------------------------------------------------------===//

llvm::cl::SubCommand IndexSubcommand(
    "index", "Index the C++ translation units of a compilation database (all, "
             "or those at or below PATHs)");

namespace {
llvm::cl::opt<std::string> BuildDir(
    "p",
    llvm::cl::desc("Build directory with compile_commands.json (default: "
                   "./build, then .)"),
    llvm::cl::value_desc("build-dir"), llvm::cl::init(""),
    llvm::cl::cat(tiaCategory()), llvm::cl::sub(IndexSubcommand));
llvm::cl::opt<unsigned> Jobs("jobs",
                             llvm::cl::desc("Translation units parsed at once "
                                            "(default: one per core)"),
                             llvm::cl::init(0), llvm::cl::cat(tiaCategory()),
                             llvm::cl::sub(IndexSubcommand));
llvm::cl::alias JobsShort("j", llvm::cl::desc("Alias for --jobs"),
                          llvm::cl::aliasopt(Jobs));
llvm::cl::opt<std::string> Shard(
    "shard",
    llvm::cl::desc("Index only share K of N of the translation units (and, "
                   "in share 1, the Python files), the same shares on every "
                   "machine"),
    llvm::cl::value_desc("K/N"), llvm::cl::init(""),
    llvm::cl::cat(tiaCategory()), llvm::cl::sub(IndexSubcommand));
llvm::cl::opt<std::string> BalanceFrom(
    "balance-from",
    llvm::cl::desc("With --shard: balance the shares by the parse times "
                   "this database recorded (default: by source size)"),
    llvm::cl::value_desc("db"), llvm::cl::init(""),
    llvm::cl::cat(tiaCategory()), llvm::cl::sub(IndexSubcommand));
llvm::cl::list<std::string> Paths(llvm::cl::Positional,
                                  llvm::cl::desc("[PATH...]"),
                                  llvm::cl::cat(tiaCategory()),
                                  llvm::cl::sub(IndexSubcommand));
} // namespace

int indexMain(const GlobalOptions &G) {
  IndexOptions O;
  O.BuildDir = BuildDir;
  O.Jobs = Jobs;
  O.Paths = Paths;
  if (std::optional<int> Bad =
          parseShardOptions(Shard, BalanceFrom, O.Shard, O.BalanceFrom))
    return *Bad;
  return exitCode(runIndex(G, O, llvm::outs(), llvm::errs()));
}

} // namespace tool
} // namespace tia
