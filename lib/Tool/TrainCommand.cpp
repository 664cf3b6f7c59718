//===- TrainCommand.cpp - tia train ---------------------------------------===//

#include "CommandsInternal.h"
#include "tia/Predict/Predict.h"
#include "tia/Support/Error.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include <ctime>

namespace tia {
namespace tool {

llvm::Expected<int64_t> parseDate(llvm::StringRef Text) {
  std::tm T = {};
  std::string S = Text.str();
  const char *End = strptime(S.c_str(), "%Y-%m-%dT%H:%M:%S", &T);
  if (!End || *End) {
    T = {};
    End = strptime(S.c_str(), "%Y-%m-%d", &T);
  }
  if (!End || *End)
    return makeErrorf("bad date '{0}': use YYYY-MM-DD or "
                      "YYYY-MM-DDTHH:MM:SS (UTC)",
                      Text);
  return static_cast<int64_t>(timegm(&T));
}

namespace {

void printQuality(llvm::raw_ostream &Out, llvm::StringRef Name,
                  const predict::OrderQuality &Q) {
  Out << llvm::formatv("  {0,-10} {1,6:f3} {2,11:f3} {3,11:f3}\n", Name, Q.Apfd,
                       Q.RecallAt10, Q.RecallAt50);
}

llvm::json::Object qualityJson(const predict::OrderQuality &Q) {
  return llvm::json::Object{{"apfd", Q.Apfd},
                            {"recall_at_10", Q.RecallAt10},
                            {"recall_at_50", Q.RecallAt50}};
}

} // namespace

llvm::Error runTrain(const GlobalOptions &G, const TrainCommandOptions &O,
                     llvm::raw_ostream &Out, llvm::raw_ostream &Err) {
  auto Ctx = makeContext(G, /*NeedGit=*/true);
  if (!Ctx)
    return Ctx.takeError();
  auto S = Store::open(Ctx->DbPath, Store::Mode::ReadWrite);
  if (!S)
    return S.takeError();
  predict::TrainOptions TO;
  TO.Since = O.Since;
  TO.Head = O.Head;
  TO.Grid = O.Params;
  TO.Threads = O.Jobs;
  auto R =
      predict::train(*Ctx->Repo, **S, Ctx->Config.Predict, TO, Err, G.Quiet);
  if (!R)
    return R.takeError();

  if (O.Format == ReportFormat::Json) {
    llvm::json::Object J{
        {"model", R->ModelId},
        {"runs", R->Runs},
        {"commits", R->Commits},
        {"samples", R->Samples},
        {"positives", R->Positives},
        {"features", R->Features},
        {"flaky_tests", R->FlakyTests},
        {"flaky_results_dropped", R->FlakyRowsDropped},
        {"ignored_commits", R->IgnoredCommits},
        {"params", R->Params},
        {"validation_commits", R->ValidationCommits},
        {"validation_f1", R->ValidationF1},
        {"predicted", qualityJson(R->Predicted)},
        {"heuristic", qualityJson(R->Heuristic)},
        {"random", qualityJson(R->Random)},
        {"history_seconds", R->HistorySeconds},
        {"train_seconds", R->TrainSeconds},
        {"inference_seconds_per_commit", R->InferenceSeconds},
    };
    Out << llvm::formatv("{0:2}", llvm::json::Value(std::move(J))) << "\n";
  } else {
    Out << llvm::formatv("model #{0}: {1} samples from {2} tested commits, "
                         "{3} failing\n",
                         R->ModelId, R->Samples, R->Commits, R->Positives);
    Out << llvm::formatv("left out: {0} flaky tests ({1} results), {2} "
                         "documentation- or comment-only commits\n",
                         R->FlakyTests, R->FlakyRowsDropped, R->IgnoredCommits);
    Out << "hyperparameters: " << R->Params;
    if (R->ValidationCommits)
      Out << llvm::formatv(" (validation F1 {0:f3})", R->ValidationF1);
    Out << "\n";
    if (R->ValidationCommits) {
      Out << llvm::formatv("validation on the {0} newest commits with "
                           "failures:\n",
                           R->ValidationCommits);
      Out << "  order        APFD  recall@10%  recall@50%\n";
      printQuality(Out, "predicted", R->Predicted);
      printQuality(Out, "heuristic", R->Heuristic);
      printQuality(Out, "random", R->Random);
    } else {
      Out << "validation: no failure in the newest commits, so the "
             "hyperparameters are the first candidate's\n";
    }
  }
  Out.flush();
  if (!G.Quiet)
    Err << llvm::formatv("train: stored model #{0} ({1} samples, {2} "
                         "features) in {3:f1}s\n",
                         R->ModelId, R->Samples, R->Features,
                         R->HistorySeconds + R->TrainSeconds);
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// Command line
//===----------------------------------------------------------------------===//

llvm::cl::SubCommand TrainSubcommand(
    "train", "Learn from the recorded runs and git history which tests a "
             "change makes fail, and store the model for 'tia rank'");

namespace {
llvm::cl::opt<std::string>
    Since("since",
          llvm::cl::desc("Learn only from runs started on or after this "
                         "date (YYYY-MM-DD, UTC)"),
          llvm::cl::value_desc("date"), llvm::cl::init(""),
          llvm::cl::cat(tiaCategory()), llvm::cl::sub(TrainSubcommand));
llvm::cl::opt<std::string>
    Head("head",
         llvm::cl::desc("Revision whose first-parent history the runs are "
                        "matched to (default: HEAD)"),
         llvm::cl::value_desc("rev"), llvm::cl::init("HEAD"),
         llvm::cl::cat(tiaCategory()), llvm::cl::sub(TrainSubcommand));
llvm::cl::list<std::string> Params(
    "params",
    llvm::cl::desc("Hyperparameters to try instead of the built-in grid, "
                   "e.g. 'max_depth=3 eta=0.1 rounds=100' (repeatable)"),
    llvm::cl::value_desc("text"), llvm::cl::cat(tiaCategory()),
    llvm::cl::sub(TrainSubcommand));
llvm::cl::opt<unsigned>
    Jobs("jobs",
         llvm::cl::desc("XGBoost threads (default 1: fastest for the small "
                        "matrices of one repository's history)"),
         llvm::cl::value_desc("n"), llvm::cl::init(1),
         llvm::cl::cat(tiaCategory()), llvm::cl::sub(TrainSubcommand));
llvm::cl::opt<ReportFormat> Format(
    "format", llvm::cl::desc("Output on stdout"),
    llvm::cl::values(clEnumValN(ReportFormat::Text, "text", "for people"),
                     clEnumValN(ReportFormat::Json, "json",
                                "the training report (docs/Prediction.md)")),
    llvm::cl::init(ReportFormat::Text), llvm::cl::cat(tiaCategory()),
    llvm::cl::sub(TrainSubcommand));
} // namespace

int trainMain(const GlobalOptions &G) {
  TrainCommandOptions O;
  if (!Since.empty()) {
    auto T = parseDate(Since);
    if (!T)
      return usageError(llvm::toString(T.takeError()));
    O.Since = *T;
  }
  O.Head = Head;
  O.Params = Params;
  if (Jobs == 0)
    return usageError("--jobs must be at least 1");
  O.Jobs = Jobs;
  O.Format = Format;
  return exitCode(runTrain(G, O, llvm::outs(), llvm::errs()));
}

} // namespace tool
} // namespace tia
