//===- CommandsInternal.h - what the commands share -----------------------===//

#ifndef TIA_LIB_TOOL_COMMANDSINTERNAL_H
#define TIA_LIB_TOOL_COMMANDSINTERNAL_H

#include "tia/Config/Workspace.h"
#include "tia/Git/Repository.h"
#include "tia/Select/Request.h"
#include "tia/Store/Store.h"
#include "tia/Support/Paths.h"
#include "tia/Support/Shard.h"
#include "tia/Tool/Commands.h"
#include "llvm/Support/CommandLine.h"
#include <map>
#include <memory>
#include <optional>

namespace tia {
namespace tool {

/// Where a command runs (config::Workspace): every command starts from it.
using Context = config::Workspace;
using config::anchorPaths;
using config::openForUpdate;
using config::recordedCommit;

/// config::findWorkspace for \p G's working directory and --db.
llvm::Expected<Context> makeContext(const GlobalOptions &G, bool NeedGit);

/// The options select and run share, registered for one subcommand.
struct SelectCommandLine {
  explicit SelectCommandLine(llvm::cl::SubCommand &Sub);
  /// Copies the options given into \p O; a usage error's exit code when
  /// one is wrong.
  std::optional<int> fill(SelectCommandOptions &O) const;

  llvm::cl::opt<report::Format> Format;
  llvm::cl::opt<bool> Exclusion;
  llvm::cl::opt<bool> All;
  llvm::cl::opt<unsigned> MaxTests;
  llvm::cl::opt<double> TimeBudget;
  llvm::cl::opt<std::string> BuildDir;
  llvm::cl::opt<select::SelectionMode> Mode;
  enum class RunOrder { Heuristic, Predicted };
  llvm::cl::opt<RunOrder> Order;
  llvm::cl::opt<std::string> PredictTop;
  llvm::cl::opt<bool> NoContextMatching, NoCriticalPruning;
  llvm::cl::opt<bool> ExitCode;
  llvm::cl::opt<bool> CoveredFindings;
};

/// SelectExitCode for \p P (what --exit-code returns).
int exitCodeOf(const select::Plan &P);

/// A selection, where it was made and the database it was made from.
using Planned = select::Planned;

/// The selection \p O asks for, with the defaults of .tia.yaml and
/// TIA_ALL, from the database opened to read. Fails for a .tia.yaml that
/// cannot be read, without a base (in \p O or select.base) unless
/// \p DefaultBase is given, outside git, for a missing database, and like
/// select::plan.
llvm::Expected<Planned> makePlan(const GlobalOptions &G,
                                 const SelectCommandOptions &O,
                                 llvm::StringRef DefaultBase = "");

/// A selection made for an observed run in a mode other than the asked one.
struct OtherMode {
  select::SelectionMode Mode = select::SelectionMode::Combined;
  std::optional<Planned> Made; ///< its database closed
  std::string Error;           ///< why there is no plan
};

/// The selections \p O would make in the modes other than \p Asked; a mode
/// whose selection fails holds the error.
std::vector<OtherMode> planOtherModes(const GlobalOptions &G,
                                      const SelectCommandOptions &O,
                                      select::SelectionMode Asked);

/// An observed run (`tia run --observe`) and its selections.
struct Observation {
  const GlobalOptions &G;
  const select::Plan &Asked;
  const std::vector<OtherMode> &Others;
  Store &S; ///< open for writing, holding the run's results
  int64_t RunId = 0;
  std::string Runner; ///< results::runnerName
  bool Exclusion = true;
};

/// Records with \p O.RunId the selection each mode would have made, and
/// says on \p Err what the asked one would have run and missed. Warns
/// instead of failing: an observed run's exit code is the runner's.
void observeRun(const Observation &O, llvm::raw_ostream &Err);

/// Warns on \p Err (one line) when the queries made of \p S read around
/// damaged coverage (Store::coverageDamage), naming the repair.
llvm::Error warnAboutDamagedCoverage(Store &S, const Context &Ctx,
                                     llvm::raw_ostream &Err);

//===----------------------------------------------------------------------===//
// Sharding (Sharding.cpp)
//===----------------------------------------------------------------------===//

/// Fills \p Spec and \p BalanceFrom from the options --shard (\p Shard)
/// and --balance-from (\p Balance); a usage error's exit code when
/// --shard is not K/N or --balance-from comes without it.
std::optional<int> parseShardOptions(llvm::StringRef Shard,
                                     llvm::StringRef Balance,
                                     std::optional<shard::ShardSpec> &Spec,
                                     std::string &BalanceFrom);

//===----------------------------------------------------------------------===//
// The driver: each command file defines its llvm::cl::SubCommand, its
// options and a main that turns them into the command's options struct.
//===----------------------------------------------------------------------===//

/// The category of every tia option; --help shows only these.
llvm::cl::OptionCategory &tiaCategory();

/// A usage error: prints "tia: error: MSG" and returns exit code 2.
int usageError(const llvm::Twine &Msg);

/// Prints \p E as one line and returns 1; returns 0 for success.
int exitCode(llvm::Error E);

/// One command of the driver.
struct CommandEntry {
  llvm::cl::SubCommand *Sub;
  /// Runs the command with the parsed options; returns the exit code.
  int (*Main)(const GlobalOptions &G);
};

/// Every command, in the order --help lists them.
llvm::ArrayRef<CommandEntry> commandTable();

extern llvm::cl::SubCommand CollectSubcommand;
extern llvm::cl::SubCommand ContextSubcommand;
int contextMain(const GlobalOptions &G);
extern llvm::cl::SubCommand IndexSubcommand;
extern llvm::cl::SubCommand CoverageSubcommand;
extern llvm::cl::SubCommand SelectSubcommand;
extern llvm::cl::SubCommand DumpSubcommand;
extern llvm::cl::SubCommand ResultsSubcommand;
extern llvm::cl::SubCommand ExplainSubcommand;
extern llvm::cl::SubCommand RunSubcommand;
extern llvm::cl::SubCommand ObservedSubcommand;
int observedMain(const GlobalOptions &G);
int collectMain(const GlobalOptions &G);
extern llvm::cl::SubCommand TrainSubcommand;
extern llvm::cl::SubCommand RankSubcommand;
extern llvm::cl::SubCommand EvalSubcommand;
int evalMain(const GlobalOptions &G);
int indexMain(const GlobalOptions &G);
int coverageMain(const GlobalOptions &G);
int selectMain(const GlobalOptions &G);
int dumpMain(const GlobalOptions &G);
int resultsMain(const GlobalOptions &G);
int explainMain(const GlobalOptions &G);
int runMain(const GlobalOptions &G);
extern llvm::cl::SubCommand MergeSubcommand;
int mergeMain(const GlobalOptions &G);

int trainMain(const GlobalOptions &G);
int rankMain(const GlobalOptions &G);

} // namespace tool
} // namespace tia

#endif // TIA_LIB_TOOL_COMMANDSINTERNAL_H
