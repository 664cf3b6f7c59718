//===- Outcome.cpp - how a test ended -------------------------------------===//

#include "CollectInternal.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Regex.h"

namespace tia {
namespace collect {

namespace {

bool anyMatches(const std::vector<std::string> &Patterns,
                llvm::StringRef Text) {
  for (const std::string &P : Patterns)
    if (llvm::Regex(P).match(Text))
      return true;
  return false;
}

/// One line: newlines folded, at most 300 characters.
std::string oneLine(llvm::StringRef Text) {
  std::string Out;
  for (char C : Text.trim())
    Out += (C == '\n' || C == '\r' || C == '\t') ? ' ' : C;
  if (Out.size() > 300)
    Out = Out.substr(0, 297) + "...";
  return Out;
}

/// GoogleTest's first failure: "file:line: Failure" and the line after it.
std::string gtestFailure(llvm::StringRef Output) {
  size_t At = Output.find(": Failure\n");
  if (At == llvm::StringRef::npos)
    return std::string();
  size_t LineStart = Output.rfind('\n', At);
  LineStart = LineStart == llvm::StringRef::npos ? 0 : LineStart + 1;
  llvm::StringRef Where = Output.slice(LineStart, At);
  llvm::StringRef After = Output.substr(At + 10).split('\n').first;
  return oneLine((Where + ": " + After).str());
}

/// The first failure a framework printed: the line holding one of
/// \p Markers (Catch2's "file:line: FAILED:", doctest's "file:line: ERROR:")
/// and the lines after it up to the next blank one, on one line.
std::string firstFailure(llvm::StringRef Output,
                         llvm::ArrayRef<llvm::StringRef> Markers) {
  size_t At = llvm::StringRef::npos;
  for (llvm::StringRef M : Markers)
    At = std::min(At, Output.find(M));
  if (At == llvm::StringRef::npos)
    return std::string();
  size_t LineStart = Output.rfind('\n', At);
  LineStart = LineStart == llvm::StringRef::npos ? 0 : LineStart + 1;
  llvm::StringRef Rest = Output.substr(LineStart);
  size_t Blank = Rest.find("\n\n");
  std::string Text;
  for (llvm::StringRef Line : llvm::split(Rest.substr(0, Blank), '\n'))
    Text += (Text.empty() ? "" : " ") + Line.trim().str();
  return oneLine(Text);
}

/// The first line of \p Output that holds one of \p Markers.
std::string firstLineWith(llvm::StringRef Output,
                          llvm::ArrayRef<llvm::StringRef> Markers) {
  for (llvm::StringRef Line : llvm::split(Output, '\n'))
    if (llvm::any_of(Markers,
                     [&](llvm::StringRef M) { return Line.contains(M); }))
      return oneLine(Line);
  return std::string();
}

/// \p Text without its terminal colour escapes (Boost.Test colours its
/// log also when it goes to a file).
std::string withoutColours(llvm::StringRef Text) {
  std::string Out;
  for (size_t I = 0; I < Text.size(); ++I) {
    if (Text[I] == '\x1b' && Text.substr(I + 1).starts_with("[")) {
      size_t End = Text.find('m', I);
      if (End != llvm::StringRef::npos) {
        I = End;
        continue;
      }
    }
    Out += Text[I];
  }
  return Out;
}

/// The outcome of Boost.Test case \p T that exited with \p ExitCode: 201
/// when a case failed, 200 when no case ran; the first error line
/// ('file(line): error: in "path": message'). Boost.Test catches the
/// signals of a crash itself and goes on: its report of one is a crash.
void classifyBoostCase(const DiscoveredTest &T, int ExitCode,
                       llvm::StringRef RawOutput, TestResult &R) {
  std::string Output = withoutColours(RawOutput);
  if (llvm::StringRef(Output).contains("no test cases matching filter")) {
    R.Result = Outcome::Error;
    R.Message = "the filter " + T.Command.Arguments.back() +
                " ran no test: rebuild the binary or run collect again";
    return;
  }
  if (ExitCode == 0) {
    R.Result = Outcome::Passed;
    return;
  }
  // Boost writes one line per error.
  R.Message = firstLineWith(Output, {": error: in \"", ": fatal error: in \""});
  llvm::StringRef M = R.Message;
  bool Crash =
      M.contains(": fatal error: in \"") &&
      (M.contains("signal: SIG") || M.contains("memory access violation"));
  R.Result = Crash ? Outcome::Crashed : Outcome::Failed;
  if (R.Message.empty())
    R.Message = llvm::formatv("exit code {0}", ExitCode).str();
}

/// The outcome of Catch2 or doctest case \p T that exited with
/// \p ExitCode.
void classifyNamedCase(const DiscoveredTest &T, int ExitCode,
                       llvm::StringRef Output, TestResult &R) {
  if (frameworkOf(T) == CaseFramework::Boost)
    return classifyBoostCase(T, ExitCode, Output, R);
  bool Catch2 = frameworkOf(T) == CaseFramework::Catch2;
  // Catch2's note, doctest's summary ("[doctest] test cases: 0 | ...").
  if (Output.contains(Catch2 ? "No test cases matched" : "test cases: 0 |")) {
    R.Result = Outcome::Error;
    R.Message = (Catch2 ? "the spec " : "the filter ") +
                T.Command.Arguments.back() +
                " ran no test: rebuild the binary or run collect again";
    return;
  }
  if (ExitCode == 0) {
    R.Result = Outcome::Passed;
    return;
  }
  R.Result = Outcome::Failed;
  R.Message = Catch2 ? firstFailure(Output, {": FAILED:\n"})
                     : firstFailure(Output, {": ERROR: ", ": FATAL ERROR: "});
  if (R.Message.empty())
    R.Message = llvm::formatv("exit code {0}", ExitCode).str();
}

} // namespace

TestResult classify(const DiscoveredTest &T, const ProcessEnd &End,
                    llvm::StringRef Output, double TimeoutSeconds) {
  TestResult R;
  R.TestId = T.Id;
  R.Seconds = End.Seconds;
  switch (End.How) {
  case ProcessEnd::NotStarted:
    R.Result = Outcome::Error;
    R.Message =
        oneLine("cannot run " + T.Command.Executable + ": " + End.Error);
    return R;
  case ProcessEnd::TimedOut:
    R.Result = Outcome::TimedOut;
    R.Message = "killed after " + secondsText(TimeoutSeconds);
    return R;
  case ProcessEnd::Signaled:
    R.Result = Outcome::Crashed;
    R.Message = "killed by " + signalName(End.Signal);
    return R;
  case ProcessEnd::Exited:
    break;
  }

  if (!T.Case.empty() && frameworkOf(T) != CaseFramework::GTest) {
    classifyNamedCase(T, End.ExitCode, Output, R);
    return R;
  }
  if (!T.Case.empty()) {
    // GoogleTest reports the case itself.
    if (End.ExitCode == 0) {
      if (Output.contains("\n[  SKIPPED ] " + T.Case) ||
          Output.starts_with("[  SKIPPED ] " + T.Case)) {
        R.Result = Outcome::Skipped;
        return R;
      }
      if (!Output.contains("[       OK ] " + T.Case)) {
        R.Result = Outcome::Error;
        R.Message = "--gtest_filter=" + T.Case +
                    " ran no test: rebuild the binary or run collect again";
        return R;
      }
      R.Result = Outcome::Passed;
      return R;
    }
    R.Result = Outcome::Failed;
    R.Message = gtestFailure(Output);
    if (!Output.contains("[  FAILED  ] " + T.Case))
      R.Message = llvm::formatv("exit code {0}{1}{2}", End.ExitCode,
                                R.Message.empty() ? "" : ": ", R.Message)
                      .str();
    return R;
  }

  // ctest's rules, in ctest's order.
  const OutcomeRules &Rules = T.Rules;
  if ((Rules.SkipReturnCode && *Rules.SkipReturnCode == End.ExitCode) ||
      anyMatches(Rules.SkipRegex, Output)) {
    R.Result = Outcome::Skipped;
    return R;
  }
  bool Pass = End.ExitCode == 0;
  std::string Why = llvm::formatv("exit code {0}", End.ExitCode).str();
  if (!Rules.PassRegex.empty()) {
    Pass = anyMatches(Rules.PassRegex, Output);
    Why = "no PASS_REGULAR_EXPRESSION matched the output";
  }
  if (anyMatches(Rules.FailRegex, Output)) {
    Pass = false;
    Why = "a FAIL_REGULAR_EXPRESSION matched the output";
  }
  if (Rules.WillFail) {
    Pass = !Pass;
    Why = "WILL_FAIL is set and the test passed";
  }
  R.Result = Pass ? Outcome::Passed : Outcome::Failed;
  if (!Pass)
    R.Message = Why;
  return R;
}

CaseFramework frameworkOf(const DiscoveredTest &T) {
  return caseFrameworkOfId(T.Id).value_or(CaseFramework::GTest);
}

std::vector<std::string> argumentsWithoutCase(const DiscoveredTest &T) {
  std::vector<std::string> Out = T.Command.Arguments;
  // Catch2's spec, doctest's --test-case= and Boost's --run_test= come
  // last.
  if (frameworkOf(T) != CaseFramework::GTest) {
    if (!Out.empty())
      Out.pop_back();
    return Out;
  }
  llvm::erase_if(
      Out, [](llvm::StringRef A) { return A.starts_with("--gtest_filter="); });
  return Out;
}

namespace {

/// Undoes the listener's %-escapes of case names.
std::string unescapeName(llvm::StringRef Name) {
  std::string Out;
  for (size_t I = 0; I < Name.size(); ++I) {
    unsigned Code;
    if (Name[I] == '%' && I + 2 < Name.size() &&
        !Name.substr(I + 1, 2).getAsInteger(16, Code)) {
      Out += static_cast<char>(Code);
      I += 2;
    } else {
      Out += Name[I];
    }
  }
  return Out;
}

} // namespace

void Journal::parse(llvm::StringRef Text) {
  Exists = true;
  llvm::SmallVector<llvm::StringRef, 64> Lines;
  Text.split(Lines, '\n', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef Line : Lines) {
    auto [Kind, Rest] = Line.split(' ');
    if (Kind == "program") {
      ProgramSegments.push_back(Rest.str());
    } else if (Kind == "suite") {
      auto [Suite, Segment] = Rest.split(' ');
      SuiteSegments[unescapeName(Suite)].push_back(Segment.str());
    } else if (Kind == "start") {
      std::string Name = unescapeName(Rest);
      Cases[Name];
      Started.push_back(Name);
    } else if (Kind == "case") {
      auto [Name, Segment] = Rest.split(' ');
      Cases[unescapeName(Name)].Segment = Segment.str();
    } else if (Kind == "end") {
      llvm::SmallVector<llvm::StringRef, 4> Parts;
      Rest.split(Parts, ' ', /*MaxSplit=*/3);
      if (Parts.size() < 3)
        continue;
      Case &C = Cases[unescapeName(Parts[0])];
      C.Ended = true;
      C.Result = Parts[1] == "skipped"   ? Outcome::Skipped
                 : Parts[1] == "failed"  ? Outcome::Failed
                 : Parts[1] == "crashed" ? Outcome::Crashed
                                         : Outcome::Passed;
      uint64_t Micros = 0;
      Parts[2].getAsInteger(10, Micros);
      C.Seconds = Micros / 1e6;
      if (Parts.size() > 3)
        C.Message = Parts[3].str();
    }
  }
}

} // namespace collect
} // namespace tia
