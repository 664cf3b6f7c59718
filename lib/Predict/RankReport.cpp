//===- RankReport.cpp - a ranking cut and written -------------------------===//

#include "tia/Predict/RankReport.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include <cmath>

namespace tia {
namespace predict {

size_t keptTests(const Ranking &R, const TopCut &Top, double TimeBudget) {
  size_t N = topCount(Top, R.Tests.size());
  if (TimeBudget > 0) {
    // A test without a recorded duration counts as the mean of the others.
    double Known = 0;
    unsigned KnownCount = 0;
    for (const RankedTest &T : R.Tests)
      if (T.Seconds > 0) {
        Known += T.Seconds;
        ++KnownCount;
      }
    double Mean = KnownCount ? Known / KnownCount : 0;
    double Sum = 0;
    size_t Fit = 0;
    for (const RankedTest &T : R.Tests) {
      Sum += T.Seconds > 0 ? T.Seconds : Mean;
      if (Sum > TimeBudget)
        break;
      ++Fit;
    }
    N = std::min(N, Fit);
  }
  return N;
}

std::string cutWarning(const Ranking &R, size_t Kept) {
  if (Kept >= R.Tests.size())
    return "";
  std::string Line =
      llvm::formatv("partial, unsafe: the {0} most likely of {1} tests "
                    "({2:f0}%); a test left out can still fail",
                    Kept, R.Tests.size(),
                    R.Tests.empty() ? 0.0 : 100.0 * Kept / R.Tests.size())
          .str();
  if (auto C = cutConfidence(R, Kept, R.Tests.size()))
    Line += llvm::formatv("; in validation such a cut caught {0:f0}% of "
                          "the failures",
                          *C * 100)
                .str();
  else
    Line += "; no confidence curve (no model, or no failures in its "
            "validation window)";
  return Line;
}

void writeRankingText(const Ranking &R, size_t Kept, llvm::raw_ostream &Out) {
  if (R.How == Method::Model)
    Out << llvm::formatv("# ranked by model #{0} ({1} samples from {2} "
                         "commits, validation F1 {3:f3})\n",
                         R.Model->Id, R.Model->Samples, R.Model->Commits,
                         R.Model->ValidationF1);
  else
    Out << "# heuristic order (previously failing, modified elements "
           "covered, failure rate, duration): "
        << R.Why << "\n";
  if (!R.IgnoredFiles.empty()) {
    Out << "# not failure causes:";
    for (const auto &[File, Why] : R.IgnoredFiles)
      Out << " " << File << " (" << Why << ")";
    Out << "\n";
  }
  for (size_t I = 0; I != Kept; ++I) {
    const RankedTest &T = R.Tests[I];
    Out << llvm::formatv("{0,4} ", I + 1);
    if (std::isnan(T.Probability))
      Out << "     -";
    else
      Out << llvm::formatv("{0,6:f4}", T.Probability);
    Out << " " << T.Id;
    if (T.Flaky)
      Out << llvm::formatv(" [flaky, flip rate {0:f2}]", T.FlipRate);
    Out << "\n";
  }
  std::vector<const RankedTest *> Flaky;
  for (const RankedTest &T : R.Tests)
    if (T.Flaky)
      Flaky.push_back(&T);
  if (!Flaky.empty()) {
    Out << "# flaky (outcome changed without a change; flip rate):";
    for (const RankedTest *T : Flaky)
      Out << llvm::formatv(" {0} {1:f2}", T->Id, T->FlipRate);
    Out << "\n";
  }
  std::string Cut = cutWarning(R, Kept);
  if (!Cut.empty())
    Out << "# " << Cut << "\n";
}

void writeRankingIds(const Ranking &R, size_t Kept, llvm::raw_ostream &Out) {
  for (size_t I = 0; I != Kept; ++I)
    Out << R.Tests[I].Id << "\n";
}

void writeRankingJson(const Ranking &R, size_t Kept, llvm::raw_ostream &Out) {
  bool Cut = Kept < R.Tests.size();
  llvm::json::Array Tests, Flaky, Ignored, Causes;
  for (size_t I = 0; I != R.Tests.size(); ++I) {
    const RankedTest &T = R.Tests[I];
    llvm::json::Object O{{"id", T.Id}, {"rank", static_cast<int64_t>(I + 1)}};
    O["probability"] = std::isnan(T.Probability)
                           ? llvm::json::Value(nullptr)
                           : llvm::json::Value(T.Probability);
    if (T.Seconds > 0)
      O["seconds"] = T.Seconds;
    O["selected"] = I < Kept;
    if (T.Flaky) {
      O["flip_rate"] = T.FlipRate;
      Flaky.push_back(
          llvm::json::Object{{"id", T.Id}, {"flip_rate", T.FlipRate}});
    }
    Tests.push_back(std::move(O));
  }
  for (const auto &[File, Why] : R.IgnoredFiles)
    Ignored.push_back(llvm::json::Object{{"file", File}, {"why", Why}});
  for (const std::string &F : R.CauseFiles)
    Causes.push_back(F);
  llvm::json::Object J{
      {"version", 1},
      {"method", R.How == Method::Model ? "model" : "heuristic"},
      {"partial", Cut},
      {"unsafe", Cut},
      {"selected", static_cast<int64_t>(Kept)},
      {"total", static_cast<int64_t>(R.Tests.size())},
      {"tests", std::move(Tests)},
      {"flaky", std::move(Flaky)},
      {"cause_files", std::move(Causes)},
      {"ignored_files", std::move(Ignored)},
  };
  if (R.How == Method::Model)
    J["model"] = R.Model->Id;
  else
    J["why"] = R.Why;
  if (auto C = cutConfidence(R, Kept, R.Tests.size()); C && Cut)
    J["confidence"] = *C;
  Out << llvm::formatv("{0:2}", llvm::json::Value(std::move(J))) << "\n";
}

std::string rankSummary(const Ranking &R, size_t Kept) {
  unsigned Flaky = 0;
  for (const RankedTest &T : R.Tests)
    Flaky += T.Flaky;
  return llvm::formatv(
      "rank: {0} tests by {1} for {2} changed files ({3} "
      "not failure causes){4}; {5} flaky",
      R.Tests.size(),
      R.How == Method::Model ? "the model" : "the heuristic order",
      R.CauseFiles.size() + R.IgnoredFiles.size(), R.IgnoredFiles.size(),
      Kept < R.Tests.size()
          ? llvm::formatv("; kept {0} (partial, unsafe)", Kept).str()
          : std::string(),
      Flaky);
}

} // namespace predict
} // namespace tia
