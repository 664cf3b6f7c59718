//===- PythonAnswerFuzzer.cpp - fuzz the decoding of the extractor's answer
//-===//
//
// The Python extractor answers tia in JSON; a damaged or unexpected answer
// must become an error or an index, never a crash.
//
//===----------------------------------------------------------------------===//

#include "tia/Python/FrontEnd.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Text(reinterpret_cast<const char *>(Data), Size);
  auto F = tia::python::decodeIndexAnswer(Text, "pkg/mod.py", "pkg.mod",
                                          "x = 1\n", {});
  if (!F)
    llvm::consumeError(F.takeError()); // Rejecting bad input is fine.
  return 0;
}
