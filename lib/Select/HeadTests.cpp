//===- HeadTests.cpp - the tests the head can run -------------------------===//

#include "HeadTests.h"
#include "PythonSelect.h"
#include "tia/Store/Store.h"
#include "tia/Support/LitId.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include <functional>
#include <map>
#include <set>

namespace tia {
namespace select {

namespace {

/// "tests/a.py" of "pytest:tests/a.py::TestX::test_y[1]"; empty when the
/// id has no file part.
llvm::StringRef fileOf(llvm::StringRef Id) {
  if (!Id.consume_front("pytest:"))
    return "";
  size_t Sep = Id.find("::");
  return Sep == llvm::StringRef::npos ? "" : Id.take_front(Sep);
}

/// Bases that bring no test methods of their own.
bool bringsNoTests(llvm::StringRef Base) {
  return Base == "object" || Base == "TestCase" ||
         Base == "IsolatedAsyncioTestCase";
}

/// Says, for the pytest ids of a plan, which the head does not define.
class HeadTests {
public:
  HeadTests(const git::Repository &Repo, Store &S, const Definitions &Defs,
            const Selection &C)
      : Repo(Repo), S(S), DiffBase(C.DiffBase) {
    for (const auto &[File, D] : Defs)
      if (D.Framework == "pytest") {
        Defined.insert("pytest:" + D.Name);
        Indexed.insert(File);
      }
    for (const ChangedFile &F : C.Files) {
      Changed.insert(F.Path);
      if (F.Status == git::ChangeStatus::Deleted)
        Gone.insert(F.Path);
      else if (!F.OldPath.empty() && F.OldPath != F.Path) {
        Changed.insert(F.OldPath);
        Gone.insert(F.OldPath);
      }
    }
    for (const TestFileChange &T : C.TestFiles)
      if (!T.Path.empty()) {
        Known.insert(T.Path); // all its tests may be gone
        OpenOf[T.Path] = {T.OpenClasses.begin(), T.OpenClasses.end()};
      }
  }

  /// True when the head cannot run \p Id: its file is gone, or the file
  /// is known and neither defines its function nor may inherit it.
  llvm::Expected<bool> undefined(const std::string &Id) {
    if (isLitId(Id))
      return litFileGone(Id);
    llvm::StringRef File = fileOf(Id);
    if (File.empty())
      return false;
    if (Gone.count(File))
      return true;
    std::string Function = pytestFunctionId(Id).value_or(Id);
    if (Defined.count(Function))
      return false;
    auto Sure = knows(File.str());
    if (!Sure)
      return Sure.takeError();
    if (!*Sure)
      return false;
    auto Open = openClasses(File.str());
    if (!Open)
      return Open.takeError();
    // "pytest:f.py::A::B::test_x": may A or A::B inherit test_x?
    llvm::StringRef Prefix = llvm::StringRef(Function).rsplit("::").first;
    for (; Prefix.size() > File.size() + 7; Prefix = Prefix.rsplit("::").first)
      if ((*Open)->count(Prefix.drop_front(7).str()))
        return false;
    return true;
  }

  /// The function id that replaces instance \p Id, when the head defines
  /// the function and its file changed since the instance was recorded.
  std::optional<std::string> widened(const std::string &Id) const {
    std::optional<std::string> Function = pytestFunctionId(Id);
    if (!Function || !Defined.count(*Function) ||
        !Changed.count(fileOf(Id).str()))
      return std::nullopt;
    return Function;
  }

private:
  /// True when the change deleted the file of lit test \p Id (collect
  /// records each lit test's file): lit has no test left to run for it.
  llvm::Expected<bool> litFileGone(const std::string &Id) {
    if (Gone.empty())
      return false;
    if (!LitFiles) {
      auto Infos = S.testInfos();
      if (!Infos)
        return Infos.takeError();
      LitFiles.emplace();
      for (const TestInfo &T : *Infos)
        if (isLitId(T.Id) && !T.File.empty())
          (*LitFiles)[T.Id] = T.File;
    }
    auto It = LitFiles->find(Id);
    return It != LitFiles->end() && Gone.count(It->second);
  }

  /// True when the head's definitions of \p File are known: it changed
  /// (its new version was parsed), or the index's version of it is the
  /// one the change starts from. An index older than the coverage may
  /// lack tests the coverage names: then nothing is left out.
  llvm::Expected<bool> knows(const std::string &File) {
    if (Known.count(File))
      return true;
    if (!Indexed.count(File))
      return false;
    if (!loadBlobs())
      return false;
    auto Index = Blobs->find(File);
    auto Base = BaseBlobs->find(File);
    return Index != Blobs->end() && Base != BaseBlobs->end() &&
           Index->second == Base->second;
  }

  /// The index's and the diff base's blobs; false when the base cannot be
  /// read (then no index version is trusted).
  bool loadBlobs() {
    if (Blobs && BaseBlobs)
      return true;
    auto Files = S.currentFiles();
    if (!Files) {
      llvm::consumeError(Files.takeError()); // Trust nothing instead.
      return false;
    }
    auto Base = Repo.treeFiles(DiffBase);
    if (!Base) {
      llvm::consumeError(Base.takeError()); // Trust nothing instead.
      return false;
    }
    Blobs.emplace(Files->begin(), Files->end());
    BaseBlobs.emplace(Base->begin(), Base->end());
    return true;
  }

  /// The open classes of \p File at the head: a changed file's from its
  /// new version, another's from the index.
  llvm::Expected<const std::set<std::string> *>
  openClasses(const std::string &File) {
    auto It = OpenOf.find(File);
    if (It != OpenOf.end())
      return &It->second;
    std::set<std::string> &Open = OpenOf[File];
    if (!loadBlobs())
      return &Open;
    auto Blob = Blobs->find(File);
    if (Blob == Blobs->end())
      return &Open;
    auto Index = S.getPythonGraph(File, Blob->second);
    if (!Index)
      return Index.takeError();
    if (!*Index || !(*Index)->Python)
      return &Open;
    for (std::string &C : openTestClasses(File, *(*Index)->Python))
      Open.insert(std::move(C));
    return &Open;
  }

  const git::Repository &Repo;
  Store &S;
  std::string DiffBase;
  /// Known: files whose head version was parsed; Indexed: files the index
  /// defines tests in.
  std::set<std::string, std::less<>> Defined, Known, Indexed, Changed, Gone;
  std::map<std::string, std::set<std::string>> OpenOf;
  std::optional<std::map<std::string, std::string>> Blobs, BaseBlobs;
  std::optional<std::map<std::string, std::string>> LitFiles; ///< id -> file
};

} // namespace

std::vector<std::string> openTestClasses(const std::string &Path,
                                         const PythonFileInfo &Info) {
  // Qualified name ("Outer.Inner") -> bases, and the names of the file's
  // classes (bases are spelt by their last part).
  std::map<std::string, std::vector<std::string>> BasesOf;
  std::map<std::string, std::string> ByName;
  for (const NameNode &N : Info.Nodes) {
    if (N.Kind != "class")
      continue;
    llvm::StringRef Qualified = llvm::StringRef(N.Id).split(':').second;
    Qualified = Qualified.take_front(Qualified.find('#'));
    BasesOf[Qualified.str()] = N.Bases;
    ByName.emplace(N.Name, Qualified.str());
  }
  std::map<std::string, bool> Memo;
  std::function<bool(const std::string &)> IsOpen =
      [&](const std::string &Class) {
        auto [It, New] = Memo.try_emplace(Class, false);
        if (!New)
          return It->second; // a cycle counts as closed
        bool Open = false;
        for (const std::string &Base : BasesOf[Class]) {
          auto Local = ByName.find(Base);
          if (Local != ByName.end() && Local->second != Class)
            Open = IsOpen(Local->second);
          else
            Open = !bringsNoTests(Base);
          if (Open)
            break;
        }
        return Memo[Class] = Open;
      };
  std::vector<std::string> Out;
  for (const auto &[Class, Bases] : BasesOf)
    if (IsOpen(Class)) {
      std::string Id = Path + "::" + Class;
      size_t At = 0;
      while ((At = Id.find('.', Path.size() + 2)) != std::string::npos)
        Id.replace(At, 1, "::");
      Out.push_back(std::move(Id));
    }
  return Out;
}

llvm::Error keepHeadTests(const git::Repository &Repo, Store &S,
                          const Definitions &Defs, Plan &P) {
  HeadTests Head(Repo, S, Defs, P.Changes);
  // The planner left out the C++ cases the change deleted already.
  std::set<std::string> Undefined(P.Undefined.begin(), P.Undefined.end());
  size_t Before = Undefined.size();
  for (std::vector<PlannedTest> *List : {&P.Selected, &P.Cut}) {
    std::vector<PlannedTest> Kept;
    std::map<std::string, size_t> At;
    for (PlannedTest &T : *List) {
      auto Gone = Head.undefined(T.Id);
      if (!Gone)
        return Gone.takeError();
      if (*Gone) {
        Undefined.insert(T.Id);
        continue;
      }
      if (std::optional<std::string> Function = Head.widened(T.Id)) {
        P.Widened.emplace_back(T.Id, *Function);
        T.Id = *Function;
        T.FromDefinition = true;
      }
      auto [It, New] = At.try_emplace(T.Id, Kept.size());
      if (New)
        Kept.push_back(std::move(T));
      else // the function's id, and another instance of it
        llvm::append_range(Kept[It->second].Reasons, T.Reasons);
    }
    *List = std::move(Kept);
  }
  std::set<std::string> Chosen;
  for (const std::vector<PlannedTest> *List : {&P.Selected, &P.Cut})
    for (const PlannedTest &T : *List)
      Chosen.insert(T.Id);
  for (auto It = P.NotSelected.begin(); It != P.NotSelected.end();) {
    auto Gone = Head.undefined(*It);
    if (!Gone)
      return Gone.takeError();
    if (*Gone || Chosen.count(*It)) {
      if (*Gone)
        Undefined.insert(*It);
      It = P.NotSelected.erase(It);
    } else {
      ++It;
    }
  }
  P.Undefined.assign(Undefined.begin(), Undefined.end());
  P.TotalTests -= std::min<unsigned>(P.TotalTests, Undefined.size() - Before);
  return llvm::Error::success();
}

} // namespace select
} // namespace tia
