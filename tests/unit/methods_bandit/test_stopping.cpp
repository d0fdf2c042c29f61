#include <boost/test/unit_test.hpp>
#include <cmath>

#include "core/error.hpp"
#include "methods/bandit/bandit_params.hpp"
#include "methods/bandit/policy.hpp"
#include "methods/bandit/stopping.hpp"

using namespace bfs;

BOOST_AUTO_TEST_CASE(selected_and_ranked_sets) {
  const std::vector<double> means = {0.6, 0.5, 0.9, 0.1, 0.7};
  BOOST_TEST((selected_set(means) == FeatureSet{0, 1, 2, 4}));
  BOOST_TEST((ranked_set(means) == FeatureSet{2, 4, 0}));
  BOOST_TEST(separates(means, {0, 1, 2, 4}));
  BOOST_TEST(!separates(means, {0, 1, 2}));
}

BOOST_AUTO_TEST_CASE(rank_stable_fires_after_k_identical_iterations_and_resets_on_change) {
  StoppingRule rule(StopRule::RankStable, 3, {}, false);
  BOOST_TEST(!rule.observe({0.9, 0.6, 0.1}));
  BOOST_TEST(!rule.observe({0.9, 0.7, 0.1}));
  BOOST_TEST(!rule.observe({0.6, 0.9, 0.1}));  // order changed: the count restarts
  BOOST_TEST(!rule.observe({0.6, 0.8, 0.2}));
  BOOST_TEST(rule.observe({0.6, 0.7, 0.3}));
  BOOST_TEST(StoppingRule(StopRule::RankStable, 0, {}, false).window() == 50);
}

BOOST_AUTO_TEST_CASE(selected_stable_ignores_order) {
  StoppingRule rule(StopRule::SelectedStable, 2, {}, false);
  BOOST_TEST(!rule.observe({0.9, 0.6}));
  BOOST_TEST(rule.observe({0.6, 0.9}));
  BOOST_TEST(StoppingRule(StopRule::SelectedStable, 0, {}, false).window() == 100);
}

BOOST_AUTO_TEST_CASE(truth_rule_fires_on_separation_and_needs_truth) {
  StoppingRule rule(StopRule::Truth, 0, {0}, true);
  BOOST_TEST(!rule.observe({0.4, 0.3}));
  BOOST_TEST(rule.observe({0.5, 0.3}));
  BOOST_CHECK_THROW(StoppingRule(StopRule::Truth, 0, {}, false), ConfigError);
  StoppingRule fixed(StopRule::Iterations, 0, {}, false);
  BOOST_TEST(!fixed.observe({1.0}));
}

BOOST_AUTO_TEST_CASE(tvs_selects_at_c_tilde_and_its_top_q) {
  BanditConfig bandit;
  BOOST_TEST(SelectionRule::from(bandit).threshold == 0.5);
  bandit.policy = PolicyKind::Tvs;
  bandit.tvs_c = 0.5;  // C̃ = log 2 / log 3 = 0.6309
  const SelectionRule rule = SelectionRule::from(bandit);
  BOOST_TEST(rule.threshold == std::log(2.0) / std::log(3.0), boost::test_tools::tolerance(1e-15));
  const std::vector<double> means{0.62, 0.9, 0.64, 0.5, 0.7};
  BOOST_TEST((selected_set(means, rule) == FeatureSet{1, 2, 4}));
  BOOST_TEST((selected_set(means) == FeatureSet{0, 1, 2, 3, 4}));
  BOOST_TEST(separates(means, {4, 1, 2}, rule));
  BOOST_TEST(!separates(means, {1, 2}, rule));
  BOOST_TEST((ranked_set(means, rule) == FeatureSet{1, 4, 2}));
  bandit.tvs_q = 2;
  BOOST_TEST((selected_set(means, SelectionRule::from(bandit)) == FeatureSet{1, 4}));
  // The stopping rules see the same selected set.
  StoppingRule truth(StopRule::Truth, 0, {1, 4}, true, SelectionRule::from(bandit));
  BOOST_TEST(truth.observe(means));
  StoppingRule stable(StopRule::SelectedStable, 2, {}, false, rule);
  BOOST_TEST(!stable.observe(means));
  BOOST_TEST(stable.observe({0.62, 0.9, 0.64, 0.1, 0.7}));  // feature 3 moved below C̃ only: same selected set
  // TVS truncates strictly above C̃ ([TVS §4], "above 0.5"); ts/ttts keep the median probability model's ≥ 0.5.
  bandit.tvs_q = 0;
  bandit.tvs_c = 0.6180339887498949;  // the default: C̃ = 0.5 up to rounding
  const std::vector<double> ties{0.5, 0.75, 0.5 + 1e-6};
  BOOST_TEST((selected_set(ties, SelectionRule::from(bandit)) == FeatureSet{1, 2}));
  BOOST_TEST((selected_set(ties) == FeatureSet{0, 1, 2}));
}
