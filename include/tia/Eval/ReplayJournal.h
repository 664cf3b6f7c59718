//===- tia/Eval/ReplayJournal.h - what a kept replay measured --*- C++ -*-===//
//
// A replay of a long history takes hours (a build and a whole collection
// per commit). In a kept scratch clone (--scratch DIR) it writes down each
// commit as soon as it is measured, one JSON line in DIR/replay-journal.jsonl:
// the collection's results and every mode's measure. A later replay in DIR
// reads them back instead of measuring again, so a stopped replay goes on
// where it stopped, and a longer range extends a shorter one.
//
// The first line holds the settings that decide the measures (build
// command, build folder, tests run, modes); a replay with other settings
// is refused rather than mixed in. A last line cut short (the run was
// killed while writing it) is ignored: its commit is measured again.
//
//===----------------------------------------------------------------------===//

#ifndef TIA_EVAL_REPLAYJOURNAL_H
#define TIA_EVAL_REPLAYJOURNAL_H

#include "tia/Eval/SelectionReplay.h"
#include "tia/Support/Model.h"
#include "llvm/Support/JSON.h"
#include <map>
#include <string>
#include <vector>

namespace tia {
namespace eval {

/// What the journal knows of one commit.
struct JournalEntry {
  /// The results of the collection at the commit.
  std::vector<TestResult> Results;
  /// Its measure in each mode, in the settings' order; empty for a commit
  /// collected only as a parent.
  std::vector<CommitMeasure> Measures;
};

class ReplayJournal {
public:
  /// Opens the journal at \p Path, reading what an earlier replay with the
  /// same \p Settings (a JSON object) wrote; a missing file is started
  /// with them. An error when the file holds other settings or is not a
  /// journal.
  static llvm::Expected<ReplayJournal> open(std::string Path,
                                            llvm::json::Object Settings);

  /// The entry of \p Commit; nullptr when it has none.
  const JournalEntry *find(llvm::StringRef Commit) const;
  /// Commits with measures.
  size_t measuredCommits() const;

  /// Writes down \p Commit's entry, flushed before it returns.
  llvm::Error record(llvm::StringRef Commit, JournalEntry Entry);

  const std::string &path() const { return Path; }

private:
  explicit ReplayJournal(std::string Path) : Path(std::move(Path)) {}
  llvm::Error read(const llvm::json::Object &Settings);
  llvm::Error append(llvm::StringRef Line);
  std::string Path;
  std::map<std::string, JournalEntry> Entries;
};

} // namespace eval
} // namespace tia

#endif // TIA_EVAL_REPLAYJOURNAL_H
