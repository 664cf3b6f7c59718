//===- StandaloneMain.cpp - run fuzz targets without libFuzzer ------------===//
//
// Links with a fuzz target in ordinary builds (no clang, no libFuzzer): runs
// LLVMFuzzerTestOneInput once on every file named on the command line, or
// on every file in the directories named, so that the committed corpora
// are replayed by the test suite as regression tests.
//
//===----------------------------------------------------------------------===//

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size);

namespace {

int runFile(const std::filesystem::path &P) {
  std::ifstream In(P, std::ios::binary);
  if (!In) {
    std::fprintf(stderr, "cannot read %s\n", P.c_str());
    return 1;
  }
  std::vector<char> Bytes((std::istreambuf_iterator<char>(In)),
                          std::istreambuf_iterator<char>());
  LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t *>(Bytes.data()),
                         Bytes.size());
  return 0;
}

} // namespace

int main(int Argc, char **Argv) {
  size_t Inputs = 0;
  for (int I = 1; I < Argc; ++I) {
    std::filesystem::path P(Argv[I]);
    std::vector<std::filesystem::path> Files;
    if (std::filesystem::is_directory(P)) {
      for (const auto &E : std::filesystem::recursive_directory_iterator(P))
        if (E.is_regular_file())
          Files.push_back(E.path());
    } else {
      Files.push_back(P);
    }
    std::sort(Files.begin(), Files.end());
    for (const auto &F : Files) {
      if (runFile(F))
        return 1;
      ++Inputs;
    }
  }
  std::printf("ran %zu inputs\n", Inputs);
  return Inputs ? 0 : 1;
}
