// Classification mode (Task::Binary) of lasso and mlp: L1-logistic coefficients against scikit-learn's saga solver
// (fixtures of tests/data/make_linear_classification_fixtures.py), λ_max, CV support recovery, predict through the
// logistic link, a separable problem for the MLP, serialization round trips, and targets that are not 0/1.
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/rng.hpp"
#include "estimators/detail/binary.hpp"
#include "estimators/estimator.hpp"
#include "estimators/lasso.hpp"
#include "estimators/mlp.hpp"
#include "importance/metrics.hpp"

using namespace bfs;

namespace {

struct Data {
  Matrix X;
  Vector y;
};

std::string data_dir() {
  const char* dir = std::getenv("BANDITFS_TEST_DATA");
  BOOST_REQUIRE_MESSAGE(dir != nullptr, "BANDITFS_TEST_DATA is not set (cmake sets it for unit tests)");
  return std::string(dir) + "/classification/";
}

/// A numeric CSV with a header line, as rows of doubles.
std::vector<std::vector<double>> read_csv(const std::string& path) {
  std::ifstream in(path);
  BOOST_REQUIRE_MESSAGE(in, "cannot open " << path);
  std::string line;
  std::getline(in, line);
  std::vector<std::vector<double>> rows;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    std::vector<double> row;
    std::stringstream fields(line);
    for (std::string field; std::getline(fields, field, ',');) row.push_back(std::strtod(field.c_str(), nullptr));
    rows.push_back(std::move(row));
  }
  return rows;
}

/// Last column y, the others X (float32 text written by the fixture script, exact in float).
Data read_data(const std::string& path) {
  const auto rows = read_csv(path);
  BOOST_REQUIRE(!rows.empty());
  const auto n = static_cast<Index>(rows.size()), p = static_cast<Index>(rows[0].size()) - 1;
  Data d{Matrix(n, p), Vector(n)};
  for (Index i = 0; i < n; ++i) {
    for (Index j = 0; j < p; ++j) d.X(i, j) = static_cast<float>(rows[i][j]);
    d.y[i] = rows[i][p];
  }
  return d;
}

/// P(y = 1) = σ(0.4 + 1.5·x1 − 1.2·x3 + 1.0·x7) on p columns N(0, 1) shifted and scaled so standardisation matters;
/// a term whose column is beyond p is left out (the ASan build caught the reads past the row).
Data logistic_data(Index n, Index p, std::uint64_t seed) {
  Rng rng = Rng::stream(seed, 0, 0, Purpose::Simulate);
  Data d{Matrix(n, p), Vector(n)};
  for (Index i = 0; i < n; ++i) {
    for (Index j = 0; j < p; ++j)
      d.X(i, j) =
          static_cast<float>(0.5 * static_cast<double>(j) + (1.0 + 0.3 * static_cast<double>(j)) * rng.normal());
    auto z = [&](Index j) {
      return j < p ? (static_cast<double>(d.X(i, j)) - 0.5 * static_cast<double>(j)) /
                         (1.0 + 0.3 * static_cast<double>(j))
                   : 0.0;
    };
    const double eta = 0.4 + 1.5 * z(1) - 1.2 * z(3) + 1.0 * z(7);
    d.y[i] = rng.uniform() < detail::logistic(eta) ? 1.0 : 0.0;
  }
  return d;
}

/// y = 1 when x0² + x1² < 1 (a disc in the plane; the other columns are noise), x uniform on [−1.5, 1.5].
Data disc_data(Index n, Index p, std::uint64_t seed) {
  Rng rng = Rng::stream(seed, 0, 0, Purpose::Simulate);
  Data d{Matrix(n, p), Vector(n)};
  for (Index i = 0; i < n; ++i) {
    for (Index j = 0; j < p; ++j) d.X(i, j) = static_cast<float>(3.0 * rng.uniform() - 1.5);
    const double r2 = std::pow(d.X(i, 0), 2) + std::pow(d.X(i, 1), 2);
    d.y[i] = r2 < 1.0 ? 1.0 : 0.0;
  }
  return d;
}

LassoParams fixed(double lambda, double tol = 1e-7) {
  LassoParams params;
  params.lambda = lambda;
  params.tol = tol;
  params.max_iter = 100000;
  return params;
}

const LassoModel& as_lasso(const std::unique_ptr<Model>& model) {
  const auto* lasso = dynamic_cast<const LassoModel*>(model.get());
  BOOST_REQUIRE(lasso != nullptr);
  return *lasso;
}

/// Column means and population sds of X (the lasso's standardisation, in double).
void column_scale(const Matrix& X, Vector& mean, Vector& sd) {
  const Eigen::MatrixXd x = X.cast<double>();
  mean = x.colwise().mean().transpose();
  sd = ((x.rowwise() - mean.transpose()).colwise().squaredNorm() / static_cast<double>(x.rows()))
           .cwiseSqrt()
           .transpose();
}

}  // namespace

BOOST_AUTO_TEST_CASE(logistic_lasso_matches_sklearn_saga_at_the_same_penalty) {
  // λ here ⇔ C = 1/(n·λ) in scikit-learn (see the fixture script); compared on the standardised scale.
  const Data d = read_data(data_dir() + "linear_logistic_train.csv");
  const auto reference = read_csv(data_dir() + "linear_logistic_sklearn.csv");
  BOOST_REQUIRE_EQUAL(reference.size(), 3u);
  Vector mean, sd;
  column_scale(d.X, mean, sd);
  const Index p = d.X.cols();
  for (const auto& ref : reference) {
    const double lambda = ref[0];
    BOOST_TEST_CONTEXT("lambda " << lambda) {
      BOOST_TEST(ref[1] == 1.0 / (static_cast<double>(d.X.rows()) * lambda), boost::test_tools::tolerance(1e-14));
      auto model = make_lasso(fixed(lambda, 1e-20), Task::Binary)->fit(d.X, d.y, {});
      const LinearStructure& lin = *model->linear();
      BOOST_TEST(static_cast<int>(lin.link) == static_cast<int>(Link::Logistic));
      double intercept = lin.intercept, worst = 0.0;
      for (Index j = 0; j < p; ++j) {
        intercept += lin.coef[j] * mean[j];
        const double beta = lin.coef[j] * sd[j], expected = ref[3 + static_cast<std::size_t>(j)];
        worst = std::max(worst, std::abs(beta - expected));
        BOOST_TEST(std::abs(beta - expected) < 1e-4, "coef " << j << ": " << beta << " vs sklearn " << expected);
        if (std::abs(expected) > 1e-3) BOOST_TEST(lin.coef[j] != 0.0, "coef " << j);
      }
      worst = std::max(worst, std::abs(intercept - ref[2]));
      BOOST_TEST(std::abs(intercept - ref[2]) < 1e-4);
      BOOST_TEST_MESSAGE("lambda " << lambda << ": max |ours − sklearn| = " << worst);
    }
  }
}

BOOST_AUTO_TEST_CASE(logistic_lasso_at_lambda_max_is_the_null_model) {
  const Data d = logistic_data(200, 10, 1);
  const double lambda_max = lasso_lambda_path(d.X, d.y, 1, 1.0).at(0);  // the same formula holds for the logistic loss
  const double share = d.y.mean();
  // At λ_max itself the gradient equals λ only up to rounding (p = σ(logit ȳ) ≠ ȳ in the last bit); just above it β
  // is exactly 0.
  auto at_max = make_lasso(fixed(lambda_max), Task::Binary)->fit(d.X, d.y, {});
  BOOST_TEST(at_max->linear()->coef.cwiseAbs().maxCoeff() < 1e-10);
  auto null_model = make_lasso(fixed(1.0001 * lambda_max), Task::Binary)->fit(d.X, d.y, {});
  BOOST_TEST(null_model->linear()->coef.isZero(0.0));
  BOOST_TEST(null_model->linear()->intercept == std::log(share / (1.0 - share)), boost::test_tools::tolerance(1e-12));
  BOOST_TEST(null_model->predict(d.X)[0] == share, boost::test_tools::tolerance(1e-12));
  auto below = make_lasso(fixed(0.98 * lambda_max), Task::Binary)->fit(d.X, d.y, {});
  BOOST_TEST(!below->linear()->coef.isZero(0.0));
}

BOOST_AUTO_TEST_CASE(logistic_lasso_predicts_sigma_of_the_original_scale_margin) {
  const Data d = logistic_data(200, 12, 2);
  auto model = make_lasso(fixed(0.02), Task::Binary)->fit(d.X, d.y, {});
  const LinearStructure& lin = *model->linear();
  const Vector pred = model->predict(d.X);
  for (Index i = 0; i < d.X.rows(); ++i) {
    double m = lin.intercept;
    for (Index j = 0; j < d.X.cols(); ++j) {
      if (lin.coef[j] != 0.0) m += lin.coef[j] * static_cast<double>(d.X(i, j));
    }
    BOOST_TEST(pred[i] == detail::logistic(m));  // bit for bit: the order the importance fast path relies on
    BOOST_TEST((pred[i] > 0.0 && pred[i] < 1.0));
  }
}

BOOST_AUTO_TEST_CASE(logistic_lasso_cv_recovers_the_true_support) {
  const Data d = logistic_data(500, 15, 3);
  const Data fresh = logistic_data(2000, 15, 4);
  LassoParams params;
  params.cv_folds = 5;
  params.one_se_rule = true;
  auto model = make_lasso(params, Task::Binary)->fit(d.X, d.y, FitOptions{7, 1, {}, nullptr});
  const LassoModel& lasso = as_lasso(model);
  BOOST_REQUIRE(lasso.lambda_path().size() >= 5u);
  BOOST_REQUIRE_EQUAL(lasso.cv_loss().size(), lasso.lambda_path().size());
  BOOST_TEST(lasso.lambda() < lasso.lambda_path().front());
  const Vector& coef = model->linear()->coef;
  BOOST_TEST(coef[1] > 0.0);
  BOOST_TEST(coef[3] < 0.0);
  BOOST_TEST(coef[7] > 0.0);
  int false_positives = 0;
  for (Index j = 0; j < coef.size(); ++j) false_positives += (j != 1 && j != 3 && j != 7 && coef[j] != 0.0) ? 1 : 0;
  BOOST_TEST_MESSAGE("logistic cv: lambda " << lasso.lambda() << " of " << lasso.lambda_path().size()
                                            << " on the path, false positives " << false_positives);
  BOOST_TEST(false_positives <= 3, "false positives " << false_positives << ", lambda " << lasso.lambda());
  // The held-out log-loss at the choice beats the null model's (the path's first value) by a clear margin.
  const double null_loss = lasso.cv_loss().front();
  const auto chosen = static_cast<std::size_t>(
      std::find(lasso.lambda_path().begin(), lasso.lambda_path().end(), lasso.lambda()) - lasso.lambda_path().begin());
  BOOST_REQUIRE(chosen < lasso.lambda_path().size());
  BOOST_TEST(lasso.cv_loss()[chosen] < 0.85 * null_loss);
  BOOST_TEST(auc_score(fresh.y, model->predict(fresh.X)) > 0.8);
  // The same seed gives the same choice.
  auto again = make_lasso(params, Task::Binary)->fit(d.X, d.y, FitOptions{7, 1, {}, nullptr});
  BOOST_TEST((again->linear()->coef - coef).isZero(0.0));
}

BOOST_AUTO_TEST_CASE(binary_mlp_learns_a_separable_problem) {
  const Data train = disc_data(1200, 4, 5);
  const Data test = disc_data(1000, 4, 6);
  MlpParams params;
  params.hidden = {32, 16};
  params.batch_size = 32;
  auto model = make_mlp(params, Task::Binary)->fit(train.X, train.y, FitOptions{8, 1, {}, nullptr});
  const auto* mlp = dynamic_cast<const MlpModel*>(model.get());
  BOOST_REQUIRE(mlp != nullptr);
  BOOST_TEST(static_cast<int>(mlp->link()) == static_cast<int>(Link::Logistic));
  BOOST_TEST(mlp->y_mean() == 0.0);
  BOOST_TEST(mlp->y_sd() == 1.0);
  const Vector prob = model->predict(test.X);
  BOOST_TEST(((prob.array() > 0.0) && (prob.array() < 1.0)).all());
  const double auc = auc_score(test.y, prob), accuracy = accuracy_score(test.y, prob);
  BOOST_TEST_MESSAGE("binary mlp: test AUC " << auc << ", accuracy " << accuracy << " after " << mlp->epochs()
                                             << " epochs");
  BOOST_TEST(auc > 0.9);
  BOOST_TEST(accuracy > 0.8);
}

BOOST_AUTO_TEST_CASE(binary_models_serialize_round_trip_bit_identically) {
  const Data d = logistic_data(150, 6, 9);
  MlpParams mlp_params;
  mlp_params.hidden = {8};
  mlp_params.max_epochs = 15;
  for (auto& estimator : {make_lasso(fixed(0.01), Task::Binary), make_mlp(mlp_params, Task::Binary)}) {
    BOOST_TEST_CONTEXT(estimator->name()) {
      auto model = estimator->fit(d.X, d.y, FitOptions{3, 1, {}, nullptr});
      const std::string bytes = model->serialize();
      BOOST_TEST(bytes.find("logistic") != std::string::npos);
      auto restored = estimator->deserialize(bytes);
      const Vector a = model->predict(d.X), b = restored->predict(d.X);
      BOOST_TEST((a.array() == b.array()).all());
      BOOST_TEST(restored->serialize() == bytes);
    }
  }
  auto lasso = make_lasso(fixed(0.01), Task::Binary)->fit(d.X, d.y, {});
  BOOST_TEST(static_cast<int>(make_lasso(fixed(0.01))->deserialize(lasso->serialize())->linear()->link) ==
             static_cast<int>(Link::Logistic));
}

BOOST_AUTO_TEST_CASE(binary_estimators_reject_targets_that_are_not_0_or_1) {
  Data d = logistic_data(40, 3, 10);
  MlpParams mlp_params;
  mlp_params.max_epochs = 2;
  for (double bad : {0.5, 2.0, -1.0}) {
    d.y[7] = bad;
    for (auto& estimator : {make_lasso(fixed(0.01), Task::Binary), make_mlp(mlp_params, Task::Binary)}) {
      const std::string name(estimator->name());
      try {
        estimator->fit(d.X, d.y, {});
        BOOST_ERROR(name << " accepted y = " << bad);
      } catch (const InputError& e) {
        const std::string what = e.what();
        BOOST_TEST(what.rfind(name + ":", 0) == 0, what);
        BOOST_TEST(what.find("y[7]") != std::string::npos, what);
      }
    }
  }
  // One class only: no logistic fit exists (the intercept would be infinite).
  BOOST_CHECK_THROW(make_lasso(fixed(0.01), Task::Binary)->fit(d.X, Vector::Zero(40), {}), InputError);
  // The regression modes still take any finite target.
  d.y[7] = 2.0;
  BOOST_CHECK_NO_THROW(make_lasso(fixed(0.01))->fit(d.X, d.y, {}));
}

// [FUSE]'s Lasso ranking, the order of entry on the logistic lasso's path.
BOOST_AUTO_TEST_CASE(logistic_lasso_entry_order_puts_the_strongest_columns_first) {
  Rng rng(21);
  const Index n = 400;
  Matrix X(n, 6);
  Vector y(n);
  for (Index i = 0; i < n; ++i) {
    for (Index j = 0; j < 6; ++j) X(i, j) = static_cast<float>(rng.normal());
    const double margin = 3.0 * X(i, 4) - 1.5 * X(i, 1) + 0.5 * X(i, 2);  // columns 3, 0, 5 are noise
    y[i] = rng.uniform() < 1.0 / (1.0 + std::exp(-margin)) ? 1.0 : 0.0;
  }
  X.col(5).setConstant(2.0f);  // a constant column never enters
  LassoParams params;
  params.n_lambdas = 100;
  params.lambda_min_ratio = 1e-4;
  const std::vector<Index> order = logistic_lasso_entry_order(params, X, y);
  BOOST_REQUIRE(order.size() == 6u);
  BOOST_TEST(order[0] == 4);
  BOOST_TEST(order[1] == 1);
  BOOST_TEST(order[2] == 2);
  BOOST_TEST(order[5] == 5);
  BOOST_TEST(logistic_lasso_entry_order(params, X, y) == order);
  BOOST_CHECK_THROW(logistic_lasso_entry_order(params, X, Vector::Ones(n)), InputError);
}
