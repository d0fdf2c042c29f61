// [TVS §6.1]'s friedman1-corr and forest designs: their x moments (each within 3 standard errors at n = 20 000),
// the forest's trees (drawn once from the seed: the same f for every batch; the BART prior's structure), its noise
// variance, determinism.
#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <cstring>
#include <numbers>
#include <span>

#include "column_moments.hpp"
#include "core/error.hpp"
#include "core/rng.hpp"
#include "simulate/dgp.hpp"
#include "simulate/prior_forest.hpp"

using namespace bfs;

namespace {

constexpr Index kRows = 20000;

double corr(const Matrix& X, Index a, Index b) {
  return test::column_correlation(X, a, b);
}

double variance(const Eigen::VectorXd& v) {
  return (v.array() - v.mean()).square().sum() / static_cast<double>(v.size() - 1);
}

/// Normal-theory standard error of a sample correlation r at kRows rows, (1 − r²)/√n.
double corr_se(double r) {
  return (1.0 - r * r) / std::sqrt(static_cast<double>(kRows));
}

bool same_bits(const Matrix& a, const Matrix& b) {
  return a.rows() == b.rows() && a.cols() == b.cols() &&
         std::memcmp(a.data(), b.data(), sizeof(float) * static_cast<std::size_t>(a.size())) == 0;
}

std::span<const float> row(const Dataset& d, Index i) {
  return {d.X.data() + i * d.cols(), static_cast<std::size_t>(d.cols())};
}

Eigen::VectorXd residuals(const Dataset& d, const std::function<double(std::span<const float>)>& f) {
  Eigen::VectorXd r(d.rows());
  for (Index i = 0; i < d.rows(); ++i) r[i] = d.y[i] - f(row(d, i));
  return r;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(paper003_designs)

BOOST_AUTO_TEST_CASE(friedman1_corr_has_uniform_marginals_correlated_0_3) {
  const Dataset d = simulate({Dgp::Friedman1Corr, kRows, 8, 31});
  BOOST_TEST(d.X.minCoeff() >= 0.0f);
  BOOST_TEST(d.X.maxCoeff() <= 1.0f);
  const double n = kRows;
  // U(0, 1): mean 1/2, variance 1/12; the sample variance's standard error is √((μ4 − σ⁴)/n), μ4 = 1/80.
  const double mean_se = std::sqrt(1.0 / 12 / n), var_se = std::sqrt((1.0 / 80 - 1.0 / 144) / n);
  for (Index j = 0; j < d.cols(); ++j) {
    const Eigen::VectorXd c = d.X.col(j).cast<double>();
    BOOST_TEST_INFO("column " << j);
    BOOST_TEST(std::abs(c.mean() - 0.5) < 3 * mean_se);
    BOOST_TEST(std::abs(variance(c) - 1.0 / 12) < 3 * var_se);
    for (Index k = j + 1; k < d.cols(); ++k) {
      BOOST_TEST_INFO("columns " << j << ", " << k);
      BOOST_TEST(std::abs(corr(d.X, j, k) - 0.3) < 3 * corr_se(0.3));
    }
  }
}

BOOST_AUTO_TEST_CASE(friedman1_corr_takes_friedman1s_f_and_noise) {
  const Dataset d = simulate({Dgp::Friedman1Corr, 50, 6, 2});
  for (Index i = 0; i < d.rows(); ++i)
    BOOST_TEST(dgp_mean(Dgp::Friedman1Corr, row(d, i)) == dgp_mean(Dgp::Friedman1, row(d, i)));
  BOOST_TEST(dgp_noise_variance(Dgp::Friedman1Corr) == 1.0);
  BOOST_TEST(dgp_truth(Dgp::Friedman1Corr) == std::vector<FeatureId>({0, 1, 2, 3, 4}),
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(forest_x_has_the_ar1_covariance_0_3) {
  const Dataset d = simulate({Dgp::Forest, kRows, 8, 5});
  const double n = kRows;
  for (Index j = 0; j < d.cols(); ++j) {
    const Eigen::VectorXd c = d.X.col(j).cast<double>();
    BOOST_TEST_INFO("column " << j);
    BOOST_TEST(std::abs(c.mean()) < 3 * std::sqrt(1.0 / n));
    BOOST_TEST(std::abs(variance(c) - 1.0) < 3 * std::sqrt(2.0 / n));
    for (Index k = j + 1; k < d.cols(); ++k) {
      const double expected = std::pow(0.3, static_cast<double>(k - j));
      BOOST_TEST_INFO("columns " << j << ", " << k);
      BOOST_TEST(std::abs(corr(d.X, j, k) - expected) < 3 * corr_se(expected));
    }
  }
}

BOOST_AUTO_TEST_CASE(forest_has_one_f_for_every_batch_and_noise_variance_one_half) {
  const SimulateSpec spec{Dgp::Forest, kRows, 8, 77};
  const auto f = dgp_mean_function(spec);
  const double se = 0.5 * std::sqrt(2.0 / (kRows - 1));  // of a normal sample variance
  for (int batch : {0, 3}) {
    const Dataset d = simulate(spec, batch);
    const Eigen::VectorXd r = residuals(d, f);
    BOOST_TEST_INFO("batch " << batch);
    BOOST_TEST(std::abs(r.mean()) < 3 * std::sqrt(0.5 / kRows));
    BOOST_TEST(std::abs(variance(r) - 0.5) < 3 * se);  // another batch's f would leave Var f in the residual
    Eigen::VectorXd fx(d.rows());
    for (Index i = 0; i < d.rows(); ++i) fx[i] = f(row(d, i));
    BOOST_TEST(variance(fx) > 0.1);  // f is a signal, not a constant
  }
  BOOST_TEST(dgp_noise_variance(Dgp::Forest) == 0.5);
}

BOOST_AUTO_TEST_CASE(forest_f_uses_x1_to_x5_and_depends_on_the_seed) {
  const SimulateSpec spec{Dgp::Forest, 200, 8, 77};
  const Dataset d = simulate(spec);
  const auto f = dgp_mean_function(spec);
  const auto g = dgp_mean_function({Dgp::Forest, 200, 8, 78});
  const auto f_again = dgp_mean_function(spec);
  int differ = 0;
  for (Index i = 0; i < d.rows(); ++i) {
    std::vector<float> x(row(d, i).begin(), row(d, i).end());
    const double fx = f(x);
    BOOST_TEST(f_again(x) == fx);
    for (std::size_t j = 5; j < x.size(); ++j) x[j] = 100.0f;  // x6.. are not split on
    BOOST_TEST(f(x) == fx);
    differ += g(x) != fx;
  }
  BOOST_TEST(differ > 150);
  BOOST_CHECK_THROW(dgp_mean(Dgp::Forest, row(d, 0)), ConfigError);  // its f needs the seed
}

BOOST_AUTO_TEST_CASE(same_seed_same_data) {
  for (const Dgp name : {Dgp::Friedman1Corr, Dgp::Forest}) {
    BOOST_TEST_CONTEXT(name_of(name)) {
      const SimulateSpec spec{name, 100, 9, 4};
      const Dataset a = simulate(spec, 2), b = simulate(spec, 2);
      BOOST_TEST(same_bits(a.X, b.X));
      BOOST_TEST((a.y == b.y));
      BOOST_TEST(!same_bits(a.X, simulate(spec, 1).X));
      const SimulateSpec other{name, 100, 9, 5};
      BOOST_TEST(!same_bits(a.X, simulate(other, 2).X));
    }
  }
}

BOOST_AUTO_TEST_CASE(prior_trees_respect_the_bart_prior_structure) {
  PriorForestSpec spec;
  spec.leaf_sd = std::sqrt(1.0 / spec.trees);
  Rng rng = Rng::stream(9, 0, 0, Purpose::Simulate, std::uint64_t{1} << 40);
  const std::vector<PriorTree> forest = draw_prior_forest(spec, rng);
  BOOST_TEST(forest.size() == 200u);
  std::vector<double> grid;
  for (int k = 1; k <= spec.cuts; ++k) grid.push_back(normal_quantile(k / 101.0));
  std::size_t nodes = 0, splits_at_root = 0;
  for (const PriorTree& tree : forest) {
    nodes += tree.size();
    splits_at_root += tree.front().var >= 0;
    for (std::size_t at = 0; at < tree.size(); ++at) {
      const PriorTreeNode& node = tree[at];
      if (node.var < 0) continue;
      BOOST_TEST(node.var < spec.vars);
      BOOST_TEST((std::find(grid.begin(), grid.end(), node.cut) != grid.end()));
      BOOST_TEST(static_cast<std::size_t>(node.left) == at + 1);  // preorder: the left child follows its parent
      BOOST_TEST(static_cast<std::size_t>(node.right) > at + 1);
    }
  }
  // The root splits with probability 0.95: 190 of 200 expected, binomial standard deviation 3.1.
  BOOST_TEST(std::abs(static_cast<double>(splits_at_root) - 190.0) < 3 * std::sqrt(200 * 0.95 * 0.05));
  BOOST_TEST(nodes > 600u);  // depth-1 children split with probability 0.95/4: a few nodes per tree on average
  BOOST_TEST(std::abs(normal_quantile(0.5)) < 1e-15);
  BOOST_TEST(normal_quantile(0.975) == 1.959963984540054, boost::test_tools::tolerance(1e-14));
}

BOOST_AUTO_TEST_SUITE_END()
