//===- RankCommand.cpp - tia rank -----------------------------------------===//
//
// Orders tests by the probability that a change makes them fail. The whole
// ranking keeps every test (a safe order); --top and --time-budget cut it
// into a predictive subset, which every output marks as partial and unsafe
// together with the share of failures such a cut caught in validation.
//
//===----------------------------------------------------------------------===//

#include "CommandsInternal.h"
#include "tia/Predict/RankReport.h"
#include "tia/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

namespace tia {
namespace tool {

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

  size_t Kept = predict::keptTests(*R, O.Top, O.TimeBudget);
  bool Cut = Kept < R->Tests.size();
  switch (O.Format) {
  case ReportFormat::Text:
    predict::writeRankingText(*R, Kept, Out);
    break;
  case ReportFormat::Ids:
    predict::writeRankingIds(*R, Kept, Out);
    break;
  case ReportFormat::Json:
    predict::writeRankingJson(*R, Kept, Out);
    break;
  }
  Out.flush();
  // The ids output has no room for the mark: it goes to stderr, even with
  // --quiet, since it says the list is not safe.
  if (Cut && O.Format == ReportFormat::Ids)
    Err << "tia: warning: " << predict::cutWarning(*R, Kept) << "\n";
  if (!G.Quiet)
    Err << predict::rankSummary(*R, Kept) << "\n";
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
