//===- Catch2Listener.cpp - one coverage profile per Catch2 case ----------===//
//
// Compiled into a Catch2 (2.x) test binary by the CMake helper
// tia_add_coverage(<target> FRAMEWORK catch2), with the binary's own flags
// and Catch2 header. Like the GoogleTest listener it does nothing unless
// `tia collect` runs the binary with TIA_COLLECT_DIR set; then it writes
// the coverage counters after every test case and resets them, so that one
// process gives one profile per case (the journal: TiaJournal.h).
//
// Catch2 has no suites: the counters outside cases (static initializers,
// main, static destructors) go to "program" segments, which tia adds to
// every case of the process. A case's sections run inside the case.
//
//===----------------------------------------------------------------------===//

#define CATCH_CONFIG_EXTERNAL_INTERFACES
#include "TiaJournal.h"
#include <catch2/catch.hpp>

#if defined(TIA_COVERAGE_CLANG) || defined(TIA_COVERAGE_GCOV)
// tia looks for this string in a binary to know it can run all its cases in
// one process. The version changes when the journal format does.
extern "C" __attribute__((used)) const char tia_catch2_listener_marker[] =
    "tia-catch2-listener-v1";
#endif

namespace {

class TiaCoverageListener : public Catch::TestEventListenerBase {
public:
  using TestEventListenerBase::TestEventListenerBase;

  void testRunStarting(Catch::TestRunInfo const &Info) override {
    TestEventListenerBase::testRunStarting(Info);
    if (J.open())
      J.programRan();
  }

  void testCaseStarting(Catch::TestCaseInfo const &Info) override {
    TestEventListenerBase::testCaseStarting(Info);
    if (!J.active())
      return;
    Message.clear();
    J.caseStarted(Info.name);
  }

  bool assertionEnded(Catch::AssertionStats const &Stats) override {
    const Catch::AssertionResult &R = Stats.assertionResult;
    // Catch2's signal handler reports a crash as a failed assertion and
    // ends the case and the run before it raises the signal again: the
    // case must stay unfinished in the journal, so that tia sees it crash.
    if (R.getResultType() == Catch::ResultWas::FatalErrorCondition)
      Fatal = true;
    if (!J.active() || R.isOk() || !Message.empty())
      return true;
    std::string Text = std::string(R.getSourceInfo().file) + ":" +
                       std::to_string(R.getSourceInfo().line) + ": FAILED: ";
    if (R.hasExpression())
      Text += R.getExpressionInMacro() +
              " with expansion: " + R.getExpandedExpression();
    else
      Text += R.getMessage();
    Message = tia_runtime::Journal::oneLine(Text);
    return true;
  }

  void testCaseEnded(Catch::TestCaseStats const &Stats) override {
    TestEventListenerBase::testCaseEnded(Stats);
    if (!J.active() || Fatal)
      return;
    J.caseEnded(Stats.testInfo.name,
                Stats.totals.testCases.failed > 0 ? "failed" : "passed",
                Message);
  }

  void testRunEnded(Catch::TestRunStats const &Stats) override {
    TestEventListenerBase::testRunEnded(Stats);
    if (J.active() && !Fatal)
      J.runEnded();
  }

private:
  tia_runtime::Journal J;
  std::string Message;
  bool Fatal = false;
};

} // namespace

CATCH_REGISTER_LISTENER(TiaCoverageListener)
