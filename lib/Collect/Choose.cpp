//===- Choose.cpp - which discovered tests a collect runs -----------------===//
//
// A collect runs the tests ctest lists, narrowed three ways, in this order:
// --only (with the tests that set up and clean up the fixtures the chosen
// ones require, as ctest adds them), --incremental (the tests a selection
// carries over stay out) and --shard (share K of the rest).
//
//===----------------------------------------------------------------------===//

#include "CollectInternal.h"
#include "tia/Support/Error.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/GlobPattern.h"
#include <map>
#include <set>

namespace tia {
namespace collect {

namespace {

/// Adds to \p Chosen (flags over \p All) the tests that set up or clean
/// up a fixture a chosen test requires, as ctest adds them to a -R run,
/// with the fixtures those need in turn; says which unless \p Quiet
/// (\p Chosen names what chose the tests: "a test --only names").
void addFixtureTests(const std::vector<DiscoveredTest> &All,
                     std::vector<bool> &Chosen, llvm::StringRef Chooser,
                     llvm::raw_ostream &Err, bool Quiet) {
  std::set<std::string> Needed;
  bool Grew = true;
  while (Grew) {
    Grew = false;
    for (size_t I = 0; I < All.size(); ++I)
      if (Chosen[I])
        for (const std::string &F : All[I].Sched.Requires)
          Grew |= Needed.insert(F).second;
    for (size_t I = 0; I < All.size(); ++I) {
      if (Chosen[I])
        continue;
      const Schedule &S = All[I].Sched;
      for (const std::vector<std::string> *Fixtures : {&S.Setup, &S.Cleanup})
        for (const std::string &F : *Fixtures)
          if (!Chosen[I] && Needed.count(F)) {
            Chosen[I] = Grew = true;
            if (!Quiet)
              Err << "tia: note: running " << All[I].Id << " too: it "
                  << (Fixtures == &S.Setup ? "sets up" : "cleans up")
                  << " fixture " << F << ", which " << Chooser << " requires\n";
          }
    }
  }
}

} // namespace

/// The tests --only names (ids or glob patterns), with the tests of the
/// fixtures they require; warns of names that match nothing.
llvm::Expected<std::vector<DiscoveredTest>>
selectOnly(std::vector<DiscoveredTest> All,
           const std::vector<std::string> &Only, llvm::raw_ostream &Err,
           bool Quiet) {
  if (Only.empty())
    return All;
  std::vector<llvm::GlobPattern> Patterns;
  for (const std::string &O : Only) {
    auto P = llvm::GlobPattern::create(O);
    if (!P)
      return makeErrorf("bad --only pattern '{0}': {1}", O,
                        llvm::toString(P.takeError()));
    Patterns.push_back(std::move(*P));
  }
  std::vector<bool> Used(Only.size(), false);
  std::vector<bool> Chosen(All.size(), false);
  for (size_t T = 0; T < All.size(); ++T)
    for (size_t I = 0; I < Patterns.size(); ++I)
      if (Patterns[I].match(All[T].Id))
        Chosen[T] = Used[I] = true;
  for (size_t I = 0; I < Only.size(); ++I)
    if (!Used[I] && !Quiet)
      Err << "tia: warning: --only " << Only[I]
          << " matches no discovered test (removed or renamed?)\n";
  if (llvm::none_of(Chosen, [](bool C) { return C; }))
    return makeError("--only matches none of the discovered tests: check the "
                     "ids with 'tia dump tests' or 'ctest -N'");
  addFixtureTests(All, Chosen, "a test --only names", Err, Quiet);
  std::vector<DiscoveredTest> Out;
  for (size_t T = 0; T < All.size(); ++T)
    if (Chosen[T])
      Out.push_back(std::move(All[T]));
  return Out;
}

/// Leaves the tests \p Carry carries over out of \p Tests; returns how
/// many.
unsigned leaveOut(std::vector<DiscoveredTest> &Tests,
                  const std::optional<CarryOver> &Carry, llvm::raw_ostream &Err,
                  bool Quiet) {
  if (!Carry)
    return 0;
  std::vector<bool> Run(Tests.size());
  for (size_t I = 0; I < Tests.size(); ++I)
    Run[I] = !Carry->Tests.count(Tests[I].Id);
  // A test that runs needs its fixtures' set-up and clean-up, carried
  // over or not.
  addFixtureTests(Tests, Run, "a test the change affects", Err, Quiet);
  std::vector<DiscoveredTest> Kept;
  for (size_t I = 0; I < Tests.size(); ++I)
    if (Run[I])
      Kept.push_back(std::move(Tests[I]));
  unsigned Left = Tests.size() - Kept.size();
  Tests = std::move(Kept);
  return Left;
}

/// --shard: keeps share K of \p Tests (a test is a unit: the cases of one
/// binary may go to several shares) and says what it holds; returns the
/// plan, std::nullopt without --shard.
std::optional<shard::ShardPlan> keepShare(std::vector<DiscoveredTest> &Tests,
                                          const CollectOptions &O,
                                          llvm::raw_ostream &Err) {
  if (!O.Shard)
    return std::nullopt;
  std::vector<std::string> Ids;
  for (const DiscoveredTest &T : Tests)
    Ids.push_back(T.Id);
  shard::ShardPlan Plan = shard::planByCost(
      Ids, O.Durations, [](const std::string &) { return 1.0; }, O.Shard->N);
  std::vector<std::string> Mine = Plan.unitsOf(O.Shard->K);
  std::set<std::string> Keep(Mine.begin(), Mine.end());
  llvm::erase_if(Tests,
                 [&](const DiscoveredTest &T) { return !Keep.count(T.Id); });
  if (!O.Quiet)
    Err << shard::describeShare(Plan, O.Shard->K, "tests",
                                O.Durations.empty()
                                    ? "tests (by count)"
                                    : "s of test time (recorded)")
        << "\n";
  return Plan;
}

} // namespace collect
} // namespace tia
