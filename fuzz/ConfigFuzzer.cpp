//===- ConfigFuzzer.cpp - fuzz the .tia.yaml reader -----------------------===//

#include "tia/Config/Config.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Text(reinterpret_cast<const char *>(Data), Size);
  auto C = tia::config::parseConfig(Text, ".tia.yaml");
  if (!C) {
    llvm::consumeError(C.takeError()); // Rejecting bad input is fine.
    return 0;
  }
  // Whatever was accepted must be usable.
  (void)C->isIncluded("src/a/b.cpp");
  (void)C->isIncluded("docs/x.md");
  return 0;
}
