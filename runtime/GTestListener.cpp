//===- GTestListener.cpp - one coverage profile per GoogleTest case -------===//
//
// Compiled into a GoogleTest binary by the CMake helper tia_add_coverage()
// (with the binary's own flags and GoogleTest headers, so no ABI is shared
// with tia). It does nothing unless `tia collect` runs the binary with
// TIA_COLLECT_DIR set; then it writes the coverage counters after every
// test case and resets them, so that one process gives one profile per
// case:
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
// TIA_COLLECT_DIR/journal records, one line each, flushed at once, so that
// tia knows which case was running when the process crashed or hung:
//
//   program SEGMENT         counters outside any suite
//   suite SUITE SEGMENT     counters of SUITE outside its cases
//   start SUITE.NAME        a case starts
//   case SUITE.NAME SEGMENT the counters of the case
//   end SUITE.NAME passed|failed|skipped MICROSECONDS [MESSAGE]
//
// SEGMENT is a profile file (clang) or a GCOV_PREFIX folder (gcc; one per
// suite and one for the program, which gcov adds each dump to), relative
// to TIA_COLLECT_DIR. Processes a case starts write beside its segment
// (clang: "case-N-child-PID-MODULE.profraw"; gcc: into the same folder). The
// segment after the last case ("program exit") is written by the profile
// runtime itself when the process exits.
//
// When tia traces the files tests read (TIA_READS_FILE set), a case's reads
// go to "case-N.reads" beside its segment, the rest to the file tia named
// (runtime/FileReadTracer.c).
//
//===----------------------------------------------------------------------===//

#include "gtest/gtest.h"
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
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
extern "C" __attribute__((used)) const char tia_gtest_listener_marker[] =
    "tia-gtest-listener-v1";
#endif

namespace {

class CoverageListener : public testing::EmptyTestEventListener {
public:
  CoverageListener(std::string Dir) : Dir(std::move(Dir)) {
    Journal = std::fopen((this->Dir + "/journal").c_str(), "a");
    if (const char *Reads = std::getenv("TIA_READS_FILE"))
      ProgramReads = Reads;
  }

  // Between the cases of a suite, and between suites, only GoogleTest's own
  // code runs: a segment starts only where the user's code may run.
  void OnTestSuiteStart(const testing::TestSuite &) override {
    if (!Started)
      dump("program", programSegment());
    Started = true;
    FirstInSuite = true;
  }
  void OnTestStart(const testing::TestInfo &T) override {
    if (FirstInSuite)
      dump(std::string("suite ") + T.test_suite_name(),
           suiteSegment(T.test_suite_name()));
    FirstInSuite = false;
    Message.clear();
    CaseSegment = next("case");
    // A case that ends the process writes its counters where they belong,
    // and the processes it starts (death tests, helpers) inherit where to
    // write theirs: beside the case's (gcc: into the same folder).
    target(CaseSegment);
#if defined(TIA_COVERAGE_CLANG)
    std::string Child = CaseSegment;
    Child.insert(Child.size() - 8, "-child-%p-%m");
    setenv("LLVM_PROFILE_FILE", (Dir + "/" + Child).c_str(), 1);
#endif
    traceReadsTo(Dir + "/" + CaseSegment.substr(0, CaseSegment.find('.')) +
                 ".reads");
    note("start " + name(T));
    CaseStart = std::chrono::steady_clock::now();
  }
  void OnTestPartResult(const testing::TestPartResult &R) override {
    if (!R.failed() || !Message.empty())
      return;
    std::string Text = R.file_name()
                           ? std::string(R.file_name()) + ":" +
                                 std::to_string(R.line_number()) + ": "
                           : std::string();
    Text += R.summary();
    for (char &C : Text)
      if (C == '\n' || C == '\r')
        C = ' ';
    Message = Text.substr(0, 300);
  }
  void OnTestEnd(const testing::TestInfo &T) override {
    auto Micros = std::chrono::duration_cast<std::chrono::microseconds>(
                      std::chrono::steady_clock::now() - CaseStart)
                      .count();
    dump("case " + name(T), CaseSegment);
    traceReadsTo(ProgramReads);
    const testing::TestResult *R = T.result();
    const char *Outcome =
        R->Skipped() ? "skipped" : (R->Failed() ? "failed" : "passed");
    note("end " + name(T) + " " + Outcome + " " + std::to_string(Micros) +
         (Message.empty() ? "" : " " + Message));
  }
  void OnTestSuiteEnd(const testing::TestSuite &S) override {
    dump(std::string("suite ") + S.name(), suiteSegment(S.name()));
  }
  void OnTestProgramEnd(const testing::UnitTest &) override {
    dump("program", programSegment());
    // What runs after this (static destructors) is written at exit.
    std::string Exit = programSegment();
    note("program " + Exit);
    target(Exit);
  }

private:
  static std::string name(const testing::TestInfo &T) {
    return std::string(T.test_suite_name()) + "." + T.name();
  }

#if defined(TIA_COVERAGE_GCOV)
  // gcov adds a dump to the data files already in its folder: one folder
  // serves all of the program's segments, one all of a suite's, and gcov
  // reads fewer files.
  std::string programSegment() { return "program"; }
  std::string suiteSegment(const std::string &Suite) {
    std::string &Name = Suites[Suite];
    if (Name.empty())
      Name = next("suite");
    return Name;
  }
  std::map<std::string, std::string> Suites;
#else
  std::string programSegment() { return next("program"); }
  std::string suiteSegment(const std::string &) { return next("suite"); }
#endif

  /// A fresh segment name: "case-12.profraw" or "case-12".
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

  /// Points tia's file read tracer, which reads the variable at every open,
  /// at \p File, when it traces.
  void traceReadsTo(const std::string &File) {
    if (!ProgramReads.empty())
      setenv("TIA_READS_FILE", File.c_str(), 1);
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
    if (!Journal)
      return;
    std::fprintf(Journal, "%s\n", Line.c_str());
    std::fflush(Journal);
  }

  std::string Dir;
  std::FILE *Journal = nullptr;
  std::string Message;
  std::string CaseSegment;
  std::string ProgramReads; ///< empty: tia traces no reads
  unsigned Count = 0;
  std::chrono::steady_clock::time_point CaseStart;
  bool Started = false;
  bool FirstInSuite = false;
};

/// Appends the listener before main runs, when tia asks for it.
struct Registration {
  Registration() {
#if defined(TIA_COVERAGE_CLANG) || defined(TIA_COVERAGE_GCOV)
    const char *Dir = std::getenv("TIA_COLLECT_DIR");
    if (!Dir || !*Dir)
      return;
    testing::UnitTest::GetInstance()->listeners().Append(
        new CoverageListener(Dir));
#endif
  }
} TheRegistration;

} // namespace
