//===- Selection.cpp - which tests a change can affect --------------------===//

#include "tia/Select/Selection.h"
#include "CppStatic.h"
#include "DataFiles.h"
#include "Modes.h"
#include "PythonSelect.h"
#include "SelectInternal.h"
#include "tia/Git/Repository.h"
#include "tia/Store/Store.h"
#include "tia/Support/Error.h"
#include "tia/Support/Hash.h"
#include "tia/Support/Quote.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <map>
#include <set>

namespace tia {
namespace select {

llvm::StringRef fallbackName(FallbackKind K) {
  switch (K) {
  case FallbackKind::NonSourceFile:
    return "non-source-file";
  case FallbackKind::BinaryFile:
    return "binary-file";
  case FallbackKind::NotIndexed:
    return "not-indexed";
  case FallbackKind::Incomplete:
    return "incomplete";
  case FallbackKind::OutsideElements:
    return "outside-elements";
  case FallbackKind::CompileTime:
    return "compile-time";
  case FallbackKind::IncludeResolution:
    return "include-resolution";
  case FallbackKind::TriggerPath:
    return "trigger";
  case FallbackKind::StaleCoverage:
    return "stale-coverage";
  case FallbackKind::FullSuiteMarker:
    return "full-suite-marker";
  case FallbackKind::Requested:
    return "requested";
  case FallbackKind::NoCoverage:
    return "no-coverage";
  case FallbackKind::Registry:
    return "registry";
  case FallbackKind::DataFile:
    return "data-file";
  }
  return "non-source-file";
}

llvm::StringRef scopeName(FallbackScope S) {
  switch (S) {
  case FallbackScope::All:
    return "all";
  case FallbackScope::Includers:
    return "includers";
  case FallbackScope::Readers:
    return "readers";
  }
  return "all";
}

llvm::StringRef ruleName(Rule R) {
  switch (R) {
  case Rule::Covers:
    return "covers";
  case Rule::SameName:
    return "same-name";
  case Rule::Declaration:
    return "declaration";
  case Rule::TypeUse:
    return "type-use";
  case Rule::VariableUse:
    return "variable-use";
  case Rule::Initializer:
    return "initializer";
  case Rule::MacroUse:
    return "macro-use";
  case Rule::MacroName:
    return "macro-name";
  case Rule::Region:
    return "region";
  case Rule::ConstexprCaller:
    return "constexpr-caller";
  case Rule::Fallback:
    return "fallback";
  case Rule::NameUse:
    return "name-use";
  case Rule::Reaches:
    return "reaches";
  case Rule::Reads:
    return "reads";
  }
  return "covers";
}

bool isCppSource(llvm::StringRef Path) {
  llvm::StringRef Ext = llvm::sys::path::extension(Path);
  return llvm::StringSwitch<bool>(Ext)
      .Cases(".c", ".cc", ".cpp", ".cxx", ".c++", ".C", true)
      .Cases(".h", ".hh", ".hpp", ".hxx", ".h++", ".H", true)
      .Cases(".inl", ".ipp", ".tpp", ".tcc", true)
      .Default(false);
}

namespace {

/// Files that instrumented test runs leave behind (often untracked in the
/// work tree); they cannot change what a test does.
bool isCoverageData(llvm::StringRef Path) {
  llvm::StringRef Ext = llvm::sys::path::extension(Path);
  llvm::StringRef Name = llvm::sys::path::filename(Path);
  return Ext == ".profraw" || Ext == ".profdata" || Ext == ".gcda" ||
         Ext == ".gcno" || Name == ".coverage" ||
         Name.starts_with(".coverage.");
}

/// Python's bytecode caches: written by every import, derived from the
/// sources next to them.
bool isBytecodeCache(llvm::StringRef Path) {
  return llvm::sys::path::extension(Path) == ".pyc" ||
         Path.starts_with("__pycache__/") || Path.contains("/__pycache__/");
}

enum class Side { Old, New };

std::string lineList(const std::vector<unsigned> &Lines) {
  std::string Out;
  size_t I = 0;
  unsigned Shown = 0;
  while (I < Lines.size()) {
    size_t J = I;
    while (J + 1 < Lines.size() && Lines[J + 1] == Lines[J] + 1)
      ++J;
    if (Shown++ == 4) {
      Out += ", ...";
      break;
    }
    if (!Out.empty())
      Out += ", ";
    Out += std::to_string(Lines[I]);
    if (J > I)
      Out += "-" + std::to_string(Lines[J]);
    I = J + 1;
  }
  return Out;
}

/// Finds the index of every file version the change touches, from the store
/// where it was indexed, else by parsing a translation unit that reads it
/// with the changed files of that side overlaid.
class VersionResolver {
public:
  VersionResolver(git::Repository &Repo, Store &S, const SelectOptions &O,
                  const std::vector<git::FileChange> &Changes)
      : Repo(Repo), S(S), O(O), Changes(Changes) {}

  /// The index of \p Path at \p Blob on \p Which side; std::nullopt when no
  /// indexed translation unit could produce it.
  llvm::Expected<std::optional<FileIndex>> get(Side Which, llvm::StringRef Path,
                                               llvm::StringRef Blob,
                                               llvm::StringRef RenamedFrom) {
    auto Stored = S.getFileIndex(Path, Blob);
    if (!Stored)
      return Stored.takeError();
    if (*Stored)
      return Stored;
    // A Python version needs no translation unit: parse its content. (A
    // renamed module has another name, so its stored elements do not
    // carry over.)
    if (python::isPythonSource(Path))
      return parsePython(Which, Path, Blob);
    // The same content indexed under another path (a renamed file).
    if (!RenamedFrom.empty()) {
      auto Moved = S.getFileIndex(RenamedFrom, Blob);
      if (!Moved)
        return Moved.takeError();
      if (*Moved) {
        for (Element &E : (*Moved)->Elements)
          E.File = Path.str();
        (*Moved)->Path = Path.str();
        return Moved;
      }
    }
    return parse(Which, Path, RenamedFrom);
  }

  /// The content of the changed file on one side.
  llvm::Expected<std::string> content(Side Which, const git::FileChange &C) {
    if (Which == Side::Old)
      return Repo.readBlob(C.OldBlob);
    if (O.Head)
      return Repo.readBlob(C.NewBlob);
    std::string Abs = absolute(C.NewPath);
    auto Buf = llvm::MemoryBuffer::getFile(Abs, /*IsText=*/false);
    if (!Buf)
      return makeErrorf("cannot read {0}: {1}", C.NewPath,
                        Buf.getError().message());
    return (*Buf)->getBuffer().str();
  }

  std::string absolute(llvm::StringRef Rel) const {
    return (llvm::Twine(Repo.workdir()) + "/" + Rel).str();
  }

private:
  llvm::Expected<std::optional<FileIndex>>
  parsePython(Side Which, llvm::StringRef Path, llvm::StringRef Blob) {
    std::string Content;
    if (Which == Side::New && !O.Head) {
      auto Buf = llvm::MemoryBuffer::getFile(absolute(Path), /*IsText=*/false);
      if (!Buf)
        return makeErrorf("cannot read {0}: {1}", Path,
                          Buf.getError().message());
      Content = (*Buf)->getBuffer().str();
    } else {
      auto Text = Repo.readBlob(Blob);
      if (!Text)
        return Text.takeError();
      Content = std::move(*Text);
    }
    auto Files = pythonFiles(Which);
    if (!Files)
      return Files.takeError();
    std::string Module = python::moduleName(
        Path, [&](llvm::StringRef P) { return (*Files)->count(P) != 0; });
    auto FI = python::indexFile(Path, Module, Content, O.Python);
    if (!FI)
      return FI.takeError();
    return std::optional<FileIndex>(std::move(*FI));
  }

  /// The files of one side, as far as module names need them: the index's
  /// files with the change applied.
  llvm::Expected<const std::set<std::string, std::less<>> *>
  pythonFiles(Side Which) {
    auto &Slot = Which == Side::Old ? OldFiles : NewFiles;
    if (Slot)
      return &*Slot;
    auto Current = S.currentFiles();
    if (!Current)
      return Current.takeError();
    std::set<std::string, std::less<>> Files;
    for (auto &[Path, Hash] : *Current)
      Files.insert(Path);
    for (const git::FileChange &C : Changes) {
      if (Which == Side::New && !C.OldPath.empty())
        Files.erase(C.OldPath);
      llvm::StringRef P = Which == Side::Old ? C.OldPath : C.NewPath;
      if (!P.empty())
        Files.insert(P.str());
    }
    Slot = std::move(Files);
    return &*Slot;
  }

  llvm::Expected<const llvm::StringMap<std::string> *> overlays(Side Which) {
    auto &Slot = Which == Side::Old ? OldOverlays : NewOverlays;
    if (Slot)
      return &*Slot;
    llvm::StringMap<std::string> Map;
    for (const git::FileChange &C : Changes) {
      llvm::StringRef Path = Which == Side::Old ? C.OldPath : C.NewPath;
      if (Path.empty() || C.Binary || !isCppSource(Path))
        continue;
      auto Text = content(Which, C);
      if (!Text)
        return Text.takeError();
      Map[absolute(Path)] = std::move(*Text);
    }
    Slot = std::move(Map);
    return &*Slot;
  }

  llvm::Expected<std::optional<FileIndex>>
  parse(Side Which, llvm::StringRef Path, llvm::StringRef RenamedFrom) {
    auto Cached = Parsed[Which == Side::Old].find(Path);
    if (Cached != Parsed[Which == Side::Old].end())
      return Cached->second;

    auto TUs = S.translationUnitsReading(Path);
    if (!TUs)
      return TUs.takeError();
    bool FromRename = false;
    if (TUs->empty() && !RenamedFrom.empty()) {
      auto Old = S.translationUnitsReading(RenamedFrom);
      if (!Old)
        return Old.takeError();
      *TUs = std::move(*Old);
      FromRename = true;
    }
    bool Inferred = false;
    if (TUs->empty()) {
      auto Others = readersOfOtherChanges(Which, Path);
      if (!Others)
        return Others.takeError();
      *TUs = std::move(*Others);
    }
    if (TUs->empty() && Which == Side::New && isMainFileName(Path)) {
      auto Nearest = nearestTranslationUnit(Path);
      if (!Nearest)
        return Nearest.takeError();
      if (*Nearest) {
        TUs->push_back(std::move(**Nearest));
        Inferred = true;
      }
    }
    auto Over = overlays(Which);
    if (!Over)
      return Over.takeError();

    std::optional<FileIndex> Found;
    for (StoredTranslationUnit &TU : *TUs) {
      CompileCommand Cmd = TU.Command;
      if (Inferred) {
        // A new source file not in the compilation database yet: compile it
        // as its nearest neighbour is compiled.
        std::string OldAbs = Cmd.File, NewAbs = absolute(Path);
        for (std::string &Arg : Cmd.Arguments)
          if (Arg == OldAbs || Arg == TU.Path)
            Arg = NewAbs;
        Cmd.File = NewAbs;
        InferredFrom[Path.str()] = TU.Path;
      }
      if (FromRename && TU.Path == RenamedFrom) {
        // The renamed file is itself the main file: compile it by its new
        // name with the old command.
        std::string OldAbs = Cmd.File, NewAbs = absolute(Path);
        for (std::string &Arg : Cmd.Arguments)
          if (Arg == OldAbs || Arg == RenamedFrom)
            Arg = NewAbs;
        Cmd.File = NewAbs;
      }
      if (!Cmd.Directory.empty() &&
          !llvm::sys::fs::is_directory(Cmd.Directory)) {
        // The build is not configured yet (a fresh checkout): the command's
        // relative paths mean nothing, so the file has no context to parse
        // in. The caller falls back to every test.
        MissingDirectory[Which == Side::Old].try_emplace(Path.str(),
                                                         Cmd.Directory);
        continue;
      }
      auto TUI = cpp::indexTranslationUnit(Cmd, O.FrontEnd, **Over);
      if (!TUI)
        return TUI.takeError();
      // Keep every file this parse produced: other changed files of the
      // same side often live in the same translation unit.
      for (FileIndex &F : TUI->Files) {
        auto &Slot = Parsed[Which == Side::Old][F.Path];
        if (!Slot || (!Slot->Complete && F.Complete))
          Slot = F;
      }
      for (const FileIndex &F : TUI->Files) {
        ReadBy[Which == Side::Old][F.Path].push_back(TU);
        if (!F.Complete && !TUI->FirstError.empty())
          FirstError[Which == Side::Old].try_emplace(F.Path, TUI->FirstError);
      }
      auto It = Parsed[Which == Side::Old].find(Path);
      if (It != Parsed[Which == Side::Old].end() && It->second) {
        Found = It->second;
        if (Found->Complete)
          break;
      }
    }
    Parsed[Which == Side::Old][Path.str()] = Found;
    return Found;
  }

  /// The stored translation units that read another changed file of the
  /// same side: a new header is read by the files changed to include it.
  llvm::Expected<std::vector<StoredTranslationUnit>>
  readersOfOtherChanges(Side Which, llvm::StringRef Path) {
    std::vector<StoredTranslationUnit> Out;
    std::set<std::string> Seen;
    auto Over = overlays(Which);
    if (!Over)
      return Over.takeError();
    // Only a file that spells the new file's name can include it.
    llvm::StringRef Name =
        llvm::sys::path::filename(Path, llvm::sys::path::Style::posix);
    for (const git::FileChange &C : Changes) {
      llvm::StringRef Other = Which == Side::Old ? C.OldPath : C.NewPath;
      if (Other.empty() || Other == Path || C.Binary || !isCppSource(Other))
        continue;
      auto Text = (*Over)->find(absolute(Other));
      if (Text == (*Over)->end() ||
          !llvm::StringRef(Text->getValue()).contains(Name))
        continue;
      auto TUs = S.translationUnitsReading(Other);
      if (!TUs)
        return TUs.takeError();
      for (StoredTranslationUnit &TU : *TUs)
        if (Seen.insert(TU.Path).second)
          Out.push_back(std::move(TU));
    }
    return Out;
  }

  /// The stored translation unit whose main file is nearest to \p Path (same
  /// directory first, then the longest common directory prefix).
  llvm::Expected<std::optional<StoredTranslationUnit>>
  nearestTranslationUnit(llvm::StringRef Path) {
    auto TUs = S.translationUnits();
    if (!TUs)
      return TUs.takeError();
    std::optional<StoredTranslationUnit> Best;
    size_t BestShared = 0;
    llvm::StringRef Dir = llvm::sys::path::parent_path(Path);
    for (StoredTranslationUnit &TU : *TUs) {
      llvm::StringRef Other = llvm::sys::path::parent_path(TU.Path);
      size_t Shared = 0;
      while (Shared < Dir.size() && Shared < Other.size() &&
             Dir[Shared] == Other[Shared])
        ++Shared;
      if (Dir == Other)
        Shared = Path.size() + 1;
      if (!Best || Shared > BestShared) {
        Best = std::move(TU);
        BestShared = Shared;
      }
    }
    return Best;
  }

  static bool isMainFileName(llvm::StringRef Path) {
    llvm::StringRef Ext = llvm::sys::path::extension(Path);
    return Ext == ".c" || Ext == ".cc" || Ext == ".cpp" || Ext == ".cxx" ||
           Ext == ".c++" || Ext == ".C";
  }

public:
  /// New source files parsed with a neighbour's compile command.
  std::map<std::string, std::string> InferredFrom;
  /// The translation units whose parse produced each file, per side.
  std::map<std::string, std::vector<StoredTranslationUnit>, std::less<>>
      ReadBy[2];
  /// Clang's first error in the parse that produced each incomplete file,
  /// per side: a header missing on this machine, a flag this clang lacks.
  std::map<std::string, std::string, std::less<>> FirstError[2];
  /// Files left unparsed, per side, because the compile directory of their
  /// translation units does not exist: that directory.
  std::map<std::string, std::string, std::less<>> MissingDirectory[2];

private:
  git::Repository &Repo;
  Store &S;
  const SelectOptions &O;
  const std::vector<git::FileChange> &Changes;
  std::optional<llvm::StringMap<std::string>> OldOverlays, NewOverlays;
  std::optional<std::set<std::string, std::less<>>> OldFiles, NewFiles;
  std::map<std::string, std::optional<FileIndex>, std::less<>> Parsed[2];
};

void addFallback(Selection &Sel, FallbackKind K, llvm::StringRef File,
                 const llvm::Twine &Detail) {
  Sel.Fallbacks.push_back(
      {K, File.str(), Detail.str(), FallbackScope::All, {}});
}

std::string linesPhrase(const std::vector<unsigned> &Lines) {
  std::string Where = lineList(Lines);
  if (Where.empty())
    return std::string();
  return " (line" +
         std::string(Where.find_first_of(",-") == std::string::npos ? " "
                                                                    : "s ") +
         Where + ")";
}

/// The name a macro element defines or undefines: "N" of "#define N(x)".
std::string macroName(llvm::StringRef Display) {
  Display.consume_front("#define ");
  Display.consume_front("#undef ");
  return Display.take_until([](char C) { return C == '('; }).str();
}

/// The includes that may find \p Path now that it exists (or no longer
/// find it): those whose spelling is a path suffix of it, whatever they
/// found before. Their files' readers may compile differently.
llvm::Error includeResolution(Store &S, detail::Impact &Im,
                              llvm::StringRef Path, bool Appeared) {
  llvm::StringRef What = Appeared ? "a new file" : "which no longer exists";
  auto Includes = S.includesNaming(
      llvm::sys::path::filename(Path, llvm::sys::path::Style::posix));
  if (!Includes)
    return Includes.takeError();
  for (const IncludeIn &I : *Includes) {
    llvm::StringRef Spelling = I.Directive.Spelling;
    bool Suffix =
        Path == Spelling || (Path.ends_with(Spelling) &&
                             Path[Path.size() - Spelling.size() - 1] == '/');
    // A new file matters to the includes that found another one; a file
    // that went away, to those that found it.
    if (!Suffix || (Appeared && I.Directive.Resolved == Path))
      continue;
    if (llvm::Error E =
            Im.includers(FallbackKind::IncludeResolution, I.File,
                         "#include " + Spelling.str() + " (line " +
                             std::to_string(I.Directive.Line) + ") " +
                             (Appeared ? "may now find " : "no longer finds ") +
                             Path + ", " + What))
      return E;
  }
  return llvm::Error::success();
}

/// Why \p Path of side \p Which could not be parsed: its build directory is
/// missing, else \p Otherwise.
std::string unparsedReason(const VersionResolver &R, Side Which,
                           llvm::StringRef Path, std::string Otherwise) {
  auto It = R.MissingDirectory[Which == Side::Old].find(Path);
  if (It == R.MissingDirectory[Which == Side::Old].end())
    return Otherwise;
  return "cannot parse " + Path.str() + ": its compile directory " +
         It->second +
         " does not exist (the build is not configured yet): configure the "
         "build before selecting, or pass -p to where it is, to select less";
}

/// Examines one changed source file and adds what changed to \p Sel. The
/// base version, however it was found (store or parse), goes to
/// \p OldVersions: a new element's siblings may live there. Both versions
/// go to \p Im, whose rules follow their references.
llvm::Error examine(Selection &Sel, Store &S, VersionResolver &R,
                    detail::Impact &Im, const git::FileChange &C,
                    std::vector<FileIndex> &OldVersions,
                    std::vector<FileIndex> &NewVersions,
                    std::vector<detail::NameScan> &Scans,
                    std::vector<std::pair<size_t, std::string>> &OwnTests) {
  llvm::StringRef Shown = C.NewPath.empty() ? C.OldPath : C.NewPath;
  std::optional<FileIndex> Old, New;
  if (!C.OldPath.empty()) {
    auto Got = R.get(Side::Old, C.OldPath, C.OldBlob, "");
    if (!Got)
      return Got.takeError();
    if (!*Got) {
      addFallback(Sel, FallbackKind::NotIndexed, C.OldPath,
                  unparsedReason(R, Side::Old, C.OldPath,
                                 "no indexed translation unit reads " +
                                     C.OldPath + " at the base revision"));
      return llvm::Error::success();
    }
    Old = std::move(*Got);
  }
  if (!C.NewPath.empty()) {
    llvm::StringRef From = C.Status == git::ChangeStatus::Renamed
                               ? llvm::StringRef(C.OldPath)
                               : "";
    auto Got = R.get(Side::New, C.NewPath, C.NewBlob, From);
    if (!Got)
      return Got.takeError();
    if (!*Got) {
      addFallback(
          Sel, FallbackKind::NotIndexed, C.NewPath,
          unparsedReason(
              R, Side::New, C.NewPath,
              "no indexed translation unit reads " + C.NewPath +
                  (C.Status == git::ChangeStatus::Added ? " (a new file)"
                                                        : "")));
      return llvm::Error::success();
    }
    New = std::move(*Got);
  }
  for (const std::optional<FileIndex> *V : {&Old, &New})
    if (*V && !(*V)->Complete) {
      std::string Why =
          " did not parse cleanly, so its elements may be missing";
      if ((*V)->Python)
        Why = " did not parse (" + (*V)->Python->Problem +
              "), so its elements are unknown";
      else if (auto It = R.FirstError[V == &Old].find((*V)->Path);
               It != R.FirstError[V == &Old].end())
        Why += " (first error: " + It->second + ")";
      addFallback(Sel, FallbackKind::Incomplete, (*V)->Path,
                  (*V)->Path + (V == &Old ? " at the base revision" : "") +
                      Why);
      return llvm::Error::success();
    }
  if (New && New->Python)
    if (std::optional<std::string> Why = pythonFileFallback(C)) {
      addFallback(Sel, FallbackKind::OutsideElements, Shown, *Why);
      return llvm::Error::success();
    }
  auto Inferred = R.InferredFrom.find(C.NewPath);
  if (Inferred != R.InferredFrom.end())
    Sel.Notes.push_back({C.NewPath,
                         "not in the compilation database: parsed with the "
                         "compile command of " +
                             Inferred->second,
                         NoteKind::NotCompiled});
  for (const std::optional<FileIndex> *V : {&Old, &New})
    if (*V)
      Im.addVersion(**V);
  if (New) {
    auto Text = R.content(Side::New, C);
    if (!Text)
      return Text.takeError();
    Im.addHead(C.NewPath, {std::move(*Text), *New});
  }

  std::vector<unsigned> Deleted, Added;
  for (const git::Hunk &H : C.Hunks) {
    Deleted.insert(Deleted.end(), H.DeletedLines.begin(), H.DeletedLines.end());
    Added.insert(Added.end(), H.AddedLines.begin(), H.AddedLines.end());
  }
  if ((Old && !Old->Tests.empty()) || (New && !New->Tests.empty()))
    Sel.TestFiles.push_back(
        {C.NewPath, C.OldPath, Old ? Old->Tests : std::vector<TestDefinition>(),
         New ? New->Tests : std::vector<TestDefinition>(), Deleted, Added});

  // A file that appears, disappears or moves changes what #include
  // directives find; the code outside its elements (its own includes)
  // changes how its readers compile.
  bool Moved = C.Status == git::ChangeStatus::Added ||
               C.Status == git::ChangeStatus::Deleted ||
               C.Status == git::ChangeStatus::Renamed ||
               C.Status == git::ChangeStatus::Copied;
  if (Moved) {
    if (!C.NewPath.empty())
      if (llvm::Error E = includeResolution(S, Im, C.NewPath, true))
        return E;
    if (!C.OldPath.empty() && C.OldPath != C.NewPath &&
        C.Status != git::ChangeStatus::Copied) {
      if (llvm::Error E = includeResolution(S, Im, C.OldPath, false))
        return E;
      // Quoted includes are searched from the includer's directory first:
      // only a move to another directory can change what they find.
      bool OtherDir =
          C.NewPath.empty() || llvm::sys::path::parent_path(C.OldPath) !=
                                   llvm::sys::path::parent_path(C.NewPath);
      if (OtherDir && Old->ResidualHash != TokenHasher().hex())
        if (llvm::Error E = Im.includers(
                FallbackKind::OutsideElements, C.OldPath,
                "file " + git::statusName(C.Status) +
                    " with code outside every element (includes, "
                    "using-directives), which its readers compiled"))
          return E;
    }
    // A moved Python module has another name, so its elements have other
    // keys: it is compared below like any other change.
    if (C.Status == git::ChangeStatus::Renamed && C.OldBlob == C.NewBlob &&
        !(New && New->Python)) {
      Sel.Notes.push_back({Shown.str(),
                           "renamed from " + C.OldPath + " without changes",
                           NoteKind::Renamed});
      if (Old)
        OldVersions.push_back(std::move(*Old));
      return llvm::Error::success();
    }
  }

  FileComparison Cmp = compareVersions(Old ? &*Old : nullptr,
                                       New ? &*New : nullptr, Deleted, Added);
  if (New && New->Python)
    addLostNames(Cmp, &*New, Deleted);
  if (Cmp.OutsideElements) {
    std::string Where = linesPhrase(Cmp.LinesOutsideNew);
    if (Where.empty())
      Where = linesPhrase(Cmp.LinesOutsideOld);
    if (llvm::Error E =
            Im.includers(FallbackKind::OutsideElements, Shown,
                         "code outside every element changed" + Where,
                         C.OldPath != C.NewPath && !C.NewPath.empty()
                             ? std::vector<std::string>{C.NewPath}
                             : std::vector<std::string>{}))
      return E;
  }
  if (Cmp.Elements.empty() && !Cmp.OutsideElements && !Moved)
    Sel.Notes.push_back(
        {Shown.str(), CommentOnlyNote.str(), NoteKind::CommentOnly});
  else
    for (const Element &U : Cmp.Unchanged)
      Sel.Notes.push_back({Shown.str(),
                           "no semantic change in " + kindName(U.Kind).str() +
                               " " + U.Display + " (comments or layout only)",
                           NoteKind::LayoutOnly});

  std::map<std::string, const Element *> OldByKey;
  if (Old)
    for (const Element &E : Old->Elements)
      OldByKey[E.Key] = &E;
  for (ChangedElement &CE : Cmp.Elements) {
    size_t Index = Sel.Elements.size();
    const Element &E = CE.Elem;
    // A conditional region around an #include: what the include brings in
    // is not an element of this file.
    if (E.Kind == ElementKind::Conditional)
      for (const std::optional<FileIndex> *V : {&Old, &New})
        if (*V && llvm::any_of((*V)->Includes, [&](const IncludeDirective &I) {
              return E.containsLine(I.Line);
            }))
          if (llvm::Error Err =
                  Im.includers(FallbackKind::OutsideElements, Shown,
                               E.Display + " around an #include changed"))
            return Err;
    // A name that code may now expand: a new #define, a dropped #undef, a
    // macro that became function-like or object-like.
    if (E.Kind == ElementKind::Macro && !CE.Lines.empty()) {
      auto O = OldByKey.find(E.Key);
      bool Undef = llvm::StringRef(E.Display).starts_with("#undef");
      bool NewName = (CE.Change == ElementChange::Added && !Undef) ||
                     (CE.Change == ElementChange::Deleted && Undef) ||
                     (CE.Change == ElementChange::Modified &&
                      O != OldByKey.end() && O->second->Display != E.Display);
      if (NewName && !C.NewPath.empty())
        Scans.push_back(
            {Index, macroName(E.Display), C.NewPath,
             CE.Change == ElementChange::Deleted ? 0 : E.BeginLine});
    }
    if (New)
      for (std::string &Id : testsDefinedIn(*New, CE))
        OwnTests.emplace_back(Index, std::move(Id));
    Sel.Elements.push_back(std::move(CE));
  }
  if (Old)
    OldVersions.push_back(std::move(*Old));
  if (New && New->Python)
    NewVersions.push_back(std::move(*New));
  return llvm::Error::success();
}

/// Every element a new element may take calls from: those with the same
/// unqualified name anywhere in the index or in the base versions of the
/// changed files (overloads, overridden virtual functions, the primary
/// template of a specialisation, other constructors of the class). Matching
/// by the bare name over-selects a little and never misses such a sibling.
class SiblingFinder {
public:
  SiblingFinder(Store &S, const std::vector<FileIndex> &OldVersions)
      : S(S), OldVersions(OldVersions) {}

  llvm::Expected<std::vector<Element>> find(const Element &New) {
    if (!Loaded) {
      if (llvm::Error E = load())
        return std::move(E);
      Loaded = true;
    }
    std::vector<Element> Out;
    std::set<std::string> Seen{New.Key};
    auto It = ByName.find(siblingKey(New));
    if (It != ByName.end())
      for (const Element &E : It->second)
        if (Seen.insert(E.Key).second)
          Out.push_back(E);
    return Out;
  }

private:
  llvm::Error load() {
    auto Files = S.currentFiles();
    if (!Files)
      return Files.takeError();
    for (auto &[Path, Hash] : *Files) {
      auto FI = S.getFileIndex(Path, Hash);
      if (!FI)
        return FI.takeError();
      if (*FI)
        add(**FI);
    }
    for (const FileIndex &F : OldVersions)
      add(F);
    return llvm::Error::success();
  }

  /// C++ elements by their bare name, Python methods by theirs ("py."
  /// first, so the languages never mix); empty for elements that have no
  /// siblings.
  static std::string siblingKey(const Element &E) {
    if (isPythonElement(E)) {
      std::string Name = pythonSiblingName(E);
      return Name.empty() ? Name : "py." + Name;
    }
    return E.Kind == ElementKind::Lambda ? std::string()
                                         : unqualifiedName(E.Display);
  }

  void add(const FileIndex &F) {
    for (const Element &E : F.Elements) {
      std::string Key = siblingKey(E);
      if (!Key.empty())
        ByName[Key].push_back(E);
    }
  }

  Store &S;
  const std::vector<FileIndex> &OldVersions;
  bool Loaded = false;
  std::map<std::string, std::vector<Element>> ByName;
};

} // namespace

llvm::Expected<Selection> selectTests(git::Repository &Repo, Store &S,
                                      const SelectOptions &O) {
  Selection Sel;
  auto Base = Repo.resolveCommit(O.Base);
  if (!Base)
    return Base.takeError();
  Sel.BaseCommit = *Base;
  Sel.DiffBase = *Base;
  if (O.Head) {
    auto Head = Repo.resolveCommit(*O.Head);
    if (!Head)
      return Head.takeError();
    Sel.HeadCommit = *Head;
    auto MB = Repo.mergeBase(*Base, *Head);
    if (!MB)
      return MB.takeError();
    Sel.DiffBase = *MB;
  } else {
    // The work tree holds HEAD's commits plus uncommitted edits: compare it
    // with the merge base of base and HEAD, so that commits made on base
    // since the branch point do not count as changes.
    auto Head = Repo.headCommit();
    if (!Head)
      return Head.takeError();
    if (*Head) {
      auto MB = Repo.mergeBase(*Base, **Head);
      if (!MB)
        return MB.takeError();
      Sel.DiffBase = *MB;
    }
  }
  if (O.DiffFrom)
    Sel.DiffBase = *O.DiffFrom;

  auto Current = S.currentCommit();
  if (!Current)
    return Current.takeError();
  if (!*Current) {
    auto Files = S.currentFiles();
    if (!Files)
      return Files.takeError();
    if (Files->empty())
      return makeError("no index in the database: run 'tia index' first");
  }

  auto Tests = S.tests();
  if (!Tests)
    return Tests.takeError();
  Sel.TotalTests = Tests->size();

  std::optional<llvm::StringRef> HeadRef;
  if (O.Head)
    HeadRef = Sel.HeadCommit;
  auto Changes = Repo.diff(Sel.DiffBase, HeadRef);
  if (!Changes)
    return Changes.takeError();
  Sel.ChangedFiles = Changes->size();

  VersionResolver R(Repo, S, O, *Changes);
  std::vector<FileIndex> OldVersions, NewVersions;
  std::vector<std::pair<size_t, std::string>> OwnTests;
  std::vector<detail::NameScan> Scans;
  detail::TestReasons ByTest;
  detail::DataFiles Data(S, O.UnreadFilesSelectAll);
  detail::Impact Im(
      S, Sel, ByTest, O.Snapshot,
      [&](llvm::StringRef Path,
          llvm::StringRef Hash) -> llvm::Expected<std::optional<std::string>> {
        // The content hash is git's blob id; a version indexed from the work
        // tree and never committed is read from disk when it still matches.
        if (auto Blob = Repo.readBlob(Hash))
          return std::optional<std::string>(std::move(*Blob));
        else
          llvm::consumeError(Blob.takeError()); // not in git: try the disk
        auto Buf = llvm::MemoryBuffer::getFile(R.absolute(Path),
                                               /*IsText=*/false);
        if (Buf && gitBlobHash((*Buf)->getBuffer()) == Hash)
          return std::optional<std::string>((*Buf)->getBuffer().str());
        return std::optional<std::string>();
      });
  for (const git::FileChange &C : *Changes) {
    llvm::StringRef Shown = C.NewPath.empty() ? C.OldPath : C.NewPath;
    Sel.Files.push_back({Shown.str(), C.OldPath, C.Status});
    if (isCoverageData(Shown)) {
      Sel.Notes.push_back(
          {Shown.str(), "coverage data, ignored", NoteKind::CoverageData});
      continue;
    }
    if (isBytecodeCache(Shown)) {
      Sel.Notes.push_back({Shown.str(), "Python bytecode cache, ignored",
                           NoteKind::BytecodeCache});
      continue;
    }
    if (O.Classify)
      if (std::optional<PathVerdict> V = O.Classify(C)) {
        if (V->Trigger)
          addFallback(Sel, FallbackKind::TriggerPath, Shown, V->Detail);
        else
          Sel.Notes.push_back({Shown.str(), V->Detail, V->Kind});
        continue;
      }
    bool Source = isCppSource(C.OldPath) || isCppSource(C.NewPath) ||
                  python::isPythonSource(C.OldPath) ||
                  python::isPythonSource(C.NewPath);
    // A link's content is a path and a submodule's a commit: neither is
    // source, whatever the name says.
    if (C.Symlink || C.Submodule) {
      std::string Status = git::statusName(C.Status).str();
      addFallback(
          Sel, FallbackKind::NonSourceFile, Shown,
          C.Submodule
              ? "submodule " + Status + ": tia does not look inside submodules"
              : "symbolic link " + Status + ": tia does not follow links");
      continue;
    }
    // A data file: the tests that read it, when their reads are known.
    if (C.Binary || !Source) {
      auto Decided = Data.decide(Sel, C, ByTest);
      if (!Decided)
        return Decided.takeError();
      if (*Decided)
        continue;
    }
    if (C.Binary) {
      addFallback(Sel, FallbackKind::BinaryFile, Shown,
                  "binary file " + llvm::StringRef(git::statusName(C.Status)));
      continue;
    }
    if (!Source) {
      addFallback(Sel, FallbackKind::NonSourceFile, Shown,
                  "tia cannot tell what a change to " +
                      quotePath(llvm::sys::path::filename(Shown)) + " affects");
      continue;
    }
    if (llvm::Error E = examine(Sel, S, R, Im, C, OldVersions, NewVersions,
                                Scans, OwnTests))
      return E;
  }

  // Elements changed by their compile command rather than their text.
  std::set<std::string> Keys;
  for (const ChangedElement &CE : Sel.Elements)
    Keys.insert(CE.Elem.Key);
  for (const ChangedElement &CE : O.ExtraElements)
    if (Keys.insert(CE.Elem.Key).second)
      Sel.Elements.push_back(CE);
  auto TestsCovering = [&](llvm::StringRef Key) {
    return O.Snapshot ? S.testsCovering(Key, *O.Snapshot)
                      : S.testsCovering(Key);
  };

  // Changed element -> the tests it reaches.
  std::set<std::string> OldCompileTime;
  for (const FileIndex &F : OldVersions)
    for (const Element &E : F.Elements)
      if (E.CompileTime)
        OldCompileTime.insert(E.Key);
  // A test whose own code changed covers that change, coverage or not.
  for (auto &[I, Id] : OwnTests)
    ByTest[Id].push_back({I, NoIndex, "", Rule::Covers, Evidence::Source});
  SiblingFinder Finder(S, OldVersions);
  // Classes that did not exist before: no unchanged code holds an object of
  // one, so their new members take no calls from it (a GoogleTest TEST's
  // TestBody overrides a method every test overrides, yet only the new
  // test's own class dispatches to it).
  std::set<std::string> NewClasses;
  for (const ChangedElement &CE : Sel.Elements)
    if (CE.Change == ElementChange::Added && CE.Elem.Kind == ElementKind::Class)
      NewClasses.insert(CE.Elem.Display);
  for (size_t I = 0; I < Sel.Elements.size(); ++I) {
    const ChangedElement &CE = Sel.Elements[I];
    const Element &E = CE.Elem;
    auto Covering = TestsCovering(E.Key);
    if (!Covering)
      return Covering.takeError();
    for (const std::string &T : *Covering)
      ByTest[T].push_back({I, NoIndex, ""});
    bool Any = !Covering->empty() || llvm::any_of(OwnTests, [&](const auto &T) {
      return T.first == I;
    });
    bool Function = isFunctionKind(E.Kind);
    // The reference graph is the C++ front end's.
    bool Cpp = llvm::StringRef(E.Key).starts_with("cpp:");
    if (Cpp &&
        (!Function || (CE.Change != ElementChange::Added &&
                       (E.CompileTime || OldCompileTime.count(E.Key))))) {
      // What a class, variable, macro, region or declaration changes shows
      // in the code that uses it; a constexpr function's compile-time
      // results show in its callers.
      if (llvm::Error Err = Im.follow(I))
        return Err;
      Any |= Im.reached(I);
    }
    bool Siblings =
        CE.Change == ElementChange::Added && E.Kind != ElementKind::Lambda &&
        E.Kind != ElementKind::Macro && E.Kind != ElementKind::Conditional;
    if (Siblings && Function) {
      std::string Qualified = qualifiedName(E.Display);
      llvm::StringRef Scope = llvm::StringRef(Qualified).drop_back(
          std::min(Qualified.size(), unqualifiedName(E.Display).size() + 2));
      if (NewClasses.count(Scope.str()))
        Siblings = false;
    }
    if (Siblings) {
      // A new overload, override, specialisation, class or variable may
      // now be chosen by code that reached a same-named element, so it
      // inherits what reached that one. (A new lambda is only reachable
      // through its enclosing function, which changed too.)
      auto Found = Finder.find(E);
      if (!Found)
        return Found.takeError();
      for (const Element &Sib : *Found) {
        bool SibFunction = isFunctionKind(Sib.Kind);
        if (Function && !SibFunction && Sib.Kind != ElementKind::Class &&
            Sib.Kind != ElementKind::Declaration)
          continue;
        auto SibTests = TestsCovering(Sib.Key);
        if (!SibTests)
          return SibTests.takeError();
        for (const std::string &T : *SibTests)
          ByTest[T].push_back(
              {I, NoIndex, "covers same-named " + Sib.Display, Rule::SameName});
        Any |= !SibTests->empty();
        if (!SibFunction && !Function) {
          if (llvm::Error Err =
                  Im.followUsers(I, Rule::SameName, detail::referenceKey(Sib)))
            return Err;
        } else if (SibFunction && E.CompileTime) {
          if (llvm::Error Err = Im.followCallers(I, Sib.Key))
            return Err;
        }
        Any |= Im.reached(I);
      }
    }
    if (!Any && CE.Change != ElementChange::Added)
      Sel.Uncovered.push_back(I);
  }
  for (const detail::NameScan &N : Scans)
    if (llvm::Error Err = Im.scan(N))
      return Err;
  if (llvm::Error Err = Im.resolveScoped())
    return Err;

  std::set<std::string> Known;
  for (const TestRecord &T : *Tests)
    Known.insert(T.Id);
  if (llvm::Error E = applyMode(Repo, S, O, *Changes, OldVersions, NewVersions,
                                Sel, ByTest, Known))
    return std::move(E);
  if (llvm::Error E =
          applyCppGraph(Repo, S, O, OldVersions, NewVersions, Sel, ByTest))
    return std::move(E);
  if (Sel.selectsAll())
    for (const TestRecord &T : *Tests)
      for (size_t F = 0; F < Sel.Fallbacks.size(); ++F)
        if (Sel.Fallbacks[F].Scope == FallbackScope::All)
          ByTest[T.Id].push_back(
              {NoIndex, F, "", Rule::Fallback, Evidence::Fallback});

  for (auto &[Id, Reasons] : ByTest) {
    // Tests defined by the change itself are not in the store yet.
    if (!Known.count(Id))
      ++Sel.TotalTests;
    Sel.Tests.push_back({Id, std::move(Reasons)});
  }
  return Sel;
}

} // namespace select
} // namespace tia
