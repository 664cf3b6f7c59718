//===- Config.cpp - .tia.yaml ---------------------------------------------===//

#include "tia/Config/Config.h"
#include "tia/Support/Error.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/YAMLTraits.h"
#include <algorithm>
#include <optional>
#include <vector>

namespace tia {
namespace config {

//===----------------------------------------------------------------------===//
// Path patterns
//===----------------------------------------------------------------------===//

namespace {

/// Matches one character against the set at the start of \p Pattern
/// ("[abc]", "[a-z]", "[!a]"); returns the pattern after the set, or
/// std::nullopt when the set is malformed.
std::optional<llvm::StringRef> matchSet(llvm::StringRef Pattern, char C,
                                        bool &Matched) {
  size_t I = 1;
  bool Negate = I < Pattern.size() && (Pattern[I] == '!' || Pattern[I] == '^');
  if (Negate)
    ++I;
  Matched = false;
  bool First = true;
  for (; I < Pattern.size(); ++I) {
    if (Pattern[I] == ']' && !First) {
      Matched = Matched != Negate;
      return Pattern.drop_front(I + 1);
    }
    First = false;
    if (I + 2 < Pattern.size() && Pattern[I + 1] == '-' &&
        Pattern[I + 2] != ']') {
      if (Pattern[I] <= C && C <= Pattern[I + 2])
        Matched = true;
      I += 2;
    } else if (Pattern[I] == C) {
      Matched = true;
    }
  }
  return std::nullopt;
}

bool match(llvm::StringRef P, llvm::StringRef S) {
  while (!P.empty()) {
    if (P.starts_with("**")) {
      // "**/" also matches no directory at all.
      llvm::StringRef Rest = P.drop_front(2);
      if (Rest.consume_front("/") && match(Rest, S))
        return true;
      for (size_t I = 0; I <= S.size(); ++I)
        if (match(Rest, S.drop_front(I)))
          return true;
      return false;
    }
    char C = P.front();
    if (C == '*') {
      llvm::StringRef Rest = P.drop_front();
      for (size_t I = 0; I <= S.size(); ++I) {
        if (match(Rest, S.drop_front(I)))
          return true;
        if (I < S.size() && S[I] == '/')
          return false;
      }
      return false;
    }
    if (S.empty())
      return false;
    if (C == '?') {
      if (S.front() == '/')
        return false;
    } else if (C == '[') {
      bool Matched;
      std::optional<llvm::StringRef> Rest = matchSet(P, S.front(), Matched);
      if (!Rest)
        return false;
      if (!Matched || S.front() == '/')
        return false;
      P = *Rest;
      S = S.drop_front();
      continue;
    } else if (C != S.front()) {
      return false;
    }
    P = P.drop_front();
    S = S.drop_front();
  }
  return S.empty();
}

bool patternMatches(llvm::StringRef Pattern, llvm::StringRef Path) {
  bool Rooted = Pattern.consume_front("/");
  Pattern.consume_back("/");
  if (!Rooted && !Pattern.contains('/')) {
    // Any one component: the file name or a directory name.
    llvm::StringRef Rest = Path;
    while (!Rest.empty()) {
      auto [Component, Tail] = Rest.split('/');
      if (match(Pattern, Component))
        return true;
      Rest = Tail;
    }
    return false;
  }
  if (match(Pattern, Path))
    return true;
  // A directory above the path.
  for (size_t Slash = Path.find('/'); Slash != llvm::StringRef::npos;
       Slash = Path.find('/', Slash + 1))
    if (match(Pattern, Path.take_front(Slash)))
      return true;
  return false;
}

} // namespace

bool globMatches(llvm::StringRef Pattern, llvm::StringRef Path) {
  return match(Pattern, Path);
}

llvm::Expected<PathPatterns>
PathPatterns::compile(std::vector<std::string> Patterns) {
  for (const std::string &P : Patterns) {
    if (P.empty())
      return makeError("bad pattern '': a pattern cannot be empty");
    int Depth = 0;
    for (char C : P) {
      if (C == '[')
        ++Depth;
      else if (C == ']' && Depth > 0)
        --Depth;
    }
    if (Depth)
      return makeErrorf("bad pattern '{0}': '[' without its ']'", P);
  }
  PathPatterns Out;
  Out.Patterns = std::move(Patterns);
  return Out;
}

bool PathPatterns::matches(llvm::StringRef Path) const {
  return !firstMatch(Path).empty();
}

llvm::StringRef PathPatterns::firstMatch(llvm::StringRef Path) const {
  for (const std::string &P : Patterns)
    if (patternMatches(P, Path))
      return P;
  return llvm::StringRef();
}

const std::vector<std::string> &defaultTriggers() {
  static const std::vector<std::string> Triggers = {
      // CMake, Conan, vcpkg, Meson, Make, Bazel
      "CMakeLists.txt", "*.cmake", "CMakePresets.json", "CMakeUserPresets.json",
      "conanfile.*", "vcpkg.json", "meson.build", "meson_options.txt",
      "meson.options", "Makefile", "GNUmakefile", "makefile", "*.mk", "BUILD",
      "BUILD.bazel", "WORKSPACE", "WORKSPACE.bazel", "MODULE.bazel", "*.bzl",
      ".bazelrc",
      // containers and CI
      "Dockerfile", "Dockerfile.*", ".github/workflows/**", ".gitlab-ci.yml",
      // Python packaging and pytest
      "requirements*.txt", "pyproject.toml", "setup.py", "setup.cfg", "tox.ini",
      "pytest.ini", "/conftest.py"};
  return Triggers;
}

const std::vector<std::string> &defaultIgnored() {
  static const std::vector<std::string> Ignored = {"*.md", "*.rst", "docs/**",
                                                   "LICENSE*"};
  return Ignored;
}

const std::vector<std::string> &outputFormatNames() {
  static const std::vector<std::string> Names = {
      "ids",     "json",         "ctest",    "ctest-list",  "gtest",
      "pytest",  "pytest-files", "markdown", "github",      "catch2",
      "doctest", "boost",        "sarif",    "codequality", "lit"};
  return Names;
}

Config::Config() {
  Select.Triggers = llvm::cantFail(PathPatterns::compile(defaultTriggers()));
  Cpp.PublicHeaders = llvm::cantFail(PathPatterns::compile({"include"}));
  Select.Ignore = llvm::cantFail(PathPatterns::compile(defaultIgnored()));
}

bool Config::isIncluded(llvm::StringRef Path) const {
  if (!Paths.Include.empty() && !Paths.Include.matches(Path))
    return false;
  return !Paths.Exclude.matches(Path);
}

} // namespace config
} // namespace tia

//===----------------------------------------------------------------------===//
// YAML mapping
//===----------------------------------------------------------------------===//

namespace {

/// The file as written: lists of strings are compiled into PathPatterns
/// after the YAML is read, so that a bad pattern is reported with its key.
struct RawPaths {
  std::vector<std::string> Include, Exclude;
};
struct RawSelect {
  std::string Base;
  std::vector<std::string> Triggers, Ignore;
  bool DefaultTriggers = true, DefaultIgnore = true;
  unsigned MaxCoverageAge = tia::config::SelectConfig().MaxCoverageAge;
  unsigned MaxTests = 0;
  double TimeBudget = 0;
  std::string FullSuiteMarker = tia::config::SelectConfig().FullSuiteMarker;
  bool UnreadFilesSelectAll = true;
};
/// An output format name, checked as it is read so that a wrong one is
/// reported at its position.
struct FormatName {
  std::string Value = "ids";
};
struct RawOutput {
  FormatName Format;
  bool Exclusion = false;
};
struct RawPredict {
  std::optional<std::vector<std::string>> Docs;
  tia::config::PredictConfig Values; ///< the scalar keys
};
struct RawCpp {
  std::optional<std::vector<std::string>> PublicHeaders;
};
struct RawConfig {
  RawPaths Paths;
  RawCpp Cpp;
  tia::config::PythonConfig Python;
  RawSelect Select;
  RawOutput Output;
  tia::config::ReportConfig Report;
  RawPredict Predict;
};

} // namespace

namespace llvm {
namespace yaml {

template <> struct MappingTraits<RawPaths> {
  static void mapping(IO &IO, RawPaths &P) {
    IO.mapOptional("include", P.Include);
    IO.mapOptional("exclude", P.Exclude);
  }
};

template <> struct MappingTraits<RawCpp> {
  static void mapping(IO &IO, RawCpp &C) {
    IO.mapOptional("public-headers", C.PublicHeaders);
  }
};

template <> struct MappingTraits<tia::config::PythonConfig> {
  static void mapping(IO &IO, tia::config::PythonConfig &P) {
    IO.mapOptional("docstrings", P.Docstrings);
    IO.mapOptional("max-file-size", P.MaxFileSize);
    IO.mapOptional("interpreter", P.Interpreter);
    IO.mapOptional("critical-functions", P.CriticalFunctions);
    // A list given replaces the default one (mapping into the defaults
    // would keep those past the list's end).
    std::optional<std::vector<std::string>> Registry;
    IO.mapOptional("registry-decorators", Registry);
    if (Registry)
      P.RegistryDecorators = std::move(*Registry);
  }
};

template <> struct MappingTraits<RawSelect> {
  static void mapping(IO &IO, RawSelect &S) {
    IO.mapOptional("base", S.Base);
    IO.mapOptional("triggers", S.Triggers);
    IO.mapOptional("default_triggers", S.DefaultTriggers);
    IO.mapOptional("ignore", S.Ignore);
    IO.mapOptional("default_ignore", S.DefaultIgnore);
    IO.mapOptional("max_coverage_age", S.MaxCoverageAge);
    IO.mapOptional("max_tests", S.MaxTests);
    IO.mapOptional("time_budget", S.TimeBudget);
    IO.mapOptional("full_suite_marker", S.FullSuiteMarker);
    IO.mapOptional("unread_files_select_all", S.UnreadFilesSelectAll);
  }
};

template <> struct ScalarTraits<FormatName> {
  static void output(const FormatName &F, void *, raw_ostream &OS) {
    OS << F.Value;
  }
  static StringRef input(StringRef Scalar, void *, FormatName &F) {
    const std::vector<std::string> &Names = tia::config::outputFormatNames();
    if (llvm::is_contained(Names, Scalar)) {
      F.Value = Scalar.str();
      return StringRef();
    }
    static std::string Message;
    Message = "unknown output format '" + Scalar.str() + "': use one of " +
              llvm::join(Names, ", ");
    return Message;
  }
  static QuotingType mustQuote(StringRef) { return QuotingType::None; }
};

template <> struct MappingTraits<RawOutput> {
  static void mapping(IO &IO, RawOutput &O) {
    IO.mapOptional("format", O.Format);
    IO.mapOptional("exclusion", O.Exclusion);
  }
};

template <> struct MappingTraits<tia::config::ReportConfig> {
  static void mapping(IO &IO, tia::config::ReportConfig &R) {
    IO.mapOptional("untested", R.Untested);
    IO.mapOptional("selects-all", R.SelectsAll);
    IO.mapOptional("covered", R.Covered);
  }
  static std::string validate(IO &IO, tia::config::ReportConfig &R) {
    for (auto [Key, Value] : {std::pair("untested", &R.Untested),
                              std::pair("selects-all", &R.SelectsAll),
                              std::pair("covered", &R.Covered)})
      if (*Value != "note" && *Value != "warning" && *Value != "error")
        return std::string("report.") + Key +
               " must be note, warning or "
               "error, not '" +
               *Value + "'";
    return "";
  }
};

template <> struct MappingTraits<RawPredict> {
  static void mapping(IO &IO, RawPredict &P) {
    IO.mapOptional("docs", P.Docs);
    IO.mapOptional("flaky-window-days", P.Values.FlakyWindowDays);
    IO.mapOptional("max-files", P.Values.MaxFiles);
    IO.mapOptional("validation-percent", P.Values.ValidationPercent);
  }
  static std::string validate(IO &IO, RawPredict &P) {
    if (P.Values.MaxFiles == 0)
      return "predict.max-files must be at least 1";
    if (P.Values.ValidationPercent == 0 || P.Values.ValidationPercent >= 100)
      return "predict.validation-percent must be between 1 and 99";
    return "";
  }
};

template <> struct MappingTraits<RawConfig> {
  static void mapping(IO &IO, RawConfig &C) {
    IO.mapOptional("paths", C.Paths);
    IO.mapOptional("python", C.Python);
    IO.mapOptional("cpp", C.Cpp);
    IO.mapOptional("select", C.Select);
    IO.mapOptional("output", C.Output);
    IO.mapOptional("report", C.Report);
    IO.mapOptional("predict", C.Predict);
  }
};

} // namespace yaml
} // namespace llvm

namespace tia {
namespace config {

namespace {

/// Deeper than any configuration needs (it nests three levels), shallow
/// enough for YAML's recursive parser on any stack.
constexpr unsigned MaxYamlNesting = 64;

/// An upper estimate of how deep \p Text's collections nest. YAML's parser
/// recurses once per level and overflows the stack on "[[[[..." or
/// "- - - - ...", so the nesting is estimated first, in one pass: block
/// levels from the indentation (a stack of the columns seen) and the "- "
/// and "? " entries on a line, flow levels from the brackets
/// outside comments (brackets in quoted text count too: an overestimate).
/// The parser also recurses once per empty entry of a flow collection
/// ("[a,,,,b]"), so a run of commas counts as that many levels.
unsigned yamlNesting(llvm::StringRef Text) {
  std::vector<size_t> Indents;
  unsigned Flow = 0, Deepest = 0, Commas = 0;
  for (llvm::StringRef Line : llvm::split(Text, '\n')) {
    size_t Indent = Line.find_first_not_of(' ');
    if (Indent == llvm::StringRef::npos || Line[Indent] == '#')
      continue;
    while (!Indents.empty() && Indents.back() >= Indent)
      Indents.pop_back();
    Indents.push_back(Indent);
    llvm::StringRef Rest = Line.drop_front(Indent);
    unsigned Entries = 0;
    while (Rest.starts_with("- ") || Rest.starts_with("? ")) {
      ++Entries;
      Rest = Rest.drop_front(2).ltrim(' ');
    }
    unsigned FlowHere = Flow;
    for (size_t I = 0; I < Rest.size(); ++I) {
      char C = Rest[I];
      if (C == '#' && (I == 0 || Rest[I - 1] == ' ' || Rest[I - 1] == '\t'))
        break;
      // A block sequence entry may also follow a key on its line
      // ("key: - - x"); "- " inside text counts too (an overestimate).
      if ((C == '-' || C == '?') && I + 1 < Rest.size() && Rest[I + 1] == ' ' &&
          (I == 0 || Rest[I - 1] == ' '))
        ++Entries;
      else if (C == '[' || C == '{')
        FlowHere = std::max(FlowHere, ++Flow);
      else if ((C == ']' || C == '}') && Flow > 0)
        --Flow;
      if (C == ',') {
        ++Commas;
        Deepest = std::max(Deepest, Flow + Commas);
      } else if (C != ' ' && C != '\t' && C != '\r') {
        Commas = 0;
      }
    }
    Deepest = std::max<unsigned>(Deepest, Indents.size() + Entries + FlowHere);
  }
  return Deepest;
}

} // namespace

llvm::Expected<Config> parseConfig(llvm::StringRef Text,
                                   llvm::StringRef FileName) {
  std::string Message;
  auto OnDiag = [](const llvm::SMDiagnostic &D, void *Ctx) {
    std::string &M = *static_cast<std::string *>(Ctx);
    if (M.empty())
      M = (llvm::Twine(D.getLineNo()) + ":" + llvm::Twine(D.getColumnNo() + 1) +
           ": " + D.getMessage())
              .str();
  };
  RawConfig Raw;
  // An empty file (or one holding only comments) is the defaults.
  if (!Text.trim().empty()) {
    if (yamlNesting(Text) > MaxYamlNesting)
      return makeErrorf("{0}: nested deeper than {1} levels: not a tia "
                        "configuration (see docs/Config.md)",
                        FileName, MaxYamlNesting);
    llvm::yaml::Input In(Text, nullptr, OnDiag, &Message);
    In >> Raw;
    if (In.error()) {
      if (Message.empty())
        Message = "1:1: " + In.error().message();
      return makeErrorf("{0}:{1} (see docs/Config.md)", FileName, Message);
    }
  }
  Config C;
  C.File = FileName.str();
  C.Python = Raw.Python;
  {
    auto Public = PathPatterns::compile(
        Raw.Cpp.PublicHeaders.value_or(std::vector<std::string>{"include"}));
    if (!Public)
      return makeErrorf("{0}: cpp.public-headers: {1} (see docs/Config.md)",
                        FileName, llvm::toString(Public.takeError()));
    C.Cpp.PublicHeaders = std::move(*Public);
  }
  for (const std::string &K : C.Python.RegistryDecorators)
    if (llvm::StringRef(K).trim().empty())
      return makeErrorf("{0}: python.registry-decorators: an empty keyword "
                        "would match every decorator (see docs/Config.md)",
                        FileName);
  if (Raw.Select.TimeBudget < 0)
    return makeErrorf("{0}: select.time_budget is negative: give the "
                      "seconds, or 0 for no limit (see docs/Config.md)",
                      FileName);
  C.Select.Base = Raw.Select.Base;
  C.Select.MaxCoverageAge = Raw.Select.MaxCoverageAge;
  C.Select.MaxTests = Raw.Select.MaxTests;
  C.Select.TimeBudget = Raw.Select.TimeBudget;
  C.Select.FullSuiteMarker = Raw.Select.FullSuiteMarker;
  C.Select.UnreadFilesSelectAll = Raw.Select.UnreadFilesSelectAll;
  C.Output.Format = Raw.Output.Format.Value;
  C.Output.Exclusion = Raw.Output.Exclusion;
  C.Report = Raw.Report;
  // The project's own lists come first, so that the message naming the
  // pattern that matched names theirs.
  if (Raw.Select.DefaultTriggers)
    llvm::append_range(Raw.Select.Triggers, defaultTriggers());
  if (Raw.Select.DefaultIgnore)
    llvm::append_range(Raw.Select.Ignore, defaultIgnored());
  C.Predict = Raw.Predict.Values;
  // A file no test depends on (select.ignore) is never a failure cause;
  // predict.docs names more such files.
  std::vector<std::string> Docs = Raw.Select.Ignore;
  if (Raw.Predict.Docs)
    llvm::append_range(Docs, *Raw.Predict.Docs);
  for (auto [Key, From, To] :
       {std::tuple<llvm::StringRef, std::vector<std::string> *, PathPatterns *>{
            "paths.include", &Raw.Paths.Include, &C.Paths.Include},
        {"paths.exclude", &Raw.Paths.Exclude, &C.Paths.Exclude},
        {"select.triggers", &Raw.Select.Triggers, &C.Select.Triggers},
        {"select.ignore", &Raw.Select.Ignore, &C.Select.Ignore},
        {"predict.docs", &Docs, &C.Predict.Docs}}) {
    auto P = PathPatterns::compile(std::move(*From));
    if (!P)
      return makeErrorf("{0}: {1}: {2} (see docs/Config.md)", FileName, Key,
                        llvm::toString(P.takeError()));
    *To = std::move(*P);
  }
  return C;
}

llvm::Expected<Config> loadConfig(llvm::StringRef Root) {
  auto Defaults = [] {
    Config C;
    // The default patterns are known to compile.
    C.Predict.Docs = llvm::cantFail(PathPatterns::compile(defaultIgnored()));
    return C;
  };
  std::string Path = (Root + "/" + ConfigFileName).str();
  if (!llvm::sys::fs::exists(Path))
    return Defaults();
  auto Buf = llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buf)
    return makeErrorf("cannot read {0}: {1}", Path, Buf.getError().message());
  return parseConfig((*Buf)->getBuffer(), Path);
}

} // namespace config
} // namespace tia
