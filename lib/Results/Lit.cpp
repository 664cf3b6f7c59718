//===- Lit.cpp - lit suites: recognising, listing and naming their tests --===//
//
// A lit suite's tests are script files, each running the build's programs.
// lit names a test "SUITE :: PATH" (the suite's config.name and the file's
// path in the suite); tia's id is "lit:SUITE::PATH", one per file. lit
// chooses tests with --filter, a regular expression searched in that name.
// Its xunit report (--xunit-xml-output) names a test less exactly, as a
// class name and a file name: a result is named after the known test it
// stands for.
//
//===----------------------------------------------------------------------===//

#include "tia/Results/Runners.h"
#include "tia/Select/Policy.h"
#include "tia/Support/Error.h"
#include "tia/Support/LitId.h"
#include "tia/Support/Plural.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include <algorithm>
#include <map>
#include <numeric>

namespace tia {
namespace results {

namespace {

/// lit's program names: lit.py (LLVM's source tree, Debian's llvm-N-tools),
/// lit (pip's entry point), llvm-lit (LLVM's build tree).
bool isLitProgram(llvm::StringRef Path) {
  llvm::StringRef Name = llvm::sys::path::filename(Path);
  return Name == "lit.py" || Name == "lit" || Name == "llvm-lit";
}

/// \p Text with the characters a Python regular expression gives meaning
/// escaped, as re.escape does for them, and a space written "\x20", which
/// a shell does not split at.
std::string regexEscaped(llvm::StringRef Text) {
  std::string Out;
  for (char C : Text) {
    if (C == ' ') {
      Out += "\\x20";
      continue;
    }
    if (llvm::StringRef(".^$*+?{}[]\\|()").contains(C))
      Out += '\\';
    Out += C;
  }
  return Out;
}

} // namespace

bool runsLit(const std::vector<std::string> &Command) {
  if (Command.empty())
    return false;
  if (isLitProgram(Command[0]))
    return true;
  // python3 [-u ...] .../lit.py
  if (!llvm::sys::path::filename(Command[0]).starts_with("python"))
    return false;
  for (size_t I = 1; I < Command.size(); ++I) {
    if (isLitProgram(Command[I]))
      return true;
    if (!llvm::StringRef(Command[I]).starts_with("-"))
      return false;
  }
  return false;
}

std::vector<std::string> parseLitTestList(llvm::StringRef Text) {
  std::vector<std::string> Out;
  bool InList = false;
  for (llvm::StringRef Line : llvm::split(Text, '\n')) {
    Line = Line.rtrim("\r");
    if (Line.starts_with("-- Available Tests --")) {
      InList = true;
      continue;
    }
    // lit indents each name by two spaces; the list ends at the first line
    // that is not one.
    if (!InList)
      continue;
    if (!Line.starts_with("  ") || !Line.contains(" :: "))
      break;
    Out.push_back(Line.trim().str());
  }
  return Out;
}

std::map<std::string, LitSuite> parseLitSuites(llvm::StringRef Text) {
  std::map<std::string, LitSuite> Out;
  LitSuite *Current = nullptr;
  for (llvm::StringRef Line : llvm::split(Text, '\n')) {
    Line = Line.rtrim("\r");
    if (Line.starts_with("-- Available Tests --"))
      break;
    // "  NAME - 12 tests", then its fields indented by four spaces.
    if (Line.starts_with("  ") && !Line.starts_with("   ")) {
      auto [Name, Count] = Line.trim().rsplit(" - ");
      Current = Count.ends_with(" tests") || Count.ends_with(" test")
                    ? &Out[Name.str()]
                    : nullptr;
      continue;
    }
    if (!Current)
      continue;
    auto [Key, Value] = Line.trim().split(':');
    if (Key.trim() == "Source Root")
      Current->SourceRoot = Value.trim().str();
    else if (Key.trim() == "Exec Root")
      Current->ExecRoot = Value.trim().str();
  }
  return Out;
}

std::string litTestId(llvm::StringRef FullName) {
  auto [Suite, Path] = FullName.split(" :: ");
  return litId(Suite, Path);
}

std::optional<std::string> litFullName(llvm::StringRef Id) {
  std::optional<LitIdParts> Parts = splitLitId(Id);
  if (!Parts)
    return std::nullopt;
  return (Parts->Suite + " :: " + Parts->Path).str();
}

std::string litFilter(const std::vector<std::string> &FullNames) {
  std::vector<std::string> Names;
  for (const std::string &N : FullNames)
    Names.push_back(regexEscaped(N));
  return "^(" + llvm::join(Names, "|") + ")$";
}

namespace {

/// One folder's selected tests as the alternatives of a --filter.
struct FolderGroup {
  std::string Folder; ///< "SUITE :: dir/sub/", "SUITE :: " at the root
  std::vector<std::string> Files;
  bool Whole = false;
  std::string regex() const {
    std::vector<std::string> Names;
    for (const std::string &F : Files)
      Names.push_back(regexEscaped(F));
    return regexEscaped(Folder) +
           (Whole ? ".*" : "(" + llvm::join(Names, "|") + ")");
  }
};

std::vector<FolderGroup> groupByFolder(const std::vector<std::string> &Names) {
  std::map<std::string, FolderGroup> Groups;
  for (llvm::StringRef Name : Names) {
    auto [Suite, Path] = Name.split(" :: ");
    size_t Slash = Path.rfind('/');
    std::string Folder =
        (Suite + " :: " +
         (Slash == llvm::StringRef::npos ? "" : Path.take_front(Slash + 1)))
            .str();
    FolderGroup &G = Groups[Folder];
    G.Folder = Folder;
    G.Files.push_back(Name.drop_front(Folder.size()).str());
  }
  std::vector<FolderGroup> Out;
  for (auto &[Folder, G] : Groups)
    Out.push_back(std::move(G));
  return Out;
}

std::string joinGroups(const std::vector<FolderGroup> &Groups) {
  std::vector<std::string> Alternatives;
  for (const FolderGroup &G : Groups)
    Alternatives.push_back(G.regex());
  return "^(" + llvm::join(Alternatives, "|") + ")$";
}

} // namespace

BoundedLitFilter boundedLitFilter(const std::vector<std::string> &FullNames,
                                  size_t Limit, bool MayWiden) {
  BoundedLitFilter Out;
  std::string Flat = litFilter(FullNames);
  if (Flat.size() <= Limit) {
    Out.Regex = std::move(Flat);
    return Out;
  }
  std::vector<FolderGroup> Groups = groupByFolder(FullNames);
  std::string Grouped = joinGroups(Groups);
  if (Grouped.size() > Limit && MayWiden) {
    // Widen the folders whose alternatives are longest first: each saves
    // the most.
    // Each group's size once: a suite may have thousands of folders.
    std::vector<size_t> Sizes;
    for (const FolderGroup &G : Groups)
      Sizes.push_back(G.regex().size());
    std::vector<size_t> Order(Groups.size());
    std::iota(Order.begin(), Order.end(), 0);
    llvm::stable_sort(Order,
                      [&](size_t A, size_t B) { return Sizes[A] > Sizes[B]; });
    size_t Size = Grouped.size();
    for (size_t I : Order) {
      if (Size <= Limit)
        break;
      Groups[I].Whole = true;
      Size -= Sizes[I] - Groups[I].regex().size();
      ++Out.WholeFolders;
    }
    Grouped = joinGroups(Groups);
  }
  if (Grouped.size() <= Limit)
    Out.Regex = std::move(Grouped);
  return Out;
}

bool selectsLitTest(const select::Plan &P) {
  return llvm::any_of(P.Selected, [](const select::PlannedTest &T) {
    return litFullName(T.Id).has_value();
  });
}

RunnerArguments litArguments(const select::Plan &P, bool Exclusion) {
  RunnerArguments Out;
  std::vector<std::string> Names;
  auto Collect = [&](llvm::StringRef Id) {
    if (std::optional<std::string> N = litFullName(Id))
      Names.push_back(*N);
    else
      ++Out.Unnamed;
  };
  if (!Exclusion) {
    if (P.selectsAll())
      return Out;
    for (const select::PlannedTest &T : P.Selected)
      Collect(T.Id);
    if (Names.empty()) {
      Out.Arguments = {"--filter", "^$", "--allow-empty-runs"};
      return Out;
    }
    BoundedLitFilter F = boundedLitFilter(Names, LitFilterLimit, true);
    if (F.Regex)
      Out.Arguments = {"--filter", *F.Regex};
    if (!F.Regex || F.WholeFolders)
      Out.Widened =
          llvm::formatv(
              "the --filter of {0} selected lit test{1} is longer than lit "
              "can take ({2} characters): {3}",
              Names.size(), pluralS(Names.size()), LitFilterLimit,
              F.Regex ? llvm::formatv("{0} folder{1} run{2} whole instead",
                                      F.WholeFolders, pluralS(F.WholeFolders),
                                      F.WholeFolders == 1 ? "s" : "")
                            .str()
                      : std::string("every lit test runs"))
              .str();
    return Out;
  }
  for (const std::string &Id : P.skippedIds())
    Collect(Id);
  if (Names.empty())
    return Out;
  // Skipping a whole folder could skip a selected test: all or nothing.
  BoundedLitFilter F = boundedLitFilter(Names, LitFilterLimit, false);
  if (!F.Regex) {
    Out.Widened =
        llvm::formatv("the --filter-out of {0} lit test{1} to skip "
                      "is longer than lit can take ({2} "
                      "characters): every lit test runs",
                      Names.size(), pluralS(Names.size()), LitFilterLimit)
            .str();
    return Out;
  }
  Out.Arguments = {"--filter-out", *F.Regex};
  // Skipping every known test may leave none, which lit calls an error.
  if (!Names.empty() && !selectsLitTest(P))
    Out.Arguments.push_back("--allow-empty-runs");
  return Out;
}

std::optional<LitXunitName> litXunitName(llvm::StringRef Id) {
  std::optional<std::string> Full = litFullName(Id);
  if (!Full)
    return std::nullopt;
  auto [Suite, Path] = llvm::StringRef(*Full).split(" :: ");
  std::string SuiteName = Suite.str();
  std::replace(SuiteName.begin(), SuiteName.end(), '.', '-');
  auto [Folder, File] = Path.rsplit('/');
  if (File.empty()) // at the suite's root
    return LitXunitName{SuiteName + "." + SuiteName, Folder.str()};
  std::string FolderName = Folder.str();
  std::replace(FolderName.begin(), FolderName.end(), '.', '_');
  return LitXunitName{SuiteName + "." + FolderName, File.str()};
}

std::optional<std::string> plainLitId(llvm::StringRef ClassName,
                                      llvm::StringRef Name) {
  auto [Suite, Folder] = ClassName.split('.');
  if (Suite.empty() || Folder.empty())
    return std::nullopt;
  if (Folder == Suite)
    return litId(Suite, Name);
  return litId(Suite, (Folder + "/" + Name).str());
}

llvm::Expected<std::vector<std::string>>
litResultIds(const JUnitReport &Report, llvm::StringRef FileName,
             llvm::ArrayRef<std::string> KnownIds,
             std::vector<std::string> &Warnings) {
  std::map<std::pair<std::string, std::string>, std::vector<std::string>> Known;
  for (const std::string &Id : KnownIds)
    if (std::optional<LitXunitName> X = litXunitName(Id))
      Known[{X->ClassName, X->Name}].push_back(Id);
  std::vector<std::string> Ids;
  unsigned Guessed = 0;
  for (const JUnitCase &C : Report.Cases) {
    auto It = Known.find({C.ClassName, C.Name});
    if (It != Known.end() && It->second.size() == 1) {
      Ids.push_back(It->second.front());
      continue;
    }
    std::optional<std::string> Plain = plainLitId(C.ClassName, C.Name);
    if (!Plain)
      return makeErrorf("{0}:{1}: lit test case '{2}' has class name '{3}', "
                        "not SUITE.FOLDER: pass the report lit's "
                        "--xunit-xml-output wrote",
                        FileName, C.ReportLine, C.Name, C.ClassName);
    Ids.push_back(std::move(*Plain));
    ++Guessed;
  }
  if (Guessed)
    Warnings.push_back(
        llvm::formatv("{0}: {1} of its {2} lit tests are not a test the "
                      "database knows; their ids were guessed from lit's "
                      "class names, which write '.' as '-' in a suite's name "
                      "and as '_' in a folder: collect the suite to have "
                      "them named exactly",
                      FileName, Guessed, Report.Cases.size())
            .str());
  return Ids;
}

} // namespace results
} // namespace tia
