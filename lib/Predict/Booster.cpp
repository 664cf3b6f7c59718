//===- Booster.cpp - XGBoost through its C API ----------------------------===//

#include "Booster.h"
#include "XGBoostLibrary.h"
#include "tia/Support/Error.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

namespace tia {
namespace predict {

namespace {

/// XGBoost's API, once a booster was trained or loaded: that opened the
/// library (xgboost() opens it once per process), so it cannot fail here.
const XGBoostApi &api() { return *llvm::cantFail(xgboost()); }

/// Opens XGBoost for a booster trained or loaded; the error names the
/// library and the package to install.
llvm::Error openXGBoost() {
  auto Opened = xgboost();
  return Opened ? llvm::Error::success() : Opened.takeError();
}

/// Turns an XGBoost return code into an error "WHAT: XGBoost's message".
llvm::Error check(int Rc, const llvm::Twine &What) {
  if (Rc == 0)
    return llvm::Error::success();
  llvm::StringRef Msg = api().XGBGetLastError();
  // XGBoost prefixes its messages with "[time] source:line: ".
  size_t Pos = Msg.find(": ");
  if (Msg.starts_with("[") && Pos != llvm::StringRef::npos)
    Msg = Msg.drop_front(Pos + 2);
  return makeError(What + ": " + Msg.split('\n').first.trim());
}

/// A DMatrix that frees itself.
struct Matrix {
  DMatrixHandle H = nullptr;
  ~Matrix() {
    if (H)
      api().XGDMatrixFree(H);
  }
};

llvm::Error makeMatrix(const SparseRows &X, unsigned Columns, Matrix &M) {
  std::vector<size_t> Indptr(X.RowStart);
  Indptr.push_back(X.Columns.size());
  return check(api().XGDMatrixCreateFromCSREx(Indptr.data(), X.Columns.data(),
                                              X.Values.data(), Indptr.size(),
                                              X.Values.size(), Columns, &M.H),
               "cannot build the feature matrix");
}

} // namespace

SparseRows SparseRows::slice(size_t Begin, size_t End) const {
  SparseRows Out;
  for (size_t R = Begin; R != End; ++R) {
    Out.startRow();
    size_t From = RowStart[R];
    size_t To = R + 1 < RowStart.size() ? RowStart[R + 1] : Columns.size();
    for (size_t I = From; I != To; ++I)
      Out.add(Columns[I], Values[I]);
  }
  return Out;
}

std::string BoostParams::describe() const {
  return llvm::formatv("max_depth={0} eta={1} rounds={2} min_child_weight={3}",
                       MaxDepth, llvm::format("%g", Eta), Rounds,
                       llvm::format("%g", MinChildWeight))
      .str();
}

llvm::Expected<BoostParams> BoostParams::parse(llvm::StringRef Text) {
  BoostParams P;
  llvm::SmallVector<llvm::StringRef, 4> Parts;
  Text.split(Parts, ' ', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef Part : Parts) {
    auto [Key, Value] = Part.split('=');
    bool Bad = false;
    if (Key == "max_depth")
      Bad = Value.getAsInteger(10, P.MaxDepth) || P.MaxDepth == 0;
    else if (Key == "eta")
      Bad = Value.getAsDouble(P.Eta) || P.Eta <= 0 || P.Eta > 1;
    else if (Key == "rounds")
      Bad = Value.getAsInteger(10, P.Rounds) || P.Rounds == 0;
    else if (Key == "min_child_weight")
      Bad = Value.getAsDouble(P.MinChildWeight) || P.MinChildWeight < 0;
    else
      return makeErrorf("bad hyperparameters '{0}': unknown key '{1}' (known: "
                        "max_depth, eta, rounds, min_child_weight)",
                        Text, Key);
    if (Bad)
      return makeErrorf("bad hyperparameters '{0}': '{1}' is out of range",
                        Text, Part);
  }
  return P;
}

Booster::~Booster() {
  if (Handle)
    api().XGBoosterFree(Handle);
}

Booster::Booster(Booster &&Other) noexcept : Handle(Other.Handle) {
  Other.Handle = nullptr;
}

llvm::Expected<Booster> Booster::train(const SparseRows &X,
                                       const std::vector<float> &Y,
                                       unsigned Columns, const BoostParams &P) {
  if (llvm::Error E = openXGBoost())
    return E;
  Matrix M;
  if (llvm::Error E = makeMatrix(X, Columns, M))
    return E;
  if (llvm::Error E =
          check(api().XGDMatrixSetFloatInfo(M.H, "label", Y.data(), Y.size()),
                "cannot set the labels"))
    return E;
  BoosterHandle H = nullptr;
  if (llvm::Error E = check(api().XGBoosterCreate(&M.H, 1, &H),
                            "cannot create an XGBoost booster"))
    return E;
  Booster B(H);
  const std::pair<const char *, std::string> Params[] = {
      {"objective", "binary:logistic"},
      {"eval_metric", "logloss"},
      {"tree_method", "hist"},
      {"max_depth", std::to_string(P.MaxDepth)},
      {"eta", llvm::formatv("{0}", P.Eta).str()},
      {"min_child_weight", llvm::formatv("{0}", P.MinChildWeight).str()},
      {"seed", "0"},
      {"nthread", std::to_string(P.Threads)},
  };
  for (const auto &[Key, Value] : Params)
    if (llvm::Error E = check(api().XGBoosterSetParam(H, Key, Value.c_str()),
                              llvm::Twine("cannot set ") + Key))
      return E;
  for (unsigned I = 0; I != P.Rounds; ++I)
    if (llvm::Error E = check(api().XGBoosterUpdateOneIter(H, I, M.H),
                              "cannot train the booster"))
      return E;
  return B;
}

llvm::Expected<Booster> Booster::load(llvm::StringRef Json) {
  if (llvm::Error E = openXGBoost())
    return E;
  BoosterHandle H = nullptr;
  if (llvm::Error E = check(api().XGBoosterCreate(nullptr, 0, &H),
                            "cannot create an XGBoost booster"))
    return E;
  Booster B(H);
  if (llvm::Error E =
          check(api().XGBoosterLoadModelFromBuffer(H, Json.data(), Json.size()),
                "cannot load the stored model"))
    return E;
  if (llvm::Error E = check(api().XGBoosterSetParam(H, "nthread", "1"),
                            "cannot set nthread"))
    return E;
  return B;
}

llvm::Expected<std::string> Booster::save() const {
  bst_ulong Len = 0;
  const char *Data = nullptr;
  if (llvm::Error E = check(api().XGBoosterSaveModelToBuffer(
                                Handle, R"({"format": "json"})", &Len, &Data),
                            "cannot save the model"))
    return E;
  return std::string(Data, Len);
}

llvm::Expected<std::vector<double>> Booster::predict(const SparseRows &X,
                                                     unsigned Columns) const {
  if (X.rows() == 0)
    return std::vector<double>();
  Matrix M;
  if (llvm::Error E = makeMatrix(X, Columns, M))
    return E;
  bst_ulong Len = 0;
  const float *Out = nullptr;
  if (llvm::Error E =
          check(api().XGBoosterPredict(Handle, M.H, /*option_mask=*/0,
                                       /*ntree_limit=*/0,
                                       /*training=*/0, &Len, &Out),
                "cannot predict"))
    return E;
  return std::vector<double>(Out, Out + Len);
}

} // namespace predict
} // namespace tia
