// FIRST [FIRST] (src/methods/first/): the estimator's hand case, the tie rule, NANNE's formula, the §4 example
// (a correlated, irrelevant X3 is dropped and ψ̂ ≈ (0.5, 0.5)), FIRST-FAST on the same, independence of the
// thread count, and agreement with the NumPy reference (tests/data/first_reference.py) on a lattice fixture.
#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <cstring>

#include "core/rng.hpp"
#include "methods/first/detail/forward_search.hpp"
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

namespace {

/// tests/data/first_reference.py's fixture: 40 × 5 integer columns (row-major) full of ties and duplicate rows.
constexpr double kLatticeX[] = {0, 1, 2, 0, 3, 1, 1, 2, 0, 1, 0, 1, 3, 1, 3, 0, 1, 2, 1, 0, 3, 1, 1, 0, 1, 0, 1, 4, 1,
                                2, 3, 0, 1, 1, 2, 2, 0, 3, 0, 3, 0, 0, 0, 0, 1, 0, 1, 2, 1, 1, 0, 0, 0, 1, 3, 2, 1, 0,
                                0, 3, 0, 1, 3, 1, 3, 0, 1, 4, 1, 0, 0, 2, 3, 0, 2, 3, 1, 1, 1, 0, 0, 2, 0, 0, 1, 3, 2,
                                3, 1, 0, 0, 0, 1, 0, 2, 1, 1, 1, 1, 2, 0, 1, 2, 0, 0, 3, 0, 4, 0, 2, 2, 2, 4, 1, 3, 3,
                                2, 2, 0, 2, 0, 1, 3, 1, 0, 0, 1, 1, 1, 2, 3, 2, 0, 0, 1, 0, 1, 2, 1, 2, 0, 2, 3, 0, 0,
                                3, 2, 1, 1, 2, 0, 0, 2, 1, 3, 3, 0, 1, 0, 3, 0, 2, 2, 0, 1, 0, 0, 0, 1, 2, 3, 1, 0, 0,
                                1, 3, 0, 4, 1, 0, 2, 1, 3, 1, 0, 0, 2, 2, 1, 1, 1, 2, 1, 1, 0, 2, 2, 0, 1, 0};
constexpr double kLatticeY[] = {1,    3.25, 2,    1,    6.75, 2.5,  5.5,  2.75, 0.5,   1,    0.25, 4.5,  1.5, 2.25,
                                5,    6.5,  0.25, 11,   -0.5, 2.75, 1.5,  4,    10.25, 9.5,  1.5,  0.75, 6.5, 1,
                                4.75, 8,    -1,   5.75, 3.5,  0,    6.25, 4.5,  5.5,   3.25, 4,    4};

TotalIndex lattice_fixture(std::size_t inner) {
  constexpr std::size_t n = 40, p = 5;
  detail::Columns x;
  x.rows = n;
  x.cols = p;
  x.values.resize(n * p);
  for (std::size_t r = 0; r < n; ++r)
    for (std::size_t j = 0; j < p; ++j) x.values[j * n + r] = kLatticeX[r * p + j];
  methods::standardise(x);
  return TotalIndex(std::move(x), std::vector<double>(std::begin(kLatticeY), std::end(kLatticeY)), inner);
}

bool agrees(double got, double expected) {
  return std::abs(got - expected) <= 1e-12 * std::max(1.0, std::abs(expected));
}

}  // namespace

BOOST_AUTO_TEST_CASE(the_lattice_fixture_matches_the_numpy_reference) {
  // Printed by /usr/bin/python3 tests/data/first_reference.py (17 significant digits).
  struct Expected {
    std::vector<std::size_t> u;
    double t2, t3;  // T̂(u) with N_I = 2 and 3
  };
  const std::vector<Expected> expected = {
      {{0}, 3.5556250000000014, 3.5556250000000014},        {{1}, 6.8662646687462843, 6.8662646687462843},
      {{2}, 8.8258184523809486, 8.8258184523809486},        {{0, 1}, 2.2718005952380951, 1.9015773809523808},
      {{0, 2}, 2.1083767361111105, 3.9796564980158728},     {{1, 2}, 5.9567187500000012, 6.3530729166666671},
      {{0, 1, 2}, 0.83263020833333334, 1.1673921130952383}, {{0, 1, 2, 3, 4}, 2.662760416666667, 2.8837239583333329},
      {{3, 4}, 9.825260416666671, 10.09149305555556}};
  const TotalIndex t2 = lattice_fixture(2), t3 = lattice_fixture(3);
  BOOST_TEST(agrees(t2.var_y(), 8.7897035256410234));
  for (const auto& e : expected) {
    BOOST_TEST_CONTEXT("u = " << e.u.size() << " columns from " << e.u[0]) {
      BOOST_TEST(agrees(t2.estimate(e.u, all_rows(40)), e.t2), t2.estimate(e.u, all_rows(40)) << " vs " << e.t2);
      BOOST_TEST(agrees(t3.estimate(e.u, all_rows(40)), e.t3), t3.estimate(e.u, all_rows(40)) << " vs " << e.t3);
    }
  }
}

BOOST_AUTO_TEST_CASE(first_on_the_lattice_fixture_matches_the_numpy_reference) {
  struct Expected {
    std::size_t inner;
    bool fast;
    std::vector<std::size_t> forward;
    std::vector<double> explained, psi;
  };
  const std::vector<Expected> expected = {
      {2,
       false,
       {0, 2, 1},
       {5.2340785256410225, 6.6813267895299129, 7.9570733173076897},
       {0.64396648583356586, 0.16032861290882661, 0.18086679982882342, 0, 0}},
      {2, true, {0, 1}, {5.2340785256410225, 6.5179029304029283}, {0.70489912515836828, 0.19696893594003584, 0, 0, 0}},
      {3,
       false,
       {0, 1, 2},
       {5.2340785256410225, 6.888126144688643, 7.6223114125457849},
       {0.68032917089115053, 0.36895165163310523, 0.096320555290974538, 0, 0}},
      {3, true, {0, 1}, {5.2340785256410225, 6.888126144688643}, {0.72076021598735074, 0.24013027408376342, 0, 0, 0}}};
  for (const auto& e : expected) {
    BOOST_TEST_CONTEXT("N_I = " << e.inner << ", fast = " << e.fast) {
      const TotalIndex t = lattice_fixture(e.inner);
      LocalExecutor executor(2);
      FirstSettings settings;
      settings.fast = e.fast;
      const FirstOutcome out = run_first(t, settings, executor);
      BOOST_TEST(out.forward == e.forward, boost::test_tools::per_element());
      BOOST_TEST_REQUIRE(out.forward_explained.size() == e.explained.size());
      for (std::size_t i = 0; i < e.explained.size(); ++i) BOOST_TEST(agrees(out.forward_explained[i], e.explained[i]));
      BOOST_TEST_REQUIRE(out.psi.size() == e.psi.size());
      for (std::size_t j = 0; j < e.psi.size(); ++j)
        BOOST_TEST(agrees(out.psi[j], e.psi[j]), "psi[" << j << "] = " << out.psi[j] << " vs " << e.psi[j]);
    }
  }
}

namespace {

/// Algorithm 3 (or S1) written out with TotalIndex::estimate per candidate (a kd-tree each), without the shared
/// forward search: the forward set and V̂ after each addition.
std::pair<std::vector<std::size_t>, std::vector<double>> forward_by_estimate(const TotalIndex& t,
                                                                             const FirstSettings& settings) {
  std::vector<std::size_t> a, candidates(t.features());
  std::vector<double> explained;
  for (std::size_t j = 0; j < t.features(); ++j) candidates[j] = j;
  for (std::uint64_t step = 1; !candidates.empty(); ++step) {
    const auto outer = outer_rows(t.rows(), settings.n_outer, settings.seed, kForwardPhase, step);
    std::vector<double> v(candidates.size());
    for (std::size_t c = 0; c < candidates.size(); ++c) {
      std::vector<std::size_t> u = a;
      u.push_back(candidates[c]);
      v[c] = t.var_y() - t.estimate(u, outer);
    }
    const auto best = static_cast<std::size_t>(std::max_element(v.begin(), v.end()) - v.begin());
    const double previous = explained.empty() ? 0.0 : explained.back();
    if (!(v[best] > previous)) break;
    a.push_back(candidates[best]);
    explained.push_back(v[best]);
    std::vector<std::size_t> next;
    for (std::size_t c = 0; c < candidates.size(); ++c)
      if (c != best && !(settings.fast && v[c] < previous)) next.push_back(candidates[c]);
    candidates = std::move(next);
  }
  return {a, explained};
}

}  // namespace

BOOST_AUTO_TEST_CASE(the_shared_forward_search_changes_no_step) {
  // 40 columns, so a step has enough candidates for the shared lists (detail::forward_search_pays), on continuous
  // data and on a coarse lattice (ties at every distance).
  for (const bool lattice : {false, true}) {
    Rng rng(lattice ? 31 : 32);
    constexpr std::size_t n = 300, p = 40;
    detail::Columns x;
    x.rows = n;
    x.cols = p;
    x.values.resize(n * p);
    for (double& v : x.values) v = lattice ? static_cast<double>(rng.uniform_int(4)) : rng.normal();
    std::vector<double> y(n);
    for (std::size_t i = 0; i < n; ++i)
      y[i] = 2.0 * x.values[i] + 1.5 * x.values[n + i] + x.values[2 * n + i] * x.values[3 * n + i] + 0.5 * rng.normal();
    methods::standardise(x);
    const TotalIndex t(std::move(x), std::move(y), 2);
    BOOST_TEST(detail::forward_search_pays(p, n, n));
    for (const bool fast : {false, true}) {
      for (const std::size_t n_outer : {std::size_t{0}, std::size_t{120}}) {
        FirstSettings settings;
        settings.fast = fast;
        settings.n_outer = n_outer;
        settings.seed = 4;
        LocalExecutor executor(2);
        const FirstOutcome out = run_first(t, settings, executor);
        const auto [forward, explained] = forward_by_estimate(t, settings);
        BOOST_TEST_CONTEXT("lattice " << lattice << ", fast " << fast << ", N_O " << n_outer) {
          BOOST_TEST(out.forward == forward, boost::test_tools::per_element());
          BOOST_TEST(out.forward.size() >= 2u);
          BOOST_TEST(std::memcmp(out.forward_explained.data(), explained.data(), explained.size() * sizeof(double)) ==
                     0);
        }
      }
    }
  }
}
