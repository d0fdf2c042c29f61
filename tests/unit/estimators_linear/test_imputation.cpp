// The fitted mean imputation (estimators/missing.hpp): means of the training rows only, stored in the model and
// applied to any X it predicts; the imputing fit is the inner estimator's fit on the filled matrix; which estimators
// impute under data.missing = native and impute; complete data fit exactly as before.
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <limits>
#include <string>

#include "core/error.hpp"
#include "core/rng.hpp"
#include "estimators/estimator.hpp"
#include "estimators/missing.hpp"

using namespace bfs;

namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

struct Data {
  Matrix X;
  Vector y;
};

/// y = 2 x0 − x1 + x2 + noise, with about a fifth of columns 0 and 1 missing when `holes`.
Data linear_data(Index n, Index p, std::uint64_t seed, bool holes) {
  Rng rng(seed);
  Data d{Matrix(n, p), Vector(n)};
  for (Index i = 0; i < n; ++i) {
    for (Index j = 0; j < p; ++j) d.X(i, j) = static_cast<float>(rng.normal());
    d.y[i] = 2.0 * d.X(i, 0) - d.X(i, 1) + d.X(i, 2) + 0.1 * rng.normal();
    for (Index j = 0; j < 2; ++j)
      if (holes && rng.uniform() < 0.2) d.X(i, j) = kNaN;
  }
  return d;
}

EstimatorConfig config_of(EstimatorName name) {
  EstimatorConfig config;
  config.name = name;
  config.mlp.hidden = {8};
  config.mlp.max_epochs = 20;
  config.bart.sweeps = 30;
  config.svm.c = 1.0;
  config.svm.gamma = 0.1;
  return config;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(imputation)

BOOST_AUTO_TEST_CASE(means_skip_missing_cells_and_fill_only_them) {
  Matrix X(3, 2);
  X << 1, kNaN, 2, 4, kNaN, kNaN;
  const std::vector<float> mean = column_means(X);
  BOOST_TEST(mean[0] == 1.5f);
  BOOST_TEST(mean[1] == 4.0f);
  const Matrix filled = impute(X, mean);
  BOOST_TEST(filled(0, 0) == 1.0f);
  BOOST_TEST(filled(2, 0) == 1.5f);
  BOOST_TEST(filled(0, 1) == 4.0f);
  BOOST_TEST(filled(2, 1) == 4.0f);
  BOOST_TEST(!has_missing(filled));
  BOOST_TEST(missing_columns(filled).empty());
  BOOST_TEST((missing_columns(X) == std::vector<std::uint8_t>{1, 1}));
  BOOST_TEST(column_means(Matrix::Constant(2, 1, kNaN))[0] == 0.0f);  // no value at all: 0
}

BOOST_AUTO_TEST_CASE(which_estimators_impute) {
  for (const EstimatorName name : {EstimatorName::Lasso, EstimatorName::Mlp, EstimatorName::Svm, EstimatorName::Bart})
    BOOST_TEST(imputes_missing(name, MissingRule::Native));
  for (const EstimatorName name : {EstimatorName::RandomForest, EstimatorName::Gbm, EstimatorName::Hgb}) {
    BOOST_TEST(!imputes_missing(name, MissingRule::Native));
    BOOST_TEST(!imputes_missing(name, MissingRule::Error));
    BOOST_TEST(imputes_missing(name, MissingRule::Impute));
  }
  const Data d = linear_data(60, 4, 1, true);
  const auto native_rf = make_estimator(config_of(EstimatorName::RandomForest))->fit(d.X, d.y, FitOptions{});
  BOOST_TEST(native_rf->imputation() == nullptr);
  const auto imputed_rf = make_estimator(config_of(EstimatorName::RandomForest), Task::Regression, MissingRule::Impute)
                              ->fit(d.X, d.y, FitOptions{});
  BOOST_REQUIRE(imputed_rf->imputation() != nullptr);
  BOOST_TEST(imputed_rf->trees() != nullptr);  // the structure hooks reach through
  // Without imputation the lasso refuses a missing cell, naming it.
  BOOST_CHECK_THROW(make_lasso(LassoParams{})->fit(d.X, d.y, FitOptions{}), InputError);
}

BOOST_AUTO_TEST_CASE(an_imputing_fit_is_the_inner_fit_on_the_filled_matrix) {
  const Data train = linear_data(120, 5, 2, true);
  const Data test = linear_data(50, 5, 3, true);
  const Vector binary_y = (train.y.array() > 0.0).cast<double>();
  const Matrix filled = impute(train.X, column_means(train.X));
  struct Case {
    EstimatorName name;
    Task task;
  };
  for (const Case c : {Case{EstimatorName::Lasso, Task::Regression}, Case{EstimatorName::Lasso, Task::Binary},
                       Case{EstimatorName::Mlp, Task::Regression}, Case{EstimatorName::Svm, Task::Binary},
                       Case{EstimatorName::Bart, Task::Regression}, Case{EstimatorName::Hgb, Task::Regression}}) {
    const EstimatorConfig config = config_of(c.name);
    const Vector& y = c.task == Task::Binary ? binary_y : train.y;
    const auto imputing = make_estimator(config, c.task, MissingRule::Impute);
    const auto model = imputing->fit(train.X, y, FitOptions{4, 1, {}, nullptr});
    // On complete data the native estimator is the inner one's own fit (the last test case).
    const auto inner =
        make_estimator(config, c.task, MissingRule::Native)->fit(filled, y, FitOptions{4, 1, {}, nullptr});
    const Vector expected = inner->predict(impute(test.X, column_means(train.X)));
    const Vector got = model->predict(test.X);
    BOOST_TEST(got.allFinite());
    BOOST_TEST((got == expected), "estimator " << static_cast<int>(c.name));
    // Restored bytes predict the same, fill values included.
    BOOST_TEST((imputing->deserialize(model->serialize())->predict(test.X) == got));
  }
}

BOOST_AUTO_TEST_CASE(the_fill_values_come_from_the_training_rows_only) {
  const Data train = linear_data(100, 4, 5, true);
  const auto model = make_estimator(config_of(EstimatorName::Lasso))->fit(train.X, train.y, FitOptions{});
  BOOST_REQUIRE(model->imputation() != nullptr);
  BOOST_TEST((model->imputation()->fill == column_means(train.X)));
  // Row 0 misses column 0; row 1's value there changes from −50 to 50: row 0's prediction does not move, and it is
  // the prediction of row 0 filled with the training mean.
  Matrix test = Matrix::Zero(2, 4);
  test(0, 0) = kNaN;
  test(0, 2) = 1.0f;
  test(1, 0) = -50.0f;
  const double first = model->predict(test)[0];
  test(1, 0) = 50.0f;
  BOOST_TEST(model->predict(test)[0] == first);
  Matrix filled_row = Matrix::Zero(1, 4);
  filled_row(0, 0) = column_means(train.X)[0];
  filled_row(0, 2) = 1.0f;
  BOOST_TEST(model->predict(filled_row)[0] == first);
}

BOOST_AUTO_TEST_CASE(complete_data_fit_exactly_as_before) {
  // No missing cell: the imputing estimator's model is its inner estimator's own fit (same predictions, the inner
  // bytes after the fill values), and an inner model's bytes alone still restore.
  const Data train = linear_data(100, 4, 6, false);
  const auto bare = make_lasso(LassoParams{});
  const auto imputing = make_estimator(config_of(EstimatorName::Lasso));
  const auto inner = bare->fit(train.X, train.y, FitOptions{});
  const auto model = imputing->fit(train.X, train.y, FitOptions{});
  BOOST_TEST((model->predict(train.X) == inner->predict(train.X)));
  const std::string bytes = model->serialize();
  BOOST_TEST(bytes.ends_with(inner->serialize()));
  BOOST_TEST((imputing->deserialize(inner->serialize())->predict(train.X) == inner->predict(train.X)));
  BOOST_CHECK_THROW(imputing->deserialize(bytes.substr(0, 14)), InputError);
}

BOOST_AUTO_TEST_SUITE_END()
