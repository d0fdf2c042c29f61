#pragma once
// How a method's selected set separates a known truth (simulated data): every method reports the same metrics.
#include <cstdint>

#include "core/types.hpp"

namespace bfs {

/// Separation metrics against a known truth ([TVS §6]): computed on the final selected set.
struct TruthMetrics {
  bool known = false;
  double fdp = 0.0;          ///< false discoveries / max(1, selected)
  double power = 0.0;        ///< true discoveries / |truth|
  std::int64_t hamming = 0;  ///< |selected Δ truth|
  /// First iteration after which the selected set (SelectionRule: mean ≥ 0.5, or TVS's C̃) was the truth; -1 if never.
  std::int32_t separation_iteration = -1;
};

/// FDP, power and Hamming distance of `selected` against `truth` ([TVS §6]); both ascending.
TruthMetrics truth_metrics(const FeatureSet& selected, const FeatureSet& truth);

}  // namespace bfs
