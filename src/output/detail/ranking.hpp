#pragma once
// Posterior means and the feature ranking shared by summary.csv, run.json and `inspect`, so all three agree.
#include <algorithm>
#include <numeric>
#include <vector>

#include "engine/run_result.hpp"

namespace bfs::detail {

/// Posterior mean alpha / (alpha + beta) of every feature; 0 when alpha + beta is not positive (or not finite),
/// so the ranking below is always a strict weak order.
inline std::vector<double> feature_means(const RunResult& result) {
  std::vector<double> means(result.alpha.size(), 0.0);
  for (std::size_t k = 0; k < means.size(); ++k) {
    const double total = result.alpha[k] + result.beta[k];
    const double mean = total > 0.0 ? result.alpha[k] / total : 0.0;
    means[k] = mean == mean ? mean : 0.0;  // NaN guard
  }
  return means;
}

/// Feature ids ordered by descending mean, ties by ascending id: order[0] has rank 1.
inline std::vector<FeatureId> ranking_order(const std::vector<double>& means) {
  std::vector<FeatureId> order(means.size());
  std::iota(order.begin(), order.end(), FeatureId{0});
  std::sort(order.begin(), order.end(), [&](FeatureId a, FeatureId b) {
    return means[a] != means[b] ? means[a] > means[b] : a < b;
  });
  return order;
}

/// Membership flags of the result's selected set (p entries).
inline std::vector<bool> selected_flags(const RunResult& result, std::size_t p) {
  std::vector<bool> flags(p, false);
  for (FeatureId k : result.selected) {
    if (k >= 0 && static_cast<std::size_t>(k) < p) flags[k] = true;
  }
  return flags;
}

/// Membership flags of the known truth (all false when there is none).
inline std::vector<bool> truth_flags(const RunResult& result, std::size_t p) {
  std::vector<bool> flags(p, false);
  for (FeatureId k : result.truth) {
    if (k >= 0 && static_cast<std::size_t>(k) < p) flags[k] = true;
  }
  return flags;
}

}  // namespace bfs::detail
