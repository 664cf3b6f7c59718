//===- VersionResolver.cpp - the index of each changed file version -------===//

#include "VersionResolver.h"
#include "tia/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

namespace tia {
namespace select {
namespace detail {

llvm::Expected<std::optional<FileIndex>>
VersionResolver::get(Side Which, llvm::StringRef Path, llvm::StringRef Blob,
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

llvm::Expected<std::string> VersionResolver::content(Side Which,
                                                     const git::FileChange &C) {
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

llvm::Expected<std::optional<FileIndex>>
VersionResolver::parsePython(Side Which, llvm::StringRef Path,
                             llvm::StringRef Blob) {
  std::string Content;
  if (Which == Side::New && !O.Head) {
    auto Buf = llvm::MemoryBuffer::getFile(absolute(Path), /*IsText=*/false);
    if (!Buf)
      return makeErrorf("cannot read {0}: {1}", Path, Buf.getError().message());
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

llvm::Expected<const std::set<std::string, std::less<>> *>
VersionResolver::pythonFiles(Side Which) {
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

llvm::Expected<bool> VersionResolver::outsideTheBuild(llvm::StringRef Path) {
  if (!CompleteBuild) {
    // A database that cannot be read is no database tia indexed.
    CompleteBuild = false;
    if (!O.CompileDatabasePath.empty())
      if (auto Text = llvm::MemoryBuffer::getFile(O.CompileDatabasePath)) {
        auto Same = S.isRecordedCompileDatabase((*Text)->getBuffer());
        if (!Same)
          return Same.takeError();
        CompleteBuild = *Same;
      }
  }
  if (!*CompleteBuild || MissingDirectory[0].count(Path) ||
      MissingDirectory[1].count(Path))
    return false;
  // An include spelled as a suffix of the path may find the file (a new
  // one may shadow another of that name): its readers would compile it.
  auto Includes = S.includesNaming(
      llvm::sys::path::filename(Path, llvm::sys::path::Style::posix));
  if (!Includes)
    return Includes.takeError();
  return llvm::none_of(*Includes, [&](const IncludeIn &I) {
    llvm::StringRef Spelling = I.Directive.Spelling;
    return Path == Spelling || (Path.ends_with(Spelling) &&
                                Path[Path.size() - Spelling.size() - 1] == '/');
  });
}

llvm::Expected<const llvm::StringMap<std::string> *>
VersionResolver::overlays(Side Which) {
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
VersionResolver::parse(Side Which, llvm::StringRef Path,
                       llvm::StringRef RenamedFrom) {
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
    if (!Cmd.Directory.empty() && !llvm::sys::fs::is_directory(Cmd.Directory)) {
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

llvm::Expected<std::vector<StoredTranslationUnit>>
VersionResolver::readersOfOtherChanges(Side Which, llvm::StringRef Path) {
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

llvm::Expected<std::optional<StoredTranslationUnit>>
VersionResolver::nearestTranslationUnit(llvm::StringRef Path) {
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

bool VersionResolver::isMainFileName(llvm::StringRef Path) {
  llvm::StringRef Ext = llvm::sys::path::extension(Path);
  return Ext == ".c" || Ext == ".cc" || Ext == ".cpp" || Ext == ".cxx" ||
         Ext == ".c++" || Ext == ".C";
}

} // namespace detail
} // namespace select
} // namespace tia
