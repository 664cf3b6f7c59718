//===- Examine.cpp - what changed in one changed source file --------------===//

#include "Examine.h"
#include "HeadTests.h"
#include "PythonSelect.h"
#include "tia/Support/Hash.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"
#include <map>
#include <optional>
#include <set>

namespace tia {
namespace select {
namespace detail {

void addFallback(Selection &Sel, FallbackKind K, llvm::StringRef File,
                 const llvm::Twine &Detail) {
  Sel.Fallbacks.push_back(
      {K, File.str(), Detail.str(), FallbackScope::All, {}});
}

namespace {

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

/// Whether the C/C++ file \p C changes, read on neither side, is part of
/// no translation unit of the build (both of its paths, when renamed).
llvm::Expected<bool> outsideTheBuild(VersionResolver &R,
                                     const git::FileChange &C) {
  for (const std::string *Path : {&C.OldPath, &C.NewPath}) {
    if (Path->empty())
      continue;
    auto Outside = R.outsideTheBuild(*Path);
    if (!Outside || !*Outside)
      return Outside;
  }
  return true;
}

/// The examination of one changed source file, step by step.
class FileExamination {
public:
  FileExamination(Selection &Sel, Store &S, VersionResolver &R,
                  detail::Impact &Im, const git::FileChange &C,
                  std::vector<FileIndex> &OldVersions,
                  std::vector<FileIndex> &NewVersions,
                  std::vector<detail::NameScan> &Scans,
                  std::vector<std::pair<size_t, std::string>> &OwnTests)
      : Sel(Sel), S(S), R(R), Im(Im), C(C),
        Shown(C.NewPath.empty() ? C.OldPath : C.NewPath),
        OldVersions(OldVersions), NewVersions(NewVersions), Scans(Scans),
        OwnTests(OwnTests) {}

  llvm::Error run() {
    auto Unread = readVersions();
    if (!Unread)
      return Unread.takeError();
    if (*Unread)
      return noteUnread(**Unread);
    if (fallsBackOnIncomplete() || fallsBackOnPythonFile())
      return llvm::Error::success();
    noteInferred();
    if (llvm::Error E = addVersionsToImpact())
      return E;
    for (const git::Hunk &H : C.Hunks) {
      llvm::append_range(Deleted, H.DeletedLines);
      llvm::append_range(Added, H.AddedLines);
    }
    if ((Old && !Old->Tests.empty()) || (New && !New->Tests.empty()))
      Sel.TestFiles.push_back(
          {C.NewPath, C.OldPath,
           Old ? Old->Tests : std::vector<TestDefinition>(),
           New ? New->Tests : std::vector<TestDefinition>(), Deleted, Added,
           New && New->Python ? openTestClasses(C.NewPath, *New->Python)
                              : std::vector<std::string>()});
    auto RenamedOnly = followMove();
    if (!RenamedOnly)
      return RenamedOnly.takeError();
    if (!*RenamedOnly)
      if (llvm::Error E = recordChanges())
        return E;
    if (Old)
      OldVersions.push_back(std::move(*Old));
    if (New && New->Python)
      NewVersions.push_back(std::move(*New));
    return llvm::Error::success();
  }

private:
  using Unread = std::pair<std::string, std::string>; ///< path, why

  /// Finds both versions; the first side no indexed translation unit reads,
  /// with why, when there is one.
  llvm::Expected<std::optional<Unread>> readVersions() {
    std::optional<Unread> First;
    if (!C.OldPath.empty()) {
      auto Got = R.get(Side::Old, C.OldPath, C.OldBlob, "");
      if (!Got)
        return Got.takeError();
      if (*Got)
        Old = std::move(*Got);
      else
        First = {C.OldPath,
                 unparsedReason(R, Side::Old, C.OldPath,
                                "no indexed translation unit reads " +
                                    C.OldPath + " at the base revision")};
    }
    if (!C.NewPath.empty()) {
      llvm::StringRef From = C.Status == git::ChangeStatus::Renamed
                                 ? llvm::StringRef(C.OldPath)
                                 : "";
      auto Got = R.get(Side::New, C.NewPath, C.NewBlob, From);
      if (!Got)
        return Got.takeError();
      if (*Got)
        New = std::move(*Got);
      else if (!First)
        First = {C.NewPath,
                 unparsedReason(
                     R, Side::New, C.NewPath,
                     "no indexed translation unit reads " + C.NewPath +
                         (C.Status == git::ChangeStatus::Added ? " (a new file)"
                                                               : ""))};
    }
    return First;
  }

  /// A file outside the build gets a note; any other file no translation
  /// unit reads, a fallback.
  llvm::Error noteUnread(const Unread &U) {
    // A source file that existed and was compiled by no translation unit
    // is not made part of the build by borrowing a neighbour's command to
    // parse its head: that is for new files.
    bool OnlyInferred = New && C.Status == git::ChangeStatus::Modified &&
                        R.InferredFrom.count(C.NewPath);
    auto Outside = !Old && (!New || OnlyInferred) ? outsideTheBuild(R, C)
                                                  : llvm::Expected<bool>(false);
    if (!Outside)
      return Outside.takeError();
    if (*Outside)
      Sel.Notes.push_back(
          {Shown.str(), OutsideBuildNote.str(), NoteKind::OutsideBuild});
    else
      addFallback(Sel, FallbackKind::NotIndexed, U.first, U.second);
    return llvm::Error::success();
  }

  /// A version that did not parse cleanly may miss elements: a fallback.
  bool fallsBackOnIncomplete() {
    for (const std::optional<FileIndex> *V : {&Old, &New}) {
      if (!*V || (*V)->Complete)
        continue;
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
      return true;
    }
    return false;
  }

  bool fallsBackOnPythonFile() {
    if (!New || !New->Python)
      return false;
    std::optional<std::string> Why = pythonFileFallback(C);
    if (Why)
      addFallback(Sel, FallbackKind::OutsideElements, Shown, *Why);
    return Why.has_value();
  }

  void noteInferred() {
    auto Inferred = R.InferredFrom.find(C.NewPath);
    if (Inferred != R.InferredFrom.end())
      Sel.Notes.push_back({C.NewPath,
                           "not in the compilation database: parsed with the "
                           "compile command of " +
                               Inferred->second,
                           NoteKind::NotCompiled});
  }

  llvm::Error addVersionsToImpact() {
    for (const std::optional<FileIndex> *V : {&Old, &New})
      if (*V)
        Im.addVersion(**V);
    if (!New)
      return llvm::Error::success();
    auto Text = R.content(Side::New, C);
    if (!Text)
      return Text.takeError();
    Im.addHead(C.NewPath, {std::move(*Text), *New});
    return llvm::Error::success();
  }

  bool moved() const {
    return C.Status == git::ChangeStatus::Added ||
           C.Status == git::ChangeStatus::Deleted ||
           C.Status == git::ChangeStatus::Renamed ||
           C.Status == git::ChangeStatus::Copied;
  }

  /// A file that appears, disappears or moves changes what #include
  /// directives find; the code outside its elements (its own includes)
  /// changes how its readers compile. True when it was only renamed: its
  /// elements did not change.
  llvm::Expected<bool> followMove() {
    if (!moved())
      return false;
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
    // keys: it is compared like any other change.
    if (C.Status != git::ChangeStatus::Renamed || C.OldBlob != C.NewBlob ||
        (New && New->Python))
      return false;
    Sel.Notes.push_back({Shown.str(),
                         "renamed from " + C.OldPath + " without changes",
                         NoteKind::Renamed});
    return true;
  }

  /// Compares the versions: code outside every element, comment-only and
  /// layout-only changes, and each changed element.
  llvm::Error recordChanges() {
    FileComparison Cmp = select::compareVersions(
        Old ? &*Old : nullptr, New ? &*New : nullptr, Deleted, Added);
    if (New && New->Python) {
      addLostNames(Cmp, &*New, Deleted);
      addLostImports(Cmp, Old ? &*Old : nullptr, &*New, Deleted);
    }
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
    std::vector<std::string> NewImports = addedImports();
    if (Cmp.Elements.empty() && !Cmp.OutsideElements && !moved() &&
        !NewImports.empty())
      Sel.Notes.push_back(
          {Shown.str(),
           "new imports of the standard library (" +
               llvm::join(NewImports, ", ") +
               ") only bind names: the code that uses them decides",
           NoteKind::NewImports});
    else if (Cmp.Elements.empty() && !Cmp.OutsideElements && !moved())
      Sel.Notes.push_back(
          {Shown.str(), CommentOnlyNote.str(), NoteKind::CommentOnly});
    else
      for (const Element &U : Cmp.Unchanged)
        // A module that lost a name or an import counts as changed after
        // all (addLostNames, addLostImports).
        if (llvm::none_of(Cmp.Elements, [&](const ChangedElement &CE) {
              return CE.Elem.Key == U.Key;
            }))
          Sel.Notes.push_back(
              {Shown.str(), unchangedText(U, Cmp), NoteKind::LayoutOnly});
    std::map<std::string, const Element *> OldByKey;
    if (Old)
      for (const Element &E : Old->Elements)
        OldByKey[E.Key] = &E;
    for (ChangedElement &CE : Cmp.Elements)
      if (llvm::Error E = addElement(std::move(CE), OldByKey))
        return E;
    return llvm::Error::success();
  }

  /// Why \p U, whose lines the diff touched, did not change: its own
  /// tokens are the same, and what changed inside it (members added,
  /// deleted or modified) are elements of their own, named here.
  static std::string unchangedText(const Element &U,
                                   const FileComparison &Cmp) {
    std::string What = kindName(U.Kind).str() + " " + U.Display;
    std::vector<std::string> Inside;
    // Inside by its lines, or (a deleted member's lines are the old
    // version's) by its name.
    auto IsInside = [&](const Element &E) {
      llvm::StringRef Name = E.Display;
      return E.Key != U.Key &&
             ((U.BeginLine <= E.BeginLine && E.EndLine <= U.EndLine) ||
              Name.starts_with(U.Display + ".") ||
              Name.starts_with(U.Display + "::"));
    };
    for (const ChangedElement &CE : Cmp.Elements)
      if (IsInside(CE.Elem))
        Inside.push_back(changeName(CE.Change).str() + " " + CE.Elem.Display);
    if (Inside.empty())
      return "no semantic change in " + What + " (comments or layout only)";
    std::string List;
    for (size_t I = 0; I < Inside.size() && I < 3; ++I)
      List += (I ? ", " : "") + Inside[I];
    if (Inside.size() > 3)
      List += ", ...";
    return What + " itself is unchanged; what changed inside it: " + List;
  }

  /// The modules a Python file's new version imports and its old one did
  /// not.
  std::vector<std::string> addedImports() const {
    std::vector<std::string> Out;
    if (!Old || !New || !Old->Python || !New->Python)
      return Out;
    std::set<std::string> Before;
    for (const ImportRecord &I : Old->Python->Imports)
      Before.insert(I.Module + "." + I.Name);
    for (const ImportRecord &I : New->Python->Imports)
      if (!Before.count(I.Module + "." + I.Name) &&
          !llvm::is_contained(Out, I.Module))
        Out.push_back(I.Module);
    return Out;
  }

  /// Adds changed element \p CE, with what it changes beyond itself: the
  /// includes a conditional region holds, the name a macro now defines,
  /// the test whose own code it is.
  llvm::Error
  addElement(ChangedElement CE,
             const std::map<std::string, const Element *> &OldByKey) {
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
    return llvm::Error::success();
  }

  Selection &Sel;
  Store &S;
  VersionResolver &R;
  detail::Impact &Im;
  const git::FileChange &C;
  llvm::StringRef Shown;
  std::vector<FileIndex> &OldVersions;
  std::vector<FileIndex> &NewVersions;
  std::vector<detail::NameScan> &Scans;
  std::vector<std::pair<size_t, std::string>> &OwnTests;
  std::optional<FileIndex> Old, New;
  std::vector<unsigned> Deleted, Added;
};

} // namespace

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
  return FileExamination(Sel, S, R, Im, C, OldVersions, NewVersions, Scans,
                         OwnTests)
      .run();
}

} // namespace detail
} // namespace select
} // namespace tia
