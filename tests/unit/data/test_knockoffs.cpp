// Gaussian model-X knockoffs (data/knockoffs.hpp, [TVS §7.2]): the knockoff property of the joint covariance of
// [X, X̃] (each entry within 3 standard errors at n = 20 000), the equicorrelated s, names and column order, the
// draws keyed by (seed, period, row) only, a singular covariance (Ledoit–Wolf), and data.knockoffs through
// make_data_source.
#include <omp.h>

#include <Eigen/Eigenvalues>
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <cstring>

#include "core/error.hpp"
#include "data/knockoffs.hpp"
#include "data/source.hpp"
#include "run/data_sources.hpp"
#include "test_util.hpp"

using namespace bfs;
using bfs::test::expect_error;
using bfs::test::random_dataset;

namespace {

constexpr Index kRows = 20000;

bool same_bits(const Matrix& a, const Matrix& b) {
  return a.rows() == b.rows() && a.cols() == b.cols() &&
         std::memcmp(a.data(), b.data(), sizeof(float) * static_cast<std::size_t>(a.size())) == 0;
}

/// n rows of N(μ, Σ) with Σ = diag(σ) R diag(σ), drawn as L z (L the Cholesky factor of Σ).
Dataset gaussian_rows(Index n, const Eigen::Vector3d& mu, const Eigen::Matrix3d& sigma, std::uint64_t seed) {
  const Eigen::Matrix3d L = sigma.llt().matrixL();
  Rng rng(seed);
  Dataset d;
  d.X.resize(n, 3);
  d.y = Vector::Zero(n);
  for (Index i = 0; i < n; ++i) {
    const Eigen::Vector3d z(rng.normal(), rng.normal(), rng.normal());
    d.X.row(i) = (mu + L * z).cast<float>().transpose();
  }
  d.feature_names = {"a", "b", "c"};
  d.origin = "gaussian";
  return d;
}

/// Sample covariance (divisor n − 1) of X's columns.
Eigen::MatrixXd sample_covariance(const Matrix& X) {
  Eigen::MatrixXd Z = X.cast<double>();
  Z.rowwise() -= Z.colwise().mean();
  return Z.transpose() * Z / static_cast<double>(X.rows() - 1);
}

Eigen::Matrix3d example_sigma() {
  Eigen::Matrix3d R;
  R << 1.0, 0.6, 0.3, 0.6, 1.0, 0.5, 0.3, 0.5, 1.0;
  const Eigen::Vector3d sd(1.0, 2.0, 0.5);
  return sd.asDiagonal() * R * sd.asDiagonal();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(knockoffs)

BOOST_AUTO_TEST_CASE(the_joint_covariance_has_the_knockoff_property) {
  Dataset d = gaussian_rows(kRows, Eigen::Vector3d(1.0, -2.0, 0.0), example_sigma(), 3);
  const GaussianKnockoffModel model = append_gaussian_knockoffs(d, 11, 0);
  BOOST_TEST(model.shrinkage == 0.0);  // well conditioned: the sample covariance itself
  BOOST_TEST_REQUIRE(d.cols() == 6);
  const Eigen::MatrixXd sigma = sample_covariance(Matrix(d.X.leftCols(3)));
  BOOST_TEST((model.covariance() - sigma).cwiseAbs().maxCoeff() < 1e-9);

  // s = min(1, 2 λ_min(C)) on the correlation scale; diag(s) on Σ's scale is s σ_j².
  const Eigen::VectorXd sd = sigma.diagonal().cwiseSqrt();
  const Eigen::MatrixXd C = sd.cwiseInverse().asDiagonal() * sigma * sd.cwiseInverse().asDiagonal();
  const double lambda_min = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(C).eigenvalues()[0];
  BOOST_TEST_REQUIRE(model.s.size() == 3);
  for (Index j = 0; j < 3; ++j)
    BOOST_TEST(model.s[j] == std::min(1.0, 2.0 * lambda_min), boost::test_tools::tolerance(1e-9));
  const Eigen::MatrixXd D = model.s.cwiseProduct(sigma.diagonal()).asDiagonal();

  // The target: Cov([X, X̃]) = [[Σ, Σ − D], [Σ − D, Σ]]; an entry's standard error √((T_jk² + T_jj T_kk)/n).
  Eigen::MatrixXd target(6, 6);
  target << sigma, sigma - D, sigma - D, sigma;
  const Eigen::MatrixXd joint = sample_covariance(d.X);
  for (Index j = 0; j < 6; ++j) {
    for (Index k = j; k < 6; ++k) {
      if (k < 3) continue;  // Cov(X) is Σ by definition
      const double se = std::sqrt((target(j, k) * target(j, k) + target(j, j) * target(k, k)) / kRows);
      BOOST_TEST_INFO("entry (" << j << ", " << k << "): " << joint(j, k) << " vs " << target(j, k));
      BOOST_TEST(std::abs(joint(j, k) - target(j, k)) < 3 * se);
    }
  }
  for (Index j = 0; j < 3; ++j) {  // E X̃ = μ
    const double mean = d.X.col(3 + j).cast<double>().mean();
    BOOST_TEST(std::abs(mean - model.mean[j]) < 3 * std::sqrt(sigma(j, j) / kRows));
  }
}

BOOST_AUTO_TEST_CASE(names_and_order_put_knockoffs_between_data_and_noise) {
  Dataset d = random_dataset(50, 3);
  append_noise_features(d, 2, 9, 0, 0);
  const Matrix before = d.X;
  append_gaussian_knockoffs(d, 4, 0, 3);
  BOOST_TEST(
      d.feature_names == std::vector<std::string>({"x1", "x2", "x3", "ko_x1", "ko_x2", "ko_x3", "noise1", "noise2"}),
      boost::test_tools::per_element());
  BOOST_TEST(same_bits(Matrix(d.X.leftCols(3)), Matrix(before.leftCols(3))));
  BOOST_TEST(same_bits(Matrix(d.X.rightCols(2)), Matrix(before.rightCols(2))));
  BOOST_TEST(d.X.allFinite());
  BOOST_TEST(knockoff_name("x7") == "ko_x7");
}

BOOST_AUTO_TEST_CASE(draws_depend_on_seed_period_and_row_only) {
  const Dataset d = gaussian_rows(400, Eigen::Vector3d::Zero(), example_sigma(), 8);
  const GaussianKnockoffModel model = fit_gaussian_knockoffs(d.X, d.origin);
  const Matrix all = sample_gaussian_knockoffs(d.X, model, 21, 2);
  BOOST_TEST(same_bits(all, sample_gaussian_knockoffs(d.X, model, 21, 2)));
  BOOST_TEST(!same_bits(all, sample_gaussian_knockoffs(d.X, model, 22, 2)));
  BOOST_TEST(!same_bits(all, sample_gaussian_knockoffs(d.X, model, 21, 3)));
  // A block of rows, keyed by its first row, gives the whole's values: any split over ranks agrees.
  const Matrix block = sample_gaussian_knockoffs(Matrix(d.X.middleRows(100, 50)), model, 21, 2, 100);
  BOOST_TEST(same_bits(block, Matrix(all.middleRows(100, 50))));
  // So does any thread count, for the fit and the draws.
  const int threads = omp_get_max_threads();
  omp_set_num_threads(1);
  Dataset one = d;
  append_gaussian_knockoffs(one, 21, 2);
  omp_set_num_threads(2);
  Dataset two = d;
  append_gaussian_knockoffs(two, 21, 2);
  omp_set_num_threads(threads);
  BOOST_TEST(same_bits(one.X, two.X));
  BOOST_TEST(same_bits(Matrix(one.X.rightCols(3)), all));
}

BOOST_AUTO_TEST_CASE(a_singular_covariance_is_shrunk_and_still_gives_knockoffs) {
  Dataset d = gaussian_rows(kRows, Eigen::Vector3d::Zero(), example_sigma(), 5);
  Matrix X(d.rows(), 4);
  X << d.X, d.X.col(0);  // x4 duplicates x1: Σ is singular
  d.X = X;
  d.feature_names.push_back("a_again");
  const GaussianKnockoffModel model = append_gaussian_knockoffs(d, 6, 0);
  BOOST_TEST(model.shrinkage > 0.0);
  BOOST_TEST(model.shrinkage < 0.05);  // Ledoit–Wolf's weight is small at n = 20 000
  BOOST_TEST(model.lambda_min >= 1e-6);
  BOOST_TEST(model.s.minCoeff() > 0.0);
  BOOST_TEST(d.cols() == 8);
  BOOST_TEST(d.X.allFinite());
  BOOST_TEST(!same_bits(Matrix(d.X.col(4)), Matrix(d.X.col(0))));
  // Still a knockoff of the shrunk model: Cov(X̃_j, X̃_j) ≈ Σ*_jj.
  const Eigen::MatrixXd joint = sample_covariance(d.X), shrunk = model.covariance();
  for (Index j = 0; j < 4; ++j)
    BOOST_TEST(std::abs(joint(4 + j, 4 + j) / shrunk(j, j) - 1.0) < 3 * std::sqrt(2.0 / kRows));

  // Fewer rows than columns, and a constant column (its own knockoff).
  Dataset wide = random_dataset(5, 10, 3);
  wide.X.col(2).setConstant(1.5f);
  const GaussianKnockoffModel few = append_gaussian_knockoffs(wide, 6, 0);
  BOOST_TEST(few.shrinkage > 0.0);
  BOOST_TEST(few.varying.size() == 9u);
  BOOST_TEST(wide.X.allFinite());
  BOOST_TEST((wide.X.col(12).array() == 1.5f).all());
  expect_error<InputError>(
      [] {
        Dataset one_row = random_dataset(1, 3);
        append_gaussian_knockoffs(one_row, 1, 0);
      },
      "needs at least 2 rows");
}

BOOST_AUTO_TEST_CASE(data_knockoffs_in_make_data_source) {
  DataConfig c;
  c.dgp = Dgp::Linear;
  c.n = 200;
  c.p = 6;
  c.periods = 3;
  c.noise_features = 2;
  c.knockoffs = Knockoffs::Gaussian;
  auto source = make_data_source(c, 77, true);
  BOOST_TEST(source->num_features() == 14);
  const std::vector<std::string>& names = source->feature_names();
  BOOST_TEST(names[5] == "x6");
  BOOST_TEST(names[6] == "ko_x1");
  BOOST_TEST(names[11] == "ko_x6");
  BOOST_TEST(names[12] == "noise1");
  BOOST_TEST(source->describe().find("gaussian knockoffs") != std::string::npos);
  c.knockoffs = Knockoffs::None;
  auto plain = make_data_source(c, 77, true);
  for (int k : {0, 2}) {
    const Dataset with = source->load_period(k), without = plain->load_period(k);
    BOOST_TEST(with.feature_names == names, boost::test_tools::per_element());
    BOOST_TEST(same_bits(Matrix(with.X.leftCols(6)), Matrix(without.X.leftCols(6))));
    BOOST_TEST(same_bits(Matrix(with.X.rightCols(2)), Matrix(without.X.rightCols(2))));
    Dataset expected = plain->load_period(k);  // period k's knockoffs: fitted on its rows, drawn from (seed, k, row)
    append_gaussian_knockoffs(expected, 77, k, 6);
    BOOST_TEST(same_bits(with.X, expected.X));
  }
  // A column that already has a knockoff's name.
  Dataset clash = random_dataset(20, 2);
  clash.feature_names = {"a", "ko_a"};
  expect_error<InputError>([&] { with_gaussian_knockoffs(make_memory_source(clash, false, 0, 1), 0, 1); },
                           "column 'ko_a' clashes");
}

// data.knockoffs = "gaussian-sdp": s maximises Σ s_j subject to 0 ≤ s ≤ 1 and 2C − diag(s) ⪰ 0.
BOOST_AUTO_TEST_CASE(sdp_s_is_feasible_and_beats_equicorrelated_where_columns_are_collinear) {
  // Two nearly collinear columns (correlation 0.99) and two independent ones: equicorrelated gives every column
  // s = 2 λ_min = 0.02; the SDP's optimum keeps s = 1 for the independent columns and s_0 + s_1 = 0.04 for the pair
  // ((2 − s_0)(2 − s_1) ≥ 4·0.99² bounds the sum by 2(2 − 2·0.99), reached at s_0 = s_1; the objective is flat along
  // s_0 − s_1 near it, so only the sum is checked).
  Eigen::MatrixXd C = Eigen::MatrixXd::Identity(4, 4);
  C(0, 1) = C(1, 0) = 0.99;
  const Eigen::VectorXd s = sdp_knockoff_s(C.inverse());
  BOOST_TEST(s.minCoeff() >= 0.0);
  BOOST_TEST(s.maxCoeff() <= 1.0);
  const Eigen::MatrixXd slack = 2.0 * C - Eigen::MatrixXd(s.asDiagonal());
  BOOST_TEST(Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(slack).eigenvalues()[0] >= 0.0);
  BOOST_TEST(s[2] > 0.99);
  BOOST_TEST(s[3] > 0.99);
  BOOST_TEST(std::abs(s[0] + s[1] - 0.04) < 1e-3);
  // Equicorrelated for the same C: 2 λ_min everywhere.
  BOOST_TEST(s.sum() > 4 * 2.0 * 0.01 + 1.9);
}

BOOST_AUTO_TEST_CASE(sdp_knockoffs_have_the_knockoff_property) {
  Dataset d = gaussian_rows(kRows, Eigen::Vector3d(1.0, -2.0, 0.0), example_sigma(), 5);
  const GaussianKnockoffModel model = append_gaussian_knockoffs(d, 13, 0, -1, KnockoffConstruction::Sdp);
  const Eigen::MatrixXd sigma = sample_covariance(Matrix(d.X.leftCols(3)));
  const Eigen::MatrixXd D = model.s.cwiseProduct(sigma.diagonal()).asDiagonal();
  BOOST_TEST(model.s.sum() > 3 * std::min(1.0, 2.0 * model.lambda_min));  // more than equicorrelated's
  Eigen::MatrixXd target(6, 6);
  target << sigma, sigma - D, sigma - D, sigma;
  const Eigen::MatrixXd joint = sample_covariance(d.X);
  for (Index j = 0; j < 6; ++j) {
    for (Index k = std::max<Index>(j, 3); k < 6; ++k) {
      const double se = std::sqrt((target(j, k) * target(j, k) + target(j, j) * target(k, k)) / kRows);
      BOOST_TEST_INFO("entry (" << j << ", " << k << "): " << joint(j, k) << " vs " << target(j, k));
      BOOST_TEST(std::abs(joint(j, k) - target(j, k)) < 3 * se);
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()
