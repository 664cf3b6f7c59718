//===- Selection.cpp - which tests a change can affect --------------------===//

#include "tia/Select/Selection.h"
#include "Modes.h"
#include "PythonSelect.h"
#include "tia/Git/Repository.h"
#include "tia/Store/Store.h"
#include "tia/Support/Error.h"
#include "tia/Support/Hash.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
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
  case FallbackKind::Registry:
    return "registry";
  }
  return "non-source-file";
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
    auto Over = overlays(Which);
    if (!Over)
      return Over.takeError();

    std::optional<FileIndex> Found;
    for (StoredTranslationUnit &TU : *TUs) {
      CompileCommand Cmd = TU.Command;
      if (FromRename && TU.Path == RenamedFrom) {
        // The renamed file is itself the main file: compile it by its new
        // name with the old command.
        std::string OldAbs = Cmd.File, NewAbs = absolute(Path);
        for (std::string &Arg : Cmd.Arguments)
          if (Arg == OldAbs || Arg == RenamedFrom)
            Arg = NewAbs;
        Cmd.File = NewAbs;
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
  Sel.Fallbacks.push_back({K, File.str(), Detail.str()});
}

/// Examines one changed source file and adds what changed to \p Sel. The
/// base version, however it was found (store or parse), goes to
/// \p OldVersions: a new element's siblings may live there.
llvm::Error examine(Selection &Sel, VersionResolver &R,
                    const git::FileChange &C,
                    std::vector<FileIndex> &OldVersions,
                    std::vector<FileIndex> &NewVersions,
                    std::vector<std::pair<size_t, std::string>> &OwnTests) {
  llvm::StringRef Shown = C.NewPath.empty() ? C.OldPath : C.NewPath;
  std::optional<FileIndex> Old, New;
  if (!C.OldPath.empty()) {
    auto Got = R.get(Side::Old, C.OldPath, C.OldBlob, "");
    if (!Got)
      return Got.takeError();
    if (!*Got) {
      addFallback(Sel, FallbackKind::NotIndexed, C.OldPath,
                  "no indexed translation unit reads " + C.OldPath +
                      " at the base revision");
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
          "no indexed translation unit reads " + C.NewPath +
              (C.Status == git::ChangeStatus::Added ? " (a new file)" : ""));
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

  // A file that appears, disappears or moves changes what its includers
  // and the include search find: its types, macros and globals may now
  // resolve differently. Only a file with nothing outside its functions is
  // safe to reason about by its elements alone.
  if (C.Status == git::ChangeStatus::Added ||
      C.Status == git::ChangeStatus::Deleted ||
      C.Status == git::ChangeStatus::Renamed ||
      C.Status == git::ChangeStatus::Copied) {
    const FileIndex &V = New ? *New : *Old;
    if (V.ResidualHash != TokenHasher().hex()) {
      addFallback(Sel, FallbackKind::OutsideElements, Shown,
                  "file " + git::statusName(C.Status) +
                      " with code outside every function (types, macros, "
                      "includes), which may change how other files compile");
      return llvm::Error::success();
    }
    // A moved Python module has another name, so its elements have other
    // keys: it is compared below like any other change.
    if (C.Status == git::ChangeStatus::Renamed && C.OldBlob == C.NewBlob &&
        !(New && New->Python)) {
      Sel.Notes.push_back(
          {Shown.str(), "renamed from " + C.OldPath + " without changes"});
      return llvm::Error::success();
    }
  }

  std::vector<unsigned> Deleted, Added;
  for (const git::Hunk &H : C.Hunks) {
    Deleted.insert(Deleted.end(), H.DeletedLines.begin(), H.DeletedLines.end());
    Added.insert(Added.end(), H.AddedLines.begin(), H.AddedLines.end());
  }
  FileComparison Cmp = compareVersions(Old ? &*Old : nullptr,
                                       New ? &*New : nullptr, Deleted, Added);
  if (New && New->Python)
    addLostNames(Cmp, &*New, Deleted);
  if (Cmp.OutsideElements) {
    std::string Where = lineList(Cmp.LinesOutsideNew);
    if (Where.empty())
      Where = lineList(Cmp.LinesOutsideOld);
    addFallback(Sel, FallbackKind::OutsideElements, Shown,
                "code outside every function changed" +
                    (Where.empty()
                         ? std::string()
                         : " (line" +
                               std::string(Where.find_first_of(",-") ==
                                                   std::string::npos
                                               ? " "
                                               : "s ") +
                               Where + ")"));
  }
  if (Cmp.Elements.empty() && !Cmp.OutsideElements)
    Sel.Notes.push_back({Shown.str(), "comment or whitespace changes only"});

  // Calls evaluated at compile time never reach coverage, so a changed
  // constexpr function may change tests that no coverage links it to.
  std::set<std::string> OldCompileTime;
  if (Old)
    for (const Element &E : Old->Elements)
      if (E.CompileTime)
        OldCompileTime.insert(E.Key);
  for (const ChangedElement &CE : Cmp.Elements)
    if (CE.Change != ElementChange::Added &&
        (CE.Elem.CompileTime || OldCompileTime.count(CE.Elem.Key))) {
      addFallback(Sel, FallbackKind::CompileTime, CE.Elem.File,
                  CE.Elem.Display + " is constexpr: calls evaluated at "
                                    "compile time do not show in coverage");
      break;
    }

  for (ChangedElement &CE : Cmp.Elements) {
    if (New)
      for (std::string &Id : testsDefinedIn(*New, CE))
        OwnTests.emplace_back(Sel.Elements.size(), std::move(Id));
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
  for (const git::FileChange &C : *Changes) {
    llvm::StringRef Shown = C.NewPath.empty() ? C.OldPath : C.NewPath;
    if (isCoverageData(Shown)) {
      Sel.Notes.push_back({Shown.str(), "coverage data, ignored"});
      continue;
    }
    if (isBytecodeCache(Shown)) {
      Sel.Notes.push_back({Shown.str(), "Python bytecode cache, ignored"});
      continue;
    }
    bool Source = isCppSource(C.OldPath) || isCppSource(C.NewPath) ||
                  python::isPythonSource(C.OldPath) ||
                  python::isPythonSource(C.NewPath);
    if (C.Binary) {
      addFallback(Sel, FallbackKind::BinaryFile, Shown,
                  "binary file " + llvm::StringRef(git::statusName(C.Status)));
      continue;
    }
    if (!Source) {
      addFallback(Sel, FallbackKind::NonSourceFile, Shown,
                  "tia cannot tell what a change to " +
                      llvm::sys::path::filename(Shown) + " affects");
      continue;
    }
    if (llvm::Error E = examine(Sel, R, C, OldVersions, NewVersions, OwnTests))
      return std::move(E);
  }

  // Changed element -> the tests that covered it.
  std::map<std::string, std::vector<Reason>> ByTest;
  // A test whose own code changed covers that change, coverage or not.
  for (auto &[I, Id] : OwnTests)
    ByTest[Id].push_back({I, static_cast<size_t>(-1), "", Evidence::Source});
  SiblingFinder Finder(S, OldVersions);
  for (size_t I = 0; I < Sel.Elements.size(); ++I) {
    const ChangedElement &CE = Sel.Elements[I];
    auto Covering = S.testsCovering(CE.Elem.Key);
    if (!Covering)
      return Covering.takeError();
    for (const std::string &T : *Covering)
      ByTest[T].push_back({I, static_cast<size_t>(-1), ""});
    bool Any = !Covering->empty() || llvm::any_of(OwnTests, [&](const auto &T) {
      return T.first == I;
    });
    if (CE.Change == ElementChange::Added &&
        CE.Elem.Kind != ElementKind::Lambda) {
      // A new overload, override or specialisation may now be chosen by
      // calls that reached its siblings, so it inherits their tests. (A new
      // lambda is only reachable through its enclosing function, which
      // changed too.)
      auto Siblings = Finder.find(CE.Elem);
      if (!Siblings)
        return Siblings.takeError();
      for (const Element &Sib : *Siblings) {
        auto SibTests = S.testsCovering(Sib.Key);
        if (!SibTests)
          return SibTests.takeError();
        for (const std::string &T : *SibTests)
          ByTest[T].push_back(
              {I, static_cast<size_t>(-1), "covers same-named " + Sib.Display});
        Any |= !SibTests->empty();
      }
    }
    if (!Any && CE.Change != ElementChange::Added)
      Sel.Uncovered.push_back(I);
  }
  std::set<std::string> Known;
  for (const TestRecord &T : *Tests)
    Known.insert(T.Id);
  if (llvm::Error E = applyMode(Repo, S, O, *Changes, OldVersions,
                                NewVersions, Sel, ByTest, Known))
    return std::move(E);
  if (Sel.selectsAll())
    for (const TestRecord &T : *Tests)
      for (size_t F = 0; F < Sel.Fallbacks.size(); ++F)
        ByTest[T.Id].push_back(
            {static_cast<size_t>(-1), F, "", Evidence::Fallback});

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
