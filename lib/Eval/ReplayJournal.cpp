//===- ReplayJournal.cpp - what a kept replay measured --------------------===//

#include "tia/Eval/ReplayJournal.h"
#include "tia/Support/Error.h"
#include "llvm/Support/Errno.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include <set>
#include <unistd.h>

namespace tia {
namespace eval {

namespace {

constexpr llvm::StringLiteral Kind = "tia eval replay";
constexpr int Version = 1;

llvm::json::Value resultsJson(const std::vector<TestResult> &Results) {
  llvm::json::Array A;
  for (const TestResult &R : Results)
    A.push_back(llvm::json::Object{{"test", R.TestId},
                                   {"outcome", outcomeName(R.Result)},
                                   {"seconds", R.Seconds},
                                   {"attempt", R.Attempt},
                                   {"message", R.Message}});
  return A;
}

std::optional<std::vector<TestResult>> readResults(const llvm::json::Array &A) {
  std::vector<TestResult> Out;
  for (const llvm::json::Value &V : A) {
    const llvm::json::Object *O = V.getAsObject();
    if (!O)
      return std::nullopt;
    auto Test = O->getString("test");
    auto Outcome = parseOutcome(O->getString("outcome").value_or(""));
    auto Seconds = O->getNumber("seconds");
    auto Attempt = O->getInteger("attempt");
    auto Message = O->getString("message");
    if (!Test || !Outcome || !Seconds || !Attempt || !Message)
      return std::nullopt;
    TestResult R;
    R.TestId = Test->str();
    R.Result = *Outcome;
    R.Seconds = *Seconds;
    R.Attempt = static_cast<unsigned>(*Attempt);
    R.Message = Message->str();
    Out.push_back(std::move(R));
  }
  return Out;
}

/// The first setting \p A and \p B disagree on; empty when they agree.
std::string firstDifference(const llvm::json::Object &A,
                            const llvm::json::Object &B) {
  std::set<std::string> Keys;
  for (const auto &KV : A)
    Keys.insert(KV.first.str());
  for (const auto &KV : B)
    Keys.insert(KV.first.str());
  for (const std::string &K : Keys) {
    const llvm::json::Value *VA = A.get(K), *VB = B.get(K);
    if (!VA || !VB || *VA != *VB)
      return K;
  }
  return "";
}

/// Reads one entry line; std::nullopt when it is not one.
std::optional<std::pair<std::string, JournalEntry>>
readEntry(llvm::StringRef Line) {
  auto V = llvm::json::parse(Line);
  if (!V) {
    llvm::consumeError(V.takeError());
    return std::nullopt;
  }
  const llvm::json::Object *O = V->getAsObject();
  auto Commit = O ? O->getString("commit") : std::nullopt;
  const llvm::json::Array *Results = O ? O->getArray("results") : nullptr;
  const llvm::json::Array *Measures = O ? O->getArray("measures") : nullptr;
  if (!Commit || !Results || !Measures)
    return std::nullopt;
  JournalEntry E;
  auto Read = readResults(*Results);
  if (!Read)
    return std::nullopt;
  E.Results = std::move(*Read);
  for (const llvm::json::Value &M : *Measures) {
    auto Measure = readCommitJson(M);
    if (!Measure) {
      llvm::consumeError(Measure.takeError());
      return std::nullopt;
    }
    E.Measures.push_back(std::move(*Measure));
  }
  return std::make_pair(Commit->str(), std::move(E));
}

} // namespace

llvm::Expected<ReplayJournal> ReplayJournal::open(std::string Path,
                                                  llvm::json::Object Settings) {
  ReplayJournal J(std::move(Path));
  if (llvm::sys::fs::exists(J.Path)) {
    if (llvm::Error E = J.read(Settings))
      return E;
    return J;
  }
  llvm::json::Object Header{{"journal", Kind},
                            {"version", Version},
                            {"settings", std::move(Settings)}};
  std::string Line;
  llvm::raw_string_ostream(Line) << llvm::json::Value(std::move(Header));
  if (llvm::Error E = J.append(Line))
    return E;
  return J;
}

llvm::Error ReplayJournal::read(const llvm::json::Object &Settings) {
  auto Buf = llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buf)
    return makeErrorf("cannot read {0}: {1}", Path, Buf.getError().message());
  llvm::StringRef Text = (*Buf)->getBuffer();
  auto [First, Rest] = Text.split('\n');
  auto Header = llvm::json::parse(First);
  const llvm::json::Object *H = Header ? Header->getAsObject() : nullptr;
  if (!Header)
    llvm::consumeError(Header.takeError());
  if (!H || H->getString("journal") != Kind)
    return makeErrorf("{0} is not the journal of a tia eval replay: move it "
                      "away, or name another --scratch folder",
                      Path);
  if (H->getInteger("version") != Version)
    return makeErrorf("{0} was written by another version of tia: delete "
                      "it to measure every commit again",
                      Path);
  const llvm::json::Object *Old = H->getObject("settings");
  std::string Differs =
      Old ? firstDifference(*Old, Settings) : std::string("settings");
  if (Differs == "tia")
    return makeErrorf("the replay in {0} was measured by another build of "
                      "tia: resume it with that build, name another "
                      "--scratch folder, or delete the journal to measure "
                      "every commit again",
                      Path);
  if (!Differs.empty())
    return makeErrorf("the replay in {0} was measured with another {1}: "
                      "replay with the same settings, name another "
                      "--scratch folder, or delete the journal to measure "
                      "every commit again",
                      Path, Differs);
  const llvm::json::Array *Modes = Settings.getArray("modes");
  size_t ModeCount = Modes ? Modes->size() : 0;
  size_t LineNo = 1;
  while (!Rest.empty()) {
    auto [Line, After] = Rest.split('\n');
    ++LineNo;
    // A line without its newline (the last) was cut short by a killed run.
    bool Complete = Rest.size() > Line.size();
    auto Entry = Complete ? readEntry(Line) : std::nullopt;
    // One measure per mode, or none (a parent's map): a measure missing
    // would leave a mode's report a commit short.
    if (Entry && !Entry->second.Measures.empty() &&
        Entry->second.Measures.size() != ModeCount)
      Entry.reset();
    if (!Entry && Complete)
      return makeErrorf("{0}:{1} is not an entry of a replay journal: delete "
                        "the journal to measure every commit again",
                        Path, LineNo);
    if (Entry)
      Entries[Entry->first] = std::move(Entry->second);
    else if (::truncate(Path.c_str(), Text.size() - Line.size()) != 0)
      return makeErrorf("cannot remove the unfinished last line of {0}: {1}",
                        Path, llvm::sys::StrError());
    Rest = After;
  }
  return llvm::Error::success();
}

const JournalEntry *ReplayJournal::find(llvm::StringRef Commit) const {
  auto It = Entries.find(Commit.str());
  return It == Entries.end() ? nullptr : &It->second;
}

size_t ReplayJournal::measuredCommits() const {
  size_t N = 0;
  for (const auto &KV : Entries)
    N += !KV.second.Measures.empty();
  return N;
}

llvm::Error ReplayJournal::record(llvm::StringRef Commit, JournalEntry Entry) {
  std::string Line;
  llvm::raw_string_ostream OS(Line);
  llvm::json::OStream J(OS);
  J.object([&] {
    J.attribute("commit", Commit);
    J.attribute("results", resultsJson(Entry.Results));
    J.attributeArray("measures", [&] {
      for (const CommitMeasure &M : Entry.Measures)
        writeCommitJson(J, M);
    });
  });
  if (llvm::Error E = append(OS.str()))
    return E;
  Entries[Commit.str()] = std::move(Entry);
  return llvm::Error::success();
}

llvm::Error ReplayJournal::append(llvm::StringRef Line) {
  std::error_code EC;
  llvm::raw_fd_ostream OS(Path, EC, llvm::sys::fs::OF_Append);
  if (EC)
    return makeErrorf("cannot write {0}: {1}", Path, EC.message());
  OS << Line << "\n";
  OS.close();
  if (OS.has_error())
    return makeErrorf("cannot write {0}: {1}", Path, OS.error().message());
  return llvm::Error::success();
}

} // namespace eval
} // namespace tia
