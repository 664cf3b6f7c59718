//===- ReportWriters.cpp - tia observed as text, JSON and Markdown --------===//
//
// Runs oldest first, failures by id, modes in a fixed order: the output
// depends only on the database, so goldens and CI diffs mean something.
//
//===----------------------------------------------------------------------===//

#include "tia/Observe/Report.h"
#include "tia/Support/CommitId.h"
#include "tia/Support/Plural.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

namespace tia {
namespace observe {

namespace {

std::string shortCommit(llvm::StringRef C) {
  return C.empty() ? std::string("-") : shortId(C);
}

/// "1 test", "2 tests".
std::string tests(unsigned N) {
  return std::to_string(N) + (N == 1 ? " test" : " tests");
}

std::string percent(double Part, double Whole) {
  return llvm::formatv("{0:f1}%", Whole > 0 ? 100 * Part / Whole : 0.0);
}

/// "would run 2 of 4 tests (50.0%), 0.019 of 0.066 s".
std::string reduction(unsigned WouldRun, unsigned Tests, double WouldSeconds,
                      double Seconds) {
  return llvm::formatv("would run {0} of {1} tests ({2}), {3:f3} of {4:f3} s",
                       WouldRun, Tests, percent(WouldRun, Tests), WouldSeconds,
                       Seconds);
}

std::string counts(unsigned Caught, unsigned Escaped) {
  return llvm::formatv("{0} caught, {1} escaped, escape rate {2}", Caught,
                       Escaped, percent(Escaped, Caught + Escaped));
}

void textRun(const RunReport &R, llvm::raw_ostream &OS) {
  const ModeRecord *M = R.Rec.mode(R.Rec.Mode);
  OS << "run " << R.RunId << " at " << shortCommit(R.Commit) << " ("
     << R.Rec.Mode << ", " << R.Rec.Runner << "): ";
  if (M && M->Error.empty())
    OS << reduction(M->WouldRun, R.Rec.Tests, M->WouldRunSeconds,
                    R.Rec.Seconds);
  else
    OS << "the selection failed" << (M ? ": " + M->Error : "");
  OS << "; " << R.Failures.size() << " failed: " << R.Caught << " caught, "
     << R.Escaped << " escaped, " << R.Unstable << " unstable\n";
  if (M && M->CutRun)
    OS << llvm::formatv("  budget: cut {0} ({1:f3} s)\n", tests(M->CutRun),
                        M->CutSeconds);
  for (const ClassifiedFailure &F : R.Failures) {
    OS << "  " << className(F.Kind) << " " << F.Id << " ("
       << fateName(F.AskedFate) << ")";
    if (!F.Why.empty())
      OS << ": " << F.Why;
    OS << "\n";
    for (const std::string &L : F.Explanation)
      OS << "    " << L << "\n";
  }
}

void jsonFailure(llvm::json::OStream &J, const ClassifiedFailure &F) {
  J.object([&] {
    J.attribute("id", F.Id);
    J.attribute("class", className(F.Kind));
    J.attribute("fate", fateName(F.AskedFate));
    J.attributeObject("fates", [&] {
      for (const auto &[Mode, Fate] : F.Fates)
        J.attribute(Mode, fateName(Fate));
    });
    J.attribute("why", F.Why);
    J.attributeArray("explanation", [&] {
      for (const std::string &L : F.Explanation)
        J.value(L);
    });
  });
}

void jsonSeconds(llvm::json::OStream &J, llvm::StringRef Key, double V) {
  J.attributeBegin(Key);
  J.rawValue(llvm::formatv("{0:f3}", V).str());
  J.attributeEnd();
}

void jsonRate(llvm::json::OStream &J, unsigned Caught, unsigned Escaped) {
  J.attributeBegin("escape_rate");
  J.rawValue(llvm::formatv("{0:f4}", escapeRate(Caught, Escaped)).str());
  J.attributeEnd();
}

void jsonRun(llvm::json::OStream &J, const RunReport &R) {
  const ModeRecord *M = R.Rec.mode(R.Rec.Mode);
  bool Planned = M && M->Error.empty();
  J.object([&] {
    J.attribute("run", R.RunId);
    J.attribute("commit", R.Commit);
    J.attribute("mode", R.Rec.Mode);
    J.attribute("runner", R.Rec.Runner);
    if (!Planned)
      J.attribute("error", M ? M->Error : std::string("not recorded"));
    J.attribute("tests", static_cast<int64_t>(R.Rec.Tests));
    jsonSeconds(J, "seconds", R.Rec.Seconds);
    J.attribute("would_run",
                static_cast<int64_t>(Planned ? M->WouldRun : R.Rec.Tests));
    jsonSeconds(J, "would_run_seconds",
                Planned ? M->WouldRunSeconds : R.Rec.Seconds);
    J.attributeObject("budget", [&] {
      J.attribute("max_tests", static_cast<int64_t>(Planned ? M->MaxTests : 0));
      jsonSeconds(J, "seconds", Planned ? M->BudgetSeconds : 0);
      J.attribute("cut", static_cast<int64_t>(Planned ? M->CutRun : 0));
      jsonSeconds(J, "cut_seconds", Planned ? M->CutSeconds : 0);
    });
    J.attribute("caught", static_cast<int64_t>(R.Caught));
    J.attribute("escaped", static_cast<int64_t>(R.Escaped));
    J.attribute("unstable", static_cast<int64_t>(R.Unstable));
    jsonRate(J, R.Caught, R.Escaped);
    J.attributeArray("failures", [&] {
      for (const ClassifiedFailure &F : R.Failures)
        jsonFailure(J, F);
    });
  });
}

} // namespace

void writeText(const Report &R, llvm::raw_ostream &OS) {
  for (const std::string &S : R.Skipped)
    OS << "skipped " << S << "\n";
  for (const RunReport &Run : R.Runs)
    textRun(Run, OS);
  if (R.Runs.empty())
    return;
  OS << "overall: "
     << reduction(R.WouldRun, R.Tests, R.WouldRunSeconds, R.Seconds) << "; "
     << counts(R.Caught, R.Escaped) << ", " << R.Unstable << " unstable\n";
  for (const ModeTotals &M : R.Modes)
    if (M.Runs)
      OS << "  " << M.Mode << " (" << M.Runs << " run" << pluralS(M.Runs)
         << "): "
         << reduction(M.WouldRun, M.Tests, M.WouldRunSeconds, M.Seconds) << "; "
         << counts(M.Caught, M.Escaped) << "\n";
  if (R.BudgetRuns)
    OS << llvm::formatv("  budget: cut {0} ({1:f3} s) in {2} run{3}, "
                        "{4} of them failed\n",
                        tests(R.BudgetCut), R.BudgetCutSeconds, R.BudgetRuns,
                        pluralS(R.BudgetRuns), R.BudgetCutFailures);
  else
    OS << "  budget: cut nothing\n";
}

void writeJson(const Report &R, llvm::raw_ostream &OS) {
  llvm::json::OStream J(OS, 2);
  J.object([&] {
    J.attribute("version", ReportVersion);
    J.attributeArray("skipped", [&] {
      for (const std::string &S : R.Skipped)
        J.value(S);
    });
    J.attributeArray("runs", [&] {
      for (const RunReport &Run : R.Runs)
        jsonRun(J, Run);
    });
    J.attributeObject("overall", [&] {
      J.attribute("runs", static_cast<int64_t>(R.Runs.size()));
      J.attribute("tests", static_cast<int64_t>(R.Tests));
      J.attribute("would_run", static_cast<int64_t>(R.WouldRun));
      jsonSeconds(J, "seconds", R.Seconds);
      jsonSeconds(J, "would_run_seconds", R.WouldRunSeconds);
      J.attribute("caught", static_cast<int64_t>(R.Caught));
      J.attribute("escaped", static_cast<int64_t>(R.Escaped));
      J.attribute("unstable", static_cast<int64_t>(R.Unstable));
      jsonRate(J, R.Caught, R.Escaped);
    });
    J.attributeArray("modes", [&] {
      for (const ModeTotals &M : R.Modes)
        J.object([&] {
          J.attribute("mode", M.Mode);
          J.attribute("runs", static_cast<int64_t>(M.Runs));
          J.attribute("tests", static_cast<int64_t>(M.Tests));
          J.attribute("would_run", static_cast<int64_t>(M.WouldRun));
          jsonSeconds(J, "seconds", M.Seconds);
          jsonSeconds(J, "would_run_seconds", M.WouldRunSeconds);
          J.attribute("caught", static_cast<int64_t>(M.Caught));
          J.attribute("escaped", static_cast<int64_t>(M.Escaped));
          jsonRate(J, M.Caught, M.Escaped);
        });
    });
    J.attributeObject("budget", [&] {
      J.attribute("runs", static_cast<int64_t>(R.BudgetRuns));
      J.attribute("cut", static_cast<int64_t>(R.BudgetCut));
      jsonSeconds(J, "cut_seconds", R.BudgetCutSeconds);
      J.attribute("cut_failures", static_cast<int64_t>(R.BudgetCutFailures));
    });
  });
  OS << "\n";
}

void writeMarkdown(const Report &R, llvm::raw_ostream &OS) {
  OS << "### tia: observed selection\n\n";
  if (R.Runs.empty()) {
    OS << "No observed run yet: run the tests with `tia run --observe`.\n";
    return;
  }
  OS << "**" << summaryLine(R) << ".**\n\n";
  OS << "| mode | runs | tests it would run | time it would take | caught | "
        "escaped | escape rate |\n"
     << "|---|---:|---:|---:|---:|---:|---:|\n";
  for (const ModeTotals &M : R.Modes)
    if (M.Runs)
      OS << llvm::formatv("| {0} | {1} | {2} of {3} ({4}) | {5:f1} of {6:f1} "
                          "s | {7} | {8} | {9} |\n",
                          M.Mode, M.Runs, M.WouldRun, M.Tests,
                          percent(M.WouldRun, M.Tests), M.WouldRunSeconds,
                          M.Seconds, M.Caught, M.Escaped,
                          percent(M.Escaped, M.Caught + M.Escaped));
  if (R.BudgetRuns)
    OS << llvm::formatv("\nThe budget cut {0} in {1} run{2}; {3} of them "
                        "failed.\n",
                        tests(R.BudgetCut), R.BudgetRuns, pluralS(R.BudgetRuns),
                        R.BudgetCutFailures);
  bool Heading = false;
  for (const RunReport &Run : R.Runs)
    for (const ClassifiedFailure &F : Run.Failures) {
      if (F.Kind != Class::Escaped)
        continue;
      if (!Heading)
        OS << "\n#### Escapes\n\n";
      Heading = true;
      OS << "- run " << Run.RunId << " at `" << shortCommit(Run.Commit)
         << "`: `" << F.Id << "`: " << F.Why << "\n";
      if (!F.Explanation.empty()) {
        OS << "  ```\n";
        for (const std::string &L : F.Explanation)
          OS << "  " << L << "\n";
        OS << "  ```\n";
      }
    }
}

} // namespace observe
} // namespace tia
