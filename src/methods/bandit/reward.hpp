#pragma once
// Reward rules (docs/design.md §3): turn a played feature's importance into a 0/1 reward.
//  - absolute:  r = 1(π_k ≥ ν)                       ([Wu §3.3])
//  - relative:  r = 1(π_k / |R²_test| ≥ ν); when |R²_test| < min_abs_r2 the model has no signal to lose and every
//               reward is 0 (the reference code divides by |R²_test| unguarded)
//  - bernoulli: r ~ Bernoulli(clamp(π_k, 0, 1))      ([TVS §3.3], Agrawal & Goyal 2012)
//  - lasso-nonzero: r = 1(β̂_k ≠ 0)                   ([TVS §3.3]) — computed from the model, not from π
//
// reward.null adds a calibrated null to the absolute and relative rules (ours; docs/null.md). A feature
// earns 1 only when the rule above pays AND
//  - "shadow" (Boruta's idea, Kursa & Rudnicki 2010, inside one evaluation): its mean drop π_k is strictly above
//    the shadow_quantile quantile of the mean drops of the evaluation's shadow columns — row-permuted copies of the
//    arm's own features fitted beside them (methods/bandit/arm_evaluation.hpp). The quantile is the inverse empirical
//    CDF: the ⌈q·m⌉-th smallest of the m shadow drops (the smallest for q = 0, the largest for q = 1).
//  - "paired": a one-sided one-sample t-test of the feature's B drops d_1..d_B rejects "mean drop ≤ 0" at level
//    α: t = d̄ / (s/√B) > t_{B−1}(1 − α), s the sample standard deviation (divisor B − 1). When s = 0 the test
//    rejects iff d̄ > 0 (B identical positive drops; B exact zeros — a column the model never reads — never pass).
//    The drops share one fitted model and one test set, so the test asks whether THIS model relies on the feature
//    beyond permutation noise; it does not account for the fit's own randomness.
// With reward.null = "none" the rules above run unchanged, byte for byte.
#include <cstdint>
#include <span>
#include <vector>

#include "config/job_config.hpp"
#include "core/types.hpp"
#include "methods/bandit/bandit_params.hpp"

namespace bfs {

/// True when the rule needs permutation importance (all but the model-read rules of model_rewards.hpp).
bool needs_importance(RewardRule rule);

/// What the calibrated null compares a feature against, from the same evaluation.
struct NullEvidence {
  /// "paired": the B permutation drops of each scored feature, feature-major (drops[i·B + b]).
  std::vector<double> drops;
  int repeats = 0;
  /// "shadow": the mean drops of the evaluation's shadow columns.
  std::vector<double> shadow_scores;
};

/// Rewards for the played features from their scores. `features` are the global ids (for the Bernoulli streams
/// (seed, round, slot, Reward, feature)). `null` is read only when config.null is not None.
std::vector<std::uint8_t> rewards_from_scores(const RewardConfig& config, const std::vector<double>& scores,
                                              double test_score, const FeatureSet& features, std::uint64_t seed,
                                              std::uint64_t round, std::uint64_t slot, const NullEvidence& null = {});

/// The bar of the shadow null: the ⌈q·m⌉-th smallest shadow score (q = 0: the smallest). Needs m ≥ 1.
double shadow_bar(std::vector<double> shadow_scores, double quantile);
/// t_{df}(1 − α), the one-sided critical value of Student's t with df degrees of freedom.
double t_critical(int df, double alpha);
/// The paired null's one-sided t-test of the drops against a zero mean, with critical value `critical`.
bool paired_test_rejects(std::span<const double> drops, double critical);

}  // namespace bfs
