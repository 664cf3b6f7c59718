//===- RankCommand.cpp - tia rank -----------------------------------------===//
//
// Orders tests by the probability that a change makes them fail. The whole
// ranking keeps every test (a safe order); --top and --time-budget cut it
// into a predictive subset, which every output marks as partial and unsafe
// together with the share of failures such a cut caught in validation.
//
//===----------------------------------------------------------------------===//

#include "CommandsInternal.h"
#include "tia/Predict/Predict.h"
#include "tia/Support/Error.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include <cmath>

namespace tia {
namespace tool {

namespace {

/// How many of \p R's tests the cut keeps.
size_t cutSize(const predict::Ranking &R, const RankCommandOptions &O) {
  size_t N = predict::topCount(O.Top, R.Tests.size());
  if (O.TimeBudget > 0) {
    // A test without a recorded duration counts as the mean of the others.
    double Known = 0;
    unsigned KnownCount = 0;
    for (const predict::RankedTest &T : R.Tests)
      if (T.Seconds > 0) {
        Known += T.Seconds;
        ++KnownCount;
      }
    double Mean = KnownCount ? Known / KnownCount : 0;
    double Sum = 0;
    size_t Fit = 0;
    for (const predict::RankedTest &T : R.Tests) {
      Sum += T.Seconds > 0 ? T.Seconds : Mean;
      if (Sum > O.TimeBudget)
        break;
      ++Fit;
    }
    N = std::min(N, Fit);
  }
  return N;
}

void writeText(const predict::Ranking &R, size_t Kept, llvm::raw_ostream &Out) {
  if (R.How == predict::Method::Model)
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
    const predict::RankedTest &T = R.Tests[I];
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
  std::vector<const predict::RankedTest *> Flaky;
  for (const predict::RankedTest &T : R.Tests)
    if (T.Flaky)
      Flaky.push_back(&T);
  if (!Flaky.empty()) {
    Out << "# flaky (outcome changed without a change; flip rate):";
    for (const predict::RankedTest *T : Flaky)
      Out << llvm::formatv(" {0} {1:f2}", T->Id, T->FlipRate);
    Out << "\n";
  }
}

void writeJson(const predict::Ranking &R, size_t Kept, bool Cut,
               llvm::raw_ostream &Out) {
  llvm::json::Array Tests, Flaky, Ignored, Causes;
  for (size_t I = 0; I != R.Tests.size(); ++I) {
    const predict::RankedTest &T = R.Tests[I];
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
      {"method", R.How == predict::Method::Model ? "model" : "heuristic"},
      {"partial", Cut},
      {"unsafe", Cut},
      {"selected", static_cast<int64_t>(Kept)},
      {"total", static_cast<int64_t>(R.Tests.size())},
      {"tests", std::move(Tests)},
      {"flaky", std::move(Flaky)},
      {"cause_files", std::move(Causes)},
      {"ignored_files", std::move(Ignored)},
  };
  if (R.How == predict::Method::Model)
    J["model"] = R.Model->Id;
  else
    J["why"] = R.Why;
  if (auto C = predict::cutConfidence(R, Kept, R.Tests.size()); C && Cut)
    J["confidence"] = *C;
  Out << llvm::formatv("{0:2}", llvm::json::Value(std::move(J))) << "\n";
}

} // namespace

llvm::Expected<int> runRank(const GlobalOptions &G, const RankCommandOptions &O,
                            llvm::raw_ostream &Out, llvm::raw_ostream &Err) {
  auto Ctx = makeContext(G, /*NeedGit=*/true);
  if (!Ctx)
    return Ctx.takeError();
  auto S = Store::open(Ctx->DbPath, Store::Mode::ReadOnly);
  if (!S)
    return S.takeError();
  predict::RankOptions RO;
  RO.Tests = O.Tests;
  std::optional<llvm::StringRef> Head;
  if (O.Head)
    Head = *O.Head;
  auto R = predict::rankChange(*Ctx->Repo, **S, Ctx->Config.Predict, O.Base,
                               Head, RO);
  if (!R)
    return R.takeError();

  size_t Kept = cutSize(*R, O);
  bool Cut = Kept < R->Tests.size();
  std::string CutLine;
  if (Cut) {
    CutLine =
        llvm::formatv("partial, unsafe: the {0} most likely of {1} tests "
                      "({2:f0}%); a test left out can still fail",
                      Kept, R->Tests.size(),
                      R->Tests.empty() ? 0.0 : 100.0 * Kept / R->Tests.size())
            .str();
    if (auto C = predict::cutConfidence(*R, Kept, R->Tests.size()))
      CutLine += llvm::formatv("; in validation such a cut caught {0:f0}% of "
                               "the failures",
                               *C * 100)
                     .str();
    else
      CutLine += "; no confidence curve (no model, or no failures in its "
                 "validation window)";
  }

  switch (O.Format) {
  case ReportFormat::Text:
    writeText(*R, Kept, Out);
    if (Cut)
      Out << "# " << CutLine << "\n";
    break;
  case ReportFormat::Ids:
    for (size_t I = 0; I != Kept; ++I)
      Out << R->Tests[I].Id << "\n";
    break;
  case ReportFormat::Json:
    writeJson(*R, Kept, Cut, Out);
    break;
  }
  Out.flush();
  // The ids output has no room for the mark: it goes to stderr, even with
  // --quiet, since it says the list is not safe.
  if (Cut && O.Format == ReportFormat::Ids)
    Err << "tia: warning: " << CutLine << "\n";
  if (!G.Quiet) {
    unsigned Flaky = 0;
    for (const predict::RankedTest &T : R->Tests)
      Flaky += T.Flaky;
    Err << llvm::formatv(
        "rank: {0} tests by {1} for {2} changed files ({3} "
        "not failure causes){4}; {5} flaky\n",
        R->Tests.size(),
        R->How == predict::Method::Model ? "the model" : "the heuristic order",
        R->CauseFiles.size() + R->IgnoredFiles.size(), R->IgnoredFiles.size(),
        Cut ? llvm::formatv("; kept {0} (partial, unsafe)", Kept).str()
            : std::string(),
        Flaky);
  }
  return Cut && O.ExitCode ? SelectedPartial : 0;
}

//===----------------------------------------------------------------------===//
// Command line
//===----------------------------------------------------------------------===//

llvm::cl::SubCommand
    RankSubcommand("rank",
                   "Order tests by how likely a change (base...head, or base "
                   "against the work tree) makes them fail");

namespace {
llvm::cl::opt<std::string>
    Base("base",
         llvm::cl::desc("Base revision; the change is base...head (default: "
                        "HEAD, so the work tree's changes)"),
         llvm::cl::value_desc("rev"), llvm::cl::init("HEAD"),
         llvm::cl::cat(tiaCategory()), llvm::cl::sub(RankSubcommand));
llvm::cl::opt<std::string>
    Head("head", llvm::cl::desc("Head revision (default: the work tree)"),
         llvm::cl::value_desc("rev"), llvm::cl::init(""),
         llvm::cl::cat(tiaCategory()), llvm::cl::sub(RankSubcommand));
llvm::cl::opt<std::string> TestsFrom(
    "tests-from",
    llvm::cl::desc("Rank only the test ids in this file, one a line ('-': "
                   "stdin), e.g. the output of 'tia select'"),
    llvm::cl::value_desc("file"), llvm::cl::init(""),
    llvm::cl::cat(tiaCategory()), llvm::cl::sub(RankSubcommand));
llvm::cl::opt<std::string>
    Top("top",
        llvm::cl::desc("Keep only the N most likely tests, or the first P% "
                       "(a predictive subset: partial and unsafe)"),
        llvm::cl::value_desc("N|P%"), llvm::cl::init(""),
        llvm::cl::cat(tiaCategory()), llvm::cl::sub(RankSubcommand));
llvm::cl::opt<double> TimeBudget(
    "time-budget",
    llvm::cl::desc("Keep the most likely tests whose recent durations add "
                   "up to at most this many seconds (partial and unsafe)"),
    llvm::cl::value_desc("seconds"), llvm::cl::init(0),
    llvm::cl::cat(tiaCategory()), llvm::cl::sub(RankSubcommand));
llvm::cl::opt<ReportFormat> Format(
    "format", llvm::cl::desc("Output on stdout"),
    llvm::cl::values(
        clEnumValN(ReportFormat::Text, "text",
                   "rank, probability and id per line, then the flaky tests"),
        clEnumValN(ReportFormat::Ids, "ids", "one test id per line"),
        clEnumValN(ReportFormat::Json, "json",
                   "the ranking (docs/Prediction.md)")),
    llvm::cl::init(ReportFormat::Text), llvm::cl::cat(tiaCategory()),
    llvm::cl::sub(RankSubcommand));
llvm::cl::opt<bool> ExitCode(
    "exit-code",
    llvm::cl::desc("Exit 4 when --top or --time-budget cut the ranking; "
                   "without it a ranking exits 0"),
    llvm::cl::init(false), llvm::cl::cat(tiaCategory()),
    llvm::cl::sub(RankSubcommand));
} // namespace

int rankMain(const GlobalOptions &G) {
  RankCommandOptions O;
  O.Base = Base;
  if (!Head.empty())
    O.Head = Head.getValue();
  O.Format = Format;
  O.ExitCode = ExitCode;
  if (!Top.empty()) {
    std::optional<predict::TopCut> Cut = predict::parseTopCut(Top);
    if (!Cut)
      return usageError("bad --top '" + Top +
                        "': use a count (--top 20) or a percentage (--top "
                        "10%)");
    O.Top = *Cut;
  }
  if (TimeBudget < 0)
    return usageError("--time-budget must be a positive number of seconds");
  O.TimeBudget = TimeBudget;
  if (!TestsFrom.empty()) {
    auto Buf = TestsFrom == "-" ? llvm::MemoryBuffer::getSTDIN()
                                : llvm::MemoryBuffer::getFile(TestsFrom);
    if (!Buf)
      return exitCode(makeErrorf("cannot read {0}: {1}", TestsFrom,
                                 Buf.getError().message()));
    llvm::SmallVector<llvm::StringRef, 64> Lines;
    (*Buf)->getBuffer().split(Lines, '\n', -1, /*KeepEmpty=*/false);
    for (llvm::StringRef L : Lines)
      if (!L.trim().empty())
        O.Tests.push_back(L.trim().str());
    if (O.Tests.empty())
      return exitCode(
          makeErrorf("{0} lists no test: pass the ids to rank, "
                     "one a line",
                     TestsFrom == "-" ? "stdin" : TestsFrom.getValue()));
  }
  auto RC = runRank(G, O, llvm::outs(), llvm::errs());
  if (!RC)
    return exitCode(RC.takeError());
  return *RC;
}

} // namespace tool
} // namespace tia
