// `simulate madelon-like`: structure (shape, balanced 0/1 labels, the truth's size, redundant columns as
// exact linear combinations of the informative ones, N(0,1) noise), determinism, the clusters' separability and
// bad values. Structure, not NumPy equality.
#include <Eigen/Dense>
#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <cstring>
#include <limits>

#include "core/error.hpp"
#include "expect_error.hpp"
#include "simulate/madelon.hpp"

using namespace bfs;
using bfs::test::expect_config_error;

namespace {

MadelonSpec small_spec(std::uint64_t seed = 7) {
  MadelonSpec spec;
  spec.n = 1000;
  spec.p = 60;
  spec.informative = 5;
  spec.redundant = 10;
  spec.seed = seed;
  return spec;
}

bool same_bytes(const Dataset& a, const Dataset& b) {
  return a.X.size() == b.X.size() && a.y.size() == b.y.size() &&
         std::memcmp(a.X.data(), b.X.data(), sizeof(float) * static_cast<std::size_t>(a.X.size())) == 0 &&
         std::memcmp(a.y.data(), b.y.data(), sizeof(double) * static_cast<std::size_t>(a.y.size())) == 0 &&
         a.truth == b.truth;
}

/// The columns of `data` in `cols`, as doubles.
Eigen::MatrixXd columns_of(const Dataset& data, const std::vector<FeatureId>& cols) {
  Eigen::MatrixXd m(data.rows(), static_cast<Index>(cols.size()));
  for (Index j = 0; j < m.cols(); ++j) m.col(j) = data.X.col(cols[static_cast<std::size_t>(j)]).cast<double>();
  return m;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(madelon)

BOOST_AUTO_TEST_CASE(shape_labels_and_truth) {
  const MadelonSpec spec = small_spec();
  const Dataset d = simulate_madelon_like(spec);
  BOOST_TEST(d.rows() == 1000);
  BOOST_TEST(d.cols() == 60);
  BOOST_TEST(d.feature_names.size() == 60U);
  BOOST_TEST(d.feature_names.front() == "x1");
  BOOST_TEST(d.feature_names.back() == "x60");
  BOOST_TEST(d.has_truth);
  BOOST_REQUIRE(d.truth.size() == 15U);
  BOOST_TEST(std::is_sorted(d.truth.begin(), d.truth.end()));
  BOOST_TEST((std::adjacent_find(d.truth.begin(), d.truth.end()) == d.truth.end()));
  BOOST_TEST(d.truth.front() >= 0);
  BOOST_TEST(d.truth.back() < 60);
  double ones = 0;
  for (Index i = 0; i < d.rows(); ++i) {
    BOOST_TEST((d.y(i) == 0.0 || d.y(i) == 1.0));
    ones += d.y(i);
  }
  // 500 of each class before flipping; flip_y 0.01 changes about 5 labels.
  BOOST_TEST(std::abs(ones - 500.0) <= 25.0);
  // Default spec: the specification's 4400 × 500 with 20 relevant columns.
  const MadelonSpec defaults;
  BOOST_TEST(defaults.n == 4400);
  BOOST_TEST(defaults.p == 500);
  BOOST_TEST(defaults.informative + defaults.redundant == 20);
}

BOOST_AUTO_TEST_CASE(redundant_columns_are_linear_combinations) {
  const Dataset d = simulate_madelon_like(small_spec());
  const Eigen::MatrixXd T = columns_of(d, d.truth);
  // Rank of the 15 truth columns is 5: singular values beyond the fifth vanish (float rounding only).
  const Eigen::JacobiSVD<Eigen::MatrixXd> svd(T);
  const Eigen::VectorXd s = svd.singularValues();
  BOOST_TEST(s(4) > 1.0);
  BOOST_TEST(s(5) < 1e-4 * s(0));
  // Any 5 truth columns that span the rank explain each other truth column by least squares to float precision.
  Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(T.rows(), T.cols());
  qr.setThreshold(1e-5);
  qr.compute(T);
  BOOST_TEST(qr.rank() == 5);
  // Least squares of all 15 on the 5 pivot columns: the residual is float rounding.
  Eigen::MatrixXd basis(T.rows(), 5);
  for (Index k = 0; k < 5; ++k) basis.col(k) = T.col(qr.colsPermutation().indices()(k));
  const Eigen::MatrixXd coef = basis.colPivHouseholderQr().solve(T);
  BOOST_TEST((basis * coef - T).norm() < 1e-5 * T.norm());
  // A truth column with a noise column added does not fit: the test has power.
  std::vector<FeatureId> noise;
  for (FeatureId j = 0; j < 60; ++j)
    if (!std::binary_search(d.truth.begin(), d.truth.end(), j)) noise.push_back(j);
  Eigen::MatrixXd with_noise(T.rows(), 16);
  with_noise << T, columns_of(d, {noise.front()});
  const Eigen::JacobiSVD<Eigen::MatrixXd> svd2(with_noise);
  BOOST_TEST(svd2.singularValues()(5) > 1.0);
}

BOOST_AUTO_TEST_CASE(noise_columns_are_standard_normal) {
  MadelonSpec spec = small_spec();
  spec.n = 4000;
  const Dataset d = simulate_madelon_like(spec);
  double sum = 0, sq = 0, count = 0;
  for (FeatureId j = 0; j < 60; ++j) {
    if (std::binary_search(d.truth.begin(), d.truth.end(), j)) continue;
    double m = 0, v = 0;
    for (Index i = 0; i < d.rows(); ++i) m += d.X(i, j);
    m /= static_cast<double>(d.rows());
    for (Index i = 0; i < d.rows(); ++i) v += (d.X(i, j) - m) * (d.X(i, j) - m);
    v /= static_cast<double>(d.rows());
    BOOST_TEST(std::abs(m) < 0.08);  // SE 1/√4000 ≈ 0.016: 5 SE
    BOOST_TEST(std::abs(v - 1.0) < 0.12);
    // Uncorrelated with the label.
    double c = 0;
    for (Index i = 0; i < d.rows(); ++i) c += (d.X(i, j) - m) * (d.y(i) - 0.5);
    BOOST_TEST(std::abs(c / static_cast<double>(d.rows()) / std::sqrt(v) / 0.5) < 0.08);
    sum += m;
    sq += v;
    ++count;
  }
  BOOST_TEST(count == 45.0);
  BOOST_TEST(std::abs(sum / count) < 0.02);
  BOOST_TEST(std::abs(sq / count - 1.0) < 0.03);
}

BOOST_AUTO_TEST_CASE(deterministic_by_seed) {
  const Dataset a = simulate_madelon_like(small_spec(7));
  const Dataset b = simulate_madelon_like(small_spec(7));
  const Dataset c = simulate_madelon_like(small_spec(8));
  BOOST_TEST(same_bytes(a, b));
  BOOST_TEST(!same_bytes(a, c));
}

BOOST_AUTO_TEST_CASE(clusters_separate_without_flips) {
  MadelonSpec spec = small_spec(3);
  spec.flip_y = 0.0;
  spec.n = 1600;
  spec.redundant = 0;  // so the truth is the informative columns, in their own metric
  const Dataset d = simulate_madelon_like(spec);
  double ones = 0;
  for (Index i = 0; i < d.rows(); ++i) ones += d.y(i);
  BOOST_TEST(ones == 800.0);  // exactly balanced without flips
  // Leave-one-out 1-NN on the informative columns: about 11% here, against 50% by chance. (scikit-learn's
  // make_classification gives about 4%: with all 2^5 vertices in use it takes them in order, so the class is the sign
  // of one coordinate; here, as in Guyon's generator, the vertices are labelled at random.)
  BOOST_REQUIRE(d.truth.size() == 5U);
  const Eigen::MatrixXd Z = columns_of(d, d.truth);
  Index errors = 0;
  for (Index i = 0; i < Z.rows(); ++i) {
    double best = std::numeric_limits<double>::infinity();
    Index nearest = -1;
    for (Index k = 0; k < Z.rows(); ++k) {
      if (k == i) continue;
      const double dist = (Z.row(i) - Z.row(k)).squaredNorm();
      if (dist < best) {
        best = dist;
        nearest = k;
      }
    }
    if (d.y(nearest) != d.y(i)) ++errors;
  }
  BOOST_TEST_MESSAGE("1-NN leave-one-out errors: " << errors << " of " << Z.rows());
  BOOST_TEST(errors < Z.rows() / 5);
}

BOOST_AUTO_TEST_CASE(bad_values_name_the_option) {
  const auto with = [](auto change) {
    MadelonSpec spec = small_spec();
    change(spec);
    return [spec] { (void)simulate_madelon_like(spec); };
  };
  expect_config_error(with([](MadelonSpec& s) { s.n = 31; }), "--n");
  expect_config_error(with([](MadelonSpec& s) { s.n = -1; }), "--n");
  expect_config_error(with([](MadelonSpec& s) { s.p = 0; }), "--p");
  expect_config_error(with([](MadelonSpec& s) { s.informative = 4; }), "--informative");
  expect_config_error(with([](MadelonSpec& s) { s.informative = -5; }), "--informative");
  expect_config_error(with([](MadelonSpec& s) { s.redundant = -1; }), "--redundant");
  expect_config_error(with([](MadelonSpec& s) { s.redundant = 56; }), "exceed --p");
  expect_config_error(with([](MadelonSpec& s) { s.class_sep = 0.0; }), "--class-sep");
  expect_config_error(with([](MadelonSpec& s) { s.class_sep = std::numeric_limits<double>::infinity(); }),
                      "--class-sep");
  // Finite, but X would not be (float), or its squares would overflow: refused naming the option, not "X has +Inf".
  expect_config_error(with([](MadelonSpec& s) { s.class_sep = 1e308; }), "--class-sep 1e+308 is too large");
  expect_config_error(with([](MadelonSpec& s) { s.class_sep = 1e30; }), "--class-sep 1e+30 is too large");
  expect_config_error(with([](MadelonSpec& s) { s.flip_y = 1.5; }), "--flip-y");
  expect_config_error(with([](MadelonSpec& s) { s.flip_y = -0.1; }), "--flip-y");
  expect_config_error(with([](MadelonSpec& s) { s.flip_y = std::nan(""); }), "--flip-y");
  // The limits themselves are accepted.
  MadelonSpec edge = small_spec();
  edge.n = 32;
  edge.p = 15;
  edge.flip_y = 1.0;
  BOOST_TEST(simulate_madelon_like(edge).cols() == 15);
}

BOOST_AUTO_TEST_SUITE_END()
