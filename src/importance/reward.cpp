#include "importance/reward.hpp"

#include <algorithm>
#include <cmath>

#include "core/error.hpp"
#include "core/rng.hpp"

namespace bfs {

bool needs_importance(RewardRule rule) {
  return rule != RewardRule::LassoNonzero;
}

std::vector<std::uint8_t> rewards_from_scores(const RewardConfig& config, const std::vector<double>& scores,
                                              double test_score, const FeatureSet& features, std::uint64_t seed,
                                              std::uint64_t round, std::uint64_t slot) {
  BFS_CHECK(scores.size() == features.size());
  const RewardRule rule = config.rule;
  std::vector<std::uint8_t> rewards(scores.size(), 0);
  for (std::size_t i = 0; i < scores.size(); ++i) {
    switch (rule) {
      case RewardRule::Absolute:
        rewards[i] = scores[i] >= config.threshold;
        break;
      case RewardRule::Relative:
        rewards[i] = std::abs(test_score) >= config.min_abs_r2 && scores[i] / std::abs(test_score) >= config.threshold;
        break;
      case RewardRule::Bernoulli: {
        Rng rng = Rng::stream(seed, round, slot, Purpose::Reward, static_cast<std::uint64_t>(features[i]));
        rewards[i] = rng.bernoulli(std::clamp(scores[i], 0.0, 1.0));
        break;
      }
      case RewardRule::LassoNonzero:
        throw InternalError("lasso-nonzero rewards come from the model's coefficients, not from scores");
    }
  }
  return rewards;
}

}  // namespace bfs
