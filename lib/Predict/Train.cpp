//===- Train.cpp - training, validation and the ordering metrics ----------===//

#include "PredictInternal.h"
#include "tia/Support/Error.h"
#include "llvm/ADT/StringExtras.h"
#include <algorithm>
#include <numeric>
#include <random>

namespace tia {
namespace predict {

namespace {

const char *const DefaultGrid[] = {
    "max_depth=3 eta=0.1 rounds=100 min_child_weight=1",
    "max_depth=6 eta=0.1 rounds=100 min_child_weight=1",
    "max_depth=3 eta=0.3 rounds=50 min_child_weight=1",
    "max_depth=6 eta=0.3 rounds=50 min_child_weight=1",
};

/// The paths changed in at least two of the changes \p Used, most often
/// changed first, at most \p Max; each mapped to its slot.
std::pair<std::vector<std::string>, llvm::StringMap<unsigned>>
vocabulary(const std::vector<ChangeFeatures> &Changes,
           const std::vector<bool> &Used, unsigned Max) {
  llvm::StringMap<unsigned> Count;
  for (size_t I = 0; I != Changes.size(); ++I)
    if (Used[I])
      for (const ChangedFile &F : Changes[I].Files)
        ++Count[F.Path];
  std::vector<std::pair<unsigned, std::string>> Ranked;
  for (const auto &E : Count)
    if (E.getValue() >= 2)
      Ranked.emplace_back(E.getValue(), E.getKey().str());
  llvm::sort(Ranked, [](const auto &L, const auto &R) {
    return L.first != R.first ? L.first > R.first : L.second < R.second;
  });
  if (Ranked.size() > Max)
    Ranked.resize(Max);
  std::vector<std::string> Paths;
  for (auto &[N, P] : Ranked)
    Paths.push_back(std::move(P));
  llvm::sort(Paths);
  llvm::StringMap<unsigned> Slots;
  for (size_t I = 0; I != Paths.size(); ++I)
    Slots[Paths[I]] = I;
  return {std::move(Paths), std::move(Slots)};
}

/// The best F1 over all thresholds of \p Scores against \p Labels.
double bestF1(const std::vector<double> &Scores,
              const std::vector<float> &Labels) {
  std::vector<size_t> Order(Scores.size());
  std::iota(Order.begin(), Order.end(), 0);
  std::stable_sort(Order.begin(), Order.end(),
                   [&](size_t L, size_t R) { return Scores[L] > Scores[R]; });
  double Positives = std::count(Labels.begin(), Labels.end(), 1.0f);
  double TP = 0, Best = 0;
  for (size_t K = 0; K != Order.size(); ++K) {
    TP += Labels[Order[K]];
    // Only cut between different scores.
    if (K + 1 < Order.size() && Scores[Order[K + 1]] == Scores[Order[K]])
      continue;
    double Precision = TP / (K + 1), Recall = Positives ? TP / Positives : 0;
    if (Precision + Recall > 0)
      Best = std::max(Best, 2 * Precision * Recall / (Precision + Recall));
  }
  return Best;
}

/// Accumulates ordering quality over commits.
struct QualitySum {
  double Apfd = 0, R10 = 0, R50 = 0;
  unsigned N = 0;
  void add(const std::vector<bool> &Failed) {
    Apfd += apfd(Failed);
    R10 += recallAt(Failed, 0.1);
    R50 += recallAt(Failed, 0.5);
    ++N;
  }
  OrderQuality mean() const {
    if (!N)
      return {};
    return {Apfd / N, R10 / N, R50 / N};
  }
};

/// The hyperparameter sets to try: --grid, else the default grid.
llvm::Expected<std::vector<BoostParams>>
candidateParams(const TrainOptions &Options) {
  std::vector<std::string> Grid = Options.Grid;
  if (Grid.empty())
    Grid.assign(std::begin(DefaultGrid), std::end(DefaultGrid));
  std::vector<BoostParams> Candidates;
  for (const std::string &G : Grid) {
    auto P = BoostParams::parse(G);
    if (!P)
      return P.takeError();
    P->Threads = std::max(1u, Options.Threads);
    Candidates.push_back(*P);
  }
  return Candidates;
}

/// The tests flaky since \p Since, whose rows are left out.
llvm::Expected<llvm::StringSet<>> flakyIds(Store &S, int64_t Since,
                                           TrainReport &Report) {
  auto Flaky = S.flakyTests(Since);
  if (!Flaky)
    return Flaky.takeError();
  llvm::StringSet<> Ids;
  for (const FlakyTest &F : *Flaky)
    Ids.insert(F.TestId);
  Report.FlakyTests = Flaky->size();
  return Ids;
}

unsigned positives(const std::vector<Row> &Rows) {
  unsigned N = 0;
  for (const Row &R : Rows)
    N += R.Label > 0;
  return N;
}

/// Fails, saying what to do, when the replayed history \p R gives nothing
/// to learn from: no run in the window or on the branch, no usable rows,
/// or rows of one class only. Counts the samples into \p Report.
llvm::Error checkSamples(const Replay &R, const std::vector<RunRecord> &AllRuns,
                         const TrainOptions &Options, TrainReport &Report) {
  size_t InWindow = llvm::count_if(AllRuns, [&](const RunRecord &Run) {
    return Run.StartedAt >= Options.Since;
  });
  if (InWindow == 0)
    return makeErrorf("none of the {0} recorded runs started on or after the "
                      "--since date: pass an earlier date",
                      AllRuns.size());
  if (R.Runs == 0)
    return makeErrorf("none of the {0} recorded runs is at a commit of the "
                      "first-parent history of {1}: train on the branch the "
                      "runs tested (--head REV)",
                      InWindow, Options.Head);
  Report.Positives = positives(R.Rows);
  Report.Samples = R.Rows.size();
  if (Report.Samples == 0)
    return makeErrorf("no usable results in {0} runs at {1} commits ({2} "
                      "documentation- or comment-only, {3} flaky results "
                      "left out): nothing to train on; tia rank keeps the "
                      "heuristic order",
                      R.Runs, R.TestedCommits, R.IgnoredCommits,
                      R.FlakyRowsDropped);
  if (Report.Positives == 0 || Report.Positives == Report.Samples)
    return makeErrorf("cannot train on one class of labels: the {0} usable "
                      "results of {1} commits are all {2} (flaky results and "
                      "documentation- or comment-only commits left out); tia "
                      "rank keeps the heuristic order until the history has "
                      "both",
                      Report.Samples, Report.Commits,
                      Report.Positives ? "failures" : "passes");
  return llvm::Error::success();
}

/// The rows of the older commits train, those of the newest validate.
struct ValidationSplit {
  std::vector<Row> TrainRows, ValRows;
  unsigned Commits = 0, Validation = 0, Boundary = 0;
  /// Both classes among the training rows, and a failure to find among
  /// the validation rows.
  bool CanValidate = false;
};

ValidationSplit splitChronologically(const Replay &R,
                                     unsigned ValidationPercent) {
  ValidationSplit S;
  S.Commits = R.Changes.size();
  S.Validation = std::max(1u, (S.Commits * ValidationPercent + 50) / 100);
  S.Boundary = S.Commits > S.Validation ? S.Commits - S.Validation : 0;
  for (const Row &Row : R.Rows)
    (Row.Commit < S.Boundary ? S.TrainRows : S.ValRows).push_back(Row);
  unsigned TrainPos = positives(S.TrainRows), ValPos = positives(S.ValRows);
  S.CanValidate = TrainPos > 0 && TrainPos < S.TrainRows.size() && ValPos > 0;
  return S;
}

std::vector<float> labels(const std::vector<Row> &Rows) {
  std::vector<float> Y;
  for (const Row &Row : Rows)
    Y.push_back(Row.Label);
  return Y;
}

/// The chosen hyperparameters and their scores of the validation rows.
struct Choice {
  BoostParams Best;
  std::vector<double> Scores;
};

/// Trains each candidate on the training rows and keeps the one with the
/// best F1 on the validation rows (the first when there is nothing to
/// validate on).
llvm::Expected<Choice> chooseParams(const std::vector<BoostParams> &Candidates,
                                    const ValidationSplit &Split,
                                    const Replay &R,
                                    const config::PredictConfig &Config,
                                    TrainReport &Report) {
  Choice C{Candidates.front(), {}};
  if (!Split.CanValidate)
    return C;
  std::vector<bool> Used(Split.Commits, false);
  for (unsigned I = 0; I != Split.Boundary; ++I)
    Used[I] = true;
  auto [Vocab, Slots] = vocabulary(R.Changes, Used, Config.MaxFiles);
  unsigned Columns = FixedColumns + Vocab.size() * FileFeatures;
  SparseRows XT = layOut(Split.TrainRows, R.Changes, Slots);
  SparseRows XV = layOut(Split.ValRows, R.Changes, Slots);
  std::vector<float> YT = labels(Split.TrainRows), YV = labels(Split.ValRows);
  double BestF1 = -1;
  for (const BoostParams &P : Candidates) {
    auto B = Booster::train(XT, YT, Columns, P);
    if (!B)
      return B.takeError();
    auto PredStart = Clock::now();
    auto Scores = B->predict(XV, Columns);
    if (!Scores)
      return Scores.takeError();
    double PredSeconds = secondsSince(PredStart);
    double F1 = bestF1(*Scores, YV);
    if (F1 > BestF1) {
      BestF1 = F1;
      C.Best = P;
      C.Scores = std::move(*Scores);
      Report.InferenceSeconds = PredSeconds / Split.Validation;
    }
  }
  Report.ValidationF1 = BestF1;
  return C;
}

/// The quality of the predicted, the heuristic and a random order over the
/// validation commits with a failure, and the confidence curve (the share
/// of failures found in the first N% of the predicted order).
class OrderingCheck {
public:
  OrderingCheck() : Curve(101, 0), Rng(0) {}

  /// Adds one commit's \p Rows with their predicted \p Scores.
  void addCommit(const std::vector<Row> &Rows,
                 const std::vector<double> &Scores) {
    auto Failed = [&](const std::vector<size_t> &Order) {
      std::vector<bool> F;
      for (size_t I : Order)
        F.push_back(Rows[I].Label > 0);
      return F;
    };
    std::vector<size_t> ByScore(Rows.size());
    std::iota(ByScore.begin(), ByScore.end(), 0);
    std::stable_sort(ByScore.begin(), ByScore.end(), [&](size_t L, size_t R) {
      if (Scores[L] != Scores[R])
        return Scores[L] > Scores[R];
      return Rows[L].Test < Rows[R].Test;
    });
    std::vector<bool> PredFailed = Failed(ByScore);
    Pred.add(PredFailed);
    Heur.add(Failed(heuristicOrder(Rows)));
    // The expected quality of a random order, estimated over 20 shuffles.
    for (int K = 0; K != 20; ++K) {
      std::vector<size_t> Shuffled = ByScore;
      std::shuffle(Shuffled.begin(), Shuffled.end(), Rng);
      Rand.add(Failed(Shuffled));
    }
    double M = std::count(PredFailed.begin(), PredFailed.end(), true);
    TotalFailures += M;
    for (unsigned Pct = 0; Pct <= 100; ++Pct)
      Curve[Pct] += recallAt(PredFailed, Pct / 100.0) * M;
  }

  /// Writes the mean qualities into \p Report; returns the curve.
  std::vector<double> finish(TrainReport &Report) {
    Report.Predicted = Pred.mean();
    Report.Heuristic = Heur.mean();
    Report.Random = Rand.mean();
    for (double &V : Curve)
      V = TotalFailures ? V / TotalFailures : 0;
    return std::move(Curve);
  }

private:
  QualitySum Pred, Heur, Rand;
  double TotalFailures = 0;
  std::vector<double> Curve;
  std::mt19937 Rng;
};

/// Checks the order \p Scores give on the validation rows, commit by
/// commit (\p ValRows are grouped by commit); the curve, or 101 zeros.
std::vector<double> checkOrdering(const std::vector<Row> &ValRows,
                                  const std::vector<double> &Scores,
                                  TrainReport &Report) {
  OrderingCheck Check;
  size_t Begin = 0;
  while (Begin < ValRows.size()) {
    size_t End = Begin;
    while (End < ValRows.size() && ValRows[End].Commit == ValRows[Begin].Commit)
      ++End;
    std::vector<Row> Rows(ValRows.begin() + Begin, ValRows.begin() + End);
    std::vector<double> CommitScores(Scores.begin() + Begin,
                                     Scores.begin() + End);
    Begin = End;
    if (positives(Rows) == 0)
      continue;
    ++Report.ValidationCommits;
    Check.addCommit(Rows, CommitScores);
  }
  return Check.finish(Report);
}

/// The model to store, learnt from every row with \p Params, and the
/// vocabulary its columns were laid out with.
struct FinalModel {
  std::string Json;
  std::vector<std::string> Vocabulary;
};

llvm::Expected<FinalModel> fitOnAllRows(const Replay &R,
                                        const config::PredictConfig &Config,
                                        const BoostParams &Params,
                                        TrainReport &Report) {
  std::vector<bool> Used(R.Changes.size(), true);
  auto [Vocab, Slots] = vocabulary(R.Changes, Used, Config.MaxFiles);
  unsigned Columns = FixedColumns + Vocab.size() * FileFeatures;
  Report.Features = Columns;
  SparseRows X = layOut(R.Rows, R.Changes, Slots);
  auto B = Booster::train(X, labels(R.Rows), Columns, Params);
  if (!B)
    return B.takeError();
  auto Json = B->save();
  if (!Json)
    return Json.takeError();
  return FinalModel{std::move(*Json), std::move(Vocab)};
}

/// Stores \p M with its metadata and prunes old models, in one
/// transaction.
llvm::Error storeModel(Store &S, FinalModel M, const BoostParams &Params,
                       std::vector<double> Curve, const TrainOptions &Options,
                       TrainReport &Report) {
  ModelMeta Meta;
  Meta.Since = Options.Since;
  Meta.Vocabulary = std::move(M.Vocabulary);
  Meta.Params = Params;
  Meta.Summary.Samples = Report.Samples;
  Meta.Summary.Positives = Report.Positives;
  Meta.Summary.Commits = Report.Commits;
  Meta.Summary.ValidationF1 = Report.ValidationF1;
  if (Report.ValidationCommits)
    Meta.Summary.Curve = std::move(Curve);
  StoredModel Stored;
  Stored.FormatVersion = ModelFormatVersion;
  Stored.Metadata = encodeMeta(Meta);
  Stored.Booster = std::move(M.Json);
  return S.transaction([&]() -> llvm::Error {
    auto Id = S.putModel(Stored);
    if (!Id)
      return Id.takeError();
    Report.ModelId = *Id;
    // Older models are of no use once a newer one exists; keep a few to
    // compare.
    return S.pruneModels(5);
  });
}

} // namespace

double apfd(const std::vector<bool> &Failed) {
  double N = Failed.size(), M = 0, Sum = 0;
  for (size_t I = 0; I != Failed.size(); ++I)
    if (Failed[I]) {
      ++M;
      Sum += I + 1;
    }
  if (M == 0)
    return std::numeric_limits<double>::quiet_NaN();
  return 1 - Sum / (N * M) + 1 / (2 * N);
}

double recallAt(const std::vector<bool> &Failed, double Share) {
  size_t Take = static_cast<size_t>(std::ceil(Share * Failed.size() - 1e-9));
  double M = std::count(Failed.begin(), Failed.end(), true);
  if (M == 0)
    return std::numeric_limits<double>::quiet_NaN();
  return std::count(Failed.begin(),
                    Failed.begin() + std::min(Take, Failed.size()), true) /
         M;
}

llvm::Expected<std::vector<FlakyTest>>
flakyTests(Store &S, const config::PredictConfig &Config) {
  auto Newest = S.newestRunTime();
  if (!Newest)
    return Newest.takeError();
  return S.flakyTests(*Newest - int64_t(Config.FlakyWindowDays) * Day);
}

llvm::Expected<TrainReport> train(const git::Repository &Repo, Store &S,
                                  const config::PredictConfig &Config,
                                  const TrainOptions &Options,
                                  llvm::raw_ostream &Err, bool Quiet) {
  TrainReport Report;
  auto Start = Clock::now();
  auto Candidates = candidateParams(Options);
  if (!Candidates)
    return Candidates.takeError();
  auto Flaky = flakyIds(S, Options.Since, Report);
  if (!Flaky)
    return Flaky.takeError();
  auto AllRuns = S.runs();
  if (!AllRuns)
    return AllRuns.takeError();
  if (AllRuns->empty())
    return makeError("no test results in the database: record runs first "
                     "('tia results import', 'tia run' or 'tia collect'); "
                     "until a model is trained tia rank uses the heuristic "
                     "order");

  CauseFilter Filter(Repo, S, Config);
  auto R = replay(Repo, S, Filter, Options.Head, Options.Since,
                  /*EmitRows=*/true, *Flaky, Err, Quiet);
  if (!R)
    return R.takeError();
  Report.HistorySeconds = secondsSince(Start);
  Report.Runs = R->Runs;
  Report.Commits = R->Changes.size();
  Report.IgnoredCommits = R->IgnoredCommits;
  Report.FlakyRowsDropped = R->FlakyRowsDropped;
  if (llvm::Error E = checkSamples(*R, *AllRuns, Options, Report))
    return E;

  ValidationSplit Split = splitChronologically(*R, Config.ValidationPercent);
  auto TrainStart = Clock::now();
  auto Chosen = chooseParams(*Candidates, Split, *R, Config, Report);
  if (!Chosen)
    return Chosen.takeError();
  Report.Params = Chosen->Best.describe();
  std::vector<double> Curve(101, 0);
  if (Split.CanValidate)
    Curve = checkOrdering(Split.ValRows, Chosen->Scores, Report);
  auto Model = fitOnAllRows(*R, Config, Chosen->Best, Report);
  if (!Model)
    return Model.takeError();
  Report.TrainSeconds = secondsSince(TrainStart);
  if (llvm::Error E = storeModel(S, std::move(*Model), Chosen->Best,
                                 std::move(Curve), Options, Report))
    return E;
  return Report;
}

} // namespace predict
} // namespace tia
