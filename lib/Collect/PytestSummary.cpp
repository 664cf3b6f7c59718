//===- PytestSummary.cpp - the line collect --pytest ends with ------------===//

#include "tia/Collect/Pytest.h"
#include "llvm/Support/FormatVariadic.h"

namespace tia {
namespace collect {

std::string pytestSummaryLine(const PytestSummary &Sum) {
  unsigned Total =
      Sum.Passed + Sum.Failed + Sum.Errors + Sum.Skipped + Sum.TimedOut;
  std::string Broken;
  if (Sum.Broken)
    Broken =
        llvm::formatv("; {0} broken by collection, not recorded", Sum.Broken);
  std::string TimedOut;
  if (Sum.TimedOut)
    TimedOut = llvm::formatv(", {0} timed out", Sum.TimedOut);
  // "1 test", "2 tests".
  auto Count = [](size_t N, llvm::StringRef One, llvm::StringRef Many) {
    return llvm::formatv("{0} {1}", N, N == 1 ? One : Many).str();
  };
  return llvm::formatv(
      "collected {0} in {1:f1}s with {2}: {3} passed, {4} failed, {5}{14}, "
      "{6} skipped; {7} ({8} through imports); {9} {10}, {11} probed, "
      "{12}{13}",
      Count(Total, "pytest test", "pytest tests"), Sum.Seconds, Sum.Python,
      Sum.Passed, Sum.Failed, Count(Sum.Errors, "error", "errors"), Sum.Skipped,
      Count(Sum.Coverage.Links, "test-element link", "test-element links"),
      Sum.Coverage.ImportTimeLinks,
      Count(Sum.TestFiles, "test file", "test files"),
      Sum.Isolated ? "each in its own process" : "in one process",
      Count(Sum.Probed, "function", "functions"),
      Count(Sum.Accesses, "runtime access", "runtime accesses"), Broken,
      TimedOut);
}

} // namespace collect
} // namespace tia
