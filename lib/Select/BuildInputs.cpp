//===- BuildInputs.cpp - the files CMake read to configure the build ------===//

#include "BuildInputs.h"
#include "tia/Support/Json.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

namespace tia {
namespace select {

namespace {

std::optional<llvm::json::Value> readJson(const llvm::Twine &Path) {
  auto Buf = llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buf)
    return std::nullopt;
  auto V = parseJson((*Buf)->getBuffer());
  if (!V) {
    llvm::consumeError(V.takeError()); // A reply being rewritten: none.
    return std::nullopt;
  }
  return std::move(*V);
}

/// The newest index file of \p Reply (their names sort by time).
std::string newestIndex(llvm::StringRef Reply) {
  std::string Newest;
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(Reply, EC), End; It != End && !EC;
       It.increment(EC)) {
    llvm::StringRef Name = llvm::sys::path::filename(It->path());
    if (Name.starts_with("index-") && Name.ends_with(".json") &&
        It->path() > Newest)
      Newest = It->path();
  }
  return Newest;
}

/// The reply file of kind cmakeFiles the index \p Index lists.
std::string cmakeFilesReply(const llvm::json::Value &Index) {
  const llvm::json::Object *O = Index.getAsObject();
  const llvm::json::Array *Objects = O ? O->getArray("objects") : nullptr;
  if (!Objects)
    return "";
  for (const llvm::json::Value &V : *Objects)
    if (const llvm::json::Object *Obj = V.getAsObject())
      if (Obj->getString("kind") == "cmakeFiles")
        if (auto File = Obj->getString("jsonFile"))
          return File->str();
  return "";
}

} // namespace

std::set<std::string> cmakeInputs(llvm::StringRef BuildDir,
                                  llvm::StringRef Root) {
  std::set<std::string> Out;
  if (BuildDir.empty() || Root.empty())
    return Out;
  llvm::SmallString<256> Reply(BuildDir);
  llvm::sys::path::append(Reply, ".cmake", "api", "v1", "reply");
  std::string Index = newestIndex(Reply);
  if (Index.empty())
    return Out;
  auto IndexJson = readJson(Index);
  std::string File = IndexJson ? cmakeFilesReply(*IndexJson) : "";
  auto Files = File.empty() ? std::nullopt : readJson(Reply + "/" + File);
  const llvm::json::Object *O = Files ? Files->getAsObject() : nullptr;
  if (!O)
    return Out;
  const llvm::json::Object *Paths = O->getObject("paths");
  llvm::StringRef Source = Paths ? Paths->getString("source").value_or("") : "";
  if (const llvm::json::Array *Inputs = O->getArray("inputs"))
    for (const llvm::json::Value &V : *Inputs) {
      const llvm::json::Object *I = V.getAsObject();
      if (!I || I->getBoolean("isGenerated").value_or(false) ||
          I->getBoolean("isExternal").value_or(false) ||
          I->getBoolean("isCMake").value_or(false))
        continue;
      llvm::SmallString<256> Path(I->getString("path").value_or(""));
      if (Path.empty())
        continue;
      if (!llvm::sys::path::is_absolute(Path)) {
        llvm::SmallString<256> Abs(Source);
        llvm::sys::path::append(Abs, Path);
        Path = Abs;
      }
      llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
      llvm::StringRef Rel = Path;
      if (Rel.consume_front(Root) && Rel.consume_front("/"))
        Out.insert(Rel.str());
    }
  return Out;
}

} // namespace select
} // namespace tia
