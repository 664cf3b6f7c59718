//===- FileReadTracer.cpp - the tracer collect preloads into C++ tests ----===//
//
// runtime/FileReadTracer.c, built as libtia-reads.so, is carried inside
// tia (.incbin below) and written to collect's scratch folder when tests
// run, so that an installed tia needs no file beside it.
//
//===----------------------------------------------------------------------===//

#include "CTestEnvironment.h"
#include "FileReadsInternal.h"
#include "tia/Support/Error.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

// ccache does not cache a source that uses .incbin: the object is rebuilt
// whenever the library changes (OBJECT_DEPENDS in CMakeLists.txt).
asm(".section .rodata\n"
    ".balign 16\n"
    ".global tia_file_read_tracer_begin\n"
    "tia_file_read_tracer_begin:\n"
    ".incbin \"" TIA_FILE_READ_TRACER "\"\n"
    ".global tia_file_read_tracer_end\n"
    "tia_file_read_tracer_end:\n"
    ".previous\n");

extern "C" const char tia_file_read_tracer_begin[];
extern "C" const char tia_file_read_tracer_end[];

namespace tia {
namespace collect {

llvm::Expected<std::string> writeFileReadTracer(llvm::StringRef Dir) {
  std::string Path = (Dir + "/libtia-reads.so").str();
  std::error_code EC;
  llvm::raw_fd_ostream Out(Path, EC);
  if (!EC) {
    Out.write(tia_file_read_tracer_begin,
              tia_file_read_tracer_end - tia_file_read_tracer_begin);
    Out.close();
    EC = Out.error();
  }
  if (EC)
    return makeErrorf("cannot write the file read tracer to {0}: {1}", Path,
                      EC.message());
  return Path;
}

namespace {

/// \p Preload without the copies of tia's tracer it names: a tia collect
/// that runs inside a test of another (tia's own tests) has its tests
/// load its own tracer alone, which the outer one then leaves to it.
std::string withoutOtherTracers(llvm::StringRef Preload) {
  llvm::SmallVector<llvm::StringRef, 4> Kept;
  llvm::SmallVector<llvm::StringRef, 4> Entries;
  Preload.split(Entries, ':', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef Entry : Entries)
    if (llvm::sys::path::filename(Entry) != "libtia-reads.so")
      Kept.push_back(Entry);
  return llvm::join(Kept, ":");
}

} // namespace

std::vector<std::string>
tracerVariables(const std::string &Tracer, const std::string &ReadsFile,
                const std::vector<std::string> &TestEnvironment) {
  // The test's own values (its ctest ENVIRONMENT, else tia's) stay.
  auto Value = [&](llvm::StringRef Name) {
    return valueIn(TestEnvironment, Name, llvm::sys::Process::GetEnv(Name))
        .value_or("");
  };
  std::string Preload = withoutOtherTracers(Value("LD_PRELOAD"));
  // A program linked with a shared AddressSanitizer runtime (gcc's
  // -fsanitize=address) refuses to start when a preloaded library comes
  // before that runtime, unless told that the order is fine.
  std::string Asan = Value("ASAN_OPTIONS");
  std::vector<std::string> Out = {"LD_PRELOAD=" + Tracer +
                                  (Preload.empty() ? "" : ":" + Preload)};
  if (!ReadsFile.empty())
    Out.push_back("TIA_READS_FILE=" + ReadsFile);
  if (!llvm::StringRef(Asan).contains("verify_asan_link_order=0"))
    Asan += (Asan.empty() ? "" : ":") + std::string("verify_asan_link_order=0");
  Out.push_back("ASAN_OPTIONS=" + Asan);
  return Out;
}

} // namespace collect
} // namespace tia
