#include <boost/test/unit_test.hpp>

#include "core/error.hpp"
#include "importance/reward.hpp"

using namespace bfs;

namespace {
RewardConfig rule(const std::string& name, double threshold) {
  RewardConfig c;
  c.rule = *enum_from_name<RewardRule>(name);
  c.threshold = threshold;
  return c;
}
}  // namespace

BOOST_AUTO_TEST_CASE(absolute_threshold_compares_the_drop) {
  const auto r = rewards_from_scores(rule("absolute", 0.01), {0.02, 0.01, 0.005, -0.1}, 0.5, {0, 1, 2, 3}, 1, 1, 0);
  BOOST_TEST((r == std::vector<std::uint8_t>{1, 1, 0, 0}));
}

BOOST_AUTO_TEST_CASE(relative_threshold_divides_by_abs_r2_and_is_guarded) {
  const auto r = rewards_from_scores(rule("relative", 0.04), {0.002, 0.0005}, -0.04, {0, 1}, 1, 1, 0);
  BOOST_TEST((r == std::vector<std::uint8_t>{1, 0}));  // 0.002 / 0.04 = 0.05 ≥ 0.04; 0.0125 < 0.04
  const auto none = rewards_from_scores(rule("relative", 0.04), {0.002, 1.0}, 1e-9, {0, 1}, 1, 1, 0);
  BOOST_TEST((none == std::vector<std::uint8_t>{0, 0}));
}

BOOST_AUTO_TEST_CASE(bernoulli_rewards_follow_the_clamped_score) {
  const auto sure = rewards_from_scores(rule("bernoulli", 0.0), {1.5, -0.2}, 0.3, {4, 5}, 1, 1, 0);
  BOOST_TEST((sure == std::vector<std::uint8_t>{1, 0}));
  int ones = 0;
  for (int round = 0; round < 4000; ++round)
    ones += rewards_from_scores(rule("bernoulli", 0.0), {0.3}, 0.3, {7}, 1, static_cast<std::uint64_t>(round), 0)[0];
  BOOST_TEST(std::abs(ones - 1200) < 120);  // Binomial(4000, 0.3): sd 29
  BOOST_TEST(rewards_from_scores(rule("bernoulli", 0.0), {0.5}, 0.3, {7}, 1, 2, 0) ==
             rewards_from_scores(rule("bernoulli", 0.0), {0.5}, 0.3, {7}, 1, 2, 0));
}

BOOST_AUTO_TEST_CASE(unknown_rules_are_rejected) {
  BOOST_TEST(!enum_from_name<RewardRule>("magic").has_value());  // the job parser names reward.rule (test_schema)
  BOOST_TEST(!needs_importance(RewardRule::LassoNonzero));
}
