//===- Runner.cpp - running tests with a profile each ---------------------===//

#include "CollectInternal.h"
#include "tia/Support/Error.h"
#include "tia/Support/LitId.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include <algorithm>
#include <chrono>
#include <set>
#include <sys/stat.h>
#include <unistd.h>

namespace tia {
namespace collect {

namespace {

/// Variables tia sets for the test and that must not leak in from outside.
const std::vector<std::string> &profileVariables() {
  static const std::vector<std::string> Vars = {
      "LLVM_PROFILE_FILE", "GCOV_PREFIX",    "GCOV_PREFIX_STRIP",
      "TIA_COLLECT_DIR",   "TIA_READS_FILE", "TIA_READS_RUNNER"};
  return Vars;
}

/// The files under \p Location (itself, if a file) whose name ends in
/// \p Suffix, sorted.
std::vector<std::string> filesEndingIn(llvm::StringRef Location,
                                       llvm::StringRef Suffix) {
  std::vector<std::string> Out;
  if (llvm::sys::fs::is_regular_file(Location)) {
    if (Location.ends_with(Suffix))
      Out.push_back(Location.str());
    return Out;
  }
  std::error_code EC;
  for (llvm::sys::fs::recursive_directory_iterator It(Location, EC), End;
       It != End && !EC; It.increment(EC))
    if (llvm::StringRef(It->path()).ends_with(Suffix) &&
        llvm::sys::fs::is_regular_file(It->path()))
      Out.push_back(It->path());
  llvm::sort(Out);
  return Out;
}

/// False when gcov data file \p Path is sure to count no execution: every
/// arc counter of every function is zero. True when in doubt.
bool gcdaMayCount(llvm::StringRef Path) {
  auto Buf = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                         /*RequiresNullTerminator=*/false);
  if (!Buf)
    return true;
  llvm::StringRef B = (*Buf)->getBuffer();
  auto Word = [&](size_t At) {
    return llvm::support::endian::read32le(B.data() + At);
  };
  const uint32_t Magic = 0x67636461, FunctionTag = 0x01000000,
                 ArcsTag = 0x01a10000;
  if (B.size() < 16 || Word(0) != Magic)
    return true;
  // Record lengths are in bytes since gcc 12 (a negative length: that many
  // bytes of zero counters, not written); older gcc counted words.
  size_t Unit = 1;
  for (size_t At = 16; At + 8 <= B.size();) {
    uint32_t Tag = Word(At);
    int32_t Length = static_cast<int32_t>(Word(At + 4));
    At += 8;
    if (Tag == FunctionTag && Length == 3)
      Unit = 4;
    if (Length < 0)
      continue;
    size_t Bytes = static_cast<size_t>(Length) * Unit;
    if (At + Bytes > B.size())
      return true;
    if (Tag == ArcsTag &&
        B.substr(At, Bytes).find_first_not_of('\0') != llvm::StringRef::npos)
      return true;
    At += Bytes;
  }
  return false;
}

std::string firstLine(llvm::StringRef Text) {
  return Text.trim().split('\n').first.str();
}

} // namespace

//===----------------------------------------------------------------------===//
// Reading coverage
//===----------------------------------------------------------------------===//

llvm::Error CoverageReader::checkGcov() {
  std::lock_guard<std::mutex> Lock(M);
  if (!GcovPath.empty())
    return llvm::Error::success();
  if (llvm::StringRef(Gcov).contains('/')) {
    if (!llvm::sys::fs::can_execute(Gcov))
      return makeErrorf("cannot run gcov {0}: no such executable; install "
                        "gcc's gcov or pass --gcov PATH",
                        Gcov);
    GcovPath = Gcov;
    return llvm::Error::success();
  }
  auto Found = llvm::sys::findProgramByName(Gcov);
  if (!Found)
    return makeErrorf("cannot find {0} on PATH: install the gcov of the gcc "
                      "that built the tests, or pass --gcov PATH",
                      Gcov);
  GcovPath = *Found;
  return llvm::Error::success();
}

llvm::Error CoverageReader::runGcov(const std::vector<std::string> &Given) {
  if (llvm::Error E = checkGcov())
    return E;
  std::vector<std::string> DataFiles;
  unsigned N;
  {
    std::lock_guard<std::mutex> Lock(M);
    for (const std::string &D : Given) {
      if (GcovCache.count(D))
        continue;
      // Most segments a listener writes ran nothing in most files: gcov
      // need not read those (it costs a read of the notes file each).
      if (!gcdaMayCount(D))
        GcovCache[D];
      else
        DataFiles.push_back(D);
    }
    N = ++Calls;
  }
  if (DataFiles.empty())
    return llvm::Error::success();
  // gcov finds the notes file beside the data file: link the build's there.
  // The data files lie under GCOV_PREFIX folders, at the path of the object
  // they belong to.
  for (const std::string &Data : DataFiles) {
    llvm::SmallString<256> Notes(Data);
    llvm::sys::path::replace_extension(Notes, "gcno");
    if (llvm::sys::fs::exists(Notes))
      continue;
    llvm::StringRef Original = Notes;
    Original.consume_front(WorkDir);
    // Drop the GCOV_PREFIX folder ("/t12" or "/b3/case-4") to reach "/".
    size_t Abs = std::string::npos;
    for (size_t At = Original.find('/', 1); At != llvm::StringRef::npos;
         At = Original.find('/', At + 1))
      if (llvm::sys::fs::exists(Original.substr(At))) {
        Abs = At;
        break;
      }
    if (Abs == std::string::npos)
      return makeErrorf("no gcov notes file for {0}: rebuild the tests (the "
                        ".gcno files are written by the compiler)",
                        Data);
    if (std::error_code EC =
            llvm::sys::fs::create_link(Original.substr(Abs), Notes))
      return makeErrorf("cannot link {0}: {1}", Notes, EC.message());
  }
  std::string Out = WorkDir + "/gcov-" + std::to_string(N) + ".json";
  ProcessSpec Spec{GcovPath, {"--json-format", "--stdout"}, {}, WorkDir, Out};
  llvm::append_range(Spec.Arguments, DataFiles);
  Spec.Environment = buildEnvironment({}, {});
  ProcessEnd End = runProcess(Spec, 600);
  std::string Text = readFileOrEmpty(Out);
  if (End.How != ProcessEnd::Exited || End.ExitCode != 0)
    return makeErrorf("{0} failed on {1}: {2}", GcovPath, DataFiles.front(),
                      End.How == ProcessEnd::NotStarted ? End.Error
                                                        : firstLine(Text));
  // gcov prints its complaints ("version mismatch") among the JSON lines.
  std::string Json;
  std::string Complaint;
  for (llvm::StringRef Line : llvm::split(Text, '\n')) {
    if (Line.starts_with("{"))
      Json += Line.str() + "\n";
    else if (!Line.trim().empty() && Complaint.empty())
      Complaint = Line.trim().str();
  }
  auto Docs = coverage::parseGcovJson(Json, GcovPath);
  if (!Docs)
    return Docs.takeError();
  std::lock_guard<std::mutex> Lock(M);
  for (coverage::GcovData &D : *Docs)
    GcovCache[D.DataFile] = std::move(D.Functions);
  for (const std::string &D : DataFiles)
    if (!GcovCache.count(D))
      return makeErrorf("{0} read nothing from {1}: {2}", GcovPath, D,
                        Complaint.empty() ? "no output" : Complaint);
  return llvm::Error::success();
}

llvm::Error
CoverageReader::prefetchGcov(const std::vector<std::string> &Locations) {
  std::vector<std::string> Data;
  for (const std::string &L : Locations)
    llvm::append_range(Data, filesEndingIn(L, ".gcda"));
  if (Data.empty())
    return llvm::Error::success();
  return runGcov(Data);
}

llvm::Expected<std::optional<std::vector<coverage::FunctionHit>>>
CoverageReader::read(const Binary &B,
                     const std::vector<std::string> &Locations) {
  std::vector<std::string> Raw, Data;
  for (const std::string &L : Locations) {
    llvm::append_range(Raw, filesEndingIn(L, ".profraw"));
    llvm::append_range(Data, filesEndingIn(L, ".gcda"));
  }
  std::vector<coverage::FunctionHit> Hits;
  if (Raw.empty() && Data.empty())
    return std::nullopt;
  if (!Raw.empty()) {
    if (!B.Clang)
      return makeErrorf("{0} wrote clang profiles, but {1}", B.Path,
                        B.Problem.empty() ? "its coverage mapping was not read"
                                          : B.Problem);
    auto Got = B.Clang->functionsRun(Raw);
    if (!Got)
      return Got.takeError();
    Hits = std::move(*Got);
  }
  if (!Data.empty()) {
    if (llvm::Error E = runGcov(Data))
      return E;
    std::lock_guard<std::mutex> Lock(M);
    for (const std::string &D : Data)
      llvm::append_range(Hits, GcovCache[D]);
  }
  return Hits;
}

//===----------------------------------------------------------------------===//
// Running
//===----------------------------------------------------------------------===//

std::string RunContext::freshDir(llvm::StringRef Stem) {
  unsigned N;
  {
    std::lock_guard<std::mutex> Lock(M);
    N = ++Counter;
  }
  std::string Dir = (WorkDir + "/" + Stem + std::to_string(N)).str();
  llvm::sys::fs::create_directories(Dir);
  return Dir;
}

double RunContext::timeoutOf(const DiscoveredTest &T) const {
  if (Options.TimeoutSeconds > 0)
    return Options.TimeoutSeconds;
  if (T.Command.TimeoutSeconds > 0)
    return T.Command.TimeoutSeconds;
  return 1500;
}

std::vector<std::string>
RunContext::traceVariables(const DiscoveredTest &T,
                           const std::string &ReadsFile) const {
  if (Tracer.empty())
    return {};
  std::vector<std::string> Vars =
      tracerVariables(Tracer, ReadsFile, T.Command.Environment);
  // lit lists the suite's folders to find the test: its own listings say
  // where new tests appear, not what the test reads (runtime/FileReadTracer.c).
  if (isLitId(T.Id))
    Vars.push_back("TIA_READS_RUNNER=" + std::to_string(::getpid()));
  return Vars;
}

std::optional<RawReads>
RunContext::readsOf(const std::string &Binary, Outcome Result,
                    const std::vector<std::string> &Files) {
  if (Tracer.empty())
    return std::nullopt;
  RawReads Raw;
  unsigned Processes = 0;
  for (const std::string &F : Files)
    Processes += Raw.addTrace(readFileOrEmpty(F));
  if (Result != Outcome::Passed && Result != Outcome::Skipped)
    Raw.Incomplete = true;
  if (Processes == 0 && Result != Outcome::Crashed &&
      Result != Outcome::TimedOut) {
    Raw.Incomplete = true;
    std::lock_guard<std::mutex> Lock(M);
    Notes.insert(Binary +
                 " did not load tia's file read tracer (a statically linked "
                 "program, or a scratch folder mounted noexec): its tests "
                 "count as reading every file that is not source code");
  }
  return Raw;
}

namespace {

std::string realPath(const std::string &Path) {
  llvm::SmallString<256> Real;
  return llvm::sys::fs::real_path(Path, Real) ? Path : std::string(Real);
}

/// True for the name of a shared library: "libx.so", "libx.so.1".
bool isSharedLibrary(llvm::StringRef Path) {
  llvm::StringRef Name = llvm::sys::path::filename(Path);
  return Name.ends_with(".so") || Name.contains(".so.");
}

} // namespace

bool RunContext::insideBuild(llvm::StringRef Path) {
  if (!RealBuildDir)
    RealBuildDir = realPath(Options.BuildDir);
  return Path.starts_with(Options.BuildDir + "/") ||
         Path.starts_with(*RealBuildDir + "/");
}

coverage::Instrumentation RunContext::kindOfProgram(const std::string &Path) {
  auto Kind = ProgramKinds.find(Path);
  if (Kind == ProgramKinds.end()) {
    auto Probe = coverage::probeBinary(Path);
    coverage::Instrumentation K = coverage::Instrumentation::None;
    if (Probe)
      K = Probe->Kind;
    else
      llvm::consumeError(Probe.takeError()); // A script: nothing to read.
    Kind = ProgramKinds.emplace(Path, K).first;
  }
  return Kind->second;
}

bool RunContext::ranInstrumented(const RawReads &Reads) {
  std::lock_guard<std::mutex> Lock(M);
  auto Instrumented = [&](const std::string &Path) {
    std::string P = realPath(Path);
    return insideBuild(P) &&
           kindOfProgram(P) != coverage::Instrumentation::None;
  };
  if (llvm::any_of(Reads.Executed, Instrumented))
    return true;
  return llvm::any_of(Reads.Read, [&](const std::string &Path) {
    return isSharedLibrary(Path) && Instrumented(Path);
  });
}

const Binary &RunContext::withPrograms(const Binary &B,
                                       const std::optional<RawReads> &Reads) {
  if (!Reads)
    return B;
  std::lock_guard<std::mutex> Lock(M);
  // An uninstrumented runner (lit, a shell) with no instrumented test
  // binary in the build has no mapping of its own: the programs it ran
  // are all there is to read.
  std::vector<std::string> Objects;
  if (B.Clang)
    Objects.assign(B.Clang->objects().begin(), B.Clang->objects().end());
  std::vector<std::string> Programs;
  for (const std::string &Path : Reads->Executed) {
    std::string P = realPath(Path);
    if (!insideBuild(P) || llvm::is_contained(Objects, P))
      continue;
    if (kindOfProgram(P) == coverage::Instrumentation::Clang)
      Programs.push_back(P);
  }
  if (Programs.empty())
    return B;
  llvm::sort(Programs);
  llvm::append_range(Objects, Programs);
  std::unique_ptr<Binary> &Out = WithPrograms[llvm::join(Objects, "\n")];
  if (!Out) {
    Out = std::make_unique<Binary>();
    Out->Path = B.Path;
    Out->Probe = B.Probe;
    auto C = coverage::ClangCoverage::open(Objects);
    if (C)
      Out->Clang = std::move(*C);
    else
      Out->Problem = llvm::toString(C.takeError());
  }
  return Out->Clang ? *Out : B;
}

/// True for a lit test that wrote no profile and, as its complete file-read
/// trace shows, ran no instrumented program of the build (one that runs only
/// programs from outside, `opt` and FileCheck): it covers nothing, which is
/// no missing coverage. lit itself (\p B) is no program of the build. The
/// tracer does not see the dynamic loader open a library, but a plugin of
/// the build that ran writes its own profile when its program exits: so
/// every process must have ended normally (`not --crash opt -load-pass-plugin
/// ...` may have run the plugin and written nothing). A
/// program of the build it ran without coverage is a boundary
/// (gatherBoundaries).
static bool ranNothingInstrumented(RunContext &Ctx, const TestRun &Run,
                                   const Binary &B) {
  return isLitId(Run.Result.TestId) && Run.Reads && !Run.Reads->Incomplete &&
         Run.Reads->allEnded() &&
         B.Probe.Kind == coverage::Instrumentation::None &&
         !Ctx.ranInstrumented(*Run.Reads);
}

/// True when a clang profile at \p Locations is empty: a process the test
/// started was killed before it wrote it.
static bool holdsEmptyProfile(const std::vector<std::string> &Locations) {
  for (const std::string &Location : Locations)
    for (const std::string &Profile : filesEndingIn(Location, ".profraw")) {
      uint64_t Size = 0;
      if (!llvm::sys::fs::file_size(Profile, Size) && Size == 0)
        return true;
    }
  return false;
}

/// True for a lit test a process of which, as its trace shows, did not end
/// normally (killed, crashed, left by _exit).
static bool litTestWithAbnormalEnd(const TestRun &Run) {
  return isLitId(Run.Result.TestId) && Run.Reads && !Run.Reads->allEnded();
}

/// Reads the coverage of a test that passed (or was skipped) into \p Run.
/// A test that did not pass may have stopped half-way, so its coverage is
/// not stored: its profiles are not read either (a program it ran may have
/// been killed while writing one).
static void readInto(RunContext &Ctx, TestRun &Run, const Binary &B,
                     const std::vector<std::string> &Locations) {
  if (Run.Result.Result != Outcome::Passed &&
      Run.Result.Result != Outcome::Skipped)
    return;
  // The other profiles hold only part of what the test ran: storing them
  // would let a change to the rest select it no more.
  if (holdsEmptyProfile(Locations)) {
    Run.KilledProcess = true;
    return;
  }
  auto Hits = Ctx.Reader.read(B, Locations);
  if (!Hits) {
    Run.CoverageProblem = llvm::toString(Hits.takeError());
    return;
  }
  if (!*Hits && ranNothingInstrumented(Ctx, Run, B)) {
    Run.Hits.emplace();
    return;
  }
  // A lit test with no profile whose process crashed on purpose (`not
  // --crash`) may have run a plugin of the build that wrote nothing.
  if (!*Hits && litTestWithAbnormalEnd(Run)) {
    Run.KilledProcess = true;
    return;
  }
  if (!*Hits) {
    Run.CoverageProblem =
        B.Probe.Kind == coverage::Instrumentation::None
            ? (B.Path + " was built without coverage: rebuild it with " +
               coverage::coverageFlagsHint())
                  .str()
            : B.Path + " wrote no coverage profile";
    return;
  }
  Run.Hits = std::move(**Hits);
}

TestRun runAlone(RunContext &Ctx, const DiscoveredTest &T, const Binary &B,
                 bool Step) {
  std::string Dir = Ctx.freshDir("t");
  ProcessSpec Spec;
  Spec.Executable = T.Command.Executable;
  Spec.Arguments = T.Command.Arguments;
  Spec.WorkingDir = T.Command.WorkingDir;
  Spec.OutputFile = Dir + "/output.txt";
  Spec.Environment = buildEnvironment(
      profileVariables(), {T.Command.Environment,
                           {"LLVM_PROFILE_FILE=" + Dir + "/%p.profraw",
                            "GCOV_PREFIX=" + Dir, "GCOV_PREFIX_STRIP=0"},
                           Ctx.traceVariables(T, Dir + "/reads")});
  double Timeout = Ctx.timeoutOf(T);
  Ctx.Prog.started(T.Id);
  auto Began = std::chrono::steady_clock::now();
  ProcessEnd End = runProcess(Spec, Timeout);
  {
    std::lock_guard<std::mutex> Lock(Ctx.M);
    ++Ctx.Processes;
    if (!T.Case.empty()) {
      ProcessTimes &Times = Ctx.CaseProcesses[T.Binary];
      Times.Framework = frameworkOf(T);
      Times.add(std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                              Began)
                    .count());
    }
  }
  TestRun Run;
  Run.Binary = B.Path;
  Run.Result = classify(T, End, readFileOrEmpty(Spec.OutputFile), Timeout);
  Run.Reads = Ctx.readsOf(B.Path, Run.Result.Result, {Dir + "/reads"});
  readInto(Ctx, Run, Ctx.withPrograms(B, Run.Reads), {Dir});
  if (Step)
    Ctx.Prog.step(T.Id);
  else
    Ctx.Prog.ended(T.Id);
  return Run;
}

namespace {

/// The reads file of the case whose counters went to \p Segment
/// ("case-12.profraw" or gcc's folder "case-12"): "case-12.reads", where
/// the listeners point the tracer (runtime/TiaJournal.h).
std::string readsFileOfSegment(llvm::StringRef Segment) {
  return (Segment.take_until([](char C) { return C == '.'; }) + ".reads").str();
}

/// Follows a listener's journal while its process runs: every finished
/// case is progress, and resets the timeout.
class JournalWatch {
public:
  /// \p IdPrefix is "gtest:<binary>:": with a case's name, its id.
  JournalWatch(std::string Path, Progress &Prog, llvm::StringRef IdPrefix)
      : Path(std::move(Path)), Prog(Prog), IdPrefix(IdPrefix) {}

  bool operator()() {
    struct stat St;
    if (::stat(Path.c_str(), &St) != 0 || St.st_size == Seen)
      return false;
    std::string Text = readFileOrEmpty(Path);
    size_t End = Text.rfind('\n');
    if (End == std::string::npos || End + 1 <= static_cast<size_t>(Seen))
      return false;
    llvm::StringRef New = llvm::StringRef(Text).slice(Seen, End + 1);
    Seen = End + 1;
    Journal J;
    J.parse(New);
    for (auto &[Name, C] : J.Cases)
      if (C.Ended) {
        Prog.step(IdPrefix + Name);
        Stepped.insert(Name);
      } else {
        Prog.started(IdPrefix + Name);
      }
    return true;
  }

  std::set<std::string> Stepped;

private:
  std::string Path;
  Progress &Prog;
  std::string IdPrefix;
  off_t Seen = 0;
};

/// Instrumented shared libraries carry a profile runtime of their own,
/// which the listener cannot reach: they write all their counters at exit
/// (to "default-*" profiles in \p Dir), to no case.
bool loadsOtherProfileRuntimes(const Binary &B, const Journal &J,
                               const std::string &Dir) {
  if (B.Probe.Kind != coverage::Instrumentation::Clang || !J.Exists)
    return false;
  return llvm::any_of(filesEndingIn(Dir, ".profraw"), [](const std::string &F) {
    return llvm::sys::path::filename(F).starts_with("default-");
  });
}

/// The run of case \p T, which ended in the listener's process: its
/// outcome from the journal \p J, its coverage from its segment, the
/// \p Program segments, its suite's and those of the processes it started,
/// read against \p B and the programs of the build it ran (its reads in
/// \p ReadsFiles).
TestRun endedCase(RunContext &Ctx, const DiscoveredTest &T, Journal &J,
                  const std::string &Dir,
                  const std::vector<std::string> &Program, const Binary &B,
                  const std::vector<std::string> &ReadsFiles) {
  const Journal::Case &C = J.Cases.at(T.Case);
  TestRun Run;
  Run.Result.TestId = T.Id;
  Run.Result.Result = C.Result;
  Run.Result.Seconds = C.Seconds;
  Run.Result.Message = C.Message;
  Run.Reads = Ctx.readsOf(B.Path, Run.Result.Result, ReadsFiles);
  std::vector<std::string> Locations = Program;
  // GoogleTest's suites; Catch2 has none.
  for (const std::string &S :
       J.SuiteSegments[T.Case.substr(0, T.Case.find('.'))])
    if (!llvm::is_contained(Locations, Dir + "/" + S))
      Locations.push_back(Dir + "/" + S);
  if (!C.Segment.empty()) {
    Locations.push_back(Dir + "/" + C.Segment);
    // Processes the case started (death tests) wrote beside it.
    llvm::StringRef Stem = C.Segment;
    if (Stem.consume_back(".profraw"))
      for (const std::string &F : filesEndingIn(Dir, ".profraw"))
        if (llvm::StringRef(F).contains("/" + Stem.str() + "-child-"))
          Locations.push_back(F);
  }
  readInto(Ctx, Run, Ctx.withPrograms(B, Run.Reads), Locations);
  return Run;
}

/// The run of case \p T, which was running when its process ended as
/// \p End says: it timed out, crashed, or exited during the case.
TestRun caseTheProcessEndedIn(const DiscoveredTest &T, const ProcessEnd &End,
                              double Timeout) {
  TestRun Run;
  Run.Result.TestId = T.Id;
  Run.Result.Seconds = End.Seconds;
  if (End.How == ProcessEnd::TimedOut) {
    Run.Result.Result = Outcome::TimedOut;
    Run.Result.Message = "killed after " + secondsText(Timeout);
  } else if (End.How == ProcessEnd::Signaled) {
    Run.Result.Result = Outcome::Crashed;
    Run.Result.Message = "killed by " + signalName(End.Signal);
  } else {
    Run.Result.Result = Outcome::Failed;
    Run.Result.Message =
        llvm::formatv("the process exited during the test (exit code {0})",
                      End.ExitCode)
            .str();
  }
  return Run;
}

/// The process that runs cases \p Names of \p First's program with the
/// listener, which writes its journal, coverage and reads into \p Dir.
ProcessSpec listenerProcess(RunContext &Ctx, const DiscoveredTest &First,
                            CaseFramework Framework,
                            const std::vector<std::string> &Names,
                            const std::string &Dir) {
  ProcessSpec Spec;
  Spec.Executable = First.Command.Executable;
  Spec.Arguments = argumentsWithoutCase(First);
  llvm::append_range(Spec.Arguments, caseFilterArguments(Framework, Names));
  Spec.WorkingDir = First.Command.WorkingDir;
  Spec.OutputFile = Dir + "/output.txt";
  Spec.Environment = buildEnvironment(
      profileVariables(),
      {First.Command.Environment,
       {"TIA_COLLECT_DIR=" + Dir,
        "LLVM_PROFILE_FILE=" + Dir + "/default-%p-%m.profraw",
        "GCOV_PREFIX=" + Dir + "/default", "GCOV_PREFIX_STRIP=0"},
       // The listener points the tracer at a file per case, and back.
       Ctx.traceVariables(First, Dir + "/program.reads")});
  return Spec;
}

/// The journal the listener wrote in \p Dir (Exists is false without one).
Journal readJournal(const std::string &Dir) {
  Journal J;
  std::string Text = readFileOrEmpty(Dir + "/journal");
  if (!Text.empty())
    J.parse(Text);
  return J;
}

/// The coverage segments written outside every case, which count for each.
std::vector<std::string> programSegments(const Journal &J,
                                         const std::string &Dir) {
  std::vector<std::string> Program;
  for (const std::string &S : J.ProgramSegments)
    if (!llvm::is_contained(Program, Dir + "/" + S))
      Program.push_back(Dir + "/" + S); // gcc's repeat: one folder
  return Program;
}

/// Case \p T, which a process that ended on its own never started: the
/// binary does not hold it.
TestRun caseNotInBinary(const DiscoveredTest &T, CaseFramework Framework) {
  TestRun Run;
  Run.Result.TestId = T.Id;
  Run.Result.Result = Outcome::Error;
  Run.Result.Message =
      caseFilterArguments(Framework, {T.Case}).front() + " ran no test";
  return Run;
}

} // namespace

std::vector<TestRun>
runWithListener(RunContext &Ctx,
                const std::vector<const DiscoveredTest *> &Cases,
                const Binary &B) {
  std::map<std::string, TestRun> Runs;
  std::vector<const DiscoveredTest *> Remaining = Cases;
  double Timeout = 0;
  for (const DiscoveredTest *T : Cases)
    Timeout = std::max(Timeout, Ctx.timeoutOf(*T));
  const DiscoveredTest &First = *Cases.front();
  CaseFramework Framework = frameworkOf(First);
  std::string IdPrefix =
      First.Id.substr(0, First.Id.size() - First.Case.size());

  std::set<std::string> Stepped; // cases counted as progress
  while (!Remaining.empty()) {
    std::string Dir = Ctx.freshDir("b");
    std::vector<std::string> Names;
    for (const DiscoveredTest *T : Remaining)
      Names.push_back(T->Case);
    JournalWatch Watch(Dir + "/journal", Ctx.Prog, IdPrefix);
    ProcessEnd End =
        runProcess(listenerProcess(Ctx, First, Framework, Names, Dir), Timeout,
                   std::ref(Watch));
    {
      std::lock_guard<std::mutex> Lock(Ctx.M);
      ++Ctx.Processes;
    }
    Journal J = readJournal(Dir);

    Stepped.insert(Watch.Stepped.begin(), Watch.Stepped.end());

    if (loadsOtherProfileRuntimes(B, J, Dir)) {
      {
        std::lock_guard<std::mutex> Lock(Ctx.M);
        Ctx.Notes.insert(B.Path +
                         " loads instrumented shared libraries, whose "
                         "counters tia's listener cannot split by case: its "
                         "cases ran one process each");
      }
      for (const DiscoveredTest *T : Cases)
        Runs[T->Case] = runAlone(Ctx, *T, B, !Stepped.count(T->Case));
      break;
    }

    if (!J.Exists || J.Started.empty()) {
      // The listener did not run (the binary was rebuilt without it), or the
      // process ended before its first case: one process per case instead,
      // which also tells which of them crash on their own.
      for (const DiscoveredTest *T : Remaining)
        Runs[T->Case] = runAlone(Ctx, *T, B, !Stepped.count(T->Case));
      break;
    }

    // One gcov run for every segment the process wrote.
    if (B.Probe.Kind == coverage::Instrumentation::Gcov)
      if (llvm::Error E = Ctx.Reader.prefetchGcov({Dir}))
        llvm::consumeError(std::move(E)); // Each case's read reports it.
    std::vector<std::string> Program = programSegments(J, Dir);

    std::vector<const DiscoveredTest *> Next;
    for (const DiscoveredTest *T : Remaining) {
      auto It = J.Cases.find(T->Case);
      if (It == J.Cases.end()) {
        Next.push_back(T);
        continue;
      }
      std::vector<std::string> ReadsFiles = {Dir + "/program.reads"};
      if (!It->second.Segment.empty())
        ReadsFiles.push_back(Dir + "/" +
                             readsFileOfSegment(It->second.Segment));
      TestRun Run;
      if (It->second.Ended) {
        Run = endedCase(Ctx, *T, J, Dir, Program, B, ReadsFiles);
      } else {
        Run = caseTheProcessEndedIn(*T, End, Timeout);
        Run.Reads = Ctx.readsOf(B.Path, Run.Result.Result, ReadsFiles);
      }
      if (Stepped.insert(T->Case).second)
        Ctx.Prog.step(T->Id);
      Run.Binary = B.Path;
      Runs[T->Case] = std::move(Run);
    }
    // Cases after a crash or a hang run in a new process; when the process
    // ended on its own, a case it never started is not in the binary.
    if (End.How == ProcessEnd::Exited)
      for (const DiscoveredTest *T : Next) {
        Ctx.Prog.step(T->Id);
        Runs[T->Case] = caseNotInBinary(*T, Framework);
      }
    Remaining = End.How == ProcessEnd::Exited
                    ? std::vector<const DiscoveredTest *>()
                    : std::move(Next);
  }

  std::vector<TestRun> Out;
  for (const DiscoveredTest *T : Cases)
    Out.push_back(std::move(Runs[T->Case]));
  return Out;
}

} // namespace collect
} // namespace tia
