//===- Schedule.cpp - running units of tests as ctest would --------------===//
//
// ctest -j runs tests side by side unless their properties say otherwise:
// RUN_SERIAL runs alone, PROCESSORS takes that many of the jobs,
// RESOURCE_LOCK keeps the tests sharing a lock apart, a test that
// FIXTURES_REQUIRED a fixture starts after the tests of this run that
// FIXTURES_SETUP it ended, and a FIXTURES_CLEANUP test after the tests
// requiring it. The units start in the order given, each as soon as these
// rules let it.
//
//===----------------------------------------------------------------------===//

#include "CollectInternal.h"
#include <condition_variable>
#include <thread>

namespace tia {
namespace collect {

namespace {

/// Which unit may start now, under ctest's rules.
class Admission {
public:
  Admission(const std::vector<Unit> &Units, unsigned Jobs) : Jobs(Jobs) {
    for (const Unit &U : Units) {
      Pending.push_back(&U);
      for (const std::string &F : U.Sched->Setup)
        ++SetupLeft[F];
      for (const std::string &F : U.Sched->Requires)
        ++RequiredLeft[F];
    }
  }

  /// The next unit to run, once one may start; nullptr when none is left.
  const Unit *next() {
    std::unique_lock<std::mutex> Lock(M);
    while (!Pending.empty()) {
      auto It =
          llvm::find_if(Pending, [&](const Unit *U) { return mayStart(*U); });
      // Nothing runs and nothing may start: fixtures that wait on each
      // other. Run the first rather than nothing.
      if (It == Pending.end() && Running == 0)
        It = Pending.begin();
      if (It != Pending.end()) {
        const Unit *U = *It;
        Pending.erase(It);
        start(*U);
        return U;
      }
      Changed.wait(Lock);
    }
    return nullptr;
  }

  void done(const Unit &U) {
    std::lock_guard<std::mutex> Lock(M);
    --Running;
    Busy -= cost(U);
    if (U.Sched->RunSerial)
      SerialRunning = false;
    for (const std::string &L : U.Sched->Locks)
      Held.erase(L);
    for (const std::string &F : U.Sched->Setup)
      --SetupLeft[F];
    for (const std::string &F : U.Sched->Requires)
      --RequiredLeft[F];
    Changed.notify_all();
  }

private:
  /// The jobs \p U takes: PROCESSORS, at most all of them.
  unsigned cost(const Unit &U) const {
    return std::min(Jobs, std::max(1u, U.Sched->Processors));
  }

  bool mayStart(const Unit &U) const {
    const Schedule &S = *U.Sched;
    if (SerialRunning || (S.RunSerial && Running) || Busy + cost(U) > Jobs)
      return false;
    if (llvm::any_of(S.Locks,
                     [&](const std::string &L) { return Held.count(L); }))
      return false;
    auto Left = [](const std::map<std::string, unsigned> &Counts,
                   const std::string &F) {
      auto It = Counts.find(F);
      return It != Counts.end() && It->second > 0;
    };
    if (llvm::any_of(S.Requires,
                     [&](const std::string &F) { return Left(SetupLeft, F); }))
      return false;
    return llvm::none_of(S.Cleanup, [&](const std::string &F) {
      return Left(SetupLeft, F) || Left(RequiredLeft, F);
    });
  }

  void start(const Unit &U) {
    ++Running;
    Busy += cost(U);
    if (U.Sched->RunSerial)
      SerialRunning = true;
    for (const std::string &L : U.Sched->Locks)
      Held.insert(L);
  }

  unsigned Jobs;
  std::mutex M;
  std::condition_variable Changed;
  std::vector<const Unit *> Pending;
  unsigned Running = 0, Busy = 0;
  bool SerialRunning = false;
  std::set<std::string> Held;
  /// Per fixture: the units of this run still to end that set it up, and
  /// those that require it.
  std::map<std::string, unsigned> SetupLeft, RequiredLeft;
};

} // namespace

void runScheduled(const std::vector<Unit> &Units, unsigned Jobs,
                  llvm::function_ref<void(const Unit &)> Run) {
  Jobs = std::max(1u, Jobs);
  Admission A(Units, Jobs);
  std::vector<std::thread> Workers;
  for (unsigned J = 0; J < std::min<size_t>(Jobs, Units.size()); ++J)
    Workers.emplace_back([&] {
      while (const Unit *U = A.next()) {
        Run(*U);
        A.done(*U);
      }
    });
  for (std::thread &W : Workers)
    W.join();
}

} // namespace collect
} // namespace tia
