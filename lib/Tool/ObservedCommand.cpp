//===- ObservedCommand.cpp - tia observed ---------------------------------===//
//
// What the observed runs say about selection: reads the records `tia run
// --observe` kept, the results of the runs and the flaky tests (as the
// selection policy sees them), and reports every failure as caught,
// escaped or unstable (lib/Observe).
//
//===----------------------------------------------------------------------===//

#include "CommandsInternal.h"
#include "tia/Observe/Report.h"
#include "tia/Predict/Predict.h"

namespace tia {
namespace tool {

namespace {

/// The runs, results and flaky tests \p S holds for its observed runs.
llvm::Expected<observe::ReportInput> reportInput(Store &S,
                                                 const config::Config &C) {
  observe::ReportInput In;
  auto Observed = S.observations();
  if (!Observed)
    return Observed.takeError();
  In.Observations = std::move(*Observed);
  auto Runs = S.runs();
  if (!Runs)
    return Runs.takeError();
  In.Runs = std::move(*Runs);
  if (In.Observations.empty())
    return In;
  int64_t Oldest = 0;
  for (const RunRecord &R : In.Runs)
    if (R.Id == In.Observations.front().RunId)
      Oldest = R.StartedAt;
  auto Results = S.allResults(Oldest);
  if (!Results)
    return Results.takeError();
  In.Results = std::move(*Results);
  auto Flaky = predict::flakyTests(S, C.Predict);
  if (!Flaky)
    return Flaky.takeError();
  In.Flaky = std::move(*Flaky);
  return In;
}

} // namespace

llvm::Error runObserved(const GlobalOptions &G, const ObservedOptions &O,
                        llvm::raw_ostream &Out, llvm::raw_ostream &Err) {
  auto Ctx = makeContext(G, /*NeedGit=*/false);
  if (!Ctx)
    return Ctx.takeError();
  auto S = Store::open(Ctx->DbPath, Store::Mode::ReadOnly);
  if (!S)
    return S.takeError();
  auto In = reportInput(**S, Ctx->Config);
  if (!In)
    return In.takeError();
  observe::Report R = observe::makeReport(*In);
  switch (O.Format) {
  case ObservedFormat::Text:
    observe::writeText(R, Out);
    break;
  case ObservedFormat::Json:
    observe::writeJson(R, Out);
    break;
  case ObservedFormat::Markdown:
    observe::writeMarkdown(R, Out);
    break;
  }
  // The summary comes last also when both streams go to one terminal.
  Out.flush();
  for (const std::string &Skipped : R.Skipped)
    Err << "tia: warning: skipped the record of " << Skipped << "\n";
  if (!G.Quiet) {
    if (R.Runs.empty() && R.Skipped.empty())
      Err << "no observed run: run the tests with 'tia run --observe'\n";
    else
      Err << observe::summaryLine(R) << "\n";
  }
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// Command line
//===----------------------------------------------------------------------===//

llvm::cl::SubCommand ObservedSubcommand(
    "observed", "'tia observed': the failures of the observed runs ('tia run "
                "--observe') that the selection caught, let escape, or that "
                "were unstable");

namespace {
llvm::cl::opt<ObservedFormat>
    Format("format", llvm::cl::desc("Output on stdout"),
           llvm::cl::values(
               clEnumValN(ObservedFormat::Text, "text",
                          "per run its failures, then the totals"),
               clEnumValN(ObservedFormat::Json, "json",
                          "the whole report (docs/Formats.md)"),
               clEnumValN(ObservedFormat::Markdown, "markdown",
                          "a summary for a CI step or a pull request comment")),
           llvm::cl::init(ObservedFormat::Text), llvm::cl::cat(tiaCategory()),
           llvm::cl::sub(ObservedSubcommand));
} // namespace

int observedMain(const GlobalOptions &G) {
  ObservedOptions O;
  O.Format = Format;
  return exitCode(runObserved(G, O, llvm::outs(), llvm::errs()));
}

} // namespace tool
} // namespace tia
