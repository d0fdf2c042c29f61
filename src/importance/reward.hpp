#pragma once
// Reward rules (DESIGN §4): turn a played feature's importance into a 0/1 reward.
//  - absolute:  r = 1(π_k ≥ ν)                       (paper 000 §3.3)
//  - relative:  r = 1(π_k / |R²_test| ≥ ν); when |R²_test| < min_abs_r2 the model has no signal to lose and every
//               reward is 0 (the reference code divides by |R²_test| unguarded)
//  - bernoulli: r ~ Bernoulli(clamp(π_k, 0, 1))      (paper 003 §3.3, Agrawal & Goyal 2012)
//  - lasso-nonzero: r = 1(β̂_k ≠ 0)                   (paper 003 §3.3) — computed from the model, not from π
#include <cstdint>
#include <vector>

#include "config/job_config.hpp"
#include "core/types.hpp"

namespace bfs {

/// True when the rule needs permutation importance (all but lasso-nonzero).
bool needs_importance(RewardRule rule);

/// Rewards for the played features from their scores. `features` are the global ids (for the Bernoulli streams
/// (seed, round, slot, Reward, feature)).
std::vector<std::uint8_t> rewards_from_scores(const RewardConfig& config, const std::vector<double>& scores,
                                              double test_score, const FeatureSet& features, std::uint64_t seed,
                                              std::uint64_t round, std::uint64_t slot);

}  // namespace bfs
