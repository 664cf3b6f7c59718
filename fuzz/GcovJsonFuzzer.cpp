//===- GcovJsonFuzzer.cpp - fuzz the gcov JSON reader ---------------------===//

#include "tia/Coverage/Gcov.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Text(reinterpret_cast<const char *>(Data), Size);
  auto R = tia::coverage::parseGcovJson(Text, "fuzz.gcov.json");
  if (!R)
    llvm::consumeError(R.takeError()); // Rejecting bad input is fine.
  return 0;
}
