//===- Boundaries.cpp - C and C++ behind a boundary no coverage crossed ---===//

#include "Boundaries.h"
#include "tia/Support/Plural.h"
#include "tia/Support/Quote.h"
#include "llvm/ADT/StringExtras.h"
#include <set>

namespace tia {
namespace select {
namespace detail {

namespace {

/// "loads build/_geom.so, built from src/geom.cpp, without per-test
/// coverage (not built for coverage)".
std::string reasonOf(const BoundaryReader &B, llvm::StringRef Path) {
  return (B.Program ? "runs " : "loads ") + quotePath(B.Object) +
         ", built from " + quotePath(Path) + ", without per-test coverage (" +
         B.Problem + ")";
}

} // namespace

llvm::Error selectBehindBoundaries(Store &S, Selection &Sel,
                                   const git::FileChange &C,
                                   TestReasons &ByTest) {
  std::map<std::string, std::string> Found;
  std::set<std::string> Objects;
  for (const std::string *Path : {&C.OldPath, &C.NewPath}) {
    if (Path->empty())
      continue;
    auto Readers = S.testsBehindBoundary(*Path);
    if (!Readers)
      return Readers.takeError();
    for (const BoundaryReader &B : *Readers) {
      Found.emplace(B.TestId, reasonOf(B, *Path));
      Objects.insert(B.Object);
    }
  }
  if (Found.empty())
    return llvm::Error::success();
  size_t Index = Sel.Fallbacks.size();
  std::string Detail = std::to_string(Found.size()) + " test" +
                       pluralS(Found.size()) + " crossed into " +
                       llvm::join(Objects, ", ") + " without per-test coverage";
  Sel.Fallbacks.push_back({FallbackKind::Boundary,
                           C.NewPath.empty() ? C.OldPath : C.NewPath,
                           Detail,
                           FallbackScope::Readers,
                           {}});
  for (auto &[Test, How] : Found)
    ByTest[Test].push_back(
        {NoIndex, Index, How, Rule::Boundary, Evidence::Fallback});
  return llvm::Error::success();
}

llvm::Error nameObjectsCrossed(Store &S, const Selection &Sel,
                               TestReasons &ByTest) {
  for (auto &[Test, Reasons] : ByTest) {
    // Only tests that run C and C++ outside a program of their own.
    if (!llvm::StringRef(Test).starts_with("pytest:"))
      continue;
    for (Reason &R : Reasons) {
      if (R.Element == NoIndex || R.Applied != Rule::Covers ||
          R.By != Evidence::Coverage || !R.Via.empty())
        continue;
      const std::string &File = Sel.Elements[R.Element].Elem.File;
      if (!isCppSource(File))
        continue;
      auto Object = S.coveredBoundaryOf(Test, File);
      if (!Object)
        return Object.takeError();
      if (*Object)
        R.Through = ((*Object)->Program ? "program " : "extension ") +
                    (*Object)->Object;
    }
  }
  return llvm::Error::success();
}

} // namespace detail
} // namespace select
} // namespace tia
