//===- Rank.cpp - ordering a change's tests by failure probability --------===//

#include "PredictInternal.h"
#include "tia/Support/Error.h"
#include <algorithm>
#include <cmath>
#include <numeric>

namespace tia {
namespace predict {

namespace {

/// The stored model, or why there is none to use.
struct Loaded {
  std::optional<ModelMeta> Meta;
  std::optional<Booster> B;
  int64_t Id = 0, CreatedAt = 0;
  std::string Why;
};

llvm::Expected<Loaded> loadModel(Store &S) {
  Loaded L;
  auto Stored = S.latestModel();
  if (!Stored)
    return Stored.takeError();
  if (!*Stored) {
    L.Why = "no model in the database (run 'tia train')";
    return L;
  }
  if ((*Stored)->FormatVersion != ModelFormatVersion) {
    L.Why = llvm::formatv("the stored model #{0} has format {1}, this tia "
                          "reads format {2} (run 'tia train' again)",
                          (*Stored)->Id, (*Stored)->FormatVersion,
                          ModelFormatVersion)
                .str();
    return L;
  }
  auto Meta = decodeMeta((*Stored)->Metadata);
  if (!Meta) {
    L.Why = llvm::toString(Meta.takeError());
    return L;
  }
  auto B = Booster::load((*Stored)->Booster);
  if (!B) {
    L.Why = llvm::toString(B.takeError()) + " (run 'tia train' again)";
    return L;
  }
  L.Meta = std::move(*Meta);
  L.B.emplace(std::move(*B));
  L.Id = (*Stored)->Id;
  L.CreatedAt = (*Stored)->CreatedAt;
  return L;
}

} // namespace

llvm::StringMap<Evidence> evidenceFrom(const select::Selection &Sel) {
  llvm::StringMap<Evidence> Out;
  for (const select::SelectedTest &T : Sel.Tests) {
    Evidence &E = Out[T.Id];
    E.Selected = true;
    std::vector<size_t> Elements;
    for (const select::Reason &R : T.Reasons)
      if (R.Element != select::NoIndex)
        Elements.push_back(R.Element);
    llvm::sort(Elements);
    E.CoveredModified =
        std::unique(Elements.begin(), Elements.end()) - Elements.begin();
  }
  return Out;
}

std::optional<TopCut> parseTopCut(llvm::StringRef Text) {
  TopCut Cut;
  Cut.Spelled = Text.str();
  llvm::StringRef T = Text.trim();
  bool Percent = T.consume_back("%");
  double V = 0;
  if (T.getAsDouble(V) || !(V > 0) || (Percent && V > 100) ||
      (!Percent && (V != std::floor(V) || V > 1e9)))
    return std::nullopt;
  if (Percent)
    Cut.Percent = V;
  else
    Cut.Count = static_cast<unsigned>(V);
  return Cut;
}

size_t topCount(const TopCut &Cut, size_t Total) {
  size_t N = Total;
  if (Cut.Count)
    N = std::min<size_t>(N, Cut.Count);
  if (Cut.Percent > 0)
    N = std::min<size_t>(
        N, static_cast<size_t>(std::ceil(Cut.Percent / 100 * Total - 1e-9)));
  return N;
}

std::optional<double> cutConfidence(const Ranking &R, size_t Kept,
                                    size_t Total) {
  if (!R.Model || R.Model->Curve.size() != 101 || Total == 0)
    return std::nullopt;
  size_t Pct = static_cast<size_t>(std::ceil(100.0 * Kept / Total - 1e-9));
  return R.Model->Curve[std::min<size_t>(Pct, 100)];
}

namespace {

/// What a change is: the commit it is read from, its head, its files.
struct ChangeRange {
  std::string DiffBase, Head;
  std::vector<git::FileChange> Diff;
};

/// The change of \p Base..\p Head (the work tree's HEAD when none), read
/// from their merge base.
llvm::Expected<ChangeRange> changeOf(const git::Repository &Repo,
                                     llvm::StringRef Base,
                                     std::optional<llvm::StringRef> Head) {
  ChangeRange C;
  auto BaseCommit = Repo.resolveCommit(Base);
  if (!BaseCommit)
    return BaseCommit.takeError();
  if (Head) {
    auto H = Repo.resolveCommit(*Head);
    if (!H)
      return H.takeError();
    C.Head = *H;
  } else {
    auto H = Repo.headCommit();
    if (!H)
      return H.takeError();
    if (!*H)
      return makeError("HEAD has no commit yet: commit once, then rank");
    C.Head = **H;
  }
  auto DiffBase = Repo.mergeBase(*BaseCommit, C.Head);
  if (!DiffBase)
    return DiffBase.takeError();
  C.DiffBase = *DiffBase;
  auto Diff = Repo.diff(
      C.DiffBase, Head ? std::optional<llvm::StringRef>(C.Head) : std::nullopt);
  if (!Diff)
    return Diff.takeError();
  C.Diff = std::move(*Diff);
  return C;
}

/// The change's features and one row per test, from the history replayed
/// up to the change: the files that may cause failures (the others, with
/// why, go to \p Out).
llvm::Expected<std::vector<Row>>
rowsOf(const git::Repository &Repo, Store &S, const ChangeRange &C,
       CauseFilter &Filter, HistoryState &State, const RankOptions &Options,
       ChangeFeatures &Change, Ranking &Out) {
  std::vector<git::FileStat> Causes;
  for (git::FileStat &F : git::fileStats(C.Diff)) {
    auto Why = Filter.whyIgnored(F);
    if (!Why)
      return Why.takeError();
    if (*Why) {
      Out.IgnoredFiles.emplace_back(F.path(), **Why);
      continue;
    }
    Out.CauseFiles.push_back(F.path());
    Causes.push_back(std::move(F));
  }
  auto HeadTime = git::commitTime(Repo, C.Head);
  if (!HeadTime)
    return HeadTime.takeError();
  int64_t Time = std::max(*HeadTime, State.lastTime() + 1);
  Change.Files = State.fileFeatures(Causes, Time);
  auto Covered = Filter.coveredModified(Causes);
  if (!Covered)
    return Covered.takeError();
  Change.Covered = std::move(*Covered);

  std::vector<std::string> Tests = Options.Tests;
  if (Tests.empty()) {
    auto All = S.tests();
    if (!All)
      return All.takeError();
    for (const TestRecord &T : *All)
      Tests.push_back(T.Id);
  }
  std::vector<Row> Rows;
  for (const std::string &T : Tests) {
    auto Ev = Options.Evidences.find(T);
    Row Row;
    Row.Fixed = State.row(
        Change, T, Time, Ev == Options.Evidences.end() ? nullptr : &Ev->second);
    Row.Test = T;
    Rows.push_back(std::move(Row));
  }
  return Rows;
}

/// The rows in the order the model predicts failures (most likely first;
/// ties by id), with each probability.
llvm::Expected<std::vector<size_t>>
orderByModel(Loaded &Model, const std::vector<Row> &Rows, ChangeFeatures Change,
             std::vector<double> &Probabilities) {
  llvm::StringMap<unsigned> Slots;
  for (size_t I = 0; I != Model.Meta->Vocabulary.size(); ++I)
    Slots[Model.Meta->Vocabulary[I]] = I;
  std::vector<ChangeFeatures> Changes = {std::move(Change)};
  unsigned Columns =
      FixedColumns + Model.Meta->Vocabulary.size() * FileFeatures;
  auto P = Model.B->predict(layOut(Rows, Changes, Slots), Columns);
  if (!P)
    return P.takeError();
  Probabilities = std::move(*P);
  std::vector<size_t> Order(Rows.size());
  std::iota(Order.begin(), Order.end(), 0);
  std::stable_sort(Order.begin(), Order.end(), [&](size_t L, size_t R) {
    if (Probabilities[L] != Probabilities[R])
      return Probabilities[L] > Probabilities[R];
    return Rows[L].Test < Rows[R].Test;
  });
  return Order;
}

/// Adds the tests to \p Out in \p Order, with their probability, duration
/// and, for a flaky one, its flip rate.
llvm::Error addRankedTests(Store &S, const config::PredictConfig &Config,
                           const std::vector<Row> &Rows,
                           const std::vector<size_t> &Order,
                           const std::vector<double> &Probabilities,
                           Ranking &Out) {
  auto Flaky = flakyTests(S, Config);
  if (!Flaky)
    return Flaky.takeError();
  llvm::StringMap<double> FlipRates;
  for (const FlakyTest &F : *Flaky)
    FlipRates[F.TestId] = F.FlipRate;
  for (size_t I : Order) {
    RankedTest T;
    T.Id = Rows[I].Test;
    T.Probability = Probabilities[I];
    float D = Rows[I].Fixed[CDuration];
    T.Seconds = std::isnan(D) ? 0 : D;
    auto F = FlipRates.find(T.Id);
    if (F != FlipRates.end()) {
      T.Flaky = true;
      T.FlipRate = F->second;
    }
    Out.Tests.push_back(std::move(T));
  }
  return llvm::Error::success();
}

} // namespace

llvm::Expected<Ranking> rankChange(const git::Repository &Repo, Store &S,
                                   const config::PredictConfig &Config,
                                   llvm::StringRef Base,
                                   std::optional<llvm::StringRef> Head,
                                   const RankOptions &Options) {
  Ranking Out;
  auto C = changeOf(Repo, Base, Head);
  if (!C)
    return C.takeError();
  auto Model = loadModel(S);
  if (!Model)
    return Model.takeError();
  auto NewestRun = S.newestRunTime();
  if (!NewestRun)
    return NewestRun.takeError();
  if (*NewestRun == 0) // no run recorded
    Model->Why = "no test results in the database, so no history to rank by";

  // The history the model was trained on; without a model, the recent runs
  // the heuristic needs.
  int64_t Since = Model->Meta
                      ? Model->Meta->Since
                      : *NewestRun - int64_t(Config.FlakyWindowDays) * Day;
  auto Start = Clock::now();
  CauseFilter Filter(Repo, S, Config);
  llvm::StringSet<> NoFlaky;
  auto R = replay(Repo, S, Filter, C->DiffBase, std::max<int64_t>(Since, 0),
                  /*EmitRows=*/false, NoFlaky, llvm::nulls(), /*Quiet=*/true);
  if (!R)
    return R.takeError();
  ChangeFeatures Change;
  auto Rows = rowsOf(Repo, S, *C, Filter, *R->State, Options, Change, Out);
  if (!Rows)
    return Rows.takeError();
  Out.HistorySeconds = secondsSince(Start);

  auto PredictStart = Clock::now();
  std::vector<size_t> Order;
  std::vector<double> Probabilities(Rows->size(),
                                    std::numeric_limits<double>::quiet_NaN());
  if (Model->Why.empty()) {
    auto Ordered =
        orderByModel(*Model, *Rows, std::move(Change), Probabilities);
    if (!Ordered)
      return Ordered.takeError();
    Order = std::move(*Ordered);
    Out.How = Method::Model;
    ModelSummary Summary = Model->Meta->Summary;
    Summary.Id = Model->Id;
    Summary.CreatedAt = Model->CreatedAt;
    Out.Model = std::move(Summary);
  } else {
    Order = heuristicOrder(*Rows);
    Out.How = Method::Heuristic;
    Out.Why = Model->Why;
  }
  Out.PredictSeconds = secondsSince(PredictStart);
  if (llvm::Error E =
          addRankedTests(S, Config, *Rows, Order, Probabilities, Out))
    return E;
  return Out;
}

} // namespace predict
} // namespace tia
