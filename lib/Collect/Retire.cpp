//===- Retire.cpp - the tests a collect finds gone ------------------------===//
//
// A deleted or renamed test keeps its last coverage, and the commit it was
// collected at, in every later snapshot; selection diffs from the merge base
// of a snapshot's commits, so one such test would hold every later diff
// base back for good. A collect that knows a test is gone retires it
// (Store::retireTests; docs/Safety.md, "Which coverage, and from where the
// diff starts"). It retires only what it knows: a test it merely did not
// run (another build directory, a deselected pytest test) may exist.
//
//===----------------------------------------------------------------------===//

#include "CollectInternal.h"
#include "tia/Support/Model.h"
#include "tia/Support/Plural.h"
#include "llvm/ADT/StringRef.h"
#include <set>

namespace tia {
namespace collect {

namespace {

bool inside(llvm::StringRef Path, llvm::StringRef Dir) {
  Dir.consume_back("/");
  return !Dir.empty() && Path.starts_with(Dir) &&
         (Path.size() == Dir.size() || Path[Dir.size()] == '/');
}

/// The file of pytest id "pytest:dir/f.py::Class::test_x[1]".
llvm::StringRef pytestFile(llvm::StringRef Id) {
  return Id.drop_front(llvm::StringRef("pytest:").size()).split("::").first;
}

} // namespace

std::vector<std::string> goneCppTests(const std::vector<TestInfo> &Known,
                                      const std::set<std::string> &Listed,
                                      llvm::StringRef BuildDir) {
  std::vector<std::string> Out;
  for (const TestInfo &T : Known) {
    if (!T.Command || Listed.count(T.Id) ||
        llvm::StringRef(T.Id).starts_with("pytest:"))
      continue;
    if (inside(T.Command->Executable, BuildDir) ||
        inside(T.Command->WorkingDir, BuildDir))
      Out.push_back(T.Id);
  }
  return Out;
}

std::vector<std::string>
gonePytestTests(const std::vector<std::string> &Known,
                const std::vector<std::pair<std::string, std::string>> &Listed,
                llvm::function_ref<bool(llvm::StringRef)> FileExists) {
  std::set<std::string> Ids, Files;
  // Node ids are relative to pytest's rootdir, the listed files to tia's
  // root: a missing file says the test is gone only when the two agree.
  bool SameRoot = !Listed.empty();
  for (const auto &[NodeId, Path] : Listed) {
    Ids.insert("pytest:" + NodeId);
    llvm::StringRef File = llvm::StringRef(NodeId).split("::").first;
    Files.insert(File.str());
    SameRoot = SameRoot && File == Path;
  }
  // A parametrized function's own id runs its instances: it is listed when
  // one of them is.
  auto IsListed = [&](const std::string &Id) {
    if (Ids.count(Id))
      return true;
    auto Next = Ids.lower_bound(Id + "[");
    return Next != Ids.end() && llvm::StringRef(*Next).starts_with(Id + "[");
  };
  std::vector<std::string> Out;
  for (const std::string &Id : Known) {
    if (!llvm::StringRef(Id).starts_with("pytest:"))
      continue;
    llvm::StringRef File = pytestFile(Id);
    bool Gone =
        Files.count(File.str()) ? !IsListed(Id) : SameRoot && !FileExists(File);
    if (Gone)
      Out.push_back(Id);
  }
  return Out;
}

void noteRetired(const std::vector<std::string> &Ids, llvm::raw_ostream &Err) {
  if (Ids.empty())
    return;
  Err << "tia: note: " << Ids.size() << " test" << pluralS(Ids.size())
      << " gone since the last collect (" << Ids.front()
      << (Ids.size() > 1 ? ", ..." : "")
      << ") retired from the coverage map: they no longer hold the diff "
         "base back\n";
}

} // namespace collect
} // namespace tia
