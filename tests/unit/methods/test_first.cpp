// FIRST (paper 002; src/methods/first/): the estimator's hand case, the tie rule, NANNE's formula, the §4 example
// (a correlated, irrelevant X3 is dropped and ψ̂ ≈ (0.5, 0.5)), FIRST-FAST on the same, and independence of the
// thread count.
#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <cstring>

#include "core/rng.hpp"
#include "methods/first/first.hpp"
#include "methods/first/nanne.hpp"

using namespace bfs;
using namespace bfs::first;

namespace {

detail::Columns columns(const std::vector<std::vector<double>>& cols) {
  detail::Columns x;
  x.cols = cols.size();
  x.rows = cols.empty() ? 0 : cols[0].size();
  for (const auto& c : cols) x.values.insert(x.values.end(), c.begin(), c.end());
  return x;
}

std::vector<std::size_t> all_rows(std::size_t n) {
  return outer_rows(n, 0, 0, 0, 0);
}

/// §4's example: X1, X2 ~ N(0,1), X3 = 0.9 X2 + √0.19 Z, Y = X1 + X2.
TotalIndex section4_example(std::size_t n, std::uint64_t seed) {
  Rng rng(seed);
  std::vector<double> x1(n), x2(n), x3(n), y(n);
  for (std::size_t i = 0; i < n; ++i) {
    x1[i] = rng.normal();
    x2[i] = rng.normal();
    x3[i] = 0.9 * x2[i] + std::sqrt(0.19) * rng.normal();
    y[i] = x1[i] + x2[i];
  }
  return TotalIndex(columns({x1, x2, x3}), y, 2);
}

}  // namespace

BOOST_AUTO_TEST_CASE(the_estimator_matches_the_hand_case) {
  // x = (0, 0, 1, 3), y = (1, 3, 2, 6), N_I = 2: neighbourhoods {1,2}, {1,2}, {1,2,3} (a tie at distance 1),
  // {3,4}; variances 2, 2, 1, 8 ⇒ T̂ = 13/4; Var̂Y = 14/3.
  const TotalIndex t(columns({{0, 0, 1, 3}}), {1, 3, 2, 6}, 2);
  BOOST_TEST(t.var_y() == 14.0 / 3.0, boost::test_tools::tolerance(1e-15));
  BOOST_TEST(t.estimate({0}, all_rows(4)) == 13.0 / 4.0, boost::test_tools::tolerance(1e-15));
  BOOST_TEST(t.estimate({}, all_rows(4)) == t.var_y());
  // Outer rows restrict the mean, not the neighbour search: rows 3 and 4 alone give (1 + 8) / 2.
  const std::vector<std::size_t> outer = {2, 3};
  BOOST_TEST(t.estimate({0}, outer) == 4.5, boost::test_tools::tolerance(1e-15));
}

BOOST_AUTO_TEST_CASE(nanne_follows_algorithm_1) {
  const TotalIndex t = section4_example(400, 3);
  LocalExecutor executor(1);
  const auto rows = all_rows(400);
  const std::vector<std::size_t> a = {0, 1};
  const NanneResult r = nanne(t, a, rows, executor);
  const double noise = t.estimate({0, 1}, rows);
  BOOST_TEST(r.noise_var == noise);
  BOOST_TEST(r.explained_var == std::max(t.var_y() - noise, 0.0));
  BOOST_TEST(r.indices[0] == std::max(t.estimate({1}, rows) - noise, 0.0) / r.explained_var);
  BOOST_TEST(r.indices[1] == std::max(t.estimate({0}, rows) - noise, 0.0) / r.explained_var);
}

BOOST_AUTO_TEST_CASE(outer_subsamples_are_without_replacement_and_keyed_by_step) {
  const auto a = outer_rows(50, 20, 7, kForwardPhase, 1);
  BOOST_TEST(a.size() == 20u);
  for (std::size_t i = 1; i < a.size(); ++i) BOOST_TEST(a[i - 1] < a[i]);
  BOOST_TEST((a == outer_rows(50, 20, 7, kForwardPhase, 1)));
  BOOST_TEST((a != outer_rows(50, 20, 7, kForwardPhase, 2)));
  BOOST_TEST((a != outer_rows(50, 20, 7, kBackwardPhase, 1)));
  BOOST_TEST(outer_rows(50, 50, 7, 0, 1).size() == 50u);
}

BOOST_AUTO_TEST_CASE(the_section_4_example_drops_the_correlated_x3) {
  const TotalIndex t = section4_example(5000, 11);
  for (bool fast : {false, true}) {
    BOOST_TEST_CONTEXT("fast = " << fast) {
      LocalExecutor executor(2);
      FirstSettings settings;
      settings.fast = fast;
      const FirstOutcome out = run_first(t, settings, executor);
      std::vector<std::size_t> kept = out.backward.kept;
      std::sort(kept.begin(), kept.end());
      BOOST_TEST((kept == std::vector<std::size_t>{0, 1}));
      BOOST_TEST(out.psi[2] == 0.0);
      BOOST_TEST(out.psi[0] == 0.5, boost::test_tools::tolerance(0.1));
      BOOST_TEST(out.psi[1] == 0.5, boost::test_tools::tolerance(0.1));
    }
  }
}

BOOST_AUTO_TEST_CASE(the_thread_count_changes_nothing) {
  const TotalIndex t = section4_example(600, 5);
  FirstSettings settings;
  settings.n_outer = 200;
  settings.seed = 9;
  LocalExecutor one(1), three(3);
  const FirstOutcome a = run_first(t, settings, one);
  const FirstOutcome b = run_first(t, settings, three);
  BOOST_TEST(a.forward == b.forward);
  BOOST_TEST(std::memcmp(a.psi.data(), b.psi.data(), a.psi.size() * sizeof(double)) == 0);
  BOOST_TEST(std::memcmp(a.forward_explained.data(), b.forward_explained.data(),
                         a.forward_explained.size() * sizeof(double)) == 0);
}
