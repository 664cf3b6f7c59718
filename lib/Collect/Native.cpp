//===- Native.cpp - C and C++ code a pytest test runs ---------------------===//
//
// A Python test reaches C and C++ in two ways: an extension module (and the
// shared libraries it loads) inside pytest's process, and a program of the
// build it starts. Both write clang profiles or gcov data into the test's
// own folder (tia_native.py, the file read tracer); this file reads them
// against the build's objects, and records for each test the objects it
// crossed into, so that selection falls back to an object's sources when
// its coverage could not be recorded.
//
//===----------------------------------------------------------------------===//

#include "NativeInternal.h"
#include "tia/Support/Error.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

namespace tia {
namespace collect {

namespace {

/// True when the file at \p Path starts like an ELF object.
bool isElf(llvm::StringRef Path) {
  auto Buf = llvm::MemoryBuffer::getFileSlice(Path, 4, 0);
  return Buf && (*Buf)->getBuffer() == "\x7f"
                                       "ELF";
}

/// A shared library by its name ("x.so", "x.so.1", "x.cpython-311-...so").
bool looksLikeLibrary(llvm::StringRef Name) {
  return Name.ends_with(".so") || Name.contains(".so.");
}

/// \p Path as a build object, when it is an ELF library or executable; a
/// library is looked at now.
std::optional<BuildObject> objectAt(const std::string &Path) {
  bool Library = looksLikeLibrary(llvm::sys::path::filename(Path));
  if (!Library && !llvm::sys::fs::can_execute(Path))
    return std::nullopt;
  if (!isElf(Path))
    return std::nullopt;
  BuildObject O;
  O.Library = Library;
  llvm::SmallString<256> Real;
  O.Path = llvm::sys::fs::real_path(Path, Real) ? Path : std::string(Real);
  if (Library) {
    auto Probe = coverage::probeLibrary(O.Path);
    if (!Probe) {
      llvm::consumeError(Probe.takeError()); // Not one we can read: none.
      return std::nullopt;
    }
    O.Kind = Probe->Kind;
    O.Runtime = Probe->Runtime;
    O.Gcov = Probe->Gcov;
  }
  return O;
}

llvm::StringRef problemOf(coverage::Instrumentation Kind) {
  switch (Kind) {
  case coverage::Instrumentation::None:
    return "not built for coverage";
  case coverage::Instrumentation::ClangNoMapping:
    return "built with -fprofile-instr-generate but without "
           "-fcoverage-mapping";
  default:
    return "";
  }
}

} // namespace

std::vector<BuildObject>
findBuildObjects(const std::vector<std::string> &Dirs) {
  std::map<std::string, BuildObject> Found;
  for (const std::string &Dir : Dirs) {
    std::error_code EC;
    for (llvm::sys::fs::recursive_directory_iterator It(Dir, EC), End;
         It != End && !EC; It.increment(EC)) {
      llvm::StringRef Name = llvm::sys::path::filename(It->path());
      if (It->type() == llvm::sys::fs::file_type::directory_file) {
        if (Name == "CMakeFiles" || Name.starts_with("."))
          It.no_push();
        continue;
      }
      if (It->type() != llvm::sys::fs::file_type::regular_file)
        continue;
      if (std::optional<BuildObject> O = objectAt(It->path()))
        Found.emplace(O->Path, std::move(*O));
    }
  }
  std::vector<BuildObject> Out;
  for (auto &[Path, O] : Found)
    Out.push_back(std::move(O));
  return Out;
}

std::string nativePlanJson(const std::string &ProfileDir,
                           const std::vector<BuildObject> &Objects) {
  llvm::json::Object ByPath;
  for (const BuildObject &O : Objects) {
    llvm::json::Object Entry{{"library", O.Library}};
    // The plugin calls the runtime only in the file it was read from.
    llvm::sys::fs::file_status St;
    if (!llvm::sys::fs::status(O.Path, St)) {
      Entry["size"] = static_cast<int64_t>(St.getSize());
      Entry["mtime_ns"] = static_cast<int64_t>(
          St.getLastModificationTime().time_since_epoch().count());
    }
    if (O.Runtime)
      Entry["runtime"] =
          llvm::json::Object{{"set_filename", O.Runtime->SetFilename},
                             {"write_file", O.Runtime->WriteFile},
                             {"reset_counters", O.Runtime->ResetCounters}};
    if (O.Gcov) {
      llvm::json::Array Counters;
      for (auto [Offset, Size] : O.Gcov->Counters)
        Counters.push_back(llvm::json::Array{Offset, Size});
      Entry["gcov"] = llvm::json::Object{{"dump_one", O.Gcov->DumpOne},
                                         {"root", O.Gcov->Root},
                                         {"counters", std::move(Counters)}};
    }
    ByPath[O.Path] = std::move(Entry);
  }
  llvm::json::Object Plan{{"dir", ProfileDir}, {"objects", std::move(ByPath)}};
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  OS << llvm::json::Value(std::move(Plan));
  return Text;
}

NativeCoverage::NativeCoverage(Store &S, std::vector<BuildObject> Objects,
                               std::string ProfileDir, std::string Root,
                               std::vector<std::string> BuildDirs)
    : S(S), Objects(std::move(Objects)), ProfileDir(std::move(ProfileDir)),
      Root(std::move(Root)), BuildDirs(std::move(BuildDirs)),
      Gcov("gcov", this->ProfileDir) {}

BuildObject *NativeCoverage::find(llvm::StringRef Path) {
  auto It = llvm::partition_point(
      Objects, [&](const BuildObject &O) { return O.Path < Path; });
  if (It == Objects.end() || It->Path != Path)
    return nullptr;
  if (!It->Kind) {
    auto Probe = coverage::probeBinary(It->Path);
    if (Probe) {
      It->Kind = Probe->Kind;
    } else {
      llvm::consumeError(Probe.takeError()); // Unreadable: no coverage.
      It->Kind = coverage::Instrumentation::None;
    }
  }
  return &*It;
}

std::vector<std::pair<BuildObject *, bool>>
NativeCoverage::crossed(const NativeRecord &R,
                        const std::set<std::string> &Executed) {
  std::map<std::string, std::pair<BuildObject *, bool>> Out;
  for (const std::string &Path : R.Loaded)
    if (BuildObject *O = find(Path))
      Out.emplace(O->Path, std::make_pair(O, /*Program=*/false));
  for (const std::string &Path : Executed) {
    llvm::SmallString<256> Real;
    std::string P =
        llvm::sys::fs::real_path(Path, Real) ? Path : std::string(Real);
    if (BuildObject *O = find(P))
      if (!O->Library)
        Out.emplace(O->Path, std::make_pair(O, /*Program=*/true));
  }
  std::vector<std::pair<BuildObject *, bool>> List;
  for (auto &[Path, Object] : Out)
    List.push_back(Object);
  return List;
}

const Binary &NativeCoverage::mappingsOf(
    const std::vector<std::pair<BuildObject *, bool>> &Objects) {
  std::vector<std::string> Instrumented;
  for (const auto &[O, Program] : Objects)
    if (O->Kind == coverage::Instrumentation::Clang)
      Instrumented.push_back(O->Path);
  std::string Key = llvm::join(Instrumented, "\n");
  std::unique_ptr<Binary> &B = Mappings[Key];
  if (B)
    return *B;
  B = std::make_unique<Binary>();
  B->Path = "the build's programs and libraries";
  B->Probe.Kind = coverage::Instrumentation::Clang;
  if (Instrumented.empty()) {
    B->Problem = "none of them is built with clang's coverage";
    return *B;
  }
  auto C = coverage::ClangCoverage::open(Instrumented);
  if (C)
    B->Clang = std::move(*C);
  else
    B->Problem = llvm::toString(C.takeError());
  return *B;
}

llvm::Expected<std::vector<coverage::FunctionHit>>
NativeCoverage::read(const Binary &Mappings, const std::string &Folder) {
  auto Hits = Gcov.read(Mappings, {ProfileDir + "/" + Folder});
  if (!Hits)
    return Hits.takeError();
  return Hits->value_or(std::vector<coverage::FunctionHit>());
}

llvm::Expected<std::vector<coverage::FunctionHit>>
NativeCoverage::hitsOf(const NativeRecord &R,
                       const std::set<std::string> &Executed) {
  auto Objects = crossed(R, Executed);
  const Binary &Mappings = mappingsOf(Objects);
  auto Own = read(Mappings, R.Folder);
  if (!Own)
    return Own.takeError();
  if (R.Outside.empty())
    return Own;
  // Keyed by the mappings too: a module loaded after the first test of the
  // process has outside hits of its own.
  std::string Key = R.Outside + "\n" +
                    llvm::join(Mappings.Clang ? Mappings.Clang->objects()
                                              : llvm::ArrayRef<std::string>(),
                               "\n");
  auto It = Outside.find(Key);
  if (It == Outside.end()) {
    auto Shared = read(Mappings, R.Outside);
    if (!Shared)
      return Shared.takeError();
    It = Outside.emplace(Key, std::move(*Shared)).first;
  }
  llvm::append_range(*Own, It->second);
  return Own;
}

std::string NativeCoverage::relative(llvm::StringRef Path) const {
  llvm::StringRef R = Path;
  if (R.consume_front(Root) && R.consume_front("/"))
    return R.str();
  return "";
}

bool NativeCoverage::inBuildDir(llvm::StringRef Path) const {
  return llvm::any_of(BuildDirs, [&](const std::string &Dir) {
    return Path.starts_with(Dir + "/");
  });
}

std::string NativeCoverage::shown(const std::string &Path) const {
  std::string Rel = relative(Path);
  return Rel.empty() ? Path : Rel;
}

Boundary NativeCoverage::boundaryOf(const BuildObject &O, bool Program) const {
  coverage::Instrumentation Kind =
      O.Kind.value_or(coverage::Instrumentation::None);
  Boundary B;
  B.Object = shown(O.Path);
  B.Program = Program;
  B.Problem = problemOf(Kind).str();
  if (!Program && Kind == coverage::Instrumentation::Clang && !O.Runtime)
    B.Problem = "its profile runtime cannot be reached at test boundaries "
                "(no symbol table: stripped?)";
  B.Covered = B.Problem.empty();
  return B;
}

std::vector<Boundary>
NativeCoverage::boundariesOf(const NativeRecord &R,
                             const std::set<std::string> &Executed,
                             llvm::StringRef Problem) {
  std::vector<Boundary> List;
  for (const auto &[Object, Program] : crossed(R, Executed)) {
    Boundary B = boundaryOf(*Object, Program);
    std::string Why = Problem.str();
    if (Why.empty() && !Program &&
        llvm::is_contained(R.Unreached, Object->Path))
      Why = "it changed on disk after collect started: its profile runtime "
            "was not called";
    if (Why.empty() && B.Covered &&
        Object->Kind == coverage::Instrumentation::Clang) {
      const Binary &Mappings = mappingsOf({{Object, Program}});
      if (!Mappings.Clang)
        Why = "its coverage mapping could not be read: " + Mappings.Problem;
    }
    if (!Why.empty() && B.Covered) {
      B.Covered = false;
      B.Problem = std::move(Why);
    }
    // Covered or not, the sources tell which object a test ran a function
    // in (explain); an object without coverage whose sources are not the
    // project's is no boundary.
    if (!sourcesOf(*Object) && !B.Covered)
      continue;
    List.push_back(std::move(B));
  }
  llvm::sort(List, [](const Boundary &A, const Boundary &B) {
    return A.Object < B.Object;
  });
  return List;
}

std::map<std::string, std::vector<std::string>>
NativeCoverage::sources() const {
  std::map<std::string, std::vector<std::string>> Out;
  for (const auto &[Path, Files] : Sources)
    if (Files)
      Out[shown(Path)] = *Files;
  return Out;
}

std::set<std::string> NativeCoverage::filesBySymbols(const BuildObject &O) {
  std::set<std::string> Files;
  auto Defined = coverage::definedFunctions(O.Path);
  if (!Defined) {
    llvm::consumeError(Defined.takeError()); // Not known: none.
    return Files;
  }
  for (const std::string &Name : Defined->Names) {
    auto Keys = S.keysForName(Name);
    if (!Keys) {
      llvm::consumeError(Keys.takeError()); // That name tells nothing.
      continue;
    }
    for (const KeyInFile &K : *Keys)
      Files.insert(K.File);
  }
  // A stripped object names only what it exports (an extension module's
  // PyInit_ function): its other functions may lie in any file.
  if (Defined->ExportedOnly && !Files.empty())
    return {"*"};
  return Files;
}

std::vector<std::string>
NativeCoverage::withDependencies(const std::set<std::string> &Files) {
  if (!Units) {
    Units.emplace();
    auto All = S.translationUnits();
    if (!All)
      llvm::consumeError(All.takeError()); // Then the files alone.
    else
      for (const StoredTranslationUnit &TU : *All)
        for (const FileVersionRef &D : TU.Dependencies)
          (*Units)[TU.Path].push_back(D.first);
  }
  std::set<std::string> Out = Files;
  for (const std::string &F : Files) {
    auto It = Units->find(F);
    if (It != Units->end())
      Out.insert(It->second.begin(), It->second.end());
  }
  return std::vector<std::string>(Out.begin(), Out.end());
}

const std::optional<std::vector<std::string>> &
NativeCoverage::sourcesOf(const BuildObject &O) {
  auto Cached = Sources.find(O.Path);
  if (Cached != Sources.end())
    return Cached->second;
  std::set<std::string> Files;
  auto Mapped = coverage::coverageMappingFiles(O.Path);
  if (Mapped) {
    for (const std::string &F : *Mapped) {
      std::string Rel = relative(F);
      if (!Rel.empty())
        Files.insert(Rel);
    }
  } else {
    llvm::consumeError(Mapped.takeError()); // Not instrumented: symbols.
    Files = filesBySymbols(O);
  }
  std::optional<std::vector<std::string>> &Slot = Sources[O.Path];
  if (Files.count("*"))
    Slot = std::vector<std::string>{"*"};
  else if (!Files.empty())
    Slot = withDependencies(Files);
  else if (inBuildDir(O.Path))
    Slot = std::vector<std::string>{"*"}; // Of the build, sources unknown.
  return Slot;
}

} // namespace collect
} // namespace tia
