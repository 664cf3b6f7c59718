//===- DoctestListener.cpp - one coverage profile per doctest case --------===//
//
// Compiled into a doctest (2.4) test binary by the CMake helper
// tia_add_coverage(<target> FRAMEWORK doctest), with the binary's own flags
// and doctest header. Like the GoogleTest and Catch2 listeners it does
// nothing unless `tia collect` runs the binary with TIA_COLLECT_DIR set;
// then it writes the coverage counters after every test case and resets
// them, so that one process gives one profile per case (the journal:
// TiaJournal.h). A case's subcases run inside the case; test suites only
// group names, so what runs outside cases is program code.
//
//===----------------------------------------------------------------------===//

#include "TiaJournal.h"
#include <doctest/doctest.h>

#if defined(TIA_COVERAGE_CLANG) || defined(TIA_COVERAGE_GCOV)
// tia looks for this string in a binary to know it can run all its cases in
// one process. The version changes when the journal format does.
extern "C" __attribute__((used)) const char tia_doctest_listener_marker[] =
    "tia-doctest-listener-v1";
#endif

namespace {

struct TiaCoverageListener : public doctest::IReporter {
  explicit TiaCoverageListener(const doctest::ContextOptions &) {}

  void report_query(const doctest::QueryData &) override {}

  void test_run_start() override {
    if (J.open())
      J.programRan();
  }

  void test_run_end(const doctest::TestRunStats &) override {
    if (J.active() && !Fatal)
      J.runEnded();
  }

  void test_case_start(const doctest::TestCaseData &Data) override {
    if (!J.active())
      return;
    Name = Data.m_name;
    Message.clear();
    J.caseStarted(Name);
  }

  void test_case_reenter(const doctest::TestCaseData &) override {}

  void test_case_end(const doctest::CurrentTestCaseStats &Stats) override {
    if (!J.active() || Fatal)
      return;
    J.caseEnded(Name, Stats.testCaseSuccess ? "passed" : "failed", Message);
  }

  void test_case_exception(const doctest::TestCaseException &E) override {
    // doctest's signal handler reports a crash here and ends the run before
    // it raises the signal again: the case must stay unfinished in the
    // journal, so that tia sees it crash.
    if (E.is_crash) {
      Fatal = true;
      return;
    }
    remember(std::string("exception: ") + E.error_string.c_str());
  }

  void subcase_start(const doctest::SubcaseSignature &) override {}
  void subcase_end() override {}

  void log_assert(const doctest::AssertData &A) override {
    if (!A.m_failed)
      return;
    std::string Text = std::string(A.m_file) + ":" + std::to_string(A.m_line) +
                       ": ERROR: " + A.m_expr;
    if (A.m_threw)
      Text += " threw: " + std::string(A.m_exception.c_str());
    else if (A.m_decomp.size())
      Text += " with expansion: " + std::string(A.m_decomp.c_str());
    remember(Text);
  }

  void log_message(const doctest::MessageData &) override {}
  void test_case_skipped(const doctest::TestCaseData &) override {}

private:
  /// Keeps the first failure of the case.
  void remember(const std::string &Text) {
    if (J.active() && Message.empty())
      Message = tia_runtime::Journal::oneLine(Text);
  }

  tia_runtime::Journal J;
  std::string Name, Message;
  bool Fatal = false;
};

} // namespace

REGISTER_LISTENER("tia-coverage", 1, TiaCoverageListener);
