//===- JUnitFuzzer.cpp - fuzz the JUnit XML reader ------------------------===//

#include "tia/Results/JUnit.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Text(reinterpret_cast<const char *>(Data), Size);
  auto Report = tia::results::parseJUnit(Text, "report.xml");
  if (!Report) {
    llvm::consumeError(Report.takeError()); // Rejecting bad input is fine.
    return 0;
  }
  // Whatever was accepted must name its tests.
  std::vector<std::string> Known = {"ctest:a", "gtest:bin:S.N",
                                    "pytest:t/test_a.py::K::t"};
  tia::results::NamingOptions O;
  O.GtestBinary = "bin";
  O.KnownIds = Known;
  std::vector<std::string> Warnings;
  auto Results = tia::results::testResults(*Report, "report.xml", O, Warnings);
  if (!Results)
    llvm::consumeError(Results.takeError());
  return 0;
}
