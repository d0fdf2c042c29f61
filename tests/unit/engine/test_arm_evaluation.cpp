#include <boost/test/unit_test.hpp>

#include "config/job_config.hpp"
#include "core/error.hpp"
#include "engine/arm_evaluation.hpp"
#include "simulate/dgp.hpp"

using namespace bfs;

namespace {
Dataset friedman(Index n, Index p, std::uint64_t seed) {
  return simulate(SimulateSpec{"friedman1", n, p, seed});
}
JobConfig lasso_job() {
  JobConfig job;
  job.estimator.name = EstimatorName::Lasso;
  job.estimator.lasso.lambda = 0.05;
  return job;
}
}  // namespace

BOOST_AUTO_TEST_CASE(an_empty_arm_is_evaluated_as_nothing) {
  const Dataset data = friedman(100, 10, 1);
  const JobConfig job = lasso_job();
  const auto estimator = make_estimator(job.estimator);
  const ArmOutcome out =
      evaluate_arm(data, {}, *estimator, make_evaluation_settings(job, data.feature_names, 1), 1, 1, 0);
  BOOST_TEST(out.rewards.empty());
}

BOOST_AUTO_TEST_CASE(true_features_earn_rewards_and_noise_does_not) {
  const Dataset data = friedman(400, 12, 2);
  JobConfig job;
  job.estimator.random_forest.n_estimators = 50;
  const auto estimator = make_estimator(job.estimator);
  const FeatureSet arm = {0, 1, 3, 4, 9, 10, 11};
  const ArmOutcome out =
      evaluate_arm(data, arm, *estimator, make_evaluation_settings(job, data.feature_names, 2), 7, 1, 0);
  BOOST_TEST(out.test_score > 0.5);
  BOOST_TEST(out.rewards[0] == 1);  // x1
  BOOST_TEST(out.rewards[2] == 1);  // x4, the strongest linear term
  BOOST_TEST(out.rewards[6] == 0);  // x12 is noise
  // Deterministic in (seed, round, slot).
  const ArmOutcome again =
      evaluate_arm(data, arm, *estimator, make_evaluation_settings(job, data.feature_names, 1), 7, 1, 0);
  BOOST_TEST(again.scores == out.scores);
}

BOOST_AUTO_TEST_CASE(lasso_nonzero_rewards_are_the_nonzero_coefficients) {
  const Dataset data = friedman(300, 20, 3);
  JobConfig job = lasso_job();
  job.reward.rule = RewardRule::LassoNonzero;
  job.estimator.lasso.lambda = 0.3;
  const auto estimator = make_estimator(job.estimator);
  const FeatureSet arm = {0, 3, 4, 15, 16, 17, 18, 19};
  const EvaluationSettings settings = make_evaluation_settings(job, data.feature_names, 1);
  const ArmOutcome out = evaluate_arm(data, arm, *estimator, settings, 5, 2, 0);
  for (std::size_t i = 0; i < arm.size(); ++i) BOOST_TEST(out.rewards[i] == (out.scores[i] != 0.0));
  BOOST_TEST(out.rewards[1] == 1);  // x4 has the largest linear effect in friedman1
  int noise_rewards = 0;
  for (std::size_t i = 3; i < arm.size(); ++i) noise_rewards += out.rewards[i];
  BOOST_TEST(noise_rewards <= 2);
}

BOOST_AUTO_TEST_CASE(a_group_gets_one_shared_score) {
  const Dataset data = friedman(300, 8, 4);
  JobConfig job = lasso_job();
  job.reward.groups = {{"x4", "x5"}};
  const auto estimator = make_estimator(job.estimator);
  const ArmOutcome out =
      evaluate_arm(data, {2, 3, 4, 6}, *estimator, make_evaluation_settings(job, data.feature_names, 1), 1, 1, 0);
  BOOST_TEST(out.scores[1] == out.scores[2]);
  BOOST_TEST(out.scores[0] != out.scores[1]);
  job.reward.groups = {{"x4", "nope"}};
  BOOST_CHECK_THROW(make_evaluation_settings(job, data.feature_names, 1), ConfigError);
  job.reward.groups = {{"x4"}, {"x4", "x5"}};
  BOOST_CHECK_THROW(make_evaluation_settings(job, data.feature_names, 1), ConfigError);
}

BOOST_AUTO_TEST_CASE(empty_or_unskilled_evaluations_do_not_update_the_posterior) {
  RewardConfig reward;
  ArmOutcome played;
  played.arm = {1, 2};
  played.test_score = -0.3;
  BOOST_TEST(updates_posterior(played, reward));  // min_r2 = −inf: the paper's algorithm updates on every play
  reward.min_r2 = 0.0;
  BOOST_TEST(!updates_posterior(played, reward));
  played.test_score = 0.2;
  BOOST_TEST(updates_posterior(played, reward));
  ArmOutcome empty;
  empty.test_score = 0.0;
  BOOST_TEST(!updates_posterior(empty, reward));
  reward.min_r2 = -std::numeric_limits<double>::infinity();
  BOOST_TEST(!updates_posterior(empty, reward));  // otherwise unplayed_as_failures would fail every arm
}
