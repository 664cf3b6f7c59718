//===- FrontEnd.cpp - the Python front end --------------------------------===//
//
// The C++ side of the extractor: module names from the package layout,
// pytest's settings, and the conversion of the extractor's JSON into a
// FileIndex.
//
//===----------------------------------------------------------------------===//

#include "tia/Python/FrontEnd.h"
#include "Interpreter.h"
#include "tia/Support/Error.h"
#include "tia/Support/Hash.h"
#include "tia/Support/Json.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>

namespace tia {
namespace python {

namespace {

std::string toJson(llvm::json::Value V) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  OS << V;
  return OS.str();
}

llvm::json::Array toArray(const std::vector<std::string> &Strings) {
  llvm::json::Array A;
  for (const std::string &S : Strings)
    A.push_back(llvm::json::isUTF8(S) ? S : llvm::json::fixUTF8(S));
  return A;
}

std::string optionsJson(const FrontEndOptions &O) {
  return toJson(llvm::json::Object{
      {"docstrings", O.Docstrings},
      {"max_size", static_cast<int64_t>(O.MaxFileSize)},
      {"pytest", llvm::json::Object{
                     {"python_files", toArray(O.Pytest.PythonFiles)},
                     {"python_classes", toArray(O.Pytest.PythonClasses)},
                     {"python_functions", toArray(O.Pytest.PythonFunctions)},
                     {"testpaths", toArray(O.Pytest.TestPaths)}}}});
}

/// Reads the extractor's JSON answer; its "error" member becomes an error.
llvm::Expected<llvm::json::Object> parseAnswer(llvm::StringRef Text,
                                               llvm::StringRef What) {
  auto V = parseJson(Text);
  if (!V)
    return makeErrorf("the python extractor returned malformed JSON for "
                      "{0}: {1}",
                      What, llvm::toString(V.takeError()));
  llvm::json::Object *O = V->getAsObject();
  if (!O)
    return makeErrorf("the python extractor returned no object for {0}", What);
  if (std::optional<llvm::StringRef> Err = O->getString("error"))
    return makeErrorf("python extractor failed on {0}: {1}", What,
                      Err->split('\n').first);
  return std::move(*O);
}

std::vector<std::string> strings(const llvm::json::Object &O,
                                 llvm::StringRef Key) {
  std::vector<std::string> Out;
  if (const llvm::json::Array *A = O.getArray(Key))
    for (const llvm::json::Value &V : *A)
      if (std::optional<llvm::StringRef> S = V.getAsString())
        Out.push_back(S->str());
  return Out;
}

unsigned integer(const llvm::json::Object &O, llvm::StringRef Key) {
  return static_cast<unsigned>(O.getInteger(Key).value_or(0));
}

std::string text(const llvm::json::Object &O, llvm::StringRef Key) {
  return O.getString(Key).value_or("").str();
}

} // namespace

bool isPythonSource(llvm::StringRef Path) {
  return llvm::sys::path::extension(Path) == ".py";
}

std::string moduleName(llvm::StringRef Path,
                       llvm::function_ref<bool(llvm::StringRef)> IsFile) {
  llvm::SmallVector<llvm::StringRef, 8> Parts;
  Path.split(Parts, '/');
  llvm::StringRef Stem = llvm::sys::path::stem(Parts.back());
  std::vector<std::string> Names;
  if (Stem != "__init__")
    Names.push_back(Stem.str());
  // Walk up while the directory is a package.
  for (size_t Dirs = Parts.size() - 1; Dirs > 0; --Dirs) {
    std::string Dir = llvm::join(Parts.begin(), Parts.begin() + Dirs, "/");
    if (!IsFile(Dir + "/__init__.py"))
      break;
    Names.push_back(Parts[Dirs - 1].str());
  }
  if (Names.empty()) // A top-level __init__.py: the root is no package.
    return "__init__";
  std::reverse(Names.begin(), Names.end());
  return llvm::join(Names, ".");
}

namespace {

/// Whether pytest could take its settings from the file \p Name holding
/// \p Text. pytest.ini always counts; the others only with a section
/// (`[pytest]`, `[tool:pytest]`) or table (`tool.pytest.ini_options`) that
/// names pytest. The rest are not handed to Python: starting the embedded
/// interpreter to read a pyproject.toml of other tools' settings took 40 ms
/// of every select and index of such a project.
bool mayHoldPytestSettings(llvm::StringRef Name, llvm::StringRef Text) {
  return Name == "pytest.ini" || Text.contains("pytest");
}

} // namespace

namespace {

/// \p Text as a JSON object; none when it is not one.
std::optional<llvm::json::Object> answerObject(llvm::StringRef Text) {
  auto V = parseJson(Text);
  if (!V) {
    llvm::consumeError(V.takeError());
    return std::nullopt;
  }
  if (llvm::json::Object *O = V->getAsObject())
    return std::move(*O);
  return std::nullopt;
}

/// The extractor's answer for pytest's configuration files \p FilesJson:
/// remembered under \p Key, or read now (and remembered, unless it is an
/// error, which is read again to be reported again).
llvm::Expected<llvm::json::Object>
pytestSettingsAnswer(const std::string &FilesJson,
                     const PytestSettingsMemo &Memo, llvm::StringRef Key) {
  if (Memo.Find)
    if (std::optional<std::string> Known = Memo.Find(Key))
      if (std::optional<llvm::json::Object> O = answerObject(*Known);
          O && !O->get("error"))
        return std::move(*O);
  auto Answer = callExtractor("pytest_settings", {{CallArg::Text, FilesJson}});
  if (!Answer)
    return Answer.takeError();
  std::optional<llvm::json::Object> O = answerObject(*Answer);
  if (!O)
    return makeError("the python extractor returned malformed pytest "
                     "settings");
  if (Memo.Remember && !O->get("error"))
    Memo.Remember(Key, *Answer);
  return std::move(*O);
}

} // namespace

llvm::Expected<PytestSettings> loadPytestSettings(
    llvm::function_ref<std::optional<std::string>(llvm::StringRef)> ReadFile,
    const PytestSettingsMemo &Memo) {
  llvm::json::Object Files;
  for (llvm::StringRef Name :
       {"pytest.ini", "pyproject.toml", "tox.ini", "setup.cfg"})
    if (std::optional<std::string> Text = ReadFile(Name);
        Text && mayHoldPytestSettings(Name, *Text))
      Files[Name] =
          llvm::json::isUTF8(*Text) ? *Text : llvm::json::fixUTF8(*Text);
  PytestSettings S;
  if (Files.empty())
    return S;
  std::string Arg = toJson(std::move(Files));
  // The files' texts themselves, not a hash of them: which files are tests
  // follows from the answer.
  TokenHasher Extractor;
  Extractor.add(extractorSource());
  Extractor.add(namesSource());
  auto Answer = pytestSettingsAnswer(Arg, Memo, Extractor.hex() + " " + Arg);
  if (!Answer)
    return Answer.takeError();
  const llvm::json::Object &O = *Answer;
  if (std::optional<llvm::StringRef> Err = O.getString("error"))
    return makeErrorf("cannot read pytest's settings from {0}: fix the file",
                      Err->split('\n').first);
  S.ConfigFile = text(O, "file");
  S.PythonFiles = strings(O, "python_files");
  S.PythonClasses = strings(O, "python_classes");
  S.PythonFunctions = strings(O, "python_functions");
  S.TestPaths = strings(O, "testpaths");
  return S;
}

std::string settingsFingerprint(llvm::StringRef Module,
                                const FrontEndOptions &Options) {
  TokenHasher H;
  H.add(extractorSource());
  H.add(namesSource());
  H.add(Module);
  H.add(optionsJson(Options));
  return H.hex();
}

llvm::Expected<FileIndex> decodeIndexAnswer(llvm::StringRef Answer,
                                            llvm::StringRef Path,
                                            llvm::StringRef Module,
                                            llvm::StringRef Content,
                                            const FrontEndOptions &Options) {
  auto O = parseAnswer(Answer, Path);
  if (!O)
    return O.takeError();

  FileIndex F;
  F.Path = Path.str();
  F.ContentHash = gitBlobHash(Content);
  // Everything of a module is inside its module element.
  F.ResidualHash = TokenHasher().hex();
  F.Complete = O->getBoolean("complete").value_or(false);
  PythonFileInfo Info;
  Info.Module = Module.str();
  Info.Settings = settingsFingerprint(Module, Options);
  Info.Problem = text(*O, "problem");
  if (const llvm::json::Array *Elements = O->getArray("elements"))
    for (const llvm::json::Value &V : *Elements) {
      const llvm::json::Object *E = V.getAsObject();
      if (!E)
        continue;
      Element El;
      El.Key = text(*E, "key");
      El.Kind = parseKind(text(*E, "kind")).value_or(ElementKind::Function);
      El.Display = text(*E, "display");
      El.File = F.Path;
      El.BeginLine = integer(*E, "begin");
      El.EndLine = integer(*E, "end");
      El.BodyLine = integer(*E, "body");
      El.Hash = text(*E, "hash");
      El.Names = strings(*E, "names");
      F.Elements.push_back(std::move(El));
    }
  if (const llvm::json::Array *Tests = O->getArray("tests"))
    for (const llvm::json::Value &V : *Tests)
      if (const llvm::json::Object *T = V.getAsObject())
        F.Tests.push_back({"pytest", text(*T, "name"), integer(*T, "begin"),
                           integer(*T, "end")});
  if (const llvm::json::Array *Imports = O->getArray("imports"))
    for (const llvm::json::Value &V : *Imports)
      if (const llvm::json::Object *I = V.getAsObject())
        Info.Imports.push_back(
            {text(*I, "module"), text(*I, "name"), integer(*I, "line")});
  if (const llvm::json::Array *Nodes = O->getArray("nodes"))
    for (const llvm::json::Value &V : *Nodes)
      if (const llvm::json::Object *N = V.getAsObject()) {
        NameNode Node;
        Node.Id = text(*N, "id");
        Node.Kind = text(*N, "kind");
        Node.Name = text(*N, "name");
        Node.Class = text(*N, "class");
        Node.Key = text(*N, "key");
        Node.BeginLine = integer(*N, "begin");
        Node.EndLine = integer(*N, "end");
        Node.Checksum = text(*N, "checksum");
        Node.HeaderChecksum = text(*N, "header");
        Node.Uses = text(*N, "uses");
        Node.Decorators = strings(*N, "decorators");
        Node.Flags = strings(*N, "flags");
        Node.Aliases = strings(*N, "aliases");
        Node.Bases = strings(*N, "bases");
        Info.Nodes.push_back(std::move(Node));
      }
  if (const llvm::json::Array *Bindings = O->getArray("bindings"))
    for (const llvm::json::Value &V : *Bindings)
      if (const llvm::json::Array *B = V.getAsArray(); B && B->size() == 3)
        Info.Bindings.push_back({(*B)[0].getAsString().value_or("").str(),
                                 (*B)[1].getAsString().value_or("").str(),
                                 (*B)[2].getAsString().value_or("").str()});
  F.Python = std::move(Info);
  normalize(F);
  return F;
}

llvm::Expected<FileIndex> indexFile(llvm::StringRef Path,
                                    llvm::StringRef Module,
                                    llvm::StringRef Content,
                                    const FrontEndOptions &Options) {
  std::string OptionsText = optionsJson(Options);
  auto Answer = callExtractor("index_file", {{CallArg::Bytes, Content},
                                             {CallArg::Text, Path},
                                             {CallArg::Text, Module},
                                             {CallArg::Text, OptionsText}});
  if (!Answer)
    return Answer.takeError();
  return decodeIndexAnswer(*Answer, Path, Module, Content, Options);
}

llvm::Expected<bool> parseOnly(llvm::StringRef Path, llvm::StringRef Content) {
  auto Answer = callExtractor(
      "parse_only", {{CallArg::Bytes, Content}, {CallArg::Text, Path}});
  if (!Answer)
    return Answer.takeError();
  return Answer->empty();
}

llvm::Expected<std::string> embeddedVersion() { return interpreterVersion(); }

} // namespace python
} // namespace tia
