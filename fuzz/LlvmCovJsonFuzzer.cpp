//===- LlvmCovJsonFuzzer.cpp - fuzz the llvm-cov export JSON reader -------===//

#include "tia/Coverage/Coverage.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Text(reinterpret_cast<const char *>(Data), Size);
  auto R = tia::coverage::parseLlvmCovJson(Text, "fuzz.json");
  if (!R)
    llvm::consumeError(R.takeError()); // Rejecting bad input is fine.
  return 0;
}
