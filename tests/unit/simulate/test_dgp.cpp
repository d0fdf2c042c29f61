// Simulated DGPs ([Wu eqs. 1, 3, 5]; [TVS §6.1]): determinism, moments, noise variance, sources, errors.
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <cstring>
#include <numbers>

#include "column_moments.hpp"
#include "core/error.hpp"
#include "expect_error.hpp"
#include "simulate/dgp.hpp"

using namespace bfs;

using bfs::test::expect_config_error;

namespace {

bool equal(const Matrix& a, const Matrix& b) {
  return a.rows() == b.rows() && a.cols() == b.cols() &&
         std::memcmp(a.data(), b.data(), sizeof(float) * static_cast<std::size_t>(a.size())) == 0;
}

double corr(const Matrix& X, Index a, Index b) {
  return test::column_correlation(X, a, b);
}

double variance(const Eigen::VectorXd& v) {
  return (v.array() - v.mean()).square().mean();
}

/// y − f(x) with f of the spec's DGP (forest's is drawn from the seed: dgp_mean_function).
Eigen::VectorXd residuals(const Dataset& d, const SimulateSpec& spec) {
  const auto f = dgp_mean_function(spec);
  Eigen::VectorXd r(d.rows());
  for (Index i = 0; i < d.rows(); ++i) r[i] = d.y[i] - f(std::span<const float>(d.X.data() + i * d.cols(), d.cols()));
  return r;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(dgp)

BOOST_AUTO_TEST_CASE(shape_names_truth_origin) {
  for (const Dgp name : xy_dgps()) {
    Dataset d = simulate({name, 30, 12, 4});
    BOOST_TEST(d.rows() == 30);
    BOOST_TEST(d.cols() == 12);
    BOOST_TEST(d.feature_names.front() == "x1");
    BOOST_TEST(d.feature_names.back() == "x12");
    BOOST_TEST(d.truth == dgp_truth(name), boost::test_tools::per_element());
    const auto dgp = enum_from_name<Dgp>(name_of(name));
    BOOST_TEST_REQUIRE(dgp.has_value());  // every DGP is a data.dgp value, by its name
    BOOST_TEST((*dgp == name && dgp_from_name(std::string(name_of(name))) == name));
    if (*dgp <= Dgp::Forest) {  // the first six: x1..x5 ([FIRST]'s designs: test_first_designs.cpp)
      BOOST_TEST(d.truth == std::vector<FeatureId>({0, 1, 2, 3, 4}), boost::test_tools::per_element());
    }
    BOOST_TEST(d.has_truth);
    BOOST_TEST(d.origin == "simulate:" + std::string(name_of(name)));
    BOOST_CHECK_NO_THROW(validate_dataset(d));
  }
}

BOOST_AUTO_TEST_CASE(same_seed_same_data_other_batch_or_seed_differs) {
  for (const Dgp name : xy_dgps()) {
    SimulateSpec spec{name, 40, 10, 123};
    Dataset a = simulate(spec, 0), b = simulate(spec, 0), c = simulate(spec, 1);
    BOOST_TEST(equal(a.X, b.X));
    BOOST_TEST((a.y == b.y));
    BOOST_TEST(!equal(a.X, c.X));
    spec.seed = 124;
    BOOST_TEST(!equal(a.X, simulate(spec, 0).X));
  }
}

BOOST_AUTO_TEST_CASE(mean_functions_match_the_papers) {
  const float half[5] = {0.5f, 0.5f, 0.5f, 0.5f, 0.5f};
  BOOST_TEST(dgp_mean(Dgp::Friedman1, half) == 10 * std::sin(std::numbers::pi / 4) + 5 + 2.5,
             boost::test_tools::tolerance(1e-12));
  BOOST_TEST(dgp_mean(Dgp::Friedman3, half) == 0.1 * std::exp(2.0) + 2 + 2 + 1.5 + 1,
             boost::test_tools::tolerance(1e-12));
  const float x[5] = {1, 2, 0.5f, 2, -1};
  BOOST_TEST(dgp_mean(Dgp::Liang, x) == 10 * 2 / 2.0 + 5 * std::sin(1.0) - 2, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(dgp_mean(Dgp::Linear, x) == 1 + 4 + 1.5 - 4 + 1, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(dgp_noise_variance(Dgp::Friedman1) == 1.0);
  BOOST_TEST(dgp_noise_variance(Dgp::Liang) == 0.5);
  BOOST_TEST(dgp_noise_variance(Dgp::Linear) == 5.0);
}

BOOST_AUTO_TEST_CASE(friedman_x_is_uniform_on_the_unit_interval) {
  for (const Dgp name : {Dgp::Friedman1, Dgp::Friedman3}) {
    Dataset d = simulate({name, 20000, 6, 8});
    BOOST_TEST(d.X.minCoeff() >= 0.0f);
    BOOST_TEST(d.X.maxCoeff() <= 1.0f);
    for (Index j = 0; j < 6; ++j) {
      Eigen::VectorXd c = d.X.col(j).cast<double>();
      BOOST_TEST(std::abs(c.mean() - 0.5) < 0.01);
      BOOST_TEST(std::abs(variance(c) - 1.0 / 12) < 0.003);
    }
    BOOST_TEST(std::abs(corr(d.X, 0, 1)) < 0.03);
  }
}

BOOST_AUTO_TEST_CASE(liang_features_are_pairwise_correlated_one_half) {
  Dataset d = simulate({Dgp::Liang, 20000, 8, 2});
  for (Index a = 0; a < 8; ++a) {
    for (Index b = a + 1; b < 8; ++b) BOOST_TEST(std::abs(corr(d.X, a, b) - 0.5) < 0.03);
    BOOST_TEST(std::abs(variance(d.X.col(a).cast<double>()) - 0.5) < 0.03);
  }
}

BOOST_AUTO_TEST_CASE(linear_features_follow_an_ar1_toeplitz_covariance) {
  Dataset d = simulate({Dgp::Linear, 20000, 10, 3});
  BOOST_TEST(std::abs(corr(d.X, 0, 1) - 0.9) < 0.01);
  BOOST_TEST(std::abs(corr(d.X, 0, 2) - 0.81) < 0.015);
  BOOST_TEST(std::abs(corr(d.X, 4, 9) - std::pow(0.9, 5)) < 0.02);
  for (Index j = 0; j < 10; ++j) BOOST_TEST(std::abs(variance(d.X.col(j).cast<double>()) - 1.0) < 0.05);
}

BOOST_AUTO_TEST_CASE(noise_has_the_papers_variance) {
  for (const Dgp name : xy_dgps()) {
    const SimulateSpec spec{name, 20000, 10, 11};
    Dataset d = simulate(spec);
    Eigen::VectorXd r = residuals(d, spec);
    const double expected = dgp_noise_variance(name);
    BOOST_TEST_INFO(name_of(name));
    BOOST_TEST(std::abs(r.mean()) < 4 * std::sqrt(expected / 20000));
    BOOST_TEST(std::abs(variance(r) / expected - 1.0) < 0.05);
  }
}

BOOST_AUTO_TEST_CASE(periods_stack_fresh_batches) {
  SimulateSpec spec{Dgp::Friedman3, 25, 7, 9};
  Dataset d = simulate_periods(spec, 4);
  BOOST_TEST(d.rows() == 100);
  BOOST_TEST(d.period_offsets == std::vector<std::int64_t>({0, 25, 50, 75, 100}), boost::test_tools::per_element());
  BOOST_TEST(d.period_labels == std::vector<std::int32_t>({0, 1, 2, 3}), boost::test_tools::per_element());
  BOOST_TEST(d.has_truth);
  BOOST_CHECK_NO_THROW(validate_dataset(d));
  for (int k = 0; k < 4; ++k) {
    Dataset b = simulate(spec, k);
    BOOST_TEST(equal(Matrix(d.X.middleRows(25 * k, 25)), b.X));
    BOOST_TEST((d.y.segment(25 * k, 25) == b.y));
  }
}

BOOST_AUTO_TEST_CASE(simulated_source_online_and_offline) {
  SimulateSpec spec{Dgp::Liang, 30, 6, 5};
  auto online = make_simulated_source(spec, 3, true, 2);
  auto offline = make_simulated_source(spec, 3, false, 2);
  BOOST_TEST(online->num_periods() == 3);
  BOOST_TEST(offline->num_periods() == 1);
  BOOST_TEST(online->num_features() == 8);
  BOOST_TEST(online->feature_names()[6] == "noise1");
  BOOST_TEST(online->truth() == std::vector<FeatureId>({0, 1, 2, 3, 4}), boost::test_tools::per_element());
  BOOST_TEST(online->has_truth());
  for (int k = 0; k < 3; ++k) {
    Dataset p = online->load_period(k);
    BOOST_TEST(p.cols() == 8);
    BOOST_TEST(equal(Matrix(p.X.leftCols(6)), simulate(spec, k).X));
    BOOST_TEST(equal(p.X, online->load_period(k).X));
  }
  BOOST_TEST(equal(offline->load_period(0).X, online->load_period(0).X));
  BOOST_TEST(online->load_period(1).X(0, 6) != online->load_period(2).X(0, 6));  // fresh noise per batch
  BOOST_CHECK_THROW(offline->load_period(1), InternalError);
}

BOOST_AUTO_TEST_CASE(bad_specs_are_config_errors) {
  expect_config_error(
      [] {
        simulate({Dgp::Friedman1, 10, 3, 1});
      },
      "data.p = 3 is below the 5 relevant features of friedman1");
  expect_config_error(
      [] { dgp_from_name("ishigamy"); },
      "data.dgp = \"ishigamy\" is not a known DGP (known: friedman1, friedman3, liang, linear, friedman1-corr, "
      "forest, ishigami, heavy-tailed, friedman-mod, ishigami-classic)");
  expect_config_error([] { simulate({Dgp::Linear, 0, 10, 1}); }, "data.n = 0 must be positive");
  expect_config_error([] { simulate_periods({Dgp::Linear, 5, 10, 1}, 0); }, "data.periods = 0");
  expect_config_error([] { make_simulated_source({Dgp::Liang, 5, 4, 1}, 1, false, 0); }, "data.p = 4");
  expect_config_error([] { make_simulated_source({Dgp::Liang, 5, 10, 1}, 1, false, -1); }, "data.noise_features");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_CASE(a_simulation_too_big_for_memory_is_refused_up_front) {
  // `simulate --n 99999999999` must be refused by name, not end in "unexpected error: std::bad_alloc".
  BOOST_CHECK_NO_THROW(check_simulation_fits(300, 1000, "--n, --p"));
  try {
    check_simulation_fits(99999999999, 1000, "--n, --p, --periods");
    BOOST_FAIL("no error");
  } catch (const InputError& e) {
    const std::string what = e.what();
    BOOST_TEST(what.find("--n, --p, --periods ask for 99999999999 rows x 1000 features") != std::string::npos);
    BOOST_TEST(what.find("GiB of memory") != std::string::npos);
  }
}
