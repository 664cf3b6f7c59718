//===- tia/Eval/CommandSteps.h - eval with the commands ---------*- C++ -*-===//
//
// `tia eval` measures tia as users run it: at each version the build
// command, then tia index, tia collect and tia select, each into the
// scratch clone's database. The commands themselves are the driver's, so
// they come in as hooks; what is the same for every version (timing each
// step, the results a collection recorded, that a mutant's crashed run
// still counts, the scratch clone) is here.
//
//===----------------------------------------------------------------------===//

#ifndef TIA_EVAL_COMMANDSTEPS_H
#define TIA_EVAL_COMMANDSTEPS_H

#include "tia/Eval/Evaluation.h"
#include <functional>

namespace tia {
namespace eval {

/// tia's commands, as the driver runs them in work tree \p Tree with the
/// database \p Db, quietly.
struct CommandHooks {
  /// tia index; \p BuildDir holds compile_commands.json, or is empty.
  std::function<llvm::Error(llvm::StringRef Tree, llvm::StringRef Db,
                            llvm::StringRef BuildDir)>
      Index;
  /// tia collect -p \p BuildDir: the ctest tests with their coverage.
  std::function<llvm::Error(llvm::StringRef Tree, llvm::StringRef Db,
                            llvm::StringRef BuildDir)>
      CollectCTest;
  /// tia collect --pytest.
  std::function<llvm::Error(llvm::StringRef Tree, llvm::StringRef Db)>
      CollectPytest;
  /// tia select --base \p Base --head \p Head --mode \p Mode.
  std::function<llvm::Expected<select::Plan>(
      llvm::StringRef Tree, llvm::StringRef Db, llvm::StringRef Base,
      llvm::StringRef Head, select::SelectionMode Mode)>
      Select;
};

/// What is built and run at each version.
struct BuildSettings {
  std::string Build; ///< shell command at the clone's root; empty: none
  /// The tests' build directory, relative to the root; its ctest tests run
  /// when it holds CTestTestfile.cmake after the build.
  std::string BuildDir = "build";
  bool Pytest = false; ///< also run the Python tests
};

/// The VersionSteps of tia's commands in the scratch clone \p S.
class CommandSteps : public VersionSteps {
public:
  CommandSteps(ScratchClone &S, BuildSettings B, CommandHooks H)
      : S(S), B(std::move(B)), H(std::move(H)) {}

  llvm::Expected<double> build(llvm::StringRef Commit) override;
  llvm::Expected<double> index() override;
  llvm::Expected<std::vector<TestResult>>
  collect(llvm::StringRef Commit, double &Seconds,
          llvm::StringRef Db = "") override;
  llvm::Expected<select::Plan>
  select(llvm::StringRef Base, llvm::StringRef Head, double &Seconds,
         llvm::StringRef Db = "",
         select::SelectionMode Mode = select::SelectionMode::Combined) override;

private:
  std::string buildDir() const;
  llvm::Error ranOrFailed(llvm::function_ref<llvm::Error()> Collect,
                          llvm::StringRef Db, llvm::StringRef Commit,
                          bool OutcomesOnly);

  ScratchClone &S;
  BuildSettings B;
  CommandHooks H;
};

/// The id of the newest run \p Db recorded; 0 when it has none or does not
/// exist yet.
llvm::Expected<int64_t> newestRun(llvm::StringRef Db);

/// The results of the runs \p Db recorded after run \p Before, run by run.
llvm::Expected<std::vector<TestResult>> resultsAfterRun(llvm::StringRef Db,
                                                        int64_t Before);

/// What decides a replay's measures, for its journal: R.Settings with the
/// build, the tests run, the modes and which build of tia measures.
llvm::json::Object replaySettings(const BuildSettings &B,
                                  const ReplayRequest &R);

/// `tia eval replay`: replays R.From..R.To of \p Repo in a new scratch
/// clone with \p Hooks, or in the clone kept in R.Scratch, going on from
/// its journal; progress and warnings to \p Err.
llvm::Expected<ReplayReport> replayWithCommands(const git::Repository &Repo,
                                                const BuildSettings &B,
                                                const CommandHooks &Hooks,
                                                const ReplayRequest &R,
                                                llvm::raw_ostream &Err);

/// Fills R.Head (and, for a range \p From..\p To, R.From and R.Range) with
/// the commit `tia eval mutants` mutates: \p To, or HEAD without a range.
/// Fails for an unknown revision, an empty range and a repository without
/// a commit.
llvm::Error chooseMutated(const git::Repository &Repo, llvm::StringRef From,
                          llvm::StringRef To, MutantsRequest &R);

/// `tia eval mutants`: mutates R.Head (chooseMutated) of \p Repo in a new
/// scratch clone with \p Hooks; progress to \p Err.
llvm::Expected<MutantsReport> mutateWithCommands(const git::Repository &Repo,
                                                 const BuildSettings &B,
                                                 const CommandHooks &Hooks,
                                                 const MutantsRequest &R,
                                                 llvm::raw_ostream &Err);

} // namespace eval
} // namespace tia

#endif // TIA_EVAL_COMMANDSTEPS_H
