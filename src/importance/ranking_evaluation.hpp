#pragma once
// A feature ranking judged by a learner ([FUSE §7.1] and Fig. 2): for each size k, the learner is fitted
// on the training rows' top-k columns and scored on the test rows — the test error rate (P̂(y = 1) > 0.5 is class 1,
// importance/metrics.hpp accuracy) and the AUC. Binary targets (0/1) only.
#include <cstdint>
#include <functional>
#include <vector>

#include "data/dataset.hpp"
#include "estimators/estimator.hpp"

namespace bfs {

struct RankingScore {
  std::int32_t size = 0;
  double test_error = 0.0;
  double test_auc = 0.0;
  FeatureSet features;  ///< the top `size` columns, in rank order
  /// Every test row got the same prediction: the learner kept no column, so the AUC is 0.5 whatever the ranking.
  bool constant_prediction = false;
};

/// Called after each size is scored, with its score and how many sizes are done out of how many.
using RankingProgress = std::function<void(const RankingScore&, std::size_t done, std::size_t total)>;

/// `ranking` lists column ids of `train` / `test` (which have the same columns), best first; every size must be in
/// 1..ranking.size(). The fit of size k draws from the stream (seed, k, 0, Fit).
std::vector<RankingScore> evaluate_ranking(const Dataset& train, const Dataset& test, const FeatureSet& ranking,
                                           const std::vector<std::int32_t>& sizes, const Estimator& learner,
                                           std::uint64_t seed, int threads, const RankingProgress& progress = {});

}  // namespace bfs
