//===- XGBoostLibrary.h - XGBoost's C API, loaded on first use --*- C++ -*-===//
//
// Private to lib/Predict. Most tia commands never train or rank, yet a
// process linked with libxgboost loads it, OpenMP and dmlc before main:
// about 7 ms of CPU for every command (docs/Benchmarks.md, "Start-up").
// So tia opens the library the first time a booster is trained or loaded.
//
//===----------------------------------------------------------------------===//

#ifndef TIA_LIB_PREDICT_XGBOOSTLIBRARY_H
#define TIA_LIB_PREDICT_XGBOOSTLIBRARY_H

#include "llvm/Support/Error.h"
#include <xgboost/c_api.h>

namespace tia {
namespace predict {

/// The functions of XGBoost's C API that tia calls, named as in c_api.h,
/// listed once: for the members of XGBoostApi and for their lookup in the
/// library, so that no member can be left unresolved.
#define TIA_XGBOOST_FUNCTIONS(F)                                               \
  F(XGBGetLastError)                                                           \
  F(XGBSetGlobalConfig)                                                        \
  F(XGDMatrixCreateFromCSREx)                                                  \
  F(XGDMatrixSetFloatInfo)                                                     \
  F(XGDMatrixFree)                                                             \
  F(XGBoosterCreate)                                                           \
  F(XGBoosterFree)                                                             \
  F(XGBoosterSetParam)                                                         \
  F(XGBoosterUpdateOneIter)                                                    \
  F(XGBoosterPredict)                                                          \
  F(XGBoosterLoadModelFromBuffer)                                              \
  F(XGBoosterSaveModelToBuffer)

struct XGBoostApi {
#define TIA_XGBOOST_MEMBER(Name) decltype(&::Name) Name;
  TIA_XGBOOST_FUNCTIONS(TIA_XGBOOST_MEMBER)
#undef TIA_XGBOOST_MEMBER
};

/// The API, opening libxgboost the first time (by its soname, then by the
/// path tia was built against); fails naming the library and the package
/// to install.
llvm::Expected<const XGBoostApi *> xgboost();

} // namespace predict
} // namespace tia

#endif // TIA_LIB_PREDICT_XGBOOSTLIBRARY_H
