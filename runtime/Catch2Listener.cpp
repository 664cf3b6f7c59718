//===- Catch2Listener.cpp - one coverage profile per Catch2 case ----------===//
//
// Compiled into a Catch2 (2.x) test binary by the CMake helper
// tia_add_coverage(<target> FRAMEWORK catch2), with the binary's own flags
// and Catch2 header. Like the GoogleTest listener (GTestListener.cpp, whose
// journal it writes) it does nothing unless `tia collect` runs the binary
// with TIA_COLLECT_DIR set; then it writes the coverage counters after
// every test case and resets them, so that one process gives one profile
// per case.
//
// Catch2 has no suites: the counters outside cases (static initializers,
// main, static destructors) go to "program" segments, which tia adds to
// every case of the process. A case's sections run inside the case.
// Case names may hold spaces: the journal writes them %-escaped (' ' is
// %20, '%' is %25, line breaks %0A and %0D).
//
//===----------------------------------------------------------------------===//

#define CATCH_CONFIG_EXTERNAL_INTERFACES
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#if defined(TIA_COVERAGE_CLANG)
extern "C" {
int __llvm_profile_write_file(void);
void __llvm_profile_set_filename(const char *Name);
void __llvm_profile_reset_counters(void);
}
#elif defined(TIA_COVERAGE_GCOV)
extern "C" {
void __gcov_dump(void);
void __gcov_reset(void);
}
#endif

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
    const char *Env = std::getenv("TIA_COLLECT_DIR");
    if (!Env || !*Env)
      return;
    Dir = Env;
    Journal = std::fopen((Dir + "/journal").c_str(), "a");
    dump("program", next("program"));
  }

  void testCaseStarting(Catch::TestCaseInfo const &Info) override {
    TestEventListenerBase::testCaseStarting(Info);
    if (!Journal)
      return;
    Message.clear();
    CaseSegment = next("case");
    // A case that ends the process writes its counters where they belong,
    // and the processes it starts write theirs beside them.
    target(CaseSegment);
#if defined(TIA_COVERAGE_CLANG)
    std::string Child = CaseSegment;
    Child.insert(Child.size() - 8, "-child-%p-%m");
    setenv("LLVM_PROFILE_FILE", (Dir + "/" + Child).c_str(), 1);
#endif
    note("start " + escape(Info.name));
    CaseStart = std::chrono::steady_clock::now();
  }

  bool assertionEnded(Catch::AssertionStats const &Stats) override {
    const Catch::AssertionResult &R = Stats.assertionResult;
    // Catch2's signal handler reports a crash as a failed assertion and
    // ends the case and the run before it raises the signal again: the
    // case must stay unfinished in the journal, so that tia sees it crash.
    if (R.getResultType() == Catch::ResultWas::FatalErrorCondition)
      Fatal = true;
    if (!Journal || R.isOk() || !Message.empty())
      return true;
    std::string Text = std::string(R.getSourceInfo().file) + ":" +
                       std::to_string(R.getSourceInfo().line) + ": FAILED: ";
    if (R.hasExpression())
      Text += R.getExpressionInMacro() + " with expansion: " +
              R.getExpandedExpression();
    else
      Text += R.getMessage();
    for (char &C : Text)
      if (C == '\n' || C == '\r')
        C = ' ';
    Message = Text.substr(0, 300);
    return true;
  }

  void testCaseEnded(Catch::TestCaseStats const &Stats) override {
    TestEventListenerBase::testCaseEnded(Stats);
    if (!Journal || Fatal)
      return;
    auto Micros = std::chrono::duration_cast<std::chrono::microseconds>(
                      std::chrono::steady_clock::now() - CaseStart)
                      .count();
    std::string Name = escape(Stats.testInfo.name);
    dump("case " + Name, CaseSegment);
    const char *Outcome =
        Stats.totals.testCases.failed > 0 ? "failed" : "passed";
    note("end " + Name + " " + Outcome + " " + std::to_string(Micros) +
         (Message.empty() ? "" : " " + Message));
  }

  void testRunEnded(Catch::TestRunStats const &Stats) override {
    TestEventListenerBase::testRunEnded(Stats);
    if (!Journal || Fatal)
      return;
    dump("program", next("program"));
    // What runs after this (static destructors) is written at exit.
    std::string Exit = next("program");
    note("program " + Exit);
    target(Exit);
  }

private:
  static std::string escape(const std::string &Name) {
    std::string Out;
    for (char C : Name) {
      if (C == ' ')
        Out += "%20";
      else if (C == '%')
        Out += "%25";
      else if (C == '\n')
        Out += "%0A";
      else if (C == '\r')
        Out += "%0D";
      else
        Out += C;
    }
    return Out;
  }

  /// A fresh segment name: "case-12.profraw" (clang) or "case-12" (a
  /// GCOV_PREFIX folder for gcc).
  std::string next(const char *Kind) {
    std::string Name = std::string(Kind) + "-" + std::to_string(++Count);
#if defined(TIA_COVERAGE_CLANG)
    Name += ".profraw";
#endif
    return Name;
  }

  /// Points the profile runtime at segment \p Name.
  void target(const std::string &Name) {
    std::string Path = Dir + "/" + Name;
#if defined(TIA_COVERAGE_CLANG)
    // The runtime keeps the pointer: give it storage that lives on.
    static std::string Current;
    Current = Path;
    __llvm_profile_set_filename(Current.c_str());
#elif defined(TIA_COVERAGE_GCOV)
    setenv("GCOV_PREFIX", Path.c_str(), 1);
#endif
  }

  /// Writes the counters gathered since the last dump to segment \p Name,
  /// records it as "RECORD NAME" and starts counting from zero.
  void dump(const std::string &Record, const std::string &Name) {
    target(Name);
#if defined(TIA_COVERAGE_CLANG)
    __llvm_profile_write_file();
    __llvm_profile_reset_counters();
#elif defined(TIA_COVERAGE_GCOV)
    __gcov_dump();
    __gcov_reset();
#endif
    note(Record + " " + Name);
  }

  void note(const std::string &Line) {
    std::fprintf(Journal, "%s\n", Line.c_str());
    std::fflush(Journal);
  }

  std::string Dir;
  std::FILE *Journal = nullptr;
  std::string Message;
  std::string CaseSegment;
  unsigned Count = 0;
  std::chrono::steady_clock::time_point CaseStart;
  bool Fatal = false;
};

} // namespace

CATCH_REGISTER_LISTENER(TiaCoverageListener)
