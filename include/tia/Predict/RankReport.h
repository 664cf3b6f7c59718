//===- tia/Predict/RankReport.h - a ranking cut and written -----*- C++ -*-===//
//
// What `tia rank` prints of a Ranking: how many tests --top and
// --time-budget keep, the mark that says such a cut is partial and unsafe,
// the text, ids and JSON outputs, and the one-line summary. A cut is
// predictive, not safe, so every output that carries one says so.
//
//===----------------------------------------------------------------------===//

#ifndef TIA_PREDICT_RANKREPORT_H
#define TIA_PREDICT_RANKREPORT_H

#include "tia/Predict/Predict.h"
#include "llvm/Support/raw_ostream.h"
#include <string>

namespace tia {
namespace predict {

/// How many of \p R's tests, from the first, \p Top and \p TimeBudget
/// (seconds, 0: none) keep. A test without a recorded duration counts as
/// the mean of the others; all of them when neither cuts.
size_t keptTests(const Ranking &R, const TopCut &Top, double TimeBudget);

/// "partial, unsafe: the 2 most likely of 5 tests (40%); a test left out
/// can still fail", with what validation says of such a cut; empty when
/// \p Kept keeps every test.
std::string cutWarning(const Ranking &R, size_t Kept);

/// The text output: how the tests were ranked, the files that are no
/// failure causes, the first \p Kept tests ("rank probability id"), the
/// flaky tests, and the cut warning when \p Kept leaves tests out.
void writeRankingText(const Ranking &R, size_t Kept, llvm::raw_ostream &Out);

/// The ids of the first \p Kept tests, one a line.
void writeRankingIds(const Ranking &R, size_t Kept, llvm::raw_ostream &Out);

/// The whole ranking as JSON (docs/Prediction.md), the first \p Kept tests
/// marked selected.
void writeRankingJson(const Ranking &R, size_t Kept, llvm::raw_ostream &Out);

/// "rank: 5 tests by the model for 3 changed files (1 not failure causes);
/// 0 flaky", with what a cut kept.
std::string rankSummary(const Ranking &R, size_t Kept);

} // namespace predict
} // namespace tia

#endif // TIA_PREDICT_RANKREPORT_H
