#pragma once
// Evaluation of one super-arm (DESIGN §3): split the current data, fit the base estimator on the arm's columns,
// score each played feature (permutation importance, Algorithm 3) and turn the scores into 0/1 rewards.
// Pure: no MPI, no shared state; every random draw comes from the (seed, round, slot, purpose) streams.
#include <cstdint>
#include <vector>

#include "config/job_config.hpp"
#include "data/dataset.hpp"
#include "engine/split.hpp"
#include "estimators/estimator.hpp"

namespace bfs {

struct EvaluationSettings {
  RewardConfig reward;
  SplitSettings split;
  int threads = 1;
  /// Group index of each global feature for grouped permutation (−1 = permuted alone). Empty = no groups.
  std::vector<std::int32_t> group_of_feature;
};

struct ArmOutcome {
  FeatureSet arm;
  std::vector<std::uint8_t> rewards;  ///< one per arm feature
  std::vector<double> scores;         ///< importance per arm feature (|β| for lasso-nonzero)
  double r2_test = 0.0;               ///< test R² (in-sample R² for lasso-nonzero, which has no test rows)
  double split_seconds = 0.0;
  double fit_seconds = 0.0;
  double importance_seconds = 0.0;
};

/// Whether an evaluation updates the posterior: not when nothing was played (an empty super-arm must not count as
/// a failure of every unplayed arm), and not when its test R² is below reward.min_r2.
bool updates_posterior(const ArmOutcome& outcome, const RewardConfig& reward);

/// Builds the evaluation settings from the job (groups resolved against the feature names; ConfigError naming
/// reward.groups for an unknown name or a feature in two groups).
EvaluationSettings make_evaluation_settings(const JobConfig& job, const std::vector<std::string>& feature_names,
                                            int threads);

/// Evaluates `arm` on `data`. An empty arm yields an empty outcome.
ArmOutcome evaluate_arm(const Dataset& data, const FeatureSet& arm, const Estimator& estimator,
                        const EvaluationSettings& settings, std::uint64_t seed, std::uint64_t round,
                        std::uint64_t slot);

}  // namespace bfs
