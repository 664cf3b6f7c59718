//===- LinkCheck.cpp - the sanitizer and fuzz builds still link -----------===//
//
// tia links libpython, libgit2 and SQLite from their static archives where
// it can, which only non-PIE executables allow; the sanitizer and fuzz
// builds make PIEs and link the shared libraries instead
// (cmake/TiaStaticDeps.cmake). A change that broke that once went unseen
// because nothing built those configurations: CI builds this program in
// both (utils/test/sanitize-smoke.sh), which links the three the way tia
// does and runs under the sanitizers' runtimes.
//
//===----------------------------------------------------------------------===//

#include "tia/Git/Repository.h"
#include <Python.h>
#include <cstdio>
#include <git2.h>
#include <sqlite3.h>

int main() {
  // tia's own git code, as tia links it: a repository that is not there.
  auto Repo = tia::git::Repository::discover("/nonexistent/tia-link-check");
  bool Found = static_cast<bool>(Repo);
  if (!Repo)
    llvm::consumeError(Repo.takeError());
  int Major = 0, Minor = 0, Patch = 0;
  git_libgit2_version(&Major, &Minor, &Patch);
  std::printf("python %.4s, libgit2 %d.%d.%d, sqlite %s\n", Py_GetVersion(),
              Major, Minor, Patch, sqlite3_libversion());
  return Found ? 1 : 0;
}
