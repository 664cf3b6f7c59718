//===- Policy.cpp - from changed elements to the tests to run -------------===//
//
// Runs the engine with what only the policy knows (the coverage snapshot to
// diff from, the trigger and ignored paths, the elements of translation
// units whose compile command changed), then adds the tests the engine
// does not see: previously failing, new, and those whose own code changed,
// and every test when a fallback applies. Order and budget come last.
//
//===----------------------------------------------------------------------===//

#include "tia/Select/Policy.h"
#include "BuildInputs.h"
#include "CTestFolders.h"
#include "HeadTests.h"
#include "LitFolders.h"
#include "PythonSelect.h"
#include "tia/Cpp/FrontEnd.h"
#include "tia/Support/CommitId.h"
#include "tia/Support/Error.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include <algorithm>
#include <map>
#include <set>

namespace tia {
namespace select {

namespace {

Fallback fallback(FallbackKind K, llvm::StringRef File,
                  const llvm::Twine &Detail) {
  return {K, File.str(), Detail.str()};
}

/// Picks the snapshot to select with, and says why none fits.
class SnapshotChooser {
public:
  SnapshotChooser(git::Repository &Repo, Store &S, const PolicyOptions &O,
                  llvm::StringRef Base, std::optional<std::string> Head)
      : Repo(Repo), S(S), O(O), Base(Base), Head(std::move(Head)) {}

  /// Fills \p P.Snapshot when a snapshot fits; adds the fallbacks that say
  /// why it does not (or why its coverage is too old) to \p Problems.
  /// \p Newest is the newest snapshot, for the tests it holds.
  llvm::Error choose(Plan &P, std::vector<Fallback> &Problems,
                     std::optional<CoverageSnapshot> &Newest) {
    auto Snaps = S.coverageSnapshots();
    if (!Snaps)
      return Snaps.takeError();
    if (Snaps->empty()) {
      auto Static = staticDecidesEveryTest();
      if (!Static)
        return Static.takeError();
      // Static selection needs no coverage: the name graph decides.
      if (*Static)
        return llvm::Error::success();
      Problems.push_back(fallback(
          FallbackKind::NoCoverage, "",
          "no coverage was recorded yet: collect it on the main branch "
          "('tia collect' or 'tia coverage import')"));
      return llvm::Error::success();
    }
    Newest = Snaps->front();

    std::vector<const CoverageSnapshot *> OnBase, OnBoth;
    for (const CoverageSnapshot &C : *Snaps) {
      if (C.Commit.empty() || !Repo.hasCommit(C.Commit))
        continue;
      auto Is = Repo.isAncestor(C.Commit, Base);
      if (!Is)
        return Is.takeError();
      if (!*Is)
        continue;
      OnBase.push_back(&C);
      if (Head) {
        auto InHead = Repo.isAncestor(C.Commit, *Head);
        if (!InHead)
          return InHead.takeError();
        if (*InHead)
          OnBoth.push_back(&C);
      }
    }
    if (OnBase.empty()) {
      Problems.push_back(unusable(*Newest));
      return llvm::Error::success();
    }
    auto Picked = newest(OnBoth.empty() ? OnBase : OnBoth);
    if (!Picked)
      return Picked.takeError();
    const CoverageSnapshot &C = **Picked;

    SnapshotUse Use;
    Use.Snapshot = C;
    Use.DiffFrom = C.Commit;
    for (const std::string &Commit : C.CoverageCommits) {
      if (Commit == C.Commit)
        continue;
      bool Fits = !Commit.empty() && Repo.hasCommit(Commit);
      if (Fits) {
        auto Is = Repo.isAncestor(Commit, Base);
        if (!Is)
          return Is.takeError();
        Fits = *Is;
      }
      if (!Fits) {
        Problems.push_back(fallback(
            FallbackKind::StaleCoverage, "",
            "the coverage snapshot at " + shortId(C.Commit) +
                " holds tests whose coverage was collected at " +
                (Commit.empty() ? std::string("no commit") : shortId(Commit)) +
                ", which is not an ancestor of the base: collect coverage "
                "of every test again"));
        P.Snapshot = Use;
        return llvm::Error::success();
      }
      auto MB = Repo.mergeBase(Use.DiffFrom, Commit);
      if (!MB)
        return MB.takeError();
      Use.DiffFrom = *MB;
    }
    auto Behind = Repo.countCommits(Use.DiffFrom, Base);
    if (!Behind)
      return Behind.takeError();
    Use.CommitsBehindBase = *Behind;
    auto Time = Repo.commitTime(C.Commit);
    if (!Time)
      return Time.takeError();
    Use.CommitTime = *Time;
    P.Snapshot = Use;
    unsigned Limit = O.Config.MaxCoverageAge;
    if (Limit && *Behind > Limit)
      Problems.push_back(fallback(
          FallbackKind::StaleCoverage, "",
          "the coverage collected at " + shortId(Use.DiffFrom) + " is " +
              llvm::Twine(*Behind) + " commits behind the base (more than " +
              "select.max_coverage_age: " + llvm::Twine(Limit) +
              "): collect coverage again"));
    return llvm::Error::success();
  }

private:
  /// Whether static selection decides every test the index knows (the mode
  /// is static or combined and every test is a pytest one), so that having
  /// no coverage at all is no reason to select everything.
  llvm::Expected<bool> staticDecidesEveryTest() {
    if (O.Select.Mode == SelectionMode::Coverage)
      return false;
    auto Infos = S.testInfos();
    if (!Infos)
      return Infos.takeError();
    auto Defs = S.currentTestDefinitions();
    if (!Defs)
      return Defs.takeError();
    if (Infos->empty() && Defs->empty())
      return false;
    // C++ tests: the reference graph decides those whose source is known
    // (a GoogleTest definition, a recorded source file), when the index
    // has the current graph.
    auto Version = S.cppGraphVersion();
    if (!Version)
      return Version.takeError();
    bool Graph = *Version >= cpp::GraphVersion;
    return llvm::all_of(*Infos,
                        [&](const TestInfo &T) {
                          llvm::StringRef Id = T.Id;
                          return Id.starts_with("pytest:") ||
                                 (Graph && (!T.File.empty() ||
                                            Id.starts_with("gtest:")));
                        }) &&
           llvm::all_of(*Defs, [&](const auto &D) {
             return D.second.Framework == "pytest" ||
                    (Graph && D.second.Framework == "gtest");
           });
  }

  Fallback unusable(const CoverageSnapshot &C) {
    if (C.Commit.empty())
      return fallback(FallbackKind::StaleCoverage, "",
                      "the coverage was recorded outside git, at no commit, "
                      "so tia cannot tell what changed since: import it "
                      "inside the repository");
    if (!Repo.hasCommit(C.Commit))
      return fallback(FallbackKind::StaleCoverage, "",
                      "the coverage snapshot's commit " + shortId(C.Commit) +
                          " is not in this repository (a shallow clone?): "
                          "fetch the history it was collected on");
    return fallback(FallbackKind::StaleCoverage, "",
                    "the coverage snapshot at " + shortId(C.Commit) +
                        " is not an ancestor of the base " + shortId(Base) +
                        ": collect coverage on the base's history, or pick a "
                        "base that contains it");
  }

  /// The candidate no other candidate descends from; the greatest id among
  /// several.
  llvm::Expected<const CoverageSnapshot *>
  newest(const std::vector<const CoverageSnapshot *> &Candidates) {
    const CoverageSnapshot *Best = nullptr;
    for (const CoverageSnapshot *C : Candidates) {
      bool Newer = true;
      for (const CoverageSnapshot *D : Candidates) {
        if (D == C || D->Commit == C->Commit)
          continue;
        auto Is = Repo.isAncestor(C->Commit, D->Commit);
        if (!Is)
          return Is.takeError();
        if (*Is) {
          Newer = false;
          break;
        }
      }
      if (Newer && (!Best || C->Id > Best->Id))
        Best = C;
    }
    return Best ? Best : Candidates.front();
  }

  git::Repository &Repo;
  Store &S;
  const PolicyOptions &O;
  std::string Base;
  std::optional<std::string> Head;
};

/// The elements of every translation unit whose compile command in
/// \p BuildDir differs from the indexed one.
llvm::Expected<std::vector<ChangedElement>>
commandChanges(Store &S, llvm::StringRef BuildDir) {
  auto Commands = cpp::loadCompilationDatabase(BuildDir);
  if (!Commands)
    return Commands.takeError();
  std::map<std::string, const CompileCommand *> ByFile;
  for (const CompileCommand &C : *Commands)
    ByFile[C.File] = &C;
  auto TUs = S.translationUnits();
  if (!TUs)
    return TUs.takeError();
  // A compiler at another path (another machine, another install) is the
  // same compiler when the version the index recorded for the old path is
  // the version the new one reports.
  auto SameCompiler = [&](llvm::StringRef Old, llvm::StringRef New) {
    auto Then = S.compilerVersion(Old);
    if (!Then) {
      llvm::consumeError(Then.takeError()); // Unknown: a changed command.
      return false;
    }
    return *Then && **Then == cpp::compilerVersion(New);
  };
  std::vector<ChangedElement> Out;
  std::set<std::string> Seen;
  for (const StoredTranslationUnit &TU : *TUs) {
    auto It = ByFile.find(TU.Command.File);
    if (It == ByFile.end())
      continue;
    const CompileCommand &Now = *It->second;
    if (cpp::sameCompileCommand(TU.Command, Now, SameCompiler))
      continue;
    std::string Cause = "the compile command of " + TU.Path + " changed (" +
                        commandDifference(TU.Command, Now) + ")";
    for (const FileVersionRef &Dep : TU.Dependencies) {
      auto FI = S.getFileIndex(Dep.first, Dep.second);
      if (!FI)
        return FI.takeError();
      if (!*FI)
        continue;
      for (const Element &E : (*FI)->Elements)
        if (Seen.insert(E.Key).second)
          Out.push_back({ElementChange::Modified, E, {}, Cause});
    }
  }
  return Out;
}

/// The note on a change to .tia.yaml.
constexpr llvm::StringLiteral ConfigNote =
    "tia's configuration, which selection reads as it is now";

/// Decides, from .tia.yaml's select section and the files CMake read to
/// configure the build (\p BuildInputs), which changed paths select every
/// test and which never affect one.
std::function<std::optional<PathVerdict>(const git::FileChange &)>
classifier(const config::SelectConfig &C, std::set<std::string> BuildInputs) {
  return [&C, BuildInputs = std::move(BuildInputs)](
             const git::FileChange &F) -> std::optional<PathVerdict> {
    // The configuration in force is the work tree's, whatever changed in it.
    if ((F.NewPath.empty() || F.NewPath == config::ConfigFileName) &&
        (F.OldPath.empty() || F.OldPath == config::ConfigFileName))
      return PathVerdict{false, ConfigNote.str(), NoteKind::Configuration};
    for (const std::string *Path : {&F.NewPath, &F.OldPath})
      if (!Path->empty() && BuildInputs.count(*Path))
        return PathVerdict{true, "CMake read it to configure the build (its "
                                 "file API, cmakeFiles)"};
    for (const std::string *Path : {&F.NewPath, &F.OldPath}) {
      if (Path->empty())
        continue;
      llvm::StringRef Pattern = C.Triggers.firstMatch(*Path);
      if (Pattern.empty())
        continue;
      bool Default = llvm::is_contained(config::defaultTriggers(), Pattern);
      return PathVerdict{true, (Default ? "a build, environment or CI file "
                                          "(default trigger '"
                                        : "a configured trigger path ('") +
                                   Pattern.str() + "')"};
    }
    std::string First;
    for (const std::string *Path : {&F.NewPath, &F.OldPath}) {
      if (Path->empty())
        continue;
      llvm::StringRef Pattern = C.Ignore.firstMatch(*Path);
      if (Pattern.empty())
        return std::nullopt;
      if (First.empty())
        First = Pattern.str();
    }
    bool Default = llvm::is_contained(config::defaultIgnored(), First);
    return PathVerdict{false,
                       "never affects a test (select.ignore '" + First + "')",
                       Default ? NoteKind::DefaultIgnored : NoteKind::Ignored};
  };
}

std::string lineRange(unsigned Begin, unsigned End) {
  return Begin == End ? std::to_string(Begin)
                      : std::to_string(Begin) + "-" + std::to_string(End);
}

bool intersects(const TestDefinition &D, const std::vector<unsigned> &Lines) {
  return llvm::any_of(
      Lines, [&](unsigned L) { return D.BeginLine <= L && L <= D.EndLine; });
}

/// Test ids for test definitions. GoogleTest and Catch2 definitions name a
/// case of some binaries: the known ids of their instances, else one id per
/// binary the file's other cases ran in, else "<framework>:*:<name>".
class DefinitionIds {
public:
  DefinitionIds(const std::vector<std::string> &Known,
                const std::vector<TestInfo> &Infos) {
    for (const std::string &Id : Known) {
      if (std::optional<CaseId> C = parseCaseId(Id))
        ByTestName[key(C->Framework, C->Name)].push_back(
            {C->Binary, C->Name, Id});
      if (llvm::StringRef(Id).starts_with("pytest:")) {
        PytestKnown.insert(Id);
        if (std::optional<std::string> F = pytestFunctionId(Id))
          PytestInstances[*F].push_back(Id);
      }
    }
    for (const TestInfo &T : Infos)
      if (std::optional<CaseId> C = parseCaseId(T.Id); C && !T.File.empty())
        Binaries[binariesKey(T.File, C->Framework)].insert(C->Binary);
  }

  /// Learns the binaries of \p File from the known ids its definitions
  /// match; call for every file before ids().
  void learn(llvm::StringRef File, const TestDefinition &D) {
    if (std::optional<CaseFramework> F = frameworkOf(D))
      for (const KnownId *G : matching(*F, D.Name))
        Binaries[binariesKey(File, *F)].insert(G->Binary);
  }

  /// The ids of \p D, defined in \p File, and whether they are only the
  /// definition's (no recorded test matches it).
  std::pair<std::vector<std::string>, bool> ids(llvm::StringRef File,
                                                const TestDefinition &D) const {
    std::optional<CaseFramework> F = frameworkOf(D);
    if (!F)
      return {knownInstances(D).value_or(
                  std::vector<std::string>{D.Framework + ":" + D.Name}),
              false};
    std::vector<std::string> Out;
    for (const KnownId *G : matching(*F, D.Name))
      Out.push_back(G->Id);
    if (!Out.empty())
      return {Out, false};
    auto It = Binaries.find(binariesKey(File, *F));
    if (It != Binaries.end())
      for (const std::string &B : It->second)
        Out.push_back(D.Framework + ":" + B + ":" + D.Name);
    if (Out.empty())
      Out.push_back(D.Framework + ":*:" + D.Name);
    return {Out, true};
  }

  /// The ids a change to \p D's own lines selects: ids(), and for a
  /// parametrized pytest function also the function's node id, which runs
  /// every instance, those the change adds too.
  std::vector<std::string> changedIds(llvm::StringRef File,
                                      const TestDefinition &D) const {
    std::vector<std::string> Out = ids(File, D).first;
    if (knownInstances(D))
      Out.push_back(D.Framework + ":" + D.Name);
    return Out;
  }

  /// The known ids of C++ case definition \p D (GoogleTest, Catch2,
  /// doctest, Boost.Test) in every binary; empty for another framework.
  std::vector<std::string> knownCaseIds(const TestDefinition &D) const {
    std::vector<std::string> Out;
    if (std::optional<CaseFramework> F = frameworkOf(D))
      for (const KnownId *G : matching(*F, D.Name))
        Out.push_back(G->Id);
    return Out;
  }

  /// The runnable ids test \p Id stands for: a parametrized pytest
  /// function's known instances and its own node id (see changedIds()),
  /// else \p Id.
  std::vector<std::string> runnableIds(const std::string &Id) const {
    llvm::StringRef Name = Id;
    if (!Name.consume_front("pytest:"))
      return {Id};
    TestDefinition D;
    D.Framework = "pytest";
    D.Name = Name.str();
    std::optional<std::vector<std::string>> Instances = knownInstances(D);
    if (!Instances)
      return {Id};
    Instances->push_back(Id);
    return *Instances;
  }

private:
  struct KnownId {
    std::string Binary, Name, Id;
  };

  /// The known instances of pytest function \p D ("pytest:f.py::test_x[1]",
  /// parametrized, class-qualified, pytest.param ids,
  /// pytest_generate_tests): the runnable tests it stands for, as a
  /// GoogleTest definition stands for its instances. std::nullopt when it
  /// is known as it is, or has no known instance.
  std::optional<std::vector<std::string>>
  knownInstances(const TestDefinition &D) const {
    if (D.Framework != "pytest")
      return std::nullopt;
    std::string Id = "pytest:" + D.Name;
    auto It = PytestInstances.find(Id);
    if (PytestKnown.count(Id) || It == PytestInstances.end())
      return std::nullopt;
    return It->second;
  }

  static std::optional<CaseFramework> frameworkOf(const TestDefinition &D) {
    return caseFrameworkOfId(D.Framework + ":");
  }

  /// What a known id shares with its definition: "Name" of GoogleTest's
  /// "Suite.Name/2", "name" of Catch2's template instance "name - int".
  static std::string key(CaseFramework F, llvm::StringRef Full) {
    if (F == CaseFramework::GTest)
      return "gtest\n" + Full.split('.').second.split('/').first.str();
    if (F == CaseFramework::Doctest)
      return "doctest\n" + doctestTemplateName(Full).str();
    if (F == CaseFramework::Boost)
      return "boost\n" + boostDefinitionName(Full).str();
    return "catch2\n" + Full.split(" - ").first.str();
  }

  static std::string binariesKey(llvm::StringRef File, CaseFramework F) {
    return (caseFrameworkName(F) + "\n" + File).str();
  }

  std::vector<const KnownId *> matching(CaseFramework F,
                                        llvm::StringRef Definition) const {
    std::vector<const KnownId *> Out;
    auto It = ByTestName.find(key(F, Definition));
    if (It != ByTestName.end())
      for (const KnownId &G : It->second)
        if (caseNameMatches(F, G.Name, Definition))
          Out.push_back(&G);
    return Out;
  }

  /// Known case ids by framework and test name, so that a definition is
  /// matched against the few ids of its name only.
  std::map<std::string, std::vector<KnownId>> ByTestName;
  /// Framework and file -> the binaries its cases ran in.
  std::map<std::string, std::set<std::string>> Binaries;
  /// The known pytest ids, and the parametrized ones by function node id.
  std::set<std::string> PytestKnown;
  std::map<std::string, std::vector<std::string>> PytestInstances;
};

QuietChange quietChange(const Selection &Sel) {
  if (Sel.Files.empty())
    return QuietChange::Nothing;
  if (!Sel.Elements.empty() || !Sel.Fallbacks.empty())
    return QuietChange::None;
  bool AllIgnored = true, AllDocs = true, AllComments = true;
  unsigned Counted = 0;
  for (const ChangedFile &F : Sel.Files) {
    auto Found = llvm::find_if(
        Sel.Notes, [&](const select::Note &N) { return N.File == F.Path; });
    if (Found == Sel.Notes.end())
      return QuietChange::None;
    NoteKind Kind = Found->Kind;
    // tia's own configuration says nothing about what kind of change it is.
    if (Kind == NoteKind::Configuration)
      continue;
    ++Counted;
    if (Kind != NoteKind::CommentOnly)
      AllComments = false;
    if (Kind != NoteKind::Ignored && Kind != NoteKind::DefaultIgnored)
      AllIgnored = false;
    if (Kind != NoteKind::DefaultIgnored)
      AllDocs = false;
  }
  if (!Counted)
    return QuietChange::NoEffect;
  if (AllIgnored)
    return AllDocs ? QuietChange::Docs : QuietChange::Ignored;
  return AllComments ? QuietChange::Comments : QuietChange::NoEffect;
}

/// The head commit a plan is for: --head, else HEAD (none in a repository
/// without commits).
llvm::Expected<std::optional<std::string>> headOf(git::Repository &Repo,
                                                  const PolicyOptions &O) {
  if (!O.Select.Head)
    return Repo.headCommit();
  auto H = Repo.resolveCommit(*O.Select.Head);
  if (!H)
    return H.takeError();
  return std::optional<std::string>(std::move(*H));
}

/// The fallbacks the request itself makes: every test asked for, or a head
/// commit whose message holds the full-suite marker.
llvm::Expected<std::vector<Fallback>>
requestedFallbacks(git::Repository &Repo, const PolicyOptions &O,
                   const std::optional<std::string> &Head) {
  std::vector<Fallback> Problems;
  if (!O.AllRequestedBy.empty())
    Problems.push_back(
        fallback(FallbackKind::Requested, "",
                 "every test was asked for (" + O.AllRequestedBy + ")"));
  if (Head && !O.Config.FullSuiteMarker.empty()) {
    auto Message = Repo.commitMessage(*Head);
    if (!Message)
      return Message.takeError();
    if (llvm::StringRef(*Message).contains(O.Config.FullSuiteMarker))
      Problems.push_back(fallback(FallbackKind::FullSuiteMarker, "",
                                  "the head commit's message holds " +
                                      O.Config.FullSuiteMarker));
  }
  return Problems;
}

/// What the engine (selectTests) is asked: the request, with the build's
/// inputs and compilation database, the snapshot the coverage comes from
/// (and, unless it is stale, the commit to diff from), and the elements
/// whose compile commands changed.
llvm::Expected<SelectOptions>
engineOptions(Store &S, const PolicyOptions &O, const Plan &P,
              const std::vector<Fallback> &Problems) {
  SelectOptions SO = O.Select;
  std::string BuildDir =
      !O.BuildDir.empty() ? O.BuildDir : S.pathBases().BuildDir;
  SO.Classify = classifier(O.Config, cmakeInputs(BuildDir, S.pathBases().Root));
  if (!BuildDir.empty())
    SO.CompileDatabasePath = BuildDir + "/compile_commands.json";
  SO.UnreadFilesSelectAll = O.Config.UnreadFilesSelectAll;
  if (P.Snapshot) {
    SO.Snapshot = P.Snapshot->Snapshot.Id;
    if (llvm::none_of(Problems, [](const Fallback &F) {
          return F.Kind == FallbackKind::StaleCoverage;
        }))
      SO.DiffFrom = P.Snapshot->DiffFrom;
  }
  if (!O.BuildDir.empty()) {
    auto Extra = commandChanges(S, O.BuildDir);
    if (!Extra)
      return Extra.takeError();
    SO.ExtraElements = std::move(*Extra);
  }
  return SO;
}

/// What the store knows of tests.
struct KnownTests {
  std::vector<std::string> Ids;
  std::vector<TestInfo> Infos;
  /// The tests of the coverage snapshot (the chosen one, else the newest).
  std::set<std::string> Recorded;
  /// The tests it holds as retired (gone at its commit), left out of Ids.
  std::set<std::string> Retired;
  std::vector<TestStatistics> Stats;
};

llvm::Expected<KnownTests>
knownTests(Store &S, const Plan &P,
           const std::optional<CoverageSnapshot> &Newest) {
  KnownTests K;
  std::optional<int64_t> MembersOf =
      P.Snapshot ? std::optional<int64_t>(P.Snapshot->Snapshot.Id)
                 : (Newest ? std::optional<int64_t>(Newest->Id) : std::nullopt);
  if (MembersOf) {
    auto Members = S.snapshotTests(*MembersOf);
    if (!Members)
      return Members.takeError();
    for (const TestRecord &T : *Members)
      K.Recorded.insert(T.Id);
    auto Gone = S.retiredTests(*MembersOf);
    if (!Gone)
      return Gone.takeError();
    K.Retired.insert(Gone->begin(), Gone->end());
  }
  // A retired test is gone at the snapshot's commit: no known test. A
  // change that brings it back defines it anew (addNew).
  auto Known = S.sharedTests();
  if (!Known)
    return Known.takeError();
  for (const TestRecord &T : **Known)
    if (!K.Retired.count(T.Id))
      K.Ids.push_back(T.Id);
  auto Infos = S.testInfos();
  if (!Infos)
    return Infos.takeError();
  K.Infos = std::move(*Infos);
  auto Stats = S.testStatistics();
  if (!Stats)
    return Stats.takeError();
  for (TestStatistics &T : *Stats)
    if (!K.Retired.count(T.Id))
      K.Stats.push_back(std::move(T));
  return K;
}

/// The head's test definitions (file, definition): the index's, with the
/// changed files' own.
llvm::Expected<Definitions> headDefinitions(Store &S, const Selection &C) {
  std::set<std::string> ChangedPaths;
  for (const ChangedFile &F : C.Files) {
    ChangedPaths.insert(F.Path);
    if (!F.OldPath.empty())
      ChangedPaths.insert(F.OldPath);
  }
  auto Indexed = S.currentTestDefinitions();
  if (!Indexed)
    return Indexed.takeError();
  Definitions Out;
  for (auto &Def : *Indexed)
    if (!ChangedPaths.count(Def.first))
      Out.push_back(std::move(Def));
  for (const TestFileChange &T : C.TestFiles)
    for (const TestDefinition &D : T.New)
      Out.push_back({T.Path, D});
  return Out;
}

/// Builds a plan's tests rule by rule (impacted, previously failing, new,
/// changed, every test on a fallback), then orders and budgets them.
class Planner {
public:
  Planner(const PolicyOptions &O, const Selection &C, const KnownTests &K,
          const Definitions &Defs)
      : O(O), C(C), K(K), Defs(Defs), Naming(K.Ids, K.Infos),
        AllIds(K.Ids.begin(), K.Ids.end()),
        OnlyPythonChanged(llvm::all_of(C.Elements, [](const ChangedElement &E) {
          return llvm::StringRef(E.Elem.Key).starts_with("py:");
        })) {
    for (const auto &[File, D] : Defs)
      Naming.learn(File, D);
  }

  /// Impacted: the engine's covering tests.
  void addImpacted() {
    std::set<size_t> NewBodies = newTestBodies();
    for (const SelectedTest &T : C.Tests) {
      // Gone, though its file reads or boundaries are still stored; if the
      // head defines it again, it is a new test (addNew).
      if (K.Retired.count(T.Id))
        continue;
      for (const Reason &R : T.Reasons)
        addImpactedBy(T.Id, R, NewBodies);
    }
  }

  /// Previously failing, unless the test is flaky (\p P lists those): a
  /// flaky failure says nothing about the code.
  llvm::Error addPreviouslyFailing(Store &S, Plan &P) {
    auto NewestRun = S.newestRunTime();
    if (!NewestRun)
      return NewestRun.takeError();
    auto Flaky =
        S.flakyTests(*NewestRun - int64_t(O.FlakyWindowDays) * 24 * 60 * 60);
    if (!Flaky)
      return Flaky.takeError();
    std::map<std::string, const FlakyTest *> FlakyById;
    for (const FlakyTest &F : *Flaky)
      FlakyById[F.TestId] = &F;
    for (const TestStatistics &T : K.Stats) {
      if (!isFailure(T.Last))
        continue;
      if (FlakyById.count(T.Id)) {
        P.FlakyFailing.push_back(*FlakyById[T.Id]);
        continue;
      }
      add(T.Id,
          {ReasonKind::PreviouslyFailing, NoIndex, NoIndex,
           "its latest result was " + outcomeName(T.Last).str() + " (run " +
               std::to_string(T.LastRun) +
               (T.LastCommit.empty() ? std::string()
                                     : " at " + shortId(T.LastCommit)) +
               ")",
           ""},
          false);
    }
    return llvm::Error::success();
  }

  /// Newly added: in the head, never seen by the coverage map.
  void addNew() {
    std::set<std::string> AddedInChange = testsAddedInChange();
    std::set<std::string> Seen;
    for (const auto &[File, D] : Defs) {
      auto [Ids, Derived] = Naming.ids(File, D);
      bool Added =
          AddedInChange.count(File + "\n" + D.Framework + ":" + D.Name);
      for (const std::string &Id : Ids) {
        AllIds.insert(Id);
        if (Derived)
          FromDefinitions.insert(Id);
        if (K.Recorded.count(Id) || !Seen.insert(Id).second)
          continue;
        // A Python test never covered is decided by static selection in
        // the static and combined modes; one added by this change still
        // runs.
        if (!Added && staticDecides(Id))
          continue;
        add(Id,
            {ReasonKind::NewTest, NoIndex, NoIndex,
             (Added ? "added in this change at " : "defined at ") + File + ":" +
                 std::to_string(D.BeginLine) +
                 (Added ? std::string() : std::string(", never covered")),
             File},
            Derived);
      }
    }
    for (const std::string &Id : K.Ids)
      if (!K.Recorded.count(Id) && !Seen.count(Id) && !staticDecides(Id))
        add(Id,
            {ReasonKind::NewTest, NoIndex, NoIndex,
             "no coverage recorded for it", ""},
            false);
  }

  /// Tests whose own code changed.
  void addChanged() {
    for (const TestFileChange &T : C.TestFiles)
      for (const TestDefinition &D : T.New) {
        auto Old = llvm::find_if(T.Old, [&](const TestDefinition &O) {
          return O.Framework == D.Framework && O.Name == D.Name;
        });
        if (Old == T.Old.end())
          continue; // a new test: addNew()
        if (!intersects(D, T.AddedLines) && !intersects(*Old, T.DeletedLines))
          continue;
        for (const std::string &Id : Naming.changedIds(T.Path, D)) {
          // A parametrized function's own node id is a runnable test too.
          AllIds.insert(Id);
          add(Id,
              {ReasonKind::ChangedTest, NoIndex, NoIndex,
               T.Path + ":" + lineRange(D.BeginLine, D.EndLine), T.Path},
              FromDefinitions.count(Id) != 0);
        }
      }
  }

  /// A fallback of scope "all": every test.
  void addEveryTestOnFallback() {
    if (!C.selectsAll())
      return;
    for (const std::string &Id : AllIds)
      for (size_t F = 0; F < C.Fallbacks.size(); ++F)
        if (C.Fallbacks[F].Scope == FallbackScope::All)
          add(Id, {ReasonKind::Fallback, NoIndex, F, "", "", Rule::Fallback},
              FromDefinitions.count(Id) != 0);
  }

  /// lit tests, known by their files (collect records each one's file): a
  /// change to the file selects its test, and a file the coverage map has
  /// no test of, beside known lit tests with its suffix or added below them
  /// (LitFolders::newTestsAt: surely, or guessed from the suite's suffixes),
  /// is a new test of their suite (lit runs every file of a suite's
  /// suffixes). A deleted file's test leaves the plan with the head's tests
  /// (keepHeadTests).
  void addLitTestFiles() {
    LitFolders Known(K.Infos);
    if (Known.empty())
      return;
    for (const ChangedFile &F : C.Files) {
      if (F.Status == git::ChangeStatus::Deleted)
        continue;
      for (const std::string &Id : Known.testsOf(F.Path))
        addChangedLitTest(Id, F.Path);
      // A file of no known test: a new test of each suite that would run
      // it, or the test of one whose file collect did not record (an older
      // tia).
      if (!Known.testsOf(F.Path).empty())
        continue;
      for (const NewLitTest &T : Known.newTestsAt(F.Path, F.Status)) {
        if (K.Recorded.count(T.Id)) {
          addChangedLitTest(T.Id, F.Path);
          continue;
        }
        AllIds.insert(T.Id);
        NewLitTestFiles.emplace(T.Id, F.Path);
        add(T.Id,
            {ReasonKind::NewTest, NoIndex, NoIndex,
             (F.Status == git::ChangeStatus::Modified ? "changed" : "added") +
                 std::string(" in this change at ") + F.Path +
                 (T.Guessed ? ", with a suffix of its suite's tests (lit may "
                              "run it as one)"
                            : ", a file lit runs as a test of its suite") +
                 ", never covered",
             F.Path},
            false);
      }
    }
  }

  /// Lit test \p Id, whose file \p Path changed; a retired test whose file
  /// the change brings back is a new test again.
  void addChangedLitTest(const std::string &Id, const std::string &Path) {
    bool Back = K.Retired.count(Id);
    if (Back)
      AllIds.insert(Id);
    add(Id,
        {Back ? ReasonKind::NewTest : ReasonKind::ChangedTest, NoIndex, NoIndex,
         "its file " + Path + (Back ? " is back in this change" : " changed"),
         Path},
        false);
  }

  /// C++ cases the change deleted (a definition of the old version of a
  /// test file that no file of the head defines): their ids leave the
  /// plan for Plan::Undefined. Their runners would skip an unknown name,
  /// but a selection should not count what cannot run.
  void dropDeletedCases(Plan &P) {
    std::set<std::string> Head;
    for (const auto &[File, D] : Defs)
      Head.insert(D.Framework + ":" + D.Name);
    std::set<std::string> Gone;
    for (const TestFileChange &T : C.TestFiles)
      for (const TestDefinition &D : T.Old)
        if (!Head.count(D.Framework + ":" + D.Name))
          for (const std::string &Id : Naming.knownCaseIds(D))
            Gone.insert(Id);
    for (const std::string &Id : Gone) {
      Tests.erase(Id);
      if (AllIds.erase(Id))
        P.Undefined.push_back(Id);
    }
  }

  /// Puts the tests into \p P in the order they run, within the budget,
  /// with those left out.
  void finish(Plan &P) {
    estimateEach();
    for (auto &[Id, T] : Tests)
      P.Selected.push_back(std::move(T));
    orderTests(P.Selected);
    applyBudget(P);
    P.TotalTests = AllIds.size();
    std::set<std::string> Chosen;
    for (const std::vector<PlannedTest> *List : {&P.Selected, &P.Cut})
      for (const PlannedTest &T : *List)
        Chosen.insert(T.Id);
    for (const std::string &Id : AllIds)
      if (!Chosen.count(Id))
        P.NotSelected.push_back(Id);
    addEnclosingCTests(P);
  }

private:
  /// The ctest test each lit test runs in: a known one's, as collect found
  /// it; a new one's, the ctest test that runs its folder whole.
  void addEnclosingCTests(Plan &P) const {
    for (const TestInfo &T : K.Infos)
      if (T.Command && !T.Command->EnclosingCTest.empty() && AllIds.count(T.Id))
        P.EnclosingCTests.emplace(T.Id, T.Command->EnclosingCTest);
    if (NewLitTestFiles.empty())
      return;
    CTestFolders Folders(K.Infos, AllIds);
    for (const auto &[Id, File] : NewLitTestFiles)
      if (std::optional<std::string> CTest = Folders.ctestRunning(Id, File))
        P.EnclosingCTests.emplace(Id, std::move(*CTest));
  }

  void add(const std::string &Id, TestReason R, bool FromDefinition) {
    PlannedTest &T = Tests[Id];
    if (T.Id.empty()) {
      T.Id = Id;
      T.FromDefinition = FromDefinition;
    }
    T.Reasons.push_back(std::move(R));
  }

  /// The changed elements that are the bodies of tests this change adds. A
  /// new test's body is run by its framework for that test alone: it takes
  /// no calls from the other tests' bodies, whatever its name.
  std::set<size_t> newTestBodies() const {
    std::set<size_t> Out;
    for (size_t I = 0; I < C.Elements.size(); ++I) {
      const ChangedElement &CE = C.Elements[I];
      if (CE.Change != ElementChange::Added)
        continue;
      for (const TestFileChange &T : C.TestFiles)
        if (T.Path == CE.Elem.File &&
            llvm::any_of(T.New, [&](const TestDefinition &D) {
              return D.BeginLine == CE.Elem.BeginLine &&
                     D.EndLine == CE.Elem.EndLine;
            }))
          Out.insert(I);
    }
    return Out;
  }

  void addImpactedBy(const std::string &TestId, const Reason &R,
                     const std::set<size_t> &NewBodies) {
    if (R.Element == NoIndex) {
      // A fallback scoped to some translation units.
      if (R.FallbackIndex != NoIndex &&
          C.Fallbacks[R.FallbackIndex].Scope != FallbackScope::All)
        add(TestId,
            {ReasonKind::Fallback, NoIndex, R.FallbackIndex, R.Via, "",
             R.Applied},
            false);
      return;
    }
    if (!R.Via.empty() && NewBodies.count(R.Element))
      return;
    bool Related = R.Applied == Rule::SameName || R.Applied == Rule::Override ||
                   (R.Applied == Rule::Covers && !R.Via.empty());
    // A parametrized pytest function that static analysis reached: its
    // known instances, and its own node id, which also runs instances the
    // change adds (their values may come from another file). The function
    // is no test of its own in the totals: its instances are.
    for (const std::string &Id : Naming.runnableIds(TestId)) {
      add(Id,
          {Related ? ReasonKind::Related : ReasonKind::Covers, R.Element,
           NoIndex, R.Via, "", R.Applied, R.By, R.Through, R.AtImport},
          false);
    }
  }

  /// "FILE\nFRAMEWORK:NAME" of each test this change adds.
  std::set<std::string> testsAddedInChange() const {
    std::set<std::string> Out;
    for (const TestFileChange &T : C.TestFiles)
      for (const TestDefinition &D : T.New)
        if (llvm::none_of(T.Old, [&](const TestDefinition &Old) {
              return Old.Framework == D.Framework && Old.Name == D.Name;
            }))
          Out.insert(T.Path + "\n" + D.Framework + ":" + D.Name);
    return Out;
  }

  /// True when static selection decides whether test \p Id runs, so that
  /// never having been covered does not select it. Python's static
  /// analysis sees only Python names: a change to a C++ element can reach a
  /// Python test through an extension module, so a never-covered Python
  /// test is then selected as new, as in coverage mode.
  bool staticDecides(llvm::StringRef Id) const {
    return (O.Select.Mode != SelectionMode::Coverage && OnlyPythonChanged &&
            Id.starts_with("pytest:")) ||
           C.GraphDecided.count(Id.str()) != 0;
  }

  /// What orders the tests: the changed elements each covers, whether it
  /// failed last, its failure rate and its mean duration (unknown: the
  /// median of the known ones).
  void estimateEach() {
    std::map<std::string, const TestStatistics *> StatsOf;
    std::vector<double> Means;
    for (const TestStatistics &T : K.Stats) {
      StatsOf[T.Id] = &T;
      if (T.TimedResults)
        Means.push_back(T.MeanSeconds);
    }
    std::sort(Means.begin(), Means.end());
    double Estimate = Means.empty() ? 1.0 : Means[Means.size() / 2];
    for (auto &[Id, T] : Tests) {
      std::set<size_t> Elements;
      for (const TestReason &R : T.Reasons)
        if (R.Element != NoIndex)
          Elements.insert(R.Element);
      T.ChangedElementsCovered = Elements.size();
      T.PreviouslyFailing = T.has(ReasonKind::PreviouslyFailing);
      T.Seconds = Estimate;
      auto It = StatsOf.find(Id);
      if (It == StatsOf.end())
        continue;
      const TestStatistics &St = *It->second;
      T.FailureRate = St.Results ? double(St.Failures) / St.Results : 0;
      if (St.TimedResults) {
        T.Seconds = St.MeanSeconds;
        T.SecondsKnown = true;
      }
    }
  }

  const PolicyOptions &O;
  const Selection &C;
  const KnownTests &K;
  const Definitions &Defs;
  DefinitionIds Naming;
  std::map<std::string, PlannedTest> Tests;
  /// Every test there is: the known ones, then those of the definitions.
  std::set<std::string> AllIds;
  /// The ids made up from a definition, for no known test matched it.
  std::set<std::string> FromDefinitions;
  /// The new lit tests (addLitTestFiles), with their files.
  std::map<std::string, std::string> NewLitTestFiles;
  /// Every changed element is Python's.
  bool OnlyPythonChanged;
};

} // namespace

llvm::Expected<Plan> plan(git::Repository &Repo, Store &S,
                          const PolicyOptions &O) {
  auto Base = Repo.resolveCommit(O.Select.Base);
  if (!Base)
    return Base.takeError();
  auto Head = headOf(Repo, O);
  if (!Head)
    return Head.takeError();

  Plan P;
  P.Limits = O.Limits;
  auto Problems = requestedFallbacks(Repo, O, *Head);
  if (!Problems)
    return Problems.takeError();
  std::optional<CoverageSnapshot> Newest;
  SnapshotChooser Chooser(Repo, S, O, *Base, *Head);
  if (llvm::Error E = Chooser.choose(P, *Problems, Newest))
    return E;

  auto SO = engineOptions(S, O, P, *Problems);
  if (!SO)
    return SO.takeError();
  auto Sel = selectTests(Repo, S, *SO);
  if (!Sel)
    return Sel.takeError();
  P.Changes = std::move(*Sel);
  // What concerns the whole selection comes before what one file caused.
  P.Changes.prependFallbacks(*Problems);

  auto Known = knownTests(S, P, Newest);
  if (!Known)
    return Known.takeError();
  auto Defs = headDefinitions(S, P.Changes);
  if (!Defs)
    return Defs.takeError();
  Planner Build(O, P.Changes, *Known, *Defs);
  Build.addImpacted();
  if (llvm::Error E = Build.addPreviouslyFailing(S, P))
    return E;
  Build.addNew();
  Build.addChanged();
  Build.addLitTestFiles();
  Build.addEveryTestOnFallback();
  Build.dropDeletedCases(P);
  Build.finish(P);
  if (llvm::Error E = keepHeadTests(Repo, S, *Defs, P))
    return E;
  P.Quiet = quietChange(P.Changes);
  return P;
}

std::vector<std::string> Plan::skippedIds() const {
  std::vector<std::string> Out = NotSelected;
  for (const PlannedTest &T : Cut)
    Out.push_back(T.Id);
  llvm::sort(Out);
  return Out;
}

} // namespace select
} // namespace tia
