#include <boost/test/unit_test.hpp>

#include "core/error.hpp"
#include "methods/bandit/bandit_params.hpp"
#include "methods/bandit/reward.hpp"

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

// Reward.null.
namespace {
RewardConfig with_null(const std::string& rule_name, double threshold, RewardNull null) {
  RewardConfig c = rule(rule_name, threshold);
  c.null = null;
  return c;
}
}  // namespace

BOOST_AUTO_TEST_CASE(shadow_bar_is_the_inverse_empirical_cdf) {
  const std::vector<double> shadows{0.3, 0.1, 0.2, 0.5};
  BOOST_TEST(shadow_bar(shadows, 1.0) == 0.5);
  BOOST_TEST(shadow_bar(shadows, 0.0) == 0.1);
  BOOST_TEST(shadow_bar(shadows, 0.5) == 0.2);  // ⌈0.5·4⌉ = 2nd smallest
  BOOST_TEST(shadow_bar(shadows, 0.6) == 0.3);  // ⌈2.4⌉ = 3rd smallest
  BOOST_TEST(shadow_bar({-0.02}, 0.9) == -0.02);
}

BOOST_AUTO_TEST_CASE(shadow_null_pays_only_drops_above_both_nu_and_the_bar) {
  NullEvidence null;
  null.shadow_scores = {0.3, 0.1, 0.2, 0.5};
  const std::vector<double> scores{0.15, 0.6, 0.005, 0.5};
  RewardConfig max_bar = with_null("absolute", 0.01, RewardNull::Shadow);
  BOOST_TEST((rewards_from_scores(max_bar, scores, 0.5, {0, 1, 2, 3}, 1, 1, 0, null) ==
              std::vector<std::uint8_t>{0, 1, 0, 0}));  // 0.5 is not strictly above the largest shadow
  RewardConfig min_bar = max_bar;
  min_bar.shadow_quantile = 0.0;
  BOOST_TEST((rewards_from_scores(min_bar, scores, 0.5, {0, 1, 2, 3}, 1, 1, 0, null) ==
              std::vector<std::uint8_t>{1, 1, 0, 1}));  // bar 0.1; 0.005 is below nu
  // Relative rule: the drop over |R²| must reach nu as well (0.15/0.5 = 0.3 < 0.4 fails; 0.6/0.5 passes).
  RewardConfig relative = with_null("relative", 0.4, RewardNull::Shadow);
  relative.shadow_quantile = 0.0;
  BOOST_TEST((rewards_from_scores(relative, scores, 0.5, {0, 1, 2, 3}, 1, 1, 0, null) ==
              std::vector<std::uint8_t>{0, 1, 0, 1}));
}

BOOST_AUTO_TEST_CASE(paired_null_is_the_one_sided_prediction_t_test_of_the_header) {
  BOOST_TEST(std::abs(t_critical(9, 0.05) - 1.8331129326536335) < 1e-9);  // R: qt(0.95, 9)
  BOOST_TEST(std::abs(t_critical(3, 0.05) - 2.3533634348018264) < 1e-9);
  // drops (0.02, 0.04, 0.03, 0.05): mean 0.035, s = sqrt(0.0005/3), t = 0.035 / (s·sqrt(1 + 1/4)) = 2.42487
  const std::vector<double> drops{0.02, 0.04, 0.03, 0.05};
  BOOST_TEST(paired_test_rejects(drops, t_critical(3, 0.05)));            // 2.42487 > 2.35336
  BOOST_TEST(!paired_test_rejects(drops, t_critical(3, 0.025)));          // 2.42487 < 3.18245
  BOOST_TEST(!paired_test_rejects(drops, 2.4249));                        // just above t
  BOOST_TEST(paired_test_rejects(drops, 2.4248));                         // just below t
  BOOST_TEST(paired_test_rejects(std::vector<double>{0.2, 0.2}, 100.0));  // s = 0, positive mean
  BOOST_TEST(!paired_test_rejects(std::vector<double>{0.0, 0.0}, -1.0));  // B exact zeros never pass
  BOOST_TEST(!paired_test_rejects(std::vector<double>{-0.1, -0.1}, -5.0));

  NullEvidence null;
  null.repeats = 4;
  null.drops = {0.02,  0.04,  0.03,  0.05,    // passes the test, mean 0.035 ≥ nu
                0.5,   -0.4,  0.45,  -0.35,   // mean 0.05 ≥ nu, but t = 0.09: fails the test
                0.003, 0.004, 0.003, 0.004};  // passes the test (t = 5.4), mean 0.0035 < nu
  RewardConfig paired = with_null("absolute", 0.01, RewardNull::Paired);
  BOOST_TEST((rewards_from_scores(paired, {0.035, 0.05, 0.0035}, 0.5, {0, 1, 2}, 1, 1, 0, null) ==
              std::vector<std::uint8_t>{1, 0, 0}));
  paired.alpha = 0.01;  // t_3(0.99) = 4.54: the first feature no longer passes
  BOOST_TEST((rewards_from_scores(paired, {0.035, 0.05, 0.0035}, 0.5, {0, 1, 2}, 1, 1, 0, null) ==
              std::vector<std::uint8_t>{0, 0, 0}));
}
