//===- calc/stats.h - Descriptive statistics --------------------*- C++ -*-===//

#ifndef CALC_STATS_H
#define CALC_STATS_H

#include <cstddef>
#include <vector>

namespace calc {

/// Arithmetic mean of \p Values; 0 for an empty vector.
double mean(const std::vector<double> &Values);

/// Median of \p Values (the mean of the two middle values for an even count);
/// 0 for an empty vector.
double median(std::vector<double> Values);

/// Population variance of \p Values; 0 for fewer than two values.
double variance(const std::vector<double> &Values);

/// Count and mean of a stream of values, in constant memory.
class RunningStats {
public:
  /// Starts with no values.
  RunningStats();

  /// Adds one value.
  void add(double Value);

  /// Number of values added since construction or the last reset().
  std::size_t count() const { return Count; }

  /// Mean of the values added so far; 0 when there are none.
  double mean() const;

  /// Forgets every value added so far.
  void reset();

private:
  std::size_t Count;
  double Sum;
};

} // namespace calc

#endif // CALC_STATS_H
