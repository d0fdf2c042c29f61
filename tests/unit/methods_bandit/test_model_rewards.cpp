// methods/bandit/model_rewards: the rewards [TVS] reads from a fitted model (eqs. 9 and 10 from BART's split
// counts, §3.3's lasso-nonzero from the coefficients), on hand-built models.
#include <boost/test/unit_test.hpp>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "methods/bandit/bandit_params.hpp"
#include "methods/bandit/model_rewards.hpp"

using namespace bfs;

namespace {

/// A model of three columns that only reports what the reward rules read: split counts, coefficients, or neither.
class FakeModel final : public Model {
 public:
  explicit FakeModel(const SplitCounts* counts, const LinearStructure* linear = nullptr)
      : counts_(counts), linear_(linear) {}
  Vector predict(const Matrix& X) const override { return Vector::Zero(X.rows()); }
  std::string serialize() const override { return {}; }
  Index num_features() const override { return 3; }
  const SplitCounts* split_counts() const override { return counts_; }
  const LinearStructure* linear() const override { return linear_; }

 private:
  const SplitCounts* counts_;
  const LinearStructure* linear_;
};

const SplitCounts kCounts{{0.0, 2.0, 1.0}, {0.5, 1.0, 3.0}};

RewardConfig reward_rule(RewardRule rule, double min_splits = 1.0) {
  RewardConfig reward;
  reward.rule = rule;
  reward.min_splits = min_splits;
  return reward;
}

using Bits = std::vector<std::uint8_t>;
using Scores = std::vector<double>;

}  // namespace

BOOST_AUTO_TEST_CASE(reads_model_names_the_model_read_rules_only) {
  BOOST_TEST(reads_model(RewardRule::BartLastDraw));
  BOOST_TEST(reads_model(RewardRule::BartMeanSplits));
  BOOST_TEST(reads_model(RewardRule::LassoNonzero));
  BOOST_TEST(!reads_model(RewardRule::Absolute));
  BOOST_TEST(!reads_model(RewardRule::Relative));
  BOOST_TEST(!reads_model(RewardRule::Bernoulli));
}

BOOST_AUTO_TEST_CASE(bart_last_draw_rewards_a_split_in_the_last_forest) {
  const FakeModel model(&kCounts);
  const ModelRewards r = model_rewards(reward_rule(RewardRule::BartLastDraw), model);
  BOOST_TEST((r.rewards == Bits{0, 1, 1}));
  BOOST_TEST((r.scores == Scores{0.0, 2.0, 1.0}));
}

BOOST_AUTO_TEST_CASE(bart_mean_splits_compares_the_mean_count_with_min_splits) {
  const FakeModel model(&kCounts);
  const ModelRewards one = model_rewards(reward_rule(RewardRule::BartMeanSplits, 1.0), model);
  BOOST_TEST((one.rewards == Bits{0, 1, 1}));  // 1.0 reaches min_splits = 1: ≥, not >
  BOOST_TEST((one.scores == Scores{0.5, 1.0, 3.0}));
  const ModelRewards two = model_rewards(reward_rule(RewardRule::BartMeanSplits, 2.0), model);
  BOOST_TEST((two.rewards == Bits{0, 0, 1}));
  BOOST_TEST((two.scores == Scores{0.5, 1.0, 3.0}));
}

BOOST_AUTO_TEST_CASE(a_bart_rule_on_a_model_without_split_counts_is_a_config_error_naming_reward_rule) {
  const LinearStructure linear{Vector::Ones(3), 0.0, Link::Identity};
  const FakeModel model(nullptr, &linear);
  for (RewardRule rule : {RewardRule::BartLastDraw, RewardRule::BartMeanSplits}) {
    try {
      model_rewards(reward_rule(rule), model);
      BOOST_FAIL("a model without split counts gave BART rewards");
    } catch (const ConfigError& e) {
      BOOST_TEST(std::string(e.what()).find("reward.rule") != std::string::npos, e.what());
      BOOST_TEST(std::string(e.what()).find("bart") != std::string::npos, e.what());
    }
  }
}

BOOST_AUTO_TEST_CASE(lasso_nonzero_reads_the_coefficients) {
  LinearStructure linear;
  linear.coef = Vector(3);
  linear.coef << 0.0, -0.25, 2.0;
  const FakeModel model(nullptr, &linear);
  const ModelRewards r = model_rewards(reward_rule(RewardRule::LassoNonzero), model);
  BOOST_TEST((r.rewards == Bits{0, 1, 1}));
  BOOST_TEST((r.scores == Scores{0.0, 0.25, 2.0}));
  const FakeModel no_coefficients(&kCounts);
  BOOST_CHECK_THROW(model_rewards(reward_rule(RewardRule::LassoNonzero), no_coefficients), ConfigError);
}
