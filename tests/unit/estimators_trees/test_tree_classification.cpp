// random_forest and gbm with Task::Binary: against scikit-learn and python xgboost on the fixtures of
// tests/data/classification (make_tree_classification_fixtures.py), the tree export of a binary gbm against
// XGBoost's own probabilities, serialization, and label checks.
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <limits>
#include <string>

#include "core/error.hpp"
#include "estimators/estimator.hpp"
#include "estimators/tree_ensemble.hpp"
#include "fixtures.hpp"
#include "importance/metrics.hpp"
#include "test_data.hpp"

using namespace bfs;

namespace {

/// 0/1 labels from a logistic model of x0, x1 (and NaN entries when `holes` > 0).
test::Problem binary_problem(Index n, Index p, std::uint64_t seed, double holes = 0.0) {
  Rng rng(seed);
  test::Problem out{Matrix(n, p), Vector(n)};
  for (Index i = 0; i < n; ++i) {
    for (Index j = 0; j < p; ++j) out.X(i, j) = static_cast<float>(rng.normal());
    // The interaction needs four columns (p = 3 read past the row: the ASan build caught it).
    const double m = 1.5 * out.X(i, 0) - out.X(i, 1) + (p > 3 ? 0.5 * out.X(i, 2) * out.X(i, 3) : 0.0);
    out.y[i] = rng.uniform() < 1.0 / (1.0 + std::exp(-m)) ? 1.0 : 0.0;
    for (Index j = 0; j < p; ++j) {
      if (rng.uniform() < holes) out.X(i, j) = std::numeric_limits<float>::quiet_NaN();
    }
  }
  return out;
}

/// XGBoost's probability rebuilt from the exported trees: the float32 margin base_score + Σ trees in tree order
/// (XGBoost's CPU predictor), then its float32 sigmoid. Returns the margin.
float xgboost_margin(const TreeEnsemble& ensemble, const float* row) {
  auto margin = static_cast<float>(ensemble.base_score);
  for (const FlatTree& tree : ensemble.trees) margin += static_cast<float>(predict_tree(tree, row, true));
  return margin;
}

void check_export_reproduces_probabilities(const Model& model, const Matrix& X) {
  const TreeEnsemble* ensemble = model.trees();
  BOOST_REQUIRE(ensemble != nullptr);
  BOOST_TEST((ensemble->link == Link::Logistic));
  BOOST_TEST(ensemble->strict_less);
  const Vector proba = model.predict(X);
  const Vector walked = predict_ensemble(*ensemble, X);  // double sum and double σ: equal up to float rounding
  for (Index i = 0; i < X.rows(); ++i) {
    const float margin = xgboost_margin(*ensemble, X.row(i).data());
    BOOST_TEST(static_cast<double>(xgboost_sigmoid(margin)) == proba[i], "row " << i);
    BOOST_TEST(std::abs(walked[i] - proba[i]) < 1e-6);
  }
}

std::string message_of_fit(const Estimator& estimator, const Matrix& X, const Vector& y) {
  try {
    estimator.fit(X, y, FitOptions{});
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

BOOST_AUTO_TEST_SUITE(tree_classification)

BOOST_AUTO_TEST_CASE(random_forest_auc_matches_scikit_learn) {
  // Same split, n_estimators, max_depth, max_features as sklearn's RandomForestClassifier in the fixture script,
  // which recorded the mean and spread of its test AUC over 20 random_state values (sd ≈ 0.005, range ≈ 0.02).
  // Our forest draws other bootstraps, so it is one more draw from (nearly) that distribution: a tolerance of
  // 0.02 is about 4 sd of sklearn's own seed-to-seed spread.
  const auto train = test::read_labelled("trees_train.csv");
  const auto test = test::read_labelled("trees_test.csv");
  const auto ref = test::read_pairs("trees_sklearn.csv");
  RandomForestParams params;
  params.n_estimators = std::stoi(ref.at("rf_n_estimators"));
  params.max_depth = std::stoi(ref.at("rf_max_depth"));
  params.max_features = std::stod(ref.at("rf_max_features"));
  const double sklearn_auc = std::stod(ref.at("rf_auc_mean"));
  for (std::uint64_t seed : {1, 2, 3}) {
    const auto model =
        make_random_forest(params, Task::Binary)->fit(train.X, train.y, FitOptions{seed, 2, {}, nullptr});
    const Vector proba = model->predict(test.X);
    BOOST_TEST(proba.minCoeff() >= 0.0);
    BOOST_TEST(proba.maxCoeff() <= 1.0);
    const double auc = auc_score(test.y, proba);
    BOOST_TEST_MESSAGE("random_forest binary test AUC " << auc << " (seed " << seed << "), sklearn mean " << sklearn_auc
                                                        << " sd " << ref.at("rf_auc_sd"));
    BOOST_TEST(std::abs(auc - sklearn_auc) <= 0.02);
  }
}

BOOST_AUTO_TEST_CASE(one_tree_on_all_rows_and_columns_equals_scikit_learn_exactly) {
  // Without bootstrap and with every column searched, CART with the Gini criterion is deterministic up to exact ties
  // between splits: the fixture's tree (depth 4) has none, so every test row's probability is sklearn's, bit for bit.
  const auto train = test::read_labelled("trees_train.csv");
  const auto test = test::read_labelled("trees_test.csv");
  const auto ref = test::read_pairs("trees_sklearn.csv");
  RandomForestParams params;
  params.n_estimators = 1;
  params.bootstrap = false;
  params.max_features = 1.0;
  params.max_depth = std::stoi(ref.at("tree_max_depth"));
  const Vector proba = make_random_forest(params, Task::Binary)->fit(train.X, train.y, FitOptions{})->predict(test.X);
  for (Index i = 0; i < test.X.rows(); ++i) {
    BOOST_TEST(proba[i] == std::stod(ref.at("tree_proba_" + std::to_string(i))), "row " << i);
  }
}

BOOST_AUTO_TEST_CASE(random_forest_binary_grows_the_regression_forest_of_the_0_1_target) {
  // Gini on 0/1 targets = variance reduction (random_forest.cpp): the classifier is the regression builder's
  // forest, leaf values = class-1 fractions, only the task recorded in the bytes differs.
  const auto data = binary_problem(300, 6, 3);
  RandomForestParams params;
  params.n_estimators = 15;
  params.max_features = 0.5;
  const auto binary = make_random_forest(params, Task::Binary)->fit(data.X, data.y, FitOptions{4, 2, {}, nullptr});
  const auto regression = make_random_forest(params)->fit(data.X, data.y, FitOptions{4, 1, {}, nullptr});
  const TreeEnsemble& a = *binary->trees();
  const TreeEnsemble& b = *regression->trees();
  BOOST_TEST((a.link == Link::Identity));
  BOOST_REQUIRE(a.trees.size() == b.trees.size());
  for (std::size_t t = 0; t < a.trees.size(); ++t) {
    BOOST_TEST(a.trees[t].feature == b.trees[t].feature);
    BOOST_TEST(a.trees[t].threshold == b.trees[t].threshold);
    BOOST_TEST(a.trees[t].value == b.trees[t].value);
    for (double v : a.trees[t].value) BOOST_TEST((v >= 0.0 && v <= 1.0));
  }
  BOOST_TEST(binary->serialize() != regression->serialize());
  // Grown out without bootstrap, each tree reproduces the training labels.
  params.bootstrap = false;
  params.max_depth = 0;
  const Vector fitted = make_random_forest(params, Task::Binary)->fit(data.X, data.y, FitOptions{})->predict(data.X);
  BOOST_TEST((fitted.array() == data.y.array()).all());
}

BOOST_AUTO_TEST_CASE(gbm_binary_equals_python_xgboost_bit_for_bit) {
  // Same rows, same parameters (trees_xgboost_params.csv), the same libxgboost: the same probabilities, and the
  // exported trees give the same float32 margins.
  const auto train = test::read_labelled("trees_train.csv");
  const auto test = test::read_labelled("trees_test.csv");
  const auto ref = test::read_pairs("trees_xgboost_params.csv");
  const auto expected = test::read_csv("trees_xgboost.csv");
  GbmParams params;
  params.validation_fraction = 0.0;  // no early stopping: all rows train, every round is kept
  params.n_estimators = std::stoi(ref.at("rounds"));
  params.learning_rate = std::stod(ref.at("eta"));
  params.max_depth = std::stoi(ref.at("max_depth"));
  params.min_child_weight = std::stod(ref.at("min_child_weight"));
  params.lambda = std::stod(ref.at("lambda"));
  params.colsample = std::stod(ref.at("colsample_bytree"));
  params.subsample = std::stod(ref.at("subsample"));
  params.max_bin = std::stoi(ref.at("max_bin"));
  const auto model = make_gbm(params, Task::Binary)->fit(train.X, train.y, FitOptions{11, 1, {}, nullptr});
  const TreeEnsemble* ensemble = model->trees();
  BOOST_REQUIRE(ensemble->trees.size() == static_cast<std::size_t>(params.n_estimators));
  // XGBoost 1.7 stores base_score as the probability (the mean label) and starts from its logit.
  const double mean = train.y.mean();
  BOOST_TEST(std::abs(ensemble->base_score - std::log(mean / (1.0 - mean))) < 1e-6);
  const Vector proba = model->predict(test.X);
  BOOST_REQUIRE(static_cast<Index>(expected.size()) == test.X.rows());
  for (Index i = 0; i < test.X.rows(); ++i) {
    const auto margin = static_cast<float>(std::stod(expected[i].at(0)));
    const auto probability = static_cast<float>(std::stod(expected[i].at(1)));
    BOOST_TEST(proba[i] == static_cast<double>(probability), "row " << i);
    BOOST_TEST(xgboost_margin(*ensemble, test.X.row(i).data()) == margin, "row " << i);
  }
  check_export_reproduces_probabilities(*model, test.X);
}

BOOST_AUTO_TEST_CASE(gbm_binary_tree_export_reproduces_probabilities_with_missing_values) {
  const auto train = binary_problem(400, 8, 5, 0.1);
  const auto fresh = binary_problem(250, 8, 6, 0.15);
  GbmParams depthwise;
  depthwise.n_estimators = 60;
  depthwise.max_depth = 5;
  depthwise.learning_rate = 0.3;
  GbmParams lossguide = depthwise;
  lossguide.max_depth = 0;
  lossguide.max_leaves = 10;
  lossguide.subsample = 0.7;
  lossguide.colsample = 0.6;
  for (const GbmParams& params : {depthwise, lossguide}) {
    const auto model = make_gbm(params, Task::Binary)->fit(train.X, train.y, FitOptions{7, 2, {}, nullptr});
    check_export_reproduces_probabilities(*model, fresh.X);
    check_export_reproduces_probabilities(*model, train.X);
    BOOST_TEST(auc_score(fresh.y, model->predict(fresh.X)) > 0.7);
  }
}

BOOST_AUTO_TEST_CASE(gbm_binary_early_stopping_on_log_loss) {
  GbmParams params;
  params.n_estimators = 300;
  params.learning_rate = 0.3;
  params.max_depth = 4;
  params.validation_fraction = 0.25;
  params.early_stopping_rounds = 5;
  auto noise = binary_problem(400, 6, 8);
  Rng rng(9);
  for (Index i = 0; i < noise.y.size(); ++i) noise.y[i] = rng.uniform() < 0.4 ? 1.0 : 0.0;
  const auto stopped = make_gbm(params, Task::Binary)->fit(noise.X, noise.y, FitOptions{1, 1, {}, nullptr});
  BOOST_TEST_MESSAGE("binary gbm on noise kept " << stopped->trees()->trees.size() << " rounds");
  BOOST_TEST(stopped->trees()->trees.size() < 15u);
  params.learning_rate = 0.05;
  const auto learnable = binary_problem(1000, 6, 10);
  const auto signal = make_gbm(params, Task::Binary)->fit(learnable.X, learnable.y, FitOptions{1, 1, {}, nullptr});
  BOOST_TEST_MESSAGE("binary gbm on a learnable target kept " << signal->trees()->trees.size() << " rounds");
  BOOST_TEST(signal->trees()->trees.size() > 20u);
}

BOOST_AUTO_TEST_CASE(binary_models_round_trip_and_keep_their_task) {
  const auto train = binary_problem(300, 5, 12);
  auto fresh = binary_problem(120, 5, 13);
  fresh.X(0, 2) = std::numeric_limits<float>::quiet_NaN();
  RandomForestParams forest;
  forest.n_estimators = 20;
  GbmParams boosted;
  boosted.n_estimators = 30;
  const std::unique_ptr<Estimator> pairs[][2] = {{make_random_forest(forest, Task::Binary), make_random_forest(forest)},
                                                 {make_gbm(boosted, Task::Binary), make_gbm(boosted)}};
  for (const auto& [binary, regression] : pairs) {
    BOOST_TEST_CONTEXT(binary->name()) {
      const auto model = binary->fit(train.X, train.y, FitOptions{3, 2, {}, nullptr});
      const std::string bytes = model->serialize();
      const auto restored = binary->deserialize(bytes);
      const Vector a = model->predict(fresh.X), b = restored->predict(fresh.X);
      BOOST_TEST((a.array() == b.array()).all());
      BOOST_TEST(restored->serialize() == bytes);
      BOOST_TEST((restored->trees()->link == model->trees()->link));
      BOOST_TEST(restored->trees()->base_score == model->trees()->base_score);
      // A model is restored only under its own task.
      BOOST_CHECK_THROW(regression->deserialize(bytes), InputError);
      BOOST_CHECK_THROW(binary->deserialize(regression->fit(train.X, train.y, FitOptions{})->serialize()), InputError);
    }
  }
}

BOOST_AUTO_TEST_CASE(labels_other_than_0_and_1_are_rejected_naming_the_estimator) {
  const auto data = binary_problem(50, 3, 14);
  for (const auto& estimator :
       {make_random_forest(RandomForestParams{}, Task::Binary), make_gbm(GbmParams{}, Task::Binary)}) {
    for (double bad : {2.0, 0.5, -1.0}) {
      Vector y = data.y;
      y[17] = bad;
      const std::string message = message_of_fit(*estimator, data.X, y);
      BOOST_TEST_CONTEXT(estimator->name() << " label " << bad << ": " << message) {
        BOOST_TEST(message.find(std::string(estimator->name())) != std::string::npos);
        BOOST_TEST(message.find("y[17]") != std::string::npos);
      }
    }
    // One class only is a valid (if dull) binary sample.
    BOOST_CHECK_NO_THROW(estimator->fit(data.X, Vector::Zero(data.X.rows()), FitOptions{}));
    BOOST_CHECK_NO_THROW(estimator->fit(data.X, Vector::Ones(data.X.rows()), FitOptions{}));
  }
}

BOOST_AUTO_TEST_SUITE_END()

// The forest's mean decrease in impurity (Gini-RF, [FUSE §7.1]), by hand on one tree.
BOOST_AUTO_TEST_CASE(gini_importance_by_hand_on_one_tree) {
  // y = x0 AND x1 on the four corners. Root: S = 1, W = 4; either column splits it into {S 0, W 2} and {S 1, W 2},
  // a decrease of (0 + 1/2) − 1/4 = 1/4; the other column then splits the mixed child, (0 + 1) − 1/2 = 1/2. So the
  // two columns get 1/3 and 2/3, whichever goes first.
  Matrix X(4, 2);
  X << 0, 0, 0, 1, 1, 0, 1, 1;
  Vector y(4);
  y << 0, 0, 0, 1;
  RandomForestParams params;
  params.n_estimators = 1;
  params.bootstrap = false;
  params.max_depth = 0;
  const auto model = make_random_forest(params, Task::Binary)->fit(X, y, FitOptions{3, 1, {}, nullptr});
  const std::vector<double>* mdi = model->impurity_importance();
  BOOST_REQUIRE(mdi != nullptr);
  BOOST_REQUIRE(mdi->size() == 2u);
  const double low = std::min((*mdi)[0], (*mdi)[1]), high = std::max((*mdi)[0], (*mdi)[1]);
  BOOST_TEST(std::abs(low - 1.0 / 3.0) < 1e-12);
  BOOST_TEST(std::abs(high - 2.0 / 3.0) < 1e-12);
  // The model restored from its bytes predicts the same but carries no importance.
  BOOST_TEST(make_random_forest(params, Task::Binary)->deserialize(model->serialize())->impurity_importance() ==
             nullptr);
}
