//===- tia/Predict/Predict.h - history-based failure prediction -----------===//
//
// T-TS style ranking of tests by how likely a change makes them fail, learnt
// from the store's runs and results and from git history, with no coverage
// needed: gradient-boosted trees (XGBoost) over the change as a bag of
// changed files, each test's recent failure rate and duration, the changed
// files nearest to the test's file, and what tia knows besides (modified
// elements the test covers). Flaky tests are recognised from the results and
// kept out of the labels; documentation-only and comment-only changes are
// not taken as failure causes. Without a usable model every entry point
// falls back to the heuristic order and says why. See docs/Prediction.md.
//
//===----------------------------------------------------------------------===//

#ifndef TIA_PREDICT_PREDICT_H
#define TIA_PREDICT_PREDICT_H

#include "tia/Config/Config.h"
#include "tia/Git/History.h"
#include "tia/Select/Selection.h"
#include "tia/Store/Store.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tia {
namespace predict {

/// The version of the (metadata, booster) pair this tia writes and reads.
/// Bump it whenever the feature layout or the metadata changes meaning.
constexpr int ModelFormatVersion = 1;

/// What the selection knows of one test for the change being ranked. Fills
/// the features tia adds to T-TS's; a test without evidence gets them from
/// the store (coverage of the modified elements in indexed file versions).
struct Evidence {
  /// Modified elements of the change that the test covers.
  unsigned CoveredModified = 0;
  /// True when static or coverage evidence selected the test.
  bool Selected = false;
};

/// One test in a ranking.
struct RankedTest {
  std::string Id;
  /// Predicted probability that the change makes the test fail; NaN in the
  /// heuristic order.
  double Probability = 0;
  /// Recent duration in seconds (0: unknown).
  double Seconds = 0;
  bool Flaky = false;
  double FlipRate = 0; ///< when Flaky
};

/// What a stored model says about itself.
struct ModelSummary {
  int64_t Id = 0;
  int64_t CreatedAt = 0;
  unsigned Samples = 0;   ///< (commit, test) rows it was trained on
  unsigned Positives = 0; ///< failing rows among them
  unsigned Commits = 0;   ///< tested commits they came from
  double ValidationF1 = 0;
  /// Share of validation failures caught (index: percent of tests run,
  /// 0..100); empty when there was no validation window with failures.
  std::vector<double> Curve;
  std::string Params; ///< the chosen hyperparameters, for people
};

enum class Method { Model, Heuristic };

/// A change's tests, most likely to fail first.
struct Ranking {
  Method How = Method::Heuristic;
  /// Why the heuristic order is used (one line, empty for the model).
  std::string Why;
  std::optional<ModelSummary> Model;
  std::vector<RankedTest> Tests;
  /// The changed files that can cause a failure, and the others with why
  /// not ("documentation", "comments or layout only").
  std::vector<std::string> CauseFiles;
  std::vector<std::pair<std::string, std::string>> IgnoredFiles;
  /// Seconds spent reading history, and predicting.
  double HistorySeconds = 0, PredictSeconds = 0;
};

/// What a safe selection knows of each test it selected: the changed
/// elements among its reasons (CoveredModified) and that it was selected.
/// For RankOptions::Evidences when ordering a selection.
llvm::StringMap<Evidence> evidenceFrom(const select::Selection &Sel);

/// What to rank.
struct RankOptions {
  /// The tests to order (a safe selection); empty: every test with a
  /// recorded result or a test info.
  std::vector<std::string> Tests;
  /// Per test id, what the selection knows (optional).
  llvm::StringMap<Evidence> Evidences;
};

/// Orders the tests for the change \p Base...\p Head (\p Head std::nullopt:
/// the work tree) by predicted failure probability, using the newest stored
/// model. Without history, without a model, or with a model of another
/// format it returns the heuristic order (previously failing, then modified
/// elements covered, then failure rate, then duration) with Ranking::Why
/// set. Fails only for unknown revisions and store or git errors.
llvm::Expected<Ranking> rankChange(const git::Repository &Repo, Store &S,
                                   const config::PredictConfig &Config,
                                   llvm::StringRef Base,
                                   std::optional<llvm::StringRef> Head,
                                   const RankOptions &Options);

/// A predictive cut: the N most likely tests, or the first P%.
struct TopCut {
  unsigned Count = 0;  ///< 0: no count
  double Percent = 0;  ///< 0: no percentage
  std::string Spelled; ///< as given: "20", "10%"
  bool active() const { return Count || Percent > 0; }
};

/// Parses "N" (a whole count above 0) or "P%" (above 0, at most 100).
std::optional<TopCut> parseTopCut(llvm::StringRef Text);

/// How many of \p Total ranked tests \p Cut keeps.
size_t topCount(const TopCut &Cut, size_t Total);

/// The share of validation failures that keeping the first \p Kept of
/// \p Total tests caught, from the model's confidence curve; std::nullopt
/// without a model or a curve.
std::optional<double> cutConfidence(const Ranking &R, size_t Kept,
                                    size_t Total);

/// The tests flaky in the last Config.FlakyWindowDays days before the
/// newest run (Store::flakyTests over that window), sorted by id.
llvm::Expected<std::vector<FlakyTest>>
flakyTests(Store &S, const config::PredictConfig &Config);

struct TrainOptions {
  /// Only runs started at or after this time (seconds since the epoch;
  /// 0: all).
  int64_t Since = 0;
  /// The revision whose first-parent history the runs are matched to.
  std::string Head = "HEAD";
  /// Hyperparameter candidates to try; empty: the built-in grid.
  std::vector<std::string> Grid;
  /// XGBoost's threads (one is fastest on small histories).
  unsigned Threads = 1;
};

/// Ordering quality on the validation window, per order.
struct OrderQuality {
  double Apfd = 0;
  double RecallAt10 = 0; ///< share of failures in the first 10% of tests
  double RecallAt50 = 0;
};

struct TrainReport {
  unsigned Runs = 0, Commits = 0, Samples = 0, Positives = 0;
  unsigned FlakyTests = 0, FlakyRowsDropped = 0;
  unsigned IgnoredCommits = 0; ///< documentation- or comment-only
  unsigned Features = 0;
  unsigned ValidationCommits = 0; ///< with at least one failure
  std::string Params;
  double ValidationF1 = 0;
  OrderQuality Predicted, Heuristic, Random;
  double HistorySeconds = 0, TrainSeconds = 0;
  /// Mean seconds to predict the rows of one validation commit.
  double InferenceSeconds = 0;
  int64_t ModelId = 0;
};

/// Trains a model on the history and stores it (one transaction). Rows are
/// (tested commit, test) pairs in chronological order; the newest
/// Config.ValidationPercent of the commits choose the hyperparameters by
/// F1, the model is then refitted on all rows. Fails, storing nothing, with
/// one line naming what to do when there are no results, no run at a
/// commit of \p Options.Head's history, or only one class of labels.
/// Progress goes to \p Err unless \p Quiet.
llvm::Expected<TrainReport> train(const git::Repository &Repo, Store &S,
                                  const config::PredictConfig &Config,
                                  const TrainOptions &Options,
                                  llvm::raw_ostream &Err, bool Quiet);

/// Average percentage of faults detected of an order: \p Failed[i] says
/// whether the i-th test run fails. 1 - sum(TF)/(n m) + 1/(2n); NaN when
/// nothing fails.
double apfd(const std::vector<bool> &Failed);
/// The share of the failures of \p Failed found in its first \p Share of
/// tests (rounded up); NaN when nothing fails.
double recallAt(const std::vector<bool> &Failed, double Share);

} // namespace predict
} // namespace tia

#endif // TIA_PREDICT_PREDICT_H
