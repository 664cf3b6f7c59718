//===- Booster.h - XGBoost through its C API --------------------*- C++ -*-===//
//
// Private to lib/Predict: the only file that talks to XGBoost. A sparse
// matrix of features (absent entries are missing values, which XGBoost's
// trees route by a learnt default), and a booster that trains with binary
// logistic loss, predicts probabilities and round-trips through XGBoost's
// JSON model format.
//
//===----------------------------------------------------------------------===//

#ifndef TIA_LIB_PREDICT_BOOSTER_H
#define TIA_LIB_PREDICT_BOOSTER_H

#include "llvm/Support/Error.h"
#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace tia {
namespace predict {

/// Rows of (column, value) pairs, each row's columns ascending.
class SparseRows {
public:
  /// Starts a new row.
  void startRow() { RowStart.push_back(Columns.size()); }
  /// Adds a value to the current row; columns must ascend within a row.
  void add(unsigned Column, float Value) {
    Columns.push_back(Column);
    Values.push_back(Value);
  }
  size_t rows() const { return RowStart.size(); }
  /// The rows [Begin, End) as a matrix of their own.
  SparseRows slice(size_t Begin, size_t End) const;

  std::vector<size_t> RowStart;
  std::vector<unsigned> Columns;
  std::vector<float> Values;
};

/// Hyperparameters of one training.
struct BoostParams {
  unsigned MaxDepth = 6;
  double Eta = 0.3;
  unsigned Rounds = 100;
  double MinChildWeight = 1;
  /// XGBoost's threads. On the small matrices of one repository's history
  /// one thread is fastest, and immune to a busy machine.
  unsigned Threads = 1;

  /// "max_depth=6 eta=0.3 rounds=100 min_child_weight=1".
  std::string describe() const;
  /// Parses describe()'s form; fails with "bad hyperparameters 'TEXT': ...".
  static llvm::Expected<BoostParams> parse(llvm::StringRef Text);
};

class Booster {
public:
  ~Booster();
  Booster(Booster &&) noexcept;
  Booster &operator=(Booster &&) = delete;

  /// Trains on \p X with 0/1 labels \p Y and \p Columns columns.
  static llvm::Expected<Booster> train(const SparseRows &X,
                                       const std::vector<float> &Y,
                                       unsigned Columns, const BoostParams &P);
  /// Loads a booster saved by save(); fails with XGBoost's message.
  static llvm::Expected<Booster> load(llvm::StringRef Json);

  /// The booster as XGBoost's JSON model.
  llvm::Expected<std::string> save() const;
  /// Probabilities of failure of the rows of \p X.
  llvm::Expected<std::vector<double>> predict(const SparseRows &X,
                                              unsigned Columns) const;

private:
  explicit Booster(void *Handle) : Handle(Handle) {}
  void *Handle;
};

} // namespace predict
} // namespace tia

#endif // TIA_LIB_PREDICT_BOOSTER_H
