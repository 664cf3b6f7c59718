//===- Selection.cpp - which tests a change can affect --------------------===//
//
// selectTests: the pipeline from a diff to the tests it can affect. Each
// changed file is classified (Paths.h), examined (Examine.h) with the
// versions VersionResolver finds, and its changed elements are mapped to
// tests through coverage, the reference graph (Impact) and same-named
// siblings (Siblings.h); the mode's static analyses then apply.
//
//===----------------------------------------------------------------------===//

#include "tia/Select/Selection.h"
#include "Boundaries.h"
#include "CppStatic.h"
#include "DataFiles.h"
#include "Examine.h"
#include "Modes.h"
#include "Paths.h"
#include "PythonSelect.h"
#include "SelectInternal.h"
#include "Siblings.h"
#include "VersionResolver.h"
#include "tia/Git/Repository.h"
#include "tia/Store/Store.h"
#include "tia/Support/Error.h"
#include "tia/Support/Hash.h"
#include "tia/Support/Quote.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <map>
#include <set>

namespace tia {
namespace select {

using detail::addFallback;
using detail::examine;
using detail::isBytecodeCache;
using detail::isCoverageData;
using detail::SiblingFinder;
using detail::VersionResolver;

namespace {

/// The keys of the methods each method of the head versions overrides, by
/// the method's display (recorded at the definition; an in-class
/// declaration shares its definition's display).
using OverridesByDisplay = std::map<std::string, std::vector<std::string>>;
OverridesByDisplay overridesInHeads(const detail::Impact &Im) {
  OverridesByDisplay Out;
  for (const auto &[Path, Head] : Im.heads()) {
    std::map<std::string, const Element *> ByKey;
    for (const Element &E : Head.Index.Elements)
      ByKey[E.Key] = &E;
    for (const Reference &R : Head.Index.References) {
      auto It = ByKey.find(R.From);
      if (R.Kind != ReferenceKind::Overrides || It == ByKey.end())
        continue;
      std::vector<std::string> &Keys = Out[It->second->Display];
      if (!llvm::is_contained(Keys, R.To))
        Keys.push_back(R.To);
    }
  }
  return Out;
}

/// Adds the tests a new override \p E (changed element \p I) may run for:
/// those that constructed an object of its class (only such an object, or
/// one of a derived class, whose construction runs the class's
/// constructors too, dispatches to it) and those of the methods it
/// overrides (which every call that now reaches it ran before, whatever
/// constructor made the object). False, adding nothing, when the same-name
/// rule must decide: \p E overrides nothing, a method it overrides is not
/// in the index (a library's class: its tests are unknown), it runs at
/// compile time, or no constructor of its class is covered.
llvm::Expected<bool> addOverrideReasons(
    size_t I, const Element &E, const OverridesByDisplay &Overrides,
    detail::SiblingFinder &Finder,
    llvm::function_ref<
        llvm::Expected<std::vector<std::string>>(llvm::StringRef)>
        TestsCovering,
    detail::TestReasons &ByTest) {
  auto Found = Overrides.find(E.Display);
  if (Found == Overrides.end() || E.CompileTime)
    return false;
  // The overridden methods share its name: the same-named elements are
  // where the index holds them.
  auto Named = Finder.find(E);
  if (!Named)
    return Named.takeError();
  std::vector<const Element *> Bases;
  for (const Element &Sib : *Named)
    if (llvm::is_contained(Found->second, Sib.Key))
      Bases.push_back(&Sib);
  if (Bases.size() < Found->second.size())
    return false;
  auto Constructors = Finder.constructorsOf(detail::enclosingScope(E));
  if (!Constructors)
    return Constructors.takeError();
  detail::TestReasons Reasons;
  for (const Element &Ctor : *Constructors) {
    auto CtorTests = TestsCovering(Ctor.Key);
    if (!CtorTests)
      return CtorTests.takeError();
    for (const std::string &T : *CtorTests)
      Reasons[T].push_back(
          {I, NoIndex, "constructs its class (covers " + Ctor.Display + ")",
           Rule::Override});
  }
  if (Reasons.empty())
    return false;
  for (const Element *Base : Bases) {
    auto BaseTests = TestsCovering(Base->Key);
    if (!BaseTests)
      return BaseTests.takeError();
    for (const std::string &T : *BaseTests)
      Reasons[T].push_back({I, NoIndex,
                            "covers " + Base->Display + ", which it overrides",
                            Rule::Override});
  }
  for (auto &[T, Rs] : Reasons)
    llvm::append_range(ByTest[T], Rs);
  return true;
}

/// Sets the commits \p Sel compares: base, head (none: the work tree) and
/// the merge base the diff starts from (--diff-from when given: the commit
/// the coverage was collected at).
llvm::Error resolveCommits(git::Repository &Repo, const SelectOptions &O,
                           Selection &Sel) {
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
  return llvm::Error::success();
}

llvm::Error requireIndex(Store &S) {
  auto Current = S.currentCommit();
  if (!Current)
    return Current.takeError();
  if (*Current)
    return llvm::Error::success();
  auto Files = S.currentFiles();
  if (!Files)
    return Files.takeError();
  if (Files->empty())
    return makeError("no index in the database: run 'tia index' first");
  return llvm::Error::success();
}

/// One selection, stage by stage: the changed files sorted and examined,
/// each changed element linked to the tests it reaches (coverage, the
/// reference graph, overrides and same-named siblings), names scanned, and
/// the mode's analyses applied.
class SelectionRun {
public:
  SelectionRun(git::Repository &Repo, Store &S, const SelectOptions &O,
               const std::vector<git::FileChange> &Changes, Selection &Sel)
      : Repo(Repo), S(S), O(O), Changes(Changes), Sel(Sel),
        R(Repo, S, O, Changes), Data(S, O.UnreadFilesSelectAll),
        Im(S, Sel, ByTest, O.Snapshot,
           [this](llvm::StringRef Path, llvm::StringRef Hash) {
             return indexedContent(Path, Hash);
           }) {}

  llvm::Error examineFiles() {
    for (const git::FileChange &C : Changes)
      if (llvm::Error E = examineFile(C))
        return E;
    // Elements changed by their compile command rather than their text.
    std::set<std::string> Keys;
    for (const ChangedElement &CE : Sel.Elements)
      Keys.insert(CE.Elem.Key);
    for (const ChangedElement &CE : O.ExtraElements)
      if (Keys.insert(CE.Elem.Key).second)
        Sel.Elements.push_back(CE);
    return llvm::Error::success();
  }

  /// Changed element -> the tests it reaches.
  llvm::Error linkElements() {
    // A test whose own code changed covers that change, coverage or not.
    for (auto &[I, Id] : OwnTests)
      ByTest[Id].push_back({I, NoIndex, "", Rule::Covers, Evidence::Source});
    SiblingFinder Finder(S, OldVersions);
    Neighbours Around{Finder, overridesInHeads(Im), newClasses(),
                      oldCompileTimeKeys()};
    for (size_t I = 0; I < Sel.Elements.size(); ++I)
      if (llvm::Error E = linkElement(I, Around))
        return E;
    for (const detail::NameScan &N : Scans)
      if (llvm::Error E = Im.scan(N))
        return E;
    if (llvm::Error E = Im.resolveScoped())
      return E;
    return detail::nameObjectsCrossed(S, Sel, ByTest);
  }

  /// The mode's analyses (static, combined) and the C++ reference graph;
  /// then every test on a fallback of scope "all", and the tests in \p Sel.
  llvm::Error finish(const std::vector<TestRecord> &Tests) {
    std::set<std::string> Known;
    for (const TestRecord &T : Tests)
      Known.insert(T.Id);
    if (llvm::Error E = applyMode(Repo, S, O, Changes, OldVersions, NewVersions,
                                  Sel, ByTest, Known))
      return E;
    if (llvm::Error E =
            applyCppGraph(Repo, S, O, OldVersions, NewVersions, Sel, ByTest))
      return E;
    if (Sel.selectsAll())
      for (const TestRecord &T : Tests)
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
    return llvm::Error::success();
  }

private:
  /// What linking one element consults besides the store.
  struct Neighbours {
    SiblingFinder &Finder;
    OverridesByDisplay Overrides;
    /// Classes that did not exist before (their displays).
    std::set<std::string> NewClasses;
    /// The keys of the base versions' elements that run at compile time.
    std::set<std::string> OldCompileTime;
  };

  /// The content of \p Path at git blob \p Hash, for the index's versions.
  /// The hash is git's blob id; a version indexed from the work tree and
  /// never committed is read from disk when it still matches.
  llvm::Expected<std::optional<std::string>>
  indexedContent(llvm::StringRef Path, llvm::StringRef Hash) {
    if (auto Blob = Repo.readBlob(Hash))
      return std::optional<std::string>(std::move(*Blob));
    else
      llvm::consumeError(Blob.takeError()); // not in git: try the disk
    auto Buf = llvm::MemoryBuffer::getFile(R.absolute(Path), /*IsText=*/false);
    if (Buf && gitBlobHash((*Buf)->getBuffer()) == Hash)
      return std::optional<std::string>((*Buf)->getBuffer().str());
    return std::optional<std::string>();
  }

  llvm::Expected<std::vector<std::string>> testsCovering(llvm::StringRef Key) {
    return O.Snapshot ? S.testsCovering(Key, *O.Snapshot)
                      : S.testsCovering(Key);
  }

  /// Sorts changed file \p C: ignored, a trigger, a data file, a file tia
  /// cannot reason about (a fallback), or source to examine.
  llvm::Error examineFile(const git::FileChange &C) {
    llvm::StringRef Shown = C.NewPath.empty() ? C.OldPath : C.NewPath;
    Sel.Files.push_back({Shown.str(), C.OldPath, C.Status});
    if (isCoverageData(Shown)) {
      Sel.Notes.push_back(
          {Shown.str(), "coverage data, ignored", NoteKind::CoverageData});
      return llvm::Error::success();
    }
    if (isBytecodeCache(Shown)) {
      Sel.Notes.push_back({Shown.str(), "Python bytecode cache, ignored",
                           NoteKind::BytecodeCache});
      return llvm::Error::success();
    }
    if (O.Classify)
      if (std::optional<PathVerdict> V = O.Classify(C)) {
        if (V->Trigger)
          addFallback(Sel, FallbackKind::TriggerPath, Shown, V->Detail);
        else
          Sel.Notes.push_back({Shown.str(), V->Detail, V->Kind});
        return llvm::Error::success();
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
      return llvm::Error::success();
    }
    // A data file: the tests that read it, when their reads are known.
    if (C.Binary || !Source) {
      auto Decided = Data.decide(Sel, C, ByTest);
      if (!Decided)
        return Decided.takeError();
      if (*Decided)
        return llvm::Error::success();
    }
    if (C.Binary) {
      addFallback(Sel, FallbackKind::BinaryFile, Shown,
                  "binary file " + llvm::StringRef(git::statusName(C.Status)));
      return llvm::Error::success();
    }
    if (!Source) {
      addFallback(Sel, FallbackKind::NonSourceFile, Shown,
                  "tia cannot tell what a change to " +
                      quotePath(llvm::sys::path::filename(Shown)) + " affects");
      return llvm::Error::success();
    }
    size_t NotesBefore = Sel.Notes.size();
    if (llvm::Error E = examine(Sel, S, R, Im, C, OldVersions, NewVersions,
                                Scans, OwnTests))
      return E;
    // A test that reads a Python source as a file may run it or compare
    // its bytes: any change to it selects the test.
    if (!(isCppSource(C.OldPath) || isCppSource(C.NewPath)))
      return Data.selectSourceReaders(Sel, C, ByTest);
    // A comment-only change runs no differently behind a boundary either.
    for (size_t I = NotesBefore; I < Sel.Notes.size(); ++I)
      if (Sel.Notes[I].Kind == NoteKind::CommentOnly)
        return llvm::Error::success();
    return detail::selectBehindBoundaries(S, Sel, C, ByTest);
  }

  /// Classes that did not exist before: no unchanged code holds an object of
  /// one, so their new members take no calls from it (a GoogleTest TEST's
  /// TestBody overrides a method every test overrides, yet only the new
  /// test's own class dispatches to it).
  std::set<std::string> newClasses() const {
    std::set<std::string> Out;
    for (const ChangedElement &CE : Sel.Elements)
      if (CE.Change == ElementChange::Added &&
          CE.Elem.Kind == ElementKind::Class)
        Out.insert(CE.Elem.Display);
    return Out;
  }

  std::set<std::string> oldCompileTimeKeys() const {
    std::set<std::string> Out;
    for (const FileIndex &F : OldVersions)
      for (const Element &E : F.Elements)
        if (E.CompileTime)
          Out.insert(E.Key);
    return Out;
  }

  /// Links changed element \p I to the tests it reaches; an element that
  /// existed and reaches none is uncovered.
  llvm::Error linkElement(size_t I, Neighbours &Around) {
    const ChangedElement &CE = Sel.Elements[I];
    const Element &E = CE.Elem;
    auto Covering = testsCovering(E.Key);
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
    if (Cpp && (!Function ||
                (CE.Change != ElementChange::Added &&
                 (E.CompileTime || Around.OldCompileTime.count(E.Key))))) {
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
    // A member of a new class, defined or only declared, takes no calls
    // from unchanged code.
    bool Member = Function || E.Kind == ElementKind::Declaration;
    if (Siblings && Member &&
        Around.NewClasses.count(detail::enclosingScope(E)))
      Siblings = false;
    if (Siblings && Member) {
      auto Decided = addOverrideReasons(
          I, E, Around.Overrides, Around.Finder,
          [&](llvm::StringRef Key) { return testsCovering(Key); }, ByTest);
      if (!Decided)
        return Decided.takeError();
      Any |= *Decided;
      Siblings = !*Decided;
    }
    if (Siblings) {
      auto Reached = addSameNameReasons(I, Around.Finder);
      if (!Reached)
        return Reached.takeError();
      Any |= *Reached;
    }
    if (!Any && CE.Change != ElementChange::Added)
      Sel.Uncovered.push_back(I);
    return llvm::Error::success();
  }

  /// A new overload, override, specialisation, class or variable (changed
  /// element \p I) may now be chosen by code that reached a same-named
  /// element, so it inherits what reached that one. (A new lambda is only
  /// reachable through its enclosing function, which changed too.) True
  /// when some test is reached.
  llvm::Expected<bool> addSameNameReasons(size_t I, SiblingFinder &Finder) {
    const Element &E = Sel.Elements[I].Elem;
    bool Function = isFunctionKind(E.Kind);
    auto Found = Finder.find(E);
    if (!Found)
      return Found.takeError();
    bool Any = false;
    for (const Element &Sib : *Found) {
      bool SibFunction = isFunctionKind(Sib.Kind);
      if (Function && !SibFunction && Sib.Kind != ElementKind::Class &&
          Sib.Kind != ElementKind::Declaration)
        continue;
      auto SibTests = testsCovering(Sib.Key);
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
    return Any;
  }

  git::Repository &Repo;
  Store &S;
  const SelectOptions &O;
  const std::vector<git::FileChange> &Changes;
  Selection &Sel;
  VersionResolver R;
  detail::DataFiles Data;
  detail::TestReasons ByTest;
  detail::Impact Im;
  std::vector<FileIndex> OldVersions, NewVersions;
  /// Changed element -> the test whose own code it is.
  std::vector<std::pair<size_t, std::string>> OwnTests;
  std::vector<detail::NameScan> Scans;
};

} // namespace

llvm::Expected<Selection> selectTests(git::Repository &Repo, Store &S,
                                      const SelectOptions &O) {
  Selection Sel;
  if (llvm::Error E = resolveCommits(Repo, O, Sel))
    return E;
  if (llvm::Error E = requireIndex(S))
    return E;
  auto Tests = S.sharedTests();
  if (!Tests)
    return Tests.takeError();
  Sel.TotalTests = (*Tests)->size();

  std::optional<llvm::StringRef> HeadRef;
  if (O.Head)
    HeadRef = Sel.HeadCommit;
  auto Changes = Repo.diff(Sel.DiffBase, HeadRef);
  if (!Changes)
    return Changes.takeError();
  Sel.ChangedFiles = Changes->size();

  SelectionRun Run(Repo, S, O, *Changes, Sel);
  if (llvm::Error E = Run.examineFiles())
    return E;
  if (llvm::Error E = Run.linkElements())
    return E;
  if (llvm::Error E = Run.finish(**Tests))
    return E;
  return Sel;
}

void Selection::prependFallbacks(const std::vector<Fallback> &First) {
  Fallbacks.insert(Fallbacks.begin(), First.begin(), First.end());
  for (SelectedTest &T : Tests)
    for (Reason &R : T.Reasons)
      if (R.FallbackIndex != NoIndex)
        R.FallbackIndex += First.size();
}

} // namespace select
} // namespace tia
