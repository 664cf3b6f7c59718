//===- tia/Eval/Mutants.h - small semantic changes and their selection ----===//
//
// What `tia eval mutants` needs besides the driver's builds and runs: where
// to mutate (functions of the index, spread over the code), how (negate a
// condition, swap an operator, change a constant, remove a statement: one
// line, textually), and the report. A mutant is killed when a test that
// passed before fails with it, and captured when tia selected every such
// test for the mutant's change.
//
//===----------------------------------------------------------------------===//

#ifndef TIA_EVAL_MUTANTS_H
#define TIA_EVAL_MUTANTS_H

#include "tia/Support/Model.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"
#include <optional>
#include <string>
#include <vector>

namespace tia {
namespace eval {

enum class MutationOperator {
  NegateCondition, ///< if (c) -> if (!(c)); Python: if c: -> if not (c):
  SwapOperator,    ///< + -, * /, < >=, > <=, == !=, && ||, and or
  ChangeConstant,  ///< an integer literal n -> n + 1
  RemoveStatement, ///< an assignment or call statement -> nothing
};

/// Returns "negate-condition", "swap-operator", "change-constant" or
/// "remove-statement".
llvm::StringRef operatorName(MutationOperator Op);

/// One mutation: line \p Line of \p File becomes \p After.
struct Mutation {
  std::string File;
  unsigned Line = 0; ///< 1-based
  MutationOperator Op = MutationOperator::SwapOperator;
  std::string Before, After; ///< the line, without its end of line
  std::string Function;      ///< the element's display name
};

/// Mutates one line of \p Line with \p Op; std::nullopt when \p Op does
/// not apply to it. \p Python selects Python syntax. Comment lines and
/// lines holding string literals are left alone (a change there may be no
/// change of behaviour).
std::optional<std::string> mutateLine(llvm::StringRef Line, MutationOperator Op,
                                      bool Python);

/// The first mutation inside \p E's body (C++: after its first line;
/// Python: from its BodyLine) of \p Text, trying the operators from
/// \p FirstOp on, each over every line, before the next operator.
std::optional<Mutation> mutateElement(llvm::StringRef Text, const Element &E,
                                      unsigned FirstOp);

/// \p Text with line \p M.Line replaced by \p M.After; the ends of lines
/// are kept.
std::string applyMutation(llvm::StringRef Text, const Mutation &M);

/// \p N indexes out of [0, Total), spread evenly, ascending; all of them
/// when N >= Total.
std::vector<size_t> spread(size_t Total, size_t N);

/// What one mutant did.
struct MutantResult {
  Mutation Mut;
  bool Built = true;
  /// Tests that passed before the mutation and failed with it, sorted.
  std::vector<std::string> Failing;
  unsigned Selected = 0; ///< tests tia selected for the mutation
  bool SelectedAll = false;
  /// Failing tests tia did not select, sorted.
  std::vector<std::string> Missed;

  bool killed() const { return Built && !Failing.empty(); }
  bool captured() const { return killed() && Missed.empty(); }
};

struct MutantsReport {
  std::string Commit; ///< where the mutants were made
  /// With --commits, the base of the range whose changed functions were
  /// mutated (Commit its end); empty: any function.
  std::string From;
  /// --mutate: the patterns of the files mutated; empty: any file.
  std::vector<std::string> MutatePatterns;
  std::string Build;
  std::vector<MutantResult> Mutants;
  double Seconds = 0;

  unsigned built() const;
  unsigned killed() const;
  unsigned captured() const;
};

/// docs/Formats.md, "tia eval mutants".
void writeMutantsJson(const MutantsReport &R, llvm::raw_ostream &OS);
void writeMutantsMarkdown(const MutantsReport &R, llvm::raw_ostream &OS);
/// writeMutantsJson when \p Json, else writeMutantsMarkdown; then flushes
/// \p OS, so that the report comes before any summary on another stream.
void writeMutants(const MutantsReport &R, bool Json, llvm::raw_ostream &OS);
/// "10 mutants (1 not built) in 40.0s: 7 killed, 7 killed and captured
/// (100.0%)".
std::string mutantsSummary(const MutantsReport &R);

} // namespace eval
} // namespace tia

#endif // TIA_EVAL_MUTANTS_H
