//===- tia/Predict/PlanOrder.h - a selection in a model's order -*- C++ -*-===//
//
// `--order predicted` and `--predict-top`: a safe selection reordered by
// the newest model's failure probabilities, and optionally cut to its most
// likely tests (a predictive subset, which is partial and unsafe).
//
//===----------------------------------------------------------------------===//

#ifndef TIA_PREDICT_PLANORDER_H
#define TIA_PREDICT_PLANORDER_H

#include "tia/Predict/Predict.h"
#include "tia/Select/Request.h"

namespace tia {
namespace predict {

/// Orders \p M's tests (selected and cut) by the newest model's failure
/// probabilities, applies the budget again, then \p Top. Without a usable
/// model the heuristic order stays and Plan::Order says why. Fails like
/// rankChange.
llvm::Error orderByPrediction(select::Planned &M, const TopCut &Top);

} // namespace predict
} // namespace tia

#endif // TIA_PREDICT_PLANORDER_H
