//===- Merge.cpp - shard databases into one -------------------------------===//
//
// A share's database holds more than its share: collect shards run on
// copies of the whole index, and a shard made on a copy of the main
// database carries that database's history. So merge copies what each
// share *did*, named by its shard record: an index share's translation
// units, a collection share's run (its results name the tests it ran) and,
// for those tests, the coverage recorded at the shards' commit. Everything
// goes through the Store's everyday writers (putFileIndex unites the
// elements of a header that several translation units saw), so a merged
// database is written the way one unsharded run writes it.
//
//===----------------------------------------------------------------------===//

#include "tia/Store/Merge.h"
#include "tia/Support/CommitId.h"
#include "tia/Support/Error.h"
#include "tia/Support/Progress.h"
#include "tia/Support/Shard.h"
#include <algorithm>
#include <functional>
#include <optional>
#include <tuple>

namespace tia {
namespace merge {

//===----------------------------------------------------------------------===//
// Matching the shares
//===----------------------------------------------------------------------===//

namespace {

std::string commitText(llvm::StringRef Commit) {
  return Commit.empty() ? std::string("(no commit)") : shortId(Commit);
}

/// Starts the shares of \p R's kind from \p R's plan.
llvm::Expected<KindShares> startKind(const ShardRecord &R,
                                     llvm::StringRef Path) {
  auto Plan = shard::parsePlanText(R.Plan, R.N);
  if (!Plan)
    return makeErrorf("{0}: its shard record of {1} does not read ({2}): run "
                      "that shard again",
                      Path, R.Kind, llvm::toString(Plan.takeError()));
  KindShares KS;
  KS.Kind = R.Kind;
  KS.N = R.N;
  KS.PlanHash = R.PlanHash;
  KS.Commit = R.Commit;
  for (const auto &[Unit, Share] : Plan->Units)
    KS.Units.push_back(Unit);
  for (unsigned K = 1; K <= R.N; ++K)
    KS.Missing.push_back({R.Kind, K, R.N, Plan->unitsOf(K)});
  return KS;
}

/// Checks that \p R belongs with the shares seen so far.
llvm::Error checkFits(const ShardRecord &R, llvm::StringRef Path,
                      const KindShares &KS, llvm::StringRef FirstPath,
                      const std::vector<InputRecords> &Inputs) {
  if (R.N != KS.N || R.PlanHash != KS.PlanHash)
    return makeErrorf(
        "{0} holds shard {1}/{2} of {3} (plan {4}), but {5} holds one of "
        "{6} shares (plan {7}): run every shard with the same --shard N, "
        "--balance-from database and inputs",
        Path, R.K, R.N, R.Kind, llvm::StringRef(R.PlanHash).take_front(12),
        FirstPath, KS.N, llvm::StringRef(KS.PlanHash).take_front(12));
  auto Holder = KS.Holders.find(R.K);
  if (Holder != KS.Holders.end())
    return makeErrorf("{0} and {1} both hold shard {2}/{3} of {4}: keep one "
                      "of them",
                      Inputs[Holder->second].Path, Path, R.K, R.N, R.Kind);
  return llvm::Error::success();
}

} // namespace

/// Refuses an input that collected coverage on its own share of the index
/// (an older tia let it): the links to the other shares' code are lost,
/// and no merge can bring them back.
static llvm::Error checkCoverageOnWholeIndex(const InputRecords &In) {
  const ShardRecord *Index = nullptr, *Coverage = nullptr;
  for (const ShardRecord &R : In.Records)
    if (R.Kind == "index" && R.N > 1)
      Index = &R;
    else if (R.Kind != "index")
      Coverage = &R;
  if (!Index || !Coverage)
    return llvm::Error::success();
  return makeErrorf(
      "{0} holds coverage collected on share {1}/{2} of the index, which lost "
      "its links to the code of the other shares: merge the index shares "
      "first, then collect on copies of the merged database (docs/CI.md, "
      "\"Sharded collection\")",
      In.Path, Index->K, Index->N);
}

llvm::Expected<ShareMatch> matchShares(const std::vector<InputRecords> &Inputs,
                                       int64_t Schema) {
  ShareMatch M;
  std::map<std::string, KindShares> Kinds;
  std::map<std::string, std::string> FirstPathOf; // kind -> first holder
  std::map<std::string, size_t> Seen;             // path -> first input
  std::string CommitPath;
  for (size_t I = 0; I < Inputs.size(); ++I) {
    const InputRecords &In = Inputs[I];
    if (!Seen.emplace(In.Path, I).second) {
      M.Repeated.insert(I);
      continue;
    }
    if (In.Records.empty())
      return makeErrorf("{0} is no shard: it holds no record of a --shard "
                        "K/N run; merge takes the databases of 'tia index', "
                        "'tia collect' or 'tia collect --pytest' run with "
                        "--shard (a whole database goes first, as OUT)",
                        In.Path);
    if (llvm::Error E = checkCoverageOnWholeIndex(In))
      return E;
    for (const ShardRecord &R : In.Records) {
      if (R.Schema != Schema)
        return makeErrorf("{0} was written by another tia (schema {1}, this "
                          "tia writes {2}): run the shards and the merge with "
                          "the same tia",
                          In.Path, R.Schema, Schema);
      if (CommitPath.empty()) {
        CommitPath = In.Path;
        M.Commit = R.Commit;
      } else if (R.Commit != M.Commit) {
        return makeErrorf("{0} holds shard {1}/{2} of {3} done at commit {4}, "
                          "but {5} was done at {6}: merge the shards of one "
                          "commit (run the others again at it)",
                          In.Path, R.K, R.N, R.Kind, commitText(R.Commit),
                          CommitPath, commitText(M.Commit));
      }
      auto It = Kinds.find(R.Kind);
      if (It == Kinds.end()) {
        auto KS = startKind(R, In.Path);
        if (!KS)
          return KS.takeError();
        It = Kinds.emplace(R.Kind, std::move(*KS)).first;
        FirstPathOf[R.Kind] = In.Path;
      } else if (llvm::Error E = checkFits(R, In.Path, It->second,
                                           FirstPathOf[R.Kind], Inputs)) {
        return E;
      }
      It->second.Holders[R.K] = I;
    }
  }
  for (auto &Entry : Kinds) {
    // A lambda may not capture a structured binding before C++20.
    KindShares &KS = Entry.second;
    llvm::erase_if(KS.Missing, [&](const MissingShare &S) {
      return KS.Holders.count(S.K) != 0;
    });
    M.Kinds.push_back(std::move(KS));
  }
  return M;
}

//===----------------------------------------------------------------------===//
// Copying what the shares did
//===----------------------------------------------------------------------===//

namespace {

const KindShares *findKind(const ShareMatch &M, llvm::StringRef Kind) {
  for (const KindShares &KS : M.Kinds)
    if (KS.Kind == Kind)
      return &KS;
  return nullptr;
}

/// The inputs to copy, each once: index shares first, then collection
/// shares, each kind by K, so that the order the files were given in
/// does not matter.
std::vector<size_t> inputsInOrder(const ShareMatch &M) {
  std::vector<size_t> Order;
  auto Add = [&](const KindShares &KS) {
    for (const auto &[K, I] : KS.Holders)
      if (llvm::find(Order, I) == Order.end())
        Order.push_back(I);
  };
  if (const KindShares *Index = findKind(M, "index"))
    Add(*Index);
  for (const KindShares &KS : M.Kinds)
    Add(KS);
  return Order;
}

/// Copies every file version of \p In, with its elements, tests,
/// references, includes and Python graph. An index share's versions are
/// all copied (a header parsed in other translation units may hold other
/// elements); a collection share holds a copy of the one index, so what an
/// earlier input of this merge copied is not read again.
llvm::Error copyFileVersions(Store &Out, Store &In, bool IndexShare,
                             std::set<FileVersionRef> &Copied) {
  auto Versions = In.fileVersions();
  if (!Versions)
    return Versions.takeError();
  for (const auto &[Path, Hash] : *Versions) {
    if (!IndexShare && Copied.count({Path, Hash}))
      continue;
    auto F = In.getFileIndex(Path, Hash);
    if (!F)
      return F.takeError();
    if (!*F)
      continue;
    if ((*F)->Python) {
      auto Graph = In.getPythonGraph(Path, Hash);
      if (!Graph)
        return Graph.takeError();
      if (*Graph && (*Graph)->Python) {
        (*F)->Python->Nodes = std::move((*Graph)->Python->Nodes);
        (*F)->Python->Bindings = std::move((*Graph)->Python->Bindings);
      }
    }
    if (llvm::Error E = Out.putFileIndex(**F))
      return E;
    Copied.insert({Path, Hash});
  }
  return llvm::Error::success();
}

/// The units of share \p K of \p KS.
std::set<std::string> unitsOfShare(const KindShares &KS, unsigned K,
                                   const std::vector<Input> &Inputs) {
  std::set<std::string> Units;
  for (const ShardRecord &R : Inputs[KS.Holders.at(K)].Records) {
    if (R.Kind != KS.Kind)
      continue;
    auto Plan = shard::parsePlanText(R.Plan, R.N);
    if (!Plan) {
      llvm::consumeError(Plan.takeError()); // matchShares read it.
      continue;
    }
    for (const std::string &U : Plan->unitsOf(K))
      Units.insert(U);
  }
  return Units;
}

/// With index shares, each share's own translation units replace Out's,
/// and a translation unit of no share (gone from the build) is forgotten.
/// Without, the inputs' translation units (copies of one index) are put
/// once each.
llvm::Error copyTranslationUnits(Store &Out, std::vector<Input> &Inputs,
                                 const ShareMatch &M, MergeSummary &Sum) {
  const KindShares *Index = findKind(M, "index");
  std::set<std::string> Put;
  for (size_t I : inputsInOrder(M)) {
    std::set<std::string> Mine;
    bool Shard = false;
    if (Index)
      for (const auto &[K, Holder] : Index->Holders)
        if (Holder == I) {
          Mine = unitsOfShare(*Index, K, Inputs);
          Shard = true;
        }
    if (Index && !Shard)
      continue;
    auto TUs = Inputs[I].S->translationUnits();
    if (!TUs)
      return TUs.takeError();
    for (const StoredTranslationUnit &TU : *TUs) {
      if ((Index && !Mine.count(TU.Path)) || !Put.insert(TU.Path).second)
        continue;
      if (llvm::Error E = Out.putTranslationUnit(TU))
        return E;
      ++Sum.TranslationUnits;
    }
  }
  if (!Index)
    return llvm::Error::success();
  std::set<std::string> Planned(Index->Units.begin(), Index->Units.end());
  auto Stored = Out.translationUnits();
  if (!Stored)
    return Stored.takeError();
  for (const StoredTranslationUnit &TU : *Stored)
    if (!Planned.count(TU.Path))
      if (llvm::Error E = Out.removeTranslationUnit(TU.Path))
        return E;
  return llvm::Error::success();
}

/// Adds one revision knowing the files of every input's latest revision
/// (of the index shares only, when there are any), at the shards' commit.
llvm::Error addMergedRevision(Store &Out, std::vector<Input> &Inputs,
                              const ShareMatch &M) {
  const KindShares *Index = findKind(M, "index");
  std::map<std::string, std::string> Files;
  bool Dirty = false, Any = false;
  for (size_t I : inputsInOrder(M)) {
    if (Index && llvm::none_of(Index->Holders,
                               [&](const auto &H) { return H.second == I; }))
      continue;
    auto Rev = Inputs[I].S->currentRevision();
    if (!Rev)
      return Rev.takeError();
    if (!*Rev)
      continue;
    Any = true;
    Dirty |= (*Rev)->Dirty;
    for (const auto &[Path, Hash] : (*Rev)->Files)
      Files.emplace(Path, Hash);
  }
  if (!Any)
    return llvm::Error::success();
  auto Current = Out.currentRevision();
  if (!Current)
    return Current.takeError();
  std::vector<FileVersionRef> List(Files.begin(), Files.end());
  if (*Current && (*Current)->Commit == M.Commit &&
      (*Current)->Dirty == Dirty && (*Current)->Files == List)
    return llvm::Error::success(); // Out already is that index.
  return Out.addRevision(M.Commit, Dirty, List).takeError();
}

/// The compilation database the merged index holds whole: the one every
/// index share covered its share of, when no share is missing. Otherwise
/// none, also over what Out recorded before: a file no merged unit reads
/// may then be read by a missing share's, so it is not outside the build.
llvm::Error recordWholeCompileDatabase(Store &Out, std::vector<Input> &Inputs,
                                       const ShareMatch &M) {
  const KindShares *Index = findKind(M, "index");
  if (!Index)
    return llvm::Error::success(); // the index is Out's own
  std::optional<std::string> Whole;
  if (Index->Missing.empty())
    for (const auto &[K, I] : Index->Holders) {
      auto Share = Inputs[I].S->shareOfCompileDatabase();
      if (!Share)
        return Share.takeError();
      if (!*Share || (Whole && *Whole != **Share)) {
        Whole.reset();
        break;
      }
      Whole = **Share;
    }
  return Out.setCompileDatabaseFingerprint(Whole);
}

/// The index's settings and the Python critical names, from the first
/// input that has them (index share 1 holds every Python file).
llvm::Error copyIndexSettings(Store &Out, std::vector<Input> &Inputs,
                              const ShareMatch &M) {
  if (llvm::Error E = recordWholeCompileDatabase(Out, Inputs, M))
    return E;
  bool Critical = false;
  for (size_t I : inputsInOrder(M)) {
    if (llvm::Error E = Out.copyIndexSettings(*Inputs[I].S))
      return E;
    if (Critical)
      continue;
    auto Names = Inputs[I].S->criticalNames();
    if (!Names)
      return Names.takeError();
    if (Names->empty())
      continue;
    Critical = true;
    if (llvm::Error E = Out.putCriticalNames(*Names))
      return E;
  }
  return llvm::Error::success();
}

/// The run a collection share recorded, and the tests it ran.
struct ShareRun {
  RunRecord Run;
  std::vector<TestResult> Results;
  std::set<std::string> Tests;
};

llvm::Expected<ShareRun> shareRun(Store &In, const ShardRecord &R) {
  ShareRun SR;
  auto Runs = In.runs();
  if (!Runs)
    return Runs.takeError();
  for (const RunRecord &Run : *Runs)
    if (Run.Id == R.RunId)
      SR.Run = Run;
  auto Results = In.resultsOfRun(R.RunId);
  if (!Results)
    return Results.takeError();
  SR.Results = std::move(*Results);
  for (const TestResult &T : SR.Results)
    SR.Tests.insert(T.TestId);
  return SR;
}

/// Copies, for each test \p SR ran, its coverage recorded at \p Commit, its

/// Copies the boundaries \p In recorded for \p Tests, with the sources of
/// the objects they name.
llvm::Error copyBoundaries(Store &In, Store &Out,
                           const std::set<std::string> &Tests) {
  auto All = In.boundaries();
  if (!All)
    return All.takeError();
  std::set<std::string> Objects;
  for (const TestBoundaries &B : *All) {
    if (!Tests.count(B.TestId))
      continue;
    if (llvm::Error E = Out.putBoundaries(B))
      return E;
    for (const Boundary &O : B.Objects)
      Objects.insert(O.Object);
  }
  for (const std::string &Object : Objects) {
    auto Sources = In.boundarySources(Object);
    if (!Sources)
      return Sources.takeError();
    if (llvm::Error E = Out.putBoundarySources(Object, *Sources))
      return E;
  }
  return llvm::Error::success();
}

/// info and the files it read at that commit.
llvm::Error copyTestsRun(Store &Out, Store &In, const ShareRun &SR,
                         llvm::StringRef Commit, MergeSummary &Sum) {
  auto Copied = Out.copyCoverage(In, SR.Tests, Commit);
  if (!Copied)
    return Copied.takeError();
  Sum.CoveredTests += *Copied;
  auto Infos = In.testInfos();
  if (!Infos)
    return Infos.takeError();
  for (const TestInfo &Info : *Infos)
    if (SR.Tests.count(Info.Id) && (!Info.File.empty() || Info.Command))
      if (llvm::Error E = Out.putTestInfo(Info))
        return E;
  auto Reads = In.fileReads();
  if (!Reads)
    return Reads.takeError();
  for (const FileReads &R : *Reads)
    if (SR.Tests.count(R.TestId) && R.Commit == Commit)
      if (llvm::Error E = Out.putFileReads(R))
        return E;
  return copyBoundaries(In, Out, SR.Tests);
}

/// Adds to \p United the Python runtime evidence \p In recorded at
/// \p Commit for the test files of its share.
llvm::Error gatherEvidence(Store &In, llvm::StringRef Commit,
                           const std::set<std::string> &TestFiles,
                           std::optional<RuntimeEvidence> &United) {
  auto Evidence = In.runtimeEvidence();
  if (!Evidence)
    return Evidence.takeError();
  for (RuntimeEvidence &E : *Evidence) {
    if (E.Commit != Commit ||
        llvm::none_of(E.TestFiles,
                      [&](const std::string &F) { return TestFiles.count(F); }))
      continue;
    if (!United) {
      United = RuntimeEvidence();
      United->Commit = E.Commit;
    }
    United->Isolated = United->Isolated && E.Isolated;
    llvm::append_range(United->TestFiles, E.TestFiles);
    llvm::append_range(United->Probed, E.Probed);
    llvm::append_range(United->Accesses, E.Accesses);
  }
  return llvm::Error::success();
}

/// Puts the evidence of every share as one run's, as one unsharded run
/// records it: each test file ran in a process of its own either way, so
/// what ran outside the tests ("*") is what some process ran.
llvm::Error putUnitedEvidence(Store &Out,
                              std::optional<RuntimeEvidence> &United) {
  if (!United)
    return llvm::Error::success();
  auto SortUnique = [](auto &V, auto Less, auto Equal) {
    llvm::sort(V, Less);
    V.erase(std::unique(V.begin(), V.end(), Equal), V.end());
  };
  SortUnique(United->TestFiles, std::less<>(), std::equal_to<>());
  SortUnique(United->Probed, std::less<>(), std::equal_to<>());
  auto Tie = [](const RuntimeEvidence::Access &A) {
    return std::tie(A.Scope, A.Kind, A.Value);
  };
  SortUnique(
      United->Accesses,
      [&](const auto &A, const auto &B) { return Tie(A) < Tie(B); },
      [&](const auto &A, const auto &B) { return Tie(A) == Tie(B); });
  return Out.putRuntimeEvidence(*United);
}

/// Adds every test \p In knows that Out does not, without coverage: a
/// test no share ran stays known.
llvm::Error addKnownTests(Store &Out, Store &In) {
  auto Tests = In.tests();
  if (!Tests)
    return Tests.takeError();
  for (const TestRecord &T : *Tests)
    if (llvm::Error E = Out.addTest(T.Id))
      return E;
  return llvm::Error::success();
}

/// One run in Out with the results of every share of \p KS, and what
/// those shares' tests recorded.
llvm::Error mergeCollection(Store &Out, std::vector<Input> &Inputs,
                            const KindShares &KS, MergeSummary &Sum) {
  std::vector<TestResult> Results;
  std::optional<RuntimeEvidence> Evidence;
  int64_t StartedAt = 0;
  std::string Source;
  for (const auto &[K, I] : KS.Holders) {
    Store &In = *Inputs[I].S;
    for (const ShardRecord &R : Inputs[I].Records) {
      if (R.Kind != KS.Kind)
        continue;
      auto SR = shareRun(In, R);
      if (!SR)
        return SR.takeError();
      if (StartedAt == 0 ||
          (SR->Run.StartedAt && SR->Run.StartedAt < StartedAt))
        StartedAt = SR->Run.StartedAt;
      if (Source.empty())
        Source = SR->Run.Source;
      llvm::append_range(Results, SR->Results);
      if (llvm::Error E = copyTestsRun(Out, In, *SR, KS.Commit, Sum))
        return E;
      if (KS.Kind == "pytest")
        if (llvm::Error E = gatherEvidence(
                In, KS.Commit, unitsOfShare(KS, K, Inputs), Evidence))
          return E;
    }
    if (llvm::Error E = addKnownTests(Out, In))
      return E;
  }
  if (llvm::Error E = putUnitedEvidence(Out, Evidence))
    return E;
  auto Run =
      Out.addRun(KS.Commit, Source.empty() ? "collect" : Source, StartedAt);
  if (!Run)
    return Run.takeError();
  ++Sum.Runs;
  Sum.Results += Results.size();
  return Out.putResults(*Run, Results);
}

/// The tests of missing collect shares, added without coverage: selection
/// runs a known test without coverage as never covered. (A missing pytest
/// share's tests are defined in the index's test files, which selection
/// reads the same way.)
llvm::Error addMissingTests(Store &Out, const KindShares &KS,
                            MergeSummary &Sum) {
  if (KS.Kind != "collect")
    return llvm::Error::success();
  for (const MissingShare &S : KS.Missing)
    for (const std::string &Id : S.Units) {
      if (llvm::Error E = Out.addTest(Id))
        return E;
      ++Sum.UncoveredTests;
    }
  return llvm::Error::success();
}

/// The tests \p In retired at \p Commit: those its snapshot there holds as
/// retired and the snapshot before it did not. A mark inherited from the
/// database the share was copied from is that database's to keep, not the
/// share's to carry: the test may have come back since.
llvm::Error gatherRetired(Store &In, llvm::StringRef Commit,
                          std::set<std::string> &Retired) {
  auto Snapshots = In.coverageSnapshots(); // newest first
  if (!Snapshots)
    return Snapshots.takeError();
  for (size_t I = 0; I < Snapshots->size(); ++I) {
    if ((*Snapshots)[I].Commit != Commit)
      continue;
    auto Ids = In.retiredTests((*Snapshots)[I].Id);
    if (!Ids)
      return Ids.takeError();
    std::vector<std::string> Before;
    if (I + 1 < Snapshots->size()) {
      auto Older = In.retiredTests((*Snapshots)[I + 1].Id);
      if (!Older)
        return Older.takeError();
      Before = std::move(*Older);
    }
    for (const std::string &Id : *Ids)
      if (!llvm::is_contained(Before, Id))
        Retired.insert(Id);
    break;
  }
  return llvm::Error::success();
}

/// Carries the retirement of gone tests from a C++ collect's shares: each
/// share discovers every test before it keeps its own, so each finds the
/// same tests gone and retires them in its database (gatherRetired). A test
/// the shares' plan names exists at the commit, whichever share (or none)
/// ran it, and stays.
llvm::Error carryRetired(Store &Out, std::vector<Input> &Inputs,
                         const KindShares &KS, MergeSummary &Sum) {
  if (KS.Kind != "collect")
    return llvm::Error::success();
  std::set<std::string> Retired;
  for (const auto &[K, I] : KS.Holders)
    if (llvm::Error E = gatherRetired(*Inputs[I].S, KS.Commit, Retired))
      return E;
  for (const std::string &Unit : KS.Units)
    Retired.erase(Unit);
  Sum.RetiredTests = Retired.size();
  return Out.retireTests(KS.Commit, {Retired.begin(), Retired.end()});
}

} // namespace

llvm::Expected<MergeSummary> mergeInto(Store &Out, std::vector<Input> &Inputs,
                                       const ShareMatch &Match,
                                       Progress &Prog) {
  MergeSummary Sum;
  std::set<FileVersionRef> Copied;
  llvm::Error E = Out.transaction([&]() -> llvm::Error {
    const KindShares *Index = findKind(Match, "index");
    for (size_t I : inputsInOrder(Match)) {
      bool IndexShare =
          Index && llvm::any_of(Index->Holders,
                                [&](const auto &H) { return H.second == I; });
      if (llvm::Error E =
              copyFileVersions(Out, *Inputs[I].S, IndexShare, Copied))
        return E;
      ++Sum.Shares;
      Prog.step(Inputs[I].Path);
    }
    Sum.FileVersions = Copied.size();
    if (llvm::Error E = copyTranslationUnits(Out, Inputs, Match, Sum))
      return E;
    if (llvm::Error E = addMergedRevision(Out, Inputs, Match))
      return E;
    if (llvm::Error E = copyIndexSettings(Out, Inputs, Match))
      return E;
    for (const KindShares &KS : Match.Kinds) {
      if (KS.Kind == "index")
        continue;
      if (llvm::Error E = mergeCollection(Out, Inputs, KS, Sum))
        return E;
      if (llvm::Error E = addMissingTests(Out, KS, Sum))
        return E;
      // Last: retiring reads the snapshot the copied coverage made.
      if (llvm::Error E = carryRetired(Out, Inputs, KS, Sum))
        return E;
    }
    // The merged database is no shard (a missing share is told, and its
    // work is selected as never done).
    return Out.clearShardRecords();
  });
  if (E)
    return E;
  return Sum;
}

} // namespace merge
} // namespace tia
