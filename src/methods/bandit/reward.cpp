#include "methods/bandit/reward.hpp"

#include <algorithm>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>

#include "core/error.hpp"
#include "core/rng.hpp"
#include "methods/bandit/model_rewards.hpp"

namespace bfs {

bool needs_importance(RewardRule rule) {
  return !reads_model(rule);
}

double shadow_bar(std::vector<double> shadow_scores, double quantile) {
  BFS_CHECK(!shadow_scores.empty() && quantile >= 0.0 && quantile <= 1.0);
  const auto m = static_cast<double>(shadow_scores.size());
  const auto rank = std::max<std::size_t>(1, static_cast<std::size_t>(std::ceil(quantile * m)));  // 1-based
  std::nth_element(shadow_scores.begin(), shadow_scores.begin() + static_cast<std::ptrdiff_t>(rank - 1),
                   shadow_scores.end());
  return shadow_scores[rank - 1];
}

double t_critical(int df, double alpha) {
  BFS_CHECK(df >= 1 && alpha > 0.0 && alpha < 1.0);
  const boost::math::students_t_distribution<double> t(df);
  return boost::math::quantile(boost::math::complement(t, alpha));
}

bool paired_test_rejects(std::span<const double> drops, double critical) {
  const auto B = static_cast<double>(drops.size());
  BFS_CHECK(drops.size() >= 2);
  double mean = 0.0;
  for (double d : drops) mean += d;
  mean /= B;
  double ss = 0.0;
  for (double d : drops) ss += (d - mean) * (d - mean);
  const double sd = std::sqrt(ss / (B - 1.0));
  if (sd == 0.0) return mean > 0.0;
  return mean / (sd * std::sqrt(1.0 + 1.0 / B)) > critical;
}

namespace {

/// Whether the paper's absolute or relative rule pays a feature with this score (a null is checked after). A NaN or
/// infinite score or metric never pays: it comes from a model that failed, not from a feature that helped.
bool threshold_rule_pays(const RewardConfig& config, double score, double test_score) {
  if (!std::isfinite(score) || !std::isfinite(test_score)) return false;
  if (config.rule == RewardRule::Absolute) return score >= config.threshold;
  return std::abs(test_score) >= config.min_abs_r2 && score / std::abs(test_score) >= config.threshold;
}

std::vector<std::uint8_t> rewards_with_null(const RewardConfig& config, const std::vector<double>& scores,
                                            double test_score, const NullEvidence& null) {
  std::vector<std::uint8_t> rewards(scores.size(), 0);
  if (config.null == RewardNull::Shadow) {
    if (null.shadow_scores.empty()) throw InternalError("reward.null = \"shadow\" without shadow scores");
    const double bar = shadow_bar(null.shadow_scores, config.shadow_quantile);
    for (std::size_t i = 0; i < scores.size(); ++i)
      rewards[i] = threshold_rule_pays(config, scores[i], test_score) && scores[i] > bar;
    return rewards;
  }
  BFS_CHECK(null.repeats >= 2 && null.drops.size() == scores.size() * static_cast<std::size_t>(null.repeats));
  const double critical = t_critical(null.repeats - 1, config.alpha);
  const auto B = static_cast<std::size_t>(null.repeats);
  for (std::size_t i = 0; i < scores.size(); ++i) {
    const std::span<const double> drops(null.drops.data() + i * B, B);
    rewards[i] = threshold_rule_pays(config, scores[i], test_score) && paired_test_rejects(drops, critical);
  }
  return rewards;
}

}  // namespace

std::vector<std::uint8_t> rewards_from_scores(const RewardConfig& config, const std::vector<double>& scores,
                                              double test_score, const FeatureSet& features, std::uint64_t seed,
                                              std::uint64_t round, std::uint64_t slot, const NullEvidence& null) {
  BFS_CHECK(scores.size() == features.size());
  const RewardRule rule = config.rule;
  if (config.null != RewardNull::None) {
    BFS_CHECK(rule == RewardRule::Absolute || rule == RewardRule::Relative);
    return rewards_with_null(config, scores, test_score, null);
  }
  std::vector<std::uint8_t> rewards(scores.size(), 0);
  for (std::size_t i = 0; i < scores.size(); ++i) {
    switch (rule) {
      case RewardRule::Absolute:
      case RewardRule::Relative:
        rewards[i] = threshold_rule_pays(config, scores[i], test_score);
        break;
      case RewardRule::Bernoulli: {
        Rng rng = Rng::stream(seed, round, slot, Purpose::Reward, static_cast<std::uint64_t>(features[i]));
        rewards[i] = rng.bernoulli(std::isfinite(scores[i]) ? std::clamp(scores[i], 0.0, 1.0) : 0.0);
        break;
      }
      case RewardRule::LassoNonzero:
      case RewardRule::BartLastDraw:
      case RewardRule::BartMeanSplits:
        throw InternalError("model-read rewards come from methods/bandit/model_rewards, not from scores");
    }
  }
  return rewards;
}

}  // namespace bfs
