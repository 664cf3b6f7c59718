//===- Locations.cpp - paths stored relative to the checkout --------------===//
//
// The Store keeps the paths of compile commands and test commands relative
// to the repository root and the build directory (tia/Support/Relocation.h)
// so that a database works in any checkout: written with the bases of the
// command that writes them, read back with those of the command that reads
// them. The build directory of the latest index is recorded, so that a
// command without -p resolves against the same directory (below the root:
// as a path relative to it, so a clone finds its own).
//
//===----------------------------------------------------------------------===//

#include "Database.h"
#include "Schema.h"
#include "tia/Store/Store.h"
#include "tia/Support/Hash.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

namespace tia {

namespace {

constexpr llvm::StringLiteral BuildDirKey = "build_dir";

/// \p V with every string in it passed through \p Map.
llvm::json::Value
mapStrings(const llvm::json::Value &V,
           llvm::function_ref<std::string(llvm::StringRef)> Map) {
  if (std::optional<llvm::StringRef> S = V.getAsString())
    return Map(*S);
  if (const llvm::json::Array *A = V.getAsArray()) {
    llvm::json::Array Out;
    for (const llvm::json::Value &E : *A)
      Out.push_back(mapStrings(E, Map));
    return Out;
  }
  if (const llvm::json::Object *O = V.getAsObject()) {
    llvm::json::Object Out;
    for (const auto &[Key, E] : *O)
      Out[Key] = mapStrings(E, Map);
    return Out;
  }
  return V;
}

/// The JSON text \p Text with its strings made relocatable against \p B;
/// text that is not JSON is left for the reader to report.
std::string relocatableJson(llvm::StringRef Text, const PathBases &B) {
  auto V = llvm::json::parse(Text);
  if (!V) {
    llvm::consumeError(V.takeError()); // Reading it says it is malformed.
    return Text.str();
  }
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  OS << mapStrings(*V, [&](llvm::StringRef S) { return relocatable(S, B); });
  return OS.str();
}

/// The root the translation units of a database made before schema 10 were
/// indexed in: their absolute main file ends with their repository-relative
/// path. Empty when no unit tells.
llvm::Expected<std::string> recordedRoot(Database &DB) {
  auto S = DB.statement("SELECT path, file FROM translation_units "
                        "ORDER BY path");
  if (!S)
    return S.takeError();
  std::string Root;
  if (llvm::Error E = S->forEachRow([&] {
        std::string Path = S->columnText(0), File = S->columnText(1);
        llvm::StringRef F = File;
        if (Root.empty() && F.consume_back("/" + Path) && F.starts_with("/"))
          Root = F.str();
      }))
    return E;
  return Root;
}

/// Rewrites column \p Column of every row of \p Table, whose rows text
/// column \p Key tells apart, with \p Map.
llvm::Error
rewriteColumn(Database &DB, llvm::StringRef Table, llvm::StringRef Key,
              llvm::StringRef Column,
              llvm::function_ref<std::string(llvm::StringRef)> Map) {
  auto Read = DB.statement(("SELECT " + Key + ", " + Column + " FROM " + Table +
                            " WHERE " + Column + " IS NOT NULL")
                               .str());
  if (!Read)
    return Read.takeError();
  std::vector<std::pair<std::string, std::string>> Rows;
  if (llvm::Error E = Read->forEachRow(
          [&] { Rows.emplace_back(Read->columnText(0), Read->columnText(1)); }))
    return E;
  auto Write = DB.statement(
      ("UPDATE " + Table + " SET " + Column + " = ? WHERE " + Key + " = ?")
          .str());
  if (!Write)
    return Write.takeError();
  for (const auto &[Id, Text] : Rows) {
    Write->reset();
    Write->bindText(0, Map(Text));
    Write->bindText(1, Id);
    if (llvm::Error E = Write->run())
      return E;
  }
  return llvm::Error::success();
}

} // namespace

namespace schema {

llvm::Error relocateStoredPaths(Database &DB) {
  auto Root = recordedRoot(DB);
  if (!Root)
    return Root.takeError();
  PathBases B{*Root, ""};
  auto Plain = [&](llvm::StringRef S) { return relocatable(S, B); };
  auto Json = [&](llvm::StringRef S) { return relocatableJson(S, B); };
  if (llvm::Error E =
          rewriteColumn(DB, "translation_units", "path", "file", Plain))
    return E;
  if (llvm::Error E =
          rewriteColumn(DB, "translation_units", "path", "directory", Plain))
    return E;
  if (llvm::Error E =
          rewriteColumn(DB, "translation_units", "path", "arguments", Json))
    return E;
  return rewriteColumn(DB, "tests", "name", "command", Json);
}

} // namespace schema

std::string Store::relocatableText(llvm::StringRef Text) const {
  return relocatable(Text, Bases);
}

std::string Store::resolvedText(llvm::StringRef Text) const {
  return resolved(Text, Bases);
}

llvm::Expected<std::optional<std::string>> Store::recordedBuildDir() {
  auto Value = schema::readMeta(*DB, BuildDirKey);
  if (!Value || !*Value)
    return Value;
  // Stored against the root alone: it is the build directory.
  return resolved(**Value, PathBases{Bases.Root, ""});
}

llvm::Error Store::recordBuildDir() {
  if (Bases.BuildDir.empty())
    return llvm::Error::success();
  return schema::writeMeta(
      *DB, BuildDirKey, relocatable(Bases.BuildDir, PathBases{Bases.Root, ""}));
}

/// The meta key of the fingerprint of the compilation database a complete
/// index covered.
constexpr llvm::StringLiteral CompileDatabaseKey = "compile_database";

/// The response files ("@FILE" words) the compile commands of compilation
/// database \p Text name, as absolute paths; none when it is not JSON.
static std::vector<std::string> responseFiles(llvm::StringRef Text) {
  auto V = llvm::json::parse(Text);
  if (!V) {
    llvm::consumeError(V.takeError()); // Reading it says it is malformed.
    return {};
  }
  std::vector<std::string> Files;
  const llvm::json::Array *Entries = V->getAsArray();
  for (const llvm::json::Value &Entry :
       Entries ? *Entries : llvm::json::Array())
    if (const llvm::json::Object *O = Entry.getAsObject()) {
      llvm::StringRef Directory = O->getString("directory").value_or("");
      llvm::SmallVector<llvm::StringRef, 32> Words;
      if (const llvm::json::Array *Arguments = O->getArray("arguments")) {
        for (const llvm::json::Value &A : *Arguments)
          if (auto Word = A.getAsString())
            Words.push_back(*Word);
      } else {
        O->getString("command").value_or("").split(Words, ' ', -1, false);
      }
      for (llvm::StringRef Word : Words)
        if (Word.consume_front("@") && !Word.empty()) {
          llvm::SmallString<256> Path(Word);
          llvm::sys::fs::make_absolute(Directory, Path);
          Files.push_back(std::string(Path));
        }
    }
  return Files;
}

/// Compilation database \p Text without the compilers' paths: a database
/// made on a machine that installs the compiler elsewhere compiles the same
/// files (the compilers' versions are compared on their own).
static std::string withoutCompilerPaths(llvm::StringRef Text) {
  auto V = llvm::json::parse(Text);
  if (!V) {
    llvm::consumeError(V.takeError()); // Reading it says it is malformed.
    return Text.str();
  }
  if (llvm::json::Array *Entries = V->getAsArray())
    for (llvm::json::Value &Entry : *Entries)
      if (llvm::json::Object *O = Entry.getAsObject()) {
        if (llvm::json::Array *Arguments = O->getArray("arguments")) {
          if (!Arguments->empty())
            (*Arguments)[0] = "${compiler}";
        } else if (auto Command = O->getString("command")) {
          (*O)["command"] =
              ("${compiler} " + Command->ltrim().split(' ').second).str();
        }
      }
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  OS << *V;
  return OS.str();
}

/// What identifies a compilation database in any checkout: its text and
/// the text of the response files its commands read, with the paths in
/// them made relocatable and the compilers' left out.
static std::string compileDatabaseFingerprint(llvm::StringRef Text,
                                              const PathBases &B) {
  std::string Identity = relocatable(withoutCompilerPaths(Text), B);
  for (const std::string &File : responseFiles(Text)) {
    auto Content = llvm::MemoryBuffer::getFile(File);
    Identity +=
        "\n@" + relocatable(File, B) + "\n" +
        (Content ? relocatable((*Content)->getBuffer(), B) : "(unreadable)");
  }
  return gitBlobHash(Identity);
}

llvm::Error Store::recordCompileDatabase(llvm::StringRef Text) {
  return schema::writeMeta(*DB, CompileDatabaseKey,
                           compileDatabaseFingerprint(Text, Bases));
}

/// The meta key of the fingerprint of the compilation database an index
/// share covered its share of.
constexpr llvm::StringLiteral ShareOfCompileDatabaseKey =
    "share_of_compile_database";

llvm::Error Store::recordShareOfCompileDatabase(llvm::StringRef Text) {
  return schema::writeMeta(*DB, ShareOfCompileDatabaseKey,
                           compileDatabaseFingerprint(Text, Bases));
}

llvm::Error Store::forgetShareOfCompileDatabase() {
  return schema::deleteMeta(*DB, ShareOfCompileDatabaseKey);
}

llvm::Expected<std::optional<std::string>> Store::shareOfCompileDatabase() {
  return schema::readMeta(*DB, ShareOfCompileDatabaseKey);
}

llvm::Error Store::setCompileDatabaseFingerprint(
    const std::optional<std::string> &Fingerprint) {
  if (Fingerprint)
    return schema::writeMeta(*DB, CompileDatabaseKey, *Fingerprint);
  return schema::deleteMeta(*DB, CompileDatabaseKey);
}

llvm::Expected<bool> Store::isRecordedCompileDatabase(llvm::StringRef Text) {
  auto Value = schema::readMeta(*DB, CompileDatabaseKey);
  if (!Value)
    return Value.takeError();
  return *Value && !Text.empty() &&
         **Value == compileDatabaseFingerprint(Text, Bases);
}

/// The meta key of compiler \p Program's version.
static std::string compilerKey(llvm::StringRef Program, const PathBases &B) {
  return "compiler_version " + relocatable(Program, B);
}

llvm::Error Store::putCompilerVersion(llvm::StringRef Program,
                                      llvm::StringRef Version) {
  return schema::writeMeta(*DB, compilerKey(Program, Bases), Version);
}

llvm::Expected<std::optional<std::string>>
Store::compilerVersion(llvm::StringRef Program) {
  return schema::readMeta(*DB, compilerKey(Program, Bases));
}

void Store::setPathBases(PathBases B) {
  Bases = std::move(B);
  InfosRead.Stamp.reset(); // resolved with the old bases
}

const PathBases &Store::pathBases() const { return Bases; }

} // namespace tia
