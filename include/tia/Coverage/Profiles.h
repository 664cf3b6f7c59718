//===- tia/Coverage/Profiles.h - reading coverage where tests left it -----===//
//
// What `tia collect` needs from the coverage tools, read in-process: which
// kind of coverage a binary was built with, and clang's raw profiles read
// against the binaries' coverage mappings with LLVM's coverage library.
// gcov's JSON is read by tia/Coverage/Gcov.h.
//
//===----------------------------------------------------------------------===//

#ifndef TIA_COVERAGE_PROFILES_H
#define TIA_COVERAGE_PROFILES_H

#include "tia/Coverage/Coverage.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tia {
namespace coverage {

/// How a binary was built for coverage.
enum class Instrumentation {
  None,  ///< no coverage at all
  Clang, ///< -fprofile-instr-generate -fcoverage-mapping
  Gcov,  ///< gcc --coverage (or clang --coverage)
  /// -fprofile-instr-generate without -fcoverage-mapping: profiles, but no
  /// mapping to read them against.
  ClangNoMapping,
};

/// What a look at a binary tells.
struct BinaryProbe {
  Instrumentation Kind = Instrumentation::None;
  /// tia's GoogleTest listener is compiled in (runtime/GTestListener.cpp):
  /// one process can write one profile per test case.
  bool HasListener = false;
};

/// Reads \p Path's sections and strings. Fails when it cannot be read or is
/// not an object file ("cannot read test binary PATH: REASON").
llvm::Expected<BinaryProbe> probeBinary(llvm::StringRef Path);

/// The flags to add for coverage, for messages: "-fprofile-instr-generate
/// -fcoverage-mapping (clang) or --coverage (gcc)".
llvm::StringRef coverageFlagsHint();

/// The coverage mappings of clang-instrumented binaries, read once and kept
/// in memory, against which many raw profiles are read. Thread-safe: one
/// instance serves concurrent calls of functionsRun.
class ClangCoverage {
public:
  /// Loads \p Objects (a test binary and the instrumented shared libraries
  /// it loads). Fails when one cannot be read or has no coverage mapping
  /// ("BINARY has no coverage mapping: rebuild it with ...").
  static llvm::Expected<std::unique_ptr<ClangCoverage>>
  open(llvm::ArrayRef<std::string> Objects);

  /// Merges the raw profiles \p RawProfiles in memory (what `llvm-profdata
  /// merge` does, through InstrProfWriter), loads them with
  /// coverage::CoverageMapping::load against the objects, and returns every
  /// function whose execution count is above zero. Fails on an unreadable
  /// or malformed profile, or one written by another version of clang
  /// ("cannot read profile FILE: REASON").
  llvm::Expected<std::vector<FunctionHit>>
  functionsRun(llvm::ArrayRef<std::string> RawProfiles) const;

  /// The objects whose mappings it holds, as given.
  llvm::ArrayRef<std::string> objects() const { return Paths; }

private:
  ClangCoverage() = default;
  std::vector<std::string> Paths;
  std::vector<std::unique_ptr<llvm::MemoryBuffer>> Buffers;
};

/// Where clang's profile runtime lies in an instrumented shared object:
/// the addresses of __llvm_profile_set_filename, __llvm_profile_write_file
/// and __llvm_profile_reset_counters, relative to the address the object's
/// file offset 0 is loaded at. The runtime's functions are hidden (dlsym
/// cannot find them), so they are read from the symbol table.
struct ProfileRuntime {
  uint64_t SetFilename = 0, WriteFile = 0, ResetCounters = 0;
};

/// Where libgcov lies in a gcov-instrumented shared object, relative to
/// the address its file offset 0 is loaded at. libgcov links no reset into
/// a shared object and writes once, at exit; what it does link is
/// __gcov_dump_one, which writes the object's data where GCOV_PREFIX points
/// when called, and __gcov_root, whose "dumped" flag stops a second write
/// until cleared. With the object's counter arrays (__gcov0.FUNCTION, one
/// per function and kind) zeroed after each write, the data is exact per
/// test. All are local symbols, read from the symbol table.
struct GcovRuntime {
  uint64_t DumpOne = 0, Root = 0;
  /// (address, size in bytes) of each counter array.
  std::vector<std::pair<uint64_t, uint64_t>> Counters;
};

/// What a look at a shared library's section and symbol tables tells,
/// without reading the rest of it (probeBinary scans every byte).
struct LibraryProbe {
  Instrumentation Kind = Instrumentation::None;
  /// Clang's profile runtime, when the symbol table names all three of its
  /// functions (not when stripped).
  std::optional<ProfileRuntime> Runtime;
  /// libgcov's, when the symbol table names it and counters.
  std::optional<GcovRuntime> Gcov;
};

/// Looks at the ELF shared library \p Path: clang's by its sections, gcov's
/// by libgcov's symbols (a stripped gcov library counts as none). Fails
/// when it cannot be read as an ELF object.
llvm::Expected<LibraryProbe> probeLibrary(llvm::StringRef Path);

/// The source files the coverage mapping of \p Path names, as the compile
/// commands spelled them (absolute, or relative to where they ran). Fails
/// when it has no mapping.
llvm::Expected<std::vector<std::string>>
coverageMappingFiles(llvm::StringRef Path);

/// The functions an object defines, from its symbol table.
struct DefinedFunctions {
  std::vector<std::string> Names; ///< mangled C++ names and C names, sorted
  /// Only the dynamic symbol table named them (the object is stripped):
  /// the functions it does not export are missing.
  bool ExportedOnly = false;
};

/// The functions \p Path defines. Fails when it cannot be read as an
/// object file.
llvm::Expected<DefinedFunctions> definedFunctions(llvm::StringRef Path);

/// Splits a profile's function name into the mangled name and, for local
/// symbols, the file clang put before it ("src/a.cpp:_ZL1fv" or, from newer
/// compilers, "src/a.cpp;_ZL1fv").
void splitProfileName(llvm::StringRef Raw, FunctionHit &Hit);

} // namespace coverage
} // namespace tia

#endif // TIA_COVERAGE_PROFILES_H
