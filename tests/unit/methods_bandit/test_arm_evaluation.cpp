#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <limits>

#include "config/job_config.hpp"
#include "core/error.hpp"
#include "methods/bandit/arm_evaluation.hpp"
#include "methods/bandit/bandit_params.hpp"
#include "methods/bandit/reward.hpp"
#include "simulate/dgp.hpp"

using namespace bfs;

namespace {
Dataset friedman(Index n, Index p, std::uint64_t seed) {
  return simulate(SimulateSpec{Dgp::Friedman1, n, p, seed});
}
JobConfig lasso_job() {
  JobConfig job = bandit_job();
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
  JobConfig job = bandit_job();
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
  reward_config(job).rule = RewardRule::LassoNonzero;
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
  reward_config(job).groups = {{"x4", "x5"}};
  const auto estimator = make_estimator(job.estimator);
  const ArmOutcome out =
      evaluate_arm(data, {2, 3, 4, 6}, *estimator, make_evaluation_settings(job, data.feature_names, 1), 1, 1, 0);
  BOOST_TEST(out.scores[1] == out.scores[2]);
  BOOST_TEST(out.scores[0] != out.scores[1]);
  reward_config(job).groups = {{"x4", "nope"}};
  BOOST_CHECK_THROW(make_evaluation_settings(job, data.feature_names, 1), ConfigError);
  reward_config(job).groups = {{"x4"}, {"x4", "x5"}};
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

// The shadow columns of reward.null = "shadow" and the paired null's relation to the paper's rule.
BOOST_AUTO_TEST_CASE(shadow_plan_copies_arm_features_with_their_rows_shuffled) {
  RewardConfig reward;
  BOOST_TEST(shadow_count(8, reward) == 0u);  // reward.null = "none"
  reward.null = RewardNull::Shadow;
  BOOST_TEST(shadow_count(0, reward) == 0u);
  BOOST_TEST(shadow_count(3, reward) == 19u);  // the default, whatever the arm's size
  BOOST_TEST(shadow_count(150, reward) == 19u);
  reward.shadows = 5;
  BOOST_TEST(shadow_count(15, reward) == 5u);
  const FeatureSet arm{2, 7, 9};
  const ShadowPlan plan = make_shadow_plan(50, arm, reward, 4, 6, 1);
  BOOST_REQUIRE(plan.source.size() == 5u);
  for (std::size_t j = 0; j < 3; ++j) {  // the first |S| shadows copy each arm feature once
    BOOST_TEST(std::count(plan.source.begin(), plan.source.begin() + 3, arm[j]) == 1);
  }
  for (std::size_t j = 0; j < 5; ++j) {
    BOOST_TEST(plan.source[j] == plan.source[j % 3]);  // then cycle
    std::vector<std::int64_t> sorted = plan.row_perm[j];
    std::sort(sorted.begin(), sorted.end());
    for (std::int64_t i = 0; i < 50; ++i) BOOST_TEST(sorted[static_cast<std::size_t>(i)] == i);
  }
  BOOST_TEST(plan.row_perm[0] != plan.row_perm[1]);
  const ShadowPlan again = make_shadow_plan(50, arm, reward, 4, 6, 1);
  BOOST_TEST((again.source == plan.source && again.row_perm == plan.row_perm));
  BOOST_TEST(make_shadow_plan(50, arm, reward, 4, 7, 1).row_perm != plan.row_perm);  // per round
}

BOOST_AUTO_TEST_CASE(shadow_columns_are_the_source_column_over_shuffled_rows) {
  const Dataset data = friedman(60, 6, 5);
  JobConfig job = bandit_job();
  reward_config(job).null = RewardNull::Shadow;
  reward_config(job).shadows = 4;
  bandit_config(job).bootstrap = false;  // train ∪ test = every row once
  const EvaluationSettings settings = make_evaluation_settings(job, data.feature_names, 1);
  const FeatureSet arm{1, 4};
  const ArmData arm_data = prepare_arm_data(data, arm, settings, 3, 2, 0);
  BOOST_REQUIRE(arm_data.X_train.cols() == 6);
  BOOST_REQUIRE(arm_data.X_test.cols() == 6);
  const ShadowPlan plan = make_shadow_plan(data.rows(), arm, reward_config(job), 3, 2, 0);
  for (std::size_t j = 0; j < 4; ++j) {
    std::vector<float> shadow, source;
    for (Index i = 0; i < arm_data.X_train.rows(); ++i)
      shadow.push_back(arm_data.X_train(i, 2 + static_cast<Index>(j)));
    for (Index i = 0; i < arm_data.X_test.rows(); ++i) shadow.push_back(arm_data.X_test(i, 2 + static_cast<Index>(j)));
    for (Index i = 0; i < data.rows(); ++i) source.push_back(data.X(i, plan.source[j]));
    std::sort(shadow.begin(), shadow.end());
    std::sort(source.begin(), source.end());
    BOOST_TEST(shadow == source);  // the same values, in another row order
  }
  // The arm's own columns are untouched by the shadows.
  JobConfig plain = job;
  reward_config(plain).null = RewardNull::None;
  reward_config(plain).shadows = 0;
  const ArmData without = prepare_arm_data(data, arm, make_evaluation_settings(plain, data.feature_names, 1), 3, 2, 0);
  BOOST_TEST((arm_data.X_test.leftCols(2) == without.X_test));
}

BOOST_AUTO_TEST_CASE(shadow_null_keeps_strong_features_and_one_score_per_arm_feature) {
  const Dataset data = friedman(400, 12, 2);
  JobConfig job = bandit_job();
  job.estimator.random_forest.n_estimators = 50;
  reward_config(job).null = RewardNull::Shadow;
  const auto estimator = make_estimator(job.estimator);
  const FeatureSet arm = {0, 1, 3, 4, 9, 10, 11};
  const EvaluationSettings settings = make_evaluation_settings(job, data.feature_names, 2);
  const ArmOutcome out = evaluate_arm(data, arm, *estimator, settings, 7, 1, 0);
  BOOST_TEST(out.scores.size() == arm.size());
  BOOST_TEST(out.rewards.size() == arm.size());
  BOOST_TEST(out.rewards[0] == 1);  // x1
  BOOST_TEST(out.rewards[2] == 1);  // x4
  BOOST_TEST(out.rewards[6] == 0);  // x12 is noise
  const ArmOutcome again =
      evaluate_arm(data, arm, *estimator, make_evaluation_settings(job, data.feature_names, 1), 7, 1, 0);
  BOOST_TEST(again.scores == out.scores);
  BOOST_TEST(again.rewards == out.rewards);
}

BOOST_AUTO_TEST_CASE(paired_null_only_removes_rewards_of_the_papers_rule) {
  // Same model and permutations as reward.null = "none": the null can only turn a 1 into a 0.
  const Dataset data = friedman(300, 30, 9);
  JobConfig job = bandit_job();
  job.estimator.random_forest.n_estimators = 30;
  const auto estimator = make_estimator(job.estimator);
  FeatureSet arm;
  for (FeatureId f = 0; f < 30; ++f) arm.push_back(f);
  int removed = 0;
  for (std::uint64_t round = 1; round <= 3; ++round) {
    JobConfig paired = job;
    reward_config(paired).null = RewardNull::Paired;
    const ArmOutcome plain =
        evaluate_arm(data, arm, *estimator, make_evaluation_settings(job, data.feature_names, 1), 5, round, 0);
    const ArmOutcome tested =
        evaluate_arm(data, arm, *estimator, make_evaluation_settings(paired, data.feature_names, 1), 5, round, 0);
    BOOST_TEST(tested.scores == plain.scores);
    for (std::size_t i = 0; i < arm.size(); ++i) {
      BOOST_TEST(tested.rewards[i] <= plain.rewards[i]);
      removed += plain.rewards[i] - tested.rewards[i];
    }
  }
  BOOST_TEST(removed > 0);  // with 25 noise columns some paper-rule rewards are noise that the test removes
}

BOOST_AUTO_TEST_CASE(a_non_finite_metric_is_never_an_update_or_a_reward) {
  RewardConfig reward;  // min_r2 = -inf: every finite metric updates
  ArmOutcome out;
  out.arm = {0, 1};
  out.rewards = {1, 1};
  for (const double score : {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(),
                             -std::numeric_limits<double>::infinity()}) {
    out.test_score = score;
    BOOST_TEST(!updates_posterior(out, reward), "metric " << score);
  }
  out.test_score = -3.0;
  BOOST_TEST(updates_posterior(out, reward));
  // A feature whose importance is not finite is never paid, whatever the rule; a finite one still is.
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  for (const RewardRule rule : {RewardRule::Absolute, RewardRule::Relative, RewardRule::Bernoulli}) {
    reward.rule = rule;
    reward.threshold = 0.01;
    const auto paid = rewards_from_scores(reward, {inf, nan, 0.9}, 0.8, {0, 1, 2}, 1, 1, 0, {});
    BOOST_TEST(paid[0] == 0);
    BOOST_TEST(paid[1] == 0);
    if (rule != RewardRule::Bernoulli) BOOST_TEST(paid[2] == 1);
    const auto failed_model = rewards_from_scores(reward, {0.5, 0.9}, nan, {0, 1}, 1, 1, 0, {});
    if (rule != RewardRule::Bernoulli) BOOST_TEST((failed_model == std::vector<std::uint8_t>{0, 0}));
  }
}

BOOST_AUTO_TEST_CASE(a_run_whose_every_evaluation_is_non_finite_fails_naming_the_cause) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<EvaluationRecord> records(3);
  for (auto& r : records) {
    r.arm_size = 4;
    r.test_score = nan;
  }
  records[1].test_score = std::numeric_limits<double>::infinity();
  try {
    require_a_finite_evaluation(records, "r2");
    BOOST_ERROR("no error");
  } catch (const InputError& e) {
    const std::string what = e.what();
    BOOST_TEST(
        what.find("every one of the run's 3 evaluations had a non-finite test r2 (NaN or Inf)") != std::string::npos,
        what);
    BOOST_TEST(what.find("likely cause is data outside the estimator's arithmetic") != std::string::npos, what);
  }
  // One finite evaluation, or no played arm at all, is a run that means something.
  records[2].test_score = 0.1;
  BOOST_CHECK_NO_THROW(require_a_finite_evaluation(records, "r2"));
  for (auto& r : records) r.arm_size = 0;
  BOOST_CHECK_NO_THROW(require_a_finite_evaluation(records, "r2"));
}
