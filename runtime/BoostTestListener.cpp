//===- BoostTestListener.cpp - one coverage profile per Boost.Test case ---===//
//
// Compiled into a Boost.Test (1.74) test binary by the CMake helper
// tia_add_coverage(<target> FRAMEWORK boost), with the binary's own flags and
// Boost headers. Like the other listeners it does nothing unless
// `tia collect` runs the binary with TIA_COLLECT_DIR set; then it writes the
// coverage counters after every test case and resets them, so that one
// process gives one profile per case (the journal: TiaJournal.h).
//
// A test observer sees the cases start and end; a log formatter added
// beside the binary's own loggers sees the messages of failed assertions.
// Boost.Test catches the signals of a crashing case and goes on with the
// next one: such a case ends "crashed". What runs when a suite starts or
// ends (a suite fixture) is program code, counted for every case.
//
//===----------------------------------------------------------------------===//

#include "TiaJournal.h"
#include <boost/test/execution_monitor.hpp>
#include <boost/test/framework.hpp>
#include <boost/test/tree/observer.hpp>
#include <boost/test/tree/test_unit.hpp>
#include <boost/test/unit_test_log.hpp>
#include <boost/test/unit_test_log_formatter.hpp>

#if defined(TIA_COVERAGE_CLANG) || defined(TIA_COVERAGE_GCOV)
// tia looks for this string in a binary to know it can run all its cases in
// one process. The version changes when the journal format does.
extern "C" __attribute__((used)) const char tia_boost_listener_marker[] =
    "tia-boost-listener-v1";
#endif

namespace {

namespace ut = boost::unit_test;

/// The case running now and what went wrong in it.
struct CaseState {
  tia_runtime::Journal J;
  bool Running = false;
  const char *Outcome = "passed";
  std::string Message;

  /// Keeps the first failure of the case.
  void failed(const char *How, const std::string &Text) {
    if (!Running)
      return;
    if (std::string(Outcome) == "passed" || std::string(How) == "crashed")
      Outcome = How;
    if (Message.empty())
      Message = tia_runtime::Journal::oneLine(Text);
  }
};

CaseState &state() {
  static CaseState S;
  return S;
}

/// Reads the messages of failed assertions ("file(line): message"); writes
/// nothing.
class MessageReader : public ut::unit_test_log_formatter {
public:
  void log_start(std::ostream &, ut::counter_t) override {}
  void log_finish(std::ostream &) override {}
  void log_build_info(std::ostream &, bool) override {}
  void test_unit_start(std::ostream &, const ut::test_unit &) override {}
  void test_unit_finish(std::ostream &, const ut::test_unit &,
                        unsigned long) override {}
  void log_exception_start(std::ostream &, const ut::log_checkpoint_data &,
                           const boost::execution_exception &) override {}
  void log_exception_finish(std::ostream &) override {}

  void log_entry_start(std::ostream &, const ut::log_entry_data &Entry,
                       log_entry_types Type) override {
    Reading = Type == BOOST_UTL_ET_ERROR || Type == BOOST_UTL_ET_FATAL_ERROR;
    if (Reading)
      Text = Entry.m_file_name + "(" + std::to_string(Entry.m_line_num) + "): ";
  }
  void log_entry_value(std::ostream &, ut::const_string Value) override {
    if (Reading)
      Text.append(Value.begin(), Value.end());
  }
  void log_entry_finish(std::ostream &) override {
    if (Reading)
      state().failed("failed", Text);
    Reading = false;
  }
  void entry_context_start(std::ostream &, ut::log_level) override {}
  void log_entry_context(std::ostream &, ut::log_level,
                         ut::const_string) override {}
  void entry_context_finish(std::ostream &, ut::log_level) override {}

private:
  bool Reading = false;
  std::string Text;
};

class TiaCoverageObserver : public ut::test_observer {
public:
  TiaCoverageObserver() { ut::framework::register_observer(*this); }

  // After Boost's own observers when a unit starts, before them when it
  // ends.
  int priority() override { return 10; }

  void test_start(ut::counter_t, ut::test_unit_id) override {
    if (!state().J.open())
      return;
    state().J.programRan();
    ut::unit_test_log.add_formatter(new MessageReader);
    ut::unit_test_log.set_threshold_level(ut::OF_CUSTOM_LOGGER,
                                          ut::log_all_errors);
    ut::unit_test_log.configure();
  }

  void test_finish() override {
    if (state().J.active() && !state().Running)
      state().J.runEnded();
  }

  void test_unit_start(const ut::test_unit &Unit) override {
    CaseState &S = state();
    if (!S.J.active())
      return;
    if (Unit.p_type != ut::TUT_CASE) {
      S.J.programRan();
      return;
    }
    S.Running = true;
    S.Outcome = "passed";
    S.Message.clear();
    S.J.caseStarted(Unit.full_name());
  }

  void test_unit_finish(const ut::test_unit &Unit, unsigned long) override {
    CaseState &S = state();
    if (!S.J.active())
      return;
    if (Unit.p_type != ut::TUT_CASE) {
      S.J.programRan();
      return;
    }
    S.Running = false;
    S.J.caseEnded(Unit.full_name(), S.Outcome, S.Message);
  }

  void test_unit_skipped(const ut::test_unit &Unit, ut::const_string) override {
    if (state().J.active() && Unit.p_type == ut::TUT_CASE)
      state().J.caseSkipped(Unit.full_name());
  }

  void test_unit_aborted(const ut::test_unit &) override {
    state().failed("failed", "aborted");
  }

  void test_unit_timed_out(const ut::test_unit &) override {
    state().failed("failed", "timed out (Boost.Test's timeout)");
  }

  void assertion_result(ut::assertion_result Result) override {
    // AR_TRIGGERED is a failed BOOST_WARN: no failure.
    if (Result == ut::AR_FAILED)
      state().failed("failed", "");
  }

  void exception_caught(const boost::execution_exception &E) override {
    auto Code = E.code();
    bool Crash = Code == boost::execution_exception::system_error ||
                 Code == boost::execution_exception::system_fatal_error;
    std::string Where;
    if (!E.where().m_file_name.is_empty())
      Where = std::string(E.where().m_file_name.begin(),
                          E.where().m_file_name.end()) +
              "(" + std::to_string(E.where().m_line_num) + "): ";
    state().failed(Crash ? "crashed" : "failed",
                   Where + std::string(E.what().begin(), E.what().end()));
  }
};

TiaCoverageObserver Observer;

} // namespace
