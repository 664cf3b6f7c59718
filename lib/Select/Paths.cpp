//===- Paths.cpp - what kind of file a changed path is --------------------===//

#include "Paths.h"
#include "tia/Select/Selection.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Path.h"

namespace tia {
namespace select {

bool isCppSource(llvm::StringRef Path) {
  llvm::StringRef Ext = llvm::sys::path::extension(Path);
  return llvm::StringSwitch<bool>(Ext)
      .Cases(".c", ".cc", ".cpp", ".cxx", ".c++", ".C", true)
      .Cases(".h", ".hh", ".hpp", ".hxx", ".h++", ".H", true)
      .Cases(".inl", ".ipp", ".tpp", ".tcc", true)
      .Default(false);
}

namespace detail {

bool isCoverageData(llvm::StringRef Path) {
  llvm::StringRef Ext = llvm::sys::path::extension(Path);
  llvm::StringRef Name = llvm::sys::path::filename(Path);
  return Ext == ".profraw" || Ext == ".profdata" || Ext == ".gcda" ||
         Ext == ".gcno" || Name == ".coverage" ||
         Name.starts_with(".coverage.");
}

bool isBytecodeCache(llvm::StringRef Path) {
  return llvm::sys::path::extension(Path) == ".pyc" ||
         Path.starts_with("__pycache__/") || Path.contains("/__pycache__/");
}

} // namespace detail
} // namespace select
} // namespace tia
