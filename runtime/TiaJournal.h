//===- TiaJournal.h - the journal of tia's C++ test listeners ---*- C++ -*-===//
//
// Included by the listeners tia_add_coverage compiles into a test binary
// (GTestListener.cpp, Catch2Listener.cpp, DoctestListener.cpp,
// BoostTestListener.cpp), with the binary's own flags, so that no ABI is
// shared with tia.
// When `tia collect` runs the binary with TIA_COLLECT_DIR set, a listener
// writes the coverage counters after every test case into a segment of
// their own and resets them, and records in TIA_COLLECT_DIR/journal, one
// flushed line each (so that tia knows which case was running when the
// process crashed or hung):
//   program SEGMENT               counters outside cases (added to every case)
//   suite SUITE SEGMENT           counters of SUITE outside its cases (added
//                                 to each of its cases; GoogleTest only)
//   start NAME                    a case began
//   case NAME SEGMENT             its counters
//   end NAME OUTCOME MICROS [MESSAGE]   OUTCOME: passed failed skipped crashed
// Names are %-escaped (' ' is %20, '%' is %25, line breaks %0A, %0D).
// SEGMENT is a profile file (clang: "case-12.profraw") or a GCOV_PREFIX
// folder (gcc: "case-12"; one for all of the program's segments and one per
// suite, since gcov adds each dump to the data files already in a folder,
// and tia reads fewer files). Processes a case starts write beside its
// segment (clang: "case-12-child-PID-MODULE.profraw"; gcc: into the same
// folder). When tia traces the files tests read (TIA_READS_FILE set), a
// case's reads go to "case-12.reads" beside its segment, the rest to the
// file tia named (runtime/FileReadTracer.c).
//
//===----------------------------------------------------------------------===//

#ifndef TIA_RUNTIME_TIAJOURNAL_H
#define TIA_RUNTIME_TIAJOURNAL_H

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

namespace tia_runtime {

class Journal {
public:
  /// Opens the journal when tia runs the binary; false otherwise (then the
  /// listener does nothing). What ran before is written by the next
  /// programRan().
  bool open() {
    const char *Env = std::getenv("TIA_COLLECT_DIR");
    if (!Env || !*Env)
      return false;
    Dir = Env;
    if (const char *Reads = std::getenv("TIA_READS_FILE"))
      ProgramReads = Reads;
    Active = true;
    return true;
  }
  bool active() const { return Active; }

  /// A case begins: its counters go to a fresh segment (also when the
  /// case ends the process), the processes it starts write beside it.
  void caseStarted(const std::string &Name) {
    CaseSegment = next("case");
    target(CaseSegment);
#if defined(TIA_COVERAGE_CLANG)
    std::string Child = CaseSegment;
    Child.insert(Child.size() - 8, "-child-%p-%m");
    setenv("LLVM_PROFILE_FILE", (Dir + "/" + Child).c_str(), 1);
#endif
    traceReadsTo(Dir + "/" + CaseSegment.substr(0, CaseSegment.find('.')) +
                 ".reads");
    note("start " + escape(Name));
    CaseStart = std::chrono::steady_clock::now();
  }

  /// A case ended with \p Outcome ("passed", "failed", "skipped",
  /// "crashed": the framework caught the crash and went on) and the
  /// first failure's \p Message (one line, may be empty).
  void caseEnded(const std::string &Name, const char *Outcome,
                 const std::string &Message) {
    auto Micros = std::chrono::duration_cast<std::chrono::microseconds>(
                      std::chrono::steady_clock::now() - CaseStart)
                      .count();
    dump("case " + escape(Name), CaseSegment);
    traceReadsTo(ProgramReads);
    note("end " + escape(Name) + " " + Outcome + " " + std::to_string(Micros) +
         (Message.empty() ? "" : " " + Message));
  }

  /// A case that did not run: no counters of its own.
  void caseSkipped(const std::string &Name) {
    note("end " + escape(Name) + " skipped 0");
  }

  /// What ran since the last segment (start-up, a fixture of a suite) ran
  /// outside the cases: program code, counted for every case.
  void programRan() { dump("program", programSegment()); }

  /// What ran since the last segment ran in suite \p Suite outside its
  /// cases (GoogleTest's SetUpTestSuite, TearDownTestSuite): counted for
  /// each case of the suite.
  void suiteRan(const std::string &Suite) {
    dump("suite " + escape(Suite), suiteSegment(Suite));
  }

  /// The run ended: what ran since the last case is program code, and so
  /// is what runs after this (static destructors), written at exit.
  void runEnded() {
    programRan();
    std::string Exit = programSegment();
    note("program " + Exit);
    target(Exit);
  }

  /// \p Text on one line, at most 300 characters: a journal message.
  static std::string oneLine(std::string Text) {
    for (char &C : Text)
      if (C == '\n' || C == '\r')
        C = ' ';
    return Text.substr(0, 300);
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

#if defined(TIA_COVERAGE_GCOV)
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
    // Opened on the first line, closed on exec: a process the binary
    // starts (a helper mode of the binary itself, which inherits
    // TIA_COLLECT_DIR) holds no journal it did not write to, so the file
    // descriptors it checks are its own. A journal that cannot be opened
    // leaves none, and collect then runs one process per case.
    if (!File)
      File = std::fopen((Dir + "/journal").c_str(), "ae");
    if (!File)
      return;
    std::fprintf(File, "%s\n", Line.c_str());
    std::fflush(File);
  }

  std::string Dir;
  bool Active = false;
  std::FILE *File = nullptr;
  std::string CaseSegment;
  std::string ProgramReads; ///< empty: tia traces no reads
  unsigned Count = 0;
  std::chrono::steady_clock::time_point CaseStart;
};

} // namespace tia_runtime

#endif // TIA_RUNTIME_TIAJOURNAL_H
