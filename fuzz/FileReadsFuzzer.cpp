//===- FileReadsFuzzer.cpp - fuzz the file read tracer's reads file -------===//
//
// runtime/FileReadTracer.c appends "r PATH", "w PATH", "l PATH", "x PATH"
// and "p PID" lines to a reads file from every process of a test, which
// may be killed in the middle of a line; collect reads it back
// (RawReads::addTrace) and keeps the tracked files and directories inside
// the repository (keepTracked). Besides not crashing, what is kept must be
// sorted, tracked and inside the repository.
//
//===----------------------------------------------------------------------===//

#include "FileReadsInternal.h"
#include <algorithm>
#include <cstdlib>

using namespace tia;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  // A repository no test can reach on the machine: keepTracked resolves
  // paths it does not recognise with realpath.
  static const collect::TrackedTree Tree = collect::trackedTree(
      "/nonexistent/tia-fuzz/repo",
      {"data/golden.txt", "data/sub/input.txt", "src/a.cpp", "tests/t.py"});
  llvm::StringRef Text(reinterpret_cast<const char *>(Data), Size);
  collect::RawReads Raw;
  (void)Raw.addTrace(Text);
  FileReads R = collect::keepTracked("gtest:t:S.N", "c0ffee", Raw, Tree);
  if (!std::is_sorted(R.Files.begin(), R.Files.end()) ||
      !std::is_sorted(R.Directories.begin(), R.Directories.end()))
    std::abort();
  for (const std::string &F : R.Files)
    if (!std::binary_search(Tree.Files.begin(), Tree.Files.end(), F))
      std::abort(); // Only tracked files are kept.
  for (const std::string &D : R.Directories)
    if (D.empty() || D[0] == '/' || llvm::StringRef(D).starts_with(".."))
      std::abort(); // Only directories inside the repository.
  return 0;
}
