//===- Gcov.cpp - gcov's JSON output, read in-process ----------------------===//

#include "tia/Coverage/Gcov.h"
#include "tia/Support/Error.h"
#include "tia/Support/Json.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"

namespace tia {
namespace coverage {

namespace {

/// \p Doc without the value of every "Key": [...] (the arrays may nest; '['
/// and ']' inside strings do not count).
std::string withoutArrays(llvm::StringRef Doc, llvm::StringRef Key) {
  std::string Needle = ("\"" + Key + "\":").str();
  std::string Out;
  Out.reserve(Doc.size() / 4);
  size_t Pos = 0;
  while (true) {
    size_t At = Doc.find(Needle, Pos);
    if (At == llvm::StringRef::npos)
      break;
    size_t Open = Doc.find_first_not_of(" \t", At + Needle.size());
    if (Open == llvm::StringRef::npos || Doc[Open] != '[') {
      Out += Doc.slice(Pos, At + Needle.size()).str();
      Pos = At + Needle.size();
      continue;
    }
    size_t I = Open;
    int Depth = 0;
    bool InString = false;
    for (; I < Doc.size(); ++I) {
      char C = Doc[I];
      if (InString) {
        if (C == '\\')
          ++I;
        else if (C == '"')
          InString = false;
      } else if (C == '"') {
        InString = true;
      } else if (C == '[') {
        ++Depth;
      } else if (C == ']' && --Depth == 0) {
        break;
      }
    }
    Out += Doc.slice(Pos, At + Needle.size()).str();
    Out += "[]";
    Pos = I + 1;
  }
  Out += Doc.substr(std::min(Pos, Doc.size())).str();
  return Out;
}

} // namespace

llvm::Expected<std::vector<GcovData>> parseGcovJson(llvm::StringRef Text,
                                                    llvm::StringRef Name) {
  auto Fail = [&](const llvm::Twine &Why) {
    return makeErrorf("malformed gcov JSON from {0}: {1}", Name, Why.str());
  };
  std::vector<GcovData> Out;
  llvm::SmallVector<llvm::StringRef, 8> Docs;
  Text.split(Docs, '\n', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef Doc : Docs) {
    if (Doc.trim().empty())
      continue;
    llvm::Expected<llvm::json::Value> Root =
        parseJson(withoutArrays(Doc, "lines"));
    if (!Root)
      return Fail(llvm::toString(Root.takeError()));
    const llvm::json::Object *Top = Root->getAsObject();
    if (!Top || !Top->get("format_version"))
      return Fail("not the output of 'gcov --json-format' (no "
                  "\"format_version\")");
    GcovData Data;
    Data.DataFile = Top->getString("data_file").value_or("").str();
    llvm::StringRef Cwd =
        Top->getString("current_working_directory").value_or(llvm::StringRef());
    const llvm::json::Array *Files = Top->getArray("files");
    if (!Files)
      return Fail("no \"files\" array");
    for (const llvm::json::Value &FV : *Files) {
      const llvm::json::Object *F = FV.getAsObject();
      if (!F)
        return Fail("an entry of \"files\" is not an object");
      std::optional<llvm::StringRef> File = F->getString("file");
      const llvm::json::Array *Functions = F->getArray("functions");
      if (!File || !Functions)
        return Fail("a file without \"file\" or \"functions\"");
      llvm::SmallString<256> Path(*File);
      if (!Cwd.empty())
        llvm::sys::fs::make_absolute(Cwd, Path);
      for (const llvm::json::Value &Fn : *Functions) {
        const llvm::json::Object *O = Fn.getAsObject();
        if (!O)
          return Fail("a function is not an object");
        std::optional<llvm::StringRef> FnName = O->getString("name");
        std::optional<int64_t> Count = O->getInteger("execution_count");
        if (!FnName || !Count)
          return Fail("a function without \"name\" or \"execution_count\"");
        if (*Count <= 0)
          continue;
        FunctionHit H;
        H.Name = FnName->str();
        H.File = std::string(Path);
        H.Line = static_cast<unsigned>(O->getInteger("start_line").value_or(0));
        Data.Functions.push_back(std::move(H));
      }
    }
    Out.push_back(std::move(Data));
  }
  return Out;
}

} // namespace coverage
} // namespace tia
