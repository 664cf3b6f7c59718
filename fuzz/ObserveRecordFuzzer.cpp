//===- ObserveRecordFuzzer.cpp - fuzz the observed run's record ----------===//
//
// `tia observed` reads the records of observed runs back from the store
// (observe::parseRecord); a database is shared between CI jobs and may be
// damaged or edited by hand. Besides not crashing, a record that reads must
// write back (recordJson) to text that reads again to the same text.
//
//===----------------------------------------------------------------------===//

#include "tia/Observe/Record.h"
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  using namespace tia::observe;
  llvm::StringRef Text(reinterpret_cast<const char *>(Data), Size);
  auto R = parseRecord(Text, RecordVersion);
  if (!R) {
    llvm::consumeError(R.takeError()); // Rejecting bad input is fine.
    return 0;
  }
  std::string Written = recordJson(*R);
  auto Again = parseRecord(Written, RecordVersion);
  if (!Again) {
    llvm::consumeError(Again.takeError());
    std::abort(); // What tia writes, it must read.
  }
  if (recordJson(*Again) != Written)
    std::abort();
  return 0;
}
