//===- GTestListener.cpp - one coverage profile per GoogleTest case -------===//
//
// Compiled into a GoogleTest binary by the CMake helper tia_add_coverage()
// (with the binary's own flags and GoogleTest headers, so no ABI is shared
// with tia). It does nothing unless `tia collect` runs the binary with
// TIA_COLLECT_DIR set; then it writes the coverage counters after every
// test case and resets them, so that one process gives one profile per
// case (the journal and its segments: TiaJournal.h):
//
//   clang (-fprofile-instr-generate): __llvm_profile_set_filename,
//     __llvm_profile_write_file, __llvm_profile_reset_counters
//   gcc (--coverage): GCOV_PREFIX, __gcov_dump, __gcov_reset
//
// The counters outside cases (static initializers, main, environments,
// SetUpTestSuite/TearDownTestSuite, static destructors) go to "program" and
// "suite" segments, which tia adds to every case of the process or suite,
// so a case covers what it would cover alone in its own process. Segments
// start where the user's code may run: before the first suite, before the
// first case of a suite, after each case, after each suite, at the end.
//
//===----------------------------------------------------------------------===//

#include "TiaJournal.h"
#include "gtest/gtest.h"
#include <string>

#if defined(TIA_COVERAGE_CLANG) || defined(TIA_COVERAGE_GCOV)
// tia looks for this string in a binary to know it can run all its cases in
// one process. The version changes when the journal format does.
extern "C" __attribute__((used)) const char tia_gtest_listener_marker[] =
    "tia-gtest-listener-v1";
#endif

namespace {

class CoverageListener : public testing::EmptyTestEventListener {
public:
  /// False when tia does not run the binary: then it is not appended.
  bool open() { return J.open(); }

  // Between the cases of a suite, and between suites, only GoogleTest's own
  // code runs: a segment starts only where the user's code may run.
  void OnTestSuiteStart(const testing::TestSuite &) override {
    if (!Started)
      J.programRan();
    Started = true;
    FirstInSuite = true;
  }
  void OnTestStart(const testing::TestInfo &T) override {
    if (FirstInSuite)
      J.suiteRan(T.test_suite_name());
    FirstInSuite = false;
    Message.clear();
    J.caseStarted(name(T));
  }
  void OnTestPartResult(const testing::TestPartResult &R) override {
    if (!R.failed() || !Message.empty())
      return;
    std::string Text = R.file_name()
                           ? std::string(R.file_name()) + ":" +
                                 std::to_string(R.line_number()) + ": "
                           : std::string();
    Message = tia_runtime::Journal::oneLine(Text + R.summary());
  }
  void OnTestEnd(const testing::TestInfo &T) override {
    const testing::TestResult *R = T.result();
    const char *Outcome =
        R->Skipped() ? "skipped" : (R->Failed() ? "failed" : "passed");
    J.caseEnded(name(T), Outcome, Message);
  }
  void OnTestSuiteEnd(const testing::TestSuite &S) override {
    J.suiteRan(S.name());
  }
  void OnTestProgramEnd(const testing::UnitTest &) override { J.runEnded(); }

private:
  static std::string name(const testing::TestInfo &T) {
    return std::string(T.test_suite_name()) + "." + T.name();
  }

  tia_runtime::Journal J;
  std::string Message;
  bool Started = false;
  bool FirstInSuite = false;
};

/// Appends the listener before main runs, when tia asks for it.
struct Registration {
  Registration() {
#if defined(TIA_COVERAGE_CLANG) || defined(TIA_COVERAGE_GCOV)
    auto *Listener = new CoverageListener;
    if (!Listener->open()) {
      delete Listener;
      return;
    }
    testing::UnitTest::GetInstance()->listeners().Append(Listener);
#endif
  }
} TheRegistration;

} // namespace
