//===- SelectionReplay.cpp - selection measured against the history -------===//

#include "tia/Eval/SelectionReplay.h"
#include "tia/Store/Store.h"
#include "tia/Support/CommitId.h"
#include "tia/Support/Error.h"
#include "tia/Support/Plural.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include <map>
#include <set>

namespace tia {
namespace eval {

//===----------------------------------------------------------------------===//
// Figures
//===----------------------------------------------------------------------===//

double CommitMeasure::testReduction() const {
  return Tests ? 1.0 - double(Selected) / Tests : 0.0;
}

std::optional<double> CommitMeasure::precision() const {
  if (!Selected)
    return std::nullopt;
  return double(AffectedSelected) / Selected;
}

double CommitMeasure::overheadSeconds() const {
  return IndexSeconds + SelectSeconds +
         std::max(0.0, CollectSeconds - AllTestsSeconds);
}

std::optional<double> CommitMeasure::timeReduction() const {
  if (AllTestsSeconds <= 0)
    return std::nullopt;
  return 1.0 - (SelectedTestsSeconds + overheadSeconds()) / AllTestsSeconds;
}

std::optional<double> CommitMeasure::timeReductionWithoutCollection() const {
  if (AllTestsSeconds <= 0)
    return std::nullopt;
  return 1.0 - (SelectedTestsSeconds + IndexSeconds + SelectSeconds) /
                   AllTestsSeconds;
}

namespace {
template <typename F> unsigned sumOf(const ReplayReport &R, F Field) {
  unsigned N = 0;
  for (const CommitMeasure &M : R.Commits)
    N += Field(M);
  return N;
}
} // namespace

unsigned ReplayReport::tests() const {
  return sumOf(*this, [](const CommitMeasure &M) { return M.Tests; });
}
unsigned ReplayReport::selected() const {
  return sumOf(*this, [](const CommitMeasure &M) { return M.Selected; });
}
unsigned ReplayReport::affected() const {
  return sumOf(*this, [](const CommitMeasure &M) { return M.Affected; });
}
unsigned ReplayReport::testFiles() const {
  return sumOf(*this, [](const CommitMeasure &M) { return M.TestFiles; });
}
unsigned ReplayReport::selectedFiles() const {
  return sumOf(*this, [](const CommitMeasure &M) { return M.SelectedFiles; });
}
unsigned ReplayReport::affectedFiles() const {
  return sumOf(*this, [](const CommitMeasure &M) { return M.AffectedFiles; });
}
unsigned ReplayReport::affectedSelected() const {
  return sumOf(*this,
               [](const CommitMeasure &M) { return M.AffectedSelected; });
}
unsigned ReplayReport::missed() const {
  return sumOf(*this, [](const CommitMeasure &M) {
    return static_cast<unsigned>(M.Missed.size());
  });
}
unsigned ReplayReport::safeCommits() const {
  return sumOf(*this, [](const CommitMeasure &M) { return M.safe() ? 1 : 0; });
}

double ReplayReport::testReduction() const {
  unsigned T = tests();
  return T ? 1.0 - double(selected()) / T : 0.0;
}

std::optional<double> ReplayReport::precision() const {
  unsigned S = selected();
  if (!S)
    return std::nullopt;
  return double(affectedSelected()) / S;
}

std::optional<double> ReplayReport::safeReduction() const {
  if (Commits.empty())
    return std::nullopt;
  return double(safeCommits()) / Commits.size();
}

std::optional<double> ReplayReport::timeReduction() const {
  double All = 0, Spent = 0;
  for (const CommitMeasure &M : Commits) {
    All += M.AllTestsSeconds;
    Spent += M.SelectedTestsSeconds + M.overheadSeconds();
  }
  if (All <= 0)
    return std::nullopt;
  return 1.0 - Spent / All;
}

std::optional<double> ReplayReport::timeReductionWithoutCollection() const {
  double All = 0, Spent = 0;
  for (const CommitMeasure &M : Commits) {
    All += M.AllTestsSeconds;
    Spent += M.SelectedTestsSeconds + M.IndexSeconds + M.SelectSeconds;
  }
  if (All <= 0)
    return std::nullopt;
  return 1.0 - Spent / All;
}

std::string percent(std::optional<double> V) {
  if (!V)
    return "-";
  return llvm::formatv("{0:f1}%", *V * 100).str();
}

//===----------------------------------------------------------------------===//
// Ground truth
//===----------------------------------------------------------------------===//

bool selectionIncludes(const std::vector<std::string> &Selected,
                       llvm::StringRef Id) {
  for (const std::string &S : Selected) {
    llvm::StringRef Sel = S;
    if (Sel == Id)
      return true;
    if (Sel.starts_with("gtest:") && Id.starts_with("gtest:")) {
      auto [SelBin, SelName] = Sel.drop_front(6).rsplit(':');
      auto [Bin, Name] = Id.drop_front(6).rsplit(':');
      if ((SelBin == "*" || SelBin == Bin) &&
          select::gtestNameMatches(Name, SelName))
        return true;
    } else if (Sel.starts_with("pytest:") && Id.starts_with(Sel) &&
               Id.size() > Sel.size() && Id[Sel.size()] == '[') {
      return true;
    }
  }
  return false;
}

std::string testFileOf(llvm::StringRef Id,
                       const llvm::StringMap<std::string> &Files) {
  auto It = Files.find(Id);
  if (It != Files.end() && !It->second.empty())
    return It->second;
  if (Id.starts_with("gtest:"))
    return Id.drop_front(6).rsplit(':').first.str();
  if (Id.starts_with("pytest:"))
    return Id.drop_front(7).split("::").first.str();
  return Id.str();
}

namespace {

/// How a test is affected.
struct Link {
  enum { New, Old, Fails } Side;
  const select::ChangedElement *Element = nullptr;
  /// The element only rebinds names: the test ran code using them.
  bool ByNames = false;
};

std::string missReason(const Link &L, bool HeldAtParent) {
  if (!HeldAtParent)
    return "not in the parent's coverage (a new test) and no definition of it "
           "changed where tia looks for tests";
  if (L.Side == Link::Fails)
    return "fails at the commit after passing at the parent, but runs no "
           "element the commit changed";
  const select::ChangedElement &E = *L.Element;
  if (L.ByNames)
    return "ran code using a name " + E.Elem.Display +
           " binds, which the commit changed";
  if (L.Side == Link::Old)
    return "covered " + E.Elem.Display + " at the parent, which the commit " +
           select::changeName(E.Change).str() +
           ", yet was not selected (a budget?)";
  if (E.Change == select::ElementChange::Added)
    return "runs " + E.Elem.Display +
           ", which the commit added; at the parent it covered nothing the "
           "commit changed";
  return "reaches " + E.Elem.Display +
         " (modified) only at the commit: its coverage at the parent does "
         "not include it";
}

} // namespace

llvm::Error measure(Store &S, const select::Plan &P, const Observed &O,
                    const llvm::StringMap<std::string> &TestFiles,
                    CommitMeasure &M) {
  std::vector<std::string> Sel;
  for (const select::PlannedTest &T : P.Selected)
    Sel.push_back(T.Id);

  std::map<std::string, double> Ran; // test -> seconds at the commit
  std::map<std::string, bool> FailedAt;
  for (const TestResult &R : O.CommitResults) {
    Ran[R.TestId] += R.Seconds;
    FailedAt[R.TestId] = isFailure(R.Result); // the last attempt decides
  }
  std::map<std::string, bool> PassedBefore;
  for (const TestResult &R : O.ParentResults)
    PassedBefore[R.TestId] = R.Result == Outcome::Passed;

  std::set<std::string> Files, SelFiles, AffFiles, Selected;
  double AllSeconds = 0;
  for (const auto &[Id, Secs] : Ran) {
    std::string File = testFileOf(Id, TestFiles);
    Files.insert(File);
    AllSeconds += Secs;
    FrameworkCounts &Counts = M.ByFramework[testFramework(Id).str()];
    ++Counts.Tests;
    if (selectionIncludes(Sel, Id)) {
      Selected.insert(Id);
      SelFiles.insert(File);
      M.SelectedTestsSeconds += Secs;
      ++Counts.Selected;
    }
  }
  M.Tests = Ran.size();
  M.TestFiles = Files.size();
  M.Selected = Selected.size();
  M.SelectedFiles = SelFiles.size();
  if (!M.TestCommandRan)
    M.AllTestsSeconds = AllSeconds;

  std::map<std::string, std::vector<Link>> Why;
  // The tests that ran at C and covered Key in Snapshot (none: 0) get a
  // link to changed element E.
  auto LinkCovering = [&](const std::string &Key, int64_t Snapshot,
                          decltype(Link::Side) Side,
                          const select::ChangedElement &E) -> llvm::Error {
    if (!Snapshot)
      return llvm::Error::success();
    auto Tests = S.testsCovering(Key, Snapshot);
    if (!Tests)
      return Tests.takeError();
    for (const std::string &T : *Tests)
      if (Ran.count(T))
        Why[T].push_back({Side, &E, Key != E.Elem.Key});
    return llvm::Error::success();
  };
  for (size_t I = 0; I < P.Changes.Elements.size(); ++I) {
    const select::ChangedElement &E = P.Changes.Elements[I];
    // A change an earlier commit made affects none of this commit's tests.
    if (O.CommitFiles && !O.CommitFiles->count(E.Elem.File))
      continue;
    // A change that only rebinds names affects the tests that ran code
    // using them; coverage links the binding itself to every test whose
    // import ran it.
    std::vector<std::string> Keys{E.Elem.Key};
    auto Bound = P.Changes.NameBoundUsers.find(I);
    if (Bound != P.Changes.NameBoundUsers.end())
      Keys = Bound->second;
    for (const std::string &Key : Keys) {
      if (E.Change != select::ElementChange::Deleted)
        if (llvm::Error Err = LinkCovering(Key, O.CommitSnapshot, Link::New, E))
          return Err;
      if (E.Change != select::ElementChange::Added)
        if (llvm::Error Err = LinkCovering(Key, O.ParentSnapshot, Link::Old, E))
          return Err;
    }
  }
  for (const auto &[Id, Failed] : FailedAt) {
    auto Before = PassedBefore.find(Id);
    if (Failed && Before != PassedBefore.end() && Before->second)
      Why[Id].push_back({Link::Fails, nullptr});
  }

  std::set<std::string> HeldAtParent;
  if (O.ParentSnapshot) {
    auto Held = S.snapshotTests(O.ParentSnapshot);
    if (!Held)
      return Held.takeError();
    for (const TestRecord &T : *Held)
      HeldAtParent.insert(T.Id);
  }
  for (const auto &[Id, Links] : Why) {
    M.AffectedTests.push_back(Id);
    ++M.ByFramework[testFramework(Id).str()].Affected;
    AffFiles.insert(testFileOf(Id, TestFiles));
    if (Selected.count(Id)) {
      ++M.AffectedSelected;
      continue;
    }
    M.Missed.push_back({Id, missReason(Links.front(), HeldAtParent.count(Id))});
  }
  M.Affected = M.AffectedTests.size();
  M.AffectedFiles = AffFiles.size();
  M.ChangedElements = P.Changes.Elements.size();
  M.SelectedAll = P.selectsAll();
  for (const select::Fallback &F : P.Changes.Fallbacks)
    M.Fallbacks.push_back(select::fallbackName(F.Kind).str() +
                          (F.File.empty() ? "" : " " + F.File));
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// Reports
//===----------------------------------------------------------------------===//

namespace {

void optionalNumber(llvm::json::OStream &J, llvm::StringRef Key,
                    std::optional<double> V) {
  if (V)
    J.attribute(Key, *V);
  else
    J.attribute(Key, nullptr);
}

double rounded(double Seconds) { return std::round(Seconds * 1000) / 1000; }

} // namespace

void writeCommitJson(llvm::json::OStream &J, const CommitMeasure &M) {
  J.object([&] {
    J.attribute("commit", M.Commit);
    J.attribute("parent", M.Parent);
    J.attribute("summary", M.Summary);
    J.attribute("tests", M.Tests);
    J.attribute("test_files", M.TestFiles);
    J.attribute("selected", M.Selected);
    J.attribute("selected_files", M.SelectedFiles);
    J.attribute("affected", M.Affected);
    J.attribute("affected_files", M.AffectedFiles);
    J.attribute("affected_selected", M.AffectedSelected);
    J.attribute("test_reduction", M.testReduction());
    optionalNumber(J, "precision", M.precision());
    J.attribute("safe", M.safe());
    J.attribute("selected_all", M.SelectedAll);
    J.attribute("changed_elements", M.ChangedElements);
    J.attributeArray("fallbacks", [&] {
      for (const std::string &F : M.Fallbacks)
        J.value(F);
    });
    J.attributeArray("affected_tests", [&] {
      for (const std::string &T : M.AffectedTests)
        J.value(T);
    });
    J.attributeArray("missed", [&] {
      for (const MissedTest &T : M.Missed)
        J.object([&] {
          J.attribute("test", T.Test);
          J.attribute("reason", T.Reason);
        });
    });
    // A measure read from an older report has none: left out, not "no
    // tests".
    if (!M.ByFramework.empty())
      J.attributeObject("by_framework", [&] {
        for (const auto &[Framework, N] : M.ByFramework)
          J.attributeObject(Framework, [&] {
            J.attribute("tests", N.Tests);
            J.attribute("selected", N.Selected);
            J.attribute("affected", N.Affected);
          });
      });
    J.attributeObject("seconds", [&] {
      J.attribute("build", rounded(M.BuildSeconds));
      J.attribute("index", rounded(M.IndexSeconds));
      J.attribute("select", rounded(M.SelectSeconds));
      J.attribute("collect", rounded(M.CollectSeconds));
      J.attribute("all_tests", rounded(M.AllTestsSeconds));
      J.attribute("selected_tests", rounded(M.SelectedTestsSeconds));
      J.attribute("overhead", rounded(M.overheadSeconds()));
    });
    optionalNumber(J, "time_reduction", M.timeReduction());
    optionalNumber(J, "time_reduction_without_collection",
                   M.timeReductionWithoutCollection());
    if (M.TestCommandRan)
      J.attribute("test_command_exit", M.TestCommandExit);
    else
      J.attribute("test_command_exit", nullptr);
  });
}

namespace {

/// Reads the fields of one commit's JSON object, remembering the first
/// that is missing or of another kind.
class CommitReader {
public:
  explicit CommitReader(const llvm::json::Object &O) : O(O) {}
  void text(llvm::StringRef Key, std::string &Out) {
    if (auto V = O.getString(Key))
      Out = V->str();
    else
      bad(Key);
  }
  void count(llvm::StringRef Key, unsigned &Out) {
    if (auto V = O.getInteger(Key); V && *V >= 0)
      Out = static_cast<unsigned>(*V);
    else
      bad(Key);
  }
  void flag(llvm::StringRef Key, bool &Out) {
    if (auto V = O.getBoolean(Key))
      Out = *V;
    else
      bad(Key);
  }
  void seconds(const llvm::json::Object *Seconds, llvm::StringRef Key,
               double &Out) {
    if (auto V = Seconds ? Seconds->getNumber(Key) : std::nullopt)
      Out = *V;
    else
      bad(("seconds." + Key).str());
  }
  void texts(llvm::StringRef Key, std::vector<std::string> &Out) {
    const llvm::json::Array *A = O.getArray(Key);
    if (!A)
      return bad(Key);
    for (const llvm::json::Value &V : *A)
      if (auto S = V.getAsString())
        Out.push_back(S->str());
      else
        return bad(Key);
  }
  void missed(std::vector<MissedTest> &Out) {
    const llvm::json::Array *A = O.getArray("missed");
    if (!A)
      return bad("missed");
    for (const llvm::json::Value &V : *A) {
      const llvm::json::Object *M = V.getAsObject();
      auto Test = M ? M->getString("test") : std::nullopt;
      auto Reason = M ? M->getString("reason") : std::nullopt;
      if (!Test || !Reason)
        return bad("missed");
      Out.push_back({Test->str(), Reason->str()});
    }
  }
  /// "by_framework", which older reports do not have.
  void byFramework(std::map<std::string, FrameworkCounts> &Out) {
    const llvm::json::Value *V = O.get("by_framework");
    if (!V)
      return;
    const llvm::json::Object *Frameworks = V->getAsObject();
    if (!Frameworks)
      return bad("by_framework");
    for (const auto &[Framework, Counts] : *Frameworks) {
      const llvm::json::Object *C = Counts.getAsObject();
      if (!C)
        return bad("by_framework");
      CommitReader Inner(*C);
      FrameworkCounts &N = Out[Framework.str()];
      Inner.count("tests", N.Tests);
      Inner.count("selected", N.Selected);
      Inner.count("affected", N.Affected);
      if (!Inner.FirstBad.empty())
        return bad(("by_framework." + Framework.str() + "." + Inner.FirstBad));
    }
  }
  void testCommandExit(CommitMeasure &M) {
    const llvm::json::Value *V = O.get("test_command_exit");
    if (!V)
      return bad("test_command_exit");
    if (V->kind() == llvm::json::Value::Null)
      return;
    if (auto Exit = V->getAsInteger()) {
      M.TestCommandRan = true;
      M.TestCommandExit = static_cast<int>(*Exit);
    } else {
      bad("test_command_exit");
    }
  }
  llvm::Error error() const {
    if (FirstBad.empty())
      return llvm::Error::success();
    return makeErrorf("a replayed commit's '{0}' is missing or not what the "
                      "format says",
                      FirstBad);
  }

private:
  void bad(llvm::StringRef Key) {
    if (FirstBad.empty())
      FirstBad = Key.str();
  }
  const llvm::json::Object &O;
  std::string FirstBad;
};

} // namespace

llvm::Expected<CommitMeasure> readCommitJson(const llvm::json::Value &V) {
  const llvm::json::Object *O = V.getAsObject();
  if (!O)
    return makeError("a replayed commit is not a JSON object");
  CommitMeasure M;
  CommitReader R(*O);
  R.text("commit", M.Commit);
  R.text("parent", M.Parent);
  R.text("summary", M.Summary);
  R.count("tests", M.Tests);
  R.count("test_files", M.TestFiles);
  R.count("selected", M.Selected);
  R.count("selected_files", M.SelectedFiles);
  R.count("affected", M.Affected);
  R.count("affected_files", M.AffectedFiles);
  R.count("affected_selected", M.AffectedSelected);
  R.flag("selected_all", M.SelectedAll);
  R.count("changed_elements", M.ChangedElements);
  R.texts("fallbacks", M.Fallbacks);
  R.texts("affected_tests", M.AffectedTests);
  R.missed(M.Missed);
  R.byFramework(M.ByFramework);
  const llvm::json::Object *Seconds = O->getObject("seconds");
  R.seconds(Seconds, "build", M.BuildSeconds);
  R.seconds(Seconds, "index", M.IndexSeconds);
  R.seconds(Seconds, "select", M.SelectSeconds);
  R.seconds(Seconds, "collect", M.CollectSeconds);
  R.seconds(Seconds, "all_tests", M.AllTestsSeconds);
  R.seconds(Seconds, "selected_tests", M.SelectedTestsSeconds);
  R.testCommandExit(M);
  if (llvm::Error E = R.error())
    return E;
  return M;
}

namespace {

void commitsAndTotalJson(llvm::json::OStream &J, const ReplayReport &R) {
  J.attributeArray("commits", [&] {
    for (const CommitMeasure &M : R.Commits)
      writeCommitJson(J, M);
  });
  J.attributeObject("total", [&] {
    J.attribute("commits", static_cast<int64_t>(R.Commits.size()));
    J.attribute("tests", R.tests());
    J.attribute("test_files", R.testFiles());
    J.attribute("selected", R.selected());
    J.attribute("selected_files", R.selectedFiles());
    J.attribute("affected", R.affected());
    J.attribute("affected_files", R.affectedFiles());
    J.attribute("affected_selected", R.affectedSelected());
    J.attribute("missed", R.missed());
    J.attribute("safe_commits", R.safeCommits());
    J.attribute("test_reduction", R.testReduction());
    optionalNumber(J, "precision", R.precision());
    optionalNumber(J, "safe_reduction", R.safeReduction());
    optionalNumber(J, "time_reduction", R.timeReduction());
    optionalNumber(J, "time_reduction_without_collection",
                   R.timeReductionWithoutCollection());
  });
}

} // namespace

void writeReplayJson(const ReplayReport &R, llvm::raw_ostream &OS) {
  llvm::json::OStream J(OS, 2);
  J.object([&] {
    J.attribute("version", 1);
    J.attribute("from", R.From);
    J.attribute("to", R.To);
    J.attribute("first_parent", R.FirstParent);
    J.attribute("build", R.Build);
    if (R.TestCommand.empty())
      J.attribute("test_command", nullptr);
    else
      J.attribute("test_command", R.TestCommand);
    J.attribute("mode", R.Mode);
    J.attribute("seconds", rounded(R.Seconds));
    commitsAndTotalJson(J, R);
    if (R.Others.empty())
      return;
    J.attributeArray("modes", [&] {
      auto Mode = [&](const ReplayReport &M) {
        J.object([&] {
          J.attribute("mode", M.Mode);
          commitsAndTotalJson(J, M);
        });
      };
      Mode(R);
      for (const ReplayReport &O : R.Others)
        Mode(O);
    });
  });
  OS << "\n";
}

namespace {
/// A table cell: no '|' or line break of a summary breaks the row.
std::string cell(llvm::StringRef Text) {
  std::string Out;
  for (char C : Text.take_front(60))
    Out += C == '|' ? '/' : (C == '\n' ? ' ' : C);
  if (Text.size() > 60)
    Out += "...";
  return Out;
}
} // namespace

namespace {
void oneModeMarkdown(const ReplayReport &R, llvm::raw_ostream &OS) {
  OS << "| commit | summary | tests (files) | selected (files) | affected | "
        "missed | TestR | precision | safe | TimeR | TimeR without collection "
        "|\n"
     << "|---|---|--:|--:|--:|--:|--:|--:|:-:|--:|--:|\n";
  for (const CommitMeasure &M : R.Commits)
    OS << "| `" << shortId(M.Commit) << "` | " << cell(M.Summary) << " | "
       << M.Tests << " (" << M.TestFiles << ") | " << M.Selected << " ("
       << M.SelectedFiles << ")" << (M.SelectedAll ? " all" : "") << " | "
       << M.Affected << " | " << M.Missed.size() << " | "
       << percent(M.testReduction()) << " | " << percent(M.precision()) << " | "
       << (M.safe() ? "yes" : "**no**") << " | " << percent(M.timeReduction())
       << " | " << percent(M.timeReductionWithoutCollection()) << " |\n";
  OS << "| **total** | " << R.Commits.size() << " commit"
     << pluralS(R.Commits.size()) << " | " << R.tests() << " (" << R.testFiles()
     << ") | " << R.selected() << " (" << R.selectedFiles() << ") | "
     << R.affected() << " | " << R.missed() << " | "
     << percent(R.testReduction()) << " | " << percent(R.precision()) << " | "
     << R.safeCommits() << "/" << R.Commits.size() << " | "
     << percent(R.timeReduction()) << " | "
     << percent(R.timeReductionWithoutCollection()) << " |\n\n";
  OS << "SafeR " << percent(R.safeReduction())
     << " (commits where every affected test was selected).\n";
  if (!R.missed()) {
    OS << "No affected test was missed.\n";
    return;
  }
  OS << "\nMissed tests:\n\n";
  for (const CommitMeasure &M : R.Commits)
    for (const MissedTest &T : M.Missed)
      OS << "- `" << shortId(M.Commit) << "` `" << T.Test << "`: " << T.Reason
         << "\n";
}

/// "12 (3)", with " all" when a fallback selected every test.
std::string selectedCell(const CommitMeasure &M) {
  return std::to_string(M.Selected) + " (" + std::to_string(M.SelectedFiles) +
         ")" + (M.SelectedAll ? " all" : "");
}

/// Several modes against the same ground truth: one table of the
/// selections and misses per commit, one of the totals per mode, then the
/// missed tests of each mode.
void modesMarkdown(const ReplayReport &R, llvm::raw_ostream &OS) {
  std::vector<const ReplayReport *> Modes = {&R};
  for (const ReplayReport &O : R.Others)
    Modes.push_back(&O);
  OS << "| commit | summary | tests (files) | affected |";
  for (const ReplayReport *M : Modes)
    OS << " selected: " << M->Mode << " |";
  for (const ReplayReport *M : Modes)
    OS << " missed: " << M->Mode << " |";
  OS << "\n|---|---|--:|--:|";
  for (size_t I = 0; I < 2 * Modes.size(); ++I)
    OS << "--:|";
  OS << "\n";
  for (size_t C = 0; C < R.Commits.size(); ++C) {
    const CommitMeasure &First = R.Commits[C];
    OS << "| `" << shortId(First.Commit) << "` | " << cell(First.Summary)
       << " | " << First.Tests << " (" << First.TestFiles << ") | "
       << First.Affected << " |";
    for (const ReplayReport *M : Modes)
      OS << " " << (C < M->Commits.size() ? selectedCell(M->Commits[C]) : "-")
         << " |";
    for (const ReplayReport *M : Modes) {
      if (C >= M->Commits.size()) {
        OS << " - |";
        continue;
      }
      size_t N = M->Commits[C].Missed.size();
      OS << " " << (N ? "**" + std::to_string(N) + "**" : std::string("0"))
         << " |";
    }
    OS << "\n";
  }
  OS << "| **total** | " << R.Commits.size() << " commit"
     << pluralS(R.Commits.size()) << " | " << R.tests() << " (" << R.testFiles()
     << ") | " << R.affected() << " |";
  for (const ReplayReport *M : Modes)
    OS << " " << M->selected() << " (" << M->selectedFiles() << ") |";
  for (const ReplayReport *M : Modes)
    OS << " " << M->missed() << " |";
  OS << "\n\n";

  OS << "| mode | selected | affected and selected | missed | TestR | "
        "precision | SafeR | TimeR | TimeR without collection |\n"
     << "|---|--:|--:|--:|--:|--:|--:|--:|--:|\n";
  for (const ReplayReport *M : Modes)
    OS << "| " << M->Mode << " | " << M->selected() << " | "
       << M->affectedSelected() << " | " << M->missed() << " | "
       << percent(M->testReduction()) << " | " << percent(M->precision())
       << " | " << percent(M->safeReduction()) << " (" << M->safeCommits()
       << "/" << M->Commits.size() << ") | " << percent(M->timeReduction())
       << " | " << percent(M->timeReductionWithoutCollection()) << " |\n";
  OS << "\nSafeR: commits where every affected test was selected. The "
        "ground truth is the same for every mode.\n";
  unsigned Missed = 0;
  for (const ReplayReport *M : Modes)
    Missed += M->missed();
  if (!Missed) {
    OS << "No affected test was missed.\n";
    return;
  }
  OS << "\nMissed tests:\n\n";
  for (const ReplayReport *M : Modes)
    for (const CommitMeasure &C : M->Commits)
      for (const MissedTest &T : C.Missed)
        OS << "- " << M->Mode << ", `" << shortId(C.Commit) << "` `" << T.Test
           << "`: " << T.Reason << "\n";
}
} // namespace

void writeReplay(const ReplayReport &R, bool Json, llvm::raw_ostream &OS) {
  if (Json)
    writeReplayJson(R, OS);
  else
    writeReplayMarkdown(R, OS);
  OS.flush();
}

void writeReplayMarkdown(const ReplayReport &R, llvm::raw_ostream &OS) {
  if (R.Others.empty())
    oneModeMarkdown(R, OS);
  else
    modesMarkdown(R, OS);
}

namespace {
std::string modeFigures(const ReplayReport &R) {
  return llvm::formatv("TestR {0}, precision {1}, SafeR {2} ({3}/{4}), "
                       "TimeR {5}; {6} missed test{7}",
                       percent(R.testReduction()), percent(R.precision()),
                       percent(R.safeReduction()), R.safeCommits(),
                       R.Commits.size(), percent(R.timeReduction()), R.missed(),
                       pluralS(R.missed()))
      .str();
}
} // namespace

std::string replaySummary(const ReplayReport &R) {
  std::string Out =
      llvm::formatv("replayed {0} commit{1} in {2:f1}s", R.Commits.size(),
                    pluralS(R.Commits.size()), R.Seconds)
          .str();
  if (R.FromJournal)
    Out += llvm::formatv(" ({0} measured before, read from the journal)",
                         R.FromJournal)
               .str();
  Out += ": ";
  if (R.Others.empty())
    return Out + modeFigures(R);
  Out += R.Mode + ": " + modeFigures(R);
  for (const ReplayReport &O : R.Others)
    Out += "; " + O.Mode + ": " + modeFigures(O);
  return Out;
}

} // namespace eval
} // namespace tia
