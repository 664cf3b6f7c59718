//===- stats.cpp - Descriptive statistics ---------------------------------===//

#include "calc/stats.h"

#include <algorithm>
#include <numeric>

namespace calc {

double mean(const std::vector<double> &Values) {
  if (Values.empty())
    return 0.0;
  return std::accumulate(Values.begin(), Values.end(), 0.0) / Values.size();
}

double median(std::vector<double> Values) {
  if (Values.empty())
    return 0.0;
  std::size_t Middle = Values.size() / 2;
  std::nth_element(Values.begin(), Values.begin() + Middle, Values.end());
  double Upper = Values[Middle];
  if (Values.size() % 2 == 1)
    return Upper;
  // After nth_element the lower middle value is the largest of the first half.
  double Lower = *std::max_element(Values.begin(), Values.begin() + Middle);
  return (Lower + Upper) / 2.0;
}

double variance(const std::vector<double> &Values) {
  if (Values.size() < 2)
    return 0.0;
  double Mean = mean(Values);
  double SquaredDeviations = std::accumulate(
      Values.begin(), Values.end(), 0.0, [Mean](double Sum, double Value) {
        double Deviation = Value - Mean;
        return Sum + Deviation * Deviation;
      });
  return SquaredDeviations / Values.size();
}

RunningStats::RunningStats() : Count(0), Sum(0.0) {}

void RunningStats::add(double Value) {
  ++Count;
  Sum += Value;
}

double RunningStats::mean() const { return Count == 0 ? 0.0 : Sum / Count; }

void RunningStats::reset() {
  Count = 0;
  Sum = 0.0;
}

} // namespace calc
