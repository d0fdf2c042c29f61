// gbm (XGBoost hist): accuracy, tree export vs XGBoost's own prediction (with missing values), hyperparameters,
// early stopping, determinism across thread counts, serialization, bad input.
#include <boost/test/unit_test.hpp>
#include <limits>
#include <thread>

#include "core/error.hpp"
#include "estimators/estimator.hpp"
#include "estimators/tree_ensemble.hpp"
#include "test_data.hpp"

using namespace bfs;

namespace {

std::unique_ptr<Model> fit_gbm(const GbmParams& params, const test::Problem& data, std::uint64_t seed = 1,
                               int threads = 1) {
  return make_gbm(params)->fit(data.X, data.y, FitOptions{seed, threads, {}, nullptr});
}

/// Sets about `fraction` of the entries of X to NaN.
void punch_holes(Matrix& X, double fraction, std::uint64_t seed) {
  Rng rng(seed);
  for (Index i = 0; i < X.rows(); ++i) {
    for (Index j = 0; j < X.cols(); ++j) {
      if (rng.uniform() < fraction) X(i, j) = std::numeric_limits<float>::quiet_NaN();
    }
  }
}

/// Checks base_score + scale·Σ predict_tree against model.predict within ~1e-5 relative.
void check_walker_matches(const Model& model, const Matrix& X) {
  const TreeEnsemble* ensemble = model.trees();
  BOOST_REQUIRE(ensemble != nullptr);
  BOOST_TEST(ensemble->strict_less);
  BOOST_TEST(ensemble->scale == 1.0);
  const Vector pred = model.predict(X);
  const Vector walked = predict_ensemble(*ensemble, X);
  for (Index i = 0; i < X.rows(); ++i) {
    double sum = 0.0;
    for (const FlatTree& tree : ensemble->trees) sum += predict_tree(tree, X.row(i).data(), true);
    BOOST_TEST(ensemble->base_score + sum == walked[i]);
    BOOST_TEST(std::abs(walked[i] - pred[i]) <= 1e-5 * std::max(1.0, std::abs(pred[i])));
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(gbm)

BOOST_AUTO_TEST_CASE(fits_friedman1) {
  const auto train = test::friedman1(500, 10, 1.0, 21);
  const auto fresh = test::friedman1(1000, 10, 0.0, 22);
  const auto model = fit_gbm(GbmParams{}, train);
  BOOST_TEST(model->num_features() == 10);
  const double r2 = test::r2(fresh.y, model->predict(fresh.X));
  BOOST_TEST_MESSAGE("gbm friedman1 R2 = " << r2);
  BOOST_TEST(r2 > 0.6);
}

BOOST_AUTO_TEST_CASE(tree_export_matches_xgboost_prediction_with_missing_values) {
  auto train = test::friedman1(400, 12, 1.0, 23);
  train.y.array() += 123.456789;  // a base_score that is not a round number
  auto fresh = test::friedman1(300, 12, 1.0, 24);
  punch_holes(train.X, 0.15, 25);
  punch_holes(fresh.X, 0.15, 26);
  GbmParams depthwise;
  depthwise.n_estimators = 60;
  depthwise.max_depth = 5;
  GbmParams lossguide = depthwise;
  lossguide.max_leaves = 12;
  lossguide.max_depth = 0;
  lossguide.subsample = 0.7;
  lossguide.colsample = 0.6;
  for (const GbmParams& params : {depthwise, lossguide}) {
    const auto model = fit_gbm(params, train, 5, 1);
    check_walker_matches(*model, fresh.X);
    check_walker_matches(*model, train.X);
    BOOST_TEST(std::abs(model->trees()->base_score - (train.y.mean())) < 5.0);
  }
}

BOOST_AUTO_TEST_CASE(trees_and_predict_are_safe_from_several_threads) {
  const auto train = test::friedman1(300, 6, 1.0, 27);
  const auto fresh = test::friedman1(100, 6, 1.0, 37);
  const auto estimator = make_gbm(GbmParams{});
  const auto fitted = estimator->fit(train.X, train.y, FitOptions{1, 2, {}, nullptr});
  const auto restored = estimator->deserialize(fitted->serialize());
  const Vector expected = fitted->predict(fresh.X);
  for (const Model* model : {fitted.get(), restored.get()}) {
    const TreeEnsemble* seen[4] = {};
    Vector predicted[4];
    std::vector<std::thread> workers;
    for (int t = 0; t < 4; ++t) {
      workers.emplace_back([&, t] {
        seen[t] = model->trees();
        for (int k = 0; k < 20; ++k) predicted[t] = model->predict(fresh.X);
      });
    }
    for (auto& w : workers) w.join();
    for (int t = 0; t < 4; ++t) {
      BOOST_TEST(seen[t] == seen[0]);
      BOOST_TEST((predicted[t].array() == expected.array()).all());
    }
  }
}

BOOST_AUTO_TEST_CASE(bit_identical_for_one_and_two_threads) {
  auto train = test::friedman1(6000, 20, 1.0, 28);  // several of XGBoost's row blocks, so threads really split work
  punch_holes(train.X, 0.05, 29);
  const auto fresh = test::friedman1(300, 20, 1.0, 30);
  GbmParams params;
  params.n_estimators = 80;
  params.max_leaves = 16;
  params.max_depth = 0;
  params.subsample = 0.8;
  params.colsample = 0.7;
  const auto one = fit_gbm(params, train, 7, 1);
  const auto two = fit_gbm(params, train, 7, 2);
  BOOST_TEST((one->predict(fresh.X).array() == two->predict(fresh.X).array()).all());
  BOOST_TEST(one->serialize() == two->serialize());
  BOOST_TEST(one->serialize() != fit_gbm(params, train, 8, 1)->serialize());  // the seed matters
}

BOOST_AUTO_TEST_CASE(serialize_round_trip_is_exact) {
  auto train = test::friedman1(300, 8, 1.0, 31);
  auto fresh = test::friedman1(200, 8, 1.0, 32);
  punch_holes(fresh.X, 0.1, 33);
  const auto estimator = make_gbm(GbmParams{});
  const auto model = estimator->fit(train.X, train.y, FitOptions{4, 1, {}, nullptr});
  const std::string bytes = model->serialize();
  const auto restored = estimator->deserialize(bytes);
  BOOST_TEST(restored->num_features() == 8);
  const Vector a = model->predict(fresh.X), b = restored->predict(fresh.X);
  BOOST_TEST((a.array() == b.array()).all());
  BOOST_TEST(restored->trees()->trees.size() == model->trees()->trees.size());
  BOOST_TEST(restored->serialize() == bytes);
  BOOST_CHECK_THROW(estimator->deserialize("garbage"), InputError);
  BOOST_CHECK_THROW(estimator->deserialize(bytes.substr(0, 10)), InputError);
  // XGBoost itself would read past the end of a truncated model; the header's length and checksum stop that.
  BOOST_CHECK_THROW(estimator->deserialize(bytes.substr(0, bytes.size() / 2)), InputError);
  std::string corrupted = bytes;
  corrupted[corrupted.size() - 20] ^= 0x5a;
  BOOST_CHECK_THROW(estimator->deserialize(corrupted), InputError);
}

BOOST_AUTO_TEST_CASE(hyperparameters_are_honoured) {
  const auto train = test::friedman1(400, 8, 1.0, 34);
  GbmParams params;
  params.validation_fraction = 0.0;  // no early stopping: exactly n_estimators trees
  params.n_estimators = 37;
  params.max_depth = 2;
  auto model = fit_gbm(params, train);
  BOOST_TEST(model->trees()->trees.size() == 37u);
  for (const FlatTree& tree : model->trees()->trees) BOOST_TEST(tree_shape(tree).depth <= 2);

  params.max_depth = 0;
  params.max_leaves = 5;
  model = fit_gbm(params, train);
  std::int64_t most_leaves = 0;
  for (const FlatTree& tree : model->trees()->trees) most_leaves = std::max(most_leaves, tree_shape(tree).leaves);
  BOOST_TEST(most_leaves <= 5);
  BOOST_TEST(most_leaves >= 4);

  // A huge min_child_weight forbids every split: stumps-free model = base_score everywhere.
  params.min_child_weight = 1e6;
  model = fit_gbm(params, train);
  for (const FlatTree& tree : model->trees()->trees) BOOST_TEST(tree.feature.size() == 1u);
}

BOOST_AUTO_TEST_CASE(early_stopping_stops_on_noise_and_keeps_the_best_round) {
  const auto train = test::noise(400, 10, 35);
  GbmParams params;
  params.n_estimators = 500;
  params.learning_rate = 0.3;
  params.max_depth = 4;
  params.validation_fraction = 0.25;
  params.early_stopping_rounds = 5;
  const auto model = fit_gbm(params, train);
  const auto used = model->trees()->trees.size();
  BOOST_TEST_MESSAGE("gbm on noise kept " << used << " rounds");
  BOOST_TEST(used >= 1u);
  BOOST_TEST(used < 50u);
  check_walker_matches(*model, train.X);

  // On a learnable target it keeps going much longer.
  params.n_estimators = 200;
  params.learning_rate = 0.1;
  const auto signal = fit_gbm(params, test::friedman1(400, 10, 0.5, 36));
  BOOST_TEST(signal->trees()->trees.size() > 50u);
}

BOOST_AUTO_TEST_CASE(bad_input_throws_input_error) {
  const auto estimator = make_gbm(GbmParams{});
  const FitOptions options{};
  BOOST_CHECK_THROW(estimator->fit(Matrix(0, 3), Vector(0), options), InputError);
  BOOST_CHECK_THROW(estimator->fit(Matrix(5, 0), Vector(5), options), InputError);
  BOOST_CHECK_THROW(estimator->fit(Matrix::Zero(5, 3), Vector::Zero(4), options), InputError);
  Vector y_nan = Vector::Zero(5);
  y_nan[1] = std::numeric_limits<double>::quiet_NaN();
  BOOST_CHECK_THROW(estimator->fit(Matrix::Zero(5, 3), y_nan, options), InputError);
  const auto model = estimator->fit(Matrix::Zero(5, 3), Vector::Zero(5), options);
  BOOST_CHECK_THROW(model->predict(Matrix::Zero(2, 4)), InputError);
  BOOST_TEST(model->predict(Matrix(0, 3)).size() == 0);
  GbmParams bad;
  bad.subsample = 1.5;
  BOOST_CHECK_THROW(make_gbm(bad), ConfigError);
  try {
    make_gbm(bad);
  } catch (const ConfigError& e) {  // the bound the schema declares for the job key, checked once for both paths
    BOOST_TEST(std::string(e.what()) == "estimator.subsample = 1.5 is out of range: must be in (0, 1]");
  }
}

BOOST_AUTO_TEST_SUITE_END()
