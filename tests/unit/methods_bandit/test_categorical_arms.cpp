// A categorical feature is one arm (data/feature_layout.hpp): played with all its indicator columns, permuted as one
// group with the stream of its feature id, one score and one reward; its shadows copy all its columns over one row
// shuffle; model-read rules and reward.groups bundles count it once.
#include <boost/test/unit_test.hpp>
#include <cmath>

#include "categorical_data.hpp"
#include "config/job_config.hpp"
#include "core/rng.hpp"
#include "estimators/missing.hpp"
#include "importance/metrics.hpp"
#include "methods/bandit/arm_evaluation.hpp"
#include "methods/bandit/bandit_params.hpp"

using namespace bfs;
using testing::categorical_table;

namespace {

JobConfig forest_job() {
  JobConfig job = bandit_job();
  job.estimator.name = EstimatorName::RandomForest;
  job.estimator.random_forest.n_estimators = 30;
  job.estimator.random_forest.max_depth = 6;
  bandit_config(job).bootstrap = false;
  return job;
}

}  // namespace

BOOST_AUTO_TEST_CASE(an_arm_plays_all_columns_of_its_categorical_features) {
  const Dataset data = categorical_table(200, 1, /*with_missing=*/true).data;
  const JobConfig job = forest_job();
  const EvaluationSettings settings = make_evaluation_settings(job, data.feature_names, 1);
  const FeatureSet arm{1, 2};  // colour (columns 1..3) and x2 (column 4, with missing cells)
  const ArmData arm_data = prepare_arm_data(data, arm, settings, 3, 1, 0);
  BOOST_TEST(arm_data.columns == (FeatureSet{1, 2, 3, 4}));
  BOOST_REQUIRE(arm_data.X_train.cols() == 4);
  for (Index i = 0; i < arm_data.X_test.rows(); ++i)  // the indicators of one row: exactly one level
    BOOST_TEST(arm_data.X_test.row(i).head(3).sum() == 1.0f);
  Index missing = 0;  // the missing cells travel with their column
  for (Index i = 0; i < arm_data.X_test.rows(); ++i) missing += std::isnan(arm_data.X_test(i, 3)) ? 1 : 0;
  BOOST_TEST(missing > 0);
  const ImportancePlan plan = make_importance_plan(arm, settings, data.layout, arm_data.shadow_source);
  BOOST_TEST(plan.groups.size() == 2u);
  BOOST_TEST(plan.groups[0] == (std::vector<Index>{0, 1, 2}));
  BOOST_TEST(plan.groups[1] == (std::vector<Index>{3}));
  BOOST_TEST(plan.stream_ids == (std::vector<std::uint64_t>{1, 2}));  // the feature ids, as for numeric data
  BOOST_TEST(plan.group_of_feature == (std::vector<std::size_t>{0, 1}));
}

// Permuting the indicator columns together is permuting the categorical column before its encoding: the score
// equals the mean drop of re-encoding the column's levels shuffled by the permutations of the feature's stream.
BOOST_AUTO_TEST_CASE(the_indicators_are_permuted_as_the_original_column) {
  const testing::CategoricalTable table = categorical_table(240, 2, /*with_missing=*/false);
  const Dataset& data = table.data;
  const JobConfig job = forest_job();
  const EvaluationSettings settings = make_evaluation_settings(job, data.feature_names, 1);
  const FeatureSet arm{0, 1, 3};
  const std::uint64_t seed = 5, round = 2, slot = 1;
  const ArmData arm_data = prepare_arm_data(data, arm, settings, seed, round, slot);
  const auto estimator = make_estimator(job.estimator);
  const auto model = estimator->fit(arm_data.X_train, arm_data.y_train,
                                    fit_options_for(settings, seed, round, slot, has_missing(data.X)));
  const ImportancePlan plan = make_importance_plan(arm, settings, data.layout, arm_data.shadow_source);
  const BlockOutcome scored = score_block(*model, arm_data, arm, plan, {0, 1, 2}, settings, seed, round, slot);
  BOOST_REQUIRE(scored.scores.size() == 3u);  // one score per feature, not per column
  BOOST_REQUIRE(scored.rewards.size() == 3u);
  BOOST_TEST(scored.features == (std::vector<std::size_t>{0, 1, 2}));

  const TrainTestSplit split = make_split(data.rows(), settings.split, seed, round, slot);
  std::vector<int> test_level;
  for (Index row : split.test) test_level.push_back(table.level[static_cast<std::size_t>(row)]);
  const double baseline = metric_score(Metric::R2, arm_data.y_test, model->predict(arm_data.X_test));
  Rng stream = Rng::stream(seed, round, slot, Purpose::Permutation, 1);  // colour's feature id
  double sum = 0.0;
  for (int b = 0; b < settings.reward.repeats; ++b) {
    const auto perm = stream.permutation(static_cast<std::int64_t>(test_level.size()));
    std::vector<int> shuffled(test_level.size());
    for (std::size_t i = 0; i < shuffled.size(); ++i) shuffled[i] = test_level[static_cast<std::size_t>(perm[i])];
    Matrix X = arm_data.X_test;
    testing::write_one_hot(X, 1, shuffled);
    sum += metric_drop(Metric::R2, baseline, metric_score(Metric::R2, arm_data.y_test, model->predict(X)));
  }
  const double expected = sum / settings.reward.repeats;
  BOOST_TEST(scored.scores[1] == expected, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(scored.scores[1] > 0.5);  // colour carries most of y's variance
  BOOST_TEST(scored.rewards[1] == 1);
  BOOST_TEST(scored.rewards[2] == 0);  // x3 is noise
}

BOOST_AUTO_TEST_CASE(evaluate_arm_gives_one_score_and_one_reward_per_feature) {
  const Dataset data = categorical_table(240, 3, /*with_missing=*/false).data;
  const JobConfig job = forest_job();
  const auto estimator = make_estimator(job.estimator);
  const EvaluationSettings settings = make_evaluation_settings(job, data.feature_names, 2);
  const ArmOutcome out = evaluate_arm(data, {0, 1, 2, 3}, *estimator, settings, 7, 1, 0);
  BOOST_REQUIRE(out.scores.size() == 4u);
  BOOST_REQUIRE(out.rewards.size() == 4u);
  BOOST_TEST(out.rewards[0] == 1);
  BOOST_TEST(out.rewards[1] == 1);
  BOOST_TEST(out.rewards[3] == 0);
}

BOOST_AUTO_TEST_CASE(a_categorical_shadow_copies_all_its_columns_over_one_row_shuffle) {
  const Dataset data = categorical_table(120, 4, /*with_missing=*/true).data;
  JobConfig job = forest_job();
  reward_config(job).null = RewardNull::Shadow;
  reward_config(job).shadows = 4;
  const EvaluationSettings settings = make_evaluation_settings(job, data.feature_names, 1);
  const FeatureSet arm{1, 2};
  const ArmData arm_data = prepare_arm_data(data, arm, settings, 9, 3, 0);
  const ShadowPlan shadows = make_shadow_plan(data.rows(), arm, reward_config(job), 9, 3, 0);
  BOOST_TEST(arm_data.shadow_source == shadows.source);
  Index width = 0;
  for (FeatureId f : shadows.source) width += f == 1 ? 3 : 1;
  BOOST_REQUIRE(arm_data.X_train.cols() == 4 + width);
  const ImportancePlan plan = make_importance_plan(arm, settings, data.layout, arm_data.shadow_source);
  BOOST_REQUIRE(plan.groups.size() == 2u + 4u);
  BOOST_TEST(plan.shadow_begin == 2u);
  const TrainTestSplit split = make_split(data.rows(), settings.split, 9, 3, 0);
  for (std::size_t j = 0; j < 4; ++j) {
    const auto& group = plan.groups[plan.shadow_begin + j];
    BOOST_TEST(group.size() == (shadows.source[j] == 1 ? 3u : 1u));
    BOOST_TEST(plan.stream_ids[plan.shadow_begin + j] == kShadowStreamBase + j);
    const Index first = data.layout.column_begin(shadows.source[j]);
    for (std::size_t i = 0; i < split.test.size(); ++i) {
      const Index source_row = shadows.row_perm[j][static_cast<std::size_t>(split.test[i])];
      for (std::size_t c = 0; c < group.size(); ++c) {
        const float shadow = arm_data.X_test(static_cast<Index>(i), group[c]);
        const float original = data.X(source_row, first + static_cast<Index>(c));
        BOOST_TEST((shadow == original || (std::isnan(shadow) && std::isnan(original))));
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(a_bundle_of_reward_groups_holds_all_columns_of_its_features) {
  const Dataset data = categorical_table(100, 5, /*with_missing=*/false).data;
  JobConfig job = forest_job();
  reward_config(job).groups = {{"colour", "x3"}};
  const EvaluationSettings settings = make_evaluation_settings(job, data.feature_names, 1);
  const ImportancePlan plan = make_importance_plan({0, 1, 3}, settings, data.layout, {});
  BOOST_REQUIRE(plan.groups.size() == 2u);
  BOOST_TEST(plan.groups[1] == (std::vector<Index>{1, 2, 3, 4}));
  BOOST_TEST(plan.stream_ids[1] == 1u);
  BOOST_TEST(plan.group_of_feature == (std::vector<std::size_t>{0, 1, 1}));
}

BOOST_AUTO_TEST_CASE(model_read_rewards_sum_a_categorical_features_columns) {
  const Dataset data = categorical_table(300, 6, /*with_missing=*/false).data;
  JobConfig job = bandit_job();
  job.estimator.name = EstimatorName::Lasso;
  job.estimator.lasso.lambda = 0.05;
  reward_config(job).rule = RewardRule::LassoNonzero;
  const auto estimator = make_estimator(job.estimator);
  const EvaluationSettings settings = make_evaluation_settings(job, data.feature_names, 1);
  const ArmOutcome out = evaluate_arm(data, {1, 3}, *estimator, settings, 2, 1, 0);
  BOOST_REQUIRE(out.scores.size() == 2u);
  BOOST_REQUIRE(out.rewards.size() == 2u);
  BOOST_TEST(out.rewards[0] == 1);  // colour's levels move y by ±3
  for (std::size_t i = 0; i < 2; ++i) BOOST_TEST(out.rewards[i] == (out.scores[i] != 0.0));
}
