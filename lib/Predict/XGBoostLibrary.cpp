//===- XGBoostLibrary.cpp - XGBoost's C API, loaded on first use ----------===//

#include "XGBoostLibrary.h"
#include "tia/Support/Error.h"
#include <dlfcn.h>
#include <string>

namespace tia {
namespace predict {

namespace {

struct Loaded {
  XGBoostApi Api{};
  std::string Problem; ///< empty when Api is complete
};

/// Resolves \p Name in \p Library into \p Slot; false when it is missing.
template <typename Fn> bool resolve(void *Library, const char *Name, Fn &Slot) {
  Slot = reinterpret_cast<Fn>(dlsym(Library, Name));
  return Slot != nullptr;
}

Loaded load() {
  Loaded L;
  void *Library = nullptr;
  std::string Tried;
  for (const char *Name : {TIA_XGBOOST_SONAME, TIA_XGBOOST_PATH}) {
    Library = dlopen(Name, RTLD_NOW | RTLD_LOCAL);
    if (Library)
      break;
    Tried = dlerror();
  }
  if (!Library) {
    L.Problem =
        "cannot load XGBoost (" + Tried + "): install it (Debian: libxgboost0)";
    return L;
  }
  XGBoostApi &A = L.Api;
#define TIA_RESOLVE(F)                                                         \
  if (!resolve(Library, #F, A.F)) {                                            \
    L.Problem = "the XGBoost library " TIA_XGBOOST_SONAME " has no " #F        \
                ": install the version tia was built with";                    \
    return L;                                                                  \
  }
  TIA_XGBOOST_FUNCTIONS(TIA_RESOLVE)
#undef TIA_RESOLVE
  // XGBoost would otherwise print warnings of its own on stdout.
  A.XGBSetGlobalConfig(R"({"verbosity": 0})");
  return L;
}

} // namespace

llvm::Expected<const XGBoostApi *> xgboost() {
  // Opened once per process and never closed: boosters live until exit.
  static const Loaded L = load();
  if (!L.Problem.empty())
    return makeError(L.Problem);
  return &L.Api;
}

} // namespace predict
} // namespace tia
