//===- FileReadTracer.cpp - the tracer collect preloads into C++ tests ----===//
//
// runtime/FileReadTracer.c, built as libtia-reads.so, is carried inside
// tia (.incbin below) and written to collect's scratch folder when tests
// run, so that an installed tia needs no file beside it.
//
//===----------------------------------------------------------------------===//

#include "FileReadsInternal.h"
#include "tia/Support/Error.h"
#include "llvm/Support/FileSystem.h"
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

std::vector<std::string>
tracerVariables(const std::string &Tracer, const std::string &ReadsFile,
                const std::vector<std::string> &TestEnvironment) {
  // The test's own LD_PRELOAD (its ctest ENVIRONMENT, else tia's) stays,
  // after the tracer.
  std::string Preload;
  if (const char *Env = std::getenv("LD_PRELOAD"))
    Preload = Env;
  for (const std::string &Entry : TestEnvironment)
    if (llvm::StringRef(Entry).starts_with("LD_PRELOAD="))
      Preload = Entry.substr(11);
  return {"LD_PRELOAD=" + Tracer + (Preload.empty() ? "" : ":" + Preload),
          "TIA_READS_FILE=" + ReadsFile};
}

} // namespace collect
} // namespace tia
