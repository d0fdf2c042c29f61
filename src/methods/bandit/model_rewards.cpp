#include "methods/bandit/model_rewards.hpp"

#include <cmath>
#include <string>

#include "core/enum_names.hpp"
#include "core/error.hpp"

namespace bfs {

bool reads_model(RewardRule rule) {
  return rule == RewardRule::LassoNonzero || rule == RewardRule::BartLastDraw || rule == RewardRule::BartMeanSplits;
}

std::uint8_t model_reward_of(const RewardConfig& reward, double score) {
  if (reward.rule == RewardRule::LassoNonzero) return score != 0.0;
  if (reward.rule == RewardRule::BartMeanSplits) return score >= reward.min_splits;
  return score > 0.0;  // a split in the last sweep's forest
}

ModelRewards model_rewards(const RewardConfig& reward, const Model& model) {
  ModelRewards out;
  const auto p = static_cast<std::size_t>(model.num_features());
  const std::string rule(name_of(reward.rule));
  if (reward.rule == RewardRule::LassoNonzero) {
    const LinearStructure* linear = model.linear();
    if (linear == nullptr) throw ConfigError("reward.rule = \"" + rule + "\" needs a linear estimator");
    for (std::size_t k = 0; k < p; ++k) {
      const double beta = linear->coef[static_cast<Index>(k)];
      out.scores.push_back(std::abs(beta));
      out.rewards.push_back(beta != 0.0);
    }
    return out;
  }
  const SplitCounts* counts = model.split_counts();
  if (counts == nullptr) throw ConfigError("reward.rule = \"" + rule + "\" needs estimator.name = \"bart\"");
  const bool last = reward.rule == RewardRule::BartLastDraw;
  for (std::size_t k = 0; k < p; ++k) {
    const double score = last ? counts->last[k] : counts->mean[k];
    out.scores.push_back(score);
    out.rewards.push_back(last ? score > 0.0 : score >= reward.min_splits);
  }
  return out;
}

}  // namespace bfs
