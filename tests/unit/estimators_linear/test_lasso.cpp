// LASSO: sparse recovery, OLS limit, KKT conditions, λ_max, linear() vs predict(), CV, serialization, bad input.
#include <Eigen/QR>
#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <cmath>

#include "core/error.hpp"
#include "core/rng.hpp"
#include "estimators/estimator.hpp"
#include "estimators/lasso.hpp"

using namespace bfs;

namespace {

struct Data {
  Matrix X;
  Vector y;
};

/// y = 3·x1 − 2·x3 + noise·ε with p standard-normal columns (shifted and scaled so standardisation matters).
Data sparse_data(Index n, Index p, std::uint64_t seed, double noise = 0.5) {
  Rng rng = Rng::stream(seed, 0, 0, Purpose::Simulate);
  Data d{Matrix(n, p), Vector(n)};
  for (Index i = 0; i < n; ++i) {
    for (Index j = 0; j < p; ++j) d.X(i, j) = static_cast<float>(1.0 + 0.5 * static_cast<double>(j) + rng.normal());
    d.y[i] = 3.0 * d.X(i, 1) - 2.0 * d.X(i, 3) + noise * rng.normal();
  }
  return d;
}

const LassoModel& as_lasso(const std::unique_ptr<Model>& model) {
  const auto* lasso = dynamic_cast<const LassoModel*>(model.get());
  BOOST_REQUIRE(lasso != nullptr);
  return *lasso;
}

LassoParams fixed(double lambda, double tol = 1e-7) {
  LassoParams params;
  params.lambda = lambda;
  params.tol = tol;
  params.max_iter = 100000;
  return params;
}

}  // namespace

BOOST_AUTO_TEST_CASE(lasso_recovers_the_sparse_support) {
  const Data d = sparse_data(300, 20, 1);
  auto model = make_lasso(fixed(0.3))->fit(d.X, d.y, {});
  const Vector& coef = model->linear()->coef;
  BOOST_REQUIRE_EQUAL(coef.size(), 20);
  for (Index j = 0; j < 20; ++j)
    BOOST_TEST((coef[j] != 0.0) == (j == 1 || j == 3), "feature " << j << " coef " << coef[j]);
  BOOST_TEST(coef[1] > 2.5);
  BOOST_TEST(coef[3] < -1.5);
}

BOOST_AUTO_TEST_CASE(lasso_with_tiny_lambda_matches_ols) {
  const Data d = sparse_data(300, 20, 2);
  auto model = make_lasso(fixed(1e-10, 1e-20))->fit(d.X, d.y, {});
  Eigen::MatrixXd A(300, 21);
  A.col(0).setOnes();
  A.rightCols(20) = d.X.cast<double>();
  const Vector ols = A.colPivHouseholderQr().solve(d.y);
  BOOST_TEST(std::abs(model->linear()->intercept - ols[0]) < 1e-5);
  for (Index j = 0; j < 20; ++j) BOOST_TEST(std::abs(model->linear()->coef[j] - ols[j + 1]) < 1e-6, "feature " << j);
}

BOOST_AUTO_TEST_CASE(lasso_solution_satisfies_kkt) {
  const Data d = sparse_data(200, 30, 3, 2.0);
  const double lambda = 0.05;
  auto model = make_lasso(fixed(lambda, 1e-20))->fit(d.X, d.y, {});
  const Index n = d.X.rows();
  Eigen::MatrixXd xs = d.X.cast<double>();
  Vector mean = xs.colwise().mean().transpose();
  xs.rowwise() -= mean.transpose();
  Vector sd = (xs.colwise().squaredNorm() / static_cast<double>(n)).cwiseSqrt().transpose();
  xs = xs * sd.cwiseInverse().asDiagonal();
  const Vector beta = model->linear()->coef.cwiseProduct(sd);  // standardised coefficients
  const Vector r = (d.y.array() - d.y.mean()).matrix() - xs * beta;
  const Vector grad = xs.transpose() * r / static_cast<double>(n);
  int nonzero = 0;
  for (Index j = 0; j < d.X.cols(); ++j) {
    if (beta[j] == 0.0) {
      BOOST_TEST(std::abs(grad[j]) <= lambda + 1e-8, "feature " << j);
    } else {
      ++nonzero;
      BOOST_TEST(std::abs(grad[j] - lambda * (beta[j] > 0 ? 1.0 : -1.0)) < 1e-8, "feature " << j);
    }
  }
  BOOST_TEST(nonzero >= 2);
  BOOST_TEST(nonzero < 30);
}

BOOST_AUTO_TEST_CASE(lambda_at_or_above_lambda_max_gives_all_zeros) {
  const Data d = sparse_data(100, 10, 4);
  const double lambda_max = lasso_lambda_path(d.X, d.y, 1, 1.0).at(0);
  BOOST_TEST(lambda_max > 0.0);
  for (double lambda : {lambda_max, 2.0 * lambda_max}) {
    auto model = make_lasso(fixed(lambda))->fit(d.X, d.y, {});
    BOOST_TEST(model->linear()->coef.isZero(0.0));
    BOOST_TEST(model->linear()->intercept == d.y.mean(), boost::test_tools::tolerance(1e-12));
  }
  auto below = make_lasso(fixed(0.99 * lambda_max))->fit(d.X, d.y, {});
  BOOST_TEST(!below->linear()->coef.isZero(0.0));
}

BOOST_AUTO_TEST_CASE(linear_structure_reproduces_predict) {
  const Data d = sparse_data(240, 50, 5, 1.0);
  auto model = make_lasso(fixed(0.02))->fit(d.X, d.y, {});
  const LinearStructure& lin = *model->linear();
  const Vector direct = (d.X.cast<double>() * lin.coef).array() + lin.intercept;
  const Vector pred = model->predict(d.X);
  BOOST_TEST((pred - direct).cwiseAbs().maxCoeff() < 1e-12);
  // The importance fast path: permuting column k moves each prediction by exactly coef_k·(x_perm − x).
  Rng rng(9);
  const auto perm = rng.permutation(d.X.rows());
  for (Index k : {Index{1}, Index{3}, Index{7}}) {
    Matrix Xp = d.X;
    for (Index i = 0; i < Xp.rows(); ++i) Xp(i, k) = d.X(perm[static_cast<std::size_t>(i)], k);
    const Vector moved = model->predict(Xp);
    for (Index i = 0; i < Xp.rows(); ++i) {
      const double fast = pred[i] + lin.coef[k] * (static_cast<double>(Xp(i, k)) - static_cast<double>(d.X(i, k)));
      BOOST_TEST(std::abs(moved[i] - fast) < 1e-9);
    }
  }
}

BOOST_AUTO_TEST_CASE(constant_column_gets_zero_coefficient) {
  Data d = sparse_data(100, 6, 6);
  for (Index i = 0; i < d.X.rows(); ++i) d.X(i, 4) = 2.5f;
  auto model = make_lasso(fixed(1e-6))->fit(d.X, d.y, {});
  BOOST_TEST(model->linear()->coef[4] == 0.0);
  BOOST_TEST(model->linear()->coef[1] > 2.5);
}

BOOST_AUTO_TEST_CASE(cross_validation_picks_a_path_lambda_that_predicts) {
  const Data d = sparse_data(240, 40, 7, 1.0);
  const Data fresh = sparse_data(1000, 40, 8, 1.0);
  LassoParams params;
  params.cv_folds = 5;
  auto model = make_lasso(params)->fit(d.X, d.y, FitOptions{11, 1, {}, nullptr});
  const LassoModel& lasso = as_lasso(model);
  const auto& path = lasso.lambda_path();
  BOOST_REQUIRE(path.size() >= 5u);  // the path may end early (glmnet's rule), never before 5 values
  BOOST_REQUIRE(path.size() <= static_cast<std::size_t>(params.n_lambdas));
  BOOST_REQUIRE_EQUAL(lasso.cv_loss().size(), path.size());
  BOOST_TEST(path.front() == lasso_lambda_path(d.X, d.y, params.n_lambdas, params.lambda_min_ratio).front());
  BOOST_TEST((std::find(path.begin(), path.end(), lasso.lambda()) != path.end()));
  BOOST_TEST(lasso.lambda() < path.front());
  auto huge = make_lasso(fixed(1e6))->fit(d.X, d.y, {});
  auto mse = [&](const Model& m) { return (m.predict(fresh.X) - fresh.y).squaredNorm() / 1000.0; };
  BOOST_TEST(mse(*model) < 0.5 * mse(*huge));
  BOOST_TEST(mse(*model) < 1.3);  // noise variance is 1
  // The one-SE rule picks a λ at least as large; the same seed gives the same choice.
  params.one_se_rule = true;
  auto one_se = make_lasso(params)->fit(d.X, d.y, FitOptions{11, 1, {}, nullptr});
  BOOST_TEST(as_lasso(one_se).lambda() >= lasso.lambda());
  params.one_se_rule = false;
  auto again = make_lasso(params)->fit(d.X, d.y, FitOptions{11, 2, {}, nullptr});
  BOOST_TEST(as_lasso(again).lambda() == lasso.lambda());
  BOOST_TEST((again->linear()->coef - lasso.linear()->coef).isZero(0.0));
}

BOOST_AUTO_TEST_CASE(lasso_wide_data_is_sparse) {
  const Data d = sparse_data(240, 500, 12, 1.0);
  auto model = make_lasso(fixed(0.2))->fit(d.X, d.y, {});
  const Vector& coef = model->linear()->coef;
  BOOST_TEST(coef[1] > 2.0);
  BOOST_TEST(coef[3] < -1.0);
  BOOST_TEST((coef.array() != 0.0).count() < 20);
}

BOOST_AUTO_TEST_CASE(lasso_serialize_round_trip_is_bit_identical) {
  const Data d = sparse_data(150, 12, 9, 1.0);
  auto estimator = make_lasso(fixed(0.01));
  auto model = estimator->fit(d.X, d.y, {});
  const std::string bytes = model->serialize();
  auto restored = estimator->deserialize(bytes);
  BOOST_TEST(restored->num_features() == 12);
  BOOST_TEST(restored->linear()->intercept == model->linear()->intercept);
  BOOST_TEST((restored->linear()->coef.array() == model->linear()->coef.array()).all());
  const Vector a = model->predict(d.X), b = restored->predict(d.X);
  BOOST_TEST((a.array() == b.array()).all());
  BOOST_TEST(as_lasso(restored).lambda() == 0.01);
  BOOST_TEST(restored->serialize() == bytes);
  BOOST_CHECK_THROW(estimator->deserialize("banditfs-mlp 1\n"), InputError);
  BOOST_CHECK_THROW(estimator->deserialize(bytes.substr(0, bytes.size() / 2)), InputError);
}

BOOST_AUTO_TEST_CASE(lasso_rejects_bad_input) {
  auto estimator = make_lasso(LassoParams{});
  BOOST_CHECK_THROW(estimator->fit(Matrix(0, 3), Vector(0), {}), InputError);
  BOOST_CHECK_THROW(estimator->fit(Matrix::Zero(5, 0), Vector::Zero(5), {}), InputError);
  BOOST_CHECK_THROW(estimator->fit(Matrix::Zero(5, 2), Vector::Zero(4), {}), InputError);
  try {
    estimator->fit(Matrix::Zero(5, 2), Vector::Zero(4), {});
  } catch (const InputError& e) {
    BOOST_TEST(std::string(e.what()).find("5 rows") != std::string::npos);
  }
  LassoParams bad;
  bad.lambda = -1.0;
  BOOST_CHECK_THROW(make_lasso(bad), ConfigError);
  auto model = estimator->fit(Matrix::Ones(4, 2), Vector::Ones(4), {});
  BOOST_CHECK_THROW(model->predict(Matrix::Zero(3, 5)), InputError);
}
