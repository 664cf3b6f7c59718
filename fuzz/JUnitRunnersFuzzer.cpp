//===- JUnitRunnersFuzzer.cpp - fuzz JUnit reports read with --runner -----===//
//
// The junit target reads reports as `tia results import` does without
// --runner, which recognises only ctest, GoogleTest and pytest. Boost.Test,
// Catch2 and doctest reports (what `tia run` asks those binaries for) and
// reports of other runners, such as lit's --xunit-xml-output, are read
// with a runner named: this target reads every input as each of them, and
// names its cases as an import would.
//
//===----------------------------------------------------------------------===//

#include "tia/Results/JUnit.h"

using namespace tia::results;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Text(reinterpret_cast<const char *>(Data), Size);
  // Known ids as a Boost.Test binary's are (a space in a case name comes
  // back from its report as '_').
  static const std::vector<std::string> Known = {
      "boost:bin:math/adds", "boost:bin:typed_adds<std::pair<int, long>>",
      "catch2:bin:adds two", "ctest:a",
      "doctest:bin:adds",    "gtest:bin:S.N",
      "lit:s.x::a.b/c.test"};
  for (Runner Hint :
       {Runner::Boost, Runner::Catch2, Runner::Doctest, Runner::Ctest,
        Runner::Gtest, Runner::Pytest, Runner::Lit}) {
    auto Report = parseJUnit(Text, "bin.xml", Hint);
    if (!Report) {
      llvm::consumeError(Report.takeError()); // Rejecting bad input is fine.
      continue;
    }
    NamingOptions O;
    O.GtestBinary = "bin";
    O.GtestBinaryGiven = Hint != Runner::Gtest;
    O.KnownIds = Known;
    std::vector<std::string> Warnings;
    auto Results = testResults(*Report, "bin.xml", O, Warnings);
    if (!Results)
      llvm::consumeError(Results.takeError());
  }
  return 0;
}
