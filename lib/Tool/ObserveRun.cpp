//===- ObserveRun.cpp - tia run --observe ---------------------------------===//
//
// An observed run runs every test, as CI did before tia; what it adds is
// the record of the selection tia would have made in each mode, kept with
// the run's results. Nothing here may change the run's outcome: a mode
// that cannot be planned and a record that cannot be written are warnings.
//
//===----------------------------------------------------------------------===//

#include "CommandsInternal.h"
#include "tia/Observe/Record.h"
#include "tia/Report/Explain.h"
#include "tia/Support/Plural.h"
#include "llvm/Support/FormatVariadic.h"

namespace tia {
namespace tool {

std::vector<OtherMode> planOtherModes(const GlobalOptions &G,
                                      const SelectCommandOptions &O,
                                      select::SelectionMode Asked) {
  std::vector<OtherMode> Out;
  for (select::SelectionMode M :
       {select::SelectionMode::Combined, select::SelectionMode::Coverage,
        select::SelectionMode::Static}) {
    if (M == Asked)
      continue;
    SelectCommandOptions Other = O;
    Other.Mode = M;
    OtherMode Entry;
    Entry.Mode = M;
    auto Made = makePlan(G, Other, "HEAD");
    if (Made) {
      Made->DB.reset();
      Entry.Made.emplace(std::move(*Made));
    } else {
      Entry.Error = llvm::toString(Made.takeError());
    }
    Out.push_back(std::move(Entry));
  }
  return Out;
}

namespace {

/// "observed run 3: the combined selection would have run 2 of 5 tests
/// (0.4 of 1.2 s); 1 test failed: 1 selected, 0 not".
void summarise(const Observation &O, const observe::Record &R,
               llvm::raw_ostream &Err) {
  const observe::ModeRecord &M = R.Modes.front();
  Err << "observed run " << O.RunId << ": the " << M.Mode << " selection ";
  if (!M.Error.empty()) {
    Err << "failed: " << M.Error << "\n";
    return;
  }
  Err << llvm::formatv("would have run {0} of {1} tests ({2:f1} of {3:f1} s)",
                       M.WouldRun, R.Tests, M.WouldRunSeconds, R.Seconds);
  unsigned Missed =
      llvm::count_if(R.Failures, [](const observe::FailureRecord &F) {
        return !F.Why.empty();
      });
  unsigned Failed = R.Failures.size();
  Err << "; " << Failed << " test" << pluralS(Failed) << " failed, " << Missed
      << " of them not run by it" << (Missed ? ": see 'tia observed'" : "")
      << "\n";
}

} // namespace

void observeRun(const Observation &O, llvm::raw_ostream &Err) {
  std::vector<observe::ModePlan> Modes;
  Modes.push_back({O.Asked.Changes.Mode, &O.Asked, ""});
  for (const OtherMode &M : O.Others)
    Modes.push_back({M.Mode, M.Made ? &M.Made->Plan : nullptr, M.Error});
  observe::RecordInput In;
  In.Runner = O.Runner;
  In.Exclusion = O.Exclusion;
  In.Explain = [&](const select::Plan &P, llvm::StringRef Id,
                   llvm::raw_ostream &OS) {
    return report::explainTest(P, O.S, Id, OS);
  };
  auto Warn = [&](llvm::Error E) {
    Err << "tia: warning: the selection of run " << O.RunId
        << " was not recorded: " << llvm::toString(std::move(E)) << "\n";
  };
  auto Results = O.S.resultsOfRun(O.RunId);
  if (!Results)
    return Warn(Results.takeError());
  In.Results = std::move(*Results);
  auto R = observe::makeRecord(Modes, In);
  if (!R)
    return Warn(R.takeError());
  if (llvm::Error E = O.S.putObservation(
          {O.RunId, observe::RecordVersion, observe::recordJson(*R)}))
    return Warn(std::move(E));
  if (!O.G.Quiet)
    summarise(O, *R, Err);
}

} // namespace tool
} // namespace tia
