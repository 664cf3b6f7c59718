//===- Incremental.cpp - a map updated by what a change affects -----------===//

#include "tia/Select/Incremental.h"
#include "tia/Git/Repository.h"
#include "tia/Select/Request.h"
#include "tia/Support/CommitId.h"
#include "tia/Support/Plural.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include <map>

namespace tia {
namespace select {

namespace {

/// Why \p P cannot leave any test's coverage as it is; empty when it can.
std::string whyEverything(const Plan &P) {
  for (const Fallback &F : P.Changes.Fallbacks)
    if (F.Scope == FallbackScope::All)
      return fallbackName(F.Kind).str() + ": " +
             (F.Detail.empty() ? F.File : F.Detail);
  if (!P.Snapshot)
    return "no coverage snapshot to update";
  // A cut selection leaves out tests the change affects: their coverage
  // must not be carried over.
  if (P.partial())
    return "the selection was cut by a budget";
  return "";
}

bool neverCovered(const PlannedTest &T) {
  return llvm::any_of(T.Reasons, [](const TestReason &R) {
    return R.Kind == ReasonKind::NewTest;
  });
}

} // namespace

IncrementalCollect incrementalCollect(const Plan &P) {
  IncrementalCollect C;
  C.FullBecause = whyEverything(P);
  if (C.full())
    return C;
  C.Selected = P.Selected.size();
  C.NeverCovered = llvm::count_if(P.Selected, neverCovered);
  C.Carry.insert(P.NotSelected.begin(), P.NotSelected.end());
  // A selected pytest function runs its instances ("f[1]"), whatever ids
  // they were recorded under.
  for (const PlannedTest &T : P.Selected)
    for (auto It = C.Carry.lower_bound(T.Id + "[");
         It != C.Carry.end() && llvm::StringRef(*It).starts_with(T.Id + "[");)
      It = C.Carry.erase(It);
  C.CheckedSince = P.Snapshot->DiffFrom;
  C.Snapshot = P.Snapshot->Snapshot.Id;
  return C;
}

llvm::Error measureCarriedAge(const git::Repository &Repo, Store &S,
                              llvm::StringRef Head, IncrementalCollect &C) {
  if (C.full())
    return llvm::Error::success();
  auto Stats = S.testStatistics();
  if (!Stats)
    return Stats.takeError();
  std::map<std::string, unsigned> Behind; // commit -> commits to Head
  for (const TestStatistics &T : *Stats) {
    if (!C.Carry.count(T.Id) || T.LastCommit.empty())
      continue;
    auto [It, New] = Behind.emplace(T.LastCommit, 0);
    if (!New)
      continue;
    auto N = Repo.hasCommit(T.LastCommit)
                 ? Repo.countCommits(T.LastCommit, Head)
                 : llvm::Expected<unsigned>(0u);
    if (!N)
      return N.takeError();
    It->second = *N;
    if (C.OldestRun.empty() || *N > C.CommitsBehind) {
      C.OldestRun = T.LastCommit;
      C.CommitsBehind = *N;
    }
  }
  return llvm::Error::success();
}

std::string incrementalIntent(const IncrementalCollect &C) {
  if (C.full())
    return "incremental: every test runs (" + C.FullBecause + ")";
  return llvm::formatv("incremental: {0} test{1} selected by the changes "
                       "since {2} ({3} never covered); the other {4} keep "
                       "their coverage",
                       C.Selected, pluralS(C.Selected), shortId(C.CheckedSince),
                       C.NeverCovered, C.Carry.size())
      .str();
}

std::string incrementalSummary(const IncrementalCollect &C, unsigned Carried,
                               unsigned LeftOut, bool Sharded) {
  if (C.full())
    return "; incremental: every test ran";
  // The age is of coverage carried over or kept: none when every test ran.
  std::string Age;
  if (!C.OldestRun.empty() && (Carried || LeftOut))
    Age = llvm::formatv(" (the oldest last ran at {0}, {1} commit{2} back)",
                        shortId(C.OldestRun), C.CommitsBehind,
                        pluralS(C.CommitsBehind))
              .str();
  std::string Kept =
      Sharded ? llvm::formatv("{0} not run, their coverage kept as it was for "
                              "the merge{1}",
                              LeftOut, Age)
                    .str()
              : llvm::formatv("{0} carried over{1}", Carried, Age).str();
  return llvm::formatv("; {0}, {1} never covered", Kept, C.NeverCovered).str();
}

llvm::Expected<IncrementalCollect>
planIncrementalCollect(const config::Workspace &W, llvm::StringRef BuildDir,
                       llvm::StringRef ResourceDir) {
  Request R;
  R.Base = "HEAD";
  R.Head = "HEAD";
  R.Mode = SelectionMode::Coverage;
  // A budget would cut tests the change affects: the whole selection runs.
  R.MaxTests = 0;
  R.TimeBudget = 0;
  // Compile commands that changed since the index select what they build.
  if (!BuildDir.empty() &&
      llvm::sys::fs::exists(BuildDir + "/compile_commands.json"))
    R.BuildDir = BuildDir.str();
  R.ResourceDir = ResourceDir.str();
  // The selection takes a workspace of its own, read afresh as any
  // selection's is.
  auto Fresh = config::findWorkspace(W.WorkingDir, W.DbPath, /*NeedGit=*/false);
  if (!Fresh)
    return Fresh.takeError();
  auto Made = planRequest(std::move(*Fresh), R);
  if (!Made)
    return Made.takeError();
  IncrementalCollect Update = incrementalCollect(Made->Plan);
  if (llvm::Error E =
          measureCarriedAge(*Made->Ctx.Repo, *Made->DB, "HEAD", Update))
    return E;
  return Update;
}

} // namespace select
} // namespace tia
