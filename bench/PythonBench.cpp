//===- PythonBench.cpp - the Python extractor against plain ast.parse -----===//
//
// tia-python-bench DIR [ROUNDS]
//
// Reads every .py file below DIR, then times, in the same embedded Python,
// plain `ast.parse` of each file (the baseline) and tia's extractor on each
// file (ast.parse plus elements, hashes, tests and imports), alternating
// the two ROUNDS times (default 3). Prints the files, lines and bytes, the
// best time of each, and their ratio.
//
//===----------------------------------------------------------------------===//

#include "tia/Python/FrontEnd.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

using namespace tia;

namespace {

struct Source {
  std::string Path;
  std::string Text;
};

double seconds(std::chrono::steady_clock::time_point Start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
      .count();
}

} // namespace

int main(int Argc, char **Argv) {
  if (Argc < 2) {
    llvm::errs() << "usage: tia-python-bench DIR [ROUNDS]\n";
    return 2;
  }
  llvm::StringRef Dir = Argv[1];
  unsigned Rounds = Argc > 2 ? std::max(1, std::atoi(Argv[2])) : 3;

  std::vector<Source> Sources;
  std::error_code EC;
  for (llvm::sys::fs::recursive_directory_iterator It(Dir, EC), End;
       It != End && !EC; It.increment(EC)) {
    if (llvm::sys::path::extension(It->path()) != ".py")
      continue;
    auto Buf = llvm::MemoryBuffer::getFile(It->path(), /*IsText=*/false);
    if (!Buf)
      continue;
    Sources.push_back({It->path(), (*Buf)->getBuffer().str()});
  }
  std::sort(Sources.begin(), Sources.end(),
            [](const Source &A, const Source &B) { return A.Path < B.Path; });
  size_t Lines = 0, Bytes = 0;
  for (const Source &S : Sources) {
    Lines += llvm::StringRef(S.Text).count('\n');
    Bytes += S.Text.size();
  }

  python::FrontEndOptions Options;
  Options.MaxFileSize = 1u << 30; // Every file, however large.
  auto Version = python::embeddedVersion();
  if (!Version) {
    llvm::errs() << llvm::toString(Version.takeError()) << "\n";
    return 1;
  }

  double BestParse = 1e30, BestExtract = 1e30;
  unsigned Parsed = 0, Complete = 0, Elements = 0;
  for (unsigned R = 0; R < Rounds; ++R) {
    auto Start = std::chrono::steady_clock::now();
    Parsed = 0;
    for (const Source &S : Sources) {
      auto Ok = python::parseOnly(S.Path, S.Text);
      if (!Ok) {
        llvm::errs() << llvm::toString(Ok.takeError()) << "\n";
        return 1;
      }
      Parsed += *Ok;
    }
    BestParse = std::min(BestParse, seconds(Start));

    Start = std::chrono::steady_clock::now();
    Complete = Elements = 0;
    for (const Source &S : Sources) {
      auto F = python::indexFile(S.Path, "m", S.Text, Options);
      if (!F) {
        llvm::errs() << llvm::toString(F.takeError()) << "\n";
        return 1;
      }
      Complete += F->Complete;
      Elements += F->Elements.size();
    }
    BestExtract = std::min(BestExtract, seconds(Start));
  }

  llvm::outs() << llvm::formatv(
      "python {0}: {1} files, {2} lines, {3:f1} MiB ({4} parse)\n"
      "ast.parse:  {5:f2} s (best of {6})\n"
      "extractor:  {7:f2} s (best of {6}), {8} elements\n"
      "ratio:      {9:f2}x\n",
      *Version, Sources.size(), Lines, Bytes / 1048576.0, Parsed, BestParse,
      Rounds, BestExtract, Elements, BestExtract / BestParse);
  return Complete == Parsed ? 0 : 1;
}
