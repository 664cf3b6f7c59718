//===- Config.cpp - .tia.yaml ---------------------------------------------===//

#include "tia/Config/Config.h"
#include "tia/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/YAMLTraits.h"

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
  Pattern.consume_front("/");
  Pattern.consume_back("/");
  if (!Pattern.contains('/')) {
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
struct RawPredict {
  std::optional<std::vector<std::string>> Docs;
  tia::config::PredictConfig Values; ///< the scalar keys
};
struct RawConfig {
  RawPaths Paths;
  tia::config::PythonConfig Python;
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

template <> struct MappingTraits<tia::config::PythonConfig> {
  static void mapping(IO &IO, tia::config::PythonConfig &P) {
    IO.mapOptional("docstrings", P.Docstrings);
    IO.mapOptional("max-file-size", P.MaxFileSize);
    IO.mapOptional("interpreter", P.Interpreter);
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
    IO.mapOptional("predict", C.Predict);
  }
};

} // namespace yaml
} // namespace llvm

namespace tia {
namespace config {

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
  C.Predict = Raw.Predict.Values;
  std::vector<std::string> Docs =
      Raw.Predict.Docs ? *Raw.Predict.Docs : defaultDocPatterns();
  for (auto [Key, From, To] :
       {std::tuple<llvm::StringRef, std::vector<std::string> *, PathPatterns *>{
            "paths.include", &Raw.Paths.Include, &C.Paths.Include},
        {"paths.exclude", &Raw.Paths.Exclude, &C.Paths.Exclude},
        {"predict.docs", &Docs, &C.Predict.Docs}}) {
    auto P = PathPatterns::compile(std::move(*From));
    if (!P)
      return makeErrorf("{0}: {1}: {2} (see docs/Config.md)", FileName, Key,
                        llvm::toString(P.takeError()));
    *To = std::move(*P);
  }
  return C;
}

std::vector<std::string> defaultDocPatterns() {
  return {"*.md", "*.rst", "docs/**", "LICENSE*"};
}

llvm::Expected<Config> loadConfig(llvm::StringRef Root) {
  auto Defaults = [] {
    Config C;
    // The default patterns are known to compile.
    C.Predict.Docs =
        llvm::cantFail(PathPatterns::compile(defaultDocPatterns()));
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
