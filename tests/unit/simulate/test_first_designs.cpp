// [FIRST]'s designs (FIRST, §3.3, §5 eqs. 16–18, §6.1): the mean functions at hand-computed points, the truth sets,
// the Gaussian copula's correlation ρ^|j−k| on the normal scores Φ⁻¹(x), uniform marginals, Bernoulli(Φ(f)) labels,
// determinism and the refusals.
#include <algorithm>
#include <boost/math/distributions/normal.hpp>
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <cstring>
#include <limits>
#include <numbers>
#include <span>

#include "core/error.hpp"
#include "expect_error.hpp"
#include "simulate/dgp.hpp"

using namespace bfs;
namespace tt = boost::test_tools;

using bfs::test::expect_config_error;

namespace {

constexpr double kPi = std::numbers::pi;
const Dgp kCopula[] = {Dgp::Ishigami, Dgp::HeavyTailed, Dgp::FriedmanMod};

double f_of(Dgp dgp, const Dataset& d, Index i) {
  return dgp_mean(dgp, std::span<const float>(d.X.data() + i * d.cols(), static_cast<std::size_t>(d.cols())));
}

/// Pearson correlation of the normal scores Φ⁻¹(x) of columns a and b (x clamped away from 0 and 1: a float x can
/// round to 1 in the far tail).
double score_corr(const Matrix& X, Index a, Index b) {
  const boost::math::normal normal;
  auto score = [&](Index j) {
    Eigen::VectorXd z(X.rows());
    for (Index i = 0; i < X.rows(); ++i)
      z[i] = boost::math::quantile(normal, std::clamp(static_cast<double>(X(i, j)), 1e-9, 1.0 - 1e-7));
    z.array() -= z.mean();
    return z;
  };
  const Eigen::VectorXd u = score(a), v = score(b);
  return u.dot(v) / std::sqrt(u.squaredNorm() * v.squaredNorm());
}

bool same_bits(const Matrix& a, const Matrix& b) {
  return a.rows() == b.rows() && a.cols() == b.cols() &&
         std::memcmp(a.data(), b.data(), sizeof(float) * static_cast<std::size_t>(a.size())) == 0;
}

SimulateSpec spec_of(Dgp dgp, Index n, Index p, std::uint64_t seed, double rho = 0.0) {
  SimulateSpec spec{dgp, n, p, seed};
  spec.rho = rho;
  return spec;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(first_designs)

BOOST_AUTO_TEST_CASE(ishigami_eq16_rescales_the_unit_interval_to_minus_pi_pi) {
  const float zero[3] = {0.5f, 0.5f, 0.5f};  // 2π·0.5 − π = 0 exactly
  BOOST_TEST(dgp_mean(Dgp::Ishigami, zero) == 0.0);
  const float top[3] = {0.75f, 0.75f, 1.0f};  // (π/2, π/2, π)
  BOOST_TEST(dgp_mean(Dgp::Ishigami, top) == 1.0 + 7.0 + 0.1 * std::pow(kPi, 4), tt::tolerance(1e-12));
  const float low[3] = {0.25f, 0.25f, 0.0f};  // (−π/2, −π/2, −π)
  BOOST_TEST(dgp_mean(Dgp::Ishigami, low) == -1.0 + 7.0 - 0.1 * std::pow(kPi, 4), tt::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(ishigami_classic_takes_x_on_minus_pi_pi) {
  const float x[4] = {1.0f, 2.0f, 0.5f, 99.0f};  // x4 unused
  const double expected = std::sin(1.0) + 7.0 * std::sin(2.0) * std::sin(2.0) + 0.1 * 0.0625 * std::sin(1.0);
  BOOST_TEST(dgp_mean(Dgp::IshigamiClassic, x) == expected, tt::tolerance(1e-12));
  const float zero[3] = {0.0f, 0.0f, 3.0f};
  BOOST_TEST(dgp_mean(Dgp::IshigamiClassic, zero) == 0.0);
}

BOOST_AUTO_TEST_CASE(heavy_tailed_eq17_uses_x1_x2_x3_x6) {
  const float a[6] = {1.0f, 1.0f, 0.0f, 99.0f, -99.0f, 0.5f};  // x4, x5 unused
  BOOST_TEST(dgp_mean(Dgp::HeavyTailed, a) == 2.0 * std::log(2.0) / std::cos(1.0) + 1.0 / std::sqrt(0.6),
             tt::tolerance(1e-12));
  const float b[6] = {0.5f, 0.5f, 0.5f, 0.0f, 0.0f, 0.75f};
  const double expected =
      2.0 * std::log(0.25 + 0.0625) / (std::cos(0.5) + std::sin(0.5)) + 0.25 * std::exp(0.5) / std::sqrt(0.35);
  BOOST_TEST(dgp_mean(Dgp::HeavyTailed, b) == expected, tt::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(friedman_mod_eq18_uses_x1_x7_to_x10) {
  float half[10];
  std::fill(std::begin(half), std::end(half), 0.5f);
  BOOST_TEST(dgp_mean(Dgp::FriedmanMod, half) == 10.0 * std::sin(kPi / 4) - 7.5, tt::tolerance(1e-12));
  const float x[10] = {1.0f, 9.0f, 9.0f, 9.0f, 9.0f, 9.0f, 0.5f, 1.0f, 1.0f, 1.0f};  // x2..x6 unused
  // 10 sin(π/2) + 20·0.25 + 10 + 5 − 20 − 10 = 0
  BOOST_TEST(std::abs(dgp_mean(Dgp::FriedmanMod, x)) < 1e-12);
  const float y[10] = {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f};
  BOOST_TEST(dgp_mean(Dgp::FriedmanMod, y) == 5.0 + 5.0 - 10.0, tt::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(truth_sets_are_the_papers_zero_based) {
  BOOST_TEST(dgp_truth(Dgp::Ishigami) == std::vector<FeatureId>({0, 1, 2}), tt::per_element());
  BOOST_TEST(dgp_truth(Dgp::IshigamiClassic) == std::vector<FeatureId>({0, 1, 2}), tt::per_element());
  BOOST_TEST(dgp_truth(Dgp::HeavyTailed) == std::vector<FeatureId>({0, 1, 2, 5}), tt::per_element());
  BOOST_TEST(dgp_truth(Dgp::FriedmanMod) == std::vector<FeatureId>({0, 6, 7, 8, 9}), tt::per_element());
  BOOST_TEST(dgp_truth(Dgp::Friedman1) == std::vector<FeatureId>({0, 1, 2, 3, 4}), tt::per_element());
  for (const Dgp name : {Dgp::Ishigami, Dgp::HeavyTailed, Dgp::FriedmanMod, Dgp::IshigamiClassic}) {
    BOOST_TEST_CONTEXT(name_of(name)) {
      const Dataset d = simulate(spec_of(name, 20, 12, 3));
      BOOST_TEST(d.truth == dgp_truth(name), tt::per_element());
      BOOST_TEST(d.has_truth);
      BOOST_TEST(make_simulated_source(spec_of(name, 20, 12, 3), 1, false, 0)->truth() == dgp_truth(name),
                 tt::per_element());
      BOOST_TEST(dgp_noise_variance(name) == 1.0);
    }
  }
  BOOST_TEST(dgp_uses_rho(Dgp::Ishigami));
  BOOST_TEST(dgp_uses_rho(Dgp::HeavyTailed));
  BOOST_TEST(dgp_uses_rho(Dgp::FriedmanMod));
  BOOST_TEST(!dgp_uses_rho(Dgp::IshigamiClassic));
  BOOST_TEST(!dgp_uses_rho(Dgp::Linear));
}

BOOST_AUTO_TEST_CASE(copula_marginals_are_uniform_on_the_unit_interval) {
  const Dataset d = simulate(spec_of(Dgp::FriedmanMod, 20000, 10, 5, 0.9));
  BOOST_TEST(d.X.minCoeff() >= 0.0f);
  BOOST_TEST(d.X.maxCoeff() <= 1.0f);
  for (Index j = 0; j < 10; ++j) {
    const Eigen::VectorXd c = d.X.col(j).cast<double>();
    BOOST_TEST(std::abs(c.mean() - 0.5) < 0.015);
    BOOST_TEST(std::abs((c.array() - c.mean()).square().mean() - 1.0 / 12) < 0.004);
  }
  const Dataset classic = simulate(spec_of(Dgp::IshigamiClassic, 20000, 5, 5));
  BOOST_TEST(classic.X.minCoeff() >= -static_cast<float>(kPi));
  BOOST_TEST(classic.X.maxCoeff() <= static_cast<float>(kPi));
  for (Index j = 0; j < 5; ++j) BOOST_TEST(std::abs(classic.X.col(j).cast<double>().mean()) < 0.05);
}

BOOST_AUTO_TEST_CASE(normal_scores_have_correlation_rho_to_the_lag) {
  // sd of a sample correlation at n = 20000 is below 0.007: a bound of 0.03 fails for ρ² in place of ρ, or for
  // independent columns, but not by chance.
  for (const double rho : {0.0, 0.5, 0.9}) {
    BOOST_TEST_CONTEXT("rho " << rho) {
      const Dataset d = simulate(spec_of(Dgp::Ishigami, 20000, 8, 17, rho));
      for (const auto& [a, b] : {std::pair<Index, Index>{0, 1}, {0, 2}, {2, 5}, {1, 7}, {6, 7}}) {
        BOOST_TEST_INFO("columns " << a << ", " << b);
        BOOST_TEST(std::abs(score_corr(d.X, a, b) - std::pow(rho, static_cast<double>(b - a))) < 0.03);
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(binary_labels_are_bernoulli_of_phi_f_uncentred) {
  for (const Dgp name : {Dgp::Ishigami, Dgp::HeavyTailed, Dgp::FriedmanMod, Dgp::IshigamiClassic}) {
    BOOST_TEST_CONTEXT(name_of(name)) {
      SimulateSpec spec = spec_of(name, 20000, 10, 21, dgp_uses_rho(name) ? 0.5 : 0.0);
      const Dataset regression = simulate(spec);
      spec.binary = true;
      const Dataset d = simulate(spec);
      BOOST_TEST(same_bits(regression.X, d.X));
      BOOST_TEST((d.y.array() == 0.0 || d.y.array() == 1.0).all());
      double expected = 0.0;  // E[Φ(f)] over these rows
      for (Index i = 0; i < d.rows(); ++i) expected += 0.5 * std::erfc(-f_of(name, d, i) / std::numbers::sqrt2);
      expected /= static_cast<double>(d.rows());
      BOOST_TEST_INFO("mean y " << d.y.mean() << ", mean Phi(f) " << expected);
      BOOST_TEST(std::abs(d.y.mean() - expected) < 4.0 * std::sqrt(0.25 / 20000.0));
    }
  }
  // Uncentred: the Ishigami's f is mostly positive (E f = 3.5), so most labels are 1, unlike a standardised f.
  SimulateSpec spec = spec_of(Dgp::Ishigami, 5000, 3, 4);
  spec.binary = true;
  BOOST_TEST(simulate(spec).y.mean() > 0.7);
}

BOOST_AUTO_TEST_CASE(same_seed_same_file_other_rho_or_seed_differs) {
  const SimulateSpec spec = spec_of(Dgp::HeavyTailed, 50, 8, 9, 0.5);
  const Dataset a = simulate(spec), b = simulate(spec);
  BOOST_TEST(same_bits(a.X, b.X));
  BOOST_TEST((a.y.array() == b.y.array()).all());
  BOOST_TEST(!same_bits(a.X, simulate(spec_of(Dgp::HeavyTailed, 50, 8, 9, 0.6)).X));
  BOOST_TEST(!same_bits(a.X, simulate(spec_of(Dgp::HeavyTailed, 50, 8, 10, 0.5)).X));
  BOOST_TEST(!same_bits(a.X, simulate(spec, 1).X));
  // y = f(stored x) + ε with ε ~ N(0, 1)
  const Dataset big = simulate(spec_of(Dgp::FriedmanMod, 20000, 10, 2, 0.8));
  Eigen::VectorXd r(big.rows());
  for (Index i = 0; i < big.rows(); ++i) r[i] = big.y[i] - f_of(Dgp::FriedmanMod, big, i);
  BOOST_TEST(std::abs(r.mean()) < 0.03);
  BOOST_TEST(std::abs((r.array() - r.mean()).square().mean() - 1.0) < 0.05);
}

BOOST_AUTO_TEST_CASE(refusals_name_the_value) {
  for (const Dgp name : kCopula) {
    expect_config_error([&] { simulate(spec_of(name, 10, 12, 1, 1.0)); }, "rho = 1 must be a finite number in [0, 1)");
    expect_config_error([&] { simulate(spec_of(name, 10, 12, 1, -0.1)); }, "rho = -0.1 must be");
    expect_config_error([&] { simulate(spec_of(name, 10, 12, 1, std::numeric_limits<double>::quiet_NaN())); },
                        "rho = nan must be");
    expect_config_error([&] { simulate(spec_of(name, 10, 12, 1, std::numeric_limits<double>::infinity())); },
                        "rho = inf must be");
  }
  expect_config_error([] { simulate(spec_of(Dgp::Friedman1, 10, 12, 1, 0.5)); },
                      "rho = 0.5 does not apply to friedman1");
  expect_config_error([] { simulate(spec_of(Dgp::IshigamiClassic, 10, 3, 1, 0.5)); },
                      "rho = 0.5 does not apply to ishigami-classic");
  expect_config_error([] { simulate(spec_of(Dgp::Ishigami, 10, 2, 1)); },
                      "data.p = 2 is below the 3 relevant features of ishigami");
  expect_config_error([] { simulate(spec_of(Dgp::HeavyTailed, 10, 5, 1)); },
                      "data.p = 5 is below the 6 features heavy-tailed needs (its truth is x1, x2, x3, x6)");
  expect_config_error([] { simulate(spec_of(Dgp::FriedmanMod, 10, 9, 1)); },
                      "data.p = 9 is below the 10 features friedman-mod needs (its truth is x1, x7, x8, x9, x10)");
  expect_config_error([] { make_simulated_source(spec_of(Dgp::FriedmanMod, 10, 9, 1), 1, false, 0); }, "data.p = 9");
  BOOST_CHECK_NO_THROW(simulate(spec_of(Dgp::IshigamiClassic, 10, 3, 1)));
  BOOST_CHECK_NO_THROW(simulate(spec_of(Dgp::HeavyTailed, 10, 6, 1, 0.99)));
}

BOOST_AUTO_TEST_SUITE_END()
