//===- Options.cpp - Sanitizer runtime options of the sanitize build ------===//
//
// Linked into every executable of a TIA_SANITIZE build (CMakeLists.txt), so
// that whatever runs one (ctest, lit, the test scripts, a build step, a
// person) gets the same options without setting an environment.
// ASAN_OPTIONS, LSAN_OPTIONS and UBSAN_OPTIONS still override them.
//
// abort_on_error: a finding ends the process with SIGABRT rather than exit
// status 1. Many tests expect tia to fail (`not tia ...`, bounded.sh
// --exit 3); an exit status would let a finding on an error path pass as
// the expected failure, a signal never does (`not` fails on a crash).
//
// print_suppressions=0: a suppressed leak prints nothing, so that tests
// that compare tia's output see no difference.
//
// allow_user_poisoning=0: LLVM's BumpPtrAllocator (Allocator.h, and its
// recyclers) poisons its slabs and unpoisons each allocation when the code
// including it is built with ASan. tia is, the LLVM archives it links are
// not, and the linker keeps one copy of each inline function: LLVM's own
// code (StringSaver::save, called by sys::ExecuteAndWait) then bumps
// through a slab that tia's copy of AllocateSlow poisoned, and its memcpy
// is reported as use-after-poison (CompilerTest, every `tia index` of C++).
// Only LLVM's headers poison memory in tia's processes, so this turns off
// exactly the checks a half-instrumented LLVM cannot make.
//
// The suppressions (lsan.supp, ubsan.supp beside this file) hold only
// findings in third-party code, each with the reason.
//
//===----------------------------------------------------------------------===//

#ifndef TIA_SANITIZER_DIR
#error "TIA_SANITIZER_DIR: the directory of the suppression files"
#endif

#define TIA_SANITIZER_OPTIONS(Name, Value)                                     \
  extern "C" __attribute__((visibility("default"), used, no_sanitize_address)) \
  const char *                                                                 \
  Name() {                                                                     \
    return Value;                                                              \
  }

TIA_SANITIZER_OPTIONS(__asan_default_options,
                      "abort_on_error=1:halt_on_error=1:detect_leaks=1:"
                      "allow_user_poisoning=0")
TIA_SANITIZER_OPTIONS(__lsan_default_options,
                      "print_suppressions=0:"
                      "suppressions=" TIA_SANITIZER_DIR "/lsan.supp")
TIA_SANITIZER_OPTIONS(__ubsan_default_options,
                      "abort_on_error=1:halt_on_error=1:print_stacktrace=1:"
                      "suppressions=" TIA_SANITIZER_DIR "/ubsan.supp")
