#pragma once
// Rewards read from the fitted model instead of from permutation importance ([TVS]), in one place:
//  - lasso-nonzero (§3.3):     r_k = 1(β̂_k ≠ 0),                          score |β̂_k|;
//  - bart-last-draw (eq. 9):   r_k = 1 when sweep M's forest splits on x_k, score = that forest's split count;
//  - bart-mean-splits (eq. 10): r_k = 1 when the mean split count over the sweeps after the burn-in reaches
//                               reward.min_splits (default 1), score = the mean count.
// The model is fitted on all the rows (offline) or the batch (online), never a bootstrap: the randomness of the
// BART rewards is the MCMC's (§3.2); lasso-nonzero keeps its bootstrap offline (methods/bandit/arm_evaluation.cpp).
#include <cstdint>
#include <vector>

#include "config/job_config.hpp"
#include "estimators/estimator.hpp"
#include "methods/bandit/bandit_params.hpp"

namespace bfs {

/// True for the rules computed by model_rewards (no permutation importance, no test rows).
bool reads_model(RewardRule rule);

struct ModelRewards {
  std::vector<double> scores;         ///< per model column
  std::vector<std::uint8_t> rewards;  ///< per model column, 0/1
};

/// The rewards of every model column under `reward.rule`. ConfigError naming reward.rule when the model lacks what
/// the rule reads (coefficients, split counts).
ModelRewards model_rewards(const RewardConfig& reward, const Model& model);

/// The rule's reward for a read `score` (|β̂| for lasso-nonzero, a split count for the BART rules): the reward of a
/// column above, and of a categorical feature from the sum of its columns' reads.
std::uint8_t model_reward_of(const RewardConfig& reward, double score);

}  // namespace bfs
